"""Reviewing replays: exact probabilities per click against brute force, ms_toollib's own
statistics, files written by ms_toollib's ``BaseVideo`` (the independent writer), damaged
files, the size limit, the command line and the speed on an Expert game."""

from __future__ import annotations

import io
import json
import random
import xml.etree.ElementTree as ET
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

ms_toollib = pytest.importorskip("ms_toollib")

import minegraph
from minegraph.analysis import analyze
from minegraph.board import HIDDEN, Board
from minegraph.cli import main
from minegraph.errors import FormatError, LimitError, MinegraphError
from minegraph.play.game import Game, Move
from minegraph.play.record import evf_bytes
from minegraph.play.review import (MAX_REPLAY_BYTES, Review, review, review_bytes, three_bv)

from played import play, play_to_a_fatal_chord, toollib_replay



def brute(board: Board) -> tuple[int, dict[int, int], list[tuple[int, ...]]]:
    """Every layout consistent with the numbers shown and the total: its count, the layouts
    with a mine on each hidden cell, and the layouts (independent of minegraph's engines)."""
    hidden = [i for i, s in enumerate(board.states) if s == HIDDEN]
    shown = [(i, s) for i, s in enumerate(board.states) if s >= 0]
    assert board.mines is not None
    layouts = []
    for mines in combinations(hidden, board.mines):
        chosen = set(mines)
        if all(sum(q in chosen for q in board.neighbors[i]) == s for i, s in shown):
            layouts.append(mines)
    per = {i: sum(i in m for m in layouts) for i in hidden}
    return len(layouts), per, layouts


# ---------------------------------------------------------------------- exact per click
@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("writer", ["toollib", "minegraph"])
def test_every_click_against_brute_force(seed: int, writer: str) -> None:
    rng = random.Random(seed)
    game = play(Game(rows=4, cols=5, mines=4, rules="classic", seed=seed), rng,
                guess_rate=0.3)
    data = toollib_replay(game) if writer == "toollib" else evf_bytes(game)
    r = review_bytes(data, "evf")
    uncovering = [m for m in game.moves if m.action != "flag"]
    assert [c.cell for c in r.timeline] == [divmod(m.cell, 5) for m in uncovering]
    assert [c.kind for c in r.timeline] == \
        ["left" if m.action == "reveal" else "chord" for m in uncovering]
    # The flags standing before each uncovering move (a chord spares flagged cells).
    flags: set[int] = set()
    standing = []
    for m in game.moves:
        if m.action == "flag":
            flags ^= {m.cell}
        else:
            standing.append(set(flags))
    luck = Fraction(1)
    for k, click in enumerate(r.timeline):
        count, per, layouts = brute(click.board)
        assert count > 0
        cell = click.cell[0] * 5 + click.cell[1]
        if click.first:
            assert k == 0 and click.probability == Fraction(4, 20)
            assert not click.guess and not click.avoidable
            continue
        if click.kind == "left":
            expected = Fraction(per[cell], count)
        else:
            at_risk = {q for q in game.neighbors[cell]
                       if click.board.states[q] == HIDDEN and q not in standing[k]}
            expected = Fraction(sum(1 for m in layouts if set(m) & at_risk), count)
        assert click.probability == expected
        assert click.safe_available == any(n == 0 for n in per.values())
        assert click.best is not None and click.best_probability is not None
        best = click.best[0] * 5 + click.best[1]
        assert click.best_probability == Fraction(per[best], count) == min(
            Fraction(n, count) for n in per.values())
        if click.probability > 0:
            luck *= 1 - click.probability
    assert r.luck == luck
    assert r.outcome == game.status


def test_a_hand_checked_game() -> None:
    # 1 M 1 0: the first click at the right opens 0 and 1; the left cell is then safe.
    game = Game(rows=1, cols=4, mines=1, rules="any", seed=1)
    assert game.layout == {1}
    game.reveal(3)
    game.reveal(0)
    r = review_bytes(evf_bytes(game, times=[0.0, 1.25]), "evf")
    first, second = r.clicks
    assert (first.cell, first.probability, first.first, first.safe_available) == \
        ((0, 3), Fraction(1, 4), True, False)
    assert (second.cell, second.probability, second.safe_available, second.best) == \
        ((0, 0), 0, True, (0, 0))
    assert second.since_previous == pytest.approx(1.25)
    assert r.luck == 1 and r.guesses == [] and r.avoidable == []
    assert (r.bbbv, r.bbbv_solved, r.outcome) == (2, 2, "won")


def test_an_avoidable_guess_and_a_fatal_one() -> None:
    # M 1 1 1      every safe cell is a 1. By hand: after the first click (0,2) shows 1, one
    # 1 1 1 M      mine is among its 5 covered neighbours (each 1/5) and, the total being 2,
    #              the other among (0,0) and (1,0) (each 1/2). (1,0) then shows 1 too: with
    #              the total, (0,0) is certainly a mine, and (0,1), (1,1) certainly safe.
    game = Game(rows=2, cols=4, mines=2, rules="any", seed=0)
    game.layout = frozenset({0, 7})
    game.reveal((0, 2))
    game.reveal((1, 0))     # a forced guess: 1/2
    game.reveal((0, 0))     # a proven mine, with safe cells about: lost
    assert game.status == "lost"
    r = review_bytes(evf_bytes(game), "evf")
    assert r.outcome == "lost"
    a, b, c = r.clicks
    assert a.first and a.probability == Fraction(2, 8)
    assert b.probability == Fraction(1, 2) and b.guess and not b.safe_available
    assert c.probability == 1 and c.exploded and c.avoidable and c.best in ((0, 1), (1, 1))
    count, per, _ = brute(c.board)
    assert c.probability == Fraction(per[0], count)
    assert r.luck == 0 and r.avoidable_cost == 1


