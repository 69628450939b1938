"""The coach: what a guess cost in *chance of winning*, not only in mine probability.

For a click that was not certainly safe (a guess, or an avoidable risk), the coach values the
click and a handful of alternatives by the chance of winning the game after making them now:

- **exactly**, with perfect play from then on, when the position has at most ``limit``
  completions: :class:`~minegraph.play.endgame.Endgame` (``exact`` is true);
- otherwise **by play**: each candidate is played out over the same layouts drawn uniformly
  from the position's completions (:func:`~minegraph.play.rollout.playouts`: the quick
  play-out, handing over to the exact endgame once a position has at most
  :data:`~minegraph.play.rollout.PLAYOUT_ENDGAME` completions), and the difference to the
  best is given with its 95% half-width (paired over the same layouts). The layouts are
  drawn :data:`LOOK_EVERY` at a time and the drawing stops once the move is settled (another
  candidate better beyond the error, or the move better than every other), up to
  ``samples``; the half-width holds at every look together, so stopping early leaves it
  honest.

A chord's value is the chance of winning after uncovering all its cells at once (exactly: the
completions where they are all safe, split by what they show, each part valued by the exact
endgame; by play: the same play-outs, the chord's cells uncovered first).

The label (:data:`LABELS`): ``safe`` a certainly safe click (the first click too: the game's
rules make it safe), ``avoidable`` a guess while a certainly safe cell existed, ``best`` a
guess whose win chance equals the best alternative's (exact) or lies within the estimate's
error of it (by play), ``inferior`` any other guess.

Each alternative also has its mine probability and its *chance of progress*: the chance that
it is safe and that what it shows leaves a certainly safe cell (or wins) — exact, from one
analysis per number it can show.

Examples
--------
>>> from minegraph import Board
>>> board = Board.from_text("mines: 1\\n##\\n1-")       # a 50/50: nothing to choose
>>> v = judge_position(board, [0], limit=100)
>>> v.label, v.win_probability, v.win_probability_best, v.exact
('best', Fraction(1, 2), Fraction(1, 2), True)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
from typing import TYPE_CHECKING, Any, Sequence

from minegraph.analyser import Analyser
from minegraph.board import BLANK, HIDDEN, Board
from minegraph.errors import LimitError, MinegraphError
from minegraph.intervals import Z95, wilson
from minegraph.play.endgame import Endgame, completions
from minegraph.play.policies import StrongPolicy
from minegraph.play.rollout import Playouts, game_at, playouts
from minegraph.present import probability_json
from minegraph.rules import flood_fill
from minegraph.sample import sample_completion

if TYPE_CHECKING:
    from minegraph.play.review import Click, Review

__all__ = ["Verdict", "Alternative", "judge_position", "judge_click", "coach", "LABELS",
           "DEFAULT_LIMIT", "DEFAULT_SAMPLES", "DEFAULT_ALTERNATIVES", "MAX_SAMPLES"]

#: The labels a click can get (docs/review.md).
LABELS = ("safe", "avoidable", "best", "inferior")

#: Positions with at most this many completions are valued exactly (the strong autoplayer's
#: own endgame threshold).
DEFAULT_LIMIT = 1000

#: Layouts drawn per decision valued by play.
DEFAULT_SAMPLES = 24

#: Candidates valued per decision, the click itself included.
DEFAULT_ALTERNATIVES = 3

#: The sequential test looks at the play-outs every this many layouts (docs/review.md).
LOOK_EVERY = 8

#: The most layouts a decision may draw (a bound on the work one review can ask for).
MAX_SAMPLES = 100_000


@dataclass(frozen=True)
class Alternative:
    """One candidate move of a decision, valued.

    Attributes
    ----------
    cells
        The cells it uncovers from the covered state (indices): one for a click, a chord's
        cells for a chord.
    probability
        The exact chance that one of them is a mine.
    progress
        The exact chance that it is safe and leaves a certainly safe cell (or wins): what it
        is likely to teach (``None`` for a chord, which shows several numbers at once).
    win
        The chance of winning after it (a :class:`~fractions.Fraction` when exact, else the
        rollouts' estimate).
    wins, games
        The play-outs' games won (an endgame's exact chance counting as that share of a
        game) and layouts played (``None`` when exact).
    """

    cells: tuple[int, ...]
    probability: Fraction
    progress: Fraction | None
    win: Fraction | float
    wins: float | None = None
    games: int | None = None

    def interval(self) -> tuple[float, float] | None:
        """The 95% Wilson interval of the win chance by play (``None`` when exact): the
        play-outs' values lie in [0, 1], so their spread is at most that of games won or lost
        with the same mean, and the interval for the share won covers them."""
        if self.wins is None or not self.games:
            return None
        return _wilson(self.wins, self.games)


@dataclass(frozen=True)
class Verdict:
    """What a click cost in chance of winning.

    Attributes
    ----------
    label
        One of :data:`LABELS`.
    win_probability
        The chance of winning after the click (perfect play when exact, ``strong`` otherwise).
    win_probability_best
        The best candidate's chance (the click's own when it is the best).
    exact
        Whether both are exact (the exact endgame) rather than estimated by play.
    best_cells
        The best candidate's cells (indices).
    error
        By play: the 95% half-width of ``win_probability_best - win_probability`` (paired
        over the same layouts); ``None`` when exact.
    alternatives
        The candidates valued, the click first, then by win chance.
    samples
        Layouts drawn (0 when exact).
    """

    label: str
    win_probability: Fraction | float
    win_probability_best: Fraction | float
    exact: bool
    best_cells: tuple[int, ...]
    error: float | None
    alternatives: tuple[Alternative, ...]
    samples: int = 0

    @property
    def lost(self) -> Fraction | float:
        """The chance of winning the click gave up against the best candidate (0 or more)."""
        return self.win_probability_best - self.win_probability

    def to_json(self, cols: int) -> dict[str, Any]:
        """The verdict's fields of a click in the review's JSON (docs/review.md).

        Parameters
        ----------
        cols
            The board's width (cells are given as ``[row, col]``).

        Returns
        -------
        dict
            ``label``, ``win_probability``, ``win_probability_best``,
            ``win_probability_lost`` (floats), ``win_probability_exact``, ``best_cell``,
            ``win_probability_error``, ``win_probability_interval``, ``samples`` and
            ``alternatives``.
        """
        def cell(cells: tuple[int, ...]) -> list[int] | list[list[int]]:
            if len(cells) == 1:
                return list(divmod(cells[0], cols))
            return [list(divmod(c, cols)) for c in cells]

        own = self.alternatives[0].interval()
        return {"label": self.label, "win_probability": float(self.win_probability),
                "win_probability_best": float(self.win_probability_best),
                "win_probability_lost": float(self.lost), "win_probability_exact": self.exact,
                "win_probability_error": None if self.error is None else round(self.error, 6),
                "win_probability_interval": None if own is None else [round(x, 6) for x in own],
                "best_cell": cell(self.best_cells), "samples": self.samples,
                "alternatives": [{"cell": cell(a.cells),
                                  "probability": probability_json(a.probability),
                                  "progress": None if a.progress is None
                                  else probability_json(a.progress),
                                  "win_probability": float(a.win)}
                                 for a in self.alternatives]}


def estimate(wins: float, games: int) -> float:
    """The rollouts' estimate of a win chance: the share won, kept half a game inside
    ``(0, 1)``: a chance of winning after a guess that may be safe is never proven 0 or 1
    by a finite sample.

    Examples
    --------
    >>> estimate(12, 48), estimate(0, 48), estimate(48, 48)
    (0.25, 0.010416666666666666, 0.9895833333333334)
    """
    half = 1 / (2 * games)
    return min(max(wins / games, half), 1 - half)


def _wilson(wins: float, games: int) -> tuple[float, float]:
    """Wilson's 95% score interval of the share ``wins / games`` (:func:`wilson`, for a sum
    of values in [0, 1] rather than a count)."""
    if wins == int(wins):
        return wilson(int(wins), games)
    p, z = wins / games, Z95
    scale = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / scale
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / scale
    return max(0.0, centre - half), min(1.0, centre + half)


# ----------------------------------------------------------------------- mine and progress
def _risk(analyser: Analyser, board: Board, cells: Sequence[int]) -> Fraction:
    """The exact chance that one of ``cells`` is a mine."""
    analysis = analyser.analyze(board)
    if len(cells) == 1:
        return Fraction(analysis.probability(board.cell(cells[0])))
    spared = board.with_states([BLANK if i in cells else s for i, s in enumerate(board.states)])
    return 1 - Fraction(analyser.analyze(spared).solutions or 0, analysis.solutions or 1)


def progress(analyser: Analyser, board: Board, cell: int) -> Fraction:
    """The exact chance that uncovering ``cell`` is safe and leaves a certainly safe cell
    (or wins the game).

    One analysis per number the cell can show: the share of completions that show it, and
    whether the position then has a certainly safe covered cell.

    Parameters
    ----------
    analyser
        The analyser to reuse.
    board
        The position (with its total).
    cell
        A hidden cell (index).

    Returns
    -------
    Fraction
        The chance of progress.

    Examples
    --------
    >>> from minegraph import Board
    >>> board = Board.from_text("mines: 1\\n###\\n1--")   # (0,2) is safe and shows 0 or 1
    >>> progress(Analyser(), board, 2), progress(Analyser(), board, 0)
    (Fraction(1, 1), Fraction(1, 2))
    """
    total = analyser.analyze(board).solutions
    if not total:
        return Fraction(0)
    states = list(board.states)
    out = Fraction(0)
    for k in range(len(board.neighbors[cell]) + 1):
        states[cell] = k
        after = analyser.analyze(board.with_states(states))
        count = after.solutions or 0
        if not count:
            continue
        hidden_left = sum(1 for s in states if s == HIDDEN)
        won = board.mines is not None and hidden_left == board.mines - board.known_mines
        if won or after.safe:
            out += Fraction(count, total)
    return out


# ----------------------------------------------------------------------------- exact values
def _after_chord(board: Board, cells: Sequence[int], layout: frozenset[int]) -> tuple[int, ...]:
    """The board's states after uncovering ``cells`` (all safe in ``layout``) with flood fill."""
    states = list(board.states)
    opened: set[int] = {i for i, s in enumerate(states) if s != HIDDEN}
    shown = set(opened)
    for c in cells:
        flood_fill(board.neighbors, layout, opened, c)
    for v in opened - shown:
        states[v] = sum(1 for q in board.neighbors[v] if q in layout)
    return tuple(states)


