"""``minegraph play``: Minesweeper in the terminal, with the analyser's probabilities, hints
and an autoplayer (:class:`~minegraph.play.tui.PlayApp`).

The game is checked before the screen is taken over, so a bad size, rule or mine count is one
line ``minegraph: error: ...`` and exit status 2. Without ``--seed`` a seed is drawn and shown
on screen, so that a game can be played again; new games (``n``) take the next seeds.

Examples
--------
``minegraph play --size expert --rules modern``

``minegraph play --rows 12 --cols 20 --mines 45 --topology torus --seed 7``
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from typing import TYPE_CHECKING

from minegraph.cli.common import seed_number, whole_number
from minegraph.errors import UserError
from minegraph.present import shown

if TYPE_CHECKING:
    from minegraph.cli.common import Subparsers
    from minegraph.play.game import Game

__all__ = ["register", "run", "make_game"]

HELP = "play Minesweeper in the terminal, with probabilities, hints and a solver"

#: The largest rows or columns accepted (a grid wider than a terminal scrolls).
MAX_SIDE = 200

KEYS = ("keys: arrows (or k/j/l) move, space/enter uncover (on a number: chord), f flag, "
        "c chord, p probability overlay (M a proven mine), h hint, s let the solver play, u undo, "
        "n new game, w write the replay of a finished game (.evf), q quit, ? list the keys; mouse: left click uncovers or chords, right click "
        "flags, middle click chords. Hex and triangle "
        "grids are drawn square (with their own neighbours).")


_side = whole_number(1, MAX_SIDE)
_mines = whole_number(0, MAX_SIDE * MAX_SIDE)


def _delay(text: str) -> float:
    try:
        value = float(text) if text.isascii() and text.replace(".", "", 1).isdigit() else -1.0
    except ValueError:
        value = -1.0
    if not 0.01 <= value <= 10:
        raise argparse.ArgumentTypeError(f"expected seconds from 0.01 to 10, got {shown(text)}")
    return value


def register(subparsers: Subparsers) -> None:
    """Add the ``play`` subcommand.

    Parameters
    ----------
    subparsers
        The ``add_subparsers()`` object of the program's parser.
    """
    from minegraph.play.game import RULES, SIZES
    from minegraph.topology import TOPOLOGIES
    sizes = ", ".join(f"{name} {r}x{c}/{m}" for name, (r, c, m) in SIZES.items())
    p = subparsers.add_parser(
        "play", help=HELP,
        description=HELP + ". " + KEYS,
        epilog="example: minegraph play --size expert --rules modern")
    p.add_argument("--size", choices=list(SIZES),
                   help=f"board size (default beginner; {sizes}: rows x columns / mines); "
                        f"--rows, --cols and --mines override its values")
    p.add_argument("--rows", type=_side, help="rows (default: the size's)")
    p.add_argument("--cols", type=_side, help="columns (default: the size's)")
    p.add_argument("--mines", type=_mines, help="mines (default: the size's)")
    p.add_argument("--rules", default="classic", choices=list(RULES),
                   help="classic: first cell never a mine; modern: first cell and its "
                        "neighbours clear; any: no guarantee (default classic)")
    p.add_argument("--seed", type=seed_number,
                   help="seed of the first game (default: drawn, and shown on screen)")
    p.add_argument("--topology", default="square", choices=list(TOPOLOGIES),
                   help="the grid (default square; torus wraps around; hex and triangle are "
                        "drawn as a square grid of cells, with their own neighbours)")
    p.add_argument("--record", metavar="DIR",
                   help="write the replay (.evf) of every finished game into DIR, named by size, "
                        "outcome, 3BV and time (minegraph review reads them); w writes one "
                        "there (default: the current directory)")
    p.add_argument("--delay", type=_delay, default=0.15, metavar="SECONDS",
                   help="seconds between the solver's moves (default 0.15)")


def make_game(args: argparse.Namespace) -> Game:
    """The first game from the options (the seed drawn when not given, and set on ``args``).

    Raises
    ------
    GameError
        for rows, columns or mines that do not make a game.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of ``minegraph play``.

    Returns
    -------
    Game
        The game, not started.
    """
    from minegraph.play.game import Game
    # --rows, --cols and --mines each override the value of the size (default beginner).
    size = args.size if args.size is not None else "beginner"
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(2**32)
    return Game(size, rows=args.rows, cols=args.cols, mines=args.mines, topology=args.topology,
                rules=args.rules, seed=args.seed)


def run(args: argparse.Namespace) -> int:
    """Check the game, then play it on the terminal until the player quits.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of ``minegraph play``.

    Returns
    -------
    int
        The exit status, 0.

    Raises
    ------
    UserError
        without an interactive terminal, or when ``--record`` is not a directory.
    """
    game = make_game(args)
    if not (sys.stdin is not None and sys.stdin.isatty()
            and sys.__stderr__ is not None and sys.__stderr__.isatty()):
        raise UserError("minegraph play needs an interactive terminal (standard input and "
                        "standard error, where the game is drawn)")
    record = getattr(args, "record", None)
    if record is not None and not os.path.isdir(record):
        raise UserError(f"--record {shown(record)}: not a directory")
    from minegraph.play.tui import PlayApp
    PlayApp(game, seed=args.seed, solver_delay=args.delay, record=record).run()
    return 0
