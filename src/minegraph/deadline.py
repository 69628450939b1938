"""Cooperative time limits: one deadline per query, checked inside every engine's loops.

The library installs no signal handler and starts no thread: a limit works the same in the
main thread, in a worker thread (a web server's, a Dask worker's) and in worker processes. The current deadline lives in a context
variable: a query started with :func:`time_limit` is seen by every engine it calls, however
deeply nested, and a thread started inside it does not inherit it (each thread runs its own
queries). Engines call :func:`check_deadline` in their loops, or hold the :class:`Deadline`
from :func:`current_deadline` and call :meth:`Deadline.check`; the native kernel polls the
deadline's time and its cancel flag (:attr:`Deadline.flag`), and SAT solvers run in short
conflict-budget slices with a check between two.

A deadline can also be cancelled from another thread or a signal handler
(:meth:`Deadline.cancel`): a web server stops work whose client went away, the command line
stops the running query on Ctrl-C (it alone handles SIGINT). The engine then raises
:class:`~minegraph.errors.QueryCancelled` at its next check.

Examples
--------
>>> with time_limit(5.0):
...     0 < time_left() <= 5.0
True
>>> time_left() is None
True
>>> d = Deadline(60.0)
>>> d.expired(), d.cancel(), d.expired()
(False, None, True)
"""

from __future__ import annotations

import math
import time
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

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

    __slots__ = ("seconds", "expires", "question", "flag", "_followers")

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
        #: One byte, set to 1 by :meth:`cancel`: the native kernel polls it as it works.
        self.flag = bytearray(1)
        self._followers: list[Deadline] = []

    @classmethod
    def at(cls, expires: float, seconds: float, question: str = "consistency") -> "Deadline":
        """A deadline at the monotonic time ``expires`` for a query limited to ``seconds``
        (what its :class:`~minegraph.errors.QueryTimeout` names): for a query whose limit
        started before now, such as a request that waited for a worker, or one handed to
        another process (``time.monotonic`` is system-wide on Linux, so the value crosses
        processes on the same machine).

        Parameters
        ----------
        expires
            The monotonic time (:func:`time.monotonic`) at which the query must end; it may
            already have passed.
        seconds
            The query's whole limit, as :class:`Deadline` takes it.
        question
            As for :class:`Deadline`.

        Returns
        -------
        Deadline

        Raises
        ------
        EngineError
            for a limit that is not a positive finite number of seconds, or an ``expires``
            that is not a finite number.

        Examples
        --------
        >>> d = Deadline.at(time.monotonic() + 2, 10)
        >>> d.seconds, 1 < d.remaining() <= 2
        (10.0, True)
        >>> Deadline.at(time.monotonic() - 1, 10).expired()
        True
        """
        if isinstance(expires, bool) or not isinstance(expires, (int, float)) \
                or not math.isfinite(expires):
            raise EngineError(f"a deadline must be a finite monotonic time, got {expires!r}")
        deadline = cls(seconds, question)
        deadline.expires = float(expires)
        return deadline

    def remaining(self) -> float:
        """Seconds left (negative once expired, 0 once cancelled)."""
        return 0.0 if self.flag[0] else self.expires - time.monotonic()

    def expired(self) -> bool:
        """Whether the deadline has passed or the query was cancelled."""
        return bool(self.flag[0]) or time.monotonic() >= self.expires

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
        if self.flag[0]:
            raise QueryCancelled(self.question, answered)
        if time.monotonic() + margin >= self.expires:
            raise QueryTimeout(self.question, self.seconds, answered)

    def cancel(self) -> None:
        """Stop the query from any thread, or from a signal handler: its next check raises
        ``QueryCancelled``, and so does that of every deadline set inside it (nested
        :func:`time_limit`). Only sets flags: safe wherever it is called."""
        self.flag[0] = 1
        for follower in list(self._followers):
            follower.cancel()

    @property
    def cancelled(self) -> bool:
        return bool(self.flag[0])

    def _follow(self, inner: "Deadline") -> None:
        """Cancel ``inner`` whenever this deadline is cancelled (now, if it is already)."""
        self._followers.append(inner)
        if self.flag[0]:
            inner.cancel()

    def _unfollow(self, inner: "Deadline") -> None:
        try:
            self._followers.remove(inner)
        except ValueError:      # pragma: no cover - removed twice
            pass


