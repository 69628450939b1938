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
from minegraph.play.game import Game
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


def test_a_quick_play_out_wins_where_the_safest_policy_wins_the_same_game() -> None:
    """With no endgame and no look-ahead the quick play-out plays the `safest` policy's moves
    (every certainly safe cell; else the lowest mine probability, fewest covered neighbours,
    lowest index): on the same layouts it wins exactly the games the policy wins through the
    full Game machinery."""
    import random

    from minegraph.analyser import Analyser
    from minegraph.play.game import Move
    from minegraph.play.policies import SafestPolicy, play
    from minegraph.play.rollout import play_out
    from minegraph.sample import sample_completion

    won = played = 0
    for seed in range(6):
        game = Game("intermediate", rules="modern", seed=seed)
        game.reveal(game.index((8, 8)))
        if game.status != "playing":
            continue
        board = game.board()
        rng = random.Random(seed)
        analyser = Analyser()
        hidden = [i for i, s in enumerate(board.states) if s == -1]
        for _ in range(3):
            layout = sample_completion(board, rng, analyser)
            move = rng.choice(hidden)
            quick = play_out(board, layout, [move], endgame=0, look=0)
            other = game_at(board, layout)
            other.push(Move("reveal", move))
            if other.status == "playing":
                play(other, SafestPolicy())
            assert quick == (1.0 if other.status == "won" else 0.0)
            won += other.status == "won"
            played += 1
    assert played >= 12 and 0 < won < played
