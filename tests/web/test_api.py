"""The web API (:mod:`minegraph.web`) through FastAPI's test client.

The answers must be the library's own objects (``Analysis.to_json``, ``Explanation.to_json``,
a :class:`~minegraph.play.game.Game` driven directly with the same seed); every mistake a
JSON ``{"error": ...}`` with a 4xx status; the limits enforced; the game store bounded; and
the event loop free while a hard position is analysed in a worker thread.
"""

from __future__ import annotations

import random
import subprocess
import sys
import threading
import warnings
from pathlib import Path
from typing import Any, Iterator

import pytest
from waiting import wait_for

from minegraph.analysis import analyze
from minegraph.deadline import current_deadline
from minegraph.explain import explain
from minegraph.formats import read_board
from minegraph.play.game import Game
from minegraph.recipes import checkerboard_opening
from minegraph.web import Limits, create_app
from minegraph.web.store import GameStore

with warnings.catch_warnings():  # Starlette's note about httpx, not about this code
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as c:
        yield c


def _error(response: Any, status: int) -> str:
    """The error message of a response that must be ``{"error": str}`` with ``status``."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and isinstance(body["error"], str) and body["error"]
    return str(body["error"])


# --------------------------------------------------------------------------- analyze
def test_one_two_ends_by_hand(client: TestClient) -> None:
    """``#1#`` with one mine: two completions, each end a mine in one of them."""
    obj = client.post("/api/analyze", json={"board": "#1#", "mines": 1}).json()
    assert obj["consistent"] is True and obj["solutions"] == "2"
    assert obj["probability"] == [[0.5, None, 0.5]]
    assert obj["safe"] == [] and obj["mines"] == [] and obj["total_mines"] == 1


POSITIONS = [
    ("#1#", None, 1),
    ("#2#\n#3#\n###", None, None),             # 18 completions (the analysis doctest)
    ("#####\n-121-", None, None),               # the 1-2-1 pattern: forced cells
    ("mines: 3\ntopology: hex\n001##\n001##\n011##\n1####\n", None, None),
    ("1#\n#1", None, None),
    ("3x1x1\nH1F", None, None),                # .mine
    ("2 2 0\n9 9\n9 1", "numeric", None),
    ("1-\n--", None, None),                     # inconsistent: an answer, not an error
]


@pytest.mark.parametrize("text, fmt, mines", POSITIONS)
def test_analyze_answers_the_library_object(client: TestClient, text: str, fmt: str | None,
                                            mines: int | None) -> None:
    body: dict[str, Any] = {"board": text}
    if fmt is not None:
        body["format"] = fmt
    if mines is not None:
        body["mines"] = mines
    response = client.post("/api/analyze", json=body)
    assert response.status_code == 200, response.text
    expected = analyze(read_board(text, fmt), mines=mines).to_json()
    assert response.json() == expected
    if text in KNOWN:       # and the library's answer is the one worked out by hand
        solutions, safe, mined = KNOWN[text]
        got = response.json()
        assert (got["solutions"], got["safe"], got["mines"]) == (solutions, safe, mined)


#: Answers worked out by hand: (completions, safe cells, mines).
KNOWN = {
    "#1#": ("2", [], []),                                # one mine, either side
    "#2#\n#3#\n###": ("18", [], []),
    "#####\n-121-": ("1", [[0, 0], [0, 2], [0, 4]], [[0, 1], [0, 3]]),
    "1#\n#1": ("2", [], []),                            # one of the two hidden cells
    "3x1x1\nH1F": ("1", [[0, 0]], []),                  # the flag is the 1's mine
    "2 2 0\n9 9\n9 1": ("3", [], []),                  # one mine among three cells
    "1-\n--": ("0", [], []),                            # a 1 with no hidden neighbour
}


@pytest.mark.parametrize("name", ["beginner.board", "beginner.json", "beginner.mine",
                                  "beginner.numeric.txt", "pentagon.json"])
def test_analyze_reads_every_format(client: TestClient, name: str) -> None:
    text = (DATA / name).read_text(encoding="utf-8")
    response = client.post("/api/analyze", json={"board": text})
    assert response.status_code == 200, response.text
    assert response.json() == analyze(read_board(text)).to_json()


def test_an_inconsistent_board_is_an_answer(client: TestClient) -> None:
    obj = client.post("/api/analyze", json={"board": "11\n##", "mines": 0}).json()
    assert obj["consistent"] is False and obj["solutions"] == "0"


# --------------------------------------------------------------------------- explain
@pytest.mark.parametrize("cell", [[0, 0], [0, 1], [0, 2], [0, 3], [0, 4]])
def test_explain_answers_the_library_object(client: TestClient, cell: list[int]) -> None:
    text = "#####\n-121-"
    response = client.post("/api/explain", json={"board": text, "cell": cell})
    assert response.status_code == 200, response.text
    expected = explain(read_board(text), tuple(cell)).to_json()
    assert response.json() == expected
    if cell == [0, 1]:     # by hand: the 2 and the right 1 force a mine at (0, 1)
        assert expected["status"] == "mine" and expected["clues"] == [[1, 2], [1, 3]]