def exact_chord_value(board: Board, cells: Sequence[int], limit: int) -> Fraction:
    """The exact chance of winning after uncovering ``cells`` at once, then playing perfectly.

    The completions where all of ``cells`` are safe are split by what uncovering them shows;
    each part's position is valued by :class:`~minegraph.play.endgame.Endgame`.

    Raises
    ------
    LimitError
        when the position has more than ``limit`` completions.

    Examples
    --------
    >>> from minegraph import Board
    >>> exact_chord_value(Board.from_text("mines: 1\\n##\\n1-"), [0], 10)
    Fraction(1, 2)
    """
    layouts = completions(board, limit)
    if layouts is None:
        raise LimitError(f"more than {limit} completions: too many for the exact endgame")
    if not layouts:
        return Fraction(0)
    parts: dict[tuple[int, ...], int] = {}
    for layout in layouts:
        if any(c in layout for c in cells):
            continue
        after = _after_chord(board, cells, layout)
        parts[after] = parts.get(after, 0) + 1
    won = Fraction(0)
    for states, count in parts.items():
        won += count * Endgame(board.with_states(list(states)), limit).win_probability()
    return won / len(layouts)


# ------------------------------------------------------------------------------ judging
def _candidates(analyser: Analyser, board: Board, chosen: tuple[int, ...], extra: Sequence[int],
                count: int) -> list[tuple[int, ...]]:
    """The chosen move, then ``extra`` cells, then the safest cells (fewest covered
    neighbours first among equals), ``count`` in all."""
    analysis = analyser.analyze(board)
    states, nbrs = board.states, board.neighbors
    probs = {board.index(c): Fraction(p) for c, p in analysis.probabilities.items()
             if board.states[board.index(c)] == HIDDEN}
    order = sorted((c for c, p in probs.items() if p < 1),
                   key=lambda c: (probs[c], sum(1 for q in nbrs[c] if states[q] == HIDDEN), c))
    out = [chosen]
    for c in [*extra, *order]:
        if len(out) >= count:
            break
        if (c,) not in out and probs.get(c, Fraction(1)) < 1:
            out.append((c,))
    return out


