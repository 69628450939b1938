"""The constraint system: boxes, clues, components, floating cells, propagation."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from minegraph import Board
from minegraph.board import HIDDEN, MINE
from minegraph.constraints import ConstraintSystem, build_system
from minegraph.engines.brute import BruteEngine

from strategies import examples, positions


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
    board = Board.from_text("mines: 2\n#####\n-121-")
    s = build_system(board)
    fixed = s.decided(safe=[0, 2, 4], mines=[1, 3])
    assert BruteEngine().run(fixed).count == BruteEngine().run(board).count == 1


# The whole system against its definitions, recomputed here cell by cell from the board, and
# against brute force (issue 36: mutation testing found the model's bookkeeping checked only
# through the engines' answers).

def _definitions(board: Board, system: ConstraintSystem) -> None:
    """Every field of ``system`` as its docstring defines it, from ``board`` and the decisions."""
    states, nbrs = board.states, board.neighbors
    decided = {c: True for c in system.mines} | {c: False for c in system.safe}
    assert not system.mines & system.safe
    assert system.hidden == tuple(c for c, s in enumerate(states) if s == HIDDEN)
    undecided = [c for c in system.hidden if c not in decided]
    # Active clues: the numbers with undecided hidden neighbours, in cell order, each with its
    # number less the mines around it (flagged or decided) as its need.
    active = [p for p, s in enumerate(states)
              if s >= 0 and any(q in undecided for q in nbrs[p])]
    assert [clue.cell for clue in system.clues] == active
    for clue in system.clues:
        known = sum(1 for q in nbrs[clue.cell] if states[q] == MINE or decided.get(q) is True)
        assert clue.need == states[clue.cell] - known
        assert system.clue_cells(clue) == tuple(q for q in nbrs[clue.cell] if q in undecided)
    # Boxes: the undecided cells next to a clue, grouped by the clues around them.
    around = {c: tuple(k for k, clue in enumerate(system.clues) if c in nbrs[clue.cell])
              for c in undecided}
    groups: dict[tuple[int, ...], list[int]] = {}
    for c in undecided:
        if around[c]:
            groups.setdefault(around[c], []).append(c)
    assert sorted((b.cells, b.clues) for b in system.boxes) == sorted(
        (tuple(cells), ks) for ks, cells in groups.items())
    assert [b.cells[0] for b in system.boxes] == sorted(b.cells[0] for b in system.boxes)
    assert system.floating == tuple(c for c in undecided if not around[c])
    # Components: a partition of the boxes into the connected parts of the box-clue graph.
    seen = sorted(b for comp in system.components for b in comp.boxes)
    assert seen == list(range(len(system.boxes)))
    assert sorted(k for comp in system.components for k in comp.clues) == list(range(len(system.clues)))
    for comp in system.components:
        assert comp.cells == sum(system.boxes[b].size for b in comp.boxes)
        assert comp.key[0] == tuple(system.boxes[b].size for b in comp.boxes)
        assert len(comp.key[1]) == len(comp.clues)
        for k in comp.clues:
            assert set(system.clues[k].boxes) <= set(comp.boxes)
        reached = {comp.boxes[0]}
        for _ in comp.boxes:
            reached |= {b for k in comp.clues if reached & set(system.clues[k].boxes)
                        for b in system.clues[k].boxes}
        assert reached == set(comp.boxes)
    assert [comp.boxes[0] for comp in system.components] == sorted(
        comp.boxes[0] for comp in system.components)
    # The mines still to place: the total less the flags and the decided mines.
    if board.mines is None:
        assert system.remaining is None
    else:
        assert system.remaining == board.mines - states.count(MINE) - len(system.mines)


@settings(max_examples=examples(200), deadline=None)
@given(board=positions(max_hidden=8), propagate=st.booleans())
def test_the_system_meets_its_definitions_and_brute_force(board: Board, propagate: bool) -> None:
    system = build_system(board, propagate=propagate)
    truth = BruteEngine().run(board)
    if system.contradiction is not None:
        # A contradiction is a proof: no completion, and it names a number that fails.
        assert truth.count == 0
        p = system.contradiction_clue
        assert p is not None and board.states[p] >= 0
        assert system.contradiction == f"number at {board.label(p)} cannot be satisfied"
        assert system.reasoning is None
        return
    assert system.contradiction_clue is None
    _definitions(board, system)
    if not propagate:
        assert system.trace == () and not system.mines and not system.safe
    assert system.propagated == propagate
    assert (system.reasoning is not None) == propagate
    # Every number's equation is still satisfiable on its own: no contradiction was missed.
    for clue in system.clues:
        assert 0 <= clue.need <= len(system.clue_cells(clue))
    if truth.count:
        # Propagation is sound: its mines are mines and its safe cells safe in every completion.
        assert all(truth.mine_counts[c] == truth.count for c in system.mines)
        assert all(truth.mine_counts[c] == 0 for c in system.safe)


def test_a_number_without_hidden_neighbours_is_checked_even_after_decisions() -> None:
    # The 1 on the left decides its cell a mine; the 2 on the right then has no undecided
    # cell and one mine: unsatisfiable, named by its cell.
    board = Board.from_text("1#2\n---")
    system = build_system(board)
    assert system.contradiction_clue == 2 and BruteEngine().run(board).count == 0
    # Without propagation the 2 is an active clue needing two mines of its one hidden cell.
    assert build_system(board, propagate=False).contradiction_clue == 2
    # A number whose flags already exceed it.
    assert build_system(Board.from_text("M1M")).contradiction_clue == 1


def test_a_total_counts_flags_and_decided_mines() -> None:
    # 1#2#1#: cells 1 and 3 decided mines; one flag; a total of 4 leaves one to place.
    system = build_system(Board.from_text("mines: 4\n1#2#1#M"))
    assert system.mines == {1, 3} and system.remaining == 4 - 1 - 2


def test_a_decided_number_before_an_active_one_keeps_the_later_clue() -> None:
    # The 1 at 0 decides cell 1 (a mine) and has nothing left to decide; the 1 at (1,3) is
    # still a clue over (0,4) and (1,4).
    s = build_system(Board.from_text("1#--#\n---1#"))
    assert s.mines == {1}
    assert [(c.cell, c.need) for c in s.clues] == [(8, 1)]
    assert [b.cells for b in s.boxes] == [(4, 9)]


def test_components_come_in_order_of_their_first_box() -> None:
    # Hidden cells 0..4 (boxes {0}, {1, 2}, {3}, {4}), numbers 5, 6, 7: the 1 at 5 sees cells
    # 0 and 4, the 1 at 6 sees 3 and 4, the 1 at 7 sees 1 and 2. The first component holds
    # boxes 0, 2, 3 (cells 0, 3, 4), the second box 1 (cells 1, 2).
    board = Board.from_graph(8, [(5, 0), (5, 4), (6, 3), (6, 4), (7, 1), (7, 2)],
                             [HIDDEN] * 5 + [1, 1, 1])
    s = build_system(board, propagate=False)
    assert [b.cells for b in s.boxes] == [(0,), (1, 2), (3,), (4,)]
    assert [c.boxes for c in s.components] == [(0, 2, 3), (1,)]
    assert [c.clues for c in s.components] == [(0, 1), (2,)]
