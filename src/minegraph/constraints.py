"""The constraint system of a position: boxes, clue equations, components, floating cells.

Hidden cells next to numbers are grouped into *boxes*: cells adjacent to exactly the same set
of (still active) numbers are interchangeable, so only how many mines a box holds matters,
with multiplicity ``C(size, k)``. Each number gives one equation ``sum of its boxes = need``.
Boxes linked through shared equations form *components*, which interact only through the
global mine count. Hidden cells next to no number are *floating*.

Before grouping, cheap propagation runs to a fixpoint: a number whose need is 0 makes its other
hidden neighbours safe; a number whose need equals its hidden neighbours makes them all mines.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from minegraph.board import HIDDEN, MINE, Board

__all__ = ["Box", "Clue", "Component", "ConstraintSystem", "build_system"]


@dataclass(frozen=True)
class Box:
    """Interchangeable hidden cells: all adjacent to exactly the clues in ``clues``."""

    cells: tuple[int, ...]
    clues: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.cells)


@dataclass(frozen=True)
class Clue:
    """One equation: the boxes next to number cell ``cell`` hold ``need`` mines in all."""

    cell: int
    need: int
    boxes: tuple[int, ...]


@dataclass(frozen=True)
class Component:
    """Boxes and clues linked by shared equations (indices into the system's lists)."""

    boxes: tuple[int, ...]
    clues: tuple[int, ...]


@dataclass
class ConstraintSystem:
    """Everything an engine needs about a position, after propagation.

    Attributes
    ----------
    contradiction
        Propagation proved the board inconsistent (a number over- or under-satisfied).
    safe, mines
        Hidden cells decided by propagation.
    remaining
        Mines still to place in boxes and floating cells (``None`` without a total).
    """

    board: Board
    boxes: list[Box] = field(default_factory=list)
    clues: list[Clue] = field(default_factory=list)
    components: list[Component] = field(default_factory=list)
    floating: list[int] = field(default_factory=list)
    safe: set[int] = field(default_factory=set)
    mines: set[int] = field(default_factory=set)
    remaining: int | None = None
    contradiction: str | None = None


def _clue_cells(board: Board) -> tuple[dict[int, int], dict[int, list[int]], str | None]:
    """For every number with hidden neighbours: its need (number minus known mines) and those
    neighbours. Numbers without hidden neighbours are checked here and then dropped."""
    states, nbrs = board.states, board.neighbors
    needs: dict[int, int] = {}
    open_cells: dict[int, list[int]] = {}
    contradiction = None
    for p, s in enumerate(states):
        if s < 0:
            continue
        need = s
        cells = []
        for q in nbrs[p]:
            t = states[q]
            if t == HIDDEN:
                cells.append(q)
            elif t == MINE:
                need -= 1
        if cells:
            needs[p] = need
            open_cells[p] = cells
        elif need != 0 and contradiction is None:
            contradiction = f"number at {board.label(p)} cannot be satisfied"
    return needs, open_cells, contradiction


def _propagate(board: Board, needs: dict[int, int], open_cells: dict[int, list[int]],
               decided: dict[int, bool]) -> str | None:
    """Decide hidden cells by the two trivial rules until nothing changes.

    Event-driven: each number keeps its remaining need and its count of undecided cells, and
    is re-examined only when one of its cells is decided, so the work is linear in the edges.
    ``decided`` maps hidden cell -> is_mine. Returns a description of a contradiction, or None.
    """
    touching: dict[int, list[int]] = {}
    for p, cells in open_cells.items():
        for q in cells:
            touching.setdefault(q, []).append(p)
    need = dict(needs)
    unknown = {p: len(cells) for p, cells in open_cells.items()}
    stack = list(open_cells)
    while stack:
        p = stack.pop()
        n, u = need[p], unknown[p]
        if n < 0 or n > u:
            return f"number at {board.label(p)} cannot be satisfied"
        if u and (n == 0 or n == u):
            as_mine = n > 0
            for q in open_cells[p]:
                if q in decided:
                    continue
                decided[q] = as_mine
                for r in touching[q]:
                    unknown[r] -= 1
                    if as_mine:
                        need[r] -= 1
                    stack.append(r)
    return None


def build_system(board: Board, propagate: bool = True) -> ConstraintSystem:
    """Build the constraint system of ``board``.

    Cost: linear in cells plus edges (propagation revisits a number only when a neighbour
    is decided).

    Examples
    --------
    >>> from minegraph import Board
    >>> sys = build_system(Board.from_text("###\\n#1#\\n###"))
    >>> [len(b.cells) for b in sys.boxes], sys.clues[0].need, len(sys.floating)
    ([8], 1, 0)
    >>> sys = build_system(Board.from_text("#1-\\n##-"))
    >>> sorted(sys.safe), sys.components
    ([], [Component(boxes=(0,), clues=(0,))])
    """
    system = ConstraintSystem(board)
    needs, open_cells, system.contradiction = _clue_cells(board)
    decided: dict[int, bool] = {}
    if propagate and system.contradiction is None:
        system.contradiction = _propagate(board, needs, open_cells, decided)
    system.safe = {c for c, m in decided.items() if not m}
    system.mines = {c for c, m in decided.items() if m}

    # Active clues: numbers with undecided hidden neighbours.
    clue_cells: list[tuple[int, int]] = []
    touching: dict[int, list[int]] = {}
    for p, cells in open_cells.items():
        need = needs[p]
        if decided:
            still = []
            for q in cells:
                d = decided.get(q)
                if d is None:
                    still.append(q)
                elif d:
                    need -= 1
            cells = still
        if not cells:
            if need != 0 and system.contradiction is None:
                system.contradiction = f"number at {board.label(p)} cannot be satisfied"
            continue
        if (need < 0 or need > len(cells)) and system.contradiction is None:
            system.contradiction = f"number at {board.label(p)} cannot be satisfied"
        k = len(clue_cells)
        clue_cells.append((p, need))
        for q in cells:
            touching.setdefault(q, []).append(k)
    box_of: dict[tuple[int, ...], list[int]] = {}
    for q, ks in touching.items():
        box_of.setdefault(tuple(ks), []).append(q)
    # Deterministic box order: by first cell.
    keys = sorted(box_of, key=lambda key: min(box_of[key]))
    clue_boxes: list[list[int]] = [[] for _ in clue_cells]
    for key in keys:
        b = len(system.boxes)
        system.boxes.append(Box(tuple(sorted(box_of[key])), key))
        for k in key:
            clue_boxes[k].append(b)
    system.clues = [Clue(p, need, tuple(clue_boxes[k])) for k, (p, need) in enumerate(clue_cells)]
    states = board.states
    system.floating = [q for q, s in enumerate(states)
                       if s == HIDDEN and q not in decided and q not in touching]
    system.components = _components(system)
    if board.mines is not None:
        known = sum(1 for s in states if s == MINE) + len(system.mines)
        system.remaining = board.mines - known
    return system


def _components(system: ConstraintSystem) -> list[Component]:
    """Connected components of the box-clue graph, in order of their first box."""
    parent = list(range(len(system.boxes)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for clue in system.clues:
        first = find(clue.boxes[0])
        for b in clue.boxes[1:]:
            root = find(b)
            if root != first:
                parent[root] = first
    groups: dict[int, list[int]] = {}
    for b in range(len(system.boxes)):
        groups.setdefault(find(b), []).append(b)
    clue_groups: dict[int, list[int]] = {}
    for k, clue in enumerate(system.clues):
        clue_groups.setdefault(find(clue.boxes[0]), []).append(k)
    return [Component(tuple(bs), tuple(clue_groups.get(root, [])))
            for root, bs in sorted(groups.items(), key=lambda item: item[1][0])]
