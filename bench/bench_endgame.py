"""How long the exact endgame takes on the positions where ``strong`` calls it.

The positions are collected by playing Expert games (seeds ``--seed`` on) with ``strong``; each
is then solved (``Endgame(board, 1000).best_cell()``) ``--repeats`` times and its median kept.
With ``--reference DIR`` (a copy of an older ``src`` tree), that tree's endgame solves every
position too, alternating with this one in the same process, and the ratio is reported: the
like-for-like figure for a change to the search (a different move is accepted only when its
value is the same). With ``--band LOW`` the positions are those beyond the endgame's reach
(more than LOW and at most ``--limit`` completions, where ``strong`` guesses by look-ahead),
and the figure is how many each tree solves within ``--cap`` seconds.

    .venv/bin/python bench/bench_endgame.py --games 300 --reference /tmp/snaps/rev2 \\
        --out bench/results/endgame.json
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from machine import describe  # noqa: E402

from minegraph.board import Board  # noqa: E402
from minegraph.deadline import time_limit  # noqa: E402
from minegraph.errors import QueryTimeout  # noqa: E402
from minegraph.play import endgame  # noqa: E402
from minegraph.play.game import Game  # noqa: E402
from minegraph.play.policies import StrongPolicy, default_first_cell, play  # noqa: E402


def collect_band(rules: str, seed: int, games: int, low: int, high: int) -> list[Board]:
    """The positions where ``strong`` (its default endgame) guesses by look-ahead with more
    than ``low`` and at most ``high`` completions: where a larger exact endgame would play."""
    found: list[Board] = []
    original = StrongPolicy._best_guess

    def recording(self: StrongPolicy, game: Game, board: Board, analysis: Any, *rest: Any) -> int:
        if analysis.solutions is not None and low < analysis.solutions <= high:
            found.append(board)
        return original(self, game, board, analysis, *rest)

    StrongPolicy._best_guess = recording  # type: ignore[method-assign]
    try:
        for s in range(seed, seed + games):
            game = Game("expert", rules=rules, seed=s)
            play(game, StrongPolicy(default_first_cell(rules, game.rows, game.cols)))
    finally:
        StrongPolicy._best_guess = original  # type: ignore[method-assign]
    return found


def capped_time(cls: Any, board: Board, limit: int, cap: float) -> float | None:
    """Seconds to the best move, or ``None`` when it takes more than ``cap``."""
    start = time.perf_counter()
    try:
        with time_limit(cap, "the exact endgame"):
            cls(board, limit).best_cell()
    except QueryTimeout:
        return None
    return time.perf_counter() - start


def band(args: argparse.Namespace, reference: ModuleType | None) -> dict[str, Any]:
    """``--band``: how many positions of the band each tree solves within ``--cap``."""
    boards = collect_band(args.rules, args.seed, args.games, args.band, args.limit)
    trees = [("this tree", endgame)] + ([("reference", reference)] if reference else [])
    result: dict[str, Any] = {"positions": len(boards), "band": [args.band, args.limit],
                              "cap_seconds": args.cap}
    for name, module in trees:
        times = [capped_time(module.Endgame, b, args.limit, args.cap) for b in boards]
        solved = sorted(t for t in times if t is not None)
        result[name] = {"solved": len(solved),
                        "seconds": summary(solved) if solved else None}
        print(f"{name}: {len(solved)} of {len(boards)} positions of {args.band}-{args.limit} "
              f"completions solved within {args.cap} s"
              + (f", median {statistics.median(solved):.2f} s" if solved else ""))
    return result


def collect(rules: str, seed: int, games: int, limit: int) -> list[Board]:
    """The positions on which ``strong`` runs the exact endgame in these games."""
    found: list[Board] = []
    original = endgame.Endgame.best_cell

    def recording(self: endgame.Endgame) -> int | None:
        found.append(self.board)
        return original(self)

    endgame.Endgame.best_cell = recording  # type: ignore[method-assign]
    try:
        for s in range(seed, seed + games):
            game = Game("expert", rules=rules, seed=s)
            play(game, StrongPolicy(default_first_cell(rules, game.rows, game.cols), endgame=limit))
    finally:
        endgame.Endgame.best_cell = original  # type: ignore[method-assign]
    return found


def load_reference(src: Path) -> ModuleType:
    """``minegraph.play.endgame`` of another source tree, under another name."""
    spec = importlib.util.spec_from_file_location("reference_endgame", src / "minegraph" / "play" / "endgame.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def solve_time(cls: Any, board: Board, limit: int, repeats: int) -> tuple[float, int | None]:
    times, cell = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        cell = cls(board, limit).best_cell()
        times.append(time.perf_counter() - start)
    return statistics.median(times), cell


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    at = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return {"median": statistics.median(ordered), "p90": at(0.9), "p99": at(0.99),
            "max": ordered[-1], "total": sum(ordered)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="modern")
    parser.add_argument("--seed", type=int, default=800_000_000)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--limit", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--reference", type=Path, help="an older src tree to compare with")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--band", type=int, metavar="LOW",
                        help="instead: the positions of more than LOW and at most --limit "
                             "completions where strong guesses by look-ahead, each solved "
                             "within --cap seconds by each tree")
    parser.add_argument("--cap", type=float, default=10.0)
    args = parser.parse_args()
    if args.band is not None:
        reference_module = load_reference(args.reference) if args.reference else None
        result = band(args, reference_module)
        result.update(games=args.games, rules=args.rules, seed=args.seed)
        if args.out:
            result["machine"] = describe()
            result["command"] = "python " + " ".join(sys.argv)
            args.out.write_text(json.dumps(result, indent=1) + "\n")
        return 0
    boards = collect(args.rules, args.seed, args.games, args.limit)
    reference = load_reference(args.reference) if args.reference else None
    ours, theirs = [], []
    moved = 0       # positions where the two trees chose different moves of equal value
    for board in boards:
        if reference is not None:
            t, ref_cell = solve_time(reference.Endgame, board, args.limit, args.repeats)
            theirs.append(t)
        t, cell = solve_time(endgame.Endgame, board, args.limit, args.repeats)
        ours.append(t)
        if reference is not None and cell != ref_cell:
            # Two optimal moves may differ; their values may not.
            values = endgame.Endgame(board, args.limit).cells_by_value(
                [c for c in (cell, ref_cell) if c is not None])
            if len(set(values.values())) != 1:
                print(f"a worse move on a position: {cell} against {ref_cell}", file=sys.stderr)
                return 1
            moved += 1
    result: dict[str, Any] = {"positions": len(boards), "games": args.games, "rules": args.rules,
                              "seed": args.seed, "limit": args.limit, "seconds": summary(ours)}
    print(f"{len(boards)} endgame positions from {args.games} Expert {args.rules} games")
    print("this tree: " + ", ".join(f"{k} {v:.4f} s" for k, v in result["seconds"].items()))
    if reference is not None:
        result["reference"] = str(args.reference)
        result["reference_seconds"] = summary(theirs)
        ratios = [a / b for a, b in zip(ours, theirs) if b > 0.01]
        result["ratio_on_positions_over_10ms"] = summary(ratios) if ratios else None
        result["different_moves_of_equal_value"] = moved
        print("reference: " + ", ".join(f"{k} {v:.4f} s" for k, v in result["reference_seconds"].items()))
        if ratios:
            print(f"this / reference on the {len(ratios)} positions over 10 ms: median "
                  f"{statistics.median(ratios):.2f} (min {min(ratios):.2f}, max {max(ratios):.2f}); "
                  f"total time {result['seconds']['total'] / result['reference_seconds']['total']:.2f}")
    if args.out:
        result["machine"] = describe()
        result["command"] = "python " + " ".join(sys.argv)
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
