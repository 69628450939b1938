"""``minegraph green``: solve a green game file, like the olympiad's program does.

With no file it reads ``gra.in`` from the current directory and writes ``gra.out`` there, as the
task asks; given a file (or ``-`` for standard input) it prints the answer, or writes it to
``-o FILE``. ``--format pgsolver`` reads a PGSolver game and writes a ``paritysol`` solution.
``--strategy`` adds both players' strategies to the OI answer (after a line ``strategy``, one
``field successor`` pair per line, 1-based), which is then no longer the task's ``gra.out``.
The work is :func:`minegraph.green.program.answer`; this module reads and writes the files.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from minegraph.errors import MinegraphError

if TYPE_CHECKING:
    from minegraph.cli.common import Subparsers

__all__ = ["register", "run", "ALGORITHMS"]

#: The names of :data:`minegraph.green.solvers.SOLVERS`, sorted. Spelt out here because the
#: green package needs numpy, which ``minegraph green --help`` should not load (a test checks
#: that the two agree).
ALGORITHMS: tuple[str, ...] = ("attractor", "fast", "lifting")


def register(subparsers: Subparsers) -> None:
    """Add the ``green`` subcommand to an argparse ``subparsers`` object."""
    p = subparsers.add_parser(
        "green", help="solve the olympiad's green game (a Büchi game)",
        description="Find the fields from which Ania wins the green game (gra.in -> gra.out).")
    p.add_argument("input", nargs="?", default=None,
                   help="game file ('-' for stdin); default: gra.in here, answer to gra.out")
    p.add_argument("-o", "--output", default=None, help="write the answer to this file")
    p.add_argument("--algorithm", default="fast", choices=ALGORITHMS,
                   help="solver (default: fast)")
    p.add_argument("--format", default="oi", choices=["oi", "pgsolver"],
                   help="input format; pgsolver writes a paritysol solution (default: oi)")
    p.add_argument("--strategy", action="store_true",
                   help="also print both players' winning strategies (OI format)")
    p.add_argument("--no-limits", action="store_true",
                   help="accept OI games beyond the task's limits (3000 fields, 30,000 moves, "
                        "100 green)")
    p.add_argument("--verify", action="store_true",
                   help="check the answer with the independent verifier before writing it")


def _read(source: str | None) -> str:
    # Standard input or a file, as the board commands read them (closed or unreadable
    # streams, non-UTF-8 bytes: one line).
    from minegraph.cli.common import read_input
    return read_input(source if source is not None else "gra.in")[0]


def run(args: argparse.Namespace) -> int:
    """Run the subcommand; returns the exit status. Bad input raises :class:`MinegraphError`."""
    # The solvers need numpy: loaded when a game is solved, not for --help.
    from minegraph.green.program import answer

    text = _read(args.input)
    out = answer(text, format=args.format, algorithm=args.algorithm, strategy=args.strategy,
                 limits=not args.no_limits, check=args.verify)
    target = args.output
    if target is None and args.input is None:
        target = "gra.out" if args.format == "oi" else "gra.sol"
    if target is None or target == "-":
        sys.stdout.write(out)
    else:
        try:
            with open(target, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(out)
        except OSError as exc:
            raise MinegraphError(f"cannot write {target}: {exc.strerror or exc}") from None
    return 0
