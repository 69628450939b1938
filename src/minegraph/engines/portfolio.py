"""The portfolio behind ``engine="auto"``: exact DP wherever it can finish, SAT to cut the rest.

Per component of the constraint system:

1. **Estimate the DP's work**: the min-fill clique tree of the component's boxes, and an upper
   bound on its table entries (:func:`~minegraph.engines.dp.estimate_work`). Within the *work
   budget* the DP runs; above it but within :data:`SLICE_FACTOR` times the budget the DP runs
   with a *time slice* (the bound is pessimistic on dense boards, where clues prune most of the
   table); beyond, or when the slice runs out, the component is *wide*.
2. **Cut wide components with SAT**: the SAT engine's backbone decides which of their cells are
   forced (with a total mine count, over the whole board, which the total couples). Fixing a
   backbone does not change the set of completions, so the forced cells are marked on the board,
   propagation runs again, the components split, and step 1 is tried again on what is left.
3. **Answer**: when every component was counted the answer is exact — counts and every
   probability, even if SAT had to cut first (a board whose every hidden cell is decided has
   exactly one completion). Otherwise consistency and the forced cells are exact and the
   probabilities that stay exact are kept: forced cells, and without a total the counted
   components and the floating cells; ``stats["probabilities"]`` says why the rest are not.

A reusable :class:`ComponentCache` (the analyser's) keeps each counted component by its
canonical key, so a position that differs from an earlier one in a few cells recomputes only
the components that changed.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace
from fractions import Fraction
from typing import Any, Sequence

from minegraph.board import Board
from minegraph.constraints import Component, ConstraintSystem, build_system
from minegraph.deadline import asking, current_deadline, time_limit
from minegraph.engines.base import QUESTIONS, EngineResult, Probability, SystemEngine
from minegraph.engines.combine import chooses_float
from minegraph.engines.native import kernel_part, run_kernel
from minegraph.engines.dp import (ComponentDP, CountedPart, combine_parts, estimate_work,
                                  forced_by_parts, local_graph)
from minegraph.engines.elimination import CliqueTree, clique_tree
from minegraph.errors import EngineError, QueryTimeout
from minegraph.kernel import max_component_cells
from minegraph.present import shown

__all__ = ["PortfolioEngine", "ComponentCache", "WORK_BUDGET", "SLICE_FACTOR", "DP_SLICE",
           "component_width"]

#: Estimated DP table entries below which a component is counted without a time slice.
WORK_BUDGET = 2_000_000.0

#: Components estimated up to this many times the budget get a DP time slice first.
SLICE_FACTOR = 1e6

#: Seconds of DP tried on a component whose estimate is above the budget.
DP_SLICE = 0.5

#: Rounds of "cut with SAT, split, count again" before giving up on counting.
MAX_ROUNDS = 8

#: Clique trees a :class:`ComponentCache` keeps (all are dropped when it is full).
MAX_TREES = 20_000


def component_width(system: ConstraintSystem, component: Component) -> int:
    """Width of the min-fill tree decomposition of a component's boxes, as the DP builds it.

    Parameters
    ----------
    system : ConstraintSystem
        The position's constraints.
    component : Component
        One of its components.

    Returns
    -------
    int
        The width.

    Examples
    --------
    >>> from minegraph import Board
    >>> system = build_system(Board.from_text("#1#1#1#"))
    >>> component_width(system, system.components[0])
    1
    """
    return clique_tree(local_graph(len(component.boxes), component.key[1])).width


class ComponentCache:
    """Counted components by canonical key (and whether a total applies), least recently used
    first out; also remembers components whose DP ran out of its slice.

    Parameters
    ----------
    max_cells
        Evict old entries once the cached components hold more cells than this.

    Raises
    ------
    EngineError
        when ``max_cells`` is not a whole number of cells >= 0.

    Examples
    --------
    >>> cache = ComponentCache()
    >>> from minegraph import Board
    >>> engine = PortfolioEngine(cache=cache)
    >>> _ = engine.run(Board.from_text("#1#---#1#"))   # two components, the same key
    >>> cache.hits, cache.misses
    (1, 1)
    """

    def __init__(self, max_cells: object = 2_000_000) -> None:
        if isinstance(max_cells, bool) or not isinstance(max_cells, int) or max_cells < 0:
            raise EngineError(f"max_cells: expected a whole number of cells >= 0, got "
                              f"{shown(max_cells)}")
        self.max_cells = max_cells
        self.parts: OrderedDict[tuple[Any, bool], CountedPart] = OrderedDict()
        self.wide: set[tuple[Any, bool]] = set()
        # Clique trees by the shape of the box graph alone (which boxes each clue covers):
        # components that differ only in their numbers or box sizes share one.
        self.trees: dict[tuple[int, tuple[tuple[int, ...], ...]], CliqueTree] = {}
        self.cells = 0
        self.hits = 0
        self.misses = 0

    def get(self, key: tuple[Any, bool]) -> CountedPart | None:
        part = self.parts.get(key)
        if part is None:
            self.misses += 1
            return None
        self.hits += 1
        self.parts.move_to_end(key)
        return part

    def put(self, key: tuple[Any, bool], part: CountedPart) -> None:
        if key in self.parts:
            return
        self.parts[key] = part
        self.cells += part.cells
        while self.cells > self.max_cells and len(self.parts) > 1:
            _, old = self.parts.popitem(last=False)
            self.cells -= old.cells

    @property
    def hit_rate(self) -> float:
        asked = self.hits + self.misses
        return self.hits / asked if asked else 0.0


class PortfolioEngine(SystemEngine):
    """DP within its estimated work, SAT to cut what is too wide, then DP again.

    Parameters
    ----------
    work_budget
        Estimated DP table entries a component may need without a time slice (``"auto:0"``
        in :func:`~minegraph.engines.get_engine` sends every component to SAT first).
    solver
        The SAT solver (see :mod:`minegraph.engines.sat`).
    dp_slice
        Seconds of DP tried on a component above the budget before SAT cuts it.
    cache
        A :class:`ComponentCache` to reuse counted components across calls.
    native
        Use the native kernel when it is built (the default): for the whole position, or for
        each component of at most 2,000 cells (its search up to 120 cells, its dynamic
        programme beyond). ``False`` runs the Python reference path alone.

    Raises
    ------
    EngineError
        for a work budget that is not a number >= 0, ``dp_slice`` not a number of seconds
        >= 0, ``cache`` not a :class:`ComponentCache`, ``native`` not a bool, or an unknown
        solver, naming the mistake.

    Examples
    --------
    >>> from minegraph import Board
    >>> r = PortfolioEngine().run(Board.from_text("#2#\\n#3#\\n###"))
    >>> r.count, r.stats["engine"] in ("kernel", "dp")          # the native kernel, or DP
    (18, True)
    >>> r = PortfolioEngine(work_budget=0).run(Board.from_text("#2#\\n#3#\\n###"))
    >>> r.count, r.stats["engine"], r.consistent
    (None, 'sat', True)
    """

    name = "auto"
    answers = QUESTIONS
    takes_option = True

    # The parameters are typed ``object`` and checked here, each mistake named (EngineError).
    def __init__(self, work_budget: object = WORK_BUDGET, *, solver: object = "cadical",
                 dp_slice: object = DP_SLICE, cache: object = None,
                 native: object = True) -> None:
        try:
            if isinstance(work_budget, bool):
                raise TypeError
            self.work_budget = float(work_budget)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise EngineError(f"the auto engine's option is a work budget (a number of DP table "
                              f"entries), got {shown(work_budget)}") from None
        if not self.work_budget >= 0:
            raise EngineError(f"the work budget must be a number >= 0, got {shown(work_budget)}")
        if isinstance(dp_slice, bool) or not isinstance(dp_slice, (int, float)) \
                or not 0 <= dp_slice < float("inf"):
            raise EngineError(f"dp_slice: expected seconds, a number >= 0, got {shown(dp_slice)}")
        if cache is not None and not isinstance(cache, ComponentCache):
            raise EngineError(f"cache: expected a ComponentCache or None, got "
                              f"{type(cache).__name__}")
        if not isinstance(native, bool):
            raise EngineError(f"native: expected True or False, got {type(native).__name__}")
        if not isinstance(solver, str):
            raise EngineError(f"solver: expected a SAT solver name such as 'cadical', got "
                              f"{type(solver).__name__}")
        from minegraph.engines.sat import resolve_solver
        self.solver = resolve_solver(solver)
        self.dp_slice = float(dp_slice)
        self.cache: ComponentCache | None = cache
        # The kernel only where the DP has its full budget: a smaller budget asks for SAT cuts.
        self.native = native and self.work_budget >= WORK_BUDGET

    # ------------------------------------------------------------------ one component
    def _count_component(self, component: Component, with_total: bool,
                         stats: dict[str, Any],
                         memo: dict[Any, CountedPart | None] | None = None
                         ) -> CountedPart | None:
        """The component counted, by the kernel's search or by DP within the budget (or its
        time slice), or ``None``; ``memo`` shares the answer between components of one board with the same shape
        (their canonical keys are equal) when there is no cache."""
        key = (component.key, with_total)
        part: CountedPart | None = None
        if self.cache is not None:
            part = self.cache.get(key)
            if part is not None:
                return part
            if key in self.cache.wide:
                return None
        elif memo is not None and key in memo:
            return memo[key]        # the same shape earlier on this board: counted once
        sizes, clues = component.key
        if self.native and component.cells <= max_component_cells():  # the kernel's limit
            # The kernel's search counts a small component faster than a clique tree can be
            # built, and its programme a wide one in 128 bits; past 128 bits or its budgets it
            # declines and the DP counts the component.
            part = kernel_part(sizes, clues, with_total=with_total)
            if part is not None:
                stats["enumerated"] = stats.get("enumerated", 0) + 1
        if part is None:
            part = self._dp(sizes, clues, with_total, stats)
        if self.cache is not None:
            if part is None:
                self.cache.wide.add(key)
            else:
                self.cache.put(key, part)
        elif memo is not None:
            memo[key] = part
        return part

    def _dp(self, sizes: Sequence[int], clues: Sequence[tuple[int, tuple[int, ...]]],
            with_total: bool, stats: dict[str, Any]) -> ComponentDP | None:
        """The component counted by DP over its clique tree, if the tree's estimated work fits
        the budget (or its time slice)."""
        tree = self._tree(sizes, clues)
        work = estimate_work(sizes, tree)
        stats["width"] = max(stats["width"], tree.width)
        stats["largest_estimate"] = max(stats["largest_estimate"], work)
        if work <= self.work_budget:
            return ComponentDP(sizes, clues, with_total=with_total, tree=tree)
        if self.work_budget > 0 and work <= self.work_budget * SLICE_FACTOR and self.dp_slice > 0:
            stats["dp_slices"] += 1
            return self._sliced(sizes, clues, with_total, tree)
        return None

    def _tree(self, sizes: Sequence[int], clues: Sequence[tuple[int, tuple[int, ...]]]
              ) -> CliqueTree:
        """The min-fill clique tree of a component's boxes (from the cache's trees when
        there is a cache)."""
        if self.cache is None:
            return clique_tree(local_graph(len(sizes), clues))
        shape = (len(sizes), tuple([boxes for _, boxes in clues]))
        trees = self.cache.trees
        tree = trees.get(shape)
        if tree is None:
            if len(trees) >= MAX_TREES:
                trees.clear()
            tree = trees[shape] = clique_tree(local_graph(len(sizes), clues))
        return tree

    def _sliced(self, sizes: Sequence[int], clues: Sequence[tuple[int, tuple[int, ...]]],
                with_total: bool, tree: Any) -> ComponentDP | None:
        outer = current_deadline()
        try:
            with time_limit(self.dp_slice, "count"):
                return ComponentDP(sizes, clues, with_total=with_total, tree=tree)
        except QueryTimeout:
            if outer is not None and outer.expired():
                raise
            return None

    # ------------------------------------------------------------------ the whole board
    def run(self, board: Board) -> EngineResult:
        """The native kernel's answer when it takes the board (:mod:`minegraph.kernel`),
        else the constraint system through :meth:`run_system`.

        The kernel counts exactly or declines, so it stands in for the DP only where the DP
        has its full budget: with a smaller work budget (which asks for SAT cuts), a cache
        (the kernel recounts a position faster than the cache finds its components) or
        floating-point arithmetic, the Python path runs, its components of at most 2,000 cells
        still counted by the kernel (its search, or its programme beyond 120 cells)."""
        if self.cache is None and self.native:
            result = run_kernel(board)
            if result is not None:
                return result
        return self.run_system(build_system(board))

    def run_system(self, system: ConstraintSystem) -> EngineResult:
        asking("consistency")
        board = system.board
        stats: dict[str, Any] = {"engine": "dp", "rounds": 0, "forced_by_sat": 0, "width": 0,
                                 "largest_estimate": 0.0, "dp_slices": 0,
                                 "work_budget": self.work_budget}
        if not system.consistent_so_far:
            return EngineResult.inconsistent(board.hidden, stats)
        with_total = system.remaining is not None
        memo: dict[Any, CountedPart | None] = {}
        fixed_safe: set[int] = set()
        fixed_mines: set[int] = set()
        current = system
        for round_ in range(MAX_ROUNDS):
            stats["rounds"] = round_ + 1
            parts = [self._count_component(c, with_total, stats, memo)
                     for c in current.components]
            wide = [c for c, p in zip(current.components, parts) if p is None]
            if not wide:
                asking("count")
                result = combine_parts(current, parts)  # type: ignore[arg-type]
                return self._exact(result, board, fixed_safe, fixed_mines, stats)
            asking("forced")
            # Clues alone first (cheap: the wide components only); what they force is forced
            # under the total too. The total couples every component, so it comes last.
            cut = self._cut(current, wide, stats, use_total=False)
            if cut is None:
                return EngineResult.inconsistent(board.hidden, stats)
            safe, mines = cut
            new_safe, new_mines = safe - current.safe, mines - current.mines
            if not new_safe and not new_mines and with_total:
                cut = self._cut(current, wide, stats, use_total=True)
                if cut is None:
                    return EngineResult.inconsistent(board.hidden, stats)
                safe, mines = cut
                new_safe, new_mines = safe - current.safe, mines - current.mines
            if not new_safe and not new_mines:
                return self._partial(current, parts, wide, board.hidden, fixed_safe | safe,
                                     fixed_mines | mines, stats)
            stats["forced_by_sat"] += len(new_safe) + len(new_mines)
            fixed_safe |= current.safe | safe
            fixed_mines |= current.mines | mines
            current = build_system(current.decided(fixed_safe, fixed_mines))
            if not current.consistent_so_far:  # pragma: no cover - a backbone keeps consistency
                return EngineResult.inconsistent(board.hidden, stats)
        parts = [self._count_component(c, with_total, stats, memo) for c in current.components]
        wide = [c for c, p in zip(current.components, parts) if p is None]
        cut = self._cut(current, wide, stats, use_total=with_total)
        if cut is None:  # pragma: no cover
            return EngineResult.inconsistent(board.hidden, stats)
        return self._partial(current, parts, wide, board.hidden, fixed_safe | cut[0],
                             fixed_mines | cut[1], stats)

    def forced(self, system: ConstraintSystem) -> tuple[frozenset[int], frozenset[int]] | None:
        """The cells forced safe and forced mined (as :meth:`run_system` finds them, with
        the total when the board has one), or ``None`` when the board has no completion.

        Cheaper than :meth:`run_system` when every component can be counted: no count per
        cell is built. The no-guess generator asks this many times per board.

        Examples
        --------
        >>> from minegraph import Board
        >>> from minegraph.constraints import build_system
        >>> PortfolioEngine().forced(build_system(Board.from_text("mines: 1\\n#1#-##")))
        (frozenset({4, 5}), frozenset())
        """
        if not system.consistent_so_far:
            return None
        stats: dict[str, Any] = {"width": 0, "largest_estimate": 0.0, "dp_slices": 0}
        memo: dict[Any, CountedPart | None] = {}
        with_total = system.remaining is not None
        parts = [self._count_component(c, with_total, stats, memo) for c in system.components]
        counted = [p for p in parts if p is not None]
        if len(counted) < len(parts) or chooses_float([p.total for p in counted],
                                                      len(system.floating), system.remaining):
            result = self.run_system(system)        # SAT cuts, or floating-point arithmetic
            return (result.safe, result.mines) if result.consistent else None
        return forced_by_parts(system, counted)

    def _cut(self, system: ConstraintSystem, wide: list[Component], stats: dict[str, Any],
             use_total: bool) -> tuple[set[int], set[int]] | None:
        """Forced cells by the SAT backbone: of the wide components' clues alone, or of the
        whole board under the total (which couples every component). ``None`` when the board
        is inconsistent."""
        from minegraph.engines.sat import ClueFormula, Oracle, backbone
        formula = ClueFormula(system, None if use_total else wide, with_total=use_total)
        stats["engine"] = "sat"
        stats["sat_cells"] = stats.get("sat_cells", 0) + len(formula.frontier)
        with Oracle(self.solver, formula.clauses) as oracle:
            try:
                if not oracle.solve(formula.assumptions):
                    return None
                first = formula.decode(oracle.model())
                safe, mines, _ = backbone(formula, oracle, first)
            finally:
                stats["solver_calls"] = stats.get("solver_calls", 0) + oracle.calls
        return safe | system.safe, mines | system.mines

    def _exact(self, result: EngineResult, board: Board, fixed_safe: set[int],
               fixed_mines: set[int], stats: dict[str, Any]) -> EngineResult:
        """The counted answer on the original board's hidden cells (cells fixed from a SAT
        backbone are forced: 0 or every completion)."""
        if not result.consistent:  # pragma: no cover - a backbone keeps consistency
            return EngineResult.inconsistent(board.hidden, stats)
        stats.update({k: v for k, v in result.stats.items() if k not in stats})
        if not fixed_safe and not fixed_mines:  # counted by DP alone: the answer as it is
            return replace(result, stats=stats)
        stats["engine"] = "dp+sat"
        if result.count is None:        # combined in floating point: probabilities, no count
            probabilities = dict(result.probabilities)
            probabilities.update(dict.fromkeys(fixed_safe, 0.0))
            probabilities.update(dict.fromkeys(fixed_mines, 1.0))
            inner_float = result

            def float_completer() -> frozenset[int]:
                return (inner_float.get_completion() or frozenset()) | frozenset(fixed_mines)

            return EngineResult(True, result.answered, None, None,
                                result.safe | frozenset(fixed_safe),
                                result.mines | frozenset(fixed_mines),
                                {c: probabilities[c] for c in board.hidden}, None, stats,
                                float_completer)
        count = result.count
        assert count is not None and result.mine_counts is not None
        counts = dict(result.mine_counts)
        counts.update(dict.fromkeys(fixed_safe, 0))
        counts.update(dict.fromkeys(fixed_mines, count))
        mine_counts = {c: counts[c] for c in board.hidden}
        inner = result

        def completer() -> frozenset[int]:
            return (inner.get_completion() or frozenset()) | frozenset(fixed_mines)

        return EngineResult.counted(count, mine_counts, None, stats, completer)

    def _partial(self, system: ConstraintSystem, parts: Sequence[CountedPart | None],
                 wide: list[Component], hidden: list[int], safe: set[int], mines: set[int],
                 stats: dict[str, Any]) -> EngineResult:
        """Consistency and forced cells exact, plus the probabilities that stay exact."""
        known: dict[int, Probability] = {}
        with_total = system.remaining is not None
        if not with_total:
            # Without a total the components are independent: counted ones stay exact.
            for component, part in zip(system.components, parts):
                if part is None:
                    continue
                total = part.total[0]
                for local, box_id in enumerate(component.boxes):
                    box = system.boxes[box_id]
                    p = Fraction(part.mined[local][0], total * box.size)
                    known.update(dict.fromkeys(box.cells, p))
                    if p == 0:
                        safe.update(box.cells)
                    elif p == 1:
                        mines.update(box.cells)
            known.update(dict.fromkeys(system.floating, Fraction(1, 2)))
        largest = max(c.cells for c in wide)
        stats["probabilities"] = (
            f"unavailable: {len(wide)} component(s) stayed too wide for dp after the SAT "
            f"backbone (the largest has {largest} hidden cells, estimated "
            f"{stats['largest_estimate']:.3g} table entries against a budget of "
            f"{self.work_budget:.3g}); consistency and forced cells are exact"
            + ("" if with_total else ", as are the probabilities of the other components"))
        board = system.board
        solver = self.solver

        def completer() -> frozenset[int]:
            from minegraph.engines.sat import SatEngine
            # The board with the backbone marked: its completions are the original's.
            found = SatEngine(solver).complete(board).completion or frozenset()
            return found | frozenset(mines)

        return EngineResult(True, frozenset({"consistency", "completion", "forced"}),
                            safe=frozenset(safe), mines=frozenset(mines), probabilities=known,
                            stats=stats, completer=completer)
