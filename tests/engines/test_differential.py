"""backtrack, sat, dp and brute on the same random positions: they must agree.

5,000 positions per run (square, triangle and torus grids; with and without a total;
consistent and inconsistent), each answered by all four engines: consistency and forced cells
must agree, and every completion any engine returns is checked independently
(:func:`strategies.is_completion_of`). Counting by enumeration (backtrack and sat) is checked
on a further 1,000.
"""

from __future__ import annotations


from hypothesis import HealthCheck, Phase, find, given, settings

from minegraph import Board
from minegraph.analysis import _completed
from minegraph.engines.backtrack import BacktrackEngine
from minegraph.engines.base import EngineResult
from minegraph.engines.brute import BruteEngine
from minegraph.engines.dp import DPEngine
from minegraph.engines.sat import SatEngine
from strategies import graph_positions, is_completion_of, positions, examples

GRIDS = positions(max_hidden=12, topologies=("square", "triangle", "torus"))


def _forced(result: EngineResult) -> tuple[frozenset[int], frozenset[int]]:
    """(safe, mines) of any engine's result (counting engines derive them from counts)."""
    assert "forced" in result.answered
    if result.counts_known:
        assert result.mine_counts is not None and result.count is not None
        assert result.safe == {c for c, m in result.mine_counts.items() if m == 0}
        assert result.mines == {c for c, m in result.mine_counts.items() if m == result.count}
    return result.safe, result.mines


def _check_all(board: Board) -> bool:
    truth = BruteEngine().run(board)
    results = {"brute": truth, "dp": DPEngine().run(board), "sat": SatEngine().run(board),
               "backtrack": BacktrackEngine().run(board)}
    for name, r in results.items():
        assert r.consistent == truth.consistent, name
        if truth.consistent:
            assert _forced(r) == _forced(truth), name
            completion = r.get_completion()
            assert completion is not None, name
            assert is_completion_of(board, _completed(board, completion)), name
        else:
            assert r.get_completion() is None, name
    return truth.consistent


@settings(max_examples=examples(5000), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(GRIDS)
def test_four_engines_agree_on_5000_positions(board: Board) -> None:
    _check_all(board)


def test_the_positions_cover_every_kind() -> None:
    """The strategy behind the test above draws every topology with and without a total,
    consistent and inconsistent: each kind is searched for on its own (``find``), so the check
    does not hang on one sample's luck or on what other tests ran before."""
    for topology in ("square", "triangle", "torus"):
        for with_total in (True, False):
            for consistent in (True, False):
                def kind(board: Board, want: tuple[str, bool, bool] = (topology, with_total,
                                                                       consistent)) -> bool:
                    return (board.topology, board.mines is not None,
                            BruteEngine().run(board).consistent) == want
                find(GRIDS, kind, settings=settings(max_examples=5000, deadline=None,
                                                     database=None, phases=[Phase.generate],
                                                     suppress_health_check=[
                                                         HealthCheck.too_slow,
                                                         HealthCheck.data_too_large]))


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graph_positions())
def test_engines_agree_on_graph_boards(board: Board) -> None:
    _check_all(board)


@settings(max_examples=examples(1000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GRIDS)
def test_counting_by_enumeration_matches_brute_force(board: Board) -> None:
    truth = BruteEngine().run(board)
    for engine in (BacktrackEngine(count=True), SatEngine("minisat", count=True)):
        r = engine.run(board)
        assert (r.count, r.mine_counts) == (truth.count, truth.mine_counts), engine.name


def test_solvers_and_seeds_agree_on_a_fixed_sample() -> None:
    boards = [Board.from_text(t) for t in ("mines: 2\n##-#\n11-#\n--1#", "#####\n-121-",
                                           "###\n333\n###", "mines: 1\n#1#\n#1#")]
    for board in boards:
        reference = DPEngine().run(board)
        for engine in [SatEngine(s) for s in ("cadical", "glucose", "minisat")] + \
                      [BacktrackEngine(seed, regions=regions) for seed in range(4)
                       for regions in (True, False)]:
            r = engine.run(board)
            assert r.consistent == reference.consistent
            if r.consistent:
                assert _forced(r) == _forced(reference)
