"""The exact endgame against an independent brute force over every layout and strategy.

The brute force knows nothing of flood fills, free safe cells or equivalent cells: a state is
the set of layouts consistent with what was seen, a move uncovers one cell and shows its
number alone, and the value is the best average over the layouts. (Flood fills only show cells
that are certainly safe, so perfect play wins as often either way.)
"""

from __future__ import annotations

import math
import random
from array import array
from fractions import Fraction
from functools import lru_cache
from itertools import combinations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from minegraph import Board
from minegraph.board import HIDDEN, MINE
from minegraph.deadline import Deadline, time_limit
from minegraph.errors import EngineError, LimitError, QueryCancelled, QueryTimeout
from minegraph.play import endgame as endgame_module
from minegraph.play.endgame import Endgame, completions
from minegraph.topology import grid_neighbors

from strategies import examples, positions


def brute_force_value(board: Board) -> Fraction:
    nbrs, states = board.neighbors, board.states
    hidden = [i for i, s in enumerate(states) if s == HIDDEN]
    known = [i for i, s in enumerate(states) if s == MINE]
    assert board.mines is not None
    layouts = [frozenset(c) | frozenset(known)
               for c in combinations(hidden, board.mines - len(known))
               if all(states[p] < 0 or states[p] == sum(1 for q in nbrs[p] if q in set(c) | set(known))
                      for p in range(len(states)))]
    if not layouts:
        return Fraction(0)

    def number(cell: int, layout: frozenset[int]) -> int:
        return sum(1 for q in nbrs[cell] if q in layout)

    @lru_cache(maxsize=None)
    def value(group: frozenset[frozenset[int]]) -> Fraction:
        if len(group) == 1:
            return Fraction(1)
        best = Fraction(0)
        for c in hidden:
            outcomes: dict[int, list[frozenset[int]]] = {}
            for layout in group:
                if c not in layout:
                    outcomes.setdefault(number(c, layout), []).append(layout)
            survived = sum(len(v) for v in outcomes.values())
            if survived == len(group) and len(outcomes) == 1:
                continue  # certainly safe and teaches nothing
            total = sum((len(v) * value(frozenset(v)) for v in outcomes.values()), Fraction(0))
            best = max(best, total / len(group))
        return best

    return value(frozenset(layouts))


# 4x4/3 takes its brute force about 20 s: a slow check (-m slow); the mid-game brute forces
# below cover the search on thousands of positions in the suite.
@pytest.mark.parametrize("rows, cols, mines", [(3, 3, 2), (3, 4, 3),
                                               pytest.param(4, 4, 3, marks=pytest.mark.slow)])
def test_optimal_win_probability_from_the_start(rows: int, cols: int, mines: int) -> None:
    board = Board.grid(rows, cols, [HIDDEN] * (rows * cols), mines=mines)
    assert Endgame(board, limit=1000).win_probability() == brute_force_value(board)


def _shown(rows: int, cols: int, mines: int, rng: random.Random, least: int,
           flags: float) -> Board:
    """A random layout's position: between ``least`` and all but one cell drawn, the safe
    ones showing their numbers, each mine among them flagged with chance ``flags``."""
    n = rows * cols
    layout = set(rng.sample(range(n), mines))
    nbrs = grid_neighbors("square", rows, cols)
    states = [HIDDEN] * n
    for c in rng.sample(range(n), rng.randrange(least, n)):
        if c not in layout:
            states[c] = sum(1 for q in nbrs[c] if q in layout)
        elif flags and rng.random() < flags:
            states[c] = MINE
    return Board.grid(rows, cols, states, mines=mines)


