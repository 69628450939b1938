"""The one pool of worker processes (minegraph.pool): answers and errors across the process
boundary, a task's deadline and its kill, recycling by task count and by memory, and a clean
stop (no worker left, reaped: no zombie), also when the pool's owner is killed.

Every check waits for an event (a task saying it started, a pid gone), never for a time."""

from __future__ import annotations

import operator
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

import lane_work
from minegraph.deadline import Deadline, time_limit
from minegraph.errors import QueryCancelled, QueryTimeout
from minegraph.pool import Pool, PoolClosed, RemoteTraceback, WorkerDied
from waiting import wait_for


def _reaped(pid: int) -> bool:
    """Whether ``pid`` is gone from the process table (neither running nor a zombie)."""
    return not Path(f"/proc/{pid}").exists()


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie whose parent is gone does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _started(path: Path) -> int:
    """The process id a :func:`lane_work.hold` task wrote once it started."""
    wait_for(path.exists, "the task started")
    return int(path.read_text())


class _Held:
    """A :func:`lane_work.hold` task called from a thread of its own (the call blocks until
    the task is stopped), with the exception that call ended in."""

    def __init__(self, pool: Pool, path: Path, deadline: Deadline | None = None,
                 query: Deadline | None = None) -> None:
        self._outcome: list[BaseException] = []

        def job() -> None:
            with time_limit(query):            # the current query's deadline (None: none)
                try:
                    pool.call(lane_work.hold, (str(path),), deadline)
                except BaseException as exc:  # noqa: BLE001 - recorded for the assertion
                    self._outcome.append(exc)

        self._thread = threading.Thread(target=job)
        self._thread.start()
        #: The worker's process id, once the task has started in it.
        self.pid = _started(path)

    def outcome(self) -> BaseException:
        """The exception the call ended in, once its thread has finished."""
        self._thread.join(60)
        assert not self._thread.is_alive() and len(self._outcome) == 1
        return self._outcome[0]


def test_answers_and_errors_come_back_from_the_worker() -> None:
    with Pool(1) as pool:
        assert pool.call(operator.add, (2, 3)) == 5
        pid = pool.call(os.getpid)
        assert pid != os.getpid()
        with pytest.raises(ValueError, match="no such thing") as info:
            pool.call(lane_work.fail, ("no such thing",))
        # The worker's traceback is the cause: where it happened, in the other process.
        assert isinstance(info.value.__cause__, RemoteTraceback)
        assert "lane_work.py" in str(info.value.__cause__)
        # An exception plain pickle cannot rebuild still says what it was: a RuntimeError
        # naming it, or the exception itself where a library loaded in the process (tblib,
        # which dask's imports install) has taught pickle to rebuild it.
        with pytest.raises(Exception, match="odd 1 2") as odd:
            pool.call(lane_work.odd, (1, 2))
        assert (type(odd.value).__name__ == "Odd"
                or (type(odd.value) is RuntimeError and "Odd: odd 1 2" in str(odd.value)))
        assert pool.call(os.getpid) == pid and pool.started == 1     # errors keep the worker


def test_a_task_that_does_not_pickle_is_refused_and_the_pool_goes_on() -> None:
    with Pool(1) as pool:
        with pytest.raises(Exception, match="pickle"):
            pool.submit(lambda: 1)
        assert pool.call(operator.neg, (2,)) == -2 and pool.pids() != []


