"""A reusable analyser: the same answers as :func:`~minegraph.analysis.analyze`, faster on
positions that share structure with earlier ones.

It keeps a cache of counted components keyed by their canonical key
(:attr:`~minegraph.constraints.Component.key`): after a few cells of a position are revealed,
only the components that changed are counted again, and the combination under the total runs
anew. It also keeps a loaded SAT solver per recent position for :meth:`Analyser.explain`, so
asking why about several cells of one position loads the formula once. An autoplayer calls it
once or more per move; a web server keeps one per session.

Not thread-safe: use one analyser per thread (or per worker process).

Examples
--------
>>> from minegraph import Board
>>> analyser = Analyser(native=False)      # the cache at work (the kernel needs none)
>>> a = analyser.analyze(Board.from_text("#1#---#1#\\n###---###"))
>>> a.solutions, analyser.cache.hits      # the two equal components were counted once
(25, 1)
>>> analyser.explain(Board.from_text("###\\n11-"), (0, 2)).clues
((1, 0), (1, 1))
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING

from minegraph.analysis import Analysis, check_board, from_result
from minegraph.board import Board, Cell
from minegraph.constraints import ConstraintSystem, build_system, update_system
from minegraph.deadline import Deadline, time_limit
from minegraph.errors import BoardError, EngineError
from minegraph.present import shown

if TYPE_CHECKING:
    from minegraph.explain import Explainer, Explanation

__all__ = ["Analyser"]

#: Positions whose explain solvers are kept loaded.
KEEP_EXPLAINERS = 4


class Analyser:
    """Analyse many related positions, reusing component results and SAT solvers.

    Parameters
    ----------
    work_budget
        The portfolio's DP work budget (see :class:`~minegraph.engines.portfolio.PortfolioEngine`).
    solver
        The SAT solver for components too wide for DP.
    native
        Answer with the native kernel (:mod:`minegraph.kernel`) whenever it takes the
        position and the work budget is the default: it counts a whole Expert position in
        less time than the cache takes to find its components. The cache and the
        incremental constraint system serve the positions it declines.
    max_cells
        Cached components hold at most about this many hidden cells in all (least recently
        used first out). A counted component keeps its DP tables (for completions), about
        1.5 kB per cell on Expert games: the default bounds the cache near 400 MB while
        keeping every component of the last few hundred Expert games.

    Attributes
    ----------
    cache
        The :class:`~minegraph.engines.portfolio.ComponentCache` (``hits``, ``misses``,
        ``hit_rate``).

    Raises
    ------
    EngineError
        for a work budget that is not a number >= 0 (or ``None``), an unknown SAT solver,
        or a ``max_cells`` that is not a whole number >= 0.
    """

    def __init__(self, *, work_budget: float | None = None, solver: str = "cadical",
                 max_cells: int = 250_000, native: bool = True) -> None:
        if work_budget is not None and (isinstance(work_budget, bool)
                                        or not isinstance(work_budget, (int, float))
                                        or not 0 <= work_budget < float("inf")):
            raise EngineError(f"expected a work budget (a number of DP table entries >= 0) or "
                              f"None, got {shown(work_budget)}")
        if not isinstance(solver, str):
            raise EngineError(f"expected a SAT solver name such as 'cadical', got {type(solver).__name__}")
        if isinstance(max_cells, bool) or not isinstance(max_cells, int) or max_cells < 0:
            raise EngineError(f"expected max_cells, a whole number of cells >= 0, got {shown(max_cells)}")
        from minegraph.engines.portfolio import WORK_BUDGET, ComponentCache, PortfolioEngine
        self.cache = ComponentCache(max_cells)
        self.engine = PortfolioEngine(WORK_BUDGET if work_budget is None else work_budget,
                                      solver=solver, cache=self.cache, native=bool(native))
        self._explainers: OrderedDict[Board, Explainer] = OrderedDict()
        # The last position's constraint system: the next one usually differs from it in a
        # few uncovered cells, and update_system propagates from where it stopped. After an
        # answer of the native kernel only the board is kept, and the system is built when
        # asked for (last_system).
        self._last: ConstraintSystem | None = None
        self._last_board: Board | None = None
        self.native = bool(native) and self.engine.work_budget >= WORK_BUDGET

    def analyze(self, board: Board, *, mines: int | None = None,
                timeout: float | Deadline | None = None,
                since: ConstraintSystem | None = None) -> Analysis:
        """Analyse ``board`` exactly, as :func:`~minegraph.analysis.analyze` with ``"auto"``.

        The constraint system is updated from the last position analysed (or from ``since``,
        a system of an earlier position, e.g. :attr:`last_system`, when a caller tries
        several continuations of one position: those do not replace the last position).

        Raises
        ------
        BoardError
            when ``board`` is not a :class:`~minegraph.board.Board`, ``mines`` does not fit it
            or ``since`` is not a constraint system.
        QueryTimeout
            when ``timeout`` expires.
        """
        board = check_board(board, "analyze")
        if since is not None and not isinstance(since, ConstraintSystem):
            raise BoardError(f"since: expected the constraint system of an earlier position "
                             f"(Analyser.last_system) or None, got {type(since).__name__}")
        if mines is not None:
            board = board.with_states(board.states, mines)
        from minegraph.engines.native import run_kernel
        with time_limit(timeout, "consistency"):
            if self.native:
                answer = run_kernel(board)
                if answer is not None:
                    if since is None:
                        self._last, self._last_board = None, board
                    return from_result(board, answer, "kernel")
            base = since if since is not None else self.last_system
            system = build_system(board) if base is None else update_system(base, board)
            if since is None:
                self._last, self._last_board = system, None
            result = self.engine.run_system(system)
        return from_result(board, result, str(result.stats.get("engine", "auto")))

    @property
    def last_system(self) -> ConstraintSystem | None:
        """The constraint system of the last position analysed (without ``since``)."""
        if self._last is None and self._last_board is not None:
            self._last = build_system(self._last_board)
        return self._last

    def explain(self, board: Board, cell: Cell | None = None, *,
                timeout: float | Deadline | None = None) -> Explanation:
        """:func:`~minegraph.explain.explain`, with the position's solver kept loaded.

        Raises
        ------
        BoardError
            when ``board`` is not a :class:`~minegraph.board.Board`, or ``cell`` not one of
            its hidden cells.
        """
        board = check_board(board, "explain")
        from minegraph.explain import Explainer, Explanation, _forced, _not_forced
        known: str | None = None
        if cell is not None:
            with time_limit(timeout, "explain"):
                analysis = self.analyze(board)
                unforced = _not_forced(board, cell, analysis)
            if unforced is not None:
                return unforced
            known = _forced(board, cell, analysis)
        explainer = self._explainers.get(board)
        if explainer is None:
            explainer = self._explainers[board] = Explainer(board)
            while len(self._explainers) > KEEP_EXPLAINERS:
                _, old = self._explainers.popitem(last=False)
                old.close()
        else:
            self._explainers.move_to_end(board)
        with time_limit(timeout, "explain"):
            if cell is None:
                return explainer.inconsistency()
            result = explainer.explain(cell, known=known)
            if result.status == "unknown" and result.cell is not None:
                p = self.analyze(board).probabilities.get(result.cell)
                return Explanation(board, result.cell, "unknown", probability=p, stats=result.stats)
        return result

    def close(self) -> None:
        """Release the loaded SAT solvers."""
        for explainer in self._explainers.values():
            explainer.close()
        self._explainers.clear()

    def __enter__(self) -> "Analyser":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
