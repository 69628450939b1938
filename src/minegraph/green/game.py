"""The green game's board: owners, colours and successor lists as compact arrays.

Fields are numbered **from 0 internally** (field ``i`` of a ``gra.in`` file is index ``i - 1``;
a PGSolver vertex id is the index itself). Ania is player ``0`` and Bolek player ``1``.

The successor lists are kept in CSR form: the successors of field ``v`` are
``succ[succ_ptr[v]:succ_ptr[v + 1]]``; the predecessors likewise in ``pred_ptr``/``pred``.
Every edge also has an index ``e`` into ``succ``; ``pred_edge[j]`` gives, for the ``j``-th
predecessor entry, the index of that edge in ``succ`` (so the solvers can name an edge both ways).

The task's own rules (Ania's fields first, moves alternate between the players, the size limits)
are checked by :func:`check_task_rules`; :class:`GreenGame` itself only insists on what every
solver needs: field numbers in range and at least one successor per field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from minegraph.errors import LimitError, MinegraphError

__all__ = ["GreenGame", "ANIA", "BOLEK", "MAX_FIELDS", "MAX_EDGES", "MAX_GREEN",
           "check_task_rules"]

ANIA = 0
BOLEK = 1
#: The task's limits: 1 <= a+b <= 3000 fields, at most 30,000 edges, at most 100 green fields.
MAX_FIELDS = 3000
MAX_EDGES = 30_000
MAX_GREEN = 100


def _csr_from_edges(n: int, src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                                       np.ndarray]:
    """Group edges by source (stable). Returns ``(ptr, targets, order)``; O(m log m)."""
    order = np.argsort(src, kind="stable")
    counts = np.bincount(src, minlength=n)
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=ptr[1:])
    return ptr, dst[order].astype(np.int64, copy=False), order


@dataclass(frozen=True, eq=False)
class GreenGame:
    """A green game (a Büchi game): who owns each field, which are green, and the moves.

    Build one with :meth:`from_successors` or :meth:`from_edges`; the constructor expects the
    arrays to be consistent already.

    Attributes
    ----------
    owner : numpy.ndarray of int8
        ``0`` for Ania's fields, ``1`` for Bolek's.
    green : numpy.ndarray of bool
    succ_ptr, succ : numpy.ndarray of int64
        Successors in CSR form, each list in input order.
    pred_ptr, pred, pred_edge : numpy.ndarray of int64
        Predecessors in CSR form; ``pred_edge`` maps each entry to its edge index in ``succ``.

    Examples
    --------
    >>> g = GreenGame.from_successors([0, 1], [True, False], [[1], [0]])
    >>> g.n, g.m, g.successors(0).tolist(), g.predecessors(0).tolist()
    (2, 2, [1], [1])
    """

    owner: np.ndarray
    green: np.ndarray
    succ_ptr: np.ndarray
    succ: np.ndarray
    pred_ptr: np.ndarray
    pred: np.ndarray
    pred_edge: np.ndarray

    @property
    def n(self) -> int:
        """Number of fields."""
        return int(self.owner.shape[0])

    @property
    def m(self) -> int:
        """Number of moves (edges)."""
        return int(self.succ.shape[0])

    @property
    def k(self) -> int:
        """Number of green fields."""
        return int(np.count_nonzero(self.green))

    @property
    def edge_source(self) -> np.ndarray:
        """The source field of every edge, aligned with ``succ``; O(m)."""
        return np.repeat(np.arange(self.n, dtype=np.int64), np.diff(self.succ_ptr))

    def successors(self, v: int) -> np.ndarray:
        """The successors of field ``v`` (0-based)."""
        return self.succ[self.succ_ptr[v]:self.succ_ptr[v + 1]]

    def predecessors(self, v: int) -> np.ndarray:
        """The predecessors of field ``v`` (0-based)."""
        return self.pred[self.pred_ptr[v]:self.pred_ptr[v + 1]]

    def successor_lists(self) -> list[list[int]]:
        """All successor lists as plain Python lists (for the pure-Python algorithms)."""
        flat = self.succ.tolist()
        ptr = self.succ_ptr.tolist()
        return [flat[ptr[v]:ptr[v + 1]] for v in range(self.n)]

    def predecessor_lists(self) -> list[list[int]]:
        """All predecessor lists as plain Python lists."""
        flat = self.pred.tolist()
        ptr = self.pred_ptr.tolist()
        return [flat[ptr[v]:ptr[v + 1]] for v in range(self.n)]

    @classmethod
    def from_edges(cls, owner: Sequence[int] | np.ndarray, green: Sequence[bool] | np.ndarray,
                   src: Sequence[int] | np.ndarray, dst: Sequence[int] | np.ndarray) -> "GreenGame":
        """Build a game from parallel edge arrays; O(m log m).

        Raises
        ------
        MinegraphError
            if a field number is out of range, an owner is not 0/1, or a field has no move.

        Examples
        --------
        >>> g = GreenGame.from_edges([0, 1, 0], [0, 1, 0], [0, 1, 1, 2], [1, 0, 2, 1])
        >>> g.successor_lists()
        [[1], [0, 2], [1]]
        """
        own = np.asarray(owner, dtype=np.int8)
        col = np.asarray(green, dtype=bool)
        s = np.asarray(src, dtype=np.int64)
        d = np.asarray(dst, dtype=np.int64)
        n = own.shape[0]
        if own.ndim != 1 or col.shape != own.shape:
            raise MinegraphError("owner and green must be 1-D arrays of the same length")
        if n == 0:
            raise MinegraphError("a game needs at least one field")
        if s.shape != d.shape or s.ndim != 1:
            raise MinegraphError("edge source and target arrays must have the same length")
        if np.any((own != ANIA) & (own != BOLEK)):
            raise MinegraphError("owners must be 0 (Ania) or 1 (Bolek)")
        for name, arr in (("source", s), ("target", d)):
            bad = np.flatnonzero((arr < 0) | (arr >= n))
            if bad.size:
                raise MinegraphError(f"edge {int(bad[0])}: {name} {int(arr[bad[0]])} is not a "
                                     f"field number 0..{n - 1}")
        succ_ptr, succ, _ = _csr_from_edges(n, s, d)
        stuck = np.flatnonzero(np.diff(succ_ptr) == 0)
        if stuck.size:
            raise MinegraphError(f"field {int(stuck[0])} (0-based) has no successor; every field "
                                 "needs at least one")
        # Predecessor CSR built from the successor CSR so pred_edge indexes ``succ``.
        edge_src = np.repeat(np.arange(n, dtype=np.int64), np.diff(succ_ptr))
        pred_ptr, pred, order = _csr_from_edges(n, succ, edge_src)
        return cls(owner=own, green=col, succ_ptr=succ_ptr, succ=succ, pred_ptr=pred_ptr,
                   pred=pred, pred_edge=order.astype(np.int64, copy=False))

    @classmethod
    def from_successors(cls, owner: Sequence[int], green: Sequence[bool],
                        successors: Sequence[Sequence[int]]) -> "GreenGame":
        """Build a game from one successor list per field (0-based); O(m log m)."""
        if len(successors) != len(owner):
            raise MinegraphError("need one successor list per field")
        lengths = np.fromiter((len(s) for s in successors), dtype=np.int64, count=len(successors))
        src = np.repeat(np.arange(len(successors), dtype=np.int64), lengths)
        dst = np.fromiter((t for s in successors for t in s), dtype=np.int64,
                          count=int(lengths.sum()))
        return cls.from_edges(owner, green, src, dst)

    @classmethod
    def from_oi(cls, a: int, green: Sequence[bool],
                successors: Sequence[Sequence[int]]) -> "GreenGame":
        """Build a game the way ``gra.in`` describes it: the first ``a`` fields are Ania's.

        ``successors`` are 0-based here. See :func:`check_task_rules` for the task's rules.

        Examples
        --------
        >>> g = GreenGame.from_oi(1, [1, 0], [[1], [0]])
        >>> g.owner.tolist(), g.n_ania
        ([0, 1], 1)
        """
        n = len(successors)
        owner = [ANIA] * a + [BOLEK] * (n - a)
        return cls.from_successors(owner, green, successors)

    @property
    def n_ania(self) -> int:
        """Number of Ania's fields."""
        return int(np.count_nonzero(self.owner == ANIA))

    def is_oi_ordered(self) -> bool:
        """True when Ania's fields come first, as ``gra.in`` requires."""
        a = self.n_ania
        return bool(np.all(self.owner[:a] == ANIA))

    def __repr__(self) -> str:
        return f"GreenGame(n={self.n}, m={self.m}, k={self.k}, ania={self.n_ania})"


