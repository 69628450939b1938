"""The pipeline's tree decomposition as the elimination order of the counting DP: ``engine="dp-thesis"``.

The counting engine (:mod:`minegraph.engines.dp`) eliminates each component's boxes in an
order; any order is correct and its width decides the cost. :func:`pipeline_order` derives it
from the thesis pipeline's tree decomposition of the board graph: each bag is mapped to the
boxes its hidden cells belong to, and the boxes are eliminated leaves first, each at the
highest bag holding it (a perfect elimination order of the bags' chordal completion). Every
number's whole neighbourhood lies in one bag of the pipeline's decompositions, so the mapped
bags form a tree decomposition of the boxes' primal graph, and the DP's cliques never exceed
them.
"""

from __future__ import annotations

from minegraph.constraints import Component, ConstraintSystem
from minegraph.engines.base import QUESTIONS, EngineResult, SystemEngine
from minegraph.engines.dp import OrderProvider, count_system
from minegraph.decompose.decomposition import Decomposition, contract_subsets, elimination_order
from minegraph.decompose.pipeline import tree_decomposition

__all__ = ["pipeline_order", "pipeline_orders", "PipelineDPEngine"]


def pipeline_orders(system: ConstraintSystem) -> OrderProvider:
    """The order provider of ``system`` (see :func:`pipeline_order`), with the pipeline's tree
    decomposition built once (on first use) for all its components and held by the provider
    itself: no state shared between threads or boards.

    Parameters
    ----------
    system : ConstraintSystem
        The position's constraints.

    Returns
    -------
    OrderProvider
        The provider.

    Examples
    --------
    >>> from minegraph import Board
    >>> from minegraph.constraints import build_system
    >>> system = build_system(Board.from_text("#1#1#"))
    >>> pipeline_orders(system)(system, system.components[0])
    [2, 0, 1]
    """
    built: list[Decomposition] = []      # on the first component asked for

    def order(of: ConstraintSystem, component: Component) -> list[int]:
        if of is not system:
            raise ValueError("this order provider belongs to another constraint system")
        if not built:
            built.append(contract_subsets(tree_decomposition(system.board)[0]))
        return _order(built[0], system, component)

    return order


def pipeline_order(system: ConstraintSystem, component: Component) -> list[int]:
    """An elimination order of ``component``'s boxes (local indices) from the pipeline's tree
    decomposition of the board graph; an :data:`~minegraph.engines.dp.OrderProvider`.

    Cost: the pipeline on the whole board, then linear in the decomposition. For many
    components of one system, :func:`pipeline_orders` runs the pipeline once.

    Parameters
    ----------
    system : ConstraintSystem
        The position's constraints.
    component : Component
        One of its components.

    Returns
    -------
    list of int
        The order.

    Examples
    --------
    >>> from minegraph import Board
    >>> from minegraph.constraints import build_system
    >>> system = build_system(Board.from_text("#1#1#"))
    >>> [system.boxes[b].cells for b in system.components[0].boxes]
    [(0,), (2,), (4,)]
    >>> pipeline_order(system, system.components[0])
    [2, 0, 1]
    """
    return _order(contract_subsets(tree_decomposition(system.board)[0]), system, component)


def _order(td: Decomposition, system: ConstraintSystem, component: Component) -> list[int]:
    local = {b: i for i, b in enumerate(component.boxes)}
    box_of = {c: local[b] for b in component.boxes for c in system.boxes[b].cells}
    bags = tuple(frozenset(box_of[c] for c in bag if c in box_of) for bag in td.bags)
    order = [int(b) for b in elimination_order(Decomposition(bags, td.edges))]
    seen = set(order)
    return order + [b for b in range(len(component.boxes)) if b not in seen]


class PipelineDPEngine(SystemEngine):
    """The counting DP over the thesis pipeline's decomposition instead of min-fill.

    Examples
    --------
    >>> from minegraph import Board
    >>> r = PipelineDPEngine().run(Board.from_text("mines: 1\\n#1#\\n###"))
    >>> r.count, r.mine_counts[0]
    (5, 1)
    """

    name = "dp-thesis"
    answers = QUESTIONS

    # The dp engine's counting with another order; the decomposition is built per call and
    # held by that call's order provider, so concurrent queries share nothing.
    def run_system(self, system: ConstraintSystem) -> EngineResult:
        return count_system(system, order=pipeline_orders(system))
