"""Neighbourhoods of the grid topologies, checked against their definitions."""

from __future__ import annotations

import pytest

from minegraph.errors import BoardError
from minegraph import kernel
from minegraph.topology import (MAX_DEGREE, TOPOLOGIES, _grid_neighbors, grid_neighbors,
                                neighbor_offsets)


def _cells(topology: str, rows: int, cols: int, r: int, c: int) -> set[tuple[int, int]]:
    return {divmod(q, cols) for q in grid_neighbors(topology, rows, cols)[r * cols + c]}


def test_square_interior_edge_and_corner() -> None:
    assert _cells("square", 5, 5, 2, 2) == {(1, 1), (1, 2), (1, 3), (2, 1), (2, 3), (3, 1), (3, 2), (3, 3)}
    assert _cells("square", 5, 5, 0, 0) == {(0, 1), (1, 0), (1, 1)}
    assert len(_cells("square", 5, 5, 0, 2)) == 5


def test_triangle_offsets_of_german_lakshtanov() -> None:
    # SEEDS.md §5: (0,±1), (±1,0), (±1,±1), (0,±2), ((-1)^(i+j), ±2) -> r+c even: row below.
    even = _cells("triangle", 7, 7, 3, 3)      # 3+3 even: extra cells in row 4
    assert even == {(3, 2), (3, 4), (3, 1), (3, 5), (2, 3), (4, 3), (2, 2), (2, 4), (4, 2), (4, 4),
                    (4, 1), (4, 5)}
    odd = _cells("triangle", 7, 7, 3, 4)       # 3+4 odd: extra cells in row 2
    assert (2, 2) in odd and (2, 6) in odd and (4, 2) not in odd
    assert len(odd) == 12 == MAX_DEGREE["triangle"]


def test_triangle_is_symmetric() -> None:
    nbrs = grid_neighbors("triangle", 6, 7)
    for i, around in enumerate(nbrs):
        for j in around:
            assert i in nbrs[j]


def test_hex_odd_r_layout() -> None:
    assert _cells("hex", 5, 5, 2, 2) == {(2, 1), (2, 3), (1, 1), (1, 2), (3, 1), (3, 2)}
    assert _cells("hex", 5, 5, 1, 2) == {(1, 1), (1, 3), (0, 2), (0, 3), (2, 2), (2, 3)}


def test_torus_wraps_and_dedupes() -> None:
    assert all(len(n) == 8 for n in grid_neighbors("torus", 4, 5))
    assert _cells("torus", 4, 5, 0, 0) >= {(3, 4), (3, 0), (0, 4), (1, 4)}
    # On a 2-row torus the cells above and below coincide: no duplicates, no self.
    assert all(i not in n and len(set(n)) == len(n) for i, n in enumerate(grid_neighbors("torus", 2, 3)))


def test_unknown_topology() -> None:
    with pytest.raises(BoardError, match="unknown topology 'cube'"):
        grid_neighbors("cube", 2, 2)


# ------------------------------------------------------------- the kernel's grid tables
kernel_only = pytest.mark.skipif(not kernel.available(), reason="the native kernel is not loaded")


def _reference_by_hand(topology: str, rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Every pair of cells, tested by the offsets' own definition (no table code shared)."""
    table = []
    for r in range(rows):
        for c in range(cols):
            found = set()
            for dr, dc in neighbor_offsets(topology, r, c):
                rr, cc = r + dr, c + dc
                if topology == "torus":
                    rr, cc = rr % rows, cc % cols
                if 0 <= rr < rows and 0 <= cc < cols and (rr, cc) != (r, c):
                    found.add(rr * cols + cc)
            table.append(tuple(sorted(found)))
    return tuple(table)


@kernel_only
@pytest.mark.parametrize("topology", TOPOLOGIES)
def test_kernel_grid_table_equals_python(topology: str) -> None:
    native = grid_neighbors.__wrapped__      # (the cache would hand back an earlier table)
    for rows in range(0, 9):
        for cols in range(0, 9):
            expected = _reference_by_hand(topology, rows, cols)
            assert native(topology, rows, cols) == expected, (rows, cols)
            assert _grid_neighbors(topology, rows, cols) == expected, (rows, cols)
    for rows, cols in [(1, 40), (40, 1), (17, 23), (30, 16)]:
        assert native(topology, rows, cols) == _grid_neighbors(topology, rows, cols)


@kernel_only
def test_kernel_grid_table_shares_one_int_per_cell() -> None:
    table = grid_neighbors.__wrapped__("square", 30, 30)
    seen: dict[int, int] = {}
    for row in table:
        for v in row:
            assert seen.setdefault(v, id(v)) == id(v)


@kernel_only
def test_kernel_grid_table_refuses_bad_offsets() -> None:
    table = kernel.module()
    assert table is not None
    with pytest.raises(ValueError):
        table.grid_table(3, 3, False, table.PARITY_NONE, ())
    with pytest.raises(ValueError):
        table.grid_table(3, 3, False, 7, (((0, 1),),))
    with pytest.raises(ValueError):
        table.grid_table(3, 3, False, table.PARITY_NONE, (((0, 1),) * 17,))