def test_explain_an_unforced_cell_and_an_inconsistent_board(client: TestClient) -> None:
    obj = client.post("/api/explain", json={"board": "#1#", "mines": 1, "cell": [0, 0]}).json()
    assert obj["status"] == "unknown" and obj["probability"] == 0.5
    obj = client.post("/api/explain", json={"board": "1-\n--"}).json()
    assert obj == explain(read_board("1-\n--")).to_json()
    assert obj["status"] == "inconsistent"


# --------------------------------------------------------------------------- errors
def test_a_format_error_names_line_and_column(client: TestClient) -> None:
    message = _error(client.post("/api/analyze", json={"board": "#1#\n#9#"}), 422)
    assert message.startswith("line 2, column 2: ")
    message = _error(client.post("/api/explain", json={"board": "##\n#%", "cell": [0, 0]}), 422)
    assert "line 2, column 2" in message


@pytest.mark.parametrize("body, words", [
    ({}, "body.board: Field required"),
    ({"board": 3}, "body.board"),
    ({"board": "#1#", "mines": "1"}, "body.mines"),
    ({"board": "#1#", "mines": -1}, "body.mines"),
    ({"board": "#1#", "mines": 5}, "total mine count 5"),
    ({"board": "#1#", "colour": "red"}, "body.colour"),
    ({"board": "#1#", "format": "png"}, "unknown format 'png'"),
    ({"board": "#1#", "timeout": 0}, "body.timeout"),
    ({"board": "#1#", "dialect": "fancy"}, "dialect"),
])
def test_bad_analyze_requests_are_422_json(client: TestClient, body: dict[str, Any], words: str) -> None:
    assert words in _error(client.post("/api/analyze", json=body), 422)


@pytest.mark.parametrize("cell, words", [
    ([0, 1], "not hidden"), ([5, 0], "outside"), ([0], "expected [row, col]"),
    ("a", "expected"), ([0, 0, 0], "expected [row, col]"), (True, "body.cell"),
])
def test_bad_cells_are_422_json(client: TestClient, cell: Any, words: str) -> None:
    message = _error(client.post("/api/explain", json={"board": "#1#", "cell": cell}), 422)
    assert words in message


DOCS = Path(__file__).resolve().parents[2] / "docs" / "web.md"


def _status_rows() -> dict[str, str]:
    """docs/web.md's table of error statuses: status -> when."""
    rows = {}
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        parts = [p.strip() for p in line.strip().strip("|").split("|")]
        if len(parts) == 2 and parts[0].isdigit():
            rows[parts[0]] = parts[1]
    return rows


def test_malformed_json_and_unknown_paths(client: TestClient) -> None:
    message = _error(client.post("/api/analyze", content=b'{"board": ',
                                 headers={"content-type": "application/json"}), 422)
    assert "invalid JSON" in message
    # The docs say so (they said 400 in one place once): 422, never 400, for a body that is
    # not JSON.
    rows = _status_rows()
    assert "malformed JSON" in rows["422"] and "JSON" not in rows["400"]
    assert "A body that is not JSON is 422" in DOCS.read_text(encoding="utf-8")
    _error(client.get("/api/nothing"), 404)
    _error(client.get("/api/analyze"), 405)


def test_over_size_bodies_are_413() -> None:
    with TestClient(create_app(Limits(max_body_bytes=1000))) as client:
        big = {"board": "#" * 2000}
        assert "1000 bytes" in _error(client.post("/api/analyze", json=big), 413)
        assert "1000 bytes" in _error(client.post("/api/explain", json=big), 413)
        # No Content-Length: the body is sent in chunks and counted as it arrives.
        chunks = (b'{"board": "' + b"#" * 400 if k == 0 else b"#" * 400 for k in range(5))
        response = client.post("/api/analyze", content=chunks,
                               headers={"content-type": "application/json"})
        assert "1000 bytes" in _error(response, 413)
        assert client.post("/api/analyze", json={"board": "#1#"}).status_code == 200


def test_over_size_boards_games_and_timeouts_are_413() -> None:
    limits = Limits(max_cells=20, max_game_cells=100, analyze_seconds=5)
    with TestClient(create_app(limits)) as client:
        board = "\n".join(["#####"] * 5)
        assert "limit of 20 cells" in _error(client.post("/api/analyze", json={"board": board}), 413)
        assert "limit of 20 cells" in _error(
            client.post("/api/explain", json={"board": board, "cell": [0, 0]}), 413)
        assert client.post("/api/analyze", json={"board": "####\n####"}).status_code == 200
        _error(client.post("/api/game", json={"rows": 11, "cols": 10, "mines": 5}), 413)
        _error(client.post("/api/game", json={"size": "expert"}), 413)
        assert "limit of 5 s" in _error(
            client.post("/api/analyze", json={"board": "#1#", "timeout": 6}), 413)


