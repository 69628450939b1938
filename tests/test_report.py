"""The text report of an analysis (shared by the CLI and the web app)."""

from __future__ import annotations

import math
import sys
from dataclasses import replace
from fractions import Fraction

from minegraph import HIDDEN, Board, analyze
from minegraph.report import NO_TOTAL, SHOWN_DIGITS, count_text, fraction_text, percent, render_analysis


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


# ----------------------------------------------------------------- numbers at any size (issue 9)
def _huge_board() -> Board:
    return Board.grid(150, 200, [HIDDEN] * 30000, mines=6000)      # C(30000, 6000) completions


def _digits(n: int) -> str:
    """``str(n)`` under a lifted limit: the expected answer, computed independently."""
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return str(n)
    finally:
        sys.set_int_max_str_digits(old)


def test_a_count_past_4300_digits_is_abbreviated_or_printed_whole() -> None:
    expected = _digits(math.comb(30000, 6000))
    a = analyze(_huge_board())
    text = render_analysis(a)
    assert f"\nsolutions: {expected[0]}.{expected[1:5]}…e+{len(expected) - 1} ({len(expected)} digits)\n" in text
    assert "solutions: 2.6340…e+6517 (6518 digits)" in text
    assert f"\nsolutions: {expected}\n" in render_analysis(a, full=True)
    assert count_text(10 ** SHOWN_DIGITS - 1) == "9" * SHOWN_DIGITS      # 100 digits: whole
    assert count_text(10 ** SHOWN_DIGITS) == "1.0000…e+100 (101 digits)"


def test_fractions_with_huge_numerators_and_denominators_print() -> None:
    # A probability whose numerator and denominator both pass 4,300 digits.
    p = Fraction(7 ** 6000, 7 ** 6000 + 11 ** 5000)
    num, den = _digits(p.numerator), _digits(p.denominator)
    assert min(len(num), len(den)) > 4300
    assert fraction_text(p) == f"{num[0]}.{num[1:5]}…e+{len(num) - 1}/{den[0]}.{den[1:5]}…e+{len(den) - 1}"
    assert fraction_text(p, full=True) == f"{num}/{den}"
    # ...in the report: the best cell's line and a graph board's list of cells.
    a = analyze(Board.from_graph(3, [(0, 1), (1, 2)], [HIDDEN, 1, HIDDEN]))
    huge = replace(a, probabilities={0: p, 2: 1 - p})
    text = render_analysis(huge)
    assert f"best: 0  mine probability {fraction_text(p)} ≈ {float(p):.4f}\n" in text
    assert f"  cell 2: {fraction_text(1 - p)}\n" in text
    assert f"  cell 0: {num}/{den}\n" in render_analysis(huge, full=True)


def test_full_lists_every_cell() -> None:
    edge = "2" + "3" * 43 + "2"
    a = analyze(Board.from_text(f"{edge}\n{'#' * 45}\n{edge}"))
    mines = next(line for line in render_analysis(a, full=True).splitlines() if line.startswith("mines"))
    assert mines.endswith("(1,43) (1,44)") and "more" not in mines


def test_the_report_says_what_no_total_assumes() -> None:
    text = render_analysis(analyze(Board.from_text("#1#-#")))
    assert f"\n{NO_TOTAL}\n" in text and "total mines unknown" in text
    assert "mine probability 1/2" in NO_TOTAL and "every completion counts once" in NO_TOTAL
    assert NO_TOTAL not in render_analysis(analyze(Board.from_text("mines: 1\n#1#-#")))
    assert NO_TOTAL not in render_analysis(analyze(Board.from_text("0-\n--")))   # nothing hidden
