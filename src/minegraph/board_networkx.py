"""A board's fields from a networkx graph: the reading behind
:meth:`Board.from_networkx <minegraph.board.Board.from_networkx>`.

The nodes become the cells (in :func:`~minegraph.labels.cell_order`) and their labels, the
edges the neighbour lists (direction ignored, parallel edges merged), the states come from a
mapping or a node attribute, the total from the argument or the graph attribute ``mines``.
networkx is imported only when a graph is read. The module knows no board: the board checks
the states' ranges and builds itself from the fields.

Examples
--------
>>> import networkx as nx
>>> networkx_fields(nx.path_graph(["a", "b"]), {"b": "1"}, None, "state")
(((1,), (0,)), [-1, 1], None, ('a', 'b'))
"""

from __future__ import annotations

from typing import Any, Mapping

from minegraph.errors import BoardError, LimitError
from minegraph.labels import cell_order, named, plain, same_label
from minegraph.states import HIDDEN, MAX_CELLS
from minegraph.values import mine_total, show, state

__all__ = ["networkx_fields"]


def networkx_fields(graph: Any, states: Mapping[Any, object] | None, mines: int | None,
                    attribute: str) -> tuple[tuple[tuple[int, ...], ...], list[int], object,
                                             tuple[Any, ...] | None]:
    """The fields of the board on ``graph``, as :meth:`Board.from_networkx
    <minegraph.board.Board.from_networkx>` describes its arguments.

    Parameters
    ----------
    graph : networkx.Graph
        Any networkx graph, with 1 to :data:`~minegraph.states.MAX_CELLS` nodes and no loops.
    states : mapping, optional
        Node -> state; ``None``: read from the nodes' ``attribute``.
    mines : int, optional
        The total; ``None``: the graph attribute ``mines``.
    attribute : str
        The node attribute holding the states.

    Returns
    -------
    tuple
        ``(neighbors, states, mines, labels)``: the neighbour lists, one state per cell (not
        yet checked against the cells' degrees), the total (not yet checked against the
        cells) and the labels (``None`` for nodes ``0..n-1``).

    Raises
    ------
    BoardError
        for something that is not a networkx graph, a graph without nodes, a loop, a state
        that is not one (naming the node), a ``states`` key that is not a node, or a total
        attribute that is not a whole number.
    LimitError
        for more than :data:`~minegraph.states.MAX_CELLS` nodes.

    Examples
    --------
    >>> import networkx as nx
    >>> networkx_fields(nx.Graph([(0, 0)]), None, None, "state")
    Traceback (most recent call last):
    ...
    minegraph.errors.BoardError: node 0: a loop (an edge from a node to itself) is not allowed on a board
    """
    try:
        import networkx as nx
    except ImportError:                                     # pragma: no cover
        raise BoardError("Board.from_networkx needs networkx (pip install networkx)") from None
    if not isinstance(graph, nx.Graph):
        raise BoardError(f"expected a networkx graph (networkx.Graph or a subclass), got {show(graph)}")
    n = graph.number_of_nodes()
    if n < 1:
        raise BoardError("a graph board needs at least one cell; the graph has no nodes")
    if n > MAX_CELLS:
        raise LimitError(f"graph of {n} nodes exceeds the limit of {MAX_CELLS} cells")
    if not isinstance(attribute, str):
        raise BoardError(f"expected the name of a node attribute (a str), got {show(attribute)}")
    nodes = cell_order(graph.nodes)
    where = {v: i for i, v in enumerate(nodes)}
    adj: list[set[int]] = [set() for _ in range(n)]
    for u, v in graph.edges():
        i, j = where[u], where[v]
        if i == j:
            raise BoardError(f"node {named(u)}: a loop (an edge from a node to itself) is not "
                             f"allowed on a board")
        adj[i].add(j)
        adj[j].add(i)
    values = [HIDDEN] * n
    if states is None:
        data = graph.nodes
        for i, v in enumerate(nodes):
            value = data[v].get(attribute)
            if value is not None:
                values[i] = state(value, f"node {named(v)} (attribute {attribute!r})")
    elif isinstance(states, Mapping):
        for key, value in states.items():
            try:
                i = where[key]
            except (KeyError, TypeError):
                i = -1
            if i < 0 or not same_label(key, nodes[i]):
                raise BoardError(f"states: {named(key)} is not a node of the graph")
            values[i] = state(value, f"node {named(key)}")
    else:
        raise BoardError(f"expected the states as a mapping node -> state, or None to read the "
                         f"nodes' {attribute!r} attribute, got {show(states)}")
    total = mine_total(graph.graph.get("mines"), "graph attribute 'mines'") if mines is None \
        else mines
    labels = None if plain(nodes) else tuple(nodes)
    return tuple(tuple(sorted(a)) for a in adj), values, total, labels
