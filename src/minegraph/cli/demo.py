"""``minegraph demo``: every shipped example position (``minegraph/examples/*.board``) with
its analysis, in the terminal's width (80 columns, or ``COLUMNS``, written to a file or a
pipe): the report of each board as ``minegraph analyze`` prints it, its probability grid in
bands of columns where it is wider (:func:`minegraph.report.grid_bands`), and the key once at
the end."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from minegraph.analysis import analyze
from minegraph.board import Board
from minegraph.cli.common import Formatter, colour_argument, shipped_boards, use_colour
from minegraph.present import output_width, wrap_text
from minegraph.report import render_analysis, render_key

if TYPE_CHECKING:
    from minegraph.cli.common import Subparsers

__all__ = ["register", "run"]


def register(subparsers: Subparsers) -> None:
    """Add the ``demo`` subcommand.

    Parameters
    ----------
    subparsers
        The ``add_subparsers()`` object of the program's parser.
    """
    p = subparsers.add_parser(
        "demo", formatter_class=Formatter, help="analyse the shipped example positions",
        description="Print each example position shipped with minegraph (minegraph/examples/"
                    "*.board) and its analysis, as minegraph analyze reports it, in the "
                    "terminal's width (80 columns, or COLUMNS, to a file or a pipe; wide "
                    "probability grids in bands of columns), with the key once at the end.",
        epilog="examples:\n  minegraph demo\n  minegraph demo --color never | less")
    colour_argument(p)


def run(args: argparse.Namespace) -> int:
    """Print each example board and its analysis, then the key; the exit status (0).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of ``minegraph demo``.

    Returns
    -------
    int
        The exit status, 0.
    """
    colour = use_colour(args.color)
    width = output_width(sys.stdout)
    examples = shipped_boards()
    intro = f"minegraph demo: {len(examples)} example positions, each analysed; the key is at the end"
    sys.stdout.write("\n".join(wrap_text(intro, width, subsequent_indent="  ")) + "\n")
    keys: dict[str, str] = {}
    for name, text in examples:
        board = Board.from_text(text)
        sys.stdout.write(f"\n=== {name} ===\n")
        sys.stdout.write(board.to_text())
        sys.stdout.write(render_analysis(analyze(board), colour=colour, width=width, legend=False))
        key = render_key(board, width=width, colour=colour)
        keys.setdefault(key, key)
    sys.stdout.write("\n" + "".join(keys))
    return 0
