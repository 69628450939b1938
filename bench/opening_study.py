"""Which cell to guess first under classic rules when the start corner shows a number.

Classic Expert starts at the corner (0, 0), which is safe but is a 0 only about half the
time. Otherwise the position is the corner's number ``k`` and nothing else, so the first guess
is a choice among three positions (k = 1, 2, 3), made in every other game. This study plays,
on the same seeds, ``strong`` as it is (variant ``auto``) and ``strong`` made to guess a given
cell first (variant ``R,C``; every later move is ``strong``'s own), and compares each with
``auto`` game by game per ``k``. Only the seeds whose corner shows a number are played (the
others do not depend on the choice).

    .venv/bin/python bench/opening_study.py --seed 600000000 --games 20000 \\
        --variant auto --variant 15,29 --variant 0,2 \\
        --out bench/results/winrates/opening/classic-expert.json

Resumable per variant and seed, like ``winrates_pieces.py``; ``--report`` prints the table.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

sys.path.append(str(Path(__file__).resolve().parent.parent / "src"))  # after PYTHONPATH: a snapshot may be run

from machine import describe  # noqa: E402

from minegraph.parallel import ordered_map  # noqa: E402
from minegraph.play.game import Game, Move  # noqa: E402
from minegraph.play.policies import Decision, StrongPolicy, play  # noqa: E402


class ForcedFirstGuess(StrongPolicy):
    """``strong``, except that its first guess (the corner's number the only thing shown) is
    ``cell``."""

    def __init__(self, cell: int, **options: Any) -> None:
        super().__init__(0, **options)
        self.cell = cell

    def decide(self, game: Game) -> Decision:
        if game.uncovered and len(game.uncovered) == 1 and game.number(0) > 0:
            return Decision((Move("reveal", self.cell),), guess=True)
        return super().decide(game)


def corner_number(job: tuple[str, int]) -> tuple[int, int]:
    size, seed = job
    game = Game(size, rules="classic", seed=seed)
    game.reveal(0)
    return seed, game.number(0) if game.status == "playing" else -1


def play_one(job: tuple[str, str, int]) -> tuple[int, bool, int, float]:
    size, variant, seed = job
    game = Game(size, rules="classic", seed=seed)
    if variant == "auto":
        policy: StrongPolicy = StrongPolicy(0)
    else:
        r, c = (int(x) for x in variant.split(","))
        policy = ForcedFirstGuess(game.index((r, c)))
    record = play(game, policy)
    return seed, record.won, record.guesses, record.seconds


def paired(base: dict[str, list[Any]], other: dict[str, list[Any]], seeds: list[str]
           ) -> tuple[int, float, float]:
    common = [s for s in seeds if s in base and s in other]
    if not common:
        return 0, math.nan, math.nan
    d = [other[s][0] - base[s][0] for s in common]
    n = len(d)
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / max(n - 1, 1)
    return n, mean, 1.96 * math.sqrt(var / n)


def save(out: Path, data: dict[str, Any]) -> None:
    data["machine"] = describe()
    data["command"] = "python " + " ".join(sys.argv)
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(data))
    tmp.replace(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="expert")
    parser.add_argument("--seed", type=int, default=600_000_000)
    parser.add_argument("--games", type=int, default=10000, help="seeds looked at (about half are played)")
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--out", required=True)
    parser.add_argument("--report", action="store_true", help="only print the table")
    args = parser.parse_args()
    out = Path(args.out)
    data: dict[str, Any] = json.loads(out.read_text()) if out.exists() else {
        "size": args.size, "rules": "classic", "corner": {}, "variants": {}}
    corner: dict[str, int] = data["corner"]
    seeds = [str(s) for s in range(args.seed, args.seed + args.games)]
    missing = [int(s) for s in seeds if s not in corner]
    for seed, k in ordered_map(corner_number, ((args.size, s) for s in missing), workers=args.workers):
        corner[str(seed)] = k
    played = [s for s in seeds if corner[s] > 0]
    variants = args.variant or list(data["variants"])
    if not args.report:
        for name in variants:
            records = data["variants"].setdefault(name, {})
            todo = [int(s) for s in played if s not in records]
            started = time.perf_counter()
            jobs = ((args.size, name, s) for s in todo)
            for n, (seed, won, guesses, seconds) in enumerate(
                    ordered_map(play_one, jobs, workers=args.workers), 1):
                records[str(seed)] = [int(won), guesses, round(seconds, 5)]
                if n % 200 == 0 or n == len(todo):
                    save(out, data)
                    print(f"{name}: {n}/{len(todo)} in {time.perf_counter() - started:.0f} s",
                          file=sys.stderr, flush=True)
        save(out, data)
    report(data, variants, seeds)
    return 0


def report(data: dict[str, Any], names: list[str], seeds: list[str]) -> None:
    corner = data["corner"]
    base = data["variants"].get("auto", {})
    looked = [s for s in seeds if s in corner]
    print(f"{data['size']} classic, start (0,0): {len(looked):,} seeds, "
          f"{sum(corner[s] > 0 for s in looked):,} with a number in the corner")
    print("| first guess | k | games | win rate | vs auto (paired, 95%) |")
    print("|---|---:|---:|---:|---:|")
    for name in names:
        rec = data["variants"].get(name, {})
        for k in (None, 1, 2, 3):
            group = [s for s in looked if s in rec and (corner[s] > 0 if k is None else corner[s] == k)]
            if not group:
                continue
            wins = sum(rec[s][0] for s in group)
            n, diff, half = paired(base, rec, group)
            print(f"| {name} | {'all' if k is None else k} | {len(group):,} | {wins / len(group):.2%} | "
                  f"{diff:+.2%} ± {half:.2%} |")


if __name__ == "__main__":
    raise SystemExit(main())
