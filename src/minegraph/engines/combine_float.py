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
zeros); every other probability is kept strictly between 0 and 1 when rounded to a float. A
share below the double range (:data:`~minegraph.present.SMALLEST_FLOAT`, about 2.2e-308) is
no float: it is given as a :class:`~fractions.Fraction`, the ball's midpoint to 17
significant digits, still within the tolerance (a float there would be 0.0 or off by orders
of magnitude).
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from fractions import Fraction
from math import log10
from typing import Any, NamedTuple

from minegraph.engines.combine import down_tree, merge_tree
from minegraph.present import SMALLEST_FLOAT, scientific_text

__all__ = ["FloatCombination", "combine_float", "RELATIVE_TOLERANCE", "MAX_PRECISION"]

#: Largest relative error radius accepted for any reported probability.
RELATIVE_TOLERANCE = 1e-13

#: Working precisions tried, in bits, before giving up (the caller then combines exactly).
START_PRECISION = 64
MAX_PRECISION = 1024

#: python-flint's working precision is one global setting: one float combination at a time.
_PRECISION_LOCK = threading.Lock()

#: The largest float strictly below 1.
_BELOW_ONE = 1.0 - 2.0 ** -53

#: A share: a float, or below the double range a Fraction (see the module docstring).
Share = float | Fraction


