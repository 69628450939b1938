"""Exact counting by dynamic programming over a tree decomposition of each component.

For each component of the box-clue system, the boxes are the variables (box ``b`` holds
``0..size_b`` mines, weighted ``C(size_b, k)``) and each clue is an equation over its boxes.
A min-fill elimination order gives a clique tree (a tree decomposition of the boxes' primal
graph; Hoder 2007 uses the same idea on the board graph). One upward pass computes, per
clique, the weighted number of completions of everything below it; one downward pass turns
those into full marginals, so every box's distribution comes from the same two passes.

Values are polynomials in the number of mines, packed into one Python ``int`` (Kronecker
substitution): coefficient ``t`` sits at bit ``t * bits``, where ``bits`` exceeds the number
of cells of the component, so no coefficient (a count of subsets of those cells) overflows
its slot. Polynomial product and sum become integer product and sum. Without a total mine
count, ``bits = 0`` and the values are plain counts.

Components are then combined by convolution with weights ``C(floating, remaining - t)``
for the global mine count (floating cells are free without one).

References
----------
Hoder, *Minesweeper — computational complexity and solver implementation*, 2007.
Kaye, *Minesweeper is NP-complete*, Math. Intelligencer 22(2), 2000.
"""

from __future__ import annotations

import math
from array import array
from fractions import Fraction
from itertools import chain
from math import comb
from typing import Any, Callable, Collection, Protocol, Sequence, cast

from minegraph.constraints import Component, ConstraintSystem
from minegraph.deadline import check_deadline
from minegraph.engines.base import QUESTIONS, EngineResult, Probability, SystemEngine
from minegraph.engines.combine import Combination, chooses_float, combine
from minegraph.engines.combine_float import FloatCombination, Share, combine_float
from minegraph.engines.elimination import CliqueTree, clique_tree
from minegraph.lazy import FloatProbabilities, GroupedCounts
from minegraph.present import SMALLEST_FLOAT, probability_float, scientific_text

__all__ = ["DPEngine", "ComponentDP", "CountedPart", "count_system", "combine_parts", "forced_by_parts",
           "OrderProvider",
           "box_graph", "estimate_work"]

#: Components with more hidden cells than this get slot widths from a first plain pass.
TIGHT_BITS_ABOVE = 64

#: Table entries (or enumeration steps) between two looks at the deadline.
_CHECK_EVERY = 4096

#: Supplies the elimination order of a component's boxes (local indices), e.g. one derived
#: from another tree decomposition; any permutation is correct, the width decides the cost.
OrderProvider = Callable[[ConstraintSystem, Component], list[int]]

#: A clue in local numbering: its need and its boxes' local indices.
LocalClue = tuple[int, tuple[int, ...]]


def _coef(value: int, t: int, bits: int) -> int:
    """Coefficient ``t`` of a packed polynomial."""
    if bits == 0:
        return value if t == 0 else 0
    return (value >> (t * bits)) & ((1 << bits) - 1)


def _unpack(value: int, bits: int, length: int) -> list[int]:
    """All ``length`` coefficients of a packed polynomial (divide and conquer for big ones)."""
    if bits == 0:
        return [value]
    if length <= 32:
        mask = (1 << bits) - 1
        return [(value >> (t * bits)) & mask for t in range(length)]
    half = length // 2
    low = value & ((1 << (half * bits)) - 1)
    return _unpack(low, bits, half) + _unpack(value >> (half * bits), bits, length - half)


def _trim(poly: list[int]) -> list[int]:
    while len(poly) > 1 and poly[-1] == 0:
        poly.pop()
    return poly


def local_graph(boxes: int, clues: Sequence[LocalClue]) -> list[set[int]]:
    """The primal graph of a component in local numbering: boxes adjacent when they share a
    clue."""
    adj: list[set[int]] = [set() for _ in range(boxes)]
    for _, bs in clues:
        for a in bs:
            adj[a].update(bs)
            adj[a].discard(a)
    return adj