def test_limits_lists_the_limits_in_force() -> None:
    limits = Limits(max_games=7, analyze_seconds=2.5)
    with TestClient(create_app(limits)) as client:
        assert client.get("/api/limits").json() == limits.to_json()
        assert client.get("/api/limits").json()["max_games"] == 7


# --------------------------------------------------------------------------- games
def _state(game: Game) -> tuple[str, str, list[list[int]]]:
    cols = game.cols or 1
    return (game.board().to_text(), game.status, [list(divmod(c, cols)) for c in sorted(game.flags)])


@pytest.mark.parametrize("options", [
    {"size": "beginner", "rules": "classic", "seed": 3},
    {"size": "intermediate", "rules": "modern", "seed": 11},
    {"rows": 8, "cols": 12, "mines": 20, "topology": "hex", "rules": "modern", "seed": 5},
    {"rows": 6, "cols": 9, "mines": 8, "topology": "triangle", "rules": "any", "seed": 2},
])
def test_moves_through_the_api_match_the_game(client: TestClient, options: dict[str, Any]) -> None:
    created = client.post("/api/game", json=options)
    assert created.status_code == 201, created.text
    obj = created.json()
    size = options.get("size")
    direct = Game(size, rows=options.get("rows"), cols=options.get("cols"),
                  mines=options.get("mines"), topology=options.get("topology", "square"),
                  rules=options["rules"], seed=options["seed"])
    assert obj["seed"] == options["seed"] and obj["status"] == "playing"
    assert (obj["board"], obj["status"], obj["flags"]) == _state(direct)
    rng = random.Random(options["seed"])
    cols = direct.cols or 1
    for _ in range(40):
        legal = list(direct.legal_moves())
        if not legal:
            break
        # Mostly uncoverings, some flags, every chord available.
        chords = [m for m in legal if m.action == "chord"]
        move = chords[0] if chords else rng.choice(
            [m for m in legal if m.action == ("flag" if rng.random() < 0.2 else "reveal")] or legal)
        uncovered = direct.push(move)
        response = client.post(f"/api/game/{obj['id']}/move",
                               json={"action": move.action, "cell": list(divmod(move.cell, cols))})
        assert response.status_code == 200, response.text
        obj = response.json()
        assert (obj["board"], obj["status"], obj["flags"]) == _state(direct)
        assert obj["uncovered"] == [list(divmod(c, cols)) for c in uncovered]
        assert obj["states"] == [list(direct.board().states[r * cols:(r + 1) * cols])
                                 for r in range(direct.rows or 0)]
        assert obj["moves"] == len(direct.moves)
    fetched = client.get(f"/api/game/{obj['id']}").json()
    assert fetched == {k: v for k, v in obj.items() if k != "uncovered"}
    if direct.status != "playing":
        assert obj["mines_at"] == [list(divmod(c, cols)) for c in sorted(direct.layout or ())]
        message = _error(client.post(f"/api/game/{obj['id']}/move",
                                     json={"action": "reveal", "cell": [0, 0]}), 422)
        assert "game is over" in message
    else:
        assert obj["mines_at"] is None


def test_a_seed_the_server_drew_stays_secret_until_the_game_is_over(client: TestClient) -> None:
    """The seed rebuilds the layout: every answer hides it while the game is played; once it
    is over the seed is shown, and a game of that seed with the same moves replays it."""
    first = client.post("/api/game", json={"size": "beginner", "rules": "modern"}).json()
    assert first["seed"] is None
    url = f"/api/game/{first['id']}"
    opened = client.post(f"{url}/move", json={"action": "reveal", "cell": [4, 4]}).json()
    assert opened["seed"] is None and client.get(url).json()["seed"] is None
    if opened["status"] == "playing":
        step = client.post(f"{url}/solver", json={"steps": 1}).json()
        assert step["seed"] is None or step["status"] != "playing"
    end = client.post(f"{url}/solver", json={"steps": None}).json()
    assert end["status"] in ("won", "lost") and isinstance(end["seed"], int)
    # The shown seed replays the game: the same first click, then the solver's moves.
    again = client.post("/api/game", json={"size": "beginner", "rules": "modern",
                                           "seed": end["seed"]}).json()
    assert again["seed"] == end["seed"]             # chosen by the client: shown at once
    replay = Game("beginner", rules="modern", seed=end["seed"])
    replay.reveal((4, 4))
    assert replay.board().to_text() == opened["board"]
    assert sorted(replay.layout or ()) == sorted(r * 9 + c for r, c in end["mines_at"])
    assert client.post("/api/game", json={}).json()["rows"] == 9      # beginner by default


@pytest.mark.parametrize("body, status, words", [
    ({"size": "huge"}, 422, "body.size"),
    ({"rows": 5, "cols": 5}, 422, "rows, cols and mines"),
    ({"rows": 3, "cols": 3, "mines": 9}, 422, "do not fit"),
    ({"size": "beginner", "rules": "nice"}, 422, "body.rules"),
    ({"size": "beginner", "topology": "cube"}, 422, "body.topology"),
    ({"size": "beginner", "seed": -1}, 422, "body.seed"),
])
def test_bad_games_are_4xx_json(client: TestClient, body: dict[str, Any], status: int, words: str) -> None:
    assert words in _error(client.post("/api/game", json=body), status)


