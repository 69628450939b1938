"""Check a claimed solution of a green game in O(n + m), independently of any solver.

A solution (the winner of each field and a positional strategy for each player) is correct iff

1. the regions partition the fields (every winner is 0 or 1);
2. each player's strategy picks, on each of the player's own fields of the player's region, a
   real successor inside that region;
3. the opponent cannot leave a region: on the other player's fields of a region every successor
   stays in it;
4. in Ania's region, with Ania bound to her strategy, every cycle has a green field (the graph
   left after deleting green fields is acyclic);
5. in Bolek's region, with Bolek bound to his strategy, no cycle has a green field (no green
   field lies in a strongly connected component with a cycle).

Then every play from Ania's region stays there and its first repeated field closes a cycle with a
green field, so she wins; symmetrically for Bolek — both strategies win, so the regions are the
exact answer. Problems are reported with fields numbered from 1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from minegraph.green.game import ANIA, BOLEK, GreenGame
from minegraph.green.solution import Solution

__all__ = ["Verdict", "verify", "cycle_fields"]


@dataclass(frozen=True)
class Verdict:
    """The verifier's answer: ``ok``, and if not, the first ``reason`` found.

    Parameters
    ----------
    ok : bool
        Whether the solution holds.
    reason : str
        The first fault found.
    """

    ok: bool
    reason: str = ""

    def __bool__(self) -> bool:
        return self.ok


def cycle_fields(n: int, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """Mask of the vertices lying on some cycle of the graph ``(src[i] -> dst[i])``.

    Iterative Tarjan: O(n + edges). A vertex is on a cycle iff its strongly connected component
    has two or more vertices, or it has a loop.

    Parameters
    ----------
    n : int
        The vertices.
    src, dst : numpy.ndarray
        The edges' ends.

    Returns
    -------
    numpy.ndarray
        A boolean mask of the vertices on a cycle.

    Examples
    --------
    >>> cycle_fields(4, np.array([0, 1, 2, 3]), np.array([1, 0, 3, 3])).tolist()
    [True, True, False, True]
    """
    order = np.argsort(src, kind="stable")
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=n), out=ptr[1:])
    adj = dst[order].tolist()
    start = ptr.tolist()
    index = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    stack: list[int] = []
    on_cycle = [False] * n
    counter = 0
    for root in range(n):
        if index[root] != -1:
            continue
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        work = [(root, start[root])]
        while work:
            v, i = work[-1]
            if i < start[v + 1]:
                work[-1] = (v, i + 1)
                w = adj[i]
                if w == v:
                    on_cycle[v] = True
                if index[w] == -1:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = True
                    work.append((w, start[w]))
                elif on_stack[w] and index[w] < low[v]:
                    low[v] = index[w]
                continue
            work.pop()
            if work:
                u = work[-1][0]
                if low[v] < low[u]:
                    low[u] = low[v]
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    for w in comp:
                        on_cycle[w] = True
    return np.asarray(on_cycle, dtype=bool)


def _bound_edges(game: GreenGame, winner: np.ndarray, strategy: np.ndarray,
                 region: int) -> tuple[np.ndarray, np.ndarray]:
    """Edges of ``region`` once its winner is bound to the strategy (opponent keeps all)."""
    src = game.edge_source
    dst = game.succ
    keep = (winner[src] == region) & (game.owner[src] != region)
    own = np.flatnonzero((winner == region) & (game.owner == region))
    return (np.concatenate((src[keep], own)), np.concatenate((dst[keep], strategy[own])))


def verify(game: GreenGame, solution: Solution) -> Verdict:
    """Check ``solution`` against ``game``; O(n + m).

    Parameters
    ----------
    game : GreenGame
        The game.
    solution : Solution
        The claimed solution.

    Returns
    -------
    Verdict
        Whether it holds, and if not why.

    Examples
    --------
    >>> g = GreenGame.from_oi(1, [1, 0], [[1], [0]])
    >>> verify(g, Solution(np.array([0, 0], dtype=np.int8), np.array([1, -1])))
    Verdict(ok=True, reason='')
    >>> verify(g, Solution(np.array([1, 1], dtype=np.int8), np.array([-1, 0]))).reason
    "Bolek's region has the cycle through green field 1"
    """
    n = game.n
    winner = np.asarray(solution.winner)
    strategy = np.asarray(solution.strategy)
    if winner.shape != (n,) or strategy.shape != (n,):
        return Verdict(False, f"expected {n} winners and {n} strategy entries")
    bad = np.flatnonzero((winner != ANIA) & (winner != BOLEK))
    if bad.size:
        return Verdict(False, f"field {int(bad[0]) + 1}: winner must be 0 or 1")
    winner = winner.astype(np.int8)
    names = ("Ania", "Bolek")
    # 2. Strategies: a real successor, inside the same region.
    rows = np.flatnonzero(winner == game.owner)
    choice = strategy[rows]
    outside = np.flatnonzero((choice < 0) | (choice >= n))
    if outside.size:
        v = int(rows[outside[0]])
        return Verdict(False, f"field {v + 1}: {names[winner[v]]} wins there but her/his "
                              "strategy names no field")
    lens = game.succ_ptr[rows + 1] - game.succ_ptr[rows]
    pos = np.repeat(game.succ_ptr[rows] - (np.cumsum(lens) - lens), lens) + np.arange(
        int(lens.sum()), dtype=np.int64)
    hits = np.bincount(np.repeat(np.arange(rows.size), lens),
                       weights=game.succ[pos] == np.repeat(choice, lens), minlength=rows.size)
    notmove = np.flatnonzero(hits == 0)
    if notmove.size:
        v = int(rows[notmove[0]])
        return Verdict(False, f"field {v + 1}: strategy move to field {int(strategy[v]) + 1} "
                              "is not a move of the game")
    leaves = np.flatnonzero(winner[choice] != winner[rows])
    if leaves.size:
        v = int(rows[leaves[0]])
        return Verdict(False, f"field {v + 1}: {names[winner[v]]}'s strategy leaves her/his "
                              "region")
    # 3. The opponent cannot leave.
    src = game.edge_source
    esc = np.flatnonzero((game.owner[src] != winner[src]) & (winner[game.succ] != winner[src]))
    if esc.size:
        e = int(esc[0])
        return Verdict(False, f"field {int(src[e]) + 1}: {names[game.owner[src[e]]]} can escape "
                              f"{names[winner[src[e]]]}'s region to field "
                              f"{int(game.succ[e]) + 1}")
    # 4. Ania's region without its green fields must be acyclic.
    s, d = _bound_edges(game, winner, strategy, ANIA)
    white = ~game.green
    keep = white[s] & white[d]
    loop = np.flatnonzero(cycle_fields(n, s[keep], d[keep]))
    if loop.size:
        return Verdict(False, f"Ania's region has a cycle without green through field "
                              f"{int(loop[0]) + 1}")
    # 5. No green field of Bolek's region on a cycle.
    s, d = _bound_edges(game, winner, strategy, BOLEK)
    loop = np.flatnonzero(cycle_fields(n, s, d) & game.green)
    if loop.size:
        return Verdict(False, f"Bolek's region has the cycle through green field "
                              f"{int(loop[0]) + 1}")
    return Verdict(True)