def box_graph(system: ConstraintSystem, component: Component) -> list[set[int]]:
    """The primal graph of a component: its boxes (local indices), adjacent when they share
    a clue.

    Parameters
    ----------
    system : ConstraintSystem
        The position's constraints.
    component : Component
        One of its components.

    Returns
    -------
    list of set of int
        The neighbours of each box.
    """
    return local_graph(len(component.boxes), component.key[1])


def estimate_work(sizes: Sequence[int], tree: CliqueTree) -> float:
    """An upper bound on the DP's table entries over ``tree``: per clique, the product of
    ``size + 1`` over its boxes (clues cut the real tables far below it on dense boards).

    Parameters
    ----------
    sizes : sequence of int
        The cells of each box.
    tree : CliqueTree
        The clique tree the DP runs over.

    Returns
    -------
    float
        The bound.

    Examples
    --------
    >>> estimate_work([1, 1, 1], clique_tree([{1}, {0, 2}, {1}]))
    10.0
    """
    total = 0.0
    for clique in tree.cliques:
        log = sum(math.log2(sizes[v] + 1) for v in clique)
        total += 2.0 ** min(log, 1000.0)
    return total


class CountedPart(Protocol):
    """What the combination needs of a counted component: :class:`ComponentDP`, or the SAT
    engine's parts counted by enumeration (a protocol, not a base class: compiled code checks
    a class annotation at run time, and the two are unrelated classes)."""

    cells: int
    bits: int
    total: list[int]
    mined: list[list[int]]

    @property
    def width(self) -> int: ...

    def completion(self, target: int) -> list[int]: ...


