"""The community's figures (RQP, IOE, STNB, openings, islands, clicks per second) computed by
minegraph equal ms_toollib's own on games of the three standard sizes, and by hand on small
layouts."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("ms_toollib")

from minegraph.play.figures import STNB_CONSTANTS, islands, openings
from minegraph.play.game import Game
from minegraph.play.policies import SafestPolicy, play
from minegraph.play.record import evf_bytes
from minegraph.play.review import review_bytes
from minegraph.topology import grid_neighbors


def test_openings_and_islands_by_hand() -> None:
    nbrs = grid_neighbors("square", 3, 5)
    # M 1 0 1 M / 1 1 0 1 1 / 0 0 0 0 0: one opening; every number borders it.
    assert openings(nbrs, {0, 4}) == 1 and islands(nbrs, {0, 4}) == 0
    # 1 M 1 / 1 M 1 ... on 3x3 with the middle column mined: no zero, two islands.
    three = grid_neighbors("square", 3, 3)
    assert openings(three, {1, 4, 7}) == 0 and islands(three, {1, 4, 7}) == 2


@pytest.mark.parametrize("size,outcome", [("beginner-8", "won"), ("intermediate", "won"),
                                          ("expert", "won"), ("beginner", "won"),
                                          ("intermediate", "lost")])
def test_figures_equal_ms_toollib(size: str, outcome: str) -> None:
    for seed in range(40):
        game = Game(size, rules="modern", seed=seed)
        play(game, SafestPolicy())
        if game.status == outcome:
            break
    rng = random.Random(seed)
    times, t = [], 0.0
    for _ in game.moves:          # a human pace, so the rates are of a real size
        times.append(t)
        t += rng.uniform(0.2, 0.6)
    r = review_bytes(evf_bytes(game, times=times), "evf")
    f, tl = r.figures(), r.toollib
    assert f["openings"] == tl["op"] and f["islands"] == tl["isl"]
    assert f["rqp"] == pytest.approx(tl["rqp"], rel=1e-5)
    assert f["ioe"] == pytest.approx(tl["ioe"], rel=1e-5)
    assert f["clicks_per_second"] == pytest.approx(tl["cl_s"], rel=1e-5)
    assert f["zini"] == tl["zini"] and f["path"] == pytest.approx(tl["path"], rel=1e-5)
    assert r.outcome == outcome
    if (r.rows, r.cols, r.mines) in STNB_CONSTANTS:      # STNB is ms_toollib's own
        assert f["stnb"] == pytest.approx(tl["stnb"], abs=1e-6) and f["stnb"] > 0
    else:                         # 9x9 Beginner: ms_toollib has no constant, gives 0
        assert f["stnb"] is None and tl["stnb"] == 0
