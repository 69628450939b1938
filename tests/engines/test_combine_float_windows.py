"""The float combination's windows (each tree polynomial stored as an offset and its kept
coefficients) against independent references: the exact combination on parts with long,
thin supports where pruning drops most of every polynomial; the windowed slice product
against the plain product of the dense polynomials; the trim against sums known by
construction (a tail just above the cut is kept, one just below is dropped); the bound on the
tilted weights against the largest weight found by brute force in exact fractions."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from math import comb
from typing import Any

import pytest
from flint import arb, arb_poly, ctx

from engines.test_combine_float import _check
from minegraph.engines import combine_float as cf


@contextmanager
def _precision(bits: int) -> Iterator[None]:
    saved = ctx.prec
    ctx.prec = bits
    try:
        yield
    finally:
        ctx.prec = saved


@contextmanager
def _trims() -> Iterator[list[tuple[int, int, int]]]:
    """Record every trim: (length before, coefficients dropped from the front, kept)."""
    seen: list[tuple[int, int, int]] = []
    original = cf._Pruner._trim

    def spy(window: Any, centre: float, tiny: Any) -> Any:
        kept, mass = original(window, centre, tiny)
        seen.append((window.poly.length(), kept.offset - window.offset, kept.poly.length()))
        return kept, mass

    cf._Pruner._trim = staticmethod(spy)  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        cf._Pruner._trim = staticmethod(original)  # type: ignore[method-assign]


def _thin_part(rng: random.Random) -> list[int]:
    """A long polynomial whose support starts late (leading zeros: the part must hold mines)
    and whose mass, binomial-like, sits in a narrow band of it."""
    width = rng.randint(60, 120)
    lead = rng.randint(0, 50)
    return [0] * lead + [comb(width, t) ** 6 * rng.randint(1, 9) for t in range(width + 1)]


@pytest.mark.parametrize("seed", range(4))
def test_thin_supports_match_exact(seed: int) -> None:
    """Parts of 60-170 coefficients, some repeated (entering the tree as powers), many
    floating cells: pruning cuts most of each tree polynomial, and every mine distribution,
    the floating probability and the count still agree with the exact combination."""
    rng = random.Random(seed)
    distinct = [_thin_part(rng) for _ in range(4)]
    polys = [distinct[rng.randrange(4)] for _ in range(7)]
    degree = sum(len(p) - 1 for p in polys)
    floating = rng.randint(2 * degree, 4 * degree)
    remaining = rng.randint(degree, floating // 2)     # every weight over 0..D positive
    with _trims() as seen:
        assert _check(polys, floating, remaining)
    cut = [(n, front, kept) for n, front, kept in seen if kept < n]
    assert cut, "pruning never cut"
    # Somewhere most of a polynomial was dropped, from the front (a window offset).
    assert any(kept < n / 2 and front > 0 for n, front, kept in cut)


def test_isolated_count_far_from_the_band() -> None:
    """A part that may hold no mine or 40 to 80: the tree's windows drop the far count 0 from
    the powers and products, yet the part's probability of holding no mine (tiny) is still
    right to 1e-12 relative and never 0, since its sensitivity is computed all the same."""
    part = [1] + [0] * 39 + [10 ** 40 * comb(40, t) ** 2 for t in range(41)]
    polys = [part] * 6 + [[comb(30, t) ** 2 for t in range(31)]] * 3
    degree = sum(len(p) - 1 for p in polys)
    floating, remaining = 3 * degree, 3 * degree // 2
    with _trims() as seen:
        assert _check(polys, floating, remaining)
    assert any(front > 0 for _, front, _ in seen)
    answer = cf.combine_float(polys, floating, remaining)
    assert answer is not None and 0.0 < answer.distribution[0][0] < 1e-15


def _fraction(a: Any) -> Fraction:
    """The exact value of a ball of radius 0."""
    assert a.is_exact()
    man, exp = a.mid().man_exp()
    return Fraction(int(man)) * Fraction(2) ** int(exp)


def _dense_slice(p: list[int], p_at: int, r: list[int], r_at: int, low: int,
                 high: int) -> list[int]:
    """Coefficients ``low .. high`` of the product of two shifted integer polynomials."""
    full: dict[int, int] = {}
    for i, a in enumerate(p):
        for j, b in enumerate(r):
            full[p_at + i + r_at + j] = full.get(p_at + i + r_at + j, 0) + a * b
    return [full.get(k, 0) for k in range(low, high + 1)]


@pytest.mark.parametrize("seed", range(6))
def test_middle_is_the_product_slice(seed: int) -> None:
    """The down pass's slice of a product of windows, exactly (integer coefficients at a
    precision that holds them), including slices that miss the product on either side."""
    rng = random.Random(seed)
    with _precision(200):
        for _ in range(60):
            p = [rng.randint(0, 9) for _ in range(rng.randint(1, 30))]
            r = [rng.randint(0, 9) for _ in range(rng.randint(1, 40))]
            p[-1] = p[-1] or 1
            r[-1] = r[-1] or 1
            p_at, r_at = rng.randint(0, 20), rng.randint(0, 20)
            low = rng.randint(0, 90)
            high = low + rng.randint(0, 50)
            got = cf._middle(cf._Window(p_at, arb_poly(p)), cf._Window(r_at, arb_poly(r)),
                             low, high)
            dense = cf._dense(got, 0, high - low + 1)
            want = _dense_slice(p, p_at, r, r_at, low, high)
            assert [int(c.unique_fmpz()) for c in dense] == want


@pytest.mark.parametrize("above", [True, False])
def test_trim_keeps_a_tail_just_above_the_cut(above: bool) -> None:
    """A window whose light prefix and suffix reach just above (kept) or just below
    (dropped) the cut including one last coefficient: exactly that coefficient decides, the
    kept window is the original slice with the right offset, and the mass is what was cut."""
    tiny = Fraction(1, 2 ** 60)
    edge = tiny * (1 - Fraction(10, 16)) + (tiny / 2 ** 20 if above else -tiny / 2 ** 20)
    light = [tiny / 16] * 10                 # 10/16 of the cut
    body = [Fraction(1, 64)] * 50
    coeffs = light + [edge] + body + [edge] + light[::-1]
    offset = 37
    with _precision(256):
        poly = arb_poly([arb(c.numerator) / c.denominator for c in coeffs])
        kept, mass = cf._Pruner._trim(cf._Window(offset, poly), offset + 40.0,
                                      arb(tiny.numerator) / tiny.denominator)
        dropped = len(light) if above else len(light) + 1
        assert kept.offset == offset + dropped
        want = coeffs[dropped:len(coeffs) - dropped]
        assert [_fraction(c) for c in kept.poly.coeffs()] == want
        # The mass accounted for is at least what was dropped (rigour), below the cut per side.
        assert _fraction(mass.upper()) >= 2 * sum(coeffs[:dropped])
        assert _fraction(mass.upper()) < 2 * tiny


@pytest.mark.parametrize("seed", range(5))
def test_largest_weight_bounds_every_weight(seed: int) -> None:
    """The bound on the tilted weights ``C(F, R - u) x^-u`` is at least the largest of them
    (found by trying every ``u`` in exact fractions) and within a hair of it."""
    rng = random.Random(seed)
    with _precision(80):
        for _ in range(20):
            floating = rng.randint(1, 300)
            remaining = rng.randint(0, floating)
            lo = max(0, remaining - floating)
            hi = rng.randint(lo, remaining)
            tilt = rng.choice([rng.uniform(0.01, 1.0), rng.uniform(1.0, 50.0), 1.0])
            x = Fraction(tilt)
            largest = max(comb(floating, remaining - u) / x ** u for u in range(lo, hi + 1))
            bound = _fraction(cf._largest_weight(floating, remaining, tilt, lo, hi).upper())
            assert largest <= bound <= largest * (1 + Fraction(1, 2 ** 60))
