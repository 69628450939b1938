"""A check shared by the readers whose header states the number of rows."""

from __future__ import annotations

from minegraph.errors import FormatError

__all__ = ["check_row_count"]


def check_row_count(body: list[tuple[int, str]], rows: int, header_line: int) -> None:
    """Raise a :class:`FormatError` at the right line if ``body`` (numbered lines after the
    header) does not hold exactly the ``rows`` the header announced.

    >>> check_row_count([(2, "H1"), (3, "11")], 2, 1)
    >>> check_row_count([(2, "H1")], 2, 1)
    Traceback (most recent call last):
    ...
    minegraph.errors.FormatError: line 3, column 1: the header says 2 rows, but only 1 follow
    """
    if len(body) > rows:
        raise FormatError(f"the header says {rows} rows, but there are more", body[rows][0], 1)
    if len(body) < rows:
        after = body[-1][0] if body else header_line
        raise FormatError(f"the header says {rows} rows, but only {len(body)} follow", after + 1, 1)
