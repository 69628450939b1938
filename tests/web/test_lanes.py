"""The big lane's processes: answers, errors, deadlines crossing the process boundary,
cancellation, recycling; and the admission rules (503 with Retry-After, 429 per client) through
the API. Order and events decide, never elapsed time."""

from __future__ import annotations

import threading
from typing import Any, Iterator

import pytest
from fastapi.testclient import TestClient

import lane_work
from minegraph.deadline import Deadline
from minegraph.errors import QueryCancelled, QueryTimeout
from minegraph.recipes import checkerboard_opening
from minegraph.web import Limits, create_app
from minegraph.web.lanes import BigLane, LaneError
from minegraph.web.processes import process_tree, running
from waiting import cpu_seconds, wait_for, wait_for_work


@pytest.fixture
def lane() -> Iterator[BigLane]:
    lane = BigLane(1, 1, 200 << 20)
    yield lane
    lane.close()


def _run(lane: BigLane, work: Any, args: tuple[Any, ...], seconds: float = 60) -> Any:
    lane.admit()
    try:
        return lane.run(work, args, Deadline(seconds))
    finally:
        lane.release()


def test_a_job_answers_from_another_process_under_its_deadline(lane: BigLane) -> None:
    import os
    value, pid, left = _run(lane, lane_work.echo, ({"a": [1, 2]},), seconds=30)
    assert value == {"a": [1, 2]} and pid != os.getpid() and 0 < left <= 30
    assert _run(lane, lane_work.echo, (1,))[1] == pid          # the process is kept
    assert lane.started == 1


def test_errors_come_back_with_their_status(lane: BigLane) -> None:
    with pytest.raises(LaneError, match="no such thing") as info:
        _run(lane, lane_work.refuse, ("no such thing",))
    assert info.value.status == 422
    with pytest.raises(LaneError, match=r"internal error \(IndexError\)") as info:
        _run(lane, lane_work.crash, ())
    assert info.value.status == 500
    assert _run(lane, lane_work.echo, (3,))[0] == 3             # still serving


def test_a_job_past_its_deadline_loses_its_process(lane: BigLane) -> None:
    first = _run(lane, lane_work.echo, (0,))[1]
    with pytest.raises(QueryTimeout):
        _run(lane, lane_work.stubborn, (600,), seconds=0.3)
    assert first not in lane.processes()                        # killed and reaped
    assert _run(lane, lane_work.echo, (1,))[1] != first and lane.started == 2


def test_a_cancelled_job_loses_its_process_at_once(lane: BigLane) -> None:
    first = _run(lane, lane_work.echo, (0,))[1]
    deadline = Deadline(600)
    outcome: list[BaseException] = []

    def job() -> None:
        lane.admit()
        try:
            lane.run(lane_work.stubborn, (600,), deadline)
        except BaseException as exc:  # noqa: BLE001 - recorded for the assertion
            outcome.append(exc)
        finally:
            lane.release()

    worker = threading.Thread(target=job)
    worker.start()
    deadline.cancel()
    worker.join(60)
    assert not worker.is_alive() and isinstance(outcome[0], QueryCancelled)
    assert first not in lane.processes()


def test_a_process_that_grew_is_replaced_after_its_answer() -> None:
    lane = BigLane(1, 1, 1 << 30, keep_bytes=200 << 20)
    try:
        grown = _run(lane, lane_work.grow, (300,))              # kept past the 200 MiB bound
        assert grown not in lane.processes()
        assert _run(lane, lane_work.echo, (1,))[1] != grown
    finally:
        lane.close()


def test_a_job_is_held_to_its_memory_while_it_runs(lane: BigLane) -> None:
    """Issue 33, 4: the memory bound was checked only after a job, which could take all the
    memory it wanted meanwhile (1.1 GB for one decomposition under a 1 GiB bound)."""
    first = _run(lane, lane_work.echo, (1,))[1]
    with pytest.raises(LaneError) as caught:
        _run(lane, lane_work.grow, (300,))                      # past the 200 MiB bound
    assert caught.value.status == 413 and "memory" in str(caught.value)
    assert first not in lane.processes()                        # replaced after it
    assert _run(lane, lane_work.grow, (50,)) != first          # well within: served


def test_a_closed_lane_stops_its_processes_and_refuses_work() -> None:
    lane = BigLane(2, 0, 1 << 30)
    pid = _run(lane, lane_work.echo, (0,))[1]
    lane.close()
    assert lane.processes() == [] and pid not in lane.processes()
    from minegraph.web.lanes import Busy
    with pytest.raises(Busy, match="shutting down"):
        lane.admit()


# --------------------------------------------------------------------------- through the API
HARD = checkerboard_opening(60, 60, 0.3, seed=1, total=True).to_text()




