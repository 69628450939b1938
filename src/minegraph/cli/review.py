"""``minegraph review``: the exact probabilities behind every click of a played game's replay.

Reads an ``.avf``, ``.evf``, ``.rmv`` or ``.mvf`` replay (through ms_toollib, the extra
``replays``: :func:`minegraph.extras.install_hint`) and prints the game's figures, its luck, the avoidable risks and the
clicks that took a risk; ``--json`` prints the review object of docs/review.md, ``--svg``
writes the timeline picture.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from minegraph.cli.common import Formatter
from minegraph.extras import install_hint

if TYPE_CHECKING:
    from minegraph.cli.common import Subparsers

__all__ = ["register", "run", "EXAMPLES"]

#: The examples ``minegraph review --help`` shows.
EXAMPLES = """\
examples:
  minegraph review game.avf                  the report: luck, avoidable risks, the guesses
  minegraph review --all game.evf            every click, with the probability it faced
  minegraph review --json game.rmv           the review object (one entry per uncovering click)
  minegraph review --svg timeline.svg g.mvf  the timeline picture too"""


def register(subparsers: Subparsers) -> None:
    """Add the ``review`` subcommand."""
    p = subparsers.add_parser(
        "review", formatter_class=Formatter, epilog=EXAMPLES,
        help="review a replay: the exact mine probability behind every click",
        description="Review a played game from its replay file (.avf Minesweeper Arbiter, .evf "
                    "Metasweeper, .rmv Vienna Minesweeper, .mvf Minesweeper Clone): before "
                    "every click that uncovered a covered cell, the exact mine probability of "
                    "the cell clicked, whether a certainly safe cell existed and the safest "
                    "cell; the game's luck, avoidable risks, 3BV, 3BV/s, clicks and "
                    f"efficiency. Needs ms_toollib: {install_hint('replays')}.")
    p.add_argument("replay", help="the replay file (at most 10 MB)")
    p.add_argument("--json", action="store_true", help="print the review object")
    p.add_argument("--all", action="store_true", dest="every",
                   help="list every click, not only the first click and the guesses")
    p.add_argument("--svg", metavar="FILE", help="write the timeline picture to FILE")


def run(args: argparse.Namespace) -> int:
    """Review the replay named in ``args``; exit status 0."""
    from minegraph.errors import UserError
    from minegraph.play.review import review
    r = review(args.replay)
    if args.svg:
        try:
            with open(args.svg, "w", encoding="utf-8") as f:
                f.write(r.svg())
        except OSError as exc:
            raise UserError(f"cannot write {args.svg}: {exc.strerror or exc}") from None
    if args.json:
        sys.stdout.write(json.dumps(r.to_json(), allow_nan=False) + "\n")
    else:
        sys.stdout.write(r.report(every=args.every))
    return 0