def test_bad_moves_are_4xx_json(client: TestClient) -> None:
    game = client.post("/api/game", json={"size": "beginner", "seed": 1, "rules": "modern"}).json()
    url = f"/api/game/{game['id']}/move"
    assert "outside" in _error(client.post(url, json={"action": "reveal", "cell": [9, 0]}), 422)
    assert "body.action" in _error(client.post(url, json={"action": "dig", "cell": [0, 0]}), 422)
    assert "expected [row, col]" in _error(client.post(url, json={"action": "flag", "cell": [1]}), 422)
    client.post(url, json={"action": "reveal", "cell": [4, 4]})
    assert "already uncovered" in _error(client.post(url, json={"action": "reveal", "cell": [4, 4]}), 422)
    assert "no game with id" in _error(client.post("/api/game/nope/move",
                                                   json={"action": "reveal", "cell": [0, 0]}), 404)
    assert "no game with id" in _error(client.get("/api/game/nope"), 404)


def test_the_store_stays_bounded_least_recently_used_out() -> None:
    with TestClient(create_app(Limits(max_games=3, games_per_minute=100))) as client:
        ids = [client.post("/api/game", json={"size": "beginner", "seed": k}).json()["id"]
               for k in range(3)]
        assert client.get(f"/api/game/{ids[0]}").status_code == 200     # now the most recent
        for k in range(3, 40):
            ids.append(client.post("/api/game", json={"size": "beginner", "seed": k}).json()["id"])
            assert len(client.app.state.games) <= 3                    # type: ignore[attr-defined]
        alive = [i for i in ids if client.get(f"/api/game/{i}").status_code == 200]
        assert alive == ids[-3:]
    store = GameStore(2)
    entries = [store.add(Game("beginner", seed=k), k, "beginner") for k in range(3)]
    store.get(entries[1].id)
    store.add(Game("beginner", seed=9), 9, "beginner")
    assert entries[1].id in store and entries[2].id not in store and len(store) == 2


# --------------------------------------------------------------------------- responsiveness
#: A position no engine finishes in minutes (the checkerboard opening of tests/test_deadline.py
#: that keeps ``auto`` busy past 60 s).
HARD = checkerboard_opening(60, 60, 0.3, seed=1, total=True).to_text()

#: Every request in the small lane's threads (the harder case for the event loop: the work
#: shares the process), whatever its size or estimated cost.
IN_THREADS = dict(big_request_bytes=10 ** 7, small_component_cells=10 ** 6, small_work=10 ** 18)


def test_the_server_answers_while_a_hard_position_is_analysed(monkeypatch: pytest.MonkeyPatch) -> None:
    """While the hard position is analysed in a worker thread, /api/limits and an easy
    analysis are answered; then the hard request, cancelled, ends with a 4xx JSON error.
    Decided by events: the hard analysis has started (its work signals it) and is still
    running when the easy answers are in (it is only ever stopped by the cancel)."""
    from minegraph.web import positions
    started = threading.Event()
    deadlines: list[Any] = []
    real = positions._POSITION_WORK["analyze"]

    def signalled(body: Any, limits: Any, deadline: Any, *rest: Any) -> Any:
        if body.board == HARD:
            # The work's own deadline, and the request's it follows (the one engines check).
            deadlines.extend([deadline, current_deadline()])
            started.set()
        return real(body, limits, deadline, *rest)

    monkeypatch.setitem(positions._POSITION_WORK, "analyze", signalled)
    # Two turns for the one test client: the easy requests are not queued behind the hard one.
    limits = Limits(analyze_seconds=3600, small_seconds=3600, workers=2, small_per_client=2,
                    **IN_THREADS)
    with TestClient(create_app(limits)) as client:
        outcome: dict[str, Any] = {}
        worker = threading.Thread(
            target=lambda: outcome.update(response=client.post("/api/analyze", json={"board": HARD})))
        worker.start()
        try:
            assert started.wait(120), "the hard analysis never started"
            for _ in range(5):
                assert client.get("/api/limits").status_code == 200
                answer = client.post("/api/analyze", json={"board": "#1#", "mines": 1}).json()
                assert answer["solutions"] == "2"
            assert worker.is_alive() and "response" not in outcome, \
                "the hard analysis ended before the easy ones were answered"
        finally:
            for deadline in deadlines:
                if deadline is not None:
                    deadline.cancel()
            worker.join(120)
        assert not worker.is_alive()
        assert "cancelled before answering" in _error(outcome["response"], 422)


def test_a_request_may_ask_for_a_shorter_limit() -> None:
    """Ended by the request's own limit (the message names it), not the server's 120 s."""
    with TestClient(create_app(Limits(analyze_seconds=120))) as client:
        response = client.post("/api/analyze", json={"board": HARD, "timeout": 0.5})
        assert "no answer within 0.5 s" in _error(response, 422)


