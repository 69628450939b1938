"""Uniform completions: every draw is a completion, and on small positions each completion is
drawn about equally often (against the full list of completions, independently enumerated)."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings

from minegraph import Board, analyze
from minegraph.board import HIDDEN, MINE
from minegraph.errors import BoardError, LimitError
from minegraph.play.endgame import completions
from minegraph.sample import sample_completion, sample_completions

from strategies import examples, positions


def _all_completions(board: Board) -> set[frozenset[int]]:
    """Every completion by brute force over the hidden cells (independent of the analysis)."""
    hidden = [i for i, s in enumerate(board.states) if s == HIDDEN]
    flagged = {i for i, s in enumerate(board.states) if s == MINE}
    out = set()
    for bits in range(1 << len(hidden)):
        mined = {hidden[k] for k in range(len(hidden)) if bits >> k & 1}
        layout = mined | flagged
        if board.mines is not None and len(layout) != board.mines:
            continue
        if all(s < 0 or s == sum(1 for q in board.neighbors[i] if q in layout)
               for i, s in enumerate(board.states)):
            out.add(frozenset(mined))
    return out


@settings(max_examples=examples(200), deadline=None)
@given(positions(max_hidden=10, allow_inconsistent=False))
def test_every_draw_is_a_completion(board: Board) -> None:
    every = _all_completions(board)
    if not every:
        with pytest.raises(BoardError):
            sample_completion(board, random.Random(0))
        return
    for draw in sample_completions(board, 5, rng=1):
        assert draw in every


@pytest.mark.parametrize("text", [
    "mines: 3\n###1\n#21#\n####",
    "mines: 4\n####\n#22#\n####",
    "mines: 2\n#1##\n##2#\n####",
    "1#2#\n####\n#1##",                     # no total: each floating cell a coin flip
])
def test_each_completion_equally_often(text: str) -> None:
    board = Board.from_text(text)
    every = _all_completions(board)
    assert analyze(board).solutions == len(every)
    n = 400 * len(every)
    counts = Counter(sample_completions(board, n, rng=2024))
    assert set(counts) == every
    # Pearson's chi-square against the uniform law, with a bound far in the tail (a
    # uniform sampler exceeds it with probability below 1e-6; the draws are seeded, so the
    # test is repeatable).
    expected = n / len(every)
    chi2 = sum((counts[c] - expected) ** 2 / expected for c in every)
    dof = len(every) - 1
    assert chi2 < dof + 12 * math.sqrt(2 * dof) + 25


def test_an_expert_position_draws_whole_layouts() -> None:
    from minegraph.play.game import Game
    game = Game("expert", rules="modern", seed=11)
    game.reveal(93)
    board = game.board()
    for draw in sample_completions(board, 3, rng=0):
        assert len(draw) == 99
        filled = board.with_states([MINE if i in draw else s for i, s in enumerate(board.states)])
        assert analyze(filled).consistent


def test_bad_counts_are_refused() -> None:
    with pytest.raises(LimitError):
        sample_completions(Board.from_text("#1#"), -1)
    with pytest.raises(LimitError):
        sample_completions(Board.from_text("#1#"), 10**7)
    assert sample_completions(Board.from_text("#1#"), 0) == []
    assert completions(Board.from_text("#1#"), 5)
