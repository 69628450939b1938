"""Issue 33's attacks on the web app, each against a real server on loopback
(``minegraph serve``'s configuration in a thread) with plain HTTP requests.

Clients are told apart by ``X-Forwarded-For``, which these servers trust from 127.0.0.1 as
from a reverse proxy there (``--trusted-proxy 127.0.0.1``; without it the header is ignored);
the game store's clock is a fake the tests move, so no test waits for time to pass.
"""

from __future__ import annotations

import http.client
import json
import threading
from contextlib import contextmanager
from typing import Any, Iterator

import pytest

from minegraph.web import Limits, create_app
from minegraph.web.server import server_config
from waiting import wait_for


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@contextmanager
def serving(limits: Limits, **options: Any) -> Iterator[tuple[int, Any]]:
    """The server with ``limits`` on a free loopback port, in a thread: ``(port, app)``;
    ``X-Forwarded-For`` is trusted from 127.0.0.1 unless ``trusted_proxies`` says otherwise
    (``None``: the server's default)."""
    import uvicorn
    options.setdefault("trusted_proxies", ["127.0.0.1"])
    if options["trusted_proxies"] is None:
        del options["trusted_proxies"]
    app = create_app(limits)
    running = uvicorn.Server(server_config(app, "127.0.0.1", 0, limits, **options))
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    wait_for(lambda: running.started, "the server started")
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


# --------------------------------------------------------------------------- 2: who is a client
def test_x_forwarded_for_is_read_only_from_a_trusted_proxy() -> None:
    """Issue 33, 2: the server trusted ``X-Forwarded-For`` from loopback by default, so one
    client there could pose as any number of clients (each with its own ``per_client`` and
    ``games_per_minute``) by sending the header. Now it is read only from the proxies named
    with ``--trusted-proxy``."""
    limits = _store_limits(games_per_minute=1)
    with serving(limits, trusted_proxies=None) as (port, app):
        app.state.games.clock = FakeClock()
        c = Client(port)
        assert c.call("POST", "/api/game", {}, address="198.51.100.1")[0] == 201
        # Another address in the header is the same client: the connection's.
        answer = c.call("POST", "/api/game", {}, address="198.51.100.2")
        assert "too many new games" in _error(answer, 429)
        c.close()
    with serving(limits, trusted_proxies=["127.0.0.1"]) as (port, app):
        app.state.games.clock = FakeClock()
        c = Client(port)
        assert c.call("POST", "/api/game", {}, address="198.51.100.1")[0] == 201
        assert c.call("POST", "/api/game", {}, address="198.51.100.2")[0] == 201
        # A proxy appends the address it saw; what the client itself wrote before it is not
        # believed: the rightmost address that is not a trusted proxy is the client.
        answer = c.call("POST", "/api/game", {}, address="198.51.100.3, 198.51.100.2")
        assert "too many new games" in _error(answer, 429)
        c.close()


def test_a_trusted_proxy_must_be_an_address_or_a_network() -> None:
    from minegraph.errors import UserError
    from minegraph.web.server import proxy_networks
    assert proxy_networks(["10.0.0.0/8", "::1", " 127.0.0.1"]) == ["10.0.0.0/8", "::1/128",
                                                                  "127.0.0.1/32"]
    for bad in ("*", "proxy.example", "10.0.0.0/33"):
        with pytest.raises(UserError, match="trusted proxy"):
            proxy_networks([bad])




