"""No-guess game boards: layouts a deduction-only player solves from the first click.

For a size, a mine count, rules (``classic``: the first cell is safe; ``modern``: the first cell
and its neighbours are) and a first cell, layouts are drawn by the game engine
(:func:`~minegraph.rules.draw_layout`, as the game engine draws them: uniform under the rules) and played from the first click
by a player that never guesses: the single-number rules to their fixpoint
(:func:`~minegraph.constraints.build_system`, incremental between moves), and when they are
stuck the strongest class allowed (:mod:`minegraph.generate.grade`; by default full search by
the exact engine with the total mine count, which decides every cell that any deduction could).
Safe cells are uncovered as in the game (zeros open their neighbours). A layout the player
cannot finish is rejected and the next one drawn: the boards are exactly uniform among the
layouts the player solves, which is *not* uniform among all layouts — solvable layouts keep
mines away from some places. :func:`edge_density` measures how much, by the cells' distance to
the edge. Beside the deduction classes, ``level`` takes the community's named definitions
(:data:`NAMED_LEVELS`: ``evf``, the replay format EVF's no-guess, any deduction without the
total mine count).

Examples
--------
>>> b = noguess_board(9, 9, 10, first=(4, 4), rules="modern", seed=1)
>>> b.attempts >= 1, len(b.layout), b.start.states[4 * 9 + 4]
(True, 10, 0)
>>> solved_without_guess(b.neighbors, b.layout, b.first, 10)
True
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Iterable, Sequence

from minegraph.board import HIDDEN, Board
from minegraph.deadline import time_limit
from minegraph.errors import BoardError, GameError, UserError
from minegraph.generate.grade import METHODS
from minegraph.generate.player import DeductionPlayer
from minegraph.generate.repair import repair
from minegraph.rules import RULES, cell_index, check_fit, draw_layout, kept_clear
from minegraph.topology import TOPOLOGIES, grid_neighbors


__all__ = ["NoGuessBoard", "noguess_board", "solved_without_guess", "edge_density",
           "MAX_ATTEMPTS", "METHODS_OF_MAKING", "AUTO_FILTER", "MAX_REPAIRED", "MAX_CHANGES",
           "NAMED_LEVELS", "LEVELS", "level_meaning"]

#: Layouts tried before giving up.
MAX_ATTEMPTS = 100_000

#: How a board is made: ``filter`` (draw until solved: uniform among the solved layouts),
#: ``repair`` (change a layout where the player is stuck, :mod:`minegraph.generate.repair`),
#: ``auto`` (filter for :data:`AUTO_FILTER` layouts, then repair).
METHODS_OF_MAKING: tuple[str, ...] = ("filter", "repair", "auto")

#: Layouts ``auto`` filters before it repairs (a few hundredths of a second on Expert).
AUTO_FILTER = 200

#: Layouts repaired before giving up.
MAX_REPAIRED = 1_000

#: Changes to one layout before it is given up for the next.
MAX_CHANGES = 2_000

#: The no-guess definitions named after the community's terms, as ``level`` values beside the
#: deduction classes of :data:`~minegraph.generate.grade.METHODS`: the class the player may
#: use and whether it knows the total mine count. ``evf``: the replay format EVF's *classic
#: no-guess* (its game mode 5, also called speedrun no-guess), whose layouts its *strong
#: no-guess* (mode 6) and *strong guessable* (mode 9) games use too: from the first click,
#: the numbers alone prove every safe cell, by any deduction, without the total (ms_toollib's
#: ``is_solvable``, which "does not consider the mines left").
NAMED_LEVELS: dict[str, tuple[str, bool]] = {"evf": ("search", False)}

#: Every ``level`` value: the deduction classes, then the named definitions.
LEVELS: tuple[str, ...] = METHODS + tuple(NAMED_LEVELS)


@dataclass(frozen=True)
class NoGuessBoard:
    """A layout solved from the first click without a guess.

    Attributes
    ----------
    rows, cols, topology, rules, seed, level
        How it was made (``level``: the strongest deduction class the player used).
    first
        The first cell (index).
    layout
        The mines (cell indices).
    start
        The position after the first click, with the total mine count.
    attempts
        Layouts drawn (``attempts - 1`` retries).
    seconds
        Generation time.
    method
        ``filter`` (drawn as it is) or ``repair`` (changed where the player was stuck).
    changes
        The changes repair made to the last layout drawn (0 for ``filter``).
    total
        Whether the player used the total mine count.
    """

    rows: int
    cols: int
    topology: str
    rules: str
    seed: int
    level: str
    first: int
    layout: frozenset[int]
    start: Board
    attempts: int
    seconds: float
    method: str = "filter"
    changes: int = 0
    total: bool = True

    @property
    def neighbors(self) -> tuple[tuple[int, ...], ...]:
        return self.start.neighbors

    @property
    def mines(self) -> int:
        return len(self.layout)


def solved_without_guess(neighbors: Sequence[Sequence[int]], layout: frozenset[int], first: int,
                         mines: int, *, level: str = "search", topology: str = "square",
                         rows: int | None = None, cols: int | None = None) -> bool:
    """Whether the deduction-only player finishes the game from ``first`` without a guess.

    Parameters
    ----------
    neighbors
        The neighbour list of every cell.
    layout
        The mined cells (indices).
    first
        The first cell uncovered (an index).
    mines
        The total mine count the player knows (not told it under a level defined without it).
    level
        The strongest deduction class allowed (:data:`~minegraph.generate.grade.METHODS`), or
        a named definition (:data:`NAMED_LEVELS`).
    topology, rows, cols
        The grid the neighbour lists are of; without ``rows`` and ``cols``, a graph board.

    Returns
    -------
    bool
        ``True`` when every safe cell gets uncovered without a guess (``False`` also when
        ``first`` is a mine).

    Raises
    ------
    BoardError
        when ``rows`` and ``cols`` do not fit ``neighbors``, or ``mines`` does not fit the
        board.
    UserError
        for an unknown level.

    Examples
    --------
    >>> from minegraph.topology import grid_neighbors
    >>> solved_without_guess(grid_neighbors("square", 1, 3), frozenset({2}), 0, 1)
    True
    >>> solved_without_guess(grid_neighbors("square", 2, 3), frozenset({2}), 3, 1)
    False
    >>> wall = frozenset({2, 6, 10})        # only the total shows the last column safe
    >>> nbrs = grid_neighbors("square", 3, 4)
    >>> [solved_without_guess(nbrs, wall, 0, 3, level=v, rows=3, cols=4) for v in ("search", "evf")]
    [True, False]
    """
    method, uses_total = level_meaning(level)
    template = _template(neighbors, mines if uses_total else None, topology, rows, cols)
    return DeductionPlayer(template, method).play(layout, first) is not None


def _template(neighbors: Sequence[Sequence[int]], mines: int | None, topology: str,
              rows: int | None, cols: int | None) -> Board:
    n = len(neighbors)
    if rows is not None and cols is not None:
        return Board.grid(rows, cols, [HIDDEN] * n, topology=topology, mines=mines)
    return Board.from_graph(n, [(u, v) for u in range(n) for v in neighbors[u] if u < v],
                            [HIDDEN] * n, mines=mines)


def level_meaning(level: str, total: bool | None = None) -> tuple[str, bool]:
    """The deduction class and the use of the total a ``level`` stands for.

    Parameters
    ----------
    level
        One of :data:`LEVELS`.
    total
        Whether the player may use the total mine count; ``None``: the level's own (with the
        total for the classes, without it for ``evf``).

    Returns
    -------
    tuple of (str, bool)
        The class (one of :data:`~minegraph.generate.grade.METHODS`) and whether the total is
        used.

    Raises
    ------
    UserError
        for an unknown level, ``total=True`` with a level defined without it, or the
        ``total`` class without the total.

    Examples
    --------
    >>> level_meaning("search"), level_meaning("search", False), level_meaning("evf")
    (('search', True), ('search', False), ('search', False))
    >>> level_meaning("evf", True)
    Traceback (most recent call last):
    ...
    minegraph.errors.UserError: the level 'evf' is defined without the total mine count; leave out the total (or choose search)
    """
    if level in NAMED_LEVELS:
        method, own = NAMED_LEVELS[level]
        if total is not None and total != own:
            raise UserError(f"the level {level!r} is defined without the total mine count; "
                            f"leave out the total (or choose {method})")
        return method, own
    if level not in METHODS:
        raise UserError(f"unknown deduction method {level!r}; expected one of {', '.join(LEVELS)}")
    if level == "total" and total is False:
        raise UserError("the level 'total' uses the total mine count; without the total, "
                        "choose single, pair, linear, search or evf")
    return level, True if total is None else total


@dataclass(frozen=True)
class _Setup:
    """A no-guess game's shape, checked: what drawing and playing its layouts needs."""

    neighbors: tuple[tuple[int, ...], ...]
    first: int
    kept: set[int]
    template: Board
    player: DeductionPlayer
    total: bool


