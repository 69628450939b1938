"""Win-rate benchmarks: the Wilson interval, the same games on a pool, in-process and on a
local Dask cluster, resuming and merging by seed, the CLI.

Game outcomes are checked against :func:`_replay`, an independent replay of each seed's game:
the layout the rules draw for the seed, and the ``safest`` policy's documented rules (every
proven-safe cell, else the lowest mine probability; ties: fewest covered neighbours, lowest
index) with the probabilities counted here by enumerating the layouts of the numbered cells'
neighbours. Summaries are checked against figures counted from the records.
"""

from __future__ import annotations

import json
import random
from math import comb
from pathlib import Path
from statistics import median

import pytest

from minegraph.cli import main
from minegraph.errors import FormatError, GameError
from minegraph.play.bench import BenchConfig, BenchResults, play_batch, run, wilson
from minegraph.rules import SIZES, draw_layout

CONFIG = BenchConfig("beginner", "classic", "safest")


# ----------------------------------------------------------------------------- the oracle
def _neighbours(rows: int, cols: int) -> list[list[int]]:
    """The eight-cell neighbourhoods of a square grid, cells numbered row by row."""
    return [[rr * cols + cc for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
             if (rr, cc) != (r, c) and 0 <= rr < rows and 0 <= cc < cols]
            for r in range(rows) for c in range(cols)]


def _uncover(neighbours: list[list[int]], mines: frozenset[int], uncovered: set[int],
             cell: int) -> None:
    """Uncover the safe ``cell`` and, from every cell with no mine around, its neighbours."""
    todo = [cell]
    while todo:
        v = todo.pop()
        if v not in uncovered:
            uncovered.add(v)
            if not any(q in mines for q in neighbours[v]):
                todo.extend(q for q in neighbours[v] if q not in uncovered)


def _layouts(cells: list[int], constraints: list[tuple[list[int], int]],
             limit: int) -> list[frozenset[int]]:
    """Every set of at most ``limit`` mines on ``cells`` that puts ``number`` mines on the
    cells of each ``(cells, number)`` of ``constraints`` (backtracking, cell by cell)."""
    touching = {x: [k for k, (around, _) in enumerate(constraints) if x in around] for x in cells}
    need = [number for _, number in constraints]
    free = [len(around) for around, _ in constraints]
    chosen: list[int] = []
    found: list[frozenset[int]] = []

    def extend(i: int) -> None:
        if i == len(cells):
            found.append(frozenset(chosen))
            return
        x = cells[i]
        for mine in (0, 1):
            if mine and len(chosen) == limit:
                continue
            for k in touching[x]:
                free[k] -= 1
                need[k] -= mine
            if all(0 <= need[k] <= free[k] for k in touching[x]):
                chosen.extend([x] * mine)
                extend(i + 1)
                del chosen[len(chosen) - mine:]
            for k in touching[x]:
                free[k] += 1
                need[k] += mine

    extend(0)
    return found


