"""The speedrun community's figures of a reviewed game: RQP, IOE, STNB, ZiNi, openings,
islands, path length, clicks per second (docs/review.md, "The community's figures").

Computed here from the layout, the game's time and ms_toollib's click counts where the
definition is a formula (RQP, IOE, clicks per second, throughput, correctness) or a count over
the layout (openings, islands), and tested against ms_toollib's figures; taken from ms_toollib
where it needs the mouse's path or a search (ZiNi, HZiNi, path length) or where its formula is
its own (STNB). Where tools differ, the definitions are ms_toollib's (Metasweeper's): RQP is
``time² / 3BV solved`` (Arbiter's is ``time × (time + 1) / 3BV``); STNB is ms_toollib's, whose
source gives ``C × 3BV / time^1.7 × sqrt(3BV solved / 3BV)`` with the constants
:data:`STNB_CONSTANTS` (Arbiter uses 47.22 on the 9×9 Beginner board; ms_toollib has a
Beginner constant only for 8×8), and no STNB (``null``) on other boards.

Examples
--------
>>> from minegraph.topology import grid_neighbors
>>> nbrs = grid_neighbors("square", 1, 7)              # 0 1 M 1 1 M 1: one opening,
>>> openings(nbrs, {2, 5}), islands(nbrs, {2, 5})      # islands (3, 4) and (6)
(1, 2)
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:
    from minegraph.play.review import Review

__all__ = ["figures", "openings", "islands", "STNB_CONSTANTS"]

#: ms_toollib's STNB constant per board (rows, cols, mines).
STNB_CONSTANTS = {(8, 8, 10): 47.299, (16, 16, 40): 153.73, (16, 30, 99): 435.001}


def _zeros(neighbors: Sequence[Sequence[int]], layout: frozenset[int] | set[int]) -> list[bool]:
    return [c not in layout and not any(q in layout for q in neighbors[c])
            for c in range(len(neighbors))]


def _components(neighbors: Sequence[Sequence[int]], members: set[int]) -> int:
    """How many connected groups ``members`` form."""
    seen: set[int] = set()
    groups = 0
    for start in sorted(members):
        if start in seen:
            continue
        groups += 1
        seen.add(start)
        stack = [start]
        while stack:
            for q in neighbors[stack.pop()]:
                if q in members and q not in seen:
                    seen.add(q)
                    stack.append(q)
    return groups


def openings(neighbors: Sequence[Sequence[int]], layout: frozenset[int] | set[int]) -> int:
    """The layout's openings: connected areas of zeros.

    Parameters
    ----------
    neighbors : sequence of sequence of int
        The board's neighbour table.
    layout : set of int
        The mined cells.

    Returns
    -------
    int
        How many openings.

    Examples
    --------
    >>> from minegraph.topology import grid_neighbors
    >>> openings(grid_neighbors("square", 1, 5), {2})      # 0 1 M 1 0
    2
    """
    zero = _zeros(neighbors, layout)
    return _components(neighbors, {c for c, z in enumerate(zero) if z})


def islands(neighbors: Sequence[Sequence[int]], layout: frozenset[int] | set[int]) -> int:
    """The layout's islands: connected groups of safe cells that no opening uncovers (each
    needs a click of its own).

    Parameters
    ----------
    neighbors : sequence of sequence of int
        The board's neighbour table.
    layout : set of int
        The mined cells.

    Returns
    -------
    int
        How many islands.

    Examples
    --------
    >>> from minegraph.topology import grid_neighbors
    >>> islands(grid_neighbors("square", 1, 3), {1})        # 1 M 1: two islands
    2
    """
    zero = _zeros(neighbors, layout)
    reached = {q for c, z in enumerate(zero) if z for q in (c, *neighbors[c])}
    lone = {c for c in range(len(neighbors)) if c not in layout and c not in reached}
    return _components(neighbors, lone)


def _ratio(a: float, b: float) -> float | None:
    return a / b if b else None


def figures(review: Review) -> dict[str, Any]:
    """The community's figures of a reviewed game (``null`` where undefined: no time, no
    clicks, or STNB of a game not won or of a board without an STNB constant).

    Parameters
    ----------
    review
        The review.

    Returns
    -------
    dict
        ``rqp``, ``ioe``, ``stnb``, ``zini``, ``hzini``, ``openings``, ``islands``,
        ``path`` (pixels, ms_toollib's), ``clicks_per_second``,
        ``effective_clicks_per_second``, ``throughput`` (3BV solved per effective click)
        and ``correctness`` (effective clicks over clicks).
    """
    from minegraph.topology import grid_neighbors
    nbrs = grid_neighbors("square", review.rows, review.cols)
    t, solved, bbbv = review.time, review.bbbv_solved, review.bbbv
    total, effective = review.counts.get("total", 0), review.counts.get("effective", 0)
    toollib = review.toollib

    def taken(key: str) -> Any:
        value = toollib.get(key)
        return value if isinstance(value, (int, float)) and not isinstance(value, bool) \
            and math.isfinite(value) else None

    # STNB as ms_toollib gives it, which is 0 where it has no constant: undefined, so null.
    stnb = taken("stnb") if (review.rows, review.cols, review.mines) in STNB_CONSTANTS else None
    out = {"rqp": _ratio(t * t, solved), "ioe": _ratio(solved, total), "stnb": stnb,
           "zini": taken("zini"), "hzini": taken("hzini"),
           "openings": openings(nbrs, review.layout), "islands": islands(nbrs, review.layout),
           "path": taken("path"), "clicks_per_second": _ratio(total, t),
           "effective_clicks_per_second": _ratio(effective, t),
           "throughput": _ratio(solved, effective), "correctness": _ratio(effective, total)}
    return {k: round(v, 6) if isinstance(v, float) else v for k, v in out.items()}
