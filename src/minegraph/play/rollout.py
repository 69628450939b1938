"""What a move is worth, estimated by play: uncover it, then let a policy play on, over layouts
drawn uniformly from the position's completions (:mod:`minegraph.sample`).

Every candidate move is played out on the *same* drawn layouts, so two moves are compared
layout by layout (a paired comparison: the noise of the draws cancels where both win or both
lose). The estimate is as good as the policy that plays on; where the exact endgame can decide
a position, :class:`~minegraph.play.endgame.Endgame` gives the value exactly instead.

Examples
--------
>>> from minegraph import Board
>>> board = Board.from_text("mines: 1\\n##\\n1-")      # a 50/50: either cell wins half
>>> values = compare_moves(board, [0, 1], 200, rng=7)
>>> values[0].games, 70 < values[0].wins < 130, values[0].wins + values[1].wins == 200
(200, True, True)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Callable, Sequence

from minegraph.analyser import Analyser
from minegraph.board import HIDDEN, MINE, Board
from minegraph.errors import GameError
from minegraph.play.game import Game, Move
from minegraph.play.policies import Policy, StrongPolicy, play
from minegraph.sample import sample_completion

__all__ = ["MoveValue", "game_at", "compare_moves"]


@dataclass(frozen=True)
class MoveValue:
    """A move's games won over the drawn layouts.

    Attributes
    ----------
    cell
        The move: the cell uncovered (an index).
    wins
        Games won after it.
    games
        Games played (layouts drawn).
    outcomes
        Per drawn layout, in order, whether that game was won (for paired comparisons).
    """

    cell: int
    wins: int
    games: int
    outcomes: tuple[bool, ...]

    @property
    def rate(self) -> float:
        """The share of games won (0 when none was played)."""
        return self.wins / self.games if self.games else 0.0

    def difference(self, other: "MoveValue") -> tuple[float, float]:
        """This move's win rate minus ``other``'s on the same layouts, and the 95% half-width
        of that difference (paired, normal approximation).

        Raises
        ------
        GameError
            when the two were not played on the same number of layouts.
        """
        if self.games != other.games or not self.games:
            raise GameError("the two moves were not played on the same layouts")
        d = [int(a) - int(b) for a, b in zip(self.outcomes, other.outcomes)]
        n = len(d)
        mean = sum(d) / n
        var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
        return mean, 1.959963984540054 * math.sqrt(var / n)


def game_at(board: Board, layout: frozenset[int]) -> Game:
    """A game on ``board``'s graph with the mines of ``layout`` (the position's flags among
    them), at the position ``board`` shows: its uncovered cells uncovered.

    Parameters
    ----------
    board
        The position.
    layout
        Every mined cell (indices): a completion's mined hidden cells and the flagged cells.

    Returns
    -------
    Game
        In play (or over, when nothing is left to uncover).

    Raises
    ------
    GameError
        when the layout does not give the numbers the position shows.
    """
    mines = len(layout)
    if board.is_grid and board.topology != "graph":
        game = Game(None, rows=board.rows, cols=board.cols, mines=mines, topology=board.topology,
                    rules="any", seed=0)
    else:
        game = Game(None, neighbors=board.neighbors, mines=mines, rules="any", seed=0)
    game.layout = frozenset(layout)
    for i, s in enumerate(board.states):
        if s != HIDDEN and s != MINE and i not in game.uncovered and game.status == "playing":
            game.push(Move("reveal", i))
    for i, s in enumerate(board.states):
        if s >= 0 and game.number(i) != s:
            raise GameError(f"the layout gives {game.label(i)} the number {game.number(i)}, "
                            f"the position shows {s}")
    return game


def compare_moves(board: Board, cells: Sequence[int], samples: int,
                  rng: random.Random | int | None = None,
                  policy: Callable[[], Policy] = StrongPolicy) -> dict[int, MoveValue]:
    """Each move's games won when it is played now and ``policy`` plays on, over the same
    ``samples`` layouts drawn uniformly from the position's completions.

    Parameters
    ----------
    board
        The position (with its total mine count, as in a game).
    cells
        The candidate moves: hidden cells (indices) to uncover.
    samples
        How many layouts to draw.
    rng
        A :class:`random.Random` (advanced) or a seed.
    policy
        Makes the policy that plays on (one per candidate, reused over the layouts).

    Returns
    -------
    dict
        ``cell -> MoveValue``.

    Raises
    ------
    GameError
        for a candidate that is not a hidden cell, or a position without a total.
    """
    if board.mines is None:
        raise GameError("a rollout needs the position's total mine count")
    for c in cells:
        if not 0 <= c < board.size or board.states[c] != HIDDEN:
            raise GameError(f"cell {c} is not a hidden cell of the position")
    source = rng if isinstance(rng, random.Random) else random.Random(rng)
    analyser = Analyser()
    flagged = frozenset(i for i, s in enumerate(board.states) if s == MINE)
    players = {c: policy() for c in cells}
    outcomes: dict[int, list[bool]] = {c: [] for c in cells}
    for _ in range(samples):
        layout = sample_completion(board, source, analyser) | flagged
        for c in cells:
            game = game_at(board, layout)
            game.push(Move("reveal", c))
            if game.status == "playing":
                play(game, players[c])
            outcomes[c].append(game.status == "won")
    return {c: MoveValue(c, sum(o), len(o), tuple(o)) for c, o in outcomes.items()}
