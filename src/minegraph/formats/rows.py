"""A check shared by the readers whose header states the number of rows."""

from __future__ import annotations

from typing import Iterable, Iterator

from minegraph.errors import FormatError

__all__ = ["exact_rows"]


def exact_rows(lines: Iterable[tuple[int, int, str]], rows: int,
               header_line: int) -> Iterator[tuple[int, str]]:
    """Yield ``(line number, line)`` for the ``rows`` lines after a header (``lines`` as
    :func:`minegraph.formats.scan.content_lines` gives them), then raise a
    :class:`FormatError` at the right line if fewer or more follow.

    The lines are taken one at a time, so a file with far more rows than its header says is
    refused at the first extra row, without reading the rest.

    Parameters
    ----------
    lines : iterable of (int, int, str)
        The content lines after the header.
    rows : int
        How many rows the header announced.
    header_line : int
        The header's line number, for the message when no row follows.

    Yields
    ------
    (int, str)
        The line number and the line of each row.

    Raises
    ------
    FormatError
        when fewer or more than ``rows`` lines follow.

    Examples
    --------
    >>> list(exact_rows([(2, 6, "H1"), (3, 9, "11")], 2, 1))
    [(2, 'H1'), (3, '11')]
    >>> list(exact_rows([(2, 6, "H1")], 2, 1))
    Traceback (most recent call last):
    ...
    minegraph.errors.FormatError: line 3, column 1: the header says 2 rows, but only 1 follow
    >>> list(exact_rows([(2, 6, "H"), (3, 8, "H")], 1, 1))
    Traceback (most recent call last):
    ...
    minegraph.errors.FormatError: line 3, column 1: the header says 1 rows, but there are more
    """
    count = 0
    last = header_line
    for lineno, _, line in lines:
        if count == rows:
            raise FormatError(f"the header says {rows} rows, but there are more", lineno, 1)
        count += 1
        last = lineno
        yield lineno, line
    if count < rows:
        raise FormatError(f"the header says {rows} rows, but only {count} follow", last + 1, 1)
