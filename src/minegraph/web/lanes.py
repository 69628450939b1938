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
  :attr:`Limits.big_workers`), for big work and work moved from the small lane. A job runs
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

import multiprocessing
import os
import signal
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Callable

from minegraph.deadline import Deadline
from minegraph.errors import LimitError, MinegraphError, QueryCancelled, QueryTimeout, UserError

__all__ = ["Busy", "TooManyRequests", "LaneError", "BigLane", "ClientCounter", "http_status",
           "JOBS_PER_PROCESS", "GRACE_SECONDS", "PRELOAD"]

#: A big-lane process is replaced after this many jobs.
JOBS_PER_PROCESS = 100

#: How long past its deadline a big-lane job may take to answer before its process is killed.
GRACE_SECONDS = 1.0

#: Modules the web app's work imports when it runs, imported by a big-lane process before its
#: memory is capped: the bound is for the job's own memory, and an import that runs out of it
#: half-way (a shared library half mapped) can fail with another error than MemoryError.
PRELOAD = ("minegraph.analysis", "minegraph.explain", "minegraph.decompose",
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
def _die_with_parent() -> None:
    """Ask Linux to kill this process when its parent dies (a server killed with SIGKILL
    leaves no orphan); elsewhere the pipe's end-of-file stops the loop instead."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)           # PR_SET_PDEATHSIG
    except (OSError, AttributeError):           # pragma: no cover - not Linux
        pass


def _resident_bytes() -> int:
    """This process's resident memory now (Linux; 0 where unknown)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):   # pragma: no cover - not Linux
        return 0


def _size_bytes() -> int:
    """This process's address space now (Linux; 0 where unknown)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):   # pragma: no cover - not Linux
        return 0


def _cap_memory(most_bytes: int | None) -> None:
    """Cap this process's address space at its size now plus ``most_bytes`` (``None``: lift
    the cap), so that work past it fails with :class:`MemoryError` while it runs."""
    try:
        import resource
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        soft = hard
        if most_bytes is not None and _size_bytes():
            soft = _size_bytes() + most_bytes
            if hard != resource.RLIM_INFINITY:
                soft = min(soft, hard)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    except (ImportError, ValueError, OSError):   # pragma: no cover - not POSIX, or refused
        pass


def _serve(conn: Connection, most_bytes: int, keep_bytes: int) -> None:
    """A big-lane process: run jobs from ``conn`` until it closes or the process should be
    replaced (then say so in the last answer and exit). Its memory is capped at its size
    after importing :data:`PRELOAD` plus ``most_bytes`` (a job past it answers 413 and retires the process); it retires
    after a job that leaves it with more than ``keep_bytes`` resident."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # the server decides when to stop
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    import importlib
    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:                     # pragma: no cover - an optional extra
            pass
    too_big = (413, f"the work needs more memory than the server gives one job "
                    f"({most_bytes / 2 ** 20:.0f} MiB: big_worker_bytes, GET /api/limits)")
    _cap_memory(most_bytes)
    for served in range(1, JOBS_PER_PROCESS + 1):
        out_of_memory = False
        try:
            try:
                work, args, expires, seconds, question = conn.recv()
            except (EOFError, OSError):
                return
            deadline = Deadline.at(expires, seconds, question)
            outcome: tuple[str, Any] = ("ok", work(*args, deadline))
        except MemoryError:
            out_of_memory, outcome = True, ("error", too_big)
        except MinegraphError as exc:
            outcome = ("error", (http_status(exc), str(exc)))
        except Exception as exc:                # a bug: answer 500, keep serving
            import traceback
            traceback.print_exc()
            outcome = ("error", (500, f"internal error ({type(exc).__name__})"))
        retire = out_of_memory or served == JOBS_PER_PROCESS or _resident_bytes() > keep_bytes
        try:
            try:
                conn.send((*outcome, retire))
            except MemoryError:                 # the answer itself is too big to send
                _cap_memory(None)
                retire = True
                conn.send(("error", too_big, retire))
        except (OSError, ValueError):           # pragma: no cover - the server went away
            return
        if retire:
            return


# --------------------------------------------------------------------------- the server side
@dataclass(eq=False)
class _Process:
    process: Any                                 # multiprocessing.context.Process
    conn: Connection


class BigLane:
    """The big lane's worker processes and its bounded queue.

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
        self._slots = threading.Semaphore(workers)
        self._admitted = 0                       # running or waiting
        self._idle: list[_Process] = []
        self._all: set[_Process] = set()
        self._closed = False
        self.started = 0                         # processes started, for tests and logs

    # -- admission
    def admit(self) -> None:
        """Take a place in the lane (running or queued), or raise :class:`Busy`."""
        with self._lock:
            if self._closed:
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
            when the deadline passes while waiting or working.
        QueryCancelled
            when the deadline is cancelled (the process is killed and replaced).
        LaneError
            for any error the work raised, with its HTTP status.
        """
        while not self._slots.acquire(timeout=0.1):
            deadline.check()
        try:
            deadline.check()
            proc = self._take()
            healthy = False
            try:
                proc.conn.send((work, args, deadline.expires, deadline.seconds, deadline.question))
                while not proc.conn.poll(0.05):
                    if deadline.cancelled:
                        raise QueryCancelled(deadline.question)
                    if time.monotonic() > deadline.expires + GRACE_SECONDS:
                        raise QueryTimeout(deadline.question, deadline.seconds)
                    if not proc.process.is_alive():
                        raise LaneError(500, "a big-lane worker process died")
                kind, payload, retire = proc.conn.recv()
                healthy = not retire
            finally:
                if healthy:
                    self._give_back(proc)
                else:
                    self._stop(proc)
        finally:
            self._slots.release()
        if kind == "error":
            status, message = payload
            raise LaneError(status, message)
        return payload

    def _take(self) -> _Process:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        context = multiprocessing.get_context("forkserver")
        parent, child = context.Pipe()
        process = context.Process(target=_serve, args=(child, self.most_bytes, self.keep_bytes),
                                  daemon=True, name="minegraph-big-lane")
        process.start()
        child.close()
        proc = _Process(process, parent)
        with self._lock:
            self._all.add(proc)
            self.started += 1
            closed = self._closed
        if closed:
            self._stop(proc)
            raise Busy("the server is shutting down", retry_after=5)
        return proc

    def _give_back(self, proc: _Process) -> None:
        with self._lock:
            if not self._closed:
                self._idle.append(proc)
                return
        self._stop(proc)

    def _stop(self, proc: _Process) -> None:
        """Kill a process and reap it (it may be in the middle of a job)."""
        proc.conn.close()
        if proc.process.is_alive():
            proc.process.kill()
        proc.process.join(5)
        with self._lock:
            self._all.discard(proc)
            if proc in self._idle:
                self._idle.remove(proc)

    def processes(self) -> list[int]:
        """The process ids of the lane's live processes."""
        with self._lock:
            return [p.process.pid for p in self._all if p.process.is_alive()]

    def close(self) -> None:
        """Stop every process (running jobs end with an error); further jobs are refused."""
        with self._lock:
            self._closed = True
            everything = list(self._all)
        for proc in everything:
            self._stop(proc)


class ClientCounter:
    """Requests under way per client address, at most ``most`` each.

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
