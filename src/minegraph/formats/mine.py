"""JSMinesweeper's ``.mine`` position files (docs/formats.md §2).

The first line is ``WxHxM`` -- width (columns), height (rows) and the total number of mines,
flags included -- then ``H`` rows of ``W`` characters: ``H`` hidden, ``F`` a flag (a known
mine), ``0``-``8`` an uncovered number, ``?`` a hidden cell that a saved game knows to hold a
mine (read as hidden: the solver must not be told where the mines are).

The format only knows the square grid with a known total, so :func:`write_mine` refuses
boards it cannot represent instead of silently dropping information.
"""

from __future__ import annotations

import re

from minegraph.board import BLANK, HIDDEN, MAX_CELLS, MINE, Board
from minegraph.errors import FormatError, LimitError
from minegraph.formats.rows import exact_rows
from minegraph.formats.scan import content_lines, decode, normalise_newlines, show, whole_number
from minegraph.topology import grid_neighbors

__all__ = ["read_mine", "write_mine", "HEADER"]

#: The header line ``WxHxM``; surrounding spaces are tolerated.
HEADER = re.compile(r"\s*([0-9]+)x([0-9]+)x([0-9]+)\s*")

_SYMBOLS: dict[str, int] = {"H": HIDDEN, "?": HIDDEN, "F": MINE}
_SYMBOLS.update({str(d): d for d in range(9)})
_EXPECTED = "one of H F ? 0-8"
_WRITE = {HIDDEN: "H", MINE: "F"}


def _header(lineno: int, line: str) -> tuple[int, int, int]:
    """Parse ``WxHxM``; errors point at the first character that breaks the pattern."""
    match = HEADER.fullmatch(line)
    if match is None:
        # Find how far the line follows the pattern so the column says where it goes wrong.
        partial = re.match(r"\s*(?:[0-9]+(?:x(?:[0-9]+(?:x[0-9]*)?)?)?)?", line)
        column = (partial.end() if partial else 0) + 1
        raise FormatError(f"expected the header 'WxHxM' (width x height x mines, e.g. 30x16x99), "
                          f"got {show(line.strip())}", lineno, column)
    values = [whole_number(g) for g in match.groups()]
    for k, value in enumerate(values):
        if value is None:  # more digits than any board needs
            raise FormatError(f"number {show(match.group(k + 1))} is too large for a board", lineno,
                              match.start(k + 1) + 1)
    width, height, mines = (v or 0 for v in values)
    if width < 1 or height < 1:
        bad = 1 if width < 1 else 2
        raise FormatError(f"a board needs at least one column and one row, got {width}x{height}",
                          lineno, match.start(bad) + 1)
    if width * height > MAX_CELLS:
        raise LimitError(f"line {lineno}: board of {width}x{height} cells exceeds the limit of "
                         f"{MAX_CELLS} cells")
    if mines > width * height:
        raise FormatError(f"mine count {mines} is outside 0..{width * height} (the number of cells)",
                          lineno, match.start(3) + 1)
    return width, height, mines


def read_mine(text: str | bytes) -> Board:
    """Read a JSMinesweeper ``.mine`` position.

    Cost: linear in the length of ``text``, and bounded by the header: a header beyond the
    cell limit is refused before any row is read, and extra rows at the first one.

    Parameters
    ----------
    text : str or bytes
        The file's contents; bytes are read as UTF-8.

    Returns
    -------
    Board
        A square-grid board with the header's total mine count.

    Raises
    ------
    FormatError
        naming the line and column (1-based) of a bad header, an unknown character, a row of
        the wrong length, a missing or extra row, or a number larger than its cell's
        neighbour count.

    Examples
    --------
    >>> b = read_mine("3x2x1\\nH1F\\n?11")
    >>> b.rows, b.cols, b.mines, b.states
    (2, 3, 1, (-1, 1, -2, -1, 1, 1))
    """
    text = normalise_newlines(decode(text))
    # JSMinesweeper writes no comments, but skipping `;` lines keeps this reader in step with
    # the format detection, which looks at the first non-comment line.
    lines = content_lines(text, comments=";")
    first = next(lines, None)
    if first is None:
        raise FormatError("empty input: expected the header 'WxHxM' then the rows", 1, 1)
    header_line, _, header = first
    width, height, mines = _header(header_line, header)

    neighbors = grid_neighbors("square", height, width)
    states: list[int] = []
    for r, (lineno, raw) in enumerate(exact_rows(lines, height, header_line)):
        line = raw.rstrip(" \t")
        if len(line) != width:
            # Point at the first extra character, or just past the end of a short row.
            raise FormatError(f"row has {len(line)} characters, expected {width} (the header's width)",
                              lineno, min(len(line), width) + 1)
        for c, ch in enumerate(line):
            state = _SYMBOLS.get(ch)
            if state is None:
                raise FormatError(f"unknown symbol {ch!r}; expected {_EXPECTED}", lineno, c + 1)
            if state > 0 and state > len(neighbors[r * width + c]):
                raise FormatError(f"number {state} is too large: this cell has only "
                                  f"{len(neighbors[r * width + c])} neighbours", lineno, c + 1)
            states.append(state)
    return Board.grid(height, width, states, topology="square", mines=mines)


def write_mine(board: Board) -> str:
    """Write a board as a ``.mine`` position; ``read_mine(write_mine(b)) == b``.

    Cost: linear in the number of cells.

    Raises
    ------
    FormatError
        if the board cannot be represented: not a square grid (``.mine`` has no topology),
        an unknown total mine count (the header requires one), or an uncovered cell without a
        number (``.mine`` has no symbol for it).

    Parameters
    ----------
    board : Board
        A square grid board with a known total.

    Returns
    -------
    str
        The ``.mine`` text.

    Examples
    --------
    >>> print(write_mine(Board.grid(2, 3, [-1, 1, -2, -1, 1, 1], mines=1)), end="")
    3x2x1
    H1F
    H11
    """
    if board.topology != "square" or board.rows is None or board.cols is None:
        raise FormatError(f"a .mine file holds only square grids, not a {board.topology} board; "
                          f"write it as text or JSON")
    if board.mines is None:
        raise FormatError("a .mine file needs the total number of mines, and this board's is unknown; "
                          "set it or write the board as text")
    lines = [f"{board.cols}x{board.rows}x{board.mines}"]
    for r in range(board.rows):
        row = []
        for c in range(board.cols):
            s = board.states[r * board.cols + c]
            if s == BLANK:
                raise FormatError(f"cell ({r}, {c}) is uncovered without a number, which a .mine "
                                  f"file cannot express; write the board as text or JSON")
            row.append(_WRITE[s] if s < 0 else str(s))
        lines.append("".join(row))
    return "\n".join(lines) + "\n"
