"""Compare the engines (dp, auto, sat, backtrack, brute) question by question, and how they grow.

Questions timed per engine and board:

- ``complete``: consistency and one completion (``engine.complete``; ``dp`` and ``brute``
  answer everything in one ``run``, timed once and reported under both);
- ``run``: everything the engine answers: forced cells for ``sat`` and ``backtrack``,
  counts and probabilities for ``dp``/``brute``, either for ``auto``.

Boards: the Expert corpus (``bench/expert_corpus.py``), and growing families: 2×n strips with
one uncovered row (German & Lakshtanov's Theorem 1), checkerboard openings m×m without and with
the total (Theorem 2's layout; the width of the components grows with m), random mid-game
positions of L×L boards with 20% mines. Plus the backtracking solver's recursion counts with
and without pseudo-independent regions (Expert corpus; stacks of two-state gadgets, where the
total forces backtracking across regions).

Every call runs under ``time_limit(--timeout)``: a call that does not finish is recorded as
``"timeout"``, one an engine refuses (``brute`` past 22 hidden cells, a SAT total too large)
as ``"refused"``. Answers are checked against ``dp`` wherever both finish.

Usage::

    .venv/bin/python bench/bench_engines.py            # about 10 minutes -> bench/results/engines.json
    .venv/bin/python bench/bench_engines.py --quick    # about 1 minute  -> bench/results/engines-quick.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).parent))

from expert_corpus import expert_corpus  # noqa: E402

from machine import describe  # noqa: E402
from minegraph import Board  # noqa: E402
from minegraph.recipes import checkerboard_opening  # noqa: E402
from minegraph.board import HIDDEN  # noqa: E402
from minegraph.engines.backtrack import BacktrackEngine, UrbasSearch  # noqa: E402
from minegraph.deadline import time_limit  # noqa: E402
from minegraph.engines.base import EngineResult  # noqa: E402
from minegraph.engines.brute import BruteEngine  # noqa: E402
from minegraph.engines.dp import DPEngine  # noqa: E402
from minegraph.engines.portfolio import PortfolioEngine  # noqa: E402
from minegraph.engines.sat import SatEngine  # noqa: E402
from minegraph.errors import LimitError, QueryTimeout  # noqa: E402
from minegraph.recipes import midgame_position  # noqa: E402
from minegraph.topology import grid_neighbors  # noqa: E402

ENGINES: dict[str, Callable[[], Any]] = {
    "dp": DPEngine, "auto": PortfolioEngine, "sat": SatEngine,
    "backtrack": BacktrackEngine, "brute": BruteEngine,
}


# ----------------------------------------------------------------------------- boards
def strip(n: int, seed: int) -> Board:
    """2×n: row 0 hidden with mines at random (p = 1/2), row 1 uncovered, with the total."""
    rng = random.Random(seed)
    mines = [rng.random() < 0.5 for _ in range(n)]
    nbrs = grid_neighbors("square", 2, n)
    states = [HIDDEN] * n + [sum(mines[q] for q in nbrs[n + c] if q < n) for c in range(n)]
    return Board.grid(2, n, states, mines=sum(mines))


def checkerboard(m: int, seed: int, total: bool, density: float = 0.3) -> Board:
    """m×m checkerboard opening (:func:`minegraph.recipes.checkerboard_opening`)."""
    return checkerboard_opening(m, m, density, seed=seed, total=total)


def gadgets(k: int, extra: int) -> Board:
    """k two-state gadgets between rows of known mines (tests/data/positions-urbas/README.md),
    total = known + k + extra."""
    rows = ["MMMMM"] + ["#7#7#", "MMMMM"] * k
    return Board.from_text(f"mines: {5 * (k + 1) + k + extra}\n" + "\n".join(rows))


# ----------------------------------------------------------------------------- timing
def timed(call: Callable[[], EngineResult], timeout: float) -> tuple[Any, EngineResult | None]:
    start = time.perf_counter()
    try:
        with time_limit(timeout):
            result = call()
    except QueryTimeout:
        return "timeout", None
    except LimitError:
        return "refused", None
    return time.perf_counter() - start, result


def forced_of(r: EngineResult) -> tuple[frozenset[int], frozenset[int]] | None:
    if not r.consistent:
        return None
    if r.safe is not None and r.mines is not None:
        return r.safe, r.mines
    if r.mine_counts is None or r.count is None:
        return None
    return (frozenset(c for c, m in r.mine_counts.items() if m == 0),
            frozenset(c for c, m in r.mine_counts.items() if m == r.count))


def measure(board: Board, engines: list[str], timeout: float) -> dict[str, Any]:
    """Times of every engine on one board, answers checked against dp's."""
    row: dict[str, Any] = {"hidden": board.hidden_count}
    system, width = PortfolioEngine().plan(board)
    row["width"] = width
    row["frontier"] = sum(box.size for box in system.boxes)
    reference: EngineResult | None = None
    for name in engines:
        engine = ENGINES[name]()
        if name in ("dp", "brute"):
            t, r = timed(lambda: engine.run(board), timeout)
            row[name] = {"complete": t, "run": t}
        else:
            tc, rc = timed(lambda: engine.complete(board), timeout)
            t, r = timed(lambda: engine.run(board), timeout)
            row[name] = {"complete": tc, "run": t}
            if rc is not None and reference is not None:
                row[name]["agrees_complete"] = rc.consistent == reference.consistent
        if r is not None:
            if name == "dp":
                reference = r
            elif reference is not None:
                row[name]["agrees"] = (r.consistent == reference.consistent
                                       and forced_of(r) == forced_of(reference))
            if name == "backtrack":
                row[name]["calls"] = r.stats.get("calls")
                row[name]["forced_calls"] = r.stats.get("forced_calls")
            if name == "auto":
                row[name]["chose"] = r.stats.get("engine")
    return row


