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
from minegraph.deadline import check_deadline
from minegraph.errors import LimitError

__all__ = ["completions", "Endgame"]


def completions(board: Board, limit: int) -> list[frozenset[int]] | None:
    """Every completion's mined hidden cells, or ``None`` if there are more than ``limit``.

    Backtracking over the hidden cells, numbers first, cutting a branch as soon as a number
    or the total cannot be met.

    Examples
    --------
    >>> sorted(sorted(c) for c in completions(Board.from_text("#1#"), 5))
    [[0], [2]]
    """
    states, nbrs = board.states, board.neighbors
    hidden = [i for i, s in enumerate(states) if s == HIDDEN]
    numbers = [p for p, s in enumerate(states) if s >= 0]
    need = {p: states[p] - sum(1 for q in nbrs[p] if states[q] == MINE) for p in numbers}
    left = {p: sum(1 for q in nbrs[p] if states[q] == HIDDEN) for p in numbers}
    if any(need[p] < 0 or need[p] > left[p] for p in numbers):
        return []
    watch = {c: [p for p in nbrs[c] if states[p] >= 0] for c in hidden}
    # Cells next to numbers first (they prune), then the rest.
    hidden.sort(key=lambda c: (not watch[c], c))
    total = board.mines - sum(1 for s in states if s == MINE) if board.mines is not None else None
    out: list[frozenset[int]] = []
    chosen: list[int] = []

    def rec(i: int, placed: int) -> bool:
        if len(out) > limit:
            return False
        if total is not None and not placed <= total <= placed + len(hidden) - i:
            return True
        if i == len(hidden):
            out.append(frozenset(chosen))
            return len(out) <= limit
        c = hidden[i]
        if i % 64 == 0:
            check_deadline()
        for mine in (False, True):
            ok = True
            for p in watch[c]:
                left[p] -= 1
                need[p] -= mine
                if need[p] < 0 or need[p] > left[p]:
                    ok = False
            if ok:
                if mine:
                    chosen.append(c)
                going = rec(i + 1, placed + mine)
                if mine:
                    chosen.pop()
            else:
                going = True
            for p in watch[c]:
                left[p] += 1
                need[p] += mine
            if not going:
                return False
        return True

    rec(0, 0)
    return out if len(out) <= limit else None


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
        self.hidden = [i for i, s in enumerate(board.states) if s == HIDDEN]
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
        nbrs, states = self.board.neighbors, self.board.states
        seen = {cell}
        stack = [cell]
        shown = []
        while stack:
            v = stack.pop()
            n = sum(1 for q in nbrs[v] if q in layout or states[q] == MINE)
            shown.append((v, n))
            if n == 0:
                for w in nbrs[v]:
                    if w not in seen and states[w] == HIDDEN:
                        seen.add(w)
                        stack.append(w)
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
