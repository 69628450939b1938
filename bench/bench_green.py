"""Benchmark the green-game solvers (issue 5): the Θ(k·m) worst case at the task's limits,
growth with m and with k, random games up to 10^6 moves, and the gra.in -> gra.out pipeline.

Usage::

    .venv/bin/python bench/bench_green.py [--repeats N] [--quick] [--out bench/results/green.json]

Times are wall-clock seconds of the solver call only (game generation and interpreter start
excluded), median over the repeats, with the min..max spread. The JSON written records the
machine (platform, CPU model, Python and numpy versions) and every measurement.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from machine import describe
from minegraph.green.families import ordered_game, random_game, worst_case
from minegraph.green.formats import read_oi, write_oi, write_oi_answer
from minegraph.green.solvers import SOLVERS, solve
from minegraph.green.verify import verify


def machine() -> dict[str, Any]:
    return describe(numpy=np.__version__)


def measure(fn, repeats: int) -> dict:
    fn()  # warm-up (imports, caches)
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return {"median_s": statistics.median(times), "min_s": min(times), "max_s": max(times),
            "repeats": repeats}


RESULTS: list[dict] = []


def run(case: str, game, solvers, repeats: int, **extra) -> None:
    reference = None
    for name in solvers:
        reps = max(1, repeats // 5) if name == "lifting" else repeats
        sol = solve(game, name)
        if reference is None:
            reference = sol
        assert sol.same_regions(reference), (case, name)
        if game.m <= 200_000:
            assert verify(game, sol), (case, name)
        res = measure(lambda: solve(game, name), reps)
        row = {"case": case, "solver": name, "n": game.n, "m": game.m, "k": game.k,
               "stats": {k: int(v) for k, v in sol.stats.items()}, **res, **extra}
        RESULTS.append(row)
        print(f"{case:34s} {name:9s} n={game.n:>7} m={game.m:>8} k={game.k:>5}  "
              f"median {res['median_s'] * 1e3:9.2f} ms  [{res['min_s'] * 1e3:.2f}.."
              f"{res['max_s'] * 1e3:.2f}]  work {sol.stats.get('scanned', 0):>10}", flush=True)


def growth(rows: list[dict], key: str) -> dict:
    """Log-log slope of time against ``key`` per solver (1 = linear)."""
    out = {}
    for name in SOLVERS:
        pts = [(r[key], r["median_s"]) for r in rows if r["solver"] == name]
        if len(pts) >= 2:
            (x0, t0), (x1, t1) = pts[0], pts[-1]
            out[name] = round(math.log(t1 / t0) / math.log(x1 / x0), 2)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--quick", action="store_true", help="fewer sizes, for a smoke run")
    ap.add_argument("--out", default=None,
                    help="JSON results (default bench/results/green.json; green-quick.json with --quick)")
    args = ap.parse_args()
    if args.out is None:
        args.out = "bench/results/green-quick.json" if args.quick else "bench/results/green.json"
    r = args.repeats
    everything = sorted(SOLVERS)
    print("machine:", machine())

    # 1. The Θ(k·m) worst case at the task's limits, plain and linked.
    for linked in (False, True):
        g = worst_case(3000, 30_000, 100, seed=0, linked=linked)
        run(f"limits worst-case{' linked' if linked else ''}", g, everything, r)

    # 2. Growth with m (k = 100) and with k (m = 30,000) on the worst-case family.
    ms = [7_500, 15_000, 30_000] if args.quick else [7_500, 15_000, 30_000, 60_000, 120_000]
    start = len(RESULTS)
    for m in ms:
        run("growth-m worst-case", worst_case(3000, m, 100, seed=1),
            everything if m <= 30_000 else ["attractor", "fast"], r)
    by_m = RESULTS[start:]
    ks = [10, 25, 50, 100] if args.quick else [10, 25, 50, 100, 200]
    start = len(RESULTS)
    for k in ks:
        run("growth-k worst-case", worst_case(3000, 30_000, k, seed=2), everything, r)
    by_k = RESULTS[start:]
    start = len(RESULTS)
    for k in ks:
        run("growth-k worst-case linked", worst_case(3000, 30_000, k, seed=2, linked=True),
            everything, r)
    by_k_linked = RESULTS[start:]

    # 3. Random games, up to 10^6 moves (a tenth of the fields green).
    sizes = [10_000, 100_000] if args.quick else [10_000, 100_000, 1_000_000]
    start = len(RESULTS)
    for m in sizes:
        n = m // 5
        g = random_game(n // 2, n - n // 2, m, n // 10, seed=3)
        run("random 10% green", g, everything if m <= 10_000 else ["attractor", "fast"],
            max(3, r // 3) if m >= 1_000_000 else r)
    by_random = RESULTS[start:]
    big = 200_000 if not args.quick else 20_000
    for k, label in ((100, "random 100 green"), (big // 2, "random half green")):
        g = random_game(big // 2, big // 2, 5 * big, k, seed=4)
        run(label, g, ["attractor", "fast"], max(3, r // 3))

    # 4. The dense family of test 7 at the edge limit, and the whole gra.in -> gra.out path.
    run("gra7-ordered", ordered_game(173, 100, seed=5), everything, r)
    text = write_oi(worst_case(3000, 30_000, 100, seed=0))
    res = measure(lambda: write_oi_answer(solve(read_oi(text), "fast")), r)
    RESULTS.append({"case": "pipeline read+solve+write (fast)", "solver": "fast", "n": 3000,
                    "m": 30_000, "k": 100, **res})
    print(f"{'pipeline gra.in->gra.out (fast)':34s} median {res['median_s'] * 1e3:.2f} ms")

    summary = {"slope_time_vs_m": growth(by_m, "m"), "slope_time_vs_k": growth(by_k, "k"),
               "slope_time_vs_k_linked": growth(by_k_linked, "k"),
               "slope_time_vs_m_random": growth(by_random, "m")}
    print("growth exponents (log-log slope, 1 = linear):", summary)
    out = {"machine": machine(),
           "command": "python bench/bench_green.py " + " ".join(sys.argv[1:]),
           "peer_solver": "none installable here (no PGSolver/Oink in PyPI, Debian or npm)",
           "summary": summary, "results": RESULTS}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    print("wrote", args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