def _mine_counts(neighbours: list[list[int]], mines: frozenset[int],
                 uncovered: set[int]) -> tuple[dict[int, int], int]:
    """The layouts consistent with what the player sees (the numbers of ``uncovered`` and the
    mine total): per covered cell how many put a mine on it, and how many there are.

    The covered cells next to numbers fall into groups linked by shared numbers; each group's
    layouts are enumerated, and a choice of layouts for the groups holding ``s`` mines
    together is completed in ``C(F, total - s)`` ways on the ``F`` other covered cells."""
    total = len(mines)
    constraints = []            # (covered neighbours of a number, the number)
    for c in uncovered:
        around = [q for q in neighbours[c] if q not in uncovered]
        if around:
            constraints.append((around, sum(q in mines for q in neighbours[c])))
    groups: list[tuple[set[int], list[tuple[list[int], int]]]] = []
    for around, number in constraints:
        cells, own = set(around), [(around, number)]
        for group in [g for g in groups if g[0] & cells]:
            groups.remove(group)
            cells |= group[0]
            own += group[1]
        groups.append((cells, own))
    next_to_numbers = set().union(*(cells for cells, _ in groups))
    floating = [c for c in range(len(neighbours))
                if c not in uncovered and c not in next_to_numbers]
    # Per group: mines m -> its layouts with m mines, and per cell those with a mine there.
    tallies: list[tuple[dict[int, int], dict[int, dict[int, int]]]] = []
    for cells, own in groups:
        ways: dict[int, int] = {}
        per_cell: dict[int, dict[int, int]] = {}
        order = list(dict.fromkeys(x for around, _ in own for x in around))
        for layout in _layouts(order, own, total):
            ways[len(layout)] = ways.get(len(layout), 0) + 1
            row = per_cell.setdefault(len(layout), dict.fromkeys(cells, 0))
            for x in layout:
                row[x] += 1
        tallies.append((ways, per_cell))

    def together(chosen: list[tuple[dict[int, int], dict[int, dict[int, int]]]]) -> dict[int, int]:
        """Mines the ``chosen`` groups hold together -> their joint layouts."""
        out = {0: 1}
        for ways, _ in chosen:
            joint: dict[int, int] = {}
            for s, a in out.items():
                for m, b in ways.items():
                    joint[s + m] = joint.get(s + m, 0) + a * b
            out = joint
        return out

    def fill(k: int, n: int = len(floating)) -> int:
        return comb(n, k) if 0 <= k <= n else 0

    every = together(tallies)
    layouts = sum(a * fill(total - s) for s, a in every.items())
    counts = dict.fromkeys(floating, sum(a * fill(total - s - 1, len(floating) - 1)
                                         for s, a in every.items()))
    for i, (_, per_cell) in enumerate(tallies):
        rest = together(tallies[:i] + tallies[i + 1:])
        for m, row in per_cell.items():
            completions = sum(a * fill(total - m - s) for s, a in rest.items())
            for x, k in row.items():
                counts[x] = counts.get(x, 0) + k * completions
    return counts, layouts


def _replay(config: BenchConfig, seed: int) -> tuple[bool, int]:
    """``(won, guesses)`` of the ``safest`` policy's game of ``seed``, played again here.

    The first cell is ``config.first``, or the policy's choice on the untouched board (every
    cell equally likely: the fewest neighbours, then the lowest index); the layout is
    :func:`~minegraph.rules.draw_layout` on ``random.Random(seed)`` outside the cells the rules
    keep clear (none under ``any``, where the first move is a guess). Then, until every safe
    cell is uncovered: every cell no consistent layout puts a mine on, else one guess at the
    lowest mine count that is not a certain mine (ties: fewest covered neighbours, lowest
    index); a guess on a mine loses.
    """
    rows, cols, count = SIZES[config.size]
    cells = rows * cols
    neighbours = _neighbours(rows, cols)
    uncovered: set[int] = set()

    def guess(counts: dict[int, int], layouts: int) -> int:
        low = min(k for k in counts.values() if k < layouts)
        return min((sum(q not in uncovered for q in neighbours[c]), c)
                   for c, k in counts.items() if k == low)[1]

    first = (guess(dict.fromkeys(range(cells), 1), 2) if config.first is None
             else config.first[0] * cols + config.first[1])
    kept = {"any": set(), "classic": {first}, "modern": {first, *neighbours[first]}}[config.rules]
    mines = draw_layout(random.Random(seed), kept, cells, count)
    guesses = int(config.rules == "any")
    if first in mines:
        return False, guesses
    _uncover(neighbours, mines, uncovered, first)
    while len(uncovered) < cells - count:
        counts, layouts = _mine_counts(neighbours, mines, uncovered)
        safe = [c for c, k in counts.items() if k == 0]
        if not safe:
            cell = guess(counts, layouts)
            guesses += 1
            if cell in mines:
                return False, guesses
            safe = [cell]
        for c in safe:
            _uncover(neighbours, mines, uncovered, c)
    return True, guesses


def _kind(won: bool, guesses: int, config: BenchConfig) -> str:
    """How a game went, for checking that a set of seeds covers every kind."""
    free = int(config.rules == "any")          # the first move of an ``any`` game
    if not won:
        return "lost on the first move" if guesses == free == 1 else "lost"
    return "won with guesses" if guesses > free else "won without a guess"


