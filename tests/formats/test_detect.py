"""The front door: format names, detection, and reading/writing through any format."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minegraph.board import HIDDEN, Board
from minegraph.errors import FormatError, MinegraphError
from minegraph.formats import FORMATS, detect_format, read_board, write_board

SAMPLES = {"beginner.board": "text", "beginner.mine": "mine", "beginner.numeric.txt": "numeric",
           "beginner.json": "json"}


def test_format_names() -> None:
    assert FORMATS == ("text", "mine", "numeric", "json")


@pytest.mark.parametrize("name, expected", [
    ("a.board", "text"), ("a.mine", "mine"), ("dir/A.JSON", "json"), ("x.Mine", "mine"),
])
def test_detect_by_extension_wins_over_content(name, expected) -> None:
    assert detect_format("3 3 0\n9 9 9", name=name) == expected


@pytest.mark.parametrize("name", [None, "a.txt", "a.in", "noext", "dir.mine/file"])
@pytest.mark.parametrize("text, expected", [
    ('  {"cells": ["#"]}', "json"),
    ("30x16x99\nHH", "mine"),
    ("; a comment\n\n2x1x0\nHH", "mine"),
    ("2 2 0\n9 9\n-1 1\n", "numeric"),
    ("mines: 3\n###", "text"),
    ("#1#\n#1#", "text"),
    ("3 3 0\n", "text"),              # a lone header has no rows: not a numeric grid
    ("1 1 1\n1 # 1", "text"),         # spaced canonical text that is not all integers
    ("", "text"),
])
def test_detect_by_content(name, text, expected) -> None:
    assert detect_format(text, name=name) == expected


@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_samples_detected_and_equal(gen, sample) -> None:
    text = (gen.data / sample).read_text(encoding="utf-8")
    assert detect_format(text) == SAMPLES[sample]
    assert detect_format(text, name=sample) == SAMPLES[sample]
    reference = read_board((gen.data / "beginner.board").read_text(encoding="utf-8"), format="text")
    assert read_board(text) == read_board(text, name=sample) == reference


def test_explicit_format_is_not_second_guessed() -> None:
    # "1x1x0" is a .mine header, but also a row of the ASCII dialect (x = hidden).
    assert read_board("1x1x0", format="text", dialect="ascii").states == (1, HIDDEN, 1, HIDDEN, 0)
    with pytest.raises(FormatError, match="only 0 follow"):
        read_board("1x1x0")


def test_byte_order_mark_is_dropped() -> None:
    assert read_board("\ufeff#1\n11") == Board.grid(2, 2, [HIDDEN, 1, 1, 1])
    assert read_board("\ufeff2x1x1\nH1") == Board.grid(1, 2, [HIDDEN, 1], mines=1)


def test_unknown_format_lists_the_known_ones() -> None:
    message = "unknown format 'svg'; expected one of text, mine, numeric, json"
    with pytest.raises(MinegraphError, match=message):
        read_board("#", format="svg")
    with pytest.raises(MinegraphError, match=message):
        write_board(Board.grid(1, 1, [HIDDEN]), "svg")


def test_reader_errors_pass_through(gen) -> None:
    gen.raises_at(lambda text: read_board(text, name="bad.mine"), "3x1x1\nH?X", 2, 3, "unknown symbol 'X'")


@given(data=st.data())
def test_every_format_round_trips_through_the_front_door(gen, data) -> None:
    board = data.draw(gen.grid_boards(topologies=("square",), blank=False, total="nonzero"))
    formats = ["text", "numeric", "json"] + (["mine"] if board.mines is not None else [])
    for name in formats:
        written = write_board(board, name)
        assert read_board(written, format=name) == board
        assert detect_format(written) == name


def test_import_stays_light() -> None:
    # Importing the front door must not load the format modules themselves.
    code = ("import sys, minegraph; before = set(sys.modules); import minegraph.formats; "
            "print(sorted(m for m in set(sys.modules) - before if m.startswith('minegraph.formats.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
