"""The deduction-only player of the no-guess generator (:mod:`minegraph.generate.noguess`).

Internal: it plays a dozen layouts for each no-guess Expert board, so its loops are the
generator's hot path; the ``single`` and ``search`` levels run in the native kernel when it
is built (:func:`minegraph.kernel.solvable`). The public functions validate their arguments
before they get here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minegraph.board import HIDDEN, MINE, Board
from minegraph.constraints import ConstraintSystem, build_system, update_system
from minegraph.generate.grade import METHODS, deductions
from minegraph.generate.pairs import decide_pair
from minegraph.rules import flood_fill

if TYPE_CHECKING:
    from minegraph.engines.portfolio import PortfolioEngine

__all__ = ["DeductionPlayer"]


class DeductionPlayer:
    """The deduction-only player on one board shape.

    The single-number rules run incrementally on counters (each number's remaining need and
    covered neighbours, re-examined only when a neighbour changes): linear in the board over
    the whole game. (Why not the constraint model here: rebuilding a
    :class:`~minegraph.constraints.ConstraintSystem` after every uncovered cell would make the
    game quadratic; the counters are the model's clues kept up to date one cell at a time.)
    Only when they are stuck is the position built as a :class:`Board` for the
    stronger classes: the pair rule, then (up to ``level``) the total and linear algebra, or,
    for ``search``, the exact engine straight after the pair rule (it decides all they would).

    Parameters
    ----------
    template
        The board shape, every cell hidden, with the total mine count.
    level
        The strongest deduction class allowed (one of :data:`~minegraph.generate.grade.METHODS`,
        checked by the caller).

    Examples
    --------
    >>> from minegraph import Board
    >>> player = DeductionPlayer(Board.from_text("mines: 1\\n###"), "search")
    >>> player.play(frozenset({2}), 0).to_text()
    'mines: 1\\n01#\\n'
    >>> player = DeductionPlayer(Board.from_text("mines: 1\\n###\\n###"), "search")
    >>> player.play(frozenset({2}), 3) is None      # a 1 at (1, 0): (0, 1) or (0, 2)? a guess
    True
    """

    def __init__(self, template: Board, level: str) -> None:
        self.template = template
        self.neighbors: tuple[tuple[int, ...], ...] = template.neighbors
        stronger = list(METHODS[1:METHODS.index(level) + 1])
        if level == "search":
            stronger = ["pair", "search"]
        self.stronger = stronger
        self.engine: PortfolioEngine | None = None
        # The single and search levels in one native call when the kernel is there (it
        # declines otherwise): the same verdicts (what these rules uncover does not depend on
        # the order of the moves).
        self.native = level in ("single", "search")
        self.exact = level == "search"
        # The game in progress (reset by play).
        self.layout: frozenset[int] = frozenset()
        self.numbers: list[int] = []
        self.states: list[int] = []
        self.need: list[int] = []
        self.covered: list[int] = []
        self.queue: list[int] = []
        self.left = 0
        # Numbers whose cells changed since the pair rule last looked (all, at first).
        self.changed: set[int] = set()
        # The constraint system of the last position the exact engine was asked about.
        self.system: ConstraintSystem | None = None

    def play(self, layout: frozenset[int], first: int) -> Board | None:
        """The start position if the player solves ``layout`` from ``first``, else ``None``."""
        if first in layout:
            return None
        if self.native:
            from minegraph.kernel import Declined, Unavailable, solvable
            try:
                return self._start(first, layout) \
                    if solvable(self.template, layout, first, exact=self.exact) else None
            except Unavailable:
                self.native = False     # pure Python: every game is played here
            except Declined:
                pass            # a stuck position the kernel declines: play it here
        return self._start(first) if self._play_here(layout, first) else None

    def stuck(self, layout: frozenset[int], first: int) -> list[int] | None:
        """The position where the player stops on ``layout`` from ``first`` (the cell states:
        numbers, ``MINE`` for the mines it decided, ``HIDDEN`` for the cells it could not
        decide), or ``None`` when it uncovers every safe cell. Played here in Python (the
        native kernel answers only yes or no), with the kernel's exact forced cells when it
        is built. ``first`` must be safe."""
        return None if self._play_here(layout, first) else list(self.states)

    def _play_here(self, layout: frozenset[int], first: int) -> bool:
        """Play ``layout`` from ``first`` in Python; ``True`` when every safe cell is
        uncovered (``self.states`` holds the last position either way)."""
        nbrs = self.neighbors
        n = len(nbrs)
        numbers = [0] * n
        for c in layout:
            for q in nbrs[c]:
                numbers[q] += 1
        self.layout = layout
        self.numbers = numbers
        self.states = states = [HIDDEN] * n
        self.need = need = [0] * n
        self.covered = covered = [len(a) for a in nbrs]
        queue: list[int] = []
        self.queue = queue
        self.left = n - len(layout)
        self.changed = set()
        self.system = None
        self._uncover(first)
        while self.left:
            while queue:
                p = queue.pop()
                self.changed.add(p)
                if covered[p] == 0:
                    continue
                if need[p] == 0:
                    for w in nbrs[p]:
                        if states[w] == HIDDEN:
                            self._uncover(w)
                elif need[p] == covered[p]:
                    for w in nbrs[p]:
                        self._flag(w)
            if not self.left:
                break
            safe, mined = self._stronger()
            if not safe and not mined:
                return False
            for c in mined:
                self._flag(c)
            for c in safe:
                self._uncover(c)
        return True

    def _uncover(self, cell: int) -> None:
        """Uncover ``cell`` as the game does (a zero opens its neighbours)."""
        nbrs, states, numbers, need = self.neighbors, self.states, self.numbers, self.need
        covered, queue, layout = self.covered, self.queue, self.layout
        stack = [cell]
        while stack:
            v = stack.pop()
            if states[v] != HIDDEN:
                continue
            assert v not in layout, "a deduction uncovered a mine"
            number = numbers[v]
            states[v] = number
            self.left -= 1
            k = number
            for w in nbrs[v]:
                covered[w] -= 1
                t = states[w]
                if t == MINE:
                    k -= 1
                elif t >= 0:
                    queue.append(w)
                elif number == 0:
                    stack.append(w)
            need[v] = k
            queue.append(v)

    def _flag(self, cell: int) -> None:
        states = self.states
        if states[cell] != HIDDEN:
            return
        assert cell in self.layout, "a deduction flagged a safe cell"
        states[cell] = MINE
        need, covered, queue = self.need, self.covered, self.queue
        for w in self.neighbors[cell]:
            covered[w] -= 1
            if states[w] >= 0:
                need[w] -= 1
                queue.append(w)

    def _start(self, first: int, layout: frozenset[int] | None = None) -> Board:
        """The position right after the first click (its flood fill)."""
        layout = self.layout if layout is None else layout
        nbrs = self.neighbors
        shown = [HIDDEN] * len(nbrs)
        seen: set[int] = set()
        flood_fill(nbrs, layout, seen, first)
        for c in seen:
            shown[c] = sum(1 for q in nbrs[c] if q in layout)
        return self.template._with_valid_states(shown)

    def _pairs(self) -> tuple[set[int], set[int]]:
        """The pair rule (:func:`~minegraph.generate.pairs.pair_rule`) on the open numbers,
        for the pairs with a number changed since it last ran: each such number against every
        open number sharing a hidden cell with it."""
        nbrs, states, need, covered = self.neighbors, self.states, self.need, self.covered
        hidden_of: dict[int, frozenset[int]] = {}

        def cells(p: int) -> frozenset[int]:
            found = hidden_of.get(p)
            if found is None:
                found = hidden_of[p] = frozenset([q for q in nbrs[p] if states[q] == HIDDEN])
            return found

        pairs: set[tuple[int, int]] = set()
        for p in self.changed:
            if states[p] < 0 or not covered[p]:
                continue
            for q in nbrs[p]:
                if states[q] != HIDDEN:
                    continue
                for t in nbrs[q]:
                    if t != p and states[t] >= 0:       # next to hidden q: an open number
                        pairs.add((p, t) if p < t else (t, p))
        self.changed.clear()
        safe: set[int] = set()
        mined: set[int] = set()
        for p, t in pairs:
            decide_pair(cells(p), need[p], cells(t), need[t], safe, mined)
        return safe, mined

    def _kernel_forced(self, board: Board) -> tuple[set[int], set[int]] | None:
        """The forced cells by the native kernel, or ``None`` when it is not available or
        declines the position (the Python engine then answers)."""
        from minegraph.kernel import Declined, run
        try:
            answer = run(board)
        except Declined:
            return None
        if answer is None:      # pragma: no cover - a layout's own position is consistent
            return set(), set()
        # The kernel's safe and mined cells include those decided already: only new ones.
        states = self.states
        return ({c for c in answer.safe if states[c] == HIDDEN},
                {c for c in answer.mines if states[c] == HIDDEN})

    def _stronger(self) -> tuple[set[int], set[int]]:
        board: Board | None = None
        for method in self.stronger:
            if method == "pair":
                safe, mined = self._pairs()
            else:
                if board is None:
                    board = self.template._with_valid_states(self.states)
                if method == "search":
                    found = self._kernel_forced(board)
                    if found is not None:
                        safe, mined = found
                        if safe or mined:
                            return safe, mined
                        continue
                    # The exact engine's forced cells, without the counts per cell a
                    # full result would build.
                    engine = self.engine
                    if engine is None:
                        from minegraph.engines.portfolio import (WORK_BUDGET, ComponentCache,
                                                                 PortfolioEngine)
                        engine = self.engine = PortfolioEngine(WORK_BUDGET,
                                                               cache=ComponentCache(250_000))
                    # Between two stuck positions of one game cells were only uncovered
                    # or flagged: the previous system is updated, not rebuilt.
                    previous = self.system
                    system = build_system(board) if previous is None else \
                        update_system(previous, board)
                    self.system = system
                    forced = engine.forced(system)
                    safe, mined = (set(), set()) if forced is None else \
                        (set(forced[0]), set(forced[1]))
                else:
                    safe, mined = deductions(board, method)
            if safe or mined:
                return safe, mined
        return set(), set()
