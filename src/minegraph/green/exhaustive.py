"""The oracle: search the finite game exactly as the task defines it.

A play is a path of distinct fields; it ends when the token enters a field already on it, and
Ania wins iff the fields from that field's first visit to the end include a green one. The state
of a play is the current field, the set of fields on the path, and the set of those fields from
which the rest of the path already has a green field (a suffix property, so a set suffices).
Searching all plays with memoisation takes O(n·3^n) states at worst: for tiny games only (the
tests use n <= 8). It shares no code with the solvers.
"""

from __future__ import annotations

from functools import lru_cache

from minegraph.green.game import ANIA, GreenGame

__all__ = ["exhaustive_winners", "MAX_EXHAUSTIVE"]

#: Larger games are refused: the search is exponential.
MAX_EXHAUSTIVE = 12


def exhaustive_winners(game: GreenGame) -> list[bool]:
    """For each field (0-based), whether Ania wins the finite game started there.

    Parameters
    ----------
    game : GreenGame
        A small game.

    Returns
    -------
    list of bool
        Per field.

    Examples
    --------
    >>> from minegraph.green.formats import read_oi
    >>> from minegraph.green.solvers import SAMPLE_GRA_IN
    >>> wins = exhaustive_winners(read_oi(SAMPLE_GRA_IN))
    >>> [v + 1 for v, w in enumerate(wins) if w]
    [1, 2, 4, 6, 7]
    """
    n = game.n
    if n > MAX_EXHAUSTIVE:
        raise ValueError(f"exhaustive search is for at most {MAX_EXHAUSTIVE} fields, not {n}")
    succ = game.successor_lists()
    ania = [o == ANIA for o in game.owner.tolist()]
    green = game.green.tolist()

    @lru_cache(maxsize=None)
    def ania_wins(v: int, path: int, covered: int) -> bool:
        # ``covered``: fields of ``path`` whose stretch to ``v`` (inclusive) holds a green field.
        outcomes = []
        for w in succ[v]:
            bit = 1 << w
            if path & bit:
                outcomes.append(bool(covered & bit))
            else:
                new_path = path | bit
                outcomes.append(ania_wins(w, new_path, new_path if green[w] else covered))
            if outcomes[-1] == ania[v]:  # the mover found what she or he wanted
                return bool(ania[v])
        return not ania[v]

    result = []
    for v in range(n):
        bit = 1 << v
        result.append(ania_wins(v, bit, bit if green[v] else 0))
    ania_wins.cache_clear()
    return result
