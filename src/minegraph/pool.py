"""The package's one pool of worker processes: bulk work (:func:`minegraph.parallel.ordered_map`,
behind ``minegraph bench`` and ``minegraph generate --count``) and the web app's big lane
(:mod:`minegraph.web.lanes`) both run on it.

A :class:`Pool` runs tasks ``fn(*args)`` in at most ``size`` worker processes of its own, one
task per process at a time, one pipe per process:

- **deadline and kill**: a task may carry a :class:`~minegraph.deadline.Deadline`. The worker
  runs it under that deadline (:func:`~minegraph.deadline.time_limit`: engines stop at their
  next check), and the pool kills and replaces the process if it has not answered
  :data:`GRACE_SECONDS` after the deadline, or at once when the deadline is cancelled, so a
  task that never looks at its deadline still does not hold a worker past it;
- **recycling**: a worker is replaced after ``tasks_per_worker`` tasks, after a task that
  leaves it with more than ``keep_bytes`` resident (which returns that memory to the system),
  and after a task that ran out of memory;
- **memory while a task runs**: with ``most_bytes``, a worker's address space is capped at its
  size once started (the ``preload`` modules imported) plus ``most_bytes``, so a task past it
  fails with :class:`MemoryError` while it runs, not after;
- **clean shutdown**: :meth:`Pool.close` kills every worker and reaps it (no orphan, no zombie),
  also in the middle of a task; workers ignore SIGINT (Ctrl-C reaches the whole process group,
  and it is the pool's owner that decides to stop them) and, on Linux, ask to be killed when
  the process that started them dies, so even a pool whose owner is killed leaves none behind.

An exception raised by a task is raised again by :meth:`Task.result`, with the worker's
traceback as its cause (:class:`RemoteTraceback`); one that cannot cross the process boundary
becomes a :class:`RuntimeError` naming it.

Written here rather than on ``concurrent.futures.ProcessPoolExecutor``, whose manager thread
reads results from a pipe shared by all workers: killing a worker in the middle of sending can
leave a partial message that the thread then waits on for ever (and the exiting interpreter
waits on the thread), it cannot kill one task's worker, and an orderly shutdown may fork a
replacement worker. Here each worker has its own pipe, a killed worker is simply replaced, and
nothing is read once the stop begins.

Examples
--------
>>> import operator
>>> with Pool(2) as pool:
...     pool.call(operator.add, (2, 3))
5
"""

from __future__ import annotations

import gc
import importlib
import multiprocessing
import os
import pickle
import signal
import threading
import time
import traceback
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, Callable, Iterable, Sequence

from minegraph.deadline import Deadline, check_deadline, time_limit
from minegraph.errors import QueryCancelled, QueryTimeout

__all__ = ["Pool", "Task", "PoolClosed", "WorkerDied", "RemoteTraceback", "GRACE_SECONDS"]

#: How long past its deadline a task may take to answer before its worker is killed.
GRACE_SECONDS = 1.0

#: Seconds between two looks at a deadline (and a cancel flag) while an answer is awaited.
POLL_SECONDS = 0.05


class PoolClosed(RuntimeError):
    """The pool was closed: before a task was submitted, or while it ran (its worker killed)."""


class WorkerDied(RuntimeError):
    """A worker process ended without answering its task (killed from outside, or crashed)."""


class RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker: the cause of the exception that
    :meth:`Task.result` raises again, so that its printed traceback shows where it happened."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


# --------------------------------------------------------------------------- the worker's side
@dataclass(frozen=True)
class _Settings:
    """What a worker process is told when it starts."""

    most_bytes: int | None
    keep_bytes: int | None
    tasks: int | None
    preload: tuple[str, ...]
    die_with_parent: bool
    owner: int                               # the pool's process
    nice: int