class ComponentDP:
    """Upward and downward sum-product passes over one component's clique tree.

    Works in the component's local numbering only (box sizes and clues, as in its canonical
    key), so a result can be reused for any component with the same key.

    Parameters
    ----------
    sizes
        Box sizes, by local index.
    clues
        ``(need, local boxes)`` per clue.
    with_total
        Keep mine-count polynomials (for a total mine count); else plain counts.
    tree
        The clique tree to work on (min-fill over the primal graph when ``None``).
    order
        An elimination order for the clique tree when ``tree`` is ``None``.

    Attributes
    ----------
    total : list[int]
        ``total[t]`` = number of assignments of the component's cells with ``t`` mines
        (a single entry, the plain count, when ``with_total`` is False).
    mined : list[list[int]]
        ``mined[b][t]`` = the sum over those assignments with ``t`` mines of the number of
        mines in local box ``b`` (its expected-mines numerator, per mine count).

    Examples
    --------
    >>> part = ComponentDP([1, 1, 1], [(1, (0, 1)), (1, (1, 2))], with_total=True)
    >>> part.total, part.mined
    ([0, 1, 1], [[0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 1, 0]])
    """

    def __init__(self, sizes: Sequence[int], clues: Sequence[LocalClue], *, with_total: bool,
                 tree: CliqueTree | None = None, order: list[int] | None = None) -> None:
        self.sizes = list(sizes)
        self.cells = sum(self.sizes)
        self.with_total = with_total
        # A slot must hold box_size * (a count of subsets of the cells) < 2**(cells + 4).
        self.bits = self.cells + 5 if with_total else 0
        self.clues = [(need, list(bs)) for need, bs in clues]
        self.tree = tree if tree is not None else clique_tree(local_graph(len(self.sizes), clues), order)
        self._steps = 0
        if with_total and self.cells > TIGHT_BITS_ABOVE:
            # Every coefficient is at most the value at x = 1, and every value that matters
            # is at most the largest upward table entry or the total: a plain counting pass
            # finds that bound, often far below 2**cells, and narrower slots pay for it.
            self.bits = 0
            self._upward()
            bound = max([self.root_total, *(max(t.values(), default=0) for t in self.tables)])
            self.bits = bound.bit_length() + 5
        self._upward()
        self.total = _trim(_unpack(self.root_total, self.bits, self.cells + 1))
        self.mined: list[list[int]] = []
        if self.root_total:
            self._downward()

    @classmethod
    def of(cls, system: ConstraintSystem, component: Component, *, with_total: bool,
           tree: CliqueTree | None = None, order: list[int] | None = None) -> "ComponentDP":
        """The DP of ``component`` of ``system`` (read from its canonical key)."""
        return cls(component.key[0], component.key[1], with_total=with_total, tree=tree,
                   order=order)

    @property
    def width(self) -> int:
        return self.tree.width

    def _tick(self) -> None:
        self._steps += 1
        if not self._steps & (_CHECK_EVERY - 1):
            check_deadline()

    # ------------------------------------------------------------------ upward pass
    def _upward(self) -> None:
        tree = self.tree
        n = len(tree.order)
        pos = {v: i for i, v in enumerate(tree.order)}
        assigned: list[list[int]] = [[] for _ in range(n)]
        for c, (_, bs) in enumerate(self.clues):
            assigned[min(pos[b] for b in bs)].append(c)
        self.tables: list[dict[tuple[int, ...], int]] = []
        self.messages: list[dict[tuple[int, ...], int]] = []
        self.projections: list[list[int]] = [[] for _ in range(n)]
        for i in range(n):
            check_deadline()
            clique = tree.cliques[i]
            where = {v: d for d, v in enumerate(clique)}
            for j in tree.children[i]:
                self.projections[j] = [where[u] for u in tree.cliques[j][1:]]
            table = self._enumerate(clique, where, assigned[i], tree.children[i])
            self.tables.append(table)
            up: dict[tuple[int, ...], int] = {}
            for key, value in table.items():
                sep = key[1:]
                up[sep] = up.get(sep, 0) + value
            self.messages.append(up)
        root = n - 1
        self.root_total = self.messages[root].get((), 0) if n else 1

    def _enumerate(self, clique: tuple[int, ...], where: dict[int, int], clues: list[int],
                   children: list[int]) -> dict[tuple[int, ...], int]:
        """All assignments of ``clique`` meeting its clues and its children's messages."""
        sizes, bits = self.sizes, self.bits
        length = len(clique)
        checks: list[list[tuple[int, int]]] = [[] for _ in range(length)]
        needs = []
        for slot, c in enumerate(clues):
            need, bs = self.clues[c]
            needs.append(need)
            depths = sorted(where[b] for b in bs)
            for idx, d in enumerate(depths):
                cap_after = sum(sizes[clique[e]] for e in depths[idx + 1:])
                checks[d].append((slot, cap_after))
        lookups: list[list[tuple[dict[tuple[int, ...], int], list[int]]]] = [[] for _ in range(length)]
        for j in children:
            proj = self.projections[j]
            lookups[max(proj)].append((self.messages[j], proj))
        v0 = clique[0]
        weight0 = [comb(sizes[v0], x) << (x * bits) for x in range(sizes[v0] + 1)]
        caps = [sizes[v] for v in clique]
        sums = [0] * len(clues)
        values = [0] * length
        # A depth-first search without recursion (a loop over explicit per-depth state runs
        # faster, compiled or not): tried[d] is the last value tried at depth d, applied[d]
        # whether it is added into the clue sums, prods[d] the product down to depth d.
        tried = [-1] * length
        applied = [False] * length
        prods = [0] * (length + 1)
        prods[0] = 1
        table: dict[tuple[int, ...], int] = {}
        steps = self._steps
        d = 0
        while d >= 0:
            steps += 1
            if not steps & (_CHECK_EVERY - 1):
                check_deadline()
            if d == length:
                table[tuple(values)] = prods[length]
                d -= 1
                continue
            if applied[d]:
                for slot, _ in checks[d]:
                    sums[slot] -= values[d]
                applied[d] = False
            x = tried[d] + 1
            cap_d = caps[d]
            p = 0
            while x <= cap_d:
                ok = True
                over = False
                for slot, cap in checks[d]:
                    total = sums[slot] + x
                    if total > needs[slot]:
                        over = True
                        break
                    if total + cap < needs[slot]:
                        ok = False
                if over:
                    x = cap_d + 1       # larger values only overshoot more
                    break
                if ok:
                    values[d] = x
                    p = prods[d] * weight0[x] if d == 0 else prods[d]
                    for message, proj in lookups[d]:
                        m = message.get(tuple([values[k] for k in proj]))
                        if m is None:
                            p = 0
                            break
                        p *= m
                    if p:
                        break
                x += 1
            if x > cap_d:
                tried[d] = -1           # exhausted: back up, and start afresh next visit
                d -= 1
                continue
            tried[d] = x
            for slot, _ in checks[d]:
                sums[slot] += x
            applied[d] = True
            prods[d + 1] = p
            d += 1
        self._steps = steps
        return table

    # ------------------------------------------------------------------ downward pass
    def _downward(self) -> None:
        tree = self.tree
        n = len(tree.order)
        beliefs: list[dict[tuple[int, ...], int]] = [{} for _ in range(n)]
        tick = self._tick
        for i in reversed(range(n)):
            check_deadline()
            p = tree.parent[i]
            if p < 0:
                beliefs[i] = self.tables[i]
                continue
            proj = self.projections[i]
            gathered: dict[tuple[int, ...], int] = {}
            for key, value in beliefs[p].items():
                tick()
                sep = tuple([key[k] for k in proj])
                gathered[sep] = gathered.get(sep, 0) + value
            up = self.messages[i]
            # belief_p summed onto the separator = message_up * message_down, exactly.
            down = {sep: value // up[sep] for sep, value in gathered.items()}
            beliefs[i] = {key: value * down[key[1:]] for key, value in self.tables[i].items()
                          if key[1:] in down}
        mined: list[list[int]] = [[] for _ in range(n)]
        for i in range(n):
            v = tree.order[i]
            acc = [0] * (self.sizes[v] + 1)
            for key, value in beliefs[i].items():
                acc[key[0]] += value
            weighted = sum(k * a for k, a in enumerate(acc))
            mined[v] = _unpack(weighted, self.bits, self.cells + 1)
        self.mined = mined

    # ------------------------------------------------------------------ one completion
    def completion(self, target: int) -> list[int]:
        """Mines per local box in one assignment with ``target`` mines in the component."""
        tree, bits = self.tree, self.bits
        n = len(tree.order)
        counts = [0] * n
        if not n:
            return counts
        by_sep: list[dict[tuple[int, ...], list[tuple[int, ...]]]] = []
        for table in self.tables:
            index: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
            for key in table:
                index.setdefault(key[1:], []).append(key)
            by_sep.append(index)
        stack: list[tuple[int, tuple[int, ...], int]] = [(n - 1, (), target)]
        while stack:
            i, sep, t = stack.pop()
            for key in by_sep[i][sep]:
                if _coef(self.tables[i][key], t, bits):
                    break
            else:  # pragma: no cover - the upward pass guarantees a witness
                raise AssertionError("no assignment for the requested mine count")
            v = tree.order[i]
            counts[v] = key[0]
            kids = tree.children[i]
            msgs = [self.messages[j][tuple([key[k] for k in self.projections[j]])] for j in kids]
            suffix = [1] * (len(kids) + 1)
            for idx in reversed(range(len(kids))):
                suffix[idx] = suffix[idx + 1] * msgs[idx]
            rest = t - key[0] if bits else 0
            for idx, j in enumerate(kids):
                tj = 0
                if bits:
                    tj = next(s for s in range(rest + 1)
                              if _coef(msgs[idx], s, bits) and _coef(suffix[idx + 1], rest - s, bits))
                    rest -= tj
                stack.append((j, tuple([key[k] for k in self.projections[j]]), tj))
        return counts


def count_system(system: ConstraintSystem, order: OrderProvider | None = None) -> EngineResult:
    """Count completions and per-cell mine counts of a constraint system exactly.

    ``order``, if given, supplies each component's elimination order of its boxes (local
    indices ``0..len(component.boxes)-1``); by default a min-fill order is used.

    Parameters
    ----------
    system : ConstraintSystem
        The position's constraints.
    order : OrderProvider, optional
        The elimination order of each component (default: min-fill).

    Returns
    -------
    EngineResult
        The exact answer.

    Examples
    --------
    >>> from minegraph import Board
    >>> from minegraph.constraints import build_system
    >>> r = count_system(build_system(Board.from_text("mines: 1\\n#1#\\n###")))
    >>> r.count, r.mine_counts[0], sorted(r.safe)
    (5, 1, [])
    """
    if not system.consistent_so_far:
        return EngineResult.inconsistent(system.board.hidden, _stats(system, []))
    with_total = system.remaining is not None
    parts = [ComponentDP.of(system, comp, with_total=with_total,
                            order=order(system, comp) if order is not None else None)
             for comp in system.components]
    return combine_parts(system, parts)


def _stats(system: ConstraintSystem, parts: Sequence[CountedPart]) -> dict[str, object]:
    return {"components": len(system.components), "boxes": len(system.boxes),
            "floating": len(system.floating), "width": max((p.width for p in parts), default=0),
            "largest_component": max((p.cells for p in parts), default=0)}


def combine_parts(system: ConstraintSystem, parts: Sequence[CountedPart]) -> EngineResult:
    """The board's exact answer from one :class:`ComponentDP` per component of ``system`` (in
    the order of ``system.components``; results for equal keys may be shared), combined under
    the total mine count. One completion is built only when asked for.

    Parameters
    ----------
    system : ConstraintSystem
        The position's constraints.
    parts : sequence of CountedPart
        One counted part per component.

    Returns
    -------
    EngineResult
        The board's exact answer.
    """
    hidden = system.hidden
    stats = _stats(system, parts)
    if not system.consistent_so_far:
        return EngineResult.inconsistent(hidden, stats)
    with_total = system.remaining is not None
    polys = [p.total for p in parts]
    remaining = system.remaining if with_total else None
    if chooses_float(polys, len(system.floating), remaining):
        answer = combine_float(polys, len(system.floating), remaining)
        if answer is not None:
            return _float_result(system, parts, polys, answer, stats)
        stats["float_declined"] = True      # balls too wide even at the top precision
    combined = combine(polys, len(system.floating), remaining)
    count = combined.count
    if count == 0:
        return EngineResult.inconsistent(hidden, stats)
    # Per box (and the floating and forced cells), spread over cells only when read; the
    # forced cells gathered box by box rather than by a pass over every cell.
    groups: list[tuple[Collection[int], int]] = [(system.safe, 0), (system.mines, count)]
    safe, mines = list(system.safe), list(system.mines)
    for cells, per_cell in _per_cell_counts(system, parts, combined):
        groups.append((cells, per_cell))
        if per_cell == 0:
            safe.extend(cells)
        elif per_cell == count:
            mines.extend(cells)

    def completer() -> frozenset[int]:
        return _one_completion(system, parts, polys, combined.weight)

    return EngineResult.counted(count, GroupedCounts(hidden, count, groups), None, stats,
                                completer, forced=(frozenset(safe), frozenset(mines)))


def _per_cell_counts(system: ConstraintSystem, parts: Sequence[CountedPart],
                     combined: Combination) -> list[tuple[Sequence[int], int]]:
    """The floating cells and every box, each with the number of completions in which one
    of its cells holds a mine (cells of a box, and floating cells, are interchangeable)."""
    out: list[tuple[Sequence[int], int]] = []
    if system.floating:
        out.append((system.floating, combined.per_floating))
    boxes = system.boxes
    for part, component, sensitivity in zip(parts, system.components, combined.sensitivity):
        for local, box_id in enumerate(component.boxes):
            box = boxes[box_id]
            mined = sum([m * s for m, s in zip(part.mined[local], sensitivity)])
            out.append((box.cells, mined // box.size))
    return out


def forced_by_parts(system: ConstraintSystem, parts: Sequence[CountedPart]
                    ) -> tuple[frozenset[int], frozenset[int]] | None:
    """The cells forced safe and forced mined, from one :class:`ComponentDP` per component
    (as :func:`combine_parts` finds them, without a count per cell), or ``None`` when the
    system has no completion. Exact arithmetic: meant for boards of playing size.

    Parameters
    ----------
    system : ConstraintSystem
        The position's constraints.
    parts : sequence of CountedPart
        One counted part per component.

    Returns
    -------
    (frozenset of int, frozenset of int) or None
        The safe cells and the mines, or ``None``.

    Examples
    --------
    >>> from minegraph import Board
    >>> from minegraph.constraints import build_system
    >>> system = build_system(Board.from_text("mines: 1\\n#1#-##"))
    >>> parts = [ComponentDP.of(system, c, with_total=True) for c in system.components]
    >>> forced_by_parts(system, parts)
    (frozenset({4, 5}), frozenset())
    """
    if not system.consistent_so_far:
        return None
    combined = combine([p.total for p in parts], len(system.floating), system.remaining)
    count = combined.count
    if count == 0:
        return None
    safe, mines = list(system.safe), list(system.mines)
    for cells, per_cell in _per_cell_counts(system, parts, combined):
        if per_cell == 0:
            safe.extend(cells)
        elif per_cell == count:
            mines.extend(cells)
    return frozenset(safe), frozenset(mines)


def _float_result(system: ConstraintSystem, parts: Sequence[CountedPart], polys: list[list[int]],
                  answer: FloatCombination, stats: dict[str, object]) -> EngineResult:
    """The answer from a floating-point combination: every hidden cell's probability as a
    float (0.0 and 1.0 only when proven), forced cells exactly, the count as its ``log10``.

    The probabilities are built as one array of doubles over the board's cells
    (:class:`~minegraph.lazy.FloatProbabilities`): each box's value once (:func:`_box_value`,
    in C by :func:`minegraph.kernel.box_shares` when the kernel is built), spread over its
    cells by numpy, rather than a dictionary of a million entries."""
    hidden = system.hidden
    if not answer.consistent:
        return EngineResult.inconsistent(hidden, stats)
    stats.update({"arithmetic": "float", "solutions_log10": answer.log10_count,
                  "precision_bits": answer.precision})
    import numpy as np
    values = np.full(len(system.board.states), np.nan)
    exceptions: dict[int, Probability] = {}
    values[list(system.safe)] = 0.0
    values[list(system.mines)] = 1.0
    safe, mines = list(system.safe), list(system.mines)
    if system.floating:
        _place(values, exceptions, system.floating, answer.floating)
        if answer.floating == 0.0:
            safe.extend(system.floating)
        elif answer.floating == 1.0:
            mines.extend(system.floating)
    boxes = system.boxes
    if boxes:
        by_box = _box_values(parts, system.components, answer.distribution, len(boxes))
        cells = [b.cells for b in boxes]
        flat = np.fromiter(chain.from_iterable(cells), np.intp)
        per_cell = np.repeat(by_box, np.fromiter(map(len, cells), np.intp, len(cells)))
        values[flat] = per_cell
        safe.extend(flat[per_cell == 0.0].tolist())
        mines.extend(flat[per_cell == 1.0].tolist())
        below = np.flatnonzero(np.isnan(by_box)).tolist()     # below the double range
        for b, value in _box_values_exactly(parts, system.components, answer.distribution,
                                            below):
            _place(values, exceptions, boxes[b].cells, value)
            if type(value) is float and value in (0.0, 1.0):
                (safe if value == 0.0 else mines).extend(boxes[b].cells)
    remaining = system.remaining
    floating = len(system.floating)
    # Only which totals are possible matters for one completion: 1 where C(F, R - u) > 0.
    reach = [1 if remaining is None or 0 <= remaining - u <= floating else 0
             for u in range(sum(len(p) for p in polys) - len(polys) + 1)]

    def completer() -> frozenset[int]:
        return _one_completion(system, parts, polys, reach)

    probabilities = FloatProbabilities(hidden, values.tobytes(), exceptions)
    return EngineResult(True, QUESTIONS - {"count"}, None, None, frozenset(safe),
                        frozenset(mines), probabilities, None, stats, completer)


#: The nearest double to a probability below the double range is 0.0 or a subnormal: the
#: array of a float answer holds at least this there (never a 0.0 that claims a safe cell).
_SMALLEST_DOUBLE = 5e-324


def _place(values: Any, exceptions: dict[int, Probability], cells: Sequence[int],
           value: Probability) -> None:
    """``value`` on ``cells`` of the array of a float answer; a value the array cannot hold
    exactly (a Fraction, or a float below the double range that is not 0.0) also goes to
    ``exceptions``, with its nearest double (at least 5e-324) in the array."""
    if type(value) is float and (value == 0.0 or value >= SMALLEST_FLOAT):
        values[list(cells)] = value
        return
    values[list(cells)] = max(float(value), _SMALLEST_DOUBLE)
    exceptions.update(dict.fromkeys(cells, value))


def _box_values(parts: Sequence[CountedPart], components: Sequence[Component],
                distributions: Sequence[Sequence[Share]], nboxes: int) -> Any:
    """Every box's value (:func:`_box_value`) in one numpy array by box index, ``nan`` where
    it is not a double in the range (those the caller answers one by one)."""
    import numpy as np
    from minegraph.kernel import Declined, box_shares
    ids: list[int] = []
    chunks: list[bytes] = []
    for part, component, distribution in zip(parts, components, distributions):
        likely = [t for t, p in enumerate(distribution) if p]
        shares = [distribution[t] for t in likely]
        ids.extend(component.boxes)
        if all(type(x) is float for x in shares):
            try:
                chunks.append(box_shares(part.mined, component.key[0], part.total, likely,
                                         cast("list[float]", shares)))
                continue
            except Declined:            # pure Python: the same step below
                pass
        sizes = component.key[0]
        found = [_box_value(part.mined[b], sizes[b], part.total, likely, distribution)
                 for b in range(len(sizes))]
        chunks.append(array("d", [x if type(x) is float and (x == 0.0 or x >= _SAFE_SUM)
                                  else math.nan for x in found]).tobytes())
    out = np.empty(nboxes)
    out[ids] = np.frombuffer(b"".join(chunks))
    return out


def _box_values_exactly(parts: Sequence[CountedPart], components: Sequence[Component],
                        distributions: Sequence[Sequence[Share]], boxes: list[int]
                        ) -> list[tuple[int, Probability]]:
    """:func:`_box_value` of each box in ``boxes`` (box indices), with the box."""
    wanted = set(boxes)
    out: list[tuple[int, Probability]] = []
    for part, component, distribution in zip(parts, components, distributions):
        if wanted.isdisjoint(component.boxes):
            continue
        likely = [t for t, p in enumerate(distribution) if p]
        for local, b in enumerate(component.boxes):
            if b in wanted:
                out.append((b, _box_value(part.mined[local], component.key[0][local],
                                          part.total, likely, distribution)))
    return out


def _box_value(mined: Sequence[int], size: int, totals: Sequence[int], likely: Sequence[int],
               distribution: Sequence[Share]) -> Probability:
    """A box's mine probability from its part's distribution of mines (``distribution[t]``:
    the share of ``t`` mines in the part, ``likely`` the ``t`` where it is not 0): 0.0 when
    no likely count puts a mine in it, 1.0 when every one fills it (both proven), else
    :func:`_mixed` (given ``t`` mines in the part, the box's cells hold ``mined[t] /
    totals[t]`` of them). The Python reference of :func:`minegraph.kernel.box_shares`.

    Examples
    --------
    >>> _box_value([0, 1, 2], 2, [1, 2, 1], [1, 2], [0.0, 0.5, 0.5])
    0.625
    """
    if all(mined[t] == 0 for t in likely):
        return 0.0
    if all(mined[t] == size * totals[t] for t in likely):
        return 1.0
    return _mixed([(mined[t], size * totals[t], distribution[t]) for t in likely])


#: A float sum at least this large lost nothing to underflow: every term that underflowed
#: (below the smallest normal double, 2**-1022) weighs less than 2**-100 of it.
_SAFE_SUM = 2.0 ** -922


def _mixed(terms: list[tuple[int, int, Share]]) -> Probability:
    """``sum(mined / ways * share)``, a box's probability from its part's distribution of
    mines, as a float strictly between 0 and 1; below the double range (a share that is a
    Fraction, or products that underflow), exactly from the shares, as a Fraction of 17
    significant digits (:func:`~minegraph.present.probability_float`)."""
    if all(isinstance(share, float) for _, _, share in terms):
        # int / int is the correctly rounded quotient, as float(Fraction(mined, ways)) is,
        # without building the Fraction (a million boxes on a scattered 1000x1000 board).
        value = sum(mined / ways * share for mined, ways, share in terms)
        if value >= _SAFE_SUM:
            return min(value, 1.0 - 2.0 ** -53)
    exact = sum((Fraction(mined, ways) * Fraction(share) for mined, ways, share in terms),
                Fraction(0))
    x = probability_float(exact)
    return x if isinstance(x, float) else Fraction(scientific_text(x))


def _one_completion(system: ConstraintSystem, parts: Sequence[CountedPart], polys: list[list[int]],
                    weight: list[int]) -> frozenset[int]:
    """Pick mine counts per component with a non-zero total weight, then cells per box."""
    # reachable[j]: totals the components j.. can hold together.
    reachable: list[set[int]] = [set() for _ in range(len(polys) + 1)]
    reachable[-1] = {0}
    for j in reversed(range(len(polys))):
        reachable[j] = {t + u for t, x in enumerate(polys[j]) if x for u in reachable[j + 1]}
    goal = next(u for u in sorted(reachable[0]) if u < len(weight) and weight[u])
    mines = set(system.mines)
    so_far = 0
    for j, (part, component) in enumerate(zip(parts, system.components)):
        t = next(t for t, x in enumerate(polys[j]) if x and goal - so_far - t in reachable[j + 1])
        so_far += t
        for local, k in enumerate(part.completion(t if part.bits else 0)):
            mines.update(system.boxes[component.boxes[local]].cells[:k])
    if system.remaining is not None:
        mines.update(system.floating[:system.remaining - goal])
    return frozenset(mines)


class DPEngine(SystemEngine):
    """The default engine: exact counts and probabilities by DP over tree decompositions.

    Parameters
    ----------
    order
        Supplies each component's elimination order (min-fill by default).

    Notes
    -----
    Cost: per component, linear in its boxes times ``(max box size + 1) ** (width + 1)``
    table entries at worst, for the min-fill decomposition's width.

    Examples
    --------
    >>> from minegraph import Board
    >>> r = DPEngine().run(Board.from_text("mines: 1\\n#1#\\n###"))
    >>> r.count, r.mine_counts[0], r.mine_counts[4]
    (5, 1, 1)
    """

    name = "dp"
    answers = QUESTIONS

    def __init__(self, order: OrderProvider | None = None) -> None:
        self.order = order

    def run_system(self, system: ConstraintSystem) -> EngineResult:
        return count_system(system, order=self.order)
