"""Naming a board's cells: the readers behind :meth:`Board.index
<minegraph.board.Board.index>` (a cell as the API takes it) and :meth:`Board.parse_cell
<minegraph.board.Board.parse_cell>` (a cell as a person types it).

A cell is ``(row, col)`` (or the JSON's ``[row, col]``) or its index on grids, its number on
graph boards, and its label on boards with labels (:mod:`minegraph.labels`: by label only, a
list standing for a tuple); reports write it as :func:`cell_name` does. The functions read a
board's attributes only.

Examples
--------
>>> from minegraph.board import Board
>>> b = Board.from_text("###\\n###")
>>> cell_index(b, [1, 2]), cell_from_text(b, " 1 , 2 ")
(5, (1, 2))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minegraph.errors import BoardError
from minegraph.labels import as_key, label_from_text, named, same_label
from minegraph.values import show, whole

if TYPE_CHECKING:
    from minegraph.board import Board, Cell

__all__ = ["cell_index", "checked_index", "cell_from_text", "cell_name"]


def cell_index(board: "Board", cell: Any) -> int:
    """The index of ``cell`` on ``board`` (see :meth:`Board.index
    <minegraph.board.Board.index>`).

    Parameters
    ----------
    board
        The board.
    cell
        ``(row, col)``, ``[row, col]`` or an index on grids; a number on graph boards; a label
        on boards with labels.

    Returns
    -------
    int
        The cell's index, ``0..size-1``.

    Raises
    ------
    BoardError
        for a cell outside the board or something that is not a cell of it.

    Examples
    --------
    >>> from minegraph.board import Board
    >>> cell_index(Board.from_graph(2, [(0, 1)], "##"), (0, 1))
    Traceback (most recent call last):
    ...
    minegraph.errors.BoardError: cell (0, 1): a graph board's cells are numbers 0..1, not (row, col)
    """
    labels = board.labels
    if labels is not None:
        key = as_key(cell)
        try:
            found = board._labels_index().get(key)
        except TypeError:
            raise BoardError(f"expected a cell label (a node of the graph), got {show(cell)}, "
                             f"which is not hashable") from None
        if found is None or not same_label(key, labels[found]):
            raise BoardError(f"no cell is labelled {named(cell)}; this board names its cells by "
                             f"their nodes, e.g. {named(labels[0])}")
        return found
    rows, cols = board.rows, board.cols
    if isinstance(cell, (tuple, list)):
        if cols is None or rows is None:
            raise BoardError(f"cell {named(cell)}: a graph board's cells are numbers "
                             f"0..{board.size - 1}, not (row, col)")
        if len(cell) != 2:
            raise BoardError(f"expected a cell (row, col), got {len(cell)} coordinates")
        r, c = whole(cell[0], "a row"), whole(cell[1], "a column")
        if not (0 <= r < rows and 0 <= c < cols):
            raise BoardError(f"cell ({r}, {c}) is outside the {rows}x{cols} grid")
        return r * cols + c
    i = whole(cell, "a cell (row, col) or a cell index" if rows is not None else "a cell number")
    size = board.size
    if not 0 <= i < size:
        raise BoardError(f"cell {i} is outside 0..{size - 1}")
    return i


def checked_index(board: "Board", index: object) -> int:
    """``index`` if it is the index of a cell of ``board`` (a whole number ``0..size-1``).

    Parameters
    ----------
    board
        The board.
    index
        A cell index.

    Returns
    -------
    int
        The index.

    Raises
    ------
    BoardError
        for anything else.

    Examples
    --------
    >>> from minegraph.board import Board
    >>> checked_index(Board.from_text("##"), 2)
    Traceback (most recent call last):
    ...
    minegraph.errors.BoardError: cell index 2 is outside 0..1
    """
    i = whole(index, "a cell index")
    if not 0 <= i < board.size:
        raise BoardError(f"cell index {i} is outside 0..{board.size - 1}")
    return i


def cell_from_text(board: "Board", text: str) -> "Cell":
    """The cell a person wrote (see :meth:`Board.parse_cell <minegraph.board.Board.parse_cell>`):
    ``"R,C"`` on grids (0-based, spaces allowed), a number on graph boards, a label as
    :func:`~minegraph.labels.label_from_text` reads it on boards with labels.

    Parameters
    ----------
    board
        The board.
    text
        The cell as written.

    Returns
    -------
    Cell
        The cell in the API's form.

    Raises
    ------
    BoardError
        for text that is not a cell of this board.

    Examples
    --------
    >>> import networkx as nx
    >>> from minegraph.board import Board
    >>> cell_from_text(Board.from_networkx(nx.path_graph(["a", -1])), "-1")
    -1
    """
    if not isinstance(text, str):
        raise BoardError(f"cell: expected text such as '3,4', got {type(text).__name__}")
    from minegraph.present import shown
    if board.labels is not None:
        found: Cell | None = label_from_text(board.labels, text)
        if found is not None:
            return found
        raise BoardError(f"cell {shown(text)}: expected one of the graph's node labels")
    parts = [p.strip() for p in text.split(",")]
    numbers = [int(p) for p in parts if p.isascii() and p.lstrip("-").isdigit() and len(p) <= 12]
    wanted = 2 if board.is_grid else 1
    if len(numbers) != len(parts) or len(numbers) != wanted:
        raise BoardError(f"cell {shown(text)}: expected "
                         + ("ROW,COL (0-based)" if board.is_grid else "a cell number"))
    cell: Cell = (numbers[0], numbers[1]) if wanted == 2 else numbers[0]
    cell_index(board, cell)        # a BoardError outside the board
    return cell


def cell_name(board: "Board", cell: "Cell") -> str:
    """A cell as reports and explanations write it: ``(r, c)`` on grids, the index on graphs,
    the node label on labelled boards (strings and integers as themselves, other labels by
    ``repr``).

    Parameters
    ----------
    board
        The board.
    cell
        A cell in the API's form (:meth:`Board.cell <minegraph.board.Board.cell>`).

    Returns
    -------
    str
        Its name.

    Examples
    --------
    >>> from minegraph.board import Board
    >>> cell_name(Board.from_text("##"), (0, 1))
    '(0, 1)'
    """
    if board.labels is not None:
        return str(cell) if isinstance(cell, (str, int)) else repr(cell)
    return f"({cell[0]}, {cell[1]})" if isinstance(cell, tuple) else str(cell)
