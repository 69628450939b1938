"""A Minesweeper game on any graph: a hidden layout, moves with a history, snapshots to analyse.

:class:`Game` is mutable, in the manner of python-chess's ``Board``: :meth:`Game.push` plays a
:class:`Move` (uncover, flag, chord) and :meth:`Game.pop` takes it back; :meth:`Game.board`
returns an immutable :class:`~minegraph.board.Board` of what the player sees, ready for
:func:`~minegraph.analysis.analyze` or an :class:`~minegraph.analyser.Analyser`.

Mines are placed from a seed under named rules (:data:`~minegraph.rules.RULES`):

``classic``
    the first uncovered cell is never a mine (mines uniform over the other cells);
``modern``
    the first cell and its neighbours hold no mine, so the first click opens an area;
``any``
    nothing is guaranteed (mines placed when the game is made).

Under ``classic`` and ``modern`` the layout is drawn at the first uncovering, from the game's
seed and that cell only: the same seed and the same first cell give the same game.

Examples
--------
>>> game = Game("beginner", rules="modern", seed=7)
>>> opened = game.reveal((4, 4))
>>> len(opened) > 1, game.status
(True, 'playing')
>>> game.board().states[4 * 9 + 4]
0
>>> game.pop().cell == 40 and game.status == "playing" and not game.moves
True
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Iterator, Sequence

from minegraph.board import HIDDEN, MINE, Board
from minegraph.errors import BoardError, GameError
from minegraph.rules import (RULES, SIZES, cell_index, check_fit, draw_layout, flood_fill, kept_clear,
                             three_bv)
from minegraph.states import MAX_CELLS
from minegraph.topology import TOPOLOGIES, grid_neighbors

__all__ = ["Game", "Move", "RULES", "SIZES", "flood_fill"]

#: Move kinds.
ACTIONS = ("reveal", "flag", "chord")

Cell = int | tuple[int, int]


def _whole(value: object) -> bool:
    """Whether ``value`` is an ``int`` (a ``bool`` is not a size or a count)."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Move:
    """One move: ``action`` (``reveal``, ``flag`` — which toggles — or ``chord``) on ``cell``
    (a cell index).

    Attributes
    ----------
    action
        One of ``"reveal"``, ``"flag"`` and ``"chord"``.
    cell
        The cell's index.

    Raises
    ------
    GameError
        for an unknown action.

    Examples
    --------
    >>> Move("reveal", 3)
    Move(action='reveal', cell=3)
    """

    action: str
    cell: int

    def __post_init__(self) -> None:
        if self.action not in ACTIONS:
            raise GameError(f"unknown move {self.action!r}; expected one of {', '.join(ACTIONS)}")


@dataclass
class _Undo:
    """What a move changed, so that :meth:`Game.pop` can take it back."""

    move: Move
    uncovered: list[int] = field(default_factory=list)
    placed: bool = False
    status: str = "playing"
    exploded: int | None = None
    #: When the move was played (``time.time()``): recordings (:mod:`minegraph.play.record`)
    #: keep the game's pace.
    at: float = field(default_factory=time.time)