# ----------------------------------------------------------------------------- tests
def test_games_known_by_hand() -> None:
    """Outcomes that follow from the rules alone. Under ``any`` the first move is a guess: a
    game whose first cell (4, 4) holds a mine in the seed's layout is lost at once, with that
    one guess, and no other game is. A certain move never loses: every lost game has a guess."""
    config = BenchConfig("beginner", "any", "safest", (4, 4))
    seeds = range(60)
    on_mine = {s for s in seeds if 4 * 9 + 4 in draw_layout(random.Random(s), set(), 81, 10)}
    assert len(on_mine) >= 3
    for seed, won, guesses, _ in play_batch(config, list(seeds)):
        if seed in on_mine:
            assert (won, guesses) == (False, 1)
        else:
            assert guesses >= 1 and (won or guesses >= 2)
    played = play_batch(CONFIG, list(range(40, 80)))
    assert not all(won for _, won, _, _ in played)
    assert all(guesses >= 1 for _, won, guesses, _ in played if not won)


def test_wilson_interval_known_values() -> None:
    # Wilson (1927) 95% intervals, as tabulated by Newcombe (1998), Table II, method 3:
    # 81/263, 15/148, 0/20 and 1/29.
    lo, hi = wilson(81, 263)
    assert (round(lo, 4), round(hi, 4)) == (0.2553, 0.3662)
    lo, hi = wilson(15, 148)
    assert (round(lo, 4), round(hi, 4)) == (0.0624, 0.1605)
    lo, hi = wilson(0, 20)
    assert (lo, round(hi, 4)) == (0.0, 0.1611)
    lo, hi = wilson(1, 29)
    assert (round(lo, 4), round(hi, 4)) == (0.0061, 0.1718)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


@pytest.mark.parametrize("config, seeds", [
    (CONFIG, range(40)),
    (BenchConfig("beginner", "modern", "safest"), range(100, 130)),
    (BenchConfig("beginner", "any", "safest", (4, 4)), range(30)),
    (BenchConfig("beginner-8", "classic", "safest", (2, 5)), range(30)),
])
def test_a_batch_plays_the_games_of_its_seeds(config: BenchConfig, seeds: range) -> None:
    """Every game of a batch (one policy reused from game to game) is the replayed game of
    its seed: won or lost, with the same number of guesses."""
    batch = play_batch(config, list(seeds))
    assert [seed for seed, *_ in batch] == list(seeds)
    assert {seed: (won, guesses) for seed, won, guesses, _ in batch} == \
        {seed: _replay(config, seed) for seed in seeds}
    kinds = {_kind(won, guesses, config) for _, won, guesses, _ in batch}
    assert {"lost", "won with guesses", "won without a guess"} <= kinds     # not vacuous


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


def test_summary_of_known_records() -> None:
    """The summary's figures, worked out by hand for four made-up records."""
    results = BenchResults(CONFIG, {7: (True, 0, 2.0), 1: (True, 0, 0.5), 2: (False, 2, 1.5),
                                    3: (True, 1, 1.0)})
    s = results.summary()
    assert (s["games"], s["wins"], s["win_rate"]) == (4, 3, 0.75)
    assert s["guesses_per_game"] == 0.75 and s["seconds_per_game"] == 1.25
    assert s["median_seconds_per_game"] == 1.25
    assert (s["seed"], s["seeds"]) == (1, [[1, 3], [7, 7]])
    assert s["ci95"] == list(wilson(3, 4))
    assert (s["size"], s["rules"], s["policy"], s["first"]) == ("beginner", "classic", "safest", None)
    empty = BenchResults(CONFIG).summary()
    assert (empty["games"], empty["wins"], empty["win_rate"], empty["ci95"]) == (0, 0, 0.0, [0.0, 1.0])
    assert (empty["seed"], empty["seeds"], empty["median_seconds_per_game"]) == (None, [], 0.0)


def test_summary_counts_the_records() -> None:
    """A run over two ranges of seeds: its summary against figures counted from its records,
    and the records against the replayed games."""
    config = BenchConfig("beginner", "classic", "safest", (4, 4))
    results = run(config, [*range(10, 25), *range(40, 45)], workers=1, progress=False)
    records = results.records
    assert sorted(records) == [*range(10, 25), *range(40, 45)]
    assert {s: r[:2] for s, r in records.items()} == {s: _replay(config, s) for s in records}
    wins = [won for won, _, _ in records.values()].count(True)
    s = results.summary()
    assert (s["games"], s["wins"], s["win_rate"]) == (20, wins, wins / 20)
    assert s["ci95"] == list(wilson(wins, 20))
    assert s["guesses_per_game"] == sum(g for _, g, _ in records.values()) / 20
    assert s["seconds_per_game"] == pytest.approx(sum(t for _, _, t in records.values()) / 20)
    assert s["median_seconds_per_game"] == median(t for _, _, t in records.values())
    assert (s["seed"], s["seeds"], s["first"]) == (10, [[10, 24], [40, 44]], [4, 4])


