"""Exact rank certificates and linear deductions (minegraph.linalg).

Known answers, not snapshots: Theorem 1's matrix is the n x n tridiagonal all-ones matrix,
whose determinant follows D(n) = D(n-1) - D(n-2) and vanishes exactly when 3 divides n + 1
(nullity 1 then); Theorem 2's clue matrix is the odd-to-even block of the adjacency of the
m x n grid graph, whose eigenvalues 2cos(pi a/(m+1)) + 2cos(pi b/(n+1)) vanish g - 1 times,
g = gcd(m+1, n+1), so the clue matrix has nullity (g-1)/2 when mn is even and (g-2)/2 when mn
is odd: full rank exactly when g <= 2.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings

import minegraph.linalg as linalg
from minegraph import Board, analyze
from minegraph.constraints import build_system
from minegraph.errors import BoardError
from minegraph.linalg import certify, linear_deductions, matrix_rank, null_vector
from minegraph.topology import grid_neighbors
from strategies import examples, positions


def checkerboard(rows: int, cols: int, topology: str = "square") -> Board:
    """All-zero numbers on the cells with r + c even, the others hidden (numbers do not
    matter for the rank)."""
    return Board.grid(rows, cols, ["#" if (i // cols + i % cols) % 2 else 0
                                   for i in range(rows * cols)], topology=topology)


def theorem2_nullity(m: int, n: int) -> int:
    g = math.gcd(m + 1, n + 1)
    return (g - 1) // 2 if (m * n) % 2 == 0 else (g - 2) // 2


@pytest.mark.parametrize("top", [True, False])
def test_theorem_1_by_rank(top: bool) -> None:
    for n in range(1, 61):
        rows = ["0" * n, "#" * n] if top else ["#" * n, "0" * n]
        c = certify(Board.from_text("\n".join(rows)))
        assert c.unknowns == n
        assert c.nullity == (1 if (n + 1) % 3 == 0 else 0), n
        assert c.full == ((n + 1) % 3 != 0)


def test_theorem_2_by_rank_up_to_15x15() -> None:
    for m in range(1, 16):
        for n in range(1, 16):
            c = certify(checkerboard(m, n))
            assert c.nullity == theorem2_nullity(m, n), (m, n)
            if math.gcd(m + 1, n + 1) == 1:        # the theorem's condition: certified
                assert c.full and c.method == "modular"
            elif math.gcd(m + 1, n + 1) >= 3:      # its failing sizes: rank-deficient
                assert not c.full and c.method == "exact"


def test_large_tables_by_reduction() -> None:
    c = certify(checkerboard(200, 199))
    assert c.full and c.reduced is not None and c.reduced <= 101
    c = certify(checkerboard(200, 200))
    assert c.nullity == theorem2_nullity(200, 200) == 100 and c.method == "exact"
    assert certify(checkerboard(60, 61, "triangle")).reduced is not None


def test_reduction_agrees_with_the_dense_rank(monkeypatch: pytest.MonkeyPatch) -> None:
    boards = [checkerboard(m, n, t) for m in range(1, 11) for n in range(1, 11)
              for t in ("square", "triangle")]
    boards += [Board.from_text("#1#1#\n#####\n2#3##"), Board.from_text("##\n##")]
    dense = [certify(b) for b in boards]
    monkeypatch.setattr(linalg, "DENSE_COLUMNS", 0)
    reduced = [certify(b) for b in boards]
    assert [d.rank for d in dense] == [r.rank for r in reduced]
    assert all(r.reduced is not None for r in reduced if r.unknowns)


def test_matrix_rank_checks_its_rows() -> None:
    with pytest.raises(BoardError, match="row 1: columns must be distinct"):
        matrix_rank([(0,), (1, 1)], 2)
    with pytest.raises(BoardError, match="in 0..1"):
        matrix_rank([(2,)], 2)
    assert matrix_rank([], 0).method == "empty"
    assert matrix_rank([], 3).rank == 0


def test_a_hidden_cell_next_to_no_number_leaves_the_rank_short() -> None:
    assert certify(Board.from_text("0#\n##")).nullity == 2


def test_null_vector_gives_two_layouts_with_the_same_numbers() -> None:
    board = checkerboard(2, 2, "triangle")          # Theorem 3's condition holds: 3, 3
    first, second = null_vector(board)  # type: ignore[misc]
    assert first != second
    nbrs = grid_neighbors("triangle", 2, 2)
    for p in (0, 3):
        assert sum(q in first for q in nbrs[p]) == sum(q in second for q in nbrs[p])
    assert null_vector(checkerboard(4, 4, "triangle")) is None


@settings(max_examples=examples(300))
@given(positions(max_hidden=10, allow_inconsistent=False))
def test_linear_deductions_are_sound(board: Board) -> None:
    """Every cell the equations decide is forced the same way by the exact analysis."""
    a = analyze(board, engine="brute")
    for total in (True, False):
        d = linear_deductions(build_system(board), total=total)
        assert {board.cell(c) for c in d.safe} <= set(a.safe)
        assert {board.cell(c) for c in d.mines} <= set(a.mines)


def test_linear_deductions_see_what_single_numbers_do_not() -> None:
    # 1-2-1 against a wall: the pairs rule and linear algebra both find it; the equations
    # give the two mines and the safe middle.
    board = Board.from_text("###\n121\n---")
    d = linear_deductions(build_system(board))
    assert sorted(d.mines) == [0, 2] and sorted(d.safe) == [1]
    # With the total: the one mine is next to the 1, so the far cells are safe.
    board = Board.from_text("mines: 1\n#1#-##")
    assert sorted(linear_deductions(build_system(board)).safe) == [4, 5]
    assert not linear_deductions(build_system(board), total=False).safe


def test_certificate_describe() -> None:
    text = certify(checkerboard(3, 4)).describe()
    assert text.startswith("rank 6 of 6 unknowns") and text.endswith("unique for every layout")
    assert "nullity 1" in certify(Board.from_text("#1#")).describe()
