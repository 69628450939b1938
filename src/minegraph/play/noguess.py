"""A game whose layout, drawn at the first click, is solved from that click without a guess.

:class:`NoGuessGame` is a :class:`~minegraph.play.game.Game` under modern rules whose layout
is the no-guess generator's (:func:`~minegraph.generate.noguess.noguess_board`, same seed,
that first cell): a deduction-only player finishes it from the first click. Drawing one can
take a while on a big dense board, so the layout can be computed on its own
(:meth:`NoGuessGame.layout_for`, a pure function of the game's parameters and the first cell:
a server runs it in another thread or process) and then installed (:meth:`NoGuessGame.place`).
Played directly, the first uncovering draws it under the enclosing query's time limit
(:func:`~minegraph.deadline.time_limit`), with no limit of its own.

Examples
--------
>>> game = NoGuessGame("beginner", seed=3)
>>> opened = game.reveal((4, 4))
>>> game.rules, game.rules_label, len(opened) > 1
('modern', 'noguess', True)
"""

from __future__ import annotations

from typing import Any

from minegraph.deadline import Deadline, time_limit
from minegraph.errors import GameError
from minegraph.play.game import Cell, Game

__all__ = ["NoGuessGame"]


class NoGuessGame(Game):
    """A game under modern rules on a layout solvable from the first click without a guess.

    Parameters
    ----------
    size
        A standard size, or ``None`` with ``rows``, ``cols`` and ``mines``.
    seed
        The seed: the layout is ``noguess_board(..., seed=seed)``'s for the first cell.
    **options
        ``rows``, ``cols``, ``mines`` and ``topology`` as for :class:`Game` (grids only).

    Raises
    ------
    GameError
        as :class:`Game` does, and for a game on a graph (the generator draws grids).
    """

    rules_label = "noguess"

    def __init__(self, size: str | None = "expert", *, seed: int, **options: Any) -> None:
        if "rules" in options or "neighbors" in options:
            raise GameError("a no-guess game is played on a grid under modern rules")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise GameError(f"a no-guess game needs a seed >= 0, got {seed!r}")
        super().__init__(size, rules="modern", seed=seed, **options)
        self.seed = seed

    def layout_for(self, first: Cell, deadline: Deadline | None = None) -> frozenset[int]:
        """The layout for the first click ``first``, without changing the game.

        Parameters
        ----------
        first
            The first cell, ``(row, col)`` or an index.
        deadline
            A limit for the search (``None``: the enclosing query's, if any).

        Returns
        -------
        frozenset[int]
            The mined cells.

        Raises
        ------
        GameError
            when no layout of the generator's attempts is solved from ``first``, or the
            mines do not fit around it.
        QueryTimeout
            when the deadline passes first.
        """
        from minegraph.generate.noguess import noguess_board
        assert self.rows is not None and self.cols is not None
        cell = self.index(first)
        with time_limit(deadline, "no-guess layout"):
            made = noguess_board(self.rows, self.cols, self.mine_count, first=cell,
                                 rules="modern", seed=self.seed, topology=self.topology)
        return made.layout

    def place(self, layout: frozenset[int]) -> None:
        """Install the layout :meth:`layout_for` computed (before the first uncovering).

        Raises
        ------
        GameError
            when a layout is already placed, or ``layout`` has the wrong number of mines.
        """
        if self.layout is not None:
            raise GameError("the layout is already placed")
        if len(layout) != self.mine_count or not all(0 <= c < self.size for c in layout):
            raise GameError(f"a layout of {self.mine_count} cells of 0..{self.size - 1} expected")
        self.layout = frozenset(layout)

    def _place_for(self, first: int) -> None:
        if self.layout is None:
            self.layout = self.layout_for(first)