def judge_position(board: Board, chosen: Sequence[int], *, limit: int = DEFAULT_LIMIT,
                   samples: int = DEFAULT_SAMPLES, alternatives: int = DEFAULT_ALTERNATIVES,
                   seed: int = 0, analyser: Analyser | None = None) -> Verdict | None:
    """Value uncovering ``chosen`` in ``board`` against the best alternatives.

    Parameters
    ----------
    board
        The position before the move (with its total mine count).
    chosen
        The cells the move uncovers from the covered state: one for a click, several for a
        chord (indices).
    limit
        Value exactly when the position has at most this many completions.
    samples
        The most layouts drawn otherwise (0 to :data:`MAX_SAMPLES`; 0: value only what can
        be valued exactly).
    alternatives
        Candidates valued, the move itself included (at least 2).
    seed
        The seed of the draws (the verdict is repeatable).
    analyser
        An analyser to reuse.

    Returns
    -------
    Verdict or None
        The move's win chance, the best candidate's, the label (``best`` or ``inferior``;
        the caller knows whether the move was certainly safe or avoidable) and the
        alternatives; ``None`` when ``samples`` is 0 and the position is too large for the
        exact endgame.

    Raises
    ------
    MinegraphError
        for a position without a total, a move on a cell that is not hidden, or a count out
        of range.

    Examples
    --------
    >>> from minegraph import Board
    >>> board = Board.from_text("mines: 1\\n###\\n1--")   # (0,0) or (0,1) a mine; (0,2) safe
    >>> v = judge_position(board, [0], limit=100)
    >>> v.label, v.win_probability, v.win_probability_best, v.best_cells
    ('inferior', Fraction(1, 2), Fraction(1, 1), (2,))
    """
    if board.mines is None:
        raise MinegraphError("the coach needs the position's total mine count")
    if not chosen or any(not 0 <= c < board.size or board.states[c] != HIDDEN for c in chosen):
        raise MinegraphError("chosen: expected hidden cells of the position")
    _check_samples(samples)
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise MinegraphError(f"limit: expected a whole number >= 1, got {limit!r}")
    if isinstance(alternatives, bool) or not isinstance(alternatives, int) or alternatives < 2:
        raise MinegraphError(f"alternatives: expected a whole number >= 2, got {alternatives!r}")
    analyser = analyser if analyser is not None else Analyser()
    move = tuple(chosen)
    # Counting the completions is one analysis; listing them up to the limit to find there
    # are too many costs a third of a second on an early Expert position.
    counted = analyser.analyze(board).solutions
    endgame = None
    if counted is None or counted <= limit:
        try:
            endgame = Endgame(board, limit)
        except LimitError:
            endgame = None
    if endgame is None:
        if not samples:
            return None
        return _by_play(board, move, samples, alternatives, seed, analyser)
    return _exact(board, move, endgame, limit, alternatives, analyser)


