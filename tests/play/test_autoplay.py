"""The one solver loop (:mod:`minegraph.play.autoplay`): hand-checked plans on a 1x4 row, and
whole games with wrong flags against the flag-free game played by a plain loop
(tests/solver_cases.py)."""

from __future__ import annotations

import pytest

from minegraph.errors import GameError, QueryTimeout
from minegraph.play.autoplay import STUCK, Autoplay, apply, play
from minegraph.play.game import Game, Move
from minegraph.play.policies import Decision, get_policy
from solver_cases import wrong_flags


class Scripted:
    """A policy that gives its decisions in order (then raises what it is given)."""

    name = "scripted"

    def __init__(self, *decisions: Decision | Exception) -> None:
        self.decisions = list(decisions)
        self.asked = 0

    def decide(self, game: Game) -> Decision:
        self.asked += 1
        answer = self.decisions.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer


def reveal(*cells: int, guess: bool = False) -> Decision:
    return Decision(tuple(Move("reveal", c) for c in cells), guess=guess)


def row() -> Game:
    """A 1x4 row with its mine at 0 and cell 1 uncovered (it shows 1); 2 and 3 show 0."""
    game = Game(rows=1, cols=4, mines=1, rules="classic", seed=0)
    game.layout = frozenset({0})
    game.reveal(1)
    assert game.number(1) == 1 and game.number(2) == 0 and game.number(3) == 0
    return game


def test_a_flood_makes_the_rest_of_a_plan_moot() -> None:
    game = row()
    auto = Autoplay(game, Scripted(reveal(2, 3))).run()
    assert auto.moves == [Move("reveal", 2)]      # 2 is a 0: it opens 3
    assert game.status == "won" and auto.decisions == 1 and auto.stopped is None


def test_wrong_flags_come_off_one_before_each_uncovering() -> None:
    game = row()
    game.flag(2)
    game.flag(3)
    auto = Autoplay(game, Scripted(reveal(2, 3))).run()
    # The flag on 3 stops the flood from 2: 3 needs its own flag move and uncovering.
    assert auto.moves == [Move("flag", 2), Move("reveal", 2), Move("flag", 3), Move("reveal", 3)]
    assert game.status == "won" and not game.flags
    assert game.moves[3:] == auto.moves             # after the click and the two flags


def test_a_flag_on_the_mine_stays() -> None:
    game = row()
    game.flag(0)
    game.flag(3)
    policy = Scripted(reveal(3), reveal(2))
    record = play(game, policy)
    assert record.won and game.flags == {0} and policy.asked == 1
    assert game.moves[3:] == [Move("flag", 3), Move("reveal", 3)]     # 3 shows 0: opens 2


def test_a_decision_without_a_playable_move_stops_the_loop() -> None:
    game = row()
    policy = Scripted(reveal(1), reveal(2))           # 1 is uncovered already
    auto = Autoplay(game, policy).run()
    assert auto.stopped == STUCK and auto.moves == [] and policy.asked == 1
    with pytest.raises(GameError, match="found no move it could play"):
        play(row(), Scripted(reveal(1)))


def test_apply_plays_one_decision_with_the_same_rules() -> None:
    game = row()
    game.flag(2)
    assert apply(game, reveal(1, 2)) == [Move("flag", 2), Move("reveal", 2)]
    assert apply(game, reveal(3)) == []               # the game is over


def test_steps_count_decisions_and_forget_replans() -> None:
    game = Game(rows=1, cols=7, mines=1, rules="classic", seed=0)
    game.layout = frozenset({3})
    game.reveal(2)
    policy = Scripted(reveal(4, 6), reveal(5), reveal(6))
    auto = Autoplay(game, policy, steps=2)
    assert auto.next_move() == Move("reveal", 4)
    auto.push(Move("reveal", 4))
    auto.forget()                                     # the rest of the plan (6) is dropped
    assert auto.next_move() == Move("reveal", 5) and auto.decisions == 2
    auto.push(Move("reveal", 5))                      # 5 shows 0: opens 6
    assert auto.next_move() is None and auto.stopped is None and policy.asked == 2
    assert Autoplay(game, policy, steps=0).next_move() is None and policy.asked == 2
    with pytest.raises(GameError, match="steps"):
        Autoplay(game, policy, steps=-1)


def test_a_time_out_keeps_the_moves_played() -> None:
    game = Game(rows=1, cols=7, mines=1, rules="classic", seed=0)
    game.layout = frozenset({3})
    game.reveal(2)
    auto = Autoplay(game, Scripted(reveal(4), QueryTimeout("solver")))
    with pytest.raises(QueryTimeout):
        auto.run()
    assert auto.moves == [Move("reveal", 4)] and game.moves[-1] == Move("reveal", 4)


CASES = [({"size": "beginner", "rules": "classic", "seed": 0}, (0, 0), "strong"),
         ({"size": "beginner", "rules": "modern", "seed": 0}, (3, 3), "safest"),
         ({"size": "intermediate", "rules": "modern", "seed": 0}, (3, 3), "strong")]


@pytest.mark.parametrize("options, first, policy", CASES)
def test_play_with_wrong_flags_matches_the_flag_free_game(options: dict[str, object],
                                                        first: tuple[int, int], policy: str) -> None:
    case = wrong_flags(options, first, policy)
    assert case.flags
    game = case.start()
    start = len(game.moves)
    record = play(game, get_policy(policy))
    assert game.moves[start:] == list(case.expected)
    assert game.status == case.status and record.won == (case.status == "won")
    assert not game.flags & set(case.flags)
