"""The float combination alone on a big board's parts: one source tree's against another's.

Analyses a board of ``bigboards.py`` once (with the current ``minegraph``) to capture the
arguments the DP hands to ``combine_float`` (the components' polynomials, the floating cells,
the mines left), then times ``combine_float`` of each tree's module on them, in one process,
alternating run by run (so that the load of a shared machine falls on both), in CPU seconds
(on a loaded machine the wall time is mostly waiting for a core), and checks that the trees
give the same answers (every distribution, the floating probability and the count's
logarithm, compared exactly). The other tree's module is loaded from its file; it imports
the rest of ``minegraph`` from the current tree.

Usage::

    python bench/bench_combine_float.py --old /path/to/old/src --board scattered:1000 \\
        --repeats 3 --out bench/results/combine-float.json
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bigboards import big_board  # noqa: E402
from machine import describe  # noqa: E402


def _capture(family: str, size: int, seed: int) -> tuple[list[list[int]], int, int]:
    """The arguments of the analysis's float combination on the board."""
    import minegraph.engines.dp as dp
    from minegraph import analyze
    seen: list[tuple[list[list[int]], int, int]] = []
    real = dp.combine_float

    def spy(polys: list[list[int]], floating: int, remaining: int | None) -> Any:
        assert remaining is not None
        seen.append((polys, floating, remaining))
        return real(polys, floating, remaining)

    dp.combine_float = spy  # type: ignore[assignment]
    try:
        analyze(big_board(family, size, size, seed))
    finally:
        dp.combine_float = real
    if not seen:
        raise SystemExit(f"{family}:{size} was combined exactly: nothing to time")
    return seen[0]


def _load(src: str) -> Any:
    path = Path(src) / "minegraph" / "engines" / "combine_float.py"
    spec = importlib.util.spec_from_file_location("combine_float_other", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module         # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", required=True, help="the other source tree (a PYTHONPATH)")
    ap.add_argument("--board", default="scattered:1000", help="FAMILY:SIZE")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    import minegraph.engines.combine_float as new
    old = _load(args.old)
    family, size = args.board.split(":")
    polys, floating, remaining = _capture(family, int(size), args.seed)
    load_before = os.getloadavg()
    runs: dict[str, list[float]] = {"new": [], "old": []}
    answers: dict[str, Any] = {}
    for _ in range(args.repeats):
        for name, module in (("new", new), ("old", old)):
            start = time.process_time()
            answers[name] = module.combine_float(polys, floating, remaining)
            runs[name].append(time.process_time() - start)
    a, b = answers["new"], answers["old"]
    same = (a.distribution == b.distribution and a.floating == b.floating
            and a.log10_count == b.log10_count)
    results = {name: {"median_cpu_s": statistics.median(rs), "min_cpu_s": min(rs),
                      "max_cpu_s": max(rs), "runs_cpu_s": rs, "precision": answers[name].precision}
               for name, rs in runs.items()}
    obj = {"benchmark": "combine_float alone on a big board's parts, two trees alternating",
           "command": "python " + " ".join(sys.argv), "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
           "machine": describe(), "board": args.board, "seed": args.seed,
           "old_tree": args.old, "new_tree": str(Path(new.__file__).parents[2]),
           "parts": len(polys), "distinct_parts": len({tuple(p) for p in polys}),
           "total_degree": sum(len(p) - 1 for p in polys), "floating": floating,
           "remaining": remaining, "repeats": args.repeats, "identical_answers": same,
           "load_average_before": load_before, "load_average_after": os.getloadavg(),
           "results": results}
    args.out.write_text(json.dumps(obj, indent=1) + "\n")
    print({n: round(v["median_cpu_s"], 2) for n, v in results.items()}, "identical:", same)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
