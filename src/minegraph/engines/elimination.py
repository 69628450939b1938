"""Greedy elimination orders (min-fill, ties by min-degree) and the clique tree they induce.

Eliminating the vertices of a graph in order ``v1..vn``, each vertex's *clique* is itself plus
its not-yet-eliminated neighbours in the filled graph; the clique of ``vi`` hangs under the
clique of the earliest-eliminated vertex of its separator. This is a tree decomposition whose
width is the largest clique minus one (Bodlaender & Koster, *Treewidth computations I*, 2010,
survey the heuristic).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from minegraph.deadline import current_deadline

__all__ = ["min_fill_order", "CliqueTree", "clique_tree"]


def _fill(adj: list[set[int]], v: int) -> int:
    nb = list(adj[v])
    missing = 0
    for i, a in enumerate(nb):
        na = adj[a]
        for b in nb[i + 1:]:
            if b not in na:
                missing += 1
    return missing


def min_fill_order(adj: list[set[int]]) -> list[int]:
    """A greedy min-fill elimination order (ties: fewer neighbours, then lower vertex).

    Cost: about ``n * d**3`` for ``n`` vertices of degree ``d`` along the way.

    Parameters
    ----------
    adj : list of set of int
        The neighbours of each vertex.

    Returns
    -------
    list of int
        The vertices in elimination order.

    Examples
    --------
    >>> min_fill_order([{1}, {0, 2}, {1}])   # a path: ends first
    [0, 1, 2]
    """
    return _eliminate([set(a) for a in adj])[0]


def _eliminate(adj: list[set[int]]) -> tuple[list[int], list[list[int]]]:
    """Min-fill elimination of ``adj`` (consumed); returns the order and each vertex's
    neighbours at its elimination (its separator in the clique tree)."""
    n = len(adj)
    deadline = current_deadline()  # a wide component's elimination can take a second
    if deadline is not None:
        deadline.check()
    heap = [(_fill(adj, v), len(adj[v]), v, 0) for v in range(n)]
    heapq.heapify(heap)
    version = [0] * n
    done = [False] * n
    order: list[int] = []
    separators: list[list[int]] = []
    while heap:
        _, _, v, ver = heapq.heappop(heap)
        if done[v] or ver != version[v]:
            continue
        done[v] = True
        if deadline is not None:
            deadline.check()
        order.append(v)
        nb = list(adj[v])
        separators.append(nb)
        for a in nb:
            adj[a].discard(v)
        touched = set(nb)
        for i, a in enumerate(nb):
            for b in nb[i + 1:]:
                if b not in adj[a]:
                    # A new edge a-b lowers the fill of every common neighbour of a and b.
                    touched.update(adj[a] & adj[b])
                    adj[a].add(b)
                    adj[b].add(a)
        for u in touched:
            if not done[u]:
                version[u] += 1
                heapq.heappush(heap, (_fill(adj, u), len(adj[u]), u, version[u]))
        adj[v] = set()
    return order, separators


@dataclass
class CliqueTree:
    """Clique ``i`` is ``(order[i],) + separator[i]``, separators sorted by elimination time.

    Parameters
    ----------
    order : list of int
        The elimination order.
    cliques : list of tuple of int
        Clique ``i``: its vertex, then its separator.
    parent : list of int
        Each clique's parent (-1 for a root).
    children : list of list of int
        Each clique's children.
    """

    order: list[int]
    cliques: list[tuple[int, ...]]
    parent: list[int]
    children: list[list[int]]

    @property
    def width(self) -> int:
        return max((len(c) for c in self.cliques), default=1) - 1


def clique_tree(adj: list[set[int]], order: list[int] | None = None) -> CliqueTree:
    """The clique tree of an elimination order (min-fill when ``order`` is None).

    Parameters
    ----------
    adj : list of set of int
        The neighbours of each vertex.
    order : list of int, optional
        The elimination order (default: min-fill).

    Returns
    -------
    CliqueTree
        The clique tree.

    Examples
    --------
    >>> t = clique_tree([{1, 2}, {0, 2}, {0, 1}])   # a triangle
    >>> t.cliques, t.parent, t.width
    ([(0, 1, 2), (1, 2), (2,)], [1, 2, -1], 2)
    """
    if order is None:
        order, separators = _eliminate([set(a) for a in adj])
    else:
        separators = _separators(adj, order)
    pos = {v: i for i, v in enumerate(order)}
    cliques: list[tuple[int, ...]] = []
    parent: list[int] = []
    for v, sep in zip(order, separators):
        sep = sorted(sep, key=pos.__getitem__)
        cliques.append((v, *sep))
        parent.append(pos[sep[0]] if sep else -1)
    children: list[list[int]] = [[] for _ in order]
    for i, p in enumerate(parent):
        if p >= 0:
            children[p].append(i)
    return CliqueTree(order, cliques, parent, children)


def _separators(adj: list[set[int]], order: list[int]) -> list[list[int]]:
    """Each vertex's later neighbours in the graph filled along ``order``."""
    work = [set(a) for a in adj]
    separators = []
    deadline = current_deadline()
    for v in order:
        if deadline is not None:
            deadline.check()
        sep = list(work[v])
        for a in sep:
            work[a].discard(v)
        for i, a in enumerate(sep):
            for b in sep[i + 1:]:
                work[a].add(b)
                work[b].add(a)
        separators.append(sep)
    return separators
