"""Generators of green games: the olympiad's ten kinds of test, and random games of any size.

Every generator takes an explicit ``seed`` (anything :func:`numpy.random.default_rng` accepts)
and returns games that follow the task's rules (Ania's fields first, alternating moves, no
repeated successor); field numbers are shuffled within each player's block so that no solver
profits from a lucky order.

Examples
--------
>>> from minegraph.green.game import check_task_rules
>>> g = random_game(50, 50, 400, 10, seed=1)
>>> check_task_rules(g); (g.n, g.k)
(100, 10)
>>> [name for name, _ in task_tests(seed=0)][:3]
['gra0-sample', 'gra1-hand', 'gra2-hand']
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from minegraph.green.game import ANIA, BOLEK, GreenGame
from minegraph.green.formats import read_oi
from minegraph.green.solvers import SAMPLE_GRA_IN

__all__ = ["random_game", "random_degree_game", "ordered_game", "worst_case", "dense_worst_case",
           "hand_made", "task_tests", "HAND_MADE"]

#: Small hand-made games (gra.in text) with Ania's winning fields (1-based), checked by hand.
HAND_MADE: dict[str, tuple[str, list[int]]] = {
    # A green 2-cycle: Ania wins both fields.
    "green-loop": ("1 1\n1 1 2\n0 1 1\n", [1, 2]),
    # A white 2-cycle: Bolek wins both.
    "white-loop": ("1 1\n0 1 2\n0 1 1\n", []),
    # Ania chooses between a green and a white cycle through Bolek's fields 3 and 4.
    "ania-chooses": ("2 2\n1 2 3 4\n0 1 4\n0 1 1\n0 1 2\n", [1, 3]),
    # Bolek chooses: from field 3 he escapes to the white cycle 2-4.
    "bolek-chooses": ("2 2\n1 1 3\n0 1 4\n0 2 1 2\n0 1 2\n", []),
    # Green only on a path into a white cycle: visiting green once is not enough.
    "green-transient": ("2 2\n1 1 3\n0 1 4\n0 1 2\n0 1 2\n", []),
    # Two green fields; Bolek can avoid one of them but not both.
    "two-greens": ("2 2\n1 1 3\n1 1 4\n0 2 1 2\n0 2 1 2\n", [1, 2, 3, 4]),
    # One long cycle through a single green field: Ania wins everywhere.
    "long-cycle": ("3 3\n0 1 4\n1 1 5\n0 1 6\n0 1 2\n0 1 3\n0 1 1\n", [1, 2, 3, 4, 5, 6]),
    # The same with a short white cycle 3-6 that Bolek can close: he wins everywhere.
    "short-cut": ("3 3\n0 1 4\n1 1 5\n0 1 6\n0 1 2\n0 1 3\n0 2 1 3\n", []),
}


def _oi_ordered(owner: np.ndarray, green: np.ndarray, src: np.ndarray, dst: np.ndarray,
                rng: np.random.Generator) -> GreenGame:
    """Renumber fields: Ania's first, each block shuffled; drop repeated edges."""
    n = owner.shape[0]
    ania = np.flatnonzero(owner == ANIA)
    bolek = np.flatnonzero(owner == BOLEK)
    new_of = np.empty(n, dtype=np.int64)
    new_of[rng.permutation(ania)] = np.arange(ania.size)
    new_of[rng.permutation(bolek)] = ania.size + np.arange(bolek.size)
    s, d = new_of[src], new_of[dst]
    key = np.unique(s * n + d)
    s, d = np.divmod(key, n)
    new_owner = np.empty(n, dtype=np.int8)
    new_owner[new_of] = owner
    new_green = np.empty(n, dtype=bool)
    new_green[new_of] = green
    return GreenGame.from_edges(new_owner, new_green, s, d)


