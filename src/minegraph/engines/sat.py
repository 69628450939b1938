"""Minesweeper as SAT (after the Czech blog post of that name), with PySAT's solvers and encoders.

The formula is built from the :class:`~minegraph.constraints.ConstraintSystem`: one variable
``mined(c)`` per cell of a box (the post's ``safe(c)`` is ``¬mined(c)``); each clue "exactly
``need`` mines among the cells of my boxes" is one cardinality constraint from PySAT's encoders
(:class:`pysat.card.CardEnc`, sequential counter), and every clause of clue ``k`` carries the
negation of a *selector* literal ``s_k``: the solver is asked under the assumptions
``s_1..s_m``, and an unsatisfiable answer's core names the clues responsible (what ``explain``
reads). The total mine count is one more selected constraint (k-modulo totalizer) over the cells
next to numbers, with the floating cells, which are interchangeable, left out and turned into
the slack of that constraint. Cells of one box are interchangeable too, so their variables are
ordered (``mined(c_i+1) → mined(c_i)``): one model stands for all placements of the same counts.

- Consistency and one completion: one solver call.
- Forced cells: the backbone, on one loaded solver, box by box (a box is certainly safe iff no
  model mines its first cell, certainly mined iff none clears its last); every model found rules
  out more boxes.
- Counting (``count=True``): every model of each component, by blocking clauses (one per box
  count vector, weighted by binomials), combined exactly; refused past :data:`MAX_MODELS`.

Solvers by name: ``cadical`` (CaDiCaL 1.9.5, the default), ``glucose`` (Glucose 4),
``minisat`` (MiniSat 2.2, the one the post names), or any PySAT solver name.

References
----------
*Minesweeper as SAT*, blog post with reader comments (Czech).
Ignatiev, Morgado, Marques-Silva, *PySAT: a Python toolkit for prototyping with SAT oracles*,
SAT 2018.
"""

from __future__ import annotations

import time
from math import comb
from typing import Iterable, Sequence

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver, SolverNames

from minegraph.constraints import Component, ConstraintSystem
from minegraph.deadline import Deadline, asking, check_deadline, current_deadline
from minegraph.engines.base import EngineResult, SystemEngine
from minegraph.errors import EngineError, LimitError, QueryCancelled, QueryTimeout

__all__ = ["SatEngine", "ClueFormula", "Oracle", "SOLVERS", "MAX_MODELS", "MAX_TOTAL_CELLS",
           "resolve_solver"]

#: Short solver names and the PySAT solver behind each.
SOLVERS: dict[str, str] = {"cadical": "cadical195", "glucose": "glucose4", "minisat": "minisat22"}

#: Counting enumerates at most this many models of one component, then raises LimitError.
MAX_MODELS = 100_000

#: A binding total is encoded over at most this many cells (about 150 clauses per cell at
#: that size); beyond, :class:`LimitError`. A total that cannot bind costs nothing.
MAX_TOTAL_CELLS = 40_000

_CLUE_ENCODING = EncType.seqcounter
#: Seconds PySAT's k-modulo totalizer takes per n**1.5 (n cells, any bound), measured from
#: 500 to 8,000 cells on the development machine (0.8-1.1e-6) and rounded up.
TOTAL_SECONDS_PER_CELL_1_5 = 1.2e-6
_TOTAL_ENCODING = EncType.kmtotalizer


def resolve_solver(name: str) -> str:
    """The PySAT solver name for a short name (``cadical``) or a PySAT name (``glucose3``).

    Raises
    ------
    EngineError
        for an unknown name.

    Parameters
    ----------
    name : str
        A short or PySAT solver name.

    Returns
    -------
    str
        The PySAT name.
    """
    if name in SOLVERS:
        return SOLVERS[name]
    if isinstance(name, str) and name in SolverNames.__dict__ and not name.startswith("_"):
        return name
    raise EngineError(f"unknown SAT solver {name!r}; expected one of {', '.join(SOLVERS)} "
                      f"(or a PySAT solver name such as cadical153, glucose3, maplesat)")


