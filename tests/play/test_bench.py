"""Win-rate benchmarks: the Wilson interval, the same games on a pool, in-process and on a
local Dask cluster, resuming and merging by seed, the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from minegraph.cli import main
from minegraph.errors import FormatError, GameError
from minegraph.play.bench import BenchConfig, BenchResults, play_batch, run, wilson
from minegraph.play.game import Game
from minegraph.play.policies import SafestPolicy, play

CONFIG = BenchConfig("beginner", "classic", "safest")


def test_wilson_interval_known_values() -> None:
    # Wilson (1927) 95% intervals, as tabulated by Newcombe (1998), Table I: 81/263 and 15/148.
    lo, hi = wilson(81, 263)
    assert (round(lo, 4), round(hi, 4)) == (0.2553, 0.3662)
    lo, hi = wilson(15, 148)
    assert (round(lo, 4), round(hi, 4)) == (0.0624, 0.1605)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_a_batch_plays_the_games_of_its_seeds() -> None:
    batch = play_batch(CONFIG, [3, 4])
    for seed, won, guesses, _ in batch:
        game = Game("beginner", rules="classic", seed=seed)
        record = play(game, SafestPolicy())
        assert (won, guesses) == (record.won, record.guesses)


def test_pool_and_in_process_runs_agree() -> None:
    seeds = range(60)
    alone = run(CONFIG, seeds, workers=1, progress=False)
    pooled = run(CONFIG, seeds, workers=2, progress=False)
    assert {s: r[:2] for s, r in alone.records.items()} == {s: r[:2] for s, r in pooled.records.items()}


def test_dask_cluster_plays_the_same_games() -> None:
    distributed = pytest.importorskip("distributed")
    seeds = range(40)
    alone = run(CONFIG, seeds, workers=1, progress=False)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        on_dask = run(CONFIG, seeds, scheduler=cluster.scheduler_address, progress=False)
    assert {s: r[:2] for s, r in alone.records.items()} == {s: r[:2] for s, r in on_dask.records.items()}


def test_resume_and_merge_by_seed(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    first = run(CONFIG, range(0, 30), workers=1, progress=False)
    first.save(path)
    again = BenchResults.load(path)
    assert again.records == {s: (w, g, round(t, 6)) for s, (w, g, t) in first.records.items()}
    played: list[int] = []
    run(CONFIG, range(0, 50), workers=1, progress=False, results=again,
        on_batch=lambda r: played.append(len(r.records)))
    assert played == [50]                            # only seeds 30..49 were played
    other = run(CONFIG, range(50, 60), workers=1, progress=False)
    again.merge(other)
    assert sorted(again.records) == list(range(60)) and again.summary()["seeds"] == [[0, 59]]
    with pytest.raises(GameError, match="cannot merge"):
        again.merge(BenchResults(BenchConfig("beginner", "modern", "safest")))
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(FormatError, match="not benchmark results"):
        BenchResults.load(tmp_path / "bad.json")


def test_bad_configurations() -> None:
    with pytest.raises(GameError, match="unknown size"):
        BenchConfig("huge", "classic", "safest")
    with pytest.raises(GameError, match="outside the 9x9 grid"):
        BenchConfig("beginner", "classic", "safest", (9, 9))


def test_cli_json_summary_and_resume(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "b.json"
    args = ["bench", "--size", "beginner", "--rules", "modern", "--games", "25", "--seed", "5",
            "--workers", "1", "--json", "--out", str(out)]
    assert main(args) == 0
    summary = json.loads(capsys.readouterr().out)
    assert set(summary) >= {"games", "wins", "win_rate", "ci95", "guesses_per_game",
                            "seconds_per_game", "rules", "size", "policy", "seed"}
    assert summary["games"] == 25 and summary["seed"] == 5 and summary["rules"] == "modern"
    direct = run(BenchConfig("beginner", "modern", "safest"), range(5, 30), workers=1, progress=False)
    assert summary["wins"] == direct.summary()["wins"]
    assert summary["ci95"] == list(wilson(summary["wins"], 25))
    # Resumed: the same file, ten more seeds.
    assert main(args[:6] + ["35"] + args[7:]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 35


def test_cli_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "b.json"
    assert main(["bench", "--size", "beginner", "--games", "2", "--workers", "1", "--out",
                 str(out)]) == 0
    capsys.readouterr()
    assert main(["bench", "--size", "beginner", "--rules", "modern", "--games", "2",
                 "--out", str(out)]) == 2
    assert "another configuration" in capsys.readouterr().err
    for bad in (["--games", "0"], ["--games", "1e9"], ["--first", "3"], ["--seed", "-1"]):
        with pytest.raises(SystemExit) as info:
            main(["bench", *bad])
        assert info.value.code == 2


def test_plot_is_written(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from minegraph.play.plot import plot_results
    results = run(CONFIG, range(10), workers=1, progress=False)
    path = tmp_path / "rates.png"
    plot_results([results], path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_results_of_another_policy_revision_are_not_merged(tmp_path: Path) -> None:
    results = run(CONFIG, range(3), workers=1, progress=False)
    assert results.summary()["policy_revision"] == CONFIG.revision is not None
    data = results.to_json()
    data["config"]["revision"] = (CONFIG.revision or 0) + 1
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    with pytest.raises(GameError, match="cannot merge"):
        results.merge(BenchResults.load(path))
