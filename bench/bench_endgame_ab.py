"""The native endgame search against an older version of its C source, position by position.

The positions are those where ``strong`` (with ``--limit`` as its endgame limit) runs the exact
endgame in Expert games from ``--seed`` on, with more than ``--low`` completions. The older
source (``--reference-c``, e.g. ``git show main:src/minegraph/_endgame.c > /tmp/old.c``) is
compiled into a temporary directory and loaded beside the built one; both search the same
table of observations in one process, alternating, each within ``--cap`` seconds (CPU
seconds and nodes per position). Their values must agree wherever both finish. With
``--reference-py`` (the older ``play/endgame.py``, run with the older C module), every
decision of those games, small ones included, is also timed whole (listing, table and
search: ``Endgame(board, limit).best_cell()``), the two alternating, the faster of two runs
kept.

    .venv/bin/python bench/bench_endgame_ab.py --reference-c /tmp/old.c --games 500 \\
        --seed 860000000 --out bench/results/endgame-10k-ab-860.json
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from bench_endgame import collect, summary  # noqa: E402
from machine import write_result  # noqa: E402

from minegraph.play import endgame  # noqa: E402


def build_reference(source: Path, directory: Path) -> ModuleType:
    """The older C source compiled (``-O2``, as setup.py builds) and loaded under another
    package name."""
    target = directory / "_endgame.so"
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", f"-I{sysconfig.get_paths()['include']}",
                    str(source), "-o", str(target)], check=True)
    spec = importlib.util.spec_from_file_location("reference._endgame", target)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_python(path: Path, native: ModuleType) -> ModuleType:
    """The older ``play/endgame.py``, under another name, running the older C module."""
    spec = importlib.util.spec_from_file_location("reference_endgame", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module._NATIVE = native      # type: ignore[attr-defined]
    return module


def whole(boards: list[Any], reference: ModuleType, limit: int) -> dict[str, Any]:
    """Each decision timed whole by both versions (CPU seconds, the faster of two runs)."""
    ours: list[float] = []
    theirs: list[float] = []
    for board in boards:
        times: dict[int, list[float]] = {0: [], 1: []}
        for _ in range(2):
            for k, module in ((0, endgame), (1, reference)):
                start = time.process_time()
                module.Endgame(board, limit).best_cell()
                times[k].append(time.process_time() - start)
        ours.append(min(times[0]))
        theirs.append(min(times[1]))
    out = {"decisions": len(boards), "native": summary(ours), "reference": summary(theirs)}
    print(f"whole decisions ({len(boards)}): median {out['native']['median']:.4f} s against "
          f"{out['reference']['median']:.4f} s, total {out['native']['total']:.2f} s against "
          f"{out['reference']['total']:.2f} s (CPU)")
    return out


def run(module: Any, s: Any, cap: float, near: tuple[Any, ...]) -> tuple[int, int, float, int]:
    """status, won, CPU seconds, nodes of one search of the whole position."""
    # The tangle bound's limit is an argument of the search since it came (issue 32); an
    # older module has none.
    tangles = (endgame.TANGLE_LAYOUTS,) if hasattr(module, "MAX_TANGLE_LAYOUTS") else ()
    start = time.process_time()
    status, won, _, _, nodes = module.search(s.codes, s.n, s.order, b"", cap, 0,
                                             endgame.MEMO_BYTES, None, *tangles, *near)
    return status, won, time.process_time() - start, nodes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference-c", type=Path, required=True)
    parser.add_argument("--reference-py", type=Path,
                        help="the older play/endgame.py: time every decision whole too")
    parser.add_argument("--rules", default="modern")
    parser.add_argument("--seed", type=int, default=860_000_000)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--limit", type=int, default=10_000)
    parser.add_argument("--low", type=int, default=1000)
    parser.add_argument("--cap", type=float, default=30.0)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    native = endgame._NATIVE
    if native is None:
        print(f"the native endgame search is not loaded ({endgame.NATIVE_STATUS})",
              file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        reference = build_reference(args.reference_c, Path(tmp))
        boards = collect(args.rules, args.seed, args.games, args.limit)
        decisions = (whole(boards, load_python(args.reference_py, reference), args.limit)
                     if args.reference_py else None)
        rows: list[dict[str, Any]] = []
        for board in boards:
            search = endgame.Endgame(board, args.limit)
            if search.count <= args.low:
                continue
            s = search._native_search()
            ours = run(native, s, args.cap, s.near)
            theirs = run(reference, s, args.cap, ())
            if ours[0] == theirs[0] == native.OK and ours[1] != theirs[1]:
                print(f"different values on a position: {ours[1]} and {theirs[1]}",
                      file=sys.stderr)
                return 1
            rows.append({"completions": s.n, "cpu": ours[2], "nodes": ours[3],
                         "finished": ours[0] == native.OK, "reference_cpu": theirs[2],
                         "reference_nodes": theirs[3],
                         "reference_finished": theirs[0] == native.OK})
    result: dict[str, Any] = {"positions": len(rows), "low": args.low, "limit": args.limit,
                              "cap_seconds": args.cap, "rows": rows, "whole": decisions}
    for name, key in (("native", "cpu"), ("reference", "reference_cpu")):
        cpu = [r[key] for r in rows]
        result[name] = {"cpu_seconds": summary(cpu) if cpu else None,
                        "over_1s": sum(1 for c in cpu if c > 1.0),
                        "unfinished": sum(1 for r in rows
                                          if not r["finished" if name == "native"
                                                   else "reference_finished"])}
        s = result[name]["cpu_seconds"] or {"median": 0.0, "p90": 0.0, "max": 0.0, "total": 0.0}
        print(f"{name}: {len(rows)} positions of {args.low}-{args.limit} completions; CPU "
              f"median {s['median']:.3f} s, p90 {s['p90']:.3f} s, max {s['max']:.3f} s, total "
              f"{s['total']:.1f} s; {result[name]['over_1s']} over 1 s, "
              f"{result[name]['unfinished']} past the cap")
    both = [r for r in rows if r["finished"] and r["reference_finished"]]
    result["nodes_ratio_total"] = (sum(r["nodes"] for r in both)
                                   / max(1, sum(r["reference_nodes"] for r in both)))
    print(f"nodes, native / reference, on the {len(both)} positions both finish: "
          f"{result['nodes_ratio_total']:.3f}")
    result.update(games=args.games, rules=args.rules, seed=args.seed)
    if args.out:
        write_result(args.out, result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
