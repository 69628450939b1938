"""The numeric grid of the backtracking solver (FORMATS.md §3), and its solution output."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minegraph.board import BLANK, HIDDEN, MINE, Board
from minegraph.errors import BoardError, FormatError, LimitError
from minegraph.formats.mine import read_mine
from minegraph.formats.numeric import (NO_SOLUTION, completed_numbers, read_numeric, write_numeric,
                                       write_numeric_solution)

H, M = HIDDEN, MINE


def test_read_values() -> None:
    b = read_numeric("2 3 2\n9 1 -1\n0 1 9\n")
    assert (b.rows, b.cols, b.mines, b.topology) == (2, 3, 2, "square")
    assert b.states == (H, 1, M, 0, 1, H)


def test_zero_total_means_not_specified() -> None:
    assert read_numeric("1 2 0\n9 9").mines is None


def test_irregular_spacing_and_blank_lines() -> None:
    assert read_numeric("\n 1  2   1 \n\n\t9\t1\n\n") == Board.grid(1, 2, [H, 1], mines=1)


def test_sample_file_matches_the_mine_file(gen) -> None:
    numeric = read_numeric((gen.data / "beginner.numeric.txt").read_text(encoding="utf-8"))
    assert numeric == read_mine((gen.data / "beginner.mine").read_text(encoding="utf-8"))


def test_write_exact_text() -> None:
    assert write_numeric(Board.grid(2, 2, [H, 1, M, 1])) == "2 2 0\n9 1\n-1 1\n"


@given(data=st.data())
def test_round_trip_random_boards(gen, data) -> None:
    board = data.draw(gen.grid_boards(topologies=("square",), blank=False, total="nonzero"))
    assert read_numeric(write_numeric(board)) == board


# ----------------------------------------------------------------- what cannot be written
def test_write_refuses_zero_total() -> None:
    with pytest.raises(FormatError, match="a total of 0 mines cannot be written"):
        write_numeric(Board.grid(1, 2, [0, 0], mines=0))


@pytest.mark.parametrize("topology", ["hex", "triangle", "torus"])
def test_write_refuses_other_topologies(topology) -> None:
    with pytest.raises(FormatError, match=f"only square grids, not a {topology} board"):
        write_numeric(Board.grid(1, 2, [H, H], topology=topology))


def test_write_refuses_blank_cells() -> None:
    with pytest.raises(FormatError, match=r"cell \(1, 0\) is uncovered without a number"):
        write_numeric(Board.grid(2, 1, [H, BLANK]))


# ----------------------------------------------------------------- errors
@pytest.mark.parametrize("header, column, words", [
    ("3 3", 4, "got 2 values"),
    ("3 3 1 7", 7, "got 4 values"),
    ("3 x 1", 3, "expected the number of columns (an integer), got 'x'"),
    ("3 3 1.5", 5, "expected the number of mines"),
    ("0 3 0", 1, "at least one row, got 0"),
    ("3 0 0", 3, "at least one column, got 0"),
    ("1 2 -1", 5, "mine count -1 is outside 0..2"),
    ("1 2 3", 5, "mine count 3 is outside 0..2"),
])
def test_bad_header(gen, header, column, words) -> None:
    gen.raises_at(read_numeric, header + "\n9 9 9\n", 1, column, words)


@pytest.mark.parametrize("value, column", [("10", 3), ("-2", 3), ("x", 3), ("1.0", 3)])
def test_unknown_value(gen, value, column) -> None:
    gen.raises_at(read_numeric, f"1 3 0\n9 {value} 9", 2, column, "expected -1 (a mine), 0-8 (a number) or 9 (covered)")


def test_short_row(gen) -> None:
    gen.raises_at(read_numeric, "2 3 0\n9 9 9\n9 9 ", 3, 4, "row has 2 values, expected 3")


def test_long_row(gen) -> None:
    gen.raises_at(read_numeric, "2 3 0\n9 9 9 9\n9 9 9", 2, 7, "row has 4 values, expected 3")


def test_missing_rows(gen) -> None:
    gen.raises_at(read_numeric, "3 1 0\n9\n9\n", 4, 1, "the header says 3 rows, but only 2 follow")


def test_extra_rows(gen) -> None:
    gen.raises_at(read_numeric, "1 1 0\n9\n\n9\n", 4, 1, "the header says 1 rows, but there are more")


def test_number_larger_than_corner_neighbourhood(gen) -> None:
    gen.raises_at(read_numeric, "2 2 0\n9 9\n9 4", 3, 3, "number 4 is too large: this cell has only 3 neighbours")


def test_nine_means_covered_not_a_number() -> None:
    assert read_numeric("3 3 0\n9 9 9\n9 9 9\n9 9 9").hidden_count == 9


@pytest.mark.parametrize("text", ["", "\n \n"])
def test_empty_input(gen, text) -> None:
    gen.raises_at(read_numeric, text, 1, 1, "empty input")


def test_hostile_size_is_refused_before_reading_rows() -> None:
    with pytest.raises(LimitError, match="line 1: board of 100000x100000 cells"):
        read_numeric("100000 100000 0\n9")


# ----------------------------------------------------------------- solutions
def test_no_solution() -> None:
    assert write_numeric_solution(None) == NO_SOLUTION + "\n" == "NO SOLUTION\n"


def test_solution_of_a_small_puzzle() -> None:
    puzzle = read_numeric("3 3 2\n9 9 9\n9 2 9\n9 9 9")
    solved = completed_numbers(puzzle, {0, 8})
    assert write_numeric_solution(solved) == "3 3 2\n-1 1 0\n1 2 1\n0 1 -1\n"


def test_solution_keeps_known_mines_and_fills_blanks() -> None:
    board = Board.grid(1, 4, [M, BLANK, H, H])
    assert completed_numbers(board, {3}).states == (M, 1, 1, M)
    assert write_numeric_solution(Board.grid(1, 3, [M, BLANK, BLANK])) == "1 3 0\n-1 1 0\n"


def test_solution_must_decide_every_cell() -> None:
    with pytest.raises(FormatError, match=r"cell \(0, 1\) is still hidden"):
        write_numeric_solution(Board.grid(1, 2, [M, H]))


def test_solution_of_a_graph_board_is_refused() -> None:
    with pytest.raises(FormatError, match="only square grids"):
        write_numeric_solution(Board.from_graph(1, [], [0]))


def test_completed_numbers_on_a_graph_board() -> None:
    board = Board.from_graph(4, [(0, 1), (1, 2), (2, 3)], [H, 1, H, H], mines=2)
    assert completed_numbers(board, {0, 3}).states == (M, 1, 1, M)


@pytest.mark.parametrize("mines, words", [
    ({1}, r"cell \(0, 1\) is uncovered, so it cannot hold a mine"),
    ({5}, "mine cell 5 is outside 0..2"),
    (set(), r"cell \(0, 1\) shows 1 but has 0 neighbouring mines"),
])
def test_completed_numbers_rejects_non_solutions(mines, words) -> None:
    with pytest.raises(BoardError, match=words):
        completed_numbers(Board.grid(1, 3, [H, 1, H]), mines)


def test_completed_numbers_checks_the_total() -> None:
    with pytest.raises(BoardError, match="places 2 mines, but the board's total is 1"):
        completed_numbers(Board.grid(1, 3, [H, H, H], mines=1), {0, 2})


@given(data=st.data())
def test_solutions_of_random_layouts_read_back(gen, data) -> None:
    # Any mine layout on a fully hidden board is a solution; its output must read back as the
    # completed board, with every number equal to its count of neighbouring mines.
    covered = data.draw(gen.grid_boards(topologies=("square",), blank=False))
    covered = covered.with_states([H] * covered.size, mines=None)
    mines = data.draw(st.sets(st.integers(0, covered.size - 1), min_size=1))
    solved = completed_numbers(covered, mines)
    assert read_numeric(write_numeric_solution(solved)) == solved
    for i, s in enumerate(solved.states):
        assert (s == M) == (i in mines)
        if s != M:
            assert s == sum(j in mines for j in solved.neighbors[i])
