"""``minegraph demo``: every shipped example position (``minegraph/examples/*.board``) with
its analysis, in 80 columns: the report of each board as ``minegraph analyze`` prints it, its
probability grid in bands of columns where it is wider, and the key once at the end."""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import TYPE_CHECKING

from minegraph.analysis import analyze
from minegraph.board import Board
from minegraph.cli.common import Formatter, colour_argument, shipped_boards, use_colour
from minegraph.report import render_analysis, render_key

if TYPE_CHECKING:
    from minegraph.cli.common import Subparsers

__all__ = ["register", "run"]


def register(subparsers: Subparsers) -> None:
    """Add the ``demo`` subcommand."""
    p = subparsers.add_parser(
        "demo", formatter_class=Formatter, help="analyse the shipped example positions",
        description="Print each example position shipped with minegraph (minegraph/examples/"
                    "*.board) and its analysis, as minegraph analyze reports it, in 80 columns "
                    "(wide probability grids in bands of columns), with the key once at the end.",
        epilog="examples:\n  minegraph demo\n  minegraph demo --color never | less")
    colour_argument(p)


#: The demo's lines fit in a terminal of this many columns.
WIDTH = 80


def run(args: argparse.Namespace) -> int:
    """Print each example board and its analysis, then the key; the exit status (0)."""
    colour = use_colour(args.color)
    examples = shipped_boards()
    intro = f"minegraph demo: {len(examples)} example positions, each analysed; the key is at the end"
    sys.stdout.write(textwrap.fill(intro, WIDTH, subsequent_indent="  ", break_on_hyphens=False) + "\n")
    keys: dict[str, str] = {}
    for name, text in examples:
        board = Board.from_text(text)
        sys.stdout.write(f"\n=== {name} ===\n")
        sys.stdout.write(board.to_text())
        sys.stdout.write(render_analysis(analyze(board), colour=colour, width=WIDTH, legend=False))
        key = render_key(board, width=WIDTH, colour=colour)
        keys.setdefault(key, key)
    sys.stdout.write("\n" + "".join(keys))
    return 0
