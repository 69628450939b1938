"""Big boards with and without issue 35's wide components in C: one source tree against another.

Each run is a child process that reads a board of ``bigboards.py`` (written once, as text),
runs ``analyze`` and reads every hidden cell's float (``Analysis.floats``), and prints the
seconds of that call (board reading excluded), the CPU seconds of the process over it (on a
loaded machine the wall time is mostly waiting for a core), and the peak memory of the
process. The trees
alternate run by run (``--repeats`` each), so that the load of a shared machine falls on both;
the figures are the median and the spread of each side, and the load average before and after.

Usage::

    python bench/bench_kernel_big.py --tree new=src --tree old=/path/to/old/src \\
        --board scattered:400 --board opening:400 --repeats 3 --out bench/results/kernel-big.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from machine import describe  # noqa: E402

CHILD = """
import resource, sys, time
from minegraph import Board, analyze, kernel
board = Board.from_text(open(sys.argv[1]).read())
t, c = time.perf_counter(), time.process_time()
a = analyze(board)
values = list(a.floats.values())
seconds, cpu = time.perf_counter() - t, time.process_time() - c
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(seconds, peak, a.engine, kernel.status(), len(values), cpu)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", action="append", required=True, help="NAME=SRC (a PYTHONPATH)")
    ap.add_argument("--board", action="append", required=True, help="FAMILY:SIZE, e.g. scattered:400")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    trees = dict(t.split("=", 1) for t in args.tree)
    results: dict[str, Any] = {}
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        for spec in args.board:
            family, size = spec.split(":")
            path = Path(tmp) / f"{family}-{size}.board"
            with path.open("w") as f:
                subprocess.run([sys.executable, str(HERE / "bigboards.py"), family, size, size,
                                "--seed", str(args.seed), "--text"], stdout=f, check=True,
                               env={**os.environ, "PYTHONPATH": next(iter(trees.values()))})
            runs: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
            for _ in range(args.repeats):
                for name, src in trees.items():
                    out = subprocess.run([sys.executable, "-c", CHILD, str(path)], check=True,
                                         capture_output=True, text=True,
                                         env={**os.environ, "PYTHONPATH": src}).stdout.split()
                    runs[name].append({"seconds": float(out[0]), "peak_mb": float(out[1]),
                                       "engine": out[2], "kernel": out[3], "cells": int(out[4]),
                                       "cpu_s": float(out[5])})
            results[spec] = {name: {"median_s": statistics.median(r["seconds"] for r in rs),
                                    "median_cpu_s": statistics.median(r["cpu_s"] for r in rs),
                                    "min_s": min(r["seconds"] for r in rs),
                                    "max_s": max(r["seconds"] for r in rs),
                                    "peak_mb": max(r["peak_mb"] for r in rs), "runs": rs}
                             for name, rs in runs.items()}
            print(spec, {n: round(v["median_s"], 2) for n, v in results[spec].items()}, flush=True)
    obj = {"benchmark": "analyze and every cell's float on big boards, source trees alternating",
           "command": "python " + " ".join(sys.argv), "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
           "machine": describe(), "trees": trees, "seed": args.seed, "repeats": args.repeats,
           "load_average_before": load_before, "load_average_after": os.getloadavg(),
           "results": results}
    args.out.write_text(json.dumps(obj, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