def _die_with_parent() -> None:
    """Ask Linux to kill this process when the thread that started it ends (an owner killed
    with SIGKILL leaves no orphan); elsewhere the pool's own stop is all there is."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)           # PR_SET_PDEATHSIG
    except (OSError, AttributeError):           # pragma: no cover - not Linux
        pass


def _let_the_fork_server_go() -> None:
    """Close this process's copy of the fork server's "alive" pipe. A fork server ends when
    every copy is closed, and each process it starts is handed one; a worker that kept it
    would keep its fork server alive after the owner died, and the fork server's death is
    what kills the worker (``PR_SET_PDEATHSIG``): a worker busy with a task that never looks
    at its deadline would outlive a server killed outright. Workers start no process."""
    from multiprocessing import forkserver
    server = getattr(forkserver, "_forkserver", None)
    fd = getattr(server, "_forkserver_alive_fd", None)
    if isinstance(fd, int):
        try:
            os.close(fd)
        except OSError:                         # pragma: no cover - closed already
            pass
        server._forkserver_alive_fd = None      # type: ignore[union-attr]


def _statm(field_index: int) -> int:
    """A field of /proc/self/statm in bytes (0: size, 1: resident; 0 where unknown)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[field_index]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):   # pragma: no cover - not Linux
        return 0


def _cap_memory(most_bytes: int | None) -> None:
    """Cap this process's address space at its size now plus ``most_bytes`` (``None``: lift
    the cap), so that work past it fails with :class:`MemoryError` while it runs."""
    try:
        import resource
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        soft = hard
        if most_bytes is not None:
            # A forked worker holds its parent's garbage; collected later, it would leave the
            # cap above the size the worker settles at (a task could grow past most_bytes).
            gc.collect()
        if most_bytes is not None and _statm(0):
            soft = _statm(0) + most_bytes
            if hard != resource.RLIM_INFINITY:
                soft = min(soft, hard)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    except (ImportError, ValueError, OSError):   # pragma: no cover - not POSIX, or refused
        pass


