"""The ``quadratic`` solver: small Bolek dominions found in sparse subgraphs, O(n²) in all.

After Chatterjee and Henzinger, *An O(n²) time algorithm for alternating Büchi games* (SODA
2012). The classical algorithm (see :mod:`.fast`) repeatedly finds a *dominion* of Bolek — a set
``D`` of fields with no green field that Ania cannot leave (every successor of her fields in
``D`` is in ``D``, every Bolek field of ``D`` has a successor in ``D``) — and removes Bolek's
attractor to it; Ania wins what is left when there is none. Finding one costs O(m) a round, so
the classical algorithm is O(n·m). Here a round looks for dominions in sparse subgraphs first.

**The sparse graph** ``G_i`` of phase ``i`` (with ``s = 2**i``) of the current game has

* every move of every Ania field with at most ``s`` moves left ("low" fields), and
* for every field, the first ``s`` of its remaining moves *from Bolek fields* (the moves into it
  are kept in a list per field that shrinks as fields are removed),

so at most ``2·n·s`` moves. Ania's attractor is computed in ``G_i`` towards the green fields,
the "high" Ania fields (more than ``s`` moves) and the Bolek fields with no move in ``G_i``,
where a Bolek field is attracted once all its moves *in G_i* are. What is left, ``C_i``, is a
dominion of Bolek in the whole game: its Ania fields are low, so all their moves are in
``G_i`` and none leads out; its Bolek fields keep a move of ``G_i`` into ``C_i``; it has no
green field. (Bolek's extra moves outside ``G_i`` only help him, so nothing is claimed that
does not hold.)

**Why small dominions are found.** If ``D`` is a dominion whose Bolek attractor ``B(D)`` has at
most ``s`` fields, then ``D ⊆ C_i``: Ania's fields of ``D`` have at most ``|D| <= s`` moves
(all into ``D``), so they are low; every field of ``D`` has at most ``s`` Bolek predecessors
(each of them is in ``B(D)``), so every move from a Bolek field into ``D`` is in ``G_i``; by
induction on the attractor's levels no field of ``D`` is ever attracted.

**The rounds.** A round tries ``i = 0, 1, 2, ...`` until ``C_i`` is not empty, then removes
``B(C_i)`` (computed in the full game). If phase ``i - 1`` found nothing, every dominion ``D``
has ``|B(D)| > 2**(i-1)``, so the ``O(n·2**i)`` spent on the round is O(n) per removed field.
When ``s`` reaches the largest remaining degree, ``G_i`` is the whole game and an empty ``C_i``
proves that Bolek has no dominion left: Ania wins the rest. All rounds together cost
O(n·n) plus O(m) for the removals (every move is deleted from a list once, by swapping it with
the list's last entry): **O(n²)** for games without repeated moves. (Grouping uses numpy's
stable sort, a radix sort on 16-bit keys: linear for n <= 65,536, with a log factor beyond.)

Strategies: in ``C_i`` Bolek keeps to a move of ``G_i`` inside ``C_i``; elsewhere in ``B(C_i)``
he follows his attractor. Ania plays her attractor strategy in the region left at the end.

The first round is the classical one (O(m), which the bound absorbs): Ania's attractor to green
in the whole game; its complement is the largest dominion, and when it is empty nothing else is
built. The lists are then built for the fields left. This keeps easy games (one or two rounds)
as fast as with the other solvers.

Departures from the paper (whose full text we could not consult; this is our reconstruction of
its idea, with the proofs above): ``G_i`` keeps only the moves into a field that come from
Bolek fields, and a dominion is measured by its Bolek attractor rather than its own size.
"""

from __future__ import annotations

import numpy as np

from minegraph.green.attractor import attractor, distinct, gather, pick_successor
from minegraph.green.game import ANIA, BOLEK, GreenGame
from minegraph.green.solution import Solution, ania_strategy_on

