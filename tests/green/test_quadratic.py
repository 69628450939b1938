"""The ``quadratic`` solver (Chatterjee–Henzinger dominion search) against the other three
solvers, the exhaustive search and the verifier; and its parts against naive models.

Example counts follow the hypothesis profiles (``strategies.examples``): the default ``dev``
profile runs a fifth of the ``ci`` counts. Under ``ci`` the differential tests see about
40,000 random small games in all (half of the seeded ones with every batch on the numpy path).
"""

from __future__ import annotations

import argparse
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minegraph.cli.green import register, run
from minegraph.green.attractor import attractor
from minegraph.green.exhaustive import exhaustive_winners
from minegraph.green.families import (dense_worst_case, ordered_game, random_game, task_tests,
                                      worst_case)
from minegraph.green.game import ANIA, BOLEK, GreenGame
from minegraph.green.solution import Solution
from minegraph.green import quadratic
from minegraph.green.quadratic import (ShrinkingLists, _State, bucket_order, solve_quadratic,
                                       sparse_trap)
from minegraph.green.solvers import SAMPLE_GRA_IN, SAMPLE_GRA_OUT, SOLVERS, solve
from minegraph.green.verify import verify

from .conftest import any_games, oi_games

from strategies import examples

OTHERS = ("attractor", "fast", "lifting")


def _sparse_only(game: GreenGame) -> Solution:
    """``solve_quadratic`` without its classical first round: the sparse phases do it all."""
    saved = quadratic._CLASSICAL_FIRST
    quadratic._CLASSICAL_FIRST = False
    try:
        return solve_quadratic(game)
    finally:
        quadratic._CLASSICAL_FIRST = saved


def _agrees(game: GreenGame, truth: np.ndarray | None = None) -> None:
    """``quadratic``, with and without its classical first round, gives the same regions as
    every other solver (and ``truth``, if given) and solutions the verifier accepts."""
    sol = solve_quadratic(game)
    for answer in (sol, _sparse_only(game)):
        verdict = verify(game, answer)
        assert verdict, verdict.reason
        if truth is not None:
            assert np.array_equal(answer.winner == ANIA, truth)
    for name in OTHERS:
        assert sol.same_regions(solve(game, name)), name


# --- differential tests on small games ------------------------------------------------------
# (The seeded batches below compare thousands more small games with the exhaustive search, so
# these property tests keep to a few thousand examples: the suite has 10 minutes on 2 cores.)

@settings(max_examples=examples(3000), deadline=None)
@given(oi_games())
def test_task_games_match_exhaustive_search_and_the_others(game):
    _agrees(game, np.array(exhaustive_winners(game)))


@settings(max_examples=examples(2500), deadline=None)
@given(any_games())
def test_any_graph_matches_exhaustive_search_and_the_others(game):
    _agrees(game, np.array(exhaustive_winners(game)))


def _random_small_game(rng: np.random.Generator) -> GreenGame:
    """A game of up to 10 fields, alternating or not, of any density and share of green."""
    n = int(rng.integers(1, 11))
    owner = rng.integers(0, 2, n)
    green = rng.random(n) < rng.choice([0.1, 0.3, 0.6])
    alternating = rng.random() < 0.5 and 0 < owner.sum() < n
    density = rng.choice([0.15, 0.35, 0.7])
    succ = []
    for v in range(n):
        allowed = np.flatnonzero(owner != owner[v]) if alternating else np.arange(n)
        pick = allowed[rng.random(allowed.size) < density]
        succ.append((pick if pick.size else rng.choice(allowed, 1)).tolist())
    return GreenGame.from_successors(owner.tolist(), green.tolist(), succ)


@pytest.fixture(params=["python", "numpy"])
def small_batches(request, monkeypatch):
    """Run a test as it is, and again with every batch taking the numpy path (small batches
    are otherwise done field by field in Python)."""
    if request.param == "numpy":
        monkeypatch.setattr(quadratic, "_SMALL", 0)
    return request.param