def _check_samples(samples: int) -> None:
    if isinstance(samples, bool) or not isinstance(samples, int) or not 0 <= samples <= MAX_SAMPLES:
        raise MinegraphError(f"samples: expected a whole number from 0 to {MAX_SAMPLES}, "
                             f"got {samples!r}")


def _exact(board: Board, move: tuple[int, ...], endgame: Endgame, limit: int, count: int,
           analyser: Analyser) -> Verdict:
    best_cell = endgame.best_cell()
    best = endgame.win_probability()
    cands = _candidates(analyser, board, move, [] if best_cell is None else [best_cell], count)
    singles = [c[0] for c in cands if len(c) == 1]
    values: dict[tuple[int, ...], Fraction] = {
        (c,): v for c, v in endgame.cells_by_value(singles).items()}
    if len(move) > 1:
        values[move] = exact_chord_value(board, move, limit)
    own = values[move]
    if best_cell is None or own == best:   # the move is as good as any (or nothing to decide)
        best, best_cells = own, move
    else:
        best_cells = (best_cell,)
    alts = [Alternative(c, _risk(analyser, board, c), _progress(analyser, board, c), values[c])
            for c in cands]
    return Verdict("best" if own == best else "inferior", own, best, True, best_cells, None,
                   _ordered(alts), 0)


