"""``minegraph solve``: one completion of each board, written in the board's own format (board
text in the input's style: cells separated by spaces or tabs when the input's were, the
symbols canonical).

Exit status 1 when a board has no completion (the numeric format then prints ``NO
SOLUTION``, as Urbaś's program does). With several files each answer is headed
``=== NAME ===`` (the file's name, or its path where two files share a name) and an error
names its file; the command stops at the first error, and exits
with 1 if any board had no completion.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from minegraph.analysis import solve
from minegraph.cli.common import (Formatter, board_arguments, engine_help, headings, load_board_text,
                                  naming)
from minegraph.formats import write_board
from minegraph.formats.text_syntax import row_separator, write_text

if TYPE_CHECKING:
    from minegraph.cli.common import Subparsers

__all__ = ["register", "run", "EXAMPLES"]

#: The examples ``minegraph solve --help`` shows.
EXAMPLES = """\
examples:
  minegraph solve position.board               one completion, in the board text
  minegraph solve --mines 10 game.mine         with a total mine count, in the .mine format
  minegraph solve a.board b.board              several boards, each headed by its file
  minegraph solve --engine sat:minisat - < b.board"""


def register(subparsers: Subparsers) -> None:
    """Add the ``solve`` subcommand.

    Parameters
    ----------
    subparsers
        The ``add_subparsers()`` object of the program's parser.
    """
    p = subparsers.add_parser(
        "solve", formatter_class=Formatter,
        help="print one completion of the board, or say none exists",
        description="Print one completion of each board (every hidden cell decided: mines, and "
                    "numbers on the safe cells) in the board's own format, or say that none "
                    "exists (exit status 1).",
        epilog=f"{engine_help()}\n\n{EXAMPLES}")
    board_arguments(p, several=True)


def run(args: argparse.Namespace) -> int:
    """Solve the boards named in ``args``; 0 all solved, 1 some board has no completion.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of ``minegraph solve``.

    Returns
    -------
    int
        The exit status: 0 all solved, 1 some board has no completion.
    """
    paths: list[str] = args.boards
    several = len(paths) > 1
    status = 0
    out = sys.stdout
    titles = headings(paths)
    for k, path in enumerate(paths):
        with naming(path, always=several):
            board, fmt, text = load_board_text(path, args.format, args.dialect, args.states)
            completed = solve(board, args.engine, mines=args.mines, timeout=args.timeout)
        if several:
            out.write(("\n" if k else "") + f"=== {titles[k]} ===\n")
        if completed is None:
            out.write("NO SOLUTION\n" if fmt == "numeric" else "no solution: the board is inconsistent\n")
            status = 1
        elif fmt == "text":
            # In the input's style: its cells separated as they were (the symbols canonical).
            out.write(write_text(completed, separator=row_separator(text)))
        else:
            out.write(write_board(completed, fmt))
    return status
