"""Autoplayers: policies that choose the next moves of a :class:`~minegraph.play.game.Game`.

A policy looks at what the player sees (:meth:`Game.board`), analyses it with a reusable
:class:`~minegraph.analyser.Analyser` (a move costs a small re-analysis, not a fresh one) and
returns a :class:`Decision`: every proven-safe cell at once, or one guess.

``safest``
    certain moves first; otherwise the cell with the lowest exact mine probability (ties:
    fewest covered neighbours, then the lowest index) — :attr:`Analysis.best`.

Every policy is deterministic: the same game gets the same moves. :func:`play`, :func:`apply`
and :class:`GameRecord` are the solver loop's (:mod:`minegraph.play.autoplay`), re-exported.

Examples
--------
>>> from minegraph.play.game import Game
>>> game = Game("beginner", rules="classic", seed=3)
>>> record = play(game, get_policy("safest"))
>>> record.won == (game.status == "won"), record.moves == len(game.moves)
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Protocol

from minegraph.analyser import Analyser
from minegraph.board import BLANK, HIDDEN, MINE, Board
from minegraph.engines.native import BoxCounts
from minegraph.deadline import current_deadline, time_limit
from minegraph.errors import GameError, LimitError, MinegraphError, QueryTimeout
from minegraph.play.autoplay import GameRecord, apply, play
from minegraph.play.endgame import Endgame, completions
from minegraph.play.fifty import influence, potentials, pseudo_fifty
from minegraph.play.game import Game, Move

if TYPE_CHECKING:
    from minegraph.analysis import Analysis
    from minegraph.engines.base import Probability

__all__ = ["Decision", "Policy", "SafestPolicy", "StrongPolicy", "POLICIES", "REVISIONS", "get_policy",
           "GameRecord", "play", "apply", "default_first", "default_first_cell", "OPENINGS"]


@dataclass(frozen=True)
class Decision:
    """The next moves and whether they risk a mine.

    Attributes
    ----------
    moves
        Uncoverings to play in order (cells a flood fill has meanwhile uncovered are skipped).
    guess
        Whether the first move is a guess (its mine probability is not proven 0).
    probability
        The guessed cell's mine probability (``None`` when certain or unknown).
    reason
        Why these moves (for traces and reviews): ``"first"`` the first click, ``"certain"``
        proven-safe cells, ``"fifty"`` an unavoidable 50/50, ``"endgame"`` the exact endgame,
        ``"enclosed"`` the exact endgame on an enclosed region, ``"lookahead"`` the best
        guess by look-ahead, ``"safest"`` the safest cell; ``""`` when not told.
    """

    moves: tuple[Move, ...]
    guess: bool
    probability: Probability | None = None
    reason: str = ""


class Policy(Protocol):
    """What an autoplayer provides.

    Attributes
    ----------
    name
        The policy's name (a key of :data:`POLICIES`).
    """

    name: str

    def decide(self, game: Game) -> Decision:
        """The next moves in ``game`` (which is still being played)."""
        ...


class SafestPolicy:
    """Certain moves first, then the lowest exact mine probability.

    Parameters
    ----------
    first
        The first cell to uncover (an index); ``None`` lets the analysis choose (every cell
        is equally likely at first, so the cell with the fewest neighbours: a corner).
    analyser
        The analyser to reuse (a new one by default).
    """

    name = "safest"

    def __init__(self, first: int | None = None, analyser: Analyser | None = None) -> None:
        self.first = first
        self.analyser = analyser if analyser is not None else Analyser()

    def decide(self, game: Game) -> Decision:
        if not game.uncovered and self.first is not None:
            return Decision((Move("reveal", self.first),), guess=game.rules == "any", reason="first")
        analysis = self.analyser.analyze(game.board())
        if not analysis.consistent:  # pragma: no cover - a real game is always consistent
            raise GameError("the position the game shows has no completion")
        if analysis.safe:
            return Decision(tuple(Move("reveal", game.index(c)) for c in analysis.safe), False,
                            reason="certain")
        if analysis.best is None:  # pragma: no cover - a game in play has a covered safe cell
            raise GameError("no covered cell left to uncover")
        first_move = not game.uncovered and game.rules != "any"
        p = analysis.probabilities.get(analysis.best)
        return Decision((Move("reveal", game.index(analysis.best)),), guess=not first_move,
                        probability=None if first_move else p,
                        reason="first" if not game.uncovered else "safest")


#: Under ``modern`` rules ``strong`` opens (2, 2) on boards of at most this many cells and (3, 3)
#: on larger ones: on 8x8/10, 9x9/10 and 16x16/40 (2, 2) wins more (docs/play.md); on Expert
#: (480 cells) (3, 3) stays, the opening of the published modern rates it is compared with.
SMALL_BOARD_CELLS = 256


def default_first(game: Game) -> int:
    """The first cell ``strong`` uncovers: a corner under ``classic`` and ``any`` (the best chance
    of a 0); under ``modern``, where the first cell is safe anyway and an inner cell opens the
    largest area, ``(3, 3)`` on boards of more than 256 cells (Expert) and ``(2, 2)`` on
    smaller ones (beginner, intermediate; measured better there, docs/play.md), clamped to the
    board's middle on small boards.

    Parameters
    ----------
    game
        The game about to start.

    Returns
    -------
    int
        The cell's index.
    """
    return default_first_cell(game.rules, game.rows, game.cols)


def default_first_cell(rules: str, rows: int | None, cols: int | None) -> int:
    """:func:`default_first` from the rules and the grid's size alone.

    Parameters
    ----------
    rules
        One of :data:`~minegraph.rules.RULES`.
    rows, cols
        The grid's size; ``None`` on a graph.

    Returns
    -------
    int
        The cell's index: under ``modern`` (3, 3) on boards of more than 256 cells, else
        (2, 2) (clamped to the middle of small grids); otherwise 0.

    Examples
    --------
    >>> default_first_cell("modern", 16, 30), default_first_cell("classic", 16, 30)
    (93, 0)
    >>> default_first_cell("modern", 9, 9) == 2 * 9 + 2
    True
    """
    if rules != "modern" or cols is None or rows is None:
        return 0
    inset = 3 if rows * cols > SMALL_BOARD_CELLS else 2
    return min(inset, (rows - 1) // 2) * cols + min(inset, (cols - 1) // 2)


class StrongPolicy:
    """Certain moves; an unavoidable 50/50 at once; an exact endgame once few completions
    remain; otherwise the guess that best survives this move *and* the next.

    For each candidate guess (the cells next to numbers whose chance of being safe is at
    least ``ratio`` times the best chance, up to ``candidates`` of them, and a few floating
    cells, corners and edges first) and each number ``k`` it can show, the position after
    seeing ``k`` is analysed: its count gives the chance of ``k``, and its own safest next
    move the chance of surviving again (1 when it has a certain move). The guess with the
    highest chance of surviving both wins; ties go to the one that makes more cells certain,
    then to fewer covered neighbours. A cell whose number is already determined ("dead":
    uncovering it teaches nothing) is guessed only when every candidate is dead.

    The defaults are revision 5 (:data:`REVISIONS`), each piece kept for its measured gain
    on the same games (docs/play.md): revision 4 had ``shapely=False`` (off the frontier,
    the ``floating`` best-placed cells whatever their shape); revision 3 also had
    ``living=False`` (a position with a
    certain cell counted as survived, dead or not); revision 2 also had ``fifty=0,
    blend=0`` (no credit for settling a potential 50/50, the next move scored by its best
    safety alone) and opened (3, 3) under modern rules on small boards too
    (:func:`default_first`); revision 1 was
    that and ``candidates=8, endgame=120, ratio=None, pairs_first=False``. The other options
    are pieces measured and not kept.

    Parameters
    ----------
    first
        The first cell (index); ``None``: :func:`default_first`.
    analyser
        The analyser to reuse.
    candidates
        How many of the safest cells next to numbers are scored at most.
    margin
        When ``ratio`` is ``None``: cells whose mine probability is at most this much above
        the lowest are candidates.
    floating
        How many cells next to no number are scored (those with the fewest covered
        neighbours: corners, then edges).
    endgame
        Play the exact endgame (:class:`~minegraph.play.endgame.Endgame`) when the position
        has at most this many completions. With the native search, 10,000 keeps the
        99th-percentile decision within 1 s of CPU (docs/play.md); larger limits changed no
        win rate measurably over 2,000 paired games, so revision 2's 1,000 stays the
        default and its long measurements stay valid.
    ratio
        The candidates are the cells whose chance of being safe is at least ``ratio`` times
        the best chance (``None``: use ``margin``).
    wide
        Off the frontier, score the cells next to the frontier (their number tells about it)
        and the cells with at most 3 covered neighbours, rather than only the cells with the
        fewest covered neighbours.
    pairs_first
        Guess an unavoidable 50/50 (:func:`coin_flip`) as soon as one appears.
    depth
        2: score a guess by the chance of surviving it and the next move; 3: rescore the
        ``deep`` best by the chance of surviving it and the next two guesses, where a number
        leaves no certain move (the second guess over that position's ``breadth`` safest
        cells).
    deep, breadth
        See ``depth``.
    fifty
        Credit a guess with this share of the completions in which it settles a potential
        50/50 early (:func:`~minegraph.play.fifty.influence`), as if they were survived:
        the score is multiplied by ``1 + fifty * influence / completions where it is safe``;
        0: no credit (revision 2). Cells whose safety plus influence is at least ``ratio`` times the best
        safety become candidates too.
    pseudo
        Guess a pseudo-50/50 (:func:`~minegraph.play.fifty.pseudo_fifty`: a cell that is a
        mine only when it is in an unavoidable 50/50) as soon as one appears.
    dominate
        When a cell is safe whatever the chosen guess shows (so safe whenever the guess is)
        and is safer now, guess it instead; likewise when every number the chosen guess can
        show leaves the same single safest cell and that cell is a candidate already safer.
    enclosed
        When the whole position has too many completions for the exact endgame, play it on
        the smallest *enclosed* region instead: covered cells next to numbers, joined through
        the numbers they share, whose covered neighbours all lie in the region and whose
        layouts all hold the same number of mines. Nothing outside can tell anything about
        such a region, so its best play does not depend on the rest.
    blend
        Score the next move by ``(1 - blend) x`` its best safety ``+ blend x`` its second
        best (a certain move counts 1); 0: the best alone (revision 2).
    shapely
        Off the frontier, score only the cells with the fewest covered neighbours (the
        corners while any is left) rather than filling ``floating`` with worse-placed cells:
        a cell two along the edge from a numbered corner scores well on surviving two moves
        (its number may settle the corner's neighbours) but opens less.
    budget
        Seconds this policy may spend on one decision for a stronger move (``None``: the
        default, fast play). With a budget, a position with more completions than
        ``endgame`` but at most ``budget_endgame`` is played by the exact endgame when it
        finishes within the budget (otherwise by look-ahead, as without one). The moves then
        depend on the machine's speed, so a game is repeatable only without a budget.
    budget_endgame
        The most completions the exact endgame takes on under a budget.
    near
        Between guesses that score the same, prefer the one nearer (in moves on the graph)
        to the uncovered cells, before the lower index: an area it opens is more likely to
        meet the known ones (the second guess of a classic game: the corner (15, 0) rather
        than (0, 29)).
    living
        Score the move after a guess over the cells that can teach something only: a
        position whose certain cells all have their numbers fixed already ("dead") still
        needs a guess, so it scores by its safest living guess rather than 1; the expected
        certain cells (the tie-break) count living ones only. The peer's design (its
        next-move safety over living cells).
    peer_order
        Order guesses as the peer does where they nearly tie: the score is multiplied by
        ``1 +`` :data:`PEER_PROGRESS` ``x`` the chance the guess makes new cells certain, and
        after the expected certain cells, the safer guess first, then the one with more
        known mines around, then fewer covered neighbours, then the lower index.
    defer
        When not 0, guess in a small pocket last: a candidate whose *space* (the covered
        cells it reaches through covered cells, or over one uncovered cell, certain mines
        blocking) has fewer than ``defer`` cells is dropped while a candidate in a larger
        space is left (the peer's deferral, with 8). A pocket's own numbers are all that
        can ever help it, except the count of mines left, which grows sharper as the rest
        is played; so its guess is no worse later, and may be better.

    Raises
    ------
    GameError
        for a budget that is not a positive number of seconds.

    Examples
    --------
    >>> from minegraph.play.game import Game
    >>> game = Game("intermediate", rules="modern", seed=1)
    >>> record = play(game, StrongPolicy())
    >>> record.won == (game.status == "won")
    True
    """

    name = "strong"

    def __init__(self, first: int | None = None, analyser: Analyser | None = None, *,
                 candidates: int = 20, floating: int = 3, margin: float = 0.05,
                 endgame: int = 1000, ratio: float | None = 0.9, wide: bool = False,
                 pairs_first: bool = True, depth: int = 2, deep: int = 4,
                 breadth: int = 4, fifty: float = 0.9, pseudo: bool = False,
                 blend: float = 0.2, dominate: bool = False, enclosed: bool = False,
                 near: bool = False, shapely: bool = True, budget: float | None = None,
                 budget_endgame: int = 20000, living: bool = True,
                 peer_order: bool = False, defer: int = 0) -> None:
        if budget is not None and not (isinstance(budget, (int, float)) and 0 < budget < 1e9):
            raise GameError(f"budget must be a positive number of seconds, got {budget!r}")
        self.first = first
        self.analyser = analyser if analyser is not None else Analyser()
        self.candidates = candidates
        self.floating = floating
        self.margin = margin
        self.endgame = endgame
        self.ratio = ratio
        self.wide = wide
        self.pairs_first = pairs_first
        self.depth = depth
        self.deep = deep
        self.breadth = breadth
        self.fifty = fifty
        self.pseudo = pseudo
        self.blend = blend
        self.dominate = dominate
        self.enclosed = enclosed
        self.near = near
        self.shapely = shapely
        self.budget = budget
        self.budget_endgame = budget_endgame
        self.living = living
        self.peer_order = peer_order
        self.defer = defer

    def decide(self, game: Game) -> Decision:
        if not game.uncovered:
            first = self.first if self.first is not None else default_first(game)
            return Decision((Move("reveal", first),), guess=game.rules == "any", reason="first")
        board = game.board()
        analysis = self.analyser.analyze(board)
        if not analysis.consistent:  # pragma: no cover - a real game is always consistent
            raise GameError("the position the game shows has no completion")
        if analysis.safe:
            return Decision(tuple(Move("reveal", game.index(c)) for c in analysis.safe), False,
                            reason="certain")
        if not analysis.probabilities_available or analysis.solutions is None:
            best = analysis.best
            return _guess(game, best, None if best is None else analysis.probabilities.get(best),
                          "safest")
        probs = {game.index(c): p for c, p in analysis.probabilities.items()}
        mines = {game.index(c) for c in analysis.mines}
        if self.pairs_first:
            pair = coin_flip(board, probs, mines)
            if pair is not None:
                return _guess(game, game.cell(pair), probs[pair], "fifty")
        if analysis.solutions <= self.endgame:
            cell = self._endgame(board)
            if cell is not None:
                return _guess(game, game.cell(cell), probs.get(cell), "endgame")
        elif self.budget is not None and analysis.solutions <= self.budget_endgame:
            cell = self._endgame_within_budget(board)
            if cell is not None:
                return _guess(game, game.cell(cell), probs.get(cell), "endgame")
        if analysis.solutions > self.endgame and self.enclosed:
            cell = self._enclosed_endgame(board, mines)
            if cell is not None:
                return _guess(game, game.cell(cell), probs.get(cell), "enclosed")
        cell = self._best_guess(game, board, analysis, probs, mines)
        return _guess(game, game.cell(cell), probs[cell], "lookahead")

    def _endgame(self, board: Board) -> int | None:
        try:
            return Endgame(board, self.endgame).best_cell()
        except LimitError:  # pragma: no cover - the count said it fits
            return None

    def _endgame_within_budget(self, board: Board) -> int | None:
        """The exact endgame's move if it is found within the budget, else ``None`` (a
        deadline of the caller's that runs out meanwhile is raised, not swallowed)."""
        outer = current_deadline()
        try:
            with time_limit(self.budget, "the exact endgame"):
                return Endgame(board, self.budget_endgame).best_cell()
        except QueryTimeout:
            if outer is not None and outer.expired():
                raise
            return None
        except LimitError:  # pragma: no cover - the count said it fits
            return None

    def _enclosed_endgame(self, board: Board, mines: set[int]) -> int | None:
        """The exact endgame's move on the smallest enclosed region (see ``enclosed``) with at
        most ``endgame`` layouts, or ``None``."""
        states, nbrs = board.states, board.neighbors
        covered = {c for c in board.hidden if c not in mines}
        parent = {c: c for c in covered}

        def root(c: int) -> int:
            while parent[c] != c:
                parent[c] = parent[parent[c]]
                c = parent[c]
            return c
        for p, s in enumerate(states):
            if s >= 0:
                around = [q for q in nbrs[p] if q in covered]
                for q in around[1:]:
                    parent[root(q)] = root(around[0])
        regions: dict[int, list[int]] = {}
        for c in covered:
            if any(states[q] >= 0 for q in nbrs[c]):
                regions.setdefault(root(c), []).append(c)
        for region in sorted(regions.values(), key=lambda r: (len(r), min(r))):
            inside = set(region)
            if any(q in covered and q not in inside for c in region for q in nbrs[c]):
                continue    # a covered cell outside would tell about it
            numbers = {p for c in region for p in nbrs[c] if states[p] >= 0}
            sub = [HIDDEN if i in inside else s if i in numbers else
                   MINE if s == MINE or i in mines else BLANK for i, s in enumerate(states)]
            layouts = completions(board.with_states(sub, None), self.endgame)
            if not layouts or len({len(layout) for layout in layouts}) != 1:
                continue    # too many layouts, or its mine count depends on the rest
            total = sub.count(MINE) + len(layouts[0])
            try:
                cell = Endgame(board.with_states(sub, total), self.endgame).best_cell()
            except LimitError:  # pragma: no cover - counted above
                continue
            if cell is not None:
                return cell
        return None

    def _candidates(self, game: Game, board: Board, probs: dict[int, Probability]) -> list[int]:
        states, nbrs = board.states, board.neighbors
        open_cells = [c for c, p in probs.items() if p < 1 and states[c] == HIDDEN]
        covered = {c: sum(1 for q in nbrs[c] if states[q] == HIDDEN) for c in open_cells}
        next_to_number = {c for c in open_cells if any(states[q] >= 0 for q in nbrs[c])}
        low = min(probs[c] for c in open_cells)
        if self.ratio is None:
            limit = low + Fraction(self.margin).limit_denominator(1000)
        else:   # safety at least ratio x the best safety
            limit = 1 - (1 - low) * Fraction(self.ratio).limit_denominator(1000)
        near = sorted((c for c in open_cells if probs[c] <= limit),
                      key=lambda c: (probs[c], covered[c], c))
        frontier = [c for c in near if c in next_to_number][:self.candidates]
        if not self.wide:
            floating = [c for c in near if c not in next_to_number]
            if self.shapely and floating:   # only the cells of the best shape (corners first)
                fewest = min(covered[c] for c in floating)
                floating = [c for c in floating if covered[c] == fewest]
            floating = floating[:self.floating]
        else:   # off the frontier: cells whose number tells about the frontier, and the
            # cells with fewest covered neighbours (most likely to open an area)
            two_steps = {q for c in next_to_number for q in nbrs[c]}
            floating = [c for c in near if c not in next_to_number
                        and (c in two_steps or covered[c] <= 3)][:self.floating]
            if not floating:
                floating = [c for c in near if c not in next_to_number][:1]
        return frontier + floating or near[:1]

    def _best_guess(self, game: Game, board: Board, analysis: Analysis,
                    probs: dict[int, Probability], mines: set[int]) -> int:
        count = analysis.solutions or 0
        base = self.analyser.last_system
        candidates = self._candidates(game, board, probs)
        credit: dict[int, int] = {}
        mined: dict[int, int] = {}
        looks: dict[int, list[tuple[int, Fraction, Analysis]]] = {}
        if self.fifty or self.pseudo or self.peer_order:
            mined = _mine_count_of(analysis)
        if self.fifty or self.pseudo:
            left = None if board.mines is None else board.mines - board.known_mines - len(mines)
            mine_chance = {c: n / count for c, n in mined.items()}
            found = potentials(board, mines, self._counter(board, base), left, mine_chance)
            if self.pseudo:
                pseudos = [c for c in pseudo_fifty(found, mined) if 0 < mined.get(c, count) < count]
                if pseudos:
                    best = max(self._score(board, pseudos, count, base, looks, {}, mined))
                    if best[0]:     # a living pseudo-50/50 (a dead one teaches nothing)
                        return best[-1]
            if self.fifty:
                credit = influence(found, count)
                best_safe = max(count - mined[c] for c in candidates)
                ratio = Fraction(self.ratio if self.ratio is not None else 0.9).limit_denominator(1000)
                candidates += [c for c, n in sorted(credit.items())
                               if c not in candidates and 0 < mined.get(c, count) < count
                               and count - mined[c] + n >= ratio * best_safe]
        if self.defer:
            large = _in_large_space(board, mines, candidates, self.defer)
            candidates = [c for c in candidates if c in large] or candidates
        scored = self._score(board, candidates, count, base, looks, credit, mined)
        scored.sort(reverse=True)
        if self.dominate and len(scored) > 1:
            chosen = scored[0][-1]
            # Cells safe whatever the chosen one shows: safe whenever it is safe.
            common = set.intersection(*({board.index(c) for c in after.safe}
                                        for _, _, after in looks[chosen]))
            safer = sorted((probs[c], c) for c in common if c in probs and probs[c] < probs[chosen])
            if safer:
                return safer[0][1]
            after_each = {_single_safest(after) for _, _, after in looks[chosen]}
            if len(after_each) == 1:
                other = after_each.pop()
                if other is not None and other in looks and probs[other] < probs[chosen]:
                    return other
        if self.depth < 3 or len(scored) < 2:
            return scored[0][-1]
        # Depth 3: where a number leaves no certain move, count the best chance of surviving
        # the next guess and the one after (not only the next).
        deeper: list[tuple[Any, ...]] = []   # a score with the depth-3 chance put first
        for key in scored[:self.deep]:
            c = key[-1]
            survive3: Probability = Fraction(0)
            for _, chance, after in looks[c]:
                survive3 += chance * (_survival(after) if after.safe or after.best_basis != "probability"
                                      else self._second_guess(after))
            deeper.append((key[0], survive3) + key[1:])
        cell: int = max(deeper)[-1]
        return cell

    def _score(self, board: Board, candidates: list[int], count: int, base: object,
               looks: dict[int, list[tuple[int, Fraction, Analysis]]], credit: dict[int, int],
               mined: dict[int, int]) -> list[_Score]:
        """Each candidate's sort key ``(living, survival, progress, safety, known mines around,
        -covered neighbours, -distance, -cell, cell)``: the best is the largest (safety and the
        known mines count only with ``peer_order``, the distance to the uncovered cells only
        with ``near``)."""
        nbrs, states = board.neighbors, board.states
        distance = _distances(board) if self.near else None
        fifty = Fraction(self.fifty).limit_denominator(1000)
        scored = []
        for c in candidates:
            looks[c] = look = self._look(board, c, count, base)
            # Each number's covered-cell counts and living certain cells, found once.
            counted = self.living or self.peer_order
            mined_after = [_mine_count_of(after) if counted else None for _, _, after in look]
            living_after = [_living_safe_cells(after, m) for (_, _, after), m in zip(look, mined_after)
                            ] if counted else []
            survive = sum((chance * _survival(after, self.blend, self.living, m)
                           for (_, chance, after), m in zip(look, mined_after)), Fraction(0))
            if credit.get(c):   # the risk of a 50/50 it settles early is taken sooner or later
                safe_in = count - mined[c]
                survive *= 1 + fifty * Fraction(min(credit[c], mined[c], safe_in), safe_in)
            progress = sum((chance * len(cells) for (_, chance, _), cells in zip(look, living_after)),
                           Fraction(0)) if self.living else \
                sum((chance * len(after.safe) for _, chance, after in look), Fraction(0))
            hidden_around = sum(1 for q in nbrs[c] if states[q] == HIDDEN)
            # Dead: one possible number, and no covered neighbour a 0 would open.
            dead = len(look) == 1 and (look[0][0] > 0 or hidden_around == 0)
            far = distance[c] if distance is not None else 0
            safety: Probability = Fraction(0)
            known_around = 0
            if self.peer_order:
                survive *= 1 + PEER_PROGRESS * _new_clears_chance(look, not dead, living_after)
                safety = sum((chance for _, chance, _ in look), Fraction(0))
                known_around = sum(1 for q in nbrs[c] if states[q] == MINE or mined.get(q) == count)
            scored.append((not dead, survive, progress, safety, known_around, -hidden_around, -far, -c, c))
        return scored

    def _counter(self, board: Board, base: object) -> Callable[[tuple[int, ...], tuple[int, ...]], int]:
        """Counts the completions of ``board`` with given cells mined and others safe (for
        :func:`~minegraph.play.fifty.potentials`): the position with the mines flagged is
        analysed; at most two safe cells, by inclusion and exclusion."""
        def solutions(mined: tuple[int, ...]) -> tuple[int, dict[int, int]]:
            states = list(board.states)
            for m in mined:
                states[m] = MINE
            try:
                after = self.analyser.analyze(board.with_states(states), since=base)  # type: ignore[arg-type]
            except MinegraphError:  # pragma: no cover - flags on covered cells always fit
                return 0, {}
            if not after.consistent or not after.solutions:
                return 0, {}
            return after.solutions, _mine_count_of(after)

        def count(mined: tuple[int, ...], safe: tuple[int, ...]) -> int:
            total, mines_in = solutions(mined)
            if not total:
                return 0
            out = total - sum(mines_in.get(c, 0) for c in safe)
            for i, b in enumerate(safe):    # add back the completions where two are mines
                for c in safe[i + 1:]:
                    out += solutions(mined + (b,))[1].get(c, 0)
            return out
        return count

    def _look(self, board: Board, cell: int, count: int, base: object
              ) -> list[tuple[int, Fraction, Analysis]]:
        """Each number ``cell`` can show: ``(number, its chance, the analysis after it)``.

        Without the native kernel, from one pass over the position (:func:`~minegraph.outcomes`,
        faster there than one Python analysis per number); with it, one analysis per number
        (the kernel's nine analyses take less time than the Python pass: bench/bench_outcomes.py).
        The answers are the same either way."""
        if not self.analyser.native:
            from minegraph.errors import BoardError
            from minegraph.outcomes import outcomes
            try:
                found = outcomes(board, cell, since=base)  # type: ignore[arg-type]
            except BoardError:  # pragma: no cover - a candidate is never a certain mine
                return []
            return [(k, Fraction(o.ways, count), found.analysis(k)) for k, o in found.by_number.items()]
        states = list(board.states)
        out = []
        for k in range(len(board.neighbors[cell]) + 1):
            states[cell] = k
            try:
                after = self.analyser.analyze(board.with_states(states), since=base)  # type: ignore[arg-type]
            except MinegraphError:  # pragma: no cover - a number over its neighbours
                continue
            ways = after.solutions or 0
            if after.consistent and ways:
                out.append((k, Fraction(ways, count), after))
        return out

    def _second_guess(self, analysis: Analysis) -> Probability:
        """The best chance of surviving two guesses from a position with no certain move,
        over its ``breadth`` safest cells (the depth-2 score of those cells)."""
        board = analysis.board
        count = analysis.solutions
        if not count:
            return Fraction(0)
        best: Probability = Fraction(0)
        for ways, c in _safest(analysis, self.breadth):
            if Fraction(count - ways, count) <= best:
                break   # two guesses survive no more often than the first
            look = self._look(board, c, count, None)
            best = max(best, sum((chance * _survival(after) for _, chance, after in look), Fraction(0)))
        return best


#: How ``strong`` ranks a candidate (the largest wins): living (not dead), the chance of
#: surviving it and the next move, the expected certain cells after it, its safety and its
#: known mines around (with ``peer_order``, else 0), minus its covered neighbours, minus its
#: distance to the uncovered cells (with ``near``, else 0), minus its index; then the cell.
_Score = tuple[bool, Any, Any, Any, int, int, int, int, int]

#: With ``peer_order``, a guess's score is multiplied by ``1 + PEER_PROGRESS x`` the chance
#: that it makes new cells certain (the peer's tiny weight, there to break near-ties).
PEER_PROGRESS = Fraction(1, 1000)


def _distances(board: Board) -> list[int]:
    """Each cell's distance (in moves on the graph) to the nearest uncovered cell."""
    states, nbrs = board.states, board.neighbors
    far = len(states) + 1
    dist = [far] * len(states)
    frontier = [i for i, s in enumerate(states) if s != HIDDEN and s != MINE]
    for i in frontier:
        dist[i] = 0
    while frontier:
        step = []
        for p in frontier:
            for q in nbrs[p]:
                if dist[q] == far:
                    dist[q] = dist[p] + 1
                    step.append(q)
        frontier = step
    return dist


def _in_large_space(board: Board, mines: set[int], cells: list[int], threshold: int) -> set[int]:
    """The ``cells`` whose space has at least ``threshold`` cells: the covered cells other
    than ``mines`` reached from the cell step by step, each step to a covered neighbour or
    over an uncovered neighbour to one of its covered neighbours. Both steps go either way,
    so a space is a class of cells and is found once for all of its members."""
    states, nbrs = board.states, board.neighbors

    def open_(c: int) -> bool:
        return states[c] == HIDDEN and c not in mines
    large: set[int] = set()
    small: set[int] = set()
    for start in cells:
        if start in large or start in small:
            continue
        seen = {start}
        queue = [start]
        for m in queue:
            for q in nbrs[m]:
                for r in (q,) if open_(q) else nbrs[q] if states[q] not in (HIDDEN, MINE) else ():
                    if r not in seen and open_(r):
                        seen.add(r)
                        queue.append(r)
            if len(seen) >= threshold:
                break
        (large if len(seen) >= threshold else small).update(seen)
    return {c for c in cells if c in large}


def _mine_counts(analysis: Analysis) -> list[tuple[int, tuple[int, ...]]]:
    """``(completions where they are mines, cells)`` for the cells that share a count, read
    from the native kernel's grouped answer when there is one (building every cell's
    probability costs more than the rest of a small analysis)."""
    counts = analysis.result.mine_counts if analysis.result is not None else None
    if isinstance(counts, BoxCounts):
        return [(count, cells) for cells, count, _ in counts.groups()]
    board, total = analysis.board, analysis.solutions or 0
    return [(int(p * total), (board.index(c),)) for c, p in analysis.probabilities.items()]


def _mine_count_of(analysis: Analysis) -> dict[int, int]:
    """``cell -> completions where it is a mine`` for every covered cell."""
    return {c: n for n, group in _mine_counts(analysis) for c in group}


def _single_safest(analysis: Analysis) -> int | None:
    """The one cell strictly safer than every other of a position (``None`` if there is no
    such cell)."""
    two = _safest(analysis, 2)
    if not two or (len(two) > 1 and two[1][0] == two[0][0]):
        return None
    return two[0][1]


def _safest(analysis: Analysis, n: int) -> list[tuple[int, int]]:
    """The ``n`` covered cells least often mined that are not proven mines, as
    ``(completions where it is a mine, cell)``, safest first (ties: lower index)."""
    total = analysis.solutions or 0
    cells = [(count, c) for count, group in _mine_counts(analysis) if count < total for c in group]
    cells.sort()
    return cells[:n]


def _survival(after: Analysis, blend: float = 0.0, living: bool = False,
              mined: dict[int, int] | None = None) -> Probability:
    """The chance of surviving the next move from a position: 1 with a certain move, else
    that of its safest cell; with ``blend``, ``(1 - blend) x`` that ``+ blend x`` the chance
    of the second safest cell (a certain cell counts 1). With ``living``, only the cells that
    can teach something count (:func:`_is_dead`): a position whose certain cells are all
    dead still needs a guess, so it scores by its safest living guess (by every cell when
    none is living); ``mined`` is :func:`_mine_count_of` ``(after)`` when already known."""
    if living:
        return _living_survival(after, blend, mined)
    if after.best is None or after.best_basis not in ("safe", "probability") or (
            not blend and (after.safe or after.best_basis != "probability")):
        return Fraction(1)
    total = after.solutions or 0
    if not total:  # pragma: no cover - a position in play has a completion
        return Fraction(1)
    if not blend:
        low = min((count for count, _ in _mine_counts(after) if count < total), default=None)
        if low is None:  # pragma: no cover - a position in play has a cell to try
            return Fraction(1)
        return Fraction(total - low, total)
    counts = [count for count, _ in _safest(after, 2)]
    if not counts:  # pragma: no cover - a position in play has a cell to try
        return Fraction(1)
    return _blended(total, counts, blend)


def _blended(total: int, counts: list[int], blend: float) -> Probability:
    """``(1 - blend) x`` the safety of the first of ``counts`` (completions, of ``total``,
    where a cell is a mine) ``+ blend x`` that of the last."""
    first, second = counts[0], counts[-1]
    share = Fraction(blend).limit_denominator(1000)
    return ((1 - share) * (total - first) + share * (total - second)) / total


def _is_dead(board: Board, cell: int, mined: dict[int, int], total: int) -> bool:
    """Whether ``cell``'s number is fixed by the position: each covered neighbour is a
    certain mine or certain to be safe (a sufficient test, and a cheap one: a number fixed
    by two uncertain neighbours whose mines always add up the same is not seen)."""
    states = board.states
    return all(mined.get(q, 0) in (0, total) for q in board.neighbors[cell] if states[q] == HIDDEN)


def _living_survival(after: Analysis, blend: float, mined: dict[int, int] | None) -> Probability:
    """:func:`_survival` over the living cells only (see there)."""
    total = after.solutions or 0
    if after.best is None or after.best_basis not in ("safe", "probability") or not total:
        return Fraction(1)
    if mined is None:
        mined = _mine_count_of(after)
    board = after.board
    ranked = sorted((count, c) for c, count in mined.items() if count < total)
    counts: list[int] = []
    for count, c in ranked:
        if not _is_dead(board, c, mined, total):
            counts.append(count)
            if len(counts) == 2 or not blend:
                break
    if not counts:     # every cell is dead: the safest of all
        counts = [count for count, _ in ranked[:2 if blend else 1]]
    if not counts:  # pragma: no cover - a position in play has a cell to try
        return Fraction(1)
    return _blended(total, counts, blend)


def _living_safe_cells(after: Analysis, mined: dict[int, int] | None = None) -> set[int]:
    """The certain cells of ``after`` that are living (:func:`_is_dead`), as indices
    (``mined``: :func:`_mine_count_of` ``(after)`` when already known)."""
    if not after.safe:
        return set()
    total = after.solutions or 0
    if mined is None:
        mined = _mine_count_of(after)
    board = after.board
    cells = (board.index(c) for c in after.safe)
    return {c for c in cells if not _is_dead(board, c, mined, total)}


def _new_clears_chance(look: list[tuple[int, Fraction, Analysis]], living: bool,
                       living_after: list[set[int]] | None = None) -> Fraction:
    """The chance that the number a guess shows makes new living cells certain: more of them
    than the cells certain whenever the guess is safe, the guess itself counted among
    those when it is living (the peer's count, so at least two new cells for a living
    guess). ``living_after``: each number's living certain cells when already known."""
    if living_after is None:
        living_after = [_living_safe_cells(after) for _, _, after in look]
    if not living_after:
        return Fraction(0)
    linked = len(set.intersection(*living_after)) + (1 if living else 0)
    return sum((chance for (_, chance, _), cells in zip(look, living_after) if len(cells) > linked),
               Fraction(0))


def coin_flip(board: Board, probs: dict[int, Probability], mines: set[int]) -> int | None:
    """A cell of an unavoidable 50/50, if the position has one: two covered cells of which a
    number says exactly one is a mine, that every number sees alike and that no covered cell
    tells apart (each covered neighbour of one is a neighbour of the other). Nothing will
    ever make one safer than the other, so it is best guessed now, while the number it
    shows can still help elsewhere.

    Parameters
    ----------
    board
        The position.
    probs
        Each covered cell's mine probability.
    mines
        The proven mines.

    Returns
    -------
    int or None
        The lower-indexed cell of the first such pair, or ``None``.

    Examples
    --------
    >>> board = Board.from_text("mines: 1\\n##\\n11")
    >>> coin_flip(board, {0: Fraction(1, 2), 1: Fraction(1, 2)}, set())
    0
    """
    states, nbrs = board.states, board.neighbors
    seen: set[tuple[int, int]] = set()
    for p, number in enumerate(states):
        if number < 0:
            continue
        undecided = [q for q in nbrs[p] if states[q] == HIDDEN and q not in mines]
        if len(undecided) != 2:
            continue
        a, b = undecided
        if (a, b) in seen or number - sum(1 for q in nbrs[p] if q in mines or states[q] == MINE) != 1:
            continue
        seen.add((a, b))
        if probs.get(a) != Fraction(1, 2):
            continue
        around_a = {q for q in nbrs[a] if q != b and (states[q] >= 0 or (states[q] == HIDDEN and q not in mines))}
        around_b = {q for q in nbrs[b] if q != a and (states[q] >= 0 or (states[q] == HIDDEN and q not in mines))}
        if around_a == around_b:
            return min(a, b)
    return None


def _guess(game: Game, cell: object, probability: Probability | None, reason: str) -> Decision:
    if cell is None:  # pragma: no cover - a game in play has a covered safe cell
        raise GameError("no covered cell left to uncover")
    return Decision((Move("reveal", game.index(cell)),), guess=True,  # type: ignore[arg-type]
                    probability=probability, reason=reason)


#: Each policy's revision: raised whenever its moves change, so that benchmark results of
#: different revisions are never merged.
REVISIONS: dict[str, int] = {"safest": 1, "strong": 5}

#: The policies whose first cell is fixed by the rules and the grid's size, with that cell
#: (``(rules, rows, cols) -> index``); the others choose it by analysis.
OPENINGS: dict[str, Callable[[str, int | None, int | None], int]] = {"strong": default_first_cell}

#: Policy names and their factories (``first`` cell index or ``None``).
POLICIES: dict[str, Callable[[int | None], Policy]] = {
    "safest": lambda first: SafestPolicy(first),
    "strong": lambda first: StrongPolicy(first),
}


def get_policy(name: str, first: int | None = None, budget: float | None = None) -> Policy:
    """A new policy by name.

    Parameters
    ----------
    name
        A key of :data:`POLICIES` (``"safest"``, ``"strong"``).
    first
        The first cell to uncover (an index); ``None``: the policy's default.
    budget
        Seconds ``strong`` may spend on one decision (:class:`StrongPolicy`'s ``budget``);
        ``None``: its fast default.

    Returns
    -------
    Policy
        A new policy, with an analyser of its own.

    Raises
    ------
    GameError
        for an unknown name, a budget for a policy other than ``strong``, or a budget that is
        not a positive number of seconds.
    """
    if name not in POLICIES:
        raise GameError(f"unknown policy {name!r}; expected one of {', '.join(POLICIES)}")
    if budget is not None:
        if name != "strong":
            raise GameError(f"a time budget applies to the strong policy, not {name!r}")
        return StrongPolicy(first, budget=budget)
    return POLICIES[name](first)
