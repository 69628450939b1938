"""Ctrl-C on the command line: the one place in minegraph that handles SIGINT.

The library installs no signal handler; its queries stop when their
:class:`~minegraph.deadline.Deadline` is cancelled. A command that answers queries runs in a
worker thread under a root deadline, while the main thread waits and owns SIGINT: Ctrl-C
cancels the root deadline (and so every limit set inside it), the query stops at its next
check (the native kernel polls the flag, SAT solvers run in short slices, Python loops check
the deadline), and the command ends with ``KeyboardInterrupt`` (exit status 130). If the work
has not stopped :data:`GRACE` seconds later, or on a second Ctrl-C, the main thread ends
anyway and the worker (a daemon thread) is left behind. In the worker thread, PySAT installs
no handler of its own either (it does so in the main thread only).

A Python signal handler runs only when the main thread gets the GIL, which a worker inside a
long C call (a CaDiCaL slice, a cardinality encoder) can hold for most of a second. When the
command line's C guard is built (``minegraph.cli._sigint``, ``_sigint.c`` beside this file,
built with the native kernel) it handles SIGINT at C level instead: it sets the root deadline's flag at once, and ends the process with status 130 if it
is still running :data:`GRACE` seconds later; a second Ctrl-C ends it at once.
"""

from __future__ import annotations

import contextvars
import signal
import threading
import time
from types import FrameType
from typing import Any, Callable, TypeVar

from minegraph.deadline import MAX_SECONDS, Deadline, time_limit

__all__ = ["run_cancellable", "GRACE"]

T = TypeVar("T")

#: Seconds the work may take to stop after Ctrl-C before the command ends without it.
GRACE = 0.4

#: How often the waiting main thread wakes (Python runs a signal handler only between
#: bytecodes of the main thread: a wait without a timeout would delay it).
_TICK = 0.05


def run_cancellable(work: Callable[[], T]) -> T:
    """``work()`` in a worker thread, cancelled by Ctrl-C; its result or its exception.

    Called from a thread other than the main one (where no signal arrives), ``work`` runs
    right there.

    Raises
    ------
    KeyboardInterrupt
        after Ctrl-C, whether or not the work had finished.

    Parameters
    ----------
    work : callable
        The work, without arguments.

    Returns
    -------
    object
        What ``work()`` returned.

    Examples
    --------
    >>> run_cancellable(lambda: 6 * 7)
    42
    """
    if threading.current_thread() is not threading.main_thread():
        return work()
    root = Deadline(MAX_SECONDS, "interrupted")
    done = threading.Event()
    outcome: list[tuple[bool, object]] = []

    def body() -> None:
        try:
            with time_limit(root):
                outcome.append((True, work()))
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread
            outcome.append((False, exc))
        finally:
            done.set()

    interrupted: list[float] = []

    def on_sigint(signum: int, frame: FrameType | None) -> None:
        if interrupted:
            raise KeyboardInterrupt        # a second Ctrl-C: stop waiting at once
        interrupted.append(time.monotonic())
        root.cancel()                      # only sets flags: safe in a handler

    guard = _guard()
    if guard is not None:
        # At C level (the command line's C guard): Ctrl-C sets the root's flag even while the
        # worker holds the GIL in a long C call, and ends the process GRACE seconds later if
        # it is still running.
        guard.guard_sigint(root.flag, GRACE, EXIT_STATUS)
        previous = None
    else:
        previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        worker = threading.Thread(target=contextvars.copy_context().run, args=(body,),
                                  name="minegraph-command", daemon=True)
        worker.start()
        while not done.wait(_TICK):
            if guard is not None and root.flag[0] and not interrupted:
                interrupted.append(time.monotonic())
                root.cancel()                  # on to every limit set inside the root
            if interrupted and time.monotonic() - interrupted[0] > GRACE:
                raise KeyboardInterrupt
    finally:
        if guard is not None:
            if guard.release_sigint() and not interrupted:
                interrupted.append(time.monotonic())
        else:
            signal.signal(signal.SIGINT, previous)
    if interrupted:
        raise KeyboardInterrupt
    ok, value = outcome[0]
    if not ok:
        assert isinstance(value, BaseException)
        raise value
    return value  # type: ignore[return-value]


#: The exit status of an interrupted command (128 + SIGINT), as the command line returns it.
EXIT_STATUS = 130


def _guard() -> Any:
    """The command line's C-level Ctrl-C guard (``minegraph.cli._sigint``) when it is built
    and native code runs (else ``None``: the Python handler)."""
    from pathlib import Path

    from minegraph.kernel import load_native
    module, _ = load_native("minegraph.cli._sigint", Path(__file__).with_name("_sigint.c"))
    return module
