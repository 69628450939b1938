"""Completions drawn uniformly at random: we can count them exactly, so we can sample them
exactly.

A completion is drawn one decision at a time by the chain rule: while some hidden cell next
to a number is undecided, take the first such cell, read its exact mine probability given
every decision so far (an analysis of the position with the cells already drawn marked as
mines or as safe cells that show nothing), and draw it with that probability — exactly, by
comparing a uniformly drawn integer below the probability's denominator with its numerator.
Once no cell next to a number is undecided, the cells left are constrained by the total alone,
so the mines left are spread over them uniformly (each is a mine with probability 1/2 when the
total is unknown). Every completion comes out with probability ``1 / solutions``.

A draw costs one analysis per cell drawn next to a number (fewer in practice: each decision
settles others by propagation); the analyser's cache makes them incremental.

Examples
--------
>>> from minegraph import Board
>>> board = Board.from_text("mines: 1\\n#1#")
>>> sorted(sorted(c) for c in sample_completions(board, 4, rng=3))
[[0], [0], [2], [2]]
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import TYPE_CHECKING

from minegraph.analyser import Analyser
from minegraph.board import BLANK, HIDDEN, MINE, Board
from minegraph.errors import BoardError, LimitError

if TYPE_CHECKING:
    from minegraph.analysis import Analysis

__all__ = ["sample_completion", "sample_completions", "MAX_SAMPLES"]

#: The most completions one call draws (a bound on the work a request can ask for).
MAX_SAMPLES = 1_000_000


def sample_completion(board: Board, rng: random.Random, analyser: Analyser | None = None) -> frozenset[int]:
    """One completion of ``board``, uniformly at random: the hidden cells (indices) that hold
    a mine.

    Parameters
    ----------
    board
        The position.
    rng
        The source of randomness (advanced).
    analyser
        An analyser to reuse (a new one by default).

    Returns
    -------
    frozenset of int
        The mined hidden cells of the drawn completion (flags already on the board excluded).

    Raises
    ------
    BoardError
        when the position has no completion.

    Examples
    --------
    >>> from minegraph import Board
    >>> sample_completion(Board.from_text("mines: 2\\n#2#"), random.Random(0))
    frozenset({0, 2})
    """
    analyser = analyser if analyser is not None else Analyser()
    states = list(board.states)
    numbers = [i for i, s in enumerate(states) if s >= 0]
    near_number = {q for p in numbers for q in board.neighbors[p] if states[q] == HIDDEN}
    analysis = analyser.analyze(board)
    if not analysis.consistent:
        raise BoardError("the position has no completion to draw")
    mined: set[int] = set()
    while True:
        undecided = _undecided(board, analysis, near_number, states)
        if not undecided:
            break
        cell, p = undecided
        if _draw(rng, p):
            states[cell] = MINE
            mined.add(cell)
        else:
            states[cell] = BLANK
        near_number.discard(cell)
        analysis = analyser.analyze(board.with_states(states, board.mines))
    # What is left is constrained by the total alone: proven cells as proven, the rest
    # exchangeable.
    proven = {board.index(c) for c in analysis.mines}
    safe = {board.index(c) for c in analysis.safe}
    open_cells = [i for i, s in enumerate(states) if s == HIDDEN and i not in proven and i not in safe]
    out = mined | proven
    if board.mines is None:
        out.update(c for c in open_cells if rng.getrandbits(1))
    else:
        left = board.mines - sum(1 for s in states if s == MINE)
        left -= len(proven)
        if not 0 <= left <= len(open_cells):   # pragma: no cover - the analysis said consistent
            raise BoardError("the position has no completion to draw")
        out.update(rng.sample(open_cells, left))
    return frozenset(out)


def sample_completions(board: Board, count: int, rng: random.Random | int | None = None,
                       analyser: Analyser | None = None) -> list[frozenset[int]]:
    """``count`` completions of ``board`` drawn independently and uniformly at random.

    Parameters
    ----------
    board
        The position.
    count
        How many to draw (0 to :data:`MAX_SAMPLES`).
    rng
        A :class:`random.Random` (advanced), or a seed.
    analyser
        An analyser to reuse.

    Returns
    -------
    list of frozenset of int
        Each drawn completion's mined hidden cells.

    Raises
    ------
    LimitError
        for a count outside 0 to :data:`MAX_SAMPLES`.
    BoardError
        when the position has no completion.

    Examples
    --------
    >>> from minegraph import Board
    >>> draws = sample_completions(Board.from_text("mines: 1\\n##\\n1-"), 1000, rng=1)
    >>> 400 < sum(1 for d in draws if 0 in d) < 600
    True
    """
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_SAMPLES:
        raise LimitError(f"count must be a whole number from 0 to {MAX_SAMPLES}, got {count!r}")
    source = rng if isinstance(rng, random.Random) else random.Random(rng)
    analyser = analyser if analyser is not None else Analyser()
    return [sample_completion(board, source, analyser) for _ in range(count)]


def _undecided(board: Board, analysis: Analysis, near_number: set[int],
               states: list[int]) -> tuple[int, Fraction] | None:
    """The first hidden cell next to a number whose mine probability is strictly between 0
    and 1, with that probability."""
    # Proven cells are 0 or 1 without asking: on an early Expert position most of the cells
    # scanned are, and reading each one's probability was most of a draw's time.
    proven = {board.index(c) for c in analysis.safe}
    proven.update(board.index(c) for c in analysis.mines)
    for i in sorted(near_number):
        if states[i] != HIDDEN or i in proven:
            continue
        p = Fraction(analysis.probability(board.cell(i)))
        if 0 < p < 1:
            return i, p
    return None


def _draw(rng: random.Random, p: Fraction) -> bool:
    """True with probability exactly ``p``."""
    return rng.randrange(p.denominator) < p.numerator
