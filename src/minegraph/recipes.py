"""Test-position recipes: deterministic mine layouts and reproducible mid-game positions.

Used to build corpora for tests and benchmarks (the game itself is :mod:`minegraph.play`).

Every function draws its randomness from ``random.Random(seed)`` and nothing else, so a seed
names one position for good (on a given Python's :mod:`random`, whose ``sample``, ``randrange``
and ``uniform`` have been stable since 3.2).

Cells are the board's internal indices ``r * cols + c``; a first-click cell may also be given as
``(row, col)``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from minegraph.board import HIDDEN, Board
from minegraph.errors import BoardError
from minegraph.rules import flood_fill
from minegraph.topology import grid_neighbors

__all__ = ["random_layout", "midgame", "midgame_position", "Midgame", "checkerboard_opening",
           "MIN_TARGET", "MAX_TARGET"]

#: The uncovered fraction of the safe cells of a mid-game position is drawn uniformly from
#: ``[MIN_TARGET, MAX_TARGET]``.
MIN_TARGET = 0.1
MAX_TARGET = 0.8


def _index(cell: int | tuple[int, int], rows: int, cols: int) -> int:
    if isinstance(cell, tuple):
        r, c = cell
        if not (0 <= r < rows and 0 <= c < cols):
            raise BoardError(f"cell {cell} is outside the {rows}x{cols} grid")
        return r * cols + c
    if not 0 <= cell < rows * cols:
        raise BoardError(f"cell {cell} is outside 0..{rows * cols - 1}")
    return cell


def random_layout(rows: int, cols: int, mines: int, seed: int,
                  safe: int | tuple[int, int] | None = None, *,
                  topology: str = "square") -> frozenset[int]:
    """Place ``mines`` mines uniformly at random, optionally keeping a first click's area clear.

    Parameters
    ----------
    rows, cols : int
        Grid size.
    mines : int
        Number of mines to place.
    seed : int
        The only source of randomness (``random.Random(seed)``).
    safe : int or (int, int), optional
        A first-click cell; it and its neighbours (in ``topology``) get no mine, so clicking it
        uncovers a 0 and opens a region. Every layout avoiding that area is equally likely.
    topology : str
        Grid topology naming the neighbours of ``safe`` (see :mod:`minegraph.topology`).

    Returns
    -------
    frozenset of int
        The mined cells, as indices ``r * cols + c``.

    Raises
    ------
    BoardError
        if the mines do not fit in the cells left free.

    Examples
    --------
    >>> layout = random_layout(9, 9, 10, seed=1, safe=(4, 4))
    >>> len(layout), 40 in layout, 30 in layout
    (10, False, False)
    >>> layout == random_layout(9, 9, 10, seed=1, safe=(4, 4))
    True
    """
    if rows < 1 or cols < 1:
        raise BoardError(f"a grid needs at least one row and column, got {rows}x{cols}")
    n = rows * cols
    excluded: set[int] = set()
    if safe is not None:
        click = _index(safe, rows, cols)
        excluded = {click, *grid_neighbors(topology, rows, cols)[click]}
    free = n - len(excluded)
    if not 0 <= mines <= free:
        where = f" outside the {len(excluded)} cells around the first click" if excluded else ""
        raise BoardError(f"cannot place {mines} mines in the {free} cells{where} of a {rows}x{cols} grid")
    candidates = [i for i in range(n) if i not in excluded]
    return frozenset(random.Random(seed).sample(candidates, mines))


@dataclass(frozen=True)
class Midgame:
    """A mid-game position together with how it was made.

    Attributes
    ----------
    board : Board
        The position: uncovered cells show their numbers, everything else (mines included) is
        hidden, no flags; ``board.mines`` is the total.
    layout : frozenset of int
        The true mined cells.
    revealed : frozenset of int
        The uncovered cells.
    click : int
        The first click (its neighbourhood was kept free of mines).
    target : float
        The fraction of safe cells the play aimed to uncover, drawn in ``[0.1, 0.8]``.
    """

    board: Board
    layout: frozenset[int]
    revealed: frozenset[int]
    click: int
    target: float


class _Frontier:
    """A set with O(1) add, discard and uniform random choice, deterministic in its order."""

    def __init__(self) -> None:
        self.items: list[int] = []
        self.where: dict[int, int] = {}

    def add(self, x: int) -> None:
        if x not in self.where:
            self.where[x] = len(self.items)
            self.items.append(x)

    def discard(self, x: int) -> None:
        i = self.where.pop(x, None)
        if i is None:
            return
        last = self.items.pop()
        if i < len(self.items):
            self.items[i] = last
            self.where[last] = i

    def choice(self, rng: random.Random) -> int:
        return self.items[rng.randrange(len(self.items))]

    def __len__(self) -> int:
        return len(self.items)


def midgame(rows: int, cols: int, mines: int, seed: int, topology: str = "square", *,
            clicks: bool = False) -> Midgame:
    """Play a random game to a random point and return the position and its layout.

    The recipe, all from ``random.Random(seed)``: draw a target fraction ``t`` uniformly in
    ``[0.1, 0.8]``; click a uniformly random cell, with the mines laid uniformly outside it
    and its neighbours, so the click opens a region of zeros; then, while fewer than ``t`` of
    the safe cells are uncovered, uncover a uniformly chosen safe hidden cell adjacent to the
    uncovered region (flood-filling zeros). If no safe hidden cell touches the region (it is
    walled in by mines), a uniformly chosen safe hidden cell anywhere is uncovered instead.
    Mines are never flagged. With ``clicks`` every later cell is a uniformly chosen safe hidden
    cell of the whole board (many separate clicks: more, smaller components).

    Parameters
    ----------
    rows, cols, mines : int
        Grid size and total number of mines.
    seed : int
        The only source of randomness.
    topology : str
        A grid topology of :mod:`minegraph.topology`.
    clicks : bool
        Uncover anywhere, not next to the uncovered region.

    Returns
    -------
    Midgame

    Raises
    ------
    BoardError
        if the mines do not fit outside the first click's neighbourhood.

    Examples
    --------
    >>> m = midgame(16, 30, 99, seed=7)
    >>> m.board.rows, m.board.cols, m.board.mines, len(m.layout)
    (16, 30, 99, 99)
    >>> all(m.board.states[i] == sum(j in m.layout for j in m.board.neighbors[i])
    ...     for i in m.revealed)
    True
    >>> len(m.revealed) >= m.target * (16 * 30 - 99)
    True
    """
    rng = random.Random(seed)
    n = rows * cols
    if rows < 1 or cols < 1:
        raise BoardError(f"a grid needs at least one row and column, got {rows}x{cols}")
    target = rng.uniform(MIN_TARGET, MAX_TARGET)
    click = rng.randrange(n)
    layout = random_layout(rows, cols, mines, rng.getrandbits(64), safe=click, topology=topology)
    neighbors = grid_neighbors(topology, rows, cols)
    goal = target * (n - mines)

    revealed: set[int] = set()
    frontier = _Frontier()

    def uncover(cell: int) -> None:
        for v in sorted(flood_fill(neighbors, layout, revealed, cell)):
            frontier.discard(v)
            for w in neighbors[v]:
                if w not in revealed and w not in layout:
                    frontier.add(w)

    uncover(click)
    while len(revealed) < goal:
        if len(frontier) and not clicks:
            uncover(frontier.choice(rng))
        else:
            rest = [i for i in range(n) if i not in revealed and i not in layout]
            uncover(rest[rng.randrange(len(rest))])

    states = [HIDDEN] * n
    for v in revealed:
        states[v] = sum(1 for w in neighbors[v] if w in layout)
    board = Board.grid(rows, cols, states, topology=topology, mines=mines)
    return Midgame(board, layout, frozenset(revealed), click, target)


def midgame_position(rows: int, cols: int, mines: int, seed: int,
                     topology: str = "square") -> Board:
    """The board of :func:`midgame` (same arguments): a reproducible mid-game position.

    Parameters
    ----------
    rows, cols : int
        The grid's size.
    mines : int
        The mines.
    seed : int
        The random seed.
    topology : str
        The grid's topology.

    Returns
    -------
    Board
        The position.

    Examples
    --------
    >>> b = midgame_position(16, 30, 99, seed=0)
    >>> b == midgame_position(16, 30, 99, seed=0), b.mines, b.known_mines
    (True, 99, 0)
    >>> 0 < b.hidden_count < 16 * 30
    True
    """
    return midgame(rows, cols, mines, seed, topology).board


def checkerboard_opening(rows: int, cols: int, density: float, seed: int, *, total: bool) -> Board:
    """German & Lakshtanov's opening: each cell is a mine with probability ``density``; the
    mine-free cells with ``r + c`` even show their numbers, every other cell is hidden.

    With ``total`` the board carries the layout's mine count. Dense clue regions of growing
    width: the hard family for exact counting.

    Parameters
    ----------
    rows, cols : int
        The grid's size.
    density : float
        The probability that a cell is a mine.
    seed : int
        The random seed.
    total : bool
        Whether the board states its total mine count.

    Returns
    -------
    Board
        The position.

    Examples
    --------
    >>> b = checkerboard_opening(4, 4, 0.3, seed=1, total=True)
    >>> all(s == HIDDEN for i, s in enumerate(b.states) if (i // 4 + i % 4) % 2)
    True
    >>> b == checkerboard_opening(4, 4, 0.3, seed=1, total=True)
    True
    """
    rng = random.Random(seed)
    nbrs = grid_neighbors("square", rows, cols)
    layout = [rng.random() < density for _ in range(rows * cols)]
    states = [sum(layout[q] for q in nbrs[i]) if (i // cols + i % cols) % 2 == 0 and not layout[i]
              else HIDDEN for i in range(rows * cols)]
    return Board.grid(rows, cols, states, mines=sum(layout) if total else None)
