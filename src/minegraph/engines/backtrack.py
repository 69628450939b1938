"""The backtracking solver of Urbaś (2005), behind the engine interface.

The source program (Urbaś, *Minesweeper*, AGH Kraków course project, 2005) places mines consistently on a board in three stages:

1. *Preparation*, repeated until nothing changes: a number whose remaining need is 0 makes
   its covered neighbours empty; a number whose need equals its covered neighbours gets mines
   on all of them; and the "unimportant mines" rule: when none of a number's covered
   neighbours touches another number, its mines go on the first of them and the rest are
   empty (any choice is as good as any other there).
2. *Pseudo-independent regions*: numbers still to satisfy are grouped so that two regions
   share no covered neighbour; they interact only through the total mine count. Regions are
   solved smallest first.
3. *Search* (``solve(region)``): check the partial solution (no number over-satisfied, no
   need above its covered neighbours, no more mines than the total); take the first (or, by a
   coin tossed at the start, the last) unsatisfied number of the region and try each
   combination of its whole remaining mine set at once, the rest of its covered neighbours
   becoming empty; recurse; a satisfied region moves on to the next; after the last one the
   remaining mines go on free cells (``putFreeBombs``). A later region's failure sends the
   search back into earlier regions only when a total is given (otherwise the regions are
   independent and the failure is final).

The recursion counter (``stats["calls"]``) counts ``solve`` invocations as the source does, so
its claim that regions cut the calls by orders of magnitude can be measured with
``BacktrackEngine(regions=False)``.

Forced cells come from the thesis's reduction (Hoder 2007): a cell is safe if the board with
a mine on it has no solution, and a mine if the board with it uncovered has none; every
solution found on the way shows values a cell can take, so only the untested side of each
cell is tried. Counting enumerates every solution of each region (the "unimportant mines"
rule is off then, as it picks one of several solutions) and stops with a :class:`LimitError`
past :data:`MAX_ENUMERATED` solutions of one region.

Cost: exponential in the worst case, ``70**n`` for ``n`` numbers each needing 4 of 8 covered
neighbours (``C(8, 4) = 70``), as the source says; fast on sparse boards with many regions.

References
----------
Urbaś, *Minesweeper*, AGH Kraków course project, 2005.
Hoder, *Minesweeper — computational complexity and solver implementation*, 2007.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Iterator

from minegraph.board import HIDDEN, MINE, Board
from minegraph.constraints import build_system
from minegraph.deadline import asking, check_deadline
from minegraph.engines.base import QUESTIONS, EngineResult
from minegraph.engines.combine import combine
from minegraph.errors import EngineError, LimitError, QueryTimeout

__all__ = ["BacktrackEngine", "UrbasSearch", "MAX_ENUMERATED", "combine_regions"]

#: Counting stops (with a :class:`LimitError`) once one region has more solutions than this.
MAX_ENUMERATED = 200_000

_COVERED, _MINED, _EMPTY = 0, 1, 2
_CHECK_EVERY = 1023  # calls between looks at the clock (a power of two minus one)


class UrbasSearch:
    """One run of the source's solver on a board, with ``assume`` deciding some cells first.

    Parameters
    ----------
    board
        The position.
    last
        Pick the last unsatisfied number of a region instead of the first (the source's coin).
    regions
        Split the numbers into pseudo-independent regions (``False``: one region, in board
        order, as the source without that stage).
    unimportant
        Apply the "unimportant mines" rule in preparation (off when counting).
    assume
        Hidden cells decided before preparation: ``True`` a mine, ``False`` empty.

    Examples
    --------
    >>> s = UrbasSearch(Board.from_text("mines: 2\\n#1#1#"))
    >>> s.solve(), sorted(s.mined_cells()), s.calls
    (True, [0, 4], 3)
    """

    def __init__(self, board: Board, *, last: bool = False, regions: bool = True,
                 unimportant: bool = True, assume: dict[int, bool] | None = None) -> None:
        self.board = board
        self.last = last
        self.calls = 0
        self.cross_region_backtracks = 0
        # The clues come from the one constraint model, unpropagated: the source's own
        # preparation below does the propagation, as the program does.
        system = build_system(board, propagate=False)
        states = board.states
        n = len(states)
        self.hidden = [q for q in range(n) if states[q] == HIDDEN]
        self.status = [_COVERED] * n
        self.need = [0] * n
        self.covered = [0] * n
        self.around: list[list[int]] = [[] for _ in range(n)]   # a number's hidden neighbours
        self.touching: list[list[int]] = [[] for _ in range(n)]  # a hidden cell's numbers
        self.numbers = []
        for clue in system.clues:
            p = clue.cell
            self.numbers.append(p)
            self.around[p] = sorted(c for b in clue.boxes for c in system.boxes[b].cells)
            for q in self.around[p]:
                self.touching[q].append(p)
            self.need[p] = clue.need
            self.covered[p] = len(self.around[p])
        self.total = board.mines
        self.placed = sum(1 for s in states if s == MINE)
        self.trail: list[int] = []
        self.bad = sum(1 for p in self.numbers if not 0 <= self.need[p] <= self.covered[p])
        if system.contradiction_clue is not None:   # a number with no hidden neighbour left
            self.bad += 1
        self.region_of = [-1] * n
        self.unsat: list[int] = []
        self.regions: list[list[int]] = []
        self.region_cells: list[list[int]] = []
        self.prepared = {"mines": 0, "empty": 0, "unimportant": 0}
        for q, is_mine in (assume or {}).items():
            if self.status[q] == _COVERED:
                self._set(q, _MINED if is_mine else _EMPTY)
        self._prepare(unimportant)
        self.trail.clear()
        self._find_regions(regions)

    # ------------------------------------------------------------------ cell changes
    def _set(self, q: int, value: int) -> None:
        """Decide covered cell ``q``; a number whose need drops to 0 clears its other covered
        neighbours (the source's ``notifyPotentialZero``)."""
        stack = [(q, value)]
        need, covered, status, touching = self.need, self.covered, self.status, self.touching
        region_of, unsat = self.region_of, self.unsat
        while stack:
            q, value = stack.pop()
            if status[q] != _COVERED:
                continue
            status[q] = value
            self.trail.append(q)
            mined = value == _MINED
            if mined:
                self.placed += 1
            for r in touching[q]:
                n0, c0 = need[r], covered[r]
                n1, c1 = n0 - mined, c0 - 1
                need[r], covered[r] = n1, c1
                self.bad += (not 0 <= n1 <= c1) - (not 0 <= n0 <= c0)
                g = region_of[r]
                if g >= 0:
                    unsat[g] += (n1 > 0) - (n0 > 0)
                if n1 == 0 and c1 > 0 and mined:
                    stack.extend((s, _EMPTY) for s in self.around[r] if status[s] == _COVERED)

    def _undo(self, mark: int) -> None:
        need, covered, status, touching = self.need, self.covered, self.status, self.touching
        region_of, unsat, trail = self.region_of, self.unsat, self.trail
        while len(trail) > mark:
            q = trail.pop()
            mined = status[q] == _MINED
            status[q] = _COVERED
            if mined:
                self.placed -= 1
            for r in touching[q]:
                n0, c0 = need[r], covered[r]
                n1, c1 = n0 + mined, c0 + 1
                need[r], covered[r] = n1, c1
                self.bad += (not 0 <= n1 <= c1) - (not 0 <= n0 <= c0)
                g = region_of[r]
                if g >= 0:
                    unsat[g] += (n1 > 0) - (n0 > 0)

    # ------------------------------------------------------------------ preparation
    def _prepare(self, unimportant: bool) -> None:
        """The source's ``prepare()`` with ``putNoneImportantBombs()``, to a fixpoint."""
        need, covered, status = self.need, self.covered, self.status
        changed = True
        while changed and not self.bad:
            changed = False
            for p in self.numbers:
                if covered[p] == 0:
                    continue
                if need[p] == 0 or need[p] == covered[p]:
                    value = _EMPTY if need[p] == 0 else _MINED
                    for q in self.around[p]:
                        if status[q] == _COVERED:
                            self.prepared["empty" if value == _EMPTY else "mines"] += 1
                            self._set(q, value)
                    changed = True
            if unimportant and not self.bad:
                for p in self.numbers:
                    if need[p] <= 0 or covered[p] == 0:
                        continue
                    free = [q for q in self.around[p] if status[q] == _COVERED]
                    if all(len(self.touching[q]) == 1 for q in free):
                        k = need[p]
                        for q in free[:k]:
                            self._set(q, _MINED)
                        for q in free[k:]:
                            self._set(q, _EMPTY)
                        self.prepared["unimportant"] += 1
                        changed = True

    def _find_regions(self, split: bool) -> None:
        """The source's ``findArea()``: numbers linked by shared covered neighbours, ordered
        by size, smallest first; each region's numbers in board order."""
        todo = [p for p in self.numbers if self.need[p] > 0 or self.covered[p] > 0]
        if not split:
            groups = [todo] if todo else []
        else:
            seen: set[int] = set()
            groups = []
            for start in todo:
                if start in seen:
                    continue
                seen.add(start)
                group, stack = [start], [start]
                while stack:
                    p = stack.pop()
                    for q in self.around[p]:
                        if self.status[q] != _COVERED:
                            continue
                        for r in self.touching[q]:
                            if r not in seen:
                                seen.add(r)
                                group.append(r)
                                stack.append(r)
                groups.append(sorted(group))
            groups.sort(key=len)  # stable: equal sizes keep board order
        self.regions = groups
        self.unsat = [sum(1 for p in g if self.need[p] > 0) for g in groups]
        for g, group in enumerate(groups):
            cells: set[int] = set()
            for p in group:
                self.region_of[p] = g
                cells.update(q for q in self.around[p] if self.status[q] == _COVERED)
            self.region_cells.append(sorted(cells))

    # ------------------------------------------------------------------ search
    def _valid(self) -> bool:
        return not self.bad and (self.total is None or self.placed <= self.total)

    def _pick(self, g: int) -> int:
        group = self.regions[g]
        seq = reversed(group) if self.last else iter(group)
        return next(p for p in seq if self.need[p] > 0)

    def _tick(self) -> None:
        self.calls += 1
        if not self.calls & _CHECK_EVERY:
            check_deadline()

    def _put_free_bombs(self) -> bool:
        """Place the mines the total still asks for on covered cells next to no number."""
        if self.total is None:
            return True
        rest = self.total - self.placed
        if rest == 0:
            return True
        free = [q for q in self.hidden if self.status[q] == _COVERED]
        if len(free) < rest:
            return False
        for q in free[:rest]:
            self._set(q, _MINED)
        return True

    def _combinations(self, p: int) -> Iterator[tuple[int, ...]]:
        cells = [q for q in self.around[p] if self.status[q] == _COVERED]
        return combinations(cells, self.need[p])

    def _place(self, cells: tuple[int, ...]) -> bool:
        """Put the mines of one combination; ``False`` if a cell was cleared on the way (the
        combination would over-satisfy a number)."""
        for q in cells:
            if self.status[q] != _COVERED:
                return False
            self._set(q, _MINED)
        return True

    def solve(self) -> bool:
        """Run the search; ``True`` with the mines in place if a solution exists.

        Iterative, so deep boards do not hit Python's recursion limit; one loop turn is one
        call of the source's recursive ``solve``.
        """
        if self.bad:
            return False
        count_regions = len(self.regions)
        frames: list[tuple[int, Iterator[tuple[int, ...]], int]] = []
        g = 0
        while True:
            self._tick()
            if self._valid():
                while g < count_regions and self.unsat[g] == 0:
                    g += 1
                    if g < count_regions:
                        self._tick()  # the source calls solve(g + 1) unless g was the last
                if g == count_regions:
                    mark = len(self.trail)
                    if self._put_free_bombs():
                        return True
                    self._undo(mark)
                else:
                    frames.append((g, self._combinations(self._pick(g)), len(self.trail)))
            while True:
                if not frames:
                    return False
                fg, combos, mark = frames[-1]
                self._undo(mark)
                cells = next(combos, None)
                if cells is None:
                    frames.pop()
                    if frames and frames[-1][0] < fg:
                        if self.total is None:
                            return False  # independent regions: this one has no solution
                        self.cross_region_backtracks += 1
                    continue
                if self._place(cells):
                    g = fg
                    break

    def mined_cells(self) -> set[int]:
        """Hidden cells holding a mine now."""
        return {q for q in self.hidden if self.status[q] == _MINED}

    # ------------------------------------------------------------------ counting
    def enumerate_region(self, g: int, limit: int = MAX_ENUMERATED
                         ) -> tuple[list[int], dict[int, list[int]]]:
        """Every solution of region ``g`` by the same search: ``poly[t]`` solutions with ``t``
        mines in the region's cells and ``mined[c][t]`` of them with a mine on ``c``.

        Call on a search built with ``unimportant=False`` (and a valid preparation).
        """
        cells = self.region_cells[g]
        poly = [0] * (len(cells) + 1)
        mined = {c: [0] * (len(cells) + 1) for c in cells}
        frames: list[tuple[Iterator[tuple[int, ...]], int]] = []
        found = 0
        while True:
            self._tick()
            if not self.bad:
                if self.unsat[g] == 0:
                    hits = [c for c in cells if self.status[c] == _MINED]
                    t = len(hits)
                    poly[t] += 1
                    for c in hits:
                        mined[c][t] += 1
                    found += 1
                    if found > limit:
                        raise LimitError(f"counting by enumeration stops at {limit} solutions of "
                                         f"one region ({len(cells)} covered cells); use engine dp")
                else:
                    frames.append((self._combinations(self._pick(g)), len(self.trail)))
            while True:
                if not frames:
                    return poly, mined
                combos, mark = frames[-1]
                self._undo(mark)
                choice = next(combos, None)
                if choice is None:
                    frames.pop()
                    continue
                if self._place(choice):
                    break


def combine_regions(parts: list[tuple[list[int], dict[int, list[int]]]], floating: list[int],
                    remaining: int | None) -> tuple[int, dict[int, int]]:
    """Combine per-region solution counts into the board's count and per-cell mine counts.

    ``parts`` holds, per region, ``poly[t]`` (solutions with ``t`` mines) and ``mined[c][t]``;
    ``floating`` cells are free; ``remaining`` is the number of mines left for regions and
    floating cells together (``None`` without a total). Cost: quadratic in the cells.

    Parameters
    ----------
    parts : list of (list of int, dict)
        Per region, its solution count by mine count and each cell's mine count by mine count.
    floating : list of int
        The hidden cells next to no number.
    remaining : int or None
        The mines left for the regions and the floating cells (``None``: no total).

    Returns
    -------
    (int, dict of int to int)
        The number of completions and, per cell, the completions with a mine on it.

    Examples
    --------
    >>> combine_regions([([0, 2], {0: [0, 1], 1: [0, 1]})], [2], remaining=1)
    (2, {0: 1, 1: 1, 2: 0})
    >>> combine_regions([([0, 2], {0: [0, 1], 1: [0, 1]})], [2], remaining=None)
    (4, {0: 2, 1: 2, 2: 2})
    """
    polys = [poly if remaining is not None else [sum(poly)] for poly, _ in parts]
    combined = combine(polys, len(floating), remaining)
    counts: dict[int, int] = {}
    for (_, mined), sensitivity in zip(parts, combined.sensitivity):
        for c, row in mined.items():
            if remaining is None:
                row = [sum(row)]
            counts[c] = sum(m * s for m, s in zip(row, sensitivity))
    for c in floating:
        counts[c] = combined.per_floating
    return combined.count, counts


class BacktrackEngine:
    """Urbaś's backtracking solver as an engine.

    Parameters
    ----------
    seed
        Seeds the source's coin (first or last number of a region); the same seed gives the
        same search. ``"backtrack:7"`` in :func:`~minegraph.engines.get_engine`.
    regions
        Use pseudo-independent regions (``False`` to measure what they save).
    count
        Also count completions and per-cell mine counts, by enumerating every solution of
        each region; raises :class:`LimitError` past :data:`MAX_ENUMERATED` of one region.
    direction
        ``"first"`` or ``"last"`` to fix the coin instead of tossing it.
    max_enumerated
        The counting limit per region (default :data:`MAX_ENUMERATED`).

    Raises
    ------
    EngineError
        for a seed that is not an integer (or its digits), or a ``direction`` other than
        ``"first"``, ``"last"`` and ``None``.

    Examples
    --------
    >>> from minegraph import Board
    >>> r = BacktrackEngine().run(Board.from_text("mines: 1\\n#1#\\n#1#"))
    >>> r.consistent, sorted(r.safe), sorted(r.mines), r.count
    (True, [], [], None)
    >>> r = BacktrackEngine(count=True).run(Board.from_text("mines: 1\\n#1#\\n#1#"))
    >>> r.count, r.mine_counts
    (4, {0: 1, 2: 1, 3: 1, 5: 1})
    """

    name = "backtrack"
    takes_option = True

    def __init__(self, seed: int | str = 0, *, regions: bool = True, count: bool = False,
                 direction: str | None = None, max_enumerated: int = MAX_ENUMERATED) -> None:
        try:
            self.seed = int(seed)
        except ValueError:
            raise EngineError(f"the backtrack engine's option is an integer seed, got {seed!r}") from None
        if direction not in (None, "first", "last"):
            raise EngineError(f"direction must be 'first' or 'last', got {direction!r}")
        self.last = (direction == "last" if direction is not None
                     else random.Random(self.seed).random() < 0.5)
        self.regions = regions
        self.count = count
        self.max_enumerated = max_enumerated
        base = {"consistency", "completion", "forced"}
        self.answers = QUESTIONS if count else frozenset(base)

    def _search(self, board: Board, assume: dict[int, bool] | None = None,
                unimportant: bool = True) -> UrbasSearch:
        return UrbasSearch(board, last=self.last, regions=self.regions, unimportant=unimportant,
                           assume=assume)

    def complete(self, board: Board) -> EngineResult:
        """Consistency and one completion only: the source program's single run."""
        search = self._search(board)
        ok = search.solve()
        if not ok:
            return EngineResult.inconsistent(board.hidden, self._stats(search))
        return EngineResult(True, frozenset({"consistency", "completion"}),
                            completion=frozenset(search.mined_cells()), stats=self._stats(search))

    def run(self, board: Board) -> EngineResult:
        asking("consistency")
        first = self.complete(board)
        stats = dict(first.stats)
        if not first.consistent or first.completion is None:
            return EngineResult.inconsistent(board.hidden, stats)
        answered: dict[str, object] = {"consistency": True}
        asking("forced")
        try:
            safe, mines, tests, calls = self._forced(board, first.completion)
        except QueryTimeout as exc:
            raise QueryTimeout(exc.question, exc.seconds, answered) from None
        stats.update(forced_tests=tests, forced_calls=calls)
        count = mine_counts = None
        if self.count:
            asking("count")
            try:
                count, mine_counts = self._count(board)
            except QueryTimeout as exc:
                raise QueryTimeout(exc.question, exc.seconds, {**answered, "forced": True}) from None
        if count is not None and mine_counts is not None:
            return EngineResult.counted(count, mine_counts, first.completion, stats)
        return EngineResult(True, self.answers, safe=frozenset(safe), mines=frozenset(mines),
                            completion=first.completion, stats=stats)

    def _stats(self, search: UrbasSearch) -> dict[str, object]:
        return {"calls": search.calls, "cross_region_backtracks": search.cross_region_backtracks,
                "regions": len(search.regions),
                "largest_region": max((len(g) for g in search.regions), default=0),
                "direction": "last" if self.last else "first", "prepared": dict(search.prepared)}

    def _forced(self, board: Board, completion: frozenset[int]) -> tuple[set[int], set[int], int, int]:
        """The reduction: test the side of each cell that no solution found so far shows."""
        system = build_system(board, propagate=False)
        hidden = system.hidden
        frontier, floating = system.frontier, system.floating
        can_mine: set[int] = set(completion)
        can_safe: set[int] = set(hidden) - completion
        # Floating cells are interchangeable: one stands for all.
        probes = [*frontier, *floating[:1]]
        safe: set[int] = set()
        mines: set[int] = set()
        tests = calls = 0
        for q in probes:
            for as_mine in (True, False):
                seen = can_mine if as_mine else can_safe
                if q in seen:
                    continue
                # Each probe is a new search whose own ticks start from zero: a board of many
                # short probes would otherwise never look at the clock.
                check_deadline()
                search = self._search(board, {q: as_mine})
                tests += 1
                ok = search.solve()
                calls += search.calls
                if ok:
                    found = search.mined_cells()
                    can_mine.update(found)
                    can_safe.update(c for c in hidden if c not in found)
                elif as_mine:
                    safe.add(q)
                else:
                    mines.add(q)
        if floating:
            rep = floating[0]
            if rep in safe:
                safe.update(floating)
            elif rep in mines:
                mines.update(floating)
        return safe, mines, tests, calls

    def _count(self, board: Board) -> tuple[int, dict[int, int]]:
        """Count by enumerating every solution of each region (no "unimportant" rule)."""
        search = self._search(board, unimportant=False)
        hidden = board.hidden
        if search.bad:
            return 0, {q: 0 for q in hidden}
        parts = [search.enumerate_region(g, self.max_enumerated) for g in range(len(search.regions))]
        in_region = {c for cells in search.region_cells for c in cells}
        floating = [q for q in hidden if search.status[q] == _COVERED and q not in in_region]
        remaining = None if board.mines is None else board.mines - search.placed
        if remaining is not None and remaining < 0:
            return 0, {q: 0 for q in hidden}
        count, counts = combine_regions(parts, floating, remaining)
        result = {}
        for q in hidden:
            if search.status[q] == _MINED:
                result[q] = count
            elif search.status[q] == _EMPTY:
                result[q] = 0
            else:
                result[q] = counts[q]
        return count, result
