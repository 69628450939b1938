"""How long the exact endgame takes on the positions where ``strong`` calls it.

The positions are collected by playing Expert games (seeds ``--seed`` on) with ``strong``; each
is then solved (``Endgame(board, 1000).best_cell()``) ``--repeats`` times and its median kept,
by the native search (``minegraph._endgame``) and by the Python search (``native=False``),
alternating in the same process: the ratio native / Python is the like-for-like figure (both
must find the same value; a different move is accepted only when its value is the same).
With ``--reference DIR`` (a copy of an older ``src`` tree), that tree's endgame solves every
position too. With ``--band LOW`` the positions are those beyond the endgame's reach (more
than LOW and at most ``--limit`` completions, where ``strong`` guesses by look-ahead), and
the figure is how many each search solves within ``--cap`` seconds and the decision time
(listing the completions included). With ``--sweep L1,L2,...`` the same games are played by
``strong`` with each endgame limit in turn (game by game, interleaved): every exact-endgame
decision is timed (capped at ``--cap``; past it the policy looks ahead), and so is every game.

    .venv/bin/python bench/bench_endgame.py --games 300 --out bench/results/endgame.json
    .venv/bin/python bench/bench_endgame.py --band 1000 --limit 10000 --games 200
    .venv/bin/python bench/bench_endgame.py --sweep 1000,5000,10000,20000 --games 200
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from machine import write_result  # noqa: E402

from minegraph.board import Board  # noqa: E402
from minegraph.deadline import time_limit  # noqa: E402
from minegraph.errors import LimitError, QueryTimeout  # noqa: E402
from minegraph.play import endgame  # noqa: E402
from minegraph.play.autoplay import play  # noqa: E402
from minegraph.play.game import Game  # noqa: E402
from minegraph.play.policies import StrongPolicy, default_first_cell  # noqa: E402

Solver = Callable[[Board, int], Any]     # (board, limit) -> an object with best_cell()


def native_solver(board: Board, limit: int) -> endgame.Endgame:
    return endgame.Endgame(board, limit, native=True)


def python_solver(board: Board, limit: int) -> endgame.Endgame:
    return endgame.Endgame(board, limit, native=False)


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


def capped_time(solve: Solver, board: Board, limit: int, cap: float,
                cpu: list[float] | None = None) -> float | None:
    """Seconds to the best move (completions listed and searched), or ``None`` past ``cap``;
    the CPU seconds it took are appended to ``cpu`` (the figure a loaded machine distorts
    least: the wall time counts the other processes' turns too)."""
    start, start_cpu = time.perf_counter(), time.process_time()
    try:
        with time_limit(cap, "the exact endgame"):
            solve(board, limit).best_cell()
    except QueryTimeout:
        return None
    finally:
        if cpu is not None:
            cpu.append(time.process_time() - start_cpu)
    return time.perf_counter() - start


def listing_time(board: Board, limit: int) -> float:
    start = time.perf_counter()
    endgame.completions(board, limit)
    return time.perf_counter() - start


def capped_summary(times: list[float | None], cap: float) -> dict[str, Any]:
    """Solved within the cap, and the decision time's summary with those past it counted as
    the cap (so a p99 equal to the cap means "more than the cap")."""
    solved = [t for t in times if t is not None]
    return {"solved": len(solved), "positions": len(times),
            "seconds": summary([cap if t is None else t for t in times]) if times else None}


def band(args: argparse.Namespace, reference: ModuleType | None) -> dict[str, Any]:
    """``--band``: how many positions of the band each search solves within ``--cap``."""
    boards = collect_band(args.rules, args.seed, args.games, args.band, args.limit)
    solvers: list[tuple[str, Solver]] = [("native", native_solver)]
    if args.python:
        solvers.append(("python", python_solver))
    if reference is not None:
        solvers.append(("reference", reference.Endgame))
    result: dict[str, Any] = {"positions": len(boards), "band": [args.band, args.limit],
                              "cap_seconds": args.cap}
    times: dict[str, list[float | None]] = {name: [] for name, _ in solvers}
    cpu: dict[str, list[float]] = {name: [] for name, _ in solvers}
    for board in boards:            # interleaved: the machine's load falls on every search
        for name, solve in solvers:
            times[name].append(capped_time(solve, board, args.limit, args.cap, cpu[name]))
    listing = [listing_time(b, args.limit) for b in boards]
    result["listing_seconds"] = summary(listing) if listing else None
    for name, _ in solvers:
        result[name] = capped_summary(times[name], args.cap)
        result[name]["cpu_seconds"] = summary(cpu[name]) if cpu[name] else None
        s = result[name]["seconds"]
        print(f"{name}: {result[name]['solved']} of {len(boards)} positions of {args.band}-"
              f"{args.limit} completions solved within {args.cap} s"
              + (f"; decision median {s['median']:.3f} s, p99 {s['p99']:.3f} s" if s else ""))
    if listing:
        print(f"listing the completions: median {statistics.median(listing):.3f} s, "
              f"max {max(listing):.3f} s")
    return result


def sweep(args: argparse.Namespace) -> dict[str, Any]:
    """``--sweep``: the same games played by ``strong`` with each endgame limit, interleaved;
    every exact-endgame decision and every game timed."""
    limits = [int(x) for x in args.sweep.split(",")]
    decisions: dict[int, list[tuple[int, float | None, float]]] = {L: [] for L in limits}
    games: dict[int, list[float]] = {L: [] for L in limits}
    games_cpu: dict[int, list[float]] = {L: [] for L in limits}
    wins = {L: 0 for L in limits}
    won: dict[int, list[int]] = {L: [] for L in limits}     # per game: 1 won, 0 lost
    original = StrongPolicy._endgame
    current: list[int] = [0]

    def timed(self: StrongPolicy, board: Board) -> int | None:
        start, start_cpu = time.perf_counter(), time.process_time()
        try:
            with time_limit(args.cap, "the exact endgame"):
                search = endgame.Endgame(board, self.endgame)
                cell = search.best_cell()
        except QueryTimeout:
            decisions[current[0]].append((-1, None, time.process_time() - start_cpu))
            return None
        except LimitError:
            return None
        seconds, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        decisions[current[0]].append((search.count, seconds, cpu))
        return cell

    StrongPolicy._endgame = timed  # type: ignore[method-assign]
    try:
        for s in range(args.seed, args.seed + args.games):
            for limit in limits:
                current[0] = limit
                game = Game("expert", rules=args.rules, seed=s)
                start, start_cpu = time.perf_counter(), time.process_time()
                play(game, StrongPolicy(default_first_cell(args.rules, game.rows, game.cols),
                                        endgame=limit))
                games[limit].append(time.perf_counter() - start)
                games_cpu[limit].append(time.process_time() - start_cpu)
                wins[limit] += game.status == "won"
                won[limit].append(int(game.status == "won"))
    finally:
        StrongPolicy._endgame = original  # type: ignore[method-assign]
    out: dict[str, Any] = {"limits": limits, "cap_seconds": args.cap,
                           "paired_against_first": paired(won, limits)}
    for limit in limits:
        times = [t for _, t, _ in decisions[limit]]
        cpu = [c for _, _, c in decisions[limit]]
        out[str(limit)] = {"decisions": capped_summary(times, args.cap),
                           "decision_cpu_seconds": summary(cpu) if cpu else None,
                           "game_seconds": summary(games[limit]),
                           "game_cpu_seconds": summary(games_cpu[limit]), "wins": wins[limit],
                           "largest_solved": max((n for n, _, _ in decisions[limit]), default=0),
                           # every decision (completions, CPU seconds): runs can be pooled
                           "decisions_cpu": [[n, round(c, 4)] for n, _, c in decisions[limit]]}
        d = out[str(limit)]["decisions"]
        s = d["seconds"] or {"median": 0.0, "p99": 0.0, "max": 0.0}
        c = out[str(limit)]["decision_cpu_seconds"] or {"median": 0.0, "p99": 0.0, "max": 0.0}
        print(f"endgame {limit}: {d['positions']} decisions, {d['positions'] - d['solved']} past "
              f"{args.cap} s; decision median {s['median']:.4f} s, p99 {s['p99']:.3f} s, max "
              f"{s['max']:.3f} s (CPU: median {c['median']:.4f} s, p99 {c['p99']:.3f} s); game "
              f"median {statistics.median(games[limit]):.3f} s (CPU "
              f"{statistics.median(games_cpu[limit]):.3f} s); won {wins[limit]} of {args.games}")
    return out


def paired(won: dict[int, list[int]], limits: list[int]) -> dict[str, Any]:
    """Each limit's win rate minus the first limit's on the same games (paired), with its 95%
    interval (normal approximation of the per-game differences), in points."""
    out: dict[str, Any] = {}
    base = won[limits[0]]
    for limit in limits[1:]:
        diffs = [a - b for a, b in zip(won[limit], base)]
        n = len(diffs)
        mean = sum(diffs) / n if n else 0.0
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
        half = 1.96 * (var / n) ** 0.5 if n else 0.0
        out[str(limit)] = {"difference_points": 100 * mean, "interval_points": 100 * half,
                           "games_differing": sum(1 for d in diffs if d)}
        print(f"endgame {limit} - endgame {limits[0]}: {100 * mean:+.2f} ± {100 * half:.2f} "
              f"points (paired, 95%; {out[str(limit)]['games_differing']} of {n} games differ)")
    return out


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


def solve_time(solve: Solver, board: Board, limit: int, repeats: int,
               clock: Callable[[], float] = time.perf_counter) -> tuple[float, int | None]:
    """The median over ``repeats`` of the seconds (by ``clock``) to the best move, and it."""
    times, cell = [], None
    for _ in range(repeats):
        start = clock()
        cell = solve(board, limit).best_cell()
        times.append(clock() - start)
    return statistics.median(times), cell


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    at = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return {"median": statistics.median(ordered), "p90": at(0.9), "p99": at(0.99),
            "max": ordered[-1], "total": sum(ordered)}


def compare(args: argparse.Namespace, reference: ModuleType | None) -> dict[str, Any] | None:
    """The default: native and Python (and a reference tree) on the endgame positions."""
    boards = collect(args.rules, args.seed, args.games, args.limit)
    solvers: list[tuple[str, Solver]] = [("native", native_solver), ("python", python_solver)]
    if reference is not None:
        solvers.append(("reference", reference.Endgame))
    times: dict[str, list[float]] = {name: [] for name, _ in solvers}
    moved = 0       # positions where two searches chose different moves of equal value
    for board in boards:
        cells = {}
        for name, solve in solvers:     # CPU seconds: the machine is shared
            t, cells[name] = solve_time(solve, board, args.limit, args.repeats,
                                        time.process_time)
            times[name].append(t)
        chosen = [c for c in set(cells.values()) if c is not None]
        if len(set(cells.values())) > 1:
            values = python_solver(board, args.limit).cells_by_value(chosen)
            if len(set(values.values())) != 1:
                print(f"a worse move on a position: {cells}", file=sys.stderr)
                return None
            moved += 1
    result: dict[str, Any] = {"positions": len(boards), "games": args.games, "rules": args.rules,
                              "seed": args.seed, "limit": args.limit,
                              "different_moves_of_equal_value": moved}
    print(f"{len(boards)} endgame positions from {args.games} Expert {args.rules} games")
    for name, _ in solvers:
        result[name] = {"cpu_seconds": summary(times[name])}
        print(f"{name} (CPU): " + ", ".join(f"{k} {v:.4f} s"
                                            for k, v in result[name]["cpu_seconds"].items()))
    for name in [n for n, _ in solvers][1:]:
        ratios = [a / b for a, b in zip(times["native"], times[name]) if b > 0.01]
        result[f"native_over_{name}_on_positions_over_10ms"] = summary(ratios) if ratios else None
        if ratios:
            print(f"native / {name} on the {len(ratios)} positions over 10 ms: median "
                  f"{statistics.median(ratios):.3f}, p99 {result[f'native_over_{name}_on_positions_over_10ms']['p99']:.3f}; "
                  f"total time {result['native']['cpu_seconds']['total'] / result[name]['cpu_seconds']['total']:.3f}")
    if reference is not None:
        result["reference_tree"] = str(args.reference)
    return result


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
                             "within --cap seconds by each search")
    parser.add_argument("--python", action="store_true",
                        help="with --band: the Python search too (slow past 1,000 completions)")
    parser.add_argument("--sweep", metavar="L1,L2,...",
                        help="instead: the games played with each endgame limit, every "
                             "exact-endgame decision and game timed")
    parser.add_argument("--cap", type=float, default=10.0)
    args = parser.parse_args()
    if not endgame.native_available():
        print(f"the native endgame search is not loaded ({endgame.NATIVE_STATUS})", file=sys.stderr)
        return 2
    reference = load_reference(args.reference) if args.reference else None
    if args.sweep:
        result: dict[str, Any] | None = sweep(args)
    elif args.band is not None:
        result = band(args, reference)
    else:
        result = compare(args, reference)
    if result is None:
        return 1
    result.update(games=args.games, rules=args.rules, seed=args.seed)
    if args.out:
        write_result(args.out, result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
