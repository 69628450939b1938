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

The listing and the search run in C (``minegraph._endgame``) when it is built and loaded
(:data:`NATIVE_STATUS`); the Python code here is the reference and the pure-Python path.

Examples
--------
>>> from minegraph import Board
>>> board = Board.from_text("mines: 1\\n##\\n1-")   # a 50/50 that nothing can resolve
>>> search = Endgame(board, limit=10)
>>> search.win_probability()
Fraction(1, 2)
"""

from __future__ import annotations

from array import array
from fractions import Fraction
from pathlib import Path
from typing import NoReturn, Sequence

from minegraph.board import HIDDEN, MINE, Board
from minegraph.constraints import build_system
from minegraph.deadline import check_deadline, current_deadline
from minegraph.errors import EngineError, LimitError, QueryTimeout
from minegraph.kernel import load_native
from minegraph.rules import flood_fill

__all__ = ["completions", "Endgame", "native_available", "NATIVE_STATUS", "MEMO_BYTES",
           "TABLE_BYTES", "TANGLE_LAYOUTS"]

# The native search (``minegraph._endgame``, C), chosen here alone; ``None``: pure Python
# (``MINEGRAPH_PURE=1``, not built, or built from another source).
_NATIVE, NATIVE_STATUS = load_native(
    "minegraph._endgame", Path(__file__).resolve().parent.parent / "_endgame.c")

#: Bytes the native search's memo may take (keys and table); past that it stops memoising
#: new sets of layouts and goes on exact but slower.
MEMO_BYTES = 512 << 20

#: Bytes the flood fills the native table of observations remembers may take (the table
#: itself is 4 bytes per cell and layout); past that the exact endgame raises
#: :class:`~minegraph.errors.LimitError`.
TABLE_BYTES = 256 << 20

#: The native search bounds every set of layouts by its *tangles* (layouts no move tells
#: apart, of which play wins at most one; docs/algorithms.md) when the position has at most
#: this many completions: finding the tangled pairs takes work of the square of their number
#: (a few hundredths of a second at 10,000).
TANGLE_LAYOUTS = 20000


def native_available() -> bool:
    """Whether the exact endgame runs its native search in this process.

    Returns
    -------
    bool
        ``True`` when ``minegraph._endgame`` was built and loaded (see :data:`NATIVE_STATUS`).

    Examples
    --------
    >>> native_available() == (NATIVE_STATUS == "native")
    True
    """
    return _NATIVE is not None


def completions(board: Board, limit: int) -> list[frozenset[int]] | None:
    """Every completion's mined hidden cells, or ``None`` if there are more than ``limit``.

    Backtracking over the hidden cells, the clues' cells first, cutting a branch as soon as a
    clue or the total cannot be met. The search keeps its own stack, so a board of thousands
    of hidden cells does not exhaust Python's recursion limit. The native module runs the
    same backtracking in C (same order), when it is loaded.

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
    listed = _listing(board, limit)
    if listed is None:
        return None
    if isinstance(listed, list):
        return listed
    return _layouts(*listed)


def _layouts(ptr: bytes, mined: bytes) -> list[frozenset[int]]:
    """The layouts of a native listing (int32 CSR)."""
    offsets, cells = array("i", ptr), array("i", mined)
    return [frozenset(cells[offsets[k]:offsets[k + 1]]) for k in range(len(offsets) - 1)]


def _listing(board: Board, limit: int) -> list[frozenset[int]] | tuple[bytes, bytes] | None:
    """:func:`completions`: natively as int32 CSR (the mined cells of each layout), else in
    Python as frozensets; ``None`` past ``limit``."""
    if _NATIVE is None:
        return _completions_python(board, limit)
    system = build_system(board, propagate=False)
    if system.contradiction is not None:
        return []
    watch: dict[int, list[int]] = {}
    for k, clue in enumerate(system.clues):
        for c in system.clue_cells(clue):
            watch.setdefault(c, []).append(k)
    hidden = sorted(system.hidden, key=lambda c: (c not in watch, c))
    total = system.remaining
    if total is not None and not 0 <= total <= len(hidden):
        return []
    watch_ptr, watched = array("i", [0]), array("i")
    for c in hidden:
        watched.extend(watch.get(c, ()))
        watch_ptr.append(len(watched))
    need = array("i", [clue.need for clue in system.clues])
    deadline = current_deadline()
    seconds = -1.0 if deadline is None else max(0.0, deadline.remaining())
    status, ptr, mined = _NATIVE.completions(
        array("i", hidden).tobytes(), watch_ptr.tobytes(), watched.tobytes(), need.tobytes(),
        -1 if total is None else total, limit, seconds, None if deadline is None else deadline.flag)
    if status == _NATIVE.OK:
        return ptr, mined
    if status == _NATIVE.LIMIT:
        return None
    _raise_native(status)