def test_hard_small_boards_go_to_the_big_lane_and_a_victim_is_served_beside_them() -> None:
    """Issue 33, 2: boards under ``big_request_bytes`` that are hard to analyse went to the
    small lane's threads, so four clients with three such requests each held all of them
    (and the queue before them) and a player's Expert analysis waited behind (p50 0.4 s,
    p99 1.3 s, from 4 ms). Now a board is routed by its estimated cost: the hard ones go to
    the big lane before any work starts (the small lane's time cap is set out of reach
    here, so only the routing can keep them out), each client holds at most ``per_client``
    requests over both lanes, and the victim's analysis runs in the small lane at once.
    The big lane's jobs are held until the end (the test releases them), so what is
    admitted and refused does not depend on how long they take."""
    from minegraph import analyze
    from minegraph.recipes import checkerboard_opening, midgame_position
    hard = checkerboard_opening(40, 40, 0.3, seed=2, total=True).to_text()
    assert len(hard) < Limits().big_request_bytes          # small by its bytes
    limits = Limits(small_seconds=600, analyze_seconds=600, workers=4, big_workers=1,
                    big_queue=4, per_client=3)
    with serving(limits) as (port, app):
        runner = app.state.runner
        offered: list[int] = []                # requests that asked the big lane for a place
        admit = runner.lane.admit

        def counted_admit() -> None:
            offered.append(1)
            admit()

        runner.lane.admit = counted_admit
        release = threading.Event()
        run = runner.lane.run

        def held_run(*job: Any) -> Any:
            release.wait(120)
            return run(*job)

        runner.lane.run = held_run
        attackers = [f"198.51.100.{k}" for k in range(1, 5)]
        clients: list[Client] = []
        answers: list[tuple[str, int]] = []
        threads = []
        for address in attackers:
            for _ in range(3):
                client = Client(port, address)
                clients.append(client)

                def attack(client: Client = client) -> None:
                    try:
                        answers.append((client.address,
                                        client.call("POST", "/api/analyze", {"board": hard})[0]))
                    except OSError:            # closed by the test at the end
                        pass

                threads.append(threading.Thread(target=attack, daemon=True))
                threads[-1].start()
                wait_for(lambda: len(offered) == len(threads),
                          "the hard request went to the big lane")
        # 1 running + 4 waiting in the big lane; the other 7 were refused 503 at once.
        wait_for(lambda: len(answers) == 7, "the requests past the big lane's queue answered")
        assert sorted(status for _, status in answers) == [503] * 7
        assert runner.routed == {"estimated": 12}
        # The first attacker holds three requests in the big lane: a fourth, even a cheap
        # one, is refused 429 (per client over both lanes).
        first = Client(port, attackers[0])
        assert "too many requests" in _error(first.call("POST", "/api/analyze",
                                                        {"board": "#1#", "mines": 1}), 429)
        # The victim, meanwhile, is served in the small lane.
        victim = Client(port, "203.0.113.77")
        board = midgame_position(16, 30, 99, seed=5)
        status, answer, _ = victim.call("POST", "/api/analyze", {"board": board.to_text()})
        assert status == 200 and answer == analyze(board).to_json()
        assert runner.routed == {"estimated": 12, "small": 1}
        for client in [*clients, first, victim]:
            client.close()                     # the hard ones are cancelled
        release.set()


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


# --------------------------------------------------------------------------- 4: memory
def test_a_big_job_past_its_memory_bound_is_answered_413_while_it_runs() -> None:
    """Issue 33, 4: one decomposition took a big-lane process past ``big_worker_bytes``
    (checked only once the job was over). A bound of 1 MiB is too small for any
    decomposition: the job stops while running and answers 413 JSON; the server goes on."""
    from minegraph.recipes import midgame_position
    board = midgame_position(45, 45, 300, seed=3).to_text()
    # No deadline a loaded machine could reach first: the memory bound must stop the job.
    limits = Limits(big_worker_bytes=1 << 20, big_request_bytes=100, per_client=10,
                    analyze_seconds=3600)
    with serving(limits) as (port, app):
        c = Client(port)
        for _ in range(2):                          # and again in the process replacing it
            answer = c.call("POST", "/api/structure", {"board": board})
            assert "memory" in _error(answer, 413)
        ok = c.call("POST", "/api/analyze", {"board": "#1#", "mines": 1})   # the small lane
        assert ok[0] == 200 and ok[1]["solutions"] == "2"
        c.close()


