"""``POST /api/review``: a replay file in, the review of ``minegraph review --json`` out, with
the position before every click; damaged files, other files and bodies over the limit are
JSON errors."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("ms_toollib")

from minegraph.board import Board
from minegraph.play.review import review
from minegraph.web import create_app

with warnings.catch_warnings():  # Starlette's note about httpx, not about this code
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

REPLAY = Path(__file__).resolve().parents[1] / "data" / "replays" / "beginner-example.evf"


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as c:
        yield c


def _post(client: TestClient, name: str, data: bytes) -> Any:
    return client.post(f"/api/review?name={name}", content=data,
                       headers={"content-type": "application/octet-stream"})


def test_the_review_and_its_positions(client: TestClient) -> None:
    answer = _post(client, "beginner-example.evf", REPLAY.read_bytes())
    assert answer.status_code == 200, answer.text
    obj = answer.json()
    want = review(REPLAY)
    mine = want.to_json()
    for key in ("rows", "cols", "mines", "bbbv", "luck", "luck_exact", "outcome", "counts"):
        assert obj[key] == mine[key]
    for entries, clicks in ((obj["clicks"], want.clicks), (obj["chords"], want.chords)):
        assert [e["cell"] for e in entries] == [list(c.cell) for c in clicks]
        for entry, click in zip(entries, clicks):
            assert Board.from_text(entry["board"]) == click.board
            assert entry["probability_exact"] == mine["clicks" if click.kind == "left"
                                                      else "chords"][clicks.index(click)][
                "probability_exact"]


@pytest.mark.parametrize("name, data, status, words", [
    ("broken.avf", REPLAY.read_bytes()[:50], 422, "not a readable .avf replay"),
    ("notes.txt", REPLAY.read_bytes(), 422, "replay file name"),
    ("empty.evf", b"", 422, "bytes"),
    ("big.evf", b"\0" * 1_100_000, 413, "limit"),
])
def test_mistakes_are_json_errors(client: TestClient, name: str, data: bytes, status: int,
                                  words: str) -> None:
    answer = _post(client, name, data)
    assert answer.status_code == status
    body = answer.json()
    assert set(body) == {"error"} and words in body["error"]
    assert client.post("/api/review", content=b"x",
                       headers={"content-type": "application/octet-stream"}).status_code == 422  # no name
