"""The numeric grid of Urbaś's backtracking solver (docs/formats.md §3).

The first line is ``rows cols mines`` (``mines`` 0 means "not specified"), then ``rows`` lines
of ``cols`` integers: ``0``-``8`` a number, ``9`` a covered cell, ``-1`` a known mine. A solved
board is written in the same shape with every covered cell replaced by ``-1`` or its own
neighbour count, or as the single line ``NO SOLUTION``.

Only the square grid fits (the header has no topology), and since ``0`` in the header means
"not specified", a board whose total is known to be zero cannot be written as a puzzle.
"""

from __future__ import annotations

import re
from itertools import islice
from typing import Iterable

from minegraph.board import BLANK, HIDDEN, MAX_CELLS, MINE, Board
from minegraph.errors import BoardError, FormatError, LimitError
from minegraph.formats.rows import exact_rows
from minegraph.formats.scan import (COUNT_UP_TO, content_lines, count_tokens, decode, normalise_newlines,
                                    show, whole_number)
from minegraph.topology import grid_neighbors

__all__ = ["read_numeric", "write_numeric", "write_numeric_solution", "completed_numbers",
           "NO_SOLUTION", "COVERED"]

#: The solver's answer when no placement of mines fits the board.
NO_SOLUTION = "NO SOLUTION"

#: The integer of a covered (hidden) cell.
COVERED = 9

_TOKEN = re.compile(r"[^ \t]+")  # values are separated by spaces and tabs only
_EXPECTED = "-1 (a mine), 0-8 (a number) or 9 (covered)"


def _tokens(line: str, most: int) -> list[tuple[str, int]]:
    """The first ``most`` space-separated tokens of a line with their 1-based columns (never
    more, so that a hostile line costs no more memory than a valid one)."""
    return [(m.group(), m.start() + 1) for m in islice(_TOKEN.finditer(line), most)]


def _count(line: str) -> str:
    """The number of values of a line, for a message (``more than 10000`` for a huge line)."""
    count = count_tokens(line)
    return str(count) if count is not None else f"more than {COUNT_UP_TO}"


def _integer(token: str, lineno: int, column: int, what: str) -> int:
    # ASCII digits only: int() would also take "٣", "1_0" or "+3".
    value = whole_number(token, signed=True)
    if value is None:
        raise FormatError(f"expected {what}, got {show(token)}", lineno, column)
    return value


def _header(lineno: int, line: str) -> tuple[int, int, int | None]:
    tokens = _tokens(line, 4)
    if len(tokens) != 3:
        count = _count(line)
        column = tokens[3][1] if len(tokens) > 3 else len(line.rstrip(" \t")) + 1
        raise FormatError(f"expected the header 'rows cols mines' (three integers), "
                          f"got {count} value{'s' if count != '1' else ''}", lineno, column)
    (rt, rc), (ct, cc), (mt, mc) = tokens
    rows = _integer(rt, lineno, rc, "the number of rows (an integer)")
    cols = _integer(ct, lineno, cc, "the number of columns (an integer)")
    mines = _integer(mt, lineno, mc, "the number of mines (an integer, 0 if not specified)")
    if rows < 1:
        raise FormatError(f"a board needs at least one row, got {rows}", lineno, rc)
    if cols < 1:
        raise FormatError(f"a board needs at least one column, got {cols}", lineno, cc)
    if rows * cols > MAX_CELLS:
        raise LimitError(f"line {lineno}: board of {rows}x{cols} cells exceeds the limit of "
                         f"{MAX_CELLS} cells")
    if not 0 <= mines <= rows * cols:
        raise FormatError(f"mine count {mines} is outside 0..{rows * cols} (the number of cells; "
                          f"0 means not specified)", lineno, mc)
    return rows, cols, (mines or None)


def read_numeric(text: str | bytes) -> Board:
    """Read a numeric grid; blank lines are ignored, each grid row must be on its own line.

    Cost: linear in the length of ``text``, and bounded by the header: a header beyond the
    cell limit is refused before any row is read, extra rows at the first one, and a row
    with too many values after ``cols + 1`` of them.

    Raises
    ------
    FormatError
        naming the line and column (1-based) of a bad header, a value that is not one of
        ``-1``, ``0``-``8``, ``9``, a row with the wrong number of values, a missing or extra
        row, or a number larger than its cell's neighbour count.

    Parameters
    ----------
    text : str or bytes
        The grid: ``rows cols mines`` then one line per row.

    Returns
    -------
    Board
        The board.

    Examples
    --------
    >>> b = read_numeric("2 3 0\\n9 1 -1\\n9 1 9\\n")
    >>> b.mines, b.states
    (None, (-1, 1, -2, -1, 1, -1))
    """
    lines = content_lines(normalise_newlines(decode(text)))
    first = next(lines, None)
    if first is None:
        raise FormatError("empty input: expected the header 'rows cols mines' then the rows", 1, 1)
    header_line, _, header = first
    rows, cols, mines = _header(header_line, header)

    neighbors = grid_neighbors("square", rows, cols)
    states: list[int] = []
    for r, (lineno, line) in enumerate(exact_rows(lines, rows, header_line)):
        tokens = _tokens(line, cols + 1)
        if len(tokens) != cols:
            column = tokens[cols][1] if len(tokens) > cols else len(line.rstrip(" \t")) + 1
            raise FormatError(f"row has {_count(line)} values, expected {cols} (the header's cols)",
                              lineno, column)
        for c, (token, column) in enumerate(tokens):
            value = _integer(token, lineno, column, _EXPECTED)
            if not -1 <= value <= COVERED:
                raise FormatError(f"expected {_EXPECTED}, got {value}", lineno, column)
            if value == COVERED:
                states.append(HIDDEN)
            elif value == -1:
                states.append(MINE)
            else:
                degree = len(neighbors[r * cols + c])
                if value > degree:
                    raise FormatError(f"number {value} is too large: this cell has only {degree} "
                                      f"neighbours", lineno, column)
                states.append(value)
    return Board.grid(rows, cols, states, mines=mines)