@dataclass
class FloatCombination:
    """The board-wide figures of a set of parts, as floats.

    Attributes
    ----------
    consistent
        Whether any completion exists.
    distribution
        Per part, ``distribution[c][t]``: the probability that part ``c`` holds ``t`` mines
        (exactly ``0.0`` only when proven impossible; a Fraction below the double range).
    floating
        The mine probability of each floating cell (``0.0``/``1.0`` only when proven; a
        Fraction below the double range).
    log10_count
        ``log10`` of the number of completions (relative error below 1e-12).
    precision
        The working precision, in bits, that met the tolerance (0 without a total).
    """

    consistent: bool
    distribution: list[list[Share]]
    floating: Share
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
    lo, hi = max(0, remaining - floating), min(remaining, degree_total)
    if lo > hi:
        return _inconsistent(polys)
    # Equal polynomials form one group, entering the tree as P^m (as in the exact algorithm).
    groups: dict[tuple[int, ...], list[int]] = {}
    for c, p in enumerate(polys):
        groups.setdefault(tuple(p), []).append(c)
    keys = list(groups)
    sizes = [len(groups[k]) for k in keys]
    # Tails may be dropped only when every weight over 0..D is positive: then no answer is
    # an exact zero that a dropped tail could fake (see _Pruner).
    prune = lo == 0 and hi == degree_total
    support = [_support(key) for key in keys]
    tilt, means = _saddle(keys, support, sizes, floating, remaining) if prune else (1.0, None)
    x = arb(tilt)
    pruner = _Pruner(precision, prune)
    # Leaves: the tilted distributions q(t) = P(t) x^t / Z over each part's support (the
    # counts from its first to its last non-zero coefficient: most parts must hold some
    # mines, and their leading zeros were two thirds of all coefficients on a 1000x1000
    # board), and log10 of prod Z^m.
    single: list[_Window] = []
    log_scale = arb(0)
    for (first, last), key, m in zip(support, keys, sizes):
        raw = []
        power = x ** first
        for v in key[first:last + 1]:
            raw.append(power * v if v else arb(0))
            power *= x
        z = sum(raw, arb(0))
        single.append(_Window(first, arb_poly([v / z for v in raw])))
        log_scale += m * z.log()
    mean = [m * means[g] if means is not None else 0.0 for g, m in enumerate(sizes)]
    polys_of: list[_Window] = []
    power_below: list[_Window | None] = []
    for g, key in enumerate(keys):
        m = sizes[g]
        leaf = single[g]
        below = pruner.power(leaf, m - 1, mean[g] / m) if m > 1 else None
        power_below.append(below)
        polys_of.append(pruner.up(_times(below, leaf), mean[g]) if below is not None else leaf)
    degree = [m * (len(key) - 1) for key, m in zip(keys, sizes)]
    centre = list(mean)
    children, root = merge_tree(degree)
    for a, b in children[len(keys):]:  # type: ignore[misc]  # the merges: never None
        centre.append(centre[a] + centre[b])
        polys_of.append(pruner.up(_times(polys_of[a], polys_of[b]), centre[-1]))
        degree.append(degree[a] + degree[b])
    need = _needed(children, support, polys_of, power_below, degree)
    # Tilted weights w[u] = C(F, R - u) x^-u, exact zeros outside 0 <= R - u <= F, and the
    # floating cells' share C(F-1, R-u-1) x^-u = w[u] * (R - u) / F; only the root's needed
    # totals are ever read.
    base, end = need[root]
    weight = [arb(0)] * (end - base + 1)
    start, stop = max(lo, base), min(hi, end)
    if start <= stop:
        value = arb.bin_uiui(floating, remaining - start) / x ** start
        for u in range(start, stop + 1):
            weight[u - base] = value
            k = remaining - u            # C(F, k-1) = C(F, k) * k / (F - k + 1)
            if u < stop:
                value = value * k / ((floating - k + 1) * x)
    if prune:
        pruner.set_weight_scale(_largest_weight(floating, remaining, tilt, lo, hi))
    rs_root = pruner.down(_Window(degree_total - end, arb_poly(list(reversed(weight)))),
                          degree_total - centre[root])
    # The root's window: Q(u) for u in first .. first + len(q) - 1 (within the needed totals),
    # zero elsewhere.
    first = polys_of[root].offset
    q = polys_of[root].poly.coeffs()
    terms = [(u, a * weight[u - base]) for u, a in enumerate(q, first)
             if not (a.is_zero() or weight[u - base].is_zero())]
    count = sum((t for _, t in terms), arb(0))
    if count.is_zero():
        return _inconsistent(polys)

    def child(v: int, node: int, sibling: int, rs: _Window) -> _Window:
        # rs[j] is the sensitivity at total degree[node] - j: only the needed totals.
        t_low, t_high = need[node]
        j_low = degree[node] - t_high
        sliced = _middle(polys_of[sibling], rs, degree[sibling] + j_low,
                         degree[sibling] + degree[node] - t_low)
        return pruner.down(_Window(sliced.offset + j_low, sliced.poly),
                           degree[node] - centre[node])

    # Down the tree: reversed sensitivities, as in the exact algorithm.
    leaf_rs = down_tree(children, root, rs_root, child)
    # Everything dropped lowers each sensitivity by at most ``slack`` (and the count too).
    slack = pruner.slack()
    widen = arb(0, slack) if prune else arb(0)
    count += widen
    if count.contains(0):
        return None
    if floating:
        mined = sum((t * (remaining - u) for u, t in terms if remaining > u), arb(0)) / floating
        mined += arb(0, slack * max(1, remaining) / floating) if prune else arb(0)
        # Proven 0 or 1 when every completion puts no mine, or a mine on every floating cell.
        if prune:
            # Every weight is positive: the parts' possible totals are those of Q, which
            # pruning may hide, so take them from the supports: one total u0 alone gives
            # (R - u0) / F exactly; two or more give a share strictly inside (0, 1).
            least = sum(m * first for (first, _), m in zip(support, sizes))
            most = sum(m * last for (_, last), m in zip(support, sizes))
            feasible = {remaining - least} if least == most else set()
        else:
            feasible = {remaining - u for u, _ in terms}
        share: Share
        if feasible == {0}:
            share = 0.0
        elif feasible == {floating}:
            share = 1.0
        elif len(feasible) == 1 and prune:
            share = _share(arb(feasible.pop()), arb(floating)) or 0.0
        else:
            found = _share(mined, count)
            if found is None:
                return None
            share = found
    else:
        share = 0.0
    distribution: list[list[Share]] = [[] for _ in polys]
    for g, key in enumerate(keys):
        rs = leaf_rs[g]
        d = len(key) - 1
        below = power_below[g]
        if below is not None:
            rs = _middle(below, rs, degree[g] - d, degree[g])
        # rs[j] is the sensitivity at count d - j: only the support's counts are read, and
        # leaf[i] is the tilted coefficient of count first + i.
        first, last = support[g]
        sens = _dense(rs, d - last, last - first + 1)
        sens.reverse()
        leaf = single[g].poly
        terms_g = [arb(0) if x_t == 0 else (s + widen) * leaf[i]
                   for i, (x_t, s) in enumerate(zip(key[first:last + 1], sens))]
        nonzero = [i for i, term in enumerate(terms_g) if not term.is_zero()]
        total = sum(terms_g, arb(0))
        if total.contains(0):
            return None
        row: list[Share] = [0.0] * len(key)
        if len(nonzero) == 1:
            row[first + nonzero[0]] = 1.0          # the only possible count: proven
        else:
            for i in nonzero:
                share_t = _share(terms_g[i], total)
                if share_t is None:
                    return None
                row[first + i] = share_t
        for c in groups[key]:
            distribution[c] = list(row)
    log10_count = float(((count.log() + log_scale) / arb(10).log()).mid())
    return FloatCombination(True, distribution, share, log10_count, precision)


