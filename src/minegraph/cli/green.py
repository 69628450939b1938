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
import os
import re
import sys
from typing import TYPE_CHECKING

from minegraph.errors import FormatError, MinegraphError

if TYPE_CHECKING:
    from minegraph.cli.common import Subparsers

__all__ = ["register", "run", "ALGORITHMS", "EXAMPLES"]

#: The names of :data:`minegraph.green.solvers.SOLVERS`, sorted. Spelt out here because the
#: green package needs numpy, which ``minegraph green --help`` should not load (a test checks
#: that the two agree).
ALGORITHMS: tuple[str, ...] = ("attractor", "fast", "lifting", "quadratic")


#: The examples ``minegraph green --help`` shows.
EXAMPLES = """\
examples:
  minegraph green                              read gra.in here, write gra.out (the task)
  minegraph green game.in                      print the answer
  minegraph green game.in --strategy --verify  with both strategies, checked independently
  minegraph green --format pgsolver game.gm    a PGSolver game; prints a paritysol solution"""

# A PGSolver game's first line (docs/formats.md §6), and an OI game's (two numbers).
_PGSOLVER_HEADER = re.compile(r"[ \t]*parity[ \t]+[0-9]+[ \t]*;")
_OI_HEADER = re.compile(r"[ \t]*[0-9]+[ \t]+[0-9]+[ \t]*")


def register(subparsers: Subparsers) -> None:
    """Add the ``green`` subcommand to an argparse ``subparsers`` object.

    Parameters
    ----------
    subparsers
        The ``add_subparsers()`` object of the program's parser.
    """
    from minegraph.cli.common import Formatter
    p = subparsers.add_parser(
        "green", help="solve the olympiad's green game (a Büchi game)", formatter_class=Formatter,
        description="Find the fields from which Ania wins the green game of the VIII Polish "
                    "Olympiad in Informatics (gra.in -> gra.out), with both players' winning "
                    "strategies on request, or solve a PGSolver game.",
        epilog=EXAMPLES)
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
                   help="check the answer with the independent verifier before writing it, and "
                        "say on standard error what was verified")


def _read(source: str | None) -> str:
    # Standard input or a file, as the board commands read them (closed or unreadable
    # streams, non-UTF-8 bytes: one line).
    from minegraph.cli.common import read_input
    if source is not None:
        return read_input(source)[0]
    try:
        return read_input("gra.in")[0]
    except MinegraphError as exc:
        if isinstance(exc, FormatError) or os.path.exists("gra.in"):
            raise       # the task's file is there: its own error
        # The task's file was looked for because none was named: say that one can be.
        raise MinegraphError(f"{exc} (without a file, minegraph green reads gra.in in the "
                             f"current directory, as the task does; give one with 'minegraph "
                             f"green FILE', or - for standard input)") from None


def _first_line(text: str) -> str:
    return next((line for line in text.splitlines() if line.strip()), "")


def _solve(text: str, args: argparse.Namespace) -> tuple[str, str | None]:
    """The answer to the game in ``text`` and, with ``--verify``, what was verified."""
    # The solvers need numpy: loaded when a game is solved, not for --help.
    from minegraph.green.program import answer
    first = _first_line(text)
    if args.format == "oi" and _PGSOLVER_HEADER.match(first):
        raise FormatError("this is a PGSolver game (its first line is 'parity N;'), not the "
                          "olympiad's format: read it with --format pgsolver", 1, 1)
    try:
        if not args.verify:
            return answer(text, format=args.format, algorithm=args.algorithm,
                          strategy=args.strategy, limits=not args.no_limits), None
        return _verified(text, args)
    except FormatError as error:
        if args.format == "pgsolver" and _OI_HEADER.fullmatch(first):
            raise FormatError(f"{error}; the first line looks like the olympiad's format (two "
                              "numbers): leave out --format pgsolver") from None
        raise


def _verified(text: str, args: argparse.Namespace) -> tuple[str, str]:
    """As :func:`minegraph.green.program.answer` with its check, and a line saying what the
    independent verifier checked."""
    from minegraph.green.formats import read_oi, read_pgsolver, write_oi_answer, write_paritysol
    from minegraph.green.solvers import solve
    from minegraph.green.verify import verify
    pgsolver = args.format == "pgsolver"
    game = read_pgsolver(text) if pgsolver else read_oi(text, limits=not args.no_limits)
    solution = solve(game, args.algorithm)
    verdict = verify(game, solution)
    if not verdict:
        raise MinegraphError(f"the {args.algorithm} solver's answer fails verification: "
                             f"{verdict.reason}")
    first = int((solution.winner == 0).sum())
    if pgsolver:
        out = write_paritysol(solution)
        said = (f"verified: the winning regions and both players' strategies are correct for "
                f"all {game.n} vertices (player 0 wins from {first}, player 1 from {game.n - first})")
    else:
        out = write_oi_answer(solution)
        if args.strategy:
            moves = [f"{v + 1} {s + 1}\n" for v, s in enumerate(solution.strategy.tolist()) if s >= 0]
            out += "strategy\n" + "".join(moves)
        said = (f"verified: the winning regions and both players' strategies are correct for "
                f"all {game.n} fields (Ania wins from {first}, Bolek from {game.n - first})")
    return out, said


def run(args: argparse.Namespace) -> int:
    """Run the subcommand; returns the exit status. Bad input raises :class:`MinegraphError`.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of ``minegraph green``.

    Returns
    -------
    int
        The exit status, 0.

    Raises
    ------
    MinegraphError
        when the game cannot be read, the answer fails verification or a file cannot be written.
    """
    text = _read(args.input)
    out, verified = _solve(text, args)
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
    if verified is not None:
        # Standard output holds the answer (gra.out's format): the note goes to standard error.
        sys.stdout.flush()
        print(f"minegraph: {verified}", file=sys.stderr)
    return 0