def _prepare(rows: int, cols: int, mines: int, first: tuple[int, int] | int, rules: str,
             topology: str, level: str, total: bool | None,
             method: str = "filter") -> _Setup:
    """Check the arguments of :func:`noguess_board` and build its player."""
    if rules not in RULES or rules == "any":
        raise GameError(f"unknown rules {rules!r} for a no-guess board; expected classic or modern")
    method_class, uses_total = level_meaning(level, total)
    if method not in METHODS_OF_MAKING:
        raise UserError(f"unknown method {method!r}; expected one of "
                        f"{', '.join(METHODS_OF_MAKING)}")
    if topology not in TOPOLOGIES:
        raise GameError(f"unknown topology {topology!r}; expected one of {', '.join(TOPOLOGIES)}")
    try:
        neighbors = grid_neighbors(topology, rows, cols)
    except BoardError as exc:
        raise GameError(str(exc)) from None
    check_fit(rules, neighbors, mines)
    start_cell = cell_index(first, len(neighbors), cols)
    kept = kept_clear(rules, neighbors, start_cell)
    template = _template(neighbors, mines, topology, rows, cols)
    player = DeductionPlayer(template if uses_total else
                             _template(neighbors, None, topology, rows, cols), method_class)
    return _Setup(tuple(tuple(n) for n in neighbors), start_cell, kept, template,
                  player, uses_total)


