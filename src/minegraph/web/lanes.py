"""Where the web app's work runs: a small lane of threads and a big lane of processes,
admitted by cost, bounded in number, stopped at their deadline.

Every piece of work is a module-level function ``work(*args, deadline)`` returning plain data,
so either lane can run it:

- the *small lane*: worker threads of this process (at most :attr:`Limits.workers`), for work
  whose estimated cost is small (:mod:`minegraph.web.cost`: a position goes to the big lane
  before its work starts when it is not). It is also capped in time (:attr:`Limits.small_seconds`): work still
  running at the cap is stopped and moved to the big lane with the rest of its time, so a few
  requests that turn out hard cannot hold the threads that small analyses need;
- the *big lane*: worker processes of its own (:class:`BigLane`, at most
  :attr:`Limits.big_workers`, on a :class:`~minegraph.pool.Pool`: the package's one pool of
  processes, which ``minegraph bench`` and ``generate`` use too), for big work and work moved
  from the small lane. A job runs
  under a :class:`~minegraph.deadline.Deadline` in its process; if the process has not
  answered a second after the deadline, or the client went away, the process is killed and
  replaced, so a job never holds it past its limit. A job may take at most
  :attr:`Limits.big_worker_bytes` of memory while it runs (the process's address space is
  capped: past it the job answers 413 and the process is replaced); a process left with more
  than :attr:`Limits.big_worker_keep_bytes` resident after a job, or that served 100 jobs, is
  replaced after its answer, which returns its memory to the system.

Admission: at most :attr:`Limits.big_queue` jobs wait for a big-lane process; past that the
request is answered 503 with ``Retry-After`` (:class:`Busy`). One client (by address) has at
most :attr:`Limits.per_client` requests in the lanes at once, both lanes together, running
or waiting (an IPv6 client counted by its /64, :func:`~minegraph.web.limits.client_key`);
past that 429 (:class:`TooManyRequests`).
"""

from __future__ import annotations

import threading
import traceback
from typing import Any, Callable

from minegraph.deadline import Deadline, current_deadline
from minegraph.errors import LimitError, MinegraphError, QueryCancelled, QueryTimeout, UserError
from minegraph.pool import GRACE_SECONDS, Pool, PoolClosed, WorkerDied

__all__ = ["Busy", "TooManyRequests", "LaneError", "BigLane", "ClientCounter", "http_status",
           "JOBS_PER_PROCESS", "GRACE_SECONDS", "PRELOAD", "BIG_LANE_NICE"]

#: A big-lane process is replaced after this many jobs.
JOBS_PER_PROCESS = 100

#: The niceness big-lane processes add to the server's: on contended cores the scheduler
#: then serves the server's own threads (the small lane's quick answers, the event loop)
#: first, and a big job takes the time they leave.
BIG_LANE_NICE = 10

#: Modules the web app's work imports when it runs, imported by a big-lane process before its
#: memory is capped: the bound is for the job's own memory, and an import that runs out of it
#: half-way (a shared library half mapped) can fail with another error than MemoryError. The
#: web app's modules come first: a job names its work function by its module, and they bring
#: FastAPI and pydantic's native core with them.
PRELOAD = ("minegraph.web", "minegraph.web.positions", "minegraph.web.games",
           "minegraph.web.reviews", "minegraph.analysis", "minegraph.explain", "minegraph.decompose",
           "minegraph.decompose.picture", "minegraph.generate.noguess",
           "minegraph.generate.unique", "minegraph.generate.paper", "minegraph.generate.sheet",
           "minegraph.play.policies", "minegraph.play.review")


