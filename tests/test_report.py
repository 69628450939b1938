"""The text report of an analysis (shared by the CLI and the web app)."""

from __future__ import annotations

from fractions import Fraction

from minegraph import Board, analyze
from minegraph.report import percent, render_analysis


def test_percent_never_rounds_to_a_proof() -> None:
    assert percent(Fraction(0)) == "0%" and percent(Fraction(1)) == "100%"
    assert percent(Fraction(1, 1000)) == "<1%" and percent(Fraction(999, 1000)) == ">99%"
    assert percent(Fraction(1, 3)) == "33%" and percent(Fraction(1, 100)) == "1%"


def test_an_inconsistent_board_stops_after_saying_so() -> None:
    assert render_analysis(analyze(Board.from_text("#3#\n---"))) == (
        "board: 2x3 square, 2 hidden, total mines unknown\n"
        "consistent: no (no completion exists)\n")


def test_an_engine_that_does_not_count() -> None:
    text = render_analysis(analyze(Board.from_text("mines: 1\n#1#\n###"), engine="sat"))
    assert "solutions: not counted; probabilities unavailable: engine sat does not count" in text
    assert "? not computed;" in text and text.endswith("   ?   1   ?\n   ?   ?   ?\n")


def test_graph_boards_list_exact_probabilities() -> None:
    board = Board.from_graph(3, [(0, 1), (1, 2)], [-1, 1, -1])
    text = render_analysis(analyze(board))
    assert text.startswith("board: graph of 3 cells, 2 hidden, total mines unknown\n")
    assert "best: 0  mine probability 1/2" in text
    assert text.endswith("  cell 0: 1/2\n  cell 2: 1/2\n")


def test_long_cell_lists_are_cut() -> None:
    edge = "2" + "3" * 43 + "2"                       # every hidden cell below is a mine
    board = Board.from_text(f"{edge}\n{'#' * 45}\n{edge}")
    text = render_analysis(analyze(board))
    mines = next(line for line in text.splitlines() if line.startswith("mines"))
    assert mines.startswith("mines (45): (1,0) (1,1)") and mines.endswith(" ... (+5 more)")
