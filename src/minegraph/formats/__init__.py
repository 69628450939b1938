"""Readers and writers of board formats (docs/formats.md §1-4), behind one front door.

- ``text``: the canonical board text and its dialects, :mod:`minegraph.formats.text` (``.board``);
- ``mine``: JSMinesweeper positions, :mod:`minegraph.formats.mine` (``.mine``);
- ``numeric``: Urbaś's integer grid, :mod:`minegraph.formats.numeric`;
- ``json``: grid or graph boards, :mod:`minegraph.formats.json` (``.json``);
- the graph files of :data:`GRAPH_FORMATS` through networkx's readers and writers,
  :mod:`minegraph.formats.graphs`: ``graphml`` (``.graphml``), ``gml`` (``.gml``),
  ``nodelink`` (networkx's node-link JSON), ``edgelist`` and ``adjlist`` (named only, never
  detected), with the cell states alongside.

The format modules are imported only when a board is read or written in that format, so
``import minegraph.formats`` stays cheap.

Examples
--------
>>> b = read_board("3x1x1\\nH1F")
>>> detect_format("3x1x1\\nH1F"), b.states
('mine', (-1, 1, -2))
>>> print(write_board(b, "text"), end="")
mines: 1
#1M
"""

from __future__ import annotations

import re
from importlib import import_module
from typing import TYPE_CHECKING

from minegraph.errors import FormatError, MinegraphError, UserError

if TYPE_CHECKING:
    from minegraph.board import Board

__all__ = ["FORMATS", "GRAPH_FORMATS", "read_board", "write_board", "detect_format"]

#: The board formats :func:`read_board` and :func:`write_board` accept.
FORMATS: tuple[str, ...] = ("text", "mine", "numeric", "json")

#: The graph file formats they accept too (:mod:`minegraph.formats.graphs`, networkx's
#: readers and writers; the cell states as node attributes or alongside).
GRAPH_FORMATS: tuple[str, ...] = ("graphml", "gml", "nodelink", "edgelist", "adjlist")

# format -> (module, reader, writer); looked up lazily.
_CODECS: dict[str, tuple[str, str, str]] = {
    "text": ("minegraph.formats.text", "read_text", "write_text"),
    "mine": ("minegraph.formats.mine", "read_mine", "write_mine"),
    "numeric": ("minegraph.formats.numeric", "read_numeric", "write_numeric"),
    "json": ("minegraph.formats.json", "read_json", "write_json"),
    **{name: ("minegraph.formats.graphs", f"read_{name}", f"write_{name}") for name in GRAPH_FORMATS},
}

# `.txt` is deliberately absent: plain-text files of every format get that extension, so
# their content decides (and content that is nothing else is read as the canonical text).
_EXTENSIONS: dict[str, str] = {".board": "text", ".mine": "mine", ".json": "json",
                               ".graphml": "graphml", ".gml": "gml"}

_MINE_HEADER = re.compile(r"[ \t]*[0-9]+x[0-9]+x[0-9]+[ \t]*")
_THREE_INTEGERS = re.compile(r"[ \t]*-?[0-9]+[ \t]+-?[0-9]+[ \t]+-?[0-9]+[ \t]*")
# The start of a line that is neither blank nor integers separated by spaces or tabs.
_NOT_INTEGERS = re.compile(r"^(?![ \t]*(?:-?[0-9]+(?:[ \t]+-?[0-9]+)*)?[ \t]*$)", re.MULTILINE)
# Graph files recognisable by their content (networkx's formats; see formats.graphs).
_GML_START = re.compile(r"[ \t\n]*(?:#[^\n]*\n[ \t\n]*)*(?:(?:Creator|Version)[ \t]+[^\n]*\n[ \t\n]*)*"
                        r"graph[ \t\n]*\[")
_NODE_LINK_KEYS = re.compile(r'"nodes"[ \t\r\n]*:')
_BOARD_KEYS = re.compile(r'"cells"[ \t\r\n]*:')


def _codec(format: str) -> tuple[str, str, str]:
    try:
        return _CODECS[format]
    except (KeyError, TypeError):
        raise MinegraphError(f"unknown format {format!r}; expected one of "
                             f"{', '.join(FORMATS + GRAPH_FORMATS)}") from None


