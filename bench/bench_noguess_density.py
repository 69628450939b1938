"""No-guess Expert boards at high density (issue 38): minegraph's repairing generator beside
ms_toollib's ``laymine_solvable`` and ``laymine_solvable_adjust``.

Usage::

    .venv/bin/python bench/bench_noguess_density.py [--boards N] [--peer-boards M] [--filter-boards F]
        [--mines 99,130,150,170] [--out bench/results/noguess_density.json]

For each mine count on 16x30 and each first click ((0, 0) with classic rules, (3, 3) with modern
rules): the time per board (wall and CPU) of ``noguess_board(..., method="auto")`` (filter 200 layouts, then
repair), with the total mine count and without it (``total=False``), seeds 0 .. N-1: median,
min, p10, p90, max. Every board is checked again by the player (``solved_without_guess``, with
or without the total). The peer's boards (first cell as given; the peer always opens there) are
timed and checked by minegraph's exact player: the share that truly needs no guess with the
total, and without it, each with its 95 % Wilson interval. ``laymine_solvable`` is a filter
(F boards, fewer: it takes seconds a board at 130 mines) and is left out above 130 mines (it
practically fails there). Figures print and go to a JSON file with the machine description and
the process's CPU time.
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

from minegraph.intervals import wilson as wilson_interval  # noqa: E402

ROWS, COLS = 16, 30
FIRSTS = (((0, 0), "classic"), ((3, 3), "modern"))


def _summary(seconds: list[float]) -> dict[str, Any]:
    s = sorted(seconds)

    def at(q: float) -> float:
        return s[min(len(s) - 1, int(q * len(s)))]

    return {"runs": len(s), "median_s": statistics.median(s), "min_s": s[0], "p10_s": at(0.1),
            "p90_s": at(0.9), "max_s": s[-1]}


def wilson(k: int, n: int) -> list[float]:
    """The 95 % Wilson score interval of a share ``k / n`` (as a JSON list)."""
    return list(wilson_interval(k, n))


#: The CPU seconds of each board timed, by the last call of :func:`_timed` (the machine is
#: shared: wall time grows with its load, the process's CPU time much less).
_CPU: list[float] = []


def _timed(call: Callable[[], Any]) -> tuple[float, Any]:
    start, cpu = time.perf_counter(), time.process_time()
    value = call()
    _CPU.append(time.process_time() - cpu)
    return time.perf_counter() - start, value


def _cpu_summary() -> dict[str, Any]:
    out = {"cpu_median_s": statistics.median(_CPU), "cpu_p90_s": sorted(_CPU)[
        min(len(_CPU) - 1, int(0.9 * len(_CPU)))]}
    _CPU.clear()
    return out


def ours(mines: int, first: tuple[int, int], rules: str, boards: int,
         total: bool) -> dict[str, Any]:
    from minegraph.generate.noguess import noguess_board, solved_without_guess
    times, methods, verified = [], [], 0
    for seed in range(boards):
        seconds, b = _timed(lambda: noguess_board(ROWS, COLS, mines, first=first, rules=rules,
                                                  seed=seed, method="auto", total=total))
        times.append(seconds)
        methods.append(b.method)
        verified += solved_without_guess(b.neighbors, b.layout, b.first, mines, rows=ROWS,
                                         cols=COLS) if total else \
            _solved_without_total(b.layout, b.first)
    return {**_summary(times), **_cpu_summary(), "repaired": methods.count("repair"),
            "verified": verified}


def _solved_without_total(layout: frozenset[int], first: int) -> bool:
    from minegraph.board import HIDDEN, Board
    from minegraph.generate.player import DeductionPlayer
    template = Board.grid(ROWS, COLS, [HIDDEN] * (ROWS * COLS), mines=None)
    return DeductionPlayer(template, "search").play(layout, first) is not None


def peer(call: str, mines: int, first: tuple[int, int], boards: int) -> dict[str, Any]:
    import ms_toollib
    from minegraph.generate.noguess import solved_without_guess
    from minegraph.topology import grid_neighbors
    nbrs = grid_neighbors("square", ROWS, COLS)
    function = getattr(ms_toollib, call)
    times, with_total, without, claimed, counted = [], 0, 0, 0, 0
    for _ in range(boards):
        seconds, (grid, ok) = _timed(lambda: function(ROWS, COLS, mines, first[0], first[1]))
        times.append(seconds)
        claimed += bool(ok)
        layout = frozenset(r * COLS + c for r in range(ROWS) for c in range(COLS)
                           if grid[r][c] == -1)
        cell = first[0] * COLS + first[1]
        counted += len(layout) == mines
        with_total += solved_without_guess(nbrs, layout, cell, mines, rows=ROWS, cols=COLS)
        without += _solved_without_total(layout, cell)
    return {**_summary(times), **_cpu_summary(),
            "call": f"{call}({ROWS}, {COLS}, {mines}, {first[0]}, {first[1]})",
            "claimed_solvable": claimed, "mines_as_asked": counted, "no_guess_with_total": with_total,
            "no_guess_with_total_95": wilson(with_total, boards),
            "no_guess_without_total": without,
            "no_guess_without_total_95": wilson(without, boards)}


def _share(interval: list[float]) -> str:
    return f"{100 * interval[0]:.1f}-{100 * interval[1]:.1f} %"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--peer-boards", type=int, default=20)
    parser.add_argument("--filter-boards", type=int, default=None,
                        help="boards of laymine_solvable (default: --peer-boards)")
    parser.add_argument("--mines", default="99,130,150,170")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "noguess_density.json")
    args = parser.parse_args(argv)
    import ms_toollib
    started = time.time()
    rows: list[dict[str, Any]] = []
    for mines in (int(m) for m in args.mines.split(",")):
        for first, rules in FIRSTS:
            row: dict[str, Any] = {"mines": mines, "first": list(first), "rules": rules}
            row["minegraph"] = ours(mines, first, rules, args.boards, True)
            row["minegraph_no_total"] = ours(mines, first, rules, args.boards, False)
            row["ms_toollib_adjust"] = peer("laymine_solvable_adjust", mines, first,
                                            args.peer_boards)
            if mines <= 130:
                row["ms_toollib_filter"] = peer("laymine_solvable", mines, first,
                                                args.peer_boards if args.filter_boards is None
                                                else args.filter_boards)
            rows.append(row)
            line = [f"{mines} mines, first {first} {rules}:"]
            for key in ("minegraph", "minegraph_no_total", "ms_toollib_adjust",
                        "ms_toollib_filter"):
                if key in row:
                    r = row[key]
                    extra = (f"verified {r['verified']}/{r['runs']}, repaired {r['repaired']}"
                             if key.startswith("minegraph") else
                             f"no guess {r['no_guess_with_total']}/{r['runs']} (95 % "
                             f"{_share(r['no_guess_with_total_95'])}; without the total "
                             f"{r['no_guess_without_total']}), {r['mines_as_asked']} "
                             f"with {mines} mines")
                    line.append(f"  {key}: median {r['median_s']:.3f} s (p10 {r['p10_s']:.3f}, "
                                f"p90 {r['p90_s']:.3f}, max {r['max_s']:.3f}; CPU median "
                                f"{r['cpu_median_s']:.3f} s, p90 {r['cpu_p90_s']:.3f}); {extra}")
            print("\n".join(line), flush=True)
            # The cases so far, after each one (a long run stopped part-way keeps them).
            _write(args, argv, started, rows, complete=False)
    _write(args, argv, started, rows, complete=True)
    print(f"wrote {args.out}")
    return 0


def _write(args: argparse.Namespace, argv: list[str] | None, started: float,
           rows: list[dict[str, Any]], complete: bool) -> None:
    import ms_toollib
    results = {
        "command": " ".join([".venv/bin/python", "bench/bench_noguess_density.py",
                             *(argv if argv is not None else sys.argv[1:])]),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "machine": describe(ms_toollib=getattr(ms_toollib, "__version__", "1.5.20")),
        "note": "the shared 2-core machine was loaded by other work during the run",
        "cases": rows,
        "complete": complete,
        "wall_seconds": time.time() - started,
        "cpu_seconds": time.process_time(),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main())
