"""The thesis's pipeline end to end, and the classification of a board by it.

Board graph → bipartite decomposition ``H`` along the numbers → redundant-edge removal. If
what is left is a forest, it is already a tree decomposition (width ≤ 8 on the square grid):
the *edge-removal* step succeeded. Otherwise every 2-connected component of ``H`` with a
cycle must be series-parallel; their width-2 tree decompositions, glued at cut vertices, form
a tree decomposition ``M`` of ``H``, and ``M ∘ H`` (Statement 6) is a tree decomposition of
the board graph of width at most ``(W(H) + 1) * 3 - 1`` (26 on the square grid): the
*series-parallel* step succeeded. Otherwise the board is not in the polynomial class the
thesis finds, and :func:`classify` says which component is to blame.

:func:`tree_decomposition` always returns a tree decomposition whose bags have a shell (what
the consistency DP needs): the pipeline's when it succeeds, else ``M ∘ H`` with ``M`` from the
min-fill heuristic (networkx) on ``H``.

References
----------
Hoder, *Hra minolovka – výpočetní složitost a implementace hledání řešení*, 2007, ch. 4 and 6.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import networkx as nx
from networkx.algorithms.approximation.treewidth import min_fill_in_heuristic, treewidth_decomp

from minegraph.board import BLANK, HIDDEN, MINE, Board
from minegraph.deadline import check_deadline
from minegraph.decompose.bipartite import (BipartiteDecomposition, RemovalStep,
                                           bipartite_decomposition, remove_redundant_edges)
from minegraph.decompose.decomposition import Decomposition, compose, link_components
from minegraph.decompose.graph import BoardGraph, board_graph
from minegraph.decompose.sp import (SPNode, construction_tree_decomposition, has_k4_minor,
                                    series_parallel_tree)

__all__ = ["Block", "Classification", "classify", "tree_decomposition", "without_decided", "STEPS"]

#: The steps that can place a board in the polynomial class, in the order they are tried.
STEPS: tuple[str, ...] = ("edge-removal", "series-parallel")


@dataclass(frozen=True)
class Block:
    """A 2-connected component of the reduced decomposition with a cycle (3+ bags).

    Parameters
    ----------
    nodes : frozenset of int
        The block's nodes.
    edges : int
        How many edges it has.
    series_parallel : bool
        Whether it is a two-terminal series-parallel graph.
    k4_minor : bool
        Whether it has a ``K4`` minor.
    terminals : (int, int) or None
        Its terminals, when series-parallel.
    """

    nodes: frozenset[int]
    edges: int
    series_parallel: bool
    k4_minor: bool
    terminals: tuple[int, int] | None = None


@dataclass(frozen=True)
class Classification:
    """What the thesis's pipeline made of a board.

    Attributes
    ----------
    graph
        The board graph (:func:`~minegraph.decompose.graph.board_graph`).
    bipartite
        Its bipartite decomposition along the numbers.
    reduced
        That decomposition after redundant-edge removal.
    removal
        The edges redundant-edge removal visited, in order.
    step
        ``"edge-removal"`` or ``"series-parallel"``: the step that produced a tree
        decomposition; ``None`` when the board is outside the class the pipeline finds.
    decomposition
        That tree decomposition of the board graph (``None`` if none was found).
    reason
        Why none was found (``None`` otherwise).
    blocks
        The 2-connected components with a cycle left after redundant-edge removal.
    heuristic_width
        An upper bound on the board graph's treewidth by the min-fill heuristic, for
        comparison (``None`` if not computed).
    decided
        With ``classify(..., propagate=True)``: how many cells trivial propagation decided and
        took out first (``board`` is then the board without them); else ``None``.
    """

    graph: BoardGraph
    bipartite: BipartiteDecomposition
    reduced: BipartiteDecomposition
    removal: tuple[RemovalStep, ...]
    step: str | None
    decomposition: Decomposition | None
    reason: str | None
    blocks: tuple[Block, ...]
    heuristic_width: int | None
    decided: int | None = None

    @property
    def board(self) -> Board:
        return self.graph.board

    @property
    def polynomial(self) -> bool:
        """Whether the pipeline placed the board in the thesis's polynomial class."""
        return self.step is not None

    @property
    def width(self) -> int | None:
        """Width of the tree decomposition found (``None`` if none)."""
        return None if self.decomposition is None else self.decomposition.width

    @property
    def bound(self) -> int:
        """Statement 6's bound for the series-parallel step, ``(W(H) + 1) * 3 - 1``."""
        return (self.bipartite.decomposition.width + 1) * 3 - 1

    def to_json(self) -> dict[str, Any]:
        """The classification as plain data (counts, the step, widths, the reason)."""
        return {"polynomial": self.polynomial, "step": self.step, "width": self.width,
                "bound": self.bound, "reason": self.reason,
                "numbers": len(self.graph.numbers), "unknowns": len(self.graph.unknowns),
                "mines": len(self.graph.mines),
                "bags": len(self.bipartite.decomposition.bags),
                "bipartite_edges": len(self.bipartite.decomposition.edges),
                "bipartite_width": self.bipartite.decomposition.width,
                "kept_edges": len(self.reduced.decomposition.edges),
                "blocks": len(self.blocks),
                "series_parallel_blocks": sum(b.series_parallel for b in self.blocks),
                "largest_block": max((len(b.nodes) for b in self.blocks), default=0),
                "heuristic_width": self.heuristic_width, "decided_removed": self.decided}

    def summary(self) -> str:
        """A few lines for people: the pipeline's steps and its verdict."""
        from minegraph.decompose.report import summary
        return summary(self)

    def _repr_svg_(self) -> str:
        """The board with this decomposition, for notebooks (:mod:`~minegraph.decompose.picture`)."""
        from minegraph.decompose.picture import decomposition_svg
        return decomposition_svg(self)


