"""The canonical board text (FORMATS.md §1), with the common ASCII dialect read too.

Symbols: ``#`` hidden, ``M``/``F``/``*`` a known mine, ``-``/``◇`` uncovered without number,
``0``-``9`` and ``a``-``c`` (10-12) numbers. The ASCII dialect adds ``x`` for hidden and ``.``
for an uncovered 0. Headers ``mines: N`` and ``topology: NAME`` come before the rows; lines
starting with ``;`` are comments; spaces and tabs between cells are ignored.
"""

from __future__ import annotations

from minegraph.board import BLANK, HIDDEN, MAX_CELLS, MINE, Board
from minegraph.errors import FormatError, LimitError
from minegraph.topology import MAX_DEGREE, TOPOLOGIES, grid_neighbors

__all__ = ["read_text", "write_text", "SYMBOLS"]

SYMBOLS: dict[str, int] = {"#": HIDDEN, "x": HIDDEN, "X": HIDDEN,
                           "M": MINE, "F": MINE, "*": MINE,
                           "-": BLANK, "◇": BLANK, ".": 0}
SYMBOLS.update({str(d): d for d in range(10)})
SYMBOLS.update({"a": 10, "b": 11, "c": 12})

_WRITE = {HIDDEN: "#", MINE: "M", BLANK: "-"}
_EXPECTED = "one of # M F * - . x 0-9 a-c"
_HEADERS = ("mines", "topology")


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


def read_text(text: str) -> Board:
    """Read a board from the canonical text.

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
    states = [s for row in rows for s in row]
    return Board.grid(n_rows, n_cols, states, topology=topology, mines=mines)


def symbol(state: int) -> str:
    """The canonical symbol of one state."""
    if state >= 0:
        return str(state) if state < 10 else "abc"[state - 10]
    return _WRITE[state]


def write_text(board: Board) -> str:
    """Write the canonical text; ``read_text(write_text(b)) == b``.

    Raises
    ------
    FormatError
        for a graph board, which has no grid (write JSON instead).
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