def test_a_full_big_lane_answers_503_with_retry_after() -> None:
    limits = Limits(big_workers=1, big_queue=0, analyze_seconds=3, per_client=5)
    with TestClient(create_app(limits)) as client:
        runner = client.app.state.runner                        # type: ignore[attr-defined]
        result: dict[str, Any] = {}
        worker = threading.Thread(
            target=lambda: result.update(r=client.post("/api/analyze", json={"board": HARD})))
        worker.start()
        wait_for(lambda: runner.lane._admitted == 1, "the hard analysis entered the big lane")
        busy = client.post("/api/analyze", json={"board": HARD})
        assert busy.status_code == 503 and "busy" in busy.json()["error"]
        assert int(busy.headers["Retry-After"]) >= 1
        # A small analysis does not need the big lane.
        assert client.post("/api/analyze", json={"board": "#1#", "mines": 1}).json()["solutions"] == "2"
        worker.join(120)
        assert result["r"].status_code == 422                   # its own time limit


def test_one_client_cannot_hold_every_worker() -> None:
    limits = Limits(per_client=1, analyze_seconds=3)
    with TestClient(create_app(limits)) as client:
        runner = client.app.state.runner                        # type: ignore[attr-defined]
        worker = threading.Thread(target=lambda: client.post("/api/analyze", json={"board": HARD}))
        worker.start()
        wait_for(lambda: runner.clients._count.get("testclient") == 1, "the first request")
        second = client.post("/api/analyze", json={"board": "#1#", "mines": 1})
        assert second.status_code == 429 and int(second.headers["Retry-After"]) >= 1
        worker.join(120)
        assert client.post("/api/analyze", json={"board": "#1#", "mines": 1}).status_code == 200


def test_a_small_request_that_turns_out_hard_moves_to_the_big_lane() -> None:
    """A board text under ``big_request_bytes`` starts in a thread; past ``small_seconds`` it
    continues in the big lane's process, and its answer is the library's."""
    from minegraph import analyze
    from minegraph.recipes import midgame_position
    board = midgame_position(16, 30, 99, seed=11)
    limits = Limits(small_seconds=1e-6, analyze_seconds=600)    # every request outgrows it
    with TestClient(create_app(limits)) as client:
        response = client.post("/api/analyze", json={"board": board.to_text()})
        assert response.status_code == 200 and response.json() == analyze(board).to_json()
        assert client.app.state.runner.lane.started == 1        # type: ignore[attr-defined]


def test_reading_a_game_while_the_solver_plays_sees_whole_positions() -> None:
    """The solver plays a copy: every read while it plays is the position before it started
    (it has not answered yet), and the answer installs the position after."""
    with TestClient(create_app(Limits(analyze_seconds=600))) as client:
        game = client.post("/api/game", json={"rows": 40, "cols": 40, "mines": 300,
                                              "rules": "modern", "seed": 7}).json()
        url = f"/api/game/{game['id']}"
        client.post(f"{url}/move", json={"action": "reveal", "cell": [20, 20]})
        before = client.get(url).json()
        result: dict[str, Any] = {}
        worker = threading.Thread(target=lambda: result.update(
            r=client.post(f"{url}/solver", json={"steps": None})))
        worker.start()
        seen = []
        while worker.is_alive():
            now = client.get(url)
            assert now.status_code == 200
            seen.append(now.json()["board"])
        worker.join()
        after = result["r"].json()
        assert after["status"] in ("won", "lost") and after["board"] != before["board"]
        assert client.get(url).json()["board"] == after["board"]
        # Nothing half-played was ever shown.
        assert seen and set(seen) <= {before["board"], after["board"]}


def test_a_game_refuses_moves_past_its_limit() -> None:
    with TestClient(create_app(Limits(moves_per_cell=1))) as client:
        game = client.post("/api/game", json={"rows": 2, "cols": 2, "mines": 1,
                                              "rules": "classic", "seed": 1}).json()
        url = f"/api/game/{game['id']}/move"
        for _ in range(4 + 100):                                # 1 x 4 cells + 100
            assert client.post(url, json={"action": "flag", "cell": [0, 0]}).status_code == 200
        refused = client.post(url, json={"action": "flag", "cell": [0, 0]})
        assert refused.status_code == 422 and "limit of 104 moves" in refused.json()["error"]


def test_a_no_guess_first_click_out_of_time_names_its_question() -> None:
    with TestClient(create_app(Limits(analyze_seconds=0.3))) as client:
        game = client.post("/api/game", json={"rows": 100, "cols": 100, "mines": 2500,
                                              "rules": "noguess"}).json()
        response = client.post(f"/api/game/{game['id']}/move",
                               json={"action": "reveal", "cell": [50, 50]})
        assert response.status_code == 422
        assert response.json()["error"].startswith(
            "no answer within 0.3 s to the no-guess layout (a layout solvable")
        # Nothing was placed: the game is still waiting for its first click.
        assert client.get(f"/api/game/{game['id']}").json()["moves"] == 0


class _Peer:
    """What :meth:`Runner.request` reads of a request: the client's address, and whether it
    went away (never, here)."""

    def __init__(self, host: str) -> None:
        self.client = type("Address", (), {"host": host})()

    async def is_disconnected(self) -> bool:
        return False


