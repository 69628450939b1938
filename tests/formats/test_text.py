"""The canonical board text (FORMATS.md §1): reading, writing, dialects and error locations."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minegraph.board import BLANK, HIDDEN, MINE, Board
from minegraph.errors import FormatError
from minegraph.formats.text import read_text, write_text

H, M, B = HIDDEN, MINE, BLANK


# ----------------------------------------------------------------- reading
def test_spec_example() -> None:
    b = read_text("mines: 10\ntopology: square\n#####\n#212#\n#1-1#\n")
    assert (b.rows, b.cols, b.mines, b.topology) == (3, 5, 10, "square")
    assert b.states[5:10] == (H, 2, 1, 2, H)
    assert b.states[10:15] == (H, 1, B, 1, H)


def test_headers_are_case_insensitive_and_optional() -> None:
    b = read_text("Mines: 2\nTOPOLOGY: Hex\n##\n##")
    assert (b.mines, b.topology) == (2, "hex")
    plain = read_text("##\n##")
    assert (plain.mines, plain.topology) == (None, "square")


def test_unknown_total_spellings() -> None:
    assert read_text("mines: ?\n#").mines is None


def test_comments_blank_lines_and_spaces_between_cells() -> None:
    # Blank lines before the grid and comments inside it are fine; cells separated the same way.
    text = "; a comment\nmines: 1\n\n# 1\n  ; another\n1 1\n\n"
    assert read_text(text) == Board.grid(2, 2, [H, 1, 1, 1], mines=1)
    assert read_text("#\t1\n1\t1") == Board.grid(2, 2, [H, 1, 1, 1])


def test_mine_and_blank_aliases() -> None:
    assert read_text("MF*\n-◇-").states == (M, M, M, B, B, B)


def test_ascii_dialect_matches_canonical() -> None:
    ascii_board = read_text("x1.\n*1.", dialect="ascii")
    assert ascii_board == read_text("#10\nM10")
    assert write_text(ascii_board) == "#10\nM10\n"


def test_big_numbers_on_the_triangle_grid() -> None:
    # The centre of a 5x5 triangle grid has 12 neighbours: `c` is allowed there.
    rows = ["#####", "#####", "##c##", "#####", "#####"]
    b = read_text("topology: triangle\n" + "\n".join(rows))
    assert b.states[12] == 12
    assert write_text(b).splitlines()[3] == "##c##"


def test_torus_corner_has_eight_neighbours() -> None:
    assert read_text("topology: torus\n8##\n###\n###").states[0] == 8


# ----------------------------------------------------------------- writing
def test_write_exact_text() -> None:
    b = Board.grid(2, 3, [H, 1, M, B, 0, 1], topology="hex", mines=4)
    assert write_text(b) == "mines: 4\ntopology: hex\n#1M\n-01\n"


def test_write_refuses_graph_boards() -> None:
    with pytest.raises(FormatError, match="graph board has no grid text form"):
        write_text(Board.from_graph(2, [(0, 1)], [H, 1]))


@given(data=st.data())
def test_round_trip_random_grids(gen, data) -> None:
    board = data.draw(gen.grid_boards())
    assert read_text(write_text(board)) == board


# ----------------------------------------------------------------- errors
def test_unknown_symbol(gen) -> None:
    gen.raises_at(read_text, "mines: 1\n###\n#@#", 3, 2, "unknown symbol '@'; expected one of # ?")


def test_ragged_rows(gen) -> None:
    # The reader points at the first extra cell, or just past the end of a short row.
    gen.raises_at(read_text, "###\n####\n###", 2, 4, "row has 4 cells but the first row has 3")
    gen.raises_at(read_text, "###\n# # # #", 2, 7, "row has 4 cells but the first row has 3")
    gen.raises_at(read_text, "###\n#1", 2, 3, "row has 2 cells but the first row has 3")


def test_unknown_header(gen) -> None:
    gen.raises_at(read_text, "size: 3\n###", 1, 1, "unknown header 'size'")


def test_header_after_rows(gen) -> None:
    gen.raises_at(read_text, "###\nmines: 3", 2, 6, "header lines must come before the grid rows")


def test_repeated_header(gen) -> None:
    gen.raises_at(read_text, "mines: 1\nmines: 2\n#", 2, 1, "given twice")


def test_bad_total(gen) -> None:
    gen.raises_at(read_text, "mines:  ten\n##", 1, 9, "expected a whole number of mines, got 'ten'")


def test_negative_total(gen) -> None:
    gen.raises_at(read_text, "mines: -1\n##", 1, 8, "mine count -1 is outside 0..2")


def test_total_larger_than_board(gen) -> None:
    gen.raises_at(read_text, "mines: 5\n##\n##", 1, 8, "mine count 5 is outside 0..4")


def test_unknown_topology(gen) -> None:
    gen.raises_at(read_text, "topology: cube\n#", 1, 11, "unknown topology 'cube'")


def test_nine_on_square_grid(gen) -> None:
    gen.raises_at(read_text, "###\n#9#\n###", 2, 2, "the square grid allows at most 8")


def test_c_on_hex_grid(gen) -> None:
    gen.raises_at(read_text, "topology: hex\n###\n#c#\n###", 3, 2, "the hex grid allows at most 6")


def test_number_larger_than_corner_neighbourhood(gen) -> None:
    gen.raises_at(read_text, "##\n#4", 2, 2, "this cell has only 3 neighbours")


@pytest.mark.parametrize("text", ["", "\n\n", "; only a comment\n", "mines: 3\n"])
def test_empty_input(gen, text) -> None:
    gen.raises_at(read_text, text, 1, 1, "empty input")


# ----------------------------------------------------------------- outside corpus
JANKO_SIZES = [6, 8, 10, 8, 10, 10, 8, 9, 7, 9]


@pytest.mark.parametrize("number", range(10))
def test_janko_puzzles_parse(gen, number) -> None:
    path = gen.data / "janko-puzzles" / f"puzzle{number}.board"
    text = path.read_text(encoding="utf-8")
    board = read_text(text)
    side = JANKO_SIZES[number]
    assert (board.rows, board.cols, board.mines, board.topology) == (side, side, None, "square")
    assert set(board.states) <= {HIDDEN, *range(9)}
    # The grid lines (comments dropped) come back unchanged.
    rows = [line for line in text.splitlines() if line and not line.startswith(";")]
    assert write_text(board) == "\n".join(rows) + "\n"