class ClueFormula:
    """The CNF of (some components of) a constraint system, one selector per clue.

    Parameters
    ----------
    system
        The constraint system.
    components
        The components to encode (default: all). The total mine count is encoded only when
        every component is (it couples them all).
    with_total
        Encode the total (when the board has one and every component is encoded).
    symmetric
        Order the variables inside each box (fewer models; off when single cells are asked
        about, as ``explain`` does).
    floating_vars
        Give the floating cells variables too, the total then being exact over all of them
        (so single floating cells can be asked about).

    Attributes
    ----------
    var
        Cell -> variable, for the cells of the encoded boxes.
    selector
        Clue index (into ``system.clues``) -> its selector variable.
    total_selector
        The total's selector (``None`` when the total is not encoded).
    low, high
        The bounds the total puts on the encoded cells' mines.

    Raises
    ------
    LimitError
        when the total binds more cells next to numbers than the encoding of the total allows.

    Examples
    --------
    >>> from minegraph import Board
    >>> from minegraph.constraints import build_system
    >>> f = ClueFormula(build_system(Board.from_text("mines: 1\\n#1#\\n##-")))
    >>> sorted(f.var), len(f.selector), (f.low, f.high)
    ([0, 2, 3, 4], 1, (1, 1))
    """

    def __init__(self, system: ConstraintSystem, components: Sequence[Component] | None = None,
                 *, with_total: bool = True, symmetric: bool = True,
                 floating_vars: bool = False) -> None:
        self.system = system
        self.components = tuple(system.components if components is None else components)
        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        self.var: dict[int, int] = {}
        self.selector: dict[int, int] = {}
        self.boxes = [b for comp in self.components for b in comp.boxes]
        for b in self.boxes:
            for c in system.boxes[b].cells:
                self.var[c] = self.pool.id(("cell", c))
        for b in self.boxes if symmetric else ():
            cells = system.boxes[b].cells
            for u, v in zip(cells, cells[1:]):   # symmetry: mines fill a box from its front
                self.clauses.append([self.var[u], -self.var[v]])
        deadline = current_deadline()
        for comp in self.components:
            if deadline is not None:
                deadline.check()
            for k in comp.clues:
                clue = system.clues[k]
                sel = self.selector[k] = self.pool.id(("clue", k))
                lits = [self.var[c] for b in clue.boxes for c in system.boxes[b].cells]
                for clause in self.cardinality(lits, clue.need, clue.need):
                    self.clauses.append(clause + [-sel])
        everything = len(self.components) == len(system.components)
        if floating_vars and everything:
            for c in system.floating:
                self.var[c] = self.pool.id(("cell", c))
        self.frontier = sorted(self.var)
        self.floating = len(system.floating) if everything and not floating_vars else 0
        self.total_selector: int | None = None
        rest = system.remaining
        self.remaining = rest if everything and with_total else None
        n = len(self.frontier)
        self.low = max(0, (rest or 0) - self.floating) if self.remaining is not None else 0
        self.high = min(rest, n) if self.remaining is not None and rest is not None else n
        if self.remaining is not None and (self.low > 0 or self.high < n):
            if n > MAX_TOTAL_CELLS:
                raise LimitError(f"the total mine count binds {n} cells next to numbers; the SAT "
                                 f"engine encodes it over at most {MAX_TOTAL_CELLS}; use engine dp")
            self.total_selector = self.pool.id("total")
            lits = [self.var[c] for c in self.frontier]
            if deadline is not None:
                # PySAT's encoder is one call that holds the interpreter (0.5 s for 4,720
                # cells): refuse it now if it cannot end before the deadline.
                calls = 1 if self.low == self.high or self.low == 0 or self.high == n else 2
                deadline.check(margin=calls * TOTAL_SECONDS_PER_CELL_1_5 * n ** 1.5)
            total = self.cardinality(lits, self.low, self.high, _TOTAL_ENCODING)
            for start in range(0, len(total), 100_000):
                if deadline is not None:
                    deadline.check()
                self.clauses.extend(clause + [-self.total_selector]
                                    for clause in total[start:start + 100_000])

    def cardinality(self, lits: list[int], low: int, high: int,
                    encoding: int = _CLUE_ENCODING) -> list[list[int]]:
        """Clauses for ``low <= sum(lits) <= high`` from PySAT's encoders."""
        return self._cardinality(lits, low, high, encoding)

    def _cardinality(self, lits: list[int], low: int, high: int,
                     encoding: int) -> list[list[int]]:
        n = len(lits)
        if low > high or low > n or high < 0:
            return [[]]
        if n == 0:
            return []
        if low == high:
            equal: list[list[int]] = CardEnc.equals(lits, low, vpool=self.pool,
                                                    encoding=encoding).clauses
            return equal
        clauses = []
        if low > 0:
            clauses += CardEnc.atleast(lits, low, vpool=self.pool, encoding=encoding).clauses
        if high < n:
            clauses += CardEnc.atmost(lits, high, vpool=self.pool, encoding=encoding).clauses
        return clauses

    @property
    def assumptions(self) -> list[int]:
        """Every selector: the whole formula."""
        sels = list(self.selector.values())
        if self.total_selector is not None:
            sels.append(self.total_selector)
        return sels

    def decode(self, model: Sequence[int]) -> set[int]:
        """Cells mined in a model."""
        return {c for c, v in self.var.items() if model[v - 1] > 0}


