"""Recording games as .evf replays: ms_toollib (the independent reader) reads back the same
board, clicks and pace; the review reads them too; the terminal game and the web API save
finished games, never one in play."""

from __future__ import annotations

import asyncio
import io
import os
import random
import warnings
from pathlib import Path

import pytest

ms_toollib = pytest.importorskip("ms_toollib")

from minegraph.errors import GameError
from minegraph.play.game import Game
from minegraph.play.record import evf_bytes, replay_name, save_evf
from minegraph.play.review import review, review_bytes

from played import play


def _read(data: bytes) -> object:
    v = ms_toollib.EvfVideo(raw_data=list(data))
    v.parse()
    v.analyse()
    v.current_time = 1e9
    return v


@pytest.mark.parametrize("seed", range(10))
def test_ms_toollib_reads_back_the_board_the_clicks_and_the_pace(seed: int) -> None:
    rng = random.Random(seed)
    size = ["beginner", "intermediate", "expert"][seed % 3]
    game = play(Game(size, rules=["classic", "modern"][seed % 2], seed=seed), rng,
                guess_rate=0.2)
    times = []
    t = 0.0
    for _ in game.moves:
        times.append(round(t, 3))
        t += rng.choice([0.05, 0.3, 1.0, 2.7, 7.5])        # pauses over 255 ms too
    data = evf_bytes(game, times=times, player="Zoë 雷")
    v = _read(data)
    assert game.layout is not None and game.rows is not None and game.cols is not None
    assert v.row == game.rows and v.column == game.cols and v.mine_num == game.mine_count
    layout = {r * game.cols + c for r in range(game.rows) for c in range(game.cols)
              if v.board[r][c] == -1}
    assert layout == game.layout
    assert v.bbbv == game.three_bv()
    reveals = sum(m.action == "reveal" for m in game.moves)
    flags = sum(m.action == "flag" for m in game.moves)
    chords = sum(m.action == "chord" for m in game.moves)
    assert (v.left, v.right, v.double) == (reveals, flags, chords)
    assert v.is_completed == (game.status == "won")
    assert v.player_identifier == "Zoë 雷"
    uncovering = [t for t, m in zip(times, game.moves) if m.action != "flag"]
    assert v.rtime == pytest.approx(uncovering[-1] - uncovering[0], abs=0.002)
    # The review reads the same clicks at the same times.
    r = review_bytes(data, "evf")
    assert [c.cell for c in r.timeline] == \
        [divmod(m.cell, game.cols) for m in game.moves if m.action != "flag"]
    assert [c.time for c in r.timeline] == pytest.approx(
        [u - uncovering[0] for u in uncovering], abs=0.002)
    assert r.outcome == game.status


def test_the_games_own_clock_is_kept() -> None:
    game = Game(rows=1, cols=3, mines=1, rules="any", seed=5)
    game.reveal(0)
    assert game.move_times == [0.0]
    data = evf_bytes(game)
    assert _read(data).is_completed


def test_only_finished_square_games_are_recorded(tmp_path: Path) -> None:
    game = Game("beginner", rules="classic", seed=1)
    with pytest.raises(GameError, match="not over"):
        evf_bytes(game)
    game.reveal((4, 4))
    if game.status == "playing":
        with pytest.raises(GameError, match="not over"):
            save_evf(game, tmp_path)
    hexed = Game(rows=3, cols=3, mines=1, topology="hex", rules="any", seed=0)
    with pytest.raises(GameError, match="square"):
        evf_bytes(hexed)
    wide = Game(rows=2, cols=300, mines=1, rules="any", seed=0)
    with pytest.raises(GameError, match="255"):
        evf_bytes(wide)
    with pytest.raises(GameError, match="one time per move"):
        won = Game(rows=1, cols=3, mines=1, rules="any", seed=5)
        won.reveal(0)
        evf_bytes(won, times=[0.0, 1.0])


def test_save_evf_names_files_in_a_directory(tmp_path: Path) -> None:
    game = Game(rows=1, cols=3, mines=1, rules="any", seed=5)
    game.reveal(0)
    first = save_evf(game, tmp_path)
    second = save_evf(game, tmp_path)
    assert os.path.basename(first) == replay_name(game) and first != second
    assert review(first).outcome == review(second).outcome == "won"
    named = save_evf(game, tmp_path / "mine.evf")
    assert Path(named).read_bytes() == Path(first).read_bytes()