@pytest.mark.parametrize("block", range(2))
def test_seeded_batches_match_exhaustive_search(block, small_batches):
    # Plain numpy draws are much cheaper than hypothesis examples: 12,000 games under ci
    # (4 x 3,000: two blocks, each on both paths).
    rng = np.random.default_rng(1000 + block)
    for _ in range(examples(3000)):
        game = _random_small_game(rng)
        _agrees(game, np.array(exhaustive_winners(game)))


@pytest.mark.parametrize("seed", range(30))
def test_medium_random_games_agree(seed, small_batches):
    # Many rounds of several sizes: few green fields and low degrees leave Bolek many small
    # dominions, high degrees push the search to later phases.
    rng = np.random.default_rng(seed)
    a, b = (int(x) for x in rng.integers(10, 250, 2))
    m = int(rng.integers(a + b, (a + b) * int(rng.choice([2, 4, 12]))))
    k = int(rng.integers(1, max(2, (a + b) // int(rng.choice([2, 8, 40])))))
    _agrees(random_game(a, b, m, k, seed=seed))


# --- the families ---------------------------------------------------------------------------

@pytest.mark.parametrize("linked", [False, True])
@pytest.mark.parametrize("k", [1, 2, 7, 30])
def test_worst_case_family(linked, k, small_batches):
    game = worst_case(400, 3000, k, seed=k, linked=linked)
    _agrees(game)
    assert np.count_nonzero(solve_quadratic(game).winner == BOLEK) == 4 * (k - 1)


@pytest.mark.parametrize("n", [32, 33, 47, 64, 150, 301])
def test_dense_worst_case_family(n, small_batches):
    game = dense_worst_case(n, seed=n)
    _agrees(game)


def test_dense_worst_case_shape_and_work():
    n = 400
    game = dense_worst_case(n, seed=1)
    assert game.k == n // 2 and 0.95 * n * n / 8 < game.m < 1.1 * n * n / 8
    model = solve(game, "attractor")
    quad = _sparse_only(game)
    # The chain of n/8 gadgets costs the model solution one sweep of the bulk per gadget;
    # the quadratic solver finds every gadget in the sparsest graphs.
    assert model.stats["rounds"] >= n // 8
    assert quad.stats["rounds"] >= n // 8 - 1
    assert quad.stats["largest_phase"] < n  # only the last round looks at the whole game
    assert quad.stats["scanned"] < model.stats["scanned"] / 20


def test_ordered_and_task_kinds():
    _agrees(ordered_game(40, 10, seed=3))
    for _, game in task_tests(seed=5, sizes=(60, 200, 400, 800)):
        _agrees(game)


def test_sample_and_cli(tmp_path, monkeypatch):
    from minegraph.green.formats import read_oi
    sol = solve(read_oi(SAMPLE_GRA_IN), "quadratic")
    assert sol.oi_answer() == [1, 2, 4, 6, 7] and sol.algorithm == "quadratic"
    (tmp_path / "gra.in").write_text(SAMPLE_GRA_IN)
    monkeypatch.chdir(tmp_path)
    parser = argparse.ArgumentParser(prog="minegraph")
    register(parser.add_subparsers())
    assert run(parser.parse_args(["green", "--algorithm", "quadratic", "--verify"])) == 0
    assert (tmp_path / "gra.out").read_text() == SAMPLE_GRA_OUT
    assert "quadratic" in SOLVERS


# --- the parts ------------------------------------------------------------------------------

@settings(max_examples=examples(300), deadline=None)
@given(st.data())
def test_shrinking_lists_match_a_list_model(data):
    sizes = data.draw(st.lists(st.integers(0, 6), min_size=1, max_size=6))
    start = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
    total = int(sum(sizes))
    ids = np.random.default_rng(data.draw(st.integers(0, 99))).permutation(total + 3)[:total]
    lists = ShrinkingLists(start, np.array(sizes), ids, total + 3)
    one_by_one = data.draw(st.booleans())  # the Python path for small batches, or numpy's
    model = [set(ids[s:s + z].tolist()) for s, z in zip(start.tolist(), sizes)]
    for _ in range(data.draw(st.integers(1, 4))):
        chosen = [(v, e) for v in range(len(sizes)) for e in sorted(model[v])
                  if data.draw(st.booleans())]
        if chosen:
            fields, edges = (np.array(x) for x in zip(*chosen))
            if one_by_one:
                lists._remove_each(fields.tolist(), edges.tolist())
            else:
                _numpy_remove(lists, fields, edges)
        for v, e in chosen:
            model[v].discard(e)
        for v in range(len(sizes)):
            assert sorted(lists.entries(v).tolist()) == sorted(model[v])
            assert all(lists.edge_slot[e] >= 0 for e in model[v])


def _numpy_remove(lists: ShrinkingLists, fields: np.ndarray, edges: np.ndarray) -> None:
    saved = quadratic._SMALL
    quadratic._SMALL = 0
    try:
        lists.remove(fields, edges)
    finally:
        quadratic._SMALL = saved


def _is_dominion(game: GreenGame, d: np.ndarray, alive: np.ndarray) -> bool:
    """A set of alive white fields that Ania cannot leave and Bolek can stay in."""
    if not d.any() or (d & game.green).any():
        return False
    for v in np.flatnonzero(d):
        succ = game.successors(int(v))
        succ = succ[alive[succ]]
        if game.owner[v] == ANIA and not d[succ].all():
            return False
        if game.owner[v] == BOLEK and not d[succ].any():
            return False
    return True


@settings(max_examples=examples(600), deadline=None)
@given(st.one_of(oi_games(max_side=4), any_games(max_n=8)))
def test_every_phase_is_sound_and_finds_the_small_dominions(game):
    # The lemma behind the running time: phase s finds every dominion whose Bolek attractor
    # has at most s fields, and finds nothing that is not a dominion.
    state = _State(game, np.ones(game.n, dtype=bool))
    n = game.n
    dominions = []
    for size in range(1, n + 1):
        for fields in combinations(range(n), size):
            d = np.zeros(n, dtype=bool)
            d[list(fields)] = True
            if _is_dominion(game, d, state.alive):
                dominions.append((d, int(attractor(game, d, BOLEK).inside.sum())))
    largest = ~attractor(game, game.green, ANIA).inside  # the classical trap
    s = 1
    while s <= 2 * n:
        trap, b_src, b_dst = state.phase(s)
        assert not trap.any() or _is_dominion(game, trap, state.alive)
        assert not (trap & ~largest).any()
        kept = set(b_src[trap[b_src] & trap[b_dst]].tolist())  # Bolek's moves inside
        assert set(np.flatnonzero(trap & (game.owner == BOLEK)).tolist()) <= kept
        for d, reach in dominions:
            if reach <= s:
                assert not (d & ~trap).any(), (s, np.flatnonzero(d))
        s *= 2
    assert np.array_equal(trap, largest)  # at s >= every degree, G_i is the whole game


def test_sparse_trap_against_a_fixpoint():
    rng = np.random.default_rng(7)
    for _ in range(examples(1000)):
        n = int(rng.integers(1, 30))
        ania = rng.random(n) < 0.5
        candidate = rng.random(n) < 0.8
        m = int(rng.integers(0, 4 * n))
        src = rng.integers(0, n, m)
        dst = rng.integers(0, n, m)
        a = ania[src] & candidate[src]
        b = ~ania[src] & candidate[src] & candidate[dst]
        trap, _ = sparse_trap(n, ania, candidate, src[a], dst[a], src[b], dst[b])
        # Naive greatest fixpoint: drop failing fields until none fails.
        x = candidate.copy()
        while True:
            ok_a = np.ones(n, dtype=bool)
            np.logical_and.at(ok_a, src[a], x[dst[a]])
            ok_b = np.zeros(n, dtype=bool)
            np.logical_or.at(ok_b, src[b], x[dst[b]])
            y = x & np.where(ania, ok_a, ok_b)
            if np.array_equal(x, y):
                break
            x = y
        assert np.array_equal(trap, x)


def test_bucket_order_is_stable_on_both_paths():
    keys = np.array([3, 1, 3, 0, 1])
    assert bucket_order(keys, 4).tolist() == [3, 1, 4, 0, 2]  # radix sort on 16-bit keys
    assert bucket_order(keys + 70_000, 80_000).tolist() == [3, 1, 4, 0, 2]  # merge sort
