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
  minegraph review game.avf                  the report: luck, what each guess cost, why
  minegraph review --all game.evf            every click, with the probability it faced
  minegraph review --json game.rmv           the review object (one entry per uncovering click)
  minegraph review --svg timeline.svg g.mvf  the timeline picture too
  minegraph review --no-win game.avf         mine probabilities only (no win chances: faster)
  minegraph review --out report/ replays/    a whole archive: games.csv, summary, plots
  minegraph review --out report/ --workers 2 a/*.avf b/   ... on 2 cores (resumes if stopped)"""


def register(subparsers: Subparsers) -> None:
    """Add the ``review`` subcommand.

    Parameters
    ----------
    subparsers : Subparsers
        The command line's subcommands (``add_subparsers`` of the ``minegraph`` parser), to
        which ``review`` and its options are added.
    """
    from minegraph.cli.common import whole_number
    from minegraph.play.coach import (DEFAULT_ALTERNATIVES, DEFAULT_LIMIT, DEFAULT_SAMPLES,
                                      MAX_SAMPLES)
    p = subparsers.add_parser(
        "review", formatter_class=Formatter, epilog=EXAMPLES,
        help="review a replay: the exact mine probability behind every click",
        description="Review a played game from its replay file (.avf Minesweeper Arbiter, .evf "
                    "Metasweeper, .rmv Vienna Minesweeper, .mvf Minesweeper Clone): before "
                    "every click that uncovered a covered cell, the exact mine probability of "
                    "the cell clicked, whether a certainly safe cell existed and the safest "
                    "cell; for every guess, the chance of winning it left against the best "
                    "move's (exact where the endgame can decide, else as a quick play-out "
                    "plays on to the exact endgame) and the alternatives; the game's luck, avoidable "
                    "risks, 3BV, 3BV/s, RQP, IOE, STNB, ZiNi and clicks. Several files or "
                    "folders with --out review a whole archive into a table, a summary and "
                    f"plots. Needs ms_toollib: {install_hint('replays')}.")
    p.add_argument("replay", nargs="+",
                   help="the replay file (at most 10 MB); with --out, files and folders")
    p.add_argument("--json", action="store_true",
                   help="print the review object (an archive: the summary)")
    p.add_argument("--all", action="store_true", dest="every",
                   help="list every click, not only the first click and the guesses")
    p.add_argument("--svg", metavar="FILE", help="write the timeline picture to FILE")
    p.add_argument("--no-win", action="store_true",
                   help="no win chances: mine probabilities only (as fast as the parse)")
    p.add_argument("--samples", type=whole_number(0, MAX_SAMPLES), default=DEFAULT_SAMPLES,
                   help="layouts played out per guess the exact endgame cannot decide "
                        f"(default {DEFAULT_SAMPLES}; 0: judge only what it can)")
    p.add_argument("--limit", type=whole_number(1, 10**6), default=DEFAULT_LIMIT,
                   help="the most completions valued exactly by the endgame "
                        f"(default {DEFAULT_LIMIT})")
    p.add_argument("--alternatives", type=whole_number(2, 50), default=DEFAULT_ALTERNATIVES,
                   help=f"moves valued per guess, the one played included (default "
                        f"{DEFAULT_ALTERNATIVES})")
    p.add_argument("--seed", type=whole_number(0, 2**63 - 1), default=0,
                   help="the seed of the rollouts' draws (default 0)")
    p.add_argument("--out", metavar="DIR",
                   help="review an archive into DIR: games.csv (one row per game, appended "
                        "as each is done; a rerun skips the files done), broken.csv, "
                        "summary.json and summary.png")
    p.add_argument("--workers", type=whole_number(1, 10**9),
                   help="an archive: local worker processes (default: all cores)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="an archive: review on a Dask cluster, e.g. tcp://127.0.0.1:8786 "
                        f"(needs the cluster extra: {install_hint('cluster')})")
    p.add_argument("--no-progress", action="store_true", help="an archive: no progress bar")


def run(args: argparse.Namespace) -> int:
    """Review the replay (or, with ``--out``, the archive) named in ``args``; exit status 0.

    One replay: the report (or with ``--json`` the review object) on standard output, the
    timeline picture to ``--svg``. An archive: games.csv, broken.csv, summary.json and
    summary.png in the ``--out`` folder, and the summary on standard output.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of ``minegraph review``.

    Returns
    -------
    int
        The exit status, 0.

    Raises
    ------
    UserError
        for several replays without ``--out``, ``--svg`` or ``--all`` with ``--out``, or an SVG
        file that cannot be written.
    """
    from minegraph.errors import UserError
    if args.out is not None:
        return _archive(args)
    if len(args.replay) != 1:
        raise UserError("replay: one file, or several files and folders with --out DIR")
    from minegraph.play.coach import coach
    from minegraph.play.review import review
    r = review(args.replay[0])
    if not args.no_win:
        r = coach(r, limit=args.limit, samples=args.samples, alternatives=args.alternatives,
                  seed=args.seed)
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


def _archive(args: argparse.Namespace) -> int:
    """Review an archive into ``args.out``: the table, the summary and the plots."""
    from pathlib import Path

    from minegraph.errors import UserError
    from minegraph.play.archive import plot_archive, review_archive, summarize
    if args.svg or args.every:
        raise UserError("--svg and --all are for one replay, not an archive (--out)")
    if args.scheduler is not None:
        from minegraph.parallel import require_dask
        require_dask()
    done = review_archive(args.replay, args.out, workers=args.workers, scheduler=args.scheduler,
                          progress=not args.no_progress and sys.stderr.isatty(),
                          win=not args.no_win, limit=args.limit, samples=args.samples,
                          alternatives=args.alternatives, seed=args.seed)
    summary = summarize(done.out)
    (done.out / "summary.json").write_text(json.dumps(summary, indent=1, allow_nan=False) + "\n",
                                           encoding="utf-8")
    plotted = ""
    try:
        plot_archive(done.out, done.out / "summary.png")
        plotted = ", summary.png"
    except UserError as exc:
        sys.stderr.write(f"minegraph: {exc}\n")
    if args.json:
        sys.stdout.write(json.dumps(summary, allow_nan=False) + "\n")
        return 0
    sys.stdout.write(_summary_text(summary, done.reviewed, done.broken, done.skipped,
                                   Path(done.out), plotted))
    return 0


def _summary_text(s: dict[str, object], reviewed: int, broken: int, skipped: int, out: object,
                  plotted: str) -> str:
    def spread(key: str, fmt: str) -> str:
        d = s.get(key)
        if not isinstance(d, dict) or d.get("median") is None:
            return "-"
        return (f"median {format(d['median'], fmt)} (10% {format(d['p10'], fmt)}, 90% "
                f"{format(d['p90'], fmt)}; mean {format(d['mean'], fmt)})")
    lines = [f"reviewed {reviewed} now, {broken} broken, {skipped} done before; "
             f"{s['games']} games in the table ({s['won']} won, {s['lost']} lost), "
             f"{s['broken']} broken files listed",
             f"luck: {spread('luck', '.3f')}",
             f"avoidable risks per game: {spread('avoidable_per_game', '.2f')}",
             f"win chance given up per game: {spread('win_probability_lost_per_game', '.3f')}",
             f"time per 3BV (won games): {spread('time_per_bbbv_won', '.3f')} s",
             f"wrote {out}/games.csv, broken.csv, summary.json{plotted}"]
    return "".join(line + "\n" for line in lines)


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
