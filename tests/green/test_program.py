"""The olympiad's program as a function: game text in, answer text out."""

from __future__ import annotations

import pytest

from minegraph.errors import FormatError, MinegraphError
from minegraph.green import program
from minegraph.green.formats import read_oi, read_paritysol, write_pgsolver
from minegraph.green.solution import Solution
from minegraph.green.solvers import SAMPLE_GRA_IN, SAMPLE_GRA_OUT, SOLVERS


@pytest.mark.parametrize("algorithm", sorted(SOLVERS))
def test_the_task_sample(algorithm: str) -> None:
    assert program.answer(SAMPLE_GRA_IN, algorithm=algorithm, check=True) == SAMPLE_GRA_OUT


def test_strategies_follow_the_answer() -> None:
    head, moves = program.answer(SAMPLE_GRA_IN, strategy=True).split("strategy\n")
    assert head == SAMPLE_GRA_OUT and "8 3\n" in moves


def test_pgsolver_in_paritysol_out_ignores_oi_options() -> None:
    text = write_pgsolver(read_oi(SAMPLE_GRA_IN))
    out = program.answer(text, format="pgsolver", strategy=True)
    assert read_paritysol(out).oi_answer() == [1, 2, 4, 6, 7] and "strategy" not in out


def test_errors() -> None:
    with pytest.raises(MinegraphError, match="unknown game format 'gm'"):
        program.answer(SAMPLE_GRA_IN, format="gm")
    with pytest.raises(MinegraphError, match="unknown algorithm"):
        program.answer(SAMPLE_GRA_IN, algorithm="zielonka")
    with pytest.raises(FormatError):
        program.answer("1 1\n1 1 1\n0 1 1\n")


def test_a_wrong_solution_fails_verification(monkeypatch: pytest.MonkeyPatch) -> None:
    def everyone_loses(game: object, algorithm: str) -> Solution:
        solution = SOLVERS["attractor"](read_oi(SAMPLE_GRA_IN))
        return Solution(1 - solution.winner, solution.strategy, "broken", {})
    monkeypatch.setattr(program, "solve", everyone_loses)
    with pytest.raises(MinegraphError, match="the fast solver's answer fails verification"):
        program.answer(SAMPLE_GRA_IN, check=True)
