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
    assert len(s.components) == 1 and s.floating == ()


def test_propagation_to_fixpoint() -> None:
    # One row: the 1 needs (0,1); then the 2 needs (0,3); then the last 1 is satisfied.
    s = build_system(Board.from_text("1#2#1#"))
    assert s.mines == {1, 3} and s.safe == {5}
    assert s.boxes == () and s.components == ()
    # The 1-2-1 pattern needs more than the two trivial rules: nothing is decided.
    s = build_system(Board.from_text("#####\n#121#\n-----"))
    assert s.mines == set() and len(s.components) == 1


def test_floating_cells_and_remaining_count() -> None:
    s = build_system(Board.from_text("mines: 3\n#1##\n##-#"))
    assert s.floating == (3, 7)
    assert s.remaining == 3


def test_contradiction_is_reported() -> None:
    assert build_system(Board.from_text("#1-\n#3-\n#--")).contradiction
    assert build_system(Board.from_text("-1-\n---")).contradiction
    assert build_system(Board.from_text("#1#")).contradiction is None


def test_components_are_independent_groups() -> None:
    s = build_system(Board.from_text("#1---1#\n##---##"))
    assert len(s.components) == 2


def test_propagation_trace_names_the_deciding_clue_in_order() -> None:
    # "1#2#1#": the 1 at 0 needs cell 1; then the 2 at 2 needs cell 3; the last 1 clears 5.
    s = build_system(Board.from_text("1#2#1#"))
    assert [(st.cell, st.mine, st.clue) for st in s.trace] == [(1, True, 0), (3, True, 2), (5, False, 4)]
    assert build_system(Board.from_text("1#2#1#"), propagate=False).trace == ()


def test_clues_keep_their_number_cell_and_need() -> None:
    s = build_system(Board.from_text("M2#\n###"), propagate=False)
    (clue,) = s.clues
    # The 2 at (0,1) already sees one known mine: one more among its four hidden cells.
    assert clue.cell == 1 and clue.need == 1
    assert sorted(c for b in clue.boxes for c in s.boxes[b].cells) == [2, 3, 4, 5]


def test_equal_structures_share_a_canonical_key_wherever_they_lie() -> None:
    # The same 1-2-1 fragment twice, at different places, and a different fragment.
    s = build_system(Board.from_text("#####------\n-121-------\n-----------\n"
                                     "------#####\n-------121-"), propagate=False)
    keys = [c.key for c in s.components]
    assert len(keys) == 2 and keys[0] == keys[1]
    sizes, clues = keys[0]
    # Boxes (0,0); (0,1); (0,2); (0,3); (0,4) by first cell; clues over 3 consecutive boxes.
    assert sizes == (1, 1, 1, 1, 1)
    assert clues == ((1, (0, 1, 2)), (2, (1, 2, 3)), (1, (2, 3, 4)))
    other = build_system(Board.from_text("#####\n-111-"), propagate=False).components[0].key
    assert other != keys[0]


def test_incidence_matrix_is_exact() -> None:
    s = build_system(Board.from_text("#####\n-121-"), propagate=False)
    m = s.incidence()
    assert m.clue_cells == (6, 7, 8) and m.rhs == (1, 2, 1)
    assert m.rows == ((0, 1, 2), (1, 2, 3), (2, 3, 4))
    assert m.columns == (0, 1, 2, 3, 4)
    # A box of eight cells is eight columns; a flag lowers the right-hand side; a cell next
    # to no number is an empty column.
    t = build_system(Board.from_text("###\n#1#\n##M\n###"), propagate=False).incidence()
    assert t.rows == ((0, 1, 2, 3, 4, 5, 6),) and t.rhs == (0,)
    assert t.columns == (0, 1, 2, 3, 5, 6, 7, 9, 10, 11)
    # After propagation only undecided cells remain.
    p = build_system(Board.from_text("#1-\n01-\n---\n###")).incidence()
    assert p.rows == () and p.columns == (9, 10, 11)


def test_decided_board_keeps_the_completions() -> None:
    from minegraph.engines.brute import BruteEngine
    board = Board.from_text("mines: 2\n#####\n-121-")
    s = build_system(board)
    fixed = s.decided(safe=[0, 2, 4], mines=[1, 3])
    assert BruteEngine().run(fixed).count == BruteEngine().run(board).count == 1
