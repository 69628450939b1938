"""Series-parallel recognition: ORIENT-SP-GRAPH (Hoder 2007, §4.2) and the reductions of
Valdes, Tarjan and Lawler (1979), with the construction tree and its width-2 tree decomposition.

A two-terminal series-parallel (TTSP) digraph is a single edge ``s → t``, or the series
composition (sink of one identified with the source of the other) or the parallel composition
(sources identified, sinks identified) of two TTSP digraphs. Valdes, Tarjan and Lawler show a
multidigraph is TTSP iff repeatedly replacing two parallel edges by one (*parallel reduction*)
and a path ``u → w → v`` through a vertex ``w ≠ s, t`` of in- and out-degree 1 by an edge
``u → v`` (*series reduction*) leaves the single edge ``s → t``; recording each reduction
gives the construction tree (:func:`recognize_ttsp`).

An undirected graph must first be oriented. ZORIENTUJ-SP-GRAF (ORIENT-SP-GRAPH) orients a
shortest ``s``–``t`` path, then recurses into each component of the still unoriented edges,
between its vertices nearest to ``s`` and to ``t`` along that path (:func:`orient_sp_graph`);
the thesis tries every pair ``s, t`` and keeps one whose orientation the reductions accept
(:func:`series_parallel_tree`). A construction tree gives a tree decomposition of width 2: a
bag ``{s, t}`` per leaf and parallel node, ``{s, m, t}`` per series node with middle vertex
``m`` (:func:`construction_tree_decomposition`).

A series-parallel graph has no ``K4`` minor, and a graph has none iff deleting vertices of
degree at most 1 and bypassing vertices of degree 2 (merging parallel edges) empties it
(:func:`has_k4_minor`); that linear test rules out a block before the pairs are tried.

References
----------
Hoder, *Hra minolovka – výpočetní složitost a implementace hledání řešení*, 2007, §4.2.
Valdes, Tarjan, Lawler, *The recognition of series parallel digraphs*, SIAM J. Comput. 11(2),
1982 (STOC 1979).
Duffin, *Topology of series-parallel networks*, J. Math. Anal. Appl. 10, 1965.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Iterable

import networkx as nx

from minegraph.decompose.decomposition import Decomposition, contract_subsets
from minegraph.errors import MinegraphError

__all__ = ["SPNode", "orient_sp_graph", "recognize_ttsp", "series_parallel_tree",
           "is_series_parallel", "has_k4_minor", "construction_tree_decomposition"]

Vertex = Any


@dataclass(frozen=True)
class SPNode:
    """A node of a construction tree: ``kind`` is ``"edge"``, ``"series"`` (``middle`` is the
    shared vertex) or ``"parallel"``; ``source`` and ``sink`` are its terminals.

    Parameters
    ----------
    kind : str
        ``"edge"``, ``"series"`` or ``"parallel"``.
    source, sink
        The terminals.
    children : tuple of SPNode
        The parts (none for an edge).
    middle
        A series node's shared vertex, else ``None``.
    """

    kind: str
    source: Vertex
    sink: Vertex
    children: tuple["SPNode", ...] = ()
    middle: Vertex | None = None

    def leaves(self) -> list[tuple[Vertex, Vertex]]:
        """The edges of the digraph it builds."""
        out, stack = [], [self]
        while stack:
            node = stack.pop()
            if node.kind == "edge":
                out.append((node.source, node.sink))
            stack.extend(node.children)
        return out


def _ordered(items: Iterable[Vertex]) -> list[Vertex]:
    try:
        return sorted(items)
    except TypeError:
        return sorted(items, key=repr)


def _shortest_path(adj: dict[Vertex, set[Vertex]], s: Vertex, t: Vertex) -> list[Vertex] | None:
    back: dict[Vertex, Vertex | None] = {s: None}
    queue = deque([s])
    while queue:
        a = queue.popleft()
        if a == t:
            path = [t]
            while back[path[-1]] is not None:
                path.append(back[path[-1]])
            return path[::-1]
        for b in _ordered(adj[a]):
            if b not in back:
                back[b] = a
                queue.append(b)
    return None


def _components_thesis(edges: set[tuple[Vertex, Vertex]], path: list[Vertex]) -> list[set[tuple[Vertex, Vertex]]]:
    """The thesis's split: components of the graph of the remaining edges on all vertices, so
    two parts hanging on the same path vertex form one component."""
    g = nx.Graph(list(edges))
    return [set(g.subgraph(c).edges) for c in nx.connected_components(g)]


def _bridges(edges: set[tuple[Vertex, Vertex]], path: list[Vertex]) -> list[set[tuple[Vertex, Vertex]]]:
    """The bridges of the path: remaining edges joined only through vertices off the path (an
    edge between two path vertices is a bridge of its own)."""
    on_path = set(path)
    g = nx.Graph()
    chords = []
    for u, v in edges:
        if u in on_path and v in on_path:
            chords.append({(u, v)})
        else:
            g.add_edge(u, v)
    inner = g.subgraph(v for v in g if v not in on_path)
    groups = []
    for comp in nx.connected_components(inner):
        groups.append(set(g.edges(comp)))
    return groups + chords


def orient_sp_graph(graph: nx.Graph, s: Vertex, t: Vertex, split: str = "bridges"
                    ) -> list[tuple[Vertex, Vertex]]:
    """ZORIENTUJ-SP-GRAF: orient ``graph`` from ``s`` to ``t``. Orient a shortest ``s``–``t``
    path, then recurse into each remaining part between its vertices nearest to ``s`` and to
    ``t`` along that path. Returns the oriented edges; edges left unoriented are missing.

    ``split`` says what the remaining parts are. ``"thesis"``: the components of the graph of
    the remaining edges, as the thesis writes; two parts hanging on one path vertex then form
    one component whose later pieces may touch only an earlier path, and the procedure fails
    on some series-parallel graphs (see the tests). ``"bridges"`` (default): the bridges of
    the path (edges joined through vertices off the path), which is what the proof of
    Statement 10 needs: each bridge of a series-parallel graph hangs between two path vertices.

    Cost: a breadth-first search per recursive call, so ``O(n * m)`` at worst.

    Parameters
    ----------
    graph : networkx.Graph
        The graph.
    s, t
        The terminals.
    split : str
        How the remaining parts are found: ``"bridges"`` or ``"thesis"``.

    Returns
    -------
    list of (vertex, vertex)
        The oriented edges.

    Raises
    ------
    MinegraphError
        when ``split`` is not a known method.

    Examples
    --------
    >>> sorted(orient_sp_graph(nx.cycle_graph(4), 0, 2))
    [(0, 1), (0, 3), (1, 2), (3, 2)]
    """
    if split not in ("bridges", "thesis"):
        raise MinegraphError(f"unknown split {split!r}; expected 'bridges' or 'thesis'")
    parts = _bridges if split == "bridges" else _components_thesis
    oriented: list[tuple[Vertex, Vertex]] = []
    calls: list[tuple[set[tuple[Vertex, Vertex]], Vertex, Vertex]] = [(set(graph.edges), s, t)]
    while calls:
        edges, a, b = calls.pop()
        if a == b:
            continue
        adj: dict[Vertex, set[Vertex]] = {}
        for u, v in edges:
            adj.setdefault(u, set()).add(v)
            adj.setdefault(v, set()).add(u)
        if a not in adj:
            continue
        path = _shortest_path(adj, a, b)
        if path is None:
            continue
        position = {v: k for k, v in enumerate(path)}
        used = set()
        for x, y in zip(path, path[1:]):
            oriented.append((x, y))
            used.add((x, y) if (x, y) in edges else (y, x))
        for part in parts(edges - used, path):
            ends = sorted({position[v] for e in part for v in e if v in position})
            if ends:
                calls.append((part, path[ends[0]], path[ends[-1]]))
    return oriented


def recognize_ttsp(edges: Iterable[tuple[Vertex, Vertex]], s: Vertex, t: Vertex) -> SPNode | None:
    """The construction tree of a two-terminal series-parallel multidigraph with source ``s``
    and sink ``t``, by series and parallel reductions (Valdes, Tarjan, Lawler), or ``None``.

    Cost: linear in the edges (each reduction removes an edge).

    Parameters
    ----------
    edges : iterable of (vertex, vertex)
        The arcs of the multidigraph.
    s, t
        Its source and sink.

    Returns
    -------
    SPNode or None
        The construction tree, or ``None`` if it is not series-parallel.

    Examples
    --------
    >>> tree = recognize_ttsp([(0, 1), (1, 2), (0, 2)], 0, 2)
    >>> tree.kind, sorted(c.kind for c in tree.children)
    ('parallel', ['edge', 'series'])
    >>> recognize_ttsp([(0, 1), (1, 2), (2, 0)], 0, 2) is None
    True
    """
    out: dict[Vertex, dict[Vertex, SPNode]] = {}
    into: dict[Vertex, dict[Vertex, SPNode]] = {}

    def add(u: Vertex, v: Vertex, node: SPNode) -> None:
        old = out.setdefault(u, {}).get(v)
        if old is not None:
            node = SPNode("parallel", u, v, (old, node))
        out[u][v] = node
        into.setdefault(v, {})[u] = node
        out.setdefault(v, {})
        into.setdefault(u, {})

    for u, v in edges:
        if u == v:
            return None
        add(u, v, SPNode("edge", u, v))
    if s == t or s not in out or t not in out:
        return None
    queue = deque(v for v in out if v != s and v != t)
    while queue:
        w = queue.popleft()
        if w not in out or len(into[w]) != 1 or len(out[w]) != 1:
            continue
        (u, first), = into[w].items()
        (v, second), = out[w].items()
        if u == v:
            continue
        del out[w], into[w], out[u][w], into[v][w]
        add(u, v, SPNode("series", u, v, (first, second), middle=w))
        queue.extend(x for x in (u, v) if x != s and x != t)
    if set(out) != {s, t} or list(out[s]) != [t] or out[t]:
        return None
    return out[s][t]


def has_k4_minor(graph: nx.Graph) -> bool:
    """Whether ``graph`` has a ``K4`` minor (treewidth above 2), by deleting vertices of degree
    at most 1 and bypassing vertices of degree 2 until none is left or all have degree 3+.

    Cost: linear in the edges.

    Parameters
    ----------
    graph : networkx.Graph
        The graph.

    Returns
    -------
    bool
        Whether it has a ``K4`` minor.

    Examples
    --------
    >>> has_k4_minor(nx.complete_graph(4)), has_k4_minor(nx.cycle_graph(9))
    (True, False)
    """
    adj: dict[Vertex, set[Vertex]] = {v: set(graph.adj[v]) - {v} for v in graph}
    queue = deque(v for v in adj if len(adj[v]) <= 2)
    while queue:
        w = queue.popleft()
        if w not in adj or len(adj[w]) > 2:
            continue
        nbrs = adj.pop(w)
        for x in nbrs:
            adj[x].discard(w)
        if len(nbrs) == 2:
            x, y = nbrs
            adj[x].add(y)
            adj[y].add(x)
        queue.extend(x for x in nbrs if len(adj[x]) <= 2)
    return bool(adj)


def _pairs(graph: nx.Graph) -> list[tuple[Vertex, Vertex]]:
    """Every pair of vertices, the edges first (in a 2-connected series-parallel graph the
    ends of any edge are terminals, so the first pair tried usually succeeds)."""
    nodes = _ordered(graph)
    adjacent = [(u, v) for u, v in combinations(nodes, 2) if graph.has_edge(u, v)]
    apart = [(u, v) for u, v in combinations(nodes, 2) if not graph.has_edge(u, v)]
    return adjacent + apart


def series_parallel_tree(graph: nx.Graph, *, exhaustive: bool = False, split: str = "bridges"
                         ) -> tuple[Vertex, Vertex, SPNode] | None:
    """Terminals and construction tree of ``graph`` as a two-terminal series-parallel graph:
    ORIENT-SP-GRAPH for every pair ``s, t`` until the reductions accept one; ``None`` if no
    pair works. Unless ``exhaustive``, a graph with a ``K4`` minor is rejected at once (no
    pair can work for it, so the answer is the same, only faster). ``split`` is passed to
    :func:`orient_sp_graph`.

    Cost: ``O(n**2)`` pairs of ``O(n * m)`` each at worst; a single pair for 2-connected
    series-parallel graphs in practice.

    Parameters
    ----------
    graph : networkx.Graph
        The graph.
    exhaustive : bool
        Try every pair even when the graph has a ``K4`` minor.
    split : str
        As for :func:`orient_sp_graph`.

    Returns
    -------
    (vertex, vertex, SPNode) or None
        The terminals and the construction tree, or ``None``.

    Examples
    --------
    >>> s, t, tree = series_parallel_tree(nx.cycle_graph(5))
    >>> (s, t), tree.kind
    ((0, 1), 'parallel')
    >>> series_parallel_tree(nx.complete_graph(4), exhaustive=True) is None
    True
    """
    if graph.number_of_edges() == 0 or not nx.is_connected(graph):
        return None
    if not exhaustive and has_k4_minor(graph):
        return None
    m = graph.number_of_edges()
    for s, t in _pairs(graph):
        oriented = orient_sp_graph(graph, s, t, split)
        if len(oriented) != m:
            continue
        tree = recognize_ttsp(oriented, s, t)
        if tree is not None:
            return s, t, tree
    return None


def is_series_parallel(graph: nx.Graph, *, exhaustive: bool = False, split: str = "bridges") -> bool:
    """Whether ``graph`` is a two-terminal series-parallel graph for some pair of terminals.

    Parameters
    ----------
    graph : networkx.Graph
        The graph.
    exhaustive : bool
        As for :func:`series_parallel_tree`.
    split : str
        As for :func:`orient_sp_graph`.

    Returns
    -------
    bool
        Whether some pair of terminals works.

    Examples
    --------
    >>> is_series_parallel(nx.complete_graph(4)), is_series_parallel(nx.complete_graph(3))
    (False, True)
    """
    return series_parallel_tree(graph, exhaustive=exhaustive, split=split) is not None


def construction_tree_decomposition(tree: SPNode) -> Decomposition:
    """A tree decomposition of width at most 2 of the graph a construction tree builds: bag
    ``{s, t}`` per leaf and parallel node, ``{s, m, t}`` per series node, each node's bag
    joined to its parent's; then bags inside a neighbour's are merged away.

    Parameters
    ----------
    tree : SPNode
        A construction tree.

    Returns
    -------
    Decomposition
        A tree decomposition of width at most 2.

    Examples
    --------
    >>> s, t, tree = series_parallel_tree(nx.cycle_graph(4))
    >>> d = construction_tree_decomposition(tree)
    >>> d.width, d.is_tree()
    (2, True)
    """
    bags: list[frozenset[Vertex]] = []
    edges: list[tuple[int, int]] = []
    stack: list[tuple[SPNode, int]] = [(tree, -1)]
    while stack:
        node, parent = stack.pop()
        if node.kind == "series":
            bag = frozenset((node.source, node.middle, node.sink))
        else:
            bag = frozenset((node.source, node.sink))
        here = len(bags)
        bags.append(bag)
        if parent >= 0:
            edges.append((parent, here))
        stack.extend((child, here) for child in node.children)
    return contract_subsets(Decomposition.build(bags, edges))