__all__ = ["solve_quadratic", "ShrinkingLists", "sparse_trap", "bucket_order"]

#: Batches up to this size are handled field by field in Python: a round of the olympiad's
#: worst case removes a handful of fields, where a dozen numpy calls cost more than the work.
_SMALL = 32

#: Use the dominion found by the opening O(m) check as the first round (the tests also run
#: without, so that the sparse phases do all the work).
_CLASSICAL_FIRST = True


def bucket_order(keys: np.ndarray, bound: int) -> np.ndarray:
    """A stable order of ``keys`` (integers in ``0..bound-1``).

    numpy's stable sort is a radix sort, O(len), on 16-bit keys; larger ``bound`` falls back to
    its O(len·log len) merge sort — the only place a log factor enters this solver.

    Parameters
    ----------
    keys : numpy.ndarray
        The keys.
    bound : int
        One past the largest key.

    Returns
    -------
    numpy.ndarray
        The indices of ``keys`` in order.

    Examples
    --------
    >>> bucket_order(np.array([3, 1, 3, 0]), 4).tolist()
    [3, 1, 0, 2]
    """
    if bound <= 1 << 16:
        keys = keys.astype(np.uint16)
    order: np.ndarray = np.argsort(keys, kind="stable")
    return order


def _ranges(starts: np.ndarray, lens: np.ndarray) -> np.ndarray:
    """The positions ``starts[j] .. starts[j] + lens[j] - 1`` for every ``j``, concatenated."""
    total = int(lens.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = np.cumsum(lens) - lens
    out: np.ndarray = np.repeat(starts - offsets, lens) + np.arange(total, dtype=np.int64)
    return out


class ShrinkingLists:
    """One list of edge ids per field, kept contiguous while entries are deleted.

    The list of field ``v`` occupies ``slot_edge[start[v] : start[v] + length[v]]``. A deleted
    entry is overwritten by a surviving entry from the list's tail, so a batch of ``d``
    deletions costs O(d) whatever the lists' lengths (the order inside a list is not kept).

    Parameters
    ----------
    start : numpy.ndarray of int64
        First slot of each field's list.
    length : numpy.ndarray of int64
        Entries in each field's list.
    slot_edge : numpy.ndarray of int64
        The edge id in every slot (each id at most once).
    n_edges : int
        One more than the largest edge id.

    Examples
    --------
    >>> lists = ShrinkingLists(np.array([0, 3]), np.array([3, 2]),
    ...                        np.array([10, 11, 12, 20, 21]), 22)
    >>> lists.remove(np.array([0, 1]), np.array([10, 21]))
    >>> lists.entries(0).tolist(), lists.entries(1).tolist()
    ([12, 11], [20])
    """

    def __init__(self, start: np.ndarray, length: np.ndarray, slot_edge: np.ndarray,
                 n_edges: int) -> None:
        self.start = start.astype(np.int64, copy=True)
        self.length = length.astype(np.int64, copy=True)
        self.slot_edge = slot_edge.astype(np.int64, copy=True)
        self.edge_slot = np.full(n_edges, -1, dtype=np.int64)
        self.edge_slot[self.slot_edge] = np.arange(self.slot_edge.size, dtype=np.int64)
        self._gone = np.zeros(n_edges, dtype=bool)  # scratch: the edges of the current batch

    def entries(self, v: int) -> np.ndarray:
        """The edge ids in the list of field ``v``."""
        s = int(self.start[v])
        return self.slot_edge[s:s + int(self.length[v])]

    def first(self, fields: np.ndarray, limit: int) -> tuple[np.ndarray, np.ndarray]:
        """The first ``limit`` entries of each of ``fields``' lists: ``(edge ids, list sizes)``."""
        lens = np.minimum(self.length[fields], limit)
        return self.slot_edge[_ranges(self.start[fields], lens)], lens

    def remove(self, fields: np.ndarray, edges: np.ndarray) -> None:
        """Delete ``edges[j]`` (present exactly once) from the list of ``fields[j]``."""
        if edges.size <= _SMALL:
            self._remove_each(fields.tolist(), edges.tolist())
            return
        slots = self.edge_slot[edges]
        per_list = np.bincount(fields, minlength=self.start.size)
        lists = np.flatnonzero(per_list)
        counts = per_list[lists]
        new_end = self.start + self.length - per_list
        # The tail of each list (as many slots as it loses) supplies the survivors that fill
        # the holes the deletions leave in front of it. Movers come out list by list in field
        # order; the holes are put in the same order (any pairing within a list will do).
        self._gone[edges] = True
        tail = _ranges(new_end[lists], counts)
        movers = tail[~self._gone[self.slot_edge[tail]]]
        inside = slots < new_end[fields]
        holes = slots[inside][bucket_order(fields[inside], self.start.size)]
        moved = self.slot_edge[movers]
        self.slot_edge[holes] = moved
        self.edge_slot[moved] = holes
        self.edge_slot[edges] = -1
        self.length[lists] -= counts
        self._gone[edges] = False

    def _remove_each(self, fields: list[int], edges: list[int]) -> None:
        """:meth:`remove` one entry at a time (for small batches)."""
        slot_edge, edge_slot, start, length = (self.slot_edge, self.edge_slot, self.start,
                                               self.length)
        for v, e in zip(fields, edges):
            hole = int(edge_slot[e])
            last = int(start[v] + length[v]) - 1
            moved = int(slot_edge[last])
            slot_edge[hole] = moved
            edge_slot[moved] = hole
            edge_slot[e] = -1
            length[v] -= 1


def sparse_trap(n: int, ania: np.ndarray, candidate: np.ndarray, a_src: np.ndarray,
                a_dst: np.ndarray, b_src: np.ndarray, b_dst: np.ndarray) -> tuple[np.ndarray, int]:
    """The largest set of ``candidate`` fields that the listed moves make a trap for Ania.

    That is, the largest ``X`` within ``candidate`` where every Ania field has all its listed
    moves ``a_src[j] -> a_dst[j]`` into ``X`` and every Bolek field some listed move
    ``b_src[j] -> b_dst[j]`` into ``X`` (the complement of Ania's attractor to the other
    fields in the sparse graph). Found backwards from the fields that fail at once; returns
    ``(mask, moves looked at)``. O(n + moves).

    Parameters
    ----------
    n : int
        Number of fields.
    ania, candidate : numpy.ndarray of bool
        Per field: Ania's; may be in the trap.
    a_src, a_dst : numpy.ndarray of int64
        All the moves of the candidate Ania fields.
    b_src, b_dst : numpy.ndarray of int64
        Moves of candidate Bolek fields into candidate fields (some, not necessarily all).

    Returns
    -------
    tuple of (numpy.ndarray of bool, int)

    Examples
    --------
    Fields 0 (Ania) and 1 (Bolek) keep a white cycle; Ania's field 2 must move to the green
    field 3, which is not a candidate.

    >>> ania = np.array([True, False, True, True]); candidate = np.array([True, True, True, False])
    >>> trap, _ = sparse_trap(4, ania, candidate, np.array([0, 2]), np.array([1, 3]),
    ...                       np.array([1]), np.array([0]))
    >>> trap.tolist()
    [True, True, False, False]
    """
    escapes = np.zeros(n, dtype=bool)
    escapes[a_src[~candidate[a_dst]]] = True
    remaining = np.bincount(b_src, minlength=n)
    failed = candidate & (escapes | (~ania & (remaining == 0)))
    inside = candidate & ~failed
    stay = candidate[a_dst]
    src = np.concatenate((a_src[stay], b_src))
    dst = np.concatenate((a_dst[stay], b_dst))
    scanned = a_src.size + b_src.size
    # The first level straight from the move list: the fields failing at once are many, and
    # often nothing follows, so the predecessor lists are only built when needed.
    stamp = np.empty(n, dtype=np.int64)
    frontier = _fail_next(ania, inside, remaining, src[failed[dst]], stamp)
    if frontier.size == 0:
        return inside, scanned
    pred = src[bucket_order(dst, n)]
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(dst, minlength=n), out=ptr[1:])
    while frontier.size:
        pos, _ = gather(ptr, frontier)
        scanned += pos.size
        frontier = _fail_next(ania, inside, remaining, pred[pos], stamp)
    return inside, scanned


