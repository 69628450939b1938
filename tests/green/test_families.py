"""The generators follow the task's rules, are reproducible, and have the promised shape."""

from __future__ import annotations

import numpy as np
import pytest

from minegraph.green.families import (ordered_game, random_degree_game, random_game,
                                      task_tests, worst_case)
from minegraph.green.game import MAX_EDGES, MAX_FIELDS, MAX_GREEN, check_task_rules


def test_task_tests_follow_the_rules_and_limits():
    names = []
    for name, game in task_tests(seed=11):
        check_task_rules(game)  # includes the limits
        names.append(name)
    assert len(names) == 11 and names[-1] == "gra10-worst-case"
    last = task_tests(seed=11)[-1][1]
    assert last.n == MAX_FIELDS and last.k == MAX_GREEN and last.m > 0.99 * MAX_EDGES


def test_same_seed_same_game():
    a, b = random_game(30, 20, 200, 5, seed=4), random_game(30, 20, 200, 5, seed=4)
    assert a.successor_lists() == b.successor_lists() and np.array_equal(a.green, b.green)
    c = random_game(30, 20, 200, 5, seed=5)
    assert a.successor_lists() != c.successor_lists()


def test_random_sizes():
    g = random_degree_game(1000, 6, 30, seed=0)
    check_task_rules(g)
    assert g.n == 1000 and g.k == 30 and 5500 < g.m <= 6000


def test_ordered_game_moves_to_every_larger_opponent():
    half = 9
    g = ordered_game(half, 4, seed=2)
    check_task_rules(g)
    assert g.m == half * half + 1
    # Out-degrees are the interleaved counts: Ania's i-th has half - i, Bolek's j-th half - j - 1.
    degrees = sorted(np.diff(g.succ_ptr).tolist())
    expected = sorted([half - i for i in range(half)] + [half - j - 1 for j in range(half)])
    expected[expected.index(0)] = 1  # the last Bolek field wraps to Ania's first
    assert degrees == sorted(expected)


@pytest.mark.parametrize("linked", [False, True])
def test_worst_case_shape(linked):
    g = worst_case(MAX_FIELDS, MAX_EDGES, MAX_GREEN, seed=0, linked=linked)
    check_task_rules(g)
    assert g.n == MAX_FIELDS and g.k == MAX_GREEN and 0.98 * MAX_EDGES < g.m <= MAX_EDGES
    with pytest.raises(ValueError):
        worst_case(50, 500, 20, seed=0)
