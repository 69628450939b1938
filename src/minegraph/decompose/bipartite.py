"""The bipartite decomposition along the numbers and redundant-edge removal (Hoder 2007, §4, §4.1).

Statement 8: one bag ``{p} ∪ N(p)`` per number ``p`` (its *controlling vertex*), two bags
adjacent iff they intersect, is a general decomposition of the board graph; its width is the
largest number degree (Corollary 3) and every bag has a shell (Corollary 4). Mines and unknowns
next to no number are isolated vertices, which Statement 8 excludes; each gets a one-vertex bag
of its own so the bags still cover the graph.

The *base* of an edge is the intersection of its two bags, its *size* the base's size.
ODSTRAŇ-REDUNDANTNÍ-HRANY (remove redundant edges) visits the edges by size, smallest first,
ties broken by the top, left, bottom and right coordinates of the segment joining the two
controlling cells and then by its slope, so the result is determined; it removes ``(u, v)``
when another path ``u, w1, …, wn, v`` exists whose inner bags all contain ``u ∩ v``.
Statement 9: the result is still a general decomposition.

References
----------
Hoder, *Hra minolovka – výpočetní složitost a implementace hledání řešení*, 2007, §4–4.1.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from fractions import Fraction

from minegraph.decompose.decomposition import Decomposition
from minegraph.decompose.graph import BoardGraph

__all__ = ["BipartiteDecomposition", "bipartite_decomposition", "edge_key", "RemovalStep",
           "remove_redundant_edges"]


@dataclass(frozen=True)
class BipartiteDecomposition:
    """A decomposition of a board graph whose node ``i`` is controlled by cell ``controls[i]``
    (a number, or an isolated mine or unknown for its one-vertex bag).

    Parameters
    ----------
    graph : BoardGraph
        The board graph.
    decomposition : Decomposition
        Its decomposition.
    controls : tuple of int
        The controlling cell of each node.
    """

    graph: BoardGraph
    decomposition: Decomposition
    controls: tuple[int, ...]

    def with_edges(self, edges: frozenset[tuple[int, int]]) -> "BipartiteDecomposition":
        """The same bags with other edges."""
        return BipartiteDecomposition(self.graph, Decomposition(self.decomposition.bags, edges),
                                      self.controls)

    def base(self, i: int, j: int) -> frozenset[int]:
        """The base of edge ``(i, j)``: the cells both bags hold."""
        bags = self.decomposition.bags
        return bags[i] & bags[j]


def bipartite_decomposition(graph: BoardGraph) -> BipartiteDecomposition:
    """The bipartite decomposition of a board graph along its numbers (Statement 8).

    Bags come in the order of their controlling cells: the numbers first, then the isolated
    mines and unknowns. Cost: linear in the graph plus the number of edges of the result (at
    most ``8 * 3 = 24`` per number on the square grid).

    Parameters
    ----------
    graph : BoardGraph
        The board graph.

    Returns
    -------
    BipartiteDecomposition
        One node per number (and per isolated mine or unknown).

    Examples
    --------
    >>> from minegraph import Board
    >>> from minegraph.decompose.graph import board_graph
    >>> b = bipartite_decomposition(board_graph(Board.from_text("1#1\\n###")))
    >>> [sorted(bag) for bag in b.decomposition.bags], sorted(b.decomposition.edges)
    ([[0, 1, 3, 4], [1, 2, 4, 5]], [(0, 1)])
    >>> b.decomposition.width
    3
    """
    g = graph.graph
    controls = sorted(graph.numbers)
    bags = [frozenset([p, *g.adj[p]]) for p in controls]
    isolated = sorted(v for v in g if v not in graph.numbers and g.degree[v] == 0)
    controls += isolated
    bags += [frozenset([v]) for v in isolated]
    holders: dict[int, list[int]] = {}
    for i, bag in enumerate(bags):
        for v in bag:
            holders.setdefault(v, []).append(i)
    edges = set()
    for nodes in holders.values():
        for a, i in enumerate(nodes):
            for j in nodes[a + 1:]:
                edges.add((i, j))
    return BipartiteDecomposition(graph, Decomposition(tuple(bags), frozenset(edges)), tuple(controls))


def edge_key(bip: BipartiteDecomposition, edge: tuple[int, int]) -> tuple[object, ...]:
    """The order in which redundant-edge removal visits ``edge``: base size, then the top,
    left, bottom and right coordinates of the segment joining the controlling cells, then its
    slope (rows grow downwards; vertical segments last). Graph boards, without coordinates,
    break ties by the controlling cells' indices.

    Parameters
    ----------
    bip : BipartiteDecomposition
        The decomposition.
    edge : (int, int)
        An edge between two of its nodes.

    Returns
    -------
    tuple
        The sort key.

    Examples
    --------
    >>> from minegraph import Board
    >>> from minegraph.decompose.graph import board_graph
    >>> b = bipartite_decomposition(board_graph(Board.from_text("1#1\\n###")))
    >>> edge_key(b, (0, 1))
    (2, 0, 0, 0, 2, (0, Fraction(0, 1)))
    """
    i, j = edge
    p, q = bip.controls[i], bip.controls[j]
    size = len(bip.base(i, j))
    board = bip.graph.board
    if board.cols is None:
        return (size, min(p, q), max(p, q))
    (r1, c1), (r2, c2) = divmod(p, board.cols), divmod(q, board.cols)
    slope: tuple[int, Fraction] = (1, Fraction(0)) if c1 == c2 else (0, Fraction(r2 - r1, c2 - c1))
    return (size, min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2), slope)


@dataclass(frozen=True)
class RemovalStep:
    """One visited edge: its base, whether it was removed, and the detour that allowed it.

    Parameters
    ----------
    edge : (int, int)
        The edge visited.
    base : frozenset of int
        Its base: the vertices the two bags share.
    removed : bool
        Whether it was removed.
    detour : tuple of int or None
        The nodes of the other path that allowed the removal.
    """

    edge: tuple[int, int]
    base: frozenset[int]
    removed: bool
    detour: tuple[int, ...] | None


def _detour(adj: list[set[int]], holders: dict[int, list[int]], bags: tuple[frozenset[int], ...],
            u: int, v: int) -> tuple[int, ...] | None:
    """A path ``u, w1, …, wn, v`` (``n >= 1``) whose inner bags all contain ``u ∩ v``."""
    base = bags[u] & bags[v]
    allowed: set[int] | None = None
    for x in base:
        allowed = set(holders[x]) if allowed is None else allowed & set(holders[x])
    allowed = allowed or set()
    allowed.discard(u)
    allowed.discard(v)
    back = {u: -1}
    queue = deque([u])
    while queue:
        a = queue.popleft()
        for b in sorted(adj[a]):
            if b == v and a != u:
                path = [v, a]
                while back[path[-1]] != -1:
                    path.append(back[path[-1]])
                return tuple(reversed(path))
            if b in allowed and b not in back:
                back[b] = a
                queue.append(b)
    return None


def remove_redundant_edges(bip: BipartiteDecomposition) -> tuple[BipartiteDecomposition, list[RemovalStep]]:
    """ODSTRAŇ-REDUNDANTNÍ-HRANY: the decomposition without its redundant edges, and the
    visited edges in order.

    Cost: each visited edge runs a breadth-first search over the bags holding its whole base
    (at most 8 on the square grid, the numbers around one cell), so about linear in the edges.

    Parameters
    ----------
    bip : BipartiteDecomposition
        The decomposition.

    Returns
    -------
    (BipartiteDecomposition, list of RemovalStep)
        The reduced decomposition and the edges visited, in order.

    Examples
    --------
    >>> from minegraph import Board
    >>> from minegraph.decompose.graph import board_graph
    >>> bip = bipartite_decomposition(board_graph(Board.from_text("1#1\\n#1#")))
    >>> len(bip.decomposition.edges)     # three numbers, all sharing the middle cell
    3
    >>> kept, steps = remove_redundant_edges(bip)
    >>> sorted(kept.decomposition.edges), [(s.edge, s.removed) for s in steps]
    ([(0, 2), (1, 2)], [((0, 1), True), ((0, 2), False), ((1, 2), False)])
    """
    dec = bip.decomposition
    bags = dec.bags
    holders: dict[int, list[int]] = {}
    for i, bag in enumerate(bags):
        for x in bag:
            holders.setdefault(x, []).append(i)
    adj: list[set[int]] = [set(a) for a in dec.adjacency()]
    steps = []
    for edge in sorted(dec.edges, key=lambda e: edge_key(bip, e)):
        u, v = edge
        adj[u].discard(v)
        adj[v].discard(u)
        path = _detour(adj, holders, bags, u, v)
        if path is None:
            adj[u].add(v)
            adj[v].add(u)
        steps.append(RemovalStep(edge, bags[u] & bags[v], path is not None, path))
    kept = frozenset((i, j) for i in range(len(bags)) for j in adj[i] if i < j)
    return bip.with_edges(kept), steps
