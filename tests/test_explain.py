"""explain: minimal sets of numbers (flags, the total) that force a cell or contradict.

Every set returned is checked minimal independently of the SAT machinery that found it: on the
board reduced to those numbers (the others shown as uncovered cells without a number, unused
flags hidden again, the total dropped unless used) the brute-force oracle must find the cell
forced, and dropping any one reason must leave it unforced.
"""

from __future__ import annotations

import json
from fractions import Fraction

from hypothesis import HealthCheck, given, settings

from minegraph import Analyser, Board, analyze
from minegraph.board import BLANK, HIDDEN, MINE
from minegraph.engines.brute import BruteEngine
from minegraph.explain import Explanation, explain
from strategies import positions, examples


def _reduced(board: Board, clues: set[int], flags: set[int], total: bool) -> Board:
    states = []
    for i, s in enumerate(board.states):
        if s >= 0 and i not in clues:
            states.append(BLANK)      # still uncovered (no mine), but no longer a constraint
        elif s == MINE and i not in flags:
            states.append(HIDDEN)     # no longer known
        else:
            states.append(s)
    return board.with_states(states, board.mines if total else None)


def _status(board: Board, cell: int | None) -> str:
    r = BruteEngine().run(board)
    if not r.consistent:
        return "inconsistent"
    if cell is None:
        return "consistent"
    return "safe" if cell in r.safe else "mine" if cell in r.mines else "unknown"


def check_minimal(e: Explanation) -> None:
    """The reasons force the answer, and none of them can be dropped."""
    board = e.board
    cell = None if e.cell is None else board.index(e.cell)
    clues = {board.index(c) for c in e.clues}
    flags = {board.index(c) for c in e.flags}
    assert _status(_reduced(board, clues, flags, e.uses_total), cell) == e.status
    for c in clues:
        assert _status(_reduced(board, clues - {c}, flags, e.uses_total), cell) != e.status
    for f in flags:
        assert _status(_reduced(board, clues, flags - {f}, e.uses_total), cell) != e.status
    if e.uses_total:
        assert _status(_reduced(board, clues, flags, False), cell) != e.status


def test_the_one_one_pattern() -> None:
    # Along the wall: the 1 at (1,0) puts its mine on (0,0) or (0,1), which the 1 at (1,1)
    # also sees, so its third cell (0,2) is safe; neither number alone says so.
    e = explain(Board.from_text("###\n11-"), (0, 2))
    assert (e.status, e.clues, e.flags, e.uses_total) == ("safe", ((1, 0), (1, 1)), (), False)
    assert e.smallest
    check_minimal(e)


def test_the_one_two_one_pattern() -> None:
    b = Board.from_text("#####\n-121-")
    # (0,1) is a mine: without it, the 2 needs (0,2) and (0,3), too many for the 1 at (1,3).
    e = explain(b, (0, 1))
    assert (e.status, e.clues) == ("mine", ((1, 2), (1, 3)))
    # (0,3) likewise by symmetry; (0,2) safe needs all three numbers.
    assert explain(b, (0, 3)).clues == ((1, 1), (1, 2))
    assert explain(b, (0, 2)).clues == ((1, 1), (1, 2), (1, 3))
    for cell in [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]:
        check_minimal(explain(b, cell))


def test_a_deduction_that_needs_the_total() -> None:
    # Two separate 50/50s hold one mine each; with 2 mines in all, the corner (0,3), next to
    # no number, is safe. One number of the left pair suffices.
    b = Board.from_text("mines: 2\n##-#\n11-#\n--1#")
    e = explain(b, (0, 3))
    assert e.status == "safe" and e.uses_total and len(e.clues) == 2
    assert (2, 2) in e.clues and ({(1, 0), (1, 1)} & set(e.clues))
    check_minimal(e)
    assert "total of 2 mines" in e.text


def test_a_contradiction() -> None:
    # The 3 at (1,1) needs all of (0,0), (1,0), (2,0); the 1 at (0,1) allows one of the first two.
    b = Board.from_text("#1-\n#3-\n#--")
    e = explain(b)
    assert (e.status, e.clues, e.uses_total) == ("inconsistent", ((0, 1), (1, 1)), False)
    check_minimal(e)
    # Asking about a cell of an inconsistent board explains the inconsistency.
    assert explain(b, (0, 0)).status == "inconsistent"


def test_flags_are_reasons_too() -> None:
    # The 1 at (0,1) already touches the flag at (0,0): its other cells are safe.
    e = explain(Board.from_text("M1#\n###"), (1, 2))
    assert (e.status, e.clues, e.flags) == ("safe", ((0, 1),), ((0, 0),))
    check_minimal(e)
    # Two flags on one 1: a contradiction of the number and both flags.
    bad = explain(Board.from_text("M1M\n---"))
    assert (bad.status, bad.clues, bad.flags) == ("inconsistent", ((0, 1),), ((0, 0), (0, 2)))
    check_minimal(bad)


def test_an_unforced_cell_says_so_with_its_probability() -> None:
    e = explain(Board.from_text("#1#\n---"), (0, 0))
    assert e.status == "unknown" and e.clues == () and e.probability == 0.5
    obj = e.to_json()
    assert obj["probability"] == 0.5 and obj["status"] == "unknown" and "not forced" in obj["text"]


def test_json_shape() -> None:
    e = explain(Board.from_text("###\n11-"), (0, 2))
    obj = json.loads(json.dumps(e.to_json()))
    assert obj == {"cell": [0, 2], "status": "safe", "clues": [[1, 0], [1, 1]], "flags": [],
                   "uses_total": False, "smallest": True, "probability": 0.0, "text": e.text}


def test_fragment_marks_the_reasons() -> None:
    e = explain(Board.from_text("###\n11-"), (0, 2))
    assert e.fragment() == " #  # (?)\n[1][1] -\n"


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(max_hidden=9, topologies=("square", "triangle", "hex")))
def test_every_explanation_is_minimal_on_random_positions(board: Board) -> None:
    truth = BruteEngine().run(board)
    if not truth.consistent:
        e = explain(board)
        assert e.status == "inconsistent"
        check_minimal(e)
        return
    for cell in sorted(truth.safe | truth.mines)[:3]:
        e = explain(board, board.cell(cell))
        assert e.status == ("safe" if cell in truth.safe else "mine")
        check_minimal(e)
    for cell in sorted(set(board.hidden) - truth.safe - truth.mines)[:1]:
        assert explain(board, board.cell(cell)).status == "unknown"


def test_a_cell_the_analysis_shows_unforced_is_answered_without_sat() -> None:
    """Big board, a total over 1,500 cells: the exact analysis already says the cell is not
    forced (the SAT formula with its totalizer took minutes here)."""
    rows, cols = 30, 50
    text = "mines: 370\n" + "\n".join(("#1" + "#" * (cols - 2)) if r == 0 else "#" * cols
                                      for r in range(rows))
    board = Board.from_text(text)
    p = analyze(board).probability((0, 0))
    for e in (explain(board, (0, 0), timeout=20), Analyser().explain(board, (0, 0), timeout=20)):
        assert e.status == "unknown" and e.probability == p == Fraction(1, 5)
        assert e.clues == () and "not forced" in e.text
