"""``update_system`` (incremental propagation) against ``build_system`` from scratch.

The incremental system must equal the fresh one in everything but the order (and the deciding
numbers) of its trace, which must still be a valid derivation. Positions: random games on
every topology, uncovering and flagging cells one at a time, some flags wrong (so that
contradictions and fallbacks are exercised too), with and without a total.
"""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from minegraph import Board
from minegraph.board import HIDDEN, MINE
from minegraph.constraints import ConstraintSystem, build_system, update_system
from minegraph.rules import flood_fill
from minegraph.topology import grid_neighbors

from strategies import examples


def _same(a: ConstraintSystem, b: ConstraintSystem) -> bool:
    decisions = {(s.cell, s.mine) for s in a.trace} == {(s.cell, s.mine) for s in b.trace}
    return replace(a, trace=()) == replace(b, trace=()) and decisions


def _valid_trace(system: ConstraintSystem) -> bool:
    """Replaying the trace in order, each step follows from its number by a trivial rule."""
    board = system.board
    decided: dict[int, bool] = {}
    for step in system.trace:
        need = board.states[step.clue]
        undecided = 0
        for q in board.neighbors[step.clue]:
            s = board.states[q]
            if s == MINE or decided.get(q) is True:
                need -= 1
            elif s == HIDDEN and q not in decided:
                undecided += 1
        if not (need == 0 and not step.mine) and not (need == undecided and step.mine):
            return False
        decided[step.cell] = step.mine
    return True


@settings(max_examples=examples(60), deadline=None)
@given(topology=st.sampled_from(["square", "triangle", "hex", "torus"]),
       rows=st.integers(3, 9), cols=st.integers(3, 9), density=st.floats(0.1, 0.35),
       seed=st.integers(0, 10**6), with_total=st.booleans(), wrong_flags=st.booleans())
def test_update_equals_a_fresh_build_along_a_game(topology: str, rows: int, cols: int,
                                                  density: float, seed: int, with_total: bool,
                                                  wrong_flags: bool) -> None:
    rng = random.Random(seed)
    n = rows * cols
    nbrs = grid_neighbors(topology, rows, cols)
    mines = set(rng.sample(range(n), int(density * n)))
    opened: set[int] = set()
    flags: set[int] = set()
    total = len(mines) if with_total else None
    previous: ConstraintSystem | None = None
    for _ in range(25):
        states = [HIDDEN] * n
        for i in opened:
            states[i] = sum(1 for q in nbrs[i] if q in mines)
        for i in flags:
            states[i] = MINE
        board = Board.grid(rows, cols, states, mines=total, topology=topology)
        fresh = build_system(board)
        if previous is not None:
            updated = update_system(previous, board)
            assert _same(updated, fresh)
            assert _valid_trace(updated)
            previous = updated
        else:
            previous = fresh
        hidden = [i for i in range(n) if i not in opened and i not in flags]
        if not hidden:
            break
        cell = rng.choice(hidden)
        if cell in mines or (wrong_flags and rng.random() < 0.15):
            flags.add(cell)
        else:
            flood_fill(nbrs, mines, opened, cell)


def test_changes_that_are_not_progress_are_built_afresh() -> None:
    before = build_system(Board.from_text("#1#\n###"))
    # A number changed, a cell covered again, another graph: all answered from scratch.
    for text in ("#2#\n###", "###\n###", "#1##\n####"):
        board = Board.from_text(text)
        assert _same(update_system(before, board), build_system(board))


def test_a_flag_against_a_decision_is_reported_as_the_fresh_build_reports_it() -> None:
    before = build_system(Board.from_text("#0#\n###"))   # the 0 makes every neighbour safe
    board = Board.from_text("M0#\n###")
    after = update_system(before, board)
    assert after.contradiction is not None
    assert _same(after, build_system(board))


def test_a_new_total_alone_keeps_the_model() -> None:
    before = build_system(Board.from_text("#1#\n###"))
    board = Board.from_text("mines: 2\n#1#\n###")
    after = update_system(before, board)
    assert after.remaining == 2 and _same(after, build_system(board))


@settings(max_examples=examples(150), deadline=None)
@given(data=st.data(), topology=st.sampled_from(["square", "triangle", "hex", "torus"]),
       rows=st.integers(3, 4), cols=st.integers(3, 4))
def test_update_from_any_earlier_board_equals_a_fresh_build(data: st.DataObject, topology: str,
                                                            rows: int, cols: int) -> None:
    """Any pair of positions, not only a game's progress: cells uncovered, flagged, covered
    again, numbers changed, the total changed, another layout, another graph of the same size:
    whatever path update_system takes, its answer is the fresh build's."""
    n = rows * cols

    def board(topology: str, layout: list[bool], states: list[int] | None = None) -> Board:
        """True numbers of ``layout`` where ``states`` (default: drawn) shows a number."""
        nbrs = grid_neighbors(topology, rows, cols)
        if states is None:
            states = [data.draw(st.sampled_from([HIDDEN, HIDDEN, MINE, 0])) for _ in range(n)]
        out = []
        for c, s in enumerate(states):
            if s == MINE and (layout[c] or data.draw(st.integers(0, 9)) == 0):   # some flags wrong
                out.append(MINE)
            elif s == HIDDEN or layout[c]:
                out.append(HIDDEN)
            else:
                out.append(sum(1 for q in nbrs[c] if layout[q]))
        total = data.draw(st.sampled_from([None, sum(layout), sum(layout) + 1]))
        return Board.grid(rows, cols, out, topology=topology, mines=min(total, n) if total else total)

    layout = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    before = board(topology, layout)
    if data.draw(st.booleans()):
        # The earlier board with a few cells changed (uncovered, flagged, covered again,
        # unflagged), where the incremental path runs.
        states = list(before.states)
        for c in data.draw(st.lists(st.integers(0, n - 1), max_size=4)):
            states[c] = data.draw(st.sampled_from([HIDDEN, MINE, 0, 0]))
        after = board(topology, layout, states)
    else:
        other = data.draw(st.sampled_from([topology, "square", "hex"]))
        after = board(other, data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    previous = build_system(before)
    updated = update_system(previous, after)
    fresh = build_system(after)
    assert _same(updated, fresh)
    if fresh.contradiction is None:
        assert _valid_trace(updated)


def test_the_same_states_on_another_graph_are_built_afresh() -> None:
    # Square: the 0 at (0,0) makes (0,1), (1,0), (1,1) safe; on the hex grid (1,1) is not
    # its neighbour and stays undecided. Same size, same states, another graph.
    before = build_system(Board.grid(3, 3, "0########", topology="square"))
    after = Board.grid(3, 3, "0########", topology="hex")
    assert before.safe == {1, 3, 4}
    assert update_system(before, after).safe == build_system(after).safe == {1, 3}


def test_uncovering_the_last_cells_of_a_number_that_is_not_met_is_a_contradiction() -> None:
    before = build_system(Board.from_text("1#\n##"))       # one mine among three: undecided
    after = Board.from_text("1-\n--")                       # all three uncovered: no mine
    assert before.contradiction is None
    assert update_system(before, after).contradiction_clue == build_system(after).contradiction_clue == 0


def test_a_zero_uncovered_makes_its_neighbours_safe_as_a_fresh_build_does() -> None:
    before = build_system(Board.from_text("###\n###\n###"))
    after = Board.from_text("0##\n###\n###")
    assert update_system(before, after).safe == build_system(after).safe == {1, 3, 4}