class Oracle:
    """One loaded solver, asked under the current deadline.

    Under a deadline every call runs in short conflict-budget slices with a look at the
    deadline between two (a slice is sized from the measured rate to end near the deadline,
    at most about 50 ms), so a query stops soon after its deadline passes or it is cancelled
    (:meth:`~minegraph.deadline.Deadline.cancel`, from any thread; the command line cancels
    on Ctrl-C). No thread is started and no signal handler is installed here. Without a
    deadline a call is one plain solve. Use as a context manager.

    Parameters
    ----------
    solver : str
        The PySAT solver's name.
    clauses : iterable of list of int
        The clauses loaded first.
    """

    #: Clauses loaded between two looks at the clock (loading takes about 0.1 s per 200 000).
    LOAD_CHUNK = 20_000

    def __init__(self, solver: str, clauses: Iterable[list[int]] = ()) -> None:
        self.solver = Solver(name=solver)
        self.calls = 0
        todo = clauses if isinstance(clauses, list) else list(clauses)
        try:
            for start in range(0, len(todo), self.LOAD_CHUNK):
                check_deadline()
                self.solver.append_formula(todo[start:start + self.LOAD_CHUNK])
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> "Oracle":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def add_clause(self, clause: list[int]) -> None:
        self.solver.add_clause(clause)

    def solve(self, assumptions: Sequence[int] = ()) -> bool:
        """Satisfiable under ``assumptions``? Raises ``QueryTimeout`` at the deadline and
        ``QueryCancelled`` once the query is cancelled."""
        self.calls += 1
        args = list(assumptions)
        deadline = current_deadline()
        try:
            if deadline is None:
                return bool(self.solver.solve(assumptions=args))
            return self._sliced(args, deadline)
        except (QueryTimeout, QueryCancelled):
            raise
        except BaseException:
            # The solver failed inside (or PySAT's own Ctrl-C handler, which it installs in
            # the main thread, jumped out of it): its memory may be inconsistent, and freeing
            # it has crashed the process. Leave it allocated.
            self._forget()
            raise

    #: Seconds to delete a big loaded CaDiCaL solver (13-16 ms measured on a 60x60 opening).
    TEARDOWN = 0.02

    def _sliced(self, assumptions: list[int], deadline: Deadline) -> bool:
        # A first slice of 1000 conflicts can take a quarter of a second on a big formula
        # (CaDiCaL's inprocessing runs early): start small and let the measured rate size
        # the rest.
        budget = 100
        # A slice of 10 conflicts was measured to take from 3 to 49 ms (work a conflict
        # budget does not bound), so no slice starts unless the longest one seen so far
        # (at most 50 ms) and the solver's deletion still fit before the deadline: the
        # query then ends a little early rather than late.
        longest = 0.0
        while True:
            deadline.check(margin=min(longest, 0.05) + self.TEARDOWN)
            self.solver.conf_budget(budget)
            start = time.monotonic()
            result = self.solver.solve_limited(assumptions=assumptions)
            if result is not None:
                return bool(result)
            took = time.monotonic() - start
            longest = max(longest, took)
            rate = budget / max(took, 1e-6)  # conflicts per second
            left = max(deadline.remaining(), 0.0)
            # Slices of at most a tenth of the time left (and 50 ms), down to 10 conflicts
            # (100 can take 30 ms), keep the limit tight.
            budget = max(10, min(budget * 2, int(rate * min(left / 10 + 0.005, 0.05))))

    def _forget(self) -> None:
        """Leave the solver allocated: after PySAT jumped out of it, its memory may be
        inconsistent, and freeing it has crashed the process. PySAT frees a solver when its
        handle (a capsule on the solver object) is set; clear the handles."""
        inner = getattr(self.solver, "solver", None)
        if inner is not None:
            for name, value in list(vars(inner).items()):
                if type(value).__name__ == "PyCapsule":
                    setattr(inner, name, None)
        self.solver.solver = None

    def model(self) -> list[int]:
        return self.solver.get_model() or []

    def core(self) -> list[int]:
        return list(self.solver.get_core() or [])

    def close(self) -> None:
        self.solver.delete()


