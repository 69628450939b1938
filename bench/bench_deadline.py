"""How precisely every engine honours a time limit: the overshoot past ``--limit`` seconds.

The requirement (an earlier issue): a limit is honoured within 10% or 50 ms, whichever is
larger, by every engine, in the main thread and in a worker thread. For each engine, on a
board it needs far longer than the limit for (the same checkerboard openings as
``tests/test_deadline.py``), ``analyze(board, engine=E, timeout=LIMIT)`` runs ``--runs`` times
in the main thread and as many in a worker thread; the report gives the median and the
largest overshoot (seconds past the limit) and whether the largest is within the bound. The
tests only check that the limit is honoured at all (a busy machine stretches the figures).

Usage::

    .venv/bin/python bench/bench_deadline.py                 # about a minute
    .venv/bin/python bench/bench_deadline.py --runs 3 --out /tmp/d.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from machine import describe  # noqa: E402

from minegraph import analyze  # noqa: E402
from minegraph.engines import get_engine  # noqa: E402
from minegraph.errors import QueryTimeout  # noqa: E402
from minegraph.recipes import checkerboard_opening  # noqa: E402

HERE = Path(__file__).resolve().parent

#: Engine -> (rows, cols, seed, with the total): a checkerboard opening of density 0.3 that
#: keeps the engine busy for seconds to minutes (tests/test_deadline.py lists the times).
HARD: dict[str, tuple[int, int, int, bool]] = {
    "auto": (60, 60, 1, True),
    "dp": (36, 36, 1, True),
    "sat": (60, 60, 1, True),
    "sat:minisat": (60, 60, 1, True),
    "backtrack": (36, 36, 1, True),
    "thesis": (16, 16, 2, True),
    "dp-thesis": (26, 26, 1, True),
    "brute": (4, 9, 4, False),
}


def _overshoot(board: object, engine: str, limit: float) -> float:
    start = time.monotonic()
    try:
        analyze(board, engine=engine, timeout=limit)  # type: ignore[arg-type]
    except QueryTimeout:
        return time.monotonic() - start - limit
    raise SystemExit(f"{engine} answered within {limit} s: the board is not hard enough")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit", type=float, default=0.5)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", default=str(HERE / "results" / "deadline.json"))
    opts = ap.parse_args()
    bound = max(0.1 * opts.limit, 0.05)
    rows = []
    with ThreadPoolExecutor(max_workers=1) as worker:
        for engine, (r, c, seed, total) in HARD.items():
            get_engine(engine)                      # imports outside the timed call
            board = checkerboard_opening(r, c, 0.3, seed=seed, total=total)
            for where in ("main thread", "worker thread"):
                over = [(_overshoot(board, engine, opts.limit) if where == "main thread" else
                         worker.submit(_overshoot, board, engine, opts.limit).result())
                        for _ in range(opts.runs)]
                row = {"engine": engine, "where": where,
                       "median_overshoot": round(statistics.median(over), 4),
                       "max_overshoot": round(max(over), 4), "within_bound": max(over) <= bound}
                rows.append(row)
                print(f"{engine:12s} {where:14s} median {row['median_overshoot'] * 1000:7.1f} ms"
                      f"  max {row['max_overshoot'] * 1000:7.1f} ms"
                      f"  {'ok' if row['within_bound'] else 'OVER'}", flush=True)
    result = {"machine": describe(), "command": " ".join(["python", *sys.argv]),
              "limit": opts.limit, "bound": bound, "runs": opts.runs, "rows": rows,
              "all_within_bound": all(r["within_bound"] for r in rows)}
    Path(opts.out).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"all within {bound * 1000:.0f} ms: {result['all_within_bound']}; written {opts.out}")


if __name__ == "__main__":
    main()
