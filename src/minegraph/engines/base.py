"""The engine interface and registry.

An engine answers questions about a :class:`~minegraph.board.Board`. Engines that count
return, for every hidden cell, the number of completions in which it holds a mine; the
analysis layer turns those into exact probabilities and forced cells.
"""

from __future__ import annotations

import importlib
import math
import signal
import threading
import time
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterator, Protocol

from minegraph.board import Board
from minegraph.errors import EngineError, QueryTimeout

__all__ = ["Engine", "EngineResult", "ENGINES", "get_engine", "QUESTIONS", "time_limit", "time_left",
           "check_deadline", "asking"]

#: Questions an engine may be able to answer.
QUESTIONS = frozenset({"consistency", "completion", "forced", "count", "probabilities"})


@dataclass
class EngineResult:
    """What an engine found.

    Attributes
    ----------
    consistent
        Whether any completion exists.
    count
        Exact number of completions (``None`` if the engine does not count).
    mine_counts
        For every hidden cell, the number of completions with a mine on it (counting engines).
    completion
        The hidden cells holding a mine in one completion (``None`` if inconsistent).
    safe, mines
        Hidden cells proved safe / mined in every completion (engines that do not count).
    stats
        Engine-specific counters (e.g. tree-decomposition width, recursive calls).
    """

    consistent: bool
    count: int | None = None
    mine_counts: dict[int, int] | None = None
    completion: frozenset[int] | None = None
    safe: frozenset[int] | None = None
    mines: frozenset[int] | None = None
    stats: dict[str, object] = field(default_factory=dict)
    partial_probabilities: dict[int, Fraction] | None = None


class Engine(Protocol):
    """One solving method. ``answers`` lists the questions it can answer.

    An engine may also define ``complete(board) -> EngineResult`` answering consistency and
    one completion only; :func:`~minegraph.analysis.solve` uses it when present.
    """

    name: str
    answers: frozenset[str]

    def run(self, board: Board) -> EngineResult:
        """Answer every question the engine can answer about ``board``."""
        ...


#: Engine names and the module:class implementing each; "auto" picks for you.
ENGINES: dict[str, str] = {
    "dp": "minegraph.engines.dp:DPEngine",
    "brute": "minegraph.engines.brute:BruteEngine",
    "thesis": "minegraph.engines.thesis:ThesisEngine",
    "dp-thesis": "minegraph.engines.dp_thesis:PipelineDPEngine",
    "backtrack": "minegraph.engines.backtrack:BacktrackEngine",
    "sat": "minegraph.engines.sat:SatEngine",
    "auto": "minegraph.engines.portfolio:PortfolioEngine",
}


def get_engine(name: str) -> Engine:
    """Return the engine registered under ``name``; ``"auto"`` is the portfolio (dp, or sat
    on components too wide for dp; see :mod:`minegraph.engines.portfolio`).

    ``"name:option"`` passes ``option`` to engines that take one: the SAT solver of ``sat``
    (``"sat:minisat"``), the seed of ``backtrack`` (``"backtrack:7"``).

    Raises
    ------
    EngineError
        for an unknown name, listing the known ones, or an option the engine does not take.

    Examples
    --------
    >>> get_engine("dp").name
    'dp'
    >>> get_engine("nope")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    minegraph.errors.EngineError: unknown engine 'nope'; expected one of auto, ...
    """
    key, has_option, option = name.partition(":")
    target = ENGINES.get(key)
    if target is None:
        known = ", ".join(sorted(ENGINES))
        raise EngineError(f"unknown engine {name!r}; expected one of {known}")
    module_name, _, class_name = target.partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    if not has_option:
        return cls()
    if not getattr(cls, "takes_option", False):
        raise EngineError(f"engine {key!r} takes no option, got {name!r}")
    return cls(option)


# ---------------------------------------------------------------------------- time limits
# One deadline per query, kept in a context variable so nested calls (the portfolio running
# the SAT engine) see it. Engines written for it check it cooperatively (backtrack, sat);
# in the main thread on POSIX a SIGALRM timer also interrupts engines that never look at the
# clock (dp, brute), so every engine honours the limit there.

_DEADLINE: ContextVar[tuple[float, float] | None] = ContextVar("minegraph_deadline", default=None)
_QUESTION: ContextVar[str] = ContextVar("minegraph_question", default="consistency")


def time_left() -> float | None:
    """Seconds left before the current query's deadline (``None`` without a limit)."""
    limit = _DEADLINE.get()
    return None if limit is None else limit[0] - time.monotonic()


def asking(question: str) -> None:
    """Record the question being worked on, named by a :class:`QueryTimeout` on expiry."""
    _QUESTION.set(question)


def check_deadline(answered: dict[str, object] | None = None) -> None:
    """Raise :class:`QueryTimeout` if the current query's deadline has passed."""
    limit = _DEADLINE.get()
    if limit is not None and time.monotonic() >= limit[0]:
        raise QueryTimeout(_QUESTION.get(), limit[1], answered)


def _on_alarm(signum: int, frame: object) -> None:
    limit = _DEADLINE.get()
    raise QueryTimeout(_QUESTION.get(), None if limit is None else limit[1])


@contextmanager
def time_limit(seconds: float | None, question: str = "consistency") -> Iterator[None]:
    """Bound everything run inside to ``seconds`` of wall-clock time.

    On expiry :class:`~minegraph.errors.QueryTimeout` is raised, naming the question being
    answered (``question``, or what the engine last declared with :func:`asking`).
    ``None`` means no limit. Nested limits keep the earlier deadline.

    Raises
    ------
    EngineError
        for a limit that is not a positive number.

    Examples
    --------
    >>> with time_limit(5.0):
    ...     0 < time_left() <= 5.0
    True
    >>> time_left() is None
    True
    """
    if seconds is None:
        yield
        return
    if not seconds > 0 or math.isinf(seconds):
        raise EngineError(f"a time limit must be a positive number of seconds, got {seconds!r}")
    outer = _DEADLINE.get()
    deadline = time.monotonic() + seconds
    if outer is not None and outer[0] <= deadline:
        q_token = _QUESTION.set(question)
        try:
            yield
        finally:
            _QUESTION.reset(q_token)
        return
    token = _DEADLINE.set((deadline, seconds))
    q_token = _QUESTION.set(question)
    alarm = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    previous: Any = None
    if alarm:
        previous = signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
            if outer is not None:  # re-arm the outer limit for its remaining time
                signal.setitimer(signal.ITIMER_REAL, max(outer[0] - time.monotonic(), 1e-3))
        _QUESTION.reset(q_token)
        _DEADLINE.reset(token)