def _raise_native(status: int) -> NoReturn:
    """The error of a native call that did not answer: out of memory, timed out, cancelled."""
    assert _NATIVE is not None
    if status == _NATIVE.NOMEMORY:
        raise LimitError("the exact endgame's native search ran out of memory")
    deadline = current_deadline()
    assert deadline is not None     # no deadline: a native call cannot time out
    deadline.check()                # QueryTimeout, or QueryCancelled
    raise QueryTimeout(deadline.question, deadline.seconds)  # pragma: no cover - a clock tie


def _completions_python(board: Board, limit: int) -> list[frozenset[int]] | None:
    """:func:`completions` in Python: the reference of the native listing."""
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


# The fewest layouts a group must hold before the search looks for independent regions in
# it: below this, testing costs more than the search it saves.
FACTOR_MIN = 8


class _Search:
    """The search over one set of layouts: the whole position, or one region of it that is
    independent of the rest.

    Sets of layouts are bit masks (bit k: layout k), so a split is a few ANDs and a set of
    layouts is its own memo key. ``constant`` holds the mines every layout shares outside
    ``cells`` (and the flags): what a cell of ``cells`` shows is computed with them.
    """

    def __init__(self, board: Board, layouts: list[frozenset[int]], cells: list[int],
                 constant: frozenset[int], shown: frozenset[int],
                 regions: dict[tuple[frozenset[frozenset[int]], frozenset[int]],
                               tuple[int, int | None]]) -> None:
        self.board = board
        self.layouts = layouts
        self.hidden = cells
        self._constant = constant
        self._shown = shown
        self._regions = regions           # shared by every search of one position
        self._mined_masks: list[int] | None = None
        self._shows: dict[int, list[int]] = {}       # cell -> the layouts of each thing it shows
        self._shown_as: dict[int, list[int]] = {}    # cell -> per layout, which of them (-1: mined)
        self._exact: dict[int, tuple[int, int | None]] = {}
        self._upper: dict[int, int] = {}             # group -> a bound its value cannot exceed
        self._near_cells: dict[int, set[int]] = {}

    @property
    def _mined_in(self) -> list[int]:
        """Per cell of :attr:`hidden`, the layouts (bit mask) where it is a mine; built on
        first use (the native path mostly never needs them)."""
        if self._mined_masks is None:
            size = len(self.layouts)
            position = {c: i for i, c in enumerate(self.hidden)}
            rows = [bytearray(b"0" * size) for _ in self.hidden]
            for k, layout in enumerate(self.layouts):
                for c in layout:
                    if c in position:
                        rows[position[c]][size - 1 - k] = 49      # "1": bit k
            self._mined_masks = [int(row, 2) if size else 0 for row in rows]
        return self._mined_masks

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
            mines = layout | self._constant if self._constant else layout
            seen: object = sum(1 for q in nbrs[cell] if q in mines)
            if not seen:
                opened = flood_fill(nbrs, mines, set(), cell, flags=self._shown)
                seen = tuple(sorted((v, sum(1 for q in nbrs[v] if q in mines)) for v in opened))
            masks[seen] = masks.get(seen, 0) | 1 << k
            ids[k] = order.setdefault(seen, len(order))
        self._shows[cell] = found = list(masks.values())
        self._shown_as[cell] = ids
        return found

    def split(self, cell: int, group: int) -> list[int]:
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

    def after(self, parts: list[int], floor: int, cells: list[int] | None = None) -> int:
        """The layouts won after a split into ``parts``, if that is more than ``floor``;
        otherwise a bound at most ``floor`` that the number won cannot exceed (the search of
        a part stops as soon as the parts together can no longer pass ``floor``).
        ``cells``: as for :meth:`value`."""
        sizes = [p.bit_count() for p in parts]
        left = sum(sizes)
        total = 0
        for size, part in sorted(zip(sizes, parts), reverse=True):
            left -= size
            need = floor - total - left      # this part must win more than this
            if need >= size:
                return total + size + left
            won = self.value(part, cells, need)[0]
            if won <= need:                  # ``won`` bounds the part: so does the sum
                return total + won + left
            total += won
        return total

    def value(self, group: int, cells: list[int] | None = None,
              floor: int = -1) -> tuple[int, int | None]:
        """The most layouts of ``group`` perfect play wins and a cell that wins them, when
        that is more than ``floor``; otherwise ``(bound, None)`` with the value at most
        ``bound <= floor`` (alpha-beta's fail-low, fail-soft: a caller that needs more stops
        early, and the bound is kept to answer later calls that need less).

        ``cells`` (positions in :attr:`hidden`) holds every cell that may still matter: a
        cell mined in every layout of a group, or safe in all and showing the same everywhere,
        does so in every part of it too, so the parts are searched over fewer cells (the
        answer is the same: such cells are never chosen)."""
        n = group.bit_count()
        if n <= 1:
            return n, None
        exact = self._exact.get(group)
        if exact is not None:
            return exact
        upper = self._upper.get(group)
        if upper is not None and upper <= floor:
            return upper, None
        check_deadline()
        mined_in = self._mined_in
        counts = [(i, (mined_in[i] & group).bit_count())
                  for i in (range(len(mined_in)) if cells is None else cells)]
        live = [i for i, k in counts if k < n]
        for i, k in counts:     # certainly safe and informative: uncover for free
            if k == 0:
                parts = self.split(self.hidden[i], group)
                if len(parts) > 1:
                    return self._keep(group, self.after(parts, floor, live), self.hidden[i],
                                      floor)
                live.remove(i)  # safe and teaches nothing, here and in every part
        guesses = [(i, k) for i, k in counts if 0 < k < n]
        if not guesses:         # every layout agrees on every cell that matters
            return self._keep(group, n, None, floor, settled=True)
        if n >= FACTOR_MIN:
            factored = self._factored(group, [i for i, _ in guesses])
            if factored is not None:
                return self._keep(group, factored[0], factored[1], floor, settled=True)
        if floor >= n:  # pragma: no cover - callers never ask for more than every layout
            return n, None
        best, best_cell = floor, None
        bound = 0       # when no cell passes ``floor``: the most any cell could win
        tried: set[tuple[int, ...]] = set()
        for i, k in sorted(guesses, key=lambda item: (item[1], self.hidden[item[0]])):
            if n - k <= best:
                bound = max(bound, n - k)
                break  # no cell from here on can win more
            parts = self.split(self.hidden[i], group)
            signature = tuple(sorted(parts))
            if signature in tried:
                continue  # splits the layouts as a cell already tried
            tried.add(signature)
            won = self.after(parts, best, live)
            if won > best:
                best, best_cell = won, self.hidden[i]
            else:
                bound = max(bound, won)
        if best_cell is None:
            return self._keep(group, bound, None, floor)
        return self._keep(group, best, best_cell, floor)

    def _keep(self, group: int, won: int, cell: int | None, floor: int,
              settled: bool = False) -> tuple[int, int | None]:
        """Remember ``won`` for ``group``: its value when above ``floor`` or ``settled``,
        else only a bound the value cannot exceed."""
        if won > floor or settled:
            self._exact[group] = (won, cell)
            return won, cell
        upper = self._upper.get(group)
        self._upper[group] = won if upper is None else min(won, upper)
        return won, None

    def _factored(self, group: int, guessed: list[int]) -> tuple[int, int | None] | None:
        """The value of ``group`` as a product over independent regions, or ``None`` when it
        does not split.

        Cells whose uncovering can tell something (``guessed``, positions in :attr:`hidden`)
        fall into regions of cells at most two steps apart (neighbours, or next to a common
        number: only those can be tied by a clue). What a cell shows depends only on its own
        region (every other cell next to it, or reached by a flood fill, is the same in every
        layout of the group), so when the group is every combination of its regions' layouts
        (its size is the product of the numbers of distinct layouts per region) each region is
        played on its own and the layouts won multiply.
        """
        position = {self.hidden[i]: i for i in guessed}
        regions: list[frozenset[int]] = []
        seen: set[int] = set()
        for start in sorted(position):
            if start in seen:
                continue
            region, stack = {start}, [start]
            while stack:
                for q in self._near(stack.pop()):
                    if q in position and q not in region:
                        region.add(q)
                        stack.append(q)
            seen |= region
            regions.append(frozenset(region))
        if len(regions) < 2:
            return None
        if self.board.mines is not None:
            # With a total, a region is independent of the rest only if it holds the same
            # number of mines in every layout: test that first, on the bit masks alone.
            regions = [r for r in regions
                       if _same_count(group, [self._mined_in[position[c]] for c in r])]
            if not regions:
                return None
        rest = [self.layouts[k] for k in _bits(group)]
        factors: list[tuple[set[frozenset[int]], frozenset[int]]] = []
        candidates = sorted(regions, key=len)
        if self.board.mines is None:
            candidates = candidates[:-1]    # the last one is the rest
        for candidate in candidates:
            own = {layout & candidate for layout in rest}
            others = {layout - candidate for layout in rest}
            if len(own) * len(others) == len(rest):
                factors.append((own, candidate))
                rest = list(others)
        if not factors:
            return None
        last = frozenset(position).difference(*(r for _, r in factors))
        if not last and len(factors) == 1:
            return None     # one region holds everything that can still vary
        if last:
            factors.append(({layout & last for layout in rest}, last))
        layouts = [self.layouts[k] for k in _bits(group)]
        constant = self._constant.union(layouts[0].intersection(*layouts[1:]))
        won, cell = 1, None
        for own, cells in factors:
            w, c = self._region_value(own, cells, constant)
            won *= w
            if cell is None:
                cell = c
        return won, cell

    def _near(self, cell: int) -> set[int]:
        """The cells at most two steps from ``cell``."""
        found = self._near_cells.get(cell)
        if found is None:
            nbrs = self.board.neighbors
            found = set(nbrs[cell]).union(*(nbrs[q] for q in nbrs[cell]))
            self._near_cells[cell] = found
        return found

    def _region_value(self, own: set[frozenset[int]], region: frozenset[int],
                      constant: frozenset[int]) -> tuple[int, int | None]:
        """The search of one independent region's layouts (shared between searches)."""
        key = (frozenset(own), constant)
        found = self._regions.get(key)
        if found is None:
            layouts = sorted(own, key=sorted)
            search = _Search(self.board, layouts, sorted(region), constant, self._shown,
                             self._regions)
            found = search.value((1 << len(layouts)) - 1)
            self._regions[key] = found
        return found


