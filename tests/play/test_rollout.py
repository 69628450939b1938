"""Move values by rollout (:mod:`minegraph.play.rollout`) on a position worked out by hand.

The path ``0 - 1 - 2 - 3`` with a 1 on node 1 and one mine in all: the mine is on node 0 or
on node 2 (the 1's neighbours), so node 3 is safe. Uncovering node 3 always wins (it shows
whether the mine is beside it, which decides the rest); uncovering node 0 wins exactly when the
mine is on node 2, node 2 exactly when it is on node 0: over the same drawn layouts the two
wins add up to the number of layouts.
"""

from __future__ import annotations

import pytest

from minegraph import Board
from minegraph.errors import GameError
from minegraph.play.rollout import compare_moves, game_at

PATH = Board.from_graph(4, [(0, 1), (1, 2), (2, 3)], "#1##", mines=1)


def test_move_values_against_the_hand_worked_outcomes() -> None:
    values = compare_moves(PATH, [0, 2, 3], 40, rng=5)
    assert values[3].wins == values[3].games == 40                 # certainly safe: a win
    assert values[0].games == values[2].games == 40
    assert values[0].wins + values[2].wins == 40                    # paired: one or the other
    # Layout by layout: node 0 wins exactly where node 2 loses.
    assert all(a != b for a, b in zip(values[0].outcomes, values[2].outcomes))


def test_a_game_at_a_layout_shows_the_position() -> None:
    game = game_at(PATH, frozenset({2}))
    assert game.status == "playing" and game.number(1) == 1 and 1 in game.uncovered
    with pytest.raises(GameError, match="the layout gives"):
        game_at(PATH, frozenset({3}))                               # node 1 would show 0


def test_bad_candidates_and_a_position_without_total() -> None:
    with pytest.raises(GameError, match="cell 1 is not a hidden cell"):
        compare_moves(PATH, [1], 2, rng=0)
    with pytest.raises(GameError, match="cell 9 is not a hidden cell"):
        compare_moves(PATH, [9], 2, rng=0)
    untotalled = Board.from_graph(4, [(0, 1), (1, 2), (2, 3)], "#1##")
    with pytest.raises(GameError, match="total mine count"):
        compare_moves(untotalled, [3], 2, rng=0)
