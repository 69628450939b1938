"""Benchmark ``minegraph.analyze`` against the peer ``ms_toollib.cal_probability_onboard``.

What is measured (see bench/README.md):

1. The Expert corpus (30x16, 99 mines, ``bench/expert_corpus.py``; default 1000 positions):
   for every position, ``analyze(board)`` and the peer on the same position, interleaved,
   each ``--repeats`` times; the position's time is the median of its repeats. Reported:
   median, p90, p99, max and total over positions for each, the ratio minegraph/peer of each
   figure, the totals of both on the peer's slowest 1% of positions (and on minegraph's).
2. Agreement: max |p_minegraph - p_peer| over every hidden cell of every position (the peer
   computes in floats, minegraph in exact fractions), and a check of both against the true
   layout (a cell called safe must not be a mine, a cell called a mine must be one).
3. One 200x200 board with 8000 mines (20%) at mid-game, ``--big-repeats`` runs of each side
   in a child process with a time limit.

Times are wall-clock ``time.perf_counter`` around the bare call; each side gets its native
input prepared beforehand (a ``Board``; the peer's list of rows). The garbage collector is
off during a timed call, as ``timeit`` does.

Usage::

    python bench/bench_analyze.py                 # full run, writes bench/results/analyze.json
    python bench/bench_analyze.py --quick         # 50 positions, 1 big-board run -> analyze-quick.json
    python bench/bench_analyze.py --count 200 --repeats 5 --out /tmp/a.json
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import shlex
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from expert_corpus import COLS, MINES, ROWS  # noqa: E402
from peer import PEER_NAME, PeerError, peer_call, peer_probabilities, peer_version, to_peer_board  # noqa: E402

from machine import describe  # noqa: E402
from corpora import RECIPES, SIZES  # noqa: E402
from corpora import corpus as corpus_of  # noqa: E402
from minegraph.recipes import Midgame, midgame  # noqa: E402

TOLERANCE = 1e-9
SIZES_TEXT = ", ".join(f"{c}x{r}/{m}" for r, c, m in SIZES) + " in turn"
BIG = (200, 200, 8000)


def load_analyze() -> Callable[..., Any] | None:
    try:
        from minegraph import analyze
    except ImportError:
        return None
    return analyze


TIMED_CALLS = {"none": "analyze(board)",
               "floats": "analyze(board) and every hidden cell's probability as a float",
               "fractions": "analyze(board) and every hidden cell's probability as a Fraction",
               "array": "analyze(board) and every cell's probability in a numpy array (float_array)"}


def timed_call(analyze: Callable[..., Any], read: str, from_text: bool) -> Callable[..., Any]:
    """The call timed on each position: analyze, what it reads, and optionally the parsing."""
    from minegraph import Board

    def call(board: Any) -> Any:
        if from_text:
            board = Board.from_text(TEXTS[id(board)])
        a = analyze(board)
        if read == "floats":
            list(a.floats.values())
        elif read == "fractions":
            list(a.probabilities.values())
        elif read == "array":
            a.float_array()
        return a

    return call


#: The board text of each corpus position, by the board's identity (made before timing).
TEXTS: dict[int, str] = {}


# ----------------------------------------------------------------- timing and statistics
def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """One wall-clock run of ``fn`` with the garbage collector off; (seconds, result)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        t0 = time.perf_counter()
        out = fn()
        t1 = time.perf_counter()
    finally:
        if enabled:
            gc.enable()
    return t1 - t0, out


def percentile(sorted_values: list[float], p: float) -> float:
    """Nearest-rank percentile: the smallest value with at least p% of the values at or below it."""
    if not sorted_values:
        return math.nan
    k = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[k - 1]


def summary(times: list[float]) -> dict[str, float]:
    s = sorted(times)
    return {"median": statistics.median(s), "p90": percentile(s, 90), "p99": percentile(s, 99),
            "max": s[-1], "mean": statistics.fmean(s), "total": math.fsum(s)}


def slowest_share(key: list[float], other: list[float], share: float = 0.01) -> dict[str, Any]:
    """Totals of both sides on the positions where ``key`` is slowest (the top ``share``)."""
    k = max(1, round(share * len(key)))
    idx = sorted(range(len(key)), key=lambda i: key[i], reverse=True)[:k]
    return {"positions": k, "indices": sorted(idx),
            "own_total": math.fsum(key[i] for i in idx), "other_total": math.fsum(other[i] for i in idx)}