class _NativeSearch:
    """The whole of :meth:`_Search.value` on a list of layouts (int32 CSR, or sets), in C.

    The table of what each cell shows under each layout (``minegraph._endgame.observations``)
    is built once; each call of ``minegraph._endgame.search`` then runs with the GIL released
    and a memo of at most :data:`MEMO_BYTES`, stopping at the current deadline
    (:class:`~minegraph.errors.QueryTimeout`) or when it is cancelled.
    """

    def __init__(self, board: Board, layouts: list[frozenset[int]] | None, cells: list[int],
                 constant: frozenset[int], shown: frozenset[int],
                 csr: tuple[bytes, bytes] | None = None) -> None:
        assert _NATIVE is not None
        self.n = len(csr[0]) // 4 - 1 if csr is not None else len(layouts or ())
        if self.n > _NATIVE.MAX_LAYOUTS:
            raise LimitError(f"{self.n} completions: more than the native search takes "
                             f"({_NATIVE.MAX_LAYOUTS})")
        self.cells = cells
        indptr, indices = _neighbour_csr(board)
        if csr is None:
            layouts = layouts or []
            mined_ptr, mined = array("i", [0]), array("i")
            for layout in layouts:
                mined.extend(layout)
                mined_ptr.append(len(mined))
            csr = mined_ptr.tobytes(), mined.tobytes()
        marks = bytearray(len(board.states))
        for c in shown:
            marks[c] = 1
        try:
            self.codes: bytes = _NATIVE.observations(
                indptr, indices, bytes(marks), array("i", cells).tobytes(), csr[0], csr[1],
                array("i", sorted(constant)).tobytes(), TABLE_BYTES)
        except MemoryError as error:
            raise LimitError(f"the exact endgame's table of observations: {error}") from None
        self.order = array("i", cells).tobytes()   # ties go to the lowest board index
        # Independent regions are looked for in groups of FACTOR_MIN layouts or more.
        self.near: tuple[bytes, bytes, int] | tuple[()] = (
            (*_near_csr(board, cells), FACTOR_MIN) if self.n >= FACTOR_MIN else ())

    def _run(self, first: list[int]) -> tuple[int, int, list[int] | None]:
        """``search``'s won, best (a position in :attr:`cells`, -1: none) and values."""
        assert _NATIVE is not None
        deadline = current_deadline()
        seconds = -1.0 if deadline is None else max(0.0, deadline.remaining())
        status, won, best, values, _ = _NATIVE.search(
            self.codes, self.n, self.order, array("i", first).tobytes(), seconds, 0,
            MEMO_BYTES, None if deadline is None else deadline.flag, TANGLE_LAYOUTS, *self.near)
        if status == _NATIVE.OK:
            return won, best, values
        _raise_native(status)

    def value(self) -> tuple[int, int | None]:
        """The layouts won under perfect play and a cell (board index) that wins them."""
        if self.n <= 1:
            return self.n, None
        won, best, _ = self._run([])
        return won, None if best < 0 else self.cells[best]

    def after(self, cells: Sequence[int]) -> list[int]:
        """The layouts won after uncovering each of ``cells`` (board indices) first."""
        position = {c: i for i, c in enumerate(self.cells)}
        values = self._run([position[c] for c in cells])[2]
        assert values is not None
        return values


