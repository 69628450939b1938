"""``minegraph green``: built on a bare argparse parser, as the main CLI wires it."""

from __future__ import annotations

import argparse
import io
import sys

import pytest

from minegraph.errors import MinegraphError
from minegraph.cli.green import ALGORITHMS, register, run
from minegraph.green.formats import read_paritysol, write_pgsolver, read_oi
from minegraph.green.solvers import SAMPLE_GRA_IN, SAMPLE_GRA_OUT, SOLVERS


def _run(argv):
    p = argparse.ArgumentParser(prog="minegraph")
    sp = p.add_subparsers()
    register(sp)
    args = p.parse_args(["green", *argv])
    return run(args)


@pytest.mark.parametrize("algorithm", ["attractor", "lifting", "fast"])
def test_task_mode_reads_gra_in_and_writes_gra_out(tmp_path, monkeypatch, algorithm):
    (tmp_path / "gra.in").write_text(SAMPLE_GRA_IN)
    monkeypatch.chdir(tmp_path)
    assert _run(["--algorithm", algorithm]) == 0
    assert (tmp_path / "gra.out").read_bytes() == SAMPLE_GRA_OUT.encode()


def test_file_to_stdout_and_to_output(tmp_path, capsys):
    src = tmp_path / "game.in"
    src.write_text(SAMPLE_GRA_IN)
    assert _run([str(src), "--verify"]) == 0
    assert capsys.readouterr().out == SAMPLE_GRA_OUT
    out = tmp_path / "answer.out"
    assert _run([str(src), "-o", str(out)]) == 0
    assert out.read_text() == SAMPLE_GRA_OUT


def test_strategy_listing(tmp_path, capsys):
    src = tmp_path / "g.in"
    src.write_text(SAMPLE_GRA_IN)
    _run([str(src), "--strategy"])
    out = capsys.readouterr().out
    head, moves = out.split("strategy\n")
    assert head == SAMPLE_GRA_OUT
    assert "8 3\n" in moves  # Bolek's winning move 8 -> 3


def test_pgsolver_in_paritysol_out(tmp_path, capsys):
    src = tmp_path / "g.gm"
    src.write_text(write_pgsolver(read_oi(SAMPLE_GRA_IN)))
    assert _run([str(src), "--format", "pgsolver"]) == 0
    sol = read_paritysol(capsys.readouterr().out)
    assert sol.oi_answer() == [1, 2, 4, 6, 7]


def test_stdin(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(SAMPLE_GRA_IN))
    _run(["-"])
    assert capsys.readouterr().out == SAMPLE_GRA_OUT


def test_errors_are_minegraph_errors(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(MinegraphError, match="cannot read gra.in"):
        _run([])
    (tmp_path / "bad.in").write_text("1 1\n1 1 1\n0 1 1\n")
    with pytest.raises(MinegraphError, match="line 2, column 5: .*alternate"):
        _run([str(tmp_path / "bad.in")])
    with pytest.raises(SystemExit):
        _run(["--algorithm", "nope"])


def test_the_algorithm_choices_are_the_solvers() -> None:
    assert list(ALGORITHMS) == sorted(SOLVERS)
