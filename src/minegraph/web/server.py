"""Serving the app with uvicorn, hardened for a public address.

- A connection that has not sent a complete request head within
  :attr:`~minegraph.web.limits.Limits.header_seconds` is closed (uvicorn's HTTP/1.1 protocol
  waits for ever), and so is an idle kept-alive connection after the same time.
- A request body must be complete within :attr:`~minegraph.web.limits.Limits.body_seconds`
  of its head, plus a second per :attr:`~minegraph.web.limits.Limits.min_body_rate` bytes
  received; else the connection is answered 408 and closed (uvicorn waits for ever for a
  body its ``Content-Length`` announced). A whole request thus arrives within a bounded
  time and at a minimum rate.
- At most :attr:`~minegraph.web.limits.Limits.max_connections` connections are open at once
  (fewer if the open-file limit is lower); one more is answered 503 and closed at once.
- The open-file limit is raised to the hard limit, so that the connection cap, not the file
  table, is what refuses.
- A request whose ``Host`` names neither an address, ``localhost``, the host it listens on
  nor a name allowed with ``allowed_hosts`` is answered 421
  (:class:`~minegraph.web.app.HostCheck`, against DNS rebinding).
- ``X-Forwarded-For`` is read only from the reverse proxies named with ``trusted_proxies``
  (``--trusted-proxy``); from any other peer, loopback included, it is ignored and the client
  is the connection's address, so one client cannot pose as many by sending the header.
- Errors that repeat (a full file table, say) are logged once a minute with a count, not once
  per failure.
- SIGTERM and SIGINT stop the server cleanly: uvicorn finishes, the app's lanes stop their
  processes, nothing is left running.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import time
from typing import Any, Iterable

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from minegraph.web.app import HostCheck
from minegraph.web.limits import Limits

__all__ = ["GuardedH11Protocol", "OnceAMinute", "serve", "server_config", "proxy_networks"]


#: What a connection past the cap is told before it is closed.
_BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
         b"Retry-After: 1\r\nConnection: close\r\nContent-Length: 56\r\n\r\n"
         b'{"error": "too many connections; try again in a second"}')

def _closing_answer(status: bytes, message: str) -> bytes:
    """A whole HTTP/1.1 answer ``{"error": message}`` that closes the connection."""
    body = json.dumps({"error": message}).encode()
    return (b"HTTP/1.1 " + status + b"\r\nContent-Type: application/json\r\n"
            b"Connection: close\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n"
            + body)


#: What a connection whose request body is too slow is told before it is closed.
_SLOW_BODY = _closing_answer(b"408 Request Timeout", "the request body arrived too slowly: "
                             "body_seconds and min_body_rate (GET /api/limits)")


class GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, closing a connection whose request head is not complete
    within ``HEAD_SECONDS`` of its start (or of its last answer), answering 408 and closing
    one whose request body is not complete within ``BODY_SECONDS`` of its head plus a second
    per ``MIN_BODY_RATE`` bytes received, and answering a connection past
    ``MAX_CONNECTIONS`` open ones with 503 at once.

    The cap counts connections, not requests under way: uvicorn's own ``limit_concurrency``
    would answer every request 503 while idle connections fill it, so a few thousand silent
    sockets would lock players out until they time out.

    Parameters
    ----------
    config, server_state, app_state, _loop
        As for uvicorn's ``H11Protocol``.
    """

    HEAD_SECONDS = 5.0
    BODY_SECONDS = 5.0
    MIN_BODY_RATE = 20_000
    MAX_CONNECTIONS = 4000

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._head_timer: Any = None
        self._body_timer: Any = None
        self._body_start = self._body_checked = 0.0
        self._body_bytes = 0
        if len(self.connections) > self.MAX_CONNECTIONS:
            transport.write(_BUSY)
            transport.close()
            return
        self._arm()

    def _arm(self) -> None:
        if self._head_timer is None:
            self._armed_for = self.cycle
            self._head_timer = self.loop.call_later(self.HEAD_SECONDS, self._head_expired)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_expired(self) -> None:
        self._head_timer = None
        if self.cycle is self._armed_for and not self.transport.is_closing():
            self.transport.close()             # no new request head since the timer started

    # -- the body's clock
    def _body_due(self) -> float:
        """When the body under way must be complete, with the bytes received so far."""
        return self._body_start + self.BODY_SECONDS + self._body_bytes / self.MIN_BODY_RATE

    def _arm_body(self) -> None:
        self._disarm_body()
        self._body_start = self._body_checked = self.loop.time()
        self._body_bytes = 0
        self._body_timer = self.loop.call_later(self.BODY_SECONDS, self._body_expired)

    def _disarm_body(self) -> None:
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def _body_expired(self) -> None:
        self._body_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.SEND_BODY:
            return
        now = self.loop.time()
        if self.flow.read_paused:
            # The server stopped reading (the app has not taken the bytes yet): that time
            # is not the client's.
            self._body_start += now - self._body_checked
        self._body_checked = now
        left = self._body_due() - now
        if left > 0:
            self._body_timer = self.loop.call_later(left, self._body_expired)
            return
        if self.cycle is not None and not self.cycle.response_started:
            self.transport.write(_SLOW_BODY)
        self.transport.close()

    def handle_events(self) -> None:
        # Called for new bytes and, after an answer, for a request pipelined behind it.
        before = self.cycle
        super().handle_events()
        if self.cycle is not before and self.conn.their_state is h11.SEND_BODY:
            self._arm_body()                   # a request head arrived, a body is to follow

    def data_received(self, data: bytes) -> None:
        before = self.cycle
        super().data_received(data)
        if self.cycle is not before:
            self._disarm()                     # a request head arrived
        elif self.cycle is None or self.cycle.response_complete:
            self._arm()                        # bytes of a head that is not complete yet
        if self._body_timer is not None:
            if self.conn.their_state is h11.SEND_BODY:
                self._body_bytes += len(data)
            else:
                self._disarm_body()            # the body is complete

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._disarm_body()
        super().connection_lost(exc)


