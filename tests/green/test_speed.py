"""Speed checks at full size (slow: run with ``-m slow``); figures are in docs/green.md."""

from __future__ import annotations

import time

import pytest

from minegraph.green.families import random_game, worst_case
from minegraph.green.solvers import solve
from minegraph.green.verify import verify


def _best_of(game, name, repeats=5):
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        sol = solve(game, name)
        best = min(best, time.perf_counter() - t)
    return best, sol


@pytest.mark.slow
@pytest.mark.parametrize("linked", [False, True])
def test_worst_case_at_the_limits(linked):
    game = worst_case(3000, 30_000, 100, seed=0, linked=linked)
    best = min(_best_of(game, name)[0] for name in ("attractor", "fast"))
    assert best < 0.1  # the target is 50 ms; the margin absorbs a busy machine


@pytest.mark.slow
def test_a_million_moves():
    game = random_game(100_000, 100_000, 1_000_000, 100_000, seed=9)
    elapsed, sol = _best_of(game, "fast", repeats=2)
    assert elapsed < 2.0
    assert verify(game, sol)
    other = solve(game, "attractor")
    assert other.same_regions(sol)
