"""General decompositions (Hoder 2007, Definition 8), their checker, width and composition.

A *general decomposition* of a graph ``G`` is a graph ``H`` whose nodes are bags of vertices
of ``G`` such that (1) the bags cover the vertices, (2) every edge of ``G`` lies inside some
bag, and (3) the bags holding any one vertex induce a connected subgraph of ``H``. Its width
is the largest bag size minus one; a tree-shaped one is a tree decomposition. Statement 6:
a decomposition ``M`` of the graph ``H`` gives, by taking unions of the bags in each bag of
``M``, a decomposition of ``G`` isomorphic to ``M`` of width at most
``(W(H) + 1)(W(M) + 1) - 1`` (:func:`compose`).

References
----------
Hoder, *Hra minolovka – výpočetní složitost a implementace hledání řešení*, 2007, chapter 3.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import networkx as nx

#: A vertex of the decomposed graph: a board cell, or a node of another decomposition.
Vertex = Any

__all__ = ["Decomposition", "decomposition_violations", "is_decomposition",
           "is_tree_decomposition", "compose", "composition_bound"]


@dataclass(frozen=True)
class Decomposition:
    """Bags (node ``i`` holds ``bags[i]``) and the edges between nodes, as pairs ``i < j``.

    Parameters
    ----------
    bags : tuple of frozenset
        The bags, by node.
    edges : frozenset of (int, int)
        The edges between nodes, as pairs ``i < j``.

    Examples
    --------
    >>> d = Decomposition.build([{0, 1}, {1, 2}, {2, 0}], [(0, 1), (1, 2), (2, 0)])
    >>> d.width, d.is_tree(), sorted(d.edges)
    (1, False, [(0, 1), (0, 2), (1, 2)])
    """

    bags: tuple[frozenset[Vertex], ...]
    edges: frozenset[tuple[int, int]]

    @classmethod
    def build(cls, bags: Iterable[Iterable[Vertex]], edges: Iterable[tuple[int, int]]) -> "Decomposition":
        """Normalise bags to frozensets and edges to sorted pairs (loops dropped)."""
        return cls(tuple(frozenset(b) for b in bags),
                   frozenset((min(i, j), max(i, j)) for i, j in edges if i != j))

    @property
    def width(self) -> int:
        """``max |bag| - 1`` (``-1`` with no bags)."""
        return max((len(b) for b in self.bags), default=0) - 1

    def adjacency(self) -> list[list[int]]:
        """Neighbouring nodes of every node, sorted."""
        adj: list[list[int]] = [[] for _ in self.bags]
        for i, j in sorted(self.edges):
            adj[i].append(j)
            adj[j].append(i)
        return adj

    def to_networkx(self) -> nx.Graph:
        """The decomposition as a graph on node indices, with a ``bag`` attribute per node."""
        g = nx.Graph()
        g.add_nodes_from((i, {"bag": b}) for i, b in enumerate(self.bags))
        g.add_edges_from(self.edges)
        return g

    def is_forest(self) -> bool:
        """Whether the node graph has no cycle."""
        return nx.is_forest(self.to_networkx()) if self.bags else True

    def is_tree(self) -> bool:
        """Whether the node graph is a tree (connected and without cycles)."""
        return nx.is_tree(self.to_networkx()) if self.bags else True


def decomposition_violations(graph: nx.Graph, dec: Decomposition, limit: int = 5) -> list[str]:
    """What keeps ``dec`` from being a general decomposition of ``graph`` (Definition 8):
    at most ``limit`` messages, none when it is one.

    Cost: linear in the bag sizes plus, for each vertex, the edges among its bags.

    Parameters
    ----------
    graph : networkx.Graph
        The graph.
    dec : Decomposition
        The candidate decomposition.
    limit : int
        The most messages returned.

    Returns
    -------
    list of str
        The violated conditions, empty when ``dec`` is a decomposition of ``graph``.

    Examples
    --------
    >>> g = nx.path_graph(3)
    >>> decomposition_violations(g, Decomposition.build([{0, 1}, {1, 2}], [(0, 1)]))
    []
    >>> decomposition_violations(g, Decomposition.build([{0, 1}, {1, 2}], []))
    ['the bags holding vertex 1 are not connected']
    """
    problems: list[str] = []
    holders: dict[Vertex, list[int]] = {}
    for i, bag in enumerate(dec.bags):
        for v in bag:
            holders.setdefault(v, []).append(i)
    for v in graph.nodes:
        if v not in holders:
            problems.append(f"vertex {v} is in no bag")
    for u, v in graph.edges:
        hu, hv = holders.get(u, []), holders.get(v, [])
        if not set(hu).intersection(hv):
            problems.append(f"edge ({u}, {v}) is in no bag")
    adj = dec.adjacency()
    for v, nodes in holders.items():
        inside = set(nodes)
        seen = {nodes[0]}
        queue = deque([nodes[0]])
        while queue:
            i = queue.popleft()
            for j in adj[i]:
                if j in inside and j not in seen:
                    seen.add(j)
                    queue.append(j)
        if len(seen) != len(inside):
            problems.append(f"the bags holding vertex {v} are not connected")
    extra = [v for v in holders if v not in graph]
    if extra:
        problems.append(f"bags hold {len(extra)} vertices not in the graph, e.g. {extra[0]}")
    return problems[:limit]


def is_decomposition(graph: nx.Graph, dec: Decomposition) -> bool:
    """Whether ``dec`` meets the three conditions of a general decomposition of ``graph``.

    Parameters
    ----------
    graph : networkx.Graph
        The graph.
    dec : Decomposition
        The candidate decomposition.

    Returns
    -------
    bool
        Whether it is one.
    """
    return not decomposition_violations(graph, dec, limit=1)


def is_tree_decomposition(graph: nx.Graph, dec: Decomposition) -> bool:
    """Whether ``dec`` is a general decomposition of ``graph`` shaped as a tree.

    Parameters
    ----------
    graph : networkx.Graph
        The graph.
    dec : Decomposition
        The candidate decomposition.

    Returns
    -------
    bool
        Whether it is a tree decomposition of ``graph``.

    Examples
    --------
    >>> is_tree_decomposition(nx.cycle_graph(4), Decomposition.build([{0, 1, 2}, {0, 2, 3}], [(0, 1)]))
    True
    """
    return dec.is_tree() and is_decomposition(graph, dec)


def compose(inner: Decomposition, outer: Decomposition) -> Decomposition:
    """The composition ``M ∘ H`` of Statement 6: ``outer`` (``M``) is a decomposition of the
    node graph of ``inner`` (``H``, its bags being sets of ``H``'s node indices); node ``i``
    of the result holds the union of ``H``'s bags in ``M``'s bag ``i``, and the result has
    ``M``'s edges. It is a decomposition of the graph ``H`` decomposes, isomorphic to ``M``,
    of width at most :func:`composition_bound`.

    Cost: linear in the total size of the unions.

    Parameters
    ----------
    inner : Decomposition
        ``H``, a decomposition of some graph.
    outer : Decomposition
        ``M``, a decomposition of ``H``'s node graph.

    Returns
    -------
    Decomposition
        ``M ∘ H``.

    Examples
    --------
    >>> h = Decomposition.build([{0, 1}, {1, 2}, {2, 3}], [(0, 1), (1, 2)])
    >>> m = Decomposition.build([{0, 1}, {1, 2}], [(0, 1)])
    >>> z = compose(h, m)
    >>> [sorted(b) for b in z.bags], sorted(z.edges), z.width <= composition_bound(h, m)
    ([[0, 1, 2], [1, 2, 3]], [(0, 1)], True)
    """
    bags = []
    for node_set in outer.bags:
        union: set[Vertex] = set()
        for i in node_set:
            union.update(inner.bags[i])
        bags.append(frozenset(union))
    return Decomposition(tuple(bags), outer.edges)


def composition_bound(inner: Decomposition, outer: Decomposition) -> int:
    """Statement 6's bound on the width of ``compose(inner, outer)``:
    ``(W(H) + 1)(W(M) + 1) - 1``.

    Parameters
    ----------
    inner : Decomposition
        ``H``.
    outer : Decomposition
        ``M``.

    Returns
    -------
    int
        The bound on the composition's width.
    """
    return (inner.width + 1) * (outer.width + 1) - 1


def link_components(dec: Decomposition) -> Decomposition:
    """Join the connected components of a forest-shaped decomposition into one tree by an edge
    from each component's first node to the first node of the first component.

    This keeps every condition when no vertex lies in two components (true of every
    decomposition of a graph: bags sharing a vertex are connected).

    Examples
    --------
    >>> sorted(link_components(Decomposition.build([{0}, {1}, {1, 2}], [(1, 2)])).edges)
    [(0, 1), (1, 2)]
    """
    g = dec.to_networkx()
    firsts = sorted(min(c) for c in nx.connected_components(g))
    extra = [(firsts[0], f) for f in firsts[1:]]  # empty for no bags
    return Decomposition(dec.bags, dec.edges | frozenset(extra))


def contract_subsets(dec: Decomposition) -> Decomposition:
    """Merge each node of a tree decomposition whose bag is inside a neighbour's bag into that
    neighbour (keeps a tree decomposition of the same graph and width, with fewer nodes).

    Examples
    --------
    >>> d = contract_subsets(Decomposition.build([{0, 1}, {0, 1, 2}, {2}], [(0, 1), (1, 2)]))
    >>> [sorted(b) for b in d.bags], sorted(d.edges)
    ([[0, 1, 2]], [])
    """
    adj = [set(a) for a in dec.adjacency()]
    alive = [True] * len(dec.bags)
    bags = list(dec.bags)
    changed = True
    while changed:
        changed = False
        for i in range(len(bags)):
            if not alive[i]:
                continue
            for j in sorted(adj[i]):
                if bags[i] <= bags[j]:
                    for k in adj[i]:
                        if k != j:
                            adj[k].discard(i)
                            adj[k].add(j)
                            adj[j].add(k)
                    adj[j].discard(i)
                    adj[i] = set()
                    alive[i] = False
                    changed = True
                    break
    index = {i: n for n, i in enumerate(i for i in range(len(bags)) if alive[i])}
    return Decomposition(tuple(bags[i] for i in index),
                         frozenset((min(index[i], index[j]), max(index[i], index[j]))
                                   for i in index for j in adj[i]))


def rooted(dec: Decomposition) -> tuple[list[int], list[int]]:
    """A forest-shaped decomposition's nodes in breadth-first order, each tree from its lowest
    node, and each node's parent (``-1`` for a root).

    Examples
    --------
    >>> rooted(Decomposition.build([{0}, {0, 1}, {2}], [(0, 1)]))
    ([0, 1, 2], [-1, 0, -1])
    """
    adj = dec.adjacency()
    parent = [-2] * len(dec.bags)
    order: list[int] = []
    for root in range(len(dec.bags)):
        if parent[root] != -2:
            continue
        parent[root] = -1
        queue = deque([root])
        while queue:
            i = queue.popleft()
            order.append(i)
            for j in adj[i]:
                if parent[j] == -2:
                    parent[j] = i
                    queue.append(j)
    return order, parent


def _sorted(items: Iterable[Vertex]) -> list[Vertex]:
    try:
        return sorted(items)
    except TypeError:
        return sorted(items, key=repr)


def elimination_order(dec: Decomposition, keep: Sequence[Vertex] | None = None) -> list[Vertex]:
    """A perfect elimination order of the chordal completion of a tree decomposition: the
    vertices of each bag not in its parent's bag, leaves first. Eliminating in this order never
    creates a clique larger than a bag. ``keep`` restricts the order to those vertices.

    Examples
    --------
    >>> elimination_order(Decomposition.build([{0, 1}, {1, 2}, {2, 3}], [(0, 1), (1, 2)]))
    [3, 2, 0, 1]
    """
    order, parent = rooted(dec)
    wanted = None if keep is None else set(keep)
    out: list[Vertex] = []
    for i in reversed(order):
        above = dec.bags[parent[i]] if parent[i] >= 0 else frozenset()
        for v in _sorted(dec.bags[i] - above):
            if wanted is None or v in wanted:
                out.append(v)
    return out
