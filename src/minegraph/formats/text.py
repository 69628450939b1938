"""The canonical board text (docs/formats.md §1), with its dialects.

The syntax itself (symbols, dialects, headers, comments, the checks with their line and column)
lives in :mod:`minegraph.formats.text_syntax`, which knows no Board so that ``Board.from_text``
can use it; this module is the format's reader and writer for
:func:`minegraph.formats.read_board`.
"""

from __future__ import annotations

from minegraph.board import Board
from minegraph.formats.scan import decode
from minegraph.formats.text_syntax import (DIALECTS, SYMBOLS, ParsedText, parse_text, symbol, symbols,
                                           write_text)

__all__ = ["read_text", "write_text", "parse_text", "ParsedText", "symbol", "symbols", "SYMBOLS",
           "DIALECTS"]


def read_text(text: str | bytes, dialect: str | None = None) -> Board:
    """Read a board from the canonical text (with the default dialect, the same board as
    ``Board.from_text(text)``).

    Parameters
    ----------
    text : str or bytes
        The board text; bytes are read as UTF-8.
    dialect : str, optional
        ``standard``, ``ascii`` (``x`` hidden, ``.`` an uncovered 0) or ``dots`` (``.``
        hidden); by default the text's ``dialect:`` header, else ``standard``, which refuses
        ``.`` and ``x`` with a hint.

    Raises
    ------
    FormatError
        naming line and column (1-based) and what was expected.
    LimitError
        for a board of more than :data:`~minegraph.states.MAX_CELLS` cells.

    Returns
    -------
    Board
        The board.

    Examples
    --------
    >>> b = read_text("mines: 2\\n#2#\\n-10")
    >>> b.mines, b.states
    (2, (-1, 2, -1, -3, 1, 0))
    >>> read_text("..1\\n.?1", dialect="dots").states
    (-1, -1, 1, -1, -1, 1)
    """
    parsed = parse_text(decode(text), dialect)
    return Board.grid(parsed.rows, parsed.cols, parsed.states, topology=parsed.topology,
                      mines=parsed.mines)
