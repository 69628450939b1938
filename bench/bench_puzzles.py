"""Puzzle generation speed (issue 12): certified paper tables and no-guess boards.

Usage::

    .venv/bin/python bench/bench_puzzles.py [--boards N] [--repeats R] [--out bench/results/puzzles.json]
    .venv/bin/python bench/bench_puzzles.py --quick        # smoke run -> bench/results/puzzles-quick.json

Measured, each as the median (and the spread) over several seeds:

- a 30x30-class Theorem 2 table generated and certified (``paper_table``, which computes the
  exact rank certificate): 30x30 itself is not allowed by Theorem 2 (gcd(31, 31) = 31, and its
  system has nullity 15), so the nearest allowed size 30x29 is timed; target < 1 s;
- a 30x30 triangle table (Theorem 3, a certified size) generated and certified; target < 1 s;
- a 200x200-class Theorem 2 table: 200x199 (200x200 has nullity 100); target < 10 s;
- a no-guess 30x16 board with 99 mines, first click (0, 0) with an opening (minegraph's
  ``modern`` rules; ``ms_toollib.laymine_solvable(16, 30, 99, 0, 0)`` also always opens there),
  side by side with ms_toollib in one run, interleaved board by board; then the same from the
  middle cell (7, 14); target (issue 19): half the peer's time.

Also recorded: the retries of the no-guess generator, the mine density by distance to the
edge of the no-guess boards beside a uniform layout's, and how many of the peer's boards
minegraph's deduction-only player solves from the same first click (a cross-check of both).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

from machine import describe  # noqa: E402


def _summary(seconds: list[float]) -> dict[str, Any]:
    ordered = sorted(seconds)
    return {"runs": len(seconds), "median_s": statistics.median(seconds), "min_s": ordered[0],
            "p90_s": ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))],
            "max_s": ordered[-1], "mean_s": statistics.fmean(seconds)}


def _timed(call: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    value = call()
    return time.perf_counter() - start, value


def bench_tables(repeats: int, big_repeats: int) -> list[dict[str, Any]]:
    from minegraph.generate.paper import paper_table, theorem_condition
    from minegraph.linalg import certify
    from minegraph.board import Board, HIDDEN
    out = []
    cases = [(2, 30, 29, 1.0, repeats, "30x30 is not allowed by Theorem 2"),
             (3, 30, 30, 1.0, repeats, None),
             (2, 200, 199, 10.0, big_repeats, "200x200 is not allowed by Theorem 2")]
    paper_table(2, 5, 6)                      # imports and flint loaded before timing
    for theorem, rows, cols, target, runs, note in cases:
        times = []
        for seed in range(runs):
            seconds, t = _timed(lambda: paper_table(theorem, rows, cols, seed=seed))
            assert t.certificate.full
            times.append(seconds)
        entry = {"case": f"Theorem {theorem} table {rows}x{cols}, generate and certify",
                 "theorem": theorem, "rows": rows, "cols": cols, "target_s": target,
                 "certificate": t.certificate.describe(), **_summary(times)}
        entry["meets_target"] = entry["median_s"] < target
        if note is not None:
            side = rows
            why = theorem_condition(theorem, side, side)
            board = Board.grid(side, side, [0 if (i // side + i % side) % 2 == 0 else HIDDEN
                                            for i in range(side * side)])
            entry["note"] = f"{note} ({why}; its system: {certify(board).describe()})"
        out.append(entry)
        print(f"{entry['case']}: median {entry['median_s']:.3f} s over {len(times)} "
              f"(target < {target:g} s)", flush=True)
    return out


def bench_noguess(boards: int, first: tuple[int, int] = (0, 0)) -> dict[str, Any]:
    import ms_toollib
    from minegraph.generate.noguess import edge_density, noguess_board, solved_without_guess
    from minegraph.topology import grid_neighbors
    rows, cols, mines = 16, 30, 99
    noguess_board(rows, cols, mines, first=first, rules="modern", seed=10**6)   # warm up
    ms_toollib.laymine_solvable(rows, cols, mines, first[0], first[1])
    ours, peer, attempts, made, peer_boards = [], [], [], [], []
    for seed in range(boards):
        seconds, b = _timed(lambda: noguess_board(rows, cols, mines, first=first, rules="modern",
                                                  seed=seed))
        ours.append(seconds)
        attempts.append(b.attempts)
        made.append(b)
        seconds, (grid, solvable) = _timed(
            lambda: ms_toollib.laymine_solvable(rows, cols, mines, first[0], first[1]))
        peer.append(seconds)
        peer_boards.append((grid, solvable))
    nbrs = grid_neighbors("square", rows, cols)
    solved = 0
    opened = 0
    for grid, _ in peer_boards:
        layout = frozenset(r * cols + c for r in range(rows) for c in range(cols) if grid[r][c] == -1)
        opened += grid[first[0]][first[1]] == 0
        solved += solved_without_guess(nbrs, layout, first[0] * cols + first[1], mines,
                                       rows=rows, cols=cols)
    classic = []
    for seed in range(max(10, boards // 4)):
        seconds, b = _timed(lambda: noguess_board(rows, cols, mines, first=first, rules="classic",
                                                  seed=seed))
        classic.append(seconds)
    mine = _summary(ours)
    theirs = _summary(peer)
    result = {
        "case": f"no-guess 30x16/99, first click {first} with an opening, median time per board",
        "minegraph": {**mine, "rules": "modern", "level": "search",
                      "attempts_median": statistics.median(attempts),
                      "attempts_mean": statistics.fmean(attempts), "attempts_max": max(attempts)},
        "ms_toollib": {**theirs, "call": f"laymine_solvable(16, 30, 99, {first[0]}, {first[1]})",
                       "first_cell_zero": opened, "boards": len(peer_boards)},
        "ratio_median": mine["median_s"] / theirs["median_s"],
        "meets_target": mine["median_s"] <= theirs["median_s"],
        "peer_boards_solved_by_minegraph_player": solved,
        "minegraph_classic_first_cell_safe": _summary(classic),
        "edge_density": edge_density(made),
    }
    print(f"no-guess 30x16/99 from {first}: minegraph median {mine['median_s'] * 1000:.1f} ms "
          f"(attempts median {result['minegraph']['attempts_median']}), ms_toollib median "
          f"{theirs['median_s'] * 1000:.1f} ms; ratio {result['ratio_median']:.2f}; "
          f"peer boards our player solves: {solved}/{len(peer_boards)}", flush=True)
    for row in result["edge_density"]:
        print(f"  distance {row['distance']:.0f}: density {row['density']:.4f} "
              f"(uniform {row['uniform']:.4f}, ratio {row['ratio']:.3f})")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=300, help="no-guess boards per side")
    parser.add_argument("--repeats", type=int, default=15, help="seeds per 30x30 table")
    parser.add_argument("--big-repeats", type=int, default=5, help="seeds per 200x199 table")
    parser.add_argument("--quick", action="store_true", help="smoke run")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    if args.quick:
        args.boards, args.repeats, args.big_repeats = 20, 3, 1
    out = args.out or HERE / "results" / ("puzzles-quick.json" if args.quick else "puzzles.json")
    import flint
    import ms_toollib
    started = time.time()
    results = {
        "command": " ".join([".venv/bin/python", "bench/bench_puzzles.py", *(argv or sys.argv[1:])]),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "machine": describe(python_flint=flint.__version__,
                            ms_toollib=getattr(ms_toollib, "__version__", "1.5.20")),
        "tables": bench_tables(args.repeats, args.big_repeats),
        "noguess": bench_noguess(args.boards),
        "noguess_7_14": bench_noguess(args.boards, (7, 14)),
    }
    results["wall_seconds"] = time.time() - started
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
