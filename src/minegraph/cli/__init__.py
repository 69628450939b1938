"""The ``minegraph`` command line.

Each subcommand is a module of this package with one convention: ``register(subparsers)`` adds
its parser, and ``run(args) -> int`` does the work, writing to ``sys.stdout``, and returns the
exit status. :data:`COMMANDS` names the modules with their one-line help; a module is imported
only when its command runs (or its ``--help`` is asked for), so ``minegraph --help`` and
``minegraph analyze`` never load the green game, networkx or numpy.

Every user mistake ends as one line ``minegraph: error: ...`` on stderr and exit status 2; an
expired ``--timeout`` as ``minegraph: timeout: ...`` and exit status 3; an interrupt (Ctrl-C)
exits with status 130.

Examples
--------
>>> list(COMMANDS)
['analyze', 'solve', 'explain', 'demo', 'classify', 'bench', 'green', 'urbas']
"""

from __future__ import annotations

import argparse
import sys
from contextlib import nullcontext, redirect_stdout
from importlib import import_module
from typing import NamedTuple, Sequence, TextIO

from minegraph.errors import MinegraphError, QueryTimeout

__all__ = ["main", "build_parser", "COMMANDS", "Command", "EXIT_USAGE", "EXIT_TIMEOUT",
           "EXIT_INTERRUPTED"]

#: Exit status for a user mistake (bad input, unknown option or engine, unreadable file).
EXIT_USAGE = 2
#: Exit status when ``--timeout`` expired before the question was answered.
EXIT_TIMEOUT = 3
#: Exit status after an interrupt, as shells report SIGINT.
EXIT_INTERRUPTED = 130


class Command(NamedTuple):
    """A subcommand: the module defining ``register`` and ``run``, and its help line (the
    same the module's parser gives, shown by ``minegraph --help`` without importing it)."""

    module: str
    help: str


#: The subcommands, in the order ``minegraph --help`` lists them.
COMMANDS: dict[str, Command] = {
    "analyze": Command("minegraph.cli.analyze",
                       "consistency, count, forced cells, probabilities, best move"),
    "solve": Command("minegraph.cli.solve", "print one completion of the board, or say none exists"),
    "explain": Command("minegraph.cli.explain",
                       "why a hidden cell is certainly safe or a mine (the fewest numbers that force it)"),
    "demo": Command("minegraph.cli.demo", "analyse the shipped example positions"),
    "classify": Command("minegraph.cli.classify",
                        "classify boards by the thesis's decomposition pipeline"),
    "bench": Command("minegraph.cli.bench",
                     "play many games with an autoplayer and report its win rate"),
    "green": Command("minegraph.cli.green", "solve the olympiad's green game (a Büchi game)"),
    "urbas": Command("minegraph.cli.urbas", "the numeric solver program: grid on stdin, solved "
                                            "grid or NO SOLUTION on stdout"),
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser: every subcommand with its help line, and the full parser of
    ``command`` only (its module is imported; the others are not).

    Examples
    --------
    >>> "urbas" in build_parser().format_help()
    True
    >>> build_parser("solve").parse_args(["solve", "b.board", "--timeout", "2"]).timeout
    2.0
    """
    parser = argparse.ArgumentParser(prog="minegraph",
                                     description="Exact Minesweeper reasoning on any graph.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, entry in COMMANDS.items():
        if name == command:
            import_module(entry.module).register(sub)
        else:
            sub.add_parser(name, help=entry.help)
    return parser


def _chosen(argv: Sequence[str]) -> str | None:
    """The subcommand argparse will pick: the first argument that is not an option (the main
    parser's only option, ``--help``, takes no value)."""
    first = next((a for a in argv if not a.startswith("-")), None)
    return first if first in COMMANDS else None


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line on ``argv`` (default: ``sys.argv[1:]``) and return the exit status.

    The subcommand's output goes to ``out`` when given, else to standard output.
    """
    try:  # from the start: Ctrl-C while the parser imports its command is an interrupt too
        args_list = list(sys.argv[1:] if argv is None else argv)
        command = _chosen(args_list)
        parser = build_parser(command)
        args = parser.parse_args(args_list)
        if args.command is None:
            parser.print_help(out or sys.stdout)
            return EXIT_USAGE
        run = import_module(COMMANDS[args.command].module).run
        with redirect_stdout(out) if out is not None else nullcontext():
            status: int = run(args)
        return status
    except QueryTimeout as exc:
        print(f"minegraph: timeout: {exc}", file=sys.stderr)
        return EXIT_TIMEOUT
    except MinegraphError as exc:
        print(f"minegraph: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