def _portable(exc: BaseException) -> BaseException:
    """``exc`` if it survives pickling (an exception whose constructor takes other arguments
    than its message may not), else a :class:`RuntimeError` naming it."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs (Linux: a zombie does not; elsewhere: whether it exists)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False
    except (OSError, IndexError):               # pragma: no cover - no /proc
        try:
            os.kill(pid, 0)
            return True
        except ProcessLookupError:
            return False
        except OSError:
            return True


def _serve(conn: Connection, settings: _Settings) -> None:
    """A worker process: run ``(fn, args, deadline)`` tasks from ``conn`` and answer each with
    ``(ok, value or exception, traceback text, retire)``; end when the pipe closes, or after
    an answer that says it retires."""
    if settings.die_with_parent:
        _die_with_parent()
        _let_the_fork_server_go()
        # An owner that died before the request above was made leaves it unheard: look.
        if not _running(settings.owner):
            os._exit(0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # the pool's owner decides when to stop
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if settings.nice:
        try:
            os.nice(settings.nice)
        except (AttributeError, OSError):           # pragma: no cover - not POSIX
            pass
    for name in settings.preload:
        try:
            importlib.import_module(name)
        except ImportError:                         # pragma: no cover - an optional extra
            pass
    if settings.most_bytes is not None:
        _cap_memory(settings.most_bytes)
    served = 0
    while True:
        out_of_memory = False
        tb = ""
        try:
            try:
                fn, args, spec = conn.recv()
            except (EOFError, OSError):
                return
            served += 1
            if spec is None:
                reply: tuple[bool, Any] = (True, fn(*args))
            else:
                with time_limit(Deadline.at(*spec)):
                    reply = (True, fn(*args))
        except MemoryError:
            out_of_memory, reply = True, (False, MemoryError(
                f"the task needed more memory than a worker gives one task "
                f"({(settings.most_bytes or 0) / 2 ** 20:.0f} MiB)"))
        except Exception as exc:
            tb = traceback.format_exc()
            reply = (False, _portable(exc))
        retire = (out_of_memory or served == settings.tasks
                  or (settings.keep_bytes is not None and _statm(1) > settings.keep_bytes))
        try:
            try:
                conn.send((*reply, tb, retire))
            except MemoryError:                     # the answer itself too big to send
                _cap_memory(None)
                retire = True
                conn.send((False, MemoryError("the task's answer needed more memory than a "
                                              "worker gives one task"), "", retire))
            except Exception as exc:                # an answer that does not pickle
                conn.send((False, RuntimeError(f"the task's answer cannot be sent: "
                                               f"{type(exc).__name__}: {exc}"), "", retire))
        except (OSError, ValueError):               # the pool went away
            return
        if retire:
            return


# --------------------------------------------------------------------------- the owner's side
@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    conn: Connection
    waited: bool = False                     # a thread is in Task.result() for its task
    released: bool = False                   # its pipe and process handle are closed
    # A process handle is not safe to share: two threads reaping it at once (close() and a
    # waiting task) can leave one of them believing it still runs.
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def alive(self) -> bool:
        with self.lock:
            try:
                return self.process.is_alive()
            except ValueError:                  # its handle closed: long gone
                return False

    def end(self, timeout: float | None = None) -> None:
        """Kill the process (unless ``timeout``: wait that long first) and reap it."""
        with self.lock:
            try:
                if timeout is not None:
                    self.process.join(timeout)
                if self.process.is_alive():
                    self.process.kill()
                self.process.join()
            except ValueError:                  # its handle closed: long gone
                pass


@dataclass(eq=False)
class Task:
    """A task submitted to a :class:`Pool` (by :meth:`Pool.submit`), running in one of its
    workers.

    Attributes
    ----------
    pool : Pool
        The pool it runs on.
    worker
        The pool's worker process that runs it (internal).
    deadline : Deadline or None
        The task's deadline, if it has one.
    pid : int
        The process id of the worker running it.
    done : bool
        Whether its answer was taken (or it was abandoned).
    """

    pool: "Pool"
    worker: _Worker = field(repr=False)
    deadline: Deadline | None
    pid: int = 0
    done: bool = False

    def ready(self) -> bool:
        """Whether :meth:`result` would answer without waiting for the task's work (it is
        done, its worker ended, or the pool closed).

        Returns
        -------
        bool
        """
        if self.done or self.worker.released:
            return True
        try:
            return self.worker.conn.poll() or not self.worker.alive()
        except (OSError, ValueError):                   # closed meanwhile
            return True

    def result(self) -> Any:
        """Wait for the task's answer and return it (once: the worker is then free).

        While it waits, the task's deadline and the current query's
        (:func:`~minegraph.deadline.check_deadline`) are watched: a cancelled deadline kills the
        worker at once, one passed by :data:`GRACE_SECONDS` kills it then, and a cancelled
        query (say Ctrl-C at the command line) kills it too; a killed worker is replaced by
        the next task.

        Returns
        -------
        object
            What the task returned.

        Raises
        ------
        QueryTimeout
            when the task's deadline passed (in the worker, or here by the grace).
        QueryCancelled
            when its deadline or the current query was cancelled.
        PoolClosed
            when the pool was closed before the answer came.
        WorkerDied
            when the worker ended without answering.
        Exception
            whatever the task raised, with the worker's traceback as its cause.
        """
        pool, worker, deadline = self.pool, self.worker, self.deadline
        with pool._lock:
            if self.done:
                raise RuntimeError("the task's answer was already taken")
            if worker.released:
                self.done = True
                raise PoolClosed("the pool was closed before the task answered")
            worker.waited = True
        healthy = False
        try:
            while True:
                try:
                    if worker.conn.poll():
                        break
                    if not worker.alive():
                        if worker.conn.poll():          # it answered, then retired
                            break
                        if pool.closed:
                            raise PoolClosed("the pool was closed while the task ran")
                        raise WorkerDied(f"a worker process ended without answering (exit "
                                         f"code {worker.process.exitcode})")
                except (OSError, EOFError, ValueError):
                    raise PoolClosed("the pool was closed while the task ran") from None
                # No answer yet: the deadlines (outside the try: QueryTimeout is an OSError).
                if deadline is not None:
                    if deadline.cancelled:
                        raise QueryCancelled(deadline.question)
                    if time.monotonic() > deadline.expires + pool.grace:
                        raise QueryTimeout(deadline.question, deadline.seconds)
                check_deadline()
                try:
                    wait([worker.conn, worker.process.sentinel], POLL_SECONDS)
                except (OSError, ValueError):
                    raise PoolClosed("the pool was closed while the task ran") from None
            try:
                ok, value, tb, retire = worker.conn.recv()
            except (OSError, EOFError):             # its end of the pipe closed: it ended
                if pool.closed:
                    raise PoolClosed("the pool was closed while the task ran") from None
                worker.end(timeout=5)
                raise WorkerDied(f"a worker process ended without answering (exit code "
                                 f"{worker.process.exitcode})") from None
            healthy = not retire
        finally:
            self.done = True
            pool._finish(worker, healthy)
        if not ok:
            if tb:
                value.__cause__ = RemoteTraceback(tb)
            raise value
        return value


class Pool:
    """Worker processes that run tasks one at a time each, killed at their task's deadline,
    recycled by task count and by memory, all stopped by :meth:`close` (see the module's notes).

    Workers start when a task needs one (none idle, fewer than ``size`` alive), and are kept
    for the next tasks.

    Parameters
    ----------
    size
        Workers at most, so tasks running at once; :meth:`submit` waits for a free one.
    method
        The :mod:`multiprocessing` start method (default: the platform's). A process with
        threads (a server) should use ``"forkserver"``: forking it copies locks that other
        threads hold.
    tasks_per_worker
        A worker is replaced after this many tasks (default: never).
    most_bytes
        The memory one task may take while it runs (default: no cap): see the module's notes.
    keep_bytes
        A worker left with more resident memory than this after a task is replaced (default:
        never).
    preload
        Modules a worker imports when it starts, before its memory is capped (the cap is
        for a task's own memory; an import that runs out of it half-way can fail otherwise
        than with MemoryError).
    grace
        Seconds past a task's deadline before its worker is killed.
    name
        The workers' process name.
    nice
        Added to the workers' scheduling niceness (``os.nice``): a positive value lets the
        owner's own work (a server's quick answers) go first when the cores are contended.

    Raises
    ------
    ValueError
        for a size, a number of tasks or a number of bytes below 1.

    Examples
    --------
    >>> import operator
    >>> pool = Pool(1, tasks_per_worker=2)
    >>> first = [pool.call(os.getpid) for _ in range(3)]
    >>> first[0] == first[1] != first[2], pool.started     # replaced after two tasks
    (True, 2)
    >>> pool.close(); pool.pids()
    []
    """

    def __init__(self, size: int, *, method: str | None = None,
                 tasks_per_worker: int | None = None, most_bytes: int | None = None,
                 keep_bytes: int | None = None, preload: Sequence[str] = (),
                 grace: float = GRACE_SECONDS, name: str = "minegraph-worker",
                 nice: int = 0) -> None:
        for what, value in (("size", size), ("tasks_per_worker", tasks_per_worker),
                            ("most_bytes", most_bytes), ("keep_bytes", keep_bytes)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or value < 1):
                raise ValueError(f"{what}: expected a whole number >= 1, got {value!r}")
        self.size = size
        self.grace = grace
        self.name = name
        self._context = multiprocessing.get_context(method)   # every context has .Process
        self._method = method or multiprocessing.get_start_method()
        self._settings = (most_bytes, keep_bytes, tasks_per_worker, tuple(preload))
        self._nice = nice
        self._lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(size)
        self._idle: list[_Worker] = []
        self._all: set[_Worker] = set()
        self.closed = False
        #: Worker processes started so far (the first ones and their replacements).
        self.started = 0

    def __enter__(self) -> "Pool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- tasks
    def submit(self, fn: Callable[..., Any], args: Iterable[Any] = (),
               deadline: Deadline | None = None) -> Task:
        """Start ``fn(*args)`` in a free worker (waiting for one while all are busy).

        Parameters
        ----------
        fn
            A picklable function (defined at module level, or a ``functools.partial`` of one).
        args
            Its arguments (picklable).
        deadline
            The task's deadline: the work runs under it in the worker, and the worker is
            killed if it has not answered :attr:`grace` seconds after it (see
            :meth:`Task.result`). The wait for a free worker counts against it.

        Returns
        -------
        Task
            Its answer is :meth:`Task.result`.

        Raises
        ------
        QueryTimeout, QueryCancelled
            when ``deadline`` (or the current query's) passes or is cancelled while every
            worker is busy.
        PoolClosed
            once :meth:`close` was called.
        """
        while not self._slots.acquire(timeout=POLL_SECONDS):
            if deadline is not None:
                deadline.check()
            check_deadline()
            if self.closed:
                raise PoolClosed("the pool is closed")
        try:
            if deadline is not None:
                deadline.check()
            spec = None if deadline is None else (deadline.expires, deadline.seconds,
                                                  deadline.question)
            message = (fn, tuple(args), spec)
            for attempt in (1, 2):
                worker = self._take()
                try:
                    worker.conn.send(message)
                    break
                except (OSError, ValueError):       # an idle worker died: take another
                    self._finish(worker, False, release_slot=False)
                    if attempt == 2:
                        raise WorkerDied("a new worker process ended at once") from None
                except BaseException:               # say a task that does not pickle: the
                    self._finish(worker, False, release_slot=False)   # pipe may hold a part
                    raise
        except BaseException:
            self._slots.release()
            raise
        return Task(self, worker, deadline, worker.process.pid or 0)

    def call(self, fn: Callable[..., Any], args: Iterable[Any] = (),
             deadline: Deadline | None = None) -> Any:
        """``fn(*args)`` in a worker, and its answer: :meth:`submit`, then :meth:`Task.result`.

        Parameters
        ----------
        fn, args, deadline
            As for :meth:`submit`.

        Returns
        -------
        object
            What ``fn`` returned.

        Raises
        ------
        QueryTimeout, QueryCancelled, PoolClosed, WorkerDied
            as :meth:`submit` and :meth:`Task.result` say; and whatever ``fn`` raised.
        """
        return self.submit(fn, args, deadline).result()

    @staticmethod
    def wait(tasks: Iterable[Task], timeout: float | None = None) -> list[Task]:
        """The tasks among ``tasks`` whose :meth:`Task.result` is ready, waiting up to
        ``timeout`` seconds for one (``None``: until one is).

        Parameters
        ----------
        tasks
            Tasks of one or more pools.
        timeout
            Seconds to wait at most.

        Returns
        -------
        list of Task
            The ready ones, in the order given (empty after ``timeout``).
        """
        tasks = list(tasks)
        ready = [t for t in tasks if t.ready()]
        if ready or not tasks:
            return ready
        handles: list[Any] = []
        for t in tasks:
            handles += [t.worker.conn, t.worker.process.sentinel]
        try:
            wait(handles, timeout)
        except (OSError, ValueError):               # closed meanwhile: ready() says
            pass
        return [t for t in tasks if t.ready()]

    # -- workers
    def _take(self) -> _Worker:
        with self._lock:
            if self.closed:
                raise PoolClosed("the pool is closed")
            if self._idle:
                return self._idle.pop()
        # Only the pool's own start (forkserver), or the main thread, may ask to die with
        # its parent: Linux kills the child when the *thread* that started it ends.
        settings = _Settings(*self._settings, die_with_parent=self._method == "forkserver"
                             or threading.current_thread() is threading.main_thread(),
                             owner=os.getpid(), nice=self._nice)
        mine, theirs = self._context.Pipe()
        process: BaseProcess = self._context.Process(  # type: ignore[attr-defined]
            target=_serve, args=(theirs, settings), daemon=True, name=self.name)
        process.start()
        theirs.close()
        worker = _Worker(process, mine)
        with self._lock:
            self._all.add(worker)
            self.started += 1
            closed = self.closed
        if closed:
            self._finish(worker, False, release_slot=False)
            raise PoolClosed("the pool is closed")
        return worker

    def _finish(self, worker: _Worker, healthy: bool, *, release_slot: bool = True) -> None:
        """After a task: give the worker back for the next one, or stop it (killed, reaped,
        its handles closed); free the task's place."""
        with self._lock:
            worker.waited = False
            keep = healthy and not self.closed and not worker.released
            if keep:
                self._idle.append(worker)
        if not keep:
            self._stop(worker)
        if release_slot:
            self._slots.release()

    def _stop(self, worker: _Worker) -> None:
        """Kill a worker (it may be in the middle of a task) and reap it; close its handles
        unless a thread is waiting on them (that thread does it)."""
        worker.end()
        with self._lock:
            if worker.released or worker.waited:
                return
            worker.released = True
            self._all.discard(worker)
            if worker in self._idle:
                self._idle.remove(worker)
        worker.conn.close()
        with worker.lock:
            worker.process.close()

    def pids(self) -> list[int]:
        """The process ids of the pool's live workers.

        Returns
        -------
        list of int
        """
        with self._lock:
            workers = list(self._all)
        found = []
        for w in workers:
            with w.lock:
                try:
                    if w.process.is_alive() and w.process.pid is not None:
                        found.append(w.process.pid)
                except ValueError:                  # its handle closed meanwhile
                    pass
        return found

    def close(self) -> None:
        """Kill every worker and reap it, idle or in the middle of a task (whose
        :meth:`Task.result` then raises :class:`PoolClosed`); further tasks are refused.
        Calling it again does nothing."""
        with self._lock:
            self.closed = True
            everything = list(self._all)
        for worker in everything:
            self._stop(worker)
