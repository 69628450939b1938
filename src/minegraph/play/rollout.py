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
from fractions import Fraction
from operator import countOf
from typing import TYPE_CHECKING, Callable, Collection, Iterator, Sequence

from minegraph.analyser import Analyser
from minegraph.board import HIDDEN, MINE, Board
from minegraph.errors import GameError
from minegraph.intervals import Z95
from minegraph.play.endgame import Endgame
from minegraph.play.game import Game, Move
from minegraph.play.policies import Policy, StrongPolicy, play
from minegraph.rules import flood_fill
from minegraph.sample import sample_completion

if TYPE_CHECKING:
    from minegraph.analysis import Analysis

__all__ = ["MoveValue", "game_at", "compare_moves", "Playouts", "play_out", "playouts",
           "PLAYOUT_ENDGAME", "PLAYOUT_LOOK"]

#: A play-out hands over to the exact endgame once its position has at most this many
#: completions, and ends with that position's exact win chance under perfect play.
PLAYOUT_ENDGAME = 200

#: A play-out scores its guesses among at most this many of the safest cells by the chance of
#: surviving the guess and the next move (0: it guesses the safest cell). Scoring 2 or 4 came
#: no closer to `strong`'s play-out on the same layouts, at more cost (docs/review.md).
PLAYOUT_LOOK = 0


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


# ------------------------------------------------------------------------ the quick play-out
@dataclass(frozen=True)
class Playouts:
    """A move's play-outs over the drawn layouts.

    Attributes
    ----------
    move
        The cells the move uncovers (indices; several for a chord).
    values
        Per drawn layout, in order: 0.0 lost, 1.0 won, or, where the play-out reached a
        position the exact endgame takes, that position's exact chance of winning with
        perfect play.
    """

    move: tuple[int, ...]
    values: tuple[float, ...]

    @property
    def games(self) -> int:
        """Layouts played."""
        return len(self.values)

    @property
    def wins(self) -> float:
        """Games won, an endgame's chance counting as that share of a game."""
        return sum(self.values)

    @property
    def rate(self) -> float:
        """The mean value: the estimated chance of winning (0 when none was played)."""
        return self.wins / len(self.values) if self.values else 0.0

    def difference(self, other: "Playouts", z: float = Z95) -> tuple[float, float]:
        """This move's mean minus ``other``'s on the same layouts, and the half-width of that
        difference at the normal quantile ``z`` (paired: layout by layout).

        Raises
        ------
        GameError
            when the two were not played on the same number of layouts.

        Examples
        --------
        >>> a, b = Playouts((0,), (1.0, 1.0, 0.0, 1.0)), Playouts((1,), (0.0, 1.0, 0.0, 0.5))
        >>> a.difference(b)[0]
        0.375
        """
        if self.games != other.games or not self.games:
            raise GameError("the two moves were not played on the same layouts")
        d = [a - b for a, b in zip(self.values, other.values)]
        n = len(d)
        mean = sum(d) / n
        var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
        return mean, z * math.sqrt(var / n)


class _Playout:
    """Plays games on one position's graph without the :class:`Game` machinery: the states
    as a list, flood fill from the rules, one analysis per step."""

    def __init__(self, board: Board, analyser: Analyser, endgame: int, look: int,
                 cache: dict[tuple[int, ...], float]) -> None:
        self.board = board
        self.analyser = analyser
        self.endgame = endgame
        self.look = look
        self.cache = cache
        self.flags = frozenset(i for i, s in enumerate(board.states) if s == MINE)

    def run(self, layout: frozenset[int], move: Sequence[int]) -> float:
        board, nbrs = self.board, self.board.neighbors
        states = list(board.states)
        opened = {i for i, s in enumerate(states) if s != HIDDEN and s != MINE}
        left = board.size - len(layout | self.flags) - len(opened)

        def reveal(cell: int) -> bool:
            nonlocal left
            if cell in layout:
                return False
            for v in flood_fill(nbrs, layout, opened, cell, self.flags):
                states[v] = sum(1 for q in nbrs[v] if q in layout)
                left -= 1
            return True

        for c in move:
            if not reveal(c):
                return 0.0
        while left > 0:
            position = board._with_valid_states(states)
            analysis = self.analyser.analyze(position)
            if analysis.safe:
                for cell in analysis.safe:
                    reveal(position.index(cell))
                continue
            solutions = analysis.solutions
            if solutions is not None and solutions <= self.endgame:
                key = tuple(states)
                value = self.cache.get(key)
                if value is None:
                    value = float(Endgame(position, self.endgame).win_probability())
                    self.cache[key] = value
                return value
            if not reveal(self._guess(position, analysis)):
                return 0.0
        return 1.0

    def _guess(self, position: Board, analysis: "Analysis") -> int:
        """The safest cell, or among the ``look`` safest (within 0.9 of the best chance of
        being safe) the one most likely to survive this guess and the next move."""
        best = analysis.best
        assert best is not None            # the position is in play and consistent
        first = position.index(best)
        total = analysis.solutions
        if self.look < 2 or total is None:
            return first
        boxes = _boxes(analysis)
        if boxes is None:
            return first
        low = min(m for _, m in boxes if m < total)
        # Safe at least 0.9 times as often as the safest: 10 (total - m) >= 9 (total - low).
        states, nbrs = position.states, position.neighbors
        ranked = sorted((m, countOf(map(states.__getitem__, nbrs[i]), HIDDEN), i)
                        for cells, m in boxes if 10 * (total - m) >= 9 * (total - low)
                        for i in cells if states[i] == HIDDEN)
        cands = [i for _, _, i in ranked[:self.look]]
        if len(cands) < 2:
            return first
        scores = [self._survival(position, c, total) for c in cands]
        return cands[scores.index(max(scores))]      # ties: the safer, fewer covered neighbours

    def _survival(self, position: Board, cell: int, total: int) -> Fraction:
        """The chance of surviving uncovering ``cell`` and then the safest next move (1 when
        the number shown leaves a certainly safe cell or wins)."""
        states = list(position.states)
        mines_left = (position.mines or 0) - position.known_mines
        won = Fraction(0)
        for k in range(len(position.neighbors[cell]) + 1):
            states[cell] = k
            after = self.analyser.analyze(position._with_valid_states(states))
            count = after.solutions or 0
            if not count:
                continue
            if after.safe or countOf(states, HIDDEN) == mines_left:
                won += count
                continue
            boxes = _boxes(after)
            if boxes is None:
                assert after.best is not None
                won += count * (1 - Fraction(after.probabilities[after.best]))
            else:                 # the safest next cell is safe in count - low of them
                won += count - min(m for _, m in boxes if m < count)
        return won / total