def _where(bip: BipartiteDecomposition, nodes: frozenset[int], shown: int = 3) -> str:
    cells = sorted(bip.controls[i] for i in nodes)
    board = bip.graph.board
    names = ", ".join(board.label(c) for c in cells[:shown])
    return names + (", …" if len(cells) > shown else "")


def _glue(h: nx.Graph, trees: dict[frozenset[int], SPNode]) -> Decomposition:
    """A tree decomposition of ``h`` from its blocks' decompositions (a bag per bridge),
    joined at cut vertices along the block-cut tree, plus a bag per isolated node."""
    bags: list[frozenset[int]] = []
    edges: list[tuple[int, int]] = []
    first: dict[int, int] = {}          # H node -> its first block's bag holding it
    for block in nx.biconnected_components(h):
        if len(block) == 2:
            part = Decomposition.build([block], [])
        else:
            part = construction_tree_decomposition(trees[frozenset(block)])
        offset = len(bags)
        bags.extend(part.bags)
        edges.extend((i + offset, j + offset) for i, j in part.edges)
        seen: set[int] = set()
        for i, bag in enumerate(part.bags):
            for x in bag:
                if x in seen:
                    continue
                seen.add(x)
                if x in first:                        # a cut vertex: join the blocks there
                    edges.append((first[x], i + offset))
                else:
                    first[x] = i + offset
    bags.extend(frozenset([x]) for x in h if h.degree[x] == 0)
    return link_components(Decomposition.build(bags, edges))


def without_decided(board: Board) -> tuple[Board, int]:
    """The board with the cells the two trivial rules decide taken out, and how many: decided
    mines and known mines become uncovered-without-number cells (``◇``) and are subtracted
    from their numbers and the total; decided safe cells become ``◇``. The result is
    consistent iff ``board`` is, with the same answers on the other cells (not part of the
    thesis: a sound preprocessing step). A board that propagation or the total shows
    inconsistent is returned unchanged.

    Parameters
    ----------
    board : Board
        The position.

    Returns
    -------
    (Board, int)
        The smaller position and how many cells were decided.

    Examples
    --------
    >>> b, n = without_decided(Board.from_text("mines: 3\\n1##\\n##1\\nM2#"))
    >>> print(b.to_text(), end="")     # the known mine is taken out of the 2 and the total
    mines: 2
    1##
    ##1
    -1#
    >>> without_decided(Board.from_text("mines: 2\\n#1-\\n--1\\n-1#\\n##-"))[1]
    4
    """
    from minegraph.constraints import build_system
    system = build_system(board)
    if system.contradiction is not None:
        return board, 0
    mines = set(system.mines) | {i for i, s in enumerate(board.states) if s == MINE}
    gone = mines | system.safe
    states = list(board.states)
    for i, s in enumerate(board.states):
        if i in gone:
            states[i] = BLANK
        elif s >= 0:
            states[i] = s - sum(1 for q in board.neighbors[i] if q in mines)
    total = None if board.mines is None else board.mines - len(mines)
    if total is not None and not 0 <= total <= sum(1 for s in states if s == HIDDEN):
        return board, 0                                  # the total cannot be met
    return board.with_states(states, total), len(gone)


