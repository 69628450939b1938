"""Repairing a layout where the no-guess player gets stuck (:mod:`minegraph.generate.noguess`).

Drawing layouts until one is solved (the filter method) stops working as the density rises:
on Expert (16×30) with more than about 110 mines almost no layout is solved from the first
click. Repair instead keeps one layout and changes it where the player is stuck:

1. play the layout from the first click with the deduction-only player
   (:class:`~minegraph.generate.player.DeductionPlayer`) until it stops;
2. take the *edge* of the stuck position: the hidden cells it could not decide next to an
   uncovered number; and the *inside*: the other undecided hidden cells;
3. pick an edge cell at random and the edge cells among it and its neighbours (a *group*),
   and either *clear* the group (move its mines to random free cells of the inside) or *fill*
   it (move random mines of the inside into its free cells), chosen at random among the moves
   that fit; when the inside cannot take them, the mines move to or from the rest of the edge;
4. play the changed layout again from the first click, and so on until the player solves it.

Only undecided hidden cells change, never a cell the rules keep clear, and the mine count
stays: the first click keeps its guarantee. Cleared groups open the board where it was stuck
(their numbers fall); filled groups make numbers that equal their hidden cells. The layouts
that come out are solved by the player but are not drawn uniformly among the solvable ones.

Examples
--------
>>> import random
>>> from minegraph.board import HIDDEN, Board
>>> from minegraph.generate.player import DeductionPlayer
>>> player = DeductionPlayer(Board.grid(9, 9, [HIDDEN] * 81, mines=25), "search")
>>> rng = random.Random(7)
>>> drawn = frozenset(rng.sample([c for c in range(81) if c != 40], 25))
>>> player.play(drawn, 40) is None          # stuck: a guess needed
True
>>> layout, changes = repair(player, drawn, 40, frozenset({40}), rng, 500)
>>> changes, len(layout), player.play(layout, 40) is not None
(4, 25, True)
"""

from __future__ import annotations

import random
from typing import AbstractSet, Sequence

from minegraph.board import HIDDEN, MINE
from minegraph.generate.player import DeductionPlayer

__all__ = ["repair", "perturb", "PATIENCE"]

#: Changes in a row that decide no more cells before :func:`repair` gives a layout up.
PATIENCE = 30


def perturb(neighbors: Sequence[Sequence[int]], layout: set[int], states: Sequence[int],
            kept: AbstractSet[int], rng: random.Random) -> int:
    """Move mines of ``layout`` (in place) around a random undecided cell of the stuck
    position ``states``; the number of mines moved (0 when nothing could move).

    Parameters
    ----------
    neighbors
        The neighbour list of every cell.
    layout
        The mined cells, changed in place (same count; never a cell of ``kept``).
    states
        The stuck position: ``HIDDEN`` for the undecided cells, ``MINE`` for decided mines,
        numbers for uncovered cells.
    kept
        The cells the rules keep clear.
    rng
        The random source.

    Returns
    -------
    int
        The mines moved.

    Examples
    --------
    >>> import random
    >>> from minegraph.board import HIDDEN
    >>> from minegraph.topology import grid_neighbors
    >>> nbrs = grid_neighbors("square", 1, 4)
    >>> layout = {1}
    >>> perturb(nbrs, layout, [1, HIDDEN, HIDDEN, HIDDEN], frozenset({0}), random.Random(0))
    1
    >>> layout
    {3}
    """
    hidden = [i for i, s in enumerate(states) if s == HIDDEN and i not in kept]
    if not hidden:
        return 0
    edge = [i for i in hidden if any(states[q] >= 0 for q in neighbors[i])]
    if not edge:        # walled in by decided mines (e.g. a first click's 3 in a corner)
        edge = [i for i in hidden if any(states[q] == MINE for q in neighbors[i])] or hidden
    on_edge = set(edge)
    inside = [i for i in hidden if i not in on_edge]
    centre = rng.choice(edge)
    # The group: the centre's covered neighbours, decided mines too (a wall of them is
    # what keeps a stuck spot closed; the layout is played again from the first click).
    group = [q for q in (centre, *neighbors[centre])
             if states[q] < 0 and q not in kept and (q in on_edge or states[q] == MINE)]
    in_group = set(group)
    full = [q for q in group if q in layout]
    empty = [q for q in group if q not in layout]
    for pool in (inside, [q for q in edge if q not in in_group]):
        pool_mines = [q for q in pool if q in layout]
        pool_free = [q for q in pool if q not in layout]
        moves = []
        if full and len(pool_free) >= len(full):
            moves.append((full, rng.sample(pool_free, len(full))))     # clear the group
        if empty and len(pool_mines) >= len(empty):
            moves.append((rng.sample(pool_mines, len(empty)), empty))  # fill it
        if moves:
            out, into = rng.choice(moves)
            layout.difference_update(out)
            layout.update(into)
            return len(out)
    return 0


def repair(player: DeductionPlayer, layout: frozenset[int], first: int, kept: AbstractSet[int],
           rng: random.Random, max_moves: int,
           patience: int = PATIENCE) -> tuple[frozenset[int], int] | None:
    """Change ``layout`` where ``player`` gets stuck until it solves it from ``first``.

    Parameters
    ----------
    player
        The deduction-only player of the board (its template gives the shape and the total).
    layout
        The starting layout (no mine on ``first`` nor in ``kept``).
    first
        The first cell.
    kept
        The cells the rules keep clear (``first`` among them).
    rng
        The random source of the moves.
    max_moves
        Changes to try before giving up.
    patience
        Changes in a row that may add nothing to the cells the player decides; one more and
        the layout is given up (``None``). :data:`PATIENCE` by default.

    Returns
    -------
    tuple of (frozenset of int, int) or None
        The solved layout and the changes made (0: it was solved as drawn), or ``None`` when
        ``max_moves`` changes did not make it solvable or nothing could move.

    Examples
    --------
    >>> import random
    >>> from minegraph.board import HIDDEN, Board
    >>> from minegraph.generate.player import DeductionPlayer
    >>> player = DeductionPlayer(Board.grid(9, 9, [HIDDEN] * 81, mines=25), "search")
    >>> rng = random.Random(5)
    >>> drawn = frozenset(rng.sample([c for c in range(81) if c != 40], 25))
    >>> layout, changes = repair(player, drawn, 40, frozenset({40}), rng, 500)
    >>> changes, len(layout), 40 in layout
    (7, 25, False)
    >>> rng = random.Random(0)      # this one is given up: 30 changes in a row gain nothing
    >>> drawn = frozenset(rng.sample([c for c in range(81) if c != 40], 25))
    >>> print(repair(player, drawn, 40, frozenset({40}), rng, 500))
    None
    """
    current = set(layout)
    states = player.stuck(layout, first)
    if states is None:
        return layout, 0
    # Progress: the cells the player decided. A change that loses progress is undone, so the
    # search climbs (sideways moves are kept: they let it leave a stuck spot).
    progress = _decided(states)
    stalled = 0
    for moves in range(1, max_moves + 1):
        before = set(current)
        if not perturb(player.neighbors, current, states, kept, rng):
            return None
        tried = player.stuck(frozenset(current), first)
        if tried is None:
            return frozenset(current), moves
        now = _decided(tried)
        if now > progress:
            stalled = 0
        else:
            stalled += 1
            if stalled > patience:
                return None
        if now >= progress:
            states, progress = tried, now
        else:
            current = before
    return None


def _decided(states: Sequence[int]) -> int:
    return sum(1 for s in states if s != HIDDEN)
