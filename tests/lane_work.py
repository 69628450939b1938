"""Work functions for the big-lane tests (tests/web/test_lanes.py), importable by name from
the lane's worker processes (``tests/`` is on their path, as on the test's)."""

from __future__ import annotations

import os
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
    """Work that never looks at its deadline: it blocks on a pipe nobody writes (the lane must
    end its process); ``seconds`` only keeps a broken lane from hanging the suite."""
    never_ends(seconds)
    return os.getpid()


def never_ends(seconds: float) -> float:
    """Block on a pipe nobody writes, for at most ``seconds`` (a guard, not a wait: whoever
    runs this must stop it first)."""
    import select
    read, write = os.pipe()
    try:
        select.select([read], [], [], seconds)
    finally:
        os.close(read)
        os.close(write)
    return seconds


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
    read, write = os.pipe()
    os.read(read, 1)                        # nobody writes: blocks until the process is killed
    os.close(write)                         # (never reached)


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
