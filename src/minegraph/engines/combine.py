"""Combining independent parts (components, regions) under the global mine count.

Each part ``c`` contributes ``P_c(t)``, its number of assignments holding ``t`` mines (or a
single entry, its plain count, without a total). Floating cells (next to no number) take
the mines left over. With ``Q = prod P_c``, ``R`` the mines for parts and floating cells and
the weights ``w[u] = C(F, R - u)`` (ways to complete the ``F`` floating cells when the parts
hold ``u`` mines),

    count = sum_u Q(u) * w[u]          (without a total: Q(1) * 2**F)

and the completions of everything but part ``c`` when ``c`` holds ``t`` mines are
``W_c(t) = sum_u (Q / P_c)(u) * w[u + t]``, the *sensitivity* that turns a part's own
per-cell numbers into counts over the whole board. Used by the DP and backtracking engines.

Two algorithms give the same integers:

- few or small parts (total degree below :data:`TREE_DEGREE`, almost every Expert position): ``Q`` by schoolbook products, then per part an
  exact division ``Q / P_c`` and dot products with the weights, quadratic in the total degree;
- otherwise a *subproduct tree* over the distinct part polynomials (equal polynomials are
  grouped, a group of ``m`` enters as ``P^m``), multiplied with FLINT's ``fmpz_poly``, and
  *transposed products* going down the tree: at the root the weights themselves, and for a
  child ``a`` with sibling ``b`` of node ``v``,

      S_a(t) = sum_j P_b(j) * S_v(t + j)        (t = 0 .. deg P_a)

  a middle product (the transpose of multiplication by ``P_b``, as in Bostan, Lecerf and
  Schost's "Tellegen's principle into practice"), so the leaves hold the sensitivities with
  no division. Each level of the tree costs one pass of fast multiplications over numbers of
  about the size of the output: near-linear in the total degree times the size of ``count``.
  When the floating cells far outnumber the parts' degree the binomial weights share a huge
  common factor; the tree then runs on the reduced weights and scales the results at the end.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from math import comb, gcd, lgamma, log, log2
from typing import TYPE_CHECKING, Callable, Sequence, TypeVar

if TYPE_CHECKING:
    from flint import fmpz_poly

T = TypeVar("T")

__all__ = ["Combination", "combine", "poly_mul", "poly_div", "binomial_weights", "TREE_DEGREE",
           "ARITHMETICS", "EXACT_OUTPUT_BITS", "arithmetic", "current_arithmetic",
           "exact_output_bits", "chooses_float"]

#: How probabilities are computed: ``"exact"`` (integers and fractions), ``"float"`` (proven
#: to a relative error below 1e-13, see :mod:`minegraph.engines.combine_float`) or ``"auto"``
#: (exact while the exact output stays under :data:`EXACT_OUTPUT_BITS`).
ARITHMETICS = ("auto", "exact", "float")

#: ``"auto"`` answers exactly while the estimated size of the exact per-part figures
#: (:func:`exact_output_bits`) stays under this many bits (4 MiB): a 100x100 scattered board
#: (about 5 * 10**6 bits) and a 400x400 opening (3 * 10**7) are exact, a 200x200 scattered
#: board (7 * 10**7) is not: there floats take 1.1 s against 2.5 s exact, whole process.
EXACT_OUTPUT_BITS = 1 << 25

_ARITHMETIC: ContextVar[str] = ContextVar("minegraph_arithmetic", default="auto")


@contextmanager
def arithmetic(mode: str) -> Iterator[None]:
    """Within the block, count and combine with ``mode`` (one of :data:`ARITHMETICS`), in this
    thread or task only, as :func:`decimal.localcontext` does for decimals.

    >>> with arithmetic("float"):
    ...     current_arithmetic()
    'float'
    >>> current_arithmetic()
    'auto'

    Parameters
    ----------
    mode : str
        One of :data:`ARITHMETICS`.

    Returns
    -------
    context manager
        The block under ``mode``.

    Raises
    ------
    UserError
        when ``mode`` is not one of :data:`ARITHMETICS`.
    """
    if mode not in ARITHMETICS:
        from minegraph.errors import UserError
        raise UserError(f"arithmetic must be one of {', '.join(ARITHMETICS)}, got {mode!r}")
    token = _ARITHMETIC.set(mode)
    try:
        yield
    finally:
        _ARITHMETIC.reset(token)


def current_arithmetic() -> str:
    """The arithmetic of the innermost :func:`arithmetic` block (``"auto"`` outside any).

    Returns
    -------
    str
        The mode.
    """
    return _ARITHMETIC.get()


def exact_output_bits(polys: list[list[int]], floating: int, remaining: int | None) -> float:
    """An estimate of the exact output's size in bits: one number of about ``log2 count``
    bits per part and mine count (the sensitivities), and per box (the cell counts).

    >>> exact_output_bits([[1, 2, 1]] * 10, 0, 10) < 2000      # 30 numbers of ~55 bits
    True

    Parameters
    ----------
    polys : list of list of int
        Each part's completions by mine count.
    floating : int
        The floating cells.
    remaining : int or None
        The mines left (``None``: no total).

    Returns
    -------
    float
        The estimate.
    """
    degree = sum(len(p) for p in polys)
    bits = float(sum(max(sum(p), 1).bit_length() for p in polys))
    if remaining is None:
        bits += floating
    elif 0 <= remaining <= floating + degree:
        n, k = floating + degree, remaining
        bits += (lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1)) / log(2)
    return float(degree) * bits


def chooses_float(polys: list[list[int]], floating: int, remaining: int | None) -> bool:
    """Whether the current :func:`arithmetic` asks for floats on these parts.

    Parameters
    ----------
    polys : list of list of int
        Each part's completions by mine count.
    floating : int
        The floating cells.
    remaining : int or None
        The mines left (``None``: no total).

    Returns
    -------
    bool
        Whether to combine in floating point.
    """
    mode = current_arithmetic()
    if mode == "auto":
        return exact_output_bits(polys, floating, remaining) > EXACT_OUTPUT_BITS
    return mode == "float"

#: Total degree (sum of ``len(P_c) - 1``) from which :func:`combine` uses the subproduct tree;
#: below it the quadratic algorithm wins on Python's overheads.
TREE_DEGREE = 20


def poly_mul(a: list[int], b: list[int]) -> list[int]:
    """Product of two polynomials given by their coefficient lists.

    >>> poly_mul([1, 1], [1, 2])
    [1, 3, 2]

    Parameters
    ----------
    a, b : list of int
        Coefficients, lowest degree first.

    Returns
    -------
    list of int
        The product's coefficients.
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

    Parameters
    ----------
    q, p : list of int
        Coefficients of the dividend and divisor, lowest degree first.

    Returns
    -------
    list of int
        The quotient's coefficients.
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


