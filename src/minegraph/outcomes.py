"""What a hidden cell would show, and every other cell's chances after each number, in one pass.

A look-ahead asks, for a candidate guess ``c``: which numbers can ``c`` show, how likely is
each, and what does the position look like after each? Analysing the position once per number
costs up to nine full analyses. :func:`outcomes` answers all of them from one pass over the
constraint system of the board with ``c`` uncovered (safe, number not yet seen):

- the hidden neighbours of ``c`` that no rule decided form the set ``N``; every box is split
  into its cells in ``N`` and the rest, and the floating cells likewise;
- each component that meets ``N`` is counted by a sum-product pass over its (split) boxes
  whose values are polynomials in two variables, ``x`` for the mines and ``y`` for the
  mines in ``N`` (packed into one integer, Kronecker style, as :mod:`~minegraph.engines.dp`
  packs one variable);
- those components and the floating cells of ``N`` (``C(F_in, a) x^a y^a``) are multiplied
  into ``Q(x, y)``; the number ``k`` needs ``k - K0`` mines in ``N`` (``K0``: the known and
  decided mines around ``c``), so the coefficient of ``y^(k - K0)`` is a polynomial
  ``G_k(x)`` that enters :func:`~minegraph.engines.combine.combine` as one more part beside
  the components that do not meet ``N`` and the floating cells outside ``N``;
- per-cell counts come from the same combination: the sensitivity of the ``G_k`` part turns
  the product of a box's mined-polynomial with the other parts meeting ``N`` into the
  completions where one of its cells is a mine.

The method is described with its formula in ``docs/algorithms.md`` ("Outcomes of a guess").

Examples
--------
>>> from minegraph import Board
>>> board = Board.from_text("mines: 1\\n###\\n#1#")
>>> out = outcomes(board, (1, 0))
>>> out.numbers(), out.ways(0), out.ways(1), out.total   # 5 places for the mine
([0, 1], 2, 2, 5)
>>> out.chance(1), out.probability(1, (0, 0)), out.probability(1, (0, 2))
(Fraction(2, 5), Fraction(1, 2), Fraction(0, 1))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from math import comb
from typing import TYPE_CHECKING, Collection, NamedTuple, Sequence

from minegraph.analysis import check_board, reduced_fraction
from minegraph.board import BLANK, HIDDEN, MINE, Board, Cell
from minegraph.deadline import check_deadline
from minegraph.errors import BoardError

if TYPE_CHECKING:
    from minegraph.analysis import Analysis
    from minegraph.constraints import Component, ComponentKey, ConstraintSystem

__all__ = ["Outcome", "Outcomes", "outcomes", "count_board", "count_parts"]

#: A clue in local numbering: its need and its boxes' local indices.
LocalClue = tuple[int, tuple[int, ...]]


@dataclass(frozen=True)
class Outcome:
    """The completions in which the cell is safe and shows one number.

    Attributes
    ----------
    number
        The number shown.
    ways
        How many completions of the board have the cell safe and showing ``number``.
    groups
        Every other hidden cell of the board, in groups of cells that share a value: ``(cells,
        mines)`` where ``mines`` is how many of those ``ways`` completions have a mine on each
        of ``cells`` (cell indices, see :meth:`~minegraph.board.Board.index`). ``0`` means
        certainly safe after seeing ``number``, ``ways`` certainly a mine.
    """

    number: int
    ways: int
    groups: tuple[tuple[tuple[int, ...], int], ...] = field(repr=False)

    @property
    def mine_counts(self) -> dict[int, int]:
        """Hidden cell index -> completions (of :attr:`ways`) with a mine on it."""
        return {c: m for cells, m in self.groups for c in cells}

    @property
    def safe(self) -> list[int]:
        """The cells (indices) certainly safe once the number is seen, increasing."""
        return sorted(c for cells, m in self.groups if m == 0 for c in cells)

    @property
    def mines(self) -> list[int]:
        """The cells (indices) certainly mines once the number is seen, increasing."""
        return sorted(c for cells, m in self.groups if m == self.ways for c in cells)


@dataclass(frozen=True, eq=False)
class Outcomes:
    """Every number a hidden cell can show, with exact counts (see :func:`outcomes`).

    Attributes
    ----------
    board
        The position (with the total mine count the counts respect).
    index
        The cell's index on ``board``.
    by_number
        Number -> :class:`Outcome`, in increasing order; a number the cell cannot show (no
        completion) is absent.
    """

    board: Board
    index: int
    by_number: dict[int, Outcome]

    def numbers(self) -> list[int]:
        """The numbers the cell can show, increasing."""
        return list(self.by_number)

    def ways(self, number: int) -> int:
        """Completions in which the cell is safe and shows ``number`` (0 if it cannot).

        Raises
        ------
        BoardError
            when ``number`` is not a whole number.
        """
        outcome = self.by_number.get(_number(number))
        return 0 if outcome is None else outcome.ways

    @property
    def safe_ways(self) -> int:
        """Completions in which the cell is safe."""
        return sum(o.ways for o in self.by_number.values())

    @cached_property
    def mine_ways(self) -> int:
        """Completions in which the cell is a mine (counted on first read)."""
        states = list(self.board.states)
        states[self.index] = MINE
        return count_board(self.board.with_states(states))

    @property
    def total(self) -> int:
        """Completions of the board: :attr:`safe_ways` + :attr:`mine_ways`."""
        return self.safe_ways + self.mine_ways

    def chance(self, number: int) -> Fraction:
        """The probability that the cell is safe and shows ``number``.

        Raises
        ------
        BoardError
            when ``number`` is not a whole number.
        """
        return Fraction(self.ways(number), self.total)

    def probability(self, number: int, cell: Cell | list[int]) -> Fraction:
        """The mine probability of ``cell`` once the cell showed ``number``.

        Raises
        ------
        BoardError
            when ``number`` cannot show or ``cell`` is not another hidden cell.
        """
        outcome = self._outcome(number)
        index = self.board.index(cell)
        count = outcome.mine_counts.get(index)
        if count is None:
            raise BoardError(f"cell {self.board.label(index)}: expected another hidden cell "
                             f"than {self.board.label(self.index)}")
        return reduced_fraction(count, outcome.ways)

    def after(self, number: int) -> Board:
        """The board with the cell uncovered, showing ``number``."""
        states = list(self.board.states)
        states[self.index] = number
        return self.board.with_states(states)

    def analysis(self, number: int) -> Analysis:
        """The :class:`~minegraph.analysis.Analysis` of :meth:`after`, built from these counts
        (the same counts, forced cells and best cell as ``analyze(self.after(number))``; no
        completion is kept: ``completion`` is ``None``).

        Raises
        ------
        BoardError
            when the cell cannot show ``number``.
        """
        from minegraph.analysis import choose_best, from_result
        from minegraph.engines.base import EngineResult
        from minegraph.lazy import GroupedCounts
        outcome = self._outcome(number)
        after = self.after(number)
        ways = outcome.ways
        safe = frozenset(c for cells, m in outcome.groups if m == 0 for c in cells)
        mines = frozenset(c for cells, m in outcome.groups if m == ways for c in cells)
        groups: list[tuple[Collection[int], int]] = list(outcome.groups)
        result = EngineResult.counted(ways, GroupedCounts(after.hidden, ways, groups),
                                      None, {"engine": "outcomes"}, forced=(safe, mines))
        # The best cell chosen per group: only the cells at the lowest count can be it.
        low = min((m for _, m in outcome.groups if m < ways), default=None)
        lowest = {c: m for cells, m in outcome.groups if m == low for c in cells}
        result.best = choose_best(after, safe, mines, lowest)
        return from_result(after, result, "outcomes")

    def _outcome(self, number: int) -> Outcome:
        outcome = self.by_number.get(_number(number))
        if outcome is None:
            raise BoardError(f"number: cell {self.board.label(self.index)} cannot show "
                             f"{number!r}; it can show {self.numbers()}")
        return outcome


def _number(number: object) -> int:
    """``number`` if it is a whole number, else a :class:`BoardError`."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise BoardError(f"number: expected a whole number, got {type(number).__name__}")
    return number


