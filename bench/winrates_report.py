"""The win-rate table and plot from the results of ``minegraph bench --out`` in
``bench/results/winrates/``: each rate with its 95% Wilson interval beside the published figures.

    .venv/bin/python bench/winrates_report.py [--plot bench/results/winrates/winrates.png]
    .venv/bin/python bench/winrates_report.py --dir bench/results/winrates/revision-2 --plot ''

Runs are resumable: ``minegraph bench`` with the same ``--out`` file plays only the seeds not
yet in it (see docs/play.md); this script only reads the files.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from minegraph.play.bench import PUBLISHED, BenchResults  # noqa: E402

HERE = Path(__file__).parent / "results" / "winrates"
ORDER = ["beginner", "intermediate", "expert"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=HERE,
                        help="the folder of results files (an earlier revision's: revision-N)")
    parser.add_argument("--plot", default=str(HERE / "winrates.png"), help="'' for no plot")
    args = parser.parse_args()
    results = [BenchResults.load(p) for p in sorted(args.dir.glob("*-strong.json"))]
    results.sort(key=lambda r: (ORDER.index(r.config.size) if r.config.size in ORDER else 9,
                                r.config.rules))
    print("| size, rules, first cell | policy | games | win rate (95% Wilson) | guesses/game | "
          "s/game (median) | published |")
    print("|---|---|---:|---|---:|---:|---|")
    for r in results:
        s = r.summary()
        first = f", ({s['first'][0]},{s['first'][1]})" if s["first"] else ""
        lo, hi = s["ci95"]
        published = "; ".join(f"{who} {rate:.2%}" for who, rate, _ in
                              PUBLISHED.get((s["size"], s["rules"]), []))
        print(f"| {s['size']} {s['rules']}{first} | {s['policy']} r{s['policy_revision']} | "
              f"{s['games']:,} | {s['win_rate']:.2%} ({lo:.2%}–{hi:.2%}) | "
              f"{s['guesses_per_game']:.2f} | {s['median_seconds_per_game']:.3f} | {published} |")
    if args.plot:
        from minegraph.play.plot import plot_results
        plot_results(results, args.plot)
        print(f"\nwrote {args.plot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
