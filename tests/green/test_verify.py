"""The verifier accepts every solver's answer and rejects corrupted ones."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from minegraph.green.families import hand_made
from minegraph.green.formats import read_oi
from minegraph.green.solution import Solution
from minegraph.green.solvers import SAMPLE_GRA_IN, SOLVERS, solve
from minegraph.green.verify import cycle_fields, verify

from .conftest import any_games, oi_games

from strategies import examples


def _sample():
    game = read_oi(SAMPLE_GRA_IN)
    return game, solve(game, "attractor")


def _with(sol, winner=None, strategy=None):
    return Solution(sol.winner.copy() if winner is None else winner,
                    sol.strategy.copy() if strategy is None else strategy)


def test_accepts_the_sample():
    game, sol = _sample()
    assert verify(game, sol).ok


def test_rejects_wrong_shapes_and_winners():
    game, sol = _sample()
    assert "expected 8 winners" in verify(game, Solution(sol.winner[:3], sol.strategy)).reason
    w = sol.winner.copy()
    w[0] = 2
    assert "winner must be 0 or 1" in verify(game, _with(sol, winner=w)).reason


def test_rejects_a_strategy_that_is_not_a_move():
    game, sol = _sample()
    s = sol.strategy.copy()
    s[0] = 6  # field 1 -> 7 is not a move (1 -> 6 is)
    assert "is not a move" in verify(game, _with(sol, strategy=s)).reason
    s[0] = -1
    assert "names no field" in verify(game, _with(sol, strategy=s)).reason


def test_rejects_a_strategy_leaving_the_region():
    # Field 1 (Ania's green) may go to 3 (her region) or 4 (Bolek's white cycle).
    game, answer = hand_made("ania-chooses")
    sol = solve(game)
    s = sol.strategy.copy()
    s[0] = 3
    assert "leaves" in verify(game, _with(sol, strategy=s)).reason


def test_rejects_an_opponent_escape():
    # Claim Ania wins field 3 of 'bolek-chooses' too: Bolek escapes to field 2.
    game, _ = hand_made("bolek-chooses")
    sol = solve(game)
    w = sol.winner.copy()
    w[[0, 2]] = 0
    s = sol.strategy.copy()
    s[[0, 2]] = [2, -1]
    assert "can escape" in verify(game, Solution(w, s)).reason


def test_rejects_white_cycle_in_anias_region():
    # Two Ania fields, one green: Ania must not loop on the white one.
    game = read_oi("2 2\n1 1 3\n0 2 3 4\n0 1 1\n0 1 2\n")
    sol = solve(game)
    assert sol.oi_answer() == [1, 2, 3, 4] and verify(game, sol)
    s = sol.strategy.copy()
    s[1] = 3  # 2 -> 4 -> 2 avoids green field 1
    assert "cycle without green" in verify(game, _with(sol, strategy=s)).reason


def test_rejects_green_cycle_in_boleks_region():
    game = read_oi("2 1\n1 1 3\n0 1 3\n0 2 1 2\n")
    sol = solve(game)
    assert sol.oi_answer() == [] and verify(game, sol)
    s = sol.strategy.copy()
    s[2] = 0  # Bolek steps onto the green loop 1 <-> 3
    assert "through green field" in verify(game, _with(sol, strategy=s)).reason


def test_cycle_fields_with_loops():
    mask = cycle_fields(3, np.array([0, 1, 2]), np.array([0, 2, 1]))
    assert mask.tolist() == [True, True, True]
    assert not cycle_fields(3, np.array([0, 1]), np.array([1, 2])).any()


@settings(max_examples=examples(1500), deadline=None)
@given(st.one_of(oi_games(), any_games()), st.data())
def test_flipping_any_winner_is_rejected(game, data):
    # The regions are unique, so no strategies can justify a changed winner.
    sol = solve(game, data.draw(st.sampled_from(sorted(SOLVERS))))
    v = data.draw(st.integers(0, game.n - 1))
    w = sol.winner.copy()
    w[v] ^= 1
    for s in (sol.strategy.copy(), np.where(game.owner == w, game.succ[game.succ_ptr[:-1]], -1)):
        assert not verify(game, Solution(w, s)).ok


@settings(max_examples=examples(1000), deadline=None)
@given(oi_games(), st.data())
def test_strategy_corruptions(game, data):
    sol = solve(game)
    own = np.flatnonzero(sol.strategy >= 0)
    if own.size == 0:
        return
    v = int(data.draw(st.sampled_from(own.tolist())))
    s = sol.strategy.copy()
    moves = game.successors(v).tolist()
    non_moves = [u for u in range(game.n) if u not in moves]
    if non_moves:
        s[v] = data.draw(st.sampled_from(non_moves))
        assert not verify(game, _with(sol, strategy=s)).ok
    away = [u for u in moves if sol.winner[u] != sol.winner[v]]
    if away:
        s[v] = data.draw(st.sampled_from(away))
        assert not verify(game, _with(sol, strategy=s)).ok
