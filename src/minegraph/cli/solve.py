"""``minegraph solve``: one completion of the board, written in the board's own format.

Exit status 1 when the board has no completion (the numeric format then prints ``NO
SOLUTION``, as Urbaś's program does).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from minegraph.analysis import solve
from minegraph.cli.common import board_arguments, load_board
from minegraph.formats import write_board

if TYPE_CHECKING:
    from minegraph.cli.common import Subparsers

__all__ = ["register", "run"]


def register(subparsers: Subparsers) -> None:
    """Add the ``solve`` subcommand."""
    p = subparsers.add_parser("solve", help="print one completion of the board, or say none exists")
    board_arguments(p)


def run(args: argparse.Namespace) -> int:
    """Solve the board named in ``args``; 0 solved, 1 no completion."""
    board, fmt = load_board(args.board, args.format, args.dialect)
    if args.mines is not None:
        board = board.with_states(board.states, args.mines)
    completed = solve(board, args.engine, timeout=args.timeout)
    if completed is None:
        sys.stdout.write("NO SOLUTION\n" if fmt == "numeric" else "no solution: the board is inconsistent\n")
        return 1
    sys.stdout.write(write_board(completed, fmt))
    return 0
