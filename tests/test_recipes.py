"""Facts about minegraph.recipes: exact mine counts, true numbers, determinism (the flood fill
itself is tested with the game, tests/play/test_game.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minegraph.board import HIDDEN
from minegraph.errors import BoardError
from minegraph.recipes import MAX_TARGET, MIN_TARGET, midgame, midgame_position, random_layout
from minegraph.topology import TOPOLOGIES, grid_neighbors

from strategies import examples

EXPERT = (16, 30, 99)


# ----------------------------------------------------------------- random_layout
@pytest.mark.parametrize("seed", range(20))
def test_layout_has_exactly_the_mines_inside_the_grid(seed: int) -> None:
    layout = random_layout(*EXPERT, seed)
    assert len(layout) == 99
    assert all(0 <= i < 16 * 30 for i in layout)


@pytest.mark.parametrize("topology", TOPOLOGIES)
@pytest.mark.parametrize("seed", range(10))
def test_layout_keeps_the_first_click_area_free(topology: str, seed: int) -> None:
    rows, cols = 9, 11
    click = (seed * 7) % (rows * cols)
    layout = random_layout(rows, cols, 30, seed, safe=click, topology=topology)
    assert len(layout) == 30
    assert click not in layout
    assert not layout & set(grid_neighbors(topology, rows, cols)[click])


def test_layout_accepts_row_col_or_index_for_the_click() -> None:
    assert random_layout(*EXPERT, 5, safe=(3, 4)) == random_layout(*EXPERT, 5, safe=3 * 30 + 4)


def test_layout_is_a_function_of_the_seed() -> None:
    assert random_layout(*EXPERT, 42) == random_layout(*EXPERT, 42)
    assert len({random_layout(*EXPERT, s) for s in range(10)}) == 10


def test_layout_can_fill_every_free_cell() -> None:
    layout = random_layout(3, 3, 8, 0)
    assert len(layout) == 8
    # with the click in the middle, no cell is free
    assert random_layout(3, 3, 0, 0, safe=(1, 1)) == frozenset()
    with pytest.raises(BoardError):
        random_layout(3, 3, 1, 0, safe=(1, 1))
    with pytest.raises(BoardError):
        random_layout(3, 3, 10, 0)
    with pytest.raises(BoardError):
        random_layout(3, 3, 1, 0, safe=(3, 0))


def test_layout_is_roughly_uniform() -> None:
    # every cell of a 4x4 grid is mined in about 4/16 of 4000 layouts
    counts = [0] * 16
    for seed in range(4000):
        for i in random_layout(4, 4, 4, seed):
            counts[i] += 1
    assert all(850 < c < 1150 for c in counts), counts


def _number(neighbors, layout, i):
    return sum(1 for j in neighbors[i] if j in layout)


# ----------------------------------------------------------------- midgame
def _check_midgame(rows: int, cols: int, mines: int, seed: int, topology: str) -> None:
    m = midgame(rows, cols, mines, seed, topology)
    b = m.board
    n = rows * cols
    assert (b.rows, b.cols, b.topology, b.mines) == (rows, cols, topology, mines)
    assert len(m.layout) == mines and all(0 <= i < n for i in m.layout)
    assert b.known_mines == 0  # no flags
    # uncovered cells are exactly the revealed set, none is a mine, each shows its true number
    assert {i for i, s in enumerate(b.states) if s != HIDDEN} == m.revealed
    assert not m.revealed & m.layout
    for i in m.revealed:
        assert b.states[i] == _number(b.neighbors, m.layout, i)
    # the first click is a zero with a mine-free neighbourhood
    assert m.click in m.revealed and b.states[m.click] == 0
    assert not set(b.neighbors[m.click]) & m.layout
    # zeros were flood-filled
    for i in m.revealed:
        if b.states[i] == 0:
            assert set(b.neighbors[i]) <= m.revealed
    # the target was reached, and the target is in range
    assert MIN_TARGET <= m.target <= MAX_TARGET
    safe = n - mines
    assert len(m.revealed) >= m.target * safe
    assert len(m.revealed) <= safe


@pytest.mark.parametrize("seed", range(40))
def test_expert_midgame_facts(seed: int) -> None:
    _check_midgame(*EXPERT, seed, "square")


@pytest.mark.parametrize("topology", TOPOLOGIES)
@pytest.mark.parametrize("seed", range(8))
def test_midgame_facts_on_every_topology(topology: str, seed: int) -> None:
    _check_midgame(12, 14, 30, seed, topology)


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 2**64), rows=st.integers(4, 14), cols=st.integers(4, 14),
       density=st.floats(0.0, 0.35))
def test_midgame_facts_any_size(seed: int, rows: int, cols: int, density: float) -> None:
    mines = int(density * (rows * cols - 9))
    _check_midgame(rows, cols, mines, seed, "square")


def test_midgame_is_a_function_of_the_seed() -> None:
    for seed in range(10):
        a, b = midgame(*EXPERT, seed), midgame(*EXPERT, seed)
        assert a == b
        assert midgame_position(*EXPERT, seed) == a.board
    boards = {midgame_position(*EXPERT, s).to_text() for s in range(30)}
    assert len(boards) == 30


def test_midgame_targets_spread_over_the_range() -> None:
    targets = [midgame(*EXPERT, s).target for s in range(200)]
    assert min(targets) < 0.2 and max(targets) > 0.7


def test_midgame_walled_in_region_falls_back_to_any_safe_cell() -> None:
    # 5x5 with 16 mines: the opening around the click is often sealed by mines
    for seed in range(30):
        _check_midgame(5, 5, 16, seed, "square")


def test_midgame_refuses_too_many_mines() -> None:
    with pytest.raises(BoardError):
        midgame(3, 3, 6, 0)  # 6 mines never fit outside a click's neighbourhood on 3x3


def test_the_recipe_is_frozen() -> None:
    # The benchmark corpus is named by seeds: a change to the recipe (draw order, frontier
    # order, the target range) silently changes every position. Update these digests only
    # on purpose, and say so next to the benchmark results.
    import hashlib

    def digest(texts):
        return hashlib.sha256("".join(texts).encode()).hexdigest()

    assert digest(midgame_position(*EXPERT, s).to_text() for s in range(10)) == \
        "c5b24c6b40b0444165a7cf91ead6af4d1dcc7efaff96cded9acf2814a0ae0cc6"
    assert digest(midgame_position(12, 14, 30, s, t).to_text()
                  for s in range(3) for t in ("hex", "triangle", "torus")) == \
        "8e60a1b5ace8401a06dfe2685af0d2c92ae928773c0e72fb467ce7fc4d67d277"
