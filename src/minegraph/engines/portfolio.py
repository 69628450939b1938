"""The portfolio behind ``engine="auto"``: exact DP where it is cheap, SAT where it is not.

The choice rule, per board: build the constraint system, and for each component compute the
width of the tree decomposition the DP engine would use (min-fill elimination of the
component's boxes, :func:`minegraph.engines.elimination.clique_tree`). If every component's
width is at most the *width budget* (:data:`WIDTH_BUDGET`), the DP engine answers everything
exactly (the result is the DP's, unchanged). Otherwise the SAT engine answers consistency, one
completion and the forced cells, and the probabilities are reported as unavailable
(``count is None``, ``stats["probabilities"]`` says why) rather than guessed — except where
they are still exact: without a total mine count the components are independent, so the
components within the budget are counted by DP and the floating cells are 1/2
(``EngineResult.partial_probabilities``); forced cells are 0 or 1 in any case.

DP's table at a clique has up to ``prod(size_b + 1)`` entries over its boxes, so its cost grows
exponentially with the width; SAT's cost does not depend on the width. The budget is where the
measured DP time on dense components overtakes the SAT backbone (``bench/bench_engines.py``,
``docs/engines.md``).
"""

from __future__ import annotations

from fractions import Fraction

from minegraph.board import Board
from minegraph.constraints import Component, ConstraintSystem, build_system
from minegraph.engines.base import QUESTIONS, EngineResult, asking
from minegraph.engines.dp import ComponentDP, box_graph, count_system
from minegraph.engines.elimination import CliqueTree, clique_tree
from minegraph.errors import EngineError

__all__ = ["PortfolioEngine", "WIDTH_BUDGET", "component_width"]

#: Largest component width (min-fill tree decomposition of the boxes) left to the DP engine.
WIDTH_BUDGET = 12


def component_width(system: ConstraintSystem, component: Component) -> int:
    """Width of the min-fill tree decomposition of a component's boxes, as the DP builds it.

    Cost: the min-fill elimination, about ``boxes * degree**3``.

    Examples
    --------
    >>> from minegraph import Board
    >>> system = build_system(Board.from_text("#1#1#1#"))
    >>> component_width(system, system.components[0])
    1
    """
    return clique_tree(box_graph(system, component)).width


class PortfolioEngine:
    """DP within the width budget, SAT beyond it.

    Parameters
    ----------
    width_budget
        Largest component width left to DP (``"auto:10"`` in
        :func:`~minegraph.engines.get_engine`).
    solver
        The SAT solver used beyond the budget.

    Examples
    --------
    >>> from minegraph import Board
    >>> r = PortfolioEngine().run(Board.from_text("#2#\\n#3#\\n###"))
    >>> r.count, r.stats["engine"]
    (18, 'dp')
    >>> r = PortfolioEngine(width_budget=0).run(Board.from_text("#2#\\n#3#\\n###"))
    >>> r.count, r.stats["engine"], r.consistent
    (None, 'sat', True)
    """

    name = "auto"
    answers = QUESTIONS
    takes_option = True

    def __init__(self, width_budget: int | str = WIDTH_BUDGET, solver: str = "cadical") -> None:
        try:
            self.width_budget = int(width_budget)
        except ValueError:
            raise EngineError(f"the auto engine's option is a width budget (an integer), "
                              f"got {width_budget!r}") from None
        self.solver = solver

    def plan(self, board: Board) -> tuple[ConstraintSystem, list[int]]:
        """The constraint system and each component's width (none after a contradiction)."""
        system, trees = self._trees(board)
        return system, [t.width for t in trees.values()]

    @staticmethod
    def _trees(board: Board) -> tuple[ConstraintSystem, dict[Component, CliqueTree]]:
        """The constraint system and the min-fill clique tree of each component."""
        system = build_system(board)
        if system.contradiction is not None:
            return system, {}
        return system, {c: clique_tree(box_graph(system, c)) for c in system.components}

    @staticmethod
    def _count(system: ConstraintSystem, trees: dict[Component, CliqueTree]) -> EngineResult:
        """dp, reusing the elimination orders already found for the widths."""
        return count_system(system, order=lambda _system, component: trees[component].order)

    def _sat(self) -> object:
        from minegraph.engines.sat import SatEngine
        return SatEngine(self.solver)

    def complete(self, board: Board) -> EngineResult:
        """Consistency and one completion, by DP or by a single SAT call."""
        system, trees = self._trees(board)
        width = max((t.width for t in trees.values()), default=0)
        if width <= self.width_budget:
            result = self._count(system, trees)
            engine = "dp"
        else:
            result = self._sat().complete(board)  # type: ignore[attr-defined]
            engine = "sat"
        result.stats.update(engine=engine, width=width, width_budget=self.width_budget)
        return result

    def run(self, board: Board) -> EngineResult:
        asking("consistency")
        system, trees = self._trees(board)
        widths = [t.width for t in trees.values()]
        width = max(widths, default=0)
        if width <= self.width_budget:
            result = self._count(system, trees)
            result.stats.update(engine="dp", width_budget=self.width_budget)
            return result
        result = self._sat().run(board)  # type: ignore[attr-defined]
        if result.consistent:
            result.partial_probabilities = self._exact_part(system, widths, result)
        result.stats.update(
            engine="sat", width=width, width_budget=self.width_budget,
            probabilities=f"unavailable: a component has tree width {width}, above the dp "
                          f"budget of {self.width_budget}, so the sat engine answered "
                          f"consistency and forced cells (and, without a total, the exact "
                          f"probabilities of the narrower components)")
        return result

    def _exact_part(self, system: ConstraintSystem, widths: list[int],
                    result: EngineResult) -> dict[int, Fraction]:
        """Probabilities that stay exact although a component is too wide to count."""
        known: dict[int, Fraction] = {}
        if system.board.mines is None:
            # Without a total the components are independent: count the narrow ones alone.
            for component, width in zip(system.components, widths):
                if width > self.width_budget:
                    continue
                part = ComponentDP(system, component, with_total=False)
                total = part.total[0]
                for local, box_id in enumerate(part.box_ids):
                    box = system.boxes[box_id]
                    p = Fraction(part.mined[local][0], total * box.size)
                    known.update(dict.fromkeys(box.cells, p))
            known.update(dict.fromkeys(system.floating, Fraction(1, 2)))
        for cells, p in ((system.safe, Fraction(0)), (system.mines, Fraction(1)),
                         (result.safe or (), Fraction(0)), (result.mines or (), Fraction(1))):
            known.update(dict.fromkeys(cells, p))
        return known
