"""analyze(): the public facts, the best move, the JSON object of FORMATS.md §4."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from minegraph import HIDDEN, Board, analyze, solve
from minegraph.analysis import _to_float
from minegraph.errors import EngineError


def test_best_prefers_lowest_probability_then_fewest_hidden_neighbours() -> None:
    # No numbers: every cell 1/2; the corner (0,0) has 3 hidden neighbours, fewest.
    a = analyze(Board.from_text("###\n###\n###"))
    assert a.best == (0, 0)
    # "#2#/#3#/###": 18 completions; the bottom row cells are mines in 6 of them (1/3),
    # the others in 9 or 12; of the three 1/3 cells the corners have 3 hidden neighbours and
    # the middle 5: the corner (2,0) comes first.
    a = analyze(Board.from_text("#2#\n#3#\n###"))
    assert a.best == (2, 0) and a.probability((2, 0)) == Fraction(1, 3) and a.best_basis == "probability"
    # A proven-safe cell beats every probability: the floating corner (0,3) is safe when two
    # separate 50/50s take both mines of the total.
    a = analyze(Board.from_text("mines: 2\n##-#\n11-#\n--1#"))
    assert a.best == (0, 3) and a.best_basis == "safe"


def test_mines_override_and_only_total_decides() -> None:
    b = Board.from_text("##-#\n11-#\n--1#")
    assert analyze(b).solutions == 8
    a = analyze(b, mines=2)
    assert a.solutions == 4 and a.safe == [(0, 3)]
    assert analyze(b, mines=5).consistent is False


def test_inconsistent_board_is_an_answer() -> None:
    a = analyze(Board.from_text("#1-\n#3-\n#--"))
    assert (a.consistent, a.solutions, a.safe, a.mines, a.best, a.completion) == (False, 0, [], [], None, None)
    assert a.to_json() == {"consistent": False, "solutions": "0", "safe": [], "mines": [],
                           "probability": [[None] * 3] * 3, "best": None, "best_basis": None,
                           "engine": "dp", "total_mines": None}


def test_json_object_matches_formats_section_4() -> None:
    a = analyze(Board.from_text("mines: 1\n#1#\n---"))
    obj = json.loads(json.dumps(a.to_json()))
    assert obj == {"consistent": True, "solutions": "2", "safe": [], "mines": [],
                   "probability": [[0.5, None, 0.5], [None, None, None]], "best": [0, 0],
                   "best_basis": "probability", "engine": "dp", "total_mines": 1}


def test_graph_boards_use_integer_cells() -> None:
    b = Board.from_graph(3, [(0, 1), (1, 2)], [HIDDEN, 1, HIDDEN])
    a = analyze(b)
    assert a.probabilities == {0: Fraction(1, 2), 2: Fraction(1, 2)}
    assert a.to_json()["probability"] == [0.5, None, 0.5] and a.to_json()["best"] == 0


def test_unproven_probabilities_never_print_as_0_or_1() -> None:
    assert _to_float(Fraction(1, 10**400)) > 0
    assert _to_float(1 - Fraction(1, 10**400)) < 1
    assert _to_float(Fraction(0)) == 0 and _to_float(Fraction(1)) == 1


def test_completion_and_solve() -> None:
    b = Board.from_text("mines: 2\n#2#\n---")
    done = solve(b)
    assert done is not None and done.to_text() == "mines: 2\nM2M\n---\n"
    assert analyze(b).completion == done
    assert solve(Board.from_text("#3#\n---")) is None


def test_unknown_engine() -> None:
    with pytest.raises(EngineError, match="unknown engine 'fast'"):
        analyze(Board.from_text("#"), engine="fast")


def test_brute_and_dp_agree_through_analyze() -> None:
    b = Board.from_text("mines: 4\n#2##\n#3##\n####")
    assert analyze(b, engine="brute").probabilities == analyze(b, engine="dp").probabilities
