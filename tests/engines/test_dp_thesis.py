"""The DP over the thesis pipeline's decomposition: the same answers as min-fill, and no state
shared between queries (a module-level "last decomposition" could hand one thread another
board's decomposition)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from minegraph import Board
from minegraph.constraints import build_system
from minegraph.engines.dp import DPEngine
from minegraph.engines.dp_thesis import PipelineDPEngine, pipeline_orders
from minegraph.recipes import midgame_position


def test_an_order_provider_belongs_to_its_system() -> None:
    one, other = build_system(Board.from_text("#1#1#")), build_system(Board.from_text("#1#"))
    orders = pipeline_orders(one)
    assert sorted(orders(one, one.components[0])) == [0, 1, 2]
    with pytest.raises(ValueError):
        orders(other, other.components[0])


def test_concurrent_queries_on_different_boards_agree_with_min_fill() -> None:
    boards = [midgame_position(9, 9, 10, seed) for seed in range(12)]
    expected = [DPEngine().run(b) for b in boards]
    engine = PipelineDPEngine()
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = list(pool.map(engine.run, boards * 3))
    for k, result in enumerate(got):
        want = expected[k % len(boards)]
        assert (result.count, dict(result.mine_counts or {})) == \
            (want.count, dict(want.mine_counts or {}))
