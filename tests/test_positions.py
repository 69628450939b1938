"""Hand-checked positions in tests/data/positions: each file states its facts in
``; expect key: value`` comment lines, derived by hand in the file's comments."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from minegraph import Board, analyze
from minegraph.engines.brute import BruteEngine

DATA = Path(__file__).parent / "data" / "positions"
FILES = sorted(DATA.glob("*.board"))
CELL = re.compile(r"\((\d+),\s*(\d+)\)")


def _expectations(text: str) -> dict[str, str]:
    facts = {}
    for line in text.splitlines():
        m = re.match(r";\s*expect\s+([^:]+):\s*(.*)$", line)
        if m:
            facts[m.group(1).strip()] = m.group(2).strip()
    return facts


def _cells(value: str) -> list[tuple[int, int]]:
    return [(int(r), int(c)) for r, c in CELL.findall(value)]


def test_the_data_set_is_there() -> None:
    assert len(FILES) >= 10


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_position_facts(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    facts = _expectations(text)
    assert facts, f"{path.name} states no facts"
    board = Board.from_text(text)
    a = analyze(board)
    for key, value in facts.items():
        if key == "solutions":
            assert a.solutions == int(value)
        elif key == "consistent":
            assert a.consistent == (value == "yes")
        elif key == "safe":
            assert a.safe == _cells(value)
        elif key == "mines":
            assert a.mines == _cells(value)
        elif key.startswith("p("):
            (cell,) = _cells(key)
            assert a.probability(cell) == Fraction(value)
        else:
            raise AssertionError(f"unknown fact {key!r} in {path.name}")
    if board.hidden_count <= 20:
        assert BruteEngine().run(board).count == a.solutions


def test_splitter_outputs_copy_the_input() -> None:
    board = Board.from_text((DATA / "kaye-splitter.board").read_text(encoding="utf-8"))
    for input_mined in (True, False):
        states = list(board.states)
        h7 = board.index((9, 7))
        states[h7] = -2 if input_mined else sum(  # MINE, or its number in that completion
            1 for q in board.neighbors[h7] if q == board.index((9, 6)))
        a = analyze(board.with_states(states))
        assert a.solutions == 1
        for out in ((0, 9), (18, 9)):
            assert (out in a.mines) == input_mined and (out in a.safe) != input_mined
