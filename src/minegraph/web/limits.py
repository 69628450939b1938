"""The limits the web app enforces: request bodies, board sizes, time, games kept, threads;
and :func:`client_key`, which says which requests come from one client.

Every limit is documented in docs/web.md and listed by ``GET /api/limits``
(:meth:`Limits.to_json`).
"""

from __future__ import annotations

import ipaddress
import math
from dataclasses import asdict, dataclass, fields
from typing import Any

from minegraph.errors import UserError

__all__ = ["Limits", "client_key"]


@dataclass(frozen=True)
class Limits:
    """The limits in force.

    Attributes
    ----------
    max_body_bytes
        The largest request body accepted, in bytes (beyond it: 413).
    max_cells
        The most cells of a board sent to ``/api/analyze`` or ``/api/explain`` (beyond: 413).
    analyze_seconds
        The time one analysis may take, waiting for a worker included (a request may ask
        for less with ``"timeout"``, never more).
    explain_seconds
        The same for one explanation.
    max_games
        Games kept on the server; beyond it a game idle for ``game_idle_seconds``, else one
        of the client holding the most games, is dropped (its id then answers 404; see
        :mod:`minegraph.web.store`); when every game is in play a new one is refused (503).
    games_per_client
        Games one client keeps: its next new game drops its own least recently used one.
    games_per_minute
        Games one client may create a minute: a burst of this many, then one every
        60 / ``games_per_minute`` seconds; past it 429 with ``Retry-After``.
    game_idle_seconds
        A game unused (not read nor played) this long is the first dropped for a new game
        when the store is full; a client's most recently used game is otherwise dropped only
        for its own new games.
    max_game_cells
        The most cells of a new game (beyond: 413).
    workers
        Requests run at once in the small lane's worker threads, off the event loop; more
        wait for a free worker (the wait counts against their time limit).
    big_request_bytes
        Analyses, explanations and decompositions of a board text longer than this (an
        Expert board takes about 520 bytes) run in the *big lane*: separate worker
        processes, so that a long analysis of a big position does not slow the small ones
        down (threads would share Python's interpreter lock with them).
    big_workers
        Processes of the big lane; more big requests wait for one (the wait counts against
        their time limit).
    big_queue
        Big-lane jobs that may wait for a process; past it a request is answered 503 with
        ``Retry-After``.
    small_seconds
        The most time a request spends in the small lane's threads: work still running then
        moves to the big lane with the rest of its time.
    small_cells
        Puzzles, solver runs and no-guess first clicks on more cells than this go straight to
        the big lane.
    small_puzzle_cells
        Unique and no-guess puzzles (``/api/generate``) on more cells than this go straight
        to the big lane: their search can take seconds (a unique Expert puzzle does).
    small_component_cells
        An analysis, explanation or decomposition of a position whose constraint system has
        a component of more cells than this goes to the big lane before it starts (the
        native kernel counts components of up to 120 cells in milliseconds;
        :mod:`minegraph.web.cost`).
    small_work
        The same for a position whose components' estimated work (the table entries of
        their min-fill clique trees, summed; the Expert positions of the benchmark corpus
        stay below 1,200) passes this.
    per_client
        Requests one client (by address) may have under way at once, in either lane, running
        or waiting; past it 429 with ``Retry-After``.
    small_per_client
        Requests of one client running at once in the small lane's threads; its others wait
        their turn (the wait counts against their time limit), so that a burst from a few
        clients cannot take every thread.
    big_worker_bytes
        The memory one big-lane job may take while it runs (each process's address space is
        capped at its size at start plus this): past it the job answers 413 and its process
        is replaced.
    big_worker_keep_bytes
        A big-lane process left with more resident memory than this after a job is replaced
        (which returns its memory to the system).
    moves_per_cell
        A game accepts at most ``moves_per_cell`` × its cells + 100 moves (flag toggles
        included), so its history stays bounded; past it 422.
    max_connections
        Connections open at once (``minegraph serve``; at most the open-file limit less
        200); one more is answered 503 and closed at once.
    header_seconds
        ``minegraph serve`` closes a connection that has not sent a complete request head
        within this time, and an idle kept-alive connection after it.
    body_seconds
        ``minegraph serve`` answers 408 and closes a connection whose request body is not
        complete within this time of its head, plus one second per ``min_body_rate`` bytes
        received: a stalled body is closed after ``body_seconds``, a trickling one as soon as
        it falls below the rate.
    min_body_rate
        The slowest rate, in bytes a second, at which a request body may arrive (see
        ``body_seconds``); a whole body takes at most ``body_seconds`` +
        ``max_body_bytes`` / ``min_body_rate``.

    Raises
    ------
    UserError
        for a limit that is not a positive whole number (seconds: a positive finite number).

    Examples
    --------
    >>> Limits(max_games=10).to_json()["max_games"]
    10
    >>> Limits(workers=0)
    Traceback (most recent call last):
    ...
    minegraph.errors.UserError: limit workers: expected a whole number >= 1, got 0
    """

    max_body_bytes: int = 1_000_000
    max_cells: int = 250_000
    analyze_seconds: float = 10.0
    explain_seconds: float = 10.0
    max_games: int = 1000
    games_per_client: int = 20
    games_per_minute: int = 30
    game_idle_seconds: float = 600.0
    max_game_cells: int = 10_000
    workers: int = 4
    big_request_bytes: int = 2000
    big_workers: int = 1
    big_queue: int = 4
    small_seconds: float = 0.5
    small_cells: int = 2000
    small_puzzle_cells: int = 256
    small_component_cells: int = 120
    small_work: int = 5000
    per_client: int = 3
    small_per_client: int = 1
    big_worker_bytes: int = 1 << 30
    big_worker_keep_bytes: int = 256 << 20
    moves_per_cell: int = 2
    max_connections: int = 4000
    header_seconds: float = 5.0
    body_seconds: float = 5.0
    min_body_rate: int = 20_000

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name.endswith("_seconds"):
                if isinstance(value, bool) or not isinstance(value, (int, float)) \
                        or not (0 < value < math.inf):
                    raise UserError(f"limit {f.name}: expected a positive number of seconds, got {value!r}")
            else:
                least = 0 if f.name == "big_queue" else 1
                if isinstance(value, bool) or not isinstance(value, int) or value < least:
                    raise UserError(f"limit {f.name}: expected a whole number >= {least}, "
                                    f"got {value!r}")

    def to_json(self) -> dict[str, Any]:
        """The limits as the object ``GET /api/limits`` answers."""
        return asdict(self)


def client_key(host: str | None) -> str:
    """The client a request comes from, for the per-client limits: its address, an IPv6
    address by its /64 network (one subscriber's share; they are handed out by the /64 or
    more), an IPv4 address mapped into IPv6 as itself.

    Parameters
    ----------
    host
        The client's address as the server saw it (``None`` or a name: kept as it is).

    Returns
    -------
    str

    Examples
    --------
    >>> client_key("2001:db8:0:1::17"), client_key("2001:db8:0:1:ffff::1")
    ('2001:db8:0:1::/64', '2001:db8:0:1::/64')
    >>> client_key("203.0.113.9"), client_key("::ffff:203.0.113.9"), client_key(None)
    ('203.0.113.9', '203.0.113.9', 'unknown')
    """
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)
