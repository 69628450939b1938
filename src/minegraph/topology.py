"""Neighbourhoods of the grid topologies.

Every grid stores cell ``(r, c)`` at index ``r * cols + c``. A topology maps a grid size to a
tuple of neighbour tuples, one per cell, sorted and without repeats or the cell itself.

- ``square``: the 8 king-move neighbours inside the grid (Hoder 2007; the usual game).
- ``torus``: the same 8 with rows and columns taken modulo the grid size.
- ``triangle``: the triangle tiling where cells sharing a vertex are neighbours, 12 in the
  interior, with the offsets of German & Lakshtanov (2010): ``(r, c±1)``, ``(r, c±2)``,
  ``(r±1, c)``, ``(r±1, c±1)`` and ``(r+s, c±2)`` with ``s = +1`` if ``r+c`` is even, else ``-1``.
- ``hex``: "odd-r" offset rows (odd rows shifted half a cell right), 6 in the interior.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple, Sequence

from minegraph.errors import BoardError

__all__ = ["TOPOLOGIES", "MAX_DEGREE", "grid_neighbors", "neighbor_offsets", "DegreeLimits", "degree_limits"]

_KING = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def _triangle(s: int) -> tuple[tuple[int, int], ...]:
    return ((0, -1), (0, 1), (0, -2), (0, 2), (-1, 0), (1, 0),
            (-1, -1), (-1, 1), (1, -1), (1, 1), (s, -2), (s, 2))


#: Each topology's cells fall in classes, by ``None`` (one class), ``"sum"`` (``(r + c) % 2``)
#: or ``"row"`` (``r % 2``); the offsets of each class, in class order. The one definition of
#: the grids (the kernel's ``grid_table`` is handed these).
_CLASSES: dict[str, tuple[str | None, tuple[tuple[tuple[int, int], ...], ...]]] = {
    "square": (None, (_KING,)),
    "torus": (None, (_KING,)),
    # The triangle's two far cells sit on the side its point faces.
    "triangle": ("sum", (_triangle(1), _triangle(-1))),
    "hex": ("row", (((0, -1), (0, 1), (-1, -1), (-1, 0), (1, -1), (1, 0)),
                    ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, 1)))),
}


def _offsets(topology: str, r: int, c: int) -> tuple[tuple[int, int], ...]:
    parity, classes = _CLASSES[topology]
    k = (r + c) % 2 if parity == "sum" else r % 2 if parity == "row" else 0
    return classes[k]


#: The grid topologies, by name.
TOPOLOGIES: tuple[str, ...] = ("square", "triangle", "hex", "torus")

#: The largest number of neighbours a cell can have in each topology.
MAX_DEGREE: dict[str, int] = {"square": 8, "torus": 8, "triangle": 12, "hex": 6}


def neighbor_offsets(topology: str, r: int, c: int) -> list[tuple[int, int]]:
    """Return the (dr, dc) offsets of cell ``(r, c)``'s neighbours before clipping or wrapping.

    Parameters
    ----------
    topology : str
        One of :data:`TOPOLOGIES`.
    r, c : int
        The cell.

    Returns
    -------
    list of (int, int)
        The offsets.

    Raises
    ------
    BoardError
        when ``topology`` is not known.
    """
    try:
        return list(_offsets(topology, r, c))
    except KeyError:
        raise BoardError(f"unknown topology {topology!r}; expected one of "
                         f"{', '.join(TOPOLOGIES)}") from None


@lru_cache(maxsize=64)
def grid_neighbors(topology: str, rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Return the neighbour lists of every cell of a ``rows`` x ``cols`` grid.

    Cost: linear in the number of cells; results are cached per size.

    Examples
    --------
    >>> grid_neighbors("square", 2, 2)
    ((1, 2, 3), (0, 2, 3), (0, 1, 3), (0, 1, 2))
    >>> len(grid_neighbors("triangle", 5, 5)[12])
    12
    >>> grid_neighbors("torus", 3, 3)[0]
    (1, 2, 3, 4, 5, 6, 7, 8)
    """
    if topology not in _CLASSES:
        raise BoardError(f"unknown topology {topology!r}; expected one of {', '.join(TOPOLOGIES)}")
    from minegraph import kernel     # (here: the kernel module imports the board, which imports this)
    native = kernel.module()
    if native is not None:
        parity, classes = _CLASSES[topology]
        code = {None: native.PARITY_NONE, "sum": native.PARITY_SUM, "row": native.PARITY_ROW}[parity]
        table: tuple[tuple[int, ...], ...] = native.grid_table(rows, cols, topology == "torus",
                                                               code, classes)
        return table
    return _grid_neighbors(topology, rows, cols)


