"""Waiting for an event of a server or a thread, not for a time: a condition polled until it
holds; the limit only keeps a broken run from hanging, it never decides a passing test."""

from __future__ import annotations

import time
from typing import Any


def wait_for(condition: Any, what: str, limit: float = 120.0) -> None:
    """Poll ``condition()`` until it is true; fail naming ``what`` only after ``limit`` seconds."""
    end = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < end, f"never happened: {what}"
        time.sleep(0.01)
