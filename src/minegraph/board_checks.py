"""The checks of a board built field by field: its shape, its labels, its states and total.

:class:`~minegraph.board.Board` runs them in ``__post_init__`` (``Board(topology, rows, cols,
neighbors, states, mines, labels)``) and the states and total also when a constructor has
built the shape itself. Each returns the fields in the form the board keeps (tuples, plain
``int``), or raises a :class:`~minegraph.errors.BoardError` naming what is wrong. The module
knows no board, only its fields.

Examples
--------
>>> check_shape("graph", None, None, [[1], [0]])
(None, None, ((1,), (0,)))
>>> check_states("graph", None, ((1,), (0,)), (-1, 1), 1, str)
1
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from minegraph.errors import BoardError, LimitError
from minegraph.labels import label_index, plain
from minegraph.states import BLANK, HIDDEN, MAX_CELLS, MINE
from minegraph.topology import MAX_DEGREE, TOPOLOGIES, degree_limits, grid_neighbors
from minegraph.values import show, whole

__all__ = ["check_shape", "check_labels", "check_states", "grid_shape", "graph_neighbors"]

Neighbors = tuple[tuple[int, ...], ...]


def check_shape(topology: object, rows: object, cols: object,
                neighbors: object) -> tuple[int | None, int | None, Neighbors]:
    """Check a board's topology, size and neighbour lists: a graph board's lists must name
    cells of the board, each other symmetrically, never the cell itself; a grid's must be its
    topology's.

    Parameters
    ----------
    topology
        One of :data:`~minegraph.topology.TOPOLOGIES`, or ``"graph"``.
    rows, cols
        A grid's size; ``None`` on graph boards.
    neighbors
        One sequence of neighbour cells per cell.

    Returns
    -------
    tuple
        ``(rows, cols, neighbors)`` as the board keeps them (whole numbers, tuples).

    Raises
    ------
    BoardError
        for an unknown topology, a size or neighbour lists that do not fit it, naming the
        cell.
    LimitError
        for more than :data:`~minegraph.states.MAX_CELLS` cells.

    Examples
    --------
    >>> check_shape("graph", None, None, [[1], []])
    Traceback (most recent call last):
    ...
    minegraph.errors.BoardError: cell 0 has neighbour 1, but 1 does not have 0
    """
    if not isinstance(topology, str) or topology not in (*TOPOLOGIES, "graph"):
        raise BoardError(f"unknown topology {show(topology)}; expected one of "
                         f"{', '.join(TOPOLOGIES)} or graph")
    if isinstance(neighbors, (str, bytes)) or not hasattr(neighbors, "__len__") \
            or not hasattr(neighbors, "__iter__"):
        raise BoardError(f"expected the neighbour lists as a sequence, one per cell, got {show(neighbors)}")
    n = len(neighbors)
    if n > MAX_CELLS:
        raise LimitError(f"board of {n} cells exceeds the limit of {MAX_CELLS} cells")
    if topology == "graph":
        if rows is not None or cols is not None:
            raise BoardError(f"a graph board has no rows and columns (None), got {show(rows)}x{show(cols)}")
        if n < 1:
            raise BoardError("a graph board needs at least one cell")
        lists = []
        for i, near in enumerate(neighbors):
            if isinstance(near, (str, bytes)) or not hasattr(near, "__iter__"):
                raise BoardError(f"cell {i}: expected a sequence of neighbour cells, got {show(near)}")
            lists.append(tuple(whole(q, f"a neighbour 0..{n - 1}", f"cell {i}") for q in near))
        for i, near in enumerate(lists):
            for q in near:
                if not 0 <= q < n:
                    raise BoardError(f"cell {i}: neighbour {q} is not a cell of the board (0..{n - 1})")
                if q == i:
                    raise BoardError(f"cell {i}: a cell cannot be its own neighbour")
                if i not in lists[q]:
                    raise BoardError(f"cell {i} has neighbour {q}, but {q} does not have {i}")
            if len(set(near)) != len(near):
                raise BoardError(f"cell {i}: a neighbour is listed twice")
        return None, None, tuple(lists)
    r = whole(rows, "a number of rows")
    c = whole(cols, "a number of columns")
    if r < 1 or c < 1 or r * c != n:
        raise BoardError(f"a {topology} grid of {show(r)}x{show(c)} cells needs that many "
                         f"neighbour lists, got {n}")
    expected = grid_neighbors(topology, r, c)
    if neighbors is not expected and tuple(tuple(q) for q in neighbors) != expected:
        raise BoardError(f"the neighbour lists are not those of the {r}x{c} {topology} "
                         f"grid (use Board.grid, or topology 'graph' for any graph)")
    return r, c, expected


def check_labels(topology: str, labels: object,
                 cells: int) -> tuple[tuple[Any, ...] | None, dict[Any, int] | None]:
    """Check a board's labels: ``None``, or one distinct hashable label per cell of a graph
    board (:func:`~minegraph.labels.label_index`); labels ``0..n-1`` in order are none.

    Parameters
    ----------
    topology
        The board's topology (checked).
    labels
        The labels given, or ``None``.
    cells
        The number of cells.

    Returns
    -------
    tuple
        ``(labels, table)``: the labels as a tuple (``None`` for none) and label -> index
        (``None`` without labels).

    Raises
    ------
    BoardError
        for labels on a grid, not one per cell, unhashable or repeated.

    Examples
    --------
    >>> check_labels("graph", ["a", "b"], 2)
    (('a', 'b'), {'a': 0, 'b': 1})
    >>> check_labels("graph", [0, 1], 2)
    (None, None)
    """
    if labels is None:
        return None, None
    if topology != "graph":
        raise BoardError("only graph boards have cell labels; a grid's cells are (row, col)")
    if isinstance(labels, (str, bytes)) or not hasattr(labels, "__iter__") or \
            not hasattr(labels, "__len__"):
        raise BoardError(f"expected the cell labels as a sequence, one per cell, or None, "
                         f"got {show(labels)}")
    found = tuple(labels)
    if len(found) != cells:
        raise BoardError(f"expected {cells} cell labels (one per cell), got {len(found)}")
    table = label_index(found)
    if plain(found):
        return None, None
    return found, table


def check_states(topology: str, rows: int | None, neighbors: Neighbors,
                 states: Sequence[int], mines: object, label: Callable[[int], str]) -> int | None:
    """Check each cell's state against its cell (a number no larger than its degree, nor than
    a grid topology's maximum) and the total against the number of cells.

    Parameters
    ----------
    topology
        The board's topology.
    rows
        The grid's rows (``None`` on graph boards), for the message.
    neighbors
        The neighbour lists.
    states
        One ``int`` state per cell.
    mines
        The total, or ``None`` (unknown).
    label
        Cell index -> its name in messages.

    Returns
    -------
    int or None
        The total as a plain ``int``, or ``None``.

    Raises
    ------
    BoardError
        naming the first cell whose state is wrong, or for a total outside ``0..cells``.

    Examples
    --------
    >>> check_states("graph", None, ((1,), (0,)), (2, -1), None, str)
    Traceback (most recent call last):
    ...
    minegraph.errors.BoardError: cell 0: number 2 exceeds its 1 neighbours
    """
    n = len(states)
    # Grids stop at their topology's maximum; on a graph board a cell's degree is the only
    # cap (a star's centre may show 13 or 1000).
    cap = MAX_DEGREE.get(topology, n)      # n: never below a graph cell's degree
    if not (states and min(states) >= BLANK and max(states) <= cap
            and degree_limits(neighbors).first_over(states) is None):
        for i, s in enumerate(states):     # slow path: name the first wrong cell
            if s >= 0:
                degree = len(neighbors[i])
                if s > degree or s > cap:
                    limit = f"its {degree} neighbours" if s <= cap or rows is None else \
                        f"the {topology} maximum {cap}"
                    raise BoardError(f"cell {label(i)}: number {s} exceeds {limit}")
            elif s not in (HIDDEN, MINE, BLANK):
                raise BoardError(f"cell {label(i)}: unknown state {s}")
    if mines is None:
        return None
    total = whole(mines, "a total mine count or None")
    if not 0 <= total <= n:
        raise BoardError(f"total mine count {total} is outside 0..{n} (the number of cells)")
    return total


def graph_neighbors(cells: object, edges: object) -> Neighbors:
    """The neighbour lists of a graph on cells ``0..cells-1`` given by its edges (repeats
    merged), as :meth:`Board.from_graph <minegraph.board.Board.from_graph>` takes them.

    Parameters
    ----------
    cells
        The number of cells, 1 to :data:`~minegraph.states.MAX_CELLS`.
    edges
        Pairs ``(u, v)`` (or ``[u, v]``) of distinct cells.

    Returns
    -------
    tuple
        Each cell's neighbours, sorted.

    Raises
    ------
    BoardError
        for a number of cells that is not a whole number of at least 1, something that is not
        a sequence of pairs, an edge naming a missing cell, or a loop; naming the edge.
    LimitError
        for more than :data:`~minegraph.states.MAX_CELLS` cells.

    Examples
    --------
    >>> graph_neighbors(3, [(0, 1), [2, 1], (1, 0)])
    ((1,), (0, 2), (1,))
    >>> graph_neighbors(2, [(1, 1)])
    Traceback (most recent call last):
    ...
    minegraph.errors.BoardError: edge 0: a loop on cell 1 is not allowed
    """
    n = whole(cells, "a number of cells")
    if n < 1:
        raise BoardError("a graph board needs at least one cell")
    if n > MAX_CELLS:
        raise LimitError(f"graph of {n} cells exceeds the limit of {MAX_CELLS} cells")
    if isinstance(edges, (str, bytes)) or not hasattr(edges, "__iter__"):
        raise BoardError(f"expected the edges as pairs (u, v) of cell numbers, got {show(edges)}")
    adj: list[set[int]] = [set() for _ in range(n)]
    for i, edge in enumerate(edges):
        if isinstance(edge, (str, bytes)) or not hasattr(edge, "__len__") or len(edge) != 2:
            raise BoardError(f"edge {i}: expected a pair (u, v) of cell numbers, got {show(edge)}")
        u, v = (whole(x, f"a cell number 0..{n - 1}", f"edge {i}") for x in edge)
        for w in (u, v):
            if not 0 <= w < n:
                raise BoardError(f"edge {i}: cell {w} is outside 0..{n - 1}")
        if u == v:
            raise BoardError(f"edge {i}: a loop on cell {u} is not allowed")
        adj[u].add(v)
        adj[v].add(u)
    return tuple(tuple(sorted(a)) for a in adj)


def grid_shape(topology: object, rows: object, cols: object) -> tuple[int, int, Neighbors]:
    """A grid's size and neighbour lists, as :meth:`Board.grid <minegraph.board.Board.grid>`
    takes them.

    Parameters
    ----------
    topology
        One of :data:`~minegraph.topology.TOPOLOGIES`.
    rows, cols
        Whole numbers of at least 1.

    Returns
    -------
    tuple
        ``(rows, cols, neighbors)``.

    Raises
    ------
    BoardError
        for an unknown topology or a size that is not one.
    LimitError
        for more than :data:`~minegraph.states.MAX_CELLS` cells, before any list is built.

    Examples
    --------
    >>> grid_shape("square", 1, 2)
    (1, 2, ((1,), (0,)))
    >>> grid_shape("square", 0, 2)
    Traceback (most recent call last):
    ...
    minegraph.errors.BoardError: a grid needs at least one row and column, got 0x2
    """
    if not isinstance(topology, str) or topology not in TOPOLOGIES:
        raise BoardError(f"unknown topology {show(topology)}; expected one of {', '.join(TOPOLOGIES)}")
    r, c = whole(rows, "a number of rows"), whole(cols, "a number of columns")
    if r < 1 or c < 1:
        raise BoardError(f"a grid needs at least one row and column, got {r}x{c}")
    if r * c > MAX_CELLS:
        raise LimitError(f"board of {r}x{c} cells exceeds the limit of {MAX_CELLS} cells")
    return r, c, grid_neighbors(topology, r, c)
