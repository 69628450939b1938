"""The pure-Python path against an earlier revision's, same positions, same machine.

Checks out ``--against`` (a git revision) into a temporary worktree, then times, in separate
processes with ``MINEGRAPH_PURE=1``, alternating the two trees ``--rounds`` times:
``analyze(board)`` and every hidden cell's probability read as ``float`` (the same reading on
both sides), on the first ``--count`` positions of each corpus of ``corpora.py``, the median
of 3 runs per position. Writes ``bench/results/pure-ab.json``.

Usage::

    .venv/bin/python bench/bench_pure_ab.py --against a28b50b [--count 300] [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from machine import describe  # noqa: E402

CHILD = r"""
import gc, json, statistics, sys, time
sys.path.insert(0, {src!r}); sys.path.insert(0, {bench!r})
import minegraph
assert minegraph.__file__.startswith({src!r}), minegraph.__file__
from minegraph import analyze
from corpora import corpus
out = {{}}
for recipe in ("opening", "clicks", "deduced"):
    make = corpus(recipe)
    times = []
    for seed in range({count}):
        board = make(seed).board
        runs = []
        for _ in range(3):
            gc.disable()
            t0 = time.perf_counter()
            a = analyze(board)
            [float(p) for p in a.probabilities.values()]
            runs.append(time.perf_counter() - t0)
            gc.enable()
        times.append(statistics.median(runs))
    times.sort()
    out[recipe] = {{"median_ms": statistics.median(times) * 1e3,
                   "p99_ms": times[max(0, int(0.99 * len(times)) - 1)] * 1e3}}
print(json.dumps(out))
"""


def run(src: Path, count: int) -> dict[str, dict[str, float]]:
    env = dict(os.environ, MINEGRAPH_PURE="1")
    code = CHILD.format(src=str(src), bench=str(HERE), count=count)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True)
    result: dict[str, dict[str, float]] = json.loads(done.stdout)
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--against", required=True, help="the earlier git revision")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--out", type=Path, default=HERE / "results" / "pure-ab.json")
    args = ap.parse_args(argv)
    rounds = []
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "old"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old),
                        args.against], check=True, capture_output=True)
        try:
            for k in range(args.rounds):
                pair = {"old": run(old / "src", args.count), "new": run(ROOT / "src", args.count)}
                rounds.append(pair)
                for recipe in pair["new"]:
                    o, n = pair["old"][recipe]["median_ms"], pair["new"][recipe]["median_ms"]
                    print(f"round {k + 1} {recipe:8} old {o:.3f} ms  new {n:.3f} ms  "
                          f"new/old {n / o:.3f}", flush=True)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)],
                           capture_output=True)
    ratios = {recipe: [r["new"][recipe]["median_ms"] / r["old"][recipe]["median_ms"]
                       for r in rounds] for recipe in rounds[0]["new"]}
    result = {"benchmark": "pure-ab", "against": args.against,
              "command": " ".join(["python", "bench/bench_pure_ab.py", *(argv or sys.argv[1:])]),
              "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "machine": describe(),
              "count": args.count, "rounds": rounds, "new_over_old": ratios}
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"new/old per corpus over the rounds: {ratios}; wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
