"""Minesweeper as SAT (the blog post of SEEDS.md §4), with PySAT's solvers and encoders.

The post's predicates become propositional variables: ``mined(c)`` for every hidden cell ``c``;
its ``safe(c)`` is the literal ``¬mined(c)`` (the axiom ``¬(mined ∧ safe)`` and "neighbours −
z safe" make them complementary on every cell next to a number, and a cell next to none is
constrained by nothing else). A number ``z`` with ``k`` known mines around it says "exactly
``z − k`` of my hidden neighbours are mined", one cardinality constraint from PySAT's encoders
(:class:`pysat.card.CardEnc`, sequential counter); the total mine count is one more
(k-modulo totalizer) over the cells next to numbers, with the cells next to none, which are
interchangeable, left out of the formula and turned into the slack of that constraint.

- Consistency and one completion: one solver call.
- Forced cells: the backbone, on one loaded solver: for each cell not yet seen both ways, ask
  for a model with the opposite value by an assumption; unsatisfiable means forced (and the
  literal is added as a unit clause), satisfiable gives a model that rules out more cells.
- Counting (``count=True``): every model of each component, by blocking clauses, combined
  exactly over components and the total; refused past :data:`MAX_MODELS` models of one
  component.

Solvers by name: ``cadical`` (CaDiCaL 1.9.5, the default), ``glucose`` (Glucose 4),
``minisat`` (MiniSat 2.2, the one the post names), or any PySAT solver name.

References
----------
*Minesweeper as SAT*, blog post with reader comments (Czech), see SEEDS.md §4.
Ignatiev, Morgado, Marques-Silva, *PySAT: a Python toolkit for prototyping with SAT oracles*,
SAT 2018.
"""

from __future__ import annotations

import threading
import time
from typing import Sequence

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver, SolverNames

from minegraph.board import HIDDEN, MINE, Board
from minegraph.engines.backtrack import combine_regions
from minegraph.engines.base import QUESTIONS, EngineResult, asking, check_deadline, time_left
from minegraph.errors import EngineError, LimitError, QueryTimeout

__all__ = ["SatEngine", "SatFormula", "SOLVERS", "MAX_MODELS", "MAX_TOTAL_CELLS"]

#: Short solver names and the PySAT solver behind each.
SOLVERS: dict[str, str] = {"cadical": "cadical195", "glucose": "glucose4", "minisat": "minisat22"}

#: Counting enumerates at most this many models of one component, then raises LimitError.
MAX_MODELS = 100_000

#: A binding total is encoded over at most this many cells (about 150 clauses per cell at
#: that size); beyond, :class:`LimitError`. A total that cannot bind costs nothing.
MAX_TOTAL_CELLS = 40_000

_CLUE_ENCODING = EncType.seqcounter
_TOTAL_ENCODING = EncType.kmtotalizer


def _resolve(name: str) -> str:
    if name in SOLVERS:
        return SOLVERS[name]
    if name in SolverNames.__dict__ and not name.startswith("_"):
        return name
    raise EngineError(f"unknown SAT solver {name!r}; expected one of {', '.join(SOLVERS)} "
                      f"(or a PySAT solver name such as cadical153, glucose3, maplesat)")


