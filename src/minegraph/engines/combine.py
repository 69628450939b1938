"""Combining independent parts (components, regions) under the global mine count.

Each part ``c`` contributes ``P_c(t)``, its number of assignments holding ``t`` mines (or a
single entry, its plain count, without a total). Floating cells (next to no number) take
the mines left over. With ``Q = prod P_c`` and ``R`` the mines for parts and floating cells,

    count = sum_u Q(u) * C(F, R - u)          (without a total: Q(1) * 2**F)

and the completions of everything but part ``c`` when ``c`` holds ``t`` mines are
``W_c(t) = sum_u (Q / P_c)(u) * C(F, R - u - t)``, the *sensitivity* that turns a part's own
per-cell numbers into counts over the whole board. Used by the DP and backtracking engines.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

__all__ = ["Combination", "combine", "poly_mul", "poly_div", "binomial_weights"]


def poly_mul(a: list[int], b: list[int]) -> list[int]:
    """Product of two polynomials given by their coefficient lists.

    >>> poly_mul([1, 1], [1, 2])
    [1, 3, 2]
    """
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def poly_div(q: list[int], p: list[int]) -> list[int]:
    """Exact quotient ``q / p`` of integer polynomials (``p`` must divide ``q``).

    >>> poly_div([1, 3, 2], [1, 1])
    [1, 2]
    """
    shift = next(i for i, x in enumerate(p) if x)
    p = p[shift:]
    q = q[shift:]
    out = [0] * (len(q) - len(p) + 1)
    rem = list(q)
    lead = p[0]
    for k in range(len(out)):
        c = rem[k] // lead
        out[k] = c
        if c:
            for j in range(1, len(p)):
                rem[k + j] -= c * p[j]
    return out


def binomial_weights(n: int, total: int, length: int) -> list[int]:
    """``[C(n, total - u) for u in range(length)]`` (0 outside ``0..n``), by one ``comb``
    and a ratio recurrence: big binomials are costly to compute one by one.

    >>> binomial_weights(4, 3, 5)
    [4, 6, 4, 1, 0]
    """
    weight = [0] * length
    lo, hi = max(0, total - length + 1), min(n, total)
    if lo > hi:
        return weight
    value = comb(n, lo)
    for k in range(lo, hi + 1):
        weight[total - k] = value
        value = value * (n - k) // (k + 1)
    return weight


@dataclass
class Combination:
    """The board-wide figures of a set of parts.

    Attributes
    ----------
    count
        Number of completions of the whole board.
    sensitivity
        Per part, ``sensitivity[c][t]``: completions of everything else when part ``c`` holds
        ``t`` mines (one entry without a total).
    per_floating
        Completions in which a given floating cell holds a mine.
    """

    count: int
    sensitivity: list[list[int]]
    per_floating: int
    weight: list[int]


def combine(polys: list[list[int]], floating: int, remaining: int | None) -> Combination:
    """Combine parts' mine-count polynomials with ``floating`` free cells.

    ``remaining`` is the number of mines for the parts and floating cells together, or
    ``None`` without a total (then each polynomial is a single plain count).

    Examples
    --------
    >>> c = combine([[0, 2]], 1, remaining=1)      # one part: 2 ways with 1 mine; 1 floating
    >>> c.count, c.sensitivity, c.per_floating
    (2, [[1, 1]], 0)
    >>> c = combine([[2]], 1, remaining=None)
    >>> c.count, c.sensitivity, c.per_floating
    (4, [[2]], 2)
    """
    product = [1]
    for poly in polys:
        product = poly_mul(product, poly)
    # weight[u]: ways to complete the floating cells when the parts hold u mines.
    if remaining is not None:
        weight = binomial_weights(floating, remaining, len(product))
    else:
        weight = [2 ** floating]
    count = sum(x * w for x, w in zip(product, weight))
    if not count:
        return Combination(0, [[0] * len(p) for p in polys], 0, weight)
    if not floating:
        per_floating = 0
    elif remaining is not None:
        # C(F, k) * k / F = C(F-1, k-1): each floating cell is a mine in that share.
        per_floating = sum(x * (w * (remaining - u) // floating)
                           for u, (x, w) in enumerate(zip(product, weight)))
    else:
        per_floating = count // 2
    sensitivity = []
    for poly in polys:
        others = poly_div(product, poly)
        sensitivity.append([sum(others[u] * weight[u + t] for u in range(len(others))
                                if u + t < len(weight)) for t in range(len(poly))])
    return Combination(count, sensitivity, per_floating, weight)