def _progress(analyser: Analyser, board: Board, cells: tuple[int, ...]) -> Fraction | None:
    # Defined for one cell (the numbers it can show); a chord shows several at once: None.
    return progress(analyser, board, cells[0]) if len(cells) == 1 else None


def _ordered(alts: list[Alternative]) -> tuple[Alternative, ...]:
    """The move first, then the others by win chance (highest first)."""
    return (alts[0], *sorted(alts[1:], key=lambda a: (-a.win, a.cells)))


def _strong_choice(board: Board, rng: random.Random, analyser: Analyser) -> int | None:
    """The cell the strong autoplayer would uncover now (it looks only at what is shown, so
    any completion serves to set the game up)."""
    layout = sample_completion(board, rng, analyser)
    game = game_at(board, layout)
    if game.status != "playing":
        return None
    decision = StrongPolicy(analyser=Analyser()).decide(game)
    return decision.moves[0].cell if decision.moves else None


def _looks(samples: int) -> list[int]:
    """The numbers of layouts after which the sequential test looks: every
    :data:`LOOK_EVERY` from ``2 * LOOK_EVERY`` on, and ``samples`` itself.

    Examples
    --------
    >>> _looks(24), _looks(10), _looks(40)
    ([16, 24], [10], [16, 24, 32, 40])
    """
    out = list(range(2 * LOOK_EVERY, samples, LOOK_EVERY))
    return [*out, samples] if samples else []


def _z(looks: int) -> float:
    """The normal quantile of a 95% interval that holds at every one of ``looks`` looks
    together (Bonferroni: 2.5% on each side shared among the looks), so stopping at any of
    them leaves the reported error honest.

    Examples
    --------
    >>> round(_z(1), 3), round(_z(2), 3)
    (1.96, 2.241)
    """
    return NormalDist().inv_cdf(1 - 0.025 / max(looks, 1))


def _by_play(board: Board, move: tuple[int, ...], samples: int, count: int, seed: int,
             analyser: Analyser) -> Verdict:
    rng = random.Random(seed)
    strong = _strong_choice(board, rng, analyser)
    cands = _candidates(analyser, board, move, [] if strong is None else [strong], count)
    draws = playouts(board, cands, random.Random(rng.getrandbits(64)), analyser=analyser)
    looks = _looks(samples)
    z = _z(len(looks))
    values: list[list[float]] = [[] for _ in cands]
    for n in looks:
        while len(values[0]) < n:
            for column, value in zip(values, next(draws)):
                column.append(value)
        played = [Playouts(c, tuple(v)) for c, v in zip(cands, values)]
        if _settled(played, z):
            break
    by_move = {p.move: p for p in played}
    own = by_move[move]
    drawn = own.games
    best_move = max(cands, key=lambda c: (by_move[c].wins, c == move))
    best = by_move[best_move]
    if best_move == move:
        error = 0.0
        if len(cands) > 1:    # the nearest rival's difference gives the estimate's error
            rival = max((c for c in cands if c != move), key=lambda c: by_move[c].wins)
            error = own.difference(by_move[rival], z)[1]
    else:
        error = best.difference(own, z)[1]
    lost = (best.wins - own.wins) / drawn
    label = "best" if lost <= error else "inferior"
    alts = [Alternative(c, _risk(analyser, board, c), _progress(analyser, board, c),
                        estimate(by_move[c].wins, drawn), by_move[c].wins, drawn)
            for c in cands]
    win_own = estimate(own.wins, drawn)
    win_best = estimate(best.wins, drawn)
    return Verdict(label, win_own, win_best, False, best_move, error, _ordered(alts), drawn)