class SatFormula:
    """The CNF of a position: variables, clue constraints and the total.

    Attributes
    ----------
    frontier
        Hidden cells next to at least one number (each has a variable).
    floating
        The other hidden cells: interchangeable, outside the formula.
    clauses
        The clue constraints (empty when ``contradiction``).
    total, act
        The total's constraint, each clause guarded by the activation variable ``act``
        (``None`` without a total): a solver can be asked with or without it.
    contradiction
        A reason the board is inconsistent found while encoding (a number that cannot be
        met, a total out of range), or ``None``.
    remaining
        Mines the total leaves for the hidden cells (``None`` without a total).

    Examples
    --------
    >>> f = SatFormula(Board.from_text("mines: 1\\n#1#\\n##-"))
    >>> f.frontier, f.floating, f.remaining
    ([0, 2, 3, 4], [], 1)
    """

    def __init__(self, board: Board) -> None:
        states, nbrs = board.states, board.neighbors
        self.board = board
        self.pool = IDPool()
        self.contradiction: str | None = None
        self.clauses: list[list[int]] = []
        self.total: list[list[int]] = []
        self.act: int | None = None
        #: (hidden neighbours, need) of every number with hidden neighbours.
        self.clues: list[tuple[list[int], int]] = []
        next_to_number = set()
        for p, s in enumerate(states):
            if s < 0:
                continue
            around = [q for q in nbrs[p] if states[q] == HIDDEN]
            need = s - sum(1 for q in nbrs[p] if states[q] == MINE)
            if not 0 <= need <= len(around):
                self.contradiction = f"number at {board.label(p)} cannot be satisfied"
            elif around:
                self.clues.append((around, need))
                next_to_number.update(around)
        hidden = board.hidden
        self.frontier = [q for q in hidden if q in next_to_number]
        self.floating = [q for q in hidden if q not in next_to_number]
        self.var = {q: self.pool.id(q) for q in self.frontier}
        self.remaining = None if board.mines is None else board.mines - board.known_mines
        if self.remaining is not None and not 0 <= self.remaining <= len(hidden):
            self.contradiction = self.contradiction or (
                f"the total of {board.mines} mines does not fit the board")
        if self.contradiction is not None:
            return
        for around, need in self.clues:
            self.clauses.extend(self.cardinality([self.var[q] for q in around], need, need))
        if self.remaining is not None:
            binding = self.low > 0 or self.high < len(self.frontier)
            if binding and len(self.frontier) > MAX_TOTAL_CELLS:
                raise LimitError(f"the total mine count binds {len(self.frontier)} cells next to "
                                 f"numbers; the SAT engine encodes it over at most "
                                 f"{MAX_TOTAL_CELLS}; use engine dp")
            self.act = self.pool.id("total")
            self.total = [clause + [-self.act] for clause in self.cardinality(
                [self.var[q] for q in self.frontier], self.low, self.high, _TOTAL_ENCODING)]

    @property
    def low(self) -> int:
        """Fewest mines the frontier can hold under the total."""
        return max(0, (self.remaining or 0) - len(self.floating))

    @property
    def high(self) -> int:
        """Most mines the frontier can hold under the total."""
        return min(self.remaining if self.remaining is not None else len(self.frontier),
                   len(self.frontier))

    def cardinality(self, lits: list[int], low: int, high: int,
                    encoding: int = _CLUE_ENCODING) -> list[list[int]]:
        """Clauses for ``low <= sum(lits) <= high`` from PySAT's encoders."""
        n = len(lits)
        if low > high or low > n:
            return [[]]
        if n == 0:
            return []
        if low == high:
            return CardEnc.equals(lits, low, vpool=self.pool, encoding=encoding).clauses
        clauses = []
        if low > 0:
            clauses += CardEnc.atleast(lits, low, vpool=self.pool, encoding=encoding).clauses
        if high < n:
            clauses += CardEnc.atmost(lits, high, vpool=self.pool, encoding=encoding).clauses
        return clauses

    def decode(self, model: Sequence[int]) -> set[int]:
        """Frontier cells mined in a model."""
        return {q for q, v in self.var.items() if model[v - 1] > 0}

    def complete(self, mined: set[int]) -> frozenset[int]:
        """A full completion from the frontier mines of a model: the total's rest on the first
        floating cells."""
        rest = 0 if self.remaining is None else self.remaining - len(mined)
        return frozenset(mined) | frozenset(self.floating[:rest])


class _Oracle:
    """One loaded solver, asked under the query's time limit: solvers that can be interrupted
    get a timer that interrupts them at the deadline; CaDiCaL, which PySAT cannot interrupt,
    runs in conflict-budget slices sized to end near the deadline, with a clock check between.

    :meth:`query` asks first without the total (cheap; often its model already meets the
    total, and "unsatisfiable" then holds with the total too), and with it only if needed:
    exact global counts are hard for CDCL solvers on large coupled components."""

    def __init__(self, name: str, formula: SatFormula | None = None,
                 clauses: list[list[int]] | None = None) -> None:
        self.formula = formula
        loaded = clauses if formula is None else formula.clauses + formula.total
        self.solver = Solver(name=name, bootstrap_with=loaded or [])
        self.interruptible = not name.startswith("cadical")
        self.calls = 0

    def query(self, extra: Sequence[int] = ()) -> set[int] | None:
        """Frontier mines of a model of the whole formula under ``extra``, or ``None``."""
        f = self.formula
        assert f is not None
        if f.act is None:
            return f.decode(self.model()) if self.solve(extra) else None
        if not self.solve([-f.act, *extra]):
            return None
        found = f.decode(self.model())
        if f.low <= len(found) <= f.high:
            return found
        return f.decode(self.model()) if self.solve([f.act, *extra]) else None

    def solve(self, assumptions: Sequence[int] = ()) -> bool:
        self.calls += 1
        left = time_left()
        if left is None:
            return bool(self.solver.solve(assumptions=list(assumptions)))
        return self._interrupted(list(assumptions)) if self.interruptible else \
            self._sliced(list(assumptions))

    def _interrupted(self, assumptions: list[int]) -> bool:
        while True:
            check_deadline()
            timer = threading.Timer(max(time_left() or 0.0, 0.0), self.solver.interrupt)
            timer.start()
            try:
                result = self.solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
            finally:
                timer.cancel()
            if result is not None:
                return bool(result)
            self.solver.clear_interrupt()

    def _sliced(self, assumptions: list[int]) -> bool:
        budget = 1000
        while True:
            check_deadline()
            self.solver.conf_budget(budget)
            start = time.monotonic()
            result = self.solver.solve_limited(assumptions=assumptions)
            if result is not None:
                return bool(result)
            rate = budget / max(time.monotonic() - start, 1e-6)  # conflicts per second
            budget = max(1000, min(budget * 2, int(rate * max(time_left() or 0.0, 0.0))))

    def model(self) -> list[int]:
        return self.solver.get_model() or []

    def close(self) -> None:
        self.solver.delete()


