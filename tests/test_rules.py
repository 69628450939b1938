"""The rules of the game (minegraph.rules) against their definitions: the cells kept clear,
layouts drawn from a seed, the room for mines, cell names, the flood and 3BV, each checked by
an independent computation here (every first cell tried, a breadth-first flood, 3BV from the
openings' union-find) and on hand-checked boards."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minegraph.errors import GameError
from minegraph.rules import (RULES, SIZES, cell_index, check_fit, draw_layout, flood_fill, kept_clear,
                             mine_candidates, three_bv)
from minegraph.topology import grid_neighbors

from strategies import examples

TOPOLOGIES = ("square", "triangle", "hex", "torus")


def test_the_rules_and_sizes_are_the_published_ones() -> None:
    assert RULES == ("classic", "modern", "any")
    assert SIZES == {"beginner": (9, 9, 10), "beginner-8": (8, 8, 10),
                     "intermediate": (16, 16, 40), "expert": (16, 30, 99)}


def test_kept_clear_by_rule() -> None:
    nbrs = grid_neighbors("square", 3, 3)
    assert kept_clear("any", nbrs, 4) == set()
    assert kept_clear("classic", nbrs, 4) == {4}
    assert kept_clear("modern", nbrs, 4) == set(range(9))
    assert kept_clear("modern", nbrs, 8) == {4, 5, 7, 8}


def test_mine_candidates_are_the_other_cells_in_order() -> None:
    assert mine_candidates(6, {0, 3, 5}) == [1, 2, 4]
    assert mine_candidates(3, set()) == [0, 1, 2]


def test_a_layout_is_the_seeded_sample_of_the_candidates() -> None:
    # The documented draw, so that a seed names one layout wherever it is used.
    for seed in range(20):
        kept = {seed % 7, 3}
        expected = frozenset(random.Random(seed).sample([c for c in range(12) if c not in kept], 4))
        assert draw_layout(random.Random(seed), kept, 12, 4) == expected
    assert draw_layout(random.Random(0), {0, 1}, 4, 2) == frozenset({2, 3})   # all that fit
    assert draw_layout(random.Random(0), set(), 4, 0) == frozenset()


def test_a_layout_that_does_not_fit_is_refused_with_the_counts() -> None:
    with pytest.raises(GameError, match=r"^3 mines do not fit outside the 2 cells kept clear "
                                        r"around the first click \(2 cells left\)$"):
        draw_layout(random.Random(0), {0, 1}, 4, 3)
    with pytest.raises(GameError, match=r"^-1 mines do not fit"):
        draw_layout(random.Random(0), set(), 4, -1)


@settings(max_examples=examples(100), deadline=None)
@given(rules=st.sampled_from(RULES), topology=st.sampled_from(TOPOLOGIES),
       rows=st.integers(1, 4), cols=st.integers(1, 4), mines=st.integers(-1, 17))
def test_check_fit_refuses_exactly_the_counts_no_first_click_can_place(
        rules: str, topology: str, rows: int, cols: int, mines: int) -> None:
    if topology == "torus":
        rows, cols = max(rows, 3), max(cols, 3)
    nbrs = grid_neighbors(topology, rows, cols)
    fits = []
    for first in range(len(nbrs)):
        try:
            draw_layout(random.Random(0), kept_clear(rules, nbrs, first), len(nbrs), mines)
            fits.append(first)
        except GameError:
            pass
    if fits:
        check_fit(rules, nbrs, mines)
    else:
        with pytest.raises(GameError, match=f"^{mines} mines do not fit: {rules} rules leave at most"):
            check_fit(rules, nbrs, mines)


def test_check_fit_names_the_room_left() -> None:
    nbrs = grid_neighbors("square", 3, 3)
    for rules, room in (("classic", 8), ("any", 9), ("modern", 5)):
        check_fit(rules, nbrs, room)
        with pytest.raises(GameError, match=rf"^{room + 1} mines do not fit: {rules} rules leave "
                                            rf"at most {room} of the 9 cells for mines$"):
            check_fit(rules, nbrs, room + 1)
    with pytest.raises(GameError, match="leave at most 8 of the 9"):
        check_fit("classic", nbrs, -1)
    # A graph with no cell: no room, shown as 0 rather than negative.
    with pytest.raises(GameError, match="leave at most 0 of the 0 cells"):
        check_fit("classic", [], 1)
    with pytest.raises(GameError, match="leave at most 0 of the 0 cells"):
        check_fit("modern", [], 0)


def test_cell_index_reads_indices_and_pairs() -> None:
    assert cell_index((0, 0), 12, 4) == 0
    assert cell_index((2, 3), 12, 4) == 11
    assert cell_index([1, 2], 12, 4) == 6
    assert cell_index(0, 12, 4) == 0 and cell_index(11, 12) == 11
    assert type(cell_index((1, 1), 12, 4)) is int


@pytest.mark.parametrize(("cell", "cols", "message"), [
    ((3, 0), 4, "cell (3, 0) is outside the 3x4 grid"),
    ((0, 4), 4, "cell (0, 4) is outside the 3x4 grid"),
    ((-1, 0), 4, "cell (-1, 0) is outside the 3x4 grid"),
    ((0, -1), 4, "cell (0, -1) is outside the 3x4 grid"),
    ([2, 4], 4, "cell (2, 4) is outside the 3x4 grid"),
    (12, 4, "cell 12 is outside 0..11"),
    (-1, None, "cell -1 is outside 0..11"),
    (True, None, "expected a cell as an index, got True"),
    ((1, 2), None, "expected a cell as an index, got (1, 2)"),
    ((1, True), 4, "expected a cell as an index or (row, col), got (1, True)"),
    ((1, 2, 3), 4, "expected a cell as an index or (row, col), got (1, 2, 3)"),
    ((1.0, 2), 4, "expected a cell as an index or (row, col), got (1.0, 2)"),
    ("3", 4, "expected a cell as an index or (row, col), got '3'"),
])
def test_cell_index_refuses_cells_off_the_board_or_of_another_form(cell: object, cols: int | None,
                                                                   message: str) -> None:
    with pytest.raises(GameError) as caught:
        cell_index(cell, 12, cols)
    assert str(caught.value) == message


def _reference_fill(nbrs: list[tuple[int, ...]], mines: set[int], flags: set[int], cell: int) -> set[int]:
    """Breadth-first: the cell, and every unflagged safe neighbour of an uncovered zero."""
    out, frontier = {cell}, [cell]
    while frontier:
        v = frontier.pop(0)
        if any(w in mines for w in nbrs[v]):
            continue
        for w in nbrs[v]:
            if w not in out and w not in mines and w not in flags:
                out.add(w)
                frontier.append(w)
    return out


@settings(max_examples=examples(100), deadline=None)
@given(topology=st.sampled_from(TOPOLOGIES), rows=st.integers(3, 6), cols=st.integers(3, 6),
       seed=st.integers(0, 10**6))
def test_flood_fill_with_flags_and_earlier_cells_equals_a_breadth_first_flood(
        topology: str, rows: int, cols: int, seed: int) -> None:
    rng = random.Random(seed)
    nbrs = grid_neighbors(topology, rows, cols)
    n = len(nbrs)
    mines = set(rng.sample(range(n), rng.randint(0, n // 4)))
    safe = [c for c in range(n) if c not in mines]
    flags = set(rng.sample(range(n), rng.randint(0, 2)))
    cell = rng.choice(safe)
    earlier = set(rng.sample(safe, rng.randint(0, 2))) - {cell}
    uncovered = set(earlier)
    new = flood_fill(nbrs, frozenset(mines), uncovered, cell, frozenset(flags))
    assert new[0] == cell and len(new) == len(set(new))
    reached = _reference_fill(nbrs, mines, flags | earlier, cell)
    assert set(new) == reached - earlier
    assert uncovered == earlier | reached
    assert flood_fill(nbrs, frozenset(mines), uncovered, cell) == []      # already uncovered


def _reference_three_bv(nbrs: list[tuple[int, ...]], layout: set[int],
                        uncovered: set[int]) -> tuple[int, int]:
    """3BV from its definition: openings are the connected groups of zeros (joined when
    neighbours), each one click with its border; every safe cell next to no zero is a click."""
    n = len(nbrs)
    zero = [c not in layout and all(q not in layout for q in nbrs[c]) for c in range(n)]
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    for c in range(n):
        for q in nbrs[c]:
            if zero[c] and zero[q]:
                parent[find(c)] = find(q)
    openings: dict[int, list[int]] = {}
    for c in range(n):
        if zero[c]:
            openings.setdefault(find(c), []).append(c)
    bordered = {q for c in range(n) if zero[c] for q in nbrs[c]}
    lone = [c for c in range(n) if c not in layout and not zero[c] and c not in bordered]
    total = len(openings) + len(lone)
    solved = sum(all(c in uncovered for c in zeros) for zeros in openings.values())
    solved += sum(c in uncovered for c in lone)
    return total, solved


@settings(max_examples=examples(150), deadline=None)
@given(topology=st.sampled_from(TOPOLOGIES), rows=st.integers(1, 6), cols=st.integers(1, 6),
       seed=st.integers(0, 10**6))
def test_three_bv_equals_its_definition(topology: str, rows: int, cols: int, seed: int) -> None:
    if topology == "torus":
        rows, cols = max(rows, 3), max(cols, 3)
    rng = random.Random(seed)
    nbrs = grid_neighbors(topology, rows, cols)
    n = len(nbrs)
    layout = set(rng.sample(range(n), rng.randint(0, n // 3)))
    uncovered = {c for c in range(n) if c not in layout and rng.random() < 0.6}
    assert three_bv(nbrs, frozenset(layout), frozenset(uncovered)) == \
        _reference_three_bv(nbrs, layout, uncovered)
    assert three_bv(nbrs, frozenset(layout))[1] == 0


def test_three_bv_on_hand_checked_boards() -> None:
    row = grid_neighbors("square", 1, 7)                 # 0 1 M 1 1 M 1
    assert three_bv(row, {2, 5}) == (4, 0)              # opening {0,1}; cells 3, 4, 6
    assert three_bv(row, {2, 5}, {1}) == (4, 0)         # a border cell solves nothing
    assert three_bv(row, {2, 5}, {0, 1, 3, 6}) == (4, 3)
    square = grid_neighbors("square", 3, 3)
    assert three_bv(square, set()) == (1, 0) and three_bv(square, set(), set(range(9))) == (1, 1)
    assert three_bv(square, set(), {4}) == (1, 0)               # its zeros not all uncovered
    assert three_bv(square, {4}) == (8, 0)               # every cell a number, none a zero
    assert three_bv(square, set(range(9))) == (0, 0)
