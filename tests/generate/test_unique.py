"""General unique puzzles: exactly one solution, the planted layout, and no number removable."""

from __future__ import annotations

import pytest

from minegraph import Board, analyze
from minegraph.board import HIDDEN
from minegraph.cli import main
from minegraph.errors import LimitError, UserError
from minegraph.generate.unique import unique_puzzle


def assert_unique_and_minimal(puzzle: Board, layout: frozenset[int]) -> None:
    a = analyze(puzzle)
    assert a.solutions == 1 and a.completion_mines == layout
    states = list(puzzle.states)
    for i, s in enumerate(puzzle.states):
        if s >= 0:
            states[i] = HIDDEN
            assert analyze(puzzle.with_states(states)).solutions > 1, i
            states[i] = s


@pytest.mark.parametrize("topology, rows, cols, mines", [
    ("square", 6, 7, 8), ("triangle", 6, 6, 8), ("hex", 6, 6, 7), ("torus", 5, 5, 5),
    ("square", 9, 9, 10),
])
@pytest.mark.parametrize("total", [True, False])
def test_unique_and_minimal(topology: str, rows: int, cols: int, mines: int, total: bool) -> None:
    for seed in range(2):
        p = unique_puzzle(rows, cols, mines, seed=seed, topology=topology, total=total)
        assert p.puzzle.topology == topology and len(p.layout) == mines
        assert (p.puzzle.mines == mines) == total
        assert all(p.puzzle.states[i] == HIDDEN for i in p.layout)
        assert_unique_and_minimal(p.puzzle, p.layout)


def test_same_seed_same_puzzle() -> None:
    assert unique_puzzle(6, 6, 6, seed=3) == unique_puzzle(6, 6, 6, seed=3)


def test_a_walled_in_mine_needs_another_layout_without_the_total() -> None:
    # 3x3 with 8 mines: the one safe cell's number cannot say which cells are mines without
    # the total unless it sees them all (the centre); layouts are redrawn until it does.
    p = unique_puzzle(3, 3, 8, seed=0, total=False)
    assert p.puzzle.states[4] == 8 and p.layouts >= 1


def test_errors() -> None:
    with pytest.raises(UserError, match="do not fit"):
        unique_puzzle(2, 2, 5)
    with pytest.raises(UserError, match="unknown topology"):
        unique_puzzle(2, 2, 1, topology="cube")
    with pytest.raises(LimitError):
        unique_puzzle(60, 60, 10)
    with pytest.raises(UserError, match="no layout of 100"):
        unique_puzzle(2, 2, 4, total=False)     # no number at all, no total


def test_cli_unique(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    key = tmp_path / "key.txt"
    assert main(["generate", "unique", "--size", "6x6", "--mines", "6", "--seed", "4",
                 "--topology", "hex", "--answer", str(key)]) == 0
    out = capsys.readouterr().out
    p = unique_puzzle(6, 6, 6, seed=4, topology="hex")
    assert Board.from_text(out) == p.puzzle and "; grade: " in out
    answer = Board.from_text(key.read_text())
    assert {i for i, s in enumerate(answer.states) if s == -2} == p.layout


def test_cli_unique_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "unique", "--size", "2x2", "--mines", "9"]) == 2
    assert "9 mines do not fit in 4 cells" in capsys.readouterr().err
