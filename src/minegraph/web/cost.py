"""What a question on a position will cost, estimated before the work starts: which lane runs it.

A board text's length says little about its cost: a 1,600-byte board can take seconds, an
Expert board of 520 bytes takes milliseconds. The cost lies in the constraint system
(:func:`~minegraph.constraints.build_system`, linear in the board): the native kernel counts
a component of at most 120 cells in milliseconds by its search (wider ones, up to 2,000
cells, by a dynamic programme whose work grows with the component's width), and the
dynamic programme's work on a component is bounded by the table entries of its min-fill
clique tree (:func:`~minegraph.engines.dp.estimate_work`), exponential in its width. So
:func:`estimate` builds the system, and the position is *small* (:meth:`Cost.small`) when
no component has more than ``most_cells`` cells and the components' estimated work, summed,
is at most ``most_work``. The estimate stops as soon as either bound is passed (no clique
tree of a large component is built), so it costs a few milliseconds on any board the small
lane is offered.

Examples
--------
>>> from minegraph import Board
>>> cost = estimate(Board.from_text("#1#1#"), most_cells=120, most_work=5000)
>>> cost.components, cost.largest, cost.small
(1, 3, True)
>>> estimate(Board.from_text("#1#1#"), most_cells=2, most_work=5000).small
False
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from minegraph.board import Board

__all__ = ["Cost", "estimate"]


@dataclass(frozen=True)
class Cost:
    """The estimated cost of a question on a position.

    Attributes
    ----------
    cells
        Undecided hidden cells next to a number (in components), after propagation.
    components
        Components of the constraint system.
    largest
        Cells of the largest component.
    work
        The dynamic programme's estimated table entries summed over the components looked at
        (``inf`` when a component was past ``most_cells``; the sum may stop early once it
        passes ``most_work``).
    small
        Whether the position is within both bounds: the small lane may run it.
    """

    cells: int
    components: int
    largest: int
    work: float
    small: bool


def estimate(board: Board, *, most_cells: int, most_work: float) -> Cost:
    """The cost of analysing ``board``, and whether it is within ``most_cells`` and
    ``most_work`` (see the module docstring).

    Parameters
    ----------
    board
        The position.
    most_cells
        The most cells one component of a small position may have.
    most_work
        The most estimated table entries, summed over the components, of a small position.

    Returns
    -------
    Cost
    """
    from minegraph.constraints import build_system
    from minegraph.engines.dp import estimate_work, local_graph
    from minegraph.engines.elimination import clique_tree
    system = build_system(board)
    sizes = [component.cells for component in system.components]
    largest = max(sizes, default=0)
    cells = sum(sizes)
    if largest > most_cells:
        return Cost(cells, len(sizes), largest, math.inf, False)
    work = 0.0
    # The widest first are the likeliest to pass the bound: stop there.
    for component in sorted(system.components, key=lambda c: -c.cells):
        boxes, clues = component.key
        work += estimate_work(boxes, clique_tree(local_graph(len(boxes), clues)))
        if work > most_work:
            break
    return Cost(cells, len(sizes), largest, work, work <= most_work)
