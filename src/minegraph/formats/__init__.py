"""Readers and writers of board formats (docs/formats.md §1-4), behind one front door.

- ``text``: the canonical board text, :mod:`minegraph.formats.text` (``.board``);
- ``mine``: JSMinesweeper positions, :mod:`minegraph.formats.mine` (``.mine``);
- ``numeric``: Urbaś's integer grid, :mod:`minegraph.formats.numeric`;
- ``json``: grid or graph boards, :mod:`minegraph.formats.json` (``.json``).

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

from minegraph.errors import MinegraphError

if TYPE_CHECKING:
    from minegraph.board import Board

__all__ = ["FORMATS", "read_board", "write_board", "detect_format"]

#: The format names :func:`read_board` and :func:`write_board` accept.
FORMATS: tuple[str, ...] = ("text", "mine", "numeric", "json")

# format -> (module, reader, writer); looked up lazily.
_CODECS: dict[str, tuple[str, str, str]] = {
    "text": ("minegraph.formats.text", "read_text", "write_text"),
    "mine": ("minegraph.formats.mine", "read_mine", "write_mine"),
    "numeric": ("minegraph.formats.numeric", "read_numeric", "write_numeric"),
    "json": ("minegraph.formats.json", "read_json", "write_json"),
}

# `.txt` is deliberately absent: plain-text files of every format get that extension, so
# their content decides (and content that is nothing else is read as the canonical text).
_EXTENSIONS: dict[str, str] = {".board": "text", ".mine": "mine", ".json": "json"}

_MINE_HEADER = re.compile(r"\s*[0-9]+x[0-9]+x[0-9]+\s*")
_INTEGERS = re.compile(r"\s*-?[0-9]+(?:\s+-?[0-9]+)*\s*")


def _codec(format: str) -> tuple[str, str, str]:
    try:
        return _CODECS[format]
    except (KeyError, TypeError):
        raise MinegraphError(f"unknown format {format!r}; expected one of {', '.join(FORMATS)}") from None


def _by_content(text: str) -> str:
    body = text.lstrip("\ufeff \t\r\n")
    if body.startswith("{"):
        return "json"
    lines = [line for line in body.splitlines() if line.strip()]
    first = next((line for line in lines if not line.lstrip().startswith(";")), "")
    if _MINE_HEADER.fullmatch(first):
        return "mine"
    if (lines and len(lines[0].split()) == 3 and len(lines) > 1
            and all(_INTEGERS.fullmatch(line) for line in lines)):
        return "numeric"
    return "text"


def detect_format(text: str, name: str | None = None) -> str:
    """Guess the format of ``text``: by the extension of ``name``, else by the content.

    Extensions: ``.board`` text, ``.mine`` mine, ``.json`` json (case-insensitive); any other
    name, ``.txt`` included, falls back to the content: a leading ``{`` is JSON, a first
    non-comment line ``WxHxM`` is ``.mine``, a first line of three integers followed by lines
    of integers is the numeric grid, anything else the canonical text.
    Cost: linear in the length of ``text``.

    Examples
    --------
    >>> detect_format('{"cells": 1, "states": ["#"]}')
    'json'
    >>> detect_format("2 2 0\\n9 9\\n9 1")
    'numeric'
    >>> detect_format("#1\\n11"), detect_format("anything", name="game.MINE")
    ('text', 'mine')
    """
    if name is not None:
        dot = name.rfind(".")
        if dot > max(name.rfind("/"), name.rfind("\\")):
            found = _EXTENSIONS.get(name[dot:].lower())
            if found is not None:
                return found
    return _by_content(text)


def read_board(text: str, format: str | None = None, name: str | None = None) -> "Board":
    """Read a board in ``format``, or in the format :func:`detect_format` finds.

    Parameters
    ----------
    text : str
        The contents (a leading byte-order mark is dropped).
    format : str, optional
        One of :data:`FORMATS`; detected when omitted.
    name : str, optional
        The file name, whose extension guides detection.

    Raises
    ------
    MinegraphError
        for an unknown format name.
    FormatError
        for input the format's reader rejects (naming line and column, or JSON path).

    Examples
    --------
    >>> read_board("1 2 0\\n9 1", name="board.txt").states
    (-1, 1)
    """
    text = text.removeprefix("\ufeff")
    chosen = detect_format(text, name) if format is None else format
    module, reader, _ = _codec(chosen)
    return getattr(import_module(module), reader)(text)


def write_board(board: "Board", format: str) -> str:
    """Write ``board`` in ``format`` (one of :data:`FORMATS`); reading it back gives ``board``.

    Raises
    ------
    MinegraphError
        for an unknown format name.
    FormatError
        if the format cannot hold this board (e.g. a hex board as ``.mine``), saying why.

    Examples
    --------
    >>> from minegraph.board import Board
    >>> print(write_board(Board.grid(1, 2, [-1, 1]), "numeric"), end="")
    1 2 0
    9 1
    """
    module, _, writer = _codec(format)
    return getattr(import_module(module), writer)(board)
