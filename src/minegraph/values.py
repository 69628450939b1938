"""Reading the values a board is built from: whole numbers, cell states and mine totals.

:class:`~minegraph.board.Board` and the readers of graph files take these from users (Python
arguments, networkx attributes, states files); each rule lives here once, with the message
that names what was expected. The module knows no board.

Examples
--------
>>> whole(3, "a row"), state("#", "cell 0"), states("#1M", 3, str)
(3, -1, (-1, 1, -2))
>>> total_text("unknown"), total_text("12")
(None, 12)
"""

from __future__ import annotations

import operator
from itertools import islice
from typing import Any, Callable, Iterable

from minegraph.errors import BoardError

__all__ = ["STATE_HELP", "UNKNOWN_TOTALS", "show", "whole", "state", "states", "total_text",
           "mine_total"]

#: What a cell state may be, as messages say it.
STATE_HELP = ("a state: a number (0..12 on grids, up to the cell's degree on graph boards), "
              "HIDDEN (-1), MINE (-2) or BLANK (-3), or a symbol of the board text such as '#', "
              "'M', '-' or '3' (or the digits of a number, e.g. '13')")

#: Written totals that mean "unknown" (compared in lower case, spaces stripped).
UNKNOWN_TOTALS = frozenset({"", "?", "unknown", "none", "null"})


def show(value: object) -> str:
    """A short description of a bad argument, for messages: its ``repr`` for plain values
    (cut at 40 characters), its type for anything else.

    Parameters
    ----------
    value
        Anything.

    Returns
    -------
    str
        The description.

    Examples
    --------
    >>> show(1.5), show([1, 2]), show("x" * 50)
    ('1.5', 'a list', "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...")
    """
    text = repr(value) if isinstance(value, (int, float, str, bytes, type(None))) else \
        f"a {type(value).__name__}"
    return text if len(text) <= 40 else text[:37] + "..."


def whole(value: object, what: str, where: str = "") -> int:
    """``value`` as an ``int`` if it is a whole number (an ``int`` or anything with
    ``__index__``, such as numpy's integers; not ``bool``, ``float`` or ``str``).

    Parameters
    ----------
    value
        The value to read.
    what
        What was expected, for the message (``"a row"``).
    where
        Where the value comes from, put before the message (``"edge 3"``); none by default.

    Returns
    -------
    int
        The whole number.

    Raises
    ------
    BoardError
        saying ``what`` was expected (after ``where``, when given).

    Examples
    --------
    >>> whole(3, "a row")
    3
    >>> whole(1.5, "a row")
    Traceback (most recent call last):
    ...
    minegraph.errors.BoardError: expected a row (a whole number), got 1.5
    """
    if type(value) is int:
        return value
    if not isinstance(value, bool):
        try:
            return operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise BoardError(f"{where}{': ' if where else ''}expected {what} (a whole number), got {show(value)}")


def state(value: object, where: str) -> int:
    """One cell state: an ``int`` (or anything with ``__index__``, not ``bool``), a symbol of
    the board text (``"#"``, ``"M"``, ``"-"``, ``"3"``...) or the digits of a larger number.
    Its range is the board's to check.

    Parameters
    ----------
    value
        The state as given.
    where
        The cell, for the message (``"cell (0, 1)"``).

    Returns
    -------
    int
        The state.

    Raises
    ------
    BoardError
        for anything else, naming ``where`` and what a state may be.

    Examples
    --------
    >>> state("M", "cell 0"), state("13", "cell 0"), state(2, "cell 0")
    (-2, 13, 2)
    >>> state("x", "cell 4")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    minegraph.errors.BoardError: cell 4: expected a state: ..., got 'x'
    """
    if type(value) is int:
        return value
    if isinstance(value, str):
        # The syntax module knows no board: importing it closes no circle.
        from minegraph.formats.text_syntax import SYMBOLS
        found = SYMBOLS.get(value)
        if found is not None:
            return found
        if 1 < len(value) <= 18 and value.isascii() and value.isdigit():
            return int(value)       # a number beyond the one-character symbols, e.g. '13'
    elif not isinstance(value, bool) and hasattr(value, "__index__"):
        return operator.index(value)
    raise BoardError(f"{where}: expected {STATE_HELP}, got {show(value)}")


