"""The combination of parts against two independent references.

- brute force: sums over every split of the mines among the parts (tiny cases);
- :func:`_oracle`: the figures read off exact generating functions, ``P(x) (1 + x)**F`` and
  ``Q_c(x) (1 + x)**F`` with ``Q_c`` the product of the other parts multiplied out directly
  (FLINT's ``fmpz_poly``; no exact division, no subproduct tree or transposed products, no
  binomial recurrence or reduced weights: nothing the code under test does). The oracle itself
  is checked against the brute force on the tiny cases.

Both the public :func:`combine` (which picks its algorithm by size) and the subproduct tree
``_combine_tree`` on small inputs are checked, with zero polynomials, leading and trailing zero
coefficients, repeated polynomials, no floating cells, no total, totals out of reach and huge
floating counts (where the tree runs on reduced binomial weights).
"""

from __future__ import annotations

from itertools import product as cartesian
from math import comb, prod

import pytest
from flint import fmpz, fmpz_poly
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minegraph.engines.combine import (TREE_DEGREE, Combination, _combine_tree, _reduced_weights,
                                       binomial_weights, combine)
from strategies import examples

def _settings(n: int) -> settings:
    return settings(max_examples=examples(n), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


# ----------------------------------------------------------------------------- references
def _binom(n: int, k: int) -> int:
    return comb(n, k) if 0 <= k <= n else 0


def _brute(polys: list[list[int]], floating: int, remaining: int | None) -> Combination:
    """Every split ``t_1..t_n`` of mines among the parts, straight from the definitions."""
    n = len(polys)
    if remaining is None:
        # Each polynomial a single plain count; the floating cells are free.
        count = prod(p[0] for p in polys) * 2 ** floating
        sens = [[prod(q[0] for j, q in enumerate(polys) if j != c) * 2 ** floating]
                for c in range(n)]
        per = count // 2 if floating and count else 0
        if not count:
            sens = [[0] for _ in polys]
        return Combination(count, sens, per, [2 ** floating])
    length = sum(len(p) for p in polys) - n + 1
    weight = [_binom(floating, remaining - u) for u in range(length)]
    count = per = 0
    sens = [[0] * len(p) for p in polys]
    for split in cartesian(*(range(len(p)) for p in polys)):
        u = sum(split)
        ways = prod(p[t] for p, t in zip(polys, split))
        count += ways * _binom(floating, remaining - u)
        per += ways * _binom(floating - 1, remaining - u - 1) if floating else 0
        for c, t in enumerate(split):
            others = prod(p[s] for j, (p, s) in enumerate(zip(polys, split)) if j != c)
            sens[c][t] += others * _binom(floating, remaining - u)
    if not count:
        return Combination(0, [[0] * len(p) for p in polys], 0, weight)
    return Combination(count, sens, per, weight)


def _choose(n: int, k: int) -> fmpz:
    """``C(n, k)`` by FLINT, 0 outside ``0 <= k <= n``."""
    return fmpz.bin_uiui(n, k) if 0 <= k <= n else fmpz(0)


def _binomial_window(n: int, top: int, width: int) -> fmpz_poly:
    """The coefficients of ``x**(top - width) .. x**top`` in ``(1 + x)**n``, shifted down to
    ``x**0 .. x**width`` (the whole ``(1 + x)**n`` is far too big for 100,000 floating cells)."""
    return fmpz_poly([_choose(n, top - width + j) for j in range(width + 1)])


def _oracle(polys: list[list[int]], floating: int, remaining: int | None) -> Combination:
    """The figures as coefficients of exact generating functions (FLINT products, no
    division, no tree, no weight recurrence).

    The parts and the floating cells together hold ``t`` mines in ``[x**t] P(x) (1 + x)**F``
    ways, with ``P`` the product of every part's polynomial, so

    - ``count = [x**R] P(x) (1 + x)**F``;
    - ``per_floating = [x**(R-1)] P(x) (1 + x)**(F-1)`` (one floating cell fixed as a mine);
    - ``sensitivity[c][t] = [x**(R-t)] Q_c(x) (1 + x)**F``, ``Q_c`` the product of the *other*
      parts multiplied out directly (equal parts have equal ``Q_c``: computed once per
      distinct polynomial, by powers).

    Without a total every part is a plain count and the floating cells are free.
    """
    if remaining is None:
        assert all(len(p) == 1 for p in polys)
        free = 2 ** floating
        if not prod(p[0] for p in polys):
            return Combination(0, [[0] for _ in polys], 0, [free])
        sens = [[prod(q[0] for d, q in enumerate(polys) if d != c) * free]
                for c in range(len(polys))]
        per = prod(p[0] for p in polys) * 2 ** (floating - 1) if floating else 0
        return Combination(prod(p[0] for p in polys) * free, sens, per, [free])
    # Only the coefficients x**(R - degree) .. x**R of the products matter: with the window
    # w(x) of (1 + x)**F ending at x**R, [x**(R - s)] A(x) (1 + x)**F = [x**(degree - s)] A(x) w(x)
    # for any A of degree at most degree - s.
    degree = sum(len(p) - 1 for p in polys)
    weight = [int(_choose(floating, remaining - u)) for u in range(degree + 1)]
    multiplicity: dict[tuple[int, ...], int] = {}
    for p in polys:
        multiplicity[tuple(p)] = multiplicity.get(tuple(p), 0) + 1
    factor = {key: fmpz_poly(list(key)) for key in multiplicity}
    everything = fmpz_poly([1])
    for key, m in multiplicity.items():
        everything *= factor[key] ** m
    window = _binomial_window(floating, remaining, degree)
    count = int((everything * window)[degree])
    if not count:
        return Combination(0, [[0] * len(p) for p in polys], 0, weight)
    per = (int((everything * _binomial_window(floating - 1, remaining - 1, degree))[degree])
           if floating else 0)
    sens_of: dict[tuple[int, ...], list[int]] = {}
    for key in multiplicity:
        others = fmpz_poly([1])
        for other, m in multiplicity.items():
            if m - (other == key):
                others *= factor[other] ** (m - (other == key))
        completions = others * window
        sens_of[key] = [int(completions[degree - t]) for t in range(len(key))]
    return Combination(count, [list(sens_of[tuple(p)]) for p in polys], per, weight)


def _tree(polys: list[list[int]], floating: int, remaining: int | None) -> Combination:
    """The subproduct tree whatever the size."""
    length = sum(len(p) for p in polys) - len(polys) + 1
    weight = (binomial_weights(floating, remaining, length) if remaining is not None
              else [2 ** floating])
    return _combine_tree(polys, floating, remaining, weight)


# ----------------------------------------------------------------------------- strategies
def _coefficient() -> st.SearchStrategy[int]:
    return st.one_of(st.integers(0, 3), st.integers(0, 10 ** 6), st.integers(0, 2 ** 200))


@st.composite
def _poly(draw: st.DrawFn, max_len: int = 5) -> list[int]:
    kind = draw(st.sampled_from(["any", "any", "any", "zero", "lead", "trail"]))
    n = draw(st.integers(1, max_len))
    if kind == "zero":
        return [0] * n
    p = draw(st.lists(_coefficient(), min_size=n, max_size=n))
    if kind == "lead":
        p = [0] * draw(st.integers(1, 3)) + p
    elif kind == "trail":
        p = p + [0] * draw(st.integers(1, 3))
    if not any(p):
        p[-1] = 1
    return p


@st.composite
def part_sets(draw: st.DrawFn, max_parts: int = 5, max_len: int = 4, max_floating: int = 12,
              total: bool | None = None) -> tuple[list[list[int]], int, int | None]:
    """Parts (some repeated, some zero), floating cells, and a total in or out of reach."""
    pool = draw(st.lists(_poly(max_len), min_size=1, max_size=max_parts))
    polys = draw(st.lists(st.sampled_from(pool), min_size=0, max_size=max_parts))
    floating = draw(st.one_of(st.just(0), st.integers(0, max_floating)))
    with_total = draw(st.booleans()) if total is None else total
    if not with_total:
        return [[sum(p)] if draw(st.booleans()) else [p[0]] for p in polys], floating, None
    reach = sum(len(p) - 1 for p in polys) + floating
    remaining = draw(st.one_of(st.integers(0, reach), st.integers(-3, reach + 5)))
    return polys, floating, remaining


# ----------------------------------------------------------------------------- tests
@_settings(2000)
@given(part_sets())
def test_combine_equals_brute_force(case: tuple[list[list[int]], int, int | None]) -> None:
    polys, floating, remaining = case
    expected = _brute(polys, floating, remaining)
    assert _oracle(polys, floating, remaining) == expected      # the oracle is right too
    assert combine(polys, floating, remaining) == expected


@_settings(2000)
@given(part_sets())
def test_tree_equals_brute_force(case: tuple[list[list[int]], int, int | None]) -> None:
    polys, floating, remaining = case
    if not polys:
        return
    assert _tree(polys, floating, remaining) == _brute(polys, floating, remaining)


@_settings(1500)
@given(part_sets(max_parts=12, max_len=7, max_floating=60))
def test_tree_equals_oracle(case: tuple[list[list[int]], int, int | None]) -> None:
    polys, floating, remaining = case
    if not polys:
        return
    assert _tree(polys, floating, remaining) == _oracle(polys, floating, remaining)


@_settings(1000)
@given(part_sets(max_parts=8, max_len=6, total=True), st.integers(2000, 8000),
       st.integers(0, 12), st.floats(0.1, 0.5))
def test_reduced_weights(case: tuple[list[list[int]], int, int | None], floating: int,
                         shift: int, density: float) -> None:
    """Many floating cells: the tree may run on reduced weights and scale back, exactly."""
    polys, _, _ = case
    if not polys:
        return
    remaining = int(density * floating) + shift
    assert _tree(polys, floating, remaining) == _oracle(polys, floating, remaining)


def test_reduced_weights_taken() -> None:
    """An opening-like case (few parts, 100,000 floating cells) goes through the reduced
    weights and still matches the oracle."""
    polys = [[0, 2, 1], [1, 1], [3, 0, 0, 1]] * 4 + [[1, 1]] * 10
    floating, remaining = 100_000, 20_007
    weight = binomial_weights(floating, remaining, sum(len(p) - 1 for p in polys) + 1)
    assert _reduced_weights(floating, remaining, weight) is not None
    assert combine(polys, floating, remaining) == _oracle(polys, floating, remaining)


@_settings(200)
@given(st.lists(_poly(8), min_size=1, max_size=6), st.lists(st.integers(0, 5), min_size=40,
                                                              max_size=120),
       st.integers(0, 200), st.booleans())
def test_combine_on_many_parts(pool: list[list[int]], picks: list[int], floating: int,
                               in_reach: bool) -> None:
    """Past TREE_DEGREE the public function takes the tree: same integers as the oracle."""
    polys = [pool[i % len(pool)] for i in picks]
    reach = sum(len(p) - 1 for p in polys) + floating
    remaining = reach // 3 if in_reach else reach + 1
    assert combine(polys, floating, remaining) == _oracle(polys, floating, remaining)


@pytest.mark.parametrize("floating", [0, 7, 900])
def test_big_tree_with_duplicates(floating: int) -> None:
    """Hundreds of parts, most polynomials repeated, one with leading zeros."""
    polys = ([[1, 4, 6, 4, 1]] * 90 + [[0, 0, 3, 5]] * 70 + [[2, 1]] * 41
             + [[5, 0, 1, 0, 0, 7, 1]] * 3 + [[1, 2, 3]])
    degree = sum(len(p) - 1 for p in polys)
    assert degree >= TREE_DEGREE
    for remaining in (degree // 2, degree // 2 + floating // 5, 3 * degree // 4 + floating // 4):
        assert combine(polys, floating, remaining) == _oracle(polys, floating, remaining)


def test_edges() -> None:
    assert combine([], 3, 1) == Combination(3, [], 1, [3])
    assert combine([], 3, None) == Combination(8, [], 4, [8])
    assert combine([], 0, 0) == Combination(1, [], 0, [1])
    assert combine([[0, 0]], 2, 1).count == 0
    assert combine([[1, 1]] * 200, 0, 300) == _oracle([[1, 1]] * 200, 0, 300)
    for beyond in (500, -1):                                         # beyond reach
        assert combine([[1, 1]] * 200, 5, beyond) == _oracle([[1, 1]] * 200, 5, beyond)
        assert combine([[1, 1]] * 200, 5, beyond).count == 0
    zero = combine([[1, 2]] * 150 + [[0, 0, 0]], 4, 60)
    assert zero.count == 0 and zero.sensitivity == [[0, 0]] * 150 + [[0, 0, 0]]


@pytest.mark.parametrize("parts, floating, remaining",
                         [(3, 4, 2), (12, 0, 5), (25, 0, 25), (30, 9, 11), (150, 40, 70),
                          (400, 2500, 600), (18, 5000, 1000)])
def test_closed_form(parts: int, floating: int, remaining: int) -> None:
    """Known answers. ``n`` parts that are single free cells (``1 + x``) and ``m`` that are
    pairs of free cells (``(1 + x)**2``) with ``F`` floating cells are ``N = n + 2m + F`` free
    cells: ``C(N, R)`` completions, a floating cell is a mine in ``C(N - 1, R - 1)`` of them,
    and a cell part holding ``t`` mines leaves ``C(N - 1, R - t)`` (a pair ``C(N - 2, R - t)``)
    (Vandermonde's identity). The quadratic path and the tree, the last on reduced weights."""
    pairs = parts // 3
    polys = [[1, 1]] * (parts - pairs) + [[1, 2, 1]] * pairs
    n = parts + pairs + floating
    got = combine(polys, floating, remaining)
    assert got.count == comb(n, remaining)
    assert got.per_floating == (comb(n - 1, remaining - 1) if floating else 0)
    assert got.sensitivity == ([[comb(n - 1, remaining - t) for t in range(2)]] * (parts - pairs)
                               + [[comb(n - 2, remaining - t) for t in range(3)]] * pairs)
    assert got.weight == [comb(floating, remaining - u) if u <= remaining else 0
                          for u in range(parts + pairs + 1)]


# The helpers of the arithmetic choice and of the weights, against their definitions written
# out here with math.comb and math.log2 (issue 36's mutation testing).

@settings(max_examples=examples(200), deadline=None)
@given(n=st.integers(0, 5000), total=st.integers(-3, 60), length=st.integers(0, 12))
def test_binomial_weights_are_the_binomials(n: int, total: int, length: int) -> None:
    from minegraph.engines.combine import binomial_weights
    assert binomial_weights(n, total, length) == [
        comb(n, total - u) if 0 <= total - u <= n else 0 for u in range(length)]


def test_binomial_weights_past_the_flint_threshold() -> None:
    from minegraph.engines.combine import BIG_BINOMIAL, binomial_weights
    for n in (BIG_BINOMIAL - 1, BIG_BINOMIAL, BIG_BINOMIAL + 1):
        assert binomial_weights(n, 40, 3) == [comb(n, 40), comb(n, 39), comb(n, 38)]


@settings(max_examples=examples(200), deadline=None)
@given(polys=st.lists(st.lists(st.integers(0, 40), min_size=1, max_size=5), max_size=6),
       floating=st.integers(0, 30), remaining=st.one_of(st.none(), st.integers(-2, 70)))
def test_exact_output_bits_is_its_formula(polys: list[list[int]], floating: int,
                                           remaining: int | None) -> None:
    """Per part and mine count, one number of the bits of the parts' counts and of the
    weights' binomial: ``degree * (sum bit lengths + log2 C(F + degree, R))``."""
    from math import log2

    from minegraph.engines.combine import exact_output_bits
    degree = sum(len(p) for p in polys)
    bits = float(sum(max(sum(p), 1).bit_length() for p in polys))
    if remaining is None:
        bits += floating
    elif 0 <= remaining <= floating + degree:
        bits += log2(comb(floating + degree, remaining))
    assert exact_output_bits(polys, floating, remaining) == pytest.approx(degree * bits, rel=1e-9, abs=1e-6)


def test_auto_arithmetic_switches_to_floats_past_the_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    from minegraph.engines import combine as module
    polys, floating = [[1, 2, 1]] * 3, 4              # degree 9, bits 9 * (3 * 3 + 4) = 117
    assert module.exact_output_bits(polys, floating, None) == 117
    monkeypatch.setattr(module, "EXACT_OUTPUT_BITS", 117)
    assert not module.chooses_float(polys, floating, None)          # at the threshold: exact
    monkeypatch.setattr(module, "EXACT_OUTPUT_BITS", 116)
    assert module.chooses_float(polys, floating, None)
    with module.arithmetic("exact"):
        assert not module.chooses_float(polys, floating, None)
    with module.arithmetic("float"):
        assert module.chooses_float([[1]], 0, None)
        with module.arithmetic("exact"):
            assert module.current_arithmetic() == "exact"
        assert module.current_arithmetic() == "float"
    assert module.current_arithmetic() == "auto"


def test_an_unknown_arithmetic_is_refused_naming_the_choices() -> None:
    from minegraph.engines.combine import arithmetic
    from minegraph.errors import UserError
    with pytest.raises(UserError) as caught:
        with arithmetic("decimal"):
            pass
    assert str(caught.value) == "arithmetic must be one of auto, exact, float, got 'decimal'"


@settings(max_examples=examples(200), deadline=None)
@given(a=st.lists(st.integers(0, 9), min_size=1, max_size=6),
       b=st.lists(st.integers(0, 9), min_size=1, max_size=6).filter(any))
def test_poly_mul_is_the_convolution_and_poly_div_undoes_it(a: list[int], b: list[int]) -> None:
    from minegraph.engines.combine import poly_div, poly_mul
    product = poly_mul(a, b)
    assert product == [sum(a[i] * b[k - i] for i in range(len(a)) if 0 <= k - i < len(b))
                       for k in range(len(a) + len(b) - 1)]
    assert poly_div(product, b) == a           # exact division (b's low zeros shifted out)


def test_the_auto_choice_weighs_the_total(monkeypatch: pytest.MonkeyPatch) -> None:
    from math import log2

    from minegraph.engines import combine as module
    polys, floating = [[1, 2, 1]] * 3, 4
    with_total = 9 * (9 + log2(comb(13, 2)))           # 137.6 bits; without a total 117
    assert module.exact_output_bits(polys, floating, 2) == pytest.approx(with_total)
    monkeypatch.setattr(module, "EXACT_OUTPUT_BITS", 120)
    assert module.chooses_float(polys, floating, 2) and not module.chooses_float(polys, floating, None)