def noguess_board(rows: int, cols: int, mines: int, *, first: tuple[int, int] | int = (0, 0),
                  rules: str = "classic", seed: int = 0, topology: str = "square",
                  level: str = "search", max_attempts: int = MAX_ATTEMPTS,
                  method: str = "filter", total: bool | None = None) -> NoGuessBoard:
    """A layout of ``mines`` mines that the deduction-only player solves from ``first``.

    Parameters
    ----------
    rows, cols, mines
        The game.
    first
        The first cell, ``(row, col)`` or an index.
    rules
        ``classic`` (the first cell is safe) or ``modern`` (it and its neighbours are).
    seed
        The seed: attempt ``k`` plays the game engine's layout of seed ``seed * 2^32 + k``.
    topology
        ``square``, ``triangle``, ``hex`` or ``torus``.
    level
        The strongest deduction class allowed (:data:`~minegraph.generate.grade.METHODS`), or
        a named definition (:data:`NAMED_LEVELS`: ``evf``, any deduction without the total).
    max_attempts
        Layouts to try before giving up (``repair`` repairs at most :data:`MAX_REPAIRED` of
        them).
    method
        ``filter`` (the default: the first drawn layout the player solves, uniform among
        them), ``repair`` (the drawn layouts are changed where the player gets stuck,
        :mod:`minegraph.generate.repair`: any density, not uniform) or ``auto`` (filter for
        :data:`AUTO_FILTER` layouts, then repair).
    total
        Whether the player may use the total mine count (``False``: the numbers alone solve
        the board; the ``total`` level then does not apply); ``None`` (the default): the
        level's own, with the total except for ``evf``.

    Returns
    -------
    NoGuessBoard
        The layout, the position after the first click and how it was made.

    Raises
    ------
    GameError
        for an unknown rule or topology, a size or first cell off the board, mines that do not
        fit, or no solvable layout within ``max_attempts``.
    UserError
        for an unknown ``level`` or ``method``, the ``total`` level without the total, or
        ``evf`` with it.

    Examples
    --------
    >>> b = noguess_board(16, 30, 99, first=(3, 3), rules="modern", seed=1)
    >>> b.attempts, b.mines, b.start.hidden_count < 480
    (9, 99, True)
    >>> b = noguess_board(16, 30, 150, first=(3, 3), rules="modern", seed=1, method="repair")
    >>> b.method, b.mines, solved_without_guess(b.neighbors, b.layout, b.first, 150)
    ('repair', 150, True)
    >>> noguess_board(1, 3, 1, first=(0, 1), max_attempts=5)
    Traceback (most recent call last):
    ...
    minegraph.errors.GameError: no layout of 5 tried is solved without a guess (1x3, 1 mines, classic); try fewer mines or modern rules
    """
    started = time.perf_counter()
    setup = _prepare(rows, cols, mines, first, rules, topology, level, total, method)
    neighbors, start_cell, kept = setup.neighbors, setup.first, setup.kept
    template, player = setup.template, setup.player
    filtered = max_attempts if method == "filter" else 0 if method == "repair" else \
        min(AUTO_FILTER, max_attempts)
    repaired = 0
    # One query (see minegraph.deadline.time_limit): an enclosing limit holds, and Ctrl-C
    # stops the compiled player at a check rather than inside its arithmetic.
    with time_limit(None, "no-guess layout"):
        for attempt in range(1, max_attempts + 1):
            # The layout the game seeded (seed << 32) + attempt - 1 draws for this first click.
            rng = random.Random((seed << 32) + attempt - 1)
            layout = draw_layout(rng, kept, len(neighbors), mines)
            changes = 0
            if attempt > filtered:
                if repaired == MAX_REPAIRED:
                    break
                repaired += 1
                # The same random source goes on to choose the changes.
                found = repair(player, layout, start_cell, kept, rng, MAX_CHANGES)
                if found is None:
                    continue
                layout, changes = found
            # Every board is verified by the player as it plays (the native kernel's when it
            # is built), whichever way it was made.
            played = player.play(layout, start_cell)
            if played is not None:
                start = template._with_valid_states(played.states)
                return NoGuessBoard(rows, cols, topology, rules, seed, level, start_cell,
                                    layout, start, attempt, time.perf_counter() - started,
                                    "repair" if attempt > filtered else "filter", changes,
                                    setup.total)
    hint = "try fewer mines" if rules == "modern" else "try fewer mines or modern rules"
    tried = f"{max_attempts} tried" if not repaired else \
        f"{attempt} drawn ({repaired} repaired)"
    raise GameError(f"no layout of {tried} is solved without a guess "
                    f"({rows}x{cols}, {mines} mines, {rules}); {hint}")