# ---------------------------------------------------------------------- ms_toollib's figures
@pytest.mark.parametrize("seed", range(8))
def test_figures_equal_ms_toollib(seed: int) -> None:
    rng = random.Random(100 + seed)
    game = play(Game("beginner", rules="classic", seed=seed), rng, guess_rate=0.2)
    data = toollib_replay(game)
    r = review_bytes(data, "evf")
    v = ms_toollib.EvfVideo(raw_data=list(data))
    v.parse()
    v.analyse()
    v.current_time = 1e9
    assert game.layout is not None
    numbered = ms_toollib.cal_board_numbers(
        [[-1 if (i * 9 + j) in game.layout else 0 for j in range(9)] for i in range(9)])
    assert r.bbbv == v.bbbv == ms_toollib.cal_bbbv(numbered) == game.three_bv()
    assert r.bbbv_solved == v.bbbv_solved
    assert r.counts == {"left": v.left, "right": v.right, "chord": v.double, "total": v.cl,
                        "effective": v.ce}
    assert r.efficiency == pytest.approx(v.ioe)
    if r.time > 0:
        assert r.bbbv_per_second == pytest.approx(v.bbbv_s)
    assert (r.outcome == "won") == bool(v.is_completed)


def _fatal_chord_games(count: int) -> list[Game]:
    games = []
    seed = 0
    while len(games) < count:
        game = play_to_a_fatal_chord(Game("beginner", rules="classic", seed=seed), random.Random(seed))
        if game is not None and game.status == "lost":
            games.append(game)
        seed += 1
    return games


def test_a_chord_that_hits_a_mine_solves_what_ms_toollib_says() -> None:
    # A fatal chord can leave an opening part-uncovered (the flood stops with the game) and
    # the wrong flags that allowed it are shown as such, not uncovered. 3BV solved follows
    # ms_toollib (docs/review.md): an opening is solved once every one of its zeros is
    # uncovered; so do 3BV/s and efficiency, which divide it.
    games = _fatal_chord_games(30)
    partial = 0
    for game in games:
        data = toollib_replay(game)
        r = review_bytes(data, "evf")
        v = ms_toollib.EvfVideo(raw_data=list(data))
        v.parse()
        v.analyse()
        v.current_time = 1e9
        fatal = r.timeline[-1]
        assert fatal.kind == "chord" and fatal.exploded and r.outcome == "lost"
        assert r.bbbv_solved == v.bbbv_solved
        assert r.efficiency == pytest.approx(v.ioe)
        if r.time > 0:
            assert r.bbbv_per_second == pytest.approx(v.bbbv_s)
        # Every cell the review says a click uncovered is a safe cell shown as a number.
        assert all(divmod(q, 9) not in {c for click in r.timeline for c in click.uncovered}
                   for q in game.flags)
        before = {q for click in r.timeline[:-1] for q in click.uncovered}
        partial += three_bv(game.neighbors, game.layout, {a * 9 + b for a, b in before})[1] < r.bbbv_solved
    assert partial > 0      # some of these chords did solve something, so the rule was exercised


def test_three_bv_equals_the_game() -> None:
    for seed in range(20):
        game = Game("expert", rules="classic", seed=seed)
        game.reveal(seed)
        assert game.layout is not None
        assert three_bv(game.neighbors, game.layout)[0] == game.three_bv()


# ---------------------------------------------------------------------- output
def _reviewed(seed: int = 3) -> tuple[Game, Review]:
    game = play(Game("beginner", rules="classic", seed=seed), random.Random(seed), guess_rate=0.5)
    return game, review_bytes(evf_bytes(game), "evf")


def test_json_contract() -> None:
    game, r = _reviewed()
    obj = json.loads(json.dumps(r.to_json()))
    for key in ("rows", "cols", "mines", "bbbv", "luck", "clicks"):
        assert key in obj
    assert (obj["rows"], obj["cols"], obj["mines"]) == (9, 9, 10)
    reveals = [m for m in game.moves if m.action == "reveal"]
    assert [c["cell"] for c in obj["clicks"]] == [list(divmod(m.cell, 9)) for m in reveals]
    for entry, click in zip(obj["clicks"], r.clicks):
        assert isinstance(entry["probability"], float)
        assert entry["probability"] == float(click.probability)
        assert Fraction(entry["probability_exact"]) == click.probability
        assert isinstance(entry["safe_available"], bool)
    assert obj["luck"] == float(r.luck) and Fraction(obj["luck_exact"]) == r.luck


def test_svg_timeline_is_well_formed() -> None:
    _, r = _reviewed()
    root = ET.fromstring(r.svg())
    bars = [e for e in root.iter("{http://www.w3.org/2000/svg}rect") if e.find(
        "{http://www.w3.org/2000/svg}title") is not None]
    assert len(bars) == len(r.clicks) + len(r.chords)


def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game, r = _reviewed()
    path = tmp_path / "game.evf"
    path.write_bytes(evf_bytes(game))
    out = io.StringIO()
    assert main(["review", str(path), "--svg", str(tmp_path / "t.svg")], out=out) == 0
    text = out.getvalue()
    assert f"3BV: {r.bbbv}" in text and "luck:" in text
    assert (tmp_path / "t.svg").read_text().startswith("<svg")
    out = io.StringIO()
    assert main(["review", "--json", str(path)], out=out) == 0
    assert json.loads(out.getvalue())["bbbv"] == r.bbbv
    assert minegraph.review(path).bbbv == r.bbbv


# ---------------------------------------------------------------------- damaged files, limits
def _one_line_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    status = main(argv, out=io.StringIO())
    err = capsys.readouterr().err
    assert status == 2, err
    assert err.count("\n") == 1 and err.startswith("minegraph: error: ") and "Traceback" not in err
    return err


