"""The constraint model of a position, shared by every engine but the brute-force oracle.

Each number ``p`` with hidden neighbours is one equation, a :class:`Clue`: its number minus
the known mines around it (``need``) equals the mines among its hidden neighbours. Hidden
cells next to exactly the same clues are interchangeable, so they are grouped into a
:class:`Box` (a box of ``s`` cells holding ``k`` mines stands for ``C(s, k)`` placements), and
each clue is written over its boxes. Boxes linked through shared clues form a
:class:`Component`; components interact only through the total mine count. Hidden cells next
to no number are *floating*.

Before grouping, propagation (optional) decides cells by the two trivial rules until nothing
changes: a clue whose need is 0 makes its other hidden cells safe; a clue whose need equals its
undecided cells makes them all mines. Every decision is recorded in :attr:`ConstraintSystem.trace`
with the clue that made it.

Every component carries a canonical :attr:`Component.key`: its structure (box sizes, and each
clue's need and boxes) in local numbering. Boxes are numbered by their first cell and clues by
their number's cell, so a component keeps its key wherever the same structure lies (on a grid,
under any translation), and two components with equal keys have identical local structure:
results computed for one are valid for the other by local index (the reusable analyser's
cache relies on this).

Examples
--------
>>> from minegraph import Board
>>> system = build_system(Board.from_text("#1#1#"))
>>> [b.cells for b in system.boxes], [(c.cell, c.need, c.boxes) for c in system.clues]
([(0,), (2,), (4,)], [(1, 1, (0, 1)), (3, 1, (1, 2))])
>>> system.components[0].key
((1, 1, 1), ((1, (0, 1)), (1, (1, 2))))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import compress
from operator import ne
from typing import Iterable

from minegraph.board import BLANK, HIDDEN, MINE, Board
from minegraph.deadline import check_deadline

__all__ = ["Box", "Clue", "Component", "ComponentKey", "Step", "ConstraintSystem",
           "IncidenceMatrix", "UnionFind", "build_system", "update_system"]

#: A component's structure in local numbering: box sizes, then ``(need, boxes)`` per clue.
ComponentKey = tuple[tuple[int, ...], tuple[tuple[int, tuple[int, ...]], ...]]


@dataclass(frozen=True, slots=True)
class Box:
    """Interchangeable hidden cells: all adjacent to exactly the clues in ``clues``.

    Attributes
    ----------
    cells
        The hidden cells (indices), in increasing order.
    clues
        The clues around them (indices into :attr:`ConstraintSystem.clues`).
    """

    cells: tuple[int, ...]
    clues: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.cells)


@dataclass(frozen=True, slots=True)
class Clue:
    """One equation: the boxes ``boxes`` around the number on ``cell`` hold ``need`` mines.

    Attributes
    ----------
    cell
        The cell of the number.
    need
        The mines still to place around it: its number minus the known mines around it.
    boxes
        The boxes of its undecided hidden neighbours (indices into
        :attr:`ConstraintSystem.boxes`).
    """

    cell: int
    need: int
    boxes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Component:
    """Boxes and clues linked by shared equations (indices into the system's tuples), with
    the canonical structural ``key``.

    Attributes
    ----------
    boxes
        The component's boxes (indices into :attr:`ConstraintSystem.boxes`), increasing.
    clues
        Its clues (indices into :attr:`ConstraintSystem.clues`), increasing.
    key
        Its structure in local numbering (see the module docstring): equal keys, identical
        local structure.
    """

    boxes: tuple[int, ...]
    clues: tuple[int, ...]
    key: ComponentKey

    @property
    def cells(self) -> int:
        """Number of hidden cells in the component."""
        return sum(self.key[0])


@dataclass(frozen=True, slots=True)
class Step:
    """One propagation decision: hidden ``cell`` is a mine (or safe) because of the number on
    ``clue`` (a cell index).

    Attributes
    ----------
    cell
        The hidden cell decided.
    mine
        Whether it is a mine (``False``: safe).
    clue
        The cell of the number that decided it.
    """

    cell: int
    mine: bool
    clue: int


@dataclass(frozen=True, slots=True)
class IncidenceMatrix:
    """The clue × cell incidence of a system, exact and sparse, for linear algebra.

    Row ``i`` is the clue on cell ``clue_cells[i]``: the cells ``columns[j]`` for ``j`` in
    ``rows[i]`` (increasing) hold ``rhs[i]`` mines. Every undecided hidden cell is a column,
    also one next to no clue (its column is empty).

    Attributes
    ----------
    rows
        For each clue, the columns (indices into ``columns``) of its undecided hidden cells.
    rhs
        For each clue, the mines among them (its need).
    columns
        The undecided hidden cells, in increasing order.
    clue_cells
        For each clue, the cell of its number.
    """

    rows: tuple[tuple[int, ...], ...]
    rhs: tuple[int, ...]
    columns: tuple[int, ...]
    clue_cells: tuple[int, ...]


class UnionFind:
    """Disjoint sets over ``0..n-1`` with path halving (the one union-find of the package).

    Parameters
    ----------
    n
        The number of elements, each in a set of its own at first.

    Examples
    --------
    >>> u = UnionFind(4); u.union(0, 2); u.union(3, 2)
    >>> u.find(3) == u.find(0), u.find(1) == u.find(0)
    (True, False)
    """

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra

    def groups(self) -> dict[int, list[int]]:
        """Members of each set by root, in increasing order of members."""
        out: dict[int, list[int]] = {}
        for x in range(len(self.parent)):
            out.setdefault(self.find(x), []).append(x)
        return out


@dataclass(frozen=True, slots=True)
class ConstraintSystem:
    """Everything an engine needs about a position, after optional propagation.

    Attributes
    ----------
    board
        The position.
    boxes, clues, components
        The model (see the module docstring); components in order of their first box.
    floating
        Undecided hidden cells next to no active clue.
    hidden
        Every hidden cell of the board, in increasing order.
    safe, mines
        Hidden cells decided by propagation.
    trace
        The propagation decisions in order, each naming the clue that made it.
    remaining
        Mines still to place in boxes and floating cells (``None`` without a total).
    contradiction
        Why propagation (or a clue alone) proves the board inconsistent, else ``None``.
    contradiction_clue
        The number cell whose equation failed, when one did.
    propagated
        Whether propagation ran.
    reasoning
        Propagation's state, kept so that :func:`update_system` can start from it (``None``
        without propagation or after a contradiction); not compared, not shown.
    """

    board: Board
    boxes: tuple[Box, ...]
    clues: tuple[Clue, ...]
    components: tuple[Component, ...]
    floating: tuple[int, ...]
    hidden: tuple[int, ...]
    safe: frozenset[int]
    mines: frozenset[int]
    trace: tuple[Step, ...]
    remaining: int | None
    contradiction: str | None
    contradiction_clue: int | None = None
    propagated: bool = True
    #: What propagation reached, kept so that :func:`update_system` can start from it.
    reasoning: "_Reasoning | None" = field(default=None, compare=False, repr=False)

    @property
    def consistent_so_far(self) -> bool:
        """False when propagation or the total alone already proves the board inconsistent."""
        if self.contradiction is not None:
            return False
        if self.remaining is None:
            return True
        return 0 <= self.remaining <= sum(b.size for b in self.boxes) + len(self.floating)

    @property
    def frontier(self) -> list[int]:
        """Undecided hidden cells next to an active clue, in increasing order."""
        return sorted(c for box in self.boxes for c in box.cells)

    def clue_cells(self, clue: Clue) -> tuple[int, ...]:
        """The undecided hidden cells of ``clue``'s equation, in increasing order.

        Examples
        --------
        >>> from minegraph import Board
        >>> system = build_system(Board.from_text("##\\n1#"), propagate=False)
        >>> system.clue_cells(system.clues[0])
        (0, 1, 3)
        """
        return tuple(sorted([c for b in clue.boxes for c in self.boxes[b].cells]))

    def incidence(self) -> IncidenceMatrix:
        """The clue × cell incidence matrix over the undecided hidden cells.

        Examples
        --------
        >>> from minegraph import Board
        >>> m = build_system(Board.from_text("#1#1#"), propagate=False).incidence()
        >>> m.rows, m.rhs, m.columns, m.clue_cells
        (((0, 1), (1, 2)), (1, 1), (0, 2, 4), (1, 3))
        >>> build_system(Board.from_text("1#\\n#M"), propagate=False).incidence().rows
        ((0, 1),)
        """
        columns = tuple(sorted([*(c for b in self.boxes for c in b.cells), *self.floating]))
        where = {c: j for j, c in enumerate(columns)}
        rows = tuple(tuple(where[c] for c in self.clue_cells(clue)) for clue in self.clues)
        return IncidenceMatrix(rows, tuple(c.need for c in self.clues), columns,
                               tuple(c.cell for c in self.clues))

    def decided(self, safe: Iterable[int], mines: Iterable[int]) -> Board:
        """The board with the given hidden cells decided: mines marked, safe cells uncovered
        without a number. Its completions are exactly this board's completions in which those
        cells take those values (so a backbone can be fixed without changing the count)."""
        states = list(self.board.states)
        for c in safe:
            states[c] = BLANK
        for c in mines:
            states[c] = MINE
        return self.board.with_states(states)


def _around(states: tuple[int, ...], around: tuple[int, ...], number: int,
            decided: dict[int, bool]) -> tuple[int, int, int]:
    """A number's need (its number minus the mines around it, flagged or decided), its
    undecided hidden neighbours, and all its hidden neighbours."""
    need = number
    hidden = left = 0
    for q in around:
        t = states[q]
        if t == HIDDEN:
            hidden += 1
            d = decided.get(q)
            if d is None:
                left += 1
            elif d:
                need -= 1
        elif t == MINE:
            need -= 1
    return need, left, hidden


@dataclass
class _Reasoning:
    """Propagation's state on one board, in lists indexed by cell: the numbers with hidden
    neighbours (``opened``, increasing), each one's need and count of undecided hidden
    neighbours after the decisions, and the decisions with their trace.

    Lists rather than dictionaries and no per-number neighbour lists: a number's hidden cells
    and a hidden cell's numbers are read from the board's neighbour lists (sorted, so the
    order, and the trace, is the same as with explicit lists), which saves allocating hundreds
    of small lists per position."""

    states: tuple[int, ...]
    opened: list[int]
    need: list[int]
    unknown: list[int]
    decided: dict[int, bool]
    trace: list[Step]


def _open_numbers(board: Board) -> tuple[_Reasoning, int | None]:
    """Every number with hidden neighbours, before any decision. Numbers without hidden
    neighbours are checked here and then dropped; the first that fails is returned."""
    states, nbrs = board.states, board.neighbors
    n = len(states)
    need = [0] * n
    unknown = [0] * n
    opened: list[int] = []
    no_decisions: dict[int, bool] = {}
    failed = None
    for p in range(n):
        number = states[p]
        if number < 0:
            continue
        k, left, _ = _around(states, nbrs[p], number, no_decisions)
        if left:
            need[p] = k
            unknown[p] = left
            opened.append(p)
        elif k != 0 and failed is None:
            failed = p
    return _Reasoning(states, opened, need, unknown, {}, []), failed


def _propagate(r: _Reasoning, nbrs: tuple[tuple[int, ...], ...], stack: list[int]) -> int | None:
    """Decide hidden cells by the two trivial rules until nothing changes, from the numbers on
    ``stack`` (popped from the end).

    Event-driven: each number keeps its remaining need and its count of undecided cells and is
    re-examined only when one of its cells is decided, so the work is linear in the edges.
    Updates ``r`` in place; returns the number found unsatisfiable, or None.
    """
    states, need, unknown, decided, trace = r.states, r.need, r.unknown, r.decided, r.trace
    while stack:
        p = stack.pop()
        n, u = need[p], unknown[p]
        if n < 0 or n > u:
            return p
        if u and (n == 0 or n == u):
            as_mine = n > 0
            for q in nbrs[p]:
                if states[q] != HIDDEN or q in decided:
                    continue
                decided[q] = as_mine
                trace.append(Step(q, as_mine, p))
                for t in nbrs[q]:
                    if states[t] >= 0:      # a number next to a hidden cell: an open one
                        unknown[t] -= 1
                        if as_mine:
                            need[t] -= 1
                        stack.append(t)
    return None


def build_system(board: Board, *, propagate: bool = True, native: bool = True) -> ConstraintSystem:
    """Build the constraint system of ``board``.

    Parameters
    ----------
    board
        The position.
    propagate
        Decide what the two trivial rules decide first (``False``: every number with hidden
        neighbours stays a clue over its raw neighbourhood, as ``explain`` needs).
    native
        Let the native kernel take the numbers and the propagation when it is built (the
        default: the same steps in C, :func:`minegraph.kernel.reasoning`); ``False`` runs the
        Python steps, the reference the kernel is tested against.

    Returns
    -------
    ConstraintSystem
        The boxes, clues and components of the undecided cells, with what propagation decided
        and any contradiction it found (an inconsistent board is an answer, not an error).

    Notes
    -----
    Cost: linear in cells plus edges (propagation revisits a clue only when one of its cells is
    decided), plus the component keys, linear in the clues' sizes.

    Examples
    --------
    >>> from minegraph import Board
    >>> system = build_system(Board.from_text("###\\n#1#\\n###"))
    >>> [len(b.cells) for b in system.boxes], system.clues[0].need, len(system.floating)
    ([8], 1, 0)
    >>> system = build_system(Board.from_text("#1-\\n01-"))
    >>> sorted(system.safe), sorted(system.mines), system.trace[0]
    ([], [0], Step(cell=0, mine=True, clue=1))
    """
    in_c = _native_reasoning(board, propagate) if native else None
    if in_c is not None:
        r, failed = in_c
    else:
        r, failed = _open_numbers(board)
        check_deadline()  # each phase takes tens of milliseconds on a 100x100 board
        if propagate and failed is None:
            # Numbers examined in increasing cell order at first: a deterministic trace.
            failed = _propagate(r, board.neighbors, r.opened[::-1])
    check_deadline()
    return _assemble(board, r, failed, propagate, native)


def _native_reasoning(board: Board, propagate: bool) -> tuple[_Reasoning, int | None] | None:
    """:func:`_open_numbers` and :func:`_propagate` by the native kernel
    (:func:`minegraph.kernel.reasoning`, the same steps in C: a tenth of their time on a
    board of a million cells), or ``None`` when it is not used or declines."""
    from minegraph.kernel import Declined, reasoning
    try:
        opened, need, unknown, cells, mines, clues, failed = reasoning(board, propagate)
    except Declined:
        return None
    as_mine = list(map(bool, mines))
    r = _Reasoning(board.states, opened, need, unknown, dict(zip(cells, as_mine)),
                   list(map(Step, cells, as_mine, clues)))
    return r, None if failed < 0 else failed


#: What the assembly steps give: boxes (cells, clues), clues (cell, need, boxes), components
#: (boxes, clues, key), the hidden and the floating cells, and the first failed number
#: (:data:`minegraph.kernel.Assembly`).
_Assembly = tuple[list[tuple[int, ...]], list[tuple[int, ...]], list[int], list[int],
                  list[tuple[int, ...]], list[tuple[int, ...]], list[tuple[int, ...]],
                  list[ComponentKey], tuple[int, ...], tuple[int, ...], int]


def _assemble(board: Board, r: _Reasoning, failed: int | None, propagate: bool,
              native: bool = True) -> ConstraintSystem:
    """The system from propagation's result: active clues, boxes, components (by the native
    kernel's :func:`minegraph.kernel.assemble` when it is built and ``native``, else by the
    Python steps, :func:`_assembly`, its reference)."""
    decided, trace, states = r.decided, r.trace, r.states
    built = _native_assembly(board, r, failed) if native else None
    if built is None:
        built = _assembly(board, r, failed)
    check_deadline()
    (box_cells, box_clues, clue_cells, needs, clue_boxes, comp_boxes, comp_clues, keys, hidden,
     floating, failed_at) = built
    failed = None if failed_at < 0 else failed_at
    boxes = tuple(map(Box, box_cells, box_clues))
    clues = tuple(map(Clue, clue_cells, needs, clue_boxes))
    components = tuple(map(Component, comp_boxes, comp_clues, keys))
    del built, box_cells, box_clues, clue_cells, needs, clue_boxes, comp_boxes, comp_clues, keys
    remaining = None
    if board.mines is not None:
        known = states.count(MINE) + sum(decided.values())
        remaining = board.mines - known
    contradiction = None if failed is None else f"number at {board.label(failed)} cannot be satisfied"
    safe = frozenset([c for c, m in decided.items() if not m])
    return ConstraintSystem(board, boxes, clues, components, floating, hidden,
                            safe, frozenset(decided).difference(safe), tuple(trace),
                            remaining, contradiction, failed, propagate,
                            r if propagate and failed is None else None)


def _native_assembly(board: Board, r: _Reasoning, failed: int | None) -> _Assembly | None:
    """:func:`_assembly` by the native kernel, or ``None`` when it is not used or declines."""
    from minegraph.kernel import Declined, assemble
    try:
        return assemble(board, r.decided, r.opened, r.need, r.unknown,
                        -1 if failed is None else failed)
    except Declined:
        return None


def _assembly(board: Board, r: _Reasoning, failed: int | None) -> _Assembly:
    """The active clues, the boxes and the components from propagation's result, with the
    first number found unsatisfiable (-1: none): the Python reference of
    :func:`minegraph.kernel.assemble`."""
    decided, states, nbrs = r.decided, r.states, board.neighbors
    # Active clues: numbers with undecided hidden neighbours, in cell order. Propagation kept
    # each number's need and undecided count up to date.
    clue_cells: list[int] = []
    needs: list[int] = []
    # touching[q]: the active clues (indices into clue_cells) around undecided hidden cell q.
    touching: list[list[int] | None] = [None] * len(states)
    for p in r.opened:
        need = r.need[p]
        left = r.unknown[p]
        if not left:
            if need != 0 and failed is None:
                failed = p
            continue
        if (need < 0 or need > left) and failed is None:
            failed = p
        k = len(clue_cells)
        clue_cells.append(p)
        needs.append(need)
        for q in nbrs[p]:
            if states[q] == HIDDEN and q not in decided:
                ks = touching[q]
                if ks is None:
                    touching[q] = [k]
                else:
                    ks.append(k)
    check_deadline()
    # One pass over the cells in increasing order: the hidden ones, the floating ones, and the
    # boxes (cells next to the same clues), each box first seen at its first cell, so the
    # boxes come out ordered by first cell with their cells in increasing order.
    hidden: list[int] = []
    floating: list[int] = []
    box_of: dict[tuple[int, ...], list[int]] = {}
    for q in range(len(states)):
        if states[q] != HIDDEN:
            continue
        hidden.append(q)
        ks = touching[q]
        if ks is None:
            if q not in decided:
                floating.append(q)
            continue
        key = tuple(ks)
        cells = box_of.get(key)
        if cells is None:
            box_of[key] = [q]
        else:
            cells.append(q)
    box_cells: list[tuple[int, ...]] = []
    box_clues: list[tuple[int, ...]] = []
    clue_boxes: list[list[int]] = [[] for _ in clue_cells]
    for key, cells in box_of.items():
        b = len(box_cells)
        box_cells.append(tuple(cells))
        box_clues.append(key)
        for k in key:
            clue_boxes[k].append(b)
    check_deadline()
    boxes_of_clue = [tuple(bs) for bs in clue_boxes]
    comp_boxes, comp_clues, keys = _components([len(c) for c in box_cells], needs, boxes_of_clue)
    return (box_cells, box_clues, clue_cells, needs, boxes_of_clue, comp_boxes, comp_clues, keys,
            tuple(hidden), tuple(floating), -1 if failed is None else failed)


def update_system(previous: ConstraintSystem, board: Board) -> ConstraintSystem:
    """The constraint system of ``board``, a later position of ``previous``'s board: the same
    graph with some hidden cells since uncovered or flagged (the total may differ).

    Propagation starts from ``previous``'s fixpoint and re-examines only the numbers around
    the changed cells, which is valid because uncovering and flagging only add information:
    every decision on the earlier board still holds. Anything else (another graph, a cell
    hidden again, a changed number, a change that contradicts an earlier decision, an
    inconsistent earlier board) is built from scratch by :func:`build_system`. The result
    equals ``build_system(board)`` except that its trace may list the decisions in another
    (equally valid) order.

    Parameters
    ----------
    previous
        The system of an earlier position, built with propagation (one without, or of
        another graph, gives a build from scratch).
    board
        The later position.

    Returns
    -------
    ConstraintSystem
        The system of ``board``, with propagation.

    Examples
    --------
    >>> from minegraph import Board
    >>> before = build_system(Board.from_text("#1##\\n####"))
    >>> after = update_system(before, Board.from_text("#1##\\n#1##"))
    >>> after == build_system(Board.from_text("#1##\\n#1##"))
    True
    """
    r0 = previous.reasoning
    old_board = previous.board
    if (r0 is None or len(board.states) != len(old_board.states)
            or (board.neighbors is not old_board.neighbors
                and board.neighbors != old_board.neighbors)):
        return build_system(board)
    states = board.states
    changed = list(compress(range(len(states)), map(ne, r0.states, states)))
    for c in changed:
        was, now = r0.states[c], states[c]
        if was != HIDDEN or now == HIDDEN:
            return build_system(board)
        if c in r0.decided and r0.decided[c] != (now == MINE):
            return build_system(board)  # contradicts a decision: let a fresh build say where
    if not changed:
        return previous if board == old_board else _assemble(board, r0, None, True)
    gone = set(changed)
    decided = {c: m for c, m in r0.decided.items() if c not in gone}
    trace = [step for step in r0.trace if step.cell not in gone]
    need, unknown = list(r0.need), list(r0.unknown)
    nbrs = board.neighbors
    around = set(changed)
    for c in changed:
        around.update(nbrs[c])
    opened = set(r0.opened)
    for p in sorted(around):
        number = states[p]
        if number < 0:
            need[p] = unknown[p] = 0
            opened.discard(p)
            continue
        k, left, hidden = _around(states, nbrs[p], number, decided)
        if not hidden:
            if k != 0:
                return build_system(board)  # inconsistent: a fresh build names the number
            need[p] = unknown[p] = 0
            opened.discard(p)
            continue
        need[p], unknown[p] = k, left
        opened.add(p)
    r = _Reasoning(states, sorted(opened), need, unknown, decided, trace)
    failed = _propagate(r, nbrs, sorted((p for p in around if p in opened), reverse=True))
    if failed is not None:
        return build_system(board)
    return _assemble(board, r, None, True)


def _components(sizes: list[int], needs: list[int], clue_boxes: list[tuple[int, ...]]
                ) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]], list[ComponentKey]]:
    """Connected components of the box-clue graph (boxes by their sizes, clues by their needs
    and boxes), in order of their first box: each one's boxes, clues and key."""
    sets = UnionFind(len(sizes))
    for bs in clue_boxes:
        for b in bs[1:]:
            sets.union(bs[0], b)
    groups = sets.groups()
    clue_groups: dict[int, list[int]] = {}
    for k, bs in enumerate(clue_boxes):
        clue_groups.setdefault(sets.find(bs[0]), []).append(k)
    boxes: list[tuple[int, ...]] = []
    clues: list[tuple[int, ...]] = []
    keys: list[ComponentKey] = []
    for root, members in sorted(groups.items(), key=lambda item: item[1][0]):
        local = {b: i for i, b in enumerate(members)}
        ks = clue_groups.get(root, [])
        keys.append((tuple([sizes[b] for b in members]),
                     tuple([(needs[k], tuple([local[b] for b in clue_boxes[k]])) for k in ks])))
        boxes.append(tuple(members))
        clues.append(tuple(ks))
    return boxes, clues, keys