def backbone(formula: ClueFormula, oracle: Oracle, first: set[int]) -> tuple[set[int], set[int], set[int]]:
    """Forced cells of the encoded boxes (and floating cells, by the total), box by box.

    Returns the safe cells, the mined cells, and the frontier mine totals seen in models.
    """
    system = formula.system
    assume = formula.assumptions
    base = [s for s in assume if s != formula.total_selector]
    can_mine: set[int] = set()     # boxes seen with a mine in their first cell
    can_clear: set[int] = set()    # boxes seen with their last cell clear
    sums = {len(first)}

    def note(mined: set[int]) -> None:
        for b in formula.boxes:
            cells = system.boxes[b].cells
            if cells[0] in mined:
                can_mine.add(b)
            if cells[-1] not in mined:
                can_clear.add(b)

    def query(extra: int) -> set[int] | None:
        # Without the total first (cheap; its model often meets the total anyway).
        if formula.total_selector is not None:
            if not oracle.solve([*base, extra]):
                return None
            found = formula.decode(oracle.model())
            if formula.low <= len(found) <= formula.high:
                return found
        if not oracle.solve([*assume, extra]):
            return None
        return formula.decode(oracle.model())

    note(first)
    safe: set[int] = set()
    mines: set[int] = set()
    for b in formula.boxes:
        cells = system.boxes[b].cells
        for as_mine in (True, False):
            if (b in can_mine) if as_mine else (b in can_clear):
                continue
            lit = formula.var[cells[0]] if as_mine else -formula.var[cells[-1]]
            found = query(lit)
            if found is not None:
                sums.add(len(found))
                note(found)
            else:
                oracle.add_clause([-lit])
                (safe if as_mine else mines).update(cells)
    _floating(formula, oracle, sums, safe, mines)
    return safe, mines, sums


