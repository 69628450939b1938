"""Autoplayers: policies that choose the next moves of a :class:`~minegraph.play.game.Game`.

A policy looks at what the player sees (:meth:`Game.board`), analyses it with a reusable
:class:`~minegraph.analyser.Analyser` (a move costs a small re-analysis, not a fresh one) and
returns a :class:`Decision`: every proven-safe cell at once, or one guess.

``safest``
    certain moves first; otherwise the cell with the lowest exact mine probability (ties:
    fewest covered neighbours, then the lowest index) — :attr:`Analysis.best`.

Every policy is deterministic: the same game gets the same moves.

Examples
--------
>>> from minegraph.play.game import Game
>>> game = Game("beginner", rules="classic", seed=3)
>>> record = play(game, get_policy("safest"))
>>> record.won == (game.status == "won"), record.moves == len(game.moves)
(True, True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Protocol

from minegraph.analyser import Analyser
from minegraph.errors import GameError
from minegraph.play.game import Game, Move

__all__ = ["Decision", "Policy", "SafestPolicy", "POLICIES", "get_policy", "GameRecord", "play"]


@dataclass(frozen=True)
class Decision:
    """The next moves and whether they risk a mine.

    Attributes
    ----------
    moves
        Uncoverings to play in order (cells a flood fill has meanwhile uncovered are skipped).
    guess
        Whether the first move is a guess (its mine probability is not proven 0).
    probability
        The guessed cell's mine probability (``None`` when certain or unknown).
    """

    moves: tuple[Move, ...]
    guess: bool
    probability: Fraction | None = None


class Policy(Protocol):
    """What an autoplayer provides."""

    name: str

    def decide(self, game: Game) -> Decision:
        """The next moves in ``game`` (which is still being played)."""
        ...


class SafestPolicy:
    """Certain moves first, then the lowest exact mine probability.

    Parameters
    ----------
    first
        The first cell to uncover (an index); ``None`` lets the analysis choose (every cell
        is equally likely at first, so the cell with the fewest neighbours: a corner).
    analyser
        The analyser to reuse (a new one by default).
    """

    name = "safest"

    def __init__(self, first: int | None = None, analyser: Analyser | None = None) -> None:
        self.first = first
        self.analyser = analyser if analyser is not None else Analyser()

    def decide(self, game: Game) -> Decision:
        if not game.uncovered and self.first is not None:
            return Decision((Move("reveal", self.first),), guess=game.rules == "any")
        analysis = self.analyser.analyze(game.board())
        if not analysis.consistent:  # pragma: no cover - a real game is always consistent
            raise GameError("the position the game shows has no completion")
        if analysis.safe:
            return Decision(tuple(Move("reveal", game.index(c)) for c in analysis.safe), False)
        if analysis.best is None:  # pragma: no cover - a game in play has a covered safe cell
            raise GameError("no covered cell left to uncover")
        first_move = not game.uncovered and game.rules != "any"
        p = analysis.probabilities.get(analysis.best)
        return Decision((Move("reveal", game.index(analysis.best)),), guess=not first_move,
                        probability=None if first_move else p)


#: Policy names and their factories (``first`` cell index or ``None``).
POLICIES: dict[str, Callable[[int | None], Policy]] = {
    "safest": lambda first: SafestPolicy(first),
}


def get_policy(name: str, first: int | None = None) -> Policy:
    """A new policy by name.

    Raises
    ------
    GameError
        for an unknown name.
    """
    try:
        return POLICIES[name](first)
    except KeyError:
        raise GameError(f"unknown policy {name!r}; expected one of {', '.join(POLICIES)}") from None


@dataclass(frozen=True)
class GameRecord:
    """How one game went."""

    won: bool
    guesses: int
    moves: int
    seconds: float
    three_bv: int


def play(game: Game, policy: Policy) -> GameRecord:
    """Let ``policy`` play ``game`` to its end."""
    start = time.perf_counter()
    guesses = 0
    while game.status == "playing":
        decision = policy.decide(game)
        guesses += decision.guess
        for move in decision.moves:
            if game.status != "playing":
                break
            if game.is_legal(move):
                game.push(move)
    return GameRecord(game.status == "won", guesses, len(game.moves),
                      time.perf_counter() - start, game.three_bv())
