"""The whole pipeline: every decomposition it produces is checked, and the classification of
known boards (the shipped examples) is stated."""

from __future__ import annotations

from importlib import resources

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minegraph import Board
from minegraph.decompose.decomposition import composition_bound, is_tree_decomposition
from minegraph.decompose.pipeline import _glue, classify, tree_decomposition
from minegraph.decompose.sp import series_parallel_tree
from minegraph.recipes import midgame_position
from strategies import graph_positions, positions, examples

SETTINGS = settings(max_examples=examples(1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def midgames(draw: st.DrawFn) -> Board:
    """Mid-game positions of 6x6 to 16x30 boards at 12-21% mines, where cycles and K4 minors
    occur."""
    rows, cols = draw(st.integers(6, 16)), draw(st.integers(6, 30))
    mines = draw(st.integers(rows * cols // 8, rows * cols // 5 + 1))
    return midgame_position(rows, cols, mines, draw(st.integers(0, 10**6)))


def _check(board: Board) -> None:
    c = classify(board, heuristic=False)
    g = c.graph
    kept = c.reduced.decomposition
    assert c.polynomial == (c.step is not None) == (c.decomposition is not None) == (c.reason is None)
    if c.step == "edge-removal":
        assert kept.is_forest() and not c.blocks
        assert c.width == c.bipartite.decomposition.width
    elif c.step == "series-parallel":
        assert not kept.is_forest() and c.blocks and all(b.series_parallel for b in c.blocks)
        h = kept.to_networkx()
        m = _glue(h, {b.nodes: series_parallel_tree(h.subgraph(b.nodes))[2] for b in c.blocks})
        assert is_tree_decomposition(h, m) and m.width <= 2
        assert c.width <= composition_bound(kept, m) <= c.bound
    else:
        assert any(not b.series_parallel for b in c.blocks) and "not series-parallel" in c.reason
        assert all(b.k4_minor for b in c.blocks if not b.series_parallel)
    td, how = tree_decomposition(board, c)
    assert how == (c.step or "min-fill")
    assert td.is_tree() and is_tree_decomposition(g.graph, td)
    assert all(g.has_shell(bag) for bag in td.bags)


@SETTINGS
@given(st.one_of(positions(max_hidden=25), graph_positions()))
def test_every_decomposition_is_checked_on_small_positions(board: Board) -> None:
    _check(board)


@settings(max_examples=examples(600), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(midgames())
def test_every_decomposition_is_checked_on_midgame_positions(board: Board) -> None:
    _check(board)


EXAMPLES = {
    "expert-seed-0.board": ("series-parallel", 15),
    "expert-seed-2.board": (None, None),
    "expert-seed-28.board": ("edge-removal", 5),
    "figure-2-1.board": ("edge-removal", 3),
    "figure-4-3.board": ("series-parallel", 11),
    "hex-ring.board": ("series-parallel", 10),
    "k4-minor.board": (None, None),
    "one-hole.board": ("edge-removal", 1),
}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_shipped_examples(name: str) -> None:
    text = resources.files("minegraph").joinpath("examples", "classify", name).read_text(encoding="utf-8")
    board = Board.from_text(text)
    c = classify(board)
    assert (c.step, c.width) == EXAMPLES[name]
    assert c.heuristic_width is not None and c.heuristic_width <= 5
    _check(board)


def test_a_k4_minor_is_reported_with_its_place() -> None:
    board = Board.from_text(resources.files("minegraph").joinpath(
        "examples", "classify", "k4-minor.board").read_text(encoding="utf-8"))
    c = classify(board)
    assert c.reason == ("a 2-connected component of 6 bags (numbers at (3, 3), (3, 5), (4, 4), …) "
                        "is not series-parallel: it has a K4 minor")
    assert c.to_json()["series_parallel_blocks"] == 0 and c.to_json()["largest_block"] == 6


def test_an_empty_graph_and_a_finished_board() -> None:
    for text in ("-", "1M", "M1\n11"):
        c = classify(Board.from_text(text))
        assert c.step == "edge-removal" and c.decomposition is not None
    assert nx.is_empty(classify(Board.from_text("-")).graph.graph)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(positions(max_hidden=14), midgames()))
def test_taking_out_decided_cells_keeps_the_answers(board: Board) -> None:
    """``propagate=True`` classifies an equivalent board: same consistency, and the original's
    forced cells are the decided ones plus the reduced board's."""
    from minegraph.constraints import build_system
    from minegraph.engines.dp import DPEngine
    from minegraph.decompose.pipeline import without_decided
    reduced, n = without_decided(board)
    c = classify(board, heuristic=False, propagate=True)
    assert c.board == reduced and c.decided == n
    _check(reduced)
    system = build_system(board)
    if n == 0:
        assert reduced == board
    if system.contradiction is not None:
        assert n == 0
        return
    before, after = DPEngine().run(board), DPEngine().run(reduced)
    assert before.consistent == after.consistent
    if before.consistent:
        decided = system.mines | system.safe
        assert {x for x, m in before.mine_counts.items() if m == 0} == \
            system.safe | {x for x, m in after.mine_counts.items() if m == 0 and x not in decided}
