"""Brute force over every assignment of the hidden cells: the test oracle for tiny boards.

It uses nothing but the board's definition (no propagation, no boxes), so it checks the other
engines independently. Cost: ``2**h`` times the number of numbers, for ``h`` hidden cells.
"""

from __future__ import annotations

from itertools import product

from minegraph.board import MINE, Board
from minegraph.deadline import check_deadline
from minegraph.engines.base import QUESTIONS, EngineResult
from minegraph.errors import LimitError

__all__ = ["BruteEngine", "MAX_BRUTE_HIDDEN"]

#: Largest number of hidden cells the brute-force engine accepts.
MAX_BRUTE_HIDDEN = 22


class BruteEngine:
    """Enumerate all ``2**h`` completions.

    Examples
    --------
    >>> from minegraph import Board
    >>> r = BruteEngine().run(Board.from_text("#1#"))
    >>> r.count, r.mine_counts
    (2, {0: 1, 2: 1})
    """

    name = "brute"
    answers = QUESTIONS

    def complete(self, board: Board) -> EngineResult:
        return self.run(board)

    def run(self, board: Board) -> EngineResult:
        hidden = board.hidden
        if len(hidden) > MAX_BRUTE_HIDDEN:
            raise LimitError(f"brute force handles at most {MAX_BRUTE_HIDDEN} hidden cells, "
                             f"this board has {len(hidden)}")
        states, nbrs = board.states, board.neighbors
        numbers = [(p, s, nbrs[p]) for p, s in enumerate(states) if s >= 0]
        known = sum(1 for s in states if s == MINE)
        count = 0
        mine_counts = dict.fromkeys(hidden, 0)
        first: frozenset[int] | None = None
        for step, bits in enumerate(product((0, 1), repeat=len(hidden))):
            if not step & 4095:
                check_deadline()
            if board.mines is not None and known + sum(bits) != board.mines:
                continue
            mined = {c for c, b in zip(hidden, bits) if b}
            if all(sum(1 for q in around if q in mined or states[q] == MINE) == s
                   for _, s, around in numbers):
                count += 1
                for c in mined:
                    mine_counts[c] += 1
                if first is None:
                    first = frozenset(mined)
        return EngineResult.counted(count, mine_counts, first)

