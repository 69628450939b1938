"""Running a request's work in the lanes (:mod:`minegraph.web.lanes`) from the event loop.

:class:`Runner` holds an app's lanes: it admits the request (per client), runs the work in the
small lane's threads or the big lane's processes under one :class:`~minegraph.deadline.Deadline`,
sends work that finds itself too costly before it starts (:class:`Outgrown`) or that outgrows
the small lane's time to the big one, and cancels the deadline when the client goes away (so
the thread stops at its next check, or the process is killed). One client runs at most
:attr:`~minegraph.web.limits.Limits.small_per_client` requests at once in the small lane (its
others wait their turn), so a client cannot take every thread with a burst of requests.
:attr:`Runner.routed` counts where the work went.

A question on a position is estimated (:attr:`Runner.estimate`) in the small lane before its
work; the verdict is remembered by the request's position (:class:`~minegraph.web.cost.CostMemo`),
and a position remembered as big goes to the big lane at once: with the big lane full it is
refused there (503) without a second estimate and without taking a small-lane thread or its
client's turn, so a client sending the same hard board again and again costs the server's
interpreter next to nothing.
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections import Counter
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Callable

import anyio
import anyio.to_thread
from starlette.requests import Request

from minegraph.deadline import Deadline, time_limit
from minegraph.errors import QueryTimeout
from minegraph.web.cost import Cost, CostMemo, estimate
from minegraph.web.lanes import BigLane, ClientCounter
from minegraph.web.limits import Limits, client_key

__all__ = ["Runner", "Outgrown"]

#: The client of the request whose work runs (set by :meth:`Runner.request`).
_CLIENT: contextvars.ContextVar[str | None] = contextvars.ContextVar("minegraph_client",
                                                                     default=None)


class Outgrown(Exception):
    """Raised by small-lane work that finds, before it starts, that it would cost too much
    for the small lane (:mod:`minegraph.web.cost`): the runner sends it to the big lane."""


class Runner:
    """An app's lanes and admission.

    Parameters
    ----------
    limits
        The app's limits (workers, queue, caps).

    Attributes
    ----------
    routed
        Where work went, by count: ``"small"`` (answered in the small lane), ``"estimated"``
        (sent to the big lane by its estimated cost, or by the remembered estimate of the
        same position, before it started), ``"moved"`` (stopped at the small lane's time cap
        and moved), ``"big"`` (sent there at once by its size).
    estimate
        The estimate of a position's cost the small lane runs before its work
        (:func:`minegraph.web.cost.estimate`; a test may put one that records its calls).
    costs
        The verdicts of the estimates, by position (:func:`~minegraph.web.cost.cost_key`).
    """

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.lane = BigLane(limits.big_workers, limits.big_queue, limits.big_worker_bytes,
                            limits.big_worker_keep_bytes)
        self.clients = ClientCounter(limits.per_client)
        self._limiters: dict[tuple[int, str], anyio.CapacityLimiter] = {}
        self.routed: Counter[str] = Counter()
        self.estimate: Callable[..., Cost] = estimate
        self.costs = CostMemo()
        # Per event loop and client: the semaphore of its small-lane turns, and its users.
        self._turns: dict[tuple[int, str], tuple[asyncio.Semaphore, list[int]]] = {}

    @asynccontextmanager
    async def _turn(self, client: str | None) -> AsyncIterator[None]:
        """Wait until ``client`` has fewer than :attr:`Limits.small_per_client` requests in
        the small lane, and hold one of its places meanwhile (``None``: no wait)."""
        if client is None:
            yield
            return
        key = (id(asyncio.get_running_loop()), client)
        entry = self._turns.get(key)
        if entry is None:
            entry = self._turns[key] = (asyncio.Semaphore(self.limits.small_per_client), [0])
        semaphore, users = entry
        users[0] += 1
        try:
            async with semaphore:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self._turns[key]

    def _limiter(self, lane: str) -> anyio.CapacityLimiter:
        # One per event loop and lane: a limiter belongs to the loop that first uses it.
        key = (id(asyncio.get_running_loop()), lane)
        found = self._limiters.get(key)
        if found is None:
            if not any(k[0] == key[0] for k in self._limiters):
                self._limiters.clear()
            size = self.limits.workers if lane == "small" \
                else self.limits.big_workers + self.limits.big_queue
            found = self._limiters[key] = anyio.CapacityLimiter(size)
        return found

    @asynccontextmanager
    async def request(self, request: Request, seconds: float,
                      question: str) -> AsyncIterator[Deadline]:
        """Admit ``request`` and yield its deadline, cancelled if the client goes away."""
        client = client_key(request.client.host if request.client is not None else None)
        self.clients.enter(client)
        deadline = Deadline(seconds, question)
        token = _CLIENT.set(client)

        async def watch() -> None:
            while not deadline.expired():
                if await request.is_disconnected():
                    deadline.cancel()
                    return
                await asyncio.sleep(0.2)

        # A task of its own rather than a task group: errors of the work then reach the
        # app's handlers as they are, not wrapped in an exception group.
        watcher = asyncio.get_running_loop().create_task(watch())
        try:
            yield deadline
        finally:
            watcher.cancel()
            try:
                await watcher
            except asyncio.CancelledError:
                pass
            _CLIENT.reset(token)
            self.clients.leave(client)

    async def small(self, work: Callable[..., Any], args: tuple[Any, ...],
                    deadline: Deadline, position: bytes | None = None) -> tuple[bool, Any]:
        """``work(*args, cap)`` in a small-lane thread, ``cap`` the earlier of ``deadline`` and
        :attr:`Limits.small_seconds` from now. Returns ``(True, result)``, or ``(False,
        None)`` when the cap stopped it before the deadline or it raised :class:`Outgrown`
        (the caller moves it on; the verdict is remembered for ``position``, its
        :func:`~minegraph.web.cost.cost_key`). Within :meth:`request`, it first waits for
        its client's turn (:attr:`Limits.small_per_client`); the wait counts against the
        deadline, not against the cap."""
        def job() -> Any:
            cap = Deadline.at(min(deadline.expires, time.monotonic() + self.limits.small_seconds),
                              deadline.seconds, deadline.question)
            with time_limit(deadline):          # cancelling the request cancels the cap
                with time_limit(cap):
                    return work(*args, cap)

        try:
            async with self._turn(_CLIENT.get()):
                deadline.check()
                result = await anyio.to_thread.run_sync(job, limiter=self._limiter("small"))
        except Outgrown:
            self.routed["estimated"] += 1
            if position is not None:
                self.costs.put(position, False)
            return False, None
        except QueryTimeout:
            if deadline.expired():
                raise
            self.routed["moved"] += 1
            return False, None
        self.routed["small"] += 1
        if position is not None:
            self.costs.put(position, True)
        return True, result

    async def big(self, work: Callable[..., Any], args: tuple[Any, ...],
                  deadline: Deadline) -> Any:
        """``work(*args, deadline)`` in a big-lane process (503 when the queue is full)."""
        self.lane.admit()
        try:
            return await anyio.to_thread.run_sync(self.lane.run, work, args, deadline,
                                                  limiter=self._limiter("big"))
        finally:
            self.lane.release()

    async def run(self, work: Callable[..., Any], args: tuple[Any, ...], deadline: Deadline,
                  *, heavy: bool, small: Callable[..., Any] | None = None,
                  position: bytes | None = None) -> Any:
        """``work(*args, deadline)``: in the big lane when ``heavy``, else in the small lane,
        moved to the big lane if it outgrows it. ``small`` (same arguments), when given, is
        what the small lane runs instead of ``work``: it may first estimate the cost and
        raise :class:`Outgrown` to send the work to the big lane before it starts.
        ``position`` (a :func:`~minegraph.web.cost.cost_key`) names the position whose
        verdict is remembered: one remembered as big goes to the big lane at once (refused
        there when it is full), without a thread, a turn or an estimate in the small lane."""
        if heavy:
            self.routed["big"] += 1
        elif position is not None and self.costs.get(position) is False:
            self.routed["estimated"] += 1
        else:
            done, result = await self.small(small or work, args, deadline, position)
            if done:
                return result
        return await self.big(work, args, deadline)

    def close(self) -> None:
        """Stop the big lane's processes."""
        self.lane.close()
