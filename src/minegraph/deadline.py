"""Cooperative time limits: one deadline per query, checked inside every engine's loops.

No signals are used, so a limit works the same in the main thread, in a worker thread (a web
server's, a Dask worker's) and in worker processes. The current deadline lives in a context
variable: a query started with :func:`time_limit` is seen by every engine it calls, however
deeply nested, and a thread started inside it does not inherit it (each thread runs its own
queries). Engines call :func:`check_deadline` in their loops, or hold the :class:`Deadline`
from :func:`current_deadline` and call :meth:`Deadline.check`; a SAT solver that cannot look at
the clock registers its ``interrupt`` with :meth:`Deadline.watch` instead.

A deadline can also be cancelled from another thread (:meth:`Deadline.cancel`), which a web
server uses to stop work whose client went away; the engine then raises
:class:`~minegraph.errors.QueryCancelled` at its next check.

Examples
--------
>>> with time_limit(5.0):
...     0 < time_left() <= 5.0
True
>>> time_left() is None
True
>>> d = Deadline(0.0001)
>>> import time; time.sleep(0.001)
>>> d.expired()
True
"""

from __future__ import annotations

import math
import signal
import threading
import time
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, Iterator

from minegraph.errors import EngineError, QueryCancelled, QueryTimeout

__all__ = ["Deadline", "time_limit", "time_left", "check_deadline", "current_deadline", "asking",
           "MAX_SECONDS"]

#: The longest limit accepted (about 31 years); longer ones are refused as a user error.
MAX_SECONDS = 1e9


class Deadline:
    """A point in (monotonic) time by which a query must end.

    Parameters
    ----------
    seconds
        Time from now; a positive finite number of at most :data:`MAX_SECONDS`.
    question
        The question being answered, named by the :class:`~minegraph.errors.QueryTimeout`
        raised at expiry (engines update it with :func:`asking`).

    Raises
    ------
    EngineError
        for a limit that is not a positive finite number of seconds.

    Examples
    --------
    >>> d = Deadline(10)
    >>> d.check()            # nothing happens before the deadline
    >>> 9 < d.remaining() <= 10
    True
    >>> Deadline(-1)
    Traceback (most recent call last):
    ...
    minegraph.errors.EngineError: a time limit must be a positive number of seconds (at most 1e+09), got -1
    """

    __slots__ = ("seconds", "expires", "question", "_cancelled", "_lock", "_watchers")

    def __init__(self, seconds: float, question: str = "consistency") -> None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) \
                or math.isnan(seconds) or not 0 < seconds <= MAX_SECONDS:
            raise EngineError(f"a time limit must be a positive number of seconds "
                              f"(at most {MAX_SECONDS:g}), got {seconds!r}")
        if not isinstance(question, str):
            raise EngineError(f"a deadline's question must be a str, got {question!r}")
        self.seconds = float(seconds)
        self.expires = time.monotonic() + self.seconds
        self.question = question
        self._cancelled = False
        self._lock = threading.Lock()
        self._watchers: list[Callable[[], None]] = []

    def remaining(self) -> float:
        """Seconds left (negative once expired, 0 once cancelled)."""
        return 0.0 if self._cancelled else self.expires - time.monotonic()

    def expired(self) -> bool:
        """Whether the deadline has passed or the query was cancelled."""
        return self._cancelled or time.monotonic() >= self.expires

    def check(self, answered: dict[str, object] | None = None, margin: float = 0.0) -> None:
        """Raise if the deadline has passed (or the query was cancelled).

        ``margin`` seconds before the deadline count as past: for work that cannot be
        interrupted once started and would otherwise end after it.

        Raises
        ------
        QueryTimeout
            after the deadline, naming :attr:`question` and what was ``answered``.
        QueryCancelled
            after :meth:`cancel`.
        """
        if self._cancelled:
            raise QueryCancelled(self.question, answered)
        if time.monotonic() + margin >= self.expires:
            raise QueryTimeout(self.question, self.seconds, answered)

    def cancel(self) -> None:
        """Stop the query from any thread: its next check raises ``QueryCancelled`` and every
        registered solver is interrupted now."""
        with self._lock:
            self._cancelled = True
            watchers = list(self._watchers)
        for interrupt in watchers:
            interrupt()

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    @contextmanager
    def watch(self, interrupt: Callable[[], None]) -> Iterator[None]:
        """Call ``interrupt`` (from a timer thread) when the deadline passes or the query is
        cancelled, while the block runs: for solvers that do not look at the clock."""
        with self._lock:
            if self._cancelled:
                interrupt()
            self._watchers.append(interrupt)
        timer = threading.Timer(max(self.remaining(), 0.0), interrupt)
        timer.daemon = True
        timer.start()
        try:
            yield
        finally:
            timer.cancel()
            with self._lock:
                self._watchers.remove(interrupt)


