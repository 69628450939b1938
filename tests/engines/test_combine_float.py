"""The floating-point combination against the exact one (itself checked against brute force):
every mine distribution and floating probability within a relative error of 1e-12, the
exact zeros and ones exactly where the exact answer has them, and the count's logarithm."""

from __future__ import annotations

from fractions import Fraction
from math import log10

import pytest
from hypothesis import HealthCheck, given, settings

from engines.test_combine import part_sets
from minegraph.engines.combine import combine
from minegraph.engines.combine_float import combine_float
from strategies import examples


def _exact_distribution(polys: list[list[int]], floating: int, remaining: int | None
                        ) -> tuple[int, list[list[Fraction]], Fraction]:
    c = combine(polys, floating, remaining)
    if not c.count:
        return 0, [], Fraction(0)
    rows = [[Fraction(x * s, c.count) for x, s in zip(p, sens)]
            for p, sens in zip(polys, c.sensitivity)]
    floating_p = Fraction(c.per_floating, c.count) if floating else Fraction(0)
    return c.count, rows, floating_p


def _close(x: float, exact: Fraction) -> bool:
    """Exact 0 and 1 exactly; anything else strictly inside and within 1e-12 relative."""
    if exact == 0 or exact == 1:
        return x == exact
    return 0.0 < x < 1.0 and abs(Fraction(x) - exact) <= exact * Fraction(1, 10 ** 12)


def _check(polys: list[list[int]], floating: int, remaining: int | None) -> bool:
    """Compare one case; returns False when the float combination declined (``None``)."""
    answer = combine_float(polys, floating, remaining)
    count, rows, floating_p = _exact_distribution(polys, floating, remaining)
    if answer is None:
        return False
    assert answer.consistent == (count > 0)
    if not count:
        return True
    if remaining is None:
        # Without a total each part holds its single count: distribution [1].
        assert all(row == [1.0] for row in answer.distribution)
    else:
        for got, want in zip(answer.distribution, rows):
            assert len(got) == len(want)
            assert all(_close(x, e) for x, e in zip(got, want)), (got, want)
    assert _close(answer.floating, floating_p) if floating else answer.floating == 0.0
    assert abs(answer.log10_count - log10(count)) <= 1e-12 * max(1.0, log10(count))
    return True


@settings(max_examples=examples(1500), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(part_sets(max_parts=6, max_len=5, max_floating=40))
def test_float_matches_exact(case: tuple[list[list[int]], int, int | None]) -> None:
    _check(*case)


@pytest.mark.parametrize("floating, remaining", [(0, 30), (5, 32), (2_000, 400), (100_000, 20_000),
                                                 (400, 399)])
def test_float_on_many_parts(floating: int, remaining: int) -> None:
    """Hundreds of parts with repeats, floating counts from none to huge: never declined."""
    pool = [[1, 2, 1], [0, 3, 1], [1, 0, 0, 5], [2, 7], [1, 4, 6, 4, 1]]
    polys = [pool[(7 * i) % 5] for i in range(300)]
    assert _check(polys, floating, remaining)


def test_tiny_probabilities_stay_relative() -> None:
    """A total that leaves the floating cells almost no mines: their probability is tiny and
    still within 1e-12 relative (no cancellation), and never printed as 0."""
    polys = [[1, 10 ** 40]] * 40 + [[3, 10 ** 20, 1]] * 5   # parts that want their mines
    assert _check(polys, 1_000, 45)
    answer = combine_float(polys, 1_000, 45)
    assert answer is not None and 0.0 < answer.floating < 1e-15


def test_forced_values_are_exact() -> None:
    # The parts must hold every mine: floating cells proven safe; and the converse.
    full = combine_float([[0, 0, 1], [0, 1]], 4, 3)
    assert full is not None and full.floating == 0.0 and full.distribution == [[0.0, 0.0, 1.0],
                                                                              [0.0, 1.0]]
    empty = combine_float([[1, 2, 1], [1, 1]], 4, 0)
    assert empty is not None and empty.floating == 0.0 and empty.distribution == [[1.0, 0.0, 0.0],
                                                                                [1.0, 0.0]]
    every = combine_float([[1, 2, 1]], 4, 6)
    assert every is not None and every.floating == 1.0 and every.distribution == [[0.0, 0.0, 1.0]]
