"""Floating-point analysis against exact analysis of the same boards: the same consistency and
forced cells, every probability within 1e-12 relative (0 and 1 exactly where proven), the
count's logarithm, and ``auto`` choosing by size."""

from __future__ import annotations

import sys
from fractions import Fraction
from math import log10
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from minegraph import Board, analyze
from minegraph.engines.combine import arithmetic, current_arithmetic
from minegraph.errors import UserError
from strategies import examples, graph_positions, positions

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))


def _agree(board: Board, engine: str = "auto") -> None:
    exact = analyze(board, engine, arithmetic="exact")
    floats = analyze(board, engine, arithmetic="float")
    assert exact.arithmetic == "exact"
    assert floats.consistent == exact.consistent
    if not exact.consistent:
        return
    assert floats.safe == exact.safe and floats.mines == exact.mines
    assert floats.probabilities.keys() == exact.probabilities.keys()
    for cell, want in exact.probabilities.items():
        got = floats.probabilities[cell]
        if want in (0, 1):
            assert got == want, (cell, got, want)
        else:
            assert 0.0 < got < 1.0
            assert abs(Fraction(got) - want) <= want * Fraction(1, 10 ** 12), (cell, got, want)
    if floats.arithmetic == "float":
        assert exact.solutions is not None and floats.solutions is None
        assert floats.solutions_log10 == pytest.approx(log10(exact.solutions), rel=1e-12,
                                                       abs=1e-12)
        # The best move is a cell of the lowest probability (ties may break differently
        # only between cells whose float values tie).
        assert floats.best is not None and exact.best is not None
        assert exact.probabilities[floats.best] == exact.probabilities[exact.best] or \
            floats.best_basis == exact.best_basis == "safe"
    completion = floats.completion
    assert completion is not None
    assert set(floats.board.cells(floats.completion_mines or ())) >= set(floats.mines)


@settings(max_examples=examples(400), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(positions(max_hidden=14))
def test_float_matches_exact_on_grids(board: Board) -> None:
    _agree(board)


@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(graph_positions())
def test_float_matches_exact_on_graphs(board: Board) -> None:
    _agree(board)


@pytest.mark.parametrize("family, size", [("scattered", 60), ("opening", 60), ("scattered", 100)])
def test_float_matches_exact_on_big_boards(family: str, size: int) -> None:
    """Boards with hundreds of components and floating cells, with and without a total."""
    from bigboards import big_board
    board = big_board(family, size, size, 1)
    _agree(board)
    _agree(board.with_states(board.states, None))


def test_auto_chooses_by_size() -> None:
    from bigboards import big_board
    small = analyze(big_board("scattered", 60, 60, 1))
    assert small.arithmetic == "exact" and small.solutions is not None
    big = analyze(big_board("scattered", 200, 200, 1))
    assert big.arithmetic == "float" and big.solutions is None
    assert big.solutions_log10 is not None and big.solutions_log10 > 2_000
    assert big.to_json()["arithmetic"] == "float"


def test_arithmetic_is_checked_and_scoped() -> None:
    with pytest.raises(UserError, match="arithmetic must be one of"):
        analyze(Board.from_text("##"), arithmetic="decimal")
    with arithmetic("float"):
        assert current_arithmetic() == "float"
    assert current_arithmetic() == "auto"
