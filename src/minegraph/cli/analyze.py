"""``minegraph analyze``: consistency, the number of solutions, forced cells, every hidden
cell's mine probability and the best move, as the text report or JSON (docs/formats.md §5).

Counts are exact at any length: JSON holds every digit; the text report cuts numbers past
100 digits to ``1.3309…e+5000 (5001 digits)`` unless ``--full`` is given."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from minegraph.analysis import analyze
from minegraph.cli.common import board_arguments, load_board
from minegraph.report import render_analysis

if TYPE_CHECKING:
    from minegraph.cli.common import Subparsers

__all__ = ["register", "run"]


def register(subparsers: Subparsers) -> None:
    """Add the ``analyze`` subcommand."""
    p = subparsers.add_parser("analyze", help="consistency, count, forced cells, probabilities, best move")
    board_arguments(p)
    p.add_argument("--json", action="store_true", help="print the JSON object of docs/formats.md §5")
    p.add_argument("--full", action="store_true",
                   help="print every digit of long counts and fractions (else cut past 100 digits, "
                        "as 1.3309…e+5000 (5001 digits)) and every cell of long lists")


def run(args: argparse.Namespace) -> int:
    """Analyse the board named in ``args``; the exit status (0)."""
    board, _ = load_board(args.board, args.format, args.dialect)
    analysis = analyze(board, args.engine, mines=args.mines, timeout=args.timeout)
    if args.json:
        sys.stdout.write(json.dumps(analysis.to_json(), separators=(", ", ": ")) + "\n")
    else:
        sys.stdout.write(render_analysis(analysis, full=args.full))
    return 0