# ----------------------------------------------------------------- agreement
def compare(game: Midgame, analysis: Any | None, peer: dict[tuple[int, int], float] | None) -> dict[str, Any]:
    """Agreement of the two answers with each other and with the true layout."""
    board, layout = game.board, game.layout
    cols = board.cols
    assert cols is not None
    out: dict[str, Any] = {"max_diff": None, "worst_cell": None, "worst_values": None, "mg_wrong": 0, "peer_wrong": 0,
                           "mg_inconsistent": False, "keys_differ": False}
    if analysis is not None:
        out["mg_inconsistent"] = not analysis.consistent
        wrong = sum(1 for (r, c) in analysis.safe if r * cols + c in layout)
        wrong += sum(1 for (r, c) in analysis.mines if r * cols + c not in layout)
        out["mg_wrong"] = wrong
    if peer is not None:
        out["peer_wrong"] = sum(1 for (r, c), p in peer.items()
                                if (p == 0.0 and r * cols + c in layout) or (p == 1.0 and r * cols + c not in layout))
    if analysis is not None and peer is not None:
        probs: dict[tuple[int, int], Fraction] = analysis.probabilities
        if set(probs) != set(peer):
            out["keys_differ"] = True
        worst, cell, values = 0.0, None, None
        for key, q in peer.items():
            p = probs.get(key)
            if p is None:
                continue
            d = abs(float(p) - q)
            if d > worst or cell is None:
                worst, cell, values = d, key, (p, q)
        out["max_diff"], out["worst_cell"], out["worst_values"] = worst, cell, values
    return out


# ----------------------------------------------------------------- the corpus
def run_corpus(games: list[Midgame], repeats: int, analyze: Callable[..., Any] | None,
               progress: bool) -> list[dict[str, Any]]:
    records = []
    # warm-up: imports, first-call costs
    if games:
        b = games[0].board
        if analyze is not None:
            analyze(b)
        peer_call(to_peer_board(b), b.mines or 0)
    for k, game in enumerate(games):
        board = game.board
        mines = board.mines or 0
        peer_board = to_peer_board(board)
        mg_times: list[float] = []
        peer_times: list[float] = []
        analysis = raw = None
        peer_error = None
        gc.collect()
        for _ in range(repeats):
            if analyze is not None:
                t, analysis = timed(lambda: analyze(board))
                mg_times.append(t)
            try:
                t, raw = timed(lambda: peer_call(peer_board, mines))
                peer_times.append(t)
            except BaseException as exc:  # noqa: BLE001 - a peer failure is a result
                if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                    raise
                peer_error = f"{type(exc).__name__}: {exc}"
                break
        peer: dict[tuple[int, int], float] | None = None
        if raw is not None:
            try:
                peer = peer_probabilities(board, raw).probabilities
            except PeerError as exc:
                peer_error = str(exc)
        rec = {"seed": None, "hidden": board.hidden_count, "target": round(game.target, 4),
               "mg": statistics.median(mg_times) if mg_times else None,
               "peer": statistics.median(peer_times) if peer_times and peer_error is None else None,
               "peer_error": peer_error,
               "solutions_digits": len(str(analysis.solutions)) if analysis is not None else None}
        rec.update(compare(game, analysis, peer))
        records.append(rec)
        if progress and (k + 1) % 100 == 0:
            print(f"  {k + 1}/{len(games)} positions", file=sys.stderr, flush=True)
    return records


# ----------------------------------------------------------------- the big board (child processes)
def big_child(side: str, seed: int, repeats: int) -> None:
    """Run one side on the big board and print JSON: times and the probability of each hidden cell."""
    rows, cols, mines = BIG
    board = midgame(rows, cols, mines, seed).board
    hidden = board.hidden
    times: list[float] = []
    info: dict[str, Any] = {}
    if side == "minegraph":
        analyze = load_analyze()
        assert analyze is not None
        for _ in range(repeats):
            gc.collect()
            t, a = timed(lambda: analyze(board))
            times.append(t)
        probs = [float(a.probabilities[divmod(i, cols)]) for i in hidden]
        info = {"consistent": a.consistent, "solutions_digits": len(str(a.solutions)),
                "engine": getattr(a, "engine", None), "stats": getattr(a, "stats", None)}
    else:
        peer_board = to_peer_board(board)
        for _ in range(repeats):
            gc.collect()
            t, raw = timed(lambda: peer_call(peer_board, mines))
            times.append(t)
        res = peer_probabilities(board, raw)
        probs = [res.probabilities[divmod(i, cols)] for i in hidden]
        info = {"mine_range": [res.min_mines, res.max_mines]}
    json.dump({"times": times, "probs": probs, "info": info}, sys.stdout)


