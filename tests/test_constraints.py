"""The constraint system: boxes, clues, components, floating cells, propagation."""

from __future__ import annotations

from minegraph import Board
from minegraph.constraints import build_system


def test_boxes_group_cells_with_the_same_clues() -> None:
    # The 1 at (0,1) sees (0,0),(0,2),(1,0),(1,1),(1,2); the 1 at (2,1) sees the row 1 cells
    # and (2,0),(2,2)... here rows 1 is shared: boxes {row 0 cells}, {row 1}, {row 2 cells}.
    s = build_system(Board.from_text("#1#\n###\n#1#"), propagate=False)
    cells = sorted(box.cells for box in s.boxes)
    assert cells == [(0, 2), (3, 4, 5), (6, 8)]
    assert len(s.components) == 1 and s.floating == []


def test_propagation_to_fixpoint() -> None:
    # One row: the 1 needs (0,1); then the 2 needs (0,3); then the last 1 is satisfied.
    s = build_system(Board.from_text("1#2#1#"))
    assert s.mines == {1, 3} and s.safe == {5}
    assert s.boxes == [] and s.components == []
    # The 1-2-1 pattern needs more than the two trivial rules: nothing is decided.
    s = build_system(Board.from_text("#####\n#121#\n-----"))
    assert s.mines == set() and len(s.components) == 1


def test_floating_cells_and_remaining_count() -> None:
    s = build_system(Board.from_text("mines: 3\n#1##\n##-#"))
    assert s.floating == [3, 7]
    assert s.remaining == 3


def test_contradiction_is_reported() -> None:
    assert build_system(Board.from_text("#1-\n#3-\n#--")).contradiction
    assert build_system(Board.from_text("-1-\n---")).contradiction
    assert build_system(Board.from_text("#1#")).contradiction is None


def test_components_are_independent_groups() -> None:
    s = build_system(Board.from_text("#1---1#\n##---##"))
    assert len(s.components) == 2
