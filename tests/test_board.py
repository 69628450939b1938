"""The Board model: construction, validation, cells."""

from __future__ import annotations

import pytest

from minegraph import BLANK, HIDDEN, MINE, Board
from minegraph.errors import BoardError, LimitError, MinegraphError


def test_grid_cells_and_labels() -> None:
    b = Board.from_text("mines: 2\n#1-\nM2#")
    assert (b.rows, b.cols, b.size, b.mines) == (2, 3, 6, 2)
    assert b.states == (HIDDEN, 1, BLANK, MINE, 2, HIDDEN)
    assert b.hidden == [0, 5] and b.known_mines == 1
    assert b.index((1, 2)) == 5 and b.cell(5) == (1, 2)


def test_number_above_degree_is_rejected_with_its_position() -> None:
    with pytest.raises(BoardError, match=r"cell \(0, 0\): number 4 exceeds its 3 neighbours"):
        Board.grid(2, 2, [4, HIDDEN, HIDDEN, HIDDEN])
    with pytest.raises(BoardError, match="number 9 exceeds the square maximum 8"):
        Board.grid(3, 3, [HIDDEN] * 4 + [9] + [HIDDEN] * 4)


def test_totals_are_checked() -> None:
    with pytest.raises(BoardError, match="outside 0..4"):
        Board.grid(2, 2, [HIDDEN] * 4, mines=5)
    with pytest.raises(BoardError, match="outside 0..4"):
        Board.grid(2, 2, [HIDDEN] * 4, mines=-1)


def test_graph_boards() -> None:
    b = Board.from_graph(4, [(0, 1), (1, 2), (2, 3)], [HIDDEN, 1, HIDDEN, HIDDEN], mines=1)
    assert b.topology == "graph" and b.cell(2) == 2 and b.neighbors[1] == (0, 2)
    with pytest.raises(BoardError, match="edge 0: cell 7 is outside 0..3"):
        Board.from_graph(4, [(0, 7)], [HIDDEN] * 4)
    with pytest.raises(BoardError, match="loop"):
        Board.from_graph(2, [(1, 1)], [HIDDEN] * 2)
    with pytest.raises(MinegraphError, match="no grid text form"):
        b.to_text()


def test_hostile_sizes_are_refused() -> None:
    with pytest.raises(LimitError):
        Board.grid(2000, 2000, [])
    with pytest.raises(LimitError):
        Board.from_graph(10**7, [], [])


def test_index_outside() -> None:
    b = Board.from_text("##")
    with pytest.raises(BoardError, match="outside"):
        b.index((1, 0))
