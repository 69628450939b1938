"""engine="auto": DP within the width budget, SAT beyond it; time limits on every query."""

from __future__ import annotations

import time

import pytest

from minegraph import Board, analyze, solve
from minegraph.constraints import build_system
from minegraph.deadline import time_limit, time_left
from minegraph.engines.base import get_engine
from minegraph.engines.dp import ComponentDP, DPEngine
from minegraph.engines.portfolio import WIDTH_BUDGET, PortfolioEngine, component_width
from minegraph.errors import EngineError, QueryTimeout
from minegraph.play import midgame_position
from strategies import is_completion_of
from minegraph.play.layouts import checkerboard_opening as checkerboard


def test_narrow_boards_get_the_dp_answer_unchanged() -> None:
    for seed in range(5):
        board = midgame_position(16, 30, 99, seed)
        auto, dp = PortfolioEngine().run(board), DPEngine().run(board)
        assert auto.stats["engine"] == "dp" and auto.stats["width"] <= WIDTH_BUDGET
        assert (auto.count, auto.mine_counts, auto.completion) == (dp.count, dp.mine_counts, dp.completion)
    assert analyze(midgame_position(16, 30, 99, 0)).engine == "dp"


def test_component_width_is_the_width_dp_uses() -> None:
    for board in [checkerboard(12, 12, 0.3, seed=2, total=True), midgame_position(16, 30, 99, 3)]:
        system = build_system(board)
        for comp in system.components:
            assert component_width(system, comp) == ComponentDP(system, comp, True).width


def test_wide_components_go_to_sat_with_the_same_forced_cells() -> None:
    board = checkerboard(12, 12, 0.3, seed=2, total=True)
    width = max(PortfolioEngine().plan(board)[1])
    assert 3 < width <= WIDTH_BUDGET
    dp = DPEngine().run(board)
    low = PortfolioEngine(width_budget=3).run(board)
    assert low.stats["engine"] == "sat" and low.count is None and low.mine_counts is None
    assert "unavailable" in str(low.stats["probabilities"])
    assert low.safe == {c for c, m in dp.mine_counts.items() if m == 0}
    assert low.mines == {c for c, m in dp.mine_counts.items() if m == dp.count}
    a = analyze(board, engine="auto:3")
    assert a.engine == "sat" and not a.probabilities_available and a.solutions is None
    assert a.to_json()["probabilities_available"] is False
    # With a total, only the forced cells keep a (0 or 1) probability.
    assert set(a.probabilities.values()) <= {0, 1}
    completed = solve(board, engine="auto:3")
    assert completed is not None and is_completion_of(board, completed)


def test_a_really_wide_board_is_answered_without_probabilities() -> None:
    board = checkerboard(36, 36, 0.3, seed=1, total=False)   # width 19: dp would take minutes
    system, widths = PortfolioEngine().plan(board)
    assert max(widths) > WIDTH_BUDGET
    a = analyze(board)
    assert a.consistent and a.engine == "sat" and a.solutions is None
    assert a.completion is not None and is_completion_of(board, a.completion)
    wide = {c for comp, w in zip(system.components, widths) if w > WIDTH_BUDGET
            for b in comp.boxes for c in system.boxes[b].cells}
    for cell, p in a.probabilities.items():
        assert board.index(cell) not in wide or p in (0, 1)


def test_without_a_total_narrow_components_keep_exact_probabilities() -> None:
    board = checkerboard(12, 12, 0.3, seed=1, total=False)   # components of width 2, 3, 6
    system, widths = PortfolioEngine(width_budget=3).plan(board)
    assert min(widths) <= 3 < max(widths)
    exact = analyze(board, engine="dp")
    a = analyze(board, engine="auto:3")
    assert a.engine == "sat" and not a.probabilities_available
    narrow = {c for comp, w in zip(system.components, widths) if w <= 3
              for b in comp.boxes for c in system.boxes[b].cells} | set(system.floating)
    forced = {board.index(c) for c in exact.safe + exact.mines}
    assert {board.index(c) for c in a.probabilities} == narrow | forced
    for cell, p in a.probabilities.items():
        assert p == exact.probability(cell)
    with pytest.raises(EngineError, match="unavailable"):
        a.probability(next(board.cell(c) for c in range(board.size)
                           if board.cell(c) not in a.probabilities and board.states[c] == -1))
    assert a.probability(a.best) == min(a.probabilities.values())


def test_budget_option() -> None:
    assert get_engine("auto:5").width_budget == 5  # type: ignore[attr-defined]
    with pytest.raises(EngineError, match="width budget"):
        get_engine("auto:wide")


def test_dp_is_interrupted_by_the_time_limit() -> None:
    board = checkerboard(36, 36, 0.3, seed=1, total=True)
    start = time.monotonic()
    with pytest.raises(QueryTimeout) as info:
        analyze(board, engine="dp", timeout=0.5)
    assert time.monotonic() - start < 10 and info.value.question == "consistency"
    with pytest.raises(QueryTimeout):
        analyze(board, engine="auto", timeout=0.5)   # sat: the exact total is hard here
    with pytest.raises(QueryTimeout) as info:
        solve(board, engine="dp", timeout=0.3)
    assert info.value.question == "completion"


def test_time_limits_nest_and_reject_nonsense() -> None:
    with time_limit(10):
        with time_limit(0.2):
            assert time_left() is not None and time_left() <= 0.2  # type: ignore[operator]
        assert 9 < time_left() <= 10  # type: ignore[operator]
    assert time_left() is None
    for bad in (0, -1, float("nan"), float("inf")):
        with pytest.raises(EngineError, match="positive number of seconds"):
            with time_limit(bad):
                pass


def test_a_limit_that_does_not_expire_changes_nothing() -> None:
    board = Board.from_text("mines: 2\n##-#\n11-#\n--1#")
    assert analyze(board, timeout=30) == analyze(board)
