"""Reading a board file (:meth:`Board.from_file <minegraph.board.Board.from_file>`): the
file's bytes, handed to :func:`minegraph.formats.read_board`, which detects the format and
builds the board; errors name the file.

Examples
--------
>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "row.board")
>>> with open(path, "w") as handle:
...     _ = handle.write("#1#\\n")
>>> read_board_file(path).states
(-1, 1, -1)
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from minegraph.errors import FormatError, UserError
from minegraph.values import show

if TYPE_CHECKING:
    from minegraph.board import Board

__all__ = ["read_board_file"]


def read_board_file(path: str | os.PathLike[str], format: str | None = None, *,
                    dialect: str | None = None) -> "Board":
    """The board in the file ``path`` (see :meth:`Board.from_file
    <minegraph.board.Board.from_file>`).

    Parameters
    ----------
    path
        The file's name (``str`` or a path object).
    format
        One of :data:`minegraph.formats.FORMATS`; detected when omitted.
    dialect
        What ``.`` and ``x`` mean in board text, as for :func:`~minegraph.formats.read_board`.

    Returns
    -------
    Board
        The board.

    Raises
    ------
    UserError
        for a file that cannot be read (naming it and why) or a ``path`` that is not a file
        name.
    FormatError
        for content the format's reader rejects, the message starting with the file's name.

    Examples
    --------
    >>> read_board_file(3)
    Traceback (most recent call last):
    ...
    minegraph.errors.UserError: expected a file name (str or a path), got 3
    """
    if not isinstance(path, (str, os.PathLike)):
        raise UserError(f"expected a file name (str or a path), got {show(path)}")
    name = os.fsdecode(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise UserError(f"cannot read {name}: {exc.strerror or exc}") from exc
    # The front door detects the format; it knows no Board class, so no import circle.
    from minegraph.formats import read_board
    try:
        return read_board(data, format, name=name, dialect=dialect)
    except FormatError as exc:
        exc.args = (f"{name}: {exc}",)      # the same error, naming the file
        raise