# ---------------------------------------------------------------------- the terminal game
@pytest.mark.serial
def test_the_terminal_game_records_finished_games(tmp_path: Path) -> None:
    pytest.importorskip("textual")
    from minegraph.play.tui import PlayApp
    game = Game(rows=1, cols=3, mines=1, rules="any", seed=5)     # 0 1 M: one click wins
    app = PlayApp(game, seed=5, record=str(tmp_path))

    async def go() -> None:
        async with app.run_test(size=(110, 32)) as pilot:
            await pilot.pause()
            await pilot.press("w")                                # not over: nothing written
            await pilot.pause()
            assert not list(tmp_path.iterdir())
            assert "not over" in str(app.query_one("#message").render())
            app.uncover(0)
            await pilot.pause()
            assert game.status == "won"
            files = list(tmp_path.iterdir())
            assert len(files) == 1 and str(files[0]) in str(app.query_one("#message").render())
            # Issue 34: w wrote a byte-identical "(2).evf"; it names the file written instead.
            await pilot.press("w")
            await pilot.pause()
            assert list(tmp_path.iterdir()) == files
            said = str(app.query_one("#message").render())
            assert said.startswith("Already saved: ") and str(files[0]) in said
    asyncio.run(go())
    r = review(next(tmp_path.iterdir()))
    assert r.outcome == "won" and [c.cell for c in r.clicks] == [(0, 0)]


@pytest.mark.serial
def test_the_review_command_the_terminal_game_suggests_can_be_pasted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 34: "minegraph review 1x3_won_...(2).evf" is a shell syntax error; the path is
    # quoted. A folder with a space, parentheses and a quote, and w without --record (the
    # current directory), once per finished game: a new game is written anew.
    pytest.importorskip("textual")
    import shlex
    from minegraph.cli import main
    from minegraph.play.tui import PlayApp
    folder = tmp_path / "my games (it's 1)"
    folder.mkdir()
    monkeypatch.chdir(folder)
    app = PlayApp(Game(rows=1, cols=3, mines=1, rules="any", seed=5), seed=5)

    async def go() -> list[str]:
        said = []
        async with app.run_test(size=(110, 32)) as pilot:
            await pilot.pause()
            for _ in range(2):
                app.uncover(0)
                await pilot.pause()
                for _ in range(2):
                    await pilot.press("w")
                    await pilot.pause()
                    said.append(str(app.query_one("#message").render()))
                app.new_game()
                app.game.layout = frozenset({2})
                await pilot.pause()
        return said
    said = asyncio.run(go())
    files = sorted(os.listdir(folder))
    assert len(files) == 2 and any(name.endswith("(2).evf") for name in files)
    assert said[0].startswith("Replay written: ") and said[1].startswith("Already saved: ")
    assert said[2].startswith("Replay written: ") and said[3].startswith("Already saved: ")
    for text in said:
        command = shlex.split(text[text.index("(minegraph review ") + 1:-1])
        assert command[:2] == ["minegraph", "review"] and len(command) == 3
        assert os.path.isfile(command[2])
        assert main(command[1:], out=io.StringIO()) == 0


# ---------------------------------------------------------------------- the web API
def test_the_web_api_gives_the_replay_of_a_finished_game_only() -> None:
    pytest.importorskip("fastapi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from minegraph.web import create_app
    with TestClient(create_app()) as client:
        game = client.post("/api/game", json={"size": "beginner", "rules": "modern"}).json()
        url = f"/api/game/{game['id']}/replay.evf"
        assert client.get(url).status_code == 409 and "error" in client.get(url).json()
        assert client.get("/api/game/nope/replay.evf").status_code == 404
        # Play to the end through the API with the seed's own game alongside.
        state = client.post(f"/api/game/{game['id']}/move",
                            json={"action": "reveal", "cell": [4, 4]}).json()
        assert state["seed"] is None                               # still secret
        assert client.get(url).status_code == 409
        done = client.post(f"/api/game/{game['id']}/solver", json={"steps": None}).json()
        assert done["status"] in ("won", "lost")
        answer = client.get(url)
        assert answer.status_code == 200
        assert answer.headers["content-type"] == "application/octet-stream"
        assert ".evf" in answer.headers["content-disposition"]
        r = review_bytes(answer.content, "evf")
        assert r.outcome == done["status"] and r.bbbv == done["bbbv"]
        mines = {tuple(m) for m in done["mines_at"]}
        assert {divmod(c, 9) for c in r.layout} == mines
        hexed = client.post("/api/game", json={"rows": 2, "cols": 2, "mines": 0,
                                               "topology": "hex"}).json()
        client.post(f"/api/game/{hexed['id']}/move", json={"action": "reveal", "cell": [0, 0]})
        bad = client.get(f"/api/game/{hexed['id']}/replay.evf")
        assert bad.status_code == 422 and "square" in bad.json()["error"]
