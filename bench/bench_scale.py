"""Whole-process CLI figures on the two big-board families of issue 10, and the growth curve.

For each family (``bench/bigboards.py``: scattered and opening, 20% mines, seed 1) and size,
the board is written to a text file once, then ``minegraph analyze FILE --json`` runs in a
fresh process (reading, analysing and printing everything, output to ``/dev/null``) with a
time limit, once per arithmetic asked for (``auto`` by default; ``--arithmetics auto exact
float``). Each run reports wall-clock seconds and the process's peak resident memory
(``VmHWM``). With ``--peer-sizes`` the peer (``ms_toollib.cal_probability_onboard``) runs on
the same boards in a fresh process with the same time limit (board conversion included).

The growth exponent is the slope of ``log(time)`` against ``log(cells)`` between the smallest
and the largest size that both finished. ``--plot`` draws time against cells (log-log) for
both families, minegraph and the peer.

Usage::

    python bench/bench_scale.py                              # 100..1000, about 10 minutes
    python bench/bench_scale.py --sizes 100 200 --arithmetics exact float --out /tmp/s.json
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bigboards import FAMILIES, big_board  # noqa: E402
from machine import describe  # noqa: E402

HERE = Path(__file__).resolve().parent
SEED = 1

#: Runs ``minegraph analyze`` in this process and reports the peak memory on stderr.
_CLI_CHILD = """
import sys
from minegraph.cli import main
status = main(sys.argv[1:])
for line in open("/proc/self/status"):
    if line.startswith("VmHWM:"):
        sys.stderr.write("PEAK_KB " + line.split()[1] + "\\n")
sys.exit(status)
"""

#: Runs the peer on a board file and reports the peak memory on stderr.
_PEER_CHILD = """
import sys
sys.path.insert(0, sys.argv[2])
from minegraph import Board
from peer import peer_probabilities
board = Board.from_file(sys.argv[1])
peer_probabilities(board)
for line in open("/proc/self/status"):
    if line.startswith("VmHWM:"):
        sys.stderr.write("PEAK_KB " + line.split()[1] + "\\n")
"""


def _run(cmd: list[str], timeout: float) -> dict[str, Any]:
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:g} s"}
    seconds = time.perf_counter() - start
    peak = [int(line.split()[1]) for line in proc.stderr.splitlines()
            if line.startswith("PEAK_KB ")]
    if proc.returncode != 0:
        lines = [ln for ln in proc.stderr.strip().splitlines() if not ln.startswith("PEAK_KB")]
        return {"error": lines[-1] if lines else f"exit status {proc.returncode}"}
    return {"seconds": round(seconds, 3), "peak_mb": round(peak[0] / 1024, 1) if peak else None}


def _exponent(points: list[tuple[int, float]]) -> float | None:
    if len(points) < 2:
        return None
    (c0, t0), (c1, t1) = points[0], points[-1]
    return round(math.log(t1 / t0) / math.log(c1 / c0), 2)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--families", nargs="+", default=["scattered", "opening"],
                    choices=sorted(FAMILIES))
    ap.add_argument("--sizes", nargs="+", type=int, default=[100, 200, 400, 1000])
    ap.add_argument("--arithmetics", nargs="+", default=["auto"],
                    choices=["auto", "exact", "float"])
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per run")
    ap.add_argument("--peer-sizes", nargs="*", type=int, default=[100],
                    help="sizes on which the peer runs too (it needs > 120 s from 200x200)")
    ap.add_argument("--peer-timeout", type=float, default=180.0)
    ap.add_argument("--out", default=str(HERE / "results" / "scale.json"))
    ap.add_argument("--plot", default=str(HERE / "results" / "scale.png"))
    args = ap.parse_args(argv)

    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for family in args.families:
            for size in args.sizes:
                board = big_board(family, size, size, SEED)
                path = Path(tmp) / f"{family}-{size}.board"
                path.write_text(board.to_text(), encoding="utf-8")
                del board
                for arithmetic in args.arithmetics:
                    flag = [] if arithmetic == "auto" else [f"--{arithmetic}"]
                    cmd = [sys.executable, "-c", _CLI_CHILD, "analyze", "--json", *flag,
                           str(path)]
                    result = _run(cmd, args.timeout)
                    row = {"family": family, "size": size, "cells": size * size,
                           "who": "minegraph", "arithmetic": arithmetic, **result}
                    rows.append(row)
                    print(json.dumps(row), flush=True)
                if size in args.peer_sizes:
                    cmd = [sys.executable, "-c", _PEER_CHILD, str(path), str(HERE)]
                    row = {"family": family, "size": size, "cells": size * size,
                           "who": "peer", **_run(cmd, args.peer_timeout)}
                    rows.append(row)
                    print(json.dumps(row), flush=True)
    growth = {}
    for family in args.families:
        for arithmetic in args.arithmetics:
            points = [(r["cells"], r["seconds"]) for r in rows
                      if r["family"] == family and r["who"] == "minegraph"
                      and r["arithmetic"] == arithmetic and "seconds" in r and r["size"] >= 200]
            growth[f"{family}/{arithmetic}"] = _exponent(points)
    print("growth exponents (200x200 upwards):", growth)
    out = {"machine": describe(),
           "command": "python bench/bench_scale.py " + shlex.join(argv or sys.argv[1:]),
           "seed": SEED, "rows": rows, "growth_exponent_from_200": growth}
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    if args.plot:
        _plot(rows, args.plot)
    return 0


def _plot(rows: list[dict[str, Any]], where: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.5))
    keys = sorted({(r["family"], r["who"], r.get("arithmetic", "")) for r in rows})
    for family, who, arithmetic in keys:
        pts = sorted((r["cells"], r["seconds"]) for r in rows if "seconds" in r and
                     (r["family"], r["who"], r.get("arithmetic", "")) == (family, who, arithmetic))
        if pts:
            label = f"{family}, {who}" + (f" ({arithmetic})" if who == "minegraph" else "")
            ax.plot(*zip(*pts), marker="o" if who == "minegraph" else "x", label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("cells")
    ax.set_ylabel("seconds, whole process (CLI)")
    ax.set_title("minegraph analyze on big boards (20% mines)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(where, dpi=110)


if __name__ == "__main__":
    raise SystemExit(main())
