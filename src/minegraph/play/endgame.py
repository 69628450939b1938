"""Exact endgame play: the strategy that maximises the probability of winning, once few
completions of the position remain.

The position's completions (mine layouts consistent with what is shown, all equally likely)
are listed; uncovering a cell splits them by what the player would then see (the cell's
number and, for a 0, the whole flood fill) and loses on those where it is a mine. The win
probability of a set ``S`` of layouts is 1 when one layout remains, else the best over the
cells of ``sum(|S_o| / |S| * W(S_o))`` over the observations ``o``; cells safe in every
layout of ``S`` are uncovered first for free (they never lower it), and cells that split
``S`` identically are tried once. The search counts layouts won (integers, so it is exact
without fractions), tries the safest cells first and stops when no other can do better
(a cell wins at most the layouts where it is safe). Memoised on ``S``.

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

    Parameters
    ----------
    board : Board
        The position.
    limit : int
        The most completions listed.

    Returns
    -------
    list of frozenset of int or None
        The completions, or ``None`` past ``limit``.

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

    Counts are exact integers: ``wins(S)``, the number of layouts of ``S`` that perfect play
    wins, is 1 for one layout and otherwise the best over the cells of the sum of ``wins`` over
    the parts ``S`` splits into (a cell's mined layouts are lost). A cell can win at most the
    layouts where it is safe, so cells are tried safest first and the search stops as soon as
    no remaining cell could beat the best found; a cell's sum is abandoned as soon as it can no
    longer beat it.

    Parameters
    ----------
    board
        The position (its total mine count should be known; without it far more layouts fit).
    limit
        The most completions the search accepts.

    Attributes
    ----------
    layouts
        The completions (mined hidden cells).

    Raises
    ------
    LimitError
        when the position has more than ``limit`` completions.

    Examples
    --------
    >>> Endgame(Board.from_text("mines: 1\\n#1-\\n11-")).win_probability()
    Fraction(1, 1)
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
        # Sets of layouts are bit masks (bit k: layout k), so a split is a few ANDs and a
        # set of layouts is its own memo key.
        self._mined_in = [sum(1 << k for k, layout in enumerate(layouts) if c in layout)
                          for c in self.hidden]
        self._shows: dict[int, list[int]] = {}       # cell -> the layouts of each thing it shows
        self._shown_as: dict[int, list[int]] = {}    # cell -> per layout, which of them (-1: mined)
        self._memo: dict[int, tuple[int, int | None]] = {}

    def _observations(self, cell: int) -> list[int]:
        """The layouts (bit masks) under which uncovering ``cell`` shows each distinct thing:
        its number, or for a 0 the whole flood fill with its numbers (layouts where ``cell``
        is a mine are in none)."""
        found = self._shows.get(cell)
        if found is not None:
            return found
        nbrs = self.board.neighbors
        masks: dict[object, int] = {}
        order: dict[object, int] = {}
        ids = [-1] * len(self.layouts)
        for k, layout in enumerate(self.layouts):
            if cell in layout:
                continue
            mines = layout | self._flagged if self._flagged else layout
            seen: object = sum(1 for q in nbrs[cell] if q in mines)
            if not seen:
                opened = flood_fill(nbrs, mines, set(), cell, flags=self._shown)
                seen = tuple(sorted((v, sum(1 for q in nbrs[v] if q in mines)) for v in opened))
            masks[seen] = masks.get(seen, 0) | 1 << k
            ids[k] = order.setdefault(seen, len(order))
        self._shows[cell] = found = list(masks.values())
        self._shown_as[cell] = ids
        return found

    def _split(self, cell: int, group: int) -> list[int]:
        """The layouts of ``group`` where ``cell`` is safe, by what uncovering it shows."""
        masks = self._observations(cell)
        if group.bit_count() >= len(masks):
            return [part for part in (group & m for m in masks) if part]
        # Fewer layouts than things shown (a 0's flood fills differ a lot): sort the layouts
        # one by one rather than test every observation.
        ids = self._shown_as[cell]
        parts: dict[int, int] = {}
        while group:
            low = group & -group
            o = ids[low.bit_length() - 1]
            if o >= 0:
                parts[o] = parts.get(o, 0) | low
            group ^= low
        return list(parts.values())

    def _wins_after(self, parts: list[int], beat: int, cells: list[int] | None = None) -> int:
        """The layouts won after a split into ``parts``; stops (returning at most ``beat``)
        once the rest cannot lift the total above ``beat``. ``cells``: as for :meth:`_wins`."""
        sizes = [p.bit_count() for p in parts]
        left = sum(sizes)
        total = 0
        for size, part in sorted(zip(sizes, parts), reverse=True):
            left -= size
            total += self._wins(part, cells)[0]
            if total + left <= beat:
                return min(total + left, beat)
        return total

    def _wins(self, group: int, cells: list[int] | None = None) -> tuple[int, int | None]:
        """The most layouts of ``group`` perfect play wins, and a cell that wins them.

        ``cells`` (positions in :attr:`hidden`) holds every cell that may still matter: a
        cell mined in every layout of a group, or safe in all and showing the same everywhere,
        does so in every part of it too, so the parts are searched over fewer cells (the
        answer is the same: such cells are never chosen)."""
        n = group.bit_count()
        if n <= 1:
            return n, None
        memo = self._memo.get(group)
        if memo is not None:
            return memo
        check_deadline()
        mined_in = self._mined_in
        counts = [(i, (mined_in[i] & group).bit_count())
                  for i in (range(len(mined_in)) if cells is None else cells)]
        live = [i for i, k in counts if k < n]
        best, best_cell = -1, None
        for i, k in counts:     # certainly safe and informative: uncover for free
            if k == 0:
                parts = self._split(self.hidden[i], group)
                if len(parts) > 1:
                    best, best_cell = self._wins_after(parts, -1, live), self.hidden[i]
                    break
                live.remove(i)  # safe and teaches nothing, here and in every part
        if best_cell is None:
            tried: set[tuple[int, ...]] = set()
            for i, k in sorted(((i, k) for i, k in counts if 0 < k < n),
                               key=lambda item: (item[1], self.hidden[item[0]])):
                if n - k <= best:
                    break  # no cell from here on can win more
                parts = self._split(self.hidden[i], group)
                signature = tuple(sorted(parts))
                if signature in tried:
                    continue  # splits the layouts as a cell already tried
                tried.add(signature)
                won = self._wins_after(parts, best, live)
                if won > best:
                    best, best_cell = won, self.hidden[i]
        if best_cell is None:  # every layout agrees on every cell that matters
            best = n
        self._memo[group] = (best, best_cell)
        return best, best_cell

    def win_probability(self) -> Fraction:
        """The probability of winning from this position with perfect play.

        Returns
        -------
        Fraction
            Layouts won over layouts (0 when the position has no completion).
        """
        if not self.layouts:
            return Fraction(0)
        return Fraction(self._wins((1 << len(self.layouts)) - 1)[0], len(self.layouts))

    def best_cell(self) -> int | None:
        """A cell to uncover now that keeps the best win probability.

        Returns
        -------
        int or None
            The cell (index); ``None`` when there is nothing to decide or no completion.
        """
        if not self.layouts:
            return None
        return self._wins((1 << len(self.layouts)) - 1)[1]

    def cells_by_value(self, cells: Sequence[int]) -> dict[int, Fraction]:
        """The win probability after uncovering each of ``cells`` now (then playing
        perfectly).

        Parameters
        ----------
        cells
            Hidden cells (indices).

        Returns
        -------
        dict
            ``cell -> win probability``.
        """
        group = (1 << len(self.layouts)) - 1
        return {c: Fraction(sum(self._wins(p)[0] for p in self._split(c, group)), len(self.layouts))
                for c in cells}
