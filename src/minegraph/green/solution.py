"""What every solver returns: the winner of each field and a positional strategy for each player.

A strategy is one chosen successor per field of the winner's own: ``strategy[v]`` is set exactly
when the owner of ``v`` wins from ``v`` (Ania's moves in Ania's region, Bolek's in Bolek's) and is
``-1`` elsewhere. Positional strategies suffice in this game (it is a Büchi game), and with them
the answer can be checked in linear time by :mod:`minegraph.green.verify`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from minegraph.green.attractor import attractor, pick_successor
from minegraph.green.game import ANIA, BOLEK, GreenGame

__all__ = ["Solution", "ania_strategy_on"]


@dataclass(frozen=True, eq=False)
class Solution:
    """The solved game.

    Attributes
    ----------
    winner : numpy.ndarray of int8
        ``0`` where Ania wins, ``1`` where Bolek wins.
    strategy : numpy.ndarray of int64
        The winner's chosen successor on the winner's own fields, ``-1`` elsewhere.
    algorithm : str
        The solver that produced it.
    stats : dict
        Work counters (e.g. ``"scanned"`` edges, ``"iterations"``) for the benchmarks.

    Examples
    --------
    >>> s = Solution(np.array([0, 1], dtype=np.int8), np.array([1, 0]), "hand")
    >>> s.ania_fields().tolist(), s.bolek_fields().tolist(), s.oi_answer()
    ([0], [1], [1])
    """

    winner: np.ndarray
    strategy: np.ndarray
    algorithm: str = ""
    stats: dict[str, Any] = field(default_factory=dict)

    def ania_fields(self) -> np.ndarray:
        """Ania's winning fields, 0-based, ascending."""
        return np.flatnonzero(self.winner == ANIA)

    def bolek_fields(self) -> np.ndarray:
        """Bolek's winning fields, 0-based, ascending."""
        return np.flatnonzero(self.winner == BOLEK)

    def oi_answer(self) -> list[int]:
        """Ania's winning fields numbered from 1, as ``gra.out`` lists them."""
        fields: list[int] = (self.ania_fields() + 1).tolist()
        return fields

    def same_regions(self, other: "Solution") -> bool:
        """True when both solutions give the same winner everywhere."""
        return bool(np.array_equal(self.winner, other.winner))


def ania_strategy_on(game: GreenGame, region: np.ndarray, strategy: np.ndarray) -> int:
    """Fill in a winning strategy for Ania on her winning ``region`` (a trap for Bolek).

    Inside her region Ania can force a green field from everywhere (else Bolek could avoid
    green forever there), so her attractor to the region's green fields, computed in the
    subgame of the region, covers it; on green fields of her own she stays in the region.
    Writes into ``strategy``; returns the edges scanned. O(m).

    Parameters
    ----------
    game : GreenGame
        The game.
    region : numpy.ndarray
        A boolean mask of Ania's winning region.
    strategy : numpy.ndarray
        The strategy array, filled in on her fields of ``region``.

    Returns
    -------
    int
        The moves looked at.
    """
    if not region.any():
        return 0
    att = attractor(game, game.green & region, ANIA, alive=region)
    mine = region & (game.owner == ANIA)
    walk = mine & (att.rank > 0)
    strategy[walk] = att.via[walk]
    stay = np.flatnonzero(mine & (att.rank == 0))
    strategy[stay] = pick_successor(game, stay, (~region).astype(np.int8))
    return att.scanned