def _needed(children: list[tuple[int, int] | None], support: list[tuple[int, int]],
            polys_of: list[_Window], power_below: list[_Window | None],
            degree: list[int]) -> list[tuple[int, int]]:
    """Per node, the range of its totals whose sensitivity the down pass reads.

    A leaf needs every count of its support (a group of ``m`` equal parts, its support plus
    the window of the other ``m - 1``); a node needs each child's needed totals plus its
    sibling's kept window. The sensitivities themselves span the tilted weights' width
    (thousands of totals on a 1000x1000 board) where the windows span hundreds: the rest is
    never read, so never computed.
    """
    need: list[tuple[int, int]] = []
    for g, (first, last) in enumerate(support):
        below = power_below[g]
        low, high = _span(below) if below is not None else (0, 0)
        need.append((low + first, min(high + last, degree[g])))
    for v in range(len(support), len(children)):
        a, b = children[v]  # type: ignore[misc]  # merges: never None
        (a_low, a_high), (b_low, b_high) = _span(polys_of[a]), _span(polys_of[b])
        low = min(need[a][0] + b_low, need[b][0] + a_low)
        high = max(need[a][1] + b_high, need[b][1] + a_high)
        need.append((max(low, 0), min(high, degree[v])))
    return need


def _support(key: tuple[int, ...]) -> tuple[int, int]:
    """The first and last index of a non-zero coefficient (there is one)."""
    first = next(t for t, v in enumerate(key) if v)
    last = len(key) - 1 - next(t for t, v in enumerate(reversed(key)) if v)
    return first, last


def _span(w: _Window) -> tuple[int, int]:
    """The first and last exponent a window holds (its offset twice when empty)."""
    return w.offset, w.offset + max(w.poly.length(), 1) - 1


def _largest_weight(floating: int, remaining: int, tilt: float, lo: int, hi: int) -> Any:
    """An upper bound on every tilted weight ``C(F, R - u) x^-u``, ``lo <= u <= hi``.

    The ratio of consecutive weights, ``w[u+1] / w[u] = k / ((F - k + 1) x)`` with
    ``k = R - u``, falls as ``u`` grows: the weights rise while ``k (1 + x) >= (F + 1) x``,
    then fall, so the largest is at the first ``u`` past that point (found exactly, ``x``
    being a float), clamped to ``lo .. hi``.
    """
    from flint import arb
    x = Fraction(tilt)
    k0 = math.ceil((floating + 1) * x / (1 + x))      # w rises from u to u+1 iff R-u >= k0
    u = min(max(remaining - k0 + 1, lo), hi)
    return (arb.bin_uiui(floating, remaining - u) / arb(tilt) ** u).abs_upper()


class _Window(NamedTuple):
    """A polynomial ``sum_i poly[i] * x**(offset + i)``: only the window of coefficients that
    pruning kept is stored (kept as explicit zeros, a dropped prefix made every later product
    as long as the tree's degree)."""

    offset: int
    poly: Any


def _times(a: _Window, b: _Window) -> _Window:
    """The product of two windows."""
    return _Window(a.offset + b.offset, a.poly * b.poly)


