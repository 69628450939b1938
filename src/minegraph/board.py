"""The board: cells of any graph, each hidden, a known mine, or uncovered (with or without a number).

States are small integers: ``0..degree`` an uncovered cell with that many mined neighbours
(at most 12 on the grids, whose topologies cap it: :data:`~minegraph.topology.MAX_DEGREE`),
:data:`HIDDEN` a cell not yet uncovered (the thesis's ``#``), :data:`MINE` a known mine
(``M``), :data:`BLANK` an uncovered cell whose number is not given (the thesis's ``◇``).
They and :data:`MAX_CELLS` are defined in :mod:`minegraph.states` and re-exported here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from itertools import repeat
from typing import Any, Iterable, Mapping, Sequence

from minegraph.board_cells import cell_from_text, cell_index, cell_name, checked_index
from minegraph.board_checks import (check_labels, check_shape, check_states, graph_neighbors,
                                    grid_shape)
from minegraph.board_repr import REPR_CELLS, REPR_COLS, REPR_ROWS, board_repr
from minegraph.errors import FormatError
from minegraph.labels import json_labels, named
from minegraph.states import BLANK, HIDDEN, MAX_CELLS, MINE
from minegraph.topology import grid_neighbors
from minegraph.values import states as _states, whole

__all__ = ["Board", "HIDDEN", "MINE", "BLANK", "MAX_CELLS", "Cell", "whole", "cell_name"]

#: A cell as the API shows it: ``(row, col)`` on grids, an ``int`` on graph boards, and on a
#: board with cell labels (:meth:`Board.from_networkx`) the cell's label: its node in the graph.
Cell = tuple[int, int] | int


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
        rows, cols, neighbors = check_shape(self.topology, self.rows, self.cols, self.neighbors)
        labels, table = check_labels(self.topology, self.labels, len(neighbors))
        for name, value in (("rows", rows), ("cols", cols), ("neighbors", neighbors),
                            ("labels", labels)):
            object.__setattr__(self, name, value)
        if table is not None:
            object.__setattr__(self, "_label_table", table)
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
        rows, cols, neighbors = grid_shape(topology, rows, cols)
        return cls._make(topology, rows, cols, neighbors, states, mines)

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

        Returns
        -------
        Board
            The graph board, without labels.

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
        return cls._make("graph", None, None, graph_neighbors(cells, edges), states, mines)

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

        Returns
        -------
        Board
            The graph board, labelled by the nodes (none for nodes ``0..n-1``).

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
        from minegraph.board_networkx import networkx_fields
        neighbors, values, total, labels = networkx_fields(graph, states, mines, attribute)
        return cls._make("graph", None, None, neighbors, values, total, labels)

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

        Returns
        -------
        Board
            The board the file holds.

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
        from minegraph.board_files import read_board_file
        return read_board_file(path, format, dialect=dialect)

    def to_text(self) -> str:
        """Write the canonical board text (grids only)."""
        from minegraph.formats.text_syntax import write_text
        return write_text(self)

    # ----------------------------------------------------------------- labels
    def _labels_index(self) -> dict[Any, int]:
        """Label -> cell index, built on first use."""
        table: dict[Any, int] | None = getattr(self, "_label_table", None)
        if table is None:
            table = {label: i for i, label in enumerate(self.labels or ())}
            object.__setattr__(self, "_label_table", table)
        return table

    def json_labels(self) -> list[str | int] | None:
        """The labels as JSON can hold them (:func:`~minegraph.labels.json_labels`).

        Returns
        -------
        list or None
            One ``str`` or ``int`` per cell, or ``None`` without labels.

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
        return None if self.labels is None else json_labels(self.labels)

    def _validate(self) -> None:
        """Check the states and the total (:func:`~minegraph.board_checks.check_states`)."""
        object.__setattr__(self, "mines", check_states(self.topology, self.rows, self.neighbors,
                                                       self.states, self.mines, self.label))

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
        label on a board with :attr:`labels` (:func:`~minegraph.board_cells.cell_index`).

        Parameters
        ----------
        cell
            The cell, in any of those forms.

        Returns
        -------
        int
            Its index, ``0..size-1``.

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
        return cell_index(self, cell)

    def cell(self, index: int) -> Cell:
        """The API form of cell ``index``: ``(row, col)`` on grids, the index on graphs, the
        label on boards with :attr:`labels`.

        Raises
        ------
        BoardError
            for an index outside ``0..size-1``.
        """
        if type(index) is not int or not 0 <= index < len(self.states):  # the usual case first
            index = checked_index(self, index)
        if self.cols is None:
            labels = self.labels
            return index if labels is None else labels[index]
        return divmod(index, self.cols)

    def parse_cell(self, text: str) -> Cell:
        """The cell a person wrote: ``"R,C"`` on grids (0-based, spaces allowed), a cell
        number on graph boards, a node label on boards with :attr:`labels` (as written, or
        the integer it spells). The one reader of cells typed on the command line.

        Parameters
        ----------
        text
            The cell as written.

        Returns
        -------
        Cell
            The cell in the API's form (:meth:`cell`).

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
        return cell_from_text(self, text)

    def label(self, index: int) -> str:
        """A human-readable name of cell ``index`` for messages (any value is shown): ``(r, c)``
        on grids, the index on graphs, the label's ``repr`` on boards with :attr:`labels`."""
        if type(index) is not int or not 0 <= index < len(self.neighbors):
            return str(index)
        if self.cols is None:
            return str(index) if self.labels is None else named(self.labels[index])
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
        return board_repr(self)

    def __str__(self) -> str:
        return self.to_text() if self.is_grid else repr(self)
