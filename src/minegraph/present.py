"""How values are written for people: one rule per kind of value, shared by every surface.

The command line's report, the terminal game and the web page all show mine probabilities as
percentages; they round by the same rule here, so one position never reads 12% in one place
and 13% in another. (The web page's script follows the same rule: half up, 0 and 100 only
when proven.) They colour them by one heat map, :func:`heat_rgb`.

Examples
--------
>>> from fractions import Fraction
>>> whole_percent(Fraction(1, 8)), percent_text(Fraction(1, 8))
(13, '13%')
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Union

__all__ = ["whole_percent", "percent_text", "heat_rgb", "HEAT_STOPS", "shorten", "shown",
           "SHOWN_CHARS"]

#: How much of a user's value an error message quotes.
SHOWN_CHARS = 40

#: The heat map of mine probabilities: green at 0 (safe), yellow at 1/2, red at 1 (a mine)
#: (Material 600 shades). The SVG pictures, the terminal game and the web page's script
#: (``web/static/app.js``, checked by the tests) use these stops.
HEAT_STOPS = ((0x43, 0xA0, 0x47), (0xFD, 0xD8, 0x35), (0xE5, 0x39, 0x35))

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


def heat_rgb(p: Probability) -> tuple[int, int, int]:
    """The heat-map colour of a mine probability in [0, 1] as ``(red, green, blue)``: linear in
    each channel between the :data:`HEAT_STOPS` (0 to 1/2, then 1/2 to 1), channels rounded
    half up, as the web page's script rounds them.

    Examples
    --------
    >>> heat_rgb(0), heat_rgb(Fraction(1, 2)), heat_rgb(1.0), heat_rgb(0.25)
    ((67, 160, 71), (253, 216, 53), (229, 57, 53), (160, 188, 62))
    """
    x = float(p)
    low, high, t = (HEAT_STOPS[0], HEAT_STOPS[1], 2 * x) if x <= 0.5 else \
        (HEAT_STOPS[1], HEAT_STOPS[2], 2 * x - 1)
    red, green, blue = (math.floor(a + (b - a) * t + 0.5) for a, b in zip(low, high))
    return red, green, blue


def shorten(text: str, limit: int = SHOWN_CHARS) -> str:
    """``text`` if it has at most ``limit`` characters, else its first ``limit - 1`` and "…".

    Examples
    --------
    >>> shorten("abc"), shorten("x" * 50, 10)
    ('abc', 'xxxxxxxxx…')
    """
    return text if len(text) <= limit else text[:limit - 1] + "…"


def shown(value: object, limit: int = SHOWN_CHARS) -> str:
    """A user's value as an error message quotes it, so that a hostile megabyte of input never
    becomes a megabyte of message: a string quoted and cut after ``limit`` characters (with
    its length), anything else its ``repr`` shortened (:func:`shorten`).

    Examples
    --------
    >>> shown("9x"), shown(-1)
    ("'9x'", '-1')
    >>> shown("9" * 100, limit=5)
    "'99999'… (100 characters)"
    >>> shown(list(range(30)), limit=12)
    '[0, 1, 2, 3…'
    """
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit]!r}… ({len(value)} characters)"
    return shorten(repr(value), limit)
