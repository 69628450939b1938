"""One pass (:func:`minegraph.outcomes`) against one analysis per number, on the look-ahead
positions of Expert games.

``strong`` plays ``--games`` Expert games (classic rules, first click in the corner, and modern
rules, first click at (3, 3), alternately; seeds from ``--seed``), and every call of its
look-ahead (``StrongPolicy._look(board, cell, ...)``: one candidate guess of one position) is
recorded. Each recorded call is then timed, interleaved in one process (the order of the two
alternates from call to call), both ways:

- **per value**: one analysis per number the cell could show, as ``strong``'s ``_look`` does
  with the native kernel (``Analyser.analyze(board with the cell showing k, since=...)``; the
  native kernel unless ``MINEGRAPH_PURE=1``, then the Python path with its component cache);
- **one pass**: ``outcomes(board, cell, since=...)`` and, per number, the
  :class:`~minegraph.analysis.Analysis` built from its counts (what ``_look`` hands on); and
  the counts alone (``outcomes`` without building the analyses).

Both must agree on every call: the numbers, their chances, and after each number the count,
the forced cells, the best cell and ``strong``'s survival score. Reported: per method the median
time per call with p10/p90/mean, and the median of the per-call ratios.

    .venv/bin/python bench/bench_outcomes.py [--games 40] [--seed 0] [--out bench/results/outcomes.json]
    MINEGRAPH_PURE=1 .venv/bin/python bench/bench_outcomes.py --out bench/results/outcomes-pure.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from machine import describe  # noqa: E402

from minegraph import Board, MinegraphError, outcomes  # noqa: E402
from minegraph.analyser import Analyser  # noqa: E402
from minegraph.play.autoplay import play  # noqa: E402
from minegraph.play.game import Game  # noqa: E402
from minegraph.play.policies import StrongPolicy, _survival  # noqa: E402

Call = tuple[Board, int, int, Any]


class Recording(StrongPolicy):
    """``strong``, recording every look-ahead call."""

    def __init__(self, calls: list[Call]) -> None:
        super().__init__()
        self.calls = calls

    def _look(self, board: Board, cell: int, count: int, base: object) -> Any:
        self.calls.append((board, cell, count, base))
        return super()._look(board, cell, count, base)


def collect(games: int, seed: int) -> list[Call]:
    calls: list[Call] = []
    for g in range(games):
        rules = "classic" if g % 2 == 0 else "modern"
        play(Game("expert", rules=rules, seed=seed + g), Recording(calls))
    return calls


def per_value(analyser: Analyser, board: Board, cell: int, count: int, base: Any
              ) -> list[tuple[int, Fraction, Any]]:
    states = list(board.states)
    out = []
    for k in range(len(board.neighbors[cell]) + 1):
        states[cell] = k
        try:
            after = analyser.analyze(board.with_states(states), since=base)
        except MinegraphError:      # a number over its neighbours
            continue
        if after.consistent and after.solutions:
            out.append((k, Fraction(after.solutions, count), after))
    return out


def one_pass(board: Board, cell: int, count: int, base: Any) -> list[tuple[int, Fraction, Any]]:
    out = outcomes(board, cell, since=base)
    return [(k, Fraction(o.ways, count), out.analysis(k)) for k, o in out.by_number.items()]


def facts(look: list[tuple[int, Fraction, Any]]) -> list[tuple[Any, ...]]:
    return [(k, chance, a.solutions, a.safe, a.mines, a.best, a.best_basis, _survival(a))
            for k, chance, a in look]


def summary(times: list[float]) -> dict[str, float]:
    q = statistics.quantiles(times, n=10)
    return {"median_ms": statistics.median(times) * 1e3, "p10_ms": q[0] * 1e3,
            "p90_ms": q[8] * 1e3, "mean_ms": statistics.mean(times) * 1e3}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="4 games")
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "outcomes.json"))
    args = parser.parse_args()
    games = 4 if args.quick else args.games
    t0 = time.perf_counter()
    calls = collect(games, args.seed)
    print(f"{len(calls)} look-ahead calls from {games} games in {time.perf_counter() - t0:.1f} s",
          file=sys.stderr)
    analyser = Analyser()
    if calls:       # imports and first-call set-up out of the timings
        board, cell, count, base = calls[0]
        per_value(analyser, board, cell, count, base)
        one_pass(board, cell, count, base)
    per_value_times: list[float] = []
    single: list[float] = []
    counts_only: list[float] = []
    for i, (board, cell, count, base) in enumerate(calls):
        order = ("old", "new") if i % 2 == 0 else ("new", "old")
        for which in order:
            if which == "old":
                t = time.perf_counter()
                old = per_value(analyser, board, cell, count, base)
                per_value_times.append(time.perf_counter() - t)
            else:
                t = time.perf_counter()
                new = one_pass(board, cell, count, base)
                single.append(time.perf_counter() - t)
        t = time.perf_counter()
        outcomes(board, cell, since=base)
        counts_only.append(time.perf_counter() - t)
        if facts(old) != facts(new):
            raise SystemExit(f"call {i}: the two ways disagree on cell {board.label(cell)}\n"
                             f"{board.to_text()}")
    ratios = [n / o for n, o in zip(single, per_value_times)]
    result = {
        "command": " ".join([*(["MINEGRAPH_PURE=" + os.environ["MINEGRAPH_PURE"]]
                               if os.environ.get("MINEGRAPH_PURE") else []),
                             "bench/bench_outcomes.py", *sys.argv[1:]]),
        "machine": describe(),
        "games": games, "seed": args.seed, "calls": len(calls),
        "per_value": summary(per_value_times), "one_pass": summary(single),
        "one_pass_counts_only": summary(counts_only),
        "one_pass_over_per_value_median_ratio": statistics.median(ratios),
        "ratio_p10_p90": [statistics.quantiles(ratios, n=10)[0], statistics.quantiles(ratios, n=10)[8]],
        "agree": True,
    }
    print(json.dumps({k: v for k, v in result.items() if k != "machine"}, indent=1))
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