def _grid_neighbors(topology: str, rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """:func:`grid_neighbors` in Python (the reference the kernel's ``grid_table`` is tested
    against, and the pure-Python path)."""
    wrap = topology == "torus"
    result = []
    # One int object per cell, shared by every list it appears in: on a grid of a million
    # cells, fresh objects per entry would take 250 MB, a third of a whole analysis's memory.
    cell = list(range(rows * cols))
    for r in range(rows):
        for c in range(cols):
            here = r * cols + c
            found = set()
            for dr, dc in _offsets(topology, r, c):
                rr, cc = r + dr, c + dc
                if wrap:
                    rr %= rows
                    cc %= cols
                elif not (0 <= rr < rows and 0 <= cc < cols):
                    continue
                other = rr * cols + cc
                if other != here:
                    found.add(cell[other])
            result.append(tuple(sorted(found)))
    return tuple(result)


#: What numbers each neighbour table allows, by table (tables are shared by the boards of a
#: shape), kept with the table so that its identity stays its own.
_LIMITS: dict[int, tuple[tuple[tuple[int, ...], ...], "DegreeLimits"]] = {}


class DegreeLimits(NamedTuple):
    """The largest degree of a neighbour table, and the cells of smaller degree with theirs
    (on a grid: the border): a number is within its cell's reach when it is at most
    ``largest`` and, on those cells, at most their own degree.

    Parameters
    ----------
    largest : int
        The largest degree.
    cells : tuple of int
        The cells of smaller degree.
    degrees : tuple of int
        Their degrees.
    """

    largest: int
    cells: tuple[int, ...]
    degrees: tuple[int, ...]

    def first_over(self, states: Sequence[int]) -> int | None:
        """The first cell whose state exceeds its degree, or ``None``: at C speed but for the
        cells of smaller degree (on a grid, the border)."""
        if not states:
            return None
        if max(states) <= self.largest:
            over = [c for c, d in zip(self.cells, self.degrees) if states[c] > d]
            return min(over) if over else None
        lookup = dict(zip(self.cells, self.degrees))
        return next(i for i, s in enumerate(states) if s > lookup.get(i, self.largest))


def degree_limits(neighbors: tuple[tuple[int, ...], ...]) -> DegreeLimits:
    """:class:`DegreeLimits` of a neighbour table, remembered per table.

    >>> limits = degree_limits(grid_neighbors("square", 3, 3))
    >>> limits.largest, limits.cells
    (8, (0, 1, 2, 3, 5, 6, 7, 8))
    >>> limits.first_over([0, 5, 0, 0, 8, 0, 0, 0, 0]), limits.first_over([3, 5, 0, 0, 8, 6, 0, 0, 0])
    (None, 5)

    Parameters
    ----------
    neighbors : tuple of tuple of int
        The neighbour table.

    Returns
    -------
    DegreeLimits
        Its limits.
    """
    entry = _LIMITS.get(id(neighbors))
    if entry is not None and entry[0] is neighbors:
        return entry[1]
    found = tuple(map(len, neighbors))
    largest = max(found, default=0)
    cells = tuple(i for i, d in enumerate(found) if d < largest)
    limits = DegreeLimits(largest, cells, tuple(found[i] for i in cells))
    if len(_LIMITS) >= 64:
        _LIMITS.clear()
    _LIMITS[id(neighbors)] = (neighbors, limits)
    return limits
