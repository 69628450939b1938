"""The kernel's examples (the doctests of :mod:`minegraph.kernel`) hold by brute force, with
or without a kernel.

Each example prints the kernel's answer when a kernel is built, else the value it should
give, so under ``MINEGRAPH_PURE=1`` the doctest alone compares a value with itself. Here each
example's expected output is worked out again by enumerating every mine layout of its tiny
position, in both modes; with a kernel, the kernel's own answer is compared too.
"""

from __future__ import annotations

import doctest
import itertools
from fractions import Fraction
from typing import Any, Iterable, Sequence

import pytest

from minegraph import Board, kernel

Clues = Sequence[tuple[int, tuple[int, ...]]]


def _wants() -> dict[str, str]:
    """Each kernel function's example output, by function name (the examples that branch on
    :func:`minegraph.kernel.available`)."""
    out = {}
    for test in doctest.DocTestFinder().find(kernel):
        for example in test.examples:
            if "if available():" in example.source:
                out[test.name.rsplit(".", 1)[1]] = example.want
    return out


WANTS = _wants()


def _layouts(cells: Sequence[int], mines: int | None) -> Iterable[frozenset[int]]:
    for k in range(len(cells) + 1):
        if mines is None or k == mines:
            yield from map(frozenset, itertools.combinations(cells, k))


def _consistent(board: Board, shown: dict[int, int], hidden: Sequence[int],
                mines: int | None) -> list[frozenset[int]]:
    """Every layout of ``hidden`` that gives each shown cell its number."""
    return [layout for layout in _layouts(hidden, mines)
            if all(sum(n in layout for n in board.neighbors[c]) == v for c, v in shown.items())]


def _boxes(sizes: Sequence[int], clues: Clues, with_total: bool) -> tuple[list[int], list[list[int]]]:
    """A component's counts by enumeration: ``total[t]`` the assignments with ``t`` mines
    (trailing zeros dropped, one entry without a total) and ``mined[b][t]`` the mines in box
    ``b`` summed over them; an assignment gives each box 0 to its size mines, weighted by
    the ways to place them."""
    from math import comb
    cells = sum(sizes)
    total = [0] * (cells + 1)
    mined = [[0] * (cells + 1) for _ in sizes]
    for counts in itertools.product(*(range(s + 1) for s in sizes)):
        if any(sum(counts[b] for b in boxes) != need for need, boxes in clues):
            continue
        ways = 1
        for s, k in zip(sizes, counts):
            ways *= comb(s, k)
        t = sum(counts)
        total[t] += ways
        for b, k in enumerate(counts):
            mined[b][t] += ways * k
    if not with_total:
        return [sum(total)], [[sum(row)] for row in mined]
    while len(total) > 1 and total[-1] == 0:
        total.pop()
    return total, mined


def _no_guess(board: Board, layout: frozenset[int], first: int) -> bool:
    """Whether a player who uncovers only cells safe in every layout consistent with what it
    sees (and the total) uncovers every safe cell from ``first``: brute force."""
    n = len(board.neighbors)
    shown: dict[int, int] = {}
    todo = [first]
    while True:
        while todo:                                  # uncover, zeros flood-fill
            c = todo.pop()
            if c in shown:
                continue
            shown[c] = sum(m in layout for m in board.neighbors[c])
            if shown[c] == 0:
                todo.extend(board.neighbors[c])
        hidden = [c for c in range(n) if c not in shown]
        if len(hidden) == len(layout):
            return True
        fits = _consistent(board, shown, hidden, board.mines)
        todo = [c for c in hidden if not any(c in f for f in fits)]
        if not todo:
            return False


def test_every_branching_example_is_checked_here() -> None:
    assert set(WANTS) == {"run", "solvable", "count_component", "complete_component",
                          "float_dict", "reasoning", "box_shares", "assemble"}


def test_box_shares_example_by_its_definition() -> None:
    """Per box, the sum over the likely mine counts of the share of the box's cells holding
    a mine (mined over size times totals) times the count's share, in exact Fractions: the
    first box 1/4 * 1/2 + 2/2 * 1/2, the second never mined (0.0, proven)."""
    from array import array
    mined, sizes, totals, likely, shares = [[0, 1, 2], [0, 0, 0]], [2, 1], [1, 2, 1], [1, 2], \
        [0.5, 0.5]
    exact = [sum(Fraction(row[t], size * totals[t]) * Fraction(share)
                 for t, share in zip(likely, shares)) for row, size in zip(mined, sizes)]
    assert exact == [Fraction(5, 8), 0]
    assert f"{[float(x) for x in exact]}\n" == WANTS["box_shares"]
    if kernel.available():
        got = kernel.box_shares(mined, sizes, totals, likely, shares)
        assert array("d", got).tolist() == [float(x) for x in exact]


