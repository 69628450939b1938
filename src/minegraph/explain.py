"""Why is a cell certainly safe, or certainly a mine? The fewest numbers that force it.

A hidden cell is certainly safe when the board's constraints leave no completion with a mine
on it: the SAT formula of the position (:class:`~minegraph.engines.sat.ClueFormula`, one
*selector* literal per number, one per flag and one for the total mine count) is unsatisfiable
under the assumption "mine here". The selectors in the solver's unsatisfiable core name numbers
that suffice; deleting them one at a time while the formula stays unsatisfiable leaves a
*minimal* set (deletion-based MUS extraction: dropping any one of them lets the cell be a
mine). When few enough smaller sets could be reasons, trying them all (numbers, flags and the
total alike) then returns a *smallest* set, and says so; otherwise the set is claimed only
minimal. The same machinery explains an inconsistent board: a minimal set of numbers
(and flags, and the total) that contradict each other.

Flags (known mines) are constraints like numbers here: a number next to a flag counts it, and
an explanation may need the flag.

References
----------
Marques-Silva, *Minimal unsatisfiability: models, algorithms and applications*, ISMVL 2010
(deletion-based MUS extraction).
Ignatiev, Morgado, Marques-Silva, *PySAT*, SAT 2018 (assumptions and cores).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING, Any, Sequence

from minegraph.analysis import check_board
from minegraph.present import fraction_text, probability_json
from minegraph.board import BLANK, HIDDEN, MINE, Board, Cell, cell_name, whole
from minegraph.deadline import Deadline, check_deadline, current_deadline, time_left, time_limit
from minegraph.errors import BoardError, EngineError, QueryTimeout

if TYPE_CHECKING:
    from minegraph.analysis import Analysis
    from minegraph.engines.base import Probability
    from minegraph.engines.sat import ClueFormula, Oracle

__all__ = ["Explanation", "explain", "Explainer", "SMALLEST_UP_TO", "SMALLEST_CELLS", "STATUSES"]

#: The answers: the cell is certainly safe, certainly a mine, not forced, or the board has no
#: completion at all.
STATUSES = ("safe", "mine", "unknown", "inconsistent")

#: A set is searched for, and proven, smallest only when the smaller sets that could be
#: reasons (subsets of one component's numbers and flags; the total with any other
#: constraints) number at most this many: one solver call each. Beyond it the set is only
#: claimed minimal.
SMALLEST_UP_TO = 4000

#: ... and, when the total mine count is known, only on boards of at most this many hidden
#: cells: a solver call that has to find a whole layout meeting the total grows with the
#: board (seconds each on a 45x45 board with 300 mines), so beyond it the set is only claimed
#: minimal. Expert boards (480 cells) fit.
SMALLEST_CELLS = 600


@dataclass(frozen=True)
class Explanation:
    """The reason behind a forced cell (or an inconsistent board), as data.

    Attributes
    ----------
    board
        The position.
    cell
        The cell asked about (``None`` when explaining an inconsistent board as a whole).
    status
        ``"safe"``, ``"mine"``, ``"unknown"`` (not forced) or ``"inconsistent"``.
    clues
        The number cells that force the answer (or contradict each other): a minimal set,
        dropping any one of them loses the deduction.
    flags
        Known mines the explanation needs (for an inconsistent board, or a number that counts
        a flag).
    uses_total
        Whether the total mine count is part of the reason.
    smallest
        Whether the reasons (``clues``, ``flags`` and the total together) are also proven a
        smallest such set, no set of fewer numbers, flags and total forcing the answer
        (searched when the smaller sets to try are at most :data:`SMALLEST_UP_TO`); ``False``
        means only minimal.
    probability
        The cell's mine probability when it is not forced (``None`` if unknown or forced:
        forced cells are 0 or 1).
    stats
        Figures of the search (``"solver_calls"``); not compared.
    """

    board: Board
    cell: Cell | None
    status: str
    clues: tuple[Cell, ...] = ()
    flags: tuple[Cell, ...] = ()
    uses_total: bool = False
    smallest: bool = False
    probability: Probability | None = None
    stats: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def text(self) -> str:
        """One plain sentence saying why."""
        return _sentence(self)

    def to_json(self) -> dict[str, Any]:
        """``{"cell", "status", "clues", "flags", "uses_total", "smallest", "probability",
        "text"}``, cells as ``[r, c]`` (or ints on graph boards); a probability below the
        double range is written as a decimal string, as in
        :meth:`~minegraph.analysis.Analysis.to_json`."""

        def ref(cell: Cell) -> Any:
            return list(cell) if isinstance(cell, tuple) else cell

        probability: float | str | None = None
        if self.status == "safe":
            probability = 0.0
        elif self.status == "mine":
            probability = 1.0
        elif self.probability is not None:
            probability = probability_json(self.probability)
        return {"cell": None if self.cell is None else ref(self.cell), "status": self.status,
                "clues": [ref(c) for c in self.clues], "flags": [ref(c) for c in self.flags],
                "uses_total": self.uses_total, "smallest": self.smallest,
                "probability": probability, "text": self.text}

    def fragment(self, margin: int = 1) -> str:
        """The part of the board around the cell and its reasons, the reasons marked:
        ``[n]`` a number used, ``[M]`` a flag used, ``(?)`` the cell asked about; other cells
        as in the board text. Graph boards list the cells instead."""
        margin = whole(margin, "a margin of at least 0 cells")
        if margin < 0:
            raise BoardError(f"expected a margin of at least 0 cells, got {margin}")
        board = self.board
        marked = [c for c in (*self.clues, *self.flags) if isinstance(c, tuple)]
        if self.cell is not None and isinstance(self.cell, tuple):
            marked.append(self.cell)
        if board.rows is None or board.cols is None or not marked:
            return ""
        from minegraph.formats.text import symbol
        r0 = max(0, min(r for r, _ in marked) - margin)
        r1 = min(board.rows - 1, max(r for r, _ in marked) + margin)
        c0 = max(0, min(c for _, c in marked) - margin)
        c1 = min(board.cols - 1, max(c for _, c in marked) + margin)
        used = set(self.clues) | set(self.flags)
        lines = []
        for r in range(r0, r1 + 1):
            row = []
            for c in range(c0, c1 + 1):
                s = symbol(board.states[r * board.cols + c])
                if (r, c) == self.cell:
                    row.append("(?)")
                elif (r, c) in used:
                    row.append(f"[{s}]")
                else:
                    row.append(f" {s} ")
            lines.append("".join(row).rstrip())
        return "\n".join(lines) + "\n"


def _names(cells: Sequence[Cell], board: Board) -> str:
    shown = [cell_name(board, c) for c in cells]
    if len(shown) <= 1:
        return "".join(shown)
    return ", ".join(shown[:-1]) + " and " + shown[-1]


def _state_words(state: int) -> str:
    """What a cell that is not hidden is, in words, after "it" (never the state's code).

    Examples
    --------
    >>> [_state_words(s) for s in (BLANK, MINE, 0, 3)]
    ['is uncovered and shows no number', 'is a known mine', 'shows 0', 'shows 3']
    """
    if state == BLANK:
        return "is uncovered and shows no number"
    if state == MINE:
        return "is a known mine"
    return f"shows {state}"


def _sentence(e: Explanation) -> str:
    reasons = []
    if e.clues:
        reasons.append(("the number at " if len(e.clues) == 1 else "the numbers at ") + _names(e.clues, e.board))
    if e.flags:
        reasons.append(("the flag at " if len(e.flags) == 1 else "the flags at ") + _names(e.flags, e.board))
    if e.uses_total:
        reasons.append(f"the total of {e.board.mines} mines")
    because = (", ".join(reasons[:-1]) + " and " + reasons[-1]) if len(reasons) > 1 else \
        (reasons[0] if reasons else "nothing")
    name = "" if e.cell is None else _names([e.cell], e.board)
    if e.status == "safe":
        return f"{name} is certainly safe: with a mine there, {because} could not all be satisfied."
    if e.status == "mine":
        return f"{name} is certainly a mine: without one there, {because} could not all be satisfied."
    if e.status == "inconsistent":
        if len(e.clues) + len(e.flags) + e.uses_total == 1:
            # One number alone (no hidden neighbour left to meet it), or the total alone.
            return f"The board has no solution: {because} cannot be satisfied."
        return f"The board has no solution: {because} contradict each other."
    if e.probability is None:
        return f"{name} is not forced: some solutions put a mine there and some do not."
    return (f"{name} is not forced: some solutions put a mine there and some do not; its mine "
            f"probability is {fraction_text(e.probability)} (about {float(e.probability):.1%}).")


class Explainer:
    """One loaded solver for one position, asked about any number of cells.

    Parameters
    ----------
    board
        The position.
    solver
        The SAT solver (see :mod:`minegraph.engines.sat`); Glucose by default (its cores are
        small and it can be interrupted at the deadline).

    Raises
    ------
    BoardError
        when ``board`` is not a :class:`~minegraph.board.Board`.
    EngineError
        for a solver that is not a known SAT solver name.

    Examples
    --------
    >>> e = Explainer(Board.from_text("#####\\n-121-"))
    >>> e.explain((0, 1)).clues, e.explain((0, 2)).status
    (((1, 2), (1, 3)), 'safe')
    """

    def __init__(self, board: Board, solver: str = "glucose") -> None:
        from minegraph.constraints import build_system
        from minegraph.engines.sat import ClueFormula, Oracle, resolve_solver
        board = check_board(board, "explain")
        if not isinstance(solver, str):
            raise EngineError(f"expected a SAT solver name such as 'glucose', got {type(solver).__name__}")
        self.board = board
        # Flags become variables with a selector each, so a reason can name them.
        self.flag_cells = [i for i, s in enumerate(board.states) if s == MINE]
        opened = board.with_states([HIDDEN if s == MINE else s for s in board.states])
        self.system = build_system(opened, propagate=False)
        self.formula: ClueFormula = ClueFormula(self.system, symmetric=False, floating_vars=True)
        f = self.formula
        self.flag_selector: dict[int, int] = {}
        for cell in self.flag_cells:
            var = f.var.get(cell) or f.pool.id(("cell", cell))
            f.var.setdefault(cell, var)
            sel = self.flag_selector[cell] = f.pool.id(("flag", cell))
            f.clauses.append([var, -sel])
        self.owner: dict[int, tuple[str, int]] = {s: ("clue", k) for k, s in f.selector.items()}
        self.owner.update({s: ("flag", c) for c, s in self.flag_selector.items()})
        if f.total_selector is not None:
            self.owner[f.total_selector] = ("total", -1)
        self.oracle: Oracle = Oracle(resolve_solver(solver), f.clauses)
        self.calls = 0
        self._consistent: bool | None = None

    def close(self) -> None:
        self.oracle.close()

    def __enter__(self) -> "Explainer":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def selectors(self) -> list[int]:
        return list(self.owner)

    def _unsat(self, selectors: Sequence[int], query: Sequence[int]) -> bool:
        check_deadline()
        self.calls += 1
        return not self.oracle.solve([*selectors, *query])

    def _minimal(self, query: Sequence[int], cell: int | None) -> list[int]:
        """A minimal subset of the selectors that is unsatisfiable with ``query``."""
        core = set(self.oracle.core()) & set(self.owner)
        # Try dropping the far constraints (and the total) first, so the near ones remain.
        order = sorted(core, key=lambda s: self._distance(s, cell), reverse=True)
        kept = set(core)
        for s in order:
            if s not in kept:
                continue
            trial = kept - {s}
            if self._unsat(sorted(trial), query):
                kept = trial & set(self.oracle.core()) if self.oracle.core() else trial
        return sorted(kept)

    def _distance(self, selector: int, cell: int | None) -> float:
        kind, what = self.owner[selector]
        if kind == "total":
            return float("inf")
        where = self.system.clues[what].cell if kind == "clue" else what
        board = self.board
        if cell is None or board.cols is None:
            return float(where)
        (r1, c1), (r2, c2) = divmod(where, board.cols), divmod(cell, board.cols)
        return float(max(abs(r1 - r2), abs(c1 - c2)))

    def _smallest(self, found: list[int], query: Sequence[int], cell: int | None) -> tuple[list[int], bool]:
        """A smallest unsatisfiable subset, and whether it is proven smallest.

        Every set of fewer constraints than ``found`` that could be a reason is tried, smallest
        first, when they number at most :data:`SMALLEST_UP_TO` (else ``found`` is returned,
        claimed only minimal). The sets tried are, soundly:

        * without the total: the subsets of one component's numbers and flags (the cell's
          component, or any component for an inconsistent board). A smallest reason without
          the total shares variables along a chain from the cell: a part sharing none with the
          rest would be unsatisfiable alone, and the board without the query is consistent
          (for an inconsistent board, that part alone is a smaller contradiction);
        * with the total: the total and any of the other constraints, numbers and flags of
          every component and flags next to no number alike (the total couples them all);
          none when no set that small can make the total bind (:meth:`_total_adds_nothing`).
        """
        pools = self._pools(cell)
        others = [s for s in self.selectors if s != self.formula.total_selector]
        total = self.formula.total_selector
        sizes = range(1, len(found))
        if total is not None and self._total_adds_nothing(others, len(found) - 2):
            total = None
        cost = sum(comb(len(pool), k) for k in sizes for pool in pools)
        if total is not None:
            cost += sum(comb(len(others), k - 1) for k in sizes)
        if cost > SMALLEST_UP_TO or (total is not None and self.board.hidden_count > SMALLEST_CELLS):
            return found, False
        # The search only sharpens an answer already found: it gets half the time left, and
        # when that runs out the minimal set stands (a time-out of the whole query, or a
        # cancellation, still goes through).
        left = time_left()
        try:
            with time_limit(None if left is None else max(left / 2, 1e-3), "forced"):
                for size in sizes:
                    for pool in pools:
                        for subset in combinations(pool, size):
                            if self._unsat(list(subset), query):
                                return sorted(subset), True
                    if total is not None:
                        for rest in combinations(others, size - 1):
                            if self._unsat([*rest, total], query):
                                return sorted([*rest, total]), True
        except QueryTimeout:
            outer = current_deadline()
            if left is None or (outer is not None and outer.expired()):
                raise
            return found, False
        return found, True

    def _total_adds_nothing(self, others: Sequence[int], most: int) -> bool:
        """Whether the total mine count can be left out of the smallest-set search: true when
        no set of at most ``most`` other constraints can make it bind.

        The total says exactly ``T`` of the ``H`` cells are mines. Take constraints ``R``
        whose cells number ``n`` (a number's hidden neighbours, a flag's own cell): any
        placement of ``m <= n`` mines on them meeting ``R`` leaves ``T - m`` mines for the
        other ``H - n`` cells. When ``n + 1 <= T <= H - n - 1`` that is always possible
        with any one of those other cells either mine or safe, so ``R`` with the total forces
        a cell exactly when ``R`` alone does: the sets with the total (the slow solver
        calls, each a search for a whole layout) need no trying. ``n`` is bounded by the
        ``most`` largest constraints."""
        f = self.formula
        if f.remaining is None or f.low != f.high:
            return False
        system = self.system

        def cells(selector: int) -> int:
            kind, what = self.owner[selector]
            if kind == "flag":
                return 1
            return sum(len(system.boxes[b].cells) for b in system.clues[what].boxes)

        n = sum(sorted((cells(s) for s in others), reverse=True)[:max(most, 0)])
        return n + 1 <= f.low <= len(f.frontier) - n - 1

    def _pools(self, cell: int | None) -> list[list[int]]:
        """The selectors (numbers and flags, not the total) of each component a reason without
        the total can lie in: the cell's (none when it is next to no number), or every
        component when explaining an inconsistent board."""
        system = self.system
        comp_of_cell: dict[int, int] = {}
        for i, comp in enumerate(system.components):
            for b in comp.boxes:
                for c in system.boxes[b].cells:
                    comp_of_cell[c] = i
        if cell is None:
            comps = list(range(len(system.components)))
        else:
            comps = [comp_of_cell[cell]] if cell in comp_of_cell else []
        pools = []
        for i in comps:
            pool = [self.formula.selector[k] for k in system.components[i].clues]
            pool += [s for c, s in self.flag_selector.items() if comp_of_cell.get(c) == i]
            pools.append(pool)
        return pools

    def _explanation(self, cell: int | None, status: str, selectors: list[int],
                     smallest: bool) -> Explanation:
        board = self.board
        clues = sorted(self.system.clues[w].cell for k, w in (self.owner[s] for s in selectors) if k == "clue")
        flags = sorted(w for k, w in (self.owner[s] for s in selectors) if k == "flag")
        uses_total = any(self.owner[s][0] == "total" for s in selectors)
        return Explanation(board, None if cell is None else board.cell(cell), status,
                           tuple(board.cell(c) for c in clues), tuple(board.cell(c) for c in flags),
                           uses_total, smallest, None, {"solver_calls": self.calls})

    def consistent(self) -> bool:
        if self._consistent is None:
            self._consistent = self.system.contradiction_clue is None and \
                not self._unsat(self.selectors, [])
        return self._consistent

    def inconsistency(self) -> Explanation:
        """A minimal set of numbers, flags (and the total) that contradict each other; status
        ``"unknown"`` with no reasons when the board is consistent."""
        if self.consistent():
            return Explanation(self.board, None, "unknown")
        lone = self.system.contradiction_clue
        if lone is not None:
            # A number with no hidden neighbour left that is not met: it contradicts itself.
            return Explanation(self.board, None, "inconsistent", (self.board.cell(lone),),
                               smallest=True)
        self._unsat(self.selectors, [])
        found = self._minimal([], None)
        found, smallest = self._smallest(found, [], None)
        return self._explanation(None, "inconsistent", found, smallest)

    def explain(self, cell: Cell, *, smallest: bool = True,
                known: str | None = None) -> Explanation:
        """Why ``cell`` (a hidden cell) is certainly safe or a mine, or that it is not forced
        (then without a probability: :func:`explain` adds it).

        ``smallest=False`` returns the first minimal set found, without searching for a
        smaller one (``smallest`` is then ``True`` only for a single reason). ``known``
        (``"safe"`` or ``"mine"``) is the answer an exact analysis of the consistent board
        already gave: the solver then only proves it, skipping the consistency check and
        the other answer (each a search for a whole layout, the slow calls on big boards
        with a total)."""
        board = self.board
        index = board.index(cell)
        if board.states[index] != HIDDEN:
            raise BoardError(f"cell {board.cell(index)} is not hidden: it {_state_words(board.states[index])}; "
                             f"only hidden cells can be explained")
        if known in ("safe", "mine"):
            self._consistent = True
        if not self.consistent():
            return self.inconsistency()
        var = self.formula.var[index]
        for status, literal in (("safe", var), ("mine", -var)):
            if known is not None and status != known:
                continue
            if self._unsat(self.selectors, [literal]):
                found = self._minimal([literal], index)
                if smallest:
                    found, proven = self._smallest(found, [literal], index)
                else:
                    proven = len(found) == 1
                return self._explanation(index, status, found, proven)
        return Explanation(board, board.cell(index), "unknown")


def explain(board: Board, cell: Cell | None = None, *, timeout: float | Deadline | None = None,
            solver: str = "glucose", smallest: bool = True) -> Explanation:
    """Why a hidden cell is certainly safe or certainly a mine: a minimal set of numbers.

    Parameters
    ----------
    board
        The position.
    cell
        A hidden cell, ``(row, col)`` on grids or an ``int`` on graph boards. ``None`` explains
        an inconsistent board (status ``"unknown"`` for a consistent one).
    timeout
        Seconds (or a :class:`~minegraph.deadline.Deadline`) for the whole question.
    solver
        The SAT solver.
    smallest
        Search for a smallest set after the first minimal one (``False``: the quick answer,
        the first minimal set, with ``smallest`` ``True`` only when it is a single reason).

    Returns
    -------
    Explanation
        ``status`` ``"safe"`` or ``"mine"`` with the minimal ``clues`` (and ``flags``, and
        ``uses_total``) that force it; ``"unknown"`` with the cell's ``probability`` when it is
        not forced; ``"inconsistent"`` with a minimal contradicting set when the board has no
        completion.

    Raises
    ------
    BoardError
        when ``board`` is not a :class:`~minegraph.board.Board`, or for a cell outside the
        board or not hidden.
    EngineError
        for a ``timeout`` that is not a positive number of seconds, or an unknown solver
        (noticed when the question needs one).
    QueryTimeout
        when ``timeout`` expires.

    Notes
    -----
    Cost: a few SAT calls per number of the first core (deletion), plus at most
    :data:`SMALLEST_UP_TO` for the smallest-set search (skipped, and ``smallest`` left
    ``False``, when it would need more).

    Examples
    --------
    >>> from minegraph import Board
    >>> b = Board.from_text("#####\\n-121-")      # the 1-2-1 pattern
    >>> e = explain(b, (0, 1))
    >>> e.status, e.clues, e.uses_total
    ('mine', ((1, 2), (1, 3)), False)
    >>> explain(b, (0, 2)).clues
    ((1, 1), (1, 2), (1, 3))
    >>> print(explain(b, (0, 0)).text)
    (0, 0) is certainly safe: with a mine there, the numbers at (1, 1) and (1, 2) could not all be satisfied.
    """
    with time_limit(timeout, "explain"):
        known: str | None = None
        if cell is not None:
            from minegraph.analysis import analyze
            analysis = analyze(check_board(board, "explain"))
            unforced = _not_forced(board, cell, analysis)
            if unforced is not None:
                return unforced
            known = _forced(board, cell, analysis)
        with Explainer(board, solver) as explainer:
            if cell is None:
                return explainer.inconsistency()
            result = explainer.explain(cell, smallest=smallest, known=known)
        if result.status == "unknown" and result.cell is not None:
            from minegraph.analysis import analyze
            p = analyze(board).probabilities.get(result.cell)
            return Explanation(board, result.cell, "unknown", probability=p, stats=result.stats)
        return result


def _forced(board: Board, cell: Cell, analysis: "Analysis") -> str | None:
    """``"safe"`` or ``"mine"`` when the exact analysis of a consistent board proves ``cell``
    so (its probability 0 or 1), else ``None``."""
    try:
        index = board.index(cell)
    except BoardError:
        return None  # the Explainer says what is wrong
    if not analysis.consistent or board.states[index] != HIDDEN:
        return None
    p = analysis.probabilities.get(board.cell(index))
    return "safe" if p == 0 else "mine" if p == 1 else None


def _not_forced(board: Board, cell: Cell | None,
                analysis: "Analysis | None" = None) -> Explanation | None:
    """The answer for a consistent board's cell that the exact analysis already shows is not
    forced (its probability strictly between 0 and 1), without building the SAT formula
    (which on big boards with a total is the slow part); ``None`` otherwise."""
    if cell is None:
        return None
    board = check_board(board, "explain")
    index = board.index(cell)
    if board.states[index] != HIDDEN:
        return None  # the Explainer says what is wrong
    if analysis is None:
        from minegraph.analysis import analyze
        analysis = analyze(board)
    p = analysis.probabilities.get(board.cell(index))
    if not analysis.consistent or p is None or p in (0, 1):
        return None
    return Explanation(board, board.cell(index), "unknown", probability=p)
