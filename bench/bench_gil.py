"""Two threads on the native kernel: throughput with one thread and with two (issue 35, item 3).

The kernel releases the GIL for the model and the search (and for the whole game of the
no-guess player); the combination on Python integers and the conversion of the answer to
Python objects hold it. Two workloads, each a fixed list of ``_kernel.analyze`` calls (the
extension itself, on CSR tables made beforehand):

``midgames``
    Expert mid-games (16x30, 99 mines, with the total) that the kernel answers: typical
    positions, each a fraction of a millisecond, most of it outside the search.
``search``
    The component of ``tests/test_kernel.py``'s GIL test (16 numbers, 120 cells) with the
    kernel's default node budget: the search alone (the kernel declines at the budget).
``control``
    ``hashlib.sha256`` of 1 MB, which releases the GIL too: what two threads can get from
    the machine at the time, to read the kernel's figures against.

A round runs the list :data:`PASSES` times in one thread (``t1``), then as much in each of two
threads at the same time (``t2``); throughput is calls per second, and the speed-up of a
round is ``(2 * calls / t2) / (calls / t1)`` (2.0 at best on two free cores). The report
gives the median and the spread (smallest, largest) over ``--rounds`` rounds, the CPU
seconds the two threads used per second of wall time (at most 1 when the GIL lets one
thread run at a time), and the load average before and after. On a shared machine the
figures say what the GIL allows only as far as the other work on the cores lets them
(``tests/test_kernel.py`` proves the release without any timing). With ``--reference PATH``
(an older build of ``_kernel``, e.g. one that holds the GIL) the same calls run through it
too, round for round.

Usage::

    .venv/bin/python bench/bench_gil.py                    # a minute or two
    .venv/bin/python bench/bench_gil.py --positions 20 --rounds 5 --out /tmp/gil.json
    # beside the kernel of b0953c6 (before the GIL was released), built by hand:
    git show b0953c6:src/minegraph/_kernel.c > /tmp/old/_kernel.c
    gcc -O2 -shared -fPIC $(python3-config --includes) /tmp/old/_kernel.c \
        -o /tmp/old/_kernel$(python3-config --extension-suffix)
    .venv/bin/python bench/bench_gil.py --reference /tmp/old/_kernel.cpython-311-x86_64-linux-gnu.so
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import resource
import statistics
import sys
import threading
import time
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

from machine import describe  # noqa: E402

from minegraph import kernel  # noqa: E402
from minegraph.board import HIDDEN, Board  # noqa: E402
from minegraph.recipes import midgame  # noqa: E402

HERE = Path(__file__).resolve().parent

Job = Callable[[], object]

#: Passes over a workload's calls per timing (so that one takes a good part of a second).
PASSES = {"midgames": 60, "search": 3, "control": 10}


def endless_component(clues: int = 16, need: int = 7) -> Board:
    """``clues`` numbers and, for every pair of them, one hidden cell next to both (as in
    tests/test_kernel.py): one component of 120 cells the search cannot finish."""
    edges = []
    cell = clues
    for a in range(clues):
        for b in range(a + 1, clues):
            edges += [(a, cell), (b, cell)]
            cell += 1
    return Board.from_graph(cell, edges, [need] * clues + [HIDDEN] * (cell - clues))


def positions(count: int) -> dict[str, list[Board]]:
    """The boards of the two workloads: ``count`` mid-games the kernel answers, and the
    endless component ``count`` times."""
    boards: list[Board] = []
    seed = 0
    while len(boards) < count:
        seed += 1
        board = midgame(16, 30, 99, seed).board
        try:
            if kernel.run(board) is not None:
                boards.append(board)
        except kernel.Declined:
            pass
    return {"midgames": boards, "search": [endless_component()] * count}


def control(count: int) -> list[Job]:
    """``count`` hashes of 1 MB (hashlib releases the GIL for them)."""
    data = bytes(range(256)) * 4096
    return [lambda: hashlib.sha256(data).digest()] * count


def jobs(module: Any, boards: list[Board]) -> list[Job]:
    """One ``module.analyze`` call per board (CSR tables made here, outside the timing)."""
    def call(board: Board) -> Job:
        indptr, indices = module.csr(board.neighbors)
        total = -1 if board.mines is None else board.mines
        states = board.states
        return lambda: module.analyze(indptr, indices, states, total, kernel.SEARCH_BUDGET,
                                      0.0, None)
    return [call(b) for b in boards]


def load(path: str) -> ModuleType:
    """An extension built as ``_kernel`` from another source, loaded from its file."""
    spec = importlib.util.spec_from_file_location("_kernel", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_all(jobs: list[Job]) -> None:
    for job in jobs:
        job()


def cpu_seconds() -> float:
    """CPU seconds the process has used, all its threads together."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def one_round(jobs: list[Job], repeat: int) -> tuple[float, float, float]:
    """Seconds for ``repeat`` passes over the jobs in one thread, and in each of two threads
    at once; and the CPU seconds per second of the two threads (at most 1 when one thread
    runs at a time, up to 2 when both run together)."""
    work = jobs * repeat
    start = time.perf_counter()
    run_all(work)
    t1 = time.perf_counter() - start
    go = threading.Barrier(3)

    def worker() -> None:
        go.wait()
        run_all(work)

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    go.wait()
    start, cpu = time.perf_counter(), cpu_seconds()
    for t in threads:
        t.join()
    t2 = time.perf_counter() - start
    return t1, t2, (cpu_seconds() - cpu) / t2


