"""The DP engine against brute force on thousands of random small positions."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, given, settings

from minegraph import Board, analyze
from minegraph.engines.brute import BruteEngine
from minegraph.engines.dp import DPEngine
from strategies import graph_positions, is_completion_of, positions, examples

SETTINGS = settings(max_examples=examples(1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _agree(board: Board) -> None:
    dp = DPEngine().run(board)
    brute = BruteEngine().run(board)
    assert dp.consistent == brute.consistent
    assert dp.count == brute.count
    assert dp.mine_counts == brute.mine_counts
    if dp.consistent:
        a = analyze(board)
        assert a.completion is not None and is_completion_of(board, a.completion)
    else:
        assert dp.completion is None


@SETTINGS
@given(positions())
def test_dp_matches_brute_force_on_grids(board: Board) -> None:
    _agree(board)


@settings(max_examples=examples(500), deadline=None)
@given(graph_positions())
def test_dp_matches_brute_force_on_graphs(board: Board) -> None:
    _agree(board)


def test_probabilities_are_exact_fractions() -> None:
    a = analyze(Board.from_text("#2#\n#3#\n###"))
    assert a.probability((2, 1)) == Fraction(1, 3)
    assert all(isinstance(p, Fraction) for p in a.probabilities.values())


@settings(max_examples=examples(300), deadline=None)
@given(positions())
def test_any_elimination_order_gives_the_same_answers(board: Board) -> None:
    """The order only changes the cost: reversed box order must give identical results."""
    def reversed_order(system, component):  # type: ignore[no-untyped-def]
        return list(reversed(range(len(component.boxes))))
    assert DPEngine(order=reversed_order).run(board).mine_counts == DPEngine().run(board).mine_counts


@settings(max_examples=examples(400), deadline=None)
@given(positions())
def test_tight_slot_widths_give_the_same_answers(board: Board) -> None:
    """The bound-from-a-plain-pass path (normally only for big components) is exact too."""
    from minegraph.engines import dp
    expected = BruteEngine().run(board)
    saved = dp.TIGHT_BITS_ABOVE
    dp.TIGHT_BITS_ABOVE = 0
    try:
        got = DPEngine().run(board)
    finally:
        dp.TIGHT_BITS_ABOVE = saved
    assert (got.count, got.mine_counts) == (expected.count, expected.mine_counts)
