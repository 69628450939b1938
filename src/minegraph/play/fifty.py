"""Long-term risk: 50/50s that may form, and the cells whose guess settles them early.

Two covered cells ``a`` and ``b`` become an unavoidable 50/50 when exactly one of them is a mine
and every cell that sees one but not the other (their *flank*) is a mine too: no number can
then ever tell them apart. Four mutually adjacent covered cells (a 2x2 box on the square grid)
become one when their mines lie on one of two "diagonals" and every cell that sees the
diagonals differently is a mine. While the flank is still covered, such a 50/50 is only
*potential*: :func:`potentials` finds those whose flank holds no number and at most a few cells
not yet known to be mines, and counts the completions in which each one is formed.

Two uses follow (the idea of a 50/50's influence is D. N. Hill's, from his Minesweeper
solvers; the counting here is exact, over the kernel's completions):

- a cell that is a mine *only* when it is part of a formed 50/50 (a *pseudo-50/50*) risks,
  when guessed, only games in which no play wins more than half of the layouts like it; so
  ``strong`` may guess it at once, while the number it shows can still help elsewhere
  (:func:`pseudo_fifty`). This is a heuristic: after the guess another ambiguity may remain,
  and on some positions another cell is better (the tests show one);
- the completions in which a cell is part of (or completes the flank of) a potential 50/50 are
  a risk that must be taken sooner or later: :func:`influence` is what a guess of the cell
  settles early, and ``strong`` credits part of it to the cell's score.

Examples
--------
>>> from minegraph import Board
>>> board = Board.from_text("mines: 1\\n##\\n11")   # nothing will ever tell the two apart
>>> [(p.mined, p.other, p.missing) for p in potentials(board, set())]
[((0,), (1,), ())]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Mapping

from minegraph.board import HIDDEN, MINE, Board

__all__ = ["Potential", "potentials", "influence", "pseudo_fifty"]

#: Flank cells not yet known to be mines that a potential 50/50 may have, at most: one for a
#: pair, two for a box (beyond that the 50/50 is unlikely and counting it costs an analysis).
PAIR_MISSING = 1
BOX_MISSING = 2

#: A potential 50/50 that independent cells would form in less than this share of the
#: completions is not counted (see :func:`potentials`).
MIN_SHARE = 0.01

#: A potential 50/50 formed in less than this share of the completions lends no influence to
#: the cells of its flank.
ENABLER_SHARE = 0.025


@dataclass(frozen=True)
class Potential:
    """A 50/50 that may form.

    Attributes
    ----------
    mined
        The cells that are mines in one of its two ways (``other`` the cells that are mines
        in the other way; each way is as likely as the other once formed).
    other
        The cells that are safe in the way ``mined`` (its other way's mines).
    missing
        The flank cells not yet known to be mines: all of them are mines when it forms.
    count
        The completions in which it is formed the way ``mined`` (filled in by
        :func:`potentials` when it is given a counter).
    """

    mined: tuple[int, ...]
    other: tuple[int, ...]
    missing: tuple[int, ...]
    count: int = 0

    @property
    def cells(self) -> tuple[int, ...]:
        """Its cells, both ways."""
        return self.mined + self.other


#: ``counter(mines, safe)``: the completions of the position in which every cell of ``mines``
#: is a mine and every cell of ``safe`` is safe.
Counter = Callable[[tuple[int, ...], tuple[int, ...]], int]


def potentials(board: Board, mines: Iterable[int], counter: Counter | None = None,
               mines_left: int | None = None, chance: Mapping[int, float] | None = None
               ) -> list[Potential]:
    """The potential 50/50s of ``board``: pairs with at most :data:`PAIR_MISSING` and boxes
    with at most :data:`BOX_MISSING` flank cells not known to be mines, no number in the
    flank, and (given ``counter``) formed in at least one completion.

    Parameters
    ----------
    board
        The position.
    mines
        Cells known to be mines (flags count as well).
    counter
        Counts the completions with given mines and safe cells; ``None``: leave ``count`` 0
        and keep every candidate.
    mines_left
        Mines not yet known; a 50/50 needing more is skipped.
    chance
        Each covered cell's mine probability: a 50/50 that would be formed in less than
        :data:`MIN_SHARE` of the completions if the cells were independent is not counted
        (counting costs an analysis or two; such a 50/50 weighs little anyway).

    Returns
    -------
    list of Potential
        Pairs first, then boxes, each once.
    """
    states, nbrs = board.states, board.neighbors
    known = set(mines) | {i for i, s in enumerate(states) if s == MINE}
    free = [i for i, s in enumerate(states) if s == HIDDEN and i not in known]
    free_mask = _mask(free)
    numbers = _mask(i for i, s in enumerate(states) if s >= 0)
    near = {i: _mask(nbrs[i]) for i in free}
    found: list[Potential] = []

    def add(mined: tuple[int, ...], other: tuple[int, ...], flank: int, limit: int) -> None:
        if flank & numbers:
            return                      # a number tells the two ways apart
        missing_mask = flank & free_mask
        if missing_mask.bit_count() > limit:
            return
        missing = tuple(_bits(missing_mask))
        if mines_left is not None and len(missing) + len(mined) > mines_left:
            return
        if chance is not None:
            estimate = 1.0
            for c in mined + missing:
                estimate *= chance.get(c, 1.0)
            for c in other:
                estimate *= 1.0 - chance.get(c, 0.0)
            if estimate < MIN_SHARE:
                return
        count = counter(missing + mined, other) if counter is not None else 0
        if counter is None or count > 0:
            found.append(Potential(mined, other, missing, count))

    for a in free:
        for b in _bits(near[a] & free_mask & ~((2 << a) - 1)):
            # the flank: the cells that see one of the two and not the other
            add((a,), (b,), (near[a] ^ near[b]) & ~(1 << a | 1 << b), PAIR_MISSING)
    for a in free:
        later = near[a] & free_mask & ~((2 << a) - 1)
        for b in _bits(later):
            for c in _bits(later & near[b] & ~((2 << b) - 1)):
                for d in _bits(later & near[b] & near[c] & ~((2 << c) - 1)):
                    inside = 1 << a | 1 << b | 1 << c | 1 << d
                    # the three ways to split four cells in two pairs; a cell tells a split
                    # apart when it sees more cells of one pair than of the other
                    for (p, q), (r, t) in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
                        add((p, q), (r, t), _unequal(near[p], near[q], near[r], near[t]) & ~inside,
                            BOX_MISSING)
    return found


def _mask(cells: Iterable[int]) -> int:
    out = 0
    for c in cells:
        out |= 1 << c
    return out


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _unequal(p1: int, p2: int, q1: int, q2: int) -> int:
    """The cells (a mask) in more of the neighbourhoods ``p1``, ``p2`` than of ``q1``,
    ``q2`` or fewer."""
    both_p, one_p = p1 & p2, p1 ^ p2
    both_q, one_q = q1 & q2, q1 ^ q2
    seen = p1 | p2 | q1 | q2
    none_p, none_q = seen & ~(p1 | p2), seen & ~(q1 | q2)
    return seen & ~((both_p & both_q) | (one_p & one_q) | (none_p & none_q))


def influence(found: list[Potential], total: int) -> dict[int, int]:
    """The completions in which each cell is in a formed 50/50 or completes one's flank.

    A cell in several pairs adds their counts; of the boxes it is in, the largest counts.
    A flank cell gains the count of every 50/50 formed in at least :data:`ENABLER_SHARE` of
    the ``total`` completions.

    Parameters
    ----------
    found
        From :func:`potentials` with a counter.
    total
        The position's completions.

    Returns
    -------
    dict
        ``cell -> completions`` (cells with none are absent).

    Examples
    --------
    >>> influence([Potential((0,), (1,), (5,), 3)], 10)
    {0: 3, 1: 3, 5: 3}
    """
    pairs: dict[int, int] = {}
    boxes: dict[int, int] = {}
    enablers: dict[int, int] = {}
    for p in found:
        into = pairs if len(p.mined) == 1 else boxes
        for c in p.cells:
            into[c] = into.get(c, 0) + p.count if into is pairs else max(into.get(c, 0), p.count)
        if p.count > ENABLER_SHARE * total:
            for c in p.missing:
                enablers[c] = enablers.get(c, 0) + p.count
    out: dict[int, int] = {}
    for part in (pairs, boxes, enablers):
        for c, n in part.items():
            out[c] = out.get(c, 0) + n
    return out


def pseudo_fifty(found: list[Potential], mine_count: dict[int, int]) -> list[int]:
    """The cells that are mines only in completions where they are in a formed 50/50.

    Parameters
    ----------
    found
        From :func:`potentials` with a counter.
    mine_count
        The completions in which each covered cell is a mine.

    Returns
    -------
    list of int
        Such cells, lowest first.

    Examples
    --------
    >>> pseudo_fifty([Potential((0,), (1,), (), 4)], {0: 4, 1: 6})
    [0]
    """
    out: set[int] = set()
    for p in found:
        # Either way is as common as the other once formed (swapping the ways changes no
        # number), so a cell of either way is a mine only in a formed 50/50 when its count
        # equals the way's.
        out.update(c for c in p.cells if p.count == mine_count.get(c))
    return sorted(out)