#: From this ``n`` on, ``C(n, k)`` comes from FLINT (``math.comb`` takes seconds past 10**5).
BIG_BINOMIAL = 4096


def _flint_binomial(n: int, k: int) -> int:
    """``C(n, k)`` for ``0 <= k <= n`` by FLINT.

    >>> _flint_binomial(10_000, 3000) == comb(10_000, 3000)
    True
    """
    from flint import fmpz
    return int(fmpz.bin_uiui(n, k))


def binomial_weights(n: int, total: int, length: int) -> list[int]:
    """``[C(n, total - u) for u in range(length)]`` (0 outside ``0..n``), by one ``comb``
    and a ratio recurrence: big binomials are costly to compute one by one.

    >>> binomial_weights(4, 3, 5)
    [4, 6, 4, 1, 0]

    Parameters
    ----------
    n : int
        The floating cells.
    total : int
        The mines left for the parts and the floating cells.
    length : int
        How many weights.

    Returns
    -------
    list of int
        The weights.
    """
    weight = [0] * length
    lo, hi = max(0, total - length + 1), min(n, total)
    if lo > hi:
        return weight
    value = comb(n, lo) if n < BIG_BINOMIAL else _flint_binomial(n, lo)
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
    weight
        ``weight[u]``: completions of the floating cells when the parts hold ``u`` mines
        (``C(F, R - u)``; ``[2**F]`` without a total).
    """

    count: int
    sensitivity: list[list[int]]
    per_floating: int
    weight: list[int]


def combine(polys: list[list[int]], floating: int, remaining: int | None) -> Combination:
    """Combine parts' mine-count polynomials with ``floating`` free cells.

    ``remaining`` is the number of mines for the parts and floating cells together, or
    ``None`` without a total (then each polynomial is a single plain count). Every
    polynomial has at least one coefficient.

    Parameters
    ----------
    polys : list of list of int
        ``polys[c][t]``: assignments of part ``c`` holding ``t`` mines (non-negative).
    floating : int
        Number of floating cells.
    remaining : int or None
        Mines for the parts and floating cells together.

    Returns
    -------
    Combination
        With ``count == 0`` every sensitivity and ``per_floating`` are 0.

    Examples
    --------
    >>> c = combine([[0, 2]], 1, remaining=1)      # one part: 2 ways with 1 mine; 1 floating
    >>> c.count, c.sensitivity, c.per_floating
    (2, [[1, 1]], 0)
    >>> c = combine([[2]], 1, remaining=None)
    >>> c.count, c.sensitivity, c.per_floating
    (4, [[2]], 2)

    Past :data:`TREE_DEGREE` the subproduct tree gives the same integers:

    >>> polys = [[1, 2, 1]] * 60 + [[0, 3, 1], [1, 0, 0, 5]] * 20
    >>> c = combine(polys, 50, remaining=140)
    >>> c == _combine_small(polys, 50, 140, binomial_weights(50, 140, len(c.weight)))
    True
    """
    length = sum(len(p) for p in polys) - len(polys) + 1
    # weight[u]: ways to complete the floating cells when the parts hold u mines.
    if remaining is not None:
        weight = binomial_weights(floating, remaining, length)
    else:
        weight = [2 ** floating]
    if length - 1 >= TREE_DEGREE and len(polys) > 1:
        return _combine_tree(polys, floating, remaining, weight)
    return _combine_small(polys, floating, remaining, weight)


def _combine_small(polys: list[list[int]], floating: int, remaining: int | None,
                   weight: list[int]) -> Combination:
    """The quadratic algorithm: schoolbook product, then per part a division and dot products."""
    product = [1]
    for poly in polys:
        product = poly_mul(product, poly)
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


def _reduced_weights(floating: int, remaining: int, weight: list[int]
                     ) -> tuple[list[int], int, int] | None:
    """The weights ``weight[u] = C(F, R - u)`` as ``num / den * reduced[u]`` with small
    ``reduced[u]``, or ``None`` when that would not make them much smaller.

    For ``k = R - u`` in ``lo..hi`` (the binomials not 0),
    ``C(F, k) = G * prod(k+1 .. hi) * prod(F-k+1 .. F-lo)`` with ``G = C(F, hi) /
    prod(F-hi+1 .. F-lo)``: at most ``hi - lo`` factors, each at most ``F``, instead of
    ``log2 C(F, k)`` bits. ``num / den`` is ``G`` in lowest terms.

    >>> weight = binomial_weights(100_000, 20_000, 4)
    >>> reduced, num, den = _reduced_weights(100_000, 20_000, weight)
    >>> [x * num // den for x in reduced] == weight
    True
    >>> max(reduced).bit_length(), comb(100_000, 20_000).bit_length()
    (49, 72185)
    >>> _reduced_weights(30, 20, binomial_weights(30, 20, 10)) is None
    True
    """
    length = len(weight)
    lo, hi = max(0, remaining - length + 1), min(floating, remaining)
    if lo > hi:
        return None
    full_bits = (lgamma(floating + 1) - lgamma(hi + 1) - lgamma(floating - hi + 1)) / log(2)
    if (hi - lo) * log2(floating + 1) > full_bits / 2:
        return None
    # a[k] = prod(k+1 .. hi), b[k] = prod(F-k+1 .. F-lo) for k in lo..hi.
    span = hi - lo + 1
    a = [1] * span
    for k in range(hi - 1, lo - 1, -1):
        a[k - lo] = a[k - lo + 1] * (k + 1)
    reduced = [0] * length
    b = 1
    for k in range(lo, hi + 1):
        reduced[remaining - k] = a[k - lo] * b
        b *= floating - k
    den = 1
    for j in range(floating - hi + 1, floating - lo + 1):
        den *= j
    num = weight[remaining - hi]
    g = gcd(num, den)
    return reduced, num // g, den // g


def _combine_tree(polys: list[list[int]], floating: int, remaining: int | None,
                  weight: list[int]) -> Combination:
    """The subproduct tree with transposed products (see the module's description)."""
    from flint import fmpz_poly

    n = len(polys)
    if not any(weight) or any(not any(p) for p in polys):
        return Combination(0, [[0] * len(p) for p in polys], 0, weight)
    # Equal polynomials form one group: one leaf P^m, one sensitivity for all its parts.
    groups: dict[tuple[int, ...], list[int]] = {}
    for c, p in enumerate(polys):
        groups.setdefault(tuple(p), []).append(c)
    keys = list(groups)
    num = den = 1
    base = weight
    if remaining is not None:
        reduced = _reduced_weights(floating, remaining, weight)
        if reduced is not None:
            base, num, den = reduced
    # Up: leaves P^m (and P^(m-1) kept for the leaf's own middle product), then a Huffman
    # tree by degree.
    single = [fmpz_poly(list(k)) for k in keys]
    power_below: list[fmpz_poly | None] = []
    polys_of: list[fmpz_poly] = []
    for g, key in enumerate(keys):
        m = len(groups[key])
        below = single[g] ** (m - 1) if m > 1 else None
        power_below.append(below)
        polys_of.append(below * single[g] if below is not None else single[g])
    degree = [len(groups[key]) * (len(key) - 1) for key in keys]
    children, root = merge_tree(degree)
    for a, b in children[len(keys):]:  # type: ignore[misc]  # the merges: never None
        polys_of.append(polys_of[a] * polys_of[b])
        degree.append(degree[a] + degree[b])
    # Down: reversed sensitivities, rs_v(i) = S_v(deg v - i); for a child a of v with
    # sibling b, rs_a = coefficients deg b .. deg v of P_b * rs_v.
    top = degree[root] + 1
    rs_root = fmpz_poly(list(reversed(base[:top])) if len(base) >= top
                        else [0] * (top - len(base)) + list(reversed(base)))
    leaf_rs = down_tree(children, root, rs_root, lambda v, child, sibling, rs:
                        polys_of[sibling].mul_low(rs, degree[v] + 1).right_shift(degree[sibling]))
    # Leaves: a group of m parts needs S for one P, i.e. one more middle product by P^(m-1).
    sens_of: list[list[int]] = []
    for g, key in enumerate(keys):
        rs = leaf_rs[g]
        below = power_below[g]
        d = len(key) - 1
        if below is not None:
            rest = degree[g] - d
            rs = below.mul_low(rs, degree[g] + 1).right_shift(rest)
        coeffs = rs.coeffs()
        values = [int(x) for x in coeffs[:d + 1]]
        values += [0] * (d + 1 - len(values))
        values.reverse()
        sens_of.append(values)
    # count = sum_t P_c(t) S_c(t) for any part; sum_u u Q(u) w[u] = sum_c sum_t t P_c(t) S_c(t).
    count = sum(x * s for x, s in zip(keys[0], sens_of[0]))
    if not count:
        return Combination(0, [[0] * len(p) for p in polys], 0, weight)
    if not floating:
        per_floating = 0
    elif remaining is not None:
        moment = sum(len(groups[key]) * sum(t * x * s for t, (x, s) in enumerate(zip(key, sens)))
                     for key, sens in zip(keys, sens_of))
        per_floating = _scaled(remaining * count - moment, num, den * floating)
    else:
        per_floating = count // 2      # no total: num = den = 1
    if den != 1 or num != 1:
        count = _scaled(count, num, den)
        sens_of = _scaled_rows(sens_of, num, den)
    sensitivity: list[list[int]] = [[] for _ in range(n)]
    for key, sens in zip(keys, sens_of):
        for c in groups[key]:
            sensitivity[c] = list(sens)
    return Combination(count, sensitivity, per_floating, weight)


def merge_tree(degrees: Sequence[int]) -> tuple[list[tuple[int, int] | None], int]:
    """A Huffman tree over leaves ``0 .. n-1``, the two of smallest degree merged first (ties
    by index): ``children[v]`` for every node (``None`` for a leaf; node ``n + j`` is the
    ``j``-th merge), and the root.

    >>> merge_tree([3, 1, 2])
    ([None, None, None, (1, 2), (0, 3)], 4)
    """
    children: list[tuple[int, int] | None] = [None] * len(degrees)
    heap = [(d, i) for i, d in enumerate(degrees)]
    heapq.heapify(heap)
    while len(heap) > 1:
        da, a = heapq.heappop(heap)
        db, b = heapq.heappop(heap)
        children.append((a, b))
        heapq.heappush(heap, (da + db, len(children) - 1))
    return children, heap[0][1]


def down_tree(children: Sequence[tuple[int, int] | None], root: int, top: T,
              child: Callable[[int, int, int, T], T]) -> dict[int, T]:
    """Values handed from the root down a :func:`merge_tree`: the root gets ``top``, and
    ``child(parent, node, sibling, value of parent)`` gives each other node's; the leaves'
    values by leaf.

    >>> down_tree(*merge_tree([1, 1]), 10, lambda v, c, s, x: x + c)
    {1: 11, 0: 10}
    """
    leaves: dict[int, T] = {}
    stack = [(root, top)]
    while stack:
        v, value = stack.pop()
        kids = children[v]
        if kids is None:
            leaves[v] = value
            continue
        a, b = kids
        stack.append((a, child(v, a, b, value)))
        stack.append((b, child(v, b, a, value)))
    return leaves


def _scaled(x: int, num: int, den: int) -> int:
    """``x * num / den``, known to be an integer, with FLINT's fast multiplication and exact
    division (``num`` may have hundreds of thousands of bits).

    >>> _scaled(6, 10**30, 4)
    1500000000000000000000000000000
    """
    from flint import fmpz
    return int(fmpz(x) * num // den)


def _scaled_rows(rows: list[list[int]], num: int, den: int) -> list[list[int]]:
    """``x * num / den`` for every ``x`` of ``rows``, each known to be an integer divisible
    by ``den`` (``num`` and ``den`` converted to FLINT once).

    >>> _scaled_rows([[6, 0], [2]], 10**30, 2)
    [[3000000000000000000000000000000, 0], [1000000000000000000000000000000]]
    """
    from flint import fmpz
    big, small = fmpz(num), fmpz(den)
    return [[int(fmpz(x) // small * big) for x in row] for row in rows]
