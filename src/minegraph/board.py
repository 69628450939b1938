"""The board: cells of any graph, each hidden, a known mine, or uncovered (with or without a number).

States are small integers: ``0..degree`` an uncovered cell with that many mined neighbours
(at most 12 on the grids, whose topologies cap it: :data:`~minegraph.topology.MAX_DEGREE`),
:data:`HIDDEN` a cell not yet uncovered (the thesis's ``#``), :data:`MINE` a known mine
(``M``), :data:`BLANK` an uncovered cell whose number is not given (the thesis's ``◇``).
They and :data:`MAX_CELLS` are defined in :mod:`minegraph.states` and re-exported here.
"""

from __future__ import annotations

import operator
import os
from dataclasses import dataclass
from itertools import islice, repeat
from typing import Any, Iterable, Mapping, Sequence

from minegraph.errors import BoardError, FormatError, LimitError, UserError
from minegraph.states import BLANK, HIDDEN, MAX_CELLS, MINE
from minegraph.topology import MAX_DEGREE, TOPOLOGIES, degree_limits, grid_neighbors

__all__ = ["Board", "HIDDEN", "MINE", "BLANK", "MAX_CELLS", "Cell", "whole", "cell_name"]

#: A cell as the API shows it: ``(row, col)`` on grids, an ``int`` on graph boards, and on a
#: board with cell labels (:meth:`Board.from_networkx`) the cell's label: its node in the graph.
Cell = tuple[int, int] | int

_STATE_HELP = ("a state: a number (0..12 on grids, up to the cell's degree on graph boards), "
               "HIDDEN (-1), MINE (-2) or BLANK (-3), or a symbol of the board text such as '#', "
               "'M', '-' or '3' (or the digits of a number, e.g. '13')")


def _show(value: object) -> str:
    """A short description of a bad argument for messages."""
    text = repr(value) if isinstance(value, (int, float, str, bytes, type(None))) else \
        f"a {type(value).__name__}"
    return text if len(text) <= 40 else text[:37] + "..."


def _named(label: object) -> str:
    """A cell label as messages show it: its ``repr``, cut if long."""
    try:
        text = repr(label)
    except Exception:                       # a node whose repr fails still gets a name
        text = f"<a {type(label).__name__}>"
    return text if len(text) <= 40 else text[:37] + "..."


def _as_key(cell: object) -> object:
    """A cell label as looked up: lists (the JSON's form of a tuple) become tuples."""
    if isinstance(cell, list):
        return tuple(_as_key(part) for part in cell)
    return cell


def _mine_total(value: object, where: str) -> int | None:
    """A total read from a graph attribute: a whole number, its ASCII digits, or None."""
    if value is None:
        return None
    if isinstance(value, str):
        if value.strip().lower() in ("", "?", "unknown", "none", "null"):
            return None
        if value.isascii() and value.isdigit() and len(value.lstrip("0")) <= 18:
            return int(value)
        raise BoardError(f"{where}: expected a whole number of mines (ASCII digits) or nothing "
                         f"(unknown), got {_show(value)}")
    return whole(value, "a whole number of mines or None (unknown)", where)


def whole(value: object, what: str, where: str = "") -> int:
    """``value`` as an ``int`` if it is a whole number (an ``int`` or anything with
    ``__index__``, such as numpy's integers; not ``bool``, ``float`` or ``str``).

    Raises
    ------
    BoardError
        saying ``what`` was expected (after ``where``, when given).

    Examples
    --------
    >>> whole(3, "a row")
    3
    >>> whole(1.5, "a row")
    Traceback (most recent call last):
    ...
    minegraph.errors.BoardError: expected a row (a whole number), got 1.5
    """
    if type(value) is int:
        return value
    if not isinstance(value, bool):
        try:
            return operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise BoardError(f"{where}{': ' if where else ''}expected {what} (a whole number), got {_show(value)}")


def _state(value: object, where: str) -> int:
    if type(value) is int:
        return value
    if isinstance(value, str):
        from minegraph.formats.text_syntax import SYMBOLS
        found = SYMBOLS.get(value)
        if found is not None:
            return found
        if 1 < len(value) <= 18 and value.isascii() and value.isdigit():
            return int(value)       # a number beyond the one-character symbols, e.g. '13'
    elif not isinstance(value, bool) and hasattr(value, "__index__"):
        return operator.index(value)
    raise BoardError(f"{where}: expected {_STATE_HELP}, got {_show(value)}")


def _states(values: object, count: int | None, label: Any) -> tuple[int, ...]:
    """``values`` as a tuple of int states, checked to number ``count`` (when given).

    Symbols of the board text are accepted for convenience (``"#"``, ``"3"``...); a string
    is a sequence of such symbols.
    """
    if isinstance(values, (tuple, list)) and set(map(type, values)) <= {int}:
        out: tuple[int, ...] = tuple(values)    # the common case, checked at C speed
    else:
        if isinstance(values, (bytes, bytearray)) or not isinstance(values, Iterable):
            raise BoardError(f"expected a sequence of states ({_STATE_HELP}), got {_show(values)}")
        limit = None if count is None else count + 1   # never read an endless iterable
        out = tuple(_state(v, f"cell {label(i)}") for i, v in enumerate(islice(values, limit)))
    if count is not None and len(out) != count:
        got = f"more than {count}" if len(out) > count else str(len(out))
        raise BoardError(f"expected {count} states (one per cell), got {got}")
    return out