# --------------------------------------------------------------------------- the rest
def test_the_page_and_its_files_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    for name in ("app.js", "app.css"):
        assert f"/static/{name}" in page.text
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/../app.py").status_code == 404
    assert client.get("/static/%2e%2e/app.py").status_code == 404
    assert client.get("/openapi.json").json()["paths"].keys() >= {
        "/api/analyze", "/api/explain", "/api/limits", "/api/game", "/api/game/{game_id}",
        "/api/game/{game_id}/move"}


def test_import_minegraph_loads_no_web_framework() -> None:
    code = ("import sys, minegraph; from minegraph import analyze; "
            "import minegraph.cli, minegraph.play; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('fastapi', 'starlette', 'uvicorn', 'pydantic') or m == 'minegraph.web'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_serve_starts_the_hardened_server(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from minegraph.cli import main
    from minegraph.web import server
    seen: dict[str, Any] = {}
    monkeypatch.setattr(server, "serve", lambda host, port, limits=None, allowed_hosts=(),
                        trusted_proxies=(): seen.update(host=host, port=port,
                                                        allowed=allowed_hosts,
                                                        proxies=trusted_proxies))
    import socket
    with socket.socket() as free:                 # a port nothing else on the machine uses
        free.bind(("127.0.0.1", 0))
        port = str(free.getsockname()[1])
    assert main(["serve", "--port", port]) == 0
    assert seen == {"host": "127.0.0.1", "port": int(port), "allowed": [], "proxies": []}
    assert main(["serve", "--port", port, "--allow-host", "a.example",
                 "--allow-host", "b.example"]) == 0
    assert seen["allowed"] == ["a.example", "b.example"]
    assert main(["serve", "--port", port, "--trusted-proxy", "127.0.0.1",
                 "--trusted-proxy", "10.0.0.0/8"]) == 0
    assert seen["proxies"] == ["127.0.0.1", "10.0.0.0/8"]
    assert main(["serve", "--port", port, "--trusted-proxy", "proxy.example"]) == 2  # refused
    assert f"http://127.0.0.1:{port}/" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit:
        main(["serve", "--port", "70000"])
    assert exit.value.code == 2


def test_the_server_configuration() -> None:
    # Built outside the command line: uvicorn's logging handlers keep the streams of the
    # moment, which must not be the command's wrapped standard output.
    from fastapi import FastAPI

    from minegraph.web.app import HostCheck
    from minegraph.web.server import GuardedH11Protocol, server_config
    limits = Limits(max_connections=50, header_seconds=2)
    config = server_config(create_app(limits), "127.0.0.1", 8123, limits, open_files=120)
    assert isinstance(config.app, HostCheck) and isinstance(config.app.app, FastAPI)
    assert (config.host, config.port) == ("127.0.0.1", 8123)
    assert issubclass(config.http, GuardedH11Protocol)
    assert config.http.HEAD_SECONDS == 2 and config.http.MAX_CONNECTIONS == 1   # 120 - 200 < 1
    assert config.timeout_keep_alive == 2
    assert server_config(create_app(), "h", 1, Limits(), open_files=None).http.MAX_CONNECTIONS == 4000
    assert not config.proxy_headers                     # X-Forwarded-For trusted from nobody
    behind = server_config(create_app(limits), "127.0.0.1", 8123, limits,
                           trusted_proxies=["127.0.0.1"])
    assert behind.proxy_headers and behind.forwarded_allow_ips == ["127.0.0.1/32"]


def test_a_client_that_goes_away_frees_its_worker() -> None:
    """On a real server with one worker: a client that gives up on a hard analysis has its
    deadline cancelled, so the next request is served long before the hard one's limit
    (an hour) would have freed the worker."""
    import httpx
    import uvicorn
    # Every request in the small lane (its worker threads are what this checks): a hard
    # query abandoned in the big lane's process is not cancelled, and would hold that process
    # for its whole limit (issue 21's ground).
    # The estimate of its cost would send it to the big lane at once: lifted here too.
    # The hard query's limit (an hour) far past the client's patience: only the cancel can
    # free the one worker in time for the next request's answer.
    app = create_app(Limits(workers=1, analyze_seconds=3600, small_seconds=3600, **IN_THREADS))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        wait_for(lambda: server.started, "the server started")
        port = server.servers[0].sockets[0].getsockname()[1]
        url = f"http://127.0.0.1:{port}/api/analyze"
        with pytest.raises(httpx.TimeoutException):
            httpx.post(url, json={"board": HARD}, timeout=1.0)
        # Answered at all only if the abandoned query's worker was freed (its own limit is
        # an hour); the client's limit is a guard against a hang, far above the answer's time.
        response = httpx.post(url, json={"board": "#1#", "mines": 1}, timeout=600)
        assert response.json()["solutions"] == "2"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def _tiled_one_two_one(groups: int, blocks: int) -> tuple[str, list[list[int]], list[list[int]]]:
    """``groups`` bands of ``blocks`` copies of the 1-2-1 pattern (``#####`` over ``-121-``),
    apart from each other (a revealed column and row between copies): the text, and the
    safe cells and mines worked out by hand for one copy (its ends and middle safe, the
    cells beside the 2 mines), repeated."""
    rows, safe, mines = [], [], []
    for g in range(groups):
        rows += ["#####-" * blocks, "-121--" * blocks, "------" * blocks]
        for b in range(blocks):
            safe += [[3 * g, 6 * b + c] for c in (0, 2, 4)]
            mines += [[3 * g, 6 * b + c] for c in (1, 3)]
    return "\n".join(rows) + "\n", sorted(safe), sorted(mines)


def test_big_requests_run_in_the_big_lane_with_the_answers_known_by_hand() -> None:
    """A board text past ``big_request_bytes`` is analysed and explained in the big lane's
    process: the answers are the ones worked out by hand, and its errors keep their status."""
    text, safe, mines = _tiled_one_two_one(12, 20)
    assert len(text) > Limits().big_request_bytes
    # Limits far above the work: this checks the lane and the answers, not the time.
    generous = Limits(analyze_seconds=600, explain_seconds=600)
    with TestClient(create_app(generous)) as client:
        response = client.post("/api/analyze", json={"board": text})
        assert response.status_code == 200, response.text
        got = response.json()
        assert got["consistent"] is True and got["solutions"] == "1"
        assert (sorted(got["safe"]), sorted(got["mines"])) == (safe, mines)
        assert client.app.state.runner.routed["big"] >= 1       # type: ignore[attr-defined]
        # The last copy's left mine: forced by its 2 and its right 1 (as in the one copy).
        response = client.post("/api/explain", json={"board": text, "cell": [33, 115]})
        assert response.status_code == 200, response.text
        explained = response.json()
        assert explained["status"] == "mine" and explained["clues"] == [[34, 116], [34, 117]]
        broken = text.replace("#", "9", 1)
        assert "9" in _error(client.post("/api/analyze", json={"board": broken}), 422)


def test_the_solver_plays_as_the_library_does(client: TestClient) -> None:
    """One decision, then to the end: the same game and moves as ``play`` with the same policy
    on a game of the same seed; the game then refuses nothing but is over."""
    from minegraph.play.policies import get_policy, play
    body = {"rows": 9, "cols": 9, "mines": 10, "rules": "modern", "seed": 2024}
    game_id = client.post("/api/game", json=body).json()["id"]
    first = client.post(f"/api/game/{game_id}/solver", json={"steps": 1})
    assert first.status_code == 200
    step = first.json()
    assert step["solver"]["decisions"] == 1 and step["solver"]["moves"]
    end = client.post(f"/api/game/{game_id}/solver", json={"steps": None}).json()
    assert end["status"] in ("won", "lost") and end["solver"]["stopped"] is None
    same = Game(rows=9, cols=9, mines=10, rules="modern", seed=2024)
    record = play(same, get_policy("strong"))
    assert end["status"] == ("won" if record.won else "lost")
    cols = 9
    assert [list(divmod(m.cell, cols)) for m in same.moves] == \
        step["solver"]["moves"] + end["solver"]["moves"]
    done = client.post(f"/api/game/{game_id}/solver", json={"steps": 1}).json()
    assert done["solver"]["decisions"] == 0


def test_moves_wait_for_nobody_while_the_solver_plays(client: TestClient) -> None:
    game_id = client.post("/api/game", json={"size": "beginner", "seed": 5}).json()["id"]
    entry = client.app.state.games.get(game_id)
    with entry.busy:            # as while the solver plays in a worker thread
        refused = client.post(f"/api/game/{game_id}/move", json={"action": "reveal", "cell": [0, 0]})
        assert "solver is playing" in _error(refused, 409)
        again = client.post(f"/api/game/{game_id}/solver", json={"steps": 1})
        assert "already playing" in _error(again, 409)
    assert client.post(f"/api/game/{game_id}/move",
                       json={"action": "reveal", "cell": [0, 0]}).status_code == 200


@pytest.mark.parametrize("body, where", [({"steps": 0}, "body.steps"),
                                         ({"policy": "random"}, "body.policy"),
                                         ({"steps": 1, "extra": 1}, "body.extra")])
def test_bad_solver_requests_are_422(client: TestClient, body: dict[str, Any], where: str) -> None:
    game_id = client.post("/api/game", json={"size": "beginner", "seed": 5}).json()["id"]
    assert where in _error(client.post(f"/api/game/{game_id}/solver", json=body), 422)


def test_noguess_games_are_won_without_a_guess(client: TestClient) -> None:
    """The first click draws the layout of ``noguess_board`` (same seed and first cell); the
    strong solver then finishes the game without a single guess."""
    from minegraph.generate.noguess import noguess_board
    body = {"rows": 9, "cols": 9, "mines": 12, "rules": "noguess", "seed": 31}
    created = client.post("/api/game", json=body).json()
    assert created["rules"] == "noguess"
    game_id = created["id"]
    moved = client.post(f"/api/game/{game_id}/move", json={"action": "reveal", "cell": [4, 4]})
    assert moved.status_code == 200
    entry = client.app.state.games.get(game_id)
    want = noguess_board(9, 9, 12, first=(4, 4), rules="modern", seed=31)
    assert entry.game.layout == want.layout
    end = client.post(f"/api/game/{game_id}/solver", json={"steps": None}).json()
    assert end["status"] == "won" and end["solver"]["guesses"] == 0


def test_structure_answers_the_pipeline(client: TestClient) -> None:
    """``POST /api/structure``: the classification, verdict and picture of ``classify``."""
    from minegraph.decompose import classify
    from minegraph.decompose.picture import decomposition_svg, verdict
    text = "mines: 3\n#1#2#\n#####\n#2#1#\n"
    board = read_board(text)
    found = classify(board)
    obj = client.post("/api/structure", json={"board": text}).json()
    assert obj["verdict"] == verdict(found) and obj["svg"] == decomposition_svg(found)
    assert {k: obj[k] for k in found.to_json()} == found.to_json()
    assert "9" in _error(client.post("/api/structure", json={"board": "#9#"}), 422)


def test_generate_answers_the_library_puzzles(client: TestClient) -> None:
    """``POST /api/generate``: the same puzzles as the library's generators (same seeds), a
    unique one with exactly one solution, and its answer key."""
    from minegraph.generate.noguess import noguess_board
    from minegraph.generate.paper import paper_table
    from minegraph.generate.unique import unique_puzzle
    obj = client.post("/api/generate", json={"kind": "unique", "rows": 6, "cols": 6,
                                             "mines": 5, "seed": 3}).json()
    made = unique_puzzle(6, 6, 5, seed=3)
    assert obj["puzzle"] == made.puzzle.to_text()
    assert analyze(read_board(obj["puzzle"])).solutions == 1
    answer = read_board(obj["answer"])
    from minegraph.board import MINE
    assert {i for i, s in enumerate(answer.states) if s == MINE} == set(made.layout)
    assert obj["puzzle_svg"].startswith("<svg") and obj["answer_svg"].count('class="mine"') == 5
    paper = client.post("/api/generate", json={"kind": "paper", "rows": 2, "cols": 7,
                                               "theorem": 1, "seed": 3}).json()
    assert paper["puzzle"] == paper_table(1, 2, 7, seed=3).puzzle.to_text()
    nog = client.post("/api/generate", json={"kind": "noguess", "rows": 9, "cols": 9,
                                             "mines": 10, "seed": 4}).json()
    assert nog["puzzle"] == noguess_board(9, 9, 10, first=(4, 4), rules="modern",
                                          seed=4).start.to_text()


@pytest.mark.parametrize("body, status, words", [
    ({"kind": "unique", "rows": 5, "cols": 5, "seed": 1}, 422, "needs \"mines\""),
    ({"kind": "paper", "rows": 3, "cols": 3, "theorem": 2}, 422, "Theorem 2"),
    ({"kind": "unique", "rows": 1000, "cols": 1000, "mines": 5}, 413, "exceeds the limit"),
    ({"kind": "sudoku", "rows": 5, "cols": 5}, 422, "body.kind"),
])
def test_bad_generate_requests(client: TestClient, body: dict[str, Any], status: int,
                               words: str) -> None:
    assert words in _error(client.post("/api/generate", json=body), status)


def test_only_practice_games_take_moves_back(client: TestClient) -> None:
    body = {"rows": 5, "cols": 5, "mines": 5, "rules": "classic", "seed": 4}
    plain = client.post("/api/game", json=body).json()
    assert plain["practice"] is False
    client.post(f"/api/game/{plain['id']}/move", json={"action": "reveal", "cell": [2, 2]})
    assert "practice" in _error(client.post(f"/api/game/{plain['id']}/undo"), 422)
    game = client.post("/api/game", json={**body, "practice": True}).json()
    url = f"/api/game/{game['id']}"
    opened = client.post(f"{url}/move", json={"action": "reveal", "cell": [2, 2]}).json()
    client.post(f"{url}/move", json={"action": "flag", "cell": [0, 0]})
    back = client.post(f"{url}/undo").json()
    assert back["undone"] == {"action": "flag", "cell": [0, 0]} and back["flags"] == []
    assert back["board"] == opened["board"]
    back = client.post(f"{url}/undo").json()
    assert back["moves"] == 0 and back["undone"]["cell"] == [2, 2]
    assert "no move to take back" in _error(client.post(f"{url}/undo"), 422)
    # The same first click replays the same position (the layout is drawn again from the seed).
    again = client.post(f"{url}/move", json={"action": "reveal", "cell": [2, 2]}).json()
    assert again["board"] == opened["board"]


def test_a_finished_game_reports_its_3bv(client: TestClient) -> None:
    game = client.post("/api/game", json={"rows": 1, "cols": 5, "mines": 1, "rules": "any",
                                           "seed": 0}).json()
    assert game["bbbv"] is None
    mine = Game(rows=1, cols=5, mines=1, rules="any", seed=0).layout
    assert mine is not None
    (m,) = mine
    safe = next(c for c in range(5) if c != m)
    end = client.post(f"/api/game/{game['id']}/move", json={"action": "reveal", "cell": [0, m]}).json()
    assert end["status"] == "lost"
    # By hand: the row 0 0 1 M 1 (mine at 3) is one opening and the far 1: 3BV 2.
    assert m == 3 and end["bbbv"] == 2 and safe == 0


def test_the_solver_takes_off_wrong_flags_and_always_ends(client: TestClient) -> None:
    """A player's flag on a safe cell the solver wants to uncover: the flag comes off (it
    looped for ever before, the decision's move being illegal)."""
    body = {"rows": 6, "cols": 6, "mines": 4, "rules": "modern", "seed": 3}
    game = client.post("/api/game", json=body).json()
    url = f"/api/game/{game['id']}"
    opened = client.post(f"{url}/move", json={"action": "reveal", "cell": [0, 0]}).json()
    layout = Game(rows=6, cols=6, mines=4, rules="modern", seed=3)
    layout.reveal((0, 0))
    assert layout.layout is not None
    covered_safe = [[r, c] for r in range(6) for c in range(6)
                    if opened["states"][r][c] < 0 and r * 6 + c not in layout.layout]
    for cell in covered_safe:
        client.post(f"{url}/move", json={"action": "flag", "cell": cell})
    end = client.post(f"{url}/solver", json={"steps": None}).json()
    assert end["status"] == "won" and end["solver"]["stopped"] is None
    # A flag stops a flood: every flagged safe cell needed its flag off and its own uncovering.
    assert sorted(end["solver"]["unflagged"]) == sorted(covered_safe)
    assert all(cell in end["solver"]["moves"] for cell in covered_safe)


def test_the_structure_legend_uses_the_pictures_colours() -> None:
    import re

    from minegraph.decompose.picture import EDGE_COLOURS, _NODE
    from minegraph.web.app import STATIC
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    legend = re.search(r'<p id="structure-legend".*?</p>', page, re.S)
    assert legend is not None
    for colour in (*EDGE_COLOURS.values(), _NODE.colour):
        assert colour in legend.group(0), colour


def test_a_game_has_one_time_its_replay_and_review_agree_on(client: TestClient) -> None:
    """``seconds``: from the first uncovering to the last, to the millisecond, as the replay
    records it and its review reads it (the page shows this one time everywhere). The
    move times are set on the stored game: no wall clock decides the test."""
    game = client.post("/api/game", json={"rows": 1, "cols": 5, "mines": 1, "rules": "any",
                                           "seed": 0}).json()
    assert game["seconds"] == 0 and game["seed_chosen"] is True
    url = f"/api/game/{game['id']}"
    client.post(f"{url}/move", json={"action": "reveal", "cell": [0, 0]})   # 0 0 1 M 1
    client.post(f"{url}/move", json={"action": "flag", "cell": [0, 3]})
    entry = client.app.state.games.get(game["id"])          # type: ignore[attr-defined]
    end = client.post(f"{url}/move", json={"action": "reveal", "cell": [0, 4]}).json()
    assert end["status"] == "won"
    for undo, at in zip(entry.game._history, (1000.0, 1001.5, 1007.3254)):
        undo.at = at
    won = client.get(url).json()
    assert won["seconds"] == 7.325                         # the flag does not count
    pytest.importorskip("ms_toollib")
    from minegraph.play.review import review_bytes
    replay = client.get(f"{url}/replay.evf")
    assert replay.status_code == 200 and "_7.33s.evf" in replay.headers["content-disposition"]
    assert review_bytes(replay.content, "evf").time == won["seconds"]
    # A game on a seed the server drew: its layout was unknown to the player.
    secret = client.post("/api/game", json={"size": "beginner"}).json()
    assert secret["seed_chosen"] is False and secret["seed"] is None


def test_explain_answers_quickly_first_then_smallest(client: TestClient) -> None:
    """``"smallest": false`` is the library's quick answer (the first minimal set); the
    default searches for a smallest one after it."""
    board = "mines: 3\nM##\n#M2\n12#"
    quick = client.post("/api/explain", json={"board": board, "cell": [0, 1],
                                              "smallest": False}).json()
    assert quick == explain(read_board(board), (0, 1), smallest=False).to_json()
    full = client.post("/api/explain", json={"board": board, "cell": [0, 1]}).json()
    assert full == explain(read_board(board), (0, 1)).to_json() and full["smallest"] is True
    _error(client.post("/api/explain", json={"board": board, "cell": [0, 1], "smallest": 1}), 422)


def test_a_structure_past_its_time_says_so_as_the_docs_do(client: TestClient) -> None:
    hard = checkerboard_opening(60, 60, 0.3, seed=1, total=True).to_text()
    message = _error(client.post("/api/structure", json={"board": hard, "timeout": 0.001}), 422)
    assert message == "no answer within 0.001 s to the decomposition"
    assert ('422 `{"error": "no answer within 10 s to the decomposition"}`'
            in DOCS.read_text(encoding="utf-8"))
