"""The numeric solver program of Urbaś as a function: solved grid or NO SOLUTION, any engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from minegraph.formats.numeric import read_numeric
from minegraph.urbas import solve_numeric
from strategies import is_completion_of

DATA = Path(__file__).parent / "data" / "positions-urbas"
SOLVED = sorted(p.stem for p in DATA.glob("*.out"))
ENGINES = ["backtrack", "backtrack:3", "sat", "sat:minisat", "dp", "auto", "brute"]


def test_the_data_set_is_there() -> None:
    assert len(SOLVED) >= 6


@pytest.mark.parametrize("name", SOLVED)
@pytest.mark.parametrize("engine", ENGINES)
def test_every_engine_solves_or_refuses_alike(name: str, engine: str) -> None:
    text = (DATA / f"{name}.txt").read_text()
    board = read_numeric(text)
    answer = solve_numeric(text, engine)
    if (DATA / f"{name}.out").read_text() == "NO SOLUTION\n":
        assert answer == "NO SOLUTION\n"
        return
    solved = read_numeric(answer)   # the answer is itself a numeric grid, nothing covered
    assert solved.hidden_count == 0 and is_completion_of(board, solved)


def test_header_total_of_zero_means_unspecified_and_is_written_back() -> None:
    answer = solve_numeric("1 3 0\n9 1 9\n")
    assert answer == "1 3 0\n-1 1 0\n"