def test_cli_json_summary_and_resume(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "b.json"
    args = ["bench", "--size", "beginner", "--rules", "modern", "--games", "25", "--seed", "5",
            "--workers", "1", "--json", "--out", str(out), "--policy", "safest"]
    assert main(args) == 0
    summary = json.loads(capsys.readouterr().out)
    assert set(summary) >= {"games", "wins", "win_rate", "ci95", "guesses_per_game",
                            "seconds_per_game", "rules", "size", "policy", "seed"}
    config = BenchConfig("beginner", "modern", "safest")
    saved = {seed: (bool(won), guesses, seconds)
             for seed, won, guesses, seconds in json.loads(out.read_text())["records"]}
    assert sorted(saved) == list(range(5, 30))
    assert {s: r[:2] for s, r in saved.items()} == {s: _replay(config, s) for s in saved}
    wins = [won for won, _, _ in saved.values()].count(True)
    assert (summary["games"], summary["seed"], summary["rules"]) == (25, 5, "modern")
    assert (summary["wins"], summary["win_rate"]) == (wins, wins / 25)
    assert summary["ci95"] == list(wilson(wins, 25))
    assert summary["guesses_per_game"] == sum(g for _, g, _ in saved.values()) / 25
    assert summary["seconds_per_game"] == pytest.approx(sum(t for _, _, t in saved.values()) / 25,
                                                        abs=1e-6)
    # Resumed: the same file, ten more seeds; the 25 games already there are kept, not replayed.
    assert main(args[:6] + ["35"] + args[7:]) == 0
    resumed = json.loads(capsys.readouterr().out)
    more = {seed: (bool(won), guesses, seconds)
            for seed, won, guesses, seconds in json.loads(out.read_text())["records"]}
    assert sorted(more) == list(range(5, 40)) and {s: more[s] for s in saved} == saved
    assert {s: more[s][:2] for s in range(30, 40)} == {s: _replay(config, s) for s in range(30, 40)}
    assert (resumed["games"], resumed["seed"]) == (35, 5)
    assert resumed["wins"] == [won for won, _, _ in more.values()].count(True)


def test_cli_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "b.json"
    assert main(["bench", "--size", "beginner", "--rules", "classic", "--policy", "safest",
                 "--games", "2", "--workers", "1", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["bench", "--size", "beginner", "--rules", "modern", "--policy", "safest",
                 "--games", "2", "--out", str(out)]) == 2
    assert "another configuration" in capsys.readouterr().err
    for bad in (["--games", "0"], ["--games", "1e9"], ["--first", "3"], ["--seed", "-1"]):
        with pytest.raises(SystemExit) as info:
            main(["bench", *bad])
        assert info.value.code == 2


@pytest.mark.parametrize("option, module, says", [
    (["--scheduler", "tcp://127.0.0.1:1"], "distributed",
     "--scheduler needs dask.distributed: pip install 'dask[distributed]>=2024.1' (from a minegraph "
     "checkout: pip install '.[cluster]')"),
    (["--plot", "rates.png"], "matplotlib", "--plot needs matplotlib: pip install 'matplotlib>=3.8' (from a "
                                            "minegraph checkout: pip install '.[plot]')"),
])
def test_cli_checks_the_extras_before_any_work(option: list[str], module: str, says: str,
                                               tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 22: without matplotlib, --plot played every game and only then refused; the extra
    # of --scheduler is checked before earlier results are read. The module is made missing
    # as when the extra is not installed (its import fails).
    import sys
    monkeypatch.setitem(sys.modules, module, None)
    played: list[int] = []
    import minegraph.play.bench as bench_module
    real = bench_module.play_batch
    monkeypatch.setattr(bench_module, "play_batch",
                        lambda config, seeds: played.extend(seeds) or real(config, seeds))
    out = tmp_path / "other.json"                       # results of another configuration
    BenchResults(BenchConfig("beginner", "modern", "safest")).save(out)
    before = out.read_text()
    option = [o.replace("rates.png", str(tmp_path / "rates.png")) for o in option]
    assert main(["bench", "--size", "beginner", "--rules", "classic", "--policy", "safest",
                 "--games", "30", "--workers", "1", "--no-progress", "--out", str(out), *option]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"minegraph: error: {says}\n" and captured.out == ""
    assert played == [] and out.read_text() == before


def test_cli_checks_the_plot_file_before_any_work(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    for path, says in ((tmp_path / "rates.txt", "cannot draw rates.txt: matplotlib writes"),
                       (tmp_path / "missing" / "rates.png", "no such directory")):
        assert main(["bench", "--size", "beginner", "--games", "1000", "--workers", "1",
                     "--no-progress", "--plot", str(path)]) == 2
        captured = capsys.readouterr()
        assert says in captured.err and captured.err.count("\n") == 1 and captured.out == ""


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



# ----------------------------------------------------------------------------- issue 22, item 9
def test_cli_says_how_many_games_were_resumed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The summary covers every game in the file; it did not say that most were not played now.
    out = tmp_path / "b.json"
    args = ["bench", "--size", "beginner", "--rules", "classic", "--policy", "safest", "--workers", "1",
            "--no-progress", "--out", str(out)]
    assert main([*args, "--games", "10"]) == 0
    first = capsys.readouterr().out
    assert "resumed" not in first and "games: 10 " in first
    assert main([*args, "--games", "15"]) == 0
    text = capsys.readouterr().out
    assert f"10 games resumed from {out}, 5 played" in text.splitlines()[1]
    assert "games: 15 " in text
    # Results from other seed ranges are resumed too, and every one of them is summarised.
    assert main([*args, "--games", "3", "--seed", "100", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["games"], summary["resumed"], summary["played"]) == (18, 15, 3)
    assert main([*args, "--games", "3", "--seed", "100"]) == 0
    assert f"18 games resumed from {out}, 0 played" in capsys.readouterr().out
    # Without --out, or with a new file, nothing is resumed.
    assert main([*args[:-2], "--games", "2", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["games"], summary["resumed"], summary["played"]) == (2, 0, 2)


def test_the_defaults_are_the_readmes_headline_run() -> None:
    # The README's win rate is "minegraph bench --size expert --rules modern --first 3,3
    # --policy strong"; the defaults were classic rules and the safest policy.
    from minegraph.cli import build_parser
    from minegraph.cli.bench import config_of
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    headline = "minegraph bench --size expert --rules modern --first 3,3 --policy strong"
    assert headline in readme and "Expert modern from (3,3)" in readme
    parser = build_parser("bench")
    default = config_of(parser.parse_args(["bench"]))
    assert default == config_of(parser.parse_args(headline.split()[1:]))
    assert default == BenchConfig("expert", "modern", "strong", (3, 3))
    # The results behind the README's figure resume under the defaults.
    results = Path(__file__).parents[2] / "bench" / "results" / "winrates" / "expert-modern-3-3-strong.json"
    assert BenchResults.load(results).config == default


def test_strong_records_the_cell_it_opens() -> None:
    # strong opens a fixed cell (default_first): a configuration without --first is the same
    # measurement as one naming that cell, and their results merge.
    assert BenchConfig("expert", "modern", "strong") == BenchConfig("expert", "modern", "strong", (3, 3))
    assert BenchConfig("beginner", "classic", "strong").first == (0, 0)
    assert BenchConfig("beginner-8", "modern", "strong").first == (2, 2)   # small boards: (2, 2)
    assert BenchConfig("intermediate", "modern", "strong").first == (2, 2)
    assert BenchConfig("beginner", "classic", "safest").first is None       # the analysis chooses
    results = run(BenchConfig("beginner", "modern", "strong"), range(4), workers=1, progress=False)
    same = run(BenchConfig("beginner", "modern", "strong", (2, 2)), range(4), workers=1, progress=False)
    assert {s: r[:2] for s, r in results.records.items()} == {s: r[:2] for s, r in same.records.items()}
    same.merge(results)
