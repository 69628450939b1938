"""How long reviewing replays takes.

1. One Expert replay (about 300 uncovering clicks, recorded by minegraph as `.evf`, read in
   the child process included), reviewed without and with win probabilities (the coach):
   median, min and max over ``--repeats`` runs; then the same for an Expert game of `strong`
   with at least ``--guesses`` guesses (the coach's work is per guess).
2. With ``--archive N``: an archive of N Expert replays of games played by the `strong`
   autoplayer (seeds from ``--seed``; moves at a human pace of 0.2 to 0.6 s so the rates are
   of a real size), reviewed by ``minegraph review --out`` on ``--workers`` local processes,
   without win probabilities, with the exact verdicts only (``--samples 0``) and with
   play-outs (``--modes``); the wall time, games per second and the
   extrapolation to 1,000 replays.
3. With ``--dask``: the same archive (its first ``--dask`` replays) on a local Dask cluster of
   1 worker and of 2 workers (one thread each), for the scaling.
4. With ``--playouts N``: the coach's quick play-out against `strong` played to the end on
   the same N layouts per guess judged by play, in 10 Expert replays of strong (mean values,
   the paired difference with its 95% half-width, CPU time per play-out).

    .venv/bin/python bench/bench_review.py [--repeats 5] [--archive 200 --workers 2] [--dask 40]
        [--modes off,exact,play] [--playouts 10] [--out bench/results/review.json]

Writes bench/results/review.json (or ``--out``): per part measured (``single``, ``archive``,
``playout``), the figures with the machine description, the load average before and after, and the command; a run that
measures one part keeps the other's earlier figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from machine import describe  # noqa: E402

from minegraph.play.coach import coach  # noqa: E402
from minegraph.play.record import evf_bytes, save_evf  # noqa: E402
from minegraph.play.review import review_bytes  # noqa: E402


def _spread(times: list[float]) -> dict[str, object]:
    return {"median": statistics.median(times), "min": min(times), "max": max(times),
            "runs": times}


def _timed(data: bytes, repeats: int) -> dict[str, object]:
    plain, judged, judged_cpu = [], [], []
    clicks = guesses = exact = drawn = 0
    for _ in range(repeats):
        started = time.perf_counter()
        r = review_bytes(data, "evf")
        plain.append(time.perf_counter() - started)
        started, cpu = time.perf_counter(), time.process_time()
        c = coach(review_bytes(data, "evf"))
        judged.append(time.perf_counter() - started)
        # The coach runs in this process (the reading's child process aside): its CPU time
        # is what an idle machine's wall time would be, whatever runs beside.
        judged_cpu.append(time.process_time() - cpu)
        clicks, guesses = len(r.clicks), len(r.guesses)
        exact = sum(1 for v in c.verdicts.values() if v.exact)
        drawn = sum(v.samples for v in c.verdicts.values())
    print(f"  {clicks} clicks, {guesses} guesses ({exact} judged exactly, {drawn} layouts "
          f"played out): {statistics.median(plain):.3f} s without win probabilities, "
          f"{statistics.median(judged):.3f} s with ({statistics.median(judged_cpu):.3f} s of "
          f"CPU; medians of {repeats})", flush=True)
    return {"replay": {"size": "expert", "clicks": clicks, "guesses": guesses,
                       "exact_verdicts": exact, "layouts_played_out": drawn,
                       "bytes": len(data)},
            "seconds": _spread(plain), "seconds_with_win_probabilities": _spread(judged),
            "cpu_seconds_with_win_probabilities": _spread(judged_cpu)}


def guessing_game(seed: int, guesses: int) -> bytes:
    """The first Expert game from ``seed`` on that strong plays with at least ``guesses``
    guesses (won or lost), as a replay."""
    from minegraph.play.game import Game
    from minegraph.play.policies import StrongPolicy, play
    for s in range(seed, seed + 200):
        game = Game("expert", rules="modern", seed=s)
        record = play(game, StrongPolicy())
        if record.guesses >= guesses:
            return evf_bytes(game)
    raise SystemExit(f"no Expert game with {guesses} guesses from seed {seed}")


def single(repeats: int, seed: int, guesses: int) -> dict[str, object]:
    from play.test_review import _expert_game
    print("one Expert replay won by safe clicks (the replay of the earlier figure):")
    plain = _timed(evf_bytes(_expert_game()), repeats)
    print(f"one Expert replay of strong with at least {guesses} guesses (seeds from {seed}):")
    return {**plain, "guessing_replay": _timed(guessing_game(seed, guesses), repeats)}


def playout_check(seeds: list[int], layouts: int, endgame: int,
                  looks: tuple[int, ...] = (0, 2, 4)) -> dict[str, object]:
    """The coach's quick play-out (each ``look``) against `strong` played to the end, on the
    same layouts: at every guess judged by play (more than 1,000 completions) of the Expert
    replays of strong from each seed (at least 3 guesses), ``layouts`` drawn per guess."""
    from minegraph.analyser import Analyser
    from minegraph.play.game import Move
    from minegraph.play.policies import StrongPolicy, play
    from minegraph.play.rollout import game_at, play_out
    from minegraph.sample import sample_completion
    rows: list[dict[object, float]] = []
    cpu: dict[object, float] = {k: 0.0 for k in (*looks, "strong")}
    for seed in seeds:
        r = review_bytes(guessing_game(seed, 3), "evf")
        analyser = Analyser()
        for click in r.timeline:
            board = click.board
            if not click.guess or (analyser.analyze(board).solutions or 0) <= 1000:
                continue
            rng = random.Random(seed * 7 + click.number)
            for _ in range(layouts):
                layout = sample_completion(board, rng, analyser)
                row: dict[object, float] = {}
                for look in looks:
                    t = time.process_time()
                    row[look] = play_out(board, layout, click.at_risk, endgame=endgame,
                                         look=look)
                    cpu[look] += time.process_time() - t
                t = time.process_time()
                game = game_at(board, layout)
                for c in click.at_risk:
                    if game.status == "playing":
                        game.push(Move("reveal", c))
                if game.status == "playing":
                    play(game, StrongPolicy())
                cpu["strong"] += time.process_time() - t
                row["strong"] = float(game.status == "won")
                rows.append(row)
    n = len(rows)
    out: dict[str, object] = {"seeds": seeds, "layouts_per_guess": layouts, "endgame": endgame,
                              "layouts": n, "strong_mean": sum(r["strong"] for r in rows) / n,
                              "strong_cpu_seconds_each": cpu["strong"] / n}
    for look in looks:
        d = [r[look] - r["strong"] for r in rows]
        out[f"quick_look_{look}"] = {
            "mean": sum(r[look] for r in rows) / n, "difference": sum(d) / n,
            "half_width_95": 1.959964 * statistics.stdev(d) / n ** 0.5,
            "cpu_seconds_each": cpu[look] / n}
        print(f"  quick play-out, look {look}: mean {sum(r[look] for r in rows) / n:.3f} "
              f"against strong's {out['strong_mean']:.3f} on {n} layouts: difference "
              f"{sum(d) / n:+.3f} ± {1.959964 * statistics.stdev(d) / n ** 0.5:.3f}; "
              f"{1000 * cpu[look] / n:.1f} ms a play-out against "
              f"{1000 * cpu['strong'] / n:.1f} ms", flush=True)
    return out


def make_archive(folder: Path, count: int, seed: int) -> None:
    from minegraph.play.game import Game
    from minegraph.play.policies import StrongPolicy, play
    for s in range(seed, seed + count):
        game = Game("expert", rules="modern", seed=s)
        play(game, StrongPolicy())
        rng = random.Random(s)
        times, t = [], 0.0
        for _ in game.moves:
            times.append(t)
            t += rng.uniform(0.2, 0.6)
        (folder / f"expert-{s}.evf").write_bytes(evf_bytes(game, times=times))


def archive(folder: Path, workers: int | None, scheduler: str | None, win: bool,
            count: int, samples: int = 24) -> dict[str, object]:
    from minegraph.play.archive import review_archive, summarize
    out = Path(tempfile.mkdtemp(prefix="minegraph-bench-out-"))
    load = os.getloadavg()
    try:
        before = os.times()
        started = time.perf_counter()
        done = review_archive([folder], out, workers=workers, scheduler=scheduler, win=win,
                              samples=samples)
        seconds = time.perf_counter() - started
        summary = summarize(out)
        # Each row's CPU time (the worker's and its reader's): what the run would take on
        # idle cores, whatever ran beside it; this process's own share (handing out the
        # files, writing the rows) added; the workers' start is left out.
        own = os.times()
        mean = summary["review_cpu_seconds"]["mean"]
        cpu = None if mean is None else mean * done.reviewed + (
            own.user + own.system - before.user - before.system)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    where = f"Dask {scheduler}" if scheduler else f"{workers} workers"
    mode = (f"on ({samples} samples at most)" if samples else "exact only") if win else "off"
    print(f"archive of {done.reviewed} Expert replays on {where}, win probabilities "
          f"{mode}: {seconds:.1f} s ({seconds / max(done.reviewed, 1):.2f} s "
          f"per replay; 1,000 replays: {1000 * seconds / max(done.reviewed, 1) / 60:.1f} min)"
          + ("" if cpu is None else f"; {cpu:.1f} s of CPU: 1,000 replays on 2 idle cores "
             f"{1000 * cpu / max(done.reviewed, 1) / 2 / 60:.1f} min"),
          flush=True)
    return {"replays": done.reviewed, "broken": done.broken, "workers": workers,
            "load_before": load, "load_after": os.getloadavg(),
            "scheduler": "local Dask cluster" if scheduler else None, "win_probabilities": win,
            "samples": samples if win else None,
            "seconds": seconds, "seconds_per_replay": seconds / max(done.reviewed, 1),
            "cpu_seconds": cpu,
            "cpu_seconds_per_replay": None if cpu is None else cpu / max(done.reviewed, 1),
            "cpu_minutes_for_1000_on_2_cores": None if cpu is None
            else 1000 * cpu / max(done.reviewed, 1) / 2 / 60,
            "extrapolated_minutes_for_1000": 1000 * seconds / max(done.reviewed, 1) / 60,
            "review_seconds_per_replay": summary["review_seconds"],
            "review_cpu_seconds_per_replay": summary["review_cpu_seconds"],
            "guesses": summary["guesses"], "games_expected": count}


def dask_scaling(folder: Path, count: int, samples: int) -> list[dict[str, object]]:
    from distributed import LocalCluster
    subset = Path(tempfile.mkdtemp(prefix="minegraph-bench-dask-"))
    try:
        for f in sorted(folder.iterdir())[:count]:
            shutil.copy(f, subset / f.name)
        out = []
        for n in (1, 2):
            with LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                              dashboard_address=None) as cluster:
                out.append(archive(subset, None, cluster.scheduler_address, True, count,
                                   samples))
        return out
    finally:
        shutil.rmtree(subset, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--archive", type=int, default=0, help="replays in the archive (0: none)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=24,
                        help="the coach's rollouts per guess in the archive runs (0: exact "
                             "verdicts only)")
    parser.add_argument("--dask", type=int, default=0,
                        help="replays for the Dask scaling (0: not measured)")
    parser.add_argument("--guesses", type=int, default=4,
                        help="guesses of the replay timed with win probabilities")
    parser.add_argument("--skip-single", action="store_true")
    parser.add_argument("--modes", default="off,exact,play",
                        help="the archive runs, comma-separated: off (no win probabilities), "
                             "exact (--samples 0: exact verdicts only), play (--samples)")
    parser.add_argument("--playouts", type=int, default=0,
                        help="layouts per guess for the quick play-out against strong's "
                             "(0: not measured); Expert replays from seeds --seed, "
                             "--seed+100, ... (10 of them)")
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "review.json"),
                        help="the JSON file of results (parts of an earlier run kept)")
    args = parser.parse_args()
    result: dict[str, object] = {"command": "python " + " ".join(sys.argv), "machine": describe(),
                                 "load_before": os.getloadavg()}
    if not args.skip_single:
        result.update(single(args.repeats, args.seed, args.guesses))
    if args.playouts:
        from minegraph.play.rollout import PLAYOUT_ENDGAME
        print("the quick play-out against strong's, on the same layouts:")
        result["playout"] = playout_check([args.seed + 100 * k for k in range(10)],
                                          args.playouts, PLAYOUT_ENDGAME)
    if args.archive or args.dask:
        folder = Path(tempfile.mkdtemp(prefix="minegraph-bench-archive-"))
        try:
            make_archive(folder, max(args.archive, args.dask), args.seed)
            if args.archive:
                runs = {"off": (False, 0), "exact": (True, 0), "play": (True, args.samples)}
                result["archive"] = [archive(folder, args.workers, None, runs[m][0],
                                             args.archive, runs[m][1])
                                     for m in args.modes.split(",")]
            if args.dask:
                result["dask"] = dask_scaling(folder, args.dask, args.samples)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    result["load_after"] = os.getloadavg()
    out = Path(args.out)
    # A run that measures only some parts keeps the earlier run's other parts, each part
    # with the command and the machine's load it was measured under.
    parts = {"single": [k for k in result if k in ("replay", "seconds",
                                                      "seconds_with_win_probabilities",
                                                      "cpu_seconds_with_win_probabilities",
                                                      "guessing_replay")],
             "archive": [k for k in result if k in ("archive", "dask")],
             "playout": [k for k in result if k == "playout"]}
    earlier = json.loads(out.read_text()) if out.exists() else {}
    merged = dict(earlier.get("parts", {}))
    for name, keys in parts.items():
        if keys:
            merged[name] = {"command": result["command"], "machine": result["machine"],
                            "load_before": result["load_before"],
                            "load_after": result["load_after"],
                            **{k: result[k] for k in keys}}
    if "parts" not in earlier and earlier:      # a file written before parts were kept
        for name, keys in (("single", ("replay", "seconds", "seconds_with_win_probabilities")),
                           ("archive", ("archive", "dask"))):
            if name not in merged and any(k in earlier for k in keys):
                merged[name] = {k: v for k, v in earlier.items()
                                if k in keys or k in ("command", "machine", "load_before",
                                                      "load_after")}
    out.write_text(json.dumps({"parts": merged}, indent=1) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
