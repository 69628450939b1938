"""Exact endgame play: the strategy that maximises the probability of winning, once few
completions of the position remain.

The position's completions (mine layouts consistent with what is shown, all equally likely)
are listed; uncovering a cell splits them by what the player would then see (the cell's
number and, for a 0, the whole flood fill) and loses on those where it is a mine. The win
probability of a set ``S`` of layouts is 1 when one layout remains, else the best over the
cells of ``sum(|S_o| / |S| * W(S_o))`` over the observations ``o``; cells safe in every
layout of ``S`` are uncovered first for free (they never lower it), and cells that split
``S`` identically are tried once. Memoised on ``S``.

Examples
--------
>>> from minegraph import Board
>>> board = Board.from_text("mines: 1\\n##\\n1-")   # a 50/50 that nothing can resolve
>>> search = Endgame(board, limit=10)
>>> search.win_probability()
Fraction(1, 2)
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Sequence

from minegraph.board import HIDDEN, MINE, Board
from minegraph.constraints import build_system
from minegraph.deadline import check_deadline
from minegraph.errors import LimitError
from minegraph.rules import flood_fill

__all__ = ["completions", "Endgame"]


def completions(board: Board, limit: int) -> list[frozenset[int]] | None:
    """Every completion's mined hidden cells, or ``None`` if there are more than ``limit``.

    Backtracking over the hidden cells, the clues' cells first, cutting a branch as soon as a
    clue or the total cannot be met. The search keeps its own stack, so a board of thousands
    of hidden cells does not exhaust Python's recursion limit.

    Examples
    --------
    >>> sorted(sorted(c) for c in completions(Board.from_text("#1#"), 5))
    [[0], [2]]
    """
    system = build_system(board, propagate=False)
    if system.contradiction is not None:
        return []
    need = [clue.need for clue in system.clues]
    left = [0] * len(need)
    watch: dict[int, list[int]] = {}           # hidden cell -> the clues over it
    for k, clue in enumerate(system.clues):
        for c in system.clue_cells(clue):
            watch.setdefault(c, []).append(k)
            left[k] += 1
    # Cells next to numbers first (they prune), then the rest.
    hidden = sorted(system.hidden, key=lambda c: (c not in watch, c))
    n = len(hidden)
    total = system.remaining
    if total is not None and not 0 <= total <= n:
        return []
    out: list[frozenset[int]] = []
    chosen: list[int] = []
    value = [-1] * n                           # the value tried at each depth (1 = mine)
    placed = nodes = 0
    i = 0
    while i >= 0:
        if i == n:
            out.append(frozenset(chosen))
            if len(out) > limit:
                return None
            i -= 1
            continue
        c = hidden[i]
        v = value[i]
        if v >= 0:                             # take back the value tried last here
            for p in watch.get(c, ()):
                left[p] += 1
                need[p] += v
            if v:
                chosen.pop()
                placed -= 1
        v += 1
        if v > 1:
            value[i] = -1
            i -= 1
            continue
        value[i] = v
        nodes += 1
        if nodes % 64 == 0:
            check_deadline()
        ok = True
        for p in watch.get(c, ()):
            left[p] -= 1
            need[p] -= v
            if need[p] < 0 or need[p] > left[p]:
                ok = False
        if v:
            chosen.append(c)
            placed += 1
        if ok and (total is None or placed <= total <= placed + n - i - 1):
            i += 1
    return out


class Endgame:
    """The exact endgame search on ``board`` (raises :class:`LimitError` when it has more than
    ``limit`` completions).

    Attributes
    ----------
    layouts
        The completions (mined hidden cells).
    """

    def __init__(self, board: Board, limit: int = 200) -> None:
        layouts = completions(board, limit)
        if layouts is None:
            raise LimitError(f"more than {limit} completions: too many for the exact endgame")
        self.board = board
        self.layouts: list[frozenset[int]] = layouts
        self.hidden = list(board.hidden)
        # What uncovering never passes through: the numbers and flags already shown.
        self._shown = frozenset(i for i, s in enumerate(board.states) if s != HIDDEN)
        self._flagged = frozenset(i for i, s in enumerate(board.states) if s == MINE)
        self._observe_cache: dict[tuple[int, int], tuple[tuple[int, int], ...] | None] = {}
        self._best = lru_cache(maxsize=None)(self._value)

    def _observe(self, cell: int, k: int) -> tuple[tuple[int, int], ...] | None:
        """What uncovering ``cell`` shows under layout ``k`` (``None``: it is a mine): the
        uncovered cells with their numbers, flood fill included."""
        key = (cell, k)
        if key in self._observe_cache:
            return self._observe_cache[key]
        layout = self.layouts[k]
        if cell in layout:
            self._observe_cache[key] = None
            return None
        nbrs = self.board.neighbors
        mines = layout | self._flagged if self._flagged else layout
        opened = flood_fill(nbrs, mines, set(), cell, flags=self._shown)
        shown = [(v, sum(1 for q in nbrs[v] if q in mines)) for v in opened]
        result = tuple(sorted(shown))
        self._observe_cache[key] = result
        return result

    def _split(self, cell: int, group: frozenset[int]) -> tuple[int, list[frozenset[int]]]:
        """Layouts of ``group`` where ``cell`` is a mine (how many), and the others by what
        uncovering it shows."""
        parts: dict[tuple[tuple[int, int], ...], set[int]] = {}
        lost = 0
        for k in group:
            seen = self._observe(cell, k)
            if seen is None:
                lost += 1
            else:
                parts.setdefault(seen, set()).add(k)
        return lost, [frozenset(p) for p in parts.values()]

    def _value(self, group: frozenset[int]) -> tuple[Fraction, int | None]:
        """The best win probability from ``group`` and a cell that reaches it."""
        check_deadline()
        if len(group) <= 1:
            return Fraction(1), None
        candidates = [c for c in self.hidden if any(c not in self.layouts[k] for k in group)]
        for c in candidates:  # certainly safe and informative: uncover for free
            if all(c not in self.layouts[k] for k in group):
                _, parts = self._split(c, group)
                if len(parts) > 1:
                    return sum((Fraction(len(p), len(group)) * self._best(p)[0] for p in parts),
                               Fraction(0)), c
        best, best_cell = Fraction(-1), None
        tried: set[tuple[int, tuple[frozenset[int], ...]]] = set()
        for c in candidates:
            lost, parts = self._split(c, group)
            if lost == 0:
                continue  # safe but uninformative: uncovering it changes nothing
            signature = (lost, tuple(sorted(parts, key=sorted)))
            if signature in tried:
                continue
            tried.add(signature)
            value = sum((Fraction(len(p), len(group)) * self._best(p)[0] for p in parts),
                        Fraction(0))
            if value > best:
                best, best_cell = value, c
        if best_cell is None:  # every layout agrees on every cell that matters
            return Fraction(1), None
        return best, best_cell

    def win_probability(self) -> Fraction:
        """The probability of winning from this position with perfect play."""
        if not self.layouts:
            return Fraction(0)
        return self._best(frozenset(range(len(self.layouts))))[0]

    def best_cell(self) -> int | None:
        """A cell to uncover now that keeps the best win probability (``None``: nothing to
        decide, or no completion)."""
        if not self.layouts:
            return None
        return self._best(frozenset(range(len(self.layouts))))[1]

    def cells_by_value(self, cells: Sequence[int]) -> dict[int, Fraction]:
        """The win probability after uncovering each of ``cells`` now (then playing
        perfectly)."""
        group = frozenset(range(len(self.layouts)))
        out = {}
        for c in cells:
            _, parts = self._split(c, group)
            out[c] = sum((Fraction(len(p), len(group)) * self._best(p)[0] for p in parts),
                         Fraction(0))
        return out
