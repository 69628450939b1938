"""The ``minegraph`` command line.

Every user mistake ends as one line ``minegraph: error: ...`` on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib import import_module, resources
from typing import TYPE_CHECKING, Callable, Sequence, TextIO

from minegraph.errors import MinegraphError, QueryTimeout

if TYPE_CHECKING:
    from minegraph.board import Board

__all__ = ["main", "build_parser"]

EXIT_USAGE = 2
#: Exit status when ``--timeout`` expired before the question was answered.
EXIT_TIMEOUT = 3

#: Modules that add subcommands: each defines ``register(subparsers)``, which adds its parser
#: with ``set_defaults(func=run)`` where ``run(args) -> int`` returns the exit status.
COMMAND_MODULES: tuple[str, ...] = ("minegraph.classify", "minegraph.green.cli", "minegraph.urbas")


def _read_input(path: str) -> tuple[str, str | None]:
    """The text of ``path`` (``-`` for standard input) and a name for format detection."""
    if path == "-":
        return sys.stdin.read(), None
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read(), path
    except OSError as exc:
        raise MinegraphError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise MinegraphError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def _load_board(args: argparse.Namespace) -> tuple[Board, str]:
    from minegraph.formats import detect_format, read_board
    text, name = _read_input(args.board)
    fmt = args.format or detect_format(text, name)
    return read_board(text, fmt), fmt


def _cmd_analyze(args: argparse.Namespace, out: TextIO) -> int:
    from minegraph.analysis import analyze
    from minegraph.report import render_analysis
    board, _ = _load_board(args)
    analysis = analyze(board, args.engine, mines=args.mines, timeout=args.timeout)
    if args.json:
        out.write(json.dumps(analysis.to_json(), separators=(", ", ": ")) + "\n")
    else:
        out.write(render_analysis(analysis))
    return 0


def _cmd_solve(args: argparse.Namespace, out: TextIO) -> int:
    from minegraph.analysis import solve
    from minegraph.formats import write_board
    board, fmt = _load_board(args)
    if args.mines is not None:
        board = board.with_states(board.states, args.mines)
    completed = solve(board, args.engine, timeout=args.timeout)
    if completed is None:
        out.write("NO SOLUTION\n" if fmt == "numeric" else "no solution: the board is inconsistent\n")
        return 1
    out.write(write_board(completed, fmt))
    return 0


def _cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    from minegraph.analysis import analyze
    from minegraph.board import Board
    from minegraph.report import render_analysis
    examples = sorted((p for p in resources.files("minegraph").joinpath("examples").iterdir()
                       if p.name.endswith(".board")), key=lambda p: p.name)
    for path in examples:
        board = Board.from_text(path.read_text(encoding="utf-8"))
        out.write(f"=== {path.name} ===\n")
        out.write(board.to_text())
        out.write(render_analysis(analyze(board)))
        out.write("\n")
    return 0


def _board_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("board", help="board file, or - for standard input")
    p.add_argument("--format", choices=["text", "mine", "numeric", "json"],
                   help="input format (default: detected from the name and content)")
    p.add_argument("--mines", type=int, metavar="N", help="total number of mines (overrides the file)")
    p.add_argument("--engine", default="auto",
                   help="engine: auto (default), dp, brute, sat[:SOLVER], backtrack[:SEED], ...")
    p.add_argument("--timeout", type=float, metavar="SECONDS",
                   help="give up after SECONDS, naming the unanswered question (exit status 3)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(prog="minegraph",
                                     description="Exact Minesweeper reasoning on any graph.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = sub.add_parser("analyze", help="consistency, count, forced cells, probabilities, best move")
    _board_arguments(p)
    p.add_argument("--json", action="store_true", help="print the JSON object of FORMATS.md §4")
    p.set_defaults(run=_cmd_analyze)
    p = sub.add_parser("solve", help="print one completion of the board, or say none exists")
    _board_arguments(p)
    p.set_defaults(run=_cmd_solve)
    p = sub.add_parser("demo", help="analyse the shipped example positions")
    p.set_defaults(run=_cmd_demo)
    for module in COMMAND_MODULES:
        import_module(module).register(sub)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    out = out or sys.stdout
    run: Callable[[argparse.Namespace, TextIO], int] | None = getattr(args, "run", None)
    func: Callable[[argparse.Namespace], int] | None = getattr(args, "func", None)
    if run is None and func is None:
        parser.print_help(out)
        return EXIT_USAGE
    try:
        return run(args, out) if run is not None else func(args)  # type: ignore[misc]
    except QueryTimeout as exc:
        print(f"minegraph: timeout: {exc}", file=sys.stderr)
        return EXIT_TIMEOUT
    except MinegraphError as exc:
        print(f"minegraph: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
