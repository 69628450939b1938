"""The coach (win probability per decision) against an independent brute force of optimal
play, its labels, its rollouts, the alternatives' progress, and the JSON contract."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import lru_cache
from itertools import combinations

import pytest

pytest.importorskip("ms_toollib")

from minegraph.board import HIDDEN, Board
from minegraph.errors import MinegraphError
from minegraph.play.coach import coach, estimate, judge_position, progress
from minegraph.analyser import Analyser
from minegraph.play.game import Game
from minegraph.play.record import evf_bytes
from minegraph.play.review import review_bytes
from minegraph.play.rollout import play_out

from played import play, play_to_a_fatal_chord


# ------------------------------------------------------------------ the independent oracle
class Optimal:
    """Optimal play by plain recursion over the layouts of a tiny position: the most layouts
    a player who sees only the numbers can win, choosing every move to win the most.

    A state is the set of layouts still possible and the cells uncovered; uncovering a cell
    that is safe in some layouts splits those by what the player then sees (the cell's
    number, or a 0's whole flood fill); the layouts where it is a mine are lost. The game is
    won once every covered cell is a mine. Written from the rules, without minegraph's
    endgame; the one shortcut (a certainly safe cell is uncovered first) is the textbook
    fact that information never hurts."""

    def __init__(self, board: Board) -> None:
        assert board.mines is not None
        self.nbrs = board.neighbors
        self.size = board.size
        hidden = [i for i, s in enumerate(board.states) if s == HIDDEN]
        shown = [(i, s) for i, s in enumerate(board.states) if s >= 0]
        self.layouts = [frozenset(m) for m in combinations(hidden, board.mines)
                        if all(sum(q in m for q in self.nbrs[i]) == s for i, s in shown)]
        self.start = frozenset(i for i, s in enumerate(board.states) if s >= 0)

    def _open(self, layout: frozenset[int], opened: frozenset[int], cells: tuple[int, ...]
              ) -> frozenset[int]:
        out = set(opened)
        todo = list(cells)
        while todo:
            c = todo.pop()
            if c in out:
                continue
            out.add(c)
            if not any(q in layout for q in self.nbrs[c]):
                todo.extend(q for q in self.nbrs[c] if q not in out)
        return frozenset(out)

    def value_of(self, group: frozenset[int], opened: frozenset[int], cells: tuple[int, ...]) -> int:
        """Layouts won by uncovering ``cells`` now (all at once), then playing optimally."""
        parts: dict[tuple[frozenset[int], tuple[tuple[int, int], ...]], set[int]] = {}
        for k in group:
            layout = self.layouts[k]
            if any(c in layout for c in cells):
                continue
            after = self._open(layout, opened, cells)
            seen = tuple(sorted((v, sum(q in layout for q in self.nbrs[v])) for v in after - opened))
            parts.setdefault((after, seen), set()).add(k)
        return sum(self.wins(frozenset(g), after) for (after, _), g in parts.items())

    @lru_cache(maxsize=None)
    def wins(self, group: frozenset[int], opened: frozenset[int]) -> int:
        if len(group) <= 1:
            return len(group)
        covered = [c for c in range(self.size) if c not in opened]
        safe_in = {c: sum(1 for k in group if c not in self.layouts[k]) for c in covered}
        if not any(safe_in.values()):
            return len(group)
        for c in covered:
            if safe_in[c] == len(group):
                # Certainly safe: uncovering it first loses nothing (what it shows can only
                # help the choices after it), so the best play may as well start with it.
                return self.value_of(group, opened, (c,))
        best = 0
        for c in sorted(covered, key=lambda c: -safe_in[c]):
            if safe_in[c] <= best:
                break       # a cell wins at most the layouts where it is safe
            best = max(best, self.value_of(group, opened, (c,)))
        return best

    def everything(self) -> frozenset[int]:
        return frozenset(range(len(self.layouts)))

    def win_probability(self) -> Fraction:
        return Fraction(self.wins(self.everything(), self.start), len(self.layouts))

    def after(self, cells: tuple[int, ...]) -> Fraction:
        return Fraction(self.value_of(self.everything(), self.start, cells), len(self.layouts))


def test_the_oracle_on_hand_checked_positions() -> None:
    fifty = Board.from_text("mines: 1\n##\n1-")
    assert Optimal(fifty).win_probability() == Fraction(1, 2)
    # Three cells in a row, one mine next to a 1 under the first two: the third is safe and
    # its number tells which.
    board = Board.from_text("mines: 1\n###\n1--")
    o = Optimal(board)
    assert o.win_probability() == 1 and o.after((2,)) == 1 and o.after((0,)) == Fraction(1, 2)


# ---------------------------------------------------------------- exact against the oracle
def _games(rows: int, cols: int, mines: int, seeds: range, guess_rate: float = 0.2) -> list[Game]:
    """Games played to the end by a player that guesses when it must, and now and then
    when it need not (any covered cell): guesses late in the game, good ones and bad ones."""
    return [play(Game(rows=rows, cols=cols, mines=mines, rules="modern", seed=seed),
                 random.Random(seed), guess_rate=guess_rate) for seed in seeds]


def _check_exact(games: list[Game], limit: int) -> dict[str, int]:
    """Every exact verdict of the games' reviews against the oracle; the labels seen."""
    labels: dict[str, int] = {}
    for game in games:
        r = coach(review_bytes(evf_bytes(game), "evf"), limit=limit, samples=0, alternatives=4)
        for click in r.timeline:
            verdict = r.verdicts.get(click.number)
            if verdict is None:
                continue
            assert verdict.exact
            oracle = Optimal(click.board)
            assert verdict.win_probability == oracle.after(click.at_risk)
            assert verdict.win_probability_best == oracle.win_probability()
            assert verdict.win_probability_best >= verdict.win_probability
            for alt in verdict.alternatives:
                assert alt.win == oracle.after(alt.cells)
            assert oracle.after(verdict.best_cells) == verdict.win_probability_best
            if not click.avoidable:
                assert verdict.label == ("best" if verdict.lost == 0 else "inferior")
            labels[verdict.label] = labels.get(verdict.label, 0) + 1
    return labels


@pytest.mark.parametrize("rows,cols,mines", [(4, 5, 4), (5, 5, 5)])
def test_every_exact_win_probability_equals_the_brute_force(rows: int, cols: int,
                                                            mines: int) -> None:
    labels = _check_exact(_games(rows, cols, mines, range(16)), limit=200)
    assert sum(labels.values()) >= 4


@pytest.mark.slow
@pytest.mark.parametrize("rows,cols,mines", [(4, 5, 4), (5, 5, 5)])
def test_every_exact_win_probability_equals_the_brute_force_sweep(rows: int, cols: int,
                                                                  mines: int) -> None:
    labels = _check_exact(_games(rows, cols, mines, range(100, 160), guess_rate=0.3), limit=400)
    assert labels.get("best", 0) >= 3 and labels.get("inferior", 0) >= 1


def test_a_chord_is_valued_exactly() -> None:
    # Chords on wrong flags: they uncover several covered cells at once, one of them a mine.
    checked = 0
    for seed in range(12):
        game = play_to_a_fatal_chord(Game(rows=4, cols=5, mines=4, rules="modern", seed=seed),
                                     random.Random(seed))
        if game is None:
            continue
        r = coach(review_bytes(evf_bytes(game), "evf"), limit=200, samples=0)
        for click in r.chords:
            verdict = r.verdicts.get(click.number)
            if verdict is not None and len(click.at_risk) > 1:
                oracle = Optimal(click.board)
                assert verdict.win_probability == oracle.after(click.at_risk)
                assert verdict.win_probability_best == oracle.win_probability()
                checked += 1
    assert checked >= 2


# -------------------------------------------------------------------------- labels
def test_labels_by_hand() -> None:
    board = Board.from_text("mines: 1\n###\n1--")       # (0,2) safe and decisive
    assert judge_position(board, [0], limit=50).label == "inferior"
    assert judge_position(board, [2], limit=50).label == "best"
    fifty = Board.from_text("mines: 1\n##\n1-")         # a forced 50/50 is no mistake
    v = judge_position(fifty, [1], limit=50)
    assert v.label == "best" and v.lost == 0 and v.exact


def test_labels_in_a_review() -> None:
    game = Game(rows=2, cols=2, mines=1, rules="any", seed=3)     # every safe cell shows 1
    assert game.layout is not None
    for cell in sorted(set(range(4)) - game.layout):   # the first click, a 1-in-3 guess,
        game.reveal(cell)                              # then a 50/50
    r = coach(review_bytes(evf_bytes(game), "evf"))
    assert [r.label(c) for c in r.timeline] == ["safe", "best", "best"]
    obj = r.to_json()
    first, second, third = obj["clicks"]
    assert first["label"] == "safe" and first["win_probability"] is None
    assert second["win_probability"] == pytest.approx(1 / 3) and second["win_probability_exact"]
    assert third["win_probability"] == 0.5 and third["win_probability_lost"] == 0.0
    assert obj["labels"] == {"safe": 1, "avoidable": 0, "best": 2, "inferior": 0, "guess": 0}


def test_an_avoidable_guess_is_labelled_so() -> None:
    for game in _games(4, 5, 4, range(300, 340)):
        r = review_bytes(evf_bytes(game), "evf")
        if r.avoidable:
            break
    else:
        raise AssertionError("no avoidable guess in 40 games")
    judged = coach(r, limit=200, samples=0)
    for click in r.avoidable:
        assert judged.label(click) == "avoidable"
        verdict = judged.verdicts[click.number]
        assert verdict.label == "avoidable" and verdict.win_probability_best > 0
        # A certainly safe cell keeps at least the chance of any guess.
        if verdict.exact:
            assert verdict.lost > 0 or verdict.win_probability == verdict.win_probability_best


# -------------------------------------------------------------------------- by play
def _exact_guess() -> tuple[Board, tuple[int, ...], Fraction, Fraction]:
    """A guess of a 4x5 game that the exact endgame values: its position, its cells, its
    exact win chance and the best."""
    for game in _games(4, 5, 4, range(16)):
        r = coach(review_bytes(evf_bytes(game), "evf"), limit=200, samples=0)
        for click in r.timeline:
            verdict = r.verdicts.get(click.number)
            if verdict is not None and click.kind == "left":
                return click.board, click.at_risk, Fraction(verdict.win_probability), \
                    Fraction(verdict.win_probability_best)
    raise AssertionError("no exact guess")


def test_rollouts_give_an_interval_and_the_same_answer_for_the_same_seed() -> None:
    board, cells, exact, best = _exact_guess()
    a = judge_position(board, cells, limit=1, samples=30, seed=5)    # limit 1: by play
    b = judge_position(board, cells, limit=1, samples=30, seed=5)
    assert a is not None and not a.exact and a.samples in (16, 24, 30) and a == b
    own = a.alternatives[0]
    lo, hi = own.interval() or (0.0, 1.0)
    assert 0 < float(own.win) < 1 and lo <= float(own.win) <= hi
    assert a.error is not None and a.label in ("best", "inferior")
    assert a.win_probability_best >= a.win_probability
    # strong plays on no better than perfect play: its value is at most the exact one, up to
    # the estimate's error (30 draws: a generous 4 half-widths).
    assert float(own.win) <= float(exact) + 4 * ((hi - lo) / 2) + 1 / 30


def test_a_play_out_handed_to_the_endgame_averages_to_perfect_play() -> None:
    """Over every completion, a play-out that hands over to the exact endgame after the move
    averages to the oracle's value of the move; one that plays to the end itself never
    beats it."""
    checked = 0
    for game in _games(4, 5, 4, range(30), guess_rate=0.5):
        r = review_bytes(evf_bytes(game), "evf")
        for click in r.guesses[:2]:
            board = click.board
            o = Optimal(board)
            if not 2 <= len(o.layouts) <= 150:
                continue
            for c in [q for q in board.hidden if any(q not in m for m in o.layouts)][:3]:
                perfect = float(o.after((c,)))
                handed = [play_out(board, m, [c], endgame=10_000) for m in o.layouts]
                assert sum(handed) / len(handed) == pytest.approx(perfect, abs=1e-12)
                for look in (0, 4):
                    own = [play_out(board, m, [c], endgame=0, look=look) for m in o.layouts]
                    assert set(own) <= {0.0, 1.0}
                    assert sum(own) / len(own) <= perfect + 1e-12
            checked += 1
        if checked >= 4:
            break
    assert checked >= 4


PATH = Board.from_graph(4, [(0, 1), (1, 2), (2, 3)], "#1##", mines=1)


def test_the_draws_stop_once_the_guess_is_settled() -> None:
    # Node 0 wins only where the mine is on node 2; node 3 is safe and always wins: the
    # sequential test settles at its first look (16 layouts) that 0 is inferior.
    v = judge_position(PATH, [0], limit=1, samples=64, seed=1)
    assert v is not None and v.label == "inferior" and v.best_cells == (3,)
    assert v.samples == 16 and v.win_probability_best == 1 - 1 / 32
    # A 50/50: neither side is ever better beyond the error, so every layout is drawn.
    fifty = judge_position(Board.from_text("mines: 1\n##\n1-"), [0], limit=1, samples=64,
                           seed=1)
    assert fifty is not None and fifty.label == "best" and fifty.samples == 64
    assert fifty.error is not None and abs(fifty.lost) <= fifty.error


def test_estimates_are_never_zero_or_one() -> None:
    assert 0 < estimate(0, 10) < estimate(1, 10) and estimate(10, 10) < 1


# -------------------------------------------------------------------------- progress
def test_progress_against_the_layouts() -> None:
    checked = 0
    for game in _games(4, 5, 4, range(6), guess_rate=0.5):
        r = review_bytes(evf_bytes(game), "evf")
        for click in r.guesses[:2]:
            board = click.board
            o = Optimal(board)
            if len(o.layouts) > 300:
                continue
            analyser = Analyser()
            for c in board.hidden[:4]:
                # By the layouts: safe, and the number it shows leaves a cell safe in every
                # layout that shows the same (or only mines covered).
                good = 0
                rest = [q for q in board.hidden if q != c]
                shows = {k: sum(q in o.layouts[k] for q in board.neighbors[c])
                         for k in range(len(o.layouts)) if c not in o.layouts[k]}
                for k, n in shows.items():
                    alike = [o.layouts[j] for j, m in shows.items() if m == n]
                    if any(all(q not in m for m in alike) for q in rest) or \
                            all(all(q in m for m in alike) for q in rest):
                        good += 1
                assert progress(analyser, board, c) == Fraction(good, len(o.layouts))
                checked += 1
    assert checked >= 4


def test_bad_arguments_are_refused() -> None:
    board = Board.from_text("mines: 1\n##\n1-")
    with pytest.raises(MinegraphError, match="samples"):
        judge_position(board, [0], samples=-1)
    with pytest.raises(MinegraphError, match="chosen"):
        judge_position(board, [2])
    with pytest.raises(MinegraphError, match="total"):
        judge_position(Board.from_text("##\n1-"), [0])
