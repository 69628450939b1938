"""Routing a question on a position by its estimated cost (issue 33, 2): the estimate stops as
soon as it knows a position is big, agrees with the whole constraint system, and is not run
again for a position it has judged; a request that the full big lane refuses anyway is refused
before any estimate. Counted calls decide, never elapsed time."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from minegraph.board import Board
from minegraph.constraints import build_system
from minegraph.recipes import checkerboard_opening, midgame_position
from minegraph.web import Limits, create_app
from minegraph.web.cost import Cost, CostMemo, cost_key, estimate

#: Hard to analyse, yet under ``big_request_bytes`` (1,651 bytes): routed by its estimate.
HARD = checkerboard_opening(40, 40, 0.3, seed=2, total=True).to_text()
OTHER_HARD = checkerboard_opening(40, 40, 0.3, seed=3, total=True).to_text()


def _boards() -> list[Board]:
    return ([checkerboard_opening(n, n, 0.3, seed=s, total=s % 2 == 0)
             for n in (8, 12, 20, 40) for s in range(3)]
            + [midgame_position(r, c, m, seed=s)
               for r, c, m in ((9, 9, 10), (16, 30, 99), (30, 30, 200)) for s in range(4)])


def test_the_estimate_agrees_with_the_whole_system_and_stops_past_the_bound() -> None:
    """Its verdict on the cells is the whole system's (``build_system``'s components, the
    independent method); stopped early, it says it saw ``most_cells`` + 1 cells; within the
    bound its figures are the system's own."""
    for board in _boards():
        system = build_system(board)
        sizes = sorted(component.cells for component in system.components)
        for most in (5, 40, 120):
            cost = estimate(board, most_cells=most, most_work=10 ** 12)
            assert cost.small == (not sizes or sizes[-1] <= most), (board.size, most)
            if cost.small:
                assert (cost.largest, cost.components, cost.cells) == \
                    (max(sizes, default=0), len(sizes), sum(sizes))
            else:
                assert cost.largest == most + 1 and cost.work == float("inf")
                assert cost.components <= len(sizes) and cost.cells <= sum(sizes)


def test_the_memo_keeps_the_latest_verdicts_by_position() -> None:
    memo = CostMemo(2)
    keys = [cost_key(HARD, None, None, None), cost_key(HARD, None, None, 99),
            cost_key(HARD, "text", None, None), cost_key(OTHER_HARD, None, None, None)]
    assert len(set(keys)) == 4                     # the total and the format count
    memo.put(keys[0], False)
    memo.put(keys[1], True)
    assert memo.get(keys[0]) is False              # now the most recently used
    memo.put(keys[2], True)
    assert memo.get(keys[1]) is None and memo.get(keys[0]) is False


def _recording(calls: list[int]) -> Any:
    def recorded(board: Board, **bounds: Any) -> Cost:
        calls.append(board.size)
        return estimate(board, **bounds)
    return recorded


def test_a_request_the_full_big_lane_refuses_is_not_estimated_again() -> None:
    """Issue 33, 2: each attacker request the big lane refused (503) had been estimated
    first, tens of milliseconds of the server's interpreter under load, taken from the
    victim's requests. The verdict is now remembered: the same hard board is refused at
    once, without a small-lane thread or an estimate; another board is still estimated once,
    and a small one is answered."""
    limits = Limits(big_workers=1, big_queue=0, per_client=5, analyze_seconds=600)
    with TestClient(create_app(limits)) as client:
        runner = client.app.state.runner                        # type: ignore[attr-defined]
        calls: list[int] = []
        runner.estimate = _recording(calls)
        runner.lane.admit()             # the lane's one place is taken: big jobs are refused
        try:
            first = client.post("/api/analyze", json={"board": HARD})
            assert first.status_code == 503 and calls == [1600]
            for _ in range(3):
                again = client.post("/api/explain", json={"board": HARD, "cell": [0, 0]})
                assert again.status_code == 503 and int(again.headers["Retry-After"]) >= 1
            assert calls == [1600]                              # refused before estimating
            assert runner.routed == {"estimated": 4}
            other = client.post("/api/analyze", json={"board": OTHER_HARD})
            assert other.status_code == 503 and calls == [1600, 1600]
            small = client.post("/api/analyze", json={"board": "#1#", "mines": 1})
            assert small.status_code == 200 and small.json()["solutions"] == "2"
            assert calls == [1600, 1600, 3]
            # With another total the position is another one: estimated afresh.
            client.post("/api/analyze", json={"board": HARD, "mines": 480})
            assert calls == [1600, 1600, 3, 1600]
        finally:
            runner.lane.release()
        assert runner.lane.started == 0                         # no job reached a process
