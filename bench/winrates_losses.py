"""Where the autoplayer loses: replay the lost games of win-rate results and classify the
fatal guess.

Games are deterministic given the seed and the policy (revision recorded in the results), so
each lost game of a results file is replayed, and the guess that hit a mine is described: its
mine probability, how far the game had got (safe cells uncovered, of all safe cells), and the
number of guesses survived before it. Every replay must end as recorded (checked).

Classes of the fatal guess:

- ``coin flip``: probability at least 0.45 (the unavoidable 50/50s and their kin);
- ``early``: below that, with fewer than 40% of the safe cells uncovered (the opening phase);
- ``late``: the rest.

Usage::

    .venv/bin/python bench/winrates_losses.py bench/results/winrates/expert-modern-3-3-strong.json \\
        --limit 400 --out bench/results/winrates/losses-expert-modern.json
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from machine import describe  # noqa: E402
from minegraph.play.bench import BenchResults  # noqa: E402
from minegraph.play.policies import REVISIONS, apply, get_policy  # noqa: E402

COIN_FLIP = 0.45
EARLY = 0.40


def replay(results: BenchResults, seed: int) -> dict[str, Any]:
    """Replay one game; the fatal guess's description (or the game's end if it was won)."""
    config = results.config
    game = config.game(seed)
    policy = get_policy(config.policy, config.first_index())
    safe_total = game.size - game.mine_count
    guesses = 0
    last: dict[str, Any] | None = None
    while game.status == "playing":
        decision = policy.decide(game)
        if decision.guess:
            guesses += 1
            p = decision.probability
            last = {"probability": None if p is None else float(p),
                    "uncovered": len(game.uncovered), "safe_cells": safe_total,
                    "guesses_before": guesses - 1}
        apply(game, decision)
    out: dict[str, Any] = {"seed": seed, "won": game.status == "won", "guesses": guesses}
    if game.status == "lost" and last is not None:
        out.update(last)
    return out


def classify(loss: dict[str, Any]) -> str:
    p = loss.get("probability")
    if p is not None and p >= COIN_FLIP:
        return "coin flip"
    if loss["uncovered"] < EARLY * loss["safe_cells"]:
        return "early"
    return "late"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results", type=Path, help="a results file of minegraph bench --out")
    ap.add_argument("--limit", type=int, default=400, help="lost games to replay (the first by seed)")
    ap.add_argument("--out", type=Path, help="JSON output")
    args = ap.parse_args(argv)
    results = BenchResults.load(args.results)
    config = results.config
    if config.revision != REVISIONS.get(config.policy):
        print(f"results are of {config.policy} revision {config.revision}, the code plays "
              f"revision {REVISIONS.get(config.policy)}: replays would differ", file=sys.stderr)
        return 2
    lost = sorted(seed for seed, (won, _, _) in results.records.items() if not won)[:args.limit]
    started = time.perf_counter()
    losses, mismatches = [], []
    for seed in lost:
        r = replay(results, seed)
        if r["won"]:
            mismatches.append(seed)
            continue
        r["class"] = classify(r)
        losses.append(r)
    classes = {c: sum(1 for r in losses if r["class"] == c) for c in ("early", "coin flip", "late")}
    probabilities = [r["probability"] for r in losses if r.get("probability") is not None]
    summary = {
        "results": str(args.results), "size": config.size, "rules": config.rules,
        "policy": config.policy, "revision": config.revision, "first": config.first,
        "games": len(results.records),
        "losses": sum(1 for won, _, _ in results.records.values() if not won),
        "replayed": len(lost), "replays_not_lost": mismatches,
        "classes": classes,
        "shares": {c: n / len(losses) for c, n in classes.items()} if losses else {},
        "first_guess_fatal": sum(1 for r in losses if r["guesses_before"] == 0),
        "median_probability": statistics.median(probabilities) if probabilities else None,
        "median_uncovered_share": statistics.median(r["uncovered"] / r["safe_cells"]
                                                    for r in losses) if losses else None,
        "seconds": round(time.perf_counter() - started, 1),
    }
    print(f"{config.size} {config.rules}: {len(losses)} lost games replayed "
          f"({len(mismatches)} did not end as recorded)")
    for c, n in classes.items():
        print(f"  {c:9s} {n:4d}  {100 * n / max(1, len(losses)):5.1f}%")
    print(f"  the first guess of the game was the fatal one in {summary['first_guess_fatal']}; "
          f"median probability of the fatal guess {summary['median_probability']}")
    if args.out:
        args.out.write_text(json.dumps({"command": shlex.join(["python", *sys.argv]),
                                        "machine": describe(), "summary": summary,
                                        "losses": losses}, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {args.out}")
    return 0 if not mismatches else 1


if __name__ == "__main__":
    raise SystemExit(main())
