"""How values are written for people: one rule per kind of value, shared by every surface.

The command line's report, the terminal game and the web page all show mine probabilities as
percentages; they round by the same rule here, so one position never reads 12% in one place
and 13% in another. (The web page's script follows the same rule: half up, 0 and 100 only
when proven.)

Examples
--------
>>> from fractions import Fraction
>>> whole_percent(Fraction(1, 8)), percent_text(Fraction(1, 8))
(13, '13%')
"""

from __future__ import annotations

from fractions import Fraction
from typing import Union

__all__ = ["whole_percent", "percent_text"]

#: An exact or floating-point probability.
Probability = Union[Fraction, float, int]


def whole_percent(p: Probability) -> int:
    """A mine probability as a whole percentage: rounded half up, and 0 or 100 only when
    proven (``p`` exactly 0 or 1); every other value is clamped to 1..99.

    Parameters
    ----------
    p
        A probability, exact or a float (a float is taken at its exact binary value).

    Returns
    -------
    int
        0..100.

    Examples
    --------
    >>> [whole_percent(Fraction(n, 1000)) for n in (0, 1, 125, 994, 995, 999, 1000)]
    [0, 1, 13, 99, 99, 99, 100]
    >>> whole_percent(0.125), whole_percent(Fraction(1, 3))
    (13, 33)
    """
    if p <= 0:
        return 0
    if p >= 1:
        return 100
    exact = Fraction(p)
    return min(99, max(1, int(exact * 100 + Fraction(1, 2))))


def percent_text(p: Probability) -> str:
    """A short percentage for text reports: :func:`whole_percent` with a ``%`` sign, except
    that unproven values below 1% or above 99% read ``<1%`` and ``>99%``.

    Examples
    --------
    >>> [percent_text(Fraction(n, 1000)) for n in (0, 4, 125, 500, 996, 1000)]
    ['0%', '<1%', '13%', '50%', '>99%', '100%']
    """
    if 0 < p < Fraction(1, 100):
        return "<1%"
    if Fraction(99, 100) < p < 1:
        return ">99%"
    return f"{whole_percent(p)}%"