def edge_density(boards: Iterable[NoGuessBoard]) -> list[dict[str, float]]:
    """Mine density by distance to the edge over ``boards``, beside a uniform layout's.

    The distance of cell ``(r, c)`` is ``min(r, c, rows-1-r, cols-1-c)``. For each distance:
    the cells counted (over all boards, leaving out the cells the rules keep clear), the mines
    found there, the observed density, the density a uniform layout under the same rules has
    (mines over the cells that may hold one), and their ratio.

    Parameters
    ----------
    boards
        No-guess boards (of any sizes and rules).

    Returns
    -------
    list of dict
        One row per distance, increasing: ``"distance"``, ``"cells"``, ``"mines"``,
        ``"density"``, ``"uniform"`` and ``"ratio"`` (0.0 when the uniform density is 0),
        all floats.

    Examples
    --------
    >>> boards = [noguess_board(6, 6, 5, first=(2, 2), seed=s) for s in range(3)]
    >>> rows = edge_density(boards)
    >>> [r["distance"] for r in rows], round(sum(r["mines"] for r in rows))
    ([0.0, 1.0, 2.0], 15)
    """
    cells: dict[int, int] = {}
    found: dict[int, int] = {}
    uniform_mines = uniform_cells = 0
    for b in boards:
        clear = kept_clear(b.rules, b.neighbors, b.first)
        uniform_mines += b.mines
        uniform_cells += b.rows * b.cols - len(clear)
        for i in range(b.rows * b.cols):
            if i in clear:
                continue
            r, c = divmod(i, b.cols)
            d = min(r, c, b.rows - 1 - r, b.cols - 1 - c)
            cells[d] = cells.get(d, 0) + 1
            found[d] = found.get(d, 0) + (i in b.layout)
    uniform = uniform_mines / uniform_cells if uniform_cells else 0.0
    out = []
    for d in sorted(cells):
        density = found[d] / cells[d]
        out.append({"distance": float(d), "cells": float(cells[d]), "mines": float(found[d]),
                    "density": density, "uniform": uniform,
                    "ratio": density / uniform if uniform else 0.0})
    return out
