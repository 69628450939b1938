"""How long reviewing a replay takes: an Expert game of about 300 uncovering clicks, recorded
by minegraph (`.evf`), reviewed from its bytes (reading in the child process included).

    .venv/bin/python bench/bench_review.py [--repeats 7]

Writes bench/results/review.json (median, min, max, with the machine description).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from machine import describe  # noqa: E402

from minegraph.play.record import evf_bytes  # noqa: E402
from minegraph.play.review import review_bytes  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    from play.test_review import _expert_game
    data = evf_bytes(_expert_game())
    times = []
    clicks = 0
    for _ in range(args.repeats):
        started = time.perf_counter()
        clicks = len(review_bytes(data, "evf").clicks)
        times.append(time.perf_counter() - started)
    result = {"command": "python " + " ".join(sys.argv), "machine": describe(),
              "replay": {"size": "expert", "clicks": clicks, "bytes": len(data)},
              "seconds": {"median": statistics.median(times), "min": min(times), "max": max(times),
                          "runs": times}}
    out = Path(__file__).parent / "results" / "review.json"
    out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"review of an Expert replay, {clicks} uncovering clicks: median {statistics.median(times):.3f} s "
          f"(min {min(times):.3f}, max {max(times):.3f}, {args.repeats} runs); wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