def states(values: object, count: int | None, label: Callable[[int], Any]) -> tuple[int, ...]:
    """``values`` as a tuple of states (each as :func:`state` reads it), checked to number
    ``count`` when given; a string is a sequence of one-character symbols.

    Parameters
    ----------
    values
        A sequence (or any finite iterable) of states.
    count
        How many there must be (one per cell), or ``None``.
    label
        Cell index -> its name in messages.

    Returns
    -------
    tuple of int
        The states.

    Raises
    ------
    BoardError
        for something that is not a sequence of states, a state that is not one (naming its
        cell), or the wrong count. An endless iterable is read no further than ``count + 1``.

    Examples
    --------
    >>> states(["#", 1, "M"], 3, str)
    (-1, 1, -2)
    >>> states("#1", 3, str)
    Traceback (most recent call last):
    ...
    minegraph.errors.BoardError: expected 3 states (one per cell), got 2
    """
    if isinstance(values, (tuple, list)) and set(map(type, values)) <= {int}:
        out: tuple[int, ...] = tuple(values)    # the common case, checked at C speed
    else:
        if isinstance(values, (bytes, bytearray)) or not isinstance(values, Iterable):
            raise BoardError(f"expected a sequence of states ({STATE_HELP}), got {show(values)}")
        limit = None if count is None else count + 1   # never read an endless iterable
        out = tuple(state(v, f"cell {label(i)}") for i, v in enumerate(islice(values, limit)))
    if count is not None and len(out) != count:
        got = f"more than {count}" if len(out) > count else str(len(out))
        raise BoardError(f"expected {count} states (one per cell), got {got}")
    return out


def total_text(text: str) -> int | None:
    """A mine total written as text: ``None`` for one of :data:`UNKNOWN_TOTALS` (any case,
    spaces around allowed), the number for ASCII digits (at most 18 significant ones).

    Parameters
    ----------
    text
        The total as written.

    Returns
    -------
    int or None
        The total, or ``None`` (unknown).

    Raises
    ------
    BoardError
        for anything else.

    Examples
    --------
    >>> total_text(" ? "), total_text("007"), total_text("Unknown")
    (None, 7, None)
    >>> total_text("-1")
    Traceback (most recent call last):
    ...
    minegraph.errors.BoardError: expected a whole number of mines (ASCII digits) or nothing (unknown), got '-1'
    """
    written = text.strip()
    if written.lower() in UNKNOWN_TOTALS:
        return None
    if written.isascii() and written.isdigit() and len(written.lstrip("0")) <= 18:
        return int(written)
    raise BoardError(f"expected a whole number of mines (ASCII digits) or nothing (unknown), "
                     f"got {show(text)}")


def mine_total(value: object, where: str) -> int | None:
    """A total read from an attribute (a networkx graph's ``mines``): a whole number, text as
    :func:`total_text` reads it, or ``None`` (unknown). Its range is the board's to check.

    Parameters
    ----------
    value
        The attribute's value.
    where
        Where it comes from, put before the message.

    Returns
    -------
    int or None
        The total, or ``None`` (unknown).

    Raises
    ------
    BoardError
        for anything else, naming ``where``.

    Examples
    --------
    >>> mine_total(None, "mines"), mine_total("12", "mines"), mine_total(3, "mines")
    (None, 12, 3)
    >>> mine_total(2.5, "graph attribute 'mines'")
    Traceback (most recent call last):
    ...
    minegraph.errors.BoardError: graph attribute 'mines': expected a whole number of mines or None (unknown) (a whole number), got 2.5
    """
    if value is None:
        return None
    if isinstance(value, str):
        try:
            return total_text(value)
        except BoardError as error:
            raise BoardError(f"{where}: {error}") from None
    return whole(value, "a whole number of mines or None (unknown)", where)