def measure(work: list[Job], rounds: int, repeat: int) -> dict[str, Any]:
    one, two, speedups, parallel = [], [], [], []
    for _ in range(rounds):
        t1, t2, both = one_round(work, repeat)
        parallel.append(both)
        n = len(work) * repeat
        one.append(n / t1)
        two.append(2 * n / t2)
        speedups.append(two[-1] / one[-1])

    def spread(values: list[float], digits: int) -> dict[str, float]:
        return {"median": round(statistics.median(values), digits),
                "min": round(min(values), digits), "max": round(max(values), digits)}
    return {"calls": len(work) * repeat, "one_thread_per_s": spread(one, 1),
            "two_threads_per_s": spread(two, 1), "speedup": spread(speedups, 3),
            "two_threads_cpu_per_wall": spread(parallel, 3),
            "speedups": [round(s, 3) for s in speedups]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--repeat", type=int, default=1,
                    help="times the passes of PASSES over the calls per timing")
    ap.add_argument("--reference", help="an older build of _kernel to run beside this one")
    ap.add_argument("--out", default=str(HERE / "results" / "gil.json"))
    ap.add_argument("--note", default="", help="a remark stored with the figures")
    opts = ap.parse_args()
    native = kernel.module()
    if native is None:
        raise SystemExit(f"the native kernel is not used: {kernel.status()}")
    kernels = {"this": native}
    if opts.reference:
        kernels["reference"] = load(opts.reference)
    load_before = os.getloadavg()
    rows = []
    for name, boards in positions(opts.positions).items():
        for which, module in kernels.items():
            work = jobs(module, boards)
            run_all(work)                               # warm
            repeat = PASSES[name] * opts.repeat
            row = {"workload": name, "kernel": which, "passes": repeat,
                   **measure(work, opts.rounds, repeat)}
            rows.append(row)
            print(f"{name:9s} {which:9s} one thread {row['one_thread_per_s']['median']:8.1f}/s"
                  f"  two threads {row['two_threads_per_s']['median']:8.1f}/s  speed-up "
                  f"median {row['speedup']['median']:.2f} (from {row['speedup']['min']:.2f} "
                  f"to {row['speedup']['max']:.2f}, {opts.rounds} rounds); two threads: "
                  f"{row['two_threads_cpu_per_wall']['median']:.2f} CPU s a second", flush=True)
    row = {"workload": "control", "kernel": None, "passes": PASSES["control"] * opts.repeat,
           **measure(control(opts.positions), opts.rounds, PASSES["control"] * opts.repeat)}
    rows.append(row)
    print(f"control   sha256    one thread {row['one_thread_per_s']['median']:8.1f}/s"
          f"  two threads {row['two_threads_per_s']['median']:8.1f}/s  speed-up "
          f"median {row['speedup']['median']:.2f} (from {row['speedup']['min']:.2f} "
          f"to {row['speedup']['max']:.2f}, {opts.rounds} rounds); two threads: "
          f"{row['two_threads_cpu_per_wall']['median']:.2f} CPU s a second", flush=True)
    result = {"machine": describe(), "command": " ".join(["python", *sys.argv]),
              "load_average_before": [round(x, 2) for x in load_before],
              "load_average_after": [round(x, 2) for x in os.getloadavg()],
              "positions": opts.positions, "rounds": opts.rounds, "repeat": opts.repeat,
              "reference": opts.reference, "note": opts.note, "rows": rows}
    Path(opts.out).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"load average before {load_before[0]:.2f}, after {os.getloadavg()[0]:.2f}; "
          f"written {opts.out}")


if __name__ == "__main__":
    main()
