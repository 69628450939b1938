"""The estimate that routes a question on a position to a lane (:mod:`minegraph.web.cost`):
what a player sends stays small, boards that are short but hard do not."""

from __future__ import annotations

import math

from minegraph import Board
from minegraph.recipes import checkerboard_opening, midgame_position
from minegraph.web import Limits
from minegraph.web.cost import Cost, estimate

LIMITS = Limits()


def _estimate(board: Board) -> Cost:
    return estimate(board, most_cells=LIMITS.small_component_cells, most_work=LIMITS.small_work)


def test_expert_positions_are_small() -> None:
    """The first 200 positions of the Expert benchmark corpus (``bench/expert_corpus.py``)."""
    for seed in range(200):
        cost = _estimate(midgame_position(16, 30, 99, seed=seed))
        assert cost.small and cost.largest <= LIMITS.small_component_cells, seed


def test_a_short_board_with_a_large_component_is_not_small() -> None:
    board = checkerboard_opening(40, 40, 0.3, seed=2, total=True)
    assert len(board.to_text()) < LIMITS.big_request_bytes
    cost = _estimate(board)
    assert not cost.small and cost.largest > LIMITS.small_component_cells
    assert cost.work == math.inf


def test_a_wide_component_within_the_cells_is_not_small() -> None:
    """A component the kernel may take, but whose width makes the DP's work large when the
    kernel declines it: the work, not the cells, sends it to the big lane."""
    board = checkerboard_opening(12, 12, 0.3, seed=4, total=False)
    cost = _estimate(board)
    assert cost.largest <= LIMITS.small_component_cells
    assert not cost.small and cost.work > LIMITS.small_work


def test_a_board_without_numbers_costs_nothing() -> None:
    cost = estimate(Board.from_text("###\n###"), most_cells=1, most_work=1)
    assert cost.small and (cost.components, cost.largest, cost.work) == (0, 0, 0.0)