class SatEngine:
    """The SAT engine: consistency, a completion and forced cells; counting on request.

    Parameters
    ----------
    solver
        ``"cadical"`` (default), ``"glucose"``, ``"minisat"`` or a PySAT solver name;
        ``"sat:minisat"`` in :func:`~minegraph.engines.get_engine`.
    count
        Also count completions by enumerating models per component (refused with a
        :class:`LimitError` past :data:`MAX_MODELS` models of one component).

    Cost: one solver call for consistency, at most one per hidden cell next to a number for
    the backbone (each NP-hard in general, usually milliseconds), plus the encoding, linear in
    the board except for the total's constraint (``n * k`` clauses for ``n`` cells next to
    numbers and ``k`` mines).

    Examples
    --------
    >>> from minegraph import Board
    >>> r = SatEngine().run(Board.from_text("#2#\\n#3#\\n###"))
    >>> r.consistent, sorted(r.safe), sorted(r.mines), r.count
    (True, [], [], None)
    >>> r = SatEngine("minisat").run(Board.from_text("mines: 2\\n##-#\\n11-#\\n--1#"))
    >>> sorted(r.safe)
    [3]
    >>> SatEngine("nope")
    Traceback (most recent call last):
    ...
    minegraph.errors.EngineError: unknown SAT solver 'nope'; expected one of cadical, glucose, minisat (or a PySAT solver name such as cadical153, glucose3, maplesat)
    """

    name = "sat"
    takes_option = True

    def __init__(self, solver: str = "cadical", *, count: bool = False,
                 max_models: int = MAX_MODELS) -> None:
        self.solver = _resolve(solver)
        self.count = count
        self.max_models = max_models
        self.answers = QUESTIONS if count else frozenset({"consistency", "completion", "forced"})

    def complete(self, board: Board) -> EngineResult:
        """Consistency and one completion: a single solver call."""
        formula = SatFormula(board)
        stats = self._stats(formula)
        if formula.contradiction is not None:
            return EngineResult(False, 0, stats=stats)
        oracle = _Oracle(self.solver, formula)
        try:
            found = oracle.query()
            if found is None:
                return EngineResult(False, 0, stats=stats)
            return EngineResult(True, completion=formula.complete(found), stats=stats)
        finally:
            stats["solver_calls"] = oracle.calls
            oracle.close()

    def run(self, board: Board) -> EngineResult:
        asking("consistency")
        formula = SatFormula(board)
        stats = self._stats(formula)
        hidden = board.hidden
        inconsistent = EngineResult(False, 0, {q: 0 for q in hidden} if self.count else None,
                                    None, frozenset(), frozenset(), stats)
        if formula.contradiction is not None:
            return inconsistent
        oracle = _Oracle(self.solver, formula)
        answered: dict[str, object] = {}
        try:
            first = oracle.query()
            if first is None:
                return inconsistent
            answered["consistency"] = True
            asking("forced")
            safe, mines = self._backbone(formula, oracle, first)
            answered["forced"] = True
        except QueryTimeout as exc:
            raise QueryTimeout(exc.question, exc.seconds, answered) from None
        finally:
            stats["solver_calls"] = oracle.calls
            oracle.close()
        count = mine_counts = None
        if self.count:
            asking("count")
            try:
                count, mine_counts = self._count(formula)
            except QueryTimeout as exc:
                raise QueryTimeout(exc.question, exc.seconds, answered) from None
        return EngineResult(True, count, mine_counts, formula.complete(first), frozenset(safe),
                            frozenset(mines), stats)

    def _stats(self, formula: SatFormula) -> dict[str, object]:
        return {"solver": self.solver, "variables": formula.pool.top, "clauses": len(formula.clauses) + len(formula.total),
                "frontier": len(formula.frontier), "floating": len(formula.floating)}

    def _backbone(self, formula: SatFormula, oracle: _Oracle,
                  first: set[int]) -> tuple[set[int], set[int]]:
        """Forced cells by assumptions on one loaded solver."""
        var = formula.var
        reference = {q: q in first for q in formula.frontier}
        open_cells = set(formula.frontier)
        sums = {len(first)}
        safe: set[int] = set()
        mines: set[int] = set()
        for q in formula.frontier:
            if q not in open_cells:
                continue
            lit = var[q] if reference[q] else -var[q]
            found = oracle.query([-lit])
            if found is not None:
                sums.add(len(found))
                open_cells.difference_update([u for u in open_cells if (u in found) != reference[u]])
            else:
                open_cells.discard(q)
                oracle.solver.add_clause([lit])
                (mines if reference[q] else safe).add(q)
        self._floating(formula, oracle, sums, safe, mines)
        return safe, mines

    def _floating(self, formula: SatFormula, oracle: _Oracle, sums: set[int], safe: set[int],
                  mines: set[int]) -> None:
        """Floating cells are forced only by the total: all safe iff the frontier always holds
        every remaining mine, all mined iff it always holds as few as the floating cells allow."""
        floating, rest = formula.floating, formula.remaining
        if not floating or rest is None:
            return
        lits = [formula.var[q] for q in formula.frontier]
        for as_mine, bound in ((False, rest), (True, rest - len(floating))):
            if (min(sums) < bound) if not as_mine else (max(sums) > bound):
                continue  # a model already shows the other value
            # Is there a model with the frontier below (above) the bound? Activated clauses.
            low, high = (formula.low, bound - 1) if not as_mine else (bound + 1, formula.high)
            if low <= high:
                act = formula.pool.id(("activate", as_mine))
                for clause in formula.cardinality(lits, low, high, _TOTAL_ENCODING):
                    oracle.solver.add_clause(clause + [-act])
                if oracle.query([act]) is not None:
                    continue
            (mines if as_mine else safe).update(floating)

    def _count(self, formula: SatFormula) -> tuple[int, dict[int, int]]:
        """Count models per component by blocking clauses, then combine exactly."""
        parent = {q: q for q in formula.frontier}

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for around, _ in formula.clues:
            root = find(around[0])
            for q in around[1:]:
                other = find(q)
                if other != root:
                    parent[other] = root
        groups: dict[int, list[int]] = {}
        for q in formula.frontier:
            groups.setdefault(find(q), []).append(q)
        clue_groups: dict[int, list[tuple[list[int], int]]] = {}
        for around, need in formula.clues:
            clue_groups.setdefault(find(around[0]), []).append((around, need))
        parts = []
        for root, cells in groups.items():
            parts.append(self._enumerate(cells, clue_groups.get(root, [])))
        return combine_regions(parts, formula.floating, formula.remaining)

    def _enumerate(self, cells: list[int], clues: list[tuple[list[int], int]]
                   ) -> tuple[list[int], dict[int, list[int]]]:
        pool = IDPool()
        var = {q: pool.id(q) for q in cells}
        clauses = []
        for around, need in clues:
            clauses += CardEnc.equals([var[q] for q in around], need, vpool=pool,
                                      encoding=_CLUE_ENCODING).clauses
        poly = [0] * (len(cells) + 1)
        mined = {q: [0] * (len(cells) + 1) for q in cells}
        oracle = _Oracle(self.solver, clauses=clauses)
        try:
            found = 0
            while oracle.solve():
                model = oracle.model()
                hits = [q for q in cells if model[var[q] - 1] > 0]
                poly[len(hits)] += 1
                for q in hits:
                    mined[q][len(hits)] += 1
                found += 1
                if found > self.max_models:
                    raise LimitError(f"counting by enumeration stops at {self.max_models} models "
                                     f"of one component ({len(cells)} cells); use engine dp")
                oracle.solver.add_clause([-var[q] if model[var[q] - 1] > 0 else var[q]
                                          for q in cells])
        finally:
            oracle.close()
        return poly, mined
