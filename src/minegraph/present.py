"""How values are written for people: one rule per kind of value, shared by every surface.

Exact numbers of any length (:func:`count_text`, :func:`fraction_text`), percentages, the heat
map's colours and quoted user input are written here. The command line's report, the
terminal game and the web page all show mine probabilities as
percentages; they round by the same rule here, so one position never reads 12% in one place
and 13% in another. They colour them by one heat map, :func:`heat_rgb`.

The web page (``web/static/present.js``) writes percentages to more places
(:func:`percent_places`) and reads the heat map's stops from ``web/static/rules.js``, a
module generated from this one (:func:`page_rules_module`; ``make page-rules`` writes
it); the tests check that the file is up to date and that the page's script gives
:func:`percent_places` and :func:`heat_rgb` to the digit.

Examples
--------
>>> from fractions import Fraction
>>> whole_percent(Fraction(1, 8)), percent_text(Fraction(1, 8))
(13, '13%')
"""

from __future__ import annotations

import decimal
import math
import os
import re
import sys
from fractions import Fraction
from typing import Union

__all__ = ["whole_percent", "percent_text", "heat_rgb", "HEAT_STOPS", "shorten", "shown",
           "SHOWN_CHARS", "exact_decimal", "mantissa", "count_text", "fraction_text",
           "SHOWN_DIGITS", "SMALLEST_FLOAT", "probability_float", "scientific_text",
           "probability_json", "terminal_width", "output_width", "wrap_text", "DEFAULT_WIDTH",
           "percent_places", "page_rules_module"]

#: The width of text written where no terminal says its own (a file, a pipe) and ``COLUMNS``
#: is not set.
DEFAULT_WIDTH = 80

#: The narrowest width text is wrapped to (a smaller ``COLUMNS`` counts as this).
_NARROWEST = 20

#: How much of a user's value an error message quotes.
SHOWN_CHARS = 40

#: The heat map of mine probabilities: green at 0 (safe), yellow at 1/2, red at 1 (a mine)
#: (Material 600 shades). The SVG pictures, the terminal game and the web page (through the
#: generated ``web/static/rules.js``, :func:`page_rules_module`) use these stops.
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

    Parameters
    ----------
    p : int or Fraction or float
        A mine probability.

    Returns
    -------
    str
        Such as ``50%``, ``<1%``.

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


def percent_places(p: Probability, places: int) -> str:
    """A mine probability as a percentage to ``places`` decimals, as the web page writes it
    (its tooltips to 4 places, the cells to 0 or 1): ``0%`` and ``100%`` only when proven
    (``p`` exactly 0 or 1); every other value rounded half up from its exact value, and one
    that would round to 0 or 100 reads ``<`` or ``>`` the nearest value shown.

    Parameters
    ----------
    p
        A probability, exact or a float (a float is taken at its exact binary value).
    places
        Decimal places, 0 or more.

    Returns
    -------
    str
        Such as ``12.5%``, ``<0.01%``, ``>99%``.

    Raises
    ------
    ValueError
        When ``places`` is negative.

    Examples
    --------
    >>> [percent_places(Fraction(1, 8), k) for k in (0, 1, 2)]
    ['13%', '12.5%', '12.50%']
    >>> percent_places(Fraction(1, 10 ** 9), 4), percent_places(1 - Fraction(1, 300), 0)
    ('<0.0001%', '>99%')
    >>> percent_places(0, 2), percent_places(1.0, 2)
    ('0%', '100%')
    """
    if places < 0:
        raise ValueError(f"expected places >= 0, got {places}")
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    scale = 10 ** places
    n = math.floor(Fraction(p) * 100 * scale + Fraction(1, 2))
    top = 100 * scale

    def fixed(m: int) -> str:  # m / scale with ``places`` decimals
        whole, part = divmod(m, scale)
        return f"{whole}.{part:0{places}d}" if places else str(whole)
    if n < 1:
        return f"<{fixed(1)}%"
    if n >= top:
        return f">{fixed(top - 1)}%"
    return f"{fixed(n)}%"


def page_rules_module() -> str:
    """The text of ``web/static/rules.js``: what the web page reads from this module (the heat
    map's stops), as an ES module. ``make page-rules`` writes it; a test checks that the file
    holds exactly this text.

    Returns
    -------
    str
        JavaScript source, ending with a newline.

    Examples
    --------
    >>> "export const HEAT_STOPS = [[67, 160, 71]," in page_rules_module()
    True
    """
    stops = ", ".join(f"[{r}, {g}, {b}]" for r, g, b in HEAT_STOPS)
    return ("// Generated from src/minegraph/present.py (page_rules_module) by `make page-rules`:\n"
            "// do not edit (tests/web/test_page_rules.py fails when it is out of date).\n"
            "\n"
            "// The heat map's stops (present.HEAT_STOPS): green at 0, yellow at 1/2, red at 1.\n"
            f"export const HEAT_STOPS = [{stops}];\n")


