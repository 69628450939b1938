"""The solver loop: a policy playing a game, the one loop behind every autoplayer.

:func:`~minegraph.play.policies.play` (benchmarks, rollouts), the web page's "let the solver
play" (``POST /api/game/{id}/solver``) and the terminal game's ``s`` all play through
:class:`Autoplay`: ask the policy for a decision, play its moves in order, ask again.

Two rules live here and nowhere else:

- **A player's flag is a claim, not knowledge.** Policies reason from the numbers alone
  (:meth:`~minegraph.play.game.Game.board` without flags), so a policy may uncover a cell the
  player flagged. The flag then comes off first (a ``flag`` move, which toggles it) and the
  cell is uncovered: the game's history shows both. A cell the analysis proves safe is never
  a mine, so such a flag was wrong; a guess on a flagged cell is the policy's choice over
  the player's, as the player asked the solver to play. A flag on a mine is never touched:
  no policy uncovers a proven mine, and flags play no other part.
- **Moves a flood fill has made moot are skipped**: a decision lists every certain cell at
  once, and uncovering one may open others.

A decision none of whose moves can be played (a policy that names an uncovered cell) stops
the loop with a reason (:attr:`Autoplay.stopped`) instead of asking the same question for
ever.

Examples
--------
>>> from minegraph.play.game import Game
>>> from minegraph.play.policies import get_policy
>>> game = Game("beginner", rules="modern", seed=1)
>>> game.reveal((0, 0)) and None
>>> game.flag((2, 2))                  # a flag on a cell the numbers prove safe
>>> auto = Autoplay(game, get_policy("safest")).run()
>>> game.status, auto.stopped, game.index((2, 2)) in game.flags
('won', None, False)
>>> [m for m in auto.moves if m.cell == game.index((2, 2))]
[Move(action='flag', cell=20), Move(action='reveal', cell=20)]
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from minegraph.deadline import check_deadline
from minegraph.errors import GameError
from minegraph.play.game import Game, Move

if TYPE_CHECKING:
    from minegraph.play.policies import Decision, Policy

__all__ = ["Autoplay", "GameRecord", "apply", "play", "STUCK"]

#: :attr:`Autoplay.stopped` when a decision had no move that could be played.
STUCK = "the solver found no move it could play"


class Autoplay:
    """A policy playing a game, one move at a time or to the end.

    :meth:`next_move` says what to play next (asking the policy for a new decision when the
    last one is played out); the caller plays it (:meth:`push`, or its own
    ``game.push`` then :meth:`played`) before asking again. :meth:`run` does both until the
    game ends, ``steps`` decisions are played or the loop stops.

    Parameters
    ----------
    game
        The game, played in place from its current position (flags included).
    policy
        The autoplayer (:mod:`minegraph.play.policies`).
    steps
        The most decisions to ask for (0: none); ``None``: no limit (to the end of the game).

    Attributes
    ----------
    decisions
        Decisions asked for so far.
    guesses
        Those that were guesses.
    moves
        The moves played through this loop, in order: uncoverings and the ``flag`` moves that
        took a player's flag off.
    decision
        The decision being played, or ``None`` before the first.
    stopped
        Why the loop stopped early (:data:`STUCK`), else ``None``.

    Raises
    ------
    GameError
        for ``steps`` that is not a whole number of at least 0.

    Examples
    --------
    The policy's plan, move by move: a wrongly flagged safe cell is unflagged, then uncovered.

    >>> from minegraph.play.game import Game
    >>> from minegraph.play.policies import get_policy
    >>> game = Game("beginner", rules="modern", seed=1)
    >>> game.reveal((0, 0)) and None
    >>> game.flag((2, 0))                 # the numbers prove (2, 0) safe
    >>> auto = Autoplay(game, get_policy("safest"), steps=1)
    >>> auto.next_move(), auto.decision.reason
    (Move(action='flag', cell=18), 'certain')
    >>> auto.push(Move("flag", 18))       # a flag move uncovers nothing
    []
    >>> auto.next_move()
    Move(action='reveal', cell=18)
    """

    def __init__(self, game: Game, policy: Policy, steps: int | None = None) -> None:
        if steps is not None and (type(steps) is not int or steps < 0):
            raise GameError(f"steps: expected a whole number of decisions (0 or more) or None, "
                            f"got {steps!r}")
        self.game = game
        self.policy = policy
        self.steps = steps
        self.decisions = 0
        self.guesses = 0
        self.moves: list[Move] = []
        self.decision: Decision | None = None
        self.stopped: str | None = None
        self._plan: list[Move] = []
        self._fresh = False                 # a decision asked for, no move of it handed out
        self._unflagging: int | None = None  # the cell whose flag-off move was handed out

    def next_move(self) -> Move | None:
        """The move to play next, or ``None`` when there is none: the game is over, ``steps``
        decisions are played out, or the loop stopped (:attr:`stopped` says why).

        Returns
        -------
        Move or None
            An uncovering from the current decision, or a ``flag`` move that takes the
            player's flag off the cell it uncovers next; ``None`` at the end.

        Raises
        ------
        MinegraphError
            what the policy raises, such as :class:`~minegraph.errors.QueryTimeout` when a
            time limit (:func:`~minegraph.deadline.time_limit`) passes; checked before each
            decision. The moves played so far stay in :attr:`moves`.
        """
        game = self.game
        while game.status == "playing" and self.stopped is None:
            while self._plan:
                move = self._plan[0]
                if move.action == "reveal" and move.cell in game.flags \
                        and self._unflagging != move.cell:
                    self._unflagging = move.cell   # the reveal stays next in the plan
                    self._fresh = False
                    return Move("flag", move.cell)
                self._plan.pop(0)
                self._unflagging = None
                if game.is_legal(move):
                    self._fresh = False
                    return move
            if self._fresh:
                self.stopped = STUCK
                break
            if self.steps is not None and self.decisions >= self.steps:
                break
            check_deadline()
            decision = self.policy.decide(game)
            self.decision = decision
            self.decisions += 1
            self.guesses += decision.guess
            self._plan = list(decision.moves)
            self._fresh = True
        return None

    def played(self, move: Move) -> None:
        """Note that ``move`` (from :meth:`next_move`) was played on the game.

        Parameters
        ----------
        move
            The move just played.
        """
        self.moves.append(move)

    def push(self, move: Move) -> list[int]:
        """Play ``move`` (from :meth:`next_move`) on the game.

        Parameters
        ----------
        move
            The move to play.

        Returns
        -------
        list of int
            The cells it uncovered (:meth:`Game.push <minegraph.play.game.Game.push>`).

        Raises
        ------
        GameError
            for a move the game refuses (one not from :meth:`next_move`).
        """
        opened = self.game.push(move)
        self.played(move)
        return opened

    def forget(self) -> None:
        """Drop the rest of the current decision: the position changed under it (the player
        moved, or took a move back), so the next move comes from a new decision."""
        self._plan = []
        self._fresh = False
        self._unflagging = None

    def run(self) -> "Autoplay":
        """Play until :meth:`next_move` has nothing more.

        Returns
        -------
        Autoplay
            This loop, with its counts and moves.

        Raises
        ------
        MinegraphError
            as :meth:`next_move`; the moves played until then stay played.
        """
        while (move := self.next_move()) is not None:
            self.push(move)
        return self


@dataclass(frozen=True)
class GameRecord:
    """How one game went.

    Attributes
    ----------
    won
        Whether the policy won.
    guesses
        Decisions that were guesses.
    moves
        Moves in the game's history at the end.
    seconds
        Seconds the policy took to play.
    three_bv
        The layout's 3BV (:meth:`~minegraph.play.game.Game.three_bv`).
    """

    won: bool
    guesses: int
    moves: int
    seconds: float
    three_bv: int


def apply(game: Game, decision: Decision) -> list[Move]:
    """Play one decision's moves on ``game`` while it is in play (:class:`Autoplay`'s rules:
    a player's flag on a cell to uncover comes off first, moves a flood fill has made moot
    are skipped).

    Parameters
    ----------
    game
        The game, changed in place.
    decision
        The moves to play.

    Returns
    -------
    list of Move
        The moves played, in order (``flag`` moves included).

    Examples
    --------
    >>> from minegraph.play.game import Game
    >>> from minegraph.play.policies import Decision
    >>> game = Game(rows=1, cols=4, mines=1, rules="modern", seed=0)
    >>> game.flag(3)
    >>> apply(game, Decision((Move("reveal", 3),), guess=False))
    [Move(action='flag', cell=3), Move(action='reveal', cell=3)]
    """
    return Autoplay(game, _Once(decision), steps=1).run().moves


class _Once:
    """A policy that has one decision to give."""

    name = "once"

    def __init__(self, decision: Decision) -> None:
        self.decision = decision

    def decide(self, game: Game) -> Decision:
        return self.decision


def play(game: Game, policy: Policy) -> GameRecord:
    """Let ``policy`` play ``game`` to its end (:class:`Autoplay`).

    Parameters
    ----------
    game
        The game, played in place (from its current position; a flag on a cell the policy
        uncovers comes off first).
    policy
        The autoplayer.

    Returns
    -------
    GameRecord
        How the game went.

    Raises
    ------
    GameError
        when a decision has no move that can be played (a policy naming uncovered cells),
        rather than asking it again for ever.

    Examples
    --------
    >>> from minegraph.play.policies import get_policy
    >>> record = play(Game("beginner", rules="modern", seed=1), get_policy("safest"))
    >>> record.won, record.guesses
    (True, 0)
    """
    start = time.perf_counter()
    auto = Autoplay(game, policy).run()
    if auto.stopped is not None:
        raise GameError(f"{auto.stopped}: the {policy.name} policy's decision "
                        f"{auto.decision} names no cell that can be uncovered")
    return GameRecord(game.status == "won", auto.guesses, len(game.moves),
                      time.perf_counter() - start, game.three_bv())
