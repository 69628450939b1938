"""``minegraph bench``: the win rate of an autoplayer over many games.

Game ``k`` is played with seed ``k``: ``--seed S --games N`` plays seeds ``S .. S+N-1``. With
``--out FILE`` the results are saved after every batch, and seeds already in ``FILE`` (from an
earlier, perhaps interrupted, run of the same configuration) are not played again, so a long
measurement can be built up over several runs; the report says how many games were resumed
from the file and how many played, and summarises them all. Ctrl-C keeps the games finished
so far.

The defaults are the README's headline run: Expert, modern rules, the ``strong`` policy,
which opens (3, 3) under modern rules (``minegraph bench`` is ``minegraph bench --size expert
--rules modern --first 3,3 --policy strong``).

Examples
--------
``minegraph bench --games 1000 --out expert-modern.json``
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from minegraph.cli.common import Formatter, cell_argument, seconds as positive_seconds, seed_number, whole_number
from minegraph.errors import GameError
from minegraph.extras import install_hint

if TYPE_CHECKING:
    from minegraph.cli.common import Subparsers
    from minegraph.play.bench import BenchConfig, BenchResults

__all__ = ["register", "run", "config_of"]

HELP = "play many games with an autoplayer and report its win rate"


def register(subparsers: Subparsers) -> None:
    """Add the ``bench`` subcommand.

    Parameters
    ----------
    subparsers
        The ``add_subparsers()`` object of the program's parser.
    """
    from minegraph.play.game import RULES, SIZES
    from minegraph.play.policies import POLICIES
    p = subparsers.add_parser(
        "bench", help=HELP,
        description=HELP + ". Game k uses seed k; results saved with --out are resumed and "
                    "merged by seed.",
        epilog="examples:\n"
               "  minegraph bench --games 1000               the README's run: expert, modern "
               "rules,\n"
               "                                             strong, first cell (3,3)\n"
               "  minegraph bench --rules classic --first 0,0 --games 1000 --out classic.json\n"
               "  minegraph bench --size beginner --policy safest --games 5000 --json",
        formatter_class=Formatter)
    p.add_argument("--size", default="expert", choices=list(SIZES),
                   help="board size (default expert: 16x30, 99 mines)")
    p.add_argument("--rules", default="modern", choices=list(RULES),
                   help="classic: first cell never a mine; modern: first cell and its "
                        "neighbours clear; any: no guarantee (default modern)")
    p.add_argument("--policy", default="strong", choices=list(POLICIES),
                   help="the autoplayer (default strong)")
    p.add_argument("--games", type=whole_number(1, 10**9), default=100, help="number of games (default 100)")
    p.add_argument("--seed", type=seed_number, default=0, help="seed of the first game (default 0)")
    p.add_argument("--first", type=cell_argument, metavar="ROW,COL",
                   help="the first cell to uncover (default: the policy's choice; strong opens "
                        "3,3 under modern rules (2,2 on boards of at most 256 cells), 0,0 "
                        "otherwise)")
    p.add_argument("--budget", type=positive_seconds, metavar="SECONDS",
                   help="seconds strong may spend on one decision for a stronger move: the "
                        "exact endgame takes on positions of up to 20,000 completions when it "
                        "finishes in time (default: none, fast play; moves then depend on the "
                        "machine's speed)")
    p.add_argument("--workers", type=whole_number(1, 10**9), help="local worker processes (default: all cores)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="play on a Dask cluster, e.g. tcp://127.0.0.1:8786 (needs the cluster "
                        f"extra: {install_hint('cluster')})")
    p.add_argument("--out", metavar="FILE",
                   help="save results (JSON, one record per seed); resumes from FILE if present")
    p.add_argument("--plot", metavar="FILE.png",
                   help="draw the win rate with its interval beside the published figures "
                        f"(needs the plot extra: {install_hint('plot')})")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    """Play the games and print the summary.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of ``minegraph bench``.

    Returns
    -------
    int
        The exit status, 0.

    Raises
    ------
    GameError
        when the results file given to resume holds another configuration's games.
    """
    # The extras the options need, before any work (results read, games played).
    if args.scheduler is not None:
        from minegraph.parallel import require_dask
        require_dask()
    if args.plot:
        from minegraph.play.plot import check_plot_path
        check_plot_path(args.plot)
    from minegraph.play.bench import BenchResults, run as run_games
    config = config_of(args)
    results = BenchResults(config)
    out = Path(args.out) if args.out else None
    if out is not None and out.exists():
        earlier = BenchResults.load(out)
        if earlier.config != config:
            raise GameError(f"{out} holds results of another configuration ({earlier.config}); "
                            f"choose another --out")
        results = earlier
    resumed = len(results.records)
    save = (lambda r: r.save(out)) if out is not None else None
    seeds = range(args.seed, args.seed + args.games)
    show = not args.no_progress and sys.stderr.isatty()
    try:
        results = run_games(config, seeds, workers=args.workers, scheduler=args.scheduler,
                            progress=show, results=results, on_batch=save)
    except KeyboardInterrupt:
        _report(results, args, resumed, interrupted=True)
        raise
    _report(results, args, resumed)
    if args.plot:
        from minegraph.play.plot import plot_results
        plot_results([results], args.plot)
    return 0


def config_of(args: argparse.Namespace) -> BenchConfig:
    """The configuration the options name (the policy's own first cell when none is given).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of ``minegraph bench``.

    Returns
    -------
    BenchConfig
        The benchmark's configuration.

    Examples
    --------
    >>> from minegraph.cli import build_parser
    >>> config_of(build_parser("bench").parse_args(["bench"]))
    BenchConfig(size='expert', rules='modern', policy='strong', first=(3, 3), revision=5, budget=None)
    """
    from minegraph.play.bench import BenchConfig
    return BenchConfig(args.size, args.rules, args.policy, args.first, budget=args.budget)


def _report(results: BenchResults, args: argparse.Namespace, resumed: int,
            interrupted: bool = False) -> None:
    """The summary of every game in ``results``: ``resumed`` of them read from ``--out``'s
    file, the others played now."""
    s = results.summary()
    played = s["games"] - resumed
    if args.json:
        keys = ["games", "wins", "win_rate", "ci95", "guesses_per_game", "seconds_per_game",
                "rules", "size", "policy", "budget", "seed"]
        sys.stdout.write(json.dumps({k: s[k] for k in keys} | {"first": s["first"], "resumed": resumed,
                                                               "played": played},
                                    allow_nan=False) + "\n")
        return
    first = f", first cell {tuple(s['first'])}" if s["first"] else ""
    if s["budget"] is not None:
        first += f", budget {s['budget']:g} s a decision"
    lo, hi = s["ci95"]
    lines = [f"{s['size']} {s['rules']}, policy {s['policy']}{first}"
             + (" (interrupted)" if interrupted else "")]
    if resumed:
        games = "1 game" if resumed == 1 else f"{resumed} games"
        lines.append(f"{games} resumed from {args.out}, {played} played; the figures cover all "
                     f"{s['games']}")
    lines += [f"games: {s['games']}  wins: {s['wins']}  win rate: {s['win_rate']:.2%} "
              f"(95% Wilson interval {lo:.2%} .. {hi:.2%})",
              f"guesses per game: {s['guesses_per_game']:.2f}  "
              f"seconds per game: {s['seconds_per_game']:.3f} (median {s['median_seconds_per_game']:.3f})"]
    from minegraph.play.bench import PUBLISHED
    for who, rate, note in PUBLISHED.get((s["size"], s["rules"]), []):
        lines.append(f"published: {who} {rate:.2%} ({note})")
    sys.stdout.write("\n".join(lines) + "\n")