class OnceAMinute(logging.Filter):
    """Let a log message through once a minute, saying how many copies were held back.

    Messages are compared by their text with digits removed, so "fd 1042" and "fd 1043" are
    one message.

    Parameters
    ----------
    clock : callable
        The monotonic clock (a test's fake moves by hand).

    Examples
    --------
    >>> f = OnceAMinute(clock=lambda: 0.0)
    >>> record = logging.LogRecord("x", logging.ERROR, "", 0, "Too many open files (fd 7)", None, None)
    >>> f.filter(record), f.filter(record), f.filter(record)
    (True, False, False)
    >>> f.clock = lambda: 61.0
    >>> f.filter(record), record.getMessage()
    (True, 'Too many open files (fd 7) (and 2 more like it in the last minute)')
    """

    def __init__(self, clock: Any = time.monotonic) -> None:
        super().__init__()
        self.clock = clock
        self._seen: dict[str, tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        key = "".join(ch for ch in text if not ch.isdigit())[:200]
        now = self.clock()
        last = self._seen.get(key)
        if last is not None and now - last[0] < 60:
            self._seen[key] = (last[0], last[1] + 1)
            return False
        held = last[1] if last is not None else 0
        if len(self._seen) > 1000:
            self._seen.clear()
        self._seen[key] = (now, 0)
        if held:
            record.msg = f"{text} (and {held} more like it in the last minute)"
            record.args = None
        return True


def _raise_open_files() -> int | None:
    """Raise the open-file limit to the hard limit; the limit now (``None`` if unknown)."""
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard == resource.RLIM_INFINITY:
            hard = 1 << 20
        if soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        return int(resource.getrlimit(resource.RLIMIT_NOFILE)[0])
    except (ImportError, ValueError, OSError):   # pragma: no cover - not POSIX, or refused
        return None


def proxy_networks(proxies: Iterable[str]) -> list[str]:
    """The trusted proxies as networks (an address is its own /32 or /128).

    Parameters
    ----------
    proxies
        Addresses or networks (``127.0.0.1``, ``10.0.0.0/8``, ``::1``).

    Returns
    -------
    list of str

    Raises
    ------
    UserError
        for anything that is not an IP address or network.

    Examples
    --------
    >>> proxy_networks(["127.0.0.1", "10.0.0.0/8", "::1"])
    ['127.0.0.1/32', '10.0.0.0/8', '::1/128']
    >>> proxy_networks(["*"])
    Traceback (most recent call last):
    ...
    minegraph.errors.UserError: trusted proxy '*': expected an IP address or network (such as 127.0.0.1 or 10.0.0.0/8)
    """
    from minegraph.errors import UserError
    from minegraph.present import shown
    out = []
    for proxy in proxies:
        try:
            out.append(str(ipaddress.ip_network(proxy.strip(), strict=False)))
        except ValueError:
            raise UserError(f"trusted proxy {shown(proxy)}: expected an IP address or network "
                            f"(such as 127.0.0.1 or 10.0.0.0/8)") from None
    return out


def server_config(app: Any, host: str, port: int, limits: Limits,
                  open_files: int | None = None, allowed_hosts: Iterable[str] = (),
                  trusted_proxies: Iterable[str] = ()) -> Any:
    """The uvicorn configuration ``minegraph serve`` uses (see the module docstring).

    Parameters
    ----------
    app
        The ASGI app (:func:`~minegraph.web.create_app`).
    host, port
        Where to listen.
    limits
        The app's limits: ``max_connections``, ``header_seconds``, ``body_seconds`` and
        ``min_body_rate`` apply here.
    open_files
        The process's open-file limit, if known: the connection cap stays 200 below it
        (the lanes, logs and libraries need files too).
    allowed_hosts
        Host names requests may name in ``Host`` besides ``host``, ``localhost`` and IP
        addresses (:class:`~minegraph.web.app.HostCheck`; ``"*"``: any).
    trusted_proxies
        Addresses or networks of reverse proxies whose ``X-Forwarded-For`` names the client
        (:func:`proxy_networks`); from other peers the header is ignored. None by default:
        the client is the connection's address.

    Returns
    -------
    uvicorn.Config

    Raises
    ------
    UserError
        for a trusted proxy that is not an IP address or network.
    """
    import uvicorn

    cap = limits.max_connections
    if open_files is not None:
        cap = max(1, min(cap, open_files - 200))

    class Protocol(GuardedH11Protocol):
        HEAD_SECONDS = limits.header_seconds
        BODY_SECONDS = limits.body_seconds
        MIN_BODY_RATE = limits.min_body_rate
        MAX_CONNECTIONS = cap

    proxies = proxy_networks(trusted_proxies)
    guarded = HostCheck(app, [host, *allowed_hosts])
    # uvicorn would trust X-Forwarded-For from 127.0.0.1 and ::1 by default: any local
    # process (or a client reaching the server through a local tunnel) could then name
    # itself any client. Only the proxies named here are trusted.
    return uvicorn.Config(guarded, host=host, port=port, log_level="warning", http=Protocol,
                          timeout_keep_alive=max(1, int(limits.header_seconds)),
                          timeout_graceful_shutdown=5, proxy_headers=bool(proxies),
                          forwarded_allow_ips=proxies or [])


def serve(host: str, port: int, limits: Limits | None = None,
          allowed_hosts: Iterable[str] = (), trusted_proxies: Iterable[str] = ()) -> None:
    """Serve the app until SIGTERM or SIGINT.

    Parameters
    ----------
    host, port
        Where to listen.
    limits
        The limits (default :class:`Limits` ()).
    allowed_hosts
        More host names the server answers to (see :func:`server_config`).
    trusted_proxies
        Reverse proxies whose ``X-Forwarded-For`` is read (see :func:`server_config`).
    """
    import uvicorn

    from minegraph.web.app import create_app
    limits = limits if limits is not None else Limits()
    open_files = _raise_open_files()
    once = OnceAMinute()
    for name in ("uvicorn.error", "asyncio"):
        logging.getLogger(name).addFilter(once)
    config = server_config(create_app(limits), host, port, limits, open_files, allowed_hosts,
                           trusted_proxies)
    server = uvicorn.Server(config)
    server.run()