#: Boards of at most this many cells (graph boards: and edges) have a ``repr`` that rebuilds
#: them; larger ones an abbreviated one that says so, with at most :data:`REPR_ROWS` rows of
#: :data:`REPR_COLS` cells of a grid.
REPR_CELLS = 2500
REPR_ROWS, REPR_COLS = 10, 60


@dataclass(frozen=True, eq=True, repr=False)
class Board:
    """An immutable Minesweeper position on a graph.

    Build one with :meth:`grid`, :meth:`from_graph`, :meth:`from_networkx` or :meth:`from_text`;
    cells are indices ``0..n-1`` internally (``r * cols + c`` on grids). A graph board may
    carry ``labels``, one name per cell (its node in a networkx graph): then the API names
    cells by label (:meth:`cell`, :meth:`index`), and so do the analysis and its outputs.

    Attributes
    ----------
    topology
        One of :data:`~minegraph.topology.TOPOLOGIES`, or ``"graph"`` for any graph.
    rows, cols
        The grid's size; ``None`` on graph boards.
    neighbors
        The neighbour list of every cell (a grid's are its topology's; a graph's are
        symmetric, without repeats or loops).
    states
        One state per cell: a number ``0..degree``, :data:`HIDDEN`, :data:`MINE` or
        :data:`BLANK` (symbols of the board text are accepted when building).
    mines
        The total mine count, or ``None`` (unknown).
    labels
        One distinct hashable name per cell of a graph board, or ``None``.

    Raises
    ------
    BoardError
        when a board built field by field is not valid (an unknown topology, neighbour lists
        that do not fit it, a state or a total out of range, labels on a grid), saying what
        was expected.
    LimitError
        for more than :data:`MAX_CELLS` cells.

    Examples
    --------
    >>> b = Board.from_text("#1#\\n#1#")
    >>> b.rows, b.cols, b.hidden_count
    (2, 3, 4)
    >>> b.to_text()
    '#1#\\n#1#\\n'
    """

    topology: str
    rows: int | None
    cols: int | None
    neighbors: tuple[tuple[int, ...], ...]
    states: tuple[int, ...]
    mines: int | None = None
    labels: tuple[Any, ...] | None = None

    def __post_init__(self) -> None:
        # Built field by field (``Board(topology, rows, cols, neighbors, states, mines,
        # labels)``): everything is checked, the neighbour lists and labels included.
        self._check_shape()
        self._check_labels()
        object.__setattr__(self, "states", _states(self.states, len(self.neighbors), self.label))
        self._validate()

    @classmethod
    def _make(cls, topology: str, rows: int | None, cols: int | None,
              neighbors: tuple[tuple[int, ...], ...], states: object,
              mines: object, labels: tuple[Any, ...] | None = None) -> "Board":
        """A board whose shape (topology, size, neighbour lists, distinct labels) is known to
        be right; the states and the total are still checked."""
        board = cls._unchecked(topology, rows, cols, neighbors, (), mines, labels)
        object.__setattr__(board, "states", _states(states, len(neighbors), board.label))
        board._validate()
        return board

    @classmethod
    def _unchecked(cls, topology: str, rows: int | None, cols: int | None,
                   neighbors: tuple[tuple[int, ...], ...], states: tuple[int, ...],
                   mines: object, labels: tuple[Any, ...] | None) -> "Board":
        """A board from fields known to be right, without a single check."""
        board = object.__new__(cls)
        for name, value in (("topology", topology), ("rows", rows), ("cols", cols),
                            ("neighbors", neighbors), ("mines", mines), ("labels", labels),
                            ("states", states)):
            object.__setattr__(board, name, value)
        return board

    # ----------------------------------------------------------------- construction
    @classmethod
    def grid(cls, rows: int, cols: int, states: Sequence[int] | Sequence[str] | str, *,
             topology: str = "square", mines: int | None = None) -> "Board":
        """Build a grid board from row-major ``states``.

        Parameters
        ----------
        rows, cols
            The grid's size, whole numbers of at least 1 (at most :data:`MAX_CELLS` cells).
        states
            One state per cell, row by row: ints (``0..12``, :data:`HIDDEN`, :data:`MINE`,
            :data:`BLANK`) or symbols of the board text (``"#"``, ``"M"``, ``"-"``, ``"3"``;
            a string is a sequence of symbols).
        topology
            One of :data:`~minegraph.topology.TOPOLOGIES`.
        mines
            The total mine count, or ``None`` (unknown).

        Raises
        ------
        BoardError
            for an argument of the wrong type or value, saying what was expected.
        LimitError
            for more than :data:`MAX_CELLS` cells.

        Examples
        --------
        >>> Board.grid(2, 2, ["#", "1", "#", "#"]) == Board.grid(2, 2, [HIDDEN, 1, HIDDEN, HIDDEN])
        True
        >>> Board.grid(1, 3, "#1#", mines=1).states
        (-1, 1, -1)
        >>> Board.grid(2, 2, [HIDDEN, 1])
        Traceback (most recent call last):
        ...
        minegraph.errors.BoardError: expected 4 states (one per cell), got 2
        """
        if not isinstance(topology, str) or topology not in TOPOLOGIES:
            raise BoardError(f"unknown topology {_show(topology)}; expected one of {', '.join(TOPOLOGIES)}")
        rows, cols = whole(rows, "a number of rows"), whole(cols, "a number of columns")
        if rows < 1 or cols < 1:
            raise BoardError(f"a grid needs at least one row and column, got {rows}x{cols}")
        if rows * cols > MAX_CELLS:
            raise LimitError(f"board of {rows}x{cols} cells exceeds the limit of {MAX_CELLS} cells")
        return cls._make(topology, rows, cols, grid_neighbors(topology, rows, cols), states, mines)

    @classmethod
    def from_graph(cls, cells: int, edges: Iterable[tuple[int, int]] | Iterable[list[int]],
                   states: Sequence[int] | Sequence[str] | str, *,
                   mines: int | None = None) -> "Board":
        """Build a board on any undirected graph with vertices ``0..cells-1``.

        Parameters
        ----------
        cells
            The number of cells, 1 to :data:`MAX_CELLS`.
        edges
            Pairs ``(u, v)`` (or ``[u, v]``) of distinct cells; repeats are merged.
        states
            One state per cell, as for :meth:`grid`.
        mines
            The total mine count, or ``None``.

        Raises
        ------
        BoardError
            for an argument of the wrong type or value (an edge naming a missing cell, a
            loop, a state that is not one), saying what was expected.
        LimitError
            for more than :data:`MAX_CELLS` cells.

        Examples
        --------
        >>> b = Board.from_graph(3, [(0, 1), (1, 2)], [HIDDEN, 1, HIDDEN])
        >>> b.neighbors
        ((1,), (0, 2), (1,))
        >>> Board.from_graph(3, [(0, 3)], "#1#")
        Traceback (most recent call last):
        ...
        minegraph.errors.BoardError: edge 0: cell 3 is outside 0..2
        """
        cells = whole(cells, "a number of cells")
        if cells < 1:
            raise BoardError("a graph board needs at least one cell")
        if cells > MAX_CELLS:
            raise LimitError(f"graph of {cells} cells exceeds the limit of {MAX_CELLS} cells")
        if isinstance(edges, (str, bytes)) or not hasattr(edges, "__iter__"):
            raise BoardError(f"expected the edges as pairs (u, v) of cell numbers, got {_show(edges)}")
        adj: list[set[int]] = [set() for _ in range(cells)]
        for i, edge in enumerate(edges):
            if isinstance(edge, (str, bytes)) or not hasattr(edge, "__len__") or len(edge) != 2:
                raise BoardError(f"edge {i}: expected a pair (u, v) of cell numbers, got {_show(edge)}")
            u, v = (whole(x, f"a cell number 0..{cells - 1}", f"edge {i}") for x in edge)
            for w in (u, v):
                if not 0 <= w < cells:
                    raise BoardError(f"edge {i}: cell {w} is outside 0..{cells - 1}")
            if u == v:
                raise BoardError(f"edge {i}: a loop on cell {u} is not allowed")
            adj[u].add(v)
            adj[v].add(u)
        return cls._make("graph", None, None, tuple(tuple(sorted(a)) for a in adj), states, mines)

    @classmethod
    def from_networkx(cls, graph: Any, states: Mapping[Any, object] | None = None, *,
                      mines: int | None = None, attribute: str = "state") -> "Board":
        """Build a board on a networkx graph; the nodes become the cells and keep their names.

        Cell ``i`` is the ``i``-th node: in increasing order when every node is an ``int``,
        else in the graph's node order. The nodes are the board's :attr:`labels`, so every
        output names cells by node (the analysis's ``safe``, ``mines``, ``best`` and
        probabilities, explanations, JSON, the report); a graph whose nodes are exactly
        ``0..n-1`` gives a board without labels, equal to :meth:`from_graph`'s. Edge direction
        is ignored and parallel edges are merged.

        Labels may be any hashable nodes. Text shows them by ``repr`` in messages (``cell
        'a'``); JSON output holds labels that are ``str`` or ``int`` only and refuses others
        with a :class:`~minegraph.errors.FormatError` (relabel first, e.g. with
        ``networkx.convert_node_labels_to_integers(graph, label_attribute="name")``).

        Parameters
        ----------
        graph : networkx.Graph
            Any networkx graph (``DiGraph``, ``MultiGraph``... too), with 1 to
            :data:`MAX_CELLS` nodes and no loops.
        states : mapping, optional
            Node -> state: an ``int`` (a number up to the node's degree, :data:`HIDDEN`,
            :data:`MINE`, :data:`BLANK`) or a symbol of the board text (``"#"``, ``"M"``,
            ``"-"``, ``"3"``, or the digits of a larger number, ``"13"``). Nodes left out are
            hidden. By default the states are read from the nodes' ``attribute``.
        mines : int, optional
            The total mine count; by default the graph attribute ``graph.graph["mines"]`` (a
            whole number, or missing or ``None`` for unknown).
        attribute : str
            The node attribute read when ``states`` is not given (``"state"``); nodes
            without it (or with ``None``) are hidden.

        Raises
        ------
        BoardError
            for something that is not a networkx graph, a graph without nodes, a loop, a state
            that is not one (naming the node), a ``states`` key that is not a node of the
            graph, or a total that is not a whole number.
        LimitError
            for more than :data:`MAX_CELLS` nodes.

        Examples
        --------
        >>> import networkx as nx
        >>> g = nx.path_graph(["a", "b", "c"])
        >>> b = Board.from_networkx(g, {"b": 1}, mines=1)
        >>> b.labels, b.states, b.neighbors
        (('a', 'b', 'c'), (-1, 1, -1), ((1,), (0, 2), (1,)))
        >>> b.index("c"), b.cell(2)
        (2, 'c')
        >>> nx.set_node_attributes(g, {"a": "#", "b": "1", "c": "M"}, "state")
        >>> Board.from_networkx(g).states
        (-1, 1, -2)
        >>> Board.from_networkx(nx.path_graph(3)) == Board.from_graph(3, [(0, 1), (1, 2)], "###")
        True
        >>> Board.from_networkx(g, {"d": "#"})
        Traceback (most recent call last):
        ...
        minegraph.errors.BoardError: states: 'd' is not a node of the graph
        """
        try:
            import networkx as nx
        except ImportError:                                     # pragma: no cover
            raise BoardError("Board.from_networkx needs networkx (pip install networkx)") from None
        if not isinstance(graph, nx.Graph):
            raise BoardError(f"expected a networkx graph (networkx.Graph or a subclass), got {_show(graph)}")
        n = graph.number_of_nodes()
        if n < 1:
            raise BoardError("a graph board needs at least one cell; the graph has no nodes")
        if n > MAX_CELLS:
            raise LimitError(f"graph of {n} nodes exceeds the limit of {MAX_CELLS} cells")
        if not isinstance(attribute, str):
            raise BoardError(f"expected the name of a node attribute (a str), got {_show(attribute)}")
        nodes = list(graph.nodes)
        if all(type(v) is int for v in nodes):
            nodes.sort()
        where = {v: i for i, v in enumerate(nodes)}
        adj: list[set[int]] = [set() for _ in range(n)]
        for u, v in graph.edges():
            i, j = where[u], where[v]
            if i == j:
                raise BoardError(f"node {_named(u)}: a loop (an edge from a node to itself) is not "
                                 f"allowed on a board")
            adj[i].add(j)
            adj[j].add(i)
        values = [HIDDEN] * n
        if states is None:
            data = graph.nodes
            for i, v in enumerate(nodes):
                value = data[v].get(attribute)
                if value is not None:
                    values[i] = _state(value, f"node {_named(v)} (attribute {attribute!r})")
        elif isinstance(states, Mapping):
            for key, value in states.items():
                try:
                    i = where[key]
                except (KeyError, TypeError):
                    i = -1
                if i < 0 or isinstance(key, bool) != isinstance(nodes[i], bool):
                    raise BoardError(f"states: {_named(key)} is not a node of the graph")
                values[i] = _state(value, f"node {_named(key)}")
        else:
            raise BoardError(f"expected the states as a mapping node -> state, or None to read the "
                             f"nodes' {attribute!r} attribute, got {_show(states)}")
        total = _mine_total(graph.graph.get("mines"), "graph attribute 'mines'") if mines is None \
            else mines
        labels: tuple[Any, ...] | None = tuple(nodes)
        if all(type(v) is int for v in nodes) and nodes == list(range(n)):
            labels = None
        return cls._make("graph", None, None, tuple(tuple(sorted(a)) for a in adj), values, total,
                         labels)

    @classmethod
    def from_text(cls, text: str) -> "Board":
        """Read the canonical board text (docs/formats.md §1); see :mod:`minegraph.formats.text`.

        Raises
        ------
        FormatError
            naming line and column (1-based) and what was expected; for ``text`` that is not
            a ``str`` (bytes must be decoded first).

        Examples
        --------
        >>> Board.from_text(b"#1#")
        Traceback (most recent call last):
        ...
        minegraph.errors.FormatError: expected the board text as a str, got bytes (decode it first, e.g. data.decode("utf-8"))
        """
        if not isinstance(text, str):
            hint = " (decode it first, e.g. data.decode(\"utf-8\"))" \
                if isinstance(text, (bytes, bytearray)) else ""
            raise FormatError(f"expected the board text as a str, got {type(text).__name__}{hint}")
        # The syntax module knows no Board, so this import closes no circle.
        from minegraph.formats.text_syntax import parse_text
        parsed = parse_text(text)
        # parse_text has checked everything Board.grid would (size, states, numbers against
        # each cell's degree, the total): the board is made without a second pass.
        return cls._unchecked(parsed.topology, parsed.rows, parsed.cols,
                              grid_neighbors(parsed.topology, parsed.rows, parsed.cols),
                              tuple(parsed.states), parsed.mines, None)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str], format: str | None = None, *,
                  dialect: str | None = None) -> "Board":
        """Read a board file in any format (docs/formats.md): ``format`` (one of
        :data:`minegraph.formats.FORMATS`) or the one detected from the file's name and
        content, as :func:`minegraph.formats.read_board` does.

        Parameters
        ----------
        path
            The file's name (``str`` or a path object). It is read as UTF-8; a byte-order
            mark is dropped.
        format
            ``"text"``, ``"mine"``, ``"numeric"`` or ``"json"``; detected when omitted.
        dialect
            What ``.`` and ``x`` mean in board text (``"standard"``, ``"ascii"``,
            ``"dots"``), as for :func:`~minegraph.formats.read_board`.

        Raises
        ------
        UserError
            for a file that cannot be read (naming it and why) or a ``path`` that is not a
            file name.
        FormatError
            for content the format's reader rejects; the message starts with the file's
            name, then the line and column.
        LimitError
            for a board beyond the size limits.

        Examples
        --------
        >>> import os, tempfile
        >>> folder = tempfile.mkdtemp()
        >>> path = os.path.join(folder, "position.mine")
        >>> with open(path, "w") as handle:
        ...     _ = handle.write("3x1x1\\nH1H\\n")
        >>> Board.from_file(path).states
        (-1, 1, -1)
        >>> Board.from_file(os.path.join(folder, "missing.board"))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        minegraph.errors.UserError: cannot read .../missing.board: No such file or directory
        """
        if not isinstance(path, (str, os.PathLike)):
            raise UserError(f"expected a file name (str or a path), got {_show(path)}")
        name = os.fsdecode(path)
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError as exc:
            raise UserError(f"cannot read {name}: {exc.strerror or exc}") from exc
        # The front door detects the format; it knows no Board class, so no import circle.
        from minegraph.formats import read_board
        try:
            return read_board(data, format, name=name, dialect=dialect)
        except FormatError as exc:
            exc.args = (f"{name}: {exc}",)      # the same error, naming the file
            raise

    def to_text(self) -> str:
        """Write the canonical board text (grids only)."""
        from minegraph.formats.text_syntax import write_text
        return write_text(self)

    # ----------------------------------------------------------------- validation
    def _check_shape(self) -> None:
        """Check the topology, the size and the neighbour lists of a board built field by
        field: a graph board's lists must name cells of the board, each other symmetrically,
        never the cell itself; a grid board's must be its topology's."""
        topology, rows, cols = self.topology, self.rows, self.cols
        if not isinstance(topology, str) or topology not in (*TOPOLOGIES, "graph"):
            raise BoardError(f"unknown topology {_show(topology)}; expected one of "
                             f"{', '.join(TOPOLOGIES)} or graph")
        neighbors = self.neighbors
        if isinstance(neighbors, (str, bytes)) or not hasattr(neighbors, "__len__"):
            raise BoardError(f"expected the neighbour lists as a sequence, one per cell, got {_show(neighbors)}")
        n = len(neighbors)
        if n > MAX_CELLS:
            raise LimitError(f"board of {n} cells exceeds the limit of {MAX_CELLS} cells")
        if topology == "graph":
            if rows is not None or cols is not None:
                raise BoardError(f"a graph board has no rows and columns (None), got {_show(rows)}x{_show(cols)}")
            if n < 1:
                raise BoardError("a graph board needs at least one cell")
            lists = []
            for i, near in enumerate(neighbors):
                if isinstance(near, (str, bytes)) or not hasattr(near, "__iter__"):
                    raise BoardError(f"cell {i}: expected a sequence of neighbour cells, got {_show(near)}")
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
            object.__setattr__(self, "neighbors", tuple(lists))
            return
        rows = whole(rows, "a number of rows")
        cols = whole(cols, "a number of columns")
        if rows < 1 or cols < 1 or rows * cols != n:
            raise BoardError(f"a {topology} grid of {_show(rows)}x{_show(cols)} cells needs that many "
                             f"neighbour lists, got {n}")
        expected = grid_neighbors(topology, rows, cols)
        if neighbors is not expected and tuple(tuple(q) for q in neighbors) != expected:
            raise BoardError(f"the neighbour lists are not those of the {rows}x{cols} {topology} "
                             f"grid (use Board.grid, or topology 'graph' for any graph)")
        for name, value in (("rows", rows), ("cols", cols), ("neighbors", expected)):
            object.__setattr__(self, name, value)

    def _check_labels(self) -> None:
        """Check the labels of a board built field by field: ``None``, or one distinct hashable
        label per cell of a graph board (labels ``0..n-1`` in order are the same as none)."""
        labels = self.labels
        if labels is None:
            return
        if self.topology != "graph":
            raise BoardError("only graph boards have cell labels; a grid's cells are (row, col)")
        if isinstance(labels, (str, bytes)) or not hasattr(labels, "__iter__") or \
                not hasattr(labels, "__len__"):
            raise BoardError(f"expected the cell labels as a sequence, one per cell, or None, "
                             f"got {_show(labels)}")
        labels = tuple(labels)
        n = len(self.neighbors)
        if len(labels) != n:
            raise BoardError(f"expected {n} cell labels (one per cell), got {len(labels)}")
        table: dict[Any, int] = {}
        for i, label in enumerate(labels):
            try:
                first = table.setdefault(label, i)
            except TypeError:
                raise BoardError(f"cell {i}: a label must be hashable, like the nodes of a networkx "
                                 f"graph, got {_show(label)}") from None
            if first != i:
                raise BoardError(f"cells {first} and {i} have the same label {_named(label)} "
                                 f"(labels must be distinct)")
        if all(type(v) is int for v in labels) and labels == tuple(range(n)):
            object.__setattr__(self, "labels", None)
            return
        object.__setattr__(self, "labels", labels)
        object.__setattr__(self, "_label_table", table)

    def _labels_index(self) -> dict[Any, int]:
        """Label -> cell index, built on first use."""
        table: dict[Any, int] | None = self.__dict__.get("_label_table")
        if table is None:
            table = {label: i for i, label in enumerate(self.labels or ())}
            object.__setattr__(self, "_label_table", table)
        return table

    def json_labels(self) -> list[str | int] | None:
        """The labels as JSON can hold them (``None`` without labels).

        Raises
        ------
        FormatError
            for a label that is neither a ``str`` nor an ``int`` (a tuple, a float...),
            naming the cell: JSON output holds string and integer labels only.

        Examples
        --------
        >>> import networkx as nx
        >>> Board.from_networkx(nx.path_graph(["a", "b"])).json_labels()
        ['a', 'b']
        >>> Board.from_networkx(nx.path_graph([(0, 0), (0, 1)])).json_labels()
        Traceback (most recent call last):
        ...
        minegraph.errors.FormatError: cell 0 is labelled (0, 0), a tuple: JSON output holds cell labels that are strings or whole numbers only; relabel the graph first, e.g. networkx.convert_node_labels_to_integers(graph, label_attribute="name") or networkx.relabel_nodes(graph, str)
        """
        if self.labels is None:
            return None
        out: list[str | int] = []
        for i, label in enumerate(self.labels):
            if not (type(label) is str or (isinstance(label, int) and not isinstance(label, bool))):
                raise FormatError(f"cell {i} is labelled {_named(label)}, a {type(label).__name__}: JSON "
                                  f"output holds cell labels that are strings or whole numbers only; "
                                  f"relabel the graph first, e.g. networkx.convert_node_labels_to_integers"
                                  f"(graph, label_attribute=\"name\") or networkx.relabel_nodes(graph, str)")
            out.append(label if type(label) is str else int(label))
        return out

    def _validate(self) -> None:
        n = len(self.states)
        # Grids stop at their topology's maximum; on a graph board a cell's degree is the
        # only cap (a star's centre may show 13 or 1000).
        cap = MAX_DEGREE.get(self.topology, n)      # n: never below a graph cell's degree
        states = self.states
        if states and min(states) >= BLANK and max(states) <= cap \
                and degree_limits(self.neighbors).first_over(states) is None:
            pass    # every state known and every number within its cell's reach: no loop
        else:
            self._validate_cells(cap)
        if self.mines is not None:
            mines = whole(self.mines, "a total mine count or None")
            if not 0 <= mines <= n:
                raise BoardError(f"total mine count {mines} is outside 0..{n} (the number of cells)")
            object.__setattr__(self, "mines", mines)

    def _validate_cells(self, cap: int) -> None:
        """Each cell's state, naming the first that is wrong."""
        for i, s in enumerate(self.states):
            if s >= 0:
                degree = len(self.neighbors[i])
                if s > degree or s > cap:
                    limit = f"its {degree} neighbours" if s <= cap or self.rows is None else \
                        f"the {self.topology} maximum {cap}"
                    raise BoardError(f"cell {self.label(i)}: number {s} exceeds {limit}")
            elif s not in (HIDDEN, MINE, BLANK):
                raise BoardError(f"cell {self.label(i)}: unknown state {s}")

    # ----------------------------------------------------------------- cells
    @property
    def size(self) -> int:
        """Number of cells."""
        return len(self.states)

    @property
    def is_grid(self) -> bool:
        return self.rows is not None

    def index(self, cell: Cell | list[int]) -> int:
        """The internal index of a cell given as ``(row, col)`` or ``[row, col]`` (grids; the
        JSON's form is a list) or as its index, an ``int`` (graphs, and grids too), or as its
        label on a board with :attr:`labels`.

        Raises
        ------
        BoardError
            for a cell outside the board or something that is not a cell.

        Examples
        --------
        >>> b = Board.from_text("###\\n###")
        >>> b.index((1, 2)), b.index([1, 2]), b.index(5)
        (5, 5, 5)
        >>> b.index((2, 0))
        Traceback (most recent call last):
        ...
        minegraph.errors.BoardError: cell (2, 0) is outside the 2x3 grid

        On a board with labels, cells are named by label only (a list stands for a tuple):

        >>> import networkx as nx
        >>> g = Board.from_networkx(nx.path_graph(["a", "b"]))
        >>> g.index("b")
        1
        >>> g.index(1)
        Traceback (most recent call last):
        ...
        minegraph.errors.BoardError: no cell is labelled 1; this board names its cells by their nodes, e.g. 'a'
        """
        labels = self.labels
        if labels is not None:
            key = _as_key(cell)
            try:
                found = self._labels_index().get(key)
            except TypeError:
                raise BoardError(f"expected a cell label (a node of the graph), got {_show(cell)}, "
                                 f"which is not hashable") from None
            if found is None or isinstance(key, bool) != isinstance(labels[found], bool):
                raise BoardError(f"no cell is labelled {_named(cell)}; this board names its cells by "
                                 f"their nodes, e.g. {_named(labels[0])}")
            return found
        if isinstance(cell, (tuple, list)):
            if self.cols is None or self.rows is None:
                raise BoardError(f"cell {_show(cell)}: a graph board's cells are numbers "
                                 f"0..{self.size - 1}, not (row, col)")
            if len(cell) != 2:
                raise BoardError(f"expected a cell (row, col), got {len(cell)} coordinates")
            r, c = whole(cell[0], "a row"), whole(cell[1], "a column")
            if not (0 <= r < self.rows and 0 <= c < self.cols):
                raise BoardError(f"cell ({r}, {c}) is outside the {self.rows}x{self.cols} grid")
            return r * self.cols + c
        what = "a cell (row, col) or a cell index" if self.is_grid else "a cell number"
        i = whole(cell, what)
        if not 0 <= i < self.size:
            raise BoardError(f"cell {i} is outside 0..{self.size - 1}")
        return i

    def _checked(self, index: int) -> int:
        i = whole(index, "a cell index")
        if not 0 <= i < self.size:
            raise BoardError(f"cell index {i} is outside 0..{self.size - 1}")
        return i

    def cell(self, index: int) -> Cell:
        """The API form of cell ``index``: ``(row, col)`` on grids, the index on graphs, the
        label on boards with :attr:`labels`.

        Raises
        ------
        BoardError
            for an index outside ``0..size-1``.
        """
        if type(index) is not int or not 0 <= index < len(self.states):  # the usual case first
            index = self._checked(index)
        if self.cols is None:
            labels = self.labels
            return index if labels is None else labels[index]
        return divmod(index, self.cols)

    def parse_cell(self, text: str) -> Cell:
        """The cell a person wrote: ``"R,C"`` on grids (0-based, spaces allowed), a cell
        number on graph boards, a node label on boards with :attr:`labels` (as written, or
        the integer it spells). The one reader of cells typed on the command line.

        Raises
        ------
        BoardError
            for text that is not a cell of this board.

        Examples
        --------
        >>> b = Board.from_text("###\\n###")
        >>> b.parse_cell("1,2"), b.parse_cell(" 0 , 0 ")
        ((1, 2), (0, 0))
        >>> b.parse_cell("5")
        Traceback (most recent call last):
        ...
        minegraph.errors.BoardError: cell '5': expected ROW,COL (0-based)
        """
        if not isinstance(text, str):
            raise BoardError(f"cell: expected text such as '3,4', got {type(text).__name__}")
        from minegraph.present import shown
        if self.labels is not None:  # a node label: as written, or the integer it spells
            written = text.strip()
            for label in self.labels:
                if str(label) == written and (not isinstance(label, int) or written.isdigit()):
                    found: Cell = label
                    return found
            raise BoardError(f"cell {shown(text)}: expected one of the graph's node labels")
        parts = [p.strip() for p in text.split(",")]
        numbers = [int(p) for p in parts if p.isascii() and p.lstrip("-").isdigit() and len(p) <= 12]
        wanted = 2 if self.is_grid else 1
        if len(numbers) != len(parts) or len(numbers) != wanted:
            raise BoardError(f"cell {shown(text)}: expected "
                             + ("ROW,COL (0-based)" if self.is_grid else "a cell number"))
        cell: Cell = (numbers[0], numbers[1]) if wanted == 2 else numbers[0]
        self.index(cell)        # a BoardError outside the board
        return cell

    def label(self, index: int) -> str:
        """A human-readable name of cell ``index`` for messages (any value is shown): ``(r, c)``
        on grids, the index on graphs, the label's ``repr`` on boards with :attr:`labels`."""
        if type(index) is not int or not 0 <= index < len(self.neighbors):
            return str(index)
        if self.cols is None:
            return str(index) if self.labels is None else _named(self.labels[index])
        r, c = divmod(index, self.cols)
        return f"({r}, {c})"

    def cells(self, indices: Iterable[int]) -> list[Cell]:
        """:meth:`cell` of every index (valid indices, as engines return them), in one pass:
        the analysis names every hidden cell of every position.

        Examples
        --------
        >>> Board.from_text("###\\n###").cells([0, 4])
        [(0, 0), (1, 1)]
        """
        if self.cols is None:
            labels = self.labels
            return list(indices) if labels is None else [labels[i] for i in indices]
        return list(map(divmod, indices, repeat(self.cols)))

    @property
    def hidden(self) -> list[int]:
        """Indices of hidden cells."""
        hidden = HIDDEN     # a local: called for every position analysed
        return [i for i, s in enumerate(self.states) if s == hidden]

    @property
    def hidden_count(self) -> int:
        return sum(1 for s in self.states if s == HIDDEN)

    @property
    def known_mines(self) -> int:
        return sum(1 for s in self.states if s == MINE)

    def with_states(self, states: Sequence[int] | Sequence[str] | str,
                    mines: int | None | str = "keep") -> "Board":
        """A copy with other states (as for :meth:`grid`) and optionally another total
        (``None``: unknown; the default ``"keep"`` keeps this board's).

        Raises
        ------
        BoardError
            for states or a total that do not fit the board.

        Examples
        --------
        >>> Board.from_text("#1#").with_states("M1#", mines=1).to_text()
        'mines: 1\\nM1#\\n'
        """
        total = self.mines if isinstance(mines, str) and mines == "keep" else mines
        return Board._make(self.topology, self.rows, self.cols, self.neighbors, states, total,
                           self.labels)

    def _with_valid_states(self, states: Sequence[int]) -> "Board":
        """:meth:`with_states` for states known to be valid (integers that are states, numbers
        no larger than their cell's degree), as the library's own players build them: no
        checks, which cost as much as the rest of a no-guess attempt's bookkeeping."""
        return Board._unchecked(self.topology, self.rows, self.cols, self.neighbors,
                                tuple(states), self.mines, self.labels)

    def _repr_svg_(self) -> str:
        """The board as SVG for notebooks (:func:`minegraph.formats.svg.repr_svg`)."""
        from minegraph.formats.svg import repr_svg
        return repr_svg(self)

    def __repr__(self) -> str:
        """Python code that rebuilds the board, ``eval(repr(board)) == board``: the board
        text for grids, shown as the grid it is; :meth:`from_graph` for graph boards (with cell
        labels, the constructor's fields, labels included). Boards
        of more than :data:`REPR_CELLS` cells (graph boards: or edges) are abbreviated: a
        summary line saying so, then the top left corner of a grid (at most
        :data:`REPR_ROWS` rows of :data:`REPR_COLS` cells).

        Examples
        --------
        >>> Board.from_text("mines: 1\\n#1#\\n#1#")
        Board.from_text('''\\
        mines: 1
        #1#
        #1#
        ''')
        >>> Board.from_graph(3, [(0, 1), (1, 2)], "#1#", mines=1)
        Board.from_graph(3, [(0, 1), (1, 2)], '#1#', mines=1)
        >>> print(repr(Board.grid(100, 100, "#" * 10000, mines=10)).splitlines()[0])
        <Board 100x100 square: 10000 cells, 10000 hidden, total mines 10; abbreviated past 2500 cells, the first 10 of 100 rows and 60 of 100 columns (str(board) gives the whole text)
        """
        from minegraph.formats.text_syntax import symbol
        if self.rows is None or self.cols is None:
            edges = [(u, v) for u, near in enumerate(self.neighbors) for v in near if u < v]
            total = "unknown" if self.mines is None else str(self.mines)
            if self.size > REPR_CELLS or len(edges) > REPR_CELLS:
                return (f"<Board graph: {self.size} cells, {len(edges)} edges, {self.hidden_count} "
                        f"hidden, total mines {total}; abbreviated past {REPR_CELLS} cells or "
                        f"edges (minegraph.write_board(board, 'json') writes it whole)>")
            symbols = [symbol(s) for s in self.states]
            states = repr("".join(symbols)) if all(len(t) == 1 for t in symbols) else \
                repr(list(self.states))
            labels = getattr(self, "labels", None)
            if labels is not None:       # the fields themselves: from_graph knows no labels
                return (f"Board(topology='graph', rows=None, cols=None, neighbors={self.neighbors!r}, "
                        f"states={self.states!r}, mines={self.mines!r}, labels={labels!r})")
            mines = "" if self.mines is None else f", mines={self.mines}"
            return f"Board.from_graph({self.size}, {edges!r}, {states}{mines})"
        if self.size <= REPR_CELLS:
            text = self.to_text()
            if "\\" in text or "'''" in text:    # never in the canonical text; still safe
                return f"Board.from_text({text!r})"
            return f"Board.from_text('''\\\n{text}''')"
        rows, cols = min(self.rows, REPR_ROWS), min(self.cols, REPR_COLS)
        total = "unknown" if self.mines is None else str(self.mines)
        lines = [f"<Board {self.rows}x{self.cols} {self.topology}: {self.size} cells, "
                 f"{self.hidden_count} hidden, total mines {total}; abbreviated past {REPR_CELLS} "
                 f"cells, the first {rows} of {self.rows} rows and {cols} of {self.cols} columns "
                 f"(str(board) gives the whole text)"]
        for r in range(rows):
            start = r * self.cols
            row = "".join(symbol(s) for s in self.states[start:start + cols])
            lines.append(row + ("…" if cols < self.cols else ""))
        lines.append(f"… {self.rows - rows} more rows>" if rows < self.rows else ">")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text() if self.is_grid else repr(self)


def cell_name(board: Board, cell: Cell) -> str:
    """A cell as reports and explanations write it: ``(r, c)`` on grids, the index on graphs, the
    node label on labelled boards (strings and integers as themselves, other labels by
    ``repr``).

    Examples
    --------
    >>> cell_name(Board.from_text("##"), (0, 1))
    '(0, 1)'
    """
    if board.labels is not None:
        return str(cell) if isinstance(cell, (str, int)) else repr(cell)
    return f"({cell[0]}, {cell[1]})" if isinstance(cell, tuple) else str(cell)
