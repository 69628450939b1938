"""``minegraph demo``: every shipped example position (``minegraph/examples/*.board``) with
its analysis."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from minegraph.analysis import analyze
from minegraph.board import Board
from minegraph.cli.common import shipped_boards
from minegraph.report import render_analysis

if TYPE_CHECKING:
    from minegraph.cli.common import Subparsers

__all__ = ["register", "run"]


def register(subparsers: Subparsers) -> None:
    """Add the ``demo`` subcommand."""
    subparsers.add_parser("demo", help="analyse the shipped example positions")


def run(args: argparse.Namespace) -> int:
    """Print each example board and its analysis; the exit status (0)."""
    for name, text in shipped_boards():
        board = Board.from_text(text)
        sys.stdout.write(f"=== {name} ===\n")
        sys.stdout.write(board.to_text())
        sys.stdout.write(render_analysis(analyze(board)))
        sys.stdout.write("\n")
    return 0
