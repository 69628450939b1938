"""The ``minegraph`` command line.

Each subcommand is a module of this package with one convention: ``register(subparsers)`` adds
its parser, and ``run(args) -> int`` does the work, writing to ``sys.stdout``, and returns the
exit status. :data:`COMMANDS` names the modules with their one-line help; a module is imported
only when its command runs (or its ``--help`` is asked for), so ``minegraph --help`` and
``minegraph analyze`` never load the green game, networkx or numpy.

Every user mistake ends as one line ``minegraph: error: ...`` on stderr and exit status 2
(a bad option value too: the parser prints no usage block); an expired ``--timeout`` as
``minegraph: timeout: ...`` and exit status 3; an interrupt (Ctrl-C) exits with status 130.

The streams behave as in other Unix tools. When the reader of standard output goes away
(``minegraph demo | head -1``) the command stops quietly with status 141, which is what a shell
reports for a program ended by SIGPIPE (so ``set -o pipefail`` still sees that the output was
cut short). Any other failure to read or write a stream or file (standard input closed, a full
disk, ``-o /dev/full``) is one line naming the stream or file and exit status 2.

Examples
--------
>>> list(COMMANDS)
['analyze', 'solve', 'explain', 'demo', 'classify', 'bench', 'play', 'review', 'green', 'urbas', 'generate', 'serve']
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from contextlib import redirect_stdout
from importlib import import_module
from typing import Any, NamedTuple, NoReturn, Sequence, TextIO

from minegraph.errors import MinegraphError, QueryTimeout
from minegraph.present import wrap_text

__all__ = ["main", "build_parser", "COMMANDS", "ALIASES", "Command", "EXIT_USAGE", "EXIT_TIMEOUT",
           "EXIT_INTERRUPTED", "EXIT_BROKEN_PIPE", "OutputError", "Formatter"]

#: Exit status for a user mistake (bad input, unknown option or engine, a file or stream that
#: cannot be read or written).
EXIT_USAGE = 2
#: Exit status when ``--timeout`` expired before the question was answered.
EXIT_TIMEOUT = 3
#: Exit status after an interrupt, as shells report SIGINT.
EXIT_INTERRUPTED = 130
#: Exit status when standard output's reader has gone (a closed pipe), as shells report SIGPIPE.
EXIT_BROKEN_PIPE = 141


class OutputError(MinegraphError):
    """Standard output cannot be written (closed, or a full disk): one line, exit status 2."""


class _Output:
    """Standard output as the subcommands see it: an OS error while writing becomes an
    :class:`OutputError` naming the stream, except a closed pipe, which stays a
    :class:`BrokenPipeError` for :func:`main` to end quietly.

    Examples
    --------
    >>> _Output(None).write("x")
    Traceback (most recent call last):
    ...
    minegraph.cli.OutputError: cannot write standard output: it is closed
    """

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream
        # Set by a closed pipe, even when the writer swallowed the error (argparse's --help
        # does): the final flush raises it again.
        self.broken = False

    def _target(self) -> TextIO:
        if self._stream is None:
            raise OutputError("cannot write standard output: it is closed")
        return self._stream

    def write(self, text: str) -> int:
        try:
            return self._target().write(text)
        except BrokenPipeError:
            self.broken = True
            raise
        except (OSError, ValueError) as exc:   # ValueError: writing to a closed file object
            raise OutputError(f"cannot write standard output: {_why(exc)}") from None

    def flush(self) -> None:
        if self.broken:
            raise BrokenPipeError
        if self._stream is None:
            return
        try:
            self._stream.flush()
        except BrokenPipeError:
            self.broken = True
            raise
        except (OSError, ValueError) as exc:
            raise OutputError(f"cannot write standard output: {_why(exc)}") from None

    def __getattr__(self, name: str) -> object:
        return getattr(self._target(), name)


def _why(exc: BaseException) -> str:
    return (exc.strerror if isinstance(exc, OSError) else None) or str(exc) or type(exc).__name__


def _say(line: str) -> None:
    """Print one line on standard error, if there is a standard error to print on."""
    try:
        if sys.stderr is not None:
            sys.stderr.write(line + "\n")
            sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _discard_stdout() -> None:
    """Point file descriptor 1 at the null device, so that the interpreter's last flush of
    ``sys.stdout`` at exit cannot fail (and print a traceback) on a closed pipe or full disk."""
    stream = sys.__stdout__
    if stream is None or sys.stdout is not stream:
        return
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass


#: The attribute of a parsed namespace naming the deepest (sub)parser that left arguments
#: over, with those arguments.
_LEFT_OVER = "_minegraph_left_over"


class Formatter(argparse.RawDescriptionHelpFormatter):
    """Help that fits the terminal (argparse measures it, ``COLUMNS`` included): the line
    breaks of descriptions and epilogs (the examples, the engine list) are kept as written,
    and a line wider than the terminal is wrapped, at spaces only (never inside a word, at a
    hyphen or inside a cell name such as ``(4, 23)``), under its own indentation; an example
    line (``  minegraph ...  what it does``) continues under its explanation. The options'
    help is wrapped the same way.

    Parameters
    ----------
    prog : str
        The program's name, as argparse passes it.
    indent_increment, max_help_position, width
        As for :class:`argparse.HelpFormatter` (``width`` ``None``: the terminal's).

    Examples
    --------
    >>> from unittest import mock
    >>> p = argparse.ArgumentParser(
    ...     prog="x", formatter_class=Formatter, add_help=False,
    ...     description="Make a no-guess board whose first click at (4, 23) opens it.",
    ...     epilog="example:\\n  x b.board  the first click at (4, 23), then deduction")
    >>> with mock.patch.dict(os.environ, {"COLUMNS": "34"}):
    ...     print(p.format_help(), end="")
    usage: x
    <BLANKLINE>
    Make a no-guess board whose
    first click at (4, 23) opens it.
    <BLANKLINE>
    example:
      x b.board  the first click at
                 (4, 23), then
                 deduction
    """

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        out: list[str] = []
        for line in text.splitlines():
            if len(indent) + len(line) <= width or not line.strip():
                out.append(indent + line)
                continue
            lead = line[:len(line) - len(line.lstrip())]
            # An example: the command, two spaces or more, what it does.
            gap = re.search(r"\S( {2,})\S", line[len(lead):])
            hang = lead
            if gap is not None:
                column = len(lead) + gap.end() - 1
                hang = " " * column if len(indent) + column <= width // 2 else lead + "  "
            out += wrap_text(line.strip(), width, indent=indent + lead,
                             subsequent_indent=indent + hang) or [indent + line]
        return "\n".join(out)

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrap_text(" ".join(text.split()), width) or [""]


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (no usage block), as every other user
    error of the command line, pointing to the help of the (sub)command they are about:
    arguments a subcommand's parser leaves over are that subcommand's mistake
    (``minegraph analyze b.board --bogus``: see ``minegraph analyze --help``). Its help fits
    the terminal (:class:`Formatter`, every subcommand's too)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        _say(f"minegraph: error: {message} (see {self.prog} --help)")
        raise SystemExit(EXIT_USAGE)

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None
                         ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        # A subparser runs inside its parent's parse and its namespace is copied into the
        # parent's: the deepest parser with arguments left over marks them first, and the
        # parents keep its mark.
        if extras and not hasattr(parsed, _LEFT_OVER):
            setattr(parsed, _LEFT_OVER, (self, list(extras)))
        return parsed, extras

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: argparse.Namespace | None = None) -> argparse.Namespace:
        parsed, extras = self.parse_known_args(args, namespace)
        by, theirs = getattr(parsed, _LEFT_OVER, (self, extras))
        if hasattr(parsed, _LEFT_OVER):
            delattr(parsed, _LEFT_OVER)
        if extras:
            # All of them the subcommand's, or some the main parser's own (before the command).
            owner = by if isinstance(by, _Parser) and len(theirs) == len(extras) else self
            owner.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed


class Command(NamedTuple):
    """A subcommand: the module defining ``register`` and ``run``, its help line (the same the
    module's parser gives, shown by ``minegraph --help`` without importing it) and its other
    names (the module's parser takes the same).

    Parameters
    ----------
    module : str
        The module (under ``minegraph.cli``) that defines ``register`` and ``run``.
    help : str
        The one-line help of the subcommand.
    aliases : tuple of str
        Its other names.
    """

    module: str
    help: str
    aliases: tuple[str, ...] = ()


#: The subcommands, in the order ``minegraph --help`` lists them.
COMMANDS: dict[str, Command] = {
    "analyze": Command("minegraph.cli.analyze",
                       "consistency, count, forced cells, probabilities, best move", ("analyse",)),
    "solve": Command("minegraph.cli.solve", "print one completion of the board, or say none exists"),
    "explain": Command("minegraph.cli.explain",
                       "why a hidden cell is certainly safe or a mine (the fewest numbers that force it)"),
    "demo": Command("minegraph.cli.demo", "analyse the shipped example positions"),
    "classify": Command("minegraph.cli.classify",
                        "classify boards by the thesis's decomposition pipeline"),
    "bench": Command("minegraph.cli.bench",
                     "play many games with an autoplayer and report its win rate"),
    "play": Command("minegraph.cli.play",
                    "play Minesweeper in the terminal, with probabilities, hints and a solver"),
    "review": Command("minegraph.cli.review",
                      "review a replay: the exact mine probability behind every click"),
    "green": Command("minegraph.cli.green", "solve the olympiad's green game (a Büchi game)"),
    "urbas": Command("minegraph.cli.urbas", "the numeric solver program: grid on stdin, solved "
                                            "grid or NO SOLUTION on stdout"),
    "generate": Command("minegraph.cli.generate",
                        "make puzzles: certified paper tables, unique puzzles, no-guess boards"),
    "serve": Command("minegraph.cli.serve",
                     "serve the web app: play with a probability overlay, analyse pasted positions"),
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser: every subcommand with its help line, and the full parser of
    ``command`` only (its module is imported; the others are not).

    Parameters
    ----------
    command : str, optional
        The subcommand (or one of its aliases) whose full parser is built; ``None``: none.

    Returns
    -------
    argparse.ArgumentParser
        The program's parser.

    Examples
    --------
    >>> "urbas" in build_parser().format_help()
    True
    >>> build_parser("solve").parse_args(["solve", "b.board", "--timeout", "2"]).timeout
    2.0
    """
    from minegraph.version import __version__
    from minegraph.kernel import status
    parser = _Parser(prog="minegraph", description="Exact Minesweeper reasoning on any graph.",
                     epilog="Run 'minegraph COMMAND --help' for a command's options and examples.")
    parser.add_argument("--version", action=_Version, version=f"minegraph {__version__} ({status()})",
                        help="print the version and which path runs (native kernel or pure Python), "
                             "and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, entry in COMMANDS.items():
        if name == command:
            import_module(entry.module).register(sub)
        else:
            sub.add_parser(name, help=entry.help, aliases=list(entry.aliases))
    return parser


class _Version(argparse.Action):
    """``--version``: the line as it is (argparse's own action wraps long lines)."""

    def __init__(self, option_strings: Sequence[str], version: str, dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)
        self.version = version

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        sys.stdout.write(self.version + "\n")
        parser.exit()


#: Commands that run in the main thread and handle Ctrl-C themselves: the terminal game
#: (Textual), the web server (uvicorn) and the benchmark (its pool of workers). Every other
#: command runs in a worker thread that Ctrl-C cancels (minegraph/cli/interrupt.py).
MAIN_THREAD = frozenset({"play", "serve", "bench"})

#: Each command's other names, to the command.
ALIASES: dict[str, str] = {alias: name for name, entry in COMMANDS.items() for alias in entry.aliases}


def _chosen(argv: Sequence[str]) -> str | None:
    """The subcommand argparse will pick: the first argument that is not an option (the main
    parser's options, ``--help`` and ``--version``, take no value), by its main name."""
    first = next((a for a in argv if not a.startswith("-")), None)
    first = ALIASES.get(first, first) if first is not None else None
    return first if first in COMMANDS else None


def _dispatch(argv: Sequence[str] | None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    command = _chosen(args_list)
    parser = build_parser(command)
    args = parser.parse_args(args_list)
    if args.command is None:
        parser.print_help(sys.stdout)
        return EXIT_USAGE
    name = ALIASES.get(args.command, args.command)
    run = import_module(COMMANDS[name].module).run
    if name in MAIN_THREAD:
        status: int = run(args)
        return status
    from minegraph.cli.interrupt import run_cancellable
    status = run_cancellable(lambda: run(args))
    assert isinstance(status, int)
    return status


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line on ``argv`` (default: ``sys.argv[1:]``) and return the exit status.

    The subcommand's output (and ``--help``) goes to ``out`` when given, else to standard
    output, which is flushed before returning so that a failure to write it is reported here.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments after the program's name (default: ``sys.argv[1:]``).
    out : text stream, optional
        Where the answers go (default: standard output).

    Returns
    -------
    int
        The exit status: the subcommand's (0 done; 1 for a negative answer where the
        subcommand has one), :data:`EXIT_USAGE` for bad input or usage, :data:`EXIT_TIMEOUT`
        for a time limit, :data:`EXIT_INTERRUPTED` on Ctrl-C, :data:`EXIT_BROKEN_PIPE` when
        the output was closed.
    """
    output = _Output(out if out is not None else sys.stdout)
    try:  # from the start: Ctrl-C while the parser imports its command is an interrupt too
        try:
            with redirect_stdout(output):
                return _dispatch(argv)
        finally:  # also after --help (SystemExit): the output is complete only once flushed
            output.flush()
    except BrokenPipeError:
        if out is None:
            _discard_stdout()
        return EXIT_BROKEN_PIPE
    except QueryTimeout as exc:
        _say(f"minegraph: timeout: {exc}")
        return EXIT_TIMEOUT
    except MinegraphError as exc:
        if isinstance(exc, OutputError) and out is None:
            _discard_stdout()
        _say(f"minegraph: error: {exc}")
        return EXIT_USAGE
    except OSError as exc:  # a stream or file the subcommand did not name
        where = f" {exc.filename}" if exc.filename else ""
        _say(f"minegraph: error: input/output error{where}: {_why(exc)}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
