"""``minegraph solve``: one completion of each board, written in the board's own format.

Exit status 1 when a board has no completion (the numeric format then prints ``NO
SOLUTION``, as Urbaś's program does). With several files each answer is headed
``=== FILE ===`` and an error names its file; the command stops at the first error, and exits
with 1 if any board had no completion.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from minegraph.analysis import solve
from minegraph.cli.common import Formatter, board_arguments, engine_help, load_board, naming
from minegraph.formats import write_board

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
    """Add the ``solve`` subcommand."""
    p = subparsers.add_parser(
        "solve", formatter_class=Formatter,
        help="print one completion of the board, or say none exists",
        description="Print one completion of each board (every hidden cell decided: mines, and "
                    "numbers on the safe cells) in the board's own format, or say that none "
                    "exists (exit status 1).",
        epilog=f"{engine_help()}\n\n{EXAMPLES}")
    board_arguments(p, several=True)


def run(args: argparse.Namespace) -> int:
    """Solve the boards named in ``args``; 0 all solved, 1 some board has no completion."""
    paths: list[str] = args.boards
    several = len(paths) > 1
    status = 0
    out = sys.stdout
    for k, path in enumerate(paths):
        with naming(path, always=several):
            board, fmt = load_board(path, args.format, args.dialect, args.states)
            completed = solve(board, args.engine, mines=args.mines, timeout=args.timeout)
        if several:
            out.write(("\n" if k else "") + f"=== {path} ===\n")
        if completed is None:
            out.write("NO SOLUTION\n" if fmt == "numeric" else "no solution: the board is inconsistent\n")
            status = 1
        else:
            out.write(write_board(completed, fmt))
    return status
