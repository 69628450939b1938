"""``strong`` beside DavidNHill's Java solver on the very same layouts, game by game.

Three steps, each resumable (results are one JSON line per game, appended as games finish,
and a rerun plays only the seeds missing from its file):

    # the peer: a compiled copy of DavidNHill/Minesweeper (not part of minegraph; see
    # bench/peers/hill/README.md) plays the layouts minegraph draws for these seeds
    .venv/bin/python bench/hill_side_by_side.py peer --classes /path/to/peer/classes \\
        --rules classic --seed 9000000000 --games 10000
    # strong (or a variant of it) plays the same seeds, every guess traced
    .venv/bin/python bench/hill_side_by_side.py strong --rules classic --seed 9000000000 --games 10000
    # the peer's games replayed through minegraph's own game (the same layout, its guesses)
    .venv/bin/python bench/hill_side_by_side.py verify --rules classic --games 500
    # both win rates on the games both played, the paired difference, and for the games one
    # wins and the other loses the first decision where they differ, classified; the
    # positions of those decisions are written as boards so each class can be replayed
    .venv/bin/python bench/hill_side_by_side.py report --rules classic
    # ... and with the games that first differ where strong plays perfectly (its exact
    # endgame) counted by the exact values of the two moves, not by the layouts' coin
    .venv/bin/python bench/hill_side_by_side.py report --rules classic --exact
    # strong's games (its defaults only) as a `minegraph bench --out` results file: the same
    # games, wins and guesses that `minegraph bench --policy strong` plays on these seeds
    .venv/bin/python bench/hill_side_by_side.py export --rules classic --out results.json
    # several runs of the same moves on different seeds, each beside the peer, as one
    # paired comparison (the players' options must agree and the seeds must not repeat)
    .venv/bin/python bench/hill_side_by_side.py pool --rules classic \\
        --run bench/results/hill-final:sh --run bench/results/hill-fresh5:strong

The layouts are minegraph's (``Game(size, rules=..., seed=s)`` with the first click of
``strong``: the corner (0, 0) under classic rules, (3, 3) under modern), sent to the peer as
``seed rows cols first mine...`` lines, so the peer never draws a layout of its own. The peer
plays with its bulk settings: ``SMALL_ANALYSIS``, single thread, no flags.

Files (``--dir``, default ``bench/results/hill``): ``{size}-{rules}-hill.jsonl``,
``{size}-{rules}-{player}.jsonl`` (``player`` is ``strong`` or a ``--variant`` name), and
``{size}-{rules}-{player}-vs-hill.json`` with the report.
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import os
import queue
import shutil
import subprocess
import sys
import threading
from collections import Counter
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any, Iterable, Iterator

sys.path.append(str(Path(__file__).resolve().parent.parent / "src"))  # after PYTHONPATH: a snapshot may be run
sys.path.append(str(Path(__file__).resolve().parent))

from machine import describe  # noqa: E402

from minegraph.parallel import Progress, chunked, ordered_map  # noqa: E402
from minegraph.play.game import Game  # noqa: E402
from minegraph.play.policies import REVISIONS, StrongPolicy, apply, default_first_cell  # noqa: E402

HERE = Path(__file__).resolve().parent
DRIVER = HERE / "peers" / "hill" / "HillBench.java"
BUILD = HERE / "peers" / "hill" / "build"
Z95 = 1.959963984540054


# ---------------------------------------------------------------------------- layouts
def first_cell(size: str, rules: str) -> int:
    game = Game(size, rules=rules, seed=0)
    return default_first_cell(rules, game.rows, game.cols)


def layout_line(size: str, rules: str, seed: int) -> str:
    """The layout minegraph plays for ``seed``, as the driver reads it."""
    game = Game(size, rules=rules, seed=seed)
    first = default_first_cell(rules, game.rows, game.cols)
    game.reveal(first)      # draws the layout for this first click
    assert game.layout is not None
    return " ".join(map(str, (seed, game.rows, game.cols, first, *sorted(game.layout))))


# ---------------------------------------------------------------------------- result files
def load(path: Path) -> dict[int, dict[str, Any]]:
    """Records by seed (a torn last line, from an interrupted run, is ignored)."""
    out: dict[int, dict[str, Any]] = {}
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        out[int(record["seed"])] = record
    return out


def append(path: Path, records: Iterable[dict[str, Any]]) -> None:
    with path.open("a", encoding="utf-8") as f:
        for record in records:
            f.write(json.dumps(record) + "\n")
        f.flush()


def mend(path: Path) -> None:
    """Drop a torn last line so that appending starts on a line of its own."""
    if path.exists():
        data = path.read_bytes()
        if data and not data.endswith(b"\n"):
            path.write_bytes(data[:data.rfind(b"\n") + 1])


def still_to_play(out: Path, seeds: list[int]) -> list[int]:
    """The seeds not yet in ``out`` (whose torn last line, if any, is dropped first)."""
    mend(out)
    done = load(out)
    todo = [s for s in seeds if s not in done]
    if not todo:
        print(f"{out}: all {len(seeds)} games already played")
    return todo


# ---------------------------------------------------------------------------- the peer
def build_driver(classes: Path) -> Path:
    """Compile the driver (minegraph's own code) against the peer's compiled classes."""
    if not (classes / "minesweeper" / "solver" / "Solver.class").exists():
        raise SystemExit(f"{classes}: no compiled peer here (expected minesweeper/solver/Solver.class); "
                         "see bench/peers/hill/README.md")
    if shutil.which("javac") is None or shutil.which("java") is None:
        raise SystemExit("java and javac are needed (Debian: apt-get install default-jdk-headless)")
    target = BUILD / "HillBench.class"
    if not target.exists() or target.stat().st_mtime < DRIVER.stat().st_mtime:
        BUILD.mkdir(parents=True, exist_ok=True)
        subprocess.run(["javac", "-nowarn", "-cp", str(classes), "-d", str(BUILD), str(DRIVER)], check=True)
    return BUILD


def run_peer(classes: Path, size: str, rules: str, seeds: list[int], out: Path, workers: int,
             setting: str) -> None:
    build = build_driver(classes)
    todo = still_to_play(out, seeds)
    if not todo:
        return
    shards = [todo[i::workers] for i in range(workers)]
    results: queue.Queue[dict[str, Any] | None] = queue.Queue()
    procs = []
    cp = os.pathsep.join([str(classes), str(build)])
    for shard in shards:
        if not shard:
            continue
        proc = subprocess.Popen(["java", "-Xss16m", "-cp", cp, "HillBench", setting],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, bufsize=1)
        procs.append(proc)

        def feed(proc: subprocess.Popen[str] = proc, shard: list[int] = shard) -> None:
            assert proc.stdin is not None
            try:
                for seed in shard:
                    proc.stdin.write(layout_line(size, rules, seed) + "\n")
                proc.stdin.close()
            except (BrokenPipeError, ValueError):
                pass

        def drain(proc: subprocess.Popen[str] = proc) -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                results.put(json.loads(line))
            results.put(None)
        threading.Thread(target=feed, daemon=True).start()
        threading.Thread(target=drain, daemon=True).start()
    bar = Progress(len(todo), f"hill {size} {rules}", show=True, note_width=12)
    finished = wins = 0
    try:
        while finished < len(procs):
            record = results.get()
            if record is None:
                finished += 1
                continue
            append(out, [record])
            wins += record["won"]
            bar.advance(1, f"won {wins}")
    finally:
        bar.close()
        for proc in procs:
            proc.kill()


# ---------------------------------------------------------------------------- strong, traced
def trace_game(size: str, rules: str, options: dict[str, Any], seed: int,
               stop_at: int | None = None) -> dict[str, Any]:
    """Play ``strong`` (with ``options``) on ``seed``, recording every guess as
    ``[cell, "chance safe", reason, cells uncovered before]``; with ``stop_at``, stop before
    that guess and return its position too."""
    import time
    game = Game(size, rules=rules, seed=seed)
    policy = StrongPolicy(default_first_cell(rules, game.rows, game.cols), **options)
    guesses: list[list[Any]] = []
    start = time.perf_counter()
    while game.status == "playing":
        if stop_at is not None and len(guesses) == stop_at and game.uncovered:
            board = game.board()
            decision = policy.decide(game)
            if decision.guess:
                return {"seed": seed, "board": board.to_text(), "cell": decision.moves[0].cell,
                        "reason": decision.reason}
            apply(game, decision)
            continue
        decision = policy.decide(game)
        if decision.guess:
            p = decision.probability
            guesses.append([decision.moves[0].cell, str(1 - p) if p is not None else None,
                            decision.reason, len(game.uncovered)])
        apply(game, decision)
    return {"seed": seed, "won": game.status == "won",
            "seconds": round(time.perf_counter() - start, 6), "guesses": guesses}


def _trace_batch(size: str, rules: str, options: dict[str, Any], seeds: list[int]) -> list[dict[str, Any]]:
    return [trace_game(size, rules, options, s) for s in seeds]


def run_strong(size: str, rules: str, seeds: list[int], out: Path, options: dict[str, Any],
               workers: int | None) -> None:
    todo = still_to_play(out, seeds)
    if not todo:
        return
    bar = Progress(len(todo), f"strong {size} {rules}", show=True, note_width=12)
    wins = 0
    try:
        for batch in ordered_map(partial(_trace_batch, size, rules, options), chunked(iter(todo), 10),
                                 workers=workers):
            append(out, batch)
            wins += sum(r["won"] for r in batch)
            bar.advance(len(batch), f"won {wins}")
    finally:
        bar.close()


# ---------------------------------------------------------------------------- verify
def replay_peer(size: str, rules: str, record: dict[str, Any]) -> str | None:
    """Replay a peer's game through minegraph's own game on the same layout: every certain
    cell uncovered, the peer's guesses in turn. ``None`` when the replay ends as the peer's
    game did (and no guess came when the peer had seen more), else what differs."""
    from minegraph.analyser import Analyser
    seed = int(record["seed"])
    game = Game(size, rules=rules, seed=seed)
    game.reveal(default_first_cell(rules, game.rows, game.cols))
    analyser = Analyser()
    guesses = list(record["guesses"])
    while game.status == "playing":
        analysis = analyser.analyze(game.board())
        if analysis.safe:
            for c in analysis.safe:
                if game.status == "playing" and game.index(c) not in game.uncovered:
                    game.reveal(c)
            continue
        if not guesses:
            return f"seed {seed}: no guess left at {len(game.uncovered)} uncovered"
        cell, _, _, before = guesses.pop(0)
        # The peer may guess before uncovering safe cells that teach nothing (its endgame tree
        # leaves them for last); it never sees more than minegraph's game.
        if before > len(game.uncovered):
            return f"seed {seed}: a guess at {before} uncovered, minegraph's game has {len(game.uncovered)}"
        game.reveal(int(cell))
    if (game.status == "won") != bool(record["won"]):
        return f"seed {seed}: the peer {'won' if record['won'] else 'lost'}, the replay {game.status}"
    return None


# ---------------------------------------------------------------------------- report
def paired(a: list[int], b: list[int]) -> tuple[float, float]:
    """Mean of a - b and its 95% half-width (paired, normal approximation)."""
    n = len(a)
    d = [x - y for x, y in zip(a, b)]
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
    return mean, Z95 * math.sqrt(var / n)


def first_difference(ours: list[list[Any]], theirs: list[list[Any]]) -> int | None:
    """The index of the first guess where the two chose different cells, or ``None``."""
    for k, (a, b) in enumerate(zip(ours, theirs)):
        if a[0] != b[0]:
            return k
    if len(ours) != len(theirs):
        return min(len(ours), len(theirs))
    return None


def classify(k: int, ours: list[list[Any]], theirs: list[list[Any]], first_guess_at: int) -> str:
    """What kind of decision the first difference is."""
    a = ours[k] if k < len(ours) else None
    b = theirs[k] if k < len(theirs) else None
    if a is None or b is None:
        return "one guessed, the other had a certain move"   # should not happen: same position
    if a[3] != b[3]:
        return "positions differ"
    if a[2] == "fifty" or b[2] == "UNAVOIDABLE_GUESS":
        return "50/50"
    if a[2] == "endgame" or b[2] == "BRUTE_FORCE_DEEP_ANALYSIS":
        return "endgame"
    if k == 0 and a[3] <= first_guess_at:
        return "first guess"
    pa, pb = float(Fraction(a[1])), float(Fraction(b[1]))
    if abs(pa - pb) < 1e-12:
        return "equally safe cells"
    return "strong safer" if pa > pb else "hill safer"


def both_played(directory: Path, size: str, rules: str, player: str, against: str
                ) -> tuple[dict[int, dict[str, Any]], dict[int, dict[str, Any]], list[int]]:
    """Both players' records in ``directory`` and the seeds both played, in order."""
    ours = load(directory / f"{size}-{rules}-{player}.jsonl")
    theirs = load(directory / f"{size}-{rules}-{against}.jsonl")
    seeds = sorted(set(ours) & set(theirs))
    if not seeds:
        raise SystemExit(f"no game played by both {against} and {player} in {directory}")
    return ours, theirs, seeds


def report(size: str, rules: str, player: str, directory: Path, positions: int,
           against: str = "hill") -> dict[str, Any]:
    ours, hill, seeds = both_played(directory, size, rules, player, against)
    a = [int(ours[s]["won"]) for s in seeds]
    b = [int(hill[s]["won"]) for s in seeds]
    diff, half = paired(a, b)
    n = len(seeds)
    errors = [s for s in seeds if "error" in hill[s]]
    classes: Counter[str] = Counter()
    by_class: dict[str, dict[str, int]] = {}
    examples: dict[str, list[dict[str, Any]]] = {}
    first_guess_at = 1 if rules == "classic" else 10 ** 9
    for s in seeds:
        if ours[s]["won"] == hill[s]["won"]:
            continue
        k = first_difference(ours[s]["guesses"], hill[s]["guesses"])
        kind = "no difference in guesses" if k is None else classify(
            k, ours[s]["guesses"], hill[s]["guesses"], first_guess_at)
        classes[kind] += 1
        tally = by_class.setdefault(kind, {"strong_won": 0, "hill_won": 0})
        tally["strong_won" if ours[s]["won"] else "hill_won"] += 1
        if k is not None:
            examples.setdefault(kind, []).append({
                "seed": s, "guess": k, "strong_won": bool(ours[s]["won"]),
                "strong": ours[s]["guesses"][k] if k < len(ours[s]["guesses"]) else None,
                "hill": hill[s]["guesses"][k] if k < len(hill[s]["guesses"]) else None})
    summary = {
        "size": size, "rules": rules, "player": player, "against": against, "games": n,
        "strong_wins": sum(a), "hill_wins": sum(b),
        "strong_win_rate": sum(a) / n, "hill_win_rate": sum(b) / n,
        "difference": diff, "difference_ci95": [diff - half, diff + half],
        "disagree": sum(1 for x, y in zip(a, b) if x != y),
        "peer_errors": len(errors),
        "seeds": [seeds[0], seeds[-1]],
        "first_difference": {kind: by_class[kind] for kind, _ in classes.most_common()},
        "median_seconds": {"strong": _median([ours[s]["seconds"] for s in seeds]),
                           "hill": _median([hill[s]["seconds"] for s in seeds])},
    }
    print(f"{size} {rules}: {n} games on the same layouts (seeds {seeds[0]}..{seeds[-1]})")
    print(f"  {player}: {sum(a) / n:.2%}   {against}: {sum(b) / n:.2%}   "
          f"{player} - {against}: {100 * diff:+.2f} +- {100 * half:.2f} points (paired 95%)")
    print(f"  disagree on {summary['disagree']} games ({summary['disagree'] / n:.1%}); "
          f"median s/game {summary['median_seconds']['strong']:.3f} / {summary['median_seconds']['hill']:.3f}")
    print("  the first decision where they differ, in the games one wins and the other loses:")
    for kind, tally in summary["first_difference"].items():
        net = tally["strong_won"] - tally["hill_won"]
        print(f"    {kind:<26} {player} won {tally['strong_won']:>5}  {against} won {tally['hill_won']:>5}"
              f"  net {net:+5d} ({100 * net / n:+.2f} points)")
    if positions:
        pos_dir = directory / f"{size}-{rules}-{player}-positions"
        pos_dir.mkdir(exist_ok=True)
        saved = 0
        for kind, items in examples.items():
            for item in items[:positions]:
                options = player_options(player, directory, size, rules)
                at = trace_game(size, rules, options, item["seed"], stop_at=item["guess"])
                if "board" not in at:
                    continue
                stem = f"{kind.replace(' ', '-').replace('/', '')}-{item['seed']}"
                # The board alone (any minegraph command reads it), the decision beside it.
                (pos_dir / f"{stem}.board").write_text(at["board"], encoding="utf-8")
                (pos_dir / f"{stem}.json").write_text(json.dumps({
                    "seed": item["seed"], "guess": item["guess"], "class": kind,
                    player: item["strong"], against: item["hill"],
                    "won": player if item["strong_won"] else against}) + "\n", encoding="utf-8")
                saved += 1
        summary["positions"] = str(pos_dir.relative_to(HERE.parent)) if pos_dir.is_relative_to(HERE.parent) else str(pos_dir)
        print(f"  {saved} positions written to {pos_dir}")
    summary["machine"] = describe()
    summary["command"] = " ".join(sys.argv)
    return summary


# ---------------------------------------------------------------------------- exact
def exact_difference(size: str, rules: str, options: dict[str, Any], seed: int, k: int,
                     ours: list[list[Any]], theirs: list[list[Any]]) -> Fraction | None:
    """At a first difference (guess ``k``, the same position for both) from which ``strong``
    plays perfectly — at most its ``endgame`` completions, so that every later decision is
    the exact endgame, an unavoidable 50/50 or a certain move — the win probability of its
    cell minus that of the other player's, each with perfect play after it. Given the
    position, the expected difference of the two games is at least this (the other player
    plays on no better than perfectly), so it may stand for the game's outcome in a paired
    estimate that is biased only against ``strong``. ``None`` elsewhere."""
    from minegraph import Board
    from minegraph.errors import LimitError
    from minegraph.play.endgame import Endgame
    a = ours[k] if k < len(ours) else None
    b = theirs[k] if k < len(theirs) else None
    if a is None or b is None or a[3] != b[3]:
        return None
    at = trace_game(size, rules, options, seed, stop_at=k)
    if at.get("cell") != a[0]:     # another revision's trace: not this position
        return None
    board = Board.from_text(at["board"])
    if sum(1 for state in board.states if state >= 0) != a[3]:
        return None
    try:
        endgame = Endgame(board, StrongPolicy(**options).endgame)
    except LimitError:
        return None
    values = endgame.cells_by_value([int(a[0]), int(b[0])])
    return values[int(a[0])] - values[int(b[0])]


def _exact_batch(size: str, rules: str, options: dict[str, Any],
                 items: list[tuple[int, int, list[list[Any]], list[list[Any]]]]) -> list[Fraction | None]:
    return [exact_difference(size, rules, options, seed, k, ours, theirs)
            for seed, k, ours, theirs in items]


def exact_report(size: str, rules: str, player: str, directory: Path, against: str,
                 workers: int | None = None) -> dict[str, Any]:
    """The paired difference with each game whose first difference is at a position
    ``player`` plays perfectly from counted by the exact values of the two moves there
    (:func:`exact_difference`) instead of its outcome: the layouts' coin after equal moves
    no longer widens the interval, and the estimate can only be low for ``player``."""
    ours, theirs, seeds = both_played(directory, size, rules, player, against)
    options = player_options(player, directory, size, rules)
    values: dict[int, float] = {s: float(int(ours[s]["won"]) - int(theirs[s]["won"])) for s in seeds}
    todo = []
    for s in seeds:
        k = first_difference(ours[s]["guesses"], theirs[s]["guesses"])
        if k is not None:
            todo.append((s, k, ours[s]["guesses"], theirs[s]["guesses"]))
    bar = Progress(len(todo), f"exact {size} {rules}", show=True, note_width=12)
    tally: Counter[str] = Counter()
    try:
        batches = list(chunked(iter(todo), 20))
        for batch, found in zip(batches, ordered_map(partial(_exact_batch, size, rules, options),
                                                     batches, workers=workers)):
            for (s, _, _, _), value in zip(batch, found):
                if value is None:
                    tally["outcome"] += 1
                    continue
                tally["equal" if value == 0 else player if value > 0 else against] += 1
                values[s] = float(value)
            bar.advance(len(batch), f"valued {sum(tally.values()) - tally['outcome']}")
    finally:
        bar.close()
    n = len(seeds)
    mean = sum(values.values()) / n
    var = sum((v - mean) ** 2 for v in values.values()) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n)
    valued = sum(tally[key] for key in ("equal", player, against))
    print(f"{size} {rules}: {n} games; {len(todo)} differ in play, {valued} of them first at a "
          f"position {player} plays perfectly from")
    print(f"  there the two moves are worth the same in {tally['equal']}, {player}'s more in "
          f"{tally[player]}, {against}'s more in {tally[against]}")
    print(f"  {player} - {against}, those games by the exact values: {100 * mean:+.2f} +- "
          f"{100 * half:.2f} points (paired 95%; low for {player} if anything)")
    return {"size": size, "rules": rules, "player": player, "against": against, "games": n,
            "differ_in_play": len(todo), "valued": valued, "valued_equal": tally["equal"],
            f"valued_{player}_better": tally[player], f"valued_{against}_better": tally[against],
            "difference": mean, "difference_ci95": [mean - half, mean + half],
            "seeds": [seeds[0], seeds[-1]], "machine": describe(), "command": " ".join(sys.argv)}


