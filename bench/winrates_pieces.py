"""Each piece of the ``strong`` autoplayer measured on the same games: variants of
:class:`~minegraph.play.policies.StrongPolicy` (keyword options) play the same seeds, and each
variant's win rate is compared with the baseline's *game by game* (a paired comparison: the
interval of the difference comes from the games where the two disagree, so a gain of a few
tenths of a point shows on thousands of games instead of millions).

    .venv/bin/python bench/winrates_pieces.py --rules classic --seed 500000000 --games 4000 \\
        --variant base --variant endgame=1000 --out bench/results/winrates/pieces-classic.json

A variant is ``name`` (a variant already in ``--out``, or else the policy's defaults under
that name), ``key=value,key=value`` (its name is the text itself) or ``name:key=value,...``;
the options are keyword options of ``StrongPolicy`` over its defaults (the committed files
spell every option out, since the defaults changed when revision 2 adopted the winners). Results are kept per variant and seed in
``--out`` and resumed: rerunning plays only what is missing, so variants and games can be added
later. The first variant is the baseline of the table.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.append(str(Path(__file__).resolve().parent.parent / "src"))  # after PYTHONPATH: a snapshot may be run

from machine import describe  # noqa: E402

from minegraph.parallel import ordered_map  # noqa: E402
from minegraph.play.game import Game  # noqa: E402
from minegraph.play.policies import StrongPolicy, default_first_cell, play  # noqa: E402


def parse_variant(text: str) -> tuple[str, dict[str, Any]]:
    """``name``, ``k=v,...`` or ``name:k=v,...`` -> (name, options)."""
    if ":" in text:
        name, _, rest = text.partition(":")
    else:
        name, rest = text, (text if "=" in text else "")
    options: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        options[key] = json.loads(value) if value[:1] in "-0123456789[{tfn\"" else value
    return name, options


def play_one(job: tuple[str, str, dict[str, Any], int]) -> tuple[int, bool, int, float]:
    size, rules, options, seed = job
    game = Game(size, rules=rules, seed=seed)
    first = default_first_cell(rules, game.rows, game.cols)
    record = play(game, StrongPolicy(first, **options))
    return seed, record.won, record.guesses, record.seconds


def paired(base: dict[int, list[Any]], other: dict[int, list[Any]]) -> tuple[int, float, float]:
    """Games both played, the difference of win rates and its 95% half-width (paired)."""
    common = sorted(set(base) & set(other))
    if not common:
        return 0, math.nan, math.nan
    d = [int(other[s][0]) - int(base[s][0]) for s in common]
    n = len(d)
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / max(n - 1, 1)
    return n, mean, 1.96 * math.sqrt(var / n)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="expert")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--seed", type=int, default=500_000_000)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--out", required=True)
    parser.add_argument("--report", action="store_true", help="only print the table")
    parser.add_argument("--against", metavar="RESULTS",
                        help="also compare with the games of a `minegraph bench --out` file "
                             "(the same seeds: e.g. revision 1 against revision 2's run)")
    args = parser.parse_args()
    out = Path(args.out)
    data: dict[str, Any] = json.loads(out.read_text()) if out.exists() else {
        "size": args.size, "rules": args.rules, "variants": {}}
    if (data["size"], data["rules"]) != (args.size, args.rules):
        parser.error(f"{out} holds {data['size']} {data['rules']} games")
    variants = [parse_variant(v) for v in args.variant] or [
        (name, v["options"]) for name, v in data["variants"].items()]
    # A bare name already in the file is that variant as it was run.
    variants = [(name, data["variants"][name]["options"] if not options and name in data["variants"]
                 else options) for name, options in variants]
    for name, options in variants:
        entry = data["variants"].setdefault(name, {"options": options, "records": {}})
        if entry["options"] != options:
            parser.error(f"variant {name!r} was run with {entry['options']}, not {options}")
    seeds = range(args.seed, args.seed + args.games)
    import minegraph
    print(f"minegraph from {Path(minegraph.__file__).parent}", file=sys.stderr)
    if not args.report:
        for name, options in variants:
            records = data["variants"][name]["records"]
            todo = [s for s in seeds if str(s) not in records]
            started = time.perf_counter()
            jobs = ((args.size, args.rules, options, s) for s in todo)
            for k, (seed, won, guesses, seconds) in enumerate(
                    ordered_map(play_one, jobs, workers=args.workers), 1):
                records[str(seed)] = [int(won), guesses, round(seconds, 5)]
                if k % 200 == 0 or k == len(todo):
                    data["machine"] = describe()
                    data["command"] = "python " + " ".join(sys.argv)
                    tmp = out.with_suffix(".tmp")
                    tmp.write_text(json.dumps(data))
                    tmp.replace(out)
                    print(f"{name}: {k}/{len(todo)} in {time.perf_counter() - started:.0f} s",
                          file=sys.stderr, flush=True)
    if args.against:
        bench = json.loads(Path(args.against).read_text())
        name = f"{bench['config']['policy']} revision {bench['config']['revision']} ({Path(args.against).name})"
        data["variants"][name] = {"records": {str(seed): [won, guesses, seconds]
                                              for seed, won, guesses, seconds in bench["records"]
                                              if str(seed) in data["variants"][variants[0][0]]["records"]}}
        variants.append((name, {}))
    report(data, [name for name, _ in variants])
    return 0


def report(data: dict[str, Any], names: list[str]) -> None:
    base_name = names[0]
    base = {int(s): r for s, r in data["variants"][base_name]["records"].items()}
    print(f"{data['size']} {data['rules']}; baseline {base_name}")
    print("| variant | games | win rate | vs baseline (paired, 95%) | guesses/game | "
          "s/game median (mean) |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in names:
        rec = {int(s): r for s, r in data["variants"][name]["records"].items()}
        if not rec:
            continue
        wins = sum(r[0] for r in rec.values())
        n = len(rec)
        _, diff, half = paired(base, rec)
        secs = [r[2] for r in rec.values()]
        print(f"| {name} | {n:,} | {wins / n:.2%} | {diff:+.2%} ± {half:.2%} | "
              f"{sum(r[1] for r in rec.values()) / n:.2f} | "
              f"{statistics.median(secs):.3f} ({statistics.fmean(secs):.3f}) |")


if __name__ == "__main__":
    raise SystemExit(main())
