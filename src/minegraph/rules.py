"""The rules of the game, below everything that plays, generates or records games.

What the first click is guaranteed (:data:`RULES`), the standard sizes (:data:`SIZES`), how a
layout is drawn from a seed, and what uncovering a safe cell shows (:func:`flood_fill`), and
a layout's 3BV (:func:`three_bv`: the one implementation the game and the replay review share). The
game engine (:class:`minegraph.play.game.Game`), the no-guess generator
(:mod:`minegraph.generate.noguess`) and the test-position recipes (:mod:`minegraph.recipes`)
all draw and open layouts through these functions, so the same seed and first cell give the
same layout in each.

``classic``
    the first uncovered cell is never a mine (mines uniform over the other cells);
``modern``
    the first cell and its neighbours hold no mine, so the first click opens an area;
``any``
    nothing is guaranteed.

Examples
--------
>>> import random
>>> from minegraph.topology import grid_neighbors
>>> nbrs = grid_neighbors("square", 3, 3)
>>> layout = draw_layout(random.Random(1), kept_clear("modern", nbrs, 0), len(nbrs), 2)
>>> len(layout), layout.isdisjoint({0, 1, 3, 4})
(2, True)
"""

from __future__ import annotations

import random
from typing import Sequence

from minegraph.errors import GameError

__all__ = ["RULES", "SIZES", "kept_clear", "mine_candidates", "draw_layout", "check_fit",
           "cell_index", "flood_fill", "three_bv"]

#: Rule names: what the first uncovered cell is guaranteed.
RULES = ("classic", "modern", "any")

#: Standard sizes: name -> (rows, cols, mines). Expert is 16 rows of 30 columns.
SIZES: dict[str, tuple[int, int, int]] = {
    "beginner": (9, 9, 10),
    "beginner-8": (8, 8, 10),
    "intermediate": (16, 16, 40),
    "expert": (16, 30, 99),
}


def kept_clear(rules: str, neighbors: Sequence[Sequence[int]], first: int) -> set[int]:
    """The cells the rules keep free of mines for the first click ``first``: the cell itself
    under ``classic``, it and its neighbours under ``modern``, none under ``any``.

    Parameters
    ----------
    rules
        One of :data:`RULES`.
    neighbors
        The neighbour list of every cell.
    first
        The first cell uncovered (an index).

    Returns
    -------
    set of int
        The cells (indices) that hold no mine.

    Examples
    --------
    >>> from minegraph.topology import grid_neighbors
    >>> sorted(kept_clear("modern", grid_neighbors("square", 3, 3), 0))
    [0, 1, 3, 4]
    """
    if rules == "any":
        return set()
    return {first} if rules == "classic" else {first, *neighbors[first]}


def mine_candidates(size: int, kept: set[int]) -> list[int]:
    """The cells a layout draws its mines from, in order: every cell not kept clear.

    Parameters
    ----------
    size
        The number of cells.
    kept
        The cells kept clear (:func:`kept_clear`).

    Returns
    -------
    list of int
        The other cells, in increasing order.

    Examples
    --------
    >>> mine_candidates(5, {1, 2})
    [0, 3, 4]
    """
    return [i for i in range(size) if i not in kept]


def draw_layout(rng: random.Random, kept: set[int], size: int, mines: int) -> frozenset[int]:
    """``mines`` cells drawn uniformly from the cells outside ``kept``, advancing ``rng``.

    The one place layouts are drawn: ``frozenset(rng.sample(mine_candidates(size, kept),
    mines))``, so a seed names the same layout wherever it is used.

    Parameters
    ----------
    rng
        The random generator, advanced by the draw.
    kept
        The cells kept clear (:func:`kept_clear`).
    size
        The number of cells.
    mines
        The number of mines.

    Returns
    -------
    frozenset of int
        The mined cells.

    Raises
    ------
    GameError
        when the mines do not fit outside the cells kept clear.

    Examples
    --------
    >>> sorted(draw_layout(random.Random(0), {0}, 4, 3))
    [1, 2, 3]
    >>> draw_layout(random.Random(0), {0, 1}, 4, 3)
    Traceback (most recent call last):
    ...
    minegraph.errors.GameError: 3 mines do not fit outside the 2 cells kept clear around the first click (2 cells left)
    """
    candidates = mine_candidates(size, kept)
    if not 0 <= mines <= len(candidates):
        raise GameError(f"{mines} mines do not fit outside the {len(kept)} cells kept clear "
                        f"around the first click ({len(candidates)} cells left)")
    return frozenset(rng.sample(candidates, mines))


def check_fit(rules: str, neighbors: Sequence[Sequence[int]], mines: int) -> None:
    """Refuse a mine count that no first click leaves room for.

    Under ``modern`` the room depends on the first cell; this checks the best case (the cell
    with the fewest neighbours), and :func:`draw_layout` refuses a first cell that leaves too
    little.

    Parameters
    ----------
    rules
        One of :data:`RULES`.
    neighbors
        The neighbour list of every cell.
    mines
        The number of mines.

    Raises
    ------
    GameError
        for a negative count or more mines than the rules can place.

    Examples
    --------
    >>> from minegraph.topology import grid_neighbors
    >>> check_fit("modern", grid_neighbors("square", 3, 3), 5)
    >>> check_fit("modern", grid_neighbors("square", 3, 3), 6)
    Traceback (most recent call last):
    ...
    minegraph.errors.GameError: 6 mines do not fit: modern rules leave at most 5 of the 9 cells for mines
    """
    size = len(neighbors)
    kept = {"classic": 1, "any": 0}.get(rules)
    room = size - (kept if kept is not None else 1 + min((len(a) for a in neighbors), default=0))
    if not 0 <= mines <= room:
        raise GameError(f"{mines} mines do not fit: {rules} rules leave at most "
                        f"{max(room, 0)} of the {size} cells for mines")


