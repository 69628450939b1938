"""The web solver (``POST /api/game/{id}/solver``) plays through the library's one loop: its
work function, against the flag-free game played by a plain loop (tests/solver_cases.py)."""

from __future__ import annotations

import pytest

from minegraph.deadline import Deadline
from minegraph.errors import QueryTimeout
from minegraph.play.game import Game, Move
from minegraph.play.policies import Decision
from minegraph.web import games
from solver_cases import wrong_flags


def guard() -> Deadline:
    """A deadline that only guards against a hang: made when the test starts (one made at
    import would run out while a long suite reaches the test)."""
    return Deadline(600)


def cells(moves: list[Move], action: str, cols: int) -> list[list[int]]:
    return [list(divmod(m.cell, cols)) for m in moves if m.action == action]


@pytest.mark.parametrize("policy", ["strong", "safest"])
def test_the_solver_takes_wrong_flags_off_as_the_library_plays(policy: str) -> None:
    case = wrong_flags({"size": "intermediate", "rules": "classic", "seed": 4}, (0, 0), policy)
    assert case.flags
    start = case.start()
    begun = len(start.moves)
    report, game = games._solve(start, None, policy, guard())
    assert game.moves[begun:] == list(case.expected)
    assert report["moves"] == cells(list(case.expected), "reveal", 16)
    assert report["unflagged"] == [list(divmod(c, 16)) for c in case.flags]
    assert report["stopped"] is None and game.status == case.status
    assert report["decisions"] >= 1 and report["policy"] == policy


def test_steps_are_decisions() -> None:
    game = Game("beginner", rules="modern", seed=5)
    game.reveal((3, 3))
    report, after = games._solve(game, 1, "safest", guard())
    assert report["decisions"] == 1 and report["moves"] and report["unflagged"] == []
    assert len(after.moves) == 1 + len(report["moves"])


def test_a_time_out_keeps_the_moves_made(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(rows=1, cols=7, mines=1, rules="classic", seed=0)
    game.layout = frozenset({3})
    game.reveal(2)
    game.flag(4)

    class Slow:
        name = "slow"
        asked = 0

        def decide(self, game: Game) -> Decision:
            self.asked += 1
            if self.asked > 1:
                raise QueryTimeout("solver")
            return Decision((Move("reveal", 4),), guess=False)

    monkeypatch.setattr("minegraph.play.policies.get_policy", lambda name: Slow())
    report, after = games._solve(game, None, "strong", Deadline(5))
    assert report["stopped"] == "time limit of 5 s"
    assert report["moves"] == [[0, 4]] and report["unflagged"] == [[0, 4]]
    assert after.moves[-2:] == [Move("flag", 4), Move("reveal", 4)] and after.status == "playing"


def test_a_policy_without_a_playable_move_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    from minegraph.play.autoplay import STUCK
    game = Game(rows=1, cols=7, mines=1, rules="classic", seed=0)
    game.layout = frozenset({3})
    game.reveal(2)

    class Stuck:
        name = "stuck"

        def decide(self, game: Game) -> Decision:
            return Decision((Move("reveal", 2),), guess=False)      # uncovered already

    monkeypatch.setattr("minegraph.play.policies.get_policy", lambda name: Stuck())
    report, after = games._solve(game, None, "strong", guard())
    assert report["stopped"] == STUCK and report["decisions"] == 1 and report["moves"] == []
