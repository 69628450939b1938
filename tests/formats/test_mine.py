"""JSMinesweeper ``.mine`` files (FORMATS.md §2)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minegraph.board import BLANK, HIDDEN, MINE, Board
from minegraph.errors import FormatError, LimitError
from minegraph.formats.mine import read_mine, write_mine
from minegraph.formats.text import read_text

H, M = HIDDEN, MINE


def test_read_symbols() -> None:
    b = read_mine("3x2x2\nHF?\n012\n")
    assert (b.rows, b.cols, b.mines, b.topology) == (2, 3, 2, "square")
    assert b.states == (H, M, H, 0, 1, 2)


def test_width_is_columns_height_is_rows() -> None:
    b = read_mine("4x1x0\n0000")
    assert (b.rows, b.cols) == (1, 4)


def test_question_mark_is_read_as_hidden() -> None:
    # A saved game marks hidden mines with `?`; the solver must not learn where they are.
    assert read_mine("2x1x1\n?1") == read_mine("2x1x1\nH1")


def test_crlf_and_trailing_blank_lines() -> None:
    assert read_mine("2x1x1\r\nH1\r\n\r\n") == Board.grid(1, 2, [H, 1], mines=1)


def test_sample_file_matches_its_text_twin(gen) -> None:
    board = read_mine((gen.data / "beginner.mine").read_text(encoding="utf-8"))
    assert (board.rows, board.cols, board.mines) == (9, 9, 10)
    assert (board.hidden_count, board.known_mines) == (49, 2)
    assert board == read_text((gen.data / "beginner.board").read_text(encoding="utf-8"))


def test_write_exact_text() -> None:
    b = Board.grid(2, 3, [H, 1, M, 0, 1, 1], mines=3)
    assert write_mine(b) == "3x2x3\nH1F\n011\n"


@given(data=st.data())
def test_round_trip_random_boards(gen, data) -> None:
    board = data.draw(gen.grid_boards(topologies=("square",), blank=False, total="known"))
    assert read_mine(write_mine(board)) == board


# ----------------------------------------------------------------- what cannot be written
@pytest.mark.parametrize("topology", ["hex", "triangle", "torus"])
def test_write_refuses_other_topologies(topology) -> None:
    with pytest.raises(FormatError, match=f"only square grids, not a {topology} board"):
        write_mine(Board.grid(1, 2, [H, H], topology=topology, mines=1))


def test_write_refuses_graph_boards() -> None:
    with pytest.raises(FormatError, match="not a graph board"):
        write_mine(Board.from_graph(2, [(0, 1)], [H, 1], mines=1))


def test_write_refuses_unknown_total() -> None:
    with pytest.raises(FormatError, match="needs the total number of mines"):
        write_mine(Board.grid(1, 2, [H, 1]))


def test_write_refuses_blank_cells() -> None:
    with pytest.raises(FormatError, match=r"cell \(0, 1\) is uncovered without a number"):
        write_mine(Board.grid(1, 2, [H, BLANK], mines=1))


# ----------------------------------------------------------------- errors
def test_unknown_symbol(gen) -> None:
    gen.raises_at(read_mine, "3x2x1\nHHH\nH#H", 3, 2, "unknown symbol '#'; expected one of H F ? 0-8")


def test_nine_is_not_a_symbol(gen) -> None:
    # .mine only knows the square grid, so 9 is not a number at all.
    gen.raises_at(read_mine, "3x3x1\nHHH\nH9H\nHHH", 3, 2, "unknown symbol '9'")


def test_short_row(gen) -> None:
    gen.raises_at(read_mine, "3x2x1\nHHH\nHH", 3, 3, "row has 2 characters, expected 3")


def test_long_row(gen) -> None:
    gen.raises_at(read_mine, "3x2x1\nHHHH\nHHH", 2, 4, "row has 4 characters, expected 3")


def test_missing_rows(gen) -> None:
    gen.raises_at(read_mine, "3x3x1\nHHH\nHHH\n", 4, 1, "the header says 3 rows, but only 2 follow")


def test_extra_rows(gen) -> None:
    gen.raises_at(read_mine, "3x1x1\nHHH\nHHH\n", 3, 1, "the header says 1 rows, but there are more")


@pytest.mark.parametrize("header, column", [
    ("30x16", 6),          # the mine count is missing
    ("30x16x", 7),
    ("30 16 99", 3),       # numeric-grid style
    ("ax16x99", 1),
    ("30x16x99x1", 9),
    ("30x16x-1", 7),       # a negative total is not a number here
])
def test_bad_header(gen, header, column) -> None:
    gen.raises_at(read_mine, header + "\nH", 1, column, "expected the header 'WxHxM'")


def test_total_larger_than_board(gen) -> None:
    gen.raises_at(read_mine, "2x2x5\nHH\nHH", 1, 5, "mine count 5 is outside 0..4")


def test_zero_width(gen) -> None:
    gen.raises_at(read_mine, "0x2x0\n\n", 1, 1, "at least one column and one row")


def test_number_larger_than_corner_neighbourhood(gen) -> None:
    gen.raises_at(read_mine, "2x2x3\nHH\nH4", 3, 2, "number 4 is too large: this cell has only 3 neighbours")


def test_number_larger_than_edge_neighbourhood(gen) -> None:
    gen.raises_at(read_mine, "3x2x5\nH6H\nHHH", 2, 2, "this cell has only 5 neighbours")


@pytest.mark.parametrize("text", ["", "   \n\n"])
def test_empty_input(gen, text) -> None:
    gen.raises_at(read_mine, text, 1, 1, "empty input")


def test_hostile_size_is_refused_before_reading_rows() -> None:
    with pytest.raises(LimitError, match="line 1: board of 100000x100000 cells exceeds the limit"):
        read_mine("100000x100000x1\nH")
