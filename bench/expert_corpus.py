"""The Expert benchmark corpus: reproducible mid-game positions on 30x16 boards with 99 mines.

Position ``k`` of the corpus is ``midgame_position(16, 30, 99, seed=first_seed + k)``
(see :mod:`minegraph.recipes`): a random first click that opens a region, then random
safe cells next to the uncovered area until a per-seed fraction of the safe cells, uniform in
[0.1, 0.8], is uncovered. No flags; the board carries the total of 99 mines.

Regeneration is deterministic and takes about a second for 1000 positions, so the dump is
optional::

    python bench/expert_corpus.py --write bench/corpus/expert-1000.txt
    python bench/expert_corpus.py --check bench/corpus/expert-1000.txt
    python bench/expert_corpus.py            # summary and SHA-256 of the corpus text
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

from minegraph import Board
from minegraph.recipes import midgame_position

ROWS, COLS, MINES = 16, 30, 99

__all__ = ["expert_corpus", "ROWS", "COLS", "MINES", "dump", "load", "digest"]


def expert_corpus(count: int = 1000, first_seed: int = 0) -> list[Board]:
    """``count`` Expert mid-game positions, from seeds ``first_seed .. first_seed + count - 1``.

    Examples
    --------
    >>> boards = expert_corpus(3)
    >>> [(b.rows, b.cols, b.mines) for b in boards]
    [(16, 30, 99), (16, 30, 99), (16, 30, 99)]
    >>> expert_corpus(1, first_seed=2) == boards[2:]
    True
    """
    return [midgame_position(ROWS, COLS, MINES, seed) for seed in range(first_seed, first_seed + count)]


def dump(boards: list[Board], first_seed: int = 0) -> str:
    """The corpus as text: one canonical board per block, each preceded by a ``; seed N`` comment."""
    blocks = [f"; seed {first_seed + k}\n{b.to_text()}" for k, b in enumerate(boards)]
    return "\n".join(blocks)


def digest(boards: list[Board], first_seed: int = 0) -> str:
    """SHA-256 of :func:`dump`: pins the corpus (recorded in bench/README.md)."""
    return hashlib.sha256(dump(boards, first_seed).encode("utf-8")).hexdigest()


def load(text: str) -> list[Board]:
    """Read a :func:`dump` back (blocks separated by blank lines)."""
    blocks = [blk for blk in text.split("\n\n") if blk.strip()]
    return [Board.from_text(blk) for blk in blocks]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--write", type=Path, help="write the corpus as text to this file")
    ap.add_argument("--check", type=Path, help="check that a dumped file matches regeneration")
    args = ap.parse_args(argv)
    boards = expert_corpus(args.count, args.first_seed)
    if args.write:
        args.write.parent.mkdir(parents=True, exist_ok=True)
        args.write.write_text(dump(boards, args.first_seed), encoding="utf-8")
        print(f"wrote {len(boards)} positions to {args.write}")
    if args.check:
        stored = load(args.check.read_text(encoding="utf-8"))
        if stored != boards:
            print(f"{args.check} differs from the regenerated corpus", file=sys.stderr)
            return 1
        print(f"{args.check}: {len(stored)} positions match the regenerated corpus")
    if not args.write and not args.check:
        hidden = sorted(b.hidden_count for b in boards)
        print(f"{len(boards)} positions; hidden cells min {hidden[0]}, median {hidden[len(hidden) // 2]}, "
              f"max {hidden[-1]}; sha256 {digest(boards, args.first_seed)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