_CSR: dict[int, tuple[tuple[tuple[int, ...], ...], bytes, bytes]] = {}


def _neighbour_csr(board: Board) -> tuple[bytes, bytes]:
    """The board's neighbour lists as int32 CSR, kept per neighbour table (boards of one game
    share it)."""
    key = id(board.neighbors)
    found = _CSR.get(key)
    if found is None or found[0] is not board.neighbors:
        indptr, indices = array("i", [0]), array("i")
        for around in board.neighbors:
            indices.extend(around)
            indptr.append(len(indices))
        if len(_CSR) > 64:
            _CSR.clear()
        found = _CSR[key] = (board.neighbors, indptr.tobytes(), indices.tobytes())
    return found[1], found[2]


_TWO_STEPS: dict[int, tuple[tuple[tuple[int, ...], ...], list[tuple[int, ...]]]] = {}


def _near_csr(board: Board, cells: list[int]) -> tuple[bytes, bytes]:
    """Per position in ``cells``, the positions of the other cells at most two steps away
    (as :meth:`_Search._near`), int32 CSR: what ties guessed cells into one region. The
    board's two-step neighbourhoods are kept per neighbour table (boards of one game share
    it)."""
    key = id(board.neighbors)
    found = _TWO_STEPS.get(key)
    if found is None or found[0] is not board.neighbors:
        nbrs = board.neighbors
        steps = [tuple(sorted(set(nbrs[c]).union(*(nbrs[q] for q in nbrs[c])) - {c}))
                 for c in range(len(nbrs))]
        if len(_TWO_STEPS) > 64:
            _TWO_STEPS.clear()
        found = _TWO_STEPS[key] = (nbrs, steps)
    steps = found[1]
    position = {c: i for i, c in enumerate(cells)}
    ptr, near = array("i", [0]), array("i")
    for c in cells:
        near.extend([position[q] for q in steps[c] if q in position])
        ptr.append(len(near))
    return ptr.tobytes(), near.tobytes()


