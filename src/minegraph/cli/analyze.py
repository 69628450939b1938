"""``minegraph analyze`` (also ``analyse``): consistency, the number of solutions, forced
cells, every hidden cell's mine probability and the best move, as the text report or JSON
(docs/formats.md §5), for one board file or several.

Counts are exact at any length: JSON holds every digit; the text report cuts numbers past
100 digits to ``1.3309…e+5000 (5001 digits)`` unless ``--full`` is given. With several files
each report is headed ``=== NAME ===``, the file's name (its path where two files share a
name; JSON: one object a line, with a ``"board"`` key holding the path), and an error names
its file; the command stops at the first error.
``--svg FILE`` writes the probability heat map of one board
(:meth:`minegraph.analysis.Analysis.svg`). The report fits the terminal's width (80 columns,
or ``COLUMNS``, when written to a file or a pipe): its lines are wrapped, and a probability
grid wider than that comes in bands of columns, as ``minegraph demo`` prints it
(:func:`minegraph.report.grid_bands`). In a terminal, a grid of more than
:data:`MAX_BANDS` bands is left out, with a line that says so (``--grid`` prints it anyway,
``--no-grid`` always leaves it out); written to a file or a pipe, every grid is printed.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from minegraph.analysis import analyze
from minegraph.cli.common import (Formatter, board_arguments, colour_argument, engine_help,
                                  headings, load_board, naming, use_colour)
from minegraph.errors import UserError
from minegraph.present import output_width, terminal_width
from minegraph.report import grid_bands, grid_width, render_analysis

if TYPE_CHECKING:
    from typing import TextIO

    from minegraph.board import Board
    from minegraph.cli.common import Subparsers

__all__ = ["register", "run", "EXAMPLES", "MAX_BANDS"]

#: In a terminal, a probability grid that takes more bands of columns than this is left out
#: unless ``--grid`` is given (a 600x600 board would print some 40 bands of 600 lines).
MAX_BANDS = 4

#: The examples ``minegraph analyze --help`` shows.
EXAMPLES = """\
examples:
  minegraph analyze position.board             the report: count, forced cells, probabilities
  minegraph analyze --mines 99 game.mine       with a total mine count the file does not give
  minegraph analyze --json - < position.board  the JSON object of docs/formats.md §5
  minegraph analyze a.board b.board c.json     several boards, each report headed by its file
  minegraph analyze --svg heat.svg b.board     also draw the probability heat map
  minegraph analyse --engine sat b.board       forced cells by SAT (no counts)
  minegraph analyze --float huge.board         float probabilities (proven to 1e-13)
  minegraph analyze --no-grid huge.board       the report without the probability grid"""


def register(subparsers: Subparsers) -> None:
    """Add the ``analyze`` subcommand (alias ``analyse``).

    Parameters
    ----------
    subparsers
        The ``add_subparsers()`` object of the program's parser.
    """
    p = subparsers.add_parser(
        "analyze", aliases=["analyse"], formatter_class=Formatter,
        help="consistency, count, forced cells, probabilities, best move",
        description="Analyse Minesweeper positions exactly: is the board consistent, how many "
                    "completions it has (an exact integer), which hidden cells are safe or mines "
                    "in every completion, every hidden cell's mine probability and the best next "
                    "cell. Cells are (row,col), counted from 0 at the top left.",
        epilog=f"{engine_help()}\n\n{EXAMPLES}")
    board_arguments(p, several=True)
    p.add_argument("--json", action="store_true", help="print the JSON object of docs/formats.md §5")
    p.add_argument("--full", action="store_true",
                   help="print every digit of long counts and fractions (else cut past 100 digits, "
                        "as 1.3309…e+5000 (5001 digits)) and every cell of long lists")
    p.add_argument("--svg", metavar="FILE",
                   help="also write the probability heat map as SVG (one board)")
    numbers = p.add_mutually_exclusive_group()
    numbers.add_argument("--exact", dest="arithmetic", action="store_const", const="exact",
                         help="exact counts and fractions at any size (the default unless the "
                              "exact figures would pass 2^25 bits, as on scattered boards of "
                              "tens of thousands of cells)")
    numbers.add_argument("--float", dest="arithmetic", action="store_const", const="float",
                         help="probabilities as floats, each proven within 1e-13 relative "
                              "(0%% and 100%% only when proven), the count as its logarithm")
    p.set_defaults(arithmetic="auto")
    grids = p.add_mutually_exclusive_group()
    grids.add_argument("--grid", dest="grid", action="store_const", const="always",
                       help="print the probability grid however many bands of columns it takes")
    grids.add_argument("--no-grid", dest="grid", action="store_const", const="never",
                       help="leave the probability grid out (default: a grid wider than the "
                            f"terminal comes in bands of columns, and is left out, saying so, "
                            f"past {MAX_BANDS} bands; always printed to a file or pipe)")
    p.set_defaults(grid="auto")
    colour_argument(p)


def _write_svg(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror or exc}") from None


def _grid(choice: str, board: Board, out: TextIO, width: int) -> tuple[bool, str | None]:
    """Whether to print ``board``'s probability grid (``--grid``: ``always``, ``never`` or
    ``auto``), and the line that says why it is left out: under ``auto``, a grid that would
    take more than :data:`MAX_BANDS` bands of ``width`` columns in the terminal ``out`` writes
    to is left out (a file or a pipe gets every grid)."""
    if choice != "auto":
        return choice == "always", None
    bands, needed = grid_bands(board, width), grid_width(board)
    if bands is None or needed is None or len(bands) <= MAX_BANDS or terminal_width(out) is None:
        return True, None
    return False, (f"grid left out: {needed:,} columns wide, {len(bands)} bands of the "
                   f"terminal's {width} (--grid prints them)")


def run(args: argparse.Namespace) -> int:
    """Analyse the boards named in ``args``; the exit status (0).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of ``minegraph analyze``.

    Returns
    -------
    int
        The exit status, 0.

    Raises
    ------
    UserError
        when ``--svg`` names more than one board or its file cannot be written.
    """
    paths: list[str] = args.boards
    several = len(paths) > 1
    if args.svg is not None and several:
        raise UserError(f"--svg draws one board, but {len(paths)} were given")
    colour = not args.json and use_colour(args.color)
    out = sys.stdout
    titles = headings(paths)
    for k, path in enumerate(paths):
        with naming(path, always=several):
            board, _ = load_board(path, args.format, args.dialect, args.states)
            analysis = analyze(board, args.engine, mines=args.mines, timeout=args.timeout,
                               arithmetic=args.arithmetic)
        if args.json:
            obj = analysis.to_json()
            if several:
                obj = {"board": path, **obj}
            out.write(json.dumps(obj, separators=(", ", ": "), allow_nan=False) + "\n")
        else:
            if several:
                out.write(("\n" if k else "") + f"=== {titles[k]} ===\n")
            width = output_width(out)
            grid, note = _grid(args.grid, board, out, width)
            out.write(render_analysis(analysis, full=args.full, colour=colour, width=width,
                                      grid=grid, grid_note=note))
        if args.svg is not None:
            _write_svg(args.svg, analysis.svg())
    return 0