def random_game(n_ania: int, n_bolek: int, m: int, k: int, seed: int | None) -> GreenGame:
    """A random game: every field has one move, the other ``m - n`` moves go from uniformly
    chosen fields to uniformly chosen fields of the other player; ``k`` random green fields.

    Repeated moves are dropped, so the game has slightly fewer than ``m`` moves when they are
    dense. Vectorised: O(m log m), fine for 10^6 moves.

    Parameters
    ----------
    n_ania, n_bolek : int
        The fields of each player.
    m : int
        The moves.
    k : int
        The green fields.
    seed : int or None
        The random seed.

    Returns
    -------
    GreenGame
        The game.
    """
    rng = np.random.default_rng(seed)
    n = n_ania + n_bolek
    if n_ania < 1 or n_bolek < 1 or m < n:
        raise ValueError("need fields of both players and at least one move per field")
    owner = np.repeat(np.array([ANIA, BOLEK], dtype=np.int8), [n_ania, n_bolek])
    src = np.concatenate((np.arange(n, dtype=np.int64), rng.integers(0, n, m - n)))
    ania = src < n_ania
    dst = np.where(ania, n_ania + rng.integers(0, n_bolek, src.size),
                   rng.integers(0, n_ania, src.size))
    green = np.zeros(n, dtype=bool)
    green[rng.choice(n, size=min(k, n), replace=False)] = True
    return _oi_ordered(owner, green, src, dst, rng)