@st.composite
def partial_positions(draw: st.DrawFn) -> Board:
    rows, cols = draw(st.integers(2, 4)), draw(st.integers(2, 5))
    mines = draw(st.integers(1, max(1, rows * cols // 3)))
    return _shown(rows, cols, mines, random.Random(draw(st.integers(0, 10**6))), 0, 0.3)


native = pytest.mark.skipif(not endgame_module.native_available(),
                            reason=f"no native endgame search ({endgame_module.NATIVE_STATUS})")
BOTH = [False, pytest.param(True, marks=native)]


@pytest.mark.parametrize("use_native", BOTH)
@settings(max_examples=examples(300), deadline=None)
@given(board=partial_positions())
def test_endgame_value_matches_brute_force_mid_game(use_native: bool, board: Board) -> None:
    # Few completions: the brute force tries every strategy on every layout (its time grows
    # fast with them: up to 200 keeps the slowest draws of examples to seconds).
    assume(completions(board, 200) is not None)
    search = Endgame(board, limit=200, native=use_native)
    assert search.win_probability() == brute_force_value(board)
    cell = search.best_cell()
    if cell is not None:  # the chosen cell reaches the optimum
        assert search.cells_by_value([cell])[cell] == search.win_probability()


def test_completions_are_exact_and_bounded() -> None:
    board = Board.from_text("mines: 2\n###\n#2#\n###")
    layouts = completions(board, 100)
    assert layouts is not None and len(layouts) == 28          # C(8, 2)
    assert completions(board, 27) is None
    with pytest.raises(LimitError, match="more than 27 completions"):
        Endgame(board, limit=27)
    assert completions(Board.from_text("mines: 1\n#2#"), 10) == []   # inconsistent


@settings(max_examples=examples(400), deadline=None)
@given(positions(max_hidden=10))
def test_completions_are_every_layout_the_numbers_allow(board: Board) -> None:
    # Independent oracle: every subset of the hidden cells, kept when it meets every number
    # (BLANK cells included as safe, flags as mines) and the total.
    nbrs, states = board.neighbors, board.states
    hidden = [i for i, s in enumerate(states) if s == HIDDEN]
    flagged = {i for i, s in enumerate(states) if s == MINE}
    expected = set()
    for k in range(len(hidden) + 1):
        for chosen in combinations(hidden, k):
            mined = flagged | set(chosen)
            if board.mines is not None and len(mined) != board.mines:
                continue
            if all(s < 0 or s == sum(1 for q in nbrs[p] if q in mined) for p, s in enumerate(states)):
                expected.add(frozenset(chosen))
    found = completions(board, 2 ** len(hidden))
    assert found is not None and len(found) == len(set(found)) and set(found) == expected
    if len(expected) > 1:
        assert completions(board, len(expected) - 1) is None


def test_completions_of_a_board_deeper_than_the_recursion_limit() -> None:
    # 3,000 hidden cells, one completion: the search goes 3,000 levels deep.
    board = Board.from_text("mines: 1\n1" + "#" * 3000)
    assert completions(board, 2) == [frozenset({1})]
    assert completions(Board.from_text("mines: 0\n" + "#" * 3000), 2) == [frozenset()]


def test_a_known_fifty_fifty_and_a_sure_win() -> None:
    assert Endgame(Board.from_text("mines: 1\n##\n1-")).win_probability() == Fraction(1, 2)
    board = Board.from_text("mines: 1\n#1-\n11-")
    assert Endgame(board).win_probability() == 1


@settings(max_examples=examples(200), deadline=None)
@given(partial_positions())
def test_independent_regions_searched_apart_give_the_same_value(board: Board) -> None:
    # Every group of two layouts or more is tested for independent regions, so the product
    # of the regions' values is checked against the brute force on small boards too.
    assume(completions(board, 300) is not None)
    saved = endgame_module.FACTOR_MIN
    endgame_module.FACTOR_MIN = 2
    try:
        search = Endgame(board, limit=300)
        value = search.win_probability()
        cell = search.best_cell()
    finally:
        endgame_module.FACTOR_MIN = saved
    assert value == brute_force_value(board)
    if cell is not None:
        assert Endgame(board, limit=300).cells_by_value([cell])[cell] == value


def test_two_fifty_fifties_multiply() -> None:
    # Two separate 50/50 pairs (one mine each, nothing can tell which): perfect play wins
    # 1/2 * 1/2 of the layouts, searched as two regions of two layouts each.
    board = Board.from_text("mines: 2\n#1-1#\n#1-1#")
    saved = endgame_module.FACTOR_MIN
    endgame_module.FACTOR_MIN = 2
    try:
        search = Endgame(board, limit=100, native=False)
        assert len(search.layouts) == search.count == 4
        assert search.win_probability() == Fraction(1, 4)
        assert len(search._search._regions) == 2
    finally:
        endgame_module.FACTOR_MIN = saved


@given(st.lists(st.integers(0, 2**12 - 1), min_size=1, max_size=6), st.integers(1, 2**12 - 1))
def test_same_count_agrees_with_counting_layout_by_layout(masks: list[int], group: int) -> None:
    counts = {sum(m >> k & 1 for m in masks) for k in range(12) if group >> k & 1}
    assert endgame_module._same_count(group, masks) == (len(counts) == 1)


@native
@settings(max_examples=examples(300), deadline=None)
@given(positions(max_hidden=12, allow_inconsistent=False))
def test_native_search_equals_the_python_search(board: Board) -> None:
    # Every topology the tests use, with and without a total: the C search against the
    # Python reference, the root's value and every cell's value after uncovering it first.
    assume(completions(board, 400) is not None)
    ours, reference = Endgame(board, 400, native=True), Endgame(board, 400, native=False)
    assert ours.win_probability() == reference.win_probability()
    hidden = list(board.hidden)
    values = ours.cells_by_value(hidden)
    assert values == reference.cells_by_value(hidden)
    cell = ours.best_cell()
    if cell is not None:   # ties may differ; the chosen cell reaches the optimum
        assert values[cell] == ours.win_probability()
    elif len(ours.layouts) > 1:    # nothing to choose: no cell tells anything
        assert all(v <= ours.win_probability() for v in values.values())


@native
@pytest.mark.parametrize("rows, cols, mines", [(3, 3, 2), (2, 5, 3)])
def test_native_optimal_win_probability_from_the_start(rows: int, cols: int, mines: int) -> None:
    board = Board.grid(rows, cols, [HIDDEN] * (rows * cols), mines=mines)
    assert Endgame(board, limit=1000, native=True).win_probability() == brute_force_value(board)


@native
def test_native_search_keeps_exact_with_a_full_memo(monkeypatch: pytest.MonkeyPatch) -> None:
    # A memo of a few bytes stays empty: the search is slower but its answer the same.
    board = Board.grid(3, 4, [HIDDEN] * 12, mines=3)
    expected = Endgame(board, 1000, native=True).win_probability()
    monkeypatch.setattr(endgame_module, "MEMO_BYTES", 64)
    assert Endgame(board, 1000, native=True).win_probability() == expected == Fraction(31, 55)


@native
def test_a_table_past_its_bytes_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # Flood fills past the table's bytes: a clean LimitError (the policy then looks ahead).
    monkeypatch.setattr(endgame_module, "TABLE_BYTES", 16)
    with pytest.raises(LimitError, match="table of observations"):
        Endgame(Board.grid(3, 4, [HIDDEN] * 12, mines=1), 1000, native=True).best_cell()


def _expired() -> Deadline:
    import time
    return Deadline.at(time.monotonic() - 1, 10, "the exact endgame")


@pytest.mark.parametrize("use_native", BOTH)
def test_an_expired_deadline_raises_query_timeout(use_native: bool) -> None:
    board = Board.grid(3, 4, [HIDDEN] * 12, mines=3)
    search = Endgame(board, 1000, native=use_native)   # listing stays within the deadline
    with time_limit(_expired()), pytest.raises(QueryTimeout, match="the exact endgame"):
        search.best_cell()


@pytest.mark.parametrize("use_native", BOTH)
def test_a_cancelled_query_raises_query_cancelled(use_native: bool) -> None:
    board = Board.grid(3, 4, [HIDDEN] * 12, mines=3)
    search = Endgame(board, 1000, native=use_native)
    deadline = Deadline(60, "the exact endgame")
    deadline.cancel()
    with time_limit(deadline), pytest.raises(QueryCancelled):
        search.best_cell()


@native
def test_the_c_search_stops_at_its_deadline_and_node_budget() -> None:
    # The C call on its own: no time left, a node budget of one, a cancel flag set.
    board = Board.grid(3, 4, [HIDDEN] * 12, mines=3)
    layouts = completions(board, 1000)
    assert layouts is not None
    s = endgame_module._NativeSearch(board, layouts, list(board.hidden), frozenset(),
                                     frozenset())
    module = endgame_module._NATIVE
    run = lambda seconds, nodes, flag: module.search(   # noqa: E731
        s.codes, s.n, s.order, b"", seconds, nodes, 1 << 20, flag, endgame_module.TANGLE_LAYOUTS)
    assert run(0.0, 0, None)[0] == module.TIMEOUT
    assert run(-1.0, 1, None)[0] == module.TIMEOUT
    assert run(-1.0, 0, bytearray(b"\x01"))[0] == module.CANCELLED
    status, won, best, _, _ = run(-1.0, 0, bytearray(1))
    assert (status, Fraction(won, len(layouts))) == (module.OK, Fraction(31, 55)) and best >= 0


@native
def test_the_c_search_refuses_inconsistent_arrays() -> None:
    module = endgame_module._NATIVE
    with pytest.raises(ValueError, match="inconsistent"):
        module.search(b"\0" * 12, 2, b"\0" * 8, b"", -1.0, 0, 1 << 20, None, 0)
    with pytest.raises(ValueError, match="inconsistent"):   # a first cell out of range
        module.search(b"\0" * 8, 2, b"\0" * 4, b"\5\0\0\0", -1.0, 0, 1 << 20, None, 0)
    with pytest.raises(ValueError, match="inconsistent"):   # a negative tangle limit
        module.search(b"\0" * 8, 2, b"\0" * 4, b"", -1.0, 0, 1 << 20, None, -1)
    with pytest.raises(ValueError, match="out of range"):   # a neighbour out of range
        module.observations(b"\0\0\0\0\1\0\0\0", b"\7\0\0\0", b"\0", b"", b"\0\0\0\0",
                            b"", b"", 1 << 20)


def test_native_true_without_the_module_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(endgame_module, "_NATIVE", None)
    with pytest.raises(EngineError, match="native=True"):
        Endgame(Board.from_text("mines: 1\n#1#"), 10, native=True)
    assert Endgame(Board.from_text("mines: 1\n#1#"), 10).native is False


def test_pure_mode_runs_the_python_search() -> None:
    import subprocess
    import sys
    code = ("from minegraph.play import endgame as e; from minegraph import Board; "
            "g = e.Endgame(Board.from_text('mines: 1\\n##\\n1-'), 10); "
            "print(e.NATIVE_STATUS, g.native, g.win_probability())")
    env = dict(__import__("os").environ, MINEGRAPH_PURE="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["pure", "(MINEGRAPH_PURE=1)", "False", "1/2"]


@native
@settings(max_examples=examples(300), deadline=None)
@given(positions(max_hidden=12))
def test_native_listing_equals_the_python_listing(board: Board) -> None:
    # The same layouts in the same order (so both searches see the same layout indices),
    # and the same answer past the limit, on every topology, consistent or not.
    python = endgame_module._completions_python(board, 300)
    assert completions(board, 300) == python
    if python:
        assert completions(board, len(python) - 1) is None


@st.composite
def separated_positions(draw: st.DrawFn) -> Board:
    # Wide boards with many numbers shown: their unknown cells fall into several regions,
    # often with as many mines in every layout (then the C search splits them).
    rows, cols = draw(st.integers(2, 3)), draw(st.integers(6, 9))
    mines = draw(st.integers(2, max(2, rows * cols // 4)))
    return _shown(rows, cols, mines, random.Random(draw(st.integers(0, 10**6))),
                  rows * cols // 3, 0.0)


def _native_run(board: Board, near: bool, first: list[int] | None = None,
                tangles: bool = True) -> tuple[int, int, list[int] | None, int]:
    """The C search on its own, with or without the near lists (without: never factored;
    with: every group of two layouts or more tested for independent regions) and with or
    without the tangle bound: won, best (board index, -1: none), the values after ``first``
    and the nodes."""
    layouts = completions(board, 3000)
    assert layouts is not None
    s = endgame_module._NativeSearch(board, layouts, list(board.hidden), frozenset(),
                                     frozenset(i for i, v in enumerate(board.states)
                                               if v != HIDDEN))
    position = {c: i for i, c in enumerate(s.cells)}
    module = endgame_module._NATIVE
    status, won, best, values, nodes = module.search(
        s.codes, s.n, s.order, array("i", [position[c] for c in first or []]).tobytes(), -1.0,
        0, 1 << 26, None, endgame_module.TANGLE_LAYOUTS if tangles else 0,
        *((*endgame_module._near_csr(board, s.cells), 2) if near else ()))
    assert status == module.OK
    return won, -1 if best < 0 else s.cells[best], values, nodes


@native
@settings(max_examples=examples(150), deadline=None)
@given(separated_positions())
def test_c_regions_equal_the_unsplit_search_and_python(board: Board) -> None:
    # The C search splitting independent regions (near lists given) against the same search
    # unsplit, with and without the tangle bound, and against the Python reference: the same
    # value, and the chosen cell reaches it (its value measured by the plainest search).
    layouts = completions(board, 3000)
    assume(layouts is not None and len(layouts) >= 2)
    assert layouts is not None
    won, best, _, _ = _native_run(board, near=True)
    plain, plain_best, _, _ = _native_run(board, near=False, tangles=False)
    assert won == _native_run(board, near=False)[0] == plain
    assert won == _native_run(board, near=True, tangles=False)[0]
    if plain_best >= 0:
        assert _native_run(board, near=False, first=[plain_best])[2] == [won]
    if len(layouts) <= 600:
        assert Fraction(won, len(layouts)) == Endgame(board, 600, native=False).win_probability()
    if best >= 0:
        assert _native_run(board, near=False, first=[best], tangles=False)[2] == [won]


@native
def test_c_search_splits_three_fifty_fifties() -> None:
    # Three pairs far apart, one mine each, nothing can tell which: 8 layouts, perfect play
    # wins 1/8 of them; split into regions the C search visits fewer groups, and bounded by
    # its tangles fewer still (all 8 layouts are tangled: every cell safe in two of them
    # shows the same number in both, so play wins at most one of the 8).
    board = Board.from_text("mines: 3\n#1-1#1-1#\n#1-1#1-1#")
    won, best, _, split_nodes = _native_run(board, near=True, tangles=False)
    unsplit = _native_run(board, near=False, tangles=False)
    tangled = _native_run(board, near=False)
    assert (won, unsplit[0], tangled[0]) == (1, 1, 1) and best >= 0 and tangled[1] >= 0
    assert tangled[3] < split_nodes < unsplit[3]
    assert Endgame(board, 100).win_probability() == Fraction(1, 8)


@native
@pytest.mark.parametrize("cells, tangled", [(12, True), (14, False)])
def test_tangles_past_their_pair_limit_leave_the_search_exact(cells: int, tangled: bool) -> None:
    # Covered cells between flagged mines: every number is the same whatever the layout, so
    # all C(n, n/2) layouts are tangled pairwise and perfect play wins exactly one of them.
    # 12 cells: 924 layouts, 426,426 pairs, the bound prunes; 14 cells: 3,432 layouts and
    # 5.9 million pairs, past the 4 million kept, so the search runs without it (same nodes).
    board = Board.from_text(f"mines: {cells // 2 + cells}\n" + "#*" * cells)
    layouts = completions(board, 5000)
    assert layouts is not None and len(layouts) == math.comb(cells, cells // 2)
    s = endgame_module._NativeSearch(board, layouts, list(board.hidden), frozenset(),
                                     frozenset(i for i, v in enumerate(board.states)
                                               if v != HIDDEN))
    module = endgame_module._NATIVE
    runs = [module.search(s.codes, s.n, s.order, b"", -1.0, 0, 1 << 26, None, limit)
            for limit in (endgame_module.TANGLE_LAYOUTS, 0)]
    assert [(status, won) for status, won, *_ in runs] == [(module.OK, 1)] * 2
    nodes_with, nodes_without = runs[0][4], runs[1][4]
    if tangled:
        assert nodes_with < nodes_without
    else:
        assert nodes_with == nodes_without
