"""``minegraph serve`` on real sockets: idle and half-sent connections are closed, the
connection cap answers 503, and SIGTERM leaves no process behind."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest

from minegraph.web import Limits, create_app
from minegraph.web.server import server_config

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")


def _wait_for(condition: Any, what: str) -> None:
    """Wait for an event (not a time): fails only after two minutes."""
    end = time.monotonic() + 120
    while not condition():
        assert time.monotonic() < end, f"never happened: {what}"
        time.sleep(0.02)


@pytest.fixture
def server() -> Iterator[tuple[int, Any]]:
    import uvicorn
    limits = Limits(header_seconds=0.5, max_connections=3)
    running = uvicorn.Server(server_config(create_app(limits), "127.0.0.1", 0, limits))
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    _wait_for(lambda: running.started, "the server started")
    port = running.servers[0].sockets[0].getsockname()[1]
    yield port, running
    running.should_exit = True
    thread.join(30)


def _closed_by_server(sock: socket.socket) -> bool:
    sock.settimeout(120)
    try:
        return sock.recv(1024) == b""
    except ConnectionResetError:
        return True


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
    half.sendall(b"GET /api/limits HTTP/1.1\r\nHost: x\r\n")          # no blank line
    assert _closed_by_server(silent) and _closed_by_server(half)
    # A kept-alive connection: served, then closed once idle; a whole request still works.
    kept = socket.create_connection(("127.0.0.1", port))
    kept.sendall(b"GET /api/limits HTTP/1.1\r\nHost: x\r\n\r\n")
    assert _response(kept).startswith(b"HTTP/1.1 200")
    kept.sendall(b"GET /api/limits HTTP/1.1\r\n")                    # then stalls
    assert _closed_by_server(kept)
    for s in (silent, half, kept):
        s.close()


def test_connections_past_the_cap_are_answered_503(server: tuple[int, Any]) -> None:
    port, running = server
    held = [socket.create_connection(("127.0.0.1", port)) for _ in range(3)]
    _wait_for(lambda: len(running.server_state.connections) >= 3, "three connections open")
    extra = socket.create_connection(("127.0.0.1", port))
    extra.sendall(b"GET /api/limits HTTP/1.1\r\nHost: x\r\n\r\n")
    assert _response(extra).startswith(b"HTTP/1.1 503")
    for s in (*held, extra):
        s.close()


def _children(pid: int) -> set[int]:
    """Every descendant of ``pid`` now, from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        for child, parent in parents.items():
            if parent == p and child not in found:
                found.add(child)
                todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


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

        _wait_for(answered, "a big analysis answered")
        started = _children(server.pid)
        assert started, "the big lane started no process"
        server.send_signal(how)
        # uvicorn re-raises the signal once it has shut down: the conventional status.
        assert server.wait(120) in (0, -how, 128 + how)
        _wait_for(lambda: not any(_alive(p) for p in started), "every child process ended")
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
