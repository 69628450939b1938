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

from minegraph.cli.common import Formatter, fit
from minegraph.extras import install_hint
from minegraph.present import output_width

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
        sys.stdout.write(fit(_unwrapped(r.report(every=args.every)), output_width(sys.stdout)))
    return 0


#: The width the review's text comes wrapped to (:func:`minegraph.play.review.render_review`).
REPORT_WIDTH = 88


def _unwrapped(text: str) -> str:
    """The review's paragraphs back on one line each, for :func:`fit` to wrap to the
    terminal: a line is continued by the next when the next is indented two more columns and
    its first word would not have fitted on it (where the report's wrapping broke it).

    >>> print(_unwrapped("key: " + "x" * 80 + "\\n  word\\n  #  kind"), end="")  # doctest: +ELLIPSIS
    key: xxx...x word
      #  kind
    """
    out: list[str] = []
    indent = previous = 0           # the paragraph's indentation, the last line's length
    for line in text.splitlines():
        lead = len(line) - len(line.lstrip())
        if out and line.strip() and lead == indent + 2 \
                and previous + 1 + len(line.split()[0]) > REPORT_WIDTH:
            out[-1] += " " + line.strip()
        else:
            out.append(line)
            indent = lead
        previous = len(line)
    return "".join(line + "\n" for line in out)
