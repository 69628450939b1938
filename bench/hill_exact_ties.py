"""Where both solvers search exactly and still choose different cells, are both choices optimal?

Reads a final range of ``hill_side_by_side.py`` (the peer's and strong's records on the same
layouts), takes the games one wins and the other loses whose first differing decision is
strong's exact endgame against the peer's deep analysis, rebuilds each position by replaying
strong, and values both chosen cells with minegraph's exact endgame (the win probability of
uncovering the cell now and then playing perfectly). Equal values mean the two moves are
equally good and the games' outcomes there are the layouts' coin.

Usage::

    python bench/hill_exact_ties.py --rules classic --dir bench/results/hill-final --count 120 \\
        --out bench/results/hill-final/expert-classic-exact-ties.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from hill_side_by_side import first_difference, load, player_options, trace_game  # noqa: E402
from machine import describe  # noqa: E402

from minegraph import Board  # noqa: E402
from minegraph.play.endgame import Endgame  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--size", default="expert")
    ap.add_argument("--dir", type=Path, default=HERE / "results" / "hill-final")
    ap.add_argument("--count", type=int, default=120, help="positions valued (the first ones)")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    peer = load(args.dir / f"{args.size}-{args.rules}-hill.jsonl")
    ours = load(args.dir / f"{args.size}-{args.rules}-strong.jsonl")
    options = player_options("strong", args.dir, args.size, args.rules)
    tally: Counter[str] = Counter()
    unequal: list[dict[str, object]] = []
    for seed in sorted(set(peer) & set(ours)):
        if sum(tally.values()) >= args.count:
            break
        if peer[seed]["won"] == ours[seed]["won"]:
            continue
        a_list, b_list = ours[seed]["guesses"], peer[seed]["guesses"]
        k = first_difference(a_list, b_list)
        if k is None or k >= min(len(a_list), len(b_list)):
            continue
        a, b = a_list[k], b_list[k]
        if a[3] != b[3] or a[2] != "endgame" or b[2] != "BRUTE_FORCE_DEEP_ANALYSIS":
            continue
        at = trace_game(args.size, args.rules, options, seed, stop_at=k)
        board = Board.from_text(at["board"])
        values = Endgame(board, limit=100_000).cells_by_value([a[0], b[0]])
        ours_v, peer_v = values[a[0]], values[b[0]]
        verdict = "equal" if ours_v == peer_v else ("strong's better" if ours_v > peer_v
                                                    else "peer's better")
        tally[verdict] += 1
        if verdict != "equal":
            unequal.append({"seed": seed, "guess": k, "strong": [a[0], str(ours_v)],
                            "peer": [b[0], str(peer_v)]})
    print(f"{args.size} {args.rules}: {sum(tally.values())} positions where both searched "
          f"exactly and chose different cells: " + ", ".join(f"{v} {k}" for k, v in tally.items()))
    if args.out:
        args.out.write_text(json.dumps({"tally": dict(tally), "unequal": unequal,
                                        "machine": describe(), "command": " ".join(sys.argv)},
                                       indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
