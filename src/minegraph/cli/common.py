"""What the board subcommands share: reading input, loading a board, the board arguments."""

from __future__ import annotations

import argparse
import os
import re
import sys
from contextlib import contextmanager
from importlib import resources
from typing import TYPE_CHECKING, Callable, Iterator, TextIO

from minegraph.deadline import MAX_SECONDS
from minegraph.errors import FormatError, MinegraphError
from minegraph.formats import FORMATS, GRAPH_FORMATS, detect_format, read_board
from minegraph.states import MAX_CELLS
from minegraph.cli import Formatter
from minegraph.present import shown, wrap_text

if TYPE_CHECKING:
    from typing import TypeAlias

    from minegraph.board import Board

    #: What ``register(subparsers)`` receives: ``ArgumentParser.add_subparsers()``'s result.
    Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"

__all__ = ["read_input", "read_stdin", "load_board", "load_board_text", "headings", "board_arguments", "format_argument",
           "shipped_boards", "whole_number", "seed_number", "cell_argument", "mine_count", "seconds", "mines_argument", "timeout_argument",
           "engine_help", "ENGINE_NOTES", "SAT_SOLVERS", "naming", "colour_argument", "use_colour",
           "Formatter", "fit"]

_WHOLE = re.compile(r"\+?[0-9]+")
_DECIMAL = re.compile(r"\+?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def _decode(data: bytes, name: str) -> str:
    """``data`` as UTF-8 text; bytes that are not are a :class:`FormatError` naming ``name``,
    then the line and column (as the library's readers say them), and UTF-16 when it is."""
    from minegraph.formats.scan import decode
    try:
        text = decode(data)
    except FormatError as exc:
        exc.args = (f"{name}: {exc}",)      # the same error, naming the stream or file
        raise
    # As text mode reads files: \r\n and \r end lines too.
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_stdin() -> str:
    """All of standard input as text (UTF-8).

    Raises
    ------
    MinegraphError
        when standard input is closed or cannot be read, or is not UTF-8 text.

    Returns
    -------
    str
        The text of standard input.
    """
    stream = sys.stdin
    if stream is None:
        raise MinegraphError("cannot read standard input: it is closed")
    try:
        buffer = getattr(stream, "buffer", None)
        data = buffer.read() if buffer is not None else stream.read()
    except (OSError, ValueError) as exc:  # ValueError: a closed file object
        why = (exc.strerror if isinstance(exc, OSError) else None) or str(exc)
        raise MinegraphError(f"cannot read standard input: {why}") from None
    except UnicodeDecodeError as exc:
        raise MinegraphError(f"standard input: not UTF-8 text ({exc.reason})") from None
    return _decode(data, "standard input") if isinstance(data, bytes) else data


def read_input(path: str) -> tuple[str, str | None]:
    """The text of ``path`` (``-`` for standard input) and a name for format detection.

    Raises
    ------
    MinegraphError
        for a file that cannot be read or is not UTF-8 text.

    Parameters
    ----------
    path : str
        A file's path, or ``-`` for standard input.

    Returns
    -------
    (str, str or None)
        The text, and the file's name (``None`` for standard input).

    Examples
    --------
    >>> read_input("/nonexistent/board.txt")
    Traceback (most recent call last):
    ...
    minegraph.errors.MinegraphError: cannot read /nonexistent/board.txt: No such file or directory
    >>> read_input("/dev/null")
    ('', '/dev/null')
    """
    if path == "-":
        return read_stdin(), None
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise MinegraphError(f"cannot read {path}: {exc.strerror or exc}") from None
    return _decode(data, path), path


def load_board(path: str, format: str | None = None, dialect: str | None = None,
               states: str | None = None) -> tuple[Board, str]:
    """The board in file ``path`` (``-``: standard input) and its format, ``format`` or the
    one detected from the name and content; ``dialect`` says what ``.`` and ``x`` mean in
    board text, ``states`` names a states file for a graph file (see
    :func:`minegraph.formats.read_board`).

    Raises
    ------
    MinegraphError
        for unreadable files; :class:`~minegraph.errors.FormatError` for bad boards.

    Parameters
    ----------
    path : str
        A file's path, or ``-`` for standard input.
    format : str, optional
        The format (default: detected).
    dialect : str, optional
        The board text's dialect.
    states : str, optional
        A states file for a graph file.

    Returns
    -------
    (Board, str)
        The board and the format it was read in.

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
    board, fmt, _ = load_board_text(path, format, dialect, states)
    return board, fmt


def load_board_text(path: str, format: str | None = None, dialect: str | None = None,
                    states: str | None = None) -> tuple[Board, str, str]:
    """As :func:`load_board`, with the text read (for a writer that keeps the input's style,
    :func:`minegraph.formats.text_syntax.row_separator`).

    Parameters
    ----------
    path : str
        A file's path, or ``-`` for standard input.
    format : str, optional
        The format (default: detected).
    dialect : str, optional
        The board text's dialect.
    states : str, optional
        A states file for a graph file.

    Returns
    -------
    (Board, str, str)
        The board, the format it was read in and the text read.

    Raises
    ------
    MinegraphError
        when the file cannot be read or is not a board.

    Examples
    --------
    >>> from importlib import resources
    >>> path = resources.files("minegraph").joinpath("examples", "one-two-one.board")
    >>> board, fmt, text = load_board_text(str(path))
    >>> fmt, text.splitlines()[1:3]
    ('text', ['#####', '#121#'])
    """
    text, name = read_input(path)
    fmt = format or detect_format(text, name)
    # The reader detects again when no format was given, so that its errors can say which
    # format it guessed and why.
    if states is not None:
        from pathlib import Path
        if not Path(states).is_file():
            raise MinegraphError(f"cannot read the states file {states}: no such file")
        return read_board(text, format, name=name, dialect=dialect, states=Path(states)), fmt, text
    return read_board(text, format, name=name, dialect=dialect), fmt, text


def headings(paths: list[str]) -> list[str]:
    """How the answers for ``paths`` are headed (``=== NAME ===``) when there are several:
    each file by its name, or by its path as given where two of the files share a name;
    standard input (``-``) as ``standard input``. Errors name the path as given
    (:func:`naming`).

    Parameters
    ----------
    paths : list of str
        The files as given on the command line.

    Returns
    -------
    list of str
        One heading per path, in the same order.

    Examples
    --------
    >>> headings(["boards/a.board", "b.board", "-"])
    ['a.board', 'b.board', 'standard input']
    >>> headings(["x/a.board", "y/a.board", "z/b.board"])
    ['x/a.board', 'y/a.board', 'b.board']
    """
    names = ["standard input" if path == "-" else os.path.basename(path) or path for path in paths]
    return [name if names.count(name) == 1 else path for name, path in zip(names, paths)]


def format_argument(p: argparse.ArgumentParser) -> None:
    """Add ``--format``, the input format (one of :data:`minegraph.formats.FORMATS`).

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser.

    Examples
    --------
    >>> p = argparse.ArgumentParser()
    >>> format_argument(p)
    >>> p.parse_args(["--format", "json"]).format, p.parse_args([]).format
    ('json', None)
    >>> p.parse_args(["--dialect", "dots"]).dialect
    'dots'
    """
    # Named FORMAT in the usage: the list of choices would be one unbreakable line of 72
    # characters there (issue 34); the help lists them.
    p.add_argument("--format", choices=list(FORMATS + GRAPH_FORMATS), metavar="FORMAT",
                   help=f"input format: {', '.join(FORMATS + GRAPH_FORMATS)} (default: "
                        f"detected from the name and content; edge and adjacency lists must be "
                        f"named, with --states)")
    p.add_argument("--states", metavar="FILE",
                   help="graph files: the cell states, one 'NODE STATE' per line (optionally "
                        "'mines: N' first); nodes not listed are hidden")
    p.add_argument("--dialect", choices=["standard", "ascii", "dots"],
                   help="what '.' and 'x' mean in board text and JSON rows: ascii ('x' hidden, "
                        "'.' an uncovered 0), dots ('.' hidden); default: the file's 'dialect:' "
                        "header, else standard, which refuses them with a hint")


def whole_number(least: int, most: int, what: str = "a whole number") -> Callable[[str], int]:
    """An argparse type: ASCII digits only (not ``1_0``, ``+3`` or other scripts' digits, which
    ``int()`` would take) with a value in ``least..most``.

    Parameters
    ----------
    least, most : int
        The smallest and largest value accepted.
    what : str
        What the value is, for the error message.

    Returns
    -------
    callable
        The argparse type: the text's value, or :class:`argparse.ArgumentTypeError`.

    Examples
    --------
    >>> games = whole_number(1, 10**9)
    >>> games("20")
    20
    >>> games("2_0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a whole number from 1 to 1000000000, got '2_0'
    """
    def parse(text: str) -> int:
        """The value of an option's ``text``.

        Parameters
        ----------
        text : str
            The option's value as given.

        Returns
        -------
        int
            The whole number.
        """
        if text.isascii() and text.isdigit() and len(text.lstrip("0")) <= len(str(most)):
            value = int(text)
            if least <= value <= most:
                return value
        raise argparse.ArgumentTypeError(f"expected {what} from {least} to {most}, got {shown(text)}")
    return parse


#: ``--seed``: a seed from 0 to 2**62.
seed_number = whole_number(0, 2**62, "a seed")


def cell_argument(text: str) -> tuple[int, int]:
    """``ROW,COL`` (0-based) as two whole numbers.

    Parameters
    ----------
    text : str
        The option's value.

    Returns
    -------
    (int, int)
        The row and column.

    Examples
    --------
    >>> cell_argument("3,3")
    (3, 3)
    """
    parts = text.split(",")
    if len(parts) == 2 and all(p.isascii() and p.isdigit() and len(p) <= 7 for p in parts):
        return int(parts[0]), int(parts[1])
    raise argparse.ArgumentTypeError(f"expected ROW,COL (0-based, e.g. 3,3), got {shown(text)}")


def mine_count(text: str) -> int:
    """The value of ``--mines``: a whole number of mines in ASCII digits, at most
    :data:`~minegraph.states.MAX_CELLS` (the board checks it against its own cells).

    Parameters
    ----------
    text : str
        The option's value.

    Returns
    -------
    int
        The number of mines.

    Examples
    --------
    >>> mine_count("99")
    99
    >>> mine_count("1e3")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a whole number of mines (0, 1, 2, ...), got '1e3'
    """
    if not _WHOLE.fullmatch(text):
        raise argparse.ArgumentTypeError(f"expected a whole number of mines (0, 1, 2, ...), got {shown(text)}")
    digits = text.lstrip("+").lstrip("0") or "0"
    if len(digits) > len(str(MAX_CELLS)) or int(digits) > MAX_CELLS:
        raise argparse.ArgumentTypeError(f"expected at most {MAX_CELLS} mines (the cells of the "
                                         f"largest board), got a {len(digits)}-digit number")
    return int(digits)


def seconds(text: str) -> float:
    """The value of ``--timeout``: a positive decimal number of seconds, at most
    :data:`~minegraph.deadline.MAX_SECONDS`.

    Parameters
    ----------
    text : str
        The option's value.

    Returns
    -------
    float
        The number of seconds.

    Examples
    --------
    >>> seconds("2.5"), seconds("1e3")
    (2.5, 1000.0)
    >>> seconds("1e10")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a positive number of seconds, at most 1e+09, got '1e10'
    """
    value = float(text) if _DECIMAL.fullmatch(text) else None
    if value is None or not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, at most "
                                         f"{MAX_SECONDS:g}, got {shown(text)}")
    return value


def mines_argument(p: argparse.ArgumentParser) -> None:
    """Add ``--mines N`` (:func:`mine_count`).

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser.
    """
    p.add_argument("--mines", type=mine_count, metavar="N",
                   help="total number of mines (overrides the file)")


def timeout_argument(p: argparse.ArgumentParser, help: str) -> None:
    """Add ``--timeout SECONDS`` (:func:`seconds`) with its ``help``.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser.
    help : str
        The option's help text.
    """
    p.add_argument("--timeout", type=seconds, metavar="SECONDS", help=help)


def fit(text: str, width: int) -> str:
    """``text`` with every line wider than ``width`` wrapped (:func:`~minegraph.present.wrap_text`:
    at spaces only, never inside a word or a cell name such as ``(4, 23)``), the continuation
    lines under the line's own indentation and two more (a table's row: under its last
    column); other lines as they are.

    Parameters
    ----------
    text : str
        The text, one or more lines.
    width : int
        The widest line allowed.

    Returns
    -------
    str
        The wrapped text.

    Examples
    --------
    >>> print(fit("short\\n  the mine at (4, 23) is certain", 20), end="")
    short
      the mine at
        (4, 23) is
        certain
    """
    out: list[str] = []
    for line in text.splitlines():
        if len(line) <= width:
            out.append(line)
            continue
        lead = line[:len(line) - len(line.lstrip())]
        # A row of a table (columns two spaces apart or more) continues under its last column.
        gaps = [m.end() for m in re.finditer(r"\S {2,}(?=\S)", line)]
        hang = " " * gaps[-1] if gaps and gaps[-1] <= width - 10 else lead + "  "
        out += wrap_text(line.strip(), width, indent=lead, subsequent_indent=hang) or [line]
    return "".join(line + "\n" for line in out)


#: What each engine of the registry (:data:`minegraph.engines.base.ENGINES`) is, for
#: ``--help``; an engine without a note is listed by name only.
ENGINE_NOTES: dict[str, str] = {
    "auto": "the default: dp where its estimated work allows, sat to cut the rest into pieces "
            "dp can count",
    "dp": "exact counting by dynamic programming over a tree decomposition",
    "sat": "a SAT solver: consistency and forced cells, no counts (sat:SOLVER)",
    "backtrack": "Urbaś's backtracking solver: no counts (backtrack:SEED)",
    "thesis": "Hoder's consistency dynamic programming: no counts",
    "dp-thesis": "dp over the thesis pipeline's decomposition",
    "brute": "every assignment of the hidden cells (at most 22)",
}

#: The short names of :data:`minegraph.engines.sat.SOLVERS`, spelt out because that module
#: loads PySAT, which ``--help`` should not (a test checks that the two agree).
SAT_SOLVERS: tuple[str, ...] = ("cadical", "glucose", "minisat")


def engine_help() -> str:
    """The engines of the registry, one a line with what it does, for ``--help``.

    The names come from :data:`minegraph.engines.base.ENGINES` (no engine is imported).

    Returns
    -------
    str
        The lines, ``name: what it does``.

    Examples
    --------
    >>> print("\\n".join(engine_help().splitlines()[:3]))
    engines (--engine NAME, or NAME:OPTION):
      auto        the default: dp where its estimated work allows, sat to cut the
                  rest into pieces dp can count
    """
    import textwrap

    from minegraph.engines.base import ENGINES
    lines = ["engines (--engine NAME, or NAME:OPTION):"]
    for name in ENGINES:
        note = ENGINE_NOTES.get(name, "")
        if name == "sat":
            note += f"; SOLVER: {', '.join(SAT_SOLVERS)} or a PySAT solver name"
        lines += textwrap.wrap(f"{name:<11} {note}", 78, initial_indent="  ",
                               subsequent_indent=" " * 14) if note else [f"  {name}"]
    return "\n".join(lines)


def board_arguments(p: argparse.ArgumentParser, several: bool = False) -> None:
    """Add the arguments of the commands that read boards: the file (``several``: one or
    more files), ``--format``, ``--mines``, ``--engine`` and ``--timeout``.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser.
    several : bool
        Whether the command takes one or more files.

    Examples
    --------
    >>> p = argparse.ArgumentParser()
    >>> board_arguments(p)
    >>> p.parse_args(["-", "--mines", "3"]).engine
    'auto'
    >>> p = argparse.ArgumentParser()
    >>> board_arguments(p, several=True)
    >>> p.parse_args(["a.board", "b.mine"]).boards
    ['a.board', 'b.mine']
    """
    if several:
        p.add_argument("boards", nargs="+", metavar="BOARD",
                       help="board files, or - for standard input; each answer is headed by its "
                            "file's name when there are several")
    else:
        p.add_argument("board", help="board file, or - for standard input")
    format_argument(p)
    mines_argument(p)
    p.add_argument("--engine", default="auto", metavar="NAME",
                   help="the engine (default: auto; the list is below)")
    timeout_argument(p, "give up after SECONDS, naming the unanswered question (exit status 3)")


@contextmanager
def naming(path: str, always: bool = True) -> Iterator[None]:
    """Errors raised inside (a board that cannot be read, a total that does not fit it, a
    timeout) name the file ``path``, unless they already do; standard input (``-``) is named
    only when ``always``.

    Parameters
    ----------
    path : str
        The file's path as given (``-``: standard input).
    always : bool
        Whether standard input is named too.

    Returns
    -------
    context manager
        Re-raises the errors of its block with the file's name in front.

    Examples
    --------
    >>> from minegraph.errors import BoardError
    >>> with naming("b.board"):
    ...     raise BoardError("total mine count 16 is outside 0..15")
    Traceback (most recent call last):
    ...
    minegraph.errors.BoardError: b.board: total mine count 16 is outside 0..15
    """
    try:
        yield
    except MinegraphError as exc:
        name = "standard input" if path == "-" else path
        if (path != "-" or always) and name not in str(exc):
            exc.args = (f"{name}: {exc}",)       # the same error (type, attributes), named
        raise


def colour_argument(p: argparse.ArgumentParser) -> None:
    """Add ``--color auto|always|never`` (:func:`use_colour`).

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser.

    Examples
    --------
    >>> p = argparse.ArgumentParser()
    >>> colour_argument(p)
    >>> p.parse_args([]).color, p.parse_args(["--color", "never"]).color
    ('auto', 'never')
    """
    p.add_argument("--color", "--colour", dest="color", default="auto",
                   choices=["auto", "always", "never"],
                   help="colour the report: auto (default) when writing to a terminal and "
                        "NO_COLOR is not set, always, or never")


def use_colour(choice: str, stream: TextIO | None = None) -> bool:
    """Whether to colour output for ``--color choice`` on ``stream`` (standard output):
    ``always`` and ``never`` say so; ``auto`` colours a terminal, unless the environment sets
    ``NO_COLOR`` (to anything but the empty string, https://no-color.org) or ``TERM=dumb``.

    Parameters
    ----------
    choice : str
        ``auto``, ``always`` or ``never``.
    stream : text stream, optional
        The output (default: standard output).

    Returns
    -------
    bool
        Whether to colour.

    Examples
    --------
    >>> import io
    >>> use_colour("auto", io.StringIO()), use_colour("always", io.StringIO())
    (False, True)
    """
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR", "") != "" or os.environ.get("TERM") == "dumb":
        return False
    stream = sys.stdout if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, OSError, ValueError):
        return False


def shipped_boards(*folder: str) -> list[tuple[str, str]]:
    """The example boards shipped in ``minegraph/examples/<folder>``, as ``(file name, text)``,
    by name.

    Parameters
    ----------
    *folder : str
        The folder under ``minegraph/examples``, one part per argument.

    Returns
    -------
    list of (str, str)
        ``(file name, text)`` of each board, sorted by name.

    Examples
    --------
    >>> [name for name, _ in shipped_boards()][:2]
    ['expert-midgame.board', 'one-two-one.board']
    """
    where = resources.files("minegraph").joinpath("examples", *folder)
    return sorted((p.name, p.read_text(encoding="utf-8")) for p in where.iterdir()
                  if p.name.endswith(".board"))