def test_one_client_takes_its_turn_in_the_small_lane() -> None:
    """Issue 33, 2: a few clients with several requests each took every small-lane thread at
    once, and a player's request waited for one. A client now runs ``small_per_client``
    requests at once there (its others wait their turn), so another client's request finds
    a free thread while the first client's work is held."""
    import asyncio

    from minegraph.web.runner import Runner
    runner = Runner(Limits(workers=4, small_per_client=1, per_client=3))
    gate, held = threading.Event(), threading.Event()
    started: list[str] = []

    def work(name: str, deadline: Deadline) -> str:
        started.append(name)
        if name == "a1":
            held.set()
            gate.wait(60)
        return name

    async def one(host: str, name: str) -> tuple[bool, Any]:
        async with runner.request(_Peer(host), 60, "consistency") as deadline:  # type: ignore[arg-type]
            return await runner.small(work, (name,), deadline)

    async def scene() -> None:
        first = asyncio.ensure_future(one("198.51.100.1", "a1"))
        # Until a1 holds its thread (the wait in a thread of its own: the loop stays free).
        assert await asyncio.get_running_loop().run_in_executor(None, held.wait, 60)
        assert started == ["a1"]
        second = asyncio.ensure_future(one("198.51.100.1", "a2"))
        other = await one("198.51.100.2", "b")      # served while a1 is held
        assert other == (True, "b") and "a2" not in started
        gate.set()
        assert await first == (True, "a1") and await second == (True, "a2")
        assert started == ["a1", "b", "a2"] and not runner._turns

    try:
        asyncio.run(scene())
    finally:
        gate.set()
        runner.close()


def test_a_unique_puzzle_past_the_puzzle_cells_starts_in_the_big_lane() -> None:
    """A unique Expert puzzle searches for seconds: it no longer starts in the small lane
    (where it held a thread for ``small_seconds`` before moving on); a small one still does."""
    with TestClient(create_app(Limits(analyze_seconds=1))) as client:
        runner = client.app.state.runner                        # type: ignore[attr-defined]
        small = client.post("/api/generate", json={"kind": "unique", "rows": 9, "cols": 9,
                                                   "mines": 10, "seed": 1})
        assert small.status_code == 200 and runner.routed == {"small": 1}
        client.post("/api/generate", json={"kind": "unique", "rows": 16, "cols": 30,
                                           "mines": 99, "seed": 1})
        assert runner.routed == {"small": 1, "big": 1}          # never "moved"


def test_big_lane_processes_yield_the_cores_to_the_server(lane: BigLane) -> None:
    """Under contention the server's own threads (the small lane's answers) go first: the big
    lane's processes run at a niceness BIG_LANE_NICE above the server's."""
    import os

    from minegraph.web.lanes import BIG_LANE_NICE
    assert _run(lane, lane_work.niceness, ()) == min(19, os.nice(0) + BIG_LANE_NICE)


SERVER = """
import sys
from minegraph.web.limits import Limits
from minegraph.web.server import serve
serve("127.0.0.1", int(sys.argv[1]), Limits(analyze_seconds=3600, big_request_bytes=100))
"""



@pytest.mark.skipif(not __import__("sys").platform.startswith("linux"),
                    reason="PR_SET_PDEATHSIG and /proc are Linux's")
def test_a_server_killed_outright_leaves_no_big_lane_process() -> None:
    """Issue 33, 7: a big-lane process busy with a job kept its fork server alive (each
    process a fork server starts holds a copy of the pipe whose end tells it to stop), and
    the fork server's death is what kills the process: a server killed with SIGKILL left
    both running until the job's end (an hour here)."""
    import json
    import signal
    import socket
    import subprocess
    import sys
    import urllib.request
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def analyse(board: str) -> int:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/analyze", json.dumps({"board": board}).encode(),
            {"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=3600) as response:
                return int(response.status)
        except OSError:
            return 0

    try:
        # A first big job: the big-lane process is started, has answered, and waits for work.
        from minegraph.recipes import midgame_position
        quick = midgame_position(12, 12, 20, seed=1).to_text()     # over big_request_bytes
        wait_for(lambda: analyse(quick) == 200, "a big-lane job answered")
        workers = [p for p, parent in process_tree(server.pid).items() if parent != server.pid]
        assert len(workers) == 1                    # the fork server's child
        # Its own CPU time shows it took the job (its wait channel, read while it may still
        # be finishing the first job, could equal its busy one on a loaded machine).
        idle = cpu_seconds(workers[0])
        threading.Thread(target=analyse, args=(HARD,), daemon=True).start()
        wait_for_work(workers[0], idle + 0.2, "the big-lane process took the hard job")
        everything = set(process_tree(server.pid))
        server.send_signal(signal.SIGKILL)
        server.wait()
        wait_for(lambda: not any(running(p) for p in everything),
                 "every process the server started ended")
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
