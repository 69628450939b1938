"""How far repaired no-guess boards are from uniform (issue 38, item 2).

Usage::

    .venv/bin/python bench/bench_noguess_uniform.py [--boards N] [--mines 99,110]
        [--permutations P] [--out bench/results/noguess_uniform.json]

Where the filter method still works (Expert, 16x30, 99 and 110 mines; first click (0, 0) under
classic rules and (3, 3) under modern rules), N boards of each method are made:

- ``filter``: ``noguess_board(..., method="filter")``, seeds 0 .. N-1: uniform among the
  layouts the player solves (the reference);
- ``repair``: ``method="repair"``, seeds 10^6 .. 10^6 + N - 1 (other seeds, so that no board is
  shared with the filter's: the first layout of a seed is the same for both methods);
- ``all``: N layouts as the game engine draws them (seeds 2 * 10^6 on), not all solvable: how
  far both are from an ordinary game.

Per board: the mines in each class of distance to the edge (``min(r, c, 15 - r, 29 - c)``) and of
distance to the first cell (``max(|r - r0|, |c - c0|)``, in bins; the cells the rules keep clear
left out), the 3BV and the number of openings (connected areas of zeros), the last two checked
against ms_toollib's ``cal_bbbv`` and ``cal_op`` on every board when it is installed.

Comparisons, each method against ``filter`` (boards are independent, cells of one board are not,
so every test is over boards): for each class the difference of mine density with its 95 %
interval (Welch, normal approximation: N is a few hundred), the differences of mean 3BV and mean
openings with their 95 % intervals, and permutation p-values (P relabellings of the boards) for
two statistics: the sum over classes of the squared Welch z-scores (are the densities by class
the same?) and the two-sample Kolmogorov-Smirnov distance of 3BV and of openings (are the
distributions the same?). Figures print and go to a JSON file with the machine description.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

from machine import describe  # noqa: E402

ROWS, COLS = 16, 30
FIRSTS = (((0, 0), "classic"), ((3, 3), "modern"))
#: Bins of the distance to the first cell: (lowest, highest), inclusive.
FIRST_BINS = ((1, 1), (2, 2), (3, 3), (4, 4), (5, 6), (7, 9), (10, 14), (15, 19), (20, 29))
EDGE_CLASSES = tuple(range(8))
Z95 = 1.959963984540054
REPAIR_SEEDS = 10**6
ALL_SEEDS = 2 * 10**6


def _edge(i: int) -> int:
    r, c = divmod(i, COLS)
    return min(r, c, ROWS - 1 - r, COLS - 1 - c)


def _from_first(i: int, first: int) -> int:
    r, c = divmod(i, COLS)
    r0, c0 = divmod(first, COLS)
    return max(abs(r - r0), abs(c - c0))


def _first_bin(d: int) -> int | None:
    for k, (low, high) in enumerate(FIRST_BINS):
        if low <= d <= high:
            return k
    return None


def openings(neighbors: Sequence[Sequence[int]], layout: frozenset[int]) -> int:
    """Connected areas of zeros (cells with no mine among them and their neighbours)."""
    zero = [c not in layout and not any(q in layout for q in neighbors[c])
            for c in range(len(neighbors))]
    seen = [False] * len(neighbors)
    count = 0
    for c in range(len(neighbors)):
        if zero[c] and not seen[c]:
            count += 1
            stack = [c]
            seen[c] = True
            while stack:
                v = stack.pop()
                for w in neighbors[v]:
                    if zero[w] and not seen[w]:
                        seen[w] = True
                        stack.append(w)
    return count


def board_row(neighbors: Sequence[Sequence[int]], layout: frozenset[int], first: int,
              kept: set[int]) -> list[int]:
    """Mines per edge class, mines per first-cell bin, 3BV, openings."""
    from minegraph.play.review import three_bv
    edge = [0] * len(EDGE_CLASSES)
    near = [0] * len(FIRST_BINS)
    for i in layout:
        edge[_edge(i)] += 1
        k = _first_bin(_from_first(i, first))
        assert k is not None and i not in kept
        near[k] += 1
    return [*edge, *near, three_bv(neighbors, layout)[0], openings(neighbors, layout)]


def class_cells(first: int, kept: set[int]) -> list[int]:
    """The cells (outside ``kept``) of each edge class and first-cell bin."""
    edge = [0] * len(EDGE_CLASSES)
    near = [0] * len(FIRST_BINS)
    for i in range(ROWS * COLS):
        if i in kept:
            continue
        edge[_edge(i)] += 1
        k = _first_bin(_from_first(i, first))
        assert k is not None
        near[k] += 1
    return [*edge, *near]


def _welch(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Difference of means ``b - a`` and its standard error."""
    diff = float(b.mean() - a.mean())
    se = math.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    return diff, se


