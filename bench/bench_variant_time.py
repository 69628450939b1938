"""Time per game of a ``strong`` variant beside the defaults, played alternately in one process.

Each seed is played by the defaults and then by the variant, so both see the same machine
load; the ratio of total times is the headline (medians and means printed beside it).

    .venv/bin/python bench/bench_variant_time.py --rules modern --seed 9500000000 --games 300 \\
        --variant living=true --out bench/results/winrates/variant-time-living-modern.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent.parent / "src"))
sys.path.append(str(Path(__file__).resolve().parent))

from hill_side_by_side import parse_options, trace_game  # noqa: E402
from machine import describe  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", default="expert")
    parser.add_argument("--rules", default="modern", choices=["classic", "modern"])
    parser.add_argument("--seed", type=int, default=9500000000)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--variant", required=True, help="key=value,...: StrongPolicy options")
    parser.add_argument("--out", type=Path, help="JSON results file")
    args = parser.parse_args()
    options = parse_options(args.variant)
    default, variant = [], []
    for seed in range(args.seed, args.seed + args.games):
        default.append(trace_game(args.size, args.rules, {}, seed)["seconds"])
        variant.append(trace_game(args.size, args.rules, options, seed)["seconds"])
    result = {
        "size": args.size, "rules": args.rules, "seeds": [args.seed, args.seed + args.games - 1],
        "variant": options,
        "median_seconds": {"default": statistics.median(default), "variant": statistics.median(variant)},
        "mean_seconds": {"default": statistics.fmean(default), "variant": statistics.fmean(variant)},
        "ratio_of_totals": sum(variant) / sum(default),
        "machine": describe(),
        "command": " ".join([Path(sys.argv[0]).name] + sys.argv[1:]),
    }
    print(f"{args.size} {args.rules}, {args.games} games: median {result['median_seconds']['default']:.4f} s "
          f"(defaults) / {result['median_seconds']['variant']:.4f} s ({args.variant}); "
          f"total time x{result['ratio_of_totals']:.3f}")
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
