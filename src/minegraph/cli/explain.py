"""``minegraph explain``: why a hidden cell is certainly safe or a mine.

Prints the board around the cell with the numbers (and flags) that force it marked, and one
sentence; ``--json`` prints the explanation object (``cell``, ``status``, ``clues``,
``flags``, ``uses_total``, ``smallest``, ``probability``, ``text``). Without a cell it explains
an inconsistent board: a minimal set of numbers that contradict each other.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from minegraph.cli.common import (Formatter, fit, format_argument, load_board, mines_argument,
                                  naming, timeout_argument)
from minegraph.present import output_width

if TYPE_CHECKING:
    from minegraph.board import Board, Cell
    from minegraph.cli.common import Subparsers

__all__ = ["register", "run", "parse_cell", "EXAMPLES"]

#: The examples ``minegraph explain --help`` shows.
EXAMPLES = """\
examples:
  minegraph explain position.board 3,4         why (3,4) is safe or a mine: the numbers that force it
  minegraph explain --json position.board 0,2  the explanation object
  minegraph explain graph.json 7               a graph board's cells are numbers
  minegraph explain broken.board               why the board has no completion at all"""


def parse_cell(text: str, board: Board) -> Cell:
    """``board.parse_cell(text)`` (:meth:`~minegraph.board.Board.parse_cell`).

    Parameters
    ----------
    text : str
        The cell as given (``ROW,COL``, or a graph board's label or index).
    board : Board
        The board the cell is on.

    Returns
    -------
    Cell
        The cell.

    Examples
    --------
    >>> from minegraph import Board
    >>> parse_cell("0,2", Board.from_text("###"))
    (0, 2)
    """
    return board.parse_cell(text)


def register(subparsers: Subparsers) -> None:
    """Add the ``explain`` subcommand.

    Parameters
    ----------
    subparsers
        The ``add_subparsers()`` object of the program's parser.
    """
    p = subparsers.add_parser(
        "explain", formatter_class=Formatter, epilog=EXAMPLES,
        help="why a hidden cell is certainly safe or a mine (the fewest numbers that force it)",
        description="Say why a hidden cell is certainly safe or certainly a mine: a minimal set of "
                    "numbers (and flags, and the total) that forces it, marked on the board, and "
                    "one sentence. Cells are ROW,COL counted from 0 at the top left. Without a "
                    "cell, explain why the board is inconsistent.")
    p.add_argument("board", help="board file, or - for standard input")
    p.add_argument("cell", nargs="?", help="the cell: ROW,COL (0-based), or a cell number on graph boards")
    format_argument(p)
    mines_argument(p)
    timeout_argument(p, "give up after SECONDS (exit status 3)")
    p.add_argument("--json", action="store_true", help="print the explanation object")


def run(args: argparse.Namespace) -> int:
    """Explain the cell named in ``args``; exit status 0.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of ``minegraph explain``.

    Returns
    -------
    int
        The exit status, 0.
    """
    from minegraph.explain import explain
    with naming(args.board, always=False):
        board, _ = load_board(args.board, args.format, args.dialect, args.states)
        if args.mines is not None:
            board = board.with_states(board.states, args.mines)
        cell = None if args.cell is None else parse_cell(args.cell, board)
        e = explain(board, cell, timeout=args.timeout)
    if args.json:
        sys.stdout.write(json.dumps(e.to_json(), allow_nan=False) + "\n")
        return 0
    fragment = e.fragment()
    if fragment:
        sys.stdout.write(fragment)
    sys.stdout.write(fit(e.text, output_width(sys.stdout)))
    return 0