def test_assemble_example_by_the_neighbourhoods() -> None:
    """``#1#1#``: the hidden cells grouped by the numbers around them (read from the board's
    neighbour lists): cell 0 by the 1 on cell 1 alone, cell 2 by both, cell 4 by the 1 on
    cell 3; one component, each clue needing one mine over its two boxes."""
    board = Board.from_text("#1#1#")
    numbers = [c for c, s in enumerate(board.states) if s >= 0]
    around = {q: tuple(k for k, p in enumerate(numbers) if q in board.neighbors[p])
              for q in range(5) if board.states[q] == -1}
    boxes = sorted({tuple(q for q in around if around[q] == key) for key in around.values()})
    index = {cells: b for b, cells in enumerate(boxes)}
    clues = tuple((board.states[p], tuple(index[cells] for cells in boxes
                                          if any(q in board.neighbors[p] for q in cells)))
                  for p in numbers)
    key = (tuple(len(cells) for cells in boxes), clues)
    assert f"{boxes} {numbers} {[key]}\n" == WANTS["assemble"]
    if kernel.available():
        out = kernel.assemble(board, {}, numbers, [0, 1, 0, 1, 0], [0, 2, 0, 2, 0], -1)
        assert (out[0], out[2], out[7]) == (boxes, numbers, [key])


def test_reasoning_example_by_the_rules() -> None:
    """``#1-/01-``: the numbers with a hidden neighbour are cells 1, 3 and 4 (the blank cells
    2 and 5 are not numbers); taken in increasing order, the 1 on cell 1 has one hidden
    neighbour, cell 0, which must be its mine; that leaves the 0 on cell 3 a mine too many,
    and propagation stops there. Worked out by the two rules, and by enumeration: no layout
    of cell 0 satisfies both numbers."""
    board = Board.from_text("#1-\n01-")
    numbers = [c for c, s in enumerate(board.states) if s >= 0]
    opened = [c for c in numbers if any(board.states[q] == -1 for q in board.neighbors[c])]
    assert opened == [1, 3, 4]
    assert not _consistent(board, {c: board.states[c] for c in numbers}, [0], None)
    assert f"{opened} [0] [1] [1] 3\n" == WANTS["reasoning"]
    if kernel.available():
        out = kernel.reasoning(board)
        assert (out[0], out[3], list(out[4]), out[5], out[6]) == (opened, [0], [1], [1], 3)


def test_float_dict_example_by_its_definition() -> None:
    """The cells whose double is not NaN, by key, in cell order (read back with ``array``)."""
    import math
    from array import array
    keys, values = ["a", "b", "c"], [0.5, float("nan"), 0.25]
    expected = {k: v for k, v in zip(keys, array("d", values)) if not math.isnan(v)}
    assert f"{expected}\n" == WANTS["float_dict"]
    if kernel.available():
        got = kernel.float_dict(keys, array("d", values).tobytes())
        assert got == expected and list(got) == ["a", "c"]


def test_run_example_by_enumeration() -> None:
    board = Board.from_text("mines: 1\n#1#")
    fits = _consistent(board, {1: 1}, [0, 2], board.mines)
    # One box (cells 0 and 2: the same clue), each of its cells a mine in half the layouts.
    box_floats = [float(Fraction(sum(0 in f for f in fits), len(fits)))]
    assert f"{len(fits)} {[(0, 2)]} {box_floats}\n" == WANTS["run"]
    if kernel.available():
        a = kernel.run(board)
        assert a is not None and (a.count, a.box_cells, a.box_floats) == (len(fits), [(0, 2)], box_floats)


def test_solvable_example_by_enumeration() -> None:
    line, block = Board.from_text("mines: 1\n###"), Board.from_text("mines: 1\n###\n###")
    got = (_no_guess(line, frozenset({2}), 0), _no_guess(block, frozenset({2}), 3))
    assert f"{got[0]} {got[1]}\n" == WANTS["solvable"]
    if kernel.available():
        assert (kernel.solvable(line, frozenset({2}), 0),
                kernel.solvable(block, frozenset({2}), 3)) == got


def test_count_component_example_by_enumeration() -> None:
    clues = [(1, (0, 1)), (1, (1, 2))]
    assert f"{_boxes([1, 1, 1], clues, True)}\n" == WANTS["count_component"]
    if kernel.available():
        for with_total in (True, False):
            assert kernel.count_component([1, 1, 1], clues, with_total=with_total) == \
                _boxes([1, 1, 1], clues, with_total)


def test_complete_component_example_by_enumeration() -> None:
    clues = [(1, (0, 1)), (1, (1, 2))]
    fits = [list(c) for c in itertools.product(range(2), repeat=3)
            if sum(c) == 2 and all(sum(c[b] for b in boxes) == need for need, boxes in clues)]
    assert len(fits) == 1 and f"{fits[0]}\n" == WANTS["complete_component"]
    if kernel.available():
        assert kernel.complete_component([1, 1, 1], clues, 2) == fits[0]
        assert kernel.complete_component([1, 1, 1], clues, 3) is None


@pytest.mark.parametrize("sizes, clues", [
    ([2, 1, 3], [(2, (0, 1)), (1, (1, 2))]),
    ([1, 2], [(0, (0,)), (2, (1,))]),
])
def test_the_enumeration_itself(sizes: list[int], clues: Any) -> None:
    """The enumeration against counting cell by cell (boxes unfolded into cells)."""
    cells = [b for b, s in enumerate(sizes) for _ in range(s)]
    total = [0] * (len(cells) + 1)
    for bits in itertools.product(range(2), repeat=len(cells)):
        per_box = [sum(x for x, b in zip(bits, cells) if b == k) for k in range(len(sizes))]
        if all(sum(per_box[b] for b in boxes) == need for need, boxes in clues):
            total[sum(bits)] += 1
    while len(total) > 1 and total[-1] == 0:
        total.pop()
    assert _boxes(sizes, clues, True)[0] == total