def run_big(seed: int, repeats: int, timeout: float, sides: list[str]) -> dict[str, Any]:
    rows, cols, mines = BIG
    game = midgame(rows, cols, mines, seed)
    out: dict[str, Any] = {"board": f"{rows}x{cols}, {mines} mines", "seed": seed,
                           "hidden": game.board.hidden_count, "uncovered": len(game.revealed),
                           "target": round(game.target, 4), "repeats": repeats, "timeout_s": timeout}
    probs: dict[str, list[float]] = {}
    for side in sides:
        cmd = [sys.executable, str(Path(__file__).resolve()), "--big-child", side,
               "--big-seed", str(seed), "--big-repeats", str(repeats)]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            out[side] = {"error": f"timed out after {timeout:g} s"}
            continue
        if proc.returncode != 0:
            out[side] = {"error": proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else
                         f"exit status {proc.returncode}"}
            continue
        data = json.loads(proc.stdout)
        times = data["times"]
        out[side] = {"times": times, "median": statistics.median(times), "min": min(times), **data["info"]}
        probs[side] = data["probs"]
    if "minegraph" in probs and "peer" in probs:
        diffs = [abs(a - b) for a, b in zip(probs["minegraph"], probs["peer"])]
        out["max_diff"] = max(diffs) if diffs else 0.0
    if "median" in out.get("minegraph", {}) and "median" in out.get("peer", {}):
        out["ratio"] = out["minegraph"]["median"] / out["peer"]["median"]
    return out


# ----------------------------------------------------------------- machine
def machine() -> dict[str, Any]:
    try:
        import numpy
        numpy_version: str | None = numpy.__version__
    except ImportError:  # pragma: no cover
        numpy_version = None
    return describe(ms_toollib=peer_version(), numpy=numpy_version)


# ----------------------------------------------------------------- report
def ms(x: float | None) -> str:
    return "-" if x is None else f"{x * 1e3:.3f}"


def table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    fmt = "  ".join("{:<%d}" % widths[0] if i == 0 else "{:>%d}" % w for i, w in enumerate(widths))
    lines = [fmt.format(*header), "  ".join("-" * w for w in widths)]
    lines += [fmt.format(*r) for r in rows]
    return "\n".join(lines)


def report(result: dict[str, Any]) -> str:
    out = []
    c = result["corpus"]
    mg, pe = c.get("minegraph"), c.get("peer")
    out.append(f"{c['recipe']} corpus: {c['positions']} positions ({c['board']}, seeds {c['first_seed']}.."
               f"{c['first_seed'] + c['positions'] - 1}), median of {c['repeats']} runs per position; ms")
    path = result.get("machine", {}).get("minegraph_path", "?")
    out.append(f"minegraph timed call: {c.get('timed_call', 'analyze(board)')}; path: {path}")
    rows = []
    for key in ("median", "p90", "p99", "max", "mean", "total"):
        a = mg[key] if mg else None
        b = pe[key] if pe else None
        ratio = f"{a / b:.2f}" if a is not None and b else "-"
        rows.append([key, ms(a), ms(b), ratio])
    if c.get("median_ratio") is not None:
        rows.append(["median of per-position ratios", "", "", f"{c['median_ratio']:.2f}"])
    for key, value in c.get("position_ratios", {}).items():
        rows.append([f"{key} of per-position ratios", "", "", f"{value:.2f}"])
    out.append(table(rows, ["", "minegraph", "peer", "minegraph/peer"]))
    for name, label in (("peer_slowest", "the peer's"), ("mg_slowest", "minegraph's")):
        s = c.get(name)
        if s:
            own, other = ("peer", "minegraph") if name == "peer_slowest" else ("minegraph", "peer")
            out.append(f"On {label} slowest 1% ({s['positions']} positions): {own} total "
                       f"{ms(s['own_total'])} ms, {other} total {ms(s['other_total'])} ms")
    ag = c["agreement"]
    if ag.get("max_diff") is not None:
        out.append(f"Agreement: max |p_minegraph - p_peer| = {ag['max_diff']:.3g} over {ag['cells']} hidden cells; "
                   f"{ag['over_tolerance']} positions above {TOLERANCE:g}")
    out.append(f"Checks against the true layout: minegraph wrong calls {ag['mg_wrong']}, "
               f"peer wrong certainties {ag['peer_wrong']}, minegraph inconsistent {ag['mg_inconsistent']}, "
               f"peer errors {ag['peer_errors']}, cell sets differ {ag['keys_differ']}")
    big = result.get("big")
    if big:
        out.append("")
        out.append(f"Big board: {big['board']}, seed {big['seed']}, {big['hidden']} hidden, "
                   f"{big['uncovered']} uncovered; {big['repeats']} runs each (s)")
        rows = []
        for side in ("minegraph", "peer"):
            d = big.get(side)
            if d is None:
                continue
            if "error" in d:
                rows.append([side, d["error"], "", ""])
            else:
                rows.append([side, f"{d['median']:.3f}", f"{d['min']:.3f}", " ".join(f"{t:.3f}" for t in d["times"])])
        out.append(table(rows, ["", "median", "min", "runs"]))
        if "ratio" in big:
            out.append(f"minegraph/peer (median): {big['ratio']:.3f}")
        if "max_diff" in big:
            out.append(f"Agreement on the big board: max |p_minegraph - p_peer| = {big['max_diff']:.3g}")
    return "\n".join(out)


