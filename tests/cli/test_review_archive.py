"""``minegraph review`` with the coach and over a whole archive: the JSON contract of the
labels and win chances, the table of games (checked against each game's own review), the
broken files listed, a rerun that resumes, the summary and the plots; the web review's fields."""

from __future__ import annotations

import csv
import io
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

pytest.importorskip("ms_toollib")

from minegraph.cli import main
from minegraph.play.coach import LABELS
from minegraph.play.game import Game
from minegraph.play.record import evf_bytes
from minegraph.play.review import VERDICT_KEYS, review

from played import play

EXAMPLE = Path(__file__).resolve().parents[1] / "data" / "replays" / "beginner-example.evf"


def _one_line_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    status = main(argv, out=io.StringIO())
    err = capsys.readouterr().err
    assert status == 2, err
    assert err.count("\n") == 1 and err.startswith("minegraph: error: ")
    return err


def test_the_json_contract_of_the_coach() -> None:
    out = io.StringIO()
    assert main(["review", "--json", str(EXAMPLE)], out=out) == 0
    obj = json.loads(out.getvalue())
    for entry in obj["clicks"] + obj["chords"]:
        assert entry["label"] in LABELS
        assert set(VERDICT_KEYS) <= set(entry)
        if entry["guess"]:
            assert isinstance(entry["win_probability"], float)
            assert entry["win_probability_lost"] == pytest.approx(
                entry["win_probability_best"] - entry["win_probability"])
            assert isinstance(entry["win_probability_exact"], bool)
            assert len(entry["best_cell"]) == 2 and entry["alternatives"]
            assert entry["label"] == ("avoidable" if entry["avoidable"] else entry["label"])
        else:
            assert entry["label"] == "safe" and entry["win_probability"] is None
    # The example's avoidable click (5 at (7,0)) gives up 90% - 75% (docs/review.md).
    click = next(c for c in obj["clicks"] if c["number"] == 5)
    assert click["label"] == "avoidable" and click["win_probability_exact"]
    assert obj["figures"]["openings"] == obj["ms_toollib"]["op"]


def test_no_win_leaves_guesses_unjudged() -> None:
    out = io.StringIO()
    assert main(["review", "--json", "--no-win", str(EXAMPLE)], out=out) == 0
    obj = json.loads(out.getvalue())
    labels = {c["label"] for c in obj["clicks"]}
    assert labels <= {"safe", "avoidable", "guess"} and "guess" in labels
    assert all(c["win_probability"] is None for c in obj["clicks"])
    assert obj["win_probability_lost"] is None


def test_the_report_says_why() -> None:
    out = io.StringIO()
    assert main(["review", str(EXAMPLE)], out=out) == 0
    text = out.getvalue()
    assert "win chance given up" in text and "Why:" in text and "progress" in text


def _archive(folder: Path, count: int) -> list[Game]:
    games = []
    for seed in range(count):
        game = play(Game(rows=6, cols=6, mines=5, rules="modern", seed=seed), random.Random(seed),
                    guess_rate=0.2)
        (folder / f"g{seed}.evf").write_bytes(evf_bytes(game))
        games.append(game)
    return games


def test_an_archive_resumes_and_lists_broken_files(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    replays = tmp_path / "replays"
    (replays / "more").mkdir(parents=True)
    _archive(replays, 3)
    (replays / "more" / "cut.evf").write_bytes((replays / "g0.evf").read_bytes()[:40])
    (replays / "notes.txt").write_text("not a replay, not looked at")
    out_dir = tmp_path / "out"
    out = io.StringIO()
    args = ["review", "--out", str(out_dir), "--workers", "1", "--no-progress", "--samples", "0",
            str(replays)]
    assert main(args, out=out) == 0
    assert "reviewed 3 now, 1 broken, 0 done before" in out.getvalue()
    with open(out_dir / "games.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert sorted(Path(r["file"]).name for r in rows) == ["g0.evf", "g1.evf", "g2.evf"]
    for row in rows:                 # each row is its game's own review
        r = review(row["file"])
        assert int(row["bbbv"]) == r.bbbv and row["outcome"] == r.outcome
        assert float(row["luck"]) == pytest.approx(float(r.luck))
        assert int(row["guesses"]) == len(r.guesses) and int(row["avoidable"]) == len(r.avoidable)
    with open(out_dir / "broken.csv", newline="") as f:
        broken = list(csv.DictReader(f))
    assert [Path(b["file"]).name for b in broken] == ["cut.evf"] and "not a readable" in broken[0]["error"]
    summary = json.loads((out_dir / "summary.json").read_text())
    assert summary["games"] == 3 and summary["broken"] == 1
    assert summary["luck"]["median"] == pytest.approx(
        sorted(float(r["luck"]) for r in rows)[1])
    assert (out_dir / "summary.png").read_bytes().startswith(b"\x89PNG")
    # A rerun, with one replay more: only the new one is reviewed.
    (replays / "g9.evf").write_bytes((replays / "g1.evf").read_bytes())
    out = io.StringIO()
    assert main(args, out=out) == 0
    assert "reviewed 1 now, 0 broken, 4 done before" in out.getvalue()
    assert json.loads((out_dir / "summary.json").read_text())["games"] == 4


def test_archive_mistakes_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "--out" in _one_line_error(["review", str(EXAMPLE), str(EXAMPLE)], capsys)
    assert "no such file" in _one_line_error(["review", "--out", str(tmp_path / "o"),
                                              str(tmp_path / "missing")], capsys)
    assert "--svg" in _one_line_error(["review", "--out", str(tmp_path / "o"), "--svg", "x.svg",
                                       str(EXAMPLE)], capsys)


def test_the_web_review_carries_the_coach() -> None:
    from minegraph.deadline import Deadline
    from minegraph.web.reviews import review_job
    obj = review_job(EXAMPLE.read_bytes(), "game.evf", 0, Deadline(60))
    for entry in obj["clicks"]:
        assert "board" in entry and entry["label"] in LABELS and set(VERDICT_KEYS) <= set(entry)
    guess = next(c for c in obj["clicks"] if c["number"] == 13)
    assert guess["label"] == "best" and guess["win_probability"] == 0.5
    assert Fraction(guess["probability_exact"]) == Fraction(1, 2)
