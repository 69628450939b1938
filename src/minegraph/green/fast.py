"""The ``fast`` solver: the classical Büchi-game algorithm with local recomputation.

The classical algorithm [McNaughton 1993; Thomas 1995] repeats: ``A = Attr_Ania(green)`` in the
current game; the rest ``Tr`` is a region where Bolek keeps the token off green forever, so
Bolek wins ``Attr_Bolek(Tr)``, which is removed from the game; stop when ``Tr`` is empty (Ania
wins everything left). Each round costs O(m), and there are at most k+1 rounds (every round after
the first removes a green field).

Local recomputation (our variant, in the spirit of Chatterjee, Henzinger and Piterman's first
algorithm, GDV 2006, which dovetails the classical search with a cheaper one; the bounds below
are proved here, not taken from the paper). After a removal only
Ania's fields with a move *into* the removed part lose moves (a Bolek field with such a move would
have been removed too). A field that cannot reach one of them in the graph keeps the same
reachable subgame, so it stays in Ania's attractor. Hence the next ``Tr`` lies inside ``R``, the
fields that can reach a field that lost a move, and it is found by an attractor inside ``R``
(with every field outside ``R`` counted as attracted). That work is O(edges incident to ``R``),
never more than the classical round's O(m), and it can be far less: on the family
:func:`minegraph.green.families.worst_case` (where the olympiad's algorithms and the classical
one all do Θ(k·m) work) ``R_j`` is the rest of the chain and the total is O(m + k·n + k²).
The local search is dovetailed with the classical round: after seeing 1/8 of the remaining
edges it gives up for a full recomputation (not retried for 1, 2, 4, ... rounds).

Bound: O(m) for the first round and the removals (each edge is removed once), plus
O(n + edges incident to ``R_j``) for round ``j`` — at most a constant times the classical
algorithm (so O(k·m)), and O(m + k·n + k²) on the worst-case family, i.e. O(n²) there when
k = Θ(n) and m = Θ(n²), against Θ(n·m) = Θ(n³) for the classical algorithm.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minegraph.green.attractor import attractor, distinct, gather, pick_successor
from minegraph.green.game import ANIA, BOLEK, GreenGame
from minegraph.green.solution import Solution, ania_strategy_on

__all__ = ["solve_fast", "reach_back"]

#: Below this frontier size a BFS level is expanded in plain Python: on long thin paths one numpy
#: round per level costs more than the handful of edges it touches.
_SMALL = 48


def reach_back(game: GreenGame, sources: np.ndarray, alive: np.ndarray,
               cache: dict[Any, Any] | None = None,
               budget: int | None = None) -> tuple[np.ndarray | None, int]:
    """Fields of ``alive`` that can reach ``sources`` (included); returns ``(mask, edges seen)``.

    With a ``budget``, gives up (mask ``None``) once more than ``budget`` edges were seen.

    Breadth-first over predecessors: field by field in Python while the queue is short (on long
    thin paths one numpy round per level would cost more than the few edges it touches), in
    numpy levels once it grows. O(in-edges of the result). ``cache`` keeps the predecessor lists
    between calls.

    Parameters
    ----------
    game : GreenGame
        The game.
    sources : numpy.ndarray
        The fields to reach.
    alive : numpy.ndarray
        A mask of the fields that may be used.
    cache : dict, optional
        Reverse adjacency reused between calls.
    budget : int, optional
        The most edges looked at (past it: ``None`` for the mask).

    Returns
    -------
    (numpy.ndarray or None, int)
        The mask and the edges seen.

    Examples
    --------
    >>> g = GreenGame.from_successors([0, 1, 0, 1], [0] * 4, [[1], [2], [3], [0]])
    >>> mask, _ = reach_back(g, np.array([2]), np.array([True, True, True, False]))
    >>> mask.tolist()
    [True, True, True, False]
    """
    n = game.n
    edges = 0
    frontier = np.asarray(sources, dtype=np.int64)
    if frontier.size <= _SMALL:
        if cache is None:
            cache = {}
        if "pred" not in cache:
            cache["pred"] = game.predecessor_lists()
        pred_lists = cache["pred"]
        ok = bytearray(alive.astype(np.uint8).tobytes())  # alive and not yet seen
        queue = frontier.tolist()
        for v in queue:
            ok[v] = 0
        head = 0
        while head < len(queue) and len(queue) - head <= _SMALL:
            if budget is not None and edges > budget:
                return None, edges
            v = queue[head]
            head += 1
            for u in pred_lists[v]:
                if ok[u]:
                    ok[u] = 0
                    queue.append(u)
            edges += len(pred_lists[v])
        seen = np.zeros(n, dtype=bool)
        seen[queue] = True
        frontier = np.asarray(queue[head:], dtype=np.int64)
    else:
        seen = np.zeros(n, dtype=bool)
        seen[frontier] = True
    stamp = np.empty(n, dtype=np.int64)
    while frontier.size:
        if budget is not None and edges > budget:
            return None, edges
        pos, _ = gather(game.pred_ptr, frontier)
        edges += pos.size
        p = game.pred[pos]
        p = distinct(p[alive[p] & ~seen[p]], stamp)
        seen[p] = True
        frontier = p
    return seen, edges


def _local_trap(game: GreenGame, region: np.ndarray, alive: np.ndarray) -> tuple[np.ndarray, int]:
    """Fields of ``region`` outside Ania's attractor to green, where ``alive \\ region`` is known
    to lie inside that attractor. O(n + edges incident to ``region``)."""
    rows = np.flatnonzero(region)
    pos, row = gather(game.succ_ptr, rows)
    to = game.succ[pos]
    in_region = region[to]
    n_in = np.bincount(row, weights=in_region, minlength=rows.size)
    n_out = np.bincount(row, weights=alive[to] & ~in_region, minlength=rows.size)
    ania = game.owner[rows] == ANIA
    start = game.green[rows] | (ania & (n_out > 0)) | (~ania & (n_in == 0))
    target = np.zeros(game.n, dtype=bool)
    target[rows] = start
    counts = np.zeros(game.n, dtype=np.int64)
    counts[rows] = n_in
    att = attractor(game, target, ANIA, alive=region, counts=counts, moves=False)
    return region & ~att.inside, pos.size + att.scanned


def solve_fast(game: GreenGame) -> Solution:
    """Solve by the classical algorithm with local recomputation (module docstring).

    Strategies: in a removed trap ``Tr`` Bolek moves to a successor inside ``Tr``; elsewhere in
    the removed part he follows his attractor to ``Tr``. Ania's strategy is her attractor
    strategy in the region left at the end.

    Parameters
    ----------
    game : GreenGame
        The game.

    Returns
    -------
    Solution
        The solution.

    Examples
    --------
    >>> from minegraph.green.formats import read_oi
    >>> from minegraph.green.solvers import SAMPLE_GRA_IN
    >>> solve_fast(read_oi(SAMPLE_GRA_IN)).oi_answer()
    [1, 2, 4, 6, 7]
    """
    n = game.n
    ania = game.owner == ANIA
    alive = np.ones(n, dtype=bool)
    counts = np.diff(game.succ_ptr).astype(np.int64)  # successors still alive
    winner = np.full(n, ANIA, dtype=np.int8)
    strategy = np.full(n, -1, dtype=np.int64)
    first = attractor(game, game.green, ANIA)
    att = first
    scanned = att.scanned
    trap = ~att.inside
    rounds = 1
    full = 1
    skip, backoff = 0, 1
    cache: dict[Any, Any] = {}
    stamp = np.empty(n, dtype=np.int64)
    while trap.any():
        inside_b = np.flatnonzero(trap & ~ania)
        strategy[inside_b] = pick_successor(game, inside_b, (~trap).astype(np.int8))
        battr = attractor(game, trap, BOLEK, alive=alive, counts=counts)
        scanned += battr.scanned
        lost = battr.inside
        walk = lost & ~ania & (battr.rank > 0)
        strategy[walk] = battr.via[walk]
        winner[lost] = BOLEK
        alive &= ~lost
        # Alive fields with a move into the removed part: all Ania's; they lose those moves.
        pos, _ = gather(game.pred_ptr, np.flatnonzero(lost))
        scanned += pos.size
        p = game.pred[pos]
        p = p[alive[p]]
        np.subtract.at(counts, p, 1)
        hit = distinct(p, stamp)
        if hit.size == 0:
            break
        # Dovetail with the classical round: once the local search has seen 1/8 of the edges
        # left, give it up for a full recomputation (so at most 1/8 of the work is wasted);
        # after a failure, skip the local try for 1, 2, 4, ... rounds (exponential back-off).
        region = None
        if skip == 0:
            budget = int(counts[alive].sum()) // 8
            region, seen = reach_back(game, hit, alive, cache, budget)
            scanned += seen
            if region is None:
                skip, backoff = backoff, 2 * backoff
            else:
                backoff = 1
        else:
            skip -= 1
        if region is None:
            att = attractor(game, game.green, ANIA, alive=alive, counts=counts, moves=False)
            trap = alive & ~att.inside
            scanned += att.scanned
            full += 1
        else:
            trap, work = _local_trap(game, region, alive)
            scanned += work
        rounds += 1
    if alive.all():  # nothing removed: the first attractor already gives Ania's moves
        walk = ania & (first.rank > 0)
        strategy[walk] = first.via[walk]
        stay = np.flatnonzero(ania & (first.rank == 0))
        strategy[stay] = pick_successor(game, stay, np.zeros(n, dtype=np.int8))
    else:
        scanned += ania_strategy_on(game, alive, strategy)
    return Solution(winner, strategy, "fast", {"rounds": rounds, "full_rounds": full,
                                                "scanned": scanned})