# ----------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="minegraph analyze vs ms_toollib on the Expert corpus")
    ap.add_argument("--count", type=int, default=None, help="positions (default 1000; 50 with --quick)")
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--recipe", choices=list(RECIPES), default="opening",
                    help="opening: the Expert corpus (one growing region); clicks: many separate "
                         "clicks anywhere (recipes.midgame(..., clicks=True)); deduced: trivial "
                         "deductions plus guesses, modern and classic first clicks; sizes: 16x30/130, "
                         "24x30/180, 20x20/80, 16x16/40 in turn (corpora.py)")
    ap.add_argument("--repeats", type=int, default=None, help="runs per position (default 5; 3 with --quick)")
    ap.add_argument("--quick", action="store_true", help="smoke run: 50 positions, 1 big-board run")
    ap.add_argument("--peer-only", action="store_true", help="time the peer alone")
    ap.add_argument("--no-big", action="store_true", help="skip the 200x200 board")
    ap.add_argument("--big-seed", type=int, default=0)
    ap.add_argument("--big-repeats", type=int, default=None, help="runs on the big board (default 5; 1 with --quick)")
    ap.add_argument("--big-timeout", type=float, default=900.0, help="seconds per side on the big board")
    ap.add_argument("--out", type=Path, default=None,
                    help="JSON output (default bench/results/analyze.json; analyze-quick.json with --quick)")
    ap.add_argument("--read", choices=["floats", "fractions", "array", "none"], default="floats",
                    help="what the timed call reads besides analyze(board): every hidden cell's "
                         "probability as a float (Analysis.floats; the peer's answer, the default), "
                         "as an exact Fraction, every cell's in a numpy array (Analysis.float_array), "
                         "or nothing (the lazy answer)")
    ap.add_argument("--every-cell", dest="read", action="store_const", const="fractions",
                    help="the same as --read fractions")
    ap.add_argument("--from-text", action="store_true",
                    help="minegraph's timed call starts from the board text (Board.from_text "
                         "included); the peer still gets its list of rows prepared beforehand")
    ap.add_argument("--show", type=int, default=3, help="print up to this many disagreeing positions")
    ap.add_argument("--big-child", choices=["minegraph", "peer"], help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    count = args.count if args.count is not None else (50 if args.quick else 1000)
    repeats = args.repeats if args.repeats is not None else (3 if args.quick else 5)
    big_repeats = args.big_repeats if args.big_repeats is not None else (1 if args.quick else 5)
    if args.big_child:
        big_child(args.big_child, args.big_seed, big_repeats)
        return 0

    analyze = None if args.peer_only else load_analyze()
    if analyze is not None:
        analyze = timed_call(analyze, args.read, args.from_text)
    if analyze is None and not args.peer_only:
        print("minegraph.analyze is not importable: timing the peer alone", file=sys.stderr)
    out_path = args.out or HERE / "results" / ("analyze-quick.json" if args.quick else "analyze.json")

    started = datetime.now(timezone.utc)
    load_before = list(os.getloadavg())     # p99 moves with the machine's load: say it
    t0 = time.perf_counter()
    make = corpus_of(args.recipe)
    games = [make(s) for s in range(args.first_seed, args.first_seed + count)]
    if args.from_text:
        TEXTS.update({id(g.board): g.board.to_text() for g in games})
    records = run_corpus(games, repeats, analyze, progress=count >= 200)
    for k, rec in enumerate(records):
        rec["seed"] = args.first_seed + k

    peer_t = [r["peer"] for r in records]
    mg_t = [r["mg"] for r in records]
    ok = [i for i, r in enumerate(records) if r["peer"] is not None and (analyze is None or r["mg"] is not None)]
    corpus: dict[str, Any] = {"recipe": args.recipe, "positions": count, "first_seed": args.first_seed, "repeats": repeats,
                              "board": SIZES_TEXT if args.recipe == "sizes" else f"{COLS}x{ROWS}, {MINES} mines",
                              "timed_positions": len(ok),
                              "timed_call": TIMED_CALLS[args.read]
                              + (", from the board text" if args.from_text else "")}
    corpus["peer"] = summary([peer_t[i] for i in ok]) if ok else None
    corpus["minegraph"] = summary([mg_t[i] for i in ok]) if analyze is not None and ok else None
    if analyze is not None and ok:
        p_ok = [peer_t[i] for i in ok]
        m_ok = [mg_t[i] for i in ok]
        corpus["median_ratio"] = statistics.median(m / p for m, p in zip(m_ok, p_ok))
        # issue 35's tail measure: the per-position ratios' own percentiles (nearest rank)
        position_ratios = sorted(m / p for m, p in zip(m_ok, p_ok))
        corpus["position_ratios"] = {"p90": percentile(position_ratios, 90),
                                     "p99": percentile(position_ratios, 99),
                                     "max": position_ratios[-1]}
        corpus["peer_slowest"] = slowest_share(p_ok, m_ok)
        corpus["mg_slowest"] = slowest_share(m_ok, p_ok)
        for key in ("peer_slowest", "mg_slowest"):
            corpus[key]["seeds"] = [records[ok[i]]["seed"] for i in corpus[key].pop("indices")]
        corpus["ratios"] = {k: corpus["minegraph"][k] / corpus["peer"][k] for k in corpus["peer"]}
    diffs = [r["max_diff"] for r in records if r["max_diff"] is not None]
    over = [r for r in records if r["max_diff"] is not None and r["max_diff"] > TOLERANCE]
    corpus["agreement"] = {
        "tolerance": TOLERANCE,
        "max_diff": max(diffs) if diffs else None,
        "cells": sum(r["hidden"] for r in records if r["max_diff"] is not None),
        "over_tolerance": len(over),
        "over_tolerance_seeds": [r["seed"] for r in over],
        "mg_wrong": sum(r["mg_wrong"] for r in records),
        "peer_wrong": sum(r["peer_wrong"] for r in records),
        "mg_inconsistent": sum(1 for r in records if r["mg_inconsistent"]),
        "keys_differ": sum(1 for r in records if r["keys_differ"]),
        "peer_errors": sum(1 for r in records if r["peer_error"]),
    }
    corpus["per_position"] = [{k: r[k] for k in ("seed", "hidden", "target", "mg", "peer", "max_diff",
                                                  "solutions_digits", "peer_error")} for r in records]

    result: dict[str, Any] = {"benchmark": "analyze", "peer": PEER_NAME,
                              "command": shlex.join(["python", os.path.relpath(sys.argv[0]), *sys.argv[1:]])
                              if argv is None else shlex.join(["python", "bench/bench_analyze.py", *argv]),
                              "date": started.isoformat(timespec="seconds"), "machine": machine(),
                              "corpus": corpus}
    if not args.no_big:
        sides = ["peer"] if analyze is None else ["minegraph", "peer"]
        result["big"] = run_big(args.big_seed, big_repeats, args.big_timeout, sides)
    result["wall_s"] = round(time.perf_counter() - t0, 1)
    result["load_average_before"] = load_before
    result["load_average_after"] = list(os.getloadavg())

    print(report(result))
    shown = sorted(over, key=lambda r: -r["max_diff"])[: args.show]
    for r in shown:
        board = games[r["seed"] - args.first_seed].board
        p, q = r["worst_values"]
        print(f"\nDisagreement > {TOLERANCE:g} at seed {r['seed']}: cell {r['worst_cell']}, minegraph {p} "
              f"= {float(p)!r}, peer {q!r}, |diff| = {r['max_diff']:.3g}\n{board.to_text()}")
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(json.dumps(result, indent=1, default=str) + "\n", encoding="utf-8")
    print(f"\nwrote {out_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