def _settled(played: list[Playouts], z: float) -> bool:
    """Whether the move (first) is settled: another candidate is better beyond the
    difference's error (``inferior`` whatever more layouts show), or the move is better than
    every other beyond it."""
    own, others = played[0], played[1:]
    if not others:
        return True
    ahead = [own.difference(o, z) for o in others]
    return (all(d - h > 0 for d, h in ahead)
            or any(d + h < 0 for d, h in ahead))


def judge_click(click: Click, *, limit: int = DEFAULT_LIMIT, samples: int = DEFAULT_SAMPLES,
                alternatives: int = DEFAULT_ALTERNATIVES, seed: int = 0,
                analyser: Analyser | None = None) -> Verdict | None:
    """The verdict on one click of a review: ``None`` for a certainly safe click or the
    first click (label ``safe``, nothing to value); a guess's verdict otherwise, labelled
    ``avoidable`` when a certainly safe cell existed.

    Parameters
    ----------
    click
        A click or chord of a :class:`~minegraph.play.review.Review`.
    limit, samples, alternatives, seed, analyser
        As for :func:`judge_position` (the seed is mixed with the click's number).

    Returns
    -------
    Verdict or None
        The verdict (``None`` also for a guess left unjudged: ``samples`` 0 and a position
        too large for the exact endgame).
    """
    if not click.guess:
        return None
    verdict = judge_position(click.board, click.at_risk, limit=limit, samples=samples,
                             alternatives=alternatives, seed=seed * 1_000_003 + click.number,
                             analyser=analyser)
    if verdict is not None and click.avoidable:
        from dataclasses import replace
        verdict = replace(verdict, label="avoidable")
    return verdict


def coach(review: Review, *, limit: int = DEFAULT_LIMIT, samples: int = DEFAULT_SAMPLES,
          alternatives: int = DEFAULT_ALTERNATIVES, seed: int = 0) -> Review:
    """``review`` with a verdict on every guess (:attr:`Review.verdicts`).

    Parameters
    ----------
    review
        A review (:func:`minegraph.play.review.review`).
    limit, samples, alternatives, seed
        As for :func:`judge_position`.

    Returns
    -------
    Review
        The same review, with ``verdicts``: click number -> :class:`Verdict`.

    Examples
    --------
    >>> from minegraph.play.game import Game
    >>> from minegraph.play.record import evf_bytes
    >>> from minegraph.play.review import review_bytes
    >>> game = Game(rows=2, cols=2, mines=1, rules="any", seed=3)
    >>> sorted(game.layout)                  # every safe cell shows 1: all guesses
    [1]
    >>> _ = game.reveal(0); _ = game.reveal(2); _ = game.reveal(3); game.status
    'won'
    >>> r = coach(review_bytes(evf_bytes(game), "evf"))
    >>> [r.label(c) for c in r.timeline]
    ['safe', 'best', 'best']
    >>> [r.verdicts[n].win_probability for n in (2, 3)]   # 2/3 x 1/2, then 1/2
    [Fraction(1, 3), Fraction(1, 2)]
    """
    from dataclasses import replace
    _check_samples(samples)
    analyser = Analyser()
    verdicts = {}
    for click in review.timeline:
        verdict = judge_click(click, limit=limit, samples=samples, alternatives=alternatives,
                              seed=seed, analyser=analyser)
        if verdict is not None:
            verdicts[click.number] = verdict
    return replace(review, verdicts=verdicts)
