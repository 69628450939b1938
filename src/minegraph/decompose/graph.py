"""The board graph of Hoder (2007, Definition 3), sets with a shell and interfaces.

The board graph is bipartite: its vertices are the numbers ``A_K``, the known mines ``A_M``
and the unknown cells ``A_U`` (uncovered cells without a number, ``◇``, are not vertices);
each number is joined to every neighbouring mine or unknown cell. A set of vertices *has a
shell* (Definition 4) if it holds every neighbour of every number in it; an *interface*
(Definition 7) is a vertex cut made of mines and unknowns only. Statement 4: each side of an
interface together with the interface has a shell. The checkers here are what the tests use.

References
----------
Hoder, *Hra minolovka – výpočetní složitost a implementace hledání řešení*, bachelor thesis,
Charles University, Prague, 2007, chapter 2.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import networkx as nx

from minegraph.board import BLANK, HIDDEN, MINE, Board

__all__ = ["BoardGraph", "board_graph"]


@dataclass(frozen=True)
class BoardGraph:
    """The bipartite board graph of a position (vertices are board cell indices).

    Attributes
    ----------
    board
        The position.
    graph
        The undirected graph; every vertex has a ``kind`` attribute: ``"number"``,
        ``"mine"`` or ``"unknown"``.
    numbers, mines, unknowns
        The three vertex classes ``A_K``, ``A_M``, ``A_U``.
    """

    board: Board
    graph: nx.Graph
    numbers: frozenset[int]
    mines: frozenset[int]
    unknowns: frozenset[int]

    def neighbors(self, v: int) -> list[int]:
        """The neighbours of vertex ``v`` in the board graph."""
        return list(self.graph.adj[v])

    def has_shell(self, vertices: Iterable[int]) -> bool:
        """Whether the set holds every neighbour of every number in it (Definition 4).

        Cost: linear in the degrees of the numbers in the set.

        Examples
        --------
        >>> g = board_graph(Board.from_text("#1#\\n###"))
        >>> g.has_shell({0, 1, 2, 3, 4, 5}), g.has_shell({1, 0}), g.has_shell({0, 3})
        (True, False, True)
        """
        x = set(vertices)
        return all(x.issuperset(self.graph.adj[p]) for p in x if p in self.numbers)

    def is_interface(self, cut: Iterable[int]) -> bool:
        """Whether ``cut`` is an interface: mines and unknowns only, and a vertex cut, i.e. two
        vertices outside it are connected in the graph but not once ``cut`` is removed.

        Cost: linear in the graph.

        Examples
        --------
        >>> g = board_graph(Board.from_text("1#1"))   # the middle cell joins the two 1s
        >>> g.is_interface({1}), g.is_interface({0}), g.is_interface(set())
        (True, False, False)
        """
        j = set(cut)
        if not j.issubset(self.mines | self.unknowns):
            return False
        rest = self.graph.subgraph(v for v in self.graph if v not in j)
        for comp in nx.connected_components(self.graph):
            left = [v for v in comp if v not in j]
            if len(left) > 1 and not nx.is_connected(rest.subgraph(left)):
                return True
        return False

    def interface_sides(self, cut: Iterable[int]) -> list[frozenset[int]]:
        """For an interface ``J``: every component ``X`` of the graph without ``J``, as
        ``X ∪ J`` (Statement 4 says each has a shell).

        Examples
        --------
        >>> g = board_graph(Board.from_text("1#1"))
        >>> sorted(sorted(s) for s in g.interface_sides({1}))
        [[0, 1], [1, 2]]
        """
        j = frozenset(cut)
        rest = self.graph.subgraph(v for v in self.graph if v not in j)
        return [frozenset(comp) | j for comp in nx.connected_components(rest)]


def board_graph(board: Board) -> BoardGraph:
    """Build the board graph of ``board`` (Hoder 2007, Definition 3), on any topology.

    Cost: linear in cells plus neighbour pairs.

    Parameters
    ----------
    board : Board
        The position.

    Returns
    -------
    BoardGraph
        Its board graph.

    Examples
    --------
    >>> g = board_graph(Board.from_text("#1M\\n-0#"))
    >>> sorted(g.numbers), sorted(g.mines), sorted(g.unknowns)
    ([1, 4], [2], [0, 5])
    >>> sorted(tuple(sorted(e)) for e in g.graph.edges)
    [(0, 1), (0, 4), (1, 2), (1, 5), (2, 4), (4, 5)]
    """
    states, nbrs = board.states, board.neighbors
    graph = nx.Graph()
    numbers: set[int] = set()
    mines: set[int] = set()
    unknowns: set[int] = set()
    for v, s in enumerate(states):
        if s == BLANK:
            continue
        if s >= 0:
            numbers.add(v)
            graph.add_node(v, kind="number")
        else:
            (mines if s == MINE else unknowns).add(v)
            graph.add_node(v, kind="mine" if s == MINE else "unknown")
    for p in sorted(numbers):
        for q in nbrs[p]:
            if states[q] in (HIDDEN, MINE):
                graph.add_edge(p, q)
    return BoardGraph(board, graph, frozenset(numbers), frozenset(mines), frozenset(unknowns))
