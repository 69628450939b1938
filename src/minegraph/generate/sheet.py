"""Printable sheets: a puzzle and its solution as SVG, through the shared overlays of
:func:`minegraph.formats.svg.board_svg`.

Cells keep their own shape (squares, or the triangles of the 12-neighbour grid). On the puzzle
sheet the hidden cells are white, to be written on, and the numbers are printed on light grey
cells; the solution sheet is the same picture with the mines drawn in the hidden cells.

Examples
--------
>>> from minegraph import Board
>>> board = Board.from_text("#2#\\n###")
>>> svg = puzzle_svg(board, caption="a 2x3 puzzle")
>>> svg.count('class="number"'), 'a 2x3 puzzle' in svg
(1, True)
>>> solution_svg(board, frozenset({0, 2})).count('class="mine"')
2
"""

from __future__ import annotations

from minegraph.board import HIDDEN, MINE, Board
from minegraph.errors import BoardError
from minegraph.formats.svg import board_svg

__all__ = ["puzzle_svg", "solution_svg", "PAPER"]

#: The colour of a hidden cell on paper.
PAPER = "#ffffff"


def _size(board: Board) -> float:
    """Cell size in pixels: large enough to write in (triangles, narrower, get longer sides),
    a page wide (900 px) at most for big tables."""
    cols = board.cols or 1
    if board.topology == "triangle":
        return max(12.0, min(48.0, 900.0 / (cols / 2 + 0.5)))
    return max(12.0, min(36.0, 900.0 / cols))


def puzzle_svg(board: Board, *, caption: str | None = None, title: str | None = None) -> str:
    """The puzzle sheet of ``board``: numbers printed, hidden cells white.

    Parameters
    ----------
    board
        The puzzle (known mines are drawn as such, on white cells).
    caption
        A line of text under the picture.
    title
        The document's title (``<title>``).

    Returns
    -------
    str
        The SVG document.

    Examples
    --------
    >>> from minegraph import Board
    >>> 'fill="#ffffff"' in puzzle_svg(Board.from_text("topology: triangle\\n#1#"))
    True
    """
    hidden = {i: PAPER for i, s in enumerate(board.states) if s in (HIDDEN, MINE)}
    return board_svg(board, fills=hidden, caption=caption, title=title, size=_size(board))


def solution_svg(board: Board, layout: frozenset[int], *, caption: str | None = None,
                 title: str | None = None) -> str:
    """The solution sheet of ``board`` (the puzzle) with the mines of ``layout`` drawn.

    Parameters
    ----------
    board
        The puzzle.
    layout
        The mined cells (indices), all hidden in the puzzle.
    caption
        A line of text under the picture.
    title
        The document's title (``<title>``).

    Returns
    -------
    str
        The SVG document.

    Raises
    ------
    BoardError
        for a mine on a cell that is not hidden in the puzzle.
    """
    states = list(board.states)
    for i in layout:
        if not 0 <= i < len(states) or states[i] not in (HIDDEN, MINE):
            raise BoardError(f"the solution puts a mine on cell {board.label(i)}, which is not hidden")
        states[i] = MINE
    shown = board.with_states(states)
    return puzzle_svg(shown, caption=caption, title=title)
