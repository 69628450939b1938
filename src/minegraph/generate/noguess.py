"""No-guess game boards: layouts a deduction-only player solves from the first click.

For a size, a mine count, rules (``classic``: the first cell is safe; ``modern``: the first cell
and its neighbours are) and a first cell, layouts are drawn by the game engine
(:class:`~minegraph.play.game.Game`, uniform under the rules) and played from the first click
by a player that never guesses: the single-number rules to their fixpoint
(:func:`~minegraph.constraints.build_system`, incremental between moves), and when they are
stuck the strongest class allowed (:mod:`minegraph.generate.grade`; by default full search by
the exact engine with the total mine count, which decides every cell that any deduction could).
Safe cells are uncovered as in the game (zeros open their neighbours). A layout the player
cannot finish is rejected and the next one drawn: the boards are exactly uniform among the
layouts the player solves, which is *not* uniform among all layouts — solvable layouts keep
mines away from some places. :func:`edge_density` measures how much, by the cells' distance to
the edge.

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
from typing import TYPE_CHECKING, Iterable, Sequence

from minegraph.board import HIDDEN, MINE, Board
from minegraph.errors import GameError, UserError
from minegraph.generate.grade import METHODS, deductions, pair_rule
from minegraph.play.game import RULES, Game, flood_fill

if TYPE_CHECKING:
    from minegraph.engines.portfolio import PortfolioEngine

__all__ = ["NoGuessBoard", "noguess_board", "solved_without_guess", "edge_density",
           "MAX_ATTEMPTS"]

#: Layouts tried before giving up.
MAX_ATTEMPTS = 100_000


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

    Examples
    --------
    >>> from minegraph.topology import grid_neighbors
    >>> solved_without_guess(grid_neighbors("square", 1, 3), frozenset({2}), 0, 1)
    True
    >>> solved_without_guess(grid_neighbors("square", 2, 3), frozenset({2}), 3, 1)
    False
    """
    template = _template(neighbors, mines, topology, rows, cols)
    return _Player(template, level).play(layout, first) is not None


def _template(neighbors: Sequence[Sequence[int]], mines: int, topology: str, rows: int | None,
              cols: int | None) -> Board:
    n = len(neighbors)
    if rows is not None and cols is not None:
        return Board.grid(rows, cols, [HIDDEN] * n, topology=topology, mines=mines)
    return Board.from_graph(n, [(u, v) for u in range(n) for v in neighbors[u] if u < v],
                            [HIDDEN] * n, mines=mines)


class _Player:
    """The deduction-only player on one board shape.

    The single-number rules run incrementally on counters (each number's remaining need and
    covered neighbours, re-examined only when a neighbour changes): linear in the board over
    the whole game. Only when they are stuck is the position built as a :class:`Board` for the
    stronger classes: the pair rule, then (up to ``level``) the total and linear algebra, or,
    for ``search``, the exact engine straight after the pair rule (it decides all they would).
    """

    def __init__(self, template: Board, level: str) -> None:
        if level not in METHODS:
            raise UserError(f"unknown deduction method {level!r}; expected one of {', '.join(METHODS)}")
        self.template = template
        self.neighbors = template.neighbors
        self.mines = template.mines or 0
        stronger = list(METHODS[1:METHODS.index(level) + 1])
        if level == "search":
            stronger = ["pair", "search"]
        self.stronger = stronger
        self.engine: PortfolioEngine | None = None

    def play(self, layout: frozenset[int], first: int) -> Board | None:
        """The start position if the player solves ``layout`` from ``first``, else ``None``."""
        if first in layout:
            return None
        nbrs = self.neighbors
        n = len(nbrs)
        numbers = [0] * n
        for c in layout:
            for q in nbrs[c]:
                numbers[q] += 1
        states = [HIDDEN] * n
        need = [0] * n
        covered = [len(a) for a in nbrs]
        queue: list[int] = []
        left = [n - len(layout)]
        # Numbers whose cells changed since the pair rule last looked (all, at first).
        self.changed: set[int] = set()

        def uncover(cell: int) -> None:
            stack = [cell]
            while stack:
                v = stack.pop()
                if states[v] != HIDDEN:
                    continue
                assert v not in layout, "a deduction uncovered a mine"
                states[v] = numbers[v]
                left[0] -= 1
                k = numbers[v]
                for w in nbrs[v]:
                    covered[w] -= 1
                    if states[w] == MINE:
                        k -= 1
                    elif states[w] >= 0:
                        queue.append(w)
                    elif numbers[v] == 0:
                        stack.append(w)
                need[v] = k
                queue.append(v)

        def flag(cell: int) -> None:
            if states[cell] != HIDDEN:
                return
            assert cell in layout, "a deduction flagged a safe cell"
            states[cell] = MINE
            for w in nbrs[cell]:
                covered[w] -= 1
                if states[w] >= 0:
                    need[w] -= 1
                    queue.append(w)

        uncover(first)
        while left[0]:
            while queue:
                p = queue.pop()
                self.changed.add(p)
                if covered[p] == 0:
                    continue
                if need[p] == 0:
                    for w in nbrs[p]:
                        if states[w] == HIDDEN:
                            uncover(w)
                elif need[p] == covered[p]:
                    for w in nbrs[p]:
                        flag(w)
            if not left[0]:
                break
            safe, mined = self._stronger(states, need, covered)
            if not safe and not mined:
                return None
            for c in mined:
                flag(c)
            for c in safe:
                uncover(c)
        return self._start(layout, first)

    def _start(self, layout: frozenset[int], first: int) -> Board:
        """The position right after the first click (its flood fill)."""
        shown = [HIDDEN] * len(self.neighbors)
        seen: set[int] = set()
        flood_fill(self.neighbors, layout, seen, first)
        for c in seen:
            shown[c] = sum(1 for q in self.neighbors[c] if q in layout)
        return self.template.with_states(shown)

    def _stronger(self, states: list[int], need: list[int], covered: list[int]
                  ) -> tuple[set[int], set[int]]:
        nbrs = self.neighbors
        board: Board | None = None
        for method in self.stronger:
            if method == "pair":
                active = [p for p, s in enumerate(states) if s >= 0 and covered[p]]
                constraints = [(frozenset(q for q in nbrs[p] if states[q] == HIDDEN), need[p])
                               for p in active]
                focus = {k for k, p in enumerate(active) if p in self.changed}
                self.changed.clear()
                safe, mined = pair_rule(constraints, focus)
            else:
                if board is None:
                    board = self.template.with_states(states)
                if method == "search":
                    # The exact engine's own result: its forced cells, without the
                    # probabilities an Analysis would build.
                    if self.engine is None:
                        from minegraph.engines.portfolio import (WORK_BUDGET, ComponentCache,
                                                                 PortfolioEngine)
                        self.engine = PortfolioEngine(WORK_BUDGET, cache=ComponentCache(250_000))
                    from minegraph.constraints import build_system
                    result = self.engine.run_system(build_system(board))
                    safe, mined = set(result.safe), set(result.mines)
                else:
                    safe, mined = deductions(board, method)
            if safe or mined:
                return safe, mined
        return set(), set()