def _middle(p: _Window, rs: _Window, low: int, high: int) -> _Window:
    """Coefficients ``low .. high`` of ``p * rs`` as a window indexed from ``low`` (the down
    pass's truncated shifted product): only the coefficients that can reach the slice are
    multiplied."""
    from flint import arb_poly
    a, b = p.poly, rs.poly
    base = p.offset + rs.offset       # the exponent of a[0] * b[0]
    need = high - base + 1            # the product's coefficients 0 .. need-1 matter
    if need <= 0 or a.length() == 0 or b.length() == 0:
        return _Window(0, arb_poly())
    if a.length() > need:
        a = a.truncate(need)
    if b.length() > need:
        b = b.truncate(need)
    skip = low - base
    # a[i] * b[j] reaches the slice only if i + j >= skip: drop what cannot, in both.
    drop_a = max(0, skip - (b.length() - 1))
    drop_b = max(0, skip - (a.length() - 1))
    if drop_a:
        a = a.right_shift(drop_a)
    if drop_b:
        b = b.right_shift(drop_b)
    skip -= drop_a + drop_b
    product = a * b
    if product.length() > need - drop_a - drop_b:
        product = product.truncate(need - drop_a - drop_b)
    if skip >= 0:
        return _Window(0, product.right_shift(skip) if skip else product)
    return _Window(-skip, product)


def _dense(w: _Window, start: int, n: int) -> list[Any]:
    """Coefficients ``start .. start + n - 1`` of a window, zeros outside it."""
    from flint import arb
    coeffs = [arb(0)] * n
    for i, c in enumerate(w.poly.coeffs()):
        j = w.offset + i - start
        if 0 <= j < n:
            coeffs[j] = c
    return coeffs


def _saddle(keys: list[tuple[int, ...]], support: list[tuple[int, int]], sizes: list[int],
            floating: int, remaining: int) -> tuple[float, list[float]]:
    """The tilt ``x`` at which the parts' expected number of mines under ``P(t) x^t`` equals
    the number where the tilted weights ``C(F, R - u) x^-u`` peak, and each group's mean.

    Any ``x > 0`` gives the same answers; this one concentrates every polynomial of the tree
    around a known index, so the negligible tails can be dropped (the pruning's efficiency,
    not its correctness, depends on it).
    """
    import numpy as np
    # Only the non-zero coefficients, group after group (a dense table padded to the widest
    # group was 40 times larger on a scattered 1000x1000 board).
    logs: list[float] = []
    ts: list[int] = []
    starts: list[int] = []
    for key, (first, last) in zip(keys, support):
        starts.append(len(ts))
        for t, v in enumerate(key[first:last + 1], first):
            if v:
                logs.append(math.log(v))
                ts.append(t)
    log_v = np.array(logs)
    t_of = np.array(ts, dtype=float)
    begin = np.array(starts)
    group_of = np.repeat(np.arange(len(keys)), np.diff(np.append(begin, len(ts))))
    multiplicity = np.array(sizes, dtype=float)

    def means(y: float) -> Any:
        e = log_v + t_of * y
        e -= np.maximum.reduceat(e, begin)[group_of]
        p = np.exp(e)
        return np.add.reduceat(p * t_of, begin) / np.add.reduceat(p, begin)

    def excess(y: float) -> float:
        parts = float((means(y) * multiplicity).sum())
        ey = math.exp(y)
        peak = (remaining - ey * (floating - remaining + 1)) / (1 + ey)
        return parts - peak

    low, high = -60.0, 60.0
    for _ in range(80):
        mid = (low + high) / 2
        if mid in (low, high):
            break                     # adjacent floats: every further step keeps y = mid
        if excess(mid) > 0:
            high = mid
        else:
            low = mid
    y = (low + high) / 2
    return math.exp(y), [float(v) for v in means(y)]


