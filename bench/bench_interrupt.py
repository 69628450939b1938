"""How fast Ctrl-C ends ``minegraph analyze`` on a hard board, per engine (issue 19: 0.5 s).

Starts ``minegraph analyze`` on a board that keeps the engine busy for many seconds, waits
until it is well inside the engine, sends SIGINT and measures the time to exit (status 130
expected, no traceback), with and without ``--timeout``. Prints a table and writes
``bench/results/interrupt.json``.

Usage::

    .venv/bin/python bench/bench_interrupt.py [--repeats 3] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from machine import describe  # noqa: E402
from minegraph.recipes import checkerboard_opening  # noqa: E402

#: Engine -> the checkerboard opening (rows, cols, seed, total) of tests/test_interrupt.py.
BOARDS = {
    "auto": (60, 60, 1, True),
    "dp": (36, 36, 1, True),
    "sat": (60, 60, 1, True),
    "sat:minisat": (60, 60, 1, True),
    "backtrack": (36, 36, 1, True),
    "thesis": (16, 16, 2, True),
    "dp-thesis": (26, 26, 1, True),
    "brute": (4, 9, 4, False),
}

WAIT = 1.5


def once(path: Path, engine: str, extra: list[str]) -> tuple[float, int, bool]:
    proc = subprocess.Popen([sys.executable, "-m", "minegraph", "analyze", str(path),
                             "--engine", engine, *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    time.sleep(WAIT)
    if proc.poll() is not None:
        raise RuntimeError(f"{engine} ended before the interrupt: {proc.communicate()}")
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    return time.monotonic() - sent, proc.returncode, "Traceback" in err


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", type=Path, default=HERE / "results" / "interrupt.json")
    args = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for engine, (r, c, seed, total) in BOARDS.items():
            path = Path(tmp) / f"{engine.replace(':', '-')}.board"
            path.write_text(checkerboard_opening(r, c, 0.3, seed=seed, total=total).to_text(),
                            encoding="utf-8")
            for how, extra in (("no limit", []), ("--timeout 60", ["--timeout", "60"])):
                runs = [once(path, engine, extra) for _ in range(args.repeats)]
                seconds = [s for s, _, _ in runs]
                row = {"engine": engine, "how": how, "seconds": seconds,
                       "median_s": statistics.median(seconds), "max_s": max(seconds),
                       "exit_statuses": sorted({code for _, code, _ in runs}),
                       "tracebacks": sum(tb for _, _, tb in runs)}
                rows.append(row)
                print(f"{engine:12} {how:13} median {row['median_s']:.3f} s  max "
                      f"{row['max_s']:.3f} s  exit {row['exit_statuses']}  tracebacks "
                      f"{row['tracebacks']}", flush=True)
    result = {"benchmark": "interrupt", "command": " ".join(["python", "bench/bench_interrupt.py",
                                                            *(argv or sys.argv[1:])]),
              "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "machine": describe(),
              "wait_s": WAIT, "rows": rows,
              "max_s": max(r["max_s"] for r in rows)}
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"slowest exit after SIGINT: {result['max_s']:.3f} s; wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