def _floating(formula: ClueFormula, oracle: Oracle, sums: set[int], safe: set[int],
              mines: set[int]) -> None:
    """Floating cells are forced only by the total: all safe iff the frontier always holds
    every remaining mine, all mined iff it always holds as few as the floating cells allow."""
    system, rest = formula.system, formula.remaining
    floating = system.floating
    if not floating or rest is None:
        return
    lits = [formula.var[c] for c in formula.frontier]
    for as_mine, bound in ((False, rest), (True, rest - len(floating))):
        if (min(sums) < bound) if not as_mine else (max(sums) > bound):
            continue  # a model already shows the other value
        # Is there a model with the frontier below (above) the bound? Activated clauses.
        low, high = (formula.low, bound - 1) if not as_mine else (bound + 1, formula.high)
        if low <= high:
            act = formula.pool.id(("activate", as_mine))
            for clause in formula.cardinality(lits, low, high, _TOTAL_ENCODING):
                oracle.add_clause(clause + [-act])
            if oracle.solve([*formula.assumptions, act]):
                continue
        (mines if as_mine else safe).update(floating)


class EnumeratedPart:
    """One component counted by model enumeration: the same figures as
    :class:`~minegraph.engines.dp.ComponentDP` (``total``, ``mined``), and a completion."""

    def __init__(self, sizes: Sequence[int], vectors: list[tuple[int, ...]], *,
                 with_total: bool) -> None:
        self.sizes = list(sizes)
        self.cells = sum(sizes)
        self.width = 0
        self.bits = 1 if with_total else 0
        length = self.cells + 1 if with_total else 1
        self.total = [0] * length
        self.mined = [[0] * length for _ in sizes]
        self.vectors = vectors
        for vec in vectors:
            weight = 1
            for s, k in zip(sizes, vec):
                weight *= comb(s, k)
            t = sum(vec) if with_total else 0
            self.total[t] += weight
            for b, k in enumerate(vec):
                self.mined[b][t] += weight * k
        while len(self.total) > 1 and self.total[-1] == 0:
            self.total.pop()

    def completion(self, target: int) -> list[int]:
        """Mines per local box in one solution with ``target`` mines (any without a total)."""
        return list(next(v for v in self.vectors if not self.bits or sum(v) == target))


