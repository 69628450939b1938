"""The olympiad's second solution: lift a labelling to the least one that is good for Bolek.

A label ``beta(p)`` in ``{0, ..., k, inf}`` bounds how many green fields Bolek may be made to
visit from ``p`` when he always moves to a successor of least label. ``Progress(p, r)`` holds when
``beta(p) > beta(r)`` for green ``p`` and ``beta(p) >= beta(r)`` for white ``p``; the labelling
is good at ``p`` when ``beta(p) = inf``, or Ania's ``p`` has progress to *every* successor, or
Bolek's ``p`` to *some* successor. Starting from all zeros, fields where the labelling is not
good are raised to the least label that makes them good; Ania wins exactly where the least good
labelling is ``inf``.

The data structure of the task's exercise 3.13 makes this O(k·m): for each field the number of
successors it has progress to, so a field's goodness is known in O(1); raising ``p`` costs
O(out-degree + in-degree of p), and each field is raised at most k+1 times.

This is a pure-Python worklist algorithm (its order of work is inherently sequential); it is the
reference for the other solvers, not the fast one.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from minegraph.green.game import ANIA, BOLEK, GreenGame
from minegraph.green.solution import Solution, ania_strategy_on
from minegraph.green.attractor import pick_successor

__all__ = ["solve_lifting", "least_good_labelling"]


def least_good_labelling(game: GreenGame) -> tuple[list[int], int]:
    """The least labelling good for Bolek, with ``k + 1`` standing for ``inf``.

    Returns ``(labels, work)`` where ``work`` counts the edges looked at. O(k·m).

    Parameters
    ----------
    game : GreenGame
        The game.

    Returns
    -------
    (list of int, int)
        The labels and ``k + 1``.

    Examples
    --------
    The task's sample (the olympiad's statement): Ania wins where the label is inf (= 4 here, k = 3).

    >>> from minegraph.green.formats import read_oi
    >>> from minegraph.green.solvers import SAMPLE_GRA_IN
    >>> least_good_labelling(read_oi(SAMPLE_GRA_IN))[0]
    [4, 4, 0, 4, 1, 4, 4, 0]
    """
    n = game.n
    inf = game.k + 1
    succ = game.successor_lists()
    pred = game.predecessor_lists()
    is_ania = (game.owner == ANIA).tolist()
    green = game.green.tolist()
    beta = [0] * n
    # sat[p]: successors r with Progress(p, r), i.e. beta[r] <= beta[p] - green[p].
    sat = [0 if green[p] else len(succ[p]) for p in range(n)]
    queued = [False] * n
    work: deque[int] = deque()
    for p in range(n):
        if green[p]:  # with all labels 0 exactly the green fields are not good
            queued[p] = True
            work.append(p)
    edges = 0
    while work:
        p = work.popleft()
        queued[p] = False
        sp = succ[p]
        edges += len(sp)
        good = sat[p] == len(sp) if is_ania[p] else sat[p] > 0
        if good:
            continue
        labels = [beta[r] for r in sp]
        best = max(labels) if is_ania[p] else min(labels)
        new = min(best + 1, inf) if green[p] else best
        old = beta[p]
        beta[p] = new
        limit = new - green[p]
        sat[p] = sum(1 for x in labels if x <= limit) if new < inf else 0
        # Raising beta[p] can only break Progress(q, p) on edges where old <= lim(q) < new.
        pp = pred[p]
        edges += len(pp)
        for q in pp:
            bq = beta[q]
            if bq == inf:
                continue
            lim_q = bq - green[q]
            if old <= lim_q < new:
                sat[q] -= 1
                if not queued[q] and (is_ania[q] or sat[q] == 0):
                    queued[q] = True
                    work.append(q)
    return beta, edges


def solve_lifting(game: GreenGame) -> Solution:
    """Solve by the least good labelling; O(k·m).

    Bolek's strategy: a successor of least label (Fact 3.3 of the task's solution). Ania's:
    the attractor strategy inside her region (see :func:`ania_strategy_on`).

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
    >>> g = GreenGame.from_oi(1, [1, 0], [[1], [0]])
    >>> solve_lifting(g).oi_answer()
    [1, 2]
    """
    beta, work = least_good_labelling(game)
    labels = np.asarray(beta, dtype=np.int64)
    won = labels == game.k + 1
    winner = np.where(won, ANIA, BOLEK).astype(np.int8)
    strategy = np.full(game.n, -1, dtype=np.int64)
    bolek = np.flatnonzero(~won & (game.owner == BOLEK))
    strategy[bolek] = pick_successor(game, bolek, labels)
    work += ania_strategy_on(game, won, strategy)
    return Solution(winner, strategy, "lifting", {"scanned": work})