def _boxes(analysis: "Analysis") -> list[tuple[Collection[int], int]] | None:
    """The analysis's cells grouped by mine count (the native kernel's box-level answer:
    cells of one box share their count of completions with a mine), or ``None``."""
    groups = getattr(getattr(analysis.result, "mine_counts", None), "groups", None)
    if groups is None:
        return None
    return [(cells, m) for cells, m, _ in groups()]


def play_out(board: Board, layout: frozenset[int], move: Sequence[int], *,
             endgame: int = PLAYOUT_ENDGAME, look: int = PLAYOUT_LOOK,
             analyser: Analyser | None = None,
             cache: dict[tuple[int, ...], float] | None = None) -> float:
    """The value of one game from ``board`` on ``layout``: uncover ``move``'s cells, then
    play on quickly (every certainly safe cell at once; otherwise the safest cell, fewest
    covered neighbours then lowest index among equals, or with ``look`` 2 or more the one of
    the ``look`` safest most likely to survive it and the next move) until the game is won
    (1.0), lost (0.0), or reaches a position with at most ``endgame`` completions: then that
    position's exact chance of winning with perfect play
    (:class:`~minegraph.play.endgame.Endgame`).

    Averaged over layouts drawn uniformly from the position's completions, this estimates
    the chance of winning after ``move`` as this play-out plays on and the endgame plays
    perfectly: a layout drawn uniformly stays uniform among the completions of every
    position the play-out reaches, so the endgame's exact chance is the mean of the outcomes
    it stands for (with less spread).

    Parameters
    ----------
    board
        The position (with its total mine count).
    layout
        Every mined cell (indices), flags included: a completion of ``board``.
    move
        The cells to uncover first, in order (a mine among them loses).
    endgame, look
        As :data:`PLAYOUT_ENDGAME` and :data:`PLAYOUT_LOOK`.
    analyser
        An analyser to reuse.
    cache
        Endgame values by position, shared between play-outs of the same position.

    Returns
    -------
    float
        The game's value, from 0 to 1.

    Examples
    --------
    >>> from minegraph import Board
    >>> path = Board.from_graph(4, [(0, 1), (1, 2), (2, 3)], "#1##", mines=1)
    >>> play_out(path, frozenset({2}), [0]), play_out(path, frozenset({2}), [2])
    (1.0, 0.0)
    >>> play_out(path, frozenset({0}), [3], endgame=0)   # 3 is safe and shows 0: 2 is safe
    1.0
    """
    runner = _Playout(board, analyser if analyser is not None else Analyser(), endgame, look,
                      cache if cache is not None else {})
    return runner.run(layout, move)


def playouts(board: Board, moves: Sequence[tuple[int, ...]], rng: random.Random, *,
             endgame: int = PLAYOUT_ENDGAME, look: int = PLAYOUT_LOOK,
             analyser: Analyser | None = None) -> Iterator[tuple[float, ...]]:
    """For layout after layout drawn uniformly from ``board``'s completions, every move's
    :func:`play_out` value on it (the same layout for all: paired).

    Parameters
    ----------
    board
        The position (with its total mine count).
    moves
        The candidate moves: each the hidden cells it uncovers (indices).
    rng
        The source of the draws (advanced).
    endgame, look, analyser
        As for :func:`play_out`.

    Yields
    ------
    tuple of float
        One value per move, in order, for the next drawn layout.

    Raises
    ------
    GameError
        for a move on a cell that is not hidden, or a position without a total.

    Examples
    --------
    >>> from minegraph import Board
    >>> path = Board.from_graph(4, [(0, 1), (1, 2), (2, 3)], "#1##", mines=1)
    >>> draws = playouts(path, [(0,), (2,), (3,)], random.Random(1))
    >>> values = [next(draws) for _ in range(20)]    # 0 or 2 wins, one or the other; 3 always
    >>> all(a + b == 1.0 and c == 1.0 for a, b, c in values), 0 < sum(a for a, _, _ in values) < 20
    (True, True)
    """
    if board.mines is None:
        raise GameError("a rollout needs the position's total mine count")
    for move in moves:
        for c in move:
            if not 0 <= c < board.size or board.states[c] != HIDDEN:
                raise GameError(f"cell {c} is not a hidden cell of the position")
    analyser = analyser if analyser is not None else Analyser()
    runner = _Playout(board, analyser, endgame, look, {})
    draw = Analyser()      # the draws' own cache: the play-outs' positions would evict it
    while True:
        layout = sample_completion(board, rng, draw) | runner.flags
        yield tuple(runner.run(layout, move) for move in moves)