@pytest.mark.parametrize("fmt", ["evf", "avf", "rmv", "mvf"])
def test_damaged_files_are_one_line(tmp_path: Path, fmt: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    game, _ = _reviewed(5)
    data = evf_bytes(game) if fmt == "evf" else bytes(range(256)) * 3
    rng = random.Random(fmt)
    damaged = [data[:rng.randrange(1, len(data))] for _ in range(4)] + [b"", b"\0" * 40]
    for _ in range(4):
        flipped = bytearray(data)
        for _ in range(3):
            k = rng.randrange(len(flipped))
            flipped[k] ^= 1 << rng.randrange(8)
        damaged.append(bytes(flipped))
    for k, blob in enumerate(damaged):
        path = tmp_path / f"d{k}.{fmt}"
        path.write_bytes(blob)
        try:
            review(path)
        except MinegraphError:
            _one_line_error(["review", str(path)], capsys)
        # (a flipped bit may leave a readable replay: then it is reviewed)


def test_a_file_over_the_limit_is_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "huge.evf"
    with open(path, "wb") as f:
        f.truncate(100 * 1024 * 1024)            # sparse: nothing to read quickly
    import builtins
    real_open = builtins.open

    def no_reading_the_big_file(file: object, *args: object, **kwargs: object) -> object:
        assert str(file) != str(path), "the file over the limit was opened"
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    with monkeypatch.context() as m:
        m.setattr(builtins, "open", no_reading_the_big_file)
        with pytest.raises(LimitError, match="limited to"):
            review(path)
    assert "limited to" in _one_line_error(["review", str(path)], capsys)
    with pytest.raises(LimitError):
        review_bytes(b"\0" * (MAX_REPLAY_BYTES + 1), "evf")


def test_other_files_and_missing_ones(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    assert "not a replay file" in _one_line_error(["review", str(tmp_path / "notes.txt")], capsys)
    assert "cannot read" in _one_line_error(["review", str(tmp_path / "gone.avf")], capsys)
    with pytest.raises(FormatError):
        review_bytes(b"x", "mp4")


def test_without_ms_toollib(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.util
    path = tmp_path / "g.evf"
    path.write_bytes(evf_bytes(_reviewed()[0]))
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "ms_toollib" else real(name, *a))
    says = ("reading replays needs ms_toollib: pip install 'ms_toollib>=1.5' (from a minegraph "
            "checkout: pip install '.[replays]')")
    with pytest.raises(MinegraphError) as info:
        review(path)
    assert str(info.value) == says
    assert says in _one_line_error(["review", str(path)], capsys)


# ---------------------------------------------------------------------- speed
def _expert_game() -> Game:
    """An Expert game won by clicking safe cells one at a time, numbers before zeros (the
    safest cell when none is safe): some 300 uncovering clicks."""
    for seed in range(50):
        game = Game("expert", rules="modern", seed=seed)
        game.reveal((8, 15))
        while game.status == "playing":
            a = analyze(game.board())
            safe = sorted((game.number(game.index(c)) == 0, c) for c in a.safe)
            game.reveal(safe[0][1] if safe else a.best)
        if game.status == "won":
            return game
    raise AssertionError("no Expert game won in 50 seeds")


def test_an_expert_replay_of_300_clicks_is_reviewed_incrementally() -> None:
    # Speed is measured in bench/bench_review.py, not asserted here (a busy machine would
    # decide it); this checks the replay behind that figure is the size the issue names.
    game = _expert_game()
    r = review_bytes(evf_bytes(game), "evf")
    assert len(r.clicks) >= 250


def test_svg_title_counts_and_a_fatal_avoidable_click_shows_both_marks() -> None:
    # 1 M 1 0: after the first click at the right, (0,0) is certainly safe and (0,1) certainly
    # a mine; clicking (0,1) is the game's one guess, avoidable, and fatal.
    game = Game(rows=1, cols=4, mines=1, rules="any", seed=1)
    assert game.layout == {1}
    game.reveal(3)
    game.reveal(1)
    r = review_bytes(evf_bytes(game, times=[0.0, 1.0]), "evf")
    (_, fatal), = [(c.number, c) for c in r.clicks if c.exploded]
    assert fatal.avoidable and fatal.probability == 1 and len(r.guesses) == 1
    ns = "{http://www.w3.org/2000/svg}"
    root = ET.fromstring(r.svg())
    heading = [t.text for t in root.iter(f"{ns}text") if t.text and t.text.startswith(r.name)]
    assert heading == [f"{r.name}: lost, 2 clicks, 0 chords, 1 guess, luck 0%"]
    rings = [e for e in root.iter(f"{ns}circle") if e.get("class") == "avoidable"]
    crosses = [e for e in root.iter(f"{ns}path") if e.get("class") == "hit"]
    assert len(rings) == len(crosses) == 1
    ring, cross = rings[0], crosses[0]
    # The ring's box and the cross's box (its path: a move, then two 8-pixel strokes).
    cx, cy, radius = (float(ring.get(k) or "nan") for k in ("cx", "cy", "r"))
    start = (cross.get("d") or "").split()[0]
    x0, y0 = (float(v) for v in start[1:].split(","))
    ring_box = (cx - radius, cy - radius, cx + radius, cy + radius)
    cross_box = (x0, y0, x0 + 8, y0 + 8)
    assert ring_box[0] < cross_box[2] and cross_box[0] < ring_box[2]     # one click's column ...
    assert ring_box[3] < cross_box[1] or cross_box[3] < ring_box[1]      # ... on rows apart


def _strict_loads(text: str) -> object:
    """``json.loads`` that refuses ``NaN``, ``Infinity`` and ``-Infinity``, as strict parsers do."""
    def refuse(name: str) -> object:
        raise AssertionError(f"not strict JSON: {name}")
    return json.loads(text, parse_constant=refuse)


def test_a_one_click_win_reviews_to_strict_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A mine in a corner and a click in the opposite one: the opening uncovers every safe cell,
    # so the game is won in 0 s and every rate per second is undefined (ms_toollib's bbbv_s is inf).
    game = Game(rows=3, cols=3, mines=1, rules="any", seed=0)
    game.layout = frozenset({0})
    game.reveal((2, 2))
    assert game.status == "won"
    path = tmp_path / "one-click.evf"
    path.write_bytes(evf_bytes(game, times=[0.0]))
    assert main(["review", str(path), "--json"]) == 0
    obj = _strict_loads(capsys.readouterr().out)
    assert isinstance(obj, dict)
    assert (obj["outcome"], obj["time"], obj["bbbv"], obj["bbbv_solved"]) == ("won", 0.0, 1, 1)
    assert obj["bbbv_per_second"] is None and obj["ms_toollib"]["bbbv_s"] is None
    assert obj["efficiency"] == 1.0


# ---------------------------------------------------------------------- wrong flags
def _board_replay(grid: list[list[int]], moves: list[tuple[str, tuple[int, int]]]) -> bytes:
    """``moves`` on the layout ``grid`` (-1 a mine) stepped through ms_toollib's writer."""
    from played import PIX
    video = ms_toollib.BaseVideo(grid, PIX)
    steps = {"reveal": ["lc", "lr"], "flag": ["rc", "rr"], "chord": ["lc", "rc", "lr", "rr"]}
    for action, (r, c) in moves:
        for step in steps[action]:
            video.step(step, (r * PIX + PIX // 2, c * PIX + PIX // 2))
    video.generate_evf_v4_raw_data()
    return bytes(video.raw_data)


def _toollib_figures(data: bytes) -> tuple[int, int, float]:
    v = ms_toollib.EvfVideo(raw_data=list(data))
    v.parse()
    v.analyse()
    v.current_time = 1e9
    return v.bbbv, v.bbbv_solved, v.ioe


def test_a_wrong_flag_is_not_uncovered_by_the_fatal_click() -> None:
    # 0 0 0 1 1 1      the smallest case of issue 34: uncover (0,5) (a 1, next to no 0: one
    # 0 1 1 3 M 2      3BV), flag (1,0), a safe 0, then click the mine at (3,1). Only (0,5)
    # 1 2 M 3 M 3      was ever uncovered: 3BV solved 1 of 11, in 3 clicks (IOE 1/3); the
    # 1 M 2 2 2 M      fatal click uncovered nothing, the wrong flag stays covered.
    # 1 1 1 0 1 1
    grid = [[0, 0, 0, 1, 1, 1], [0, 1, 1, 3, -1, 2], [1, 2, -1, 3, -1, 3],
            [1, -1, 2, 2, 2, -1], [1, 1, 1, 0, 1, 1]]
    moves = [("reveal", (0, 5)), ("flag", (1, 0)), ("reveal", (3, 1))]
    game = Game(rows=5, cols=6, mines=5, rules="any", seed=0)
    game.layout = frozenset(r * 6 + c for r in range(5) for c in range(6) if grid[r][c] == -1)
    for action, cell in moves:
        getattr(game, action)(cell)
    assert game.status == "lost"
    for data in (_board_replay(grid, moves), evf_bytes(game)):
        r = review_bytes(data, "evf")
        assert r.outcome == "lost"
        first, fatal = r.clicks
        assert first.uncovered == ((0, 5),)
        assert fatal.cell == (3, 1) and fatal.exploded and fatal.uncovered == ()
        assert fatal.to_json()["uncovered"] == 0
        assert (r.bbbv, r.bbbv_solved) == (11, 1) == _toollib_figures(data)[:2]
        assert r.efficiency == pytest.approx(1 / 3) == _toollib_figures(data)[2]


def _play_with_wrong_flags(game: Game, rng: random.Random) -> Game:
    """Play to the end flagging covered cells at random (mines or not), chording, clicking
    safe cells and guessing."""
    game.reveal(rng.randrange(game.size))
    while game.status == "playing":
        covered = [c for c in range(game.size) if c not in game.uncovered and c not in game.flags]
        x = rng.random()
        if x < 0.3 and len(game.flags) < game.mine_count and len(covered) > 1:
            game.flag(rng.choice(covered))
            continue
        chordable = [c for c in sorted(game.uncovered) if game.is_legal(Move("chord", c))]
        if chordable and x < 0.45:
            game.chord(rng.choice(chordable))
            continue
        safe = [game.index(s) for s in analyze(game.board()).safe
                if game.index(s) not in game.flags]
        game.reveal(rng.choice(safe if safe and rng.random() < 0.8 else covered))
    return game


def _flood(neighbors: list[list[int]], numbers: list[int], layout: frozenset[int],
           shown: set[int], flags: set[int], start: list[int]) -> set[int]:
    """The safe cells uncovering ``start`` shows (from each 0 its unflagged neighbours),
    counted apart from minegraph's game and review."""
    out: set[int] = set()
    todo = [c for c in start if c not in layout]
    while todo:
        c = todo.pop()
        if c in out or c in shown or c in flags:
            continue
        out.add(c)
        if numbers[c] == 0:
            todo.extend(neighbors[c])
    return out


def test_games_lost_with_wrong_flags_equal_ms_toollib() -> None:
    lost = 0
    for seed in range(400):
        rows, cols, mines = 5 + seed % 4, 6 + seed % 5, 5 + seed % 4
        game = _play_with_wrong_flags(Game(rows=rows, cols=cols, mines=mines, rules="classic",
                                           seed=seed), random.Random(seed))
        assert game.layout is not None
        if game.status != "lost" or game.flags <= game.layout:
            continue
        lost += 1
        if lost > 40:
            break
        layout = game.layout
        neighbors = [list(n) for n in game.neighbors]
        numbers = [sum(q in layout for q in neighbors[c]) for c in range(game.size)]
        # The cells each uncovering move shows, counted independently.
        shown: set[int] = set()
        flags: set[int] = set()
        expected = []
        for move in game.moves:
            if move.action == "flag":
                flags ^= {move.cell}
                continue
            start = [move.cell] if move.action == "reveal" else \
                [q for q in neighbors[move.cell] if q not in shown and q not in flags]
            opened = _flood(neighbors, numbers, layout, shown, flags, start)
            fatal = any(q in layout for q in start)
            if fatal and move.action == "reveal":
                opened = set()
            expected.append((divmod(move.cell, cols), opened, fatal))
            shown |= opened
        writer = toollib_replay(game) if lost % 2 else evf_bytes(game)
        r = review_bytes(writer, "evf")
        assert r.outcome == "lost"
        assert len(r.timeline) == len(expected)
        for click, (cell, opened, fatal) in zip(r.timeline, expected):
            assert click.cell == cell and click.exploded == fatal
            assert {q[0] * cols + q[1] for q in click.uncovered} == opened, (seed, cell)
        bbbv, solved, ioe = _toollib_figures(writer)
        assert (r.bbbv, r.bbbv_solved) == (bbbv, solved), seed
        assert r.efficiency == pytest.approx(ioe), seed
        if r.time > 0:
            assert r.bbbv_per_second == pytest.approx(solved / r.time)
    assert lost > 40


# ---------------------------------------------------------------------- hand-made readings
# The review built from hand-made readings (what the reader process hands back: the board
# with -1 on mines, the uncovering events with the game board before and after as
# ms_toollib's values, the figures), so every rule of _build is checked on positions worked
# out by hand, without a replay file or a child process (issue 36's mutation testing).
#
# The board, 2 x 3 with one mine on (1, 2):     numbers   0 1 1
#                                                         0 1 *
# 10 is a covered cell, 11 a flag; the events' boards are coded chr(65 + value).

from minegraph.play import review as review_module  # noqa: E402

_GRID = [[0, 1, 1], [0, 1, -1]]
_C, _F = review_module.TOOLLIB_COVERED, review_module.TOOLLIB_FLAGGED


def _code(values: list[int]) -> str:
    return "".join(chr(review_module.CODE_BASE + v) for v in values)


def _event(t: float, cell: int, before: list[int], after: list[int]) -> list[object]:
    return [t, 3, "lc", cell // 3, cell % 3, _code(before), _code(after)]


def _reading(*events: list[object], **changes: object) -> dict[str, object]:
    raw: dict[str, object] = {"rows": 2, "cols": 3, "mines": 1, "board": _GRID,
                              "events": list(events),
                              "stats": {"rtime": 2.5, "left": 2, "right": 1, "double": 1, "cl": 4,
                                        "ce": 3, "ioe": float("inf")},
                              "meta": {"software": "hand", "player_identifier": "me"}}
    raw.update(changes)
    return raw


_START = [_C] * 6
_OPENED = [0, 1, _C, 0, 1, _C]          # after clicking (0,0): its opening, 2 and 5 covered


def test_a_hand_worked_game_won_with_a_guess() -> None:
    r = review_module._build(_reading(
        _event(0.25, 0, _START, _OPENED),
        _event(1.5, 2, _OPENED, [0, 1, 1, 0, 1, _C])), "evf", "g.evf")
    first, second = r.clicks
    # The first click on an untouched board: 1 mine in 6 cells, any cell alike.
    assert (first.number, first.kind, first.cell, first.first) == (1, "left", (0, 0), True)
    assert first.probability == Fraction(1, 6) and first.best == (0, 0)
    assert first.best_probability == Fraction(1, 6) and not first.safe_available
    assert first.since_previous is None and first.time == 0.25 and not first.guess
    assert sorted(first.uncovered) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    # Then (0,2) or (1,2) holds the mine, one chance in two, nothing certainly safe.
    assert second.probability == Fraction(1, 2) and second.guess and not second.avoidable
    assert not second.safe_available and second.best_probability == Fraction(1, 2)
    assert second.since_previous == 1.25 and second.uncovered == ((0, 2),)
    assert second.at_risk == (2,) and not second.exploded
    assert (r.outcome, r.bbbv, r.bbbv_solved, r.luck) == ("won", 2, 2, Fraction(1, 2))
    assert r.rows == 2 and r.cols == 3 and r.mines == 1 and r.layout == {5}
    assert (r.name, r.format, r.time, r.software, r.player) == ("g.evf", "evf", 2.5, "hand", "me")
    assert r.counts == {"left": 2, "right": 1, "chord": 1, "total": 4, "effective": 3}
    assert r.chords == () and r.toollib["cl"] == 4


def test_a_hand_worked_game_lost_stops_at_the_mine() -> None:
    shown = [0, 1, _C, 0, 1, 14]        # ms_toollib shows the mine at the end
    r = review_module._build(_reading(
        _event(0.0, 0, _START, _OPENED),
        _event(1.0, 5, _OPENED, shown),
        _event(2.0, 2, shown, [0, 1, 1, 0, 1, 14])), "avf", "g.avf")
    assert [c.cell for c in r.clicks] == [(0, 0), (1, 2)]       # nothing after the mine
    assert r.clicks[1].exploded and r.clicks[1].uncovered == ()
    assert r.clicks[1].probability == Fraction(1, 2)
    assert (r.outcome, r.bbbv, r.bbbv_solved) == ("lost", 2, 1)


def test_a_hand_worked_chord_risks_every_cell_it_uncovers() -> None:
    # First click on the 1 at (0,1): only it opens. A flag on (1,2), then a chord on (0,1)
    # uncovers (0,0), (0,2), (1,0), (1,1): of the five places for the mine the chord is safe
    # only in one (under the flag), so it risks 4/5.
    one = [_C, 1, _C, _C, _C, _C]
    flagged = [_C, 1, _C, _C, _C, _F]
    r = review_module._build(_reading(
        _event(0.0, 1, _START, one),
        _event(3.0, 1, flagged, [0, 1, 1, 0, 1, _F])), "rmv", "g.rmv")
    (click,), (chord,) = r.clicks, r.chords
    assert click.probability == Fraction(1, 6) and click.uncovered == ((0, 1),)
    assert chord.kind == "chord" and chord.number == 2 and chord.cell == (0, 1)
    assert chord.at_risk == (0, 2, 3, 4) and chord.probability == Fraction(4, 5)
    assert len(chord.uncovered) == 4 and r.outcome == "won"
    assert [c.number for c in r.timeline] == [1, 2] and r.guesses == [chord]


def test_an_unfinished_game_and_a_safe_cell_passed_over() -> None:
    # A game that stops after (0,0), (0,2) and (1,2) still open, is unfinished.
    r = review_module._build(_reading(_event(0.0, 0, _START, _OPENED)), "mvf", "g.mvf")
    assert r.outcome == "unfinished" and r.bbbv_solved == 1 and r.luck == 1
    # 1 x 4 with the mine on the right: 0 0 1 *. After the 1 at (0,2), one of (0,1) and (0,3)
    # holds the only mine, so (0,0) is certainly safe: clicking (0,1), a half chance, is an
    # avoidable guess.
    raw = {"rows": 1, "cols": 4, "mines": 1, "board": [[0, 0, 1, -1]],
           "events": [[0.0, 3, "lc", 0, 2, _code([_C] * 4), _code([_C, _C, 1, _C])],
                      [1.0, 3, "lc", 0, 1, _code([_C, _C, 1, _C]), _code([0, 0, 1, _C])]]}
    r = review_module._build(raw, "evf", "h.evf")
    second = r.clicks[1]
    assert second.probability == Fraction(1, 2) and second.safe_available and second.avoidable
    assert second.best == (0, 0) and second.best_probability == 0
    assert r.avoidable == [second] and r.avoidable_cost == Fraction(1, 2)
    assert r.outcome == "won" and r.time == 0.0 and r.software == "" and r.player == ""
    assert r.counts == {"left": 0, "right": 0, "chord": 0, "total": 0, "effective": 0}


@pytest.mark.parametrize(("changes", "message"), [
    ({"rows": "2"}, "g.evf: not a readable replay (a bad field)"),
    ({"cols": True}, "g.evf: not a readable replay (a bad field)"),
    ({"mines": None}, "g.evf: not a readable replay (a bad field)"),
    ({"board": [[0, 1, 1]]}, "g.evf: not a readable .evf replay (no board)"),
    ({"board": [[0, 1, 1], [0, 1]]}, "g.evf: not a readable .evf replay (no board)"),
    ({"board": "0"}, "g.evf: not a readable .evf replay (no board)"),
    ({"board": [[0, 1, 1], (0, 1, -1)]}, "g.evf: not a readable .evf replay (no board)"),
    ({"mines": 2}, "g.evf: the board holds 1 mines, the file says 2"),
    ({"events": [[0.0, 3, "lc", 0, 0, "KKKKKK"]]}, "g.evf: not a readable .evf replay (a bad event)"),
    ({"events": [["soon", 3, "lc", 0, 0, "KKKKKK", "AKKKKK"]]},
     "g.evf: not a readable .evf replay (a bad event)"),
    ({"events": [[0.0, 3, "lc", 2, 0, "KKKKKK", "AKKKKK"]]},
     "g.evf: not a readable .evf replay (a bad event)"),
    ({"events": [[0.0, 3, "lc", 0, 3, "KKKKKK", "AKKKKK"]]},
     "g.evf: not a readable .evf replay (a bad event)"),
    ({"events": [[0.0, 3, "lc", -1, 0, "KKKKKK", "AKKKKK"]]},
     "g.evf: not a readable .evf replay (a bad event)"),
    ({"events": [[0.0, 3, "lc", 0, -1, "KKKKKK", "AKKKKK"]]},
     "g.evf: not a readable .evf replay (a bad event)"),
    ({"events": [[0.0, 3, "lc", 0, 0, "KKKKK", "AKKKKK"]]},
     "g.evf: not a readable .evf replay (a bad event)"),
    ({"events": [[0.0, 3, "lc", 0, 0, "KKKKKK", "AKKKK"]]},
     "g.evf: not a readable .evf replay (a bad event)"),
    ({"events": [[0.0, 3, "lc", 0, 0, ["K"] * 6, "AKKKKK"]]},
     "g.evf: not a readable .evf replay (a bad event)"),
    ({"events": [[0.0, 3, "lc", 0.0, 0, "KKKKKK", "AKKKKK"]]},
     "g.evf: not a readable .evf replay (a bad event)"),
    # A number the layout contradicts (a 2 where the board has 1), and one on the mine.
    ({"events": [[0.0, 3, "lc", 0, 0, "KCKKKK", "ACKKKK"]]},
     "g.evf: the replay shows 2 at (0, 1), which its board contradicts"),
    ({"events": [[0.0, 3, "lc", 0, 0, "KKKKKB", "AKKKKB"]]},
     "g.evf: the replay shows 1 at (1, 2), which its board contradicts"),
])
def test_damaged_readings_are_refused_naming_what_is_wrong(changes: dict[str, object],
                                                           message: str) -> None:
    with pytest.raises(FormatError) as caught:
        review_module._build(_reading(**changes), "evf", "g.evf")
    assert str(caught.value) == message


def test_events_that_uncover_nothing_are_skipped() -> None:
    # A flag (covered to flagged) and a click on an uncovered number: nothing opens.
    r = review_module._build(_reading(
        _event(0.0, 0, _START, _OPENED),
        _event(0.5, 5, _OPENED, [0, 1, _C, 0, 1, _F]),
        _event(0.7, 1, [0, 1, _C, 0, 1, _F], [0, 1, _C, 0, 1, _F])), "evf", "g.evf")
    assert len(r.timeline) == 1 and r.outcome == "unfinished"


def test_the_figures_of_a_hand_made_review() -> None:
    from minegraph.board import Board as _Board
    board = _Board.from_text("###\n###")

    def click(number: int, kind: str, p: Fraction, safe: bool, first: bool = False) -> review_module.Click:
        return review_module.Click(number, kind, (0, number % 3), 0.5 * number, None if first else 0.5,
                                   board, p, safe, (0, 0), Fraction(0), first, ((0, 0),))

    c1, c2 = click(1, "left", Fraction(1, 6), False, first=True), click(2, "left", Fraction(1, 3), True)
    c3, c4 = click(3, "chord", Fraction(1, 4), False), click(4, "left", Fraction(0), True)
    r = Review(name="x.evf", format="evf", rows=2, cols=3, mines=1, layout=frozenset({5}),
               clicks=(c1, c2, c4), chords=(c3,), outcome="won", time=4.0, bbbv=3, bbbv_solved=3,
               counts={"left": 3, "right": 0, "chord": 1, "total": 5, "effective": 4},
               toollib={"bbbv": 3, "ioe": float("inf")})
    assert r.timeline == [c1, c2, c3, c4] and r.guesses == [c2, c3] and r.avoidable == [c2]
    assert r.luck == Fraction(2, 3) * Fraction(3, 4) and r.avoidable_cost == Fraction(1, 3)
    assert [r.label(c) for c in r.timeline] == ["safe", "avoidable", "guess", "safe"]
    assert r.bbbv_per_second == 0.75 and r.efficiency == 0.6 and r.win_probability_lost is None
    data = r.to_json()
    assert data["labels"] == {"safe": 2, "avoidable": 1, "best": 0, "inferior": 0, "guess": 1}
    assert (data["luck"], data["luck_exact"], data["guesses"]) == (0.5, "1/2", 2)
    assert data["avoidable"] == [{"number": 2, "kind": "left", "cell": [0, 2],
                                  "probability": 1 / 3, "probability_exact": "1/3", "best": [0, 0]}]
    assert data["avoidable_cost"] == 1 / 3 and data["ms_toollib"] == {"bbbv": 3, "ioe": None}
    assert (data["bbbv_per_second"], data["efficiency"], data["win_probability_lost"]) == (0.75, 0.6, None)
    assert [c["number"] for c in data["clicks"]] == [1, 2, 4] and data["chords"][0]["kind"] == "chord"
    second = data["clicks"][1]
    assert second["label"] == "avoidable" and second["guess"] and second["avoidable"]
    assert second["win_probability"] is None and second["win_probability_exact"] is False
    assert (second["time"], second["since_previous"], second["uncovered"]) == (1.0, 0.5, 1)
    assert data["clicks"][0]["since_previous"] is None
    # No time, no clicks: no rate.
    idle = Review(name="y", format="evf", rows=1, cols=1, mines=0, layout=frozenset(), clicks=(),
                  chords=(), outcome="won", time=0.0, bbbv=1, bbbv_solved=1, counts={})
    assert idle.bbbv_per_second is None and idle.efficiency is None and idle.luck == 1
    assert idle.to_json()["bbbv_per_second"] is None and idle.to_json()["efficiency"] is None


def test_the_json_of_a_hand_made_review_field_by_field() -> None:
    from minegraph.board import Board as _Board
    from minegraph.play.coach import Alternative, Verdict
    from minegraph.play.figures import figures
    from minegraph.play.review_report import render_review
    board = _Board.from_text("###\n###")
    tiny = Fraction(1, 10 ** 120 + 7)           # 121 digits: shortened unless written in full
    c1 = review_module.Click(1, "left", (0, 0), 0.12345, None, board, Fraction(1, 6), False,
                             (0, 0), Fraction(1, 6), True, ((0, 0), (0, 1)))
    c2 = review_module.Click(2, "left", (0, 2), 1.23456, 1.11111, board, tiny, True, None, None)
    c3 = review_module.Click(3, "chord", (1, 1), 2.0, 0.76544, board, Fraction(1, 2), False,
                             (1, 0), Fraction(1, 3), False, ((1, 2),), True, (5,))
    verdict = Verdict("inferior", Fraction(1, 4), Fraction(1, 3), True, (3,), None,
                      (Alternative((5,), Fraction(1, 2), None, Fraction(1, 4)),))
    r = Review(name="m.evf", format="evf", rows=2, cols=3, mines=1, layout=frozenset({5}),
               clicks=(c1, c2), chords=(c3,), outcome="lost", time=3.0, bbbv=3, bbbv_solved=1,
               counts={"left": 2, "right": 0, "chord": 1, "total": 3, "effective": 3},
               software="Meta", player="P", toollib={"bbbv": 3}, verdicts={3: verdict})
    assert c2.to_json() == {
        "number": 2, "kind": "left", "cell": [0, 2], "time": 1.235, "since_previous": 1.111,
        "probability": float(tiny), "probability_exact": f"1/{10 ** 120 + 7}",
        "safe_available": True, "best": None, "best_probability": None, "first": False,
        "guess": True, "avoidable": True, "uncovered": 0, "exploded": False}
    assert c1.to_json()["time"] == 0.123 and c1.to_json()["since_previous"] is None
    assert c1.to_json()["best"] == [0, 0] and c1.to_json()["best_probability"] == 1 / 6
    assert c3.to_json()["exploded"] is True and c3.to_json()["first"] is False
    assert [r.label(c) for c in r.timeline] == ["safe", "avoidable", "inferior"]
    assert r.win_probability_lost == 1 / 12
    luck = (1 - tiny) / 2
    expected_clicks = [{**c.to_json(), "label": label, **{k: None for k in review_module.VERDICT_KEYS},
                        "win_probability_exact": False}
                       for c, label in ((c1, "safe"), (c2, "avoidable"))]
    assert r.to_json() == {
        "file": "m.evf", "format": "evf", "software": "Meta", "player": "P", "rows": 2, "cols": 3,
        "mines": 1, "outcome": "lost", "time": 3.0, "bbbv": 3, "bbbv_solved": 1,
        "bbbv_per_second": 0.3333, "efficiency": 0.3333,
        "counts": {"left": 2, "right": 0, "chord": 1, "total": 3, "effective": 3},
        "luck": float(luck), "luck_exact": f"{luck.numerator}/{luck.denominator}",
        "guesses": 2,
        "avoidable": [{"number": 2, "kind": "left", "cell": [0, 2], "probability": float(tiny),
                       "probability_exact": f"1/{10 ** 120 + 7}", "best": None}],
        "avoidable_cost": float(tiny), "win_probability_lost": round(1 / 12, 6),
        "labels": {"safe": 1, "avoidable": 1, "best": 0, "inferior": 1, "guess": 0},
        "figures": figures(r), "clicks": expected_clicks,
        "chords": [{**c3.to_json(), "label": "inferior", **verdict.to_json(3)}],
        "ms_toollib": {"bbbv": 3}}
    assert r.report(every=True) == render_review(r, every=True)
    assert r.report() == render_review(r) != r.report(every=True)


def test_files_that_are_not_replays_or_cannot_be_read(tmp_path: Path) -> None:
    def refused(path: str | Path) -> str:
        with pytest.raises(MinegraphError) as caught:
            review(path)
        return str(caught.value)

    assert refused("folder/notes.txt") == ("notes.txt: not a replay file: expected one of "
                                           ".avf, .evf, .rmv, .mvf")
    assert refused("game.AVFX") == "game.AVFX: not a replay file: expected one of .avf, .evf, .rmv, .mvf"
    assert refused(tmp_path / "missing.evf") == ("missing.evf: cannot read the replay: "
                                                 "No such file or directory")
    assert refused(tmp_path).startswith(f"{tmp_path.name}: not a replay file")
    # A path with no file name is named as given.
    assert refused("folder/") == "folder/: not a replay file: expected one of .avf, .evf, .rmv, .mvf"


class _Child:
    """A stand-in for the reader process: records how it was started and answers as told."""

    def __init__(self, stdout: bytes = b"", returncode: int = 0, hang: bool = False) -> None:
        self.stdout, self.returncode, self.hang = stdout, returncode, hang
        self.calls: list[dict[str, object]] = []

    def __call__(self, args: list[str], **options: object) -> object:
        import subprocess
        from pathlib import Path as _Path
        self.calls.append({"args": args, "folder": _Path(str(options["cwd"])).name, **options})
        if self.hang:
            raise subprocess.TimeoutExpired(args, float(options["timeout"]))  # type: ignore[arg-type]
        return subprocess.CompletedProcess(args, self.returncode, self.stdout, b"")


@pytest.mark.parametrize(("answer", "error", "message"), [
    ({"returncode": 1}, FormatError,
     "r.evf: not a readable .evf replay (the reader stopped: truncated or damaged file)"),
    ({"stdout": b"not json"}, FormatError, "r.evf: not a readable .evf replay"),
    ({"stdout": b"[1, 2]"}, FormatError, "r.evf: not a readable .evf replay"),
    ({"stdout": b'{"error": "missing"}'}, MinegraphError, review_module.INSTALL_HINT),
    ({"stdout": b'{"error": "size", "rows": 200, "cols": 300, "mines": 9}'}, LimitError,
     "r.evf: a 200x300 board with 9 mines: reviews take boards of 1 to 10,000 cells with "
     "fewer mines than cells"),
    ({"stdout": b'{"error": "unreadable: bad header"}'}, FormatError,
     "r.evf: not a readable .evf replay (unreadable: bad header)"),
    ({"hang": True}, FormatError,
     "r.evf: the replay reader took more than 30 s; not a readable .evf replay"),
])
def test_what_the_reader_process_answers_is_checked(monkeypatch: pytest.MonkeyPatch,
                                                    answer: dict[str, Any], error: type,
                                                    message: str) -> None:
    child = _Child(**answer)
    monkeypatch.setattr(review_module.subprocess, "run", child)
    with pytest.raises(error) as caught:
        review_bytes(b"data", "evf", name="r.evf")
    assert type(caught.value) is error and str(caught.value) == message
    (call,) = child.calls
    assert call["args"][1:4] == ["-P", "-c", review_module._CHILD]        # type: ignore[index]
    assert call["args"][4:] == ["evf", "10000", "65", ",".join(review_module.TOOLLIB_STATS)]  # type: ignore[index]
    assert call["input"] == b"data" and call["capture_output"] is True and call["check"] is False
    assert call["timeout"] == review_module.PARSE_SECONDS
    assert str(call["folder"]).startswith("minegraph-replay-")


def test_the_reader_process_is_held_to_the_callers_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    from minegraph.deadline import time_limit
    child = _Child(b'{"error": "unreadable: x"}')
    monkeypatch.setattr(review_module.subprocess, "run", child)
    with time_limit(5.0), pytest.raises(FormatError):
        review_bytes(b"data", "evf")
    assert 0.05 <= float(child.calls[0]["timeout"]) <= 5.0      # type: ignore[arg-type]
    # A limit already spent: the reader still gets its 0.05 s floor, then the query stops.
    from minegraph.errors import QueryTimeout
    with time_limit(1e-9), pytest.raises(QueryTimeout):
        review_bytes(b"data", "evf")
    assert len(child.calls) == 2 and child.calls[1]["timeout"] == 0.05


def test_review_bytes_and_files_checked_before_the_reader(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    def refused(call: Any) -> str:
        with pytest.raises(MinegraphError) as caught:
            call()
        return str(caught.value)

    assert refused(lambda: review_bytes(b"", "zip")) == ("unknown replay format 'zip': expected "
                                                         "one of avf, evf, rmv, mvf")
    assert refused(lambda: review_bytes("text", "evf")) == "replay.evf: expected the replay's bytes, got str"
    monkeypatch.setattr(review_module, "MAX_REPLAY_BYTES", 4)
    assert refused(lambda: review_bytes(b"12345", "evf")) == (
        "replay.evf: 5 bytes: replays are limited to 4 bytes (real ones are a few kB)")
    child = _Child(b'{"error": "unreadable: x"}')
    monkeypatch.setattr(review_module.subprocess, "run", child)
    # Four bytes pass; ".EVF" is the evf format; the default name follows the format.
    assert refused(lambda: review_bytes(b"1234", ".EVF")) == "replay.evf: not a readable .evf replay (unreadable: x)"
    assert child.calls[-1]["input"] == b"1234" and child.calls[-1]["args"][4] == "evf"  # type: ignore[index]
    small, big = tmp_path / "small.evf", tmp_path / "big.evf"
    small.write_bytes(b"1234")
    big.write_bytes(b"12345")
    assert refused(lambda: review(small)) == "small.evf: not a readable .evf replay (unreadable: x)"
    assert child.calls[-1]["input"] == b"1234"
    assert refused(lambda: review(big)) == "big.evf: 5 bytes: replays are limited to 4 bytes (real ones are a few kB)"


def test_counts_and_events_missing_or_of_the_wrong_kind() -> None:
    raw = _reading(stats={"left": True, "right": "3", "double": 2.0, "cl": 7})
    del raw["events"]
    r = review_module._build(raw, "evf", "g.evf")
    assert r.timeline == [] and r.outcome == "unfinished"
    assert r.counts == {"left": 0, "right": 0, "chord": 0, "total": 7, "effective": 0}
