"""Games for the solver-loop tests (tests/play/test_autoplay.py, test_tui.py and
tests/web/test_games.py): a position with wrong flags, and the moves the solver must then play,
found without the loop under test.

The expectation rests on two facts, not on :class:`~minegraph.play.autoplay.Autoplay`:
policies read the position without the player's flags (``Game.board()``), so flags change
none of their decisions; and a flag on a cell that the solver uncovers by itself (a number, so
no flood passes through it, and never reached by a flood) changes nothing else. The game played
without flags by a plain loop (push every legal move of each decision) therefore gives the
moves; with the flags on, each such cell's reveal must be preceded by a ``flag`` move taking
the flag off.
"""

from __future__ import annotations

from dataclasses import dataclass

from minegraph.play.game import Game, Move
from minegraph.play.policies import get_policy


@dataclass(frozen=True)
class WrongFlags:
    """A game's settings, its first click, the cells to flag (safe ones) and what follows."""

    options: dict[str, object]
    first: tuple[int, int]
    flags: tuple[int, ...]
    expected: tuple[Move, ...]
    status: str

    def start(self) -> Game:
        """The game after the first click, with the wrong flags on."""
        game = self.fresh()
        for cell in self.flags:
            game.flag(cell)
        return game

    def fresh(self) -> Game:
        """The game after the first click, without flags."""
        game = Game(**self.options)  # type: ignore[arg-type]
        game.reveal(self.first)
        return game


def wrong_flags(options: dict[str, object], first: tuple[int, int], policy: str,
                most: int = 3) -> WrongFlags:
    """The case of a game (``Game(**options)``, first click ``first``) with up to ``most``
    wrong flags, on cells the flag-free game uncovers one at a time."""
    free = WrongFlags(options, first, (), (), "").fresh()
    chooser = get_policy(policy)
    moves: list[Move] = []
    alone: list[int] = []
    while free.status == "playing":
        for move in chooser.decide(free).moves:
            if free.status == "playing" and free.is_legal(move):
                opened = free.push(move)
                moves.append(move)
                if opened == [move.cell] and move.cell not in (free.layout or ()):
                    alone.append(move.cell)
    # Spread over the game: the first, the last and one between.
    picked = sorted({alone[0], alone[len(alone) // 2], alone[-1]} if alone else set())[:most]
    flags = tuple(c for c in alone if c in picked)
    expected: list[Move] = []
    for move in moves:
        if move.action == "reveal" and move.cell in flags:
            expected.append(Move("flag", move.cell))
        expected.append(move)
    return WrongFlags(options, first, flags, tuple(expected), free.status)
