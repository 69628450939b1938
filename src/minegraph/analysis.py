"""The public entry point: :func:`analyze` a position and get every answer at once."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from fractions import Fraction
from typing import Any

from minegraph.board import HIDDEN, MINE, Board, Cell
from minegraph.engines.base import EngineResult, get_engine, time_limit
from minegraph.errors import EngineError

__all__ = ["Analysis", "analyze", "solve"]


@dataclass(frozen=True)
class Analysis:
    """Every fact the engine established about a position.

    Cells are ``(row, col)`` on grids and ``int`` on graph boards. Probabilities are exact
    :class:`~fractions.Fraction` values; 0 and 1 appear only when proven.

    Attributes
    ----------
    consistent
        Whether some completion exists (an inconsistent board is an answer, not an error).
    solutions
        The exact number of completions (respecting the total mine count when given);
        ``None`` when the engine did not count (``probabilities_available`` is False).
    safe, mines
        Hidden cells that are safe / mined in every completion, sorted.
    probabilities
        The mine probability of every hidden cell (empty when inconsistent). When the engine
        did not count, only the cells whose probability is still exact: forced cells, and
        with ``auto`` and no total mine count, the cells of components narrow enough for
        ``dp`` and the floating cells.
    best
        The recommended next cell: lowest mine probability, ties broken by fewest hidden
        neighbours, then by position. ``None`` when inconsistent or nothing is hidden.
        Without full probabilities: the best of the cells whose probability is known.
    probabilities_available
        False when the engine answered consistency and forced cells only (``sat``,
        ``backtrack``, or ``auto`` on a component too wide for ``dp``); ``stats`` has the
        reason under ``"probabilities"``.
    completion
        One completion: the board with every hidden cell decided (mines as ``MINE``, safe
        cells with their number), or ``None``; built on first use.
    """

    board: Board
    consistent: bool
    solutions: int | None
    safe: list[Cell]
    mines: list[Cell]
    probabilities: dict[Cell, Fraction]
    best: Cell | None
    engine: str
    stats: dict[str, object] = field(default_factory=dict)
    completion_mines: frozenset[int] | None = field(default=None, repr=False)
    probabilities_available: bool = True

    @cached_property
    def completion(self) -> Board | None:
        if self.completion_mines is None:
            return None
        return _completed(self.board, self.completion_mines)

    def probability(self, cell: Cell) -> Fraction:
        """Mine probability of a hidden cell.

        Raises
        ------
        EngineError
            when the engine did not compute probabilities.
        """
        key = self.board.cell(self.board.index(cell))
        if not self.probabilities_available and key not in self.probabilities:
            why = self.stats.get("probabilities", f"engine {self.engine!r} does not count")
            raise EngineError(f"the probability of cell {key} is unavailable: {why}")
        return self.probabilities[key]

    def to_json(self) -> dict[str, Any]:
        """The analysis object of FORMATS.md §4 (probabilities as floats, counts as strings).

        When the engine did not count, ``"solutions"`` is ``null``, ``"probability"`` entries
        are ``null`` except for cells whose probability is still exact, and the object has one
        more key, ``"probabilities_available": false``.
        """
        board = self.board

        def ref(cell: Cell) -> Any:
            return list(cell) if isinstance(cell, tuple) else cell

        if board.rows is not None and board.cols is not None:
            grid: list[Any] = [[None] * board.cols for _ in range(board.rows)]
            for cell, p in self.probabilities.items():
                r, c = cell  # type: ignore[misc]
                grid[r][c] = _to_float(p)
            probability: Any = grid
        else:
            flat: list[Any] = [None] * board.size
            for cell, p in self.probabilities.items():
                flat[cell] = _to_float(p)  # type: ignore[index]
            probability = flat
        obj = {"consistent": self.consistent,
               "solutions": None if self.solutions is None else str(self.solutions),
               "safe": [ref(c) for c in self.safe],
               "mines": [ref(c) for c in self.mines],
               "probability": probability,
               "best": None if self.best is None else ref(self.best),
               "engine": self.engine}
        if not self.probabilities_available:
            obj["probabilities_available"] = False
        return obj


def _to_float(p: Fraction) -> float:
    """A float that never rounds an unproven probability to 0 or 1."""
    x = float(p)
    if x == 0.0 and p != 0:
        return 5e-324
    if x == 1.0 and p != 1:
        return 1.0 - 2.0 ** -53
    return x


def _completed(board: Board, mined: frozenset[int]) -> Board:
    """The board with every hidden cell decided: mines, and numbers on the safe cells."""
    states = list(board.states)
    nbrs = board.neighbors
    for i, s in enumerate(board.states):
        if s == HIDDEN:
            states[i] = MINE if i in mined else sum(
                1 for q in nbrs[i] if q in mined or board.states[q] == MINE)
    return board.with_states(states)


def _best(board: Board, mine_counts: dict[int, Any]) -> int | None:
    """Lowest mine count or probability, then fewest hidden neighbours, then index."""
    if not mine_counts:
        return None
    low = min(mine_counts.values())
    states, nbrs = board.states, board.neighbors
    return min((sum(1 for q in nbrs[i] if states[q] == HIDDEN), i)
               for i, m in mine_counts.items() if m == low)[1]


def analyze(board: Board, engine: str = "auto", *, mines: int | None = None,
            timeout: float | None = None) -> Analysis:
    """Analyse a position exactly.

    Parameters
    ----------
    board
        The position.
    engine
        ``"auto"`` (default: ``dp``, or ``sat`` on components too wide for it), ``"dp"``,
        ``"brute"``, ``"sat"``, ``"backtrack"``, ... (see :func:`~minegraph.engines.get_engine`).
        Engines that do not count leave ``solutions`` and the probabilities unavailable.
    mines
        Overrides the board's total mine count.
    timeout
        Seconds the whole query may take (``None``: no limit).

    Returns
    -------
    Analysis

    Raises
    ------
    EngineError
        for an unknown engine.
    QueryTimeout
        when ``timeout`` expires; it names the question left unanswered.

    Examples
    --------
    >>> from minegraph import Board, analyze
    >>> a = analyze(Board.from_text("#2#\\n#3#\\n###"))
    >>> a.solutions, a.mines, a.safe
    (18, [], [])
    >>> a.probability((0, 0)), a.probability((2, 1))
    (Fraction(1, 2), Fraction(1, 3))
    >>> a.best
    (2, 0)
    """
    if mines is not None:
        board = board.with_states(board.states, mines)
    solver = get_engine(engine)
    with time_limit(timeout, "consistency"):
        result: EngineResult = solver.run(board)
    return _from_result(board, result, str(result.stats.get("engine", solver.name)))


def _uncounted(board: Board, result: EngineResult, name: str) -> Analysis:
    """An analysis from an engine that gave forced cells but no counts."""
    safe = sorted(result.safe or ()) if result.consistent else []
    mined = sorted(result.mines or ()) if result.consistent else []
    # Forced cells keep their exact 0 or 1; an engine may know more (the portfolio does).
    known: dict[int, Fraction] = {}
    if result.consistent:
        known = dict.fromkeys(safe, Fraction(0)) | dict.fromkeys(mined, Fraction(1))
        known.update(result.partial_probabilities or {})
    best = _best(board, known)
    return Analysis(board=board, consistent=result.consistent,
                    solutions=None if result.consistent else 0,
                    safe=[board.cell(c) for c in safe], mines=[board.cell(c) for c in mined],
                    probabilities={board.cell(c): p for c, p in known.items()},
                    best=None if best is None else board.cell(best),
                    engine=name, stats=dict(result.stats), completion_mines=result.completion,
                    probabilities_available=not result.consistent)


def _from_result(board: Board, result: EngineResult, name: str) -> Analysis:
    if result.count is None or (result.consistent and result.mine_counts is None):
        return _uncounted(board, result, name)
    count = result.count or 0
    counts = result.mine_counts if result.consistent and result.mine_counts is not None else {}
    # Cells of one box (and all floating cells) share a numerator: build each Fraction once.
    fractions: dict[int, Fraction] = {}
    probs = {}
    for c, m in counts.items():
        f = fractions.get(m)
        if f is None:
            f = fractions[m] = Fraction(m, count)
        probs[board.cell(c)] = f
    safe = sorted(c for c, m in counts.items() if m == 0)
    mined = sorted(c for c, m in counts.items() if m == count)
    best = _best(board, counts)
    return Analysis(board=board, consistent=result.consistent, solutions=count,
                    safe=[board.cell(c) for c in safe], mines=[board.cell(c) for c in mined],
                    probabilities=probs, best=None if best is None else board.cell(best),
                    engine=name, stats=dict(result.stats), completion_mines=result.completion)


def solve(board: Board, engine: str = "auto", *, timeout: float | None = None) -> Board | None:
    """One completion of ``board`` (every hidden cell decided), or ``None`` if inconsistent.

    Engines with a ``complete`` method (``sat``, ``backtrack``, ``auto``) answer only this
    question; ``timeout`` bounds the query in seconds (:class:`~minegraph.errors.QueryTimeout`).

    Examples
    --------
    >>> from minegraph import Board
    >>> solve(Board.from_text("#1-")).to_text()
    'M1-\\n'
    """
    solver = get_engine(engine)
    with time_limit(timeout, "completion"):
        complete = getattr(solver, "complete", None)
        result = complete(board) if complete is not None else solver.run(board)
    if not result.consistent or result.completion is None:
        return None
    return _completed(board, result.completion)