def _square_grid(board: Board, what: str) -> tuple[int, int]:
    if board.topology != "square" or board.rows is None or board.cols is None:
        raise FormatError(f"the numeric grid holds only square grids, not a {board.topology} board; "
                          f"{what}")
    return board.rows, board.cols


def _grid_lines(board: Board, rows: int, cols: int, header_mines: int) -> list[str]:
    lines = [f"{rows} {cols} {header_mines}"]
    for r in range(rows):
        row = []
        for c in range(cols):
            s = board.states[r * cols + c]
            if s == BLANK:
                raise FormatError(f"cell ({r}, {c}) is uncovered without a number, which the numeric "
                                  f"grid cannot express; write the board as text or JSON")
            row.append(str(COVERED if s == HIDDEN else -1 if s == MINE else s))
        lines.append(" ".join(row))
    return lines


def write_numeric(board: Board) -> str:
    """Write a board as a numeric grid; ``read_numeric(write_numeric(b)) == b``.

    An unknown total is written as ``0``. Cost: linear in the number of cells.

    Raises
    ------
    FormatError
        for a board that is not a square grid, has an uncovered cell without a number, or
        whose total is known to be 0 (the header's 0 means "not specified").

    Parameters
    ----------
    board : Board
        A square grid board.

    Returns
    -------
    str
        The numeric grid.

    Examples
    --------
    >>> print(write_numeric(Board.grid(2, 2, [-1, 1, -2, 1], mines=1)), end="")
    2 2 1
    9 1
    -1 1
    """
    rows, cols = _square_grid(board, "write it as text or JSON")
    if board.mines == 0:
        raise FormatError("a total of 0 mines cannot be written: in the numeric grid's header 0 "
                          "means 'not specified'; write the board as text or JSON")
    return "\n".join(_grid_lines(board, rows, cols, board.mines or 0)) + "\n"


def completed_numbers(board: Board, mine_cells: Iterable[int]) -> Board:
    """The finished board: ``mine_cells`` and the known mines as mines, every other cell its count.

    Cost: linear in the number of cells plus edges.

    Parameters
    ----------
    board : Board
        The position that was solved (any topology, graph boards included).
    mine_cells : iterable of int
        Cell indices (``r * cols + c`` on grids) that the solution mines, besides the board's
        known mines.

    Returns
    -------
    Board
        The same graph and total, with no hidden or blank cell left.

    Raises
    ------
    BoardError
        if the mines do not solve the board: a mine on an uncovered cell, a given number that
        differs from its neighbour count, or a total that differs from the board's.

    Examples
    --------
    >>> b = read_numeric("2 3 0\\n9 1 9\\n9 9 9")
    >>> print(write_numeric(completed_numbers(b, {0})), end="")
    2 3 0
    -1 1 0
    1 1 0
    """
    mined = [s == MINE for s in board.states]
    for i in mine_cells:
        if not 0 <= i < board.size:
            raise BoardError(f"mine cell {i} is outside 0..{board.size - 1}")
        if board.states[i] not in (HIDDEN, MINE):
            raise BoardError(f"cell {board.label(i)} is uncovered, so it cannot hold a mine")
        mined[i] = True
    total = sum(mined)
    if board.mines is not None and total != board.mines:
        raise BoardError(f"the solution places {total} mines, but the board's total is {board.mines}")
    states = []
    for i, s in enumerate(board.states):
        if mined[i]:
            states.append(MINE)
            continue
        count = sum(1 for j in board.neighbors[i] if mined[j])
        if s >= 0 and s != count:
            raise BoardError(f"cell {board.label(i)} shows {s} but has {count} neighbouring mines "
                             f"in the solution")
        states.append(count)
    return board.with_states(states)


def write_numeric_solution(board: Board | None) -> str:
    """Write the solver's answer: the completed grid, or ``NO SOLUTION`` for ``None``.

    ``board`` must have every cell decided (no hidden cell), as :func:`completed_numbers`
    returns; uncovered cells without a number get their count. The header repeats the board's
    total, 0 if unknown. Cost: linear in the number of cells plus edges.

    Raises
    ------
    FormatError
        for a board that is not a square grid or still has a hidden cell.
    BoardError
        if a given number differs from the count of its neighbouring mines.

    Parameters
    ----------
    board : Board or None
        The completed board, or ``None`` when there is no completion.

    Returns
    -------
    str
        The answer's text.

    Examples
    --------
    >>> write_numeric_solution(None)
    'NO SOLUTION\\n'
    >>> print(write_numeric_solution(read_numeric("1 3 1\\n-1 1 0")), end="")
    1 3 1
    -1 1 0
    """
    if board is None:
        return NO_SOLUTION + "\n"
    rows, cols = _square_grid(board, "a solution cannot be written in this format")
    for i, s in enumerate(board.states):
        if s == HIDDEN:
            raise FormatError(f"cell {board.label(i)} is still hidden: a solution decides every cell "
                              f"(see completed_numbers)")
    finished = completed_numbers(board, ())
    return "\n".join(_grid_lines(finished, rows, cols, board.mines or 0)) + "\n"
