"""Whole commands of this tree against an earlier revision's, built its own way, side by side.

Checks out ``--against`` (a git revision) into a temporary worktree and builds it in place
with ``--build`` (run in the worktree with this venv's ``python`` first on ``PATH``; e.g.
``MINEGRAPH_MYPYC=1 python setup.py -q build_ext --inplace`` for a revision that still had the
mypyc modules). Then each command of :data:`COMMANDS` runs as ``python -m minegraph …`` in a
fresh process, alternating the two trees, ``--runs`` times each; the report gives the median
and the spread (min..max) of the wall-clock seconds per side and their ratio (this tree over
the other). The big boards come from ``bench/bigboards.py`` (seed 1), written once.

Usage::

    .venv/bin/python bench/bench_ab_commands.py --against ba5eb73 \\
        --build "MINEGRAPH_MYPYC=1 python setup.py -q build_ext --inplace" \\
        --out bench/results/mypyc-ab.json
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

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from bigboards import big_board  # noqa: E402
from machine import describe  # noqa: E402

#: name -> arguments of ``minegraph``; ``{s200}`` etc. are big-board files.
COMMANDS: dict[str, list[str]] = {
    "analyze scattered 200x200": ["analyze", "{s200}", "--json"],
    "analyze scattered 400x400": ["analyze", "{s400}", "--json"],
    "analyze opening 400x400": ["analyze", "{o400}", "--json"],
    "generate unique 16x16/40": ["generate", "unique", "--size", "16x16", "--mines", "40",
                                 "--seed", "1"],
    "generate noguess expert, level single, 3 boards": [
        "generate", "noguess", "--size", "16x30", "--mines", "99", "--level", "single",
        "--seed", "1", "--count", "3", "--no-grade"],
    "generate noguess expert, level pair, 3 boards": [
        "generate", "noguess", "--size", "16x30", "--mines", "99", "--level", "pair",
        "--seed", "1", "--count", "3", "--no-grade"],
    "generate noguess expert, level search, 3 boards": [
        "generate", "noguess", "--size", "16x30", "--mines", "99", "--seed", "1", "--count",
        "3", "--no-grade"],
    "generate paper theorem 2, 9x10": ["generate", "paper", "--theorem", "2", "--size", "9x10",
                                       "--seed", "1"],
    "bench strong, 40 expert games": ["bench", "--policy", "strong", "--games", "40",
                                      "--workers", "1", "--no-progress"],
    "bench safest, 40 expert games": ["bench", "--policy", "safest", "--games", "40",
                                      "--workers", "1", "--no-progress"],
}


def _time(src: Path, args: list[str]) -> float:
    env = dict(os.environ, PYTHONPATH=str(src))
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "minegraph", *args], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def _path_of(src: Path) -> str:
    env = dict(os.environ, PYTHONPATH=str(src))
    out = subprocess.run([sys.executable, "-m", "minegraph", "--version"], env=env, check=True,
                         capture_output=True, text=True).stdout.strip()
    where = subprocess.run([sys.executable, "-c", "import minegraph; print(minegraph.__file__)"],
                           env=env, check=True, capture_output=True, text=True).stdout.strip()
    assert where.startswith(str(src)), (where, src)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--against", required=True, help="git revision to compare with")
    ap.add_argument("--build", default="python setup.py -q build_ext --inplace",
                    help="shell command that builds the other tree in place")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", default=str(HERE / "results" / "ab-commands.json"))
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        boards = {}
        for key, (family, size) in {"s200": ("scattered", 200), "s400": ("scattered", 400),
                                    "o400": ("opening", 400)}.items():
            path = work / f"{key}.board"
            path.write_text(big_board(family, size, size, 1).to_text(), encoding="utf-8")
            boards[key] = str(path)
        other = work / "other"
        subprocess.run(["git", "worktree", "add", "--detach", str(other), opts.against],
                       cwd=ROOT, check=True, capture_output=True)
        try:
            env = dict(os.environ, PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}")
            subprocess.run(opts.build, shell=True, cwd=other, env=env, check=True)
            sides = {"this": ROOT / "src", "other": other / "src"}
            paths = {name: _path_of(src) for name, src in sides.items()}
            print(f"this tree: {paths['this']}\nagainst {opts.against}: {paths['other']}")
            rows: list[dict[str, object]] = []
            for name, args in COMMANDS.items():
                args = [a.format(**boards) for a in args]
                times: dict[str, list[float]] = {"this": [], "other": []}
                for _ in range(opts.runs):
                    for side in ("other", "this"):
                        times[side].append(_time(sides[side], args))
                stats = {side: {"median": round(statistics.median(times[side]), 3),
                                "min": round(min(times[side]), 3),
                                "max": round(max(times[side]), 3)} for side in times}
                ratio = round(stats["this"]["median"] / stats["other"]["median"], 2)
                rows.append({"command": name, "args": " ".join(COMMANDS[name]), **stats,
                             "ratio": ratio})
                print(f"{name:52s} {stats['this']['median']:7.3f} s  {opts.against} "
                      f"{stats['other']['median']:7.3f} s  ratio {ratio:.2f}", flush=True)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(other)], cwd=ROOT,
                           capture_output=True)
    result = {"machine": describe(), "command": " ".join(["python", *sys.argv]),
              "against": opts.against, "build": opts.build, "paths": paths, "runs": opts.runs,
              "rows": rows}
    Path(opts.out).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"written {opts.out}")


if __name__ == "__main__":
    main()