_CURRENT: ContextVar[Deadline | None] = ContextVar("minegraph_deadline", default=None)


def current_deadline() -> Deadline | None:
    """The deadline of the query running in this context, or ``None`` without a limit.

    Returns
    -------
    Deadline or None
        The deadline in force, or ``None``.
    """
    return _CURRENT.get()


def time_left() -> float | None:
    """Seconds left before the current query's deadline (``None`` without a limit).

    Returns
    -------
    float or None
        The seconds left, or ``None`` without a limit.
    """
    deadline = _CURRENT.get()
    return None if deadline is None else deadline.remaining()


def asking(question: str) -> None:
    """Record the question being worked on, named by a :class:`QueryTimeout` on expiry.

    Parameters
    ----------
    question : str
        The question's name (``consistency``, ``count``, ``forced``, ...).
    """
    deadline = _CURRENT.get()
    if deadline is not None:
        deadline.question = question


def check_deadline(answered: dict[str, object] | None = None) -> None:
    """Raise :class:`QueryTimeout` if the current query's deadline has passed, or
    :class:`QueryCancelled` if it was cancelled.

    Parameters
    ----------
    answered : dict, optional
        The questions answered so far, carried by the :class:`QueryTimeout`.
    """
    deadline = _CURRENT.get()
    if deadline is not None:
        deadline.check(answered)


@contextmanager
def time_limit(limit: float | Deadline | None, question: str = "consistency") -> Iterator[Deadline | None]:
    """Bound everything run inside to ``limit`` seconds (or an existing :class:`Deadline`).

    On expiry the engine at work raises :class:`~minegraph.errors.QueryTimeout`, naming the
    question being answered. ``None`` means no limit (an enclosing limit still holds). Nested
    limits keep the earlier deadline, and cancelling the enclosing deadline cancels the inner
    one too (so a program that cancels its query on Ctrl-C stops whatever limit the query set
    inside). Yields the deadline in force.

    Raises
    ------
    EngineError
        for a limit that is not a positive number of seconds.

    Parameters
    ----------
    limit : float or Deadline or None
        Seconds (positive, finite, at most :data:`MAX_SECONDS`), a deadline to share, or
        ``None`` for no limit of its own.
    question : str
        What a timeout names as unanswered, until :func:`asking` says otherwise.

    Returns
    -------
    context manager of Deadline or None
        Yields the deadline in force inside (an enclosing earlier one is kept), or ``None``
        without any limit.

    Raises
    ------
    EngineError
        when ``limit`` is not a positive number of seconds.

    Examples
    --------
    >>> with time_limit(5.0) as outer:
    ...     with time_limit(60.0) as inner:
    ...         inner is outer
    True
    >>> outer = Deadline(60)
    >>> with time_limit(outer):
    ...     with time_limit(1.0) as inner:
    ...         outer.cancel()
    ...         inner.cancelled
    True
    """
    outer = _CURRENT.get()
    token = None
    deadline = outer
    linked: Deadline | None = None
    if limit is not None:
        new = limit if isinstance(limit, Deadline) else Deadline(limit, question)
        if outer is not None and outer.expires <= new.expires and not new.cancelled:
            outer.question = question
        else:
            if not isinstance(limit, Deadline):
                new.question = question
            if outer is not None and new is not outer:
                outer._follow(new)
                linked = new
            token = _CURRENT.set(new)
            deadline = new
    try:
        yield deadline
    finally:
        if token is not None:
            _CURRENT.reset(token)
        if linked is not None and outer is not None:
            outer._unfollow(linked)
