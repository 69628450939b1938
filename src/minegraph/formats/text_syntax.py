"""The canonical board text (docs/formats.md §1) as plain data: parsing and writing without a Board.

:func:`parse_text` checks the text and returns its parts (:class:`ParsedText`);
:func:`write_text` writes any object with a board's grid attributes. The board builds
``Board.from_text`` and ``Board.to_text`` on them and :mod:`minegraph.formats.text` its reader,
so the board and its text form need not import each other: this module knows the states and
the topologies only.

Symbols: ``#`` hidden, ``M``/``F``/``*`` a known mine, ``-``/``◇`` uncovered without number,
``0``-``9`` and ``a``-``c`` (10-12) numbers. The ASCII dialect adds ``x`` for hidden and ``.``
for an uncovered 0. Headers ``mines: N`` and ``topology: NAME`` come before the rows; lines
starting with ``;`` are comments; spaces and tabs between cells are ignored.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol, Sequence

from minegraph.errors import FormatError, LimitError
from minegraph.states import BLANK, HIDDEN, MAX_CELLS, MINE
from minegraph.topology import MAX_DEGREE, TOPOLOGIES, grid_neighbors

__all__ = ["ParsedText", "TextGrid", "parse_text", "write_text", "symbol", "SYMBOLS"]

SYMBOLS: dict[str, int] = {"#": HIDDEN, "x": HIDDEN, "X": HIDDEN,
                           "M": MINE, "F": MINE, "*": MINE,
                           "-": BLANK, "◇": BLANK, ".": 0}
SYMBOLS.update({str(d): d for d in range(10)})
SYMBOLS.update({"a": 10, "b": 11, "c": 12})

_WRITE = {HIDDEN: "#", MINE: "M", BLANK: "-"}
_EXPECTED = "one of # M F * - . x 0-9 a-c"
_HEADERS = ("mines", "topology")


class ParsedText(NamedTuple):
    """A checked board text: a grid of ``rows`` x ``cols`` row-major ``states``."""

    topology: str
    rows: int
    cols: int
    states: tuple[int, ...]
    mines: int | None


class TextGrid(Protocol):
    """What :func:`write_text` reads of a board (a :class:`~minegraph.board.Board` has it)."""

    @property
    def topology(self) -> str: ...

    @property
    def rows(self) -> int | None: ...

    @property
    def cols(self) -> int | None: ...

    @property
    def states(self) -> Sequence[int]: ...

    @property
    def mines(self) -> int | None: ...


def _parse_header(line: str, lineno: int, headers: dict[str, tuple[str, int, int]]) -> bool:
    """Record a ``key: value`` header; return False if the line is not a header."""
    key, sep, value = line.partition(":")
    if not sep:
        return False
    name = key.strip().lower()
    if name not in _HEADERS:
        raise FormatError(f"unknown header {key.strip()!r}; expected one of {', '.join(_HEADERS)}",
                          lineno, 1)
    if name in headers:
        raise FormatError(f"header {name!r} given twice", lineno, 1)
    column = len(key) + 2 + (len(value) - len(value.lstrip()))
    headers[name] = (value.strip(), lineno, column)
    return True


def parse_text(text: str) -> ParsedText:
    """Check the canonical text and return its topology, size, states and mine total.

    Everything a reader can reject is rejected here, with its place: unknown symbols and
    headers, ragged rows, a bad total, numbers above the topology's maximum or the cell's
    neighbour count, and boards over :data:`~minegraph.states.MAX_CELLS`.

    Raises
    ------
    FormatError
        naming line and column (1-based) and what was expected.
    LimitError
        for a board of more than :data:`~minegraph.states.MAX_CELLS` cells.

    Examples
    --------
    >>> parse_text("mines: 2\\ntopology: hex\\n#2\\n-.")
    ParsedText(topology='hex', rows=2, cols=2, states=(-1, 2, -3, 0), mines=2)
    """
    headers: dict[str, tuple[str, int, int]] = {}
    rows: list[list[int]] = []
    places: list[list[tuple[int, int]]] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        stripped = line.strip()
        if not stripped or stripped.startswith(";"):
            continue
        if not rows and _parse_header(line, lineno, headers):
            continue
        if ":" in line:
            raise FormatError("header lines must come before the grid rows", lineno, line.index(":") + 1)
        row, where = [], []
        for col, ch in enumerate(line, start=1):
            if ch in " \t":
                continue
            state = SYMBOLS.get(ch)
            if state is None:
                raise FormatError(f"unknown symbol {ch!r}; expected {_EXPECTED}", lineno, col)
            row.append(state)
            where.append((lineno, col))
        if rows and len(row) != len(rows[0]):
            width = len(rows[0])
            # Point at the first extra cell, or just past the end of a short row.
            column = where[width][1] if len(row) > width else len(line.rstrip()) + 1
            raise FormatError(f"row has {len(row)} cells but the first row has {width}", lineno, column)
        rows.append(row)
        places.append(where)
    if not rows:
        raise FormatError("empty input: expected at least one row of cells", 1, 1)

    topology = "square"
    if "topology" in headers:
        value, ln, col = headers["topology"]
        if value.lower() not in TOPOLOGIES:
            raise FormatError(f"unknown topology {value!r}; expected one of {', '.join(TOPOLOGIES)}", ln, col)
        topology = value.lower()
    n_rows, n_cols = len(rows), len(rows[0])
    mines = None
    if "mines" in headers:
        value, ln, col = headers["mines"]
        if value.lower() in ("", "?", "unknown", "none"):
            mines = None
        else:
            try:
                mines = int(value)
            except ValueError:
                raise FormatError(f"expected a whole number of mines, got {value!r}", ln, col) from None
            if not 0 <= mines <= n_rows * n_cols:
                raise FormatError(f"mine count {mines} is outside 0..{n_rows * n_cols} (the number of cells)",
                                  ln, col)
    if n_rows * n_cols > MAX_CELLS:
        raise LimitError(f"board of {n_rows}x{n_cols} cells exceeds the limit of {MAX_CELLS} cells")
    neighbors = grid_neighbors(topology, n_rows, n_cols)
    cap = MAX_DEGREE[topology]
    for r, row in enumerate(rows):
        for c, s in enumerate(row):
            if s > 0:
                degree = len(neighbors[r * n_cols + c])
                if s > cap or s > degree:
                    ln, col = places[r][c]
                    why = f"the {topology} grid allows at most {cap}" if s > cap else \
                        f"this cell has only {degree} neighbours"
                    raise FormatError(f"number {s} is too large: {why}", ln, col)
    return ParsedText(topology, n_rows, n_cols, tuple(s for row in rows for s in row), mines)


def symbol(state: int) -> str:
    """The canonical symbol of one state.

    Examples
    --------
    >>> [symbol(s) for s in (HIDDEN, MINE, BLANK, 3, 12)]
    ['#', 'M', '-', '3', 'c']
    """
    if state >= 0:
        return str(state) if state < 10 else "abc"[state - 10]
    return _WRITE[state]


def write_text(board: TextGrid) -> str:
    """Write the canonical text of a grid board; ``read_text(write_text(b)) == b``.

    Raises
    ------
    FormatError
        for a graph board, which has no grid (write JSON instead).

    Examples
    --------
    >>> print(write_text(parse_text("mines: 1\\n#1\\n11")), end="")
    mines: 1
    #1
    11
    """
    if board.rows is None or board.cols is None:
        raise FormatError("a graph board has no grid text form; write it as JSON")
    lines = []
    if board.mines is not None:
        lines.append(f"mines: {board.mines}")
    if board.topology != "square":
        lines.append(f"topology: {board.topology}")
    cols = board.cols
    for r in range(board.rows):
        lines.append("".join(symbol(s) for s in board.states[r * cols:(r + 1) * cols]))
    return "\n".join(lines) + "\n"
