"""The canonical board text (docs/formats.md §1), with the common ASCII dialect read too.

The syntax itself (symbols, headers, comments, the checks with their line and column) lives in
:mod:`minegraph.formats.text_syntax`, which knows no Board so that ``Board.from_text`` can use
it; this module is the format's reader and writer for :func:`minegraph.formats.read_board`.
"""

from __future__ import annotations

from minegraph.board import Board
from minegraph.formats.text_syntax import SYMBOLS, ParsedText, parse_text, symbol, write_text

__all__ = ["read_text", "write_text", "parse_text", "ParsedText", "symbol", "SYMBOLS"]


def read_text(text: str) -> Board:
    """Read a board from the canonical text (the same board as ``Board.from_text(text)``).

    Raises
    ------
    FormatError
        naming line and column (1-based) and what was expected.

    Examples
    --------
    >>> b = read_text("mines: 2\\n#2#\\n-1.")
    >>> b.mines, b.states
    (2, (-1, 2, -1, -3, 1, 0))
    """
    return Board.from_text(text)