class _Pruner:
    """Drops the negligible tails of the tree's polynomials, keeping a rigorous account.

    Every polynomial of the tree is a tilted distribution (non-negative, summing to 1) and
    every sensitivity is at most the largest tilted weight ``W``. Dropping a tail of mass
    ``d`` from a distribution lowers any sensitivity computed from it by at most ``d * W``;
    dropping sensitivities that sum to ``s`` lowers those computed from them by at most ``s``
    (the factors they meet are distributions). So every leaf's sensitivity lies between its
    computed ball and that ball plus :meth:`slack`. A tail is only cut below
    ``2**-(precision + 40)`` (of 1, or of ``W``), found by bisection from the polynomial's
    expected centre; its mass is then summed exactly (as a ball) whatever its shape.
    """

    def __init__(self, precision: int, active: bool) -> None:
        from flint import arb
        self.active = active
        self.tiny = arb(2) ** -(precision + 40)
        self.scale = arb(1)
        self.dropped_up = arb(0)
        self.dropped_down = arb(0)

    def set_weight_scale(self, w_max: Any) -> None:
        self.scale = w_max

    def slack(self) -> Any:
        """An upper bound on how much every leaf sensitivity (and the count) was lowered."""
        from flint import arb
        return 2 * (self.dropped_up * self.scale + self.dropped_down) + arb(0)

    def power(self, poly: _Window, m: int, mean: float) -> _Window:
        """``poly ** m`` (``m >= 1``) by squaring, trimming after each product."""
        result = None
        base, k, step = poly, m, 1
        done = 0
        while k:
            if k & 1:
                result = base if result is None else self.up(_times(result, base),
                                                             mean * (done + step))
                done += step
            k >>= 1
            if k:
                base = self.up(_times(base, base), mean * 2 * step)
                step *= 2
        assert result is not None
        return result

    def up(self, poly: _Window, centre: float) -> _Window:
        if not self.active:
            return poly
        trimmed, mass = self._trim(poly, centre, self.tiny)
        self.dropped_up += mass
        return trimmed

    def down(self, poly: _Window, centre: float) -> _Window:
        if not self.active:
            return poly
        trimmed, mass = self._trim(poly, centre, self.tiny * self.scale)
        self.dropped_down += mass
        return trimmed

    @staticmethod
    def _trim(window: _Window, centre: float, tiny: Any) -> tuple[_Window, Any]:
        """``window`` without its longest prefix and suffix of total mass below ``tiny`` each
        (found by bisection: prefix sums of non-negative coefficients are monotone, whatever
        the polynomial's shape), and the mass dropped. ``centre`` is an exponent."""
        from flint import arb
        poly = window.poly
        n = poly.length()
        if n < 64:
            return window, arb(0)
        c = min(max(int(round(centre)) - window.offset, 0), n - 1)

        def head(i: int) -> Any:
            return poly.truncate(i)(1).abs_upper() if i else arb(0)

        def tail(j: int) -> Any:
            return poly.right_shift(j)(1).abs_upper() if j < n else arb(0)

        low, high = 0, c                  # the longest light prefix, within 0..c
        while low < high:
            mid = (low + high + 1) // 2
            if head(mid) < tiny:
                low = mid
            else:
                high = mid - 1
        first = low
        low, high = c + 1, n              # the longest light suffix, from c+1 on
        while low < high:
            mid = (low + high) // 2
            if tail(mid) < tiny:
                high = mid
            else:
                low = mid + 1
        stop = low
        if first == 0 and stop == n:
            return window, arb(0)
        mass = head(first) + tail(stop)
        kept = poly.right_shift(first).truncate(stop - first) if first else poly.truncate(stop)
        return _Window(window.offset + first, kept), mass


def _share(part: Any, whole: Any) -> Share | None:
    """``part / whole`` (a share of a sum of non-negative terms, ``part`` not the exact zero
    nor the whole sum) as a float strictly between 0 and 1, proven to
    :data:`RELATIVE_TOLERANCE`, or below the double range as a Fraction (the midpoint to 17
    significant digits); ``None`` when the balls are too wide."""
    if part.contains(0):
        return None
    ratio = part / whole
    if ratio.rad() > ratio.mid() * RELATIVE_TOLERANCE:
        return None
    mid = ratio.mid()
    x = float(mid)
    if x >= SMALLEST_FLOAT:
        return min(x, _BELOW_ONE)
    man, exp = mid.man_exp()
    exact = Fraction(int(man)) * Fraction(2) ** int(exp)
    return Fraction(scientific_text(exact))


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
