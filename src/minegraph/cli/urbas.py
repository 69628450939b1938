"""``minegraph urbas``: the numeric solver program of Urbaś (2005), reading standard input.

The grid comes on standard input (docs/formats.md §3) and the solved grid, or ``NO SOLUTION``, goes
to standard output, as :func:`minegraph.urbas.solve_numeric` computes it.

Exit status: 0 solved, 1 ``NO SOLUTION``, 2 bad input, 3 ``--timeout`` expired.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from minegraph.cli.common import Formatter, read_stdin, timeout_argument
from minegraph.urbas import solve_numeric

if TYPE_CHECKING:
    from minegraph.cli.common import Subparsers

__all__ = ["register", "run"]


def register(subparsers: Subparsers) -> None:
    """Add the ``urbas`` subcommand.

    Parameters
    ----------
    subparsers
        The ``add_subparsers()`` object of the program's parser.
    """
    p = subparsers.add_parser(
        "urbas", help="the numeric solver program: grid on stdin, solved grid or NO SOLUTION on stdout",
        formatter_class=Formatter,
        description="Read a numeric grid (docs/formats.md §3) from standard input and write the solved "
                    "board, or NO SOLUTION, as Urbaś's backtracking program does. Exit status: 0 "
                    "solved, 1 NO SOLUTION, 2 bad input, 3 --timeout expired.",
        epilog="example:\n  printf '1 3 0\\n9 1 9\\n' | minegraph urbas     prints the solved grid")
    p.add_argument("--engine", default="backtrack",
                   help="engine: backtrack[:SEED] (default, the source's), auto, dp, sat[:SOLVER], brute")
    timeout_argument(p, "give up after SECONDS (exit status 3)")


def run(args: argparse.Namespace) -> int:
    """Read standard input, write the answer to standard output; the exit status.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of ``minegraph urbas``.

    Returns
    -------
    int
        The exit status: 0 solved, 1 ``NO SOLUTION``.
    """
    answer = solve_numeric(read_stdin(), args.engine, args.timeout)
    sys.stdout.write(answer)
    return 1 if answer.startswith("NO SOLUTION") else 0
