"""``minegraph classify``: where a board stands in Hoder's (2007) polynomial class.

For each board, the report of :func:`minegraph.decompose.classify`: the board graph
with a treewidth bound by the min-fill heuristic, the bipartite decomposition, what
redundant-edge removal kept, the 2-connected components left, and the verdict: polynomial by
edge removal alone, polynomial by series-parallel components (with the tree decomposition's
width and Statement 6's bound), or not found and why. ``--propagate`` first takes out the
cells the two trivial rules decide. Without a board, the shipped examples
(``minegraph/examples/classify/``) are classified. ``--svg FILE`` draws the board with its
decomposition after edge removal.

Examples
--------
>>> [name for name, _ in examples()][:2]
['expert-seed-0.board', 'expert-seed-2.board']
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from minegraph.board import Board
from minegraph.cli.common import (Formatter, fit, format_argument, headings, load_board, naming,
                                  shipped_boards)
from minegraph.errors import MinegraphError
from minegraph.present import output_width

if TYPE_CHECKING:
    from minegraph.cli.common import Subparsers

__all__ = ["register", "run", "examples"]


def examples() -> list[tuple[str, str]]:
    """The shipped example boards for ``classify``, as ``(file name, text)``, by name.

    Returns
    -------
    list of (str, str)
        ``(file name, text)`` of each shipped example, sorted by name.
    """
    return shipped_boards("classify")


def register(subparsers: Subparsers) -> None:
    """Add the ``classify`` subcommand.

    Parameters
    ----------
    subparsers
        The ``add_subparsers()`` object of the program's parser.
    """
    p = subparsers.add_parser("classify", help="classify boards by the thesis's decomposition pipeline",
                              formatter_class=Formatter,
                              description="Classify boards by Hoder's (2007) decomposition pipeline: "
                              "which step finds a tree decomposition and its width, or why none is "
                              "found. Without a board, the shipped examples are classified.",
                              epilog="examples:\n"
                                     "  minegraph classify                          the shipped examples\n"
                                     "  minegraph classify a.board b.board          each headed by its file's name\n"
                                     "  minegraph classify --svg dec.svg a.board    draw the decomposition\n"
                                     "  minegraph classify --json --propagate *.board")
    p.add_argument("boards", nargs="*", metavar="BOARD",
                   help="board files, - for standard input (default: the shipped examples)")
    format_argument(p)
    p.add_argument("--svg", metavar="FILE", help="write the board with its decomposition as SVG (one board)")
    p.add_argument("--removed", action="store_true", help="with --svg, draw the removed edges too")
    p.add_argument("--json", action="store_true", help="print JSON, one object per line")
    p.add_argument("--propagate", action="store_true",
                   help="first take out the cells trivial propagation decides (not in the thesis)")
    p.add_argument("--no-heuristic", action="store_true",
                   help="skip the min-fill treewidth bound (faster on big boards)")


def run(args: argparse.Namespace) -> int:
    """Classify the boards named in ``args``; returns the exit status (0).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of ``minegraph classify``.

    Returns
    -------
    int
        The exit status, 0.

    Raises
    ------
    MinegraphError
        when ``--svg`` names more than one board or its file cannot be written.
    """
    # The pipeline needs networkx: loaded here, not for --help.
    from minegraph.decompose.pipeline import classify

    # (file, board), and each board's heading: its file's name, as for the shipped examples.
    if args.boards:
        named = []
        for path in args.boards:
            with naming(path, always=len(args.boards) > 1):
                named.append((path, load_board(path, args.format, args.dialect, args.states)[0]))
        titles = headings(args.boards)
    else:
        named = [(name, Board.from_text(text)) for name, text in examples()]
        titles = [name for name, _ in named]
    if args.svg and len(named) != 1:
        raise MinegraphError(f"--svg draws one board, but {len(named)} were given")
    out = sys.stdout
    for k, (name, board) in enumerate(named):
        result = classify(board, heuristic=not args.no_heuristic, propagate=args.propagate)
        if args.json:
            out.write(json.dumps({"board": name, **result.to_json()}, allow_nan=False) + "\n")
        else:
            if len(named) > 1:
                out.write(("\n" if k else "") + f"=== {titles[k]} ===\n")
            out.write(fit(result.summary(), output_width(out)))
        if args.svg:
            from minegraph.decompose.picture import decomposition_svg
            try:
                with open(args.svg, "w", encoding="utf-8") as handle:
                    handle.write(decomposition_svg(result, show_removed=args.removed))
            except OSError as exc:
                raise MinegraphError(f"cannot write {args.svg}: {exc.strerror or exc}") from None
    return 0
