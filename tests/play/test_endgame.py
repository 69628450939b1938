"""The exact endgame against an independent brute force over every layout and strategy.

The brute force knows nothing of flood fills, free safe cells or equivalent cells: a state is
the set of layouts consistent with what was seen, a move uncovers one cell and shows its
number alone, and the value is the best average over the layouts. (Flood fills only show cells
that are certainly safe, so perfect play wins as often either way.)
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import lru_cache
from itertools import combinations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from minegraph import Board
from minegraph.board import HIDDEN, MINE
from minegraph.errors import LimitError
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


@pytest.mark.parametrize("rows, cols, mines", [(3, 3, 2), (3, 4, 3), (4, 4, 3)])
def test_optimal_win_probability_from_the_start(rows: int, cols: int, mines: int) -> None:
    board = Board.grid(rows, cols, [HIDDEN] * (rows * cols), mines=mines)
    assert Endgame(board, limit=1000).win_probability() == brute_force_value(board)


@st.composite
def partial_positions(draw: st.DrawFn) -> Board:
    rows, cols = draw(st.integers(2, 4)), draw(st.integers(2, 5))
    n = rows * cols
    mines = draw(st.integers(1, max(1, n // 3)))
    rng = random.Random(draw(st.integers(0, 10**6)))
    layout = set(rng.sample(range(n), mines))
    nbrs = grid_neighbors("square", rows, cols)
    states = [HIDDEN] * n
    for c in rng.sample(range(n), rng.randrange(n)):
        if c not in layout:
            states[c] = sum(1 for q in nbrs[c] if q in layout)
        elif rng.random() < 0.3:
            states[c] = MINE
    return Board.grid(rows, cols, states, mines=mines)


@settings(max_examples=examples(300), deadline=None)
@given(partial_positions())
def test_endgame_value_matches_brute_force_mid_game(board: Board) -> None:
    # Few completions: the brute force tries every strategy on every layout.
    assume(completions(board, 300) is not None)
    search = Endgame(board, limit=300)
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
        search = Endgame(board, limit=100)
        assert len(search.layouts) == 4
        assert search.win_probability() == Fraction(1, 4)
        assert len(search._search._regions) == 2
    finally:
        endgame_module.FACTOR_MIN = saved


@given(st.lists(st.integers(0, 2**12 - 1), min_size=1, max_size=6), st.integers(1, 2**12 - 1))
def test_same_count_agrees_with_counting_layout_by_layout(masks: list[int], group: int) -> None:
    counts = {sum(m >> k & 1 for m in masks) for k in range(12) if group >> k & 1}
    assert endgame_module._same_count(group, masks) == (len(counts) == 1)
