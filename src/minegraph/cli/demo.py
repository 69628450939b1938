"""``minegraph demo``: every shipped example position (``minegraph/examples/*.board``) with
its analysis."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from minegraph.analysis import analyze
from minegraph.board import Board
from minegraph.cli.common import Formatter, colour_argument, shipped_boards, use_colour
from minegraph.report import render_analysis

if TYPE_CHECKING:
    from minegraph.cli.common import Subparsers

__all__ = ["register", "run"]


def register(subparsers: Subparsers) -> None:
    """Add the ``demo`` subcommand."""
    p = subparsers.add_parser(
        "demo", formatter_class=Formatter, help="analyse the shipped example positions",
        description="Print each example position shipped with minegraph (minegraph/examples/"
                    "*.board) and its analysis, as minegraph analyze reports it.",
        epilog="examples:\n  minegraph demo\n  minegraph demo --color never | less")
    colour_argument(p)


def run(args: argparse.Namespace) -> int:
    """Print each example board and its analysis; the exit status (0)."""
    colour = use_colour(args.color)
    for name, text in shipped_boards():
        board = Board.from_text(text)
        sys.stdout.write(f"=== {name} ===\n")
        sys.stdout.write(board.to_text())
        sys.stdout.write(render_analysis(analyze(board), colour=colour))
        sys.stdout.write("\n")
    return 0
