"""The deduction-only player and difficulty grades: every class is sound (it decides only what
the exact engine forces), the classes are ordered, and known positions get known grades."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from minegraph import Board, analyze
from minegraph.board import MINE
from minegraph.errors import UserError
from minegraph.generate.grade import METHODS, deductions, grade
from minegraph.generate.paper import paper_table
from strategies import examples, positions


@settings(max_examples=examples(300))
@given(positions(max_hidden=10, allow_inconsistent=False))
def test_every_class_is_sound(board: Board) -> None:
    a = analyze(board, engine="brute")
    forced_safe = {board.index(c) for c in a.safe}
    forced_mines = {board.index(c) for c in a.mines}
    for method in METHODS:
        safe, mines = deductions(board, method)
        assert safe <= forced_safe and mines <= forced_mines, method


@settings(max_examples=examples(200))
@given(positions(max_hidden=10, allow_inconsistent=False))
def test_grades_are_ordered(board: Board) -> None:
    """A player allowed stronger classes solves whatever a weaker one solves, with a grade no
    stronger; full search solves exactly the boards with one completion."""
    previous = None
    for method in METHODS:
        g = grade(board, up_to=method)
        if previous is not None and previous.solved:
            assert g.solved and METHODS.index(g.grade) <= METHODS.index(previous.grade) \
                if g.grade in METHODS else g.solved
        previous = g
    full = grade(board)
    assert full.solved == (analyze(board, engine="brute").solutions == 1)


@pytest.mark.parametrize("text, expected, steps", [
    ("#1#\n111\n---", "single", 1),
    ("###\n121\n---", "pair", 2),
    ("mines: 2\n#1#1#", "total", 2),
    ("mines: 4\n1#12#\n#####\n1##11", "linear", 4),
    ("000\n#1#\n###\n1#1", "search", 2),
    ("#1#", "guess", 0),
    ("1-\n--", "none", 0),
])
def test_known_grades(text: str, expected: str, steps: int) -> None:
    g = grade(Board.from_text(text))
    assert g.grade == expected and len(g.steps) == steps
    if expected in METHODS:
        assert g.solved and g.steps[-1].method in METHODS
        assert METHODS.index(max((s.method for s in g.steps), key=METHODS.index)) == \
            METHODS.index(expected)


def test_the_linear_example_needs_linear_algebra() -> None:
    b = Board.from_text("mines: 4\n1#12#\n#####\n1##11")
    assert not grade(b, up_to="total").solved
    assert grade(b, up_to="linear").solved


def test_paper_tables_are_solved_and_graded() -> None:
    for theorem, m, n in [(1, 2, 10), (2, 9, 10), (3, 9, 9), (2, 20, 21)]:
        for variant in ("bernoulli", "rows"):
            t = paper_table(theorem, m, n, seed=2, variant=variant)
            g = grade(t.puzzle)
            assert g.solved
            assert {i for i, s in enumerate(g.final.states) if s == MINE} == t.layout
            assert g.describe().startswith(g.grade)


def test_reveal_gives_numbers() -> None:
    b = Board.from_text("#0#\n---")
    assert grade(b, reveal=lambda c: 0).final.states == (0, 0, 0, -3, -3, -3)
    assert grade(b).final.states[0] == -3      # on paper: uncovered blank


def test_unknown_methods() -> None:
    with pytest.raises(UserError, match="unknown deduction method 'magic'"):
        grade(Board.from_text("#1#"), up_to="magic")
    with pytest.raises(UserError):
        deductions(Board.from_text("#1#"), "magic")