def summary(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    if not values:
        return {}
    def rank(q: float) -> float:   # nearest rank
        return values[max(0, math.ceil(q * len(values)) - 1)]
    return {"median_ms": statistics.median(values) * 1e3, "p90_ms": rank(0.9) * 1e3,
            "max_ms": values[-1] * 1e3, "mean_ms": statistics.fmean(values) * 1e3,
            "total_s": sum(values)}


# ----------------------------------------------------------------------------- sections
def bench_expert(count: int, timeout: float) -> dict[str, Any]:
    boards = expert_corpus(count)
    rows = [measure(b, list(ENGINES), timeout) for b in boards]
    out: dict[str, Any] = {"positions": count}
    for name in ENGINES:
        for question in ("complete", "run"):
            times = [r[name][question] for r in rows if isinstance(r[name][question], float)]
            out[f"{name}.{question}"] = {**summary(times),
                                         "timeouts": sum(r[name][question] == "timeout" for r in rows),
                                         "refused": sum(r[name][question] == "refused" for r in rows)}
        agree = [r[name].get("agrees") for r in rows if "agrees" in r[name]]
        if agree:
            out[f"{name}.agrees_with_dp"] = f"{sum(agree)}/{len(agree)}"
    out["max_width"] = max(r["width"] for r in rows)
    out["auto_chose"] = {e: sum(r["auto"].get("chose") == e for r in rows) for e in ("dp", "sat")}
    return out


def urbas_calls(boards: list[Board], timeout: float) -> dict[str, Any]:
    """The source's claim: regions cut the recursive calls (first completion, seed 0)."""
    pairs = []
    for b in boards:
        counts = []
        for regions in (True, False):
            search = UrbasSearch(b, regions=regions)
            try:
                with time_limit(timeout):
                    search.solve()
                counts.append(search.calls)
            except QueryTimeout:
                counts.append(None)
        pairs.append(counts)
    done = [(a, b) for a, b in pairs if a is not None and b is not None]
    ratios = sorted(b / a for a, b in done if a)
    return {"positions": len(boards),
            "calls_with_regions": {"median": statistics.median([a for a, _ in done]),
                                   "max": max(a for a, _ in done), "total": sum(a for a, _ in done)},
            "calls_without_regions": {"median": statistics.median([b for _, b in done]),
                                      "max": max(b for _, b in done), "total": sum(b for _, b in done)},
            "ratio_without_over_with": {"median": statistics.median(ratios), "max": ratios[-1],
                                        "min": ratios[0]},
            "timeouts": sum(1 for a, b in pairs if a is None or b is None)}


def dead_end(k: int) -> Board:
    """k gadgets "#1#1#" without a total, then the unsatisfiable "333" block
    (tests/engines/test_backtrack.py): only search shows it has no solution."""
    return Board.from_text("-----\n#1#1#\n" * k + "-----\n###--\n333--\n###--")


def bench_gadgets(ks: list[int], timeout: float, make: Callable[[int], Board]) -> list[dict[str, Any]]:
    rows = []
    for k in ks:
        board = make(k)
        row: dict[str, Any] = {"k": k}
        for regions in (True, False):
            search = UrbasSearch(board, regions=regions)
            start = time.perf_counter()
            try:
                with time_limit(timeout):
                    search.solve()
                row["regions" if regions else "flat"] = {
                    "calls": search.calls, "cross_region_backtracks": search.cross_region_backtracks,
                    "s": time.perf_counter() - start}
            except QueryTimeout:
                row["regions" if regions else "flat"] = "timeout"
        t, _ = timed(lambda: DPEngine().run(board), timeout)
        row["dp_s"] = t
        t, _ = timed(lambda: SatEngine().complete(board), timeout)
        row["sat_complete_s"] = t
        rows.append(row)
    return rows


def bench_family(name: str, boards: list[tuple[Any, Board]], engines: list[str],
                 timeout: float) -> list[dict[str, Any]]:
    rows = []
    for size, board in boards:
        row = {"size": size, **measure(board, engines, timeout)}
        rows.append(row)
        print(f"  {name} {size}: " + ", ".join(
            f"{e} {fmt(row[e]['complete'])}/{fmt(row[e]['run'])}" for e in engines), flush=True)
    return rows


def fmt(t: Any) -> str:
    return f"{t * 1e3:.1f}ms" if isinstance(t, float) else str(t)


def machine() -> dict[str, Any]:
    import pysat
    return describe(**{"python-sat": getattr(pysat, "__version__", "?")})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, about a minute")
    parser.add_argument("--timeout", type=float, help="seconds per call (default 10, quick 2)")
    parser.add_argument("--out", help="JSON file (default bench/results/engines[-quick].json)")
    args = parser.parse_args(argv)
    quick = args.quick
    timeout = args.timeout or (2.0 if quick else 10.0)
    results: dict[str, Any] = {"command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
                               "date": time.strftime("%Y-%m-%d"), "machine": machine(),
                               "timeout_s": timeout}
    everything = ["dp", "auto", "sat", "backtrack", "brute"]
    print("expert corpus", flush=True)
    results["expert"] = bench_expert(20 if quick else 200, timeout)
    results["urbas_calls_expert"] = urbas_calls(expert_corpus(20 if quick else 200), timeout)
    print("gadget stacks", flush=True)
    ks = [2, 4, 6, 8, 10] if quick else [2, 4, 6, 8, 10, 12, 14, 16]
    # Every gadget holds at most 2 mines: a total of 2k + 1 cannot fit (backtracking across
    # regions); and without a total, a late region that fails (regions stop at once).
    results["gadgets_total"] = bench_gadgets(ks, timeout, lambda k: gadgets(k, k + 1))
    results["gadgets_dead_end"] = bench_gadgets(ks, timeout, dead_end)
    print("families", flush=True)
    strips = [8, 64, 512] if quick else [8, 32, 128, 512, 2048, 8192]
    results["strip"] = bench_family("strip 2x", [(n, strip(n, n)) for n in strips], everything, timeout)
    checks = [6, 10, 14] if quick else [6, 10, 14, 18, 22, 26, 30, 40]
    results["checkerboard"] = bench_family("checkerboard", [(m, checkerboard(m, m, False)) for m in checks],
                                           everything, timeout)
    checks_total = [6, 10, 14] if quick else [10, 20, 30, 40, 50]
    results["checkerboard_total"] = bench_family(
        "checkerboard+total", [(m, checkerboard(m, m, True)) for m in checks_total], everything, timeout)
    mids = [50] if quick else [50, 100, 200, 400]
    results["midgame"] = bench_family(
        "midgame", [(n, midgame_position(n, n, n * n // 5, seed=0)) for n in mids],
        ["dp", "auto", "sat", "backtrack"], timeout)
    out = Path(args.out) if args.out else Path(__file__).parent / "results" / (
        "engines-quick.json" if quick else "engines.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1, default=str) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