def _noted(error: FormatError, note: str) -> FormatError:
    """``error`` with ``note`` added to its message, at the same place."""
    prefix = len(str(FormatError("", error.line, error.column, error.path)))
    return FormatError(f"{str(error)[prefix:]}; {note}", error.line, error.column, error.path)


def _by_content(text: str) -> str:
    # Only the first lines are looked at in Python; the check that every line holds integers
    # is one regular-expression search, so a huge input costs no list of lines.
    from minegraph.formats.scan import content_lines, normalise_newlines
    text = normalise_newlines(text.lstrip("\ufeff"))
    lines = content_lines(text)
    first = next(lines, None)
    if first is None:
        return "text"
    start = first[2].lstrip(" \t")
    if start.startswith("{"):
        return "nodelink" if _NODE_LINK_KEYS.search(text) and not _BOARD_KEYS.search(text) else "json"
    if start.startswith("<") and "<graphml" in text:
        return "graphml"
    if _GML_START.match(text[first[1]:first[1] + 4096]):
        return "gml"
    header = first if not first[2].lstrip(" \t").startswith(";") else \
        next(content_lines(text, comments=";"), None)
    if header is not None and _MINE_HEADER.fullmatch(header[2]):
        return "mine"
    if (_THREE_INTEGERS.fullmatch(first[2]) and next(lines, None) is not None
            and _NOT_INTEGERS.search(text) is None):
        return "numeric"
    return "text"


def detect_format(text: str | bytes, name: str | None = None) -> str:
    """Guess the format of ``text``: by the extension of ``name``, else by the content.

    Extensions: ``.board`` text, ``.mine`` mine, ``.json`` json (or nodelink, by content),
    ``.graphml`` graphml, ``.gml`` gml (case-insensitive); any other name, ``.txt`` included,
    falls back to the content: a leading ``{`` is JSON, or node-link JSON when it has a
    ``"nodes"`` key and no ``"cells"`` key; a leading ``<`` with a ``<graphml`` element is
    GraphML; ``graph [`` (after GML's comments and ``Creator``/``Version`` lines) is GML; a
    first non-comment line ``WxHxM`` is ``.mine``, a first line of three integers followed by
    lines of integers is the numeric grid, anything else the canonical text. Edge and
    adjacency lists are never detected: they look like other lists of integers (the text
    reader refuses them with a hint naming ``edgelist`` and ``adjlist``).
    Cost: linear in the length of ``text``; only its first lines are looked at one by one.

    Raises
    ------
    FormatError
        for ``text`` that is neither a str nor UTF-8 bytes.
    UserError
        for a ``name`` that is not a str.

    Parameters
    ----------
    text : str or bytes
        The file's content.
    name : str, optional
        The file's name.

    Returns
    -------
    str
        One of :data:`FORMATS`.

    Examples
    --------
    >>> detect_format('{"cells": 1, "states": ["#"]}')
    'json'
    >>> detect_format("2 2 0\\n9 9\\n9 1")
    'numeric'
    >>> detect_format("#1\\n11"), detect_format("anything", name="game.MINE")
    ('text', 'mine')
    >>> detect_format('{"nodes": [{"id": 0}], "edges": []}'), detect_format("graph [ node [ id 0 ] ]")
    ('nodelink', 'gml')
    """
    from minegraph.formats.scan import decode
    text = decode(text)
    if name is not None:
        if not isinstance(name, str):
            raise UserError(f"expected a file name (str) or None, got {type(name).__name__}")
        dot = name.rfind(".")
        if dot > max(name.rfind("/"), name.rfind("\\")):
            found = _EXTENSIONS.get(name[dot:].lower())
            if found == "json" and _by_content(text) == "nodelink":
                return "nodelink"           # networkx writes node-link JSON as .json too
            if found is not None:
                return found
    return _by_content(text)