def outcomes(board: Board, cell: Cell | list[int], *, mines: int | None = None,
             since: ConstraintSystem | None = None) -> Outcomes:
    """For a hidden cell, every number it can show, how many completions show it, and how
    many of those put a mine on each other hidden cell, from one pass over the position.

    Parameters
    ----------
    board
        The position (any graph; flagged mines count as mines).
    cell
        A hidden cell of ``board``: ``(row, col)`` on grids, an index, or a label.
    mines
        Overrides the board's total mine count (``None``: the board's own, possibly none).
    since
        The constraint system of an earlier position of the same game (e.g.
        :attr:`~minegraph.analyser.Analyser.last_system`): propagation starts from it
        (:func:`~minegraph.constraints.update_system`) rather than from scratch. The answer
        is the same.

    Returns
    -------
    Outcomes
        ``by_number[k].ways`` completions in which the cell is safe and shows ``k`` (numbers
        it cannot show are absent), and ``by_number[k].groups`` the mine count of every other
        hidden cell over those completions; ``chance(k) = ways / total``, the probability after
        ``k`` is ``mines / ways``. All integers, exact.

    Raises
    ------
    BoardError
        when ``board`` is not a board, ``mines`` does not fit it, ``since`` is not a
        constraint system, ``cell`` is not one of its hidden cells, the position has no completion, or the cell is a mine in every
        completion (it shows no number).

    Notes
    -----
    Cost: one pass over the constraint system; the components that meet the cell's
    neighbourhood are counted by a sum-product along their boxes whose states are the
    partial sums of the equations begun and not finished (fine on playing-size frontiers;
    a wide component costs more than the engines' tree decomposition), the others by the
    engines (the native kernel when built), then one combination per number. Inside a
    :func:`~minegraph.deadline.time_limit` block the deadline is checked as it runs.

    Examples
    --------
    >>> from minegraph import Board, analyze
    >>> board = Board.from_text("mines: 3\\n####\\n#2##\\n####")
    >>> out = outcomes(board, (0, 3))
    >>> {k: out.ways(k) for k in out.numbers()}
    {0: 15, 1: 27, 2: 13, 3: 1}
    >>> out.analysis(1).solutions == analyze(out.after(1)).solutions
    True
    >>> out.probability(0, (2, 0))
    Fraction(1, 3)
    """
    board = check_board(board, "outcomes")
    from minegraph.constraints import ConstraintSystem, build_system, update_system
    if since is not None and not isinstance(since, ConstraintSystem):
        raise BoardError(f"since: expected the constraint system of an earlier position "
                         f"(Analyser.last_system) or None, got {type(since).__name__}")
    if mines is not None:
        board = board.with_states(board.states, mines)
    index = board.index(cell)
    if board.states[index] != HIDDEN:
        raise BoardError(f"cell {board.label(index)}: expected a hidden cell, it is uncovered "
                         "or flagged")
    states = list(board.states)
    states[index] = BLANK       # safe, its number unknown: the completions where it is safe
    safe_board = board.with_states(states)
    system = build_system(safe_board) if since is None else update_system(since, safe_board)
    by_number = _outcomes(board, index, system)
    if not by_number:
        if count_board(board) == 0:
            raise BoardError("board: the position has no completion, so no cell shows a number")
        raise BoardError(f"cell {board.label(index)}: a mine in every completion, it never "
                         "shows a number")
    return Outcomes(board, index, by_number)


