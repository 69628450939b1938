"""``minegraph serve`` on real sockets: idle and half-sent connections are closed, so are
requests whose body stalls or trickles, the connection cap answers 503, and SIGTERM leaves no
process behind."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest

from minegraph.web import Limits, create_app
from minegraph.web.processes import descendants, running
from minegraph.web.server import server_config
from waiting import wait_for

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")




@contextmanager
def _serving(limits: Limits) -> Iterator[tuple[int, Any]]:
    """``minegraph serve``'s server with ``limits`` on a free loopback port, in a thread."""
    import uvicorn
    running = uvicorn.Server(server_config(create_app(limits), "127.0.0.1", 0, limits))
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    wait_for(lambda: running.started, "the server started")
    port = running.servers[0].sockets[0].getsockname()[1]
    try:
        yield port, running
    finally:
        running.should_exit = True
        thread.join(30)


@pytest.fixture
def server() -> Iterator[tuple[int, Any]]:
    with _serving(Limits(header_seconds=0.5, max_connections=3)) as found:
        yield found


def _closed_by_server(sock: socket.socket, within: float = 120) -> bool:
    """Whether the server closes ``sock`` (reading whatever it answers first); ``within``
    only guards against hanging for ever."""
    sock.settimeout(within)
    try:
        while sock.recv(65536):
            pass
        return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def _response(sock: socket.socket) -> bytes:
    """One whole HTTP response (head and a body of its Content-Length)."""
    sock.settimeout(60)
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                   if line.lower().startswith(b"content-length:")), 0)
    while len(body) < length:
        body += sock.recv(65536)
    return head


def test_silent_and_half_sent_connections_are_closed(server: tuple[int, Any]) -> None:
    port, _ = server
    silent = socket.create_connection(("127.0.0.1", port))
    half = socket.create_connection(("127.0.0.1", port))
    half.sendall(b"GET /api/limits HTTP/1.1\r\nHost: localhost\r\n")          # no blank line
    assert _closed_by_server(silent) and _closed_by_server(half)
    # A kept-alive connection: served, then closed once idle; a whole request still works.
    kept = socket.create_connection(("127.0.0.1", port))
    kept.sendall(b"GET /api/limits HTTP/1.1\r\nHost: localhost\r\n\r\n")
    assert _response(kept).startswith(b"HTTP/1.1 200")
    kept.sendall(b"GET /api/limits HTTP/1.1\r\n")                    # then stalls
    assert _closed_by_server(kept)
    for s in (silent, half, kept):
        s.close()


def test_connections_past_the_cap_are_answered_503(server: tuple[int, Any]) -> None:
    port, running = server
    held = [socket.create_connection(("127.0.0.1", port)) for _ in range(3)]
    wait_for(lambda: len(running.server_state.connections) >= 3, "three connections open")
    extra = socket.create_connection(("127.0.0.1", port))
    extra.sendall(b"GET /api/limits HTTP/1.1\r\nHost: localhost\r\n\r\n")
    assert _response(extra).startswith(b"HTTP/1.1 503")
    for s in (*held, extra):
        s.close()


#: A request head announcing a body of 100 bytes, none of which follows.
_STALLED = (b"POST /api/analyze HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n")


def test_stalled_and_trickling_bodies_are_closed_and_the_cap_frees_up() -> None:
    """Issue 33, 1: a complete head and then no body (or a body at a few bytes a second)
    held its connection for ever, and enough of them filled ``max_connections``."""
    limits = Limits(header_seconds=0.5, body_seconds=0.5, min_body_rate=1000,
                    max_connections=12)
    with _serving(limits) as (port, running):
        stalled = [socket.create_connection(("127.0.0.1", port)) for _ in range(11)]
        for s in stalled:
            s.sendall(_STALLED)
        trickle = socket.create_connection(("127.0.0.1", port))
        trickle.sendall(_STALLED.replace(b"Length: 100", b"Length: 100000") + b"[")
        done = threading.Event()

        def drip() -> None:          # at most 100 bytes a second, until the server closes
            try:
                # The pace of the slow client the scenario is about (not a wait of the test):
                # a byte, then a pause that ends at once when the test is done.
                while not done.wait(0.01):
                    trickle.sendall(b" ")
            except OSError:
                pass

        dripper = threading.Thread(target=drip, daemon=True)
        dripper.start()
        wait_for(lambda: len(running.server_state.connections) >= 12, "twelve connections open")
        # Every place is taken: one more connection is refused meanwhile...
        extra = socket.create_connection(("127.0.0.1", port))
        extra.sendall(b"GET /api/limits HTTP/1.1\r\nHost: localhost\r\n\r\n")
        assert _response(extra).startswith(b"HTTP/1.1 503")
        extra.close()
        # ... until the server closes the stalled and trickling requests (408 first).
        try:
            for s in (*stalled, trickle):
                assert _closed_by_server(s, within=60), "a stalled request body was never closed"
        finally:
            done.set()
            dripper.join(30)
        wait_for(lambda: len(running.server_state.connections) == 0, "every connection closed")
        fresh = socket.create_connection(("127.0.0.1", port))
        fresh.sendall(b"GET /api/limits HTTP/1.1\r\nHost: localhost\r\n\r\n")
        assert _response(fresh).startswith(b"HTTP/1.1 200")
        for s in (*stalled, trickle, fresh):
            s.close()


