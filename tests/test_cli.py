"""The command line: analyze, solve, demo, errors as one line with exit status 2."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from minegraph.cli import main

EXAMPLES = Path(__file__).parents[1] / "src" / "minegraph" / "examples"


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "minegraph", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_analyze_json_from_stdin() -> None:
    p = run("analyze", "--json", "-", stdin="mines: 1\n#1#\n---\n")
    assert p.returncode == 0 and p.stderr == ""
    obj = json.loads(p.stdout)
    assert obj["solutions"] == "2" and obj["best"] == [0, 0] and obj["engine"] == "dp"


def test_analyze_text_report() -> None:
    out = io.StringIO()
    assert main(["analyze", str(EXAMPLES / "one-two-one.board")], out) == 0
    text = out.getvalue()
    assert "solutions: 1" in text and "mines (2): (0,1) (0,3)" in text
    assert "  0%100%  0%100%  0%" in text


def test_mines_option_and_format_option(tmp_path: Path) -> None:
    f = tmp_path / "b.txt"
    f.write_text("1 4 0\n9 1 9 9\n")   # header mines 0: total not specified
    out = io.StringIO()
    assert main(["analyze", "--json", "--format", "numeric", str(f)], out) == 0
    assert json.loads(out.getvalue())["solutions"] == "4"
    out = io.StringIO()
    assert main(["analyze", "--json", "--mines", "1", "--format", "numeric", str(f)], out) == 0
    obj = json.loads(out.getvalue())
    assert obj["solutions"] == "2" and obj["safe"] == [[0, 3]]


def test_solve_writes_the_same_format(tmp_path: Path) -> None:
    f = tmp_path / "b.mine"
    f.write_text("3x2x1\nH1H\n000\n")
    out = io.StringIO()
    # The zeros clear (0,0) and (0,2), so the 1 cannot be satisfied.
    assert main(["solve", str(f)], out) == 1
    f.write_text("3x2x1\nH1H\nHHH\n")
    out = io.StringIO()
    assert main(["solve", str(f)], out) == 0
    assert out.getvalue().splitlines()[0] == "3x2x1"
    assert out.getvalue().count("F") == 1


def test_solve_inconsistent() -> None:
    p = run("solve", "-", stdin="#3#\n---\n")
    assert p.returncode == 1 and "no solution" in p.stdout
    p = run("solve", "-", stdin="2 3 0\n9 3 9\n0 0 0\n")
    assert p.returncode == 1 and p.stdout == "NO SOLUTION\n"


def test_bad_input_is_one_line_and_exit_2() -> None:
    for stdin, where in [("#z#\n", "line 1, column 2"), ("###\n##\n", "line 2"),
                         ("mines: -3\n##\n", "line 1"), ("", "empty input"),
                         ("#9#\n###\n", "number 9 is too large")]:
        p = run("analyze", "-", stdin=stdin)
        assert p.returncode == 2, stdin
        assert p.stdout == "" and p.stderr.count("\n") == 1 and where in p.stderr
        assert p.stderr.startswith("minegraph: error: ")
    p = run("analyze", "/nonexistent/board.txt")
    assert p.returncode == 2 and "cannot read" in p.stderr


def test_unknown_engine_is_a_user_error() -> None:
    p = run("analyze", "--engine", "nope", "-", stdin="#1#\n")
    assert p.returncode == 2 and "unknown engine 'nope'" in p.stderr


def test_demo_analyses_every_example() -> None:
    out = io.StringIO()
    assert main(["demo"], out) == 0
    text = out.getvalue()
    for path in EXAMPLES.glob("*.board"):
        assert f"=== {path.name} ===" in text
    assert "board: 16x30 square" in text and "consistent: yes" in text
