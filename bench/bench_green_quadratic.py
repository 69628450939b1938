"""Benchmark the ``quadratic`` green-game solver (issue 25) against the other three.

(a) ``families.dense_worst_case(n)`` — k = n/2 green fields, m ≈ n²/8 moves, alternating, Θ(n)
rounds of the classical algorithm — for n from 250 to 4,000 (m up to 2·10⁶); (b) the olympiad's
worst case at its limits, ``worst_case(3000, 30000, 100)``, plain and linked.

Usage::

    .venv/bin/python bench/bench_green_quadratic.py [--repeats N] [--cap SECONDS] [--quick]

Times are wall-clock seconds of the solver call only (game generation excluded): median over
the repeats with the min..max spread. A run that takes over 2 s is itself one of the samples
and its size gets at most 3 repeats (over 15 s: one). An algorithm is not run at a size where
its time at the previous size, grown as n³, would exceed ``--cap`` (reported as such). Every
answer is compared with the first algorithm's, and the quadratic solver's strategies are
checked by the verifier. Writes ``bench/results/green_quadratic.json`` (machine, command, every
measurement, the fitted exponents) and the log-log plot ``bench/results/green_quadratic.png``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from machine import describe
from minegraph.green.families import dense_worst_case, worst_case
from minegraph.green.game import GreenGame
from minegraph.green.solution import Solution
from minegraph.green.solvers import solve
from minegraph.green.verify import verify

ALGORITHMS = ("attractor", "fast", "lifting", "quadratic")
SIZES = (250, 354, 500, 707, 1000, 1414, 2000, 2828, 4000)
RESULTS = Path(__file__).resolve().parent / "results"


def measure(game: GreenGame, name: str, repeats: int) -> tuple[dict[str, Any], Solution]:
    """Time ``solve(game, name)``; a long first run counts as a sample instead of a warm-up."""
    t = time.perf_counter()
    sol = solve(game, name)
    first = time.perf_counter() - t
    times = []
    if first >= 2.0:
        times.append(first)
        repeats = 1 if first >= 15.0 else min(repeats, 3)
    while len(times) < repeats:
        t = time.perf_counter()
        solve(game, name)
        times.append(time.perf_counter() - t)
    return {"median_s": statistics.median(times), "min_s": min(times), "max_s": max(times),
            "repeats": len(times)}, sol


def run_case(case: str, game: GreenGame, names: list[str], repeats: int,
             rows: list[dict[str, Any]]) -> None:
    """Measure ``names`` on one game, checking every answer against the first one."""
    reference: Solution | None = None
    for name in names:
        reps = max(1, repeats // 5) if name == "lifting" else repeats
        res, sol = measure(game, name, reps)
        reference = reference or sol
        assert sol.same_regions(reference), (case, game.n, name)
        checked = None
        if name == "quadratic":
            checked = bool(verify(game, sol))
            assert checked, (case, game.n)
        rows.append({"case": case, "solver": name, "n": game.n, "m": game.m, "k": game.k,
                     **res, "verified": checked,
                     "stats": {k: int(v) for k, v in sol.stats.items()}})
        print(f"{case:22s} {name:9s} n={game.n:>5} m={game.m:>8} k={game.k:>5}  median "
              f"{res['median_s'] * 1e3:10.2f} ms  [{res['min_s'] * 1e3:.2f}.."
              f"{res['max_s'] * 1e3:.2f}] x{res['repeats']}", flush=True)


def fit_exponent(rows: list[dict[str, Any]], name: str, least_n: int = 0) -> float | None:
    """Least-squares slope of log(time) against log(n) for one solver (1 = linear)."""
    pts = [(r["n"], r["median_s"]) for r in rows if r["solver"] == name and r["n"] >= least_n]
    if len(pts) < 2:
        return None
    x, y = np.log([p[0] for p in pts]), np.log([p[1] for p in pts])
    return round(float(np.polyfit(x, y, 1)[0]), 2)


def dense_sweep(sizes: list[int], repeats: int, cap: float) -> tuple[list[dict[str, Any]],
                                                                     list[dict[str, Any]]]:
    """Family (a): every algorithm at every size until its predicted time passes ``cap``."""
    rows: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    last: dict[str, tuple[int, float]] = {}
    for n in sizes:
        game = dense_worst_case(n, seed=n)
        names = []
        for name in ALGORITHMS:
            if name in last:
                prev_n, prev_t = last[name]
                predicted = prev_t * (n / prev_n) ** 3
                if predicted > cap:
                    skipped.append({"solver": name, "n": n, "predicted_s": round(predicted, 1),
                                    "reason": f"time at n={prev_n} grown as n^3 exceeds the "
                                              f"{cap:g} s cap"})
                    print(f"{'dense k=n/2 m=n^2/8':22s} {name:9s} n={n:>5}  not run: predicted "
                          f"{predicted:.0f} s > cap {cap:g} s", flush=True)
                    continue
            names.append(name)
        # The model solution first, so every other answer is checked against it.
        run_case("dense k=n/2 m=n^2/8", game, names, repeats, rows)
        for r in rows[-len(names):]:
            last[r["solver"]] = (n, r["median_s"])
    return rows, skipped


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    """Log-log plot of median time against n per algorithm, with n² and n³ guides."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.6))
    for name, marker in zip(ALGORITHMS, "osD^"):
        pts = [(r["n"], r["median_s"], r["min_s"], r["max_s"]) for r in rows
               if r["solver"] == name]
        if not pts:
            continue
        n, med, lo, hi = (np.array(col) for col in zip(*pts))
        ax.errorbar(n, med, yerr=[med - lo, hi - med], marker=marker, capsize=3,
                    label=f"{name} (slope {fit_exponent(rows, name)})")
    quad = [(r["n"], r["median_s"]) for r in rows if r["solver"] == "quadratic"]
    if quad:
        n0, t0 = quad[-1]
        xs = np.array([min(r["n"] for r in rows), n0])
        ax.plot(xs, t0 * (xs / n0) ** 2, "k:", lw=1, label="∝ n² (through quadratic's last)")
        ax.plot(xs, 10 * t0 * (xs / n0) ** 3, "k--", lw=1, label="∝ n³")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("fields n  (k = n/2 green, m ≈ n²/8 moves)")
    ax.set_ylabel("solver time, s (median, min..max)")
    ax.set_title("Green game, dense worst case: time against n")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--cap", type=float, default=30.0,
                    help="skip an algorithm at a size where its predicted time exceeds this")
    ap.add_argument("--quick", action="store_true", help="sizes up to 1000 only (a smoke run)")
    ap.add_argument("--sizes", type=int, nargs="*", default=None)
    ap.add_argument("--out", default=None, help="JSON path (default bench/results/"
                                                "green_quadratic.json; -quick with --quick)")
    args = ap.parse_args()
    sizes = args.sizes or [n for n in SIZES if not args.quick or n <= 1000]
    stem = "green_quadratic-quick" if args.quick else "green_quadratic"
    out = Path(args.out) if args.out else RESULTS / f"{stem}.json"
    machine = describe(numpy=np.__version__)
    print("machine:", machine)

    dense, skipped = dense_sweep(sizes, args.repeats, args.cap)
    limits: list[dict[str, Any]] = []
    for linked in (False, True):
        game = worst_case(3000, 30_000, 100, seed=0, linked=linked)
        run_case(f"limits worst-case{' linked' if linked else ''}", game, list(ALGORITHMS),
                 max(args.repeats, 15), limits)

    exponents = {name: fit_exponent(dense, name) for name in ALGORITHMS}
    tail = {name: fit_exponent(dense, name, least_n=1000) for name in ALGORITHMS}
    largest = max(r["n"] for r in dense)
    at_largest = {r["solver"]: r["median_s"] for r in dense if r["n"] == largest}
    others = {k: v for k, v in at_largest.items() if k != "quadratic"}
    best = min(others, key=lambda k: others[k]) if others else None
    ratio = at_largest["quadratic"] / others[best] if best else None
    plain = next(r for r in limits if r["solver"] == "quadratic" and "linked" not in r["case"])
    summary = {
        "exponent_all_sizes": exponents, "exponent_n_ge_1000": tail,
        "largest_n": largest, "best_existing_at_largest_n": best,
        "ratio_quadratic_to_best_existing_at_largest_n": round(ratio, 4) if ratio else None,
        "limits_worst_case_quadratic_ms": round(plain["median_s"] * 1e3, 2),
        "targets": {"exponent <= 2.2": bool(exponents["quadratic"] is not None
                                            and exponents["quadratic"] <= 2.2),
                    "ratio <= 0.1": bool(ratio is not None and ratio <= 0.1),
                    "limits < 30 ms": plain["median_s"] < 0.030},
    }
    print("exponents (all sizes):", exponents)
    print("exponents (n >= 1000):", tail)
    print("summary:", json.dumps(summary))
    result = {"machine": machine,
              "command": "python bench/bench_green_quadratic.py " + " ".join(sys.argv[1:]),
              "summary": summary, "not_run": skipped, "dense": dense, "limits": limits}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    png = out.with_suffix(".png")
    plot(dense, png)
    print("wrote", out, "and", png)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