class SatEngine(SystemEngine):
    """The SAT engine: consistency, a completion and forced cells; counting on request.

    Parameters
    ----------
    solver
        ``"cadical"`` (default), ``"glucose"``, ``"minisat"`` or a PySAT solver name;
        ``"sat:minisat"`` in :func:`~minegraph.engines.get_engine`.
    count
        Also count completions by enumerating models per component (refused with a
        :class:`LimitError` past :data:`MAX_MODELS` models of one component).
    max_models
        The counting limit per component.

    Raises
    ------
    EngineError
        for an unknown solver.

    Notes
    -----
    Cost: one solver call for consistency, at most two per box for the backbone (each NP-hard
    in general, usually milliseconds), plus the encoding, linear in the board except for the
    total's constraint (``n * k`` clauses for ``n`` cells next to numbers and ``k`` mines).

    Examples
    --------
    >>> from minegraph import Board
    >>> r = SatEngine().run(Board.from_text("#2#\\n#3#\\n###"))
    >>> r.consistent, sorted(r.safe), sorted(r.mines), r.count
    (True, [], [], None)
    >>> r = SatEngine("minisat").run(Board.from_text("mines: 2\\n##-#\\n11-#\\n--1#"))
    >>> sorted(r.safe)
    [3]
    >>> SatEngine(count=True).run(Board.from_text("#2#\\n#3#\\n###")).count
    18
    >>> SatEngine("nope")
    Traceback (most recent call last):
    ...
    minegraph.errors.EngineError: unknown SAT solver 'nope'; expected one of cadical, glucose, minisat (or a PySAT solver name such as cadical153, glucose3, maplesat)
    """

    name = "sat"
    takes_option = True

    def __init__(self, solver: str = "cadical", *, count: bool = False,
                 max_models: int = MAX_MODELS) -> None:
        self.solver = resolve_solver(solver)
        self.count = count
        self.max_models = max_models
        base = frozenset({"consistency", "completion", "forced"})
        self.answers = base | {"count", "probabilities"} if count else base

    def complete(self, board: object) -> EngineResult:
        """Consistency and one completion: a single solver call."""
        from minegraph.constraints import build_system
        system = build_system(board)  # type: ignore[arg-type]
        if not system.consistent_so_far:
            return EngineResult.inconsistent(system.board.hidden)
        formula = ClueFormula(system)
        stats = self._stats(formula)
        with Oracle(self.solver, formula.clauses) as oracle:
            try:
                ok = oracle.solve(formula.assumptions)
                found = formula.decode(oracle.model()) if ok else None
            finally:
                stats["solver_calls"] = oracle.calls
        if found is None:
            return EngineResult.inconsistent(system.board.hidden, stats)
        return EngineResult(True, frozenset({"consistency", "completion"}),
                            completion=_completion(formula, found), stats=stats)

    def run_system(self, system: ConstraintSystem) -> EngineResult:
        asking("consistency")
        hidden = system.board.hidden
        if not system.consistent_so_far:
            return EngineResult.inconsistent(hidden)
        formula = ClueFormula(system)
        stats = self._stats(formula)
        answered: dict[str, object] = {}
        with Oracle(self.solver, formula.clauses) as oracle:
            try:
                if not oracle.solve(formula.assumptions):
                    return EngineResult.inconsistent(hidden, stats)
                first = formula.decode(oracle.model())
                answered["consistency"] = True
                asking("forced")
                safe, mines, _ = backbone(formula, oracle, first)
                answered["forced"] = True
            except QueryTimeout as exc:
                raise QueryTimeout(exc.question, exc.seconds, answered) from None
            finally:
                stats["solver_calls"] = oracle.calls
        safe |= system.safe
        mines |= system.mines
        result = EngineResult(True, self.answers - {"count", "probabilities"}, safe=frozenset(safe),
                              mines=frozenset(mines), completion=_completion(formula, first),
                              stats=stats)
        if self.count:
            asking("count")
            try:
                counted = self._count(system)
            except QueryTimeout as exc:
                raise QueryTimeout(exc.question, exc.seconds, answered) from None
            counted.completion = result.completion
            counted.stats.update(stats)
            return counted
        return result

    def _stats(self, formula: ClueFormula) -> dict[str, object]:
        return {"solver": self.solver, "variables": formula.pool.top, "clauses": len(formula.clauses),
                "frontier": len(formula.frontier), "floating": len(formula.system.floating)}

    def _count(self, system: ConstraintSystem) -> EngineResult:
        """Count models per component by blocking clauses, then combine exactly."""
        from minegraph.engines.dp import combine_parts
        with_total = system.remaining is not None
        parts = [EnumeratedPart(comp.key[0], self._enumerate(system, comp), with_total=with_total)
                 for comp in system.components]
        return combine_parts(system, parts)

    def _enumerate(self, system: ConstraintSystem, component: Component) -> list[tuple[int, ...]]:
        """Every box-count vector of a component's solutions."""
        formula = ClueFormula(system, [component])
        cells = [system.boxes[b].cells for b in component.boxes]
        vectors: list[tuple[int, ...]] = []
        with Oracle(self.solver, formula.clauses) as oracle:
            while oracle.solve(formula.assumptions):
                model = oracle.model()
                mined = formula.decode(model)
                vectors.append(tuple(sum(1 for c in cs if c in mined) for cs in cells))
                if len(vectors) > self.max_models:
                    raise LimitError(f"counting by enumeration stops at {self.max_models} models "
                                     f"of one component ({component.cells} cells); use engine dp")
                oracle.add_clause([-formula.var[c] if c in mined else formula.var[c]
                                   for cs in cells for c in cs])
                check_deadline()
        return vectors


def _completion(formula: ClueFormula, mined: set[int]) -> frozenset[int]:
    """A full completion from a model's mines: propagation's mines, and the rest of the total
    on the first floating cells."""
    system = formula.system
    rest = 0 if system.remaining is None else system.remaining - len(mined)
    return frozenset(mined) | system.mines | frozenset(system.floating[:max(rest, 0)])