class Game:
    """A game of Minesweeper.

    Parameters
    ----------
    size
        A standard size from :data:`SIZES` (``"expert"`` ...), or ``None`` with ``rows``,
        ``cols`` and ``mines``.
    rows, cols, mines
        A custom grid (override the size's values when given).
    topology
        ``square`` (default), ``triangle`` (12 neighbours), ``hex`` or ``torus``.
    neighbors
        Play on any graph instead: the neighbour list of every cell (``rows``/``cols`` unused).
    rules
        One of :data:`RULES`.
    seed
        An ``int`` or a :class:`random.Random` (its state is copied, not advanced); ``None``
        draws one from the system.

    Raises
    ------
    GameError
        for an unknown size or rule, rows or columns that are not whole numbers of at least
        1 (checked first) or a grid beyond :data:`~minegraph.states.MAX_CELLS` cells, a number
        of mines that is not a whole number of at least 0, or mines that do not fit.

    Examples
    --------
    >>> g = Game(rows=3, cols=3, mines=1, rules="classic", seed=1)
    >>> sorted(g.reveal(0)) != [], g.status in ("playing", "won")
    (True, True)
    """

    def __init__(self, size: str | None = "expert", *, rows: int | None = None,
                 cols: int | None = None, mines: int | None = None, topology: str = "square",
                 neighbors: Sequence[Sequence[int]] | None = None, rules: str = "classic",
                 seed: int | random.Random | None = None) -> None:
        if rules not in RULES:
            raise GameError(f"unknown rules {rules!r}; expected one of {', '.join(RULES)}")
        if size is not None and size not in SIZES:
            raise GameError(f"unknown size {size!r}; expected one of {', '.join(SIZES)} "
                            f"(or rows, cols and mines)")
        base = SIZES[size] if size is not None and neighbors is None else (None, None, None)
        self.rows = rows if rows is not None else base[0]
        self.cols = cols if cols is not None else base[1]
        count = mines if mines is not None else base[2]
        if neighbors is not None:
            self.topology = "graph"
            self.rows = self.cols = None
            self.neighbors = tuple(tuple(int(q) for q in around) for around in neighbors)
            for i, around in enumerate(self.neighbors):
                if any(not 0 <= q < len(self.neighbors) or q == i for q in around):
                    raise GameError(f"cell {i}: neighbours must be other cells 0..{len(self.neighbors) - 1}")
        else:
            if topology not in TOPOLOGIES:
                raise GameError(f"unknown topology {topology!r}; expected one of {', '.join(TOPOLOGIES)}")
            if self.rows is None or self.cols is None:
                raise GameError("a custom game needs rows, cols and mines (or a size name)")
            # The grid first: a bad size is not the mines' fault.
            for name, value in (("rows", self.rows), ("cols", self.cols)):
                if not _whole(value) or value < 1:
                    raise GameError(f"{name} must be a whole number of at least 1, got {value!r}")
            if self.rows * self.cols > MAX_CELLS:
                raise GameError(f"a {self.rows}x{self.cols} grid exceeds the limit of {MAX_CELLS} cells")
            try:
                self.neighbors = grid_neighbors(topology, self.rows, self.cols)
            except BoardError as exc:
                raise GameError(str(exc)) from None
            self.topology = topology
        if count is None:
            raise GameError("a custom game needs a number of mines")
        if not _whole(count) or count < 0:
            raise GameError(f"mines must be a whole number of at least 0, got {count!r}")
        self.size = len(self.neighbors)
        self.mine_count = count
        self.rules = rules
        self._check_fit()
        if isinstance(seed, random.Random):
            self._rng_state = seed.getstate()
        else:
            self._rng_state = random.Random(seed).getstate()
        self.layout: frozenset[int] | None = None
        self.uncovered: set[int] = set()
        self.flags: set[int] = set()
        self.status = "playing"
        self.exploded: int | None = None
        self._history: list[_Undo] = []
        if rules == "any":
            self.layout = self._draw(set())

    # ----------------------------------------------------------------- layout
    def _check_fit(self) -> None:
        check_fit(self.rules, self.neighbors, self.mine_count)

    def _draw(self, kept: set[int]) -> frozenset[int]:
        rng = random.Random(0)      # (seeded: an unseeded Random reads the OS's entropy)
        rng.setstate(self._rng_state)
        return draw_layout(rng, kept, self.size, self.mine_count)

    def _place_for(self, first: int) -> None:
        self.layout = self._draw(kept_clear(self.rules, self.neighbors, first))

    # ----------------------------------------------------------------- cells
    def index(self, cell: Cell) -> int:
        """The index of ``cell``: an index, or ``(row, col)`` on grids.

        Raises
        ------
        GameError
            for a cell outside the board or of the wrong form.
        """
        return cell_index(cell, self.size, self.cols)

    def number(self, cell: int) -> int:
        """Mines around ``cell`` in the layout (placed)."""
        assert self.layout is not None
        return sum(1 for q in self.neighbors[cell] if q in self.layout)

    # ----------------------------------------------------------------- moves
    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` can be played now."""
        if self.status != "playing" or not 0 <= move.cell < self.size:
            return False
        c = move.cell
        if move.action == "reveal":
            return c not in self.uncovered and c not in self.flags
        if move.action == "flag":
            return c not in self.uncovered
        return c in self.uncovered and self.layout is not None and \
            sum(1 for q in self.neighbors[c] if q in self.flags) == self.number(c) and \
            any(q not in self.uncovered and q not in self.flags for q in self.neighbors[c])

    def legal_moves(self) -> Iterator[Move]:
        """Every legal move: uncover or flag a covered cell, chord a satisfied number."""
        for c in range(self.size):
            for action in ACTIONS:
                move = Move(action, c)
                if self.is_legal(move):
                    yield move

    def push(self, move: Move) -> list[int]:
        """Play ``move``; returns the cells it uncovered.

        Raises
        ------
        GameError
            for an illegal move (the game is over, the cell is uncovered or flagged, a chord
            whose number does not match its flags).
        """
        if not self.is_legal(move):
            raise GameError(self._why_illegal(move))
        undo = _Undo(move, status=self.status, exploded=self.exploded)
        if move.action == "flag":
            self.flags ^= {move.cell}
        elif move.action == "reveal":
            if self.layout is None:
                self._place_for(move.cell)
                undo.placed = True
            self._uncover([move.cell], undo)
        else:
            self._uncover([q for q in self.neighbors[move.cell]
                           if q not in self.uncovered and q not in self.flags], undo)
        self._history.append(undo)
        return undo.uncovered

    def _uncover(self, cells: list[int], undo: _Undo) -> None:
        assert self.layout is not None
        for c in cells:
            if c in self.layout:
                self.status, self.exploded = "lost", c
                return
            undo.uncovered.extend(flood_fill(self.neighbors, self.layout, self.uncovered, c,
                                             self.flags))
        if len(self.uncovered) == self.size - self.mine_count:
            self.status = "won"

    def _why_illegal(self, move: Move) -> str:
        where = self.label(move.cell) if 0 <= move.cell < self.size else str(move.cell)
        if self.status != "playing":
            return f"the game is over ({self.status}); pop() to take moves back"
        if not 0 <= move.cell < self.size:
            return f"cell {move.cell} is outside 0..{self.size - 1}"
        if move.action == "reveal":
            return f"cell {where} is {'flagged' if move.cell in self.flags else 'already uncovered'}"
        if move.action == "flag":
            return f"cell {where} is uncovered and cannot be flagged"
        return f"cell {where} cannot be chorded: it must be an uncovered number with as many " \
               f"flags around it, and a covered neighbour"

    def pop(self) -> Move:
        """Take back the last move and return it.

        Raises
        ------
        GameError
            when no move was played.
        """
        if not self._history:
            raise GameError("no move to take back")
        undo = self._history.pop()
        if undo.move.action == "flag":
            self.flags ^= {undo.move.cell}
        self.uncovered.difference_update(undo.uncovered)
        if undo.placed:
            self.layout = None
        self.status, self.exploded = undo.status, undo.exploded
        return undo.move

    @property
    def moves(self) -> list[Move]:
        """The moves played, in order."""
        return [u.move for u in self._history]

    @property
    def move_times(self) -> list[float]:
        """When each move was played, in seconds after the first one (never decreasing,
        even if the system clock was set back): what a recording keeps of the game's pace.

        Examples
        --------
        >>> g = Game(rows=2, cols=2, mines=1, rules="any", seed=0)
        >>> g.flag((0, 0)); g.flag((0, 0)); g.move_times[0]
        0.0
        """
        out: list[float] = []
        start = self._history[0].at if self._history else 0.0
        for u in self._history:
            out.append(max(u.at - start, out[-1] if out else 0.0))
        return out

    def reveal(self, cell: Cell) -> list[int]:
        """Uncover ``cell`` (with the flood fill of zeros); returns the cells uncovered."""
        return self.push(Move("reveal", self.index(cell)))

    def flag(self, cell: Cell) -> None:
        """Put a flag on a covered cell, or take it off."""
        self.push(Move("flag", self.index(cell)))

    def chord(self, cell: Cell) -> list[int]:
        """Uncover every unflagged neighbour of a number that has as many flags around it."""
        return self.push(Move("chord", self.index(cell)))

    # ----------------------------------------------------------------- views
    def board(self, *, flags: bool = False) -> Board:
        """What the player sees, as an immutable board with the total mine count.

        Flags are the player's claims, not knowledge: they are left out (hidden) unless
        ``flags`` is true, when they become known mines.
        """
        states = [HIDDEN] * self.size
        if self.layout is not None:
            layout, nbrs = self.layout, self.neighbors
            for c in self.uncovered:
                states[c] = sum(1 for q in nbrs[c] if q in layout)
        if flags:
            for c in self.flags:
                states[c] = MINE
        return Board(self.topology, self.rows, self.cols, self.neighbors, tuple(states),
                     self.mine_count)

    def label(self, cell: int) -> str:
        if self.cols is None:
            return str(cell)
        return str(divmod(cell, self.cols))

    def cell(self, index: int) -> Cell:
        """The API form of a cell: ``(row, col)`` on grids, the index on graphs."""
        return index if self.cols is None else divmod(index, self.cols)

    def three_bv(self) -> int:
        """The layout's 3BV: the fewest clicks that uncover every safe cell (each opening of
        zeros once, and each safe cell next to no zero).

        Raises
        ------
        GameError
            before the layout is placed (the first uncovering places it under ``classic``
            and ``modern``).

        Examples
        --------
        >>> g = Game(rows=1, cols=5, mines=1, rules="any", seed=0)
        >>> sorted(g.layout), g.three_bv()     # 0 0 1 M 1: one opening, and the far 1
        ([3], 2)
        """
        if self.layout is None:
            raise GameError("the layout is not placed yet: uncover a first cell")
        return three_bv(self.neighbors, self.layout)[0]

    @classmethod
    def replay(cls, moves: Sequence[Move], **options: object) -> "Game":
        """A new game made with ``options`` (the same as the original's, seed included) with
        ``moves`` played again: the same layout and the same position."""
        game = cls(**options)  # type: ignore[arg-type]
        for move in moves:
            game.push(move)
        return game

    def __repr__(self) -> str:
        shape = f"{self.rows}x{self.cols} {self.topology}" if self.cols is not None \
            else f"{self.size}-cell graph"
        return (f"<Game {shape}, {self.mine_count} mines, {self.rules}: {self.status}, "
                f"{len(self.uncovered)} uncovered, {len(self._history)} moves>")
