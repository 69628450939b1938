"""Every endpoint driven with generated bodies: whatever comes in, the answer is JSON with a
status below 500 (a 5xx would be a bug: user mistakes are 4xx)."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minegraph.web import Limits, create_app

from strategies import examples

LIMITS = Limits(analyze_seconds=2, explain_seconds=2, max_game_cells=400, max_cells=400,
                per_client=100)

anything = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10 ** 6) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8)

boards = st.sampled_from(["#1#", "mines: 1\n#1#", "1##\n#2#\n##1", "###\n###", "", "x", "9",
                          "mines: 2\n#1-\n-1#", "M1#\n11#", "#" * 40])
topologies = st.sampled_from(["square", "triangle", "hex", "torus", "moon"])


def _maybe(value: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(value, anything)


position_bodies = st.fixed_dictionaries({"board": _maybe(boards)}, optional={
    "mines": _maybe(st.integers(-1, 20)), "format": _maybe(st.sampled_from(["text", "json", "mine"])),
    "cell": _maybe(st.lists(st.integers(-1, 5), max_size=3)), "timeout": _maybe(st.floats(0, 5)),
    "propagate": _maybe(st.booleans()), "dialect": anything})

generate_bodies = st.fixed_dictionaries({
    "kind": _maybe(st.sampled_from(["paper", "unique", "noguess"])),
    "rows": _maybe(st.integers(0, 12)), "cols": _maybe(st.integers(0, 12))}, optional={
    "mines": _maybe(st.integers(0, 150)), "theorem": _maybe(st.integers(0, 4)),
    "topology": _maybe(topologies), "rules": _maybe(st.sampled_from(["classic", "modern"])),
    "seed": _maybe(st.integers(0, 10))})

game_bodies = st.fixed_dictionaries({}, optional={
    "size": _maybe(st.sampled_from(["beginner", "expert", "huge"])),
    "rows": _maybe(st.integers(0, 25)), "cols": _maybe(st.integers(0, 25)),
    "mines": _maybe(st.integers(0, 700)), "topology": _maybe(topologies),
    "rules": _maybe(st.sampled_from(["classic", "modern", "any", "noguess"])),
    "seed": _maybe(st.integers(0, 10))})

moves = st.lists(st.fixed_dictionaries({
    "action": _maybe(st.sampled_from(["reveal", "flag", "chord"])),
    "cell": _maybe(st.lists(st.integers(-1, 25), min_size=2, max_size=2))}), max_size=6)

solver_bodies = st.fixed_dictionaries({}, optional={
    "steps": _maybe(st.integers(0, 5)), "policy": _maybe(st.sampled_from(["strong", "safest"]))})


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(LIMITS), raise_server_exceptions=False) as c:
        yield c


def _ok(response: Any) -> None:
    assert response.status_code < 500, (response.status_code, response.text[:300])
    assert isinstance(response.json(), (dict, list))


FUZZ = settings(max_examples=examples(300), deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@FUZZ
@given(path=st.sampled_from(["/api/analyze", "/api/explain", "/api/structure"]), body=position_bodies)
def test_position_endpoints(client: TestClient, path: str, body: dict[str, Any]) -> None:
    _ok(client.post(path, json=body))


@pytest.mark.parametrize("path", ["/api/analyze", "/api/game", "/api/generate"])
@pytest.mark.parametrize("raw", [b'{"board": "#1#", "timeout": NaN}', b'{"timeout": Infinity}',
                                 b'{"steps": -Infinity}', b'{"rows": 1e999}', b"[1, 2",
                                 b'"just a string"', b"\xff\xfe", b""])
def test_bodies_python_reads_but_json_does_not_allow(client: TestClient, path: str,
                                                     raw: bytes) -> None:
    _ok(client.post(path, content=raw, headers={"Content-Type": "application/json"}))


@FUZZ
@given(body=generate_bodies)
def test_generate(client: TestClient, body: dict[str, Any]) -> None:
    _ok(client.post("/api/generate", json=body))


@FUZZ
@given(body=game_bodies, played=moves, solver=solver_bodies, raw=st.binary(max_size=40))
def test_games(client: TestClient, body: dict[str, Any], played: list[dict[str, Any]],
               solver: dict[str, Any], raw: bytes) -> None:
    created = client.post("/api/game", json=body)
    _ok(created)
    _ok(client.post("/api/game", content=raw, headers={"Content-Type": "application/json"}))
    if created.status_code != 201:
        return
    url = f"/api/game/{created.json()['id']}"
    for move in played:
        _ok(client.post(f"{url}/move", json=move))
    _ok(client.post(f"{url}/solver", json=solver))
    _ok(client.get(url))


@pytest.mark.parametrize("body", [
    {"kind": "noguess", "rows": 8, "cols": 8, "mines": 56},
    {"kind": "noguess", "rows": 8, "cols": 8, "mines": 58, "topology": "hex"}])
def test_the_puzzles_that_answered_500(client: TestClient, body: dict[str, Any]) -> None:
    response = client.post("/api/generate", json=body)
    assert response.status_code == 422 and "do not fit" in response.json()["error"]
