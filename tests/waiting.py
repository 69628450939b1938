"""Waiting for an event of a server, a thread or a process, not for a time: a condition polled
until it holds; the limit only keeps a broken run from hanging, it never decides a passing
test.

This is the one place in the suite that pauses (``tests/test_no_sleeps.py`` holds every other
file to none): a poll is how a test waits for an event that gives it no callback (a server's
``started`` flag, a file another process writes, a child's own CPU time).
"""

from __future__ import annotations

import sys
import time
from typing import Any


def wait_for(condition: Any, what: str, limit: float = 120.0) -> None:
    """Poll ``condition()`` until it is true; fail naming ``what`` only after ``limit`` seconds."""
    end = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < end, f"never happened: {what}"
        time.sleep(0.01)


def cpu_seconds(pid: int, thread: int | None = None) -> float:
    """The CPU time (user + system) process ``pid`` (or its thread of native id ``thread``)
    has used so far: the work it has done, however busy the machine (Linux:
    ``/proc/PID/stat``); 0 once it has ended."""
    path = f"/proc/{pid}/stat" if thread is None else f"/proc/{pid}/task/{thread}/stat"
    try:
        with open(path, encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    import os
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks     # utime, stime (fields 14 and 15)


def wait_for_work(pid: int, seconds: float, what: str, ended: Any = None) -> None:
    """Wait until process ``pid`` has done ``seconds`` of its own CPU work (or ``ended()``
    says it is gone): an event of the process, where a sleep would be a guess at how fast a
    busy machine runs it."""
    wait_for(lambda: cpu_seconds(pid) >= seconds or (ended is not None and ended()), what)


HAS_PROC = sys.platform.startswith("linux")
