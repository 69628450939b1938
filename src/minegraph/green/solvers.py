"""Solvers of the green game, chosen by name, and the olympiad's model solution.

======================  =================================================  =================
name                    idea                                               cost
======================  =================================================  =================
``attractor``           the model solution: largest trap for Bolek          O(k·m)
``lifting``             least good labelling for Bolek (progress measure)   O(k·m)
``fast``                classical algorithm, each round recomputed only     O(m) + local work
                        where a move was lost (see :mod:`.fast`)
``quadratic``           Chatterjee–Henzinger: small Bolek dominions found   O(n²)
                        in sparse subgraphs first (see :mod:`.quadratic`)
======================  =================================================  =================

Every solver returns a :class:`~minegraph.green.solution.Solution` holding both winning regions
and a positional winning strategy for each player.

Examples
--------
The sample of the task (fields 1-based in the comment, 0-based in the code):

>>> from minegraph.green.formats import read_oi
>>> game = read_oi(SAMPLE_GRA_IN)
>>> [solve(game, name).oi_answer() for name in sorted(SOLVERS)]
[[1, 2, 4, 6, 7], [1, 2, 4, 6, 7], [1, 2, 4, 6, 7], [1, 2, 4, 6, 7]]
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from minegraph.errors import MinegraphError
from minegraph.green.attractor import attractor, gather, pick_successor
from minegraph.green.game import ANIA, BOLEK, GreenGame
from minegraph.green.solution import Solution

__all__ = ["SOLVERS", "solve", "solve_attractor", "SAMPLE_GRA_IN", "SAMPLE_GRA_OUT"]

#: The task's sample (the olympiad's statement): a=5, b=3, green {4,5,6}; Ania wins from {1,2,4,6,7}.
SAMPLE_GRA_IN = "5 3\n0 1 6\n0 1 6\n0 1 8\n1 1 7\n1 1 8\n1 2 1 2\n0 2 1 2\n0 2 3 4\n"
SAMPLE_GRA_OUT = "5\n1\n2\n4\n6\n7\n"


def solve_attractor(game: GreenGame) -> Solution:
    """The olympiad's model solution: iterate ``Z_{i+1} = {z in Z_i : z keeps the trap rule}``.

    ``Force(Z)`` is Ania's attractor to ``Z``. Starting from all green fields, the green fields
    that break the "trap for Bolek" rule for ``Force(Z_i)`` are dropped until none does; Ania
    wins exactly on ``Force(Z_t)``. At most k+1 rounds of O(m) each: O(k·m).

    Strategies: Ania follows the attractor inside ``Force(Z_t)`` and, on her fields of ``Z_t``,
    stays inside it. For Bolek, let ``level(v)`` be the last round ``i`` with ``v`` in
    ``Force(Z_i)`` (-1 if none); he moves to a successor of least level. Along his plays the
    level never grows and drops strictly after every green field, so no cycle is green.

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
    >>> solve_attractor(g).oi_answer()
    [1, 2]
    """
    n = game.n
    ania = game.owner == ANIA
    zone = game.green.copy()
    level = np.full(n, -1, dtype=np.int64)
    rounds = 0
    scanned = 0
    while True:
        att = attractor(game, zone, ANIA, moves=False)
        scanned += att.scanned
        won = att.inside
        level[won] = rounds
        zs = np.flatnonzero(zone)
        pos, row = gather(game.succ_ptr, zs)
        scanned += pos.size
        into = np.bincount(row, weights=won[game.succ[pos]], minlength=zs.size)
        degree = game.succ_ptr[zs + 1] - game.succ_ptr[zs]
        keeps = np.where(ania[zs], into > 0, into == degree)
        rounds += 1
        if keeps.all():
            break
        zone[zs[~keeps]] = False
    winner = np.where(won, ANIA, BOLEK).astype(np.int8)
    strategy = np.full(n, -1, dtype=np.int64)
    # Ania's attractor moves: to a successor of least rank (outside counts as worst).
    walk = np.flatnonzero(won & ania & (att.rank > 0))
    strategy[walk] = pick_successor(game, walk, np.where(won, att.rank, n))
    stay = np.flatnonzero(won & ania & (att.rank == 0))
    strategy[stay] = pick_successor(game, stay, (~won).astype(np.int8))
    bolek = np.flatnonzero(~won & ~ania)
    strategy[bolek] = pick_successor(game, bolek, level)
    return Solution(winner, strategy, "attractor", {"rounds": rounds, "scanned": scanned})


def _lifting(game: GreenGame) -> Solution:
    from minegraph.green.lifting import solve_lifting
    return solve_lifting(game)


def _fast(game: GreenGame) -> Solution:
    from minegraph.green.fast import solve_fast
    return solve_fast(game)


def _quadratic(game: GreenGame) -> Solution:
    from minegraph.green.quadratic import solve_quadratic
    return solve_quadratic(game)


#: name -> solver; every solver takes a :class:`GreenGame` and returns a :class:`Solution`.
SOLVERS: dict[str, Callable[[GreenGame], Solution]] = {
    "attractor": solve_attractor,
    "lifting": _lifting,
    "fast": _fast,
    "quadratic": _quadratic,
}


def solve(game: GreenGame, algorithm: str = "fast") -> Solution:
    """Solve ``game`` with the named algorithm.

    Raises
    ------
    MinegraphError
        for an unknown name, listing the known ones.

    Parameters
    ----------
    game : GreenGame
        The game.
    algorithm : str
        One of the solvers' names (``fast``, ``attractor``, ...).

    Returns
    -------
    Solution
        Each field's winner, and the winning strategies.

    Examples
    --------
    >>> solve(GreenGame.from_oi(1, [0, 0], [[1], [0]]), "zielonka")
    Traceback (most recent call last):
    ...
    minegraph.errors.MinegraphError: unknown algorithm 'zielonka'; known: attractor, fast, lifting, quadratic
    """
    try:
        solver = SOLVERS[algorithm]
    except KeyError:
        raise MinegraphError(f"unknown algorithm {algorithm!r}; known: "
                             f"{', '.join(sorted(SOLVERS))}") from None
    return solver(game)
