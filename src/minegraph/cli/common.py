"""What the board subcommands share: reading input, loading a board, the board arguments."""

from __future__ import annotations

import argparse
import sys
from importlib import resources
from typing import TYPE_CHECKING

from minegraph.errors import MinegraphError
from minegraph.formats import FORMATS, detect_format, read_board

if TYPE_CHECKING:
    from typing import TypeAlias

    from minegraph.board import Board

    #: What ``register(subparsers)`` receives: ``ArgumentParser.add_subparsers()``'s result.
    Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"

__all__ = ["read_input", "load_board", "board_arguments", "format_argument", "shipped_boards"]


def read_input(path: str) -> tuple[str, str | None]:
    """The text of ``path`` (``-`` for standard input) and a name for format detection.

    Raises
    ------
    MinegraphError
        for a file that cannot be read or is not UTF-8 text.

    Examples
    --------
    >>> read_input("/nonexistent/board.txt")
    Traceback (most recent call last):
    ...
    minegraph.errors.MinegraphError: cannot read /nonexistent/board.txt: No such file or directory
    """
    if path == "-":
        return sys.stdin.read(), None
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read(), path
    except OSError as exc:
        raise MinegraphError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise MinegraphError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def load_board(path: str, format: str | None = None) -> tuple[Board, str]:
    """The board in file ``path`` (``-``: standard input) and its format, ``format`` or the
    one detected from the name and content.

    Raises
    ------
    MinegraphError
        for unreadable files; :class:`~minegraph.errors.FormatError` for bad boards.

    Examples
    --------
    >>> from importlib import resources
    >>> path = resources.files("minegraph").joinpath("examples", "one-two-one.board")
    >>> board, fmt = load_board(str(path))
    >>> fmt, board.rows, board.cols
    ('text', 3, 5)
    >>> load_board(str(path), "numeric")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    minegraph.errors.FormatError: line 1, column 13: expected the header 'rows cols mines' ...
    """
    text, name = read_input(path)
    fmt = format or detect_format(text, name)
    return read_board(text, fmt), fmt


def format_argument(p: argparse.ArgumentParser) -> None:
    """Add ``--format``, the input format (one of :data:`minegraph.formats.FORMATS`).

    Examples
    --------
    >>> p = argparse.ArgumentParser()
    >>> format_argument(p)
    >>> p.parse_args(["--format", "json"]).format, p.parse_args([]).format
    ('json', None)
    """
    p.add_argument("--format", choices=list(FORMATS),
                   help="input format (default: detected from the name and content)")


def board_arguments(p: argparse.ArgumentParser) -> None:
    """Add the arguments of the commands that read one board: the file, ``--format``,
    ``--mines``, ``--engine`` and ``--timeout``.

    Examples
    --------
    >>> p = argparse.ArgumentParser()
    >>> board_arguments(p)
    >>> p.parse_args(["-", "--mines", "3"]).engine
    'auto'
    """
    p.add_argument("board", help="board file, or - for standard input")
    format_argument(p)
    p.add_argument("--mines", type=int, metavar="N", help="total number of mines (overrides the file)")
    p.add_argument("--engine", default="auto",
                   help="engine: auto (default), dp, brute, sat[:SOLVER], backtrack[:SEED], ...")
    p.add_argument("--timeout", type=float, metavar="SECONDS",
                   help="give up after SECONDS, naming the unanswered question (exit status 3)")


def shipped_boards(*folder: str) -> list[tuple[str, str]]:
    """The example boards shipped in ``minegraph/examples/<folder>``, as ``(file name, text)``,
    by name.

    Examples
    --------
    >>> [name for name, _ in shipped_boards()][:2]
    ['expert-midgame.board', 'one-two-one.board']
    """
    where = resources.files("minegraph").joinpath("examples", *folder)
    return sorted((p.name, p.read_text(encoding="utf-8")) for p in where.iterdir()
                  if p.name.endswith(".board"))
