"""The reusable analyser against a fresh ``analyze``, re-analysing Expert games move by move.

Each game: Expert (30x16, 99 mines), the first click on a random cell with its neighbourhood
kept clear; then, until the game is won, one random *safe frontier cell* (a hidden safe cell
next to an uncovered one) is revealed, with its flood fill, and the position is analysed again.
Every position is analysed twice, side by side in one process: by one long-lived
:class:`minegraph.analyser.Analyser` (the order of a game, as an autoplayer would) and by a
fresh ``minegraph.analyze(board)``; both answers must be identical (count, every probability,
best move). Reported: median and spread of the time per re-analysis for each, their ratio, and
the analyser's component-cache hit rate.

    .venv/bin/python bench/bench_analyser.py [--games 20] [--seed 0] [--out bench/results/analyser.json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from machine import describe  # noqa: E402

from minegraph import Board, analyze  # noqa: E402
from minegraph.analyser import Analyser  # noqa: E402
from minegraph.board import HIDDEN  # noqa: E402
from minegraph.play.game import flood_fill  # noqa: E402
from minegraph.recipes import random_layout  # noqa: E402
from minegraph.topology import grid_neighbors  # noqa: E402

ROWS, COLS, MINES = 16, 30, 99


def positions(seed: int) -> list[Board]:
    """The positions of one game, from the first click to the last safe cell."""
    rng = random.Random(seed)
    first = rng.randrange(ROWS * COLS)
    mines = set(random_layout(ROWS, COLS, MINES, seed, safe=first))
    nbrs = grid_neighbors("square", ROWS, COLS)
    opened: set[int] = set()
    flood_fill(nbrs, mines, opened, first)
    out = []
    while True:
        states = [sum(1 for q in nbrs[i] if q in mines) if i in opened else HIDDEN
                  for i in range(ROWS * COLS)]
        out.append(Board.grid(ROWS, COLS, states, mines=MINES))
        frontier = [i for i in range(ROWS * COLS) if i not in opened and i not in mines
                    and any(q in opened for q in nbrs[i])]
        if not frontier:
            rest = [i for i in range(ROWS * COLS) if i not in opened and i not in mines]
            if not rest:
                return out
            frontier = rest
        flood_fill(nbrs, mines, opened, rng.choice(frontier))


def summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    q = statistics.quantiles(ordered, n=100)
    return {"median_ms": statistics.median(ordered) * 1e3, "p10_ms": q[9] * 1e3,
            "p90_ms": q[89] * 1e3, "p99_ms": q[98] * 1e3, "mean_ms": statistics.mean(ordered) * 1e3}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "analyser.json"))
    args = parser.parse_args()
    reused: list[float] = []
    fresh: list[float] = []
    hits = misses = 0
    for game in range(args.games):
        analyser = Analyser()
        for board in positions(args.seed + game):
            t0 = time.perf_counter()
            a = analyser.analyze(board)
            t1 = time.perf_counter()
            b = analyze(board)
            t2 = time.perf_counter()
            assert (a.solutions, a.probabilities, a.best) == (b.solutions, b.probabilities, b.best)
            reused.append(t1 - t0)
            fresh.append(t2 - t1)
        hits += analyser.cache.hits
        misses += analyser.cache.misses
        print(f"game {game}: {len(reused)} positions so far", file=sys.stderr)
    ratios = [f / r for f, r in zip(fresh, reused)]
    result = {
        "command": " ".join(["bench/bench_analyser.py", *sys.argv[1:]]),
        "machine": describe(),
        "games": args.games, "seed": args.seed, "positions": len(reused),
        "analyser": summary(reused), "fresh_analyze": summary(fresh),
        "speedup_of_medians": statistics.median(fresh) / statistics.median(reused),
        "median_per_position_speedup": statistics.median(ratios),
        "cache_hit_rate": hits / (hits + misses) if hits + misses else 0.0,
        "cache_hits": hits, "cache_misses": misses,
    }
    print(json.dumps({k: v for k, v in result.items() if k != "machine"}, indent=1))
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