class Busy(UserError):
    """Every big-lane process is busy and the queue is full: answered 503 with Retry-After."""

    def __init__(self, message: str, retry_after: int = 2) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class TooManyRequests(UserError):
    """One client has too many requests under way: answered 429 with Retry-After."""

    def __init__(self, message: str, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class LaneError(MinegraphError):
    """An error raised by work in a big-lane process, carried back as its status and message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def http_status(error: MinegraphError) -> int:
    """The HTTP status of a :class:`~minegraph.errors.MinegraphError` answered by the API.

    Parameters
    ----------
    error
        The error.

    Returns
    -------
    int
        413 for a limit, 503 for :class:`Busy` and a full game store, 429 for
        :class:`TooManyRequests` and a client creating games too fast, 404 for an unknown
        game, the carried status of a :class:`LaneError`, else 422.

    Examples
    --------
    >>> http_status(LimitError("too big")), http_status(Busy("busy")), http_status(UserError("x"))
    (413, 503, 422)
    """
    from minegraph.web.store import StoreFull, TooManyGames, UnknownGame
    if isinstance(error, LaneError):
        return error.status
    if isinstance(error, LimitError):
        return 413
    if isinstance(error, (Busy, StoreFull)):
        return 503
    if isinstance(error, (TooManyRequests, TooManyGames)):
        return 429
    if isinstance(error, UnknownGame):
        return 404
    return 422


# --------------------------------------------------------------------------- the process side
def _job(work: Callable[..., Any], args: tuple[Any, ...]) -> tuple[Any, ...]:
    """What a big-lane process runs: ``work(*args, deadline)`` under the job's deadline (the
    pool installs it), an error of the package answered as its HTTP status and message
    (``("error", status, message)``; every such error crosses the process boundary so), a
    result as ``("ok", result)``. Anything else (:class:`MemoryError`, a bug) goes back as
    the exception itself, and the pool replaces the process after a :class:`MemoryError`."""
    deadline = current_deadline()
    if deadline is None:                        # pragma: no cover - BigLane.run gives one
        raise RuntimeError("a big-lane job runs under a deadline")
    try:
        return ("ok", work(*args, deadline))
    except MinegraphError as exc:
        return ("error", http_status(exc), str(exc))


# --------------------------------------------------------------------------- the server side
class BigLane:
    """The big lane: admission to a bounded queue, and the work run on a
    :class:`~minegraph.pool.Pool` (the package's one pool) of worker processes started by a
    fork server (the server has threads: forking it would copy locks they hold).

    Parameters
    ----------
    workers
        Processes (at most this many jobs run at once).
    queue
        Jobs that may wait for a process; more are refused with :class:`Busy`.
    most_bytes
        The memory one job may take while it runs: each process's address space is capped at
        its size at start plus this, so a job past it fails (413) and its process is
        replaced.
    keep_bytes
        A process whose resident memory passes this after a job is replaced (default:
        ``most_bytes``).

    Examples
    --------
    >>> lane = BigLane(1, 2, 2 ** 30)
    >>> for _ in range(3):
    ...     lane.admit()                # one running, two waiting
    >>> lane.admit()
    Traceback (most recent call last):
    ...
    minegraph.web.lanes.Busy: the server is busy: 1 big job(s) running and 2 waiting; try again shortly
    >>> lane.close()
    """

    def __init__(self, workers: int, queue: int, most_bytes: int,
                 keep_bytes: int | None = None) -> None:
        self.workers = workers
        self.queue = queue
        self.most_bytes = most_bytes
        self.keep_bytes = keep_bytes if keep_bytes is not None else most_bytes
        self._lock = threading.Lock()
        self._admitted = 0                       # running or waiting
        self.pool = Pool(workers, method="forkserver", tasks_per_worker=JOBS_PER_PROCESS,
                         most_bytes=most_bytes, keep_bytes=self.keep_bytes, preload=PRELOAD,
                         grace=GRACE_SECONDS, name="minegraph-big-lane", nice=BIG_LANE_NICE)

    @property
    def started(self) -> int:
        """Processes started so far, for tests and logs."""
        return self.pool.started

    # -- admission
    def admit(self) -> None:
        """Take a place in the lane (running or queued), or raise :class:`Busy`."""
        with self._lock:
            if self.pool.closed:
                raise Busy("the server is shutting down", retry_after=5)
            if self._admitted >= self.workers + self.queue:
                raise Busy(f"the server is busy: {self.workers} big job(s) running and "
                           f"{self.queue} waiting; try again shortly")
            self._admitted += 1

    def release(self) -> None:
        with self._lock:
            self._admitted -= 1

    # -- running
    def run(self, work: Callable[..., Any], args: tuple[Any, ...], deadline: Deadline) -> Any:
        """Run ``work(*args, deadline)`` in a process of the lane (blocking; call it from a
        thread, after :meth:`admit`). Waiting for a free process counts against the deadline.

        Raises
        ------
        QueryTimeout
            when the deadline passes while waiting or working (a process that has not
            answered :data:`GRACE_SECONDS` after it is killed and replaced).
        QueryCancelled
            when the deadline is cancelled (the process is killed and replaced).
        Busy
            when the lane is closed before the job ends.
        LaneError
            for any error the work raised, with its HTTP status.
        """
        try:
            answer = self.pool.call(_job, (work, args), deadline)
        except (QueryTimeout, QueryCancelled):
            raise
        except PoolClosed:
            raise Busy("the server is shutting down", retry_after=5) from None
        except WorkerDied:
            raise LaneError(500, "a big-lane worker process died") from None
        except MemoryError:
            raise LaneError(413, f"the work needs more memory than the server gives one job "
                                 f"({self.most_bytes / 2 ** 20:.0f} MiB: big_worker_bytes, "
                                 f"GET /api/limits)") from None
        except Exception as exc:                # a bug in the work: its traceback, then 500
            traceback.print_exception(exc)
            raise LaneError(500, f"internal error ({type(exc).__name__})") from None
        if answer[0] == "error":
            raise LaneError(answer[1], answer[2])
        return answer[1]

    def processes(self) -> list[int]:
        """The process ids of the lane's live processes."""
        return self.pool.pids()

    def close(self) -> None:
        """Stop every process (running jobs end with :class:`Busy`); further jobs are refused."""
        self.pool.close()


class ClientCounter:
    """Requests under way per client address, at most ``most`` each.

    :meth:`enter` counts a request in (raising :class:`TooManyRequests` past ``most``),
    :meth:`leave` counts it out; thread-safe.

    Parameters
    ----------
    most : int
        The most requests one client may have under way at once (the server's
        ``per_client`` limit).

    Examples
    --------
    >>> count = ClientCounter(1)
    >>> count.enter("10.0.0.1")
    >>> count.enter("10.0.0.1")
    Traceback (most recent call last):
    ...
    minegraph.web.lanes.TooManyRequests: too many requests at once from this client (at most 1); wait for an answer
    >>> count.leave("10.0.0.1"); count.enter("10.0.0.1")
    """

    def __init__(self, most: int) -> None:
        self.most = most
        self._lock = threading.Lock()
        self._count: dict[str, int] = {}

    def enter(self, client: str) -> None:
        with self._lock:
            n = self._count.get(client, 0)
            if n >= self.most:
                raise TooManyRequests(f"too many requests at once from this client (at most "
                                      f"{self.most}); wait for an answer")
            self._count[client] = n + 1

    def leave(self, client: str) -> None:
        with self._lock:
            n = self._count.get(client, 0) - 1
            if n > 0:
                self._count[client] = n
            else:
                self._count.pop(client, None)