def noguess_board(rows: int, cols: int, mines: int, *, first: tuple[int, int] | int = (0, 0),
                  rules: str = "classic", seed: int = 0, topology: str = "square",
                  level: str = "search", max_attempts: int = MAX_ATTEMPTS) -> NoGuessBoard:
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
        The strongest deduction class allowed (:data:`~minegraph.generate.grade.METHODS`).
    max_attempts
        Layouts to try before giving up.

    Raises
    ------
    GameError
        for an unknown rule, a first cell off the board, mines that do not fit, or no solvable
        layout within ``max_attempts``.

    Examples
    --------
    >>> b = noguess_board(16, 30, 99, first=(3, 3), rules="modern", seed=1)
    >>> b.attempts, b.mines, b.start.hidden_count < 480
    (9, 99, True)
    >>> noguess_board(1, 3, 1, first=(0, 1), max_attempts=5)
    Traceback (most recent call last):
    ...
    minegraph.errors.GameError: no layout of 5 tried is solved without a guess (1x3, 1 mines, classic); try fewer mines or modern rules
    """
    if rules not in RULES or rules == "any":
        raise GameError(f"unknown rules {rules!r} for a no-guess board; expected classic or modern")
    if level not in METHODS:
        raise UserError(f"unknown deduction method {level!r}; expected one of {', '.join(METHODS)}")
    started = time.perf_counter()
    probe = Game(rows=rows, cols=cols, mines=mines, topology=topology, rules=rules, seed=0)
    start_cell = probe.index(first)
    player = _Player(_template(probe.neighbors, mines, topology, rows, cols), level)
    for attempt in range(1, max_attempts + 1):
        game = Game(rows=rows, cols=cols, mines=mines, topology=topology, rules=rules,
                    seed=(seed << 32) + attempt - 1)
        game.reveal(start_cell)
        assert game.layout is not None
        layout = game.layout
        start = player.play(layout, start_cell)
        if start is not None:
            return NoGuessBoard(rows, cols, topology, rules, seed, level, start_cell, layout,
                                start, attempt, time.perf_counter() - started)
    raise GameError(f"no layout of {max_attempts} tried is solved without a guess "
                    f"({rows}x{cols}, {mines} mines, {rules}); try fewer mines or modern rules")


def edge_density(boards: Iterable[NoGuessBoard]) -> list[dict[str, float]]:
    """Mine density by distance to the edge over ``boards``, beside a uniform layout's.

    The distance of cell ``(r, c)`` is ``min(r, c, rows-1-r, cols-1-c)``. For each distance:
    the cells counted (over all boards, leaving out the cells the rules keep clear), the mines
    found there, the observed density, the density a uniform layout under the same rules has
    (mines over the cells that may hold one), and their ratio.

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
        clear = {b.first} if b.rules == "classic" else {b.first, *b.neighbors[b.first]}
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
