"""The combination of :mod:`minegraph.engines.combine` in floating point, with proven accuracy.

On big boards the exact figures do not fit: every part's sensitivities have about as many
bits as the board's count (``log2 count`` grows with the number of cells), so the exact output
grows with the square of the board (at 1000x1000 scattered, about 10**10 bits). Here the same
subproduct tree runs on *balls* (FLINT's ``arb_poly``: a midpoint and a proven error radius,
exponents unbounded, so nothing underflows or overflows), and each part's answer is its
distribution of mines,

    pi_c(t) = P_c(t) * S_c(t) / sum_t' P_c(t') * S_c(t')

(the share of completions in which part ``c`` holds ``t`` mines), with the floating cells'
probability ``sum_u Q(u) C(F-1, R-u-1) / sum_u Q(u) C(F, R-u)``. Every reported value has a
relative error radius below :data:`RELATIVE_TOLERANCE`, checked on the balls themselves; when a
ball is too wide (or cannot tell 0 from a tiny value) the whole computation is repeated at a
doubled precision, up to :data:`MAX_PRECISION` bits, after which the caller falls back to the
exact algorithm. A value is exactly 0 only when its ball is the exact zero (a sum of exact
zeros); every other probability is kept strictly between 0 and 1 when rounded to a float.
"""

from __future__ import annotations

import heapq
import threading
from dataclasses import dataclass
from math import log10
from typing import Any

__all__ = ["FloatCombination", "combine_float", "RELATIVE_TOLERANCE", "MAX_PRECISION"]

#: Largest relative error radius accepted for any reported probability.
RELATIVE_TOLERANCE = 1e-13

#: Working precisions tried, in bits, before giving up (the caller then combines exactly).
START_PRECISION = 64
MAX_PRECISION = 1024

#: python-flint's working precision is one global setting: one float combination at a time.
_PRECISION_LOCK = threading.Lock()

#: Smallest and largest floats strictly between 0 and 1.
_ABOVE_ZERO = 5e-324
_BELOW_ONE = 1.0 - 2.0 ** -53


@dataclass
class FloatCombination:
    """The board-wide figures of a set of parts, as floats.

    Attributes
    ----------
    consistent
        Whether any completion exists.
    distribution
        Per part, ``distribution[c][t]``: the probability that part ``c`` holds ``t`` mines
        (exactly ``0.0`` only when proven impossible).
    floating
        The mine probability of each floating cell (``0.0``/``1.0`` only when proven).
    log10_count
        ``log10`` of the number of completions (relative error below 1e-12).
    precision
        The working precision, in bits, that met the tolerance (0 without a total).
    """

    consistent: bool
    distribution: list[list[float]]
    floating: float
    log10_count: float
    precision: int


def combine_float(polys: list[list[int]], floating: int,
                  remaining: int | None) -> FloatCombination | None:
    """Combine parts' mine-count polynomials as :func:`~minegraph.engines.combine.combine`
    does, but answer each part's distribution of mines in floating point.

    Parameters
    ----------
    polys : list of list of int
        ``polys[c][t]``: assignments of part ``c`` holding ``t`` mines (a single plain count
        each without a total).
    floating : int
        Number of floating cells.
    remaining : int or None
        Mines for the parts and floating cells together, ``None`` without a total.

    Returns
    -------
    FloatCombination or None
        ``None`` when even :data:`MAX_PRECISION` bits could not prove the tolerance (the
        caller combines exactly instead).

    Examples
    --------
    One part with 2 ways to hold 1 mine, next to 1 floating cell, 1 mine in all: the part
    holds the mine in every completion.

    >>> c = combine_float([[0, 2]], 1, remaining=1)
    >>> c.distribution, c.floating, round(10 ** c.log10_count, 9)
    ([[0.0, 1.0]], 0.0, 2.0)

    30 free pairs of cells and 50 floating cells (110 cells) with 40 mines: every placement
    of the 40 mines counts, so each cell is a mine with probability 40/110.

    >>> c = combine_float([[1, 2, 1]] * 30, 50, remaining=40)
    >>> round(sum(t * p for t, p in enumerate(c.distribution[0])) / 2 * 110, 9)
    40.0
    >>> round(c.floating * 110, 9)
    40.0
    """
    if remaining is None:
        return _without_total(polys, floating)
    with _PRECISION_LOCK:
        from flint import ctx
        saved = ctx.prec
        try:
            # Rounding errors grow about like 100 * D ulps over the tree (measured: 2**-43.4
            # relative at D = 16,000 with 64 bits): start where the tolerance is likely met.
            degree = sum(len(p) - 1 for p in polys)
            precision = max(START_PRECISION, 50 + (100 * degree + 1).bit_length())
            while precision <= MAX_PRECISION:
                ctx.prec = precision
                answer = _with_total(polys, floating, remaining, precision)
                if answer is not None:
                    return answer
                precision *= 2
            return None
        finally:
            ctx.prec = saved


