"""Property test (issue 9): every reader, fed random bytes, random text, a random mutation of a
valid file or an argument of any type (and the front door any format, name and dialect
options), returns a result or raises a :class:`MinegraphError` -- never another exception.

Readers: the board text (each dialect, and ``Board.from_text``), ``.mine``, the numeric grid,
JSON, the front door with format detection, and the green game's ``gra.in``, ``gra.out``,
PGSolver and ``paritysol`` readers. Example counts are small by default (a few seconds in all)
and grow under the ``ci`` profile (``strategies.examples``).
"""

from __future__ import annotations

from typing import Any, Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from minegraph.board import Board
from minegraph.errors import MinegraphError
from minegraph.formats import detect_format, read_board, write_board
from minegraph.formats.json import read_json
from minegraph.formats.mine import read_mine
from minegraph.formats.numeric import read_numeric
from minegraph.formats.text import read_text
from minegraph.green.formats import (read_oi, read_oi_answer, read_paritysol, read_pgsolver, write_oi,
                                     write_oi_answer, write_paritysol, write_pgsolver)
from minegraph.green.game import GreenGame
from minegraph.green.solvers import solve
from strategies import examples

Reader = Callable[[Any], object]

BOARD_READERS: dict[str, Reader] = {
    "text": read_text,
    "text-ascii": lambda t: read_text(t, dialect="ascii"),
    "text-dots": lambda t: read_text(t, dialect="dots"),
    "from_text": Board.from_text,
    "mine": read_mine,
    "numeric": read_numeric,
    "json": read_json,
    "detected": read_board,
    "detected-dots": lambda t: read_board(t, dialect="dots"),
}
GREEN_READERS: dict[str, Reader] = {
    "oi": read_oi,
    "oi-no-limits": lambda t: read_oi(t, limits=False),
    "oi-answer": read_oi_answer,
    "pgsolver": read_pgsolver,
    "paritysol": read_paritysol,
}
# Readers that take bytes as well as text.
BYTES_READERS = {name: BOARD_READERS[name] for name in ("json", "detected")} | GREEN_READERS

# Characters the formats use, plus look-alikes that used to slip through (other scripts'
# digits, `_`, `+`, odd whitespace, controls, a lone surrogate).
ALPHABET = list("#?MF*-◇.xXH0123456789abc \t\n\r;:{}[],\"'x-+_/") + \
    ["٣", "３", "²", "\u2003", "\u00a0", "\x00", "\x0b", "\x85", "\u2028", "\ud800"]


def _never_crashes(read: Reader, data: Any) -> None:
    try:
        read(data)
    except MinegraphError:
        pass


# ----------------------------------------------------------------- inputs
format_text = st.text(alphabet=st.sampled_from(ALPHABET), max_size=80)


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """``text`` with a few random edits: deletions, insertions, replacements, a line
    duplicated or dropped."""
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["delete", "insert", "replace", "line-twice", "line-gone"]))
        at = draw(st.integers(0, len(text)))
        if kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 5)):]
        elif kind == "insert":
            text = text[:at] + draw(format_text.filter(bool)) + text[at:]
        elif kind == "replace" and at < len(text):
            text = text[:at] + draw(st.sampled_from(ALPHABET)) + text[at + 1:]
        else:
            lines = text.split("\n")
            k = draw(st.integers(0, len(lines) - 1))
            lines[k:k + 1] = [lines[k]] * 2 if kind == "line-twice" else []
            text = "\n".join(lines)
    return text


@st.composite
def written_boards(draw: st.DrawFn, gen: Any) -> str:
    """A valid board file in a random format."""
    board = draw(st.one_of(gen.grid_boards(max_side=4), gen.graph_boards(max_cells=6)))
    formats = ["json"]
    if board.topology != "graph":
        formats.append("text")
        if board.topology == "square" and -3 not in board.states:
            if board.mines != 0:
                formats.append("numeric")
            if board.mines is not None:
                formats.append("mine")
    return write_board(board, draw(st.sampled_from(formats)))


@st.composite
def written_games(draw: st.DrawFn) -> str:
    """A valid green-game file: gra.in, its gra.out, PGSolver or paritysol."""
    a = draw(st.integers(1, 3))
    b = draw(st.integers(1, 3))
    green = draw(st.lists(st.booleans(), min_size=a + b, max_size=a + b))
    succ = []
    for v in range(a + b):
        other = list(range(a, a + b)) if v < a else list(range(a))
        succ.append(draw(st.lists(st.sampled_from(other), min_size=1, max_size=len(other), unique=True)))
    game = GreenGame.from_oi(a, green, succ)
    kind = draw(st.sampled_from(["oi", "answer", "pgsolver", "paritysol"]))
    if kind == "oi":
        return write_oi(game)
    if kind == "pgsolver":
        return write_pgsolver(game)
    solution = solve(game)
    return write_oi_answer(solution) if kind == "answer" else write_paritysol(solution)


# ----------------------------------------------------------------- properties
@settings(max_examples=examples(150))
@given(data=format_text, reader=st.sampled_from(sorted(BOARD_READERS | GREEN_READERS)))
def test_random_text(data: str, reader: str) -> None:
    _never_crashes((BOARD_READERS | GREEN_READERS)[reader], data)
    assert detect_format(data) in ("text", "mine", "numeric", "json")


@settings(max_examples=examples(100))
@given(data=st.binary(max_size=60), reader=st.sampled_from(sorted(BYTES_READERS)))
def test_random_bytes(data: bytes, reader: str) -> None:
    _never_crashes(BYTES_READERS[reader], data)


@settings(max_examples=examples(150))
@given(data=st.data(), reader=st.sampled_from(sorted(BOARD_READERS)))
def test_mutated_boards(gen, data, reader: str) -> None:
    text = data.draw(mutated(data.draw(written_boards(gen))))
    _never_crashes(BOARD_READERS[reader], text)


@settings(max_examples=examples(100))
@given(data=st.data(), reader=st.sampled_from(sorted(GREEN_READERS)))
def test_mutated_games(data, reader: str) -> None:
    text = data.draw(mutated(data.draw(written_games())))
    _never_crashes(GREEN_READERS[reader], text)


odd_values = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.binary(max_size=8),
                       st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(),
                                                                           max_size=2), format_text)


@settings(max_examples=examples(100))
@given(value=odd_values, reader=st.sampled_from(sorted(BOARD_READERS | GREEN_READERS)))
def test_arguments_of_any_type(value: Any, reader: str) -> None:
    _never_crashes((BOARD_READERS | GREEN_READERS)[reader], value)


@settings(max_examples=examples(100))
@given(text=format_text, format=st.one_of(st.none(), st.sampled_from(["text", "json", "mine", "numeric"]),
                                          odd_values),
       name=st.one_of(st.none(), st.sampled_from(["a.board", "a.mine", "a.json", "a.txt"]), odd_values),
       dialect=st.one_of(st.none(), st.sampled_from(["standard", "ascii", "dots"]), odd_values))
def test_front_door_options_of_any_type(text: str, format: Any, name: Any, dialect: Any) -> None:
    _never_crashes(lambda t: read_board(t, format=format, name=name, dialect=dialect), text)
    _never_crashes(lambda t: detect_format(t, name=name), text)


@settings(max_examples=examples(50))
@given(data=st.data())
def test_valid_files_still_read(gen, data) -> None:
    # The other side of the property: unmutated files are results, not errors.
    text = data.draw(written_boards(gen))
    assert write_board(read_board(text), "json") == write_board(read_board(text.encode()), "json")