def test_a_stalled_body_is_answered_408_and_others_are_served_meanwhile() -> None:
    limits = Limits(header_seconds=0.5, body_seconds=0.5, min_body_rate=1000,
                    max_connections=50)
    with _serving(limits) as (port, running):
        stalled = [socket.create_connection(("127.0.0.1", port)) for _ in range(20)]
        for s in stalled:
            s.sendall(_STALLED)
        wait_for(lambda: len(running.server_state.connections) >= 20, "twenty connections open")
        body = json.dumps({"board": "#1#", "mines": 1}).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/analyze", body,
                                         {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as answer:
            assert answer.status == 200
        stalled[0].settimeout(60)
        head = _response(stalled[0])
        assert head.startswith(b"HTTP/1.1 408") and b"application/json" in head
        for s in stalled:
            assert _closed_by_server(s, within=60)
            s.close()


def test_a_stalled_body_pipelined_behind_a_request_is_closed_too() -> None:
    limits = Limits(header_seconds=0.5, body_seconds=0.5, min_body_rate=1000)
    with _serving(limits) as (port, _):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(b"GET /api/limits HTTP/1.1\r\nHost: localhost\r\n\r\n" + _STALLED)
        sock.settimeout(60)
        answers = b""
        while chunk := sock.recv(65536):       # until the server closes the connection
            answers += chunk
        assert answers.startswith(b"HTTP/1.1 200") and b"HTTP/1.1 408 " in answers[12:]
        sock.close()


def test_a_body_sent_in_pieces_within_its_time_is_served() -> None:
    limits = Limits(header_seconds=5, body_seconds=60, max_connections=50)
    with _serving(limits) as (port, _):
        body = json.dumps({"board": "#1#", "mines": 1}).encode()
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(_STALLED.replace(b"Length: 100", b"Length: %d" % len(body)))
        for k in range(0, len(body), 5):
            sock.sendall(body[k:k + 5])
        assert _response(sock).startswith(b"HTTP/1.1 200")
        sock.close()


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_the_server_and_every_process_it_started(how: int) -> None:
    from minegraph.recipes import midgame_position
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen([sys.executable, "-m", "minegraph", "serve", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                              preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert server.stdout is not None
        assert "serving on" in server.stdout.readline()
        board = midgame_position(45, 45, 300, seed=3).to_text()     # big: the big lane's
        body = json.dumps({"board": board}).encode()

        def answered() -> bool:
            try:
                request = urllib.request.Request(f"http://127.0.0.1:{port}/api/analyze", body,
                                                 {"Content-Type": "application/json"})
                with urllib.request.urlopen(request, timeout=120) as response:
                    return response.status == 200
            except OSError:
                return False

        wait_for(answered, "a big analysis answered")
        started = descendants(server.pid)
        assert started, "the big lane started no process"
        server.send_signal(how)
        # uvicorn re-raises the signal once it has shut down: the conventional status.
        assert server.wait(120) in (0, -how, 128 + how)
        wait_for(lambda: not any(running(p) for p in started), "every child process ended")
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def test_http_1_0_is_served_and_unreadable_requests_are_400_as_the_docs_say(
        server: tuple[int, Any]) -> None:
    """docs/web.md: HTTP/1.0 requests (without ``Host``) are served and the connection then
    closed; a request that is not HTTP at all is 400 in plain text before the app."""
    port, _ = server
    docs = (Path(__file__).resolve().parents[2] / "docs" / "web.md").read_text(encoding="utf-8")
    assert "HTTP/1.0 requests are served" in docs
    assert "| 400 | a request the server cannot read as HTTP" in docs
    old = socket.create_connection(("127.0.0.1", port))
    old.sendall(b"GET /api/limits HTTP/1.0\r\n\r\n")
    head = _response(old)
    assert head.startswith(b"HTTP/1.1 200 ") and b"application/json" in head
    assert _closed_by_server(old)
    bad = socket.create_connection(("127.0.0.1", port))
    bad.sendall(b"NOT HTTP\r\n\r\n")
    head = _response(bad)
    assert head.startswith(b"HTTP/1.1 400 ") and b"text/plain" in head
    assert _closed_by_server(bad)
