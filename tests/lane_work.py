"""Work functions for the big-lane tests (tests/web/test_lanes.py), importable by name from
the lane's worker processes (``tests/`` is on their path, as on the test's)."""

from __future__ import annotations

import os
import time
from typing import Any

from minegraph.deadline import Deadline
from minegraph.errors import UserError

_KEPT: list[bytes] = []


def echo(value: Any, deadline: Deadline) -> tuple[Any, int, float]:
    """The value back, with the process id and the time the deadline had left."""
    return value, os.getpid(), deadline.remaining()


def refuse(message: str, deadline: Deadline) -> None:
    raise UserError(message)


def stubborn(seconds: float, deadline: Deadline) -> int:
    """Work that never looks at its deadline."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        time.sleep(0.01)
    return os.getpid()


def grow(megabytes: int, deadline: Deadline) -> int:
    """Keep ``megabytes`` of touched memory for the life of the process."""
    _KEPT.append(b"\1" * (megabytes << 20))
    return os.getpid()


def crash(deadline: Deadline) -> None:
    return [][1]  # type: ignore[no-any-return]


# ------------------------------------------------------------ for the pool's tests (test_pool.py)
def hold(path: str) -> None:
    """Say it started (its process id written to ``path``), then work for ever, never looking
    at a deadline: only a kill ends it."""
    with open(path + ".part", "w") as f:
        f.write(str(os.getpid()))
    os.replace(path + ".part", path)        # whole or absent: the test reads it at once
    while True:
        time.sleep(0.01)


class Odd(Exception):
    """An exception that cannot be rebuilt from its message (it does not cross processes)."""

    def __init__(self, a: int, b: int) -> None:
        super().__init__(f"odd {a} {b}")


def odd(a: int, b: int) -> None:
    raise Odd(a, b)


def fail(message: str) -> None:
    raise ValueError(message)


def niceness(deadline: Deadline) -> int:
    """This process's scheduling niceness."""
    return os.nice(0)
