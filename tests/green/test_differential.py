"""All solvers against the exhaustive search of the finite game, on thousands of tiny games."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings

from minegraph.green.exhaustive import exhaustive_winners
from minegraph.green.solvers import SOLVERS, solve
from minegraph.green.verify import verify

from .conftest import any_games, oi_games

from strategies import examples


def _check(game):
    truth = np.array(exhaustive_winners(game))
    for name in SOLVERS:
        sol = solve(game, name)
        assert np.array_equal(sol.winner == 0, truth), name
        verdict = verify(game, sol)
        assert verdict, (name, verdict.reason)


@settings(max_examples=examples(2500), deadline=None)
@given(oi_games())
def test_task_games_match_exhaustive_search(game):
    _check(game)


@settings(max_examples=examples(1500), deadline=None)
@given(any_games())
def test_any_graph_matches_exhaustive_search(game):
    _check(game)
