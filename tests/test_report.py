"""The text report of an analysis (shared by the CLI and the web app)."""

from __future__ import annotations

import math
import sys
from dataclasses import replace
from fractions import Fraction

from minegraph import HIDDEN, Board, analyze
from minegraph.report import (LEGEND_BEST, LEGEND_GRAPH, LEGEND_GRID, NO_TOTAL, SHOWN_DIGITS, WIDTH,
                              count_text, fraction_text, percent, render_analysis)


def _entry(text: str, label: str) -> str:
    """The report's entry starting with ``label``, its wrapped lines joined again."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(label))
    entry = [lines[start]]
    for line in lines[start + 1:]:
        if not line.startswith(" ") or line.lstrip()[:1].isdigit():
            break
        entry.append(line.strip())
    return " ".join(entry)


def _wrapped(text: str) -> str:
    """``text`` as the report wraps it."""
    import textwrap
    return "\n".join(textwrap.wrap(text, WIDTH, break_long_words=False, break_on_hyphens=False,
                                   subsequent_indent="  "))


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
    assert "? not computed;" in text and "\n  0    ?    1    ?\n  1    ?    ?    ?\n" in text


def test_graph_boards_list_exact_probabilities() -> None:
    board = Board.from_graph(3, [(0, 1), (1, 2)], [-1, 1, -1])
    text = render_analysis(analyze(board))
    assert text.startswith("board: graph of 3 cells, 2 hidden, total mines unknown\n")
    assert "best: 0  mine probability 1/2" in text
    assert "\n  cell 0: 1/2\n  cell 2: 1/2\nkey: cells are numbered from 0" in text


def test_long_cell_lists_are_cut() -> None:
    edge = "2" + "3" * 43 + "2"                       # every hidden cell below is a mine
    board = Board.from_text(f"{edge}\n{'#' * 45}\n{edge}")
    text = render_analysis(analyze(board))
    mines = _entry(text, "mines")
    assert mines.startswith("mines (45): (1,0) (1,1)") and mines.endswith(" ... (+5 more)")
    assert mines.count("(") == 40 + 2


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
    assert f"best: 0  mine probability {fraction_text(p)} ≈ {float(p):.4f} (the lowest mine probability)\n" in text
    assert f"  cell 2: {fraction_text(1 - p)}\n" in text
    assert f"  cell 0: {num}/{den}\n" in render_analysis(huge, full=True)


def test_full_lists_every_cell() -> None:
    edge = "2" + "3" * 43 + "2"
    a = analyze(Board.from_text(f"{edge}\n{'#' * 45}\n{edge}"))
    mines = _entry(render_analysis(a, full=True), "mines")
    assert mines.endswith("(1,43) (1,44)") and "more" not in mines and mines.count("(") == 45 + 1


def test_the_report_says_what_no_total_assumes() -> None:
    text = render_analysis(analyze(Board.from_text("#1#-#")))
    assert f"\n{_wrapped(NO_TOTAL)}\n" in text and "total mines unknown" in text
    assert "mine probability 1/2" in NO_TOTAL and "every completion counts once" in NO_TOTAL
    assert NO_TOTAL not in render_analysis(analyze(Board.from_text("mines: 1\n#1#-#")))
    assert NO_TOTAL not in render_analysis(analyze(Board.from_text("0-\n--")))   # nothing hidden


# ----------------------------------------------------------------- a report a person can read (issue 9)
def test_columns_never_run_together_and_rows_and_columns_are_numbered() -> None:
    # "mines: 2 / #1#1#": both ends are mines (100%) next to numbers and to 0%.
    text = render_analysis(analyze(Board.from_text("mines: 2\n#1#1#\n-----")))
    assert "\nr\\c    0    1    2    3    4\n  0 100%    1   0%    1 100%\n  1    -    -    -    -    -\n" in text
    # Every cell of the grid is four characters wide, one space apart, on any board.
    board = Board.from_text("mines: 20\n" + "\n".join(["#-#-#-#-#-M-"] * 11))
    rows = [line for line in render_analysis(analyze(board)).splitlines() if line[:3].strip().isdigit()]
    assert len(rows) == 11 and all(len(row) == 3 + 12 * 5 for row in rows)
    assert all(row[3 + 5 * c] == " " for row in rows for c in range(12))


def test_the_legend_says_what_cells_and_best_mean() -> None:
    text = render_analysis(analyze(Board.from_text("#1#")))
    assert text.endswith(_wrapped(LEGEND_GRID) + "\n" + _wrapped(LEGEND_BEST) + "\n")
    assert "(row,col) from 0 at the top left" in LEGEND_GRID
    assert "proven-safe cell" in LEGEND_BEST and "lowest mine probability" in LEGEND_BEST
    graph = render_analysis(analyze(Board.from_graph(2, [(0, 1)], "#1")))
    assert graph.endswith(_wrapped(LEGEND_GRAPH) + "\n" + _wrapped(LEGEND_BEST) + "\n")
    # The best line says which rule chose the cell.
    assert "(proven safe)" in render_analysis(analyze(Board.from_text("mines: 1\n#1#1#")))


def test_long_lines_are_wrapped_and_every_cell_is_still_listed() -> None:
    edge = "2" + "3" * 43 + "2"
    text = render_analysis(analyze(Board.from_text(f"{edge}\n{'#' * 45}\n{edge}")), full=True)
    grid = {i for i, line in enumerate(text.splitlines()) if line[:3].strip().isdigit() or line.startswith("r\\c")}
    assert all(len(line) <= WIDTH for i, line in enumerate(text.splitlines()) if i not in grid)
    assert _entry(text, "mines").split()[2:] == [f"(1,{c})" for c in range(45)]


def test_colour_is_the_same_text_with_ansi_styles(monkeypatch) -> None:
    import re
    a = analyze(Board.from_text("mines: 2\n##-#\n11-#\n--1#"))
    monkeypatch.delenv("COLORTERM", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")          # the caller decides; render_analysis obeys colour=
    plain, coloured = render_analysis(a), render_analysis(a, colour=True)
    assert "\x1b[" not in plain and "\x1b[" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain
    assert "\x1b[38;5;221m 50%" in coloured          # even odds in the heat map's yellow (256 colours)
    monkeypatch.setenv("COLORTERM", "truecolor")
    assert "\x1b[38;2;253;216;53m 50%" in render_analysis(a, colour=True)   # #fdd835 exactly


def test_labelled_graph_boards_are_reported_by_label_in_board_order() -> None:
    """Labels of mixed types cannot be sorted; one-element tuples are labels, not (row, col)."""
    import networkx as nx

    from minegraph.explain import explain
    g = nx.Graph([(1, "b"), ("b", "c")])
    board = Board.from_networkx(g, {1: "#", "b": "1", "c": "#"}, mines=1)
    text = render_analysis(analyze(board))
    assert "  cell 1: 1/2\n  cell c: 1/2\n" in text and "node labels" in text
    t = Board.from_networkx(nx.path_graph([(0,), (1,), (2,)]), {(0,): "#", (1,): "1", (2,): "#"})
    assert "  cell (0,): 1/2\n  cell (2,): 1/2\n" in render_analysis(analyze(t))
    assert explain(t, (0,)).text.startswith("(0,) is not forced")