def cell_index(cell: object, size: int, cols: int | None = None) -> int:
    """The index of ``cell``: an index, or ``(row, col)`` on a grid of ``cols`` columns.

    Parameters
    ----------
    cell
        An index, or ``(row, col)`` (a tuple or a list) when ``cols`` is given.
    size
        The number of cells.
    cols
        The grid's columns; ``None`` on a graph, where only indices are cells.

    Returns
    -------
    int
        The index, ``row * cols + col`` for a ``(row, col)`` pair.

    Raises
    ------
    GameError
        for a cell outside the board or of the wrong form.

    Examples
    --------
    >>> cell_index((1, 2), 12, 4), cell_index(5, 12)
    (6, 5)
    >>> cell_index((3, 0), 12, 4)
    Traceback (most recent call last):
    ...
    minegraph.errors.GameError: cell (3, 0) is outside the 3x4 grid
    """
    if isinstance(cell, (tuple, list)) and len(cell) == 2 and cols is not None \
            and all(isinstance(x, int) and not isinstance(x, bool) for x in cell):
        r, c = cell
        rows = size // cols
        if not (0 <= r < rows and 0 <= c < cols):
            raise GameError(f"cell {tuple(cell)} is outside the {rows}x{cols} grid")
        return int(r * cols + c)
    if isinstance(cell, int) and not isinstance(cell, bool):
        if not 0 <= cell < size:
            raise GameError(f"cell {cell} is outside 0..{size - 1}")
        return cell
    form = "an index or (row, col)" if cols is not None else "an index"
    raise GameError(f"expected a cell as {form}, got {cell!r}")


def flood_fill(neighbors: Sequence[Sequence[int]], mines: frozenset[int] | set[int],
               uncovered: set[int], cell: int,
               flags: frozenset[int] | set[int] = frozenset()) -> list[int]:
    """Uncover the safe ``cell`` and, from every uncovered 0, all its unflagged neighbours
    (as the game does, a flag stays on a cell even when a flood reaches it).

    Updates ``uncovered`` in place and returns the cells it added (in the order uncovered).

    Parameters
    ----------
    neighbors
        The neighbour list of every cell.
    mines
        The mined cells.
    uncovered
        The cells uncovered so far; updated in place.
    cell
        The safe cell to uncover.
    flags
        Flagged cells, which the flood leaves covered.

    Returns
    -------
    list of int
        The cells newly uncovered, in order (empty when ``cell`` was uncovered already).

    Examples
    --------
    >>> from minegraph.topology import grid_neighbors
    >>> seen: set[int] = set()
    >>> sorted(flood_fill(grid_neighbors("square", 3, 3), {0}, seen, 8))
    [1, 2, 3, 4, 5, 6, 7, 8]
    """
    if cell in uncovered:
        return []
    uncovered.add(cell)
    new = [cell]
    stack = [cell]
    while stack:
        v = stack.pop()
        around = neighbors[v]
        if any(w in mines for w in around):
            continue
        for w in around:
            if w not in uncovered and w not in mines and w not in flags:
                uncovered.add(w)
                new.append(w)
                stack.append(w)
    return new


def three_bv(neighbors: Sequence[Sequence[int]], layout: frozenset[int] | set[int],
             uncovered: frozenset[int] | set[int] = frozenset()) -> tuple[int, int]:
    """A layout's 3BV and how much of it the ``uncovered`` cells solved.

    3BV is the fewest clicks that uncover every safe cell: one per opening (a connected area
    of zeros, with its border) and one per safe cell next to no zero. An opening counts as
    solved when every one of its zeros is uncovered, any other safe cell when it is
    (ms_toollib's definition). In play the two differ only when a game ends part-way through
    a flood (a chord that hits a mine uncovers a zero whose opening is then left unfinished)
    or a zero is wrongly flagged; then the opening is not solved.

    Parameters
    ----------
    neighbors
        The neighbour list of every cell.
    layout
        The mined cells.
    uncovered
        The cells uncovered (for the solved part).

    Returns
    -------
    tuple of int
        ``(3BV, 3BV solved)``.

    Examples
    --------
    >>> from minegraph.topology import grid_neighbors
    >>> nbrs = grid_neighbors("square", 1, 5)      # 0 0 1 M 1
    >>> three_bv(nbrs, {3}), three_bv(nbrs, {3}, {4}), three_bv(nbrs, {3}, {0, 1, 2})
    ((2, 0), (2, 1), (2, 1))
    >>> three_bv(nbrs, {3}, {0, 2, 4})             # one zero of the opening still covered
    (2, 1)
    """
    size = len(neighbors)
    zero = [c not in layout and not any(q in layout for q in neighbors[c]) for c in range(size)]
    seen: set[int] = set()
    total = solved = 0
    for c in range(size):
        if zero[c] and c not in seen:
            area = flood_fill(neighbors, layout, seen, c)
            total += 1
            solved += all(q in uncovered for q in area if zero[q])
    for c in range(size):
        if c not in layout and c not in seen:
            total += 1
            solved += c in uncovered
    return total, solved
