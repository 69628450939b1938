"""Moves compared by play on one position: each candidate uncovered, then ``strong`` plays on,
over the same layouts drawn uniformly from the position's completions
(:func:`minegraph.play.rollout.compare_moves`), the paired difference against the first
candidate printed with its 95% interval.

    .venv/bin/python bench/move_values.py POSITION.board --cells 0,29 0,2 --samples 2000 \\
        --out bench/results/winrates/opening/third-click.json

``--decisions DIR --variant NAME:key=value,...`` screens variants of ``strong`` on the valued
decisions already in ``--out``: which of the two cells each variant picks there (one layout of
the position is dealt to let it decide) and its valued gain over the first player per decision,
a cell that is neither valued on the same layouts (rng: the game's seed), cached in ``--out``.
A screen, not a measurement: the decisions are those where the two players differed.

A position file may be any board file (a saved position of ``hill_side_by_side.py report``);
``--corners N1,N2`` builds the classic Expert position where the corners (0, 0) and (15, 0)
show N1 and N2 and nothing else is known. Results are appended per position (resumable in
``--chunk``-sized steps: rerunning adds samples with fresh seeds).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.append(str(Path(__file__).resolve().parent.parent / "src"))  # after PYTHONPATH: a snapshot may be run

from machine import describe  # noqa: E402

from minegraph import Board  # noqa: E402
from minegraph.play.policies import StrongPolicy  # noqa: E402
from minegraph.play.rollout import compare_moves  # noqa: E402


def corners_position(n1: int, n2: int) -> Board:
    states = ["#"] * (16 * 30)
    states[0], states[15 * 30] = str(n1), str(n2)
    return Board.grid(16, 30, "".join(states), mines=99)


def _options(text: str) -> dict[str, Any]:
    """StrongPolicy options from ``key=value,...`` (each value JSON)."""
    options: dict[str, Any] = {}
    for item in filter(None, text.split(",")):
        k, _, v = item.partition("=")
        options[k] = json.loads(v)
    return options


def _mean_and_half(values: list[float]) -> tuple[float, float]:
    """The mean of ``values`` and its 95% half-width (normal approximation)."""
    k = len(values)
    mean = sum(values) / k
    var = sum((x - mean) ** 2 for x in values) / max(1, k - 1)
    return mean, 1.96 * (var / k) ** 0.5


def value_decisions(args: argparse.Namespace) -> int:
    """Both players' moves at each saved first difference, valued on the same drawn layouts;
    per class, the mean difference (first player minus second) and its 95% half-width."""
    folder = Path(args.decisions)
    out = Path(args.out)
    data = json.loads(out.read_text()) if out.exists() else {"decisions": {}}
    for meta_path in sorted(folder.glob("*.json")):
        meta = json.loads(meta_path.read_text())
        if args.only and meta["class"] != args.only:
            continue
        key = meta_path.stem
        if key in data["decisions"] and len(data["decisions"][key]["first"]) >= args.samples:
            continue
        first, second = [name for name in meta if name not in ("seed", "guess", "class", "won")]
        board = Board.from_file(meta_path.with_suffix(".board"))
        a, b = meta[first][0], meta[second][0]
        if a == b:
            continue
        values = compare_moves(board, [a, b], args.samples, rng=args.seed * 1_000_003 + meta["seed"])
        data["decisions"][key] = {"class": meta["class"], "players": [first, second], "cells": [a, b],
                                  "first": [int(x) for x in values[a].outcomes],
                                  "second": [int(x) for x in values[b].outcomes]}
        data["machine"], data["command"] = describe(), "python " + " ".join(sys.argv)
        tmp = out.with_suffix(".tmp")
        tmp.write_text(json.dumps(data))
        tmp.replace(out)
        d, h = values[a].difference(values[b])
        print(f"{key}: {first} {values[a].rate:.2%} {second} {values[b].rate:.2%} "
              f"({100 * d:+.1f} +- {100 * h:.1f})", file=sys.stderr, flush=True)
    by_class: dict[str, list[float]] = {}
    for entry in data["decisions"].values():
        n = min(len(entry["first"]), len(entry["second"]))
        by_class.setdefault(entry["class"], []).append(
            (sum(entry["first"][:n]) - sum(entry["second"][:n])) / n)
    for kind, diffs in sorted(by_class.items()):
        mean, half = _mean_and_half(diffs)
        print(f"{kind:<22} {len(diffs):>3} decisions: first - second {100 * mean:+.2f} +- "
              f"{100 * half:.2f} points a decision")
    return 0


def screen_variants(args: argparse.Namespace) -> int:
    """Each ``--variant``'s picks at the valued decisions of ``--out`` and its valued gain over
    the first player there (points a decision, with a 95% half-width over the decisions)."""
    import random

    from minegraph.board import MINE
    from minegraph.play.rollout import game_at
    from minegraph.sample import sample_completion

    folder, out = Path(args.decisions), Path(args.out)
    data = json.loads(out.read_text())
    cache: dict[str, dict[str, list[int]]] = data.setdefault("other_cells", {})
    for text in args.variant:
        name, _, rest = text.partition(":")
        options = _options(rest)
        picks = {"first": 0, "second": 0, "other": 0}
        gains = []
        for key, entry in sorted(data["decisions"].items()):
            board = Board.from_file(folder / f"{key}.board")
            a, b = entry["cells"]
            flags = frozenset(i for i, s in enumerate(board.states) if s == MINE)
            game = game_at(board, sample_completion(board, random.Random(1)) | flags)
            cell = StrongPolicy(**options).decide(game).moves[0].cell
            n = min(len(entry["first"]), len(entry["second"]))
            if cell in (a, b):
                picks["first" if cell == a else "second"] += 1
                won = entry["first" if cell == a else "second"][:n]
            else:
                picks["other"] += 1
                outcomes = cache.setdefault(key, {})
                if str(cell) not in outcomes:
                    seed = json.loads((folder / f"{key}.json").read_text())["seed"]
                    value = compare_moves(board, [cell], n, rng=args.seed * 1_000_003 + seed)
                    outcomes[str(cell)] = [int(x) for x in value[cell].outcomes]
                    tmp = out.with_suffix(".tmp")
                    tmp.write_text(json.dumps(data))
                    tmp.replace(out)
                won = outcomes[str(cell)][:n]
            gains.append((sum(won) - sum(entry["first"][:n])) / n)
        mean, half = _mean_and_half(gains)
        print(f"{name:<12} picks first {picks['first']:>3} second {picks['second']:>3} other "
              f"{picks['other']:>3}; gain over the first {100 * mean:+.2f} +- "
              f"{100 * half:.2f} points a decision ({len(gains)})")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("position", nargs="?")
    parser.add_argument("--corners", help="N1,N2: the classic position with (0,0)=N1, (15,0)=N2")
    parser.add_argument("--cells", nargs="+", help="candidate cells as ROW,COL")
    parser.add_argument("--decisions", metavar="DIR",
                        help="value both players' moves at every saved first difference in DIR "
                             "(a `hill_side_by_side.py report` positions folder), per class")
    parser.add_argument("--only", help="with --decisions: only this class (e.g. 'strong safer')")
    parser.add_argument("--variant", nargs="+", help="with --decisions: screen these strong "
                        "variants (NAME:key=value,...) on the decisions valued in --out")
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--chunk", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--policy", default="", help="StrongPolicy options for the play after, k=v,...")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    if args.decisions and args.variant:
        return screen_variants(args)
    if args.decisions:
        return value_decisions(args)
    if not args.cells:
        parser.error("--cells is needed (or --decisions)")
    if args.corners:
        n1, n2 = map(int, args.corners.split(","))
        board, name = corners_position(n1, n2), f"corners {n1},{n2}"
    else:
        board, name = Board.from_file(args.position), str(args.position)
    cells = [board.index(tuple(map(int, c.split(",")))) for c in args.cells]
    options = _options(args.policy)
    out = Path(args.out)
    data = json.loads(out.read_text()) if out.exists() else {"positions": {}}
    entry = data["positions"].setdefault(name, {"cells": args.cells, "policy": options, "outcomes": {}})
    outcomes: dict[str, list[int]] = entry["outcomes"]
    while True:
        done = len(next(iter(outcomes.values()))) if outcomes else 0
        if done >= args.samples:
            break
        start = time.perf_counter()
        values = compare_moves(board, cells, min(args.chunk, args.samples - done),
                               rng=args.seed * 1_000_003 + done,
                               policy=lambda: StrongPolicy(**options))
        for c, label in zip(cells, args.cells):
            outcomes.setdefault(label, []).extend(int(x) for x in values[c].outcomes)
        data["machine"], data["command"] = describe(), "python " + " ".join(sys.argv)
        tmp = out.with_suffix(".tmp")
        tmp.write_text(json.dumps(data))
        tmp.replace(out)
        print(f"{name}: {done + len(values[cells[0]].outcomes)} layouts "
              f"({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
    base = outcomes[args.cells[0]]
    n = len(base)
    print(f"{name}: {n} layouts drawn uniformly from the completions")
    for label in args.cells:
        o = outcomes[label][:n]
        mean, half = _mean_and_half([a - b for a, b in zip(o, base)])
        print(f"  {label:>8}: won {sum(o) / n:.2%}   vs {args.cells[0]}: {100 * mean:+.2f} +- "
              f"{100 * half:.2f} points")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