def test_tasks_from_many_threads_share_the_workers() -> None:
    results: dict[int, int] = {}
    with Pool(2) as pool:
        def one(k: int) -> None:
            results[k] = pool.call(operator.mul, (k, k))

        threads = [threading.Thread(target=one, args=(k,)) for k in range(12)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert results == {k: k * k for k in range(12)} and pool.started <= 2


def test_a_task_runs_under_its_deadline_in_the_worker() -> None:
    with Pool(1) as pool:
        # The deadline crosses the process boundary: the work sees it as the current one.
        from minegraph.deadline import time_left
        assert 0 < pool.call(time_left, (), Deadline(30)) <= 30
        assert pool.call(time_left) is None


def test_a_task_past_its_deadline_loses_its_worker(tmp_path: Path) -> None:
    with Pool(1, grace=0.01) as pool:
        first = pool.call(os.getpid)
        with pytest.raises(QueryTimeout):
            pool.call(lane_work.hold, (str(tmp_path / "pid"),), Deadline(0.2))
        assert int((tmp_path / "pid").read_text()) == first
        assert _reaped(first) and first not in pool.pids()          # killed and reaped
        assert pool.call(os.getpid) != first and pool.started == 2  # replaced


def test_a_cancelled_task_loses_its_worker_at_once(tmp_path: Path) -> None:
    deadline = Deadline(3600)
    with Pool(1) as pool:
        held = _Held(pool, tmp_path / "pid", deadline)
        deadline.cancel()
        assert isinstance(held.outcome(), QueryCancelled)
        assert _reaped(held.pid) and pool.pids() == []


def test_a_cancelled_query_stops_the_wait_and_the_task(tmp_path: Path) -> None:
    """The current query's deadline (Ctrl-C at the command line cancels it) also stops a task
    that has none of its own."""
    query = Deadline(3600)
    with Pool(1) as pool:
        held = _Held(pool, tmp_path / "pid", query=query)
        query.cancel()
        assert isinstance(held.outcome(), QueryCancelled) and _reaped(held.pid)


def test_workers_are_recycled_by_task_count() -> None:
    with Pool(1, tasks_per_worker=3) as pool:
        pids = [pool.call(os.getpid) for _ in range(7)]
        assert pids[0] == pids[1] == pids[2] != pids[3] == pids[4] == pids[5] != pids[6]
        assert pool.started == 3 and _reaped(pids[0]) and _reaped(pids[3])


def test_a_task_is_held_to_its_memory_while_it_runs() -> None:
    with Pool(1, most_bytes=64 << 20) as pool:
        first = pool.call(os.getpid)
        with pytest.raises(MemoryError, match="more memory"):
            pool.call(lane_work.grow, (400, None))         # far past the cap: fails as it grows
        assert _reaped(first)                              # replaced after it
        assert pool.call(lane_work.grow, (16, None)) != first     # well within: served


def test_a_worker_that_kept_memory_is_replaced_after_its_answer() -> None:
    # A fork server's worker starts small; a forked one starts as big as this test process.
    with Pool(1, keep_bytes=64 << 20, method="forkserver") as pool:
        small = pool.call(lane_work.grow, (1, None))
        assert pool.call(lane_work.grow, (100, None)) == small   # answered (no cap) ...
        assert _reaped(small) and pool.pids() == []              # ... then replaced
        assert pool.call(os.getpid) != small


def test_a_worker_that_dies_is_replaced() -> None:
    with Pool(1) as pool:
        with pytest.raises(WorkerDied, match="exit code 3"):
            pool.call(os._exit, (3,))
        assert pool.call(operator.neg, (4,)) == -4 and pool.started == 2


def test_closing_kills_and_reaps_every_worker_even_mid_task(tmp_path: Path) -> None:
    pool = Pool(2)
    idle = pool.call(os.getpid)
    held = _Held(pool, tmp_path / "pid")
    pool.close()
    # Reaped by close() itself: gone from the process table, not zombies.
    assert _reaped(idle) and _reaped(held.pid) and pool.pids() == []
    assert isinstance(held.outcome(), PoolClosed)
    with pytest.raises(PoolClosed):
        pool.call(os.getpid)
    pool.close()                                          # again: nothing to do


OWNER = """
import os, sys, time
from minegraph.pool import Pool
pool = Pool(2, method=sys.argv[1])
# Both workers fully started (each has answered a task), then busy with tasks that never end.
first = [pool.submit(os.getpid) for _ in range(2)]
assert len({t.result() for t in first}) == 2
tasks = [pool.submit(time.sleep, (3600,)) for _ in range(2)]
print(*[t.pid for t in tasks], flush=True)
time.sleep(3600)
"""


@pytest.mark.parametrize("method", ["fork", "forkserver"])
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_an_owner_killed_outright_leaves_no_worker(method: str) -> None:
    """SIGKILL gives the owner no chance to stop its pool: the workers, busy with tasks that
    would run for an hour, go with it (with a fork server, they kept it alive and it them)."""
    owner = subprocess.Popen([sys.executable, "-c", OWNER, method], stdout=subprocess.PIPE,
                             text=True)
    try:
        assert owner.stdout is not None
        pids = [int(p) for p in owner.stdout.readline().split()]
        assert len(pids) == 2 and all(_alive(p) for p in pids)
        owner.send_signal(signal.SIGKILL)
        owner.wait()
        wait_for(lambda: not any(_alive(p) for p in pids), "the workers ended")
    finally:
        if owner.poll() is None:
            owner.kill()
            owner.wait()


def test_workers_run_at_the_niceness_asked() -> None:
    with Pool(1, nice=3) as pool:
        assert pool.call(os.nice, (0,)) == min(19, os.nice(0) + 3)


def test_bad_sizes_are_refused() -> None:
    for bad in ({"size": 0}, {"size": True}, {"size": 1, "tasks_per_worker": 0},
                {"size": 1, "most_bytes": -1}):
        with pytest.raises(ValueError, match="expected a whole number"):
            Pool(**bad)