def _same_count(group: int, masks: list[int]) -> bool:
    """Whether every layout of ``group`` has the same number of mines among the cells whose
    layouts are ``masks`` (bit k: mined in layout k): the masks are added bit-sliced, so the
    per-layout counts are found without visiting the layouts."""
    slices: list[int] = []
    for mask in masks:
        carry = mask & group
        for j in range(len(slices) + 1):
            if not carry:
                break
            if j == len(slices):
                slices.append(carry)
                break
            slices[j], carry = slices[j] ^ carry, slices[j] & carry
    first = (group & -group).bit_length() - 1
    return all(s & group == (group if s >> first & 1 else 0) for s in slices)


def _bits(mask: int) -> list[int]:
    """The positions of the set bits of ``mask``."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Endgame:
    """The exact endgame search on ``board`` (raises :class:`LimitError` when it has more than
    ``limit`` completions).

    Counts are exact integers: ``wins(S)``, the number of layouts of ``S`` that perfect play
    wins, is 1 for one layout and otherwise the best over the cells of the sum of ``wins`` over
    the parts ``S`` splits into (a cell's mined layouts are lost). A cell can win at most the
    layouts where it is safe, so cells are tried safest first and the search stops as soon as
    no remaining cell could beat the best found; the search of a part is told how much it must
    win to matter and stops as soon as it cannot (alpha-beta's fail-low, with upper bounds
    remembered beside exact values). A set of layouts that is every combination of the
    layouts of independent regions (numbers and flood fills of one never depend on another) is
    searched region by region and the layouts won multiply, which turns a product of sizes
    into a sum.

    Parameters
    ----------
    board
        The position (its total mine count should be known; without it far more layouts fit).
    limit
        The most completions the search accepts.
    native
        Run the native search (``minegraph._endgame``, C): ``None`` (the default) when it is
        loaded, ``False`` the Python search (the reference), ``True`` insists on C.

    Attributes
    ----------
    count
        The number of completions.
    layouts
        The completions (mined hidden cells), built as sets on first use.

    Raises
    ------
    LimitError
        when the position has more than ``limit`` completions (or, natively, when its table
        of flood fills would pass :data:`TABLE_BYTES`).
    EngineError
        for ``native=True`` when the native search is not loaded.

    Examples
    --------
    >>> Endgame(Board.from_text("mines: 1\\n#1-\\n11-")).win_probability()
    Fraction(1, 1)
    """

    def __init__(self, board: Board, limit: int = 200, native: bool | None = None) -> None:
        if native and _NATIVE is None:
            raise EngineError(f"native=True: the native endgame search is not loaded "
                              f"({NATIVE_STATUS})")
        self.native = _NATIVE is not None if native is None else native
        listed = _listing(board, limit) if self.native else _completions_python(board, limit)
        if listed is None:
            raise LimitError(f"more than {limit} completions: too many for the exact endgame")
        self.board = board
        self.hidden = list(board.hidden)
        # What uncovering never passes through: the numbers and flags already shown.
        self._shown = frozenset(i for i, s in enumerate(board.states) if s != HIDDEN)
        self._flagged = frozenset(i for i, s in enumerate(board.states) if s == MINE)
        # The native listing stays int32 arrays: the C search reads them as they are, and
        # Python sets of 10,000 layouts cost more than the search of most positions.
        self._csr = listed if isinstance(listed, tuple) else None
        self._listed = listed if isinstance(listed, list) else None
        self.count = len(listed) if isinstance(listed, list) else len(listed[0]) // 4 - 1
        self._python: _Search | None = None
        self._root: tuple[int, int | None] | None = None

    @property
    def layouts(self) -> list[frozenset[int]]:
        """The completions (mined hidden cells), as sets on first use."""
        if self._listed is None:
            assert self._csr is not None
            self._listed = _layouts(*self._csr)
        return self._listed

    @property
    def _search(self) -> _Search:
        """The Python search (the reference), built on first use."""
        if self._python is None:
            self._python = _Search(self.board, self.layouts, self.hidden, self._flagged,
                                   self._shown, {})
        return self._python

    def _value(self) -> tuple[int, int | None]:
        """The layouts won under perfect play and a cell that wins them (computed once)."""
        if self._root is None:
            self._root = (self._native_search().value() if self.native
                          else self._search.value((1 << self.count) - 1))
        return self._root

    def win_probability(self) -> Fraction:
        """The probability of winning from this position with perfect play.

        Returns
        -------
        Fraction
            Layouts won over layouts (0 when the position has no completion).
        """
        if not self.count:
            return Fraction(0)
        return Fraction(self._value()[0], self.count)

    def best_cell(self) -> int | None:
        """A cell to uncover now that keeps the best win probability.

        Returns
        -------
        int or None
            The cell (index); ``None`` when there is nothing to decide or no completion.
        """
        if not self.count:
            return None
        return self._value()[1]

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
        if self.native and self.count > 1:
            s = self._native_search()
            return {c: Fraction(won, self.count) for c, won in zip(cells, s.after(list(cells)))}
        search, every = self._search, (1 << self.count) - 1
        return {c: Fraction(search.after(search.split(c, every), -1), self.count)
                for c in cells}

    def _native_search(self) -> _NativeSearch:
        s: _NativeSearch | None = getattr(self, "_native_whole", None)
        if s is None:
            s = _NativeSearch(self.board, self._listed, self.hidden, self._flagged,
                              self._shown, self._csr)
            self._native_whole = s
        return s
