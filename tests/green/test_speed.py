"""The solvers at full size (slow: run with ``-m slow``): a worst case of 3,000 positions and
30,000 moves, and a random game of a million moves, solved by both solvers with the same
answer, checked by the independent verifier. How fast they are is measured by
``bench/bench_green.py`` (figures in docs/green.md), never asserted here."""

from __future__ import annotations

import pytest

from minegraph.green.families import random_game, worst_case
from minegraph.green.solvers import solve
from minegraph.green.verify import verify


@pytest.mark.slow
@pytest.mark.parametrize("linked", [False, True])
def test_worst_case_at_the_limits(linked: bool) -> None:
    game = worst_case(3000, 30_000, 100, seed=0, linked=linked)
    attractor, fast = solve(game, "attractor"), solve(game, "fast")
    assert verify(game, fast) and attractor.same_regions(fast)


@pytest.mark.slow
def test_a_million_moves() -> None:
    game = random_game(100_000, 100_000, 1_000_000, 100_000, seed=9)
    sol = solve(game, "fast")
    assert verify(game, sol)
    other = solve(game, "attractor")
    assert other.same_regions(sol)