def classify(board: Board, *, heuristic: bool = True, exhaustive: bool = False,
             split: str = "bridges", propagate: bool = False) -> Classification:
    """Run the thesis's pipeline on ``board`` and report what it found.

    Parameters
    ----------
    board
        Any position (grids of every topology, or graph boards).
    heuristic
        Also bound the board graph's treewidth by the min-fill heuristic (networkx).
    exhaustive, split
        Passed to :func:`~minegraph.decompose.sp.series_parallel_tree`.
    propagate
        First take out the cells trivial propagation decides (:func:`without_decided`).

    Cost: about linear in the board for the removal; the series-parallel test is linear per
    component with a ``K4`` minor and usually one orientation per series-parallel component.

    Returns
    -------
    Classification
        What each step found, and the verdict.

    Examples
    --------
    >>> c = classify(Board.from_text("###\\n#1#\\n###"))
    >>> c.polynomial, c.step, c.width
    (True, 'edge-removal', 8)
    """
    decided = None
    if propagate:
        board, decided = without_decided(board)
    graph = board_graph(board)
    bip = bipartite_decomposition(graph)
    reduced, steps = remove_redundant_edges(bip)
    h = reduced.decomposition.to_networkx()
    width = None
    if heuristic:
        width = _min_fill(graph.graph)[0] if graph.graph.number_of_nodes() else -1
    if h.number_of_nodes() == 0 or nx.is_forest(h):
        return Classification(graph, bip, reduced, tuple(steps), STEPS[0],
                              link_components(reduced.decomposition), None, (), width, decided)
    blocks, trees, reason = [], {}, None
    for nodes in sorted(nx.biconnected_components(h), key=min):
        if len(nodes) < 3:
            continue
        sub = h.subgraph(nodes)
        found = series_parallel_tree(sub, exhaustive=exhaustive, split=split)
        minor = has_k4_minor(sub)
        key = frozenset(nodes)
        blocks.append(Block(key, sub.number_of_edges(), found is not None, minor,
                            None if found is None else (found[0], found[1])))
        if found is not None:
            trees[key] = found[2]
        elif reason is None:
            why = "it has a K4 minor" if minor else "no orientation found"
            reason = (f"a 2-connected component of {len(nodes)} bags (numbers at "
                      f"{_where(bip, key)}) is not series-parallel: {why}")
    if reason is not None:
        bad = sum(not b.series_parallel for b in blocks)
        if bad > 1:
            reason += f" ({bad} such components)"
        return Classification(graph, bip, reduced, tuple(steps), None, None, reason,
                              tuple(blocks), width, decided)
    td = compose(reduced.decomposition, _glue(h, trees))
    return Classification(graph, bip, reduced, tuple(steps), STEPS[1], td, None, tuple(blocks),
                          width, decided)


def _checked_min_fill(graph: dict[Any, set[Any]]) -> Any:
    """networkx's min-fill choice of the next vertex, after a look at the deadline: the
    heuristic takes a second on a 50x50 opening, one vertex at a time."""
    check_deadline()
    return min_fill_in_heuristic(graph)


def _min_fill(graph: nx.Graph) -> tuple[int, nx.Graph]:
    """networkx's min-fill tree decomposition (width, tree of frozenset bags), under the
    current deadline."""
    found: tuple[int, Any] = treewidth_decomp(graph, _checked_min_fill)
    return found


def tree_decomposition(board: Board, classification: Classification | None = None
                       ) -> tuple[Decomposition, str]:
    """A tree decomposition of the board graph whose bags all have a shell, and how it was
    made: the pipeline's (``"edge-removal"``, ``"series-parallel"``) or, for boards outside
    the class, ``"min-fill"``: ``M ∘ H`` with ``M`` the min-fill heuristic's tree
    decomposition of the reduced decomposition ``H``.

    Parameters
    ----------
    board : Board
        The position.
    classification : Classification, optional
        :func:`classify`'s answer on ``board``, if already made.

    Returns
    -------
    (Decomposition, str)
        The tree decomposition and how it was made.

    Examples
    --------
    >>> td, how = tree_decomposition(Board.from_text("#1#\\n1#1"))
    >>> how, td.is_tree()
    ('edge-removal', True)
    """
    c = classification or classify(board, heuristic=False)
    if c.decomposition is not None and c.step is not None:
        return c.decomposition, c.step
    h = c.reduced.decomposition.to_networkx()
    _, tree = _min_fill(h)
    nodes = list(tree.nodes)
    index = {bag: i for i, bag in enumerate(nodes)}
    outer = Decomposition.build(nodes, [(index[a], index[b]) for a, b in tree.edges])
    covered = set().union(*nodes) if nodes else set()
    missing = [frozenset([x]) for x in h if x not in covered]
    outer = link_components(Decomposition(outer.bags + tuple(missing), outer.edges))
    return compose(c.reduced.decomposition, outer), "min-fill"
