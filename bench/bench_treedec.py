"""How much of real-looking Expert play the thesis's pipeline places in its polynomial class.

Over the Expert corpus (bench/expert_corpus.py: 30x16, 99 mines, mid-game positions), for each
position: the thesis pipeline's classification (step that succeeded, width of the tree
decomposition found), an upper bound on the board graph's treewidth by networkx's min-fill
heuristic, the time of each, and, with ``--engines``, the time of the thesis engine, of the
counting DP with its own min-fill order (``dp``) and with the pipeline's decomposition
(``dp-thesis``), checked against each other. Each position is also classified with the
thesis's literal ORIENT-SP-GRAPH split (``split="thesis"``), and after taking out the cells
trivial propagation decides (``propagate=True``, not part of the thesis), for comparison.

    python bench/bench_treedec.py                      # 1000 positions -> bench/results/treedec.json
    python bench/bench_treedec.py --quick              # 50 positions -> bench/results/treedec-quick.json
"""

from __future__ import annotations

import argparse
import gc
import json
import shlex
import statistics
import sys
import time
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from expert_corpus import expert_corpus  # noqa: E402
from networkx.algorithms.approximation import treewidth_min_fill_in  # noqa: E402

from machine import describe  # noqa: E402
import minegraph  # noqa: E402
from minegraph.decompose import classify  # noqa: E402
from minegraph.decompose.graph import board_graph  # noqa: E402
from minegraph.engines.dp import DPEngine  # noqa: E402
from minegraph.engines.dp_thesis import PipelineDPEngine  # noqa: E402
from minegraph.engines.thesis import ThesisEngine  # noqa: E402


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """Seconds for one call, garbage collector off (as timeit does)."""
    gc.disable()
    try:
        start = time.perf_counter()
        value = fn()
        return time.perf_counter() - start, value
    finally:
        gc.enable()


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile of sorted values."""
    k = max(0, min(len(values) - 1, int(-(-p * len(values) // 100)) - 1))
    return values[k]


def summary(times: list[float]) -> dict[str, float]:
    s = sorted(times)
    return {"median": statistics.median(s), "p90": percentile(s, 90), "p99": percentile(s, 99),
            "max": s[-1], "mean": statistics.fmean(s), "total": sum(s)}


def measure(seed: int, board: minegraph.Board, engines: bool) -> dict[str, Any]:
    t_pipeline, c = timed(lambda: classify(board, heuristic=False))
    graph = board_graph(board)
    t_heuristic, (tw, _) = timed(lambda: treewidth_min_fill_in(graph.graph))
    row: dict[str, Any] = {"seed": seed, "hidden": board.hidden_count, **c.to_json(),
                           "heuristic_width": tw, "k4_blocks": sum(b.k4_minor for b in c.blocks),
                           "time_pipeline": t_pipeline, "time_heuristic": t_heuristic,
                           "step_thesis_split": classify(board, heuristic=False, split="thesis").step}
    t_propagated, p = timed(lambda: classify(board, heuristic=False, propagate=True))
    row.update(step_propagated=p.step, width_propagated=p.width, decided=p.decided,
               time_propagated=t_propagated)
    if engines:
        t_thesis, thesis = timed(lambda: ThesisEngine().run(board))
        t_dp, dp = timed(lambda: DPEngine().run(board))
        t_dpt, dpt = timed(lambda: PipelineDPEngine().run(board))
        counts = dp.mine_counts
        safe = {c for c, m in counts.items() if m == 0}
        mines = {c for c, m in counts.items() if m == dp.count}
        row.update(time_thesis=t_thesis, time_dp=t_dp, time_dp_thesis=t_dpt,
                   thesis_agrees=thesis.consistent == dp.consistent and thesis.safe == safe
                   and thesis.mines == mines,
                   dp_thesis_agrees=dpt.count == dp.count and dpt.mine_counts == counts,
                   dp_width=dp.stats["width"], dp_thesis_width=dpt.stats["width"],
                   thesis_width=thesis.stats["width"], thesis_decomposition=thesis.stats["decomposition"])
    return row


def machine() -> dict[str, Any]:
    import networkx
    return describe(networkx=networkx.__version__)


def aggregate(rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    steps = Counter(r["step"] or "not found" for r in rows)
    share = {k: {"count": steps.get(k, 0), "share": steps.get(k, 0) / n}
             for k in ("edge-removal", "series-parallel", "not found")}
    share["polynomial"] = {"count": n - steps.get("not found", 0),
                           "share": (n - steps.get("not found", 0)) / n}
    by_hidden: dict[str, Any] = {}
    for lo, hi in ((0, 250), (250, 350), (350, 481)):
        part = [r for r in rows if lo <= r["hidden"] < hi]
        if part:
            poly = sum(r["polynomial"] for r in part)
            by_hidden[f"{lo}-{hi - 1}"] = {"positions": len(part), "polynomial": poly,
                                          "share": poly / len(part)}
    failing = [r for r in rows if not r["polynomial"]]
    literal = Counter(r["step_thesis_split"] or "not found" for r in rows)
    out: dict[str, Any] = {
        "positions": n, "classes": share, "by_hidden_cells": by_hidden,
        "width_histogram": dict(sorted(Counter(r["width"] for r in rows if r["polynomial"]).items())),
        "width_by_step": {s: dict(sorted(Counter(r["width"] for r in rows if r["step"] == s).items()))
                          for s in ("edge-removal", "series-parallel")},
        "bipartite_width_histogram": dict(sorted(Counter(r["bipartite_width"] for r in rows).items())),
        "heuristic_width_histogram": dict(sorted(Counter(r["heuristic_width"] for r in rows).items())),
        "not_found": {"non_series_parallel_blocks": dict(sorted(Counter(
            r["blocks"] - r["series_parallel_blocks"] for r in failing).items())),
            "all_have_k4_minor": all(r["k4_blocks"] == r["blocks"] - r["series_parallel_blocks"]
                                     for r in failing),
            "largest_block_median": statistics.median(r["largest_block"] for r in failing) if failing else None},
        "classes_with_thesis_split": dict(literal),
        "classes_after_propagation": dict(Counter(r["step_propagated"] or "not found" for r in rows)),
        "width_after_propagation": dict(sorted(Counter(r["width_propagated"] for r in rows
                                                        if r["step_propagated"]).items())),
        "time_propagated": summary([r["time_propagated"] for r in rows]),
        "time_pipeline": summary([r["time_pipeline"] for r in rows]),
        "time_heuristic": summary([r["time_heuristic"] for r in rows]),
    }
    if "time_thesis" in rows[0]:
        out["engines"] = {
            "time_thesis": summary([r["time_thesis"] for r in rows]),
            "time_dp": summary([r["time_dp"] for r in rows]),
            "time_dp_thesis": summary([r["time_dp_thesis"] for r in rows]),
            "thesis_agrees_with_dp": sum(r["thesis_agrees"] for r in rows),
            "dp_thesis_agrees_with_dp": sum(r["dp_thesis_agrees"] for r in rows),
            "dp_width_histogram": dict(sorted(Counter(r["dp_width"] for r in rows).items())),
            "dp_thesis_width_histogram": dict(sorted(Counter(r["dp_thesis_width"] for r in rows).items())),
        }
    return out


def report(result: dict[str, Any]) -> str:
    a = result["aggregate"]
    n = a["positions"]
    lines = [f"{n} Expert positions (seeds {result['first_seed']}..{result['first_seed'] + n - 1})", ""]
    lines.append("| class | positions | share |")
    lines.append("|---|---:|---:|")
    for key in ("edge-removal", "series-parallel", "polynomial", "not found"):
        v = a["classes"][key]
        lines.append(f"| {key} | {v['count']} | {100 * v['share']:.1f}% |")
    lines += ["", "| hidden cells | positions | polynomial |", "|---|---:|---:|"]
    for key, v in a["by_hidden_cells"].items():
        lines.append(f"| {key} | {v['positions']} | {v['polynomial']} ({100 * v['share']:.1f}%) |")
    lines += ["", f"pipeline width (polynomial positions): {a['width_histogram']}",
              f"  by step: {a['width_by_step']}",
              f"bipartite decomposition width: {a['bipartite_width_histogram']}",
              f"treewidth upper bound (min-fill on the board graph): {a['heuristic_width_histogram']}",
              f"with ORIENT-SP-GRAPH's literal split (components, not bridges): {a['classes_with_thesis_split']}",
              f"after trivial propagation (decided cells taken out): {a['classes_after_propagation']}, "
              f"widths {a['width_after_propagation']}",
              f"not found: non-series-parallel components per position {a['not_found']['non_series_parallel_blocks']}, "
              f"all with a K4 minor: {a['not_found']['all_have_k4_minor']}", ""]

    def row(name: str, s: dict[str, float]) -> str:
        return (f"| {name} | {1e3 * s['median']:.2f} | {1e3 * s['p90']:.2f} | {1e3 * s['p99']:.2f} | "
                f"{1e3 * s['max']:.2f} | {1e3 * s['mean']:.2f} |")
    lines += ["| time per position (ms) | median | p90 | p99 | max | mean |", "|---|---:|---:|---:|---:|---:|",
              row("pipeline (classify)", a["time_pipeline"]),
              row("pipeline after propagation", a["time_propagated"]),
              row("min-fill heuristic (networkx)", a["time_heuristic"])]
    if "engines" in a:
        e = a["engines"]
        lines += [row("engine thesis", e["time_thesis"]), row("engine dp", e["time_dp"]),
                  row("engine dp-thesis", e["time_dp_thesis"]), "",
                  f"thesis agrees with dp on {e['thesis_agrees_with_dp']}/{n}; "
                  f"dp-thesis on {e['dp_thesis_agrees_with_dp']}/{n}",
                  f"dp width (box level, min-fill): {e['dp_width_histogram']}",
                  f"dp-thesis width (box level, pipeline): {e['dp_thesis_width_histogram']}"]
    return "\n".join(lines) + "\n"


KEPT = ("seed", "hidden", "step", "width", "bipartite_width", "kept_edges", "blocks",
        "series_parallel_blocks", "largest_block", "k4_blocks", "heuristic_width", "step_thesis_split",
        "step_propagated", "width_propagated", "decided", "thesis_decomposition", "thesis_width",
        "dp_width", "dp_thesis_width", "thesis_agrees", "dp_thesis_agrees")


def dump(result: dict[str, Any]) -> str:
    """The result as JSON: the summary indented, then one line per position (times in ms)."""
    head = json.dumps({k: v for k, v in result.items() if k != "positions"}, indent=1)
    lines = []
    for r in result["positions"]:
        short = {k: r[k] for k in KEPT if k in r}
        short.update({k[5:] + "_ms": round(1e3 * v, 3) for k, v in r.items() if k.startswith("time_")})
        lines.append(json.dumps(short, separators=(",", ":")))
    return head[:-2] + ',\n "positions": [\n  ' + ",\n  ".join(lines) + "\n ]\n}\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--no-engines", action="store_true", help="skip timing the engines")
    ap.add_argument("--quick", action="store_true", help="50 positions, to bench/results/treedec-quick.json")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    count = 50 if args.quick else args.count
    out = args.out or HERE / "results" / ("treedec-quick.json" if args.quick else "treedec.json")
    boards = expert_corpus(count, args.first_seed)
    classify(boards[0])
    ThesisEngine().run(boards[0])                   # warm-up (imports, caches)
    rows = [measure(args.first_seed + k, b, not args.no_engines) for k, b in enumerate(boards)]
    result = {"command": "python " + " ".join(shlex.quote(a) for a in [sys.argv[0], *(argv or sys.argv[1:])]),
              "date": datetime.now(timezone.utc).isoformat(timespec="seconds"), "machine": machine(),
              "first_seed": args.first_seed, "aggregate": aggregate(rows), "positions": rows}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(dump(result), encoding="utf-8")
    print(report(result), end="")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