def _z2(x: np.ndarray, y: np.ndarray) -> float:
    """Sum over columns of the squared Welch z-scores of the mean differences (columns with
    no variance left out)."""
    diff = y.mean(axis=0) - x.mean(axis=0)
    var = x.var(axis=0, ddof=1) / len(x) + y.var(axis=0, ddof=1) / len(y)
    ok = var > 0
    return float((diff[ok] ** 2 / var[ok]).sum())


def _ks(x: np.ndarray, y: np.ndarray) -> float:
    """Two-sample Kolmogorov-Smirnov distance of integer samples."""
    values = np.union1d(x, y)
    fx = np.searchsorted(np.sort(x), values, side="right") / len(x)
    fy = np.searchsorted(np.sort(y), values, side="right") / len(y)
    return float(np.abs(fx - fy).max())


def permutation_p(x: np.ndarray, y: np.ndarray, statistic: Callable[[np.ndarray, np.ndarray], float],
                  permutations: int, rng: np.random.Generator) -> float:
    """The share of relabellings of the pooled boards whose statistic reaches the observed
    one, counting the observed labelling itself: ``(1 + hits) / (1 + permutations)``."""
    observed = statistic(x, y)
    pooled = np.concatenate([x, y])
    n = len(x)
    hits = 0
    for _ in range(permutations):
        order = rng.permutation(len(pooled))
        hits += statistic(pooled[order[:n]], pooled[order[n:]]) >= observed - 1e-12
    return (1 + hits) / (1 + permutations)


def compare(reference: np.ndarray, other: np.ndarray, cells: list[int], permutations: int,
            rng: np.random.Generator) -> dict[str, Any]:
    k_edge, k_near = len(EDGE_CLASSES), len(FIRST_BINS)
    out: dict[str, Any] = {}
    for name, start, labels in (("edge", 0, [str(d) for d in EDGE_CLASSES]),
                                ("first", k_edge, [f"{a}-{b}" if a != b else str(a)
                                                   for a, b in FIRST_BINS])):
        rows = []
        for j, label in enumerate(labels):
            col = start + j
            n_cells = cells[col]
            if not n_cells:
                continue
            diff, se = _welch(reference[:, col], other[:, col])
            rows.append({"class": label, "cells": n_cells,
                         "density_reference": float(reference[:, col].mean()) / n_cells,
                         "density": float(other[:, col].mean()) / n_cells,
                         "difference": diff / n_cells,
                         "difference_95": [(diff - Z95 * se) / n_cells,
                                           (diff + Z95 * se) / n_cells],
                         "z": diff / se if se else 0.0})
        block = slice(start, start + (k_edge if name == "edge" else k_near))
        out[name] = {"classes": rows,
                     "sum_z2": _z2(reference[:, block], other[:, block]),
                     "permutation_p": permutation_p(reference[:, block], other[:, block], _z2,
                                                    permutations, rng)}
    for name, col in (("bbbv", k_edge + k_near), ("openings", k_edge + k_near + 1)):
        x, y = reference[:, col].astype(float), other[:, col].astype(float)
        diff, se = _welch(x, y)
        out[name] = {"mean_reference": float(x.mean()), "sd_reference": float(x.std(ddof=1)),
                     "mean": float(y.mean()), "sd": float(y.std(ddof=1)),
                     "difference": diff, "difference_95": [diff - Z95 * se, diff + Z95 * se],
                     "ks": _ks(x, y),
                     "ks_permutation_p": permutation_p(x, y, _ks, permutations, rng)}
    return out


