"""The deduction-only player and difficulty grades.

A puzzle's grade is the weakest class of deduction that solves it, the classes from weakest to
strongest (:data:`METHODS`):

``single``
    single-number rules: a number whose remaining need is 0 makes its other hidden neighbours
    safe; one whose need equals its hidden neighbours makes them all mines;
``pair``
    two overlapping numbers (the subset rule and its generalisation): with ``A`` and ``B`` the
    hidden neighbours of two numbers, the mines in ``A & B`` lie between bounds that both
    numbers give, which can force ``A - B`` or ``B - A`` all safe or all mines (a number whose
    cells contain another's is the subset rule);
``total``
    the total mine count as one more number over every hidden cell, with the single and pair
    rules (e.g. the mines left are all next to one number, so the far cells are safe);
``linear``
    linear algebra over the rationals on all the equations at once
    (:func:`minegraph.linalg.linear_deductions`);
``search``
    full search: a cell safe (or a mine) in every completion, by the exact engine
    (:func:`minegraph.analysis.analyze`).

The player works in rounds: each round applies the weakest class that decides something on the
current position, and decides everything that class finds there at once (it does not chain
inside a round). Decided mines are marked; decided safe cells are uncovered, with their number
when a ``reveal`` function gives it (a game), else blank (a puzzle on paper, whose hidden cells
show nothing). The number of rounds is the puzzle's *steps*; the grade is the strongest class
any round needed. A position where even full search decides nothing needs a guess.

Examples
--------
>>> from minegraph import Board
>>> g = grade(Board.from_text("###\\n121\\n---"))
>>> g.grade, g.solved, len(g.steps)
('pair', True, 2)
>>> g.describe()
'pair, 2 steps (pair 1, single 1)'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from minegraph.board import BLANK, HIDDEN, MINE, Board
from minegraph.constraints import build_system
from minegraph.errors import UserError
from minegraph.generate.pairs import pair_rule

__all__ = ["METHODS", "Step", "Grade", "grade", "deductions", "pair_rule"]

#: The classes of deduction, weakest first.
METHODS: tuple[str, ...] = ("single", "pair", "total", "linear", "search")

#: A constraint: hidden cells and the mines among them.
_Constraint = tuple[frozenset[int], int]


@dataclass(frozen=True)
class Step:
    """One round: the class used and the cells it decided (indices).

    Attributes
    ----------
    method
        The class of deduction (one of :data:`METHODS`).
    safe, mines
        The cells it decided safe / mined, in increasing order.
    """

    method: str
    safe: tuple[int, ...]
    mines: tuple[int, ...]


@dataclass(frozen=True)
class Grade:
    """How the deduction-only player fared on a puzzle.

    Attributes
    ----------
    grade
        The strongest class a round needed (one of :data:`METHODS`), ``"guess"`` when the
        player got stuck, ``"none"`` when nothing was hidden.
    steps
        The rounds, in order.
    solved
        Whether every hidden cell was decided.
    final
        The position at the end.
    """

    grade: str
    steps: tuple[Step, ...]
    solved: bool
    final: Board

    def counts(self) -> dict[str, int]:
        """Rounds per class, in the order of :data:`METHODS` (classes used only)."""
        out: dict[str, int] = {}
        for m in METHODS:
            k = sum(1 for s in self.steps if s.method == m)
            if k:
                out[m] = k
        return out

    def describe(self) -> str:
        """One line: the grade, the steps and the rounds per class (strongest first).

        Examples
        --------
        >>> from minegraph import Board
        >>> grade(Board.from_text("#1#")).describe()
        'guess after 0 steps'
        """
        if self.grade == "guess":
            return f"guess after {len(self.steps)} steps"
        parts = ", ".join(f"{m} {k}" for m, k in reversed(list(self.counts().items())))
        return f"{self.grade}, {len(self.steps)} steps ({parts})" if parts else f"{self.grade}, 0 steps"


def _constraints(board: Board) -> list[_Constraint]:
    """Every number with hidden neighbours: those cells and its remaining need (the model's
    clues without propagation)."""
    system = build_system(board, propagate=False)
    boxes = system.boxes
    return [(frozenset([c for b in clue.boxes for c in boxes[b].cells]), clue.need)
            for clue in system.clues]


def _single(constraints: Iterable[_Constraint]) -> tuple[set[int], set[int]]:
    safe: set[int] = set()
    mines: set[int] = set()
    for cells, need in constraints:
        if need == 0:
            safe |= cells
        elif need == len(cells):
            mines |= cells
    return safe, mines


def deductions(board: Board, method: str) -> tuple[set[int], set[int]]:
    """The hidden cells (indices) that ``method`` alone decides on ``board``: ``(safe, mines)``.

    Parameters
    ----------
    board
        The position.
    method
        One of :data:`METHODS`.

    Returns
    -------
    tuple of set
        ``(safe, mines)``, cell indices; both empty when nothing is decided (or, for
        ``search``, the board is inconsistent).

    Raises
    ------
    UserError
        for an unknown method.

    Examples
    --------
    >>> from minegraph import Board
    >>> b = Board.from_text("mines: 1\\n#1#-##")
    >>> deductions(b, "pair"), deductions(b, "total")
    ((set(), set()), ({4, 5}, set()))
    """
    if method not in METHODS:
        raise UserError(f"unknown deduction method {method!r}; expected one of {', '.join(METHODS)}")
    if method == "single":
        return _single(_constraints(board))
    if method in ("pair", "total"):
        constraints = _constraints(board)
        if method == "total":
            if board.mines is None:
                return set(), set()
            hidden = frozenset(board.hidden)
            if not hidden:
                return set(), set()
            constraints.append((hidden, board.mines - board.known_mines))
            safe, mines = _single(constraints[-1:])
            more = pair_rule(constraints)
            return safe | more[0], mines | more[1]
        return pair_rule(constraints)
    if method == "linear":
        from minegraph.linalg import linear_deductions
        found = linear_deductions(build_system(board, propagate=False), total=True)
        return set(found.safe), set(found.mines)
    from minegraph.analysis import analyze
    a = analyze(board)
    if not a.consistent:
        return set(), set()
    return {board.index(c) for c in a.safe}, {board.index(c) for c in a.mines}


def grade(board: Board, *, up_to: str = "search",
          reveal: Callable[[int], int] | None = None) -> Grade:
    """Play ``board`` with deductions only and grade it.

    Parameters
    ----------
    board
        The puzzle (any topology; its total, when given, is used from ``total`` on).
    up_to
        The strongest class the player may use (default ``search``: every deduction).
    reveal
        The number of a cell found safe (a game's layout knows it); ``None``: safe cells are
        uncovered blank, as on paper.

    Returns
    -------
    Grade
        The grade, the rounds played and the final position.

    Raises
    ------
    UserError
        for an unknown ``up_to``.

    Examples
    --------
    >>> from minegraph import Board
    >>> grade(Board.from_text("#1#1#"), up_to="linear").grade
    'guess'
    >>> grade(Board.from_text("mines: 2\\n#1#1#")).describe()
    'total, 2 steps (total 1, single 1)'
    """
    if up_to not in METHODS:
        raise UserError(f"unknown deduction method {up_to!r}; expected one of {', '.join(METHODS)}")
    allowed = METHODS[:METHODS.index(up_to) + 1]
    states = list(board.states)
    steps: list[Step] = []
    strongest = -1
    current = board
    while HIDDEN in states:
        for level, method in enumerate(allowed):
            safe, mines = deductions(current, method)
            if safe or mines:
                break
        else:
            return Grade("guess", tuple(steps), False, current)
        strongest = max(strongest, level)
        steps.append(Step(method, tuple(sorted(safe)), tuple(sorted(mines))))
        for c in mines:
            states[c] = MINE
        for c in safe:
            states[c] = BLANK if reveal is None else reveal(c)
        current = current.with_states(states)
    return Grade(METHODS[strongest] if strongest >= 0 else "none", tuple(steps), True, current)
