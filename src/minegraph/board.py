"""The board: cells of any graph, each hidden, a known mine, or uncovered (with or without a number).

States are small integers: ``0..12`` an uncovered cell with that many mined neighbours,
:data:`HIDDEN` a cell not yet uncovered (the thesis's ``#``), :data:`MINE` a known mine
(``M``), :data:`BLANK` an uncovered cell whose number is not given (the thesis's ``◇``).
They and :data:`MAX_CELLS` are defined in :mod:`minegraph.states` and re-exported here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from minegraph.errors import BoardError, LimitError
from minegraph.states import BLANK, HIDDEN, MAX_CELLS, MINE
from minegraph.topology import MAX_DEGREE, TOPOLOGIES, grid_neighbors

__all__ = ["Board", "HIDDEN", "MINE", "BLANK", "MAX_CELLS", "Cell"]

#: A cell as the API shows it: ``(row, col)`` on grids, an ``int`` on graph boards.
Cell = tuple[int, int] | int


@dataclass(frozen=True, eq=True, repr=False)
class Board:
    """An immutable Minesweeper position on a graph.

    Build one with :meth:`grid`, :meth:`from_graph` or :meth:`from_text`; cells are indices
    ``0..n-1`` internally (``r * cols + c`` on grids).

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

    def __post_init__(self) -> None:
        self._validate()

    # ----------------------------------------------------------------- construction
    @classmethod
    def grid(cls, rows: int, cols: int, states: Sequence[int], *, topology: str = "square",
             mines: int | None = None) -> "Board":
        """Build a grid board from row-major ``states``."""
        if topology not in TOPOLOGIES:
            raise BoardError(f"unknown topology {topology!r}; expected one of {', '.join(TOPOLOGIES)}")
        if rows < 1 or cols < 1:
            raise BoardError(f"a grid needs at least one row and column, got {rows}x{cols}")
        if rows * cols > MAX_CELLS:
            raise LimitError(f"board of {rows}x{cols} cells exceeds the limit of {MAX_CELLS} cells")
        if len(states) != rows * cols:
            raise BoardError(f"expected {rows * cols} states for a {rows}x{cols} grid, got {len(states)}")
        return cls(topology, rows, cols, grid_neighbors(topology, rows, cols), tuple(states), mines)

    @classmethod
    def from_graph(cls, cells: int, edges: Iterable[tuple[int, int]], states: Sequence[int], *,
                   mines: int | None = None) -> "Board":
        """Build a board on any undirected graph with vertices ``0..cells-1``.

        Examples
        --------
        >>> b = Board.from_graph(3, [(0, 1), (1, 2)], [HIDDEN, 1, HIDDEN])
        >>> b.neighbors
        ((1,), (0, 2), (1,))
        """
        if cells < 1:
            raise BoardError("a graph board needs at least one cell")
        if cells > MAX_CELLS:
            raise LimitError(f"graph of {cells} cells exceeds the limit of {MAX_CELLS} cells")
        adj: list[set[int]] = [set() for _ in range(cells)]
        for i, edge in enumerate(edges):
            try:
                u, v = (int(x) for x in edge)
            except (TypeError, ValueError):
                raise BoardError(f"edge {i}: expected a pair of cell numbers, got {edge!r}") from None
            for w in (u, v):
                if not 0 <= w < cells:
                    raise BoardError(f"edge {i}: cell {w} is outside 0..{cells - 1}")
            if u == v:
                raise BoardError(f"edge {i}: a loop on cell {u} is not allowed")
            adj[u].add(v)
            adj[v].add(u)
        if len(states) != cells:
            raise BoardError(f"expected {cells} states, got {len(states)}")
        return cls("graph", None, None, tuple(tuple(sorted(a)) for a in adj), tuple(states), mines)

    @classmethod
    def from_text(cls, text: str) -> "Board":
        """Read the canonical board text (docs/formats.md §1); see :mod:`minegraph.formats.text`.

        Raises
        ------
        FormatError
            naming line and column (1-based) and what was expected.
        """
        # The syntax module knows no Board, so this import closes no circle.
        from minegraph.formats.text_syntax import parse_text
        parsed = parse_text(text)
        return cls.grid(parsed.rows, parsed.cols, parsed.states, topology=parsed.topology,
                        mines=parsed.mines)

    def to_text(self) -> str:
        """Write the canonical board text (grids only)."""
        from minegraph.formats.text_syntax import write_text
        return write_text(self)

    # ----------------------------------------------------------------- validation
    def _validate(self) -> None:
        n = len(self.states)
        if len(self.neighbors) != n:
            raise BoardError(f"{len(self.neighbors)} neighbour lists for {n} cells")
        cap = MAX_DEGREE.get(self.topology, 12)
        for i, s in enumerate(self.states):
            if s >= 0:
                degree = len(self.neighbors[i])
                if s > cap or s > degree:
                    limit = f"its {degree} neighbours" if s <= cap else f"the {self.topology} maximum {cap}"
                    raise BoardError(f"cell {self.label(i)}: number {s} exceeds {limit}")
            elif s not in (HIDDEN, MINE, BLANK):
                raise BoardError(f"cell {self.label(i)}: unknown state {s}")
        if self.mines is not None:
            if not isinstance(self.mines, int) or isinstance(self.mines, bool):
                raise BoardError(f"total mine count must be an integer, got {self.mines!r}")
            if not 0 <= self.mines <= n:
                raise BoardError(f"total mine count {self.mines} is outside 0..{n} (the number of cells)")

    # ----------------------------------------------------------------- cells
    @property
    def size(self) -> int:
        """Number of cells."""
        return len(self.states)

    @property
    def is_grid(self) -> bool:
        return self.rows is not None

    def index(self, cell: Cell) -> int:
        """The internal index of a cell given as ``(row, col)`` (grids) or ``int`` (graphs)."""
        if isinstance(cell, tuple):
            if self.cols is None or self.rows is None:
                raise BoardError(f"cell {cell}: a graph board has no (row, col) cells")
            r, c = cell
            if not (0 <= r < self.rows and 0 <= c < self.cols):
                raise BoardError(f"cell {cell} is outside the {self.rows}x{self.cols} grid")
            return r * self.cols + c
        if not 0 <= cell < self.size:
            raise BoardError(f"cell {cell} is outside 0..{self.size - 1}")
        return cell

    def cell(self, index: int) -> Cell:
        """The API form of cell ``index``: ``(row, col)`` on grids, the index on graphs."""
        if self.cols is None:
            return index
        return divmod(index, self.cols)

    def label(self, index: int) -> str:
        """A human-readable name of a cell for messages."""
        if self.cols is None:
            return str(index)
        r, c = divmod(index, self.cols)
        return f"({r}, {c})"

    @property
    def hidden(self) -> list[int]:
        """Indices of hidden cells."""
        return [i for i, s in enumerate(self.states) if s == HIDDEN]

    @property
    def hidden_count(self) -> int:
        return sum(1 for s in self.states if s == HIDDEN)

    @property
    def known_mines(self) -> int:
        return sum(1 for s in self.states if s == MINE)

    def with_states(self, states: Sequence[int], mines: int | None | str = "keep") -> "Board":
        """A copy with other states (and optionally another total)."""
        total = self.mines if mines == "keep" else mines
        return Board(self.topology, self.rows, self.cols, self.neighbors, tuple(states),
                     total)  # type: ignore[arg-type]

    def _repr_svg_(self) -> str:
        """The board as SVG for notebooks (:func:`minegraph.formats.svg.repr_svg`)."""
        from minegraph.formats.svg import repr_svg
        return repr_svg(self)

    def __repr__(self) -> str:
        shape = f"{self.rows}x{self.cols}" if self.is_grid else f"{self.size} cells"
        return f"<Board {self.topology} {shape} hidden={self.hidden_count} mines={self.mines}>"

    def __str__(self) -> str:
        return self.to_text() if self.is_grid else repr(self)