def boards(method: str, mines: int, first: tuple[int, int], rules: str,
           count: int) -> tuple[np.ndarray, dict[str, Any]]:
    from minegraph.generate.noguess import noguess_board
    from minegraph.rules import draw_layout, kept_clear
    from minegraph.topology import grid_neighbors
    nbrs = grid_neighbors("square", ROWS, COLS)
    start = first[0] * COLS + first[1]
    kept = kept_clear(rules, nbrs, start)
    rows, seconds, unchanged, checked = [], [], 0, 0
    for k in range(count):
        began = time.perf_counter()
        if method == "all":
            layout = draw_layout(random.Random(ALL_SEEDS + k), kept, ROWS * COLS, mines)
        else:
            b = noguess_board(ROWS, COLS, mines, first=first, rules=rules, method=method,
                              seed=k if method == "filter" else REPAIR_SEEDS + k)
            layout = b.layout
            unchanged += b.changes == 0
        seconds.append(time.perf_counter() - began)
        row = board_row(nbrs, layout, start, kept)
        checked += _peer_agrees(nbrs, layout, row[-2], row[-1])
        rows.append(row)
    info = {"boards": count, "median_s": float(np.median(seconds)),
            "checked_by_ms_toollib": checked}
    if method == "repair":
        info["unchanged"] = unchanged
    return np.array(rows, dtype=np.int64), info


def _peer_agrees(nbrs: Sequence[Sequence[int]], layout: frozenset[int], bbbv: int,
                 ops: int) -> bool:
    try:
        import ms_toollib
    except ImportError:         # the check is optional
        return False
    grid = [[-1 if r * COLS + c in layout else
             sum(1 for q in nbrs[r * COLS + c] if q in layout) for c in range(COLS)]
            for r in range(ROWS)]
    if ms_toollib.cal_bbbv(grid) != bbbv or ms_toollib.cal_op(grid) != ops:
        raise AssertionError(f"3BV/openings differ from ms_toollib's on {sorted(layout)}")
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=400)
    parser.add_argument("--mines", default="99,110")
    parser.add_argument("--permutations", type=int, default=2000)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "noguess_uniform.json")
    args = parser.parse_args(argv)
    started = time.time()
    rng = np.random.default_rng(38)
    cases = []
    for mines in (int(m) for m in args.mines.split(",")):
        for first, rules in FIRSTS:
            from minegraph.rules import kept_clear
            from minegraph.topology import grid_neighbors
            start = first[0] * COLS + first[1]
            cells = class_cells(start, kept_clear(rules, grid_neighbors("square", ROWS, COLS),
                                                  start))
            data, made = {}, {}
            for method in ("filter", "repair", "all"):
                data[method], made[method] = boards(method, mines, first, rules, args.boards)
            case = {"mines": mines, "first": list(first), "rules": rules, "made": made,
                    "repair_vs_filter": compare(data["filter"], data["repair"], cells,
                                                args.permutations, rng),
                    "all_vs_filter": compare(data["filter"], data["all"], cells,
                                             args.permutations, rng)}
            cases.append(case)
            _print(case)
    try:
        import ms_toollib
        peer = getattr(ms_toollib, "__version__", "installed")
    except ImportError:
        peer = None
    results = {
        "command": " ".join([".venv/bin/python", "bench/bench_noguess_uniform.py",
                             *(argv if argv is not None else sys.argv[1:])]),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "machine": describe(ms_toollib=peer),
        "cases": cases,
        "wall_seconds": time.time() - started,
        "cpu_seconds": time.process_time(),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


def _print(case: dict[str, Any]) -> None:
    made = case["made"]
    print(f"{case['mines']} mines, first {tuple(case['first'])} {case['rules']}: "
          f"filter median {made['filter']['median_s']:.3f} s, repair median "
          f"{made['repair']['median_s']:.3f} s ({made['repair']['unchanged']} of "
          f"{made['repair']['boards']} unchanged)")
    for key in ("repair_vs_filter", "all_vs_filter"):
        c = case[key]
        print(f"  {key}:")
        for name in ("edge", "first"):
            cells = ", ".join(f"{r['class']}: {100 * r['difference']:+.2f} "
                              f"[{100 * r['difference_95'][0]:+.2f}, "
                              f"{100 * r['difference_95'][1]:+.2f}]" for r in c[name]["classes"])
            print(f"    density by {name} distance, points of %: {cells}; "
                  f"sum z^2 {c[name]['sum_z2']:.1f}, permutation p {c[name]['permutation_p']:.4f}")
        for name in ("bbbv", "openings"):
            s = c[name]
            print(f"    {name}: filter {s['mean_reference']:.2f} (sd {s['sd_reference']:.2f}), "
                  f"other {s['mean']:.2f} (sd {s['sd']:.2f}); difference {s['difference']:+.2f} "
                  f"[{s['difference_95'][0]:+.2f}, {s['difference_95'][1]:+.2f}]; KS "
                  f"{s['ks']:.3f}, permutation p {s['ks_permutation_p']:.4f}")
    sys.stdout.flush()


if __name__ == "__main__":
    raise SystemExit(main())