def read_board(text: str | bytes, format: str | None = None, name: str | None = None,
               dialect: str | None = None, *, states: object = None) -> "Board":
    """Read a board in ``format``, or in the format :func:`detect_format` finds.

    Parameters
    ----------
    text : str or bytes
        The contents; bytes are read as UTF-8 and a leading byte-order mark is dropped.
    format : str, optional
        One of :data:`FORMATS`; detected when omitted.
    name : str, optional
        The file name, whose extension guides detection.
    dialect : str, optional
        The symbols of the text format and of JSON row strings and states: ``standard``,
        ``ascii`` (``x`` hidden, ``.`` an uncovered 0) or ``dots`` (``.`` hidden); see
        :data:`minegraph.formats.text_syntax.DIALECTS`. The ``.mine``, numeric and graph
        formats have fixed symbols and take none.
    states : mapping, str, bytes or os.PathLike, optional
        Graph formats only: the cell states, a mapping node -> state or a states file (text
        or path), replacing the file's ``state`` attributes; see
        :func:`minegraph.formats.graphs.read_graph_board`. An edge or adjacency list without
        them is read with every cell hidden.

    Returns
    -------
    Board
        The board the text describes.

    Raises
    ------
    MinegraphError
        for an unknown format name.
    UserError
        for an unknown dialect, or a dialect with a format that has none; states with a
        format that is not a graph format.
    FormatError
        for input the format's reader rejects (naming line and column, or JSON path), or
        bytes that are not UTF-8.
    LimitError
        for a board beyond the size limits, refused before it is built.

    Examples
    --------
    >>> read_board("1 2 0\\n9 1", name="board.txt").states
    (-1, 1)
    >>> read_board(b"..1\\n..1", dialect="dots").states
    (-1, -1, 1, -1, -1, 1)
    >>> read_board("a b\\nb c", format="edgelist", states={"b": 2}).states
    (-1, 2, -1)
    """
    from minegraph.formats.scan import decode
    text = decode(text)
    chosen = detect_format(text, name) if format is None else format
    module, reader, _ = _codec(chosen)
    if dialect is not None and chosen not in ("text", "json"):
        raise UserError(f"the {chosen} format has fixed symbols and takes no dialect "
                        f"(asked for {dialect!r}); dialects are for the text and json formats")
    options: dict[str, object] = {} if dialect is None else {"dialect": dialect}
    if states is not None:
        if chosen not in GRAPH_FORMATS:
            raise UserError(f"states are given alongside graph files ({', '.join(GRAPH_FORMATS)}), "
                            f"not with the {chosen} format, whose text holds them")
        options["states"] = states
    try:
        board: Board = getattr(import_module(module), reader)(text, **options)
        return board
    except FormatError as error:
        if format is not None or chosen != "numeric":
            raise
        # Detected, not asked for: say why, and what the lines most likely are. Lines of 0s,
        # as many on each, are an opened region of a board written with spaces (its first row
        # taken for the header); other integer lists are often graphs.
        from minegraph.formats.text_syntax import spaced_zero_rows
        why = ("this was read as a numeric grid (docs/formats.md §3) because every line holds "
               "integers and the first line three")
        row = spaced_zero_rows(text)
        if row is not None:
            raise _noted(error, f"these lines look like a board of uncovered 0s written with "
                                f"spaces, but {why}, so the first line was taken for its header "
                                f"'rows cols mines': write the board's cells without spaces "
                                f"(e.g. '{row}'), or give a numeric grid its header line") from None
        raise _noted(error, f"{why}; an edge list or adjacency list is a graph: read it with "
                            "format='edgelist' or 'adjlist' and the cell states alongside "
                            "(docs/formats.md, Graph files), or write it as a JSON graph board "
                            "(§4)") from None


def write_board(board: "Board", format: str) -> str:
    """Write ``board`` in ``format`` (one of :data:`FORMATS` or :data:`GRAPH_FORMATS`);
    reading it back gives ``board``.

    Parameters
    ----------
    board : Board
        The board to write.
    format : str
        One of :data:`FORMATS` or :data:`GRAPH_FORMATS`.

    Returns
    -------
    str
        The text of the file.

    Raises
    ------
    MinegraphError
        for an unknown format name.
    FormatError
        if the format cannot hold this board (e.g. a hex board as ``.mine``, a board with
        states as an edge list), saying why.

    Examples
    --------
    >>> from minegraph.board import Board
    >>> print(write_board(Board.grid(1, 2, [-1, 1]), "numeric"), end="")
    1 2 0
    9 1
    """
    module, _, writer = _codec(format)
    text: str = getattr(import_module(module), writer)(board)
    return text