# --------------------------------------------------------------------------- 5: the browser
def test_a_foreign_host_name_is_refused() -> None:
    """Issue 33, 5: a page on another site that rebinds its name to 127.0.0.1 reached the
    server (its requests carry that site's name in ``Host``)."""
    with serving(Limits()) as (port, _):
        c = Client(port)
        for host in (f"rebind.example:{port}", "rebind.example", f"localhost.evil.example:{port}",
                     "evil.example."):
            answer = c.call("GET", "/api/limits", headers={"Host": host})
            assert "--allow-host" in _error(answer, 421)
            assert _error(c.call("GET", "/", headers={"Host": host}), 421)
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", "LOCALHOST", f"[::1]:{port}",
                     "127.0.0.1", "192.0.2.7:8000", "[2001:db8::1]"):
            assert c.call("GET", "/api/limits", headers={"Host": host})[0] == 200, host
        c.close()


def test_more_host_names_may_be_allowed() -> None:
    with serving(Limits(), allowed_hosts=["mines.example"]) as (port, _):
        c = Client(port)
        assert c.call("GET", "/api/limits", headers={"Host": "Mines.Example:443"})[0] == 200
        _error(c.call("GET", "/api/limits", headers={"Host": "other.example"}), 421)
        c.close()
    with serving(Limits(), allowed_hosts=["*"]) as (port, _):
        c = Client(port)
        assert c.call("GET", "/api/limits", headers={"Host": "other.example"})[0] == 200
        c.close()


def test_every_answer_carries_the_browser_security_headers() -> None:
    with serving(Limits()) as (port, _):
        c = Client(port)
        for method, path in (("GET", "/"), ("GET", "/static/app.js"), ("GET", "/api/limits"),
                             ("GET", "/api/game/nope"), ("GET", "/nothing")):
            _, _, response = c.call(method, path)
            csp = response.getheader("content-security-policy") or ""
            assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp, path
            assert "'unsafe-inline'" not in csp and "default-src 'self'" in csp
            assert response.getheader("x-frame-options") == "DENY"
            assert response.getheader("x-content-type-options") == "nosniff"
            assert response.getheader("referrer-policy") == "no-referrer"
        c.close()


def test_the_page_needs_no_inline_script_or_style() -> None:
    """The CSP forbids inline scripts, inline styles and event-handler attributes: the page
    has none (the browser tests also fail on any CSP violation)."""
    import re

    from minegraph.web.app import STATIC
    html = (STATIC / "index.html").read_text()
    assert all("src=" in tag for tag in re.findall(r"<script\b[^>]*>", html))
    assert "<style" not in html
    assert not re.search(r"\sstyle\s*=", html)
    assert not re.search(r"\son[a-z]+\s*=", html)


def test_non_json_bodies_are_refused_415() -> None:
    """Issue 33, 5: a cross-site form (``text/plain``, no preflight) reached ``/api/review``;
    the JSON endpoints read a body with no ``Content-Type`` as JSON."""
    with serving(Limits()) as (port, _):
        c = Client(port)
        board = json.dumps({"board": "#1#", "mines": 1}).encode()
        for kind in ("text/plain", "application/x-www-form-urlencoded",
                     "multipart/form-data; boundary=x", None):
            headers = {} if kind is None else {"Content-Type": kind}
            answer = c.call("POST", "/api/analyze", raw=board, headers=headers)
            assert "application/json" in _error(answer, 415)
            answer = c.call("POST", "/api/review?name=a.evf", raw=b"\x00\x01", headers=headers)
            assert "application/octet-stream" in _error(answer, 415)
            _error(c.call("POST", "/api/game", raw=b"{}", headers=headers), 415)
        ok = c.call("POST", "/api/analyze", raw=board,
                    headers={"Content-Type": "application/json; charset=utf-8"})
        assert ok[0] == 200 and ok[1]["solutions"] == "2"
        status, game, _ = c.call("POST", "/api/game", {"rules": "modern"})
        assert status == 201
        # A request without a body has nothing to misread: no type needed.
        assert "practice" in _error(c.call("POST", f"/api/game/{game['id']}/undo"), 422)
        assert c.call("POST", "/api/review?name=a.evf", raw=b"\x00\x01",
                      headers={"Content-Type": "application/octet-stream"})[0] == 422
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