def random_degree_game(n: int, degree: int, k: int, seed: int | None) -> GreenGame:
    """``n`` fields split evenly, about ``degree`` moves per field on average.

    Parameters
    ----------
    n : int
        The fields.
    degree : int
        The average number of moves per field.
    k : int
        The green fields.
    seed : int or None
        The random seed.

    Returns
    -------
    GreenGame
        The game.
    """
    return random_game(n - n // 2, n // 2, n * degree, k, seed)


def ordered_game(half: int, k: int, seed: int | None) -> GreenGame:
    """The task's test 7: every field moves to *all* fields of the other player with a larger
    number, in the interleaved numbering Ania 1 < Bolek 1 < Ania 2 < Bolek 2 < ...; the last
    Bolek field (which has none) moves to Ania's first. ``half`` fields each; m = half² + 1.

    (Read literally on ``gra.in`` numbers — Ania's fields first — Bolek's fields would have no
    moves, so the interleaved order is our reading of the task's description.)

    Parameters
    ----------
    half : int
        The fields of each player.
    k : int
        The green fields.
    seed : int or None
        The random seed.

    Returns
    -------
    GreenGame
        The game.
    """
    rng = np.random.default_rng(seed)
    i, j = np.triu_indices(half)  # Ania i -> Bolek j for j >= i
    bi, bj = np.triu_indices(half, 1)  # Bolek bi -> Ania bj for bj > bi
    src = np.concatenate((i, half + bi, [2 * half - 1]))
    dst = np.concatenate((half + j, bj, [0]))
    owner = np.repeat(np.array([ANIA, BOLEK], dtype=np.int8), [half, half])
    green = np.zeros(2 * half, dtype=bool)
    green[rng.choice(2 * half, size=min(k, 2 * half), replace=False)] = True
    return _oi_ordered(owner, green, src, dst, rng)


def worst_case(n: int, m: int, k: int, seed: int | None, *, linked: bool = False) -> GreenGame:
    """A game on which the olympiad's two algorithms, and the classical one, do Θ(k·m) work.

    A green core (Ania's ``c`` <-> Bolek's ``d``) and a bulk of about ``n - 4k`` fields with
    most of the ``m`` moves, all attracted to the core within three levels, so every attractor
    sweeps the bulk. Beside it a chain of k-1 gadgets ``g_j -> y_j -> x_j -> {y_j, z_j}``,
    ``z_j -> g_{j-1}`` (``g_j`` green): Bolek wins the first gadget outright, and each round of
    any of the algorithms uncovers only the next one, so there are k rounds of Θ(m) each.

    With ``linked`` every Ania bulk field also gets a (losing) move into the chain, so the whole
    bulk can reach it and even local recomputation (:mod:`.fast`) must sweep it every round.

    Parameters
    ----------
    n : int
        The fields.
    m : int
        The moves.
    k : int
        The green fields.
    seed : int or None
        The random seed.
    linked : bool
        Give every Ania bulk field a losing move into the chain too.

    Returns
    -------
    GreenGame
        The game.
    """
    rng = np.random.default_rng(seed)
    chain = k - 1
    bulk = n - 2 - 4 * chain
    if chain < 0 or bulk < 4:
        raise ValueError("need k >= 1 and n > 4k + 2")
    owner: list[int] = [ANIA, BOLEK]  # c = 0, d = 1
    green = [True, False]
    src: list[int] = [0, 1]
    dst: list[int] = [1, 0]
    g: list[int] = []
    for j in range(chain):
        base = len(owner)
        gj, yj, xj, zj = base, base + 1, base + 2, base + 3
        owner += [ANIA, BOLEK, ANIA, BOLEK]
        green += [True, False, False, False]
        src += [gj, yj, xj]
        dst += [yj, xj, yj]
        if j > 0:
            src += [xj, zj]
            dst += [zj, g[-1]]
        else:
            src += [zj]  # z_1 has no use but needs a move
            dst += [xj]
        g.append(gj)
    first = len(owner)
    xs = np.arange(first, first + bulk // 2)
    ys = np.arange(first + bulk // 2, first + bulk)
    owner += [ANIA] * xs.size + [BOLEK] * ys.size
    green += [False] * bulk
    src += xs.tolist() + ys.tolist()
    dst += [1] * xs.size + [0] * ys.size  # X -> d, Y -> c: attracted at levels 2 and 3
    extra = max(0, m - len(src) - (xs.size if linked and chain else 0))
    es = rng.integers(0, bulk, extra)
    ed = rng.integers(0, min(xs.size, ys.size), extra)
    from_x = es < xs.size
    bulk_src = np.where(from_x, xs[np.minimum(es, xs.size - 1)],
                        ys[np.clip(es - xs.size, 0, ys.size - 1)])
    bulk_dst = np.where(from_x, ys[ed % ys.size], xs[ed % xs.size])
    all_src = np.concatenate((np.asarray(src, dtype=np.int64), bulk_src))
    all_dst = np.concatenate((np.asarray(dst, dtype=np.int64), bulk_dst))
    if linked and chain:
        ychain = np.asarray(g, dtype=np.int64) + 1
        all_src = np.concatenate((all_src, xs))
        all_dst = np.concatenate((all_dst, ychain[rng.integers(0, chain, xs.size)]))
    return _oi_ordered(np.asarray(owner, dtype=np.int8), np.asarray(green, dtype=bool),
                       all_src, all_dst, rng)


def dense_worst_case(n: int, seed: int | None) -> GreenGame:
    """A dense game with k = n/2 green fields and m ≈ n²/8 moves where the classical algorithm,
    the olympiad's two and local recomputation all need Θ(n) rounds of Θ(m) work: Θ(n³).

    A complete bipartite bulk (Ania's ``X`` <-> Bolek's ``Y``, about n/4 fields each, so
    2·(n/4)² = n²/8 moves), which Ania wins (all of ``X`` is green), beside the chain of
    :func:`worst_case` with about n/8 gadgets ``g_j -> y_j -> x_j -> {y_j, z_j}``,
    ``z_j -> g_{j-1}``. As in ``worst_case(linked=True)`` every field of ``X`` also has a
    (losing) move to some ``y_j``, every ``y_j`` getting at least one, so each round's removal
    touches the bulk and every attractor sweeps it. Green fields beyond ``X`` and the ``g_j``
    are taken from ``Y`` to make k = n // 2 exactly. Needs n >= 32.

    Parameters
    ----------
    n : int
        The fields.
    seed : int or None
        The random seed.

    Returns
    -------
    GreenGame
        The game.

    Examples
    --------
    >>> from minegraph.green.game import check_task_rules
    >>> g = dense_worst_case(64, seed=0)
    >>> check_task_rules(g, limits=False); (g.n, g.k, g.m)
    (64, 32, 568)
    """
    if n < 32:
        raise ValueError("need n >= 32")
    rng = np.random.default_rng(seed)
    chain = n // 8
    side = (n - 4 * chain) // 2
    extra = n - 4 * chain - 2 * side  # 0 or 1 field left over: one more Bolek bulk field
    owner: list[int] = []
    src: list[int] = []
    dst: list[int] = []
    g: list[int] = []
    for j in range(chain):
        gj, yj, xj, zj = 4 * j, 4 * j + 1, 4 * j + 2, 4 * j + 3
        owner += [ANIA, BOLEK, ANIA, BOLEK]
        src += [gj, yj, xj, xj, zj]
        dst += [yj, xj, yj, zj, g[-1] if j > 0 else xj]  # z_1 only returns to x_1
        g.append(gj)
    xs = np.arange(4 * chain, 4 * chain + side)
    ys = np.arange(4 * chain + side, n)
    owner += [ANIA] * side + [BOLEK] * (side + extra)
    green = np.zeros(n, dtype=bool)
    green[g] = True
    green[xs] = True
    green[ys[:max(0, n // 2 - chain - side)]] = True
    bx, by = np.meshgrid(xs, ys, indexing="ij")
    links = np.asarray(g, dtype=np.int64)[np.arange(side) % chain] + 1  # y_j = g_j + 1
    all_src = np.concatenate((np.asarray(src, dtype=np.int64), bx.ravel(), by.ravel(), xs))
    all_dst = np.concatenate((np.asarray(dst, dtype=np.int64), by.ravel(), bx.ravel(), links))
    return _oi_ordered(np.asarray(owner, dtype=np.int8), green, all_src, all_dst, rng)


def hand_made(name: str) -> tuple[GreenGame, list[int]]:
    """One of :data:`HAND_MADE`: the game and Ania's winning fields (1-based).

    Parameters
    ----------
    name : str
        A name in :data:`HAND_MADE`.

    Returns
    -------
    (GreenGame, list of int)
        The game and Ania's winning fields.
    """
    text, answer = HAND_MADE[name]
    return read_oi(text), list(answer)


def task_tests(seed: int | None, sizes: Sequence[int] = (60, 600, 1500, 3000)) -> list[tuple[str, GreenGame]]:
    """The olympiad's eleven test files, by kind (section 4 of the task), within its limits.

    ``sizes`` are the field counts of the small-random, moderate, large and very large tests.

    Parameters
    ----------
    seed : int or None
        The random seed.
    sizes : sequence of int
        The sizes used by the size-graded kinds.

    Returns
    -------
    list of (str, GreenGame)
        Each test's kind and game.
    """
    rng = np.random.default_rng(seed)
    small, moderate, large, huge = sizes
    s = rng.integers(0, 2**32, 10)
    return [
        ("gra0-sample", read_oi(SAMPLE_GRA_IN)),
        ("gra1-hand", hand_made("two-greens")[0]),
        ("gra2-hand", hand_made("long-cycle")[0]),
        ("gra3-small-random", random_degree_game(small, 3, 8, s[0])),
        ("gra4-moderate-small-degree", random_degree_game(moderate, 2, 40, s[1])),
        ("gra5-moderate-large-degree", random_degree_game(moderate, 45, 60, s[2])),
        ("gra6-large", random_degree_game(large, 8, 80, s[3])),
        ("gra7-ordered", ordered_game(120, 50, s[4])),
        ("gra8-very-large-small-degree", random_degree_game(huge, 2, 100, s[5])),
        ("gra9-very-large-large-degree", random_degree_game(huge, 10, 100, s[6])),
        ("gra10-worst-case", worst_case(huge, 30_000, 100, s[7])),
    ]
