"""A board's ``repr``: Python code that rebuilds it, abbreviated for large boards
(:meth:`Board.__repr__ <minegraph.board.Board.__repr__>`). Reads a board's attributes only.

Examples
--------
>>> from minegraph.board import Board
>>> board_repr(Board.from_graph(2, [(0, 1)], "#1"))
"Board.from_graph(2, [(0, 1)], '#1')"
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from minegraph.board import Board

__all__ = ["REPR_CELLS", "REPR_ROWS", "REPR_COLS", "board_repr"]

#: Boards of at most this many cells (graph boards: and edges) have a ``repr`` that rebuilds
#: them; larger ones an abbreviated one that says so, with at most :data:`REPR_ROWS` rows of
#: :data:`REPR_COLS` cells of a grid.
REPR_CELLS = 2500
REPR_ROWS, REPR_COLS = 10, 60


def board_repr(board: "Board") -> str:
    """The ``repr`` of ``board``: the board text for grids (``Board.from_text``),
    ``Board.from_graph`` for graph boards (with labels, the constructor's fields); beyond
    :data:`REPR_CELLS` cells (graph boards: or edges) a summary line, then the top left corner
    of a grid.

    Parameters
    ----------
    board
        The board.

    Returns
    -------
    str
        The ``repr``.

    Examples
    --------
    >>> from minegraph.board import Board
    >>> board_repr(Board.from_text("#1"))
    "Board.from_text('''\\\\\\n#1\\n''')"
    """
    from minegraph.formats.text_syntax import symbol    # board-free: no import circle
    total = "unknown" if board.mines is None else str(board.mines)
    if board.rows is None or board.cols is None:
        edges = [(u, v) for u, near in enumerate(board.neighbors) for v in near if u < v]
        if board.size > REPR_CELLS or len(edges) > REPR_CELLS:
            return (f"<Board graph: {board.size} cells, {len(edges)} edges, {board.hidden_count} "
                    f"hidden, total mines {total}; abbreviated past {REPR_CELLS} cells or "
                    f"edges (minegraph.write_board(board, 'json') writes it whole)>")
        symbols = [symbol(s) for s in board.states]
        states = repr("".join(symbols)) if all(len(t) == 1 for t in symbols) else \
            repr(list(board.states))
        labels = getattr(board, "labels", None)
        if labels is not None:       # the fields themselves: from_graph knows no labels
            return (f"Board(topology='graph', rows=None, cols=None, neighbors={board.neighbors!r}, "
                    f"states={board.states!r}, mines={board.mines!r}, labels={labels!r})")
        mines = "" if board.mines is None else f", mines={board.mines}"
        return f"Board.from_graph({board.size}, {edges!r}, {states}{mines})"
    if board.size <= REPR_CELLS:
        text = board.to_text()
        if "\\" in text or "'''" in text:    # never in the canonical text; still safe
            return f"Board.from_text({text!r})"
        return f"Board.from_text('''\\\n{text}''')"
    rows, cols = min(board.rows, REPR_ROWS), min(board.cols, REPR_COLS)
    lines = [f"<Board {board.rows}x{board.cols} {board.topology}: {board.size} cells, "
             f"{board.hidden_count} hidden, total mines {total}; abbreviated past {REPR_CELLS} "
             f"cells, the first {rows} of {board.rows} rows and {cols} of {board.cols} columns "
             f"(str(board) gives the whole text)"]
    for r in range(rows):
        start = r * board.cols
        row = "".join(symbol(s) for s in board.states[start:start + cols])
        lines.append(row + ("…" if cols < board.cols else ""))
    lines.append(f"… {board.rows - rows} more rows>" if rows < board.rows else ">")
    return "\n".join(lines)
