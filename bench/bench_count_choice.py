"""The kernel's two ways of counting one component, side by side, by component size.

``kernel.count_component`` counts a component by a clue-ordered search (``count_part``) or
by a dynamic programme over a path decomposition (``count_wide``): ``search_only=True``
times the search alone (its node budget large), and a node budget of 0, which makes the
search decline at once, the programme alone.
Components come from the Expert corpora of ``corpora.py`` (their first ``--positions`` of
each recipe) and from a scattered board of ``bigboards.py``; each distinct component (by
canonical key) is counted ``--repeats`` times each way, interleaved, and the CPU seconds
summed per bucket of 8 cells. The two answers are checked equal. Written to choose
``SEARCH_CELLS`` in ``_kernel.c`` (the search up to it, the programme beyond).

Usage::

    python bench/bench_count_choice.py --positions 300 --board scattered:1000 \\
        --out bench/results/count-choice.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bigboards import big_board  # noqa: E402
from corpora import RECIPES, corpus  # noqa: E402
from machine import describe  # noqa: E402

from minegraph import kernel  # noqa: E402
from minegraph.constraints import build_system  # noqa: E402


def timed(key: Any, search: bool, repeats: int) -> tuple[float, Any]:
    """CPU seconds of one count by the search alone (``search_only``) or by the programme
    alone (a node budget of 0: the search declines at once), and the answer."""
    kwargs: dict[str, Any] = {"search_only": True, "budget": 10 ** 8} if search else {"budget": 0}
    start = time.process_time()
    for _ in range(repeats):
        try:
            out = kernel.count_component(key[0], key[1], with_total=True, **kwargs)
        except kernel.Declined:
            out = None
    return (time.process_time() - start) / repeats, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--board", default="scattered:1000", help="FAMILY:SIZE of bigboards.py")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--min-cells", type=int, default=24)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    sources: dict[str, list[Any]] = {}
    for recipe in RECIPES:
        make = corpus(recipe)
        keys = [c.key for seed in range(args.positions)
                for c in build_system(make(seed).board).components]
        sources[recipe] = keys
    family, size = args.board.split(":")
    big = build_system(big_board(family, int(size), int(size), 1))
    sources[args.board] = [c.key for c in big.components]
    del big
    results: dict[str, Any] = {}
    for name, keys in sources.items():
        buckets: dict[int, dict[str, float]] = {}
        for key in dict.fromkeys(keys):
            cells = sum(key[0])
            if cells < args.min_cells or cells > 120:
                continue
            search, a = timed(key, True, args.repeats)
            programme, b = timed(key, False, args.repeats)
            if a is not None and b is not None:
                assert a == b, key
            row = buckets.setdefault(cells // 8 * 8, {"components": 0, "search_s": 0.0,
                                                      "programme_s": 0.0})
            row["components"] += 1
            row["search_s"] += search
            row["programme_s"] += programme
        results[name] = {str(k): {**v, "search_us_each": 1e6 * v["search_s"] / v["components"],
                                  "programme_us_each": 1e6 * v["programme_s"] / v["components"]}
                         for k, v in sorted(buckets.items())}
        print(name, {k: (round(v["search_us_each"]), round(v["programme_us_each"]))
                     for k, v in results[name].items()}, flush=True)
    obj = {"benchmark": "count_component: the search against the programme, CPU per component "
                        "by bucket of 8 cells (distinct components)",
           "command": "python " + " ".join(sys.argv), "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
           "machine": describe(), "repeats": args.repeats, "results": results}
    args.out.write_text(json.dumps(obj, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
