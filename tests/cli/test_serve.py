"""``minegraph serve``'s own checks, made before the server starts (issue 22): a port that
cannot be bound is one line ``minegraph: error: ...`` and exit status 2, printed before
anything claims to be serving. (The server itself is tested in tests/web.)"""

from __future__ import annotations

import socket
import subprocess
import sys

from minegraph.cli import EXIT_USAGE


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "minegraph", "serve", *args], capture_output=True,
                          text=True, timeout=120)


def test_a_port_in_use_is_one_line_and_exit_2() -> None:
    # Before: "minegraph: serving on ..." on stdout, then uvicorn's error and exit status 3
    # (the timeout status).
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        p = serve("--port", str(port))
    assert p.returncode == EXIT_USAGE and p.stdout == ""
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr, p.stderr
    assert p.stderr.startswith(f"minegraph: error: cannot listen on 127.0.0.1:{port}: ")
    assert "in use" in p.stderr and "--port" in p.stderr


def test_an_address_that_is_not_this_machines_is_one_line() -> None:
    p = serve("--host", "host.invalid", "--port", "8000")
    assert p.returncode == EXIT_USAGE and p.stdout == ""
    assert p.stderr.startswith("minegraph: error: cannot listen on host.invalid:8000: ")
    assert p.stderr.count("\n") == 1