def _without_total(polys: list[list[int]], floating: int) -> FloatCombination:
    """Without a total the parts are independent: each holds its own single count."""
    consistent = all(p[0] > 0 for p in polys)
    log10_count = sum(_log10(p[0]) for p in polys) + floating * log10(2) if consistent \
        else float("-inf")
    return FloatCombination(consistent, [[1.0] for _ in polys], 0.5 if floating else 0.0,
                            log10_count, 0)


def _log10(n: int) -> float:
    """``log10`` of a positive integer of any size."""
    shift = max(0, n.bit_length() - 1000)
    return log10(n >> shift) + shift * log10(2)


def _with_total(polys: list[list[int]], floating: int, remaining: int,
                precision: int) -> FloatCombination | None:
    """One attempt at ``precision`` bits; ``None`` when a ball is too wide."""
    from flint import arb, arb_poly

    degree_total = sum(len(p) - 1 for p in polys)
    if any(not any(p) for p in polys) or remaining < 0:
        return _inconsistent(polys)
    if not polys:
        return _no_parts(floating, remaining)
    # Equal polynomials form one group, entering the tree as P^m (as in the exact algorithm).
    groups: dict[tuple[int, ...], list[int]] = {}
    for c, p in enumerate(polys):
        groups.setdefault(tuple(p), []).append(c)
    keys = list(groups)
    single = [arb_poly([arb(x) for x in key]) for key in keys]
    polys_of: list[Any] = []
    power_below: list[Any] = []
    degree: list[int] = []
    children: list[tuple[int, int] | None] = []
    heap: list[tuple[int, int]] = []
    for g, key in enumerate(keys):
        m = len(groups[key])
        below = single[g] ** (m - 1) if m > 1 else None
        power_below.append(below)
        polys_of.append(below * single[g] if below is not None else single[g])
        degree.append(m * (len(key) - 1))
        children.append(None)
        heap.append((degree[g], g))
    heapq.heapify(heap)
    while len(heap) > 1:
        da, a = heapq.heappop(heap)
        db, b = heapq.heappop(heap)
        polys_of.append(polys_of[a] * polys_of[b])
        degree.append(da + db)
        children.append((a, b))
        heapq.heappush(heap, (da + db, len(polys_of) - 1))
    root = heap[0][1]
    # Weights w[u] = C(F, R - u) for u = 0 .. D, and the floating cells' share
    # C(F-1, R-u-1) = w[u] * (R - u) / F; exact zeros outside 0 <= R - u <= F.
    top = degree_total + 1
    weight = [arb(0)] * top
    lo, hi = max(0, remaining - floating), min(remaining, degree_total)
    if lo > hi:
        return _inconsistent(polys)
    value = arb.bin_uiui(floating, remaining - lo)
    for u in range(lo, hi + 1):
        weight[u] = value
        k = remaining - u            # C(F, k-1) = C(F, k) * k / (F - k + 1)
        if u < hi:
            value = value * k / (floating - k + 1)
    q = polys_of[root].coeffs()
    q += [arb(0)] * (top - len(q))
    count = sum((x * w for x, w in zip(q, weight) if not (x.is_zero() or w.is_zero())), arb(0))
    if count.is_zero():
        return _inconsistent(polys)
    if count.contains(0):
        return None
    if floating:
        mined = sum((x * w * (remaining - u) for u, (x, w) in enumerate(zip(q, weight))
                     if remaining > u and not (x.is_zero() or w.is_zero())), arb(0)) / floating
        # Proven 0 or 1 when every completion puts no mine, or a mine on every floating cell.
        feasible = {remaining - u for u, (x, w) in enumerate(zip(q, weight))
                    if not (x.is_zero() or w.is_zero())}
        if feasible == {0}:
            share = 0.0
        elif feasible == {floating}:
            share = 1.0
        else:
            found = _share(mined, count)
            if found is None:
                return None
            share = found
    else:
        share = 0.0
    # Down the tree: reversed sensitivities, as in the exact algorithm.
    leaf_rs: dict[int, Any] = {}
    stack = [(root, arb_poly(list(reversed(weight))))]
    while stack:
        v, rs = stack.pop()
        kids = children[v]
        if kids is None:
            leaf_rs[v] = rs
            continue
        a, b = kids
        dv = degree[v]
        stack.append((a, (polys_of[b] * rs).truncate(dv + 1).right_shift(degree[b])))
        stack.append((b, (polys_of[a] * rs).truncate(dv + 1).right_shift(degree[a])))
    distribution: list[list[float]] = [[] for _ in polys]
    for g, key in enumerate(keys):
        rs = leaf_rs[g]
        d = len(key) - 1
        below = power_below[g]
        if below is not None:
            rs = (below * rs).truncate(degree[g] + 1).right_shift(degree[g] - d)
        sens = rs.coeffs()[:d + 1]
        sens += [arb(0)] * (d + 1 - len(sens))
        sens.reverse()
        terms = [arb(0) if x == 0 or s.is_zero() else s * x for x, s in zip(key, sens)]
        total = sum(terms, arb(0))
        if total.is_zero() or total.contains(0):
            return None
        nonzero = [t for t, term in enumerate(terms) if not term.is_zero()]
        row = [0.0] * len(terms)
        if len(nonzero) == 1:
            row[nonzero[0]] = 1.0          # the only possible count: proven
        else:
            for t in nonzero:
                share_t = _share(terms[t], total)
                if share_t is None:
                    return None
                row[t] = share_t
        for c in groups[key]:
            distribution[c] = list(row)
    log10_count = float((count.log() / arb(10).log()).mid())
    return FloatCombination(True, distribution, share, log10_count, precision)


def _share(part: Any, whole: Any) -> float | None:
    """``part / whole`` (a share of a sum of non-negative terms, ``part`` not the exact zero
    nor the whole sum) as a float strictly between 0 and 1, proven to
    :data:`RELATIVE_TOLERANCE`; ``None`` when the balls are too wide."""
    if part.contains(0):
        return None
    ratio = part / whole
    if ratio.rad() > ratio.mid() * RELATIVE_TOLERANCE:
        return None
    return min(max(float(ratio.mid()), _ABOVE_ZERO), _BELOW_ONE)


def _no_parts(floating: int, remaining: int) -> FloatCombination:
    """Only floating cells: ``C(F, R)`` completions, each cell a mine ``R / F`` of them."""
    from flint import arb
    if remaining > floating:
        return _inconsistent([])
    count = arb.bin_uiui(floating, remaining)
    share = remaining / floating if floating else 0.0
    return FloatCombination(True, [], min(share, 1.0), float((count.log() / arb(10).log()).mid()),
                            0)


def _inconsistent(polys: list[list[int]]) -> FloatCombination:
    return FloatCombination(False, [[0.0] * len(p) for p in polys], 0.0, float("-inf"), 0)