def heat_rgb(p: Probability) -> tuple[int, int, int]:
    """The heat-map colour of a mine probability in [0, 1] as ``(red, green, blue)``: linear in
    each channel between the :data:`HEAT_STOPS` (0 to 1/2, then 1/2 to 1), channels rounded
    half up, as the web page's script rounds them.

    Parameters
    ----------
    p : int or Fraction or float
        A mine probability.

    Returns
    -------
    (int, int, int)
        The colour's channels, 0 to 255.

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

    Parameters
    ----------
    text : str
        The text.
    limit : int
        The most characters.

    Returns
    -------
    str
        The text, cut if longer.

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

    Parameters
    ----------
    value : object
        The user's value.
    limit : int
        The most characters of it shown.

    Returns
    -------
    str
        The value as a message shows it.

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


#: Integers of at most this many bits (603 digits) are written with ``str``: under every limit
#: ``sys.set_int_max_str_digits`` accepts (640 digits at least).
_DIRECT_BITS = 2000


def exact_decimal(n: int) -> str:
    """Every decimal digit of ``n``, at any size.

    Python refuses ``str(n)`` beyond 4,300 digits (``sys.get_int_max_str_digits``), because its
    conversion takes time quadratic in the length. Counts of completions pass that on ordinary
    boards (6,000 mines on a 150x200 board: ``C(30000, 6000)``, 6,518 digits), so long integers
    are converted by divide and conquer: ``n`` is split at a power of two and the halves
    joined in :mod:`decimal` arithmetic, whose multiplication is subquadratic. No global setting is changed, so this is
    safe in any thread. About 0.05 s for the 301,000 digits of a count on the largest board
    accepted (one million cells), where ``str`` under a raised limit takes 1 s.

    Parameters
    ----------
    n
        Any integer.

    Returns
    -------
    str
        ``str(n)``, without its length limit.

    Examples
    --------
    >>> exact_decimal(-1234)
    '-1234'
    >>> s = exact_decimal(7 ** 20000)            # 16,902 digits: str() would refuse
    >>> len(s), s[:10], s[-4:]
    (16902, '9136929735', '0001')
    """
    if n.bit_length() <= _DIRECT_BITS:
        return str(n)
    if n < 0:
        return "-" + exact_decimal(-n)
    D = decimal.Decimal
    powers: dict[int, decimal.Decimal] = {}

    def power(bits: int) -> decimal.Decimal:  # 2 ** bits, exactly
        p = powers.get(bits)
        if p is None:
            half = bits >> 1
            p = powers[bits] = D(1 << bits) if bits <= 256 else power(half) * power(bits - half)
        return p

    def convert(m: int, bits: int) -> decimal.Decimal:
        if bits <= 1024:
            return D(m)
        half = bits >> 1
        high = m >> half
        return convert(high, bits - half) * power(half) + convert(m - (high << half), half)

    # Thread-local: exact arithmetic on any length, and an error rather than a rounding.
    exact = decimal.Context(prec=decimal.MAX_PREC, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN,
                            traps=[decimal.Inexact, decimal.InvalidOperation,
                                   decimal.DivisionByZero, decimal.Overflow])
    with decimal.localcontext(exact):
        return str(convert(n, n.bit_length()))


#: Integers of more digits are abbreviated (``1.3309…e+5000 (5001 digits)``) unless ``full``.
SHOWN_DIGITS = 100


def mantissa(digits: str) -> str:
    """``d.dddd…e+N``: the first five digits of a decimal string, cut (not rounded).

    Parameters
    ----------
    digits
        An integer's decimal digits (as :func:`exact_decimal` writes them), with a leading
        ``-`` when negative.

    Returns
    -------
    str
        The mantissa and exponent, with the sign.

    Examples
    --------
    >>> mantissa("133099"), mantissa("-20000000")
    ('1.3309…e+5', '-2.0000…e+7')
    """
    sign = "-" if digits.startswith("-") else ""
    digits = digits.lstrip("-")
    return f"{sign}{digits[0]}.{digits[1:5]}…e+{len(digits) - 1}"


def count_text(n: int, *, full: bool = False) -> str:
    """``n`` in decimal, every digit when it has at most :data:`SHOWN_DIGITS` (or ``full``),
    else its first five digits, cut and marked ``…``, with the exponent and the number of digits.

    Works at any length: Python's 4,300-digit limit on ``str(int)`` does not apply
    (:func:`exact_decimal`).

    Parameters
    ----------
    n
        Any integer (a count of completions, typically).
    full
        Write every digit, however many.

    Returns
    -------
    str
        The decimal text, or its abbreviation.

    Examples
    --------
    >>> count_text(404)
    '404'
    >>> count_text(13309 * 10 ** 4996)
    '1.3309…e+5000 (5001 digits)'
    >>> len(count_text(10 ** 5000, full=True))
    5001
    """
    digits = exact_decimal(n)
    length = len(digits.lstrip("-"))
    if full or length <= SHOWN_DIGITS:
        return digits
    return f"{mantissa(digits)} ({length} digits)"


def fraction_text(p: Probability, *, full: bool = False) -> str:
    """``p`` as ``numerator/denominator`` (``0`` and ``1`` alone); a numerator or denominator
    of more than :data:`SHOWN_DIGITS` digits is shortened to ``d.dddd…e+N`` unless ``full``.

    Parameters
    ----------
    p : int or Fraction or float
        A mine probability.
    full : bool
        Write every digit.

    Returns
    -------
    str
        The fraction.

    Examples
    --------
    >>> fraction_text(Fraction(123, 404)), fraction_text(Fraction(1))
    ('123/404', '1')
    >>> fraction_text(Fraction(10 ** 200 - 1, 2 * 10 ** 200))
    '9.9999…e+199/2.0000…e+200'
    >>> fraction_text(1.0 - 2.0 ** -53)
    '0.9999999999999999'
    """
    if isinstance(p, float):
        # A float probability (floating-point arithmetic): the shortest text that reads back
        # as the same float, so an unproven 0.9999999999999999 never prints as 1.
        return "0" if p == 0 else "1" if p == 1 else repr(p)
    parts = [exact_decimal(p.numerator)]
    if p.denominator != 1:
        parts.append(exact_decimal(p.denominator))
    if not full:
        parts = [d if len(d.lstrip("-")) <= SHOWN_DIGITS else mantissa(d) for d in parts]
    return "/".join(parts)


#: The smallest normal double, about 2.2e-308. A mine probability below it is never given as
#: a float: doubles there lose digits (subnormals), then range (0.0), so no float holds it
#: within the promised 1e-13 relative; it stays a Fraction (:func:`probability_float`).
SMALLEST_FLOAT = sys.float_info.min

#: The largest float below 1: what an unproven probability that rounds to 1.0 reads.
_BELOW_ONE = 1.0 - 2.0 ** -53


def probability_float(p: Probability) -> float | Fraction:
    """A mine probability as a float when a float holds it, else as itself (a Fraction).

    The float is ``p`` correctly rounded (relative error below 2**-53), except that a
    probability not exactly 1 never reads 1.0 (it reads ``1.0 - 2**-53``, still within
    2**-53). Below :data:`SMALLEST_FLOAT` no float is within 1e-13 relative of ``p`` (the
    nearest double to 1e-422 is 0.0, and 5e-324 is off by a factor of 10**98), and 0.0 would
    claim a proven safe cell: ``p`` is returned unchanged, as a :class:`~fractions.Fraction`.

    Parameters
    ----------
    p
        A probability, exact or a float (a float is taken at its exact binary value).

    Returns
    -------
    float or Fraction
        The probability.

    Examples
    --------
    >>> probability_float(Fraction(1, 3)), probability_float(Fraction(0))
    (0.3333333333333333, 0.0)
    >>> probability_float(1 - Fraction(1, 10 ** 400))
    0.9999999999999999
    >>> probability_float(Fraction(1, 10 ** 400)) == Fraction(1, 10 ** 400)
    True
    """
    x = float(p)
    if x >= SMALLEST_FLOAT:
        return _BELOW_ONE if x == 1.0 and p != 1 else x
    return 0.0 if p == 0 else Fraction(p)


def probability_json(p: Probability) -> float | str:
    """A mine probability as JSON holds it: a number (:func:`probability_float`), or, below
    :data:`SMALLEST_FLOAT` where no JSON reader's double holds it, the decimal string of
    :func:`scientific_text` (17 significant digits), such as ``"1.1740084566000549e-422"``.

    Parameters
    ----------
    p : int or Fraction or float
        A mine probability.

    Returns
    -------
    float or str
        The JSON value.

    Examples
    --------
    >>> probability_json(Fraction(1, 4)), probability_json(Fraction(3, 10 ** 400))
    (0.25, '3e-400')
    """
    x = probability_float(p)
    return x if isinstance(x, float) else scientific_text(x)


def _log10_floor(p: Fraction) -> int:
    """An estimate of ``floor(log10(p))`` for ``p > 0``, off by at most one."""
    def log10_int(n: int) -> float:
        shift = max(0, n.bit_length() - 1000)
        return math.log10(n >> shift) + shift * math.log10(2)
    return math.floor(log10_int(p.numerator) - log10_int(p.denominator))


def scientific_text(p: Probability, digits: int = 17) -> str:
    """A positive number in scientific notation, ``digits`` significant digits correctly
    rounded (half to even) at any exponent, trailing zeros dropped, as Python writes floats.

    Parameters
    ----------
    p : int or Fraction or float
        A positive number.
    digits : int
        The significant digits.

    Returns
    -------
    str
        Such as ``1.5e-400``.

    Examples
    --------
    >>> scientific_text(Fraction(1, 3) / 10 ** 500)
    '3.3333333333333333e-501'
    >>> scientific_text(Fraction(1, 8) / 10 ** 400), scientific_text(Fraction(2, 3), 4)
    ('1.25e-401', '6.667e-01')
    """
    exact = Fraction(p)
    if exact <= 0:
        raise ValueError(f"expected a positive number, got {p}")
    e = _log10_floor(exact)
    low, high = 10 ** (digits - 1), 10 ** digits
    while True:
        scaled = exact * Fraction(10) ** (digits - 1 - e)
        m = round(scaled)
        if m >= high:
            e += 1
        elif m < low and scaled < low:
            e -= 1
        else:
            break
    text = str(m)
    tail = text[1:].rstrip("0")
    return f"{text[0]}{'.' + tail if tail else ''}e{e:+03d}"


def terminal_width(stream: object) -> int | None:
    """The columns of the terminal ``stream`` writes to, or ``None`` when it is not a terminal.

    ``COLUMNS`` in the environment wins, as for shells, ``shutil`` and rich; a terminal that
    does not say its size counts as 80 columns. The stream's own terminal is measured, not the
    first of standard input, output and error that is one (rich's way, which reads 80 columns
    when standard input is a pseudo-terminal of size 0, or another terminal).

    Parameters
    ----------
    stream : object
        A text stream.

    Returns
    -------
    int or None
        The columns, or ``None``.

    Examples
    --------
    >>> import io
    >>> terminal_width(io.StringIO()) is None
    True
    """
    try:
        if not stream.isatty():         # type: ignore[attr-defined]
            return None
    except (AttributeError, ValueError, OSError):
        return None
    columns = os.environ.get("COLUMNS", "")
    if columns.isascii() and columns.isdigit() and 0 < int(columns) < 100_000:
        return int(columns)
    try:
        width = os.get_terminal_size(stream.fileno()).columns    # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError):
        return 80
    return width or 80


def output_width(stream: object) -> int:
    """The width that text written to ``stream`` should fit: the terminal's
    (:func:`terminal_width`), else ``COLUMNS`` from the environment (as
    :func:`shutil.get_terminal_size` reads it), else :data:`DEFAULT_WIDTH`; never below 20.

    Parameters
    ----------
    stream : object
        A text stream.

    Returns
    -------
    int
        The width.

    Examples
    --------
    >>> import io
    >>> from unittest import mock
    >>> with mock.patch.dict(os.environ, {"COLUMNS": "100"}):
    ...     output_width(io.StringIO())
    100
    """
    width = terminal_width(stream)
    if width is None:
        columns = os.environ.get("COLUMNS", "")
        ok = columns.isascii() and columns.isdigit() and 0 < int(columns) < 100_000
        width = int(columns) if ok else DEFAULT_WIDTH
    return max(width, _NARROWEST)


# A cell named (row, col) with a space: wrapped as one word. The space is swapped for a
# private-use character that textwrap does not break at, and back.
_COORDINATE = re.compile(r"\((-?\d+), (-?\d+)\)")
_KEEP = "\ue000"


def wrap_text(text: str, width: int, *, indent: str = "", subsequent_indent: str = "") -> list[str]:
    """``text`` wrapped to lines of at most ``width`` characters, broken at spaces only:
    never inside a word (nor at its hyphens) or a cell name such as ``(4, 23)``. A word
    longer than a line stands on a line of its own.

    Parameters
    ----------
    text
        The text (one paragraph).
    width
        The widest line.
    indent, subsequent_indent
        What starts the first line and the following ones.

    Returns
    -------
    list of str
        The lines, without newlines (none for empty text).

    Examples
    --------
    >>> wrap_text("a mine at (4, 23) and a no-guess board", 14)
    ['a mine at', '(4, 23) and a', 'no-guess board']
    """
    import textwrap
    kept = _COORDINATE.sub(lambda m: f"({m[1]},{_KEEP}{m[2]})", text)
    lines = textwrap.wrap(kept, width, initial_indent=indent, subsequent_indent=subsequent_indent,
                          break_long_words=False, break_on_hyphens=False)
    return [line.replace(_KEEP, " ") for line in lines]
