"""Refusing hostile sizes (issue 9): time and peak memory of every reader on an oversize input.

Usage::

    .venv/bin/python bench/bench_limits.py [--baseline REV] [--only CASE ...] [--out bench/results/limits.json]

Each case builds an input beyond a documented limit (docs/formats.md "Limits", docs/green.md)
and calls one reader on it, in a fresh interpreter per case so that no case inherits another's
memory. The child process's address space is capped (``--cap-gib``, 8 GiB by default) so that a
reader that does build the board fails with a ``MemoryError`` instead of exhausting the machine.
Per case it records:

- ``seconds``: wall-clock time of the reader call (the input is built beforehand);
- ``reader_peak_mib``: the largest memory the call itself had allocated at once, measured by
  :mod:`tracemalloc` in a second, traced call (Python objects and numpy arrays; the input text
  is the caller's and not counted);
- ``rss_increase_mib``: the process's peak resident memory during the untraced call minus its
  resident memory just before it (the peak is reset before the call through
  ``/proc/self/clear_refs``, so building the input does not count; where that is not possible
  ``ru_maxrss`` is used and ``peak_reset`` is false);
- ``rss_peak_mib``: that peak, in all (interpreter, imports and the input text included);
- ``outcome``: the exception raised, with its message (a refusal is a ``LimitError`` or
  ``FormatError``).

The target is a refusal with ``reader_peak_mib`` and ``rss_increase_mib`` under 100 MiB.
``--baseline REV`` measures the same cases on the readers of git revision ``REV`` too (its
``src`` extracted to a temporary directory), untraced, for a before/after comparison.
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
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TARGET_MIB = 100

#: name -> (what it is, reader, how the input is built). Readers and builders are looked up
#: in the child process by name, so that only the readers under test are imported there.
CASES: dict[str, tuple[str, str, str]] = {
    "text-5000x5000": ("board text, 5000 rows of 5000 '#' (25 MB)", "text", "grid_text"),
    "text-detected-5000x5000": ("the same through read_board's format detection", "detected", "grid_text"),
    "text-one-row-25M": ("board text, one row of 25,000,000 cells", "text", "one_row"),
    "text-25M-rows": ("board text, 25,000,000 rows of one cell (50 MB)", "text", "many_rows"),
    "mine-5000x5000": (".mine, header 5000x5000x0 and its rows", "mine", "mine_text"),
    "numeric-5000x5000": ("numeric grid, header 5000 5000 0 and its rows (50 MB)", "numeric", "numeric_text"),
    "json-grid-5000x5000": ("JSON grid, 5000 row strings of 5000 cells, no rows/cols", "json", "json_grid"),
    "json-grid-declared": ("JSON grid, rows 5000 and cols 5000 declared, then the rows", "json",
                           "json_grid_declared"),
    "json-graph-2M-cells": ("JSON graph of 2,000,000 cells, a path, 2,000,000 states", "json",
                            "json_graph"),
    "json-graph-6M-edges": ("JSON graph of 1000 cells and 6,000,001 edges", "json", "json_edges"),
    "pgsolver-parity-huge": ("PGSolver header 'parity 99999999999;'", "pgsolver", "parity_huge"),
    "pgsolver-parity-short-file": ("PGSolver header 'parity 9999999;' with 10 vertex lines", "pgsolver",
                                   "parity_short"),
    "oi-25MB-line": ("gra.in whose first field line has 12,500,000 successors", "oi", "oi_line"),
    "edgelist-1M-nodes": ("edge list of a path through 1,000,001 nodes", "edgelist", "edge_path"),
    "graphml-1M-nodes": ("GraphML with 1,000,001 nodes and no edges", "graphml", "graphml_nodes"),
}


# ----------------------------------------------------------------- child side
def _builders() -> dict[str, Callable[[], str]]:
    side = 5000
    return {
        "grid_text": lambda: "\n".join(["#" * side] * side) + "\n",
        "one_row": lambda: "#" * 25_000_000 + "\n",
        "many_rows": lambda: "#\n" * 25_000_000,
        "mine_text": lambda: f"{side}x{side}x0\n" + "\n".join(["H" * side] * side) + "\n",
        "numeric_text": lambda: f"{side} {side} 0\n" + "\n".join([" ".join(["9"] * side)] * side) + "\n",
        "json_grid": lambda: json.dumps({"cells": ["#" * side] * side}),
        "json_grid_declared": lambda: json.dumps({"rows": side, "cols": side, "cells": ["#" * side] * side}),
        "json_graph": lambda: ('{"cells": 2000000, "edges": ['
                               + ", ".join(f"[{i}, {i + 1}]" for i in range(1_999_999))
                               + '], "states": [' + ", ".join(['"#"'] * 2_000_000) + "]}"),
        "json_edges": lambda: '{"cells": 1000, "edges": [' + ", ".join(["[0, 1]"] * 6_000_001) + \
            '], "states": [' + ", ".join(['"#"'] * 1000) + "]}",
        "parity_huge": lambda: "parity 99999999999;\n0 2 0 1;\n",
        "parity_short": lambda: "parity 9999999;\n" + "".join(f"{v} 1 0 {v + 1};\n" for v in range(10)),
        "oi_line": lambda: "1 1\n1 1 " + "2 " * 12_500_000 + "\n0 1 1\n",
        "edge_path": lambda: "".join(f"{i} {i + 1}\n" for i in range(1_000_000)),
        "graphml_nodes": lambda: ('<?xml version="1.0"?>\n<graphml xmlns="http://graphml.graphdrawing.org/xmlns">'
                                  '<graph edgedefault="undirected">'
                                  + "".join(f'<node id="n{i}"/>' for i in range(1_000_001))
                                  + "</graph></graphml>\n"),
    }


def _reader(name: str) -> Callable[[str], object]:
    if name == "detected":
        from minegraph.formats import read_board
        return read_board
    if name in ("pgsolver", "oi"):
        from minegraph.green import formats as green
        return green.read_pgsolver if name == "pgsolver" else green.read_oi  # type: ignore[return-value]
    if name in ("edgelist", "graphml"):
        from minegraph.formats import graphs
        return getattr(graphs, f"read_{name}")  # type: ignore[no-any-return]
    module = __import__(f"minegraph.formats.{name}", fromlist=["x"])
    return getattr(module, f"read_{name}")  # type: ignore[no-any-return]


def _status_mib(field: str) -> float:
    """A memory figure of this process from /proc/self/status (``VmRSS``, ``VmHWM``), in MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _reset_peak() -> bool:
    """Reset the process's peak resident memory (Linux >= 4.0), so that the peak measured
    after the call is the call's, not the input builder's."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return False
    return True


def _call(read: Callable[[str], object], text: str) -> str:
    try:
        read(text)
    except MemoryError as exc:
        return f"MemoryError: {exc}"[:300]
    except Exception as exc:  # the outcome is recorded, whatever it is
        return f"{type(exc).__name__}: {exc}"[:300]
    return "accepted (no error)"


def child(case: str, trace: bool) -> dict[str, Any]:
    """Run one case in this process; return its figures."""
    import resource
    import tracemalloc

    _, reader_name, builder = CASES[case]
    read = _reader(reader_name)
    text = _builders()[builder]()
    before = _status_mib("VmRSS")
    reset = _reset_peak()
    start = time.perf_counter()
    outcome = _call(read, text)
    seconds = time.perf_counter() - start
    peak_rss = _status_mib("VmHWM") if reset else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out: dict[str, Any] = {"outcome": outcome, "seconds": round(seconds, 3),
                           "input_mb": round(len(text) / 1e6, 1),
                           "rss_before_mib": round(before, 1), "rss_peak_mib": round(peak_rss, 1),
                           "rss_increase_mib": round(max(0.0, peak_rss - before), 1),
                           "peak_reset": reset}
    if trace and not outcome.startswith("MemoryError"):
        tracemalloc.start()
        _call(read, text)
        out["reader_peak_mib"] = round(tracemalloc.get_traced_memory()[1] / 2**20, 1)
        tracemalloc.stop()
    return out


# ----------------------------------------------------------------- parent side
def run_case(case: str, src: Path, trace: bool, cap_gib: float, timeout: float) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(src))
    code = (f"import resource, json, sys; cap = int({cap_gib} * 2**30); "
            f"resource.setrlimit(resource.RLIMIT_AS, (cap, cap)); "
            f"sys.path.insert(0, {str(HERE)!r}); import bench_limits as b; "
            f"print(json.dumps(b.child({case!r}, {trace!r})))")
    try:
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"outcome": f"no answer within {timeout:g} s (stopped)"}
    if done.returncode != 0:
        last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"
        return {"outcome": f"child failed: {last}"}
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def _row(name: str, figures: dict[str, Any]) -> str:
    """One line of the printed table."""
    nan = float("nan")
    return (f"{name:28} {figures.get('seconds', nan):8.3f} {figures.get('reader_peak_mib', nan):10.1f} "
            f"{figures.get('rss_increase_mib', nan):9.1f} {figures.get('rss_peak_mib', nan):8.1f}  "
            f"{figures['outcome'][:90]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", metavar="REV", help="also measure the readers of git revision REV")
    parser.add_argument("--only", nargs="+", choices=sorted(CASES), help="run only these cases")
    parser.add_argument("--cap-gib", type=float, default=8.0, help="address-space cap of each child (GiB)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per case before it is stopped")
    parser.add_argument("--out", default=str(HERE / "results" / "limits.json"))
    args = parser.parse_args(argv)
    from machine import describe

    cases = args.only or list(CASES)
    results: dict[str, Any] = {"machine": describe(),
                               "command": "python bench/bench_limits.py "
                               + " ".join(sys.argv[1:] if argv is None else argv),
                               "date": time.strftime("%Y-%m-%d"), "target_mib": TARGET_MIB,
                               "cap_gib": args.cap_gib, "cases": {}}
    baseline_dir = None
    if args.baseline:
        baseline_dir = tempfile.TemporaryDirectory()
        archive = subprocess.run(["git", "archive", args.baseline, "src"], cwd=ROOT, capture_output=True,
                                 check=True).stdout
        subprocess.run(["tar", "-x", "-C", baseline_dir.name], input=archive, check=True)
        results["baseline"] = args.baseline
    print(f"{'case':28} {'seconds':>8} {'reader MiB':>10} {'RSS +MiB':>9} {'RSS MiB':>8}  outcome")
    all_within = True
    for case in cases:
        entry: dict[str, Any] = {"input": CASES[case][0]}
        now = run_case(case, ROOT / "src", True, args.cap_gib, args.timeout)
        entry.update(now)
        refused = now["outcome"].startswith(("LimitError", "FormatError"))
        within = refused and now.get("reader_peak_mib", 1e9) < TARGET_MIB and \
            now.get("rss_increase_mib", 1e9) < TARGET_MIB
        entry["refused_within_target"] = within
        all_within = all_within and within
        print(_row(case, now), flush=True)
        if baseline_dir is not None:
            old = run_case(case, Path(baseline_dir.name) / "src", False, args.cap_gib, args.timeout)
            entry["baseline"] = old
            print(_row(f"  before ({args.baseline})", old), flush=True)
        results["cases"][case] = entry
    results["all_refused_within_target"] = all_within
    print(f"every oversize input refused with reader peak and RSS increase under {TARGET_MIB} MiB: "
          f"{all_within}")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    if baseline_dir is not None:
        baseline_dir.cleanup()
    return 0 if all_within else 1


if __name__ == "__main__":
    sys.exit(main())
