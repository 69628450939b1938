"""The pair rule: what two overlapping numbers decide together (the subset rule and its
generalisation). Shared by the grades (:mod:`minegraph.generate.grade`) and the no-guess
player (:mod:`minegraph.generate.player`)."""

from __future__ import annotations

__all__ = ["pair_rule", "decide_pair"]


def pair_rule(constraints: list[tuple[frozenset[int], int]],
              focus: set[int] | None = None) -> tuple[set[int], set[int]]:
    """The pair rule over every two constraints (hidden cells, mines among them) sharing a
    cell: the cells it decides, ``(safe, mines)``. With ``focus`` (indices into
    ``constraints``), only pairs with at least one constraint in ``focus`` are examined (a
    player that applied the previous result need only look at the constraints changed since).

    Parameters
    ----------
    constraints
        ``(cells, mines)`` pairs: hidden cells (indices) and the mines among them.
    focus
        Indices into ``constraints``; ``None``: every pair.

    Returns
    -------
    tuple of set
        ``(safe, mines)``, the cells (indices) decided.

    Examples
    --------
    >>> pair_rule([(frozenset({0, 1}), 1), (frozenset({0, 1, 2}), 2)])   # the subset rule
    (set(), {2})
    """
    safe: set[int] = set()
    mines: set[int] = set()
    by_cell: dict[int, list[int]] = {}
    for k, (cells, _) in enumerate(constraints):
        for q in cells:
            by_cell.setdefault(q, []).append(k)
    pairs: set[tuple[int, int]] = set()
    if focus is None:
        for ks in by_cell.values():
            pairs.update((i, j) for i in ks for j in ks if i < j)
    else:
        for i in focus:
            for q in constraints[i][0]:
                pairs.update((min(i, j), max(i, j)) for j in by_cell[q] if j != i)
    for i, j in pairs:
        (ca, na), (cb, nb) = constraints[i], constraints[j]
        decide_pair(ca, na, cb, nb, safe, mines)
    return safe, mines


def decide_pair(ca: frozenset[int], na: int, cb: frozenset[int], nb: int,
                safe: set[int], mines: set[int]) -> None:
    """What two constraints decide together (cells outside their overlap), added to ``safe``
    and ``mines``: nothing when they share no cell or contradict each other.

    Parameters
    ----------
    ca, cb : frozenset of int
        The hidden cells of each constraint.
    na, nb : int
        The mines each constraint puts among its cells.
    safe, mines : set of int
        The cells found safe and mined so far; updated in place with the cells of either
        constraint outside the overlap that the pair decides.

    Examples
    --------
    >>> safe, mines = set(), set()
    >>> decide_pair(frozenset({0, 1}), 1, frozenset({0, 1, 2}), 1, safe, mines)
    >>> safe, mines
    ({2}, set())
    """
    both = len(ca & cb)
    only_a, only_b = len(ca) - both, len(cb) - both
    # Mines in the overlap: at least what each number cannot put elsewhere, at most what fits.
    # The bounds are the same seen from either number.
    low = max(0, na - only_a, nb - only_b)
    high = min(both, na, nb)
    if low > high:
        return      # inconsistent; leave it to the exact engine
    # The sets of cells outside the overlap are built only when they are decided.
    if only_a and na - low == 0:
        safe |= ca - cb
    if only_a and na - high == only_a:
        mines |= ca - cb
    if only_b and nb - low == 0:
        safe |= cb - ca
    if only_b and nb - high == only_b:
        mines |= cb - ca