def check_task_rules(game: GreenGame, *, limits: bool = True) -> None:
    """Check the rules of the olympiad task that :class:`GreenGame` does not insist on.

    Moves must alternate (Ania's field -> Bolek's field and back), no successor may be listed
    twice, Ania's fields come first, and with ``limits`` the sizes stay within 3000 fields,
    30,000 edges and 100 green fields. O(m).

    Raises
    ------
    MinegraphError
        naming the first offending field (1-based, as in ``gra.in``).
    LimitError
        when a size limit is exceeded.

    Parameters
    ----------
    game : GreenGame
        The game.
    limits : bool
        Enforce the task's size limits too.

    Examples
    --------
    >>> check_task_rules(GreenGame.from_successors([0, 0], [1, 0], [[1], [0]]))
    Traceback (most recent call last):
    ...
    minegraph.errors.MinegraphError: field 1 moves to field 2 of the same player; moves must alternate
    """
    if not game.is_oi_ordered():
        raise MinegraphError("Ania's fields must come before Bolek's")
    src = game.edge_source
    same = np.flatnonzero(game.owner[src] == game.owner[game.succ])
    if same.size:
        e = int(same[0])
        raise MinegraphError(f"field {int(src[e]) + 1} moves to field {int(game.succ[e]) + 1} of "
                             "the same player; moves must alternate")
    # Duplicates: sort each list by (source, target) and compare neighbours.
    key = src * game.n + game.succ
    key.sort()
    dup = np.flatnonzero(key[1:] == key[:-1])
    if dup.size:
        v, w = divmod(int(key[dup[0]]), game.n)
        raise MinegraphError(f"field {v + 1} lists successor {w + 1} twice")
    if limits:
        if game.n > MAX_FIELDS:
            raise LimitError(f"{game.n} fields; the task allows at most {MAX_FIELDS}")
        if game.m > MAX_EDGES:
            raise LimitError(f"{game.m} edges; the task allows at most {MAX_EDGES}")
        if game.k > MAX_GREEN:
            raise LimitError(f"{game.k} green fields; the task allows at most {MAX_GREEN}")
