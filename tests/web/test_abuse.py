"""Issue 33's attacks on the web app, each against a real server on loopback
(``minegraph serve``'s configuration in a thread) with plain HTTP requests.

Clients are told apart by ``X-Forwarded-For``, which the server trusts from 127.0.0.1 (as from
a reverse proxy there); the game store's clock is a fake the tests move, so no test waits for
time to pass.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator

import pytest

from minegraph.web import Limits, create_app
from minegraph.web.server import server_config


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@contextmanager
def serving(limits: Limits, **options: Any) -> Iterator[tuple[int, Any]]:
    """The server with ``limits`` on a free loopback port, in a thread: ``(port, app)``."""
    import uvicorn
    app = create_app(limits)
    running = uvicorn.Server(server_config(app, "127.0.0.1", 0, limits, **options))
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    end = time.monotonic() + 120
    while not running.started:
        assert time.monotonic() < end, "the server never started"
        time.sleep(0.02)
    try:
        yield running.servers[0].sockets[0].getsockname()[1], app
    finally:
        running.should_exit = True
        thread.join(30)


class Client:
    """One kept-alive HTTP connection to the server, as the client at ``address``."""

    def __init__(self, port: int, address: str = "203.0.113.1") -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.address = address

    def call(self, method: str, path: str, body: Any = None, *, address: str | None = None,
             headers: dict[str, str] | None = None,
             raw: bytes | None = None) -> tuple[int, Any, http.client.HTTPResponse]:
        """``(status, JSON answer or None, response)``."""
        sent = {"X-Forwarded-For": address or self.address, **(headers or {})}
        data = raw
        if body is not None:
            data = json.dumps(body).encode()
            sent.setdefault("Content-Type", "application/json")
        self.conn.request(method, path, body=data, headers=sent)
        response = self.conn.getresponse()
        text = response.read()
        kind = response.getheader("content-type") or ""
        return response.status, json.loads(text) if "json" in kind else None, response

    def close(self) -> None:
        self.conn.close()


def _error(answer: tuple[int, Any, Any], status: int) -> str:
    code, obj, _ = answer
    assert code == status, (code, obj)
    assert isinstance(obj, dict) and set(obj) == {"error"} and obj["error"]
    return str(obj["error"])


# --------------------------------------------------------------------------- 3: evictions
def _store_limits(**changes: Any) -> Limits:
    base: dict[str, Any] = dict(max_games=50, games_per_client=5, games_per_minute=60,
                                game_idle_seconds=600)
    base.update(changes)
    return Limits(**base)


def test_a_players_game_survives_10000_creations_by_another_client() -> None:
    """Issue 33, 3: one client creating games as fast as it could evicted, within 1,000
    creations, a game another player had touched a second before (then 404)."""
    with serving(_store_limits()) as (port, app):
        clock = FakeClock()
        app.state.games.clock = clock
        player = Client(port, "198.51.100.7")
        status, game, _ = player.call("POST", "/api/game", {"size": "beginner", "rules": "modern"})
        assert status == 201
        url = f"/api/game/{game['id']}"
        assert player.call("POST", url + "/move", {"action": "reveal", "cell": [4, 4]})[0] == 200
        attacker = Client(port)
        created = refused = 0
        for k in range(10_000):
            clock.now += 1.0                     # one game a second: the attacker's full rate
            # Addresses of one /64 are one client.
            status, _, _ = attacker.call("POST", "/api/game", {"size": "beginner"},
                                         address=f"2001:db8:0:7::{k % 5000 + 1:x}")
            assert status in (201, 429), status
            created += status == 201
            refused += status == 429
            if k % 300 == 299:                   # the player plays on (well within the idle time)
                assert player.call("GET", url)[0] == 200
        assert created > 9000
        status, seen, _ = player.call("GET", url)
        assert status == 200 and seen["moves"] == 1
        assert len(app.state.games) <= 1 + 5
        player.close()
        attacker.close()


def test_game_creation_is_rate_limited_per_client_and_ipv6_per_64() -> None:
    with serving(_store_limits(games_per_minute=3)) as (port, app):
        clock = FakeClock()
        app.state.games.clock = clock
        c = Client(port)
        for k in range(3):
            assert c.call("POST", "/api/game", {}, address=f"2001:db8:1:2::{k + 1}")[0] == 201
        answer = c.call("POST", "/api/game", {}, address="2001:db8:1:2:ffff::9")  # same /64
        assert "too many new games" in _error(answer, 429)
        assert answer[2].getheader("retry-after") == "20"
        assert c.call("POST", "/api/game", {}, address="2001:db8:1:3::1")[0] == 201  # another
        assert c.call("POST", "/api/game", {}, address="203.0.113.5")[0] == 201
        clock.now += 20                           # one game every 60 / 3 s
        assert c.call("POST", "/api/game", {}, address="2001:db8:1:2::1")[0] == 201
        _error(c.call("POST", "/api/game", {}, address="2001:db8:1:2::1"), 429)
        c.close()


def test_a_full_store_drops_idle_games_first_and_never_a_game_in_play() -> None:
    """Many clients (one game each) fill the store: a game in play is never dropped for
    them; new games are refused (503) until one has been idle for ``game_idle_seconds``."""
    with serving(_store_limits(max_games=10)) as (port, app):
        clock = FakeClock()
        app.state.games.clock = clock
        c = Client(port)
        _, mine, _ = c.call("POST", "/api/game", {}, address="198.51.100.7")
        others = [c.call("POST", "/api/game", {}, address=f"203.0.113.{k}")[1]["id"]
                  for k in range(1, 10)]
        clock.now += 300
        assert c.call("GET", f"/api/game/{mine['id']}")[0] == 200        # played: in use
        answer = c.call("POST", "/api/game", {}, address="192.0.2.1")
        assert "all in play" in _error(answer, 503) and answer[2].getheader("retry-after")
        clock.now += 301                          # the others idle for 601 s, mine for 301 s
        refill = ["192.0.2.1", "192.0.2.1"] + [f"192.0.2.{k}" for k in range(2, 9)]
        made = [c.call("POST", "/api/game", {}, address=a) for a in refill]
        assert [m[0] for m in made] == [201] * 9
        assert c.call("GET", f"/api/game/{mine['id']}")[0] == 200
        assert all(c.call("GET", f"/api/game/{i}")[0] == 404 for i in others)
        # Full again, nothing idle: a client keeping two games gives up its older one
        # before anyone loses their only one.
        clock.now += 1
        assert c.call("POST", "/api/game", {}, address="192.0.2.100")[0] == 201
        assert c.call("GET", f"/api/game/{made[0][1]['id']}")[0] == 404
        assert all(c.call("GET", f"/api/game/{m[1]['id']}")[0] == 200 for m in made[1:])
        assert c.call("GET", f"/api/game/{mine['id']}")[0] == 200
        _error(c.call("POST", "/api/game", {}, address="192.0.2.101"), 503)
        c.close()


# --------------------------------------------------------------------------- 6: no-guess
@pytest.mark.parametrize("first", [("chord", [8, 8]), ("reveal-flagged", [8, 8]),
                                   ("reveal-outside", [9, 9])])
def test_a_rejected_first_action_does_not_place_the_no_guess_layout(first: tuple[str, list[int]]) -> None:
    """Issue 33, 6: a chord as the first action was rejected, but only after the no-guess
    layout had been drawn around its cell: the real first click was then no opening."""
    action, cell = first
    with serving(Limits(games_per_minute=100)) as (port, _):
        c = Client(port)
        for seed in range(10):
            status, game, _ = c.call("POST", "/api/game", {"size": "beginner", "rules": "noguess",
                                                           "seed": seed})
            assert status == 201
            url = f"/api/game/{game['id']}/move"
            if action == "reveal-flagged":
                assert c.call("POST", url, {"action": "flag", "cell": cell})[0] == 200
            _error(c.call("POST", url, {"action": action.split("-")[0], "cell": cell}), 422)
            status, after, _ = c.call("POST", url, {"action": "reveal", "cell": [0, 0]})
            assert status == 200 and after["status"] in ("playing", "won")
            assert after["states"][0][0] == 0, f"seed {seed}: the first click is no opening"
            assert len(after["uncovered"]) > 1
        c.close()
