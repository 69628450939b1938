"""The uniform filter's success rate and time a board by density (issue 38, item 2).

Usage::

    .venv/bin/python bench/bench_noguess_estimate.py [--mines 99,110,120,130] [--sample N]
        [--out bench/results/noguess_estimate.json]

For each mine count on Expert (16x30) and each first click ((0, 0) classic, (3, 3) modern):
``filter_estimate`` on the first N layouts of seed 0 (what ``minegraph generate noguess
--method filter --estimate-only --sample N`` prints), timed by the process's CPU clock so that
the figures do not grow with the shared machine's load: the layouts solved, the share with its
95 % Wilson interval, the CPU time a layout, and the layouts and CPU seconds a board that
follow (1/p, the interval inverted). Figures print and go to a JSON file with the machine
description.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

from machine import describe  # noqa: E402

ROWS, COLS = 16, 30
FIRSTS = (((0, 0), "classic"), ((3, 3), "modern"))


def main(argv: list[str] | None = None) -> int:
    from minegraph.generate.estimate import filter_estimate
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mines", default="99,110,120,130")
    parser.add_argument("--sample", type=int, default=20_000)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "noguess_estimate.json")
    args = parser.parse_args(argv)
    started = time.time()
    cases = []
    for mines in (int(m) for m in args.mines.split(",")):
        for first, rules in FIRSTS:
            e = filter_estimate(ROWS, COLS, mines, first=first, rules=rules, seed=0,
                                sample=args.sample, clock=time.process_time)
            low, high = e.interval
            cases.append({"mines": mines, "first": list(first), "rules": rules,
                          "sampled": e.sampled, "solved": e.solved, "share": e.rate,
                          "share_95": [low, high], "cpu_s_per_layout": e.seconds_per_layout,
                          "layouts_per_board": e.expected_layouts,
                          "layouts_per_board_95": list(e.layouts_interval),
                          "cpu_s_per_board": e.expected_seconds,
                          "cpu_s_per_board_95": list(e.seconds_interval),
                          "line": e.describe()})
            print(f"{mines} mines, {first} {rules}: {e.describe()}", flush=True)
    results = {
        "command": " ".join([".venv/bin/python", "bench/bench_noguess_estimate.py",
                             *(argv if argv is not None else sys.argv[1:])]),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "machine": describe(),
        "clock": "time.process_time (CPU seconds of the process)",
        # JSON has no infinity: a case with no solved layout has no upper bound.
        "cases": [{k: (None if isinstance(v, float) and v == float("inf") else
                       [None if x == float("inf") else x for x in v] if isinstance(v, list)
                       else v) for k, v in c.items()} for c in cases],
        "wall_seconds": time.time() - started,
        "cpu_seconds": time.process_time(),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
