"""Urbaś's backtracking solver: preparation, regions, the search, its counters, the engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from minegraph import Board, analyze
from minegraph.engines.backtrack import BacktrackEngine, UrbasSearch, combine_regions
from minegraph.deadline import time_limit
from minegraph.engines.base import get_engine
from minegraph.engines.dp import DPEngine
from minegraph.errors import EngineError, LimitError, QueryTimeout
from minegraph.formats.numeric import read_numeric

DATA = Path(__file__).parents[1] / "data" / "positions-urbas"


def _facts() -> dict[str, tuple[bool, int, bool]]:
    facts = {}
    for line in (DATA / "facts.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, rest = line.split(":")
            consistent, solutions, cross = (x.strip() for x in rest.split(","))
            facts[name.strip()] = (consistent == "yes", int(solutions), cross == "yes")
    return facts


FACTS = _facts()


def test_preparation_clears_satisfied_numbers_and_fills_full_ones() -> None:
    # The 0 clears its four covered neighbours; the bottom row touches no number.
    s = UrbasSearch(Board.from_text("#0#\n#-#\n###"))
    assert s.prepared["empty"] == 4 and s.mined_cells() == set()
    s = UrbasSearch(Board.from_text("#2#\n---"))
    assert s.prepared["mines"] == 2 and s.mined_cells() == {0, 2}
    assert s.regions == [] and s.solve() and s.calls == 1


def test_unimportant_mines_go_on_the_first_private_cells() -> None:
    # The 1 at (1,1) is the only number next to its 8 covered cells: one mine on the first.
    s = UrbasSearch(Board.from_text("###\n#1#\n###"))
    assert s.prepared["unimportant"] == 1 and s.mined_cells() == {0}
    # The rule is off for counting: the cells stay covered, one region of one number.
    s = UrbasSearch(Board.from_text("###\n#1#\n###"), unimportant=False)
    assert s.mined_cells() == set() and s.regions == [[4]]


def test_regions_share_no_covered_cell_and_go_smallest_first() -> None:
    # Numbers at columns 1 and 3 share column 2; those at 6 and 8 share column 7; the 1 at
    # column 11 stands alone. Sizes 2, 2, 1 -> sorted 1, 2, 2 (equal sizes in board order).
    board = Board.from_text("#1#1##1#1##1#\n-------------")
    s = UrbasSearch(board, unimportant=False)
    assert s.regions == [[11], [1, 3], [6, 8]]
    whole = UrbasSearch(board, unimportant=False, regions=False)
    assert whole.regions == [[1, 3, 6, 8, 11]]


def test_call_counter_counts_solve_invocations() -> None:
    # One region: solve(0) places (0) for the first 1 (clearing (2)), solve(0) places (4) for the
    # second, solve(0) finds the region satisfied and calls putFreeBombs: 3 calls.
    s = UrbasSearch(Board.from_text("mines: 2\n#1#1#"))
    assert s.solve() and s.calls == 3 and s.mined_cells() == {0, 4}
    # The last number first: (2) satisfies both numbers with one mine, but putFreeBombs finds
    # no free cell for the second; then (4), and (0) for the first number: 4 calls in all.
    s = UrbasSearch(Board.from_text("mines: 2\n#1#1#"), last=True)
    assert s.solve() and s.mined_cells() == {0, 4} and s.calls == 4


def test_regions_cut_calls_when_a_late_region_fails() -> None:
    # Eight two-state gadgets "#1#1#", then "333" between two covered rows: the middle 3 says
    # the six cells hold 3 mines, the outer 3s that columns 0-1 and 1-2 hold 3 each, so column 2
    # is empty and column 1 would need 3 mines in 2 cells: no solution, but only search shows it.
    board = Board.from_text("-----\n#1#1#\n" * 8 + "-----\n###--\n333--\n###--")
    with_regions = UrbasSearch(board, unimportant=False)
    flat = UrbasSearch(board, unimportant=False, regions=False)
    assert [len(g) for g in with_regions.regions] == [2] * 8 + [3]   # smallest first
    assert not with_regions.solve() and not flat.solve()
    # Without a total the regions are independent: the last one fails once, for good. The
    # flat search re-tries the 3s under each of the 2**8 gadget combinations.
    assert with_regions.calls < 40 and with_regions.cross_region_backtracks == 0
    assert flat.calls > 2 ** 8 * 3


@pytest.mark.parametrize("name", sorted(FACTS))
def test_data_positions(name: str) -> None:
    consistent, solutions, cross = FACTS[name]
    board = read_numeric((DATA / f"{name}.txt").read_text())
    assert DPEngine().run(board).count == solutions
    if name == "gadgets-hard":
        return  # exponential for this solver: see test_timeout_on_the_hard_gadget_stack
    search = UrbasSearch(board)
    assert search.solve() == consistent
    assert (search.cross_region_backtracks > 0) == cross
    assert BacktrackEngine(count=True).run(board).count == solutions


def test_direction_is_a_seeded_coin() -> None:
    firsts = {BacktrackEngine(seed).last for seed in range(20)}
    assert firsts == {True, False}
    assert BacktrackEngine(5).last == BacktrackEngine(5).last
    assert get_engine("backtrack:5").last == BacktrackEngine(5).last  # type: ignore[attr-defined]
    with pytest.raises(EngineError, match="integer seed"):
        BacktrackEngine("x")
    # The coin changes the completion found: on a 50/50 each direction takes its first cell.
    board = Board.from_text("mines: 1\n#1#\n---")
    assert BacktrackEngine(direction="first").complete(board).completion == frozenset({0})
    assert BacktrackEngine(direction="first").complete(board).stats["direction"] == "first"


def test_engine_answers_forced_cells_by_the_reduction() -> None:
    board = Board.from_text("mines: 2\n##-#\n11-#\n--1#")   # the total makes (0,3) safe
    r = BacktrackEngine().run(board)
    assert r.consistent and r.count is None and r.mine_counts is None
    assert r.safe == {3} and r.mines == frozenset()
    assert r.stats["forced_tests"] >= 1
    a = analyze(board, engine="backtrack")
    assert a.safe == [(0, 3)] and a.solutions is None and not a.probabilities_available
    one_two_one = Board.from_text("#####\n-121-")
    r = BacktrackEngine().run(one_two_one)
    assert r.mines == {1, 3} and r.safe == {0, 2, 4}


def test_counting_by_enumeration_matches_dp_and_is_refused_past_the_limit() -> None:
    board = Board.from_text("mines: 4\n#2#\n#3#\n###\n###")
    dp = DPEngine().run(board)
    bt = BacktrackEngine(count=True).run(board)
    assert (bt.count, bt.mine_counts) == (dp.count, dp.mine_counts)
    four = Board.from_text("###\n#4#\n###")   # C(8, 4) = 70 solutions in one region
    assert BacktrackEngine(count=True).run(four).count == 70
    with pytest.raises(LimitError, match="stops at 10 solutions"):
        BacktrackEngine(count=True, max_enumerated=10).run(four)


def test_combine_regions_with_and_without_a_total() -> None:
    # Two regions, each 1 mine on one of two cells (2 ways), two floating cells.
    half = ([0, 2], {0: [0, 1], 1: [0, 1]})
    other = ([0, 2], {2: [0, 1], 3: [0, 1]})
    count, counts = combine_regions([half, other], [4, 5], remaining=3)
    assert count == 2 * 2 * 2 and counts[0] == 4 and counts[4] == 4
    count, counts = combine_regions([half, other], [4, 5], remaining=None)
    assert count == 16 and counts == dict.fromkeys(range(6), 8)


def test_deep_boards_do_not_hit_the_recursion_limit() -> None:
    # A long 1-wire (Kaye 2000): 3000 hidden cells between rows of 1s, 2 completions.
    n = 3000
    board = Board.from_text("1" * n + "\n" + "#" * n + "\n" + "1" * n)
    s = UrbasSearch(board)
    assert s.solve()
    mined = sorted(s.mined_cells())
    assert all(b - a == 3 for a, b in zip(mined, mined[1:]))


def test_timeout_on_the_hard_gadget_stack() -> None:
    board = read_numeric((DATA / "gadgets-hard.txt").read_text())
    with pytest.raises(QueryTimeout) as info:
        with time_limit(0.5):
            BacktrackEngine().complete(board)
    assert info.value.question == "consistency" and info.value.seconds == 0.5