def count_board(board: Board) -> int:
    """The completions of ``board``, by the same parts as :func:`outcomes` (no cell asked).

    Parameters
    ----------
    board
        The position.

    Returns
    -------
    int
        Its number of completions (respecting its total mine count, if any).

    Examples
    --------
    >>> count_board(Board.from_text("mines: 1\\n###\\n#1#"))
    5
    """
    from minegraph.constraints import build_system
    from minegraph.engines.combine import combine
    system = build_system(board)
    if not system.consistent_so_far:
        return 0
    with_total = system.remaining is not None
    polys = [_plain_part(system, comp, with_total)[0] for comp in system.components]
    return combine(polys, len(system.floating), system.remaining if with_total else None).count


def _slot(cells: int) -> int:
    """Bits per coefficient for packed counts over ``cells`` cells: a count is a number of
    subsets (< 2**cells), a mined sum at most ``cells`` times one; whole bytes, so that
    unpacking slices bytes."""
    return (cells + cells.bit_length() + 2 + 7) // 8 * 8


def _unpack(value: int, slot: int, length: int) -> list[int]:
    """Coefficients ``0 .. length-1`` of a packed polynomial (``slot`` a multiple of 8)."""
    width = slot // 8
    raw = value.to_bytes((value.bit_length() + 7) // 8, "little")
    present = min(length, -(-len(raw) // width))     # the coefficients past it are 0
    return [int.from_bytes(raw[i * width:(i + 1) * width], "little")
            for i in range(present)] + [0] * (length - present)


def count_parts(sizes: Sequence[int], clues: Sequence[LocalClue], steps: Sequence[int],
                slot_cells: int) -> tuple[int, list[int]]:
    """Count one component whose box ``b`` adds ``steps[b]`` to the exponent per mine, by a
    sum-product pass along the boxes (states: the partial sums of the clues begun and not
    finished), forward then backward.

    A box of ``s`` cells holding ``k`` mines stands for ``C(s, k)`` placements and the term
    ``z**(k * steps[b])``; polynomials in ``z`` are packed into integers with
    :func:`_slot` ``(slot_cells)`` bits per coefficient.

    Parameters
    ----------
    sizes : sequence of int
        Cells per box (local numbering).
    clues : sequence of (int, tuple of int)
        Each clue's need and boxes.
    steps : sequence of int
        Exponent per mine of each box (0: the box is not counted in the polynomial).
    slot_cells : int
        The packing's slot width is :func:`_slot` of this (at least the cells whose counts
        are ever multiplied together).

    Returns
    -------
    tuple
        ``(total, mined)``: the packed polynomial of all assignments, and per box the packed
        sum over assignments of its mines times the weight.

    Examples
    --------
    >>> total, mined = count_parts([1, 1, 1], [(1, (0, 1)), (1, (1, 2))], [1, 1, 1], 3)
    >>> slot = _slot(3)
    >>> _unpack(total, slot, 4), [_unpack(m, slot, 4) for m in mined]
    ([0, 1, 1, 0], [[0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 1, 0]])
    """
    n = len(sizes)
    slot = _slot(slot_cells)
    box_clues: list[list[int]] = [[] for _ in range(n)]
    for c, (_, bs) in enumerate(clues):
        for b in bs:
            box_clues[b].append(c)
    order = _order(n, clues, box_clues)
    position = {b: i for i, b in enumerate(order)}
    last = [max(position[b] for b in bs) for _, bs in clues]
    active: list[int] = []          # the clues begun and not finished, in key order
    plans: list[_Plan] = []
    for i, b in enumerate(order):
        where = {c: j for j, c in enumerate(active)}
        old = [c for c in box_clues[b] if c in where]
        opened = [c for c in box_clues[b] if c not in where]
        # Per clue of the box (those begun, then those it begins): its need, and the cells
        # of its boxes still to come (0: it finishes here, its sum must equal the need).
        checks = [(clues[c][0], sum(sizes[o] for o in clues[c][1] if position[o] > i))
                  for c in old + opened]
        closed = {c for c in box_clues[b] if last[c] == i}
        step = steps[b] * slot
        mine = set(old)
        plans.append(_Plan([comb(sizes[b], k) << (k * step) for k in range(sizes[b] + 1)],
                           [where[c] for c in old], len(opened), checks,
                           [(j, c in mine) for j, c in enumerate(active) if c not in closed],
                           sum(1 for c in opened if c not in closed)))
        active = [c for c in active if c not in closed] + [c for c in opened if c not in closed]

    forward: list[dict[tuple[int, ...], int]] = [{(): 1}]
    # The moves found going forward, kept for the way back (the same keys are visited).
    steps_of: list[dict[tuple[int, ...], list[tuple[int, tuple[int, ...]]]]] = []
    for plan in plans:
        check_deadline()        # a caller's time limit (time_limit) holds here too
        table: dict[tuple[int, ...], int] = {}
        weights = plan.weights
        found = {}
        for key, value in forward[-1].items():
            found[key] = moves = _moves(key, plan)
            for k, new in moves:
                table[new] = table.get(new, 0) + value * weights[k]
        forward.append(table)
        steps_of.append(found)
    total = forward[-1].get((), 0)
    mined = [0] * n
    if not total:
        return 0, mined
    backward: dict[tuple[int, ...], int] = {(): 1}
    for i in reversed(range(n)):
        check_deadline()
        weights = plans[i].weights
        table = {}
        acc = 0
        for key, moves in steps_of[i].items():
            below = with_mines = 0
            for k, new in moves:
                rest = backward.get(new)
                if rest:
                    term = weights[k] * rest
                    below += term
                    with_mines += k * term
            if below:
                table[key] = below
                if with_mines:
                    acc += forward[i][key] * with_mines
        mined[order[i]] = acc
        backward = table
    return total, mined


class _Plan(NamedTuple):
    """One box's step of :func:`count_parts`."""

    weights: list[int]          # per mine count k: C(size, k), packed at its exponent
    old: list[int]              # key positions of the box's clues already begun
    opened: int                 # how many of its clues it begins
    checks: list[tuple[int, int]]   # (need, cells still to come) per clue: old, then opened
    keep: list[tuple[int, bool]]    # key positions that stay, and whether the box is in it
    opened_kept: int            # how many clues begun here stay open


def _moves(key: tuple[int, ...], plan: _Plan) -> list[tuple[int, tuple[int, ...]]]:
    """The states reached from ``key`` through one box: ``(its mines, new key)``."""
    out = []
    before = [key[j] for j in plan.old] + [0] * plan.opened    # the box's clues' sums so far
    kept = [(key[j], touched) for j, touched in plan.keep]
    opened = plan.opened_kept
    for k in range(len(plan.weights)):
        over = False
        ok = True
        for v, (need, cap) in zip(before, plan.checks):
            v += k
            if v > need:
                over = True
                break
            if v + cap < need:
                ok = False
        if over:
            break       # more mines only overshoot more
        if ok:
            out.append((k, tuple([v + k if touched else v for v, touched in kept] + [k] * opened)))
    return out


def _order(n: int, clues: Sequence[LocalClue], box_clues: list[list[int]]) -> list[int]:
    """An order of the boxes that keeps few clues begun and not finished: each time, among the
    boxes of the clues begun (any box at first), the one that finishes the most clues and
    begins the fewest (ties: the lower index)."""
    left = [len(bs) for _, bs in clues]
    begun = [False] * len(clues)
    done = [False] * n
    order = []
    candidates = set(range(n))
    for _ in range(n):
        best = None
        best_key: tuple[int, int, int] | None = None
        for b in candidates:
            finishes = begins = touches = 0
            for c in box_clues[b]:
                if begun[c]:
                    touches += 1
                else:
                    begins += 1
                if left[c] == 1:
                    finishes += 1
            key = (begins - finishes - (1 if touches else 0), -touches, b)
            if best_key is None or key < best_key:
                best, best_key = b, key
        assert best is not None
        done[best] = True
        order.append(best)
        if len(order) == 1:
            candidates = set()
        candidates.discard(best)
        for c in box_clues[best]:
            left[c] -= 1
            if not begun[c]:
                begun[c] = True
                candidates.update(b for b in clues[c][1] if not done[b])
        if not candidates:     # a component is connected; this only guards the loop
            candidates = {b for b in range(n) if not done[b]}
    return order


def _outcomes(board: Board, index: int, system: ConstraintSystem) -> dict[int, Outcome]:
    """The outcomes of ``index`` from the system of the board with it uncovered (BLANK)."""
    from minegraph.engines.combine import combine
    if not system.consistent_so_far:
        return {}
    states, nbrs = board.states, board.neighbors
    around = set(nbrs[index]) - {index}
    known = sum(1 for q in around if states[q] == MINE or q in system.mines)
    near = {q for q in around if states[q] == HIDDEN and q not in system.mines
            and q not in system.safe}
    with_total = system.remaining is not None
    remaining = system.remaining if with_total else None
    width = len(near) + 1        # exponent of x^t y^s: t * width + s (s < width)
    x_step = width if with_total else 0
    boxes = system.boxes
    # Parts meeting N: (cells, packed total, [(cells of a group, packed mined per cell)]).
    touching: list[tuple[int, list[tuple[tuple[int, ...], int]]]] = []
    plain_parts: list[tuple[list[int], list[tuple[tuple[int, ...], list[int]]]]] = []
    meeting = [comp for comp in system.components
               if any(q in near for b in comp.boxes for q in boxes[b].cells)]
    meets = {id(comp) for comp in meeting}
    float_in = tuple(q for q in system.floating if q in near)
    float_out = tuple(q for q in system.floating if q not in near)
    slot_cells = sum(comp.cells for comp in meeting) + len(float_in)
    slot = _slot(slot_cells)
    for comp in system.components:
        if id(comp) not in meets:
            plain_parts.append(_plain_part(system, comp, with_total))
            continue
        # Split each box into its cells in N and the rest.
        split: list[tuple[int, ...]] = []
        split_of: dict[int, list[int]] = {}
        for b in comp.boxes:
            inside = tuple(q for q in boxes[b].cells if q in near)
            outside = tuple(q for q in boxes[b].cells if q not in near)
            split_of[b] = []
            for cells in (inside, outside):
                if cells:
                    split_of[b].append(len(split))
                    split.append(cells)
        clues = [(system.clues[k].need, tuple(s for b in system.clues[k].boxes for s in split_of[b]))
                 for k in comp.clues]
        steps = [x_step + 1 if cells[0] in near else x_step for cells in split]
        total, mined = count_parts([len(cells) for cells in split], clues, steps, slot_cells)
        touching.append((total, [(cells, m // len(cells)) for cells, m in zip(split, mined)]))
    if float_in:
        f = len(float_in)
        step = (x_step + 1) * slot
        total = sum(comb(f, a) << (a * step) for a in range(f + 1))
        per_cell = sum(comb(f - 1, a - 1) << (a * step) for a in range(1, f + 1))
        touching.append((total, [(float_in, per_cell)]))
    product = 1
    for total, _ in touching:
        product *= total
    top = sum(comp.cells for comp in meeting) + len(float_in)   # most mines in those parts
    length = top + 1 if with_total else 1
    plain_polys = [poly for poly, _ in plain_parts]
    # A cell of a part meeting N is a mine in (its mined polynomial) x (the other such
    # parts) of the ways: the coefficient at y^s, weighted by the rest's sensitivity.
    joints: list[tuple[tuple[int, ...], int]] = []
    for c, (_, box_groups) in enumerate(touching):
        others = 1
        for d, (other, _) in enumerate(touching):
            if d != c:
                others *= other
        joints.extend((cells, per_cell * others) for cells, per_cell in box_groups)
    decided_safe = tuple(sorted(system.safe - {index}))
    decided_mines = tuple(sorted(system.mines))
    exponents = length * width    # t * x_step + s < this, with or without a total
    table = _unpack(product, slot, exponents)
    joint_tables = [(cells, _unpack(joint, slot, exponents)) for cells, joint in joints]
    out: dict[int, Outcome] = {}
    for s in range(len(near) + 1):
        column = [table[t * x_step + s] for t in range(length)]
        if not any(column):
            continue
        combined = combine(plain_polys + [column], len(float_out), remaining)
        ways = combined.count
        if not ways:
            continue
        sensitivity = combined.sensitivity[-1]
        groups: list[tuple[tuple[int, ...], int]] = []
        if decided_safe:
            groups.append((decided_safe, 0))
        if decided_mines:
            groups.append((decided_mines, ways))
        if float_out:
            groups.append((float_out, combined.per_floating))
        for (_, plain_groups), sens in zip(plain_parts, combined.sensitivity):
            for cells, mined in plain_groups:
                groups.append((cells, sum(m * w for m, w in zip(mined, sens)) // len(cells)))
        for cells, coefficients in joint_tables:
            groups.append((cells, sum(coefficients[t * x_step + s] * sensitivity[t]
                                      for t in range(length))))
        out[known + s] = Outcome(known + s, ways, tuple(groups))
    return dict(sorted(out.items()))


def _plain_part(system: ConstraintSystem, comp: Component, with_total: bool
                ) -> tuple[list[int], list[tuple[tuple[int, ...], list[int]]]]:
    """A component that does not meet ``N``: its polynomial by mine count (one entry without
    a total) and per box the mined sums by mine count, as the engines count it."""
    total, mined = _counted(comp.key, with_total)
    boxes = system.boxes
    if not any(total):      # no layout: the Python DP keeps no per-box rows (the kernel zeros)
        return list(total), [(boxes[b].cells, [0] * len(total)) for b in comp.boxes]
    return list(total), [(boxes[b].cells, list(mined[local])) for local, b in enumerate(comp.boxes)]


@lru_cache(maxsize=1024)
def _counted(key: ComponentKey, with_total: bool
             ) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """A component's counts by its canonical key (equal keys, equal counts): a look-ahead asks
    about many cells of one position, and the components away from each cell are the same."""
    from minegraph.engines.dp import ComponentDP
    from minegraph.engines.native import kernel_part
    sizes, clues = key
    part = kernel_part(sizes, clues, with_total=with_total)
    counted = part if part is not None else ComponentDP(sizes, clues, with_total=with_total)
    return tuple(counted.total), tuple(tuple(m) for m in counted.mined)
