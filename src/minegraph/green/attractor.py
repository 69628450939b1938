"""Vectorised building blocks: CSR slicing, per-field choice of a successor, and attractors.

An *attractor* ``Attr_p(T)`` is the set of fields from which player ``p`` can force the token
into ``T`` (the task's ``Wymuś(X)`` is Ania's attractor). It is computed here level by level,
each level one batch of numpy operations over the in-edges of the fields attracted at the level
before, so the work is O(edges into the attractor) plus O(number of levels) numpy calls — this is
what makes the solvers fast in Python, where a loop over every edge would not be.
"""

from __future__ import annotations

import numpy as np

from minegraph.green.game import GreenGame

__all__ = ["gather", "pick_successor", "attractor", "Attractor", "distinct"]


def gather(ptr: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions of the CSR entries of ``rows``, and for each position the index of its row.

    O(entries returned). Empty rows are allowed.

    Parameters
    ----------
    ptr : numpy.ndarray
        The CSR row pointers.
    rows : numpy.ndarray
        The rows wanted.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        The entries' positions and their rows' indices in ``rows``.

    Examples
    --------
    >>> ptr = np.array([0, 2, 2, 5])
    >>> pos, row = gather(ptr, np.array([2, 0]))
    >>> pos.tolist(), row.tolist()
    ([2, 3, 4, 0, 1], [0, 0, 0, 1, 1])
    """
    starts = ptr[rows]
    lens = ptr[rows + 1] - starts
    total = int(lens.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    offsets = np.cumsum(lens) - lens
    pos = np.repeat(starts - offsets, lens) + np.arange(total, dtype=np.int64)
    row = np.repeat(np.arange(rows.shape[0], dtype=np.int64), lens)
    return pos, row


def pick_successor(game: GreenGame, rows: np.ndarray, score: np.ndarray) -> np.ndarray:
    """For each field in ``rows``, the successor with the smallest ``score`` (first on ties).

    ``score`` is indexed by field. O(out-edges of ``rows``). Every field has a successor, so
    every row gets one.

    Parameters
    ----------
    game : GreenGame
        The game.
    rows : numpy.ndarray
        The fields.
    score : numpy.ndarray
        A score per field.

    Returns
    -------
    numpy.ndarray
        The chosen successor of each field.

    Examples
    --------
    >>> g = GreenGame.from_successors([0, 1, 1], [0, 0, 0], [[1, 2], [0], [0]])
    >>> pick_successor(g, np.array([0]), np.array([0, 5, 3])).tolist()
    [2]
    """
    if rows.size == 0:
        return np.zeros(0, dtype=np.int64)
    pos, row = gather(game.succ_ptr, rows)
    targets = game.succ[pos]
    vals = score[targets]
    lens = game.succ_ptr[rows + 1] - game.succ_ptr[rows]
    seg_start = np.cumsum(lens) - lens
    best = np.minimum.reduceat(vals, seg_start)
    hit = np.flatnonzero(vals == np.repeat(best, lens))
    _, first = np.unique(row[hit], return_index=True)
    found: np.ndarray = targets[hit[first]]
    return found


class Attractor:
    """Result of :func:`attractor`: membership, the level each field joined, and the moves.

    Attributes
    ----------
    inside : numpy.ndarray of bool
    rank : numpy.ndarray of int64
        0 for the target, ``r`` for fields attracted at level ``r``, -1 outside.
    via : numpy.ndarray of int64
        For the attracting player's fields attracted at level >= 1, a successor of lower rank;
        -1 elsewhere.
    scanned : int
        In-edges looked at (the work done), for the benchmarks.

    Parameters
    ----------
    inside : numpy.ndarray
        A boolean mask of the attractor.
    rank : numpy.ndarray
        The level at which each field joined.
    via : numpy.ndarray
        The attracting move of each field.
    scanned : int
        The moves looked at.
    """

    __slots__ = ("inside", "rank", "via", "scanned")

    def __init__(self, inside: np.ndarray, rank: np.ndarray, via: np.ndarray, scanned: int):
        self.inside = inside
        self.rank = rank
        self.via = via
        self.scanned = scanned


def attractor(game: GreenGame, target: np.ndarray, player: int,
              alive: np.ndarray | None = None, counts: np.ndarray | None = None,
              moves: bool = True) -> Attractor:
    """Player ``player``'s attractor to ``target`` in the subgame of the ``alive`` fields.

    ``counts[v]``, if given, must be the number of successors of ``v`` inside ``alive`` (the
    solvers keep it up to date to avoid recounting); otherwise it is computed from the out-edges
    of the alive fields. With ``moves=False`` the attracting player's moves (``via``) are not
    recorded, which saves work when only the set is wanted. Cost O(n + edges into the attractor
    + out-edges of alive fields when ``counts`` is computed here), and O(levels) numpy calls.

    Parameters
    ----------
    game : GreenGame
        The game.
    target : numpy.ndarray
        A boolean mask of the target fields.
    player : int
        The attracting player (:data:`~minegraph.green.game.ANIA` or ``BOLEK``).
    alive : numpy.ndarray, optional
        A mask of the subgame's fields (default: all).
    counts : numpy.ndarray, optional
        The number of successors of each field inside ``alive`` (computed when not given).
    moves : bool
        Whether to record the attracting player's moves (``via``).

    Returns
    -------
    Attractor
        The attractor.

    Examples
    --------
    Ania (field 0) can move to the green field 1; Bolek (field 2) can escape to field 3.

    >>> g = GreenGame.from_successors([0, 1, 1, 0], [0, 1, 0, 0],
    ...                               [[1, 2], [0], [0, 3], [2]])
    >>> a = attractor(g, g.green.copy(), 0)
    >>> a.inside.tolist(), a.rank.tolist(), a.via.tolist()
    ([True, True, False, False], [1, 0, -1, -1], [1, -1, -1, -1])
    """
    n = game.n
    owner = game.owner
    if alive is None:
        alive = np.ones(n, dtype=bool)
        if counts is None:
            counts = np.diff(game.succ_ptr)
    elif counts is None:
        rows = np.flatnonzero(alive & (owner != player))
        counts = np.zeros(n, dtype=np.int64)
        if rows.size:
            pos, row = gather(game.succ_ptr, rows)
            counts[rows] = np.bincount(row, weights=alive[game.succ[pos]],
                                       minlength=rows.size).astype(np.int64)
    remaining = counts.astype(np.int64, copy=True)
    inside = target & alive
    rank = np.full(n, -1, dtype=np.int64)
    rank[inside] = 0
    via = np.full(n, -1, dtype=np.int64)
    stamp = np.empty(n, dtype=np.int64)  # scratch for removing repeats without sorting
    frontier = np.flatnonzero(inside)
    pred_ptr, pred = game.pred_ptr, game.pred
    scanned = 0
    level = 0
    while frontier.size:
        level += 1
        starts = pred_ptr[frontier]
        lens = pred_ptr[frontier + 1] - starts
        total = int(lens.sum())
        scanned += total
        if total == 0:
            break
        pos = np.repeat(starts - (np.cumsum(lens) - lens), lens) + np.arange(total)
        p = pred[pos]
        keep = np.flatnonzero(alive[p] & ~inside[p])
        p = p[keep]
        mine = owner[p] == player
        # The attracting player needs one edge into the attractor: any edge seen will do.
        mp = p[mine]
        if moves:
            via[mp] = np.repeat(frontier, lens)[keep[mine]]
        mp = distinct(mp, stamp)
        # The opponent is attracted once every alive successor is inside.
        op = p[~mine]
        np.subtract.at(remaining, op, 1)
        done = distinct(op[remaining[op] == 0], stamp)
        frontier = np.concatenate((mp, done))
        inside[frontier] = True
        rank[frontier] = level
    return Attractor(inside, rank, via, scanned)


def distinct(values: np.ndarray, stamp: np.ndarray) -> np.ndarray:
    """``values`` without repeats, in O(len) with a scratch array ``stamp`` (one slot per field).

    Parameters
    ----------
    values : numpy.ndarray
        The values (field numbers).
    stamp : numpy.ndarray
        Scratch space, one slot per field.

    Returns
    -------
    numpy.ndarray
        The values, each once.

    Examples
    --------
    >>> distinct(np.array([3, 1, 3, 2]), np.empty(4, dtype=np.int64)).tolist()
    [1, 3, 2]
    """
    if values.size < 2:
        return values
    k = np.arange(values.size)
    stamp[values] = k
    fresh: np.ndarray = values[stamp[values] == k]
    return fresh
