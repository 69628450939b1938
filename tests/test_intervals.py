"""Wilson's interval against its closed forms and the bad counts it refuses."""

from __future__ import annotations

import math

import pytest

from minegraph.errors import UserError
from minegraph.intervals import Z95, wilson


@pytest.mark.parametrize("trials", [1, 7, 100, 12345])
def test_the_ends_are_exact_and_the_other_bound_is_the_closed_form(trials: int) -> None:
    # At no success the interval is [0, z^2 / (n + z^2)]; at every success its mirror.
    z2 = Z95 * Z95
    low, high = wilson(0, trials)
    assert low == 0.0 and math.isclose(high, z2 / (trials + z2))
    low, high = wilson(trials, trials)
    assert high == 1.0 and math.isclose(low, trials / (trials + z2))


def test_a_half_is_centred_and_narrows_as_one_over_root_n() -> None:
    # Symmetric around 1/2; the half-width is z / (2 sqrt(n + z^2)) there.
    for n in (4, 100, 10_000):
        low, high = wilson(n // 2, n)
        assert math.isclose(low + high, 1.0)
        assert math.isclose((high - low) / 2, Z95 / (2 * math.sqrt(n + Z95 * Z95)))


@pytest.mark.parametrize("successes, trials", [(-1, 5), (6, 5)])
def test_counts_that_do_not_fit_are_refused(successes: int, trials: int) -> None:
    with pytest.raises(UserError, match="does not fit"):
        wilson(successes, trials)
