"""Confidence intervals of a share of successes: the one place they are computed (win rates
of the benchmarks, the coach's rollouts, the no-guess filter's success rate).

Examples
--------
>>> [round(x, 4) for x in wilson(50, 100)]
[0.4038, 0.5962]
"""

from __future__ import annotations

import math

from minegraph.errors import UserError

__all__ = ["Z95", "wilson"]

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval of the share ``successes / trials`` (95% by default).

    Parameters
    ----------
    successes
        How many trials succeeded (``0 <= successes <= trials``).
    trials
        How many were made.
    z
        The normal quantile of the confidence level.

    Returns
    -------
    tuple of float
        ``(low, high)`` within [0, 1]; exactly 0 (1) at no (every) success, where rounding
        must not make a share that was never seen look possible; ``(0.0, 1.0)`` for no trial.

    Raises
    ------
    UserError
        when the counts do not fit.

    Examples
    --------
    >>> wilson(0, 0)
    (0.0, 1.0)
    >>> low, high = wilson(0, 100)
    >>> low, round(high, 4)
    (0.0, 0.037)
    >>> [round(x, 4) for x in wilson(10, 100)]
    [0.0552, 0.1744]
    """
    if not 0 <= successes <= trials:
        raise UserError(f"a share of {successes} out of {trials} does not fit")
    if not trials:
        return 0.0, 1.0
    p = successes / trials
    scale = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / scale
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / scale
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high