def _fail_next(ania: np.ndarray, inside: np.ndarray, remaining: np.ndarray,
               pred: np.ndarray, stamp: np.ndarray) -> np.ndarray:
    """One backward level: of the predecessors ``pred`` of failed fields, Ania's fail, and
    Bolek's once no listed move is left. Updates ``inside``; returns the new failures."""
    p = pred[inside[pred]]
    mine = ania[p]
    drawn = distinct(p[mine], stamp)
    bolek = p[~mine]
    np.subtract.at(remaining, bolek, 1)
    done = distinct(bolek[remaining[bolek] == 0], stamp)
    frontier = np.concatenate((drawn, done))
    inside[frontier] = False
    return frontier


def _grouped(n: int, owner_of: np.ndarray, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                                       np.ndarray]:
    """``(start, length, ids)`` of per-field lists from ``ids`` already grouped by field."""
    length = np.bincount(owner_of, minlength=n).astype(np.int64)
    start = np.cumsum(length) - length
    return start, length, ids


class _State:
    """The shrinking game: alive fields, Ania's remaining moves and Bolek's moves into fields."""

    def __init__(self, game: GreenGame, alive: np.ndarray) -> None:
        n = game.n
        self.game = game
        self.ania = game.owner == ANIA
        self.alive = alive.copy()
        self.edge_source = src = game.edge_source
        # Only moves between alive fields enter the lists; ids stay positions in ``succ``.
        between = alive[src] & alive[game.succ]
        # Ania's moves, grouped by their source as ``succ`` is.
        mine = np.flatnonzero(between & self.ania[src])
        self.ania_moves = ShrinkingLists(*_grouped(n, src[mine], mine), game.m)
        # Moves from Bolek fields into each field, grouped by target as the predecessor CSR is.
        into = np.repeat(np.arange(n, dtype=np.int64), np.diff(game.pred_ptr))
        his = np.flatnonzero(between[game.pred_edge] & ~self.ania[game.pred])
        self.bolek_in = ShrinkingLists(*_grouped(n, into[his], game.pred_edge[his]), game.m)
        self.scanned = game.m
        self.stamp = np.empty(n, dtype=np.int64)  # scratch for :func:`distinct`
        self.gathered = 0  # moves the last phase gathered
        self.pred_ptr: list[int] = game.pred_ptr.tolist()

    def widest(self) -> tuple[int, int]:
        """The largest list left (once ``s`` reaches it, ``G_i`` is the whole game) and the
        number of list entries left."""
        alive = self.alive
        a = self.ania_moves.length[alive]
        b = self.bolek_in.length[alive]
        return int(max(a.max(initial=0), b.max(initial=0))), int(a.sum() + b.sum())

    def phase(self, s: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Search ``G_i`` for ``s = 2**i``: the trap found and the Bolek moves it was found with.

        Candidates are the alive white fields except Ania's high ones; only their moves are
        gathered (O(n·s)), Bolek's through the lists of the candidate fields they lead to.
        """
        alive, ania = self.alive, self.ania
        lengths = self.ania_moves.length
        candidate = alive & ~self.game.green & (~ania | (lengths <= s))
        low = np.flatnonzero(candidate & ania)
        a_edges, a_lens = self.ania_moves.first(low, s)
        fields = np.flatnonzero(candidate & (self.bolek_in.length > 0))
        b_edges, b_lens = self.bolek_in.first(fields, s)
        b_src = self.edge_source[b_edges]
        b_dst = np.repeat(fields, b_lens)
        keep = candidate[b_src]
        b_src, b_dst = b_src[keep], b_dst[keep]
        trap, work = sparse_trap(self.game.n, ania, candidate, np.repeat(low, a_lens),
                                 self.game.succ[a_edges], b_src, b_dst)
        self.scanned += work
        self.gathered = a_edges.size + b_edges.size
        return trap, b_src, b_dst

    def remove_attractor(self, trap: np.ndarray, strategy: np.ndarray) -> np.ndarray:
        """Remove Bolek's attractor to ``trap`` from the game; returns it as a mask.

        Bolek's attracted fields get a move into it written to ``strategy``. The moves of
        alive Ania fields into it leave her lists, and the removed Bolek fields' moves leave
        the lists of the fields they led to. O(n + moves into and out of the removed fields).
        """
        game, alive, ania = self.game, self.alive, self.ania
        remaining = self.ania_moves.length.copy()
        lost = trap.copy()
        frontier = np.flatnonzero(trap)
        sources: list[np.ndarray] = []
        edges: list[np.ndarray] = []
        if frontier.size <= _SMALL:
            frontier = self._attract_few(frontier.tolist(), lost, remaining, strategy,
                                         sources, edges)
        while frontier.size:
            pos, row = gather(game.pred_ptr, frontier)
            p = game.pred[pos]
            keep = alive[p] & ~lost[p]
            pos, row, p = pos[keep], row[keep], p[keep]
            his = ~ania[p]
            strategy[p[his]] = frontier[row[his]]
            drawn = distinct(p[his], self.stamp)
            hers = p[~his]
            sources.append(hers)
            edges.append(game.pred_edge[pos[~his]])
            np.subtract.at(remaining, hers, 1)
            done = distinct(hers[remaining[hers] == 0], self.stamp)
            frontier = np.concatenate((drawn, done))
            lost[frontier] = True
            self.scanned += pos.size
        alive &= ~lost
        if sources:
            src, ids = np.concatenate(sources), np.concatenate(edges)
            still = alive[src]
            self.ania_moves.remove(src[still], ids[still])
        gone = np.flatnonzero(lost & ~ania)
        out, _ = gather(game.succ_ptr, gone)
        w = game.succ[out]
        keep_w = alive[w]
        self.bolek_in.remove(w[keep_w], out[keep_w])
        self.scanned += out.size
        return lost

    def _attract_few(self, queue: list[int], lost: np.ndarray, remaining: np.ndarray,
                     strategy: np.ndarray, sources: list[np.ndarray],
                     edges: list[np.ndarray]) -> np.ndarray:
        """Bolek's attractor field by field while it stays small; returns the fields still to
        expand (empty when done) for the numpy levels to continue with."""
        game, alive, ania = self.game, self.alive, self.ania
        ptr = self.pred_ptr
        hers: list[int] = []
        ids: list[int] = []
        head = 0
        while head < len(queue) and len(queue) - head <= _SMALL:
            v = queue[head]
            head += 1
            lo, hi = ptr[v], ptr[v + 1]
            self.scanned += hi - lo
            for p, e in zip(game.pred[lo:hi].tolist(), game.pred_edge[lo:hi].tolist()):
                if lost[p] or not alive[p]:
                    continue
                if not ania[p]:
                    strategy[p] = v
                elif remaining[p] > 1:
                    remaining[p] -= 1
                    hers.append(p)
                    ids.append(e)
                    continue
                lost[p] = True
                queue.append(p)
        sources.append(np.array(hers, dtype=np.int64))
        edges.append(np.array(ids, dtype=np.int64))
        return np.array(queue[head:], dtype=np.int64)


def _find_dominion(state: _State, stats: dict[str, int]) -> tuple[np.ndarray, np.ndarray,
                                                                     np.ndarray] | None:
    """Phases ``i = 0, 1, ...`` until ``G_i`` shows a dominion; ``None`` when there is none.

    Returns the dominion and the Bolek moves of ``G_i`` it was found with.
    """
    s = 1
    widest = entries = -1
    while True:
        trap, b_src, b_dst = state.phase(s)
        stats["phases"] += 1
        stats["largest_phase"] = max(stats["largest_phase"], s)
        if trap.any():
            return trap, b_src, b_dst
        if widest < 0:
            widest, entries = state.widest()
        if s >= widest:  # G_i was the whole game: Bolek has no dominion left
            return None
        # Once a phase has gathered a quarter of the entries left, the whole game costs at
        # most four times as much as this phase did: go there directly.
        s = widest if 4 * state.gathered >= entries else 2 * s


def solve_quadratic(game: GreenGame) -> Solution:
    """Solve by searching for small Bolek dominions in sparse subgraphs (module docstring).

    Parameters
    ----------
    game : GreenGame

    Returns
    -------
    Solution
        Both regions and a positional winning strategy for each player; ``stats`` counts the
        ``rounds`` (dominions removed), ``phases`` (sparse searches), the ``largest_phase``
        bound ``2**i`` used, and ``scanned`` (list entries and edges looked at).

    Examples
    --------
    >>> from minegraph.green.formats import read_oi
    >>> from minegraph.green.solvers import SAMPLE_GRA_IN
    >>> sol = solve_quadratic(read_oi(SAMPLE_GRA_IN))
    >>> sol.oi_answer(), sol.strategy[7].item()
    ([1, 2, 4, 6, 7], 2)
    """
    n = game.n
    winner = np.full(n, ANIA, dtype=np.int8)
    strategy = np.full(n, -1, dtype=np.int64)
    # One classical check first (O(m)): when Ania's attractor to green is everything, Bolek
    # has no dominion at all and the lists need not be built (random games, mostly).
    first = attractor(game, game.green, ANIA)
    if first.inside.all():
        ania = game.owner == ANIA
        walk = ania & (first.rank > 0)
        strategy[walk] = first.via[walk]
        stay = np.flatnonzero(ania & (first.rank == 0))
        strategy[stay] = pick_successor(game, stay, np.zeros(n, dtype=np.int8))
        return Solution(winner, strategy, "quadratic",
                        {"rounds": 0, "phases": 0, "largest_phase": 0, "scanned": first.scanned})
    stats = {"rounds": 0, "phases": 0, "largest_phase": 0}
    alive = np.ones(n, dtype=bool)
    scanned = first.scanned
    if _CLASSICAL_FIRST:
        # The check found the largest dominion: removing it is a first round for O(m).
        trap = ~first.inside
        his = np.flatnonzero(trap & (game.owner == BOLEK))
        strategy[his] = pick_successor(game, his, first.inside.astype(np.int8))
        battr = attractor(game, trap, BOLEK)
        walk = battr.inside & (game.owner == BOLEK) & (battr.rank > 0)
        strategy[walk] = battr.via[walk]
        winner[battr.inside] = BOLEK
        alive = ~battr.inside
        scanned += battr.scanned
        stats["rounds"] += 1
        if not alive.any():
            return Solution(winner, strategy, "quadratic", {**stats, "scanned": scanned})
    state = _State(game, alive)
    state.scanned += scanned
    while state.alive.any():
        found = _find_dominion(state, stats)
        if found is None:
            break
        trap, src, dst = found
        # Inside the dominion Bolek keeps to a move of G_i that stays in it.
        stay = trap[src] & trap[dst]
        strategy[src[stay]] = dst[stay]
        lost = state.remove_attractor(trap, strategy)
        winner[lost] = BOLEK
        stats["rounds"] += 1
    state.scanned += ania_strategy_on(game, state.alive, strategy)
    return Solution(winner, strategy, "quadratic", {**stats, "scanned": state.scanned})
