"""Known answers, agreement between solvers, and the work the model algorithms do."""

from __future__ import annotations

import numpy as np
import pytest

from minegraph.errors import MinegraphError
from minegraph.green.families import HAND_MADE, hand_made, task_tests, worst_case
from minegraph.green.formats import read_oi
from minegraph.green.lifting import least_good_labelling
from minegraph.green.solvers import SAMPLE_GRA_IN, SOLVERS, solve
from minegraph.green.verify import verify


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_sample(name):
    game = read_oi(SAMPLE_GRA_IN)
    sol = solve(game, name)
    assert sol.oi_answer() == [1, 2, 4, 6, 7]
    assert verify(game, sol)
    # Bolek wins {3, 8} by playing 8 -> 3 (SEEDS.md §3).
    assert sol.strategy[7] == 2


def test_sample_labelling_matches_the_task():
    # Example 3.5 of the task: beta_6 = (inf, inf, 0, inf, 1, inf, inf, 0), inf = k + 1 = 4.
    assert least_good_labelling(read_oi(SAMPLE_GRA_IN))[0] == [4, 4, 0, 4, 1, 4, 4, 0]


@pytest.mark.parametrize("case", sorted(HAND_MADE))
@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_hand_made(case, name):
    game, answer = hand_made(case)
    sol = solve(game, name)
    assert sol.oi_answer() == answer
    assert verify(game, sol)


def test_task_kinds_agree_and_verify():
    for label, game in task_tests(seed=7, sizes=(60, 300, 600, 1000)):
        sols = {name: solve(game, name) for name in SOLVERS}
        first = sols["attractor"]
        for name, sol in sols.items():
            assert sol.same_regions(first), (label, name)
            assert verify(game, sol), (label, name, verify(game, sol).reason)


def test_unknown_solver_lists_known_ones():
    with pytest.raises(MinegraphError, match="known: attractor, fast, lifting, quadratic"):
        solve(read_oi(SAMPLE_GRA_IN), "psi")


@pytest.mark.parametrize("linked", [False, True])
def test_worst_case_makes_the_model_solution_do_k_rounds(linked):
    k = 12
    game = worst_case(200, 1500, k, seed=3, linked=linked)
    assert game.k == k
    sol = solve(game, "attractor")
    assert sol.stats["rounds"] == k
    # Every round sweeps the whole bulk: work ~ k·m.
    assert sol.stats["scanned"] > 0.8 * k * (game.m - 5 * k)
    fast = solve(game, "fast")
    assert fast.same_regions(sol) and verify(game, fast)
    assert fast.stats["rounds"] >= k - 1
    if not linked:  # local recomputation avoids the bulk
        assert fast.stats["scanned"] < 0.3 * sol.stats["scanned"]
    # Ania wins the bulk and the core; Bolek the chain of 4(k-1) fields.
    assert np.count_nonzero(sol.winner) == 4 * (k - 1)


def test_lifting_work_grows_with_k_on_worst_case():
    small = solve(worst_case(300, 2000, 5, seed=1), "lifting").stats["scanned"]
    large = solve(worst_case(300, 2000, 20, seed=1), "lifting").stats["scanned"]
    assert large > 2.5 * small


def test_no_green_means_bolek_wins_everywhere():
    game = read_oi("2 1\n0 1 3\n0 1 3\n0 2 1 2\n")
    for name in SOLVERS:
        sol = solve(game, name)
        assert sol.oi_answer() == [] and verify(game, sol)


@pytest.mark.parametrize("seed", range(40))
def test_medium_random_games_agree(seed):
    # Medium games with many rounds exercise the fast solver's local search, its numpy levels
    # and its fall-back to full rounds; every answer is checked by the verifier.
    rng = np.random.default_rng(seed)
    from minegraph.green.families import random_game
    a, b = (int(x) for x in rng.integers(20, 200, 2))
    m = int(rng.integers(a + b, 4 * (a + b)))
    game = random_game(a, b, m, int(rng.integers(1, (a + b) // 2)), seed=seed)
    sols = [solve(game, name) for name in sorted(SOLVERS)]
    for sol in sols:
        assert sol.same_regions(sols[0]) and verify(game, sol)


@pytest.mark.parametrize("seed", range(25))
def test_perturbed_worst_cases_agree(seed):
    # The worst-case family with random extra moves: many rounds, local searches that stay
    # small, grow into numpy levels or give up — all answers must agree and verify.
    from minegraph.green.game import GreenGame
    rng = np.random.default_rng(seed)
    base = worst_case(400, 2500, int(rng.integers(5, 60)), seed=seed, linked=bool(seed % 2))
    extra = int(rng.integers(1, 60))
    src = rng.integers(0, base.n, extra)
    ania = base.owner == 0
    dst = np.where(ania[src], rng.choice(np.flatnonzero(~ania), extra),
                   rng.choice(np.flatnonzero(ania), extra))
    game = GreenGame.from_edges(base.owner, base.green, np.concatenate((base.edge_source, src)),
                                np.concatenate((base.succ, dst)))
    sols = [solve(game, name) for name in sorted(SOLVERS)]
    for sol in sols:
        assert sol.same_regions(sols[0]) and verify(game, sol)