def moves_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options that differ from the current defaults (so revision 4 with ``shapely=True``
    and revision 5's defaults are both ``{}``: the same moves)."""
    defaults = {name: p.default for name, p in inspect.signature(StrongPolicy).parameters.items()}
    return {k: v for k, v in options.items() if k not in defaults or v != defaults[k]}


def run_of(text: str) -> tuple[Path, str]:
    """``DIR:PLAYER`` (or ``DIR``, the player ``strong``) as a folder and a player."""
    directory, colon, player = text.rpartition(":")
    return (Path(directory), player) if colon and player else (Path(text.rstrip(":")), "strong")


def pool(size: str, rules: str, runs: list[tuple[Path, str]], against: str = "hill") -> dict[str, Any]:
    """The paired difference over several runs of the same moves, each beside ``against``.

    Each run is a folder and a player traced there; the players must play the same moves
    (the same options once replayed at the current revision, :func:`player_options`) and the
    runs must share no seed, so the pooled games are distinct layouts of one comparison.
    """
    options = [moves_options(player_options(player, directory, size, rules)) for directory, player in runs]
    if any(o != options[0] for o in options):
        raise SystemExit("pool: the players play different moves: "
                         + "; ".join(f"{d}:{p} {o}" for (d, p), o in zip(runs, options)))
    a: list[int] = []
    b: list[int] = []
    parts: list[dict[str, Any]] = []
    seen: set[int] = set()
    for directory, player in runs:
        ours, theirs, seeds = both_played(directory, size, rules, player, against)
        if not seen.isdisjoint(seeds):
            raise SystemExit(f"pool: {directory} repeats seeds of an earlier run")
        seen.update(seeds)
        x = [int(ours[s]["won"]) for s in seeds]
        y = [int(theirs[s]["won"]) for s in seeds]
        diff, half = paired(x, y)
        parts.append({"dir": str(directory), "player": player, "games": len(seeds),
                      "seeds": [seeds[0], seeds[-1]], "difference": diff,
                      "difference_ci95": [diff - half, diff + half]})
        a += x
        b += y
    diff, half = paired(a, b)
    n = len(a)
    return {"size": size, "rules": rules, "against": against, "options": options[0],
            "games": n, "strong_win_rate": sum(a) / n, "hill_win_rate": sum(b) / n,
            "difference": diff, "difference_ci95": [diff - half, diff + half], "runs": parts}


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


# ---------------------------------------------------------------------------- export
def export(size: str, rules: str, directory: Path, out: Path) -> int:
    """Write strong's traced games as :class:`~minegraph.play.bench.BenchResults` (merged
    into ``out`` when it holds the same configuration): a trace holds what ``minegraph
    bench`` records of a game, its result, its number of guesses and its time. Only the
    current revision's defaults are exported; the number of games written is returned."""
    from minegraph.errors import GameError
    from minegraph.play.bench import BenchConfig, BenchResults
    meta = directory / f"{size}-{rules}-strong.options.json"
    recorded = json.loads(meta.read_text()) if meta.exists() else None
    if recorded != {"options": {}, "revision": REVISIONS["strong"]}:
        raise SystemExit(f"{meta}: not strong's defaults at revision {REVISIONS['strong']} "
                         f"({recorded}); only those are minegraph bench's measurement")
    results = BenchResults(BenchConfig(size, rules, "strong"))
    games = load(directory / f"{size}-{rules}-strong.jsonl")
    results.add((seed, bool(r["won"]), len(r["guesses"]), float(r["seconds"]))
                for seed, r in sorted(games.items()))
    if out.exists():
        try:
            results.merge(BenchResults.load(out))
        except GameError as error:
            raise SystemExit(f"{out}: {error}") from None
    results.save(out)
    return len(games)


# ---------------------------------------------------------------------------- variants
def parse_options(text: str) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in filter(None, text.split(",")):
        key, _, value = item.partition("=")
        options[key] = json.loads(value) if value[:1] in "-0123456789[{tfn\"" else value
    return options


#: The options under which the current ``StrongPolicy`` plays as an older revision did on
#: Expert (to replay its traced games).
REVISION_OPTIONS: dict[int, dict[str, Any]] = {
    4: {"shapely": False}, 3: {"shapely": False, "living": False},
    2: {"shapely": False, "living": False, "fifty": 0, "blend": 0}}


def player_options(player: str, directory: Path, size: str, rules: str) -> dict[str, Any]:
    """The options a player's games were traced with, as options of the current revision."""
    meta = directory / f"{size}-{rules}-{player}.options.json"
    if not meta.exists():
        return {}
    recorded = json.loads(meta.read_text())
    revision = recorded.get("revision", REVISIONS["strong"])
    if revision != REVISIONS["strong"] and revision not in REVISION_OPTIONS:
        raise SystemExit(f"{meta}: revision {revision}: no options replay it")
    return {**REVISION_OPTIONS.get(revision, {}), **recorded["options"]}


def seeds_of(args: argparse.Namespace) -> list[int]:
    seeds = range(args.seed, args.seed + args.games)
    if getattr(args, "two_corners", False):
        return [s for s in seeds if two_corners_show_numbers(args.size, args.rules, s)]
    if getattr(args, "first_shows_number", False):
        return [s for s in seeds if first_shows_number(args.size, args.rules, s)]
    return list(seeds)


def two_corners_show_numbers(size: str, rules: str, seed: int) -> bool:
    """Whether (0, 0) and (0, last) are both safe and show numbers (classic Expert's third
    click is then a guess off the frontier)."""
    game = Game(size, rules=rules, seed=seed)
    game.reveal(0)
    assert game.layout is not None and game.cols is not None
    far = game.cols - 1
    return far not in game.layout and game.number(0) > 0 and game.number(far) > 0


def first_shows_number(size: str, rules: str, seed: int) -> bool:
    """Whether the first click of ``seed`` uncovers only itself (a number, not an area)."""
    game = Game(size, rules=rules, seed=seed)
    return game.reveal(default_first_cell(rules, game.rows, game.cols)) == [
        default_first_cell(rules, game.rows, game.cols)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="step", required=True)
    for name in ("peer", "strong", "report", "verify", "export", "pool"):
        p = sub.add_parser(name)
        p.add_argument("--size", default="expert")
        p.add_argument("--rules", default="classic", choices=["classic", "modern"])
        if name != "pool":   # pool names its folders with --run
            p.add_argument("--dir", type=Path, default=HERE / "results" / "hill")
        if name not in ("report", "verify", "export", "pool"):
            p.add_argument("--seed", type=int, default=9_000_000_000)
            p.add_argument("--games", type=int, default=10_000)
            p.add_argument("--workers", type=int, default=None)
    sub.choices["peer"].add_argument("--classes", type=Path,
                                     default=os.environ.get("MINEGRAPH_HILL_CLASSES"),
                                     help="the peer's compiled classes (or $MINEGRAPH_HILL_CLASSES)")
    sub.choices["peer"].add_argument("--setting", default="SMALL_ANALYSIS")
    sub.choices["strong"].add_argument("--first-shows-number", action="store_true",
                                       help="play only the seeds whose first click shows a number "
                                            "(where the second click is already a guess)")
    sub.choices["strong"].add_argument("--two-corners", action="store_true",
                                       help="play only the seeds where (0,0) and (0,last) are safe "
                                            "and show numbers (classic: the third click is a guess)")
    sub.choices["strong"].add_argument("--variant", default="strong",
                                       help="name[:key=value,...]: StrongPolicy options over its defaults")
    sub.choices["verify"].add_argument("--games", type=int, default=500,
                                       help="how many of the peer's games to replay (the first by seed)")
    sub.choices["export"].add_argument("--out", type=Path, required=True,
                                       help="the minegraph bench results file to write or merge into")
    sub.choices["report"].add_argument("--player", default="strong")
    sub.choices["report"].add_argument("--against", default="hill",
                                       help="the other player (default hill; or a strong variant)")
    sub.choices["report"].add_argument("--positions", type=int, default=20,
                                       help="positions written per class (0: none)")
    sub.choices["report"].add_argument("--exact", action="store_true",
                                       help="also the paired difference with each game that first "
                                            "differs where the player plays perfectly counted by the "
                                            "exact values of the two moves (slow: replays those games)")
    sub.choices["report"].add_argument("--workers", type=int, default=None)
    sub.choices["pool"].add_argument("--run", action="append", required=True, metavar="DIR:PLAYER",
                                     help="a folder and the player traced there (repeat; the "
                                          "players must play the same moves, the seeds differ)")
    sub.choices["pool"].add_argument("--against", default="hill")
    sub.choices["pool"].add_argument("--out", type=Path, default=None, help="also write the JSON here")
    args = parser.parse_args()
    if args.step != "pool":
        args.dir.mkdir(parents=True, exist_ok=True)
    if args.step == "peer":
        if args.classes is None:
            print("hill_side_by_side: skipped: no compiled peer given (--classes or "
                  "$MINEGRAPH_HILL_CLASSES; see bench/peers/hill/README.md)")
            return 0
        run_peer(Path(args.classes), args.size, args.rules, seeds_of(args),
                 args.dir / f"{args.size}-{args.rules}-hill.jsonl", args.workers or 1, args.setting)
    elif args.step == "strong":
        name, _, rest = args.variant.partition(":")
        options = parse_options(rest)
        meta = args.dir / f"{args.size}-{args.rules}-{name}.options.json"
        recorded = {"options": options, "revision": REVISIONS["strong"]}
        if meta.exists() and json.loads(meta.read_text()) != recorded:
            raise SystemExit(f"{meta}: this player was played with {meta.read_text().strip()}; "
                             f"choose another name for other options")
        meta.write_text(json.dumps(recorded) + "\n")
        run_strong(args.size, args.rules, seeds_of(args), args.dir / f"{args.size}-{args.rules}-{name}.jsonl",
                   options, args.workers)
    elif args.step == "export":
        n = export(args.size, args.rules, args.dir, args.out)
        print(f"{args.out}: {n} games of strong revision {REVISIONS['strong']} ({args.size} {args.rules})")
    elif args.step == "pool":
        runs = [run_of(text) for text in args.run]
        pooled = pool(args.size, args.rules, runs, args.against)
        for part in pooled["runs"]:
            lo, hi = part["difference_ci95"]
            print(f"  {part['dir']} {part['player']}: {part['games']} games, "
                  f"{100 * part['difference']:+.2f} +- {100 * (hi - lo) / 2:.2f} points")
        lo, hi = pooled["difference_ci95"]
        print(f"{args.size} {args.rules}, pooled: {pooled['games']} games, strong "
              f"{pooled['strong_win_rate']:.2%}, {args.against} {pooled['hill_win_rate']:.2%}: "
              f"{100 * pooled['difference']:+.2f} +- {100 * (hi - lo) / 2:.2f} points (paired 95%)")
        if args.out is not None:
            args.out.write_text(json.dumps(pooled, indent=1) + "\n", encoding="utf-8")
            print(f"  written to {args.out}")
    elif args.step == "verify":
        records = load(args.dir / f"{args.size}-{args.rules}-hill.jsonl")
        sample = sorted(records)[:args.games]
        problems = [p for p in (replay_peer(args.size, args.rules, records[s]) for s in sample) if p]
        print(f"{len(sample) - len(problems)} of {len(sample)} peer games replay through minegraph's "
              f"game exactly as the peer played them")
        for problem in problems[:20]:
            print("  " + problem)
        return 1 if problems else 0
    else:
        summary = report(args.size, args.rules, args.player, args.dir, args.positions, args.against)
        out = args.dir / f"{args.size}-{args.rules}-{args.player}-vs-{args.against}.json"
        out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
        print(f"  report written to {out}")
        if args.exact:
            exact = exact_report(args.size, args.rules, args.player, args.dir, args.against, args.workers)
            out = args.dir / f"{args.size}-{args.rules}-{args.player}-vs-{args.against}-exact.json"
            out.write_text(json.dumps(exact, indent=1) + "\n", encoding="utf-8")
            print(f"  written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