_CURRENT: ContextVar[Deadline | None] = ContextVar("minegraph_deadline", default=None)


def current_deadline() -> Deadline | None:
    """The deadline of the query running in this context, or ``None`` without a limit."""
    return _CURRENT.get()


def time_left() -> float | None:
    """Seconds left before the current query's deadline (``None`` without a limit)."""
    deadline = _CURRENT.get()
    return None if deadline is None else deadline.remaining()


def asking(question: str) -> None:
    """Record the question being worked on, named by a :class:`QueryTimeout` on expiry."""
    deadline = _CURRENT.get()
    if deadline is not None:
        deadline.question = question


def check_deadline(answered: dict[str, object] | None = None) -> None:
    """Raise :class:`QueryTimeout` if the current query's deadline has passed, or
    :class:`QueryCancelled` if it was cancelled (Ctrl-C cancels a query without a limit too:
    :func:`time_limit` turns that into ``KeyboardInterrupt``)."""
    deadline = _CURRENT.get()
    if deadline is not None:
        deadline.check(answered)
    elif _SIGINT_ARRIVED[0]:
        raise QueryCancelled("interrupted", answered)


#: Whether Ctrl-C arrived during the query that holds the SIGINT handler (main thread only).
_SIGINT_ARRIVED = [False]


def _on_sigint(signum: int, frame: object) -> None:
    """Ctrl-C during a query: mark it, and cancel its deadline if it has one, so that the
    query stops at its next check rather than wherever the signal happens to land. Compiled
    code (minegraph/native.py) must not see a ``KeyboardInterrupt`` appear inside an integer
    operation: mypyc's runtime aborts the process there. A second Ctrl-C interrupts at once."""
    if _SIGINT_ARRIVED[0]:
        raise KeyboardInterrupt
    _SIGINT_ARRIVED[0] = True
    deadline = _CURRENT.get()
    if deadline is not None:
        deadline.cancel()


def _takes_sigint() -> bool:
    """Whether this query may hold SIGINT: in the main thread, and only while nobody else
    (an application, a server) has installed a handler of its own."""
    return (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler)


@contextmanager
def time_limit(limit: float | Deadline | None, question: str = "consistency") -> Iterator[Deadline | None]:
    """Bound everything run inside to ``limit`` seconds (or an existing :class:`Deadline`).

    On expiry the engine at work raises :class:`~minegraph.errors.QueryTimeout`, naming the
    question being answered. ``None`` means no limit (an enclosing limit still holds). Nested
    limits keep the earlier deadline. Yields the deadline in force.

    The outermost query of the main thread also holds Ctrl-C while it runs (unless another
    SIGINT handler than Python's is installed): Ctrl-C cancels the query, the engine stops at
    its next check, and the query then raises ``KeyboardInterrupt`` as usual. The compiled
    modules (:mod:`minegraph.native`) need this: an exception raised by the signal inside
    their integer arithmetic would abort the process.

    Raises
    ------
    EngineError
        for a limit that is not a positive number of seconds.

    Examples
    --------
    >>> with time_limit(5.0) as outer:
    ...     with time_limit(60.0) as inner:
    ...         inner is outer
    True
    """
    outer = _CURRENT.get()
    holds = outer is None and _takes_sigint()
    previous: object = None
    if holds:
        previous = signal.signal(signal.SIGINT, _on_sigint)
        _SIGINT_ARRIVED[0] = False
    token = None
    deadline = outer
    arrived = False
    try:
        if limit is not None:
            new = limit if isinstance(limit, Deadline) else Deadline(limit, question)
            if outer is not None and outer.expires <= new.expires and not new.cancelled:
                outer.question = question
            else:
                if not isinstance(limit, Deadline):
                    new.question = question
                token = _CURRENT.set(new)
                deadline = new
        yield deadline
    except QueryCancelled:
        if holds and _SIGINT_ARRIVED[0]:
            raise KeyboardInterrupt from None
        raise
    finally:
        if token is not None:
            _CURRENT.reset(token)
        if holds:
            signal.signal(signal.SIGINT, previous)  # type: ignore[arg-type]
            arrived, _SIGINT_ARRIVED[0] = _SIGINT_ARRIVED[0], False
    if arrived:     # Ctrl-C, and the query ended before it looked again: still an interrupt
        raise KeyboardInterrupt
