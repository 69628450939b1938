"""The side-by-side bench with DavidNHill's solver: the layouts it sends are the games
minegraph plays, its paired figures and first differences are right on hand-made records, and,
where a compiled copy of the peer is at hand ($MINEGRAPH_HILL_CLASSES), the peer's games replay
through minegraph's own game exactly as the peer played them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import hill_side_by_side as side  # noqa: E402

from minegraph.play.game import Game  # noqa: E402
from minegraph.topology import grid_neighbors  # noqa: E402


@pytest.mark.parametrize("rules", ["classic", "modern"])
def test_a_layout_line_is_the_game_minegraph_plays(rules: str) -> None:
    nbrs = grid_neighbors("square", 16, 30)
    for seed in range(5):
        seed_, rows, cols, first, *mines = map(int, side.layout_line("expert", rules, seed).split())
        assert (seed_, rows, cols, len(mines)) == (seed, 16, 30, 99)
        assert first == (0 if rules == "classic" else 93)
        game = Game("expert", rules=rules, seed=seed)
        game.reveal(first)
        assert game.layout == frozenset(mines)
        kept = {first} | (set(nbrs[first]) if rules == "modern" else set())
        assert kept.isdisjoint(mines)


def test_paired_difference_by_hand() -> None:
    # Four games: one won only by a, one only by b, two by both: mean 0; the differences
    # are +1, -1, 0, 0 with sample variance 2/3.
    mean, half = side.paired([1, 0, 1, 1], [0, 1, 1, 1])
    assert mean == 0
    assert half == pytest.approx(side.Z95 * (2 / 3 / 4) ** 0.5)
    mean, _ = side.paired([1, 1, 0, 0], [0, 0, 0, 0])
    assert mean == 0.5


def test_first_difference_and_its_class() -> None:
    ours = [[5, "3/4", "lookahead", 1], [40, "1/2", "fifty", 300]]
    same_start = [[5, "0.75", "PROBABILITY_ENGINE", 1], [41, "0.5", "UNAVOIDABLE_GUESS", 300]]
    assert side.first_difference(ours, same_start) == 1
    assert side.classify(1, ours, same_start, 1) == "50/50"
    other_first = [[450, "0.75", "PROBABILITY_ENGINE", 1]]
    assert side.first_difference(ours, other_first) == 0
    assert side.classify(0, ours, other_first, 1) == "first guess"
    safer = [[7, "0.8", "PROBABILITY_ENGINE", 12]]
    assert side.classify(0, [[6, "3/4", "lookahead", 12]], safer, 1) == "hill safer"
    assert side.first_difference(ours, ours) is None


def test_records_survive_a_torn_last_line(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps({"seed": 1, "won": True}) + "\n" + '{"seed": 2, "wo')
    assert list(side.load(path)) == [1]
    side.mend(path)
    side.append(path, [{"seed": 3, "won": False}])
    assert sorted(side.load(path)) == [1, 3]


def test_strongs_traced_games_export_as_minegraph_bench_plays_them(tmp_path: Path) -> None:
    # The traces (a guess per line) hold what minegraph bench records of a game: exported,
    # they are the results `minegraph bench --policy strong` gets on the same seeds.
    from minegraph.play.bench import BenchConfig, BenchResults, run
    seeds = list(range(40, 52))
    side.run_strong("beginner", "classic", seeds, tmp_path / "beginner-classic-strong.jsonl", {}, 1)
    (tmp_path / "beginner-classic-strong.options.json").write_text(
        json.dumps({"options": {}, "revision": side.REVISIONS["strong"]}))
    out = tmp_path / "results.json"
    assert side.export("beginner", "classic", tmp_path, out) == len(seeds)
    exported = BenchResults.load(out)
    played = run(BenchConfig("beginner", "classic", "strong"), seeds, workers=1, progress=False)
    assert exported.config == played.config
    assert {s: r[:2] for s, r in exported.records.items()} == {s: r[:2] for s, r in played.records.items()}
    assert sum(g for _, g, _ in played.records.values()) > 0          # guesses were counted
    # A variant's games are not strong's measurement, nor is an older revision's.
    for recorded in ({"options": {"fifty": 0}, "revision": side.REVISIONS["strong"]},
                     {"options": {}, "revision": side.REVISIONS["strong"] - 1}):
        (tmp_path / "beginner-classic-strong.options.json").write_text(json.dumps(recorded))
        with pytest.raises(SystemExit, match="not strong's defaults"):
            side.export("beginner", "classic", tmp_path, tmp_path / "other.json")


def _write_run(directory: Path, player: str, revision: int, options: dict[str, object],
               ours: dict[int, bool], theirs: dict[int, bool]) -> None:
    directory.mkdir()
    for name, wins in ((player, ours), ("hill", theirs)):
        (directory / f"expert-classic-{name}.jsonl").write_text("".join(
            json.dumps({"seed": s, "won": w, "seconds": 0.0, "guesses": []}) + "\n" for s, w in wins.items()))
    (directory / f"expert-classic-{player}.options.json").write_text(
        json.dumps({"options": options, "revision": revision}))


def test_runs_of_the_same_moves_pool_into_one_paired_difference(tmp_path: Path) -> None:
    # The previous revision with the option the current one adopted plays the current moves:
    # its run pools with a run of the current defaults, game by game.
    current = side.REVISIONS["strong"]
    _write_run(tmp_path / "a", "sh", current - 1, {"shapely": True},
               {1: True, 2: False, 3: True}, {1: False, 2: False, 3: True})
    _write_run(tmp_path / "b", "strong", current, {}, {7: False, 8: True}, {7: True, 8: True})
    pooled = side.pool("expert", "classic", [side.run_of(f"{tmp_path / 'a'}:sh"), side.run_of(str(tmp_path / "b"))])
    assert pooled["games"] == 5 and pooled["options"] == {}
    mean, half = side.paired([1, 0, 1, 0, 1], [0, 0, 1, 1, 1])
    assert pooled["difference"] == mean == 0 and pooled["difference_ci95"] == [mean - half, mean + half]
    assert [r["games"] for r in pooled["runs"]] == [3, 2]
    # Different moves, or a seed played twice, are refused.
    _write_run(tmp_path / "c", "strong", current - 1, {}, {9: True}, {9: True})
    with pytest.raises(SystemExit, match="different moves"):
        side.pool("expert", "classic", [(tmp_path / "b", "strong"), (tmp_path / "c", "strong")])
    with pytest.raises(SystemExit, match="repeats seeds"):
        side.pool("expert", "classic", [(tmp_path / "b", "strong"), (tmp_path / "b", "strong")])


@pytest.mark.skipif(not os.environ.get("MINEGRAPH_HILL_CLASSES") or shutil.which("javac") is None,
                    reason="no compiled copy of DavidNHill's solver ($MINEGRAPH_HILL_CLASSES) or no JDK")
def test_the_peer_plays_minegraphs_layouts(tmp_path: Path) -> None:
    for rules in ("classic", "modern"):
        subprocess.run([sys.executable, str(BENCH / "hill_side_by_side.py"), "peer", "--rules", rules,
                        "--seed", "0", "--games", "20", "--dir", str(tmp_path)], check=True,
                       capture_output=True)
        records = side.load(tmp_path / f"expert-{rules}-hill.jsonl")
        assert sorted(records) == list(range(20))
        for record in records.values():
            assert side.replay_peer("expert", rules, record) is None


def _endgame_guess(size: str, rules: str) -> tuple[int, int, dict, list[int]]:
    """A traced game of ``strong`` with a guess its exact endgame made where another covered
    cell is worth less: (seed, guess index, trace, the covered cells that are not mines)."""
    from minegraph import Board, analyze
    from minegraph.play.endgame import Endgame
    for seed in range(200):
        trace = side.trace_game(size, rules, {}, seed)
        for k, guess in enumerate(trace["guesses"]):
            if guess[2] != "endgame":
                continue
            board = Board.from_text(side.trace_game(size, rules, {}, seed, stop_at=k)["board"])
            mines = {board.index(c) for c in analyze(board).mines}
            cells = [c for c, s in enumerate(board.states) if s == -1 and c not in mines]
            values = Endgame(board, 1000).cells_by_value(cells)
            if len(set(values.values())) > 1:
                return seed, k, trace, cells
    raise AssertionError("no endgame guess with unequal cells in 200 games")


def test_a_first_difference_where_strong_plays_perfectly_is_valued_exactly(tmp_path: Path) -> None:
    """At a guess of strong's exact endgame, a peer's other cell is valued by perfect play
    after each move: the difference is the Python reference search's (not the native search
    the bench uses), never below 0 (strong's cell is the optimum), and the paired estimate
    counts it in place of the game's outcome; a position the two reached differently, or
    one with more completions than strong's endgame takes, is left to the outcome."""
    from fractions import Fraction
    from minegraph import Board
    from minegraph.play.endgame import Endgame
    seed, k, trace, cells = _endgame_guess("beginner", "classic")
    ours = trace["guesses"]
    board = Board.from_text(side.trace_game("beginner", "classic", {}, seed, stop_at=k)["board"])
    reference = Endgame(board, 1000, native=False).cells_by_value(cells)
    assert reference[ours[k][0]] == max(reference.values())
    other = min(cells, key=lambda c: (reference[c], c))
    theirs = [list(g) for g in ours[:k]] + [[other, "0.5", "PROBABILITY_ENGINE", ours[k][3]]]
    value = side.exact_difference("beginner", "classic", {}, seed, k, ours, theirs)
    assert value == reference[ours[k][0]] - reference[other] > 0
    moved = theirs[:k] + [[other, "0.5", "PROBABILITY_ENGINE", ours[k][3] + 1]]
    assert side.exact_difference("beginner", "classic", {}, seed, k, ours, moved) is None
    assert side.exact_difference("beginner", "classic", {"endgame": 1}, seed, k, ours, theirs) is None
    # The estimate over two games: this one by its value, and a game both played alike.
    same = side.trace_game("beginner", "classic", {}, seed + 1)
    (tmp_path / "beginner-classic-strong.jsonl").write_text(
        json.dumps(trace) + "\n" + json.dumps(same) + "\n")
    (tmp_path / "beginner-classic-hill.jsonl").write_text(
        json.dumps({**trace, "won": not trace["won"], "guesses": theirs}) + "\n" + json.dumps(same) + "\n")
    summary = side.exact_report("beginner", "classic", "strong", tmp_path, "hill", workers=1)
    assert (summary["valued"], summary["valued_strong_better"], summary["games"]) == (1, 1, 2)
    assert summary["difference"] == pytest.approx(float(value) / 2)
    assert isinstance(value, Fraction)
