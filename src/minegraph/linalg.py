"""Exact linear algebra of the numbers: rank certificates and the cells the equations decide.

Each uncovered number is a linear equation over the hidden cells: the mines among its hidden
neighbours (unknowns ``x_q`` in {0, 1}) sum to the number minus the known mines around it. If
the clue x hidden-cell incidence matrix has full column rank over the rationals, the mine layout
is the *only* solution of the equations, so every layout of mines on those hidden cells is
recovered from its numbers: the table has exactly one solution whatever the mines are (the
argument of German & Lakshtanov, *Mat. Zametki* 88(6), 2010).

The rank is computed exactly with python-flint, not by hand-written elimination:

- full column rank modulo one prime ``p`` (:data:`PRIME`) already proves full column rank over
  the rationals (a minor that is non-zero modulo ``p`` is a non-zero integer), so a table whose
  matrix has full rank mod ``p`` is certified with ``nmod_mat.rank``;
- otherwise the exact rank over the rationals comes from ``fmpz_mat.rank`` (integer
  arithmetic; rank modulo ``p`` can only be lower).

Large sparse systems (a 200x200 table has 20,000 equations) are first reduced without changing
their nullity: equations are taken in order, and one whose unknowns include some not met before
defines one of them (coefficient 1, so no division) in terms of the others; the remaining
equations, rewritten over the unknowns left free, form a small dense system whose rank flint
computes (:func:`matrix_rank`). On the checkerboard tables the free unknowns are about one row
of the grid, which is why the 200x200 tables are certified in well under a second.

:func:`linear_deductions` uses the same equations as a deduction method of its own: a box of
cells whose mine count is the same in every *real* solution of the system (the unit vector of
its column lies in the row space) is decided by linear algebra alone.

Examples
--------
>>> from minegraph import Board
>>> certify(Board.from_text("1221\\n####")).full      # Theorem 1: 2x4, 4+1 not divisible by 3
True
>>> certify(Board.from_text("12221\\n#####")).nullity  # 2x5: 5+1 is, and the rank falls short
1
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from minegraph.board import Board
from minegraph.constraints import ConstraintSystem, IncidenceMatrix, build_system
from minegraph.errors import BoardError


__all__ = ["PRIME", "DENSE_COLUMNS", "REDUCED_COLUMNS", "RankCertificate", "LinearDeduction",
           "clue_incidence", "matrix_rank", "certify", "linear_deductions", "null_vector"]

#: The prime of the modular rank: the Mersenne prime 2^61 - 1.
PRIME = (1 << 61) - 1

#: Systems of at most this many unknowns are ranked as one dense matrix; larger ones are first
#: reduced (see the module docstring).
DENSE_COLUMNS = 1500

#: The reduction is used when it leaves at most this many free unknowns; otherwise the whole
#: matrix is ranked.
REDUCED_COLUMNS = 3000


@dataclass(frozen=True)
class RankCertificate:
    """The exact rank of a 0/1 system over the rationals, and how it was established.

    Attributes
    ----------
    equations, unknowns
        The matrix's size.
    rank
        Its exact rank over the rationals.
    method
        ``"modular"``: full column rank modulo :data:`PRIME` (a proof of full rank over the
        rationals); ``"exact"``: the rank over the integers (``fmpz_mat.rank``); ``"empty"``:
        no unknowns.
    reduced
        The number of unknowns left free by the reduction of large systems (``None``: the
        matrix was ranked whole).
    """

    equations: int
    unknowns: int
    rank: int
    method: str
    reduced: int | None = None

    @property
    def full(self) -> bool:
        """Full column rank: the equations have at most one solution."""
        return self.rank == self.unknowns

    @property
    def nullity(self) -> int:
        """The dimension of the null space (0 when :attr:`full`)."""
        return self.unknowns - self.rank

    def describe(self) -> str:
        """One line for people.

        Examples
        --------
        >>> RankCertificate(4, 3, 3, "modular").describe()
        'rank 3 of 3 unknowns (full column rank modulo 2^61-1): unique for every layout'
        """
        how = {"modular": "full column rank modulo 2^61-1", "exact": "exact rank over Q",
               "empty": "no unknowns"}[self.method]
        if self.reduced is not None:
            how += f", after reduction to {self.reduced} free unknowns"
        verdict = "unique for every layout" if self.full else f"nullity {self.nullity}"
        return f"rank {self.rank} of {self.unknowns} unknowns ({how}): {verdict}"


def clue_incidence(board: Board) -> IncidenceMatrix:
    """The clue x hidden-cell incidence of ``board``'s numbers, without propagation: one row
    per number with a hidden neighbour (the constraint model's
    :meth:`~minegraph.constraints.ConstraintSystem.incidence`).

    Parameters
    ----------
    board
        The position.

    Returns
    -------
    IncidenceMatrix
        One row per number with a hidden neighbour, one column per hidden cell.

    Raises
    ------
    BoardError
        when ``board`` is not a :class:`~minegraph.board.Board`.

    Examples
    --------
    >>> m = clue_incidence(Board.from_text("1#\\n#M"))
    >>> m.rows, m.rhs, m.columns
    (((0, 1),), (0,), (1, 2))
    """
    if not isinstance(board, Board):
        raise BoardError(f"expected a Board, got {type(board).__name__}")
    return build_system(board, propagate=False).incidence()


def _dense_rank(rows: Sequence[Sequence[int]], ncols: int) -> tuple[int, str]:
    """The exact rank of a 0/1 matrix given by the columns of its ones: modular first."""
    from flint import fmpz_mat, nmod_mat
    table = [[0] * ncols for _ in rows]
    for line, row in zip(table, rows):
        for j in row:
            line[j] += 1
    if not table:
        return 0, "exact"
    if nmod_mat(table, PRIME).rank() == ncols:
        return ncols, "modular"
    return fmpz_mat(table).rank(), "exact"


def _reduce(rows: Sequence[Sequence[int]], ncols: int, exact: bool
            ) -> tuple[list[list[int]], int]:
    """The equations left after unit-pivot substitution, over the free unknowns.

    Equations are taken in order; one with an unknown not met before defines the last such
    unknown as minus the sum of its other unknowns (right-hand sides do not matter for the
    rank), and its other new unknowns become free. An equation with no new unknown is
    rewritten over the free unknowns and kept. Unknowns in no equation are free too. Each
    definition is an elementary operation with a unit pivot, so the nullity of the kept
    equations over the free unknowns equals the nullity of the whole system.

    Returns the kept equations as dense rows (modulo :data:`PRIME`, or exact integers) and the
    number of free unknowns.
    """
    import numpy as np
    seen = [False] * ncols
    free_index: dict[int, int] = {}
    plan: list[tuple[int, tuple[int, ...]]] = []   # (pivot or -1, the row)
    for row in rows:
        new = [j for j in row if not seen[j]]
        for j in row:
            seen[j] = True
        if new:
            pivot = max(new)
            for j in new:
                if j != pivot:
                    free_index[j] = len(free_index)
            plan.append((pivot, tuple(row)))
        else:
            plan.append((-1, tuple(row)))
    for j in range(ncols):
        if not seen[j]:
            free_index[j] = len(free_index)
    width = len(free_index)
    dtype = object if exact else np.int64
    value: dict[int, np.ndarray] = {}
    for j, k in free_index.items():
        v = np.zeros(width, dtype=dtype)
        v[k] = 1
        value[j] = v
    kept: list[list[int]] = []
    for pivot, row in plan:
        total = np.zeros(width, dtype=dtype)
        for j in row:
            if j != pivot:
                total = total + value[j]
                if not exact:
                    total %= PRIME
        if pivot >= 0:
            value[pivot] = (-total) % PRIME if not exact else -total
        else:
            kept.append([int(x) for x in total])
    return kept, width


def matrix_rank(rows: Sequence[Sequence[int]], ncols: int) -> RankCertificate:
    """The exact rank over the rationals of the 0/1 matrix whose row ``i`` has ones in the
    columns ``rows[i]``, with a certificate.

    Systems of more than :data:`DENSE_COLUMNS` unknowns are reduced first (module docstring).

    Parameters
    ----------
    rows
        For each equation, the columns (``0..ncols-1``, no repeats) of its unknowns.
    ncols
        The number of unknowns.

    Returns
    -------
    RankCertificate
        The rank and how it was established.

    Raises
    ------
    BoardError
        for a column outside ``0..ncols-1`` or repeated in a row.

    Examples
    --------
    >>> matrix_rank([(0, 1), (1, 2), (0, 2)], 3)          # a triangle: non-singular
    RankCertificate(equations=3, unknowns=3, rank=3, method='modular', reduced=None)
    >>> matrix_rank([(0, 1), (1, 2), (2, 3), (0, 3)], 4).nullity   # a square: singular
    1
    """
    rows = [tuple(r) for r in rows]
    for i, row in enumerate(rows):
        if len(set(row)) != len(row) or any(not 0 <= j < ncols for j in row):
            raise BoardError(f"row {i}: columns must be distinct and in 0..{ncols - 1}")
    if ncols == 0:
        return RankCertificate(len(rows), 0, 0, "empty")
    if ncols <= DENSE_COLUMNS:
        rank, method = _dense_rank(rows, ncols)
        return RankCertificate(len(rows), ncols, rank, method)
    kept, width = _reduce(rows, ncols, exact=False)
    if width > REDUCED_COLUMNS:        # the reduction did not help: rank the whole matrix
        rank, method = _dense_rank(rows, ncols)
        return RankCertificate(len(rows), ncols, rank, method)
    defined = ncols - width
    from flint import fmpz_mat, nmod_mat
    if width == 0 or (kept and nmod_mat(kept, PRIME).rank() == width):
        return RankCertificate(len(rows), ncols, ncols, "modular", width)
    exact_rows, _ = _reduce(rows, ncols, exact=True)
    rank = fmpz_mat(exact_rows).rank() if exact_rows else 0
    return RankCertificate(len(rows), ncols, defined + rank, "exact", width)


def certify(board: Board) -> RankCertificate:
    """The rank certificate of ``board``'s numbers over its hidden cells.

    ``certify(board).full`` proves that the numbers determine the mines on the hidden cells
    whatever they are: any layout gives a board with exactly one solution. A hidden cell next
    to no number always leaves the rank short.

    Parameters
    ----------
    board
        The table: its numbers are the equations, its hidden cells the unknowns.

    Returns
    -------
    RankCertificate
        The rank of the incidence matrix (:func:`clue_incidence`).

    Raises
    ------
    BoardError
        when ``board`` is not a :class:`~minegraph.board.Board`.

    Examples
    --------
    >>> certify(Board.from_text("#1#")).nullity           # which side is the mine?
    1
    """
    m = clue_incidence(board)
    return matrix_rank(m.rows, len(m.columns))


def null_vector(board: Board, *, conflicts: int | None = None
                ) -> tuple[frozenset[int], frozenset[int]] | None:
    """Two different mine layouts on ``board``'s hidden cells with the same numbers, if any
    exist: ``(first, second)`` as sets of cells; ``None`` when every layout is determined.

    Full column rank (:func:`certify`) rules such pairs out; a rank-deficient system has them
    exactly when its null space holds a non-zero vector with entries in {-1, 0, 1}, which a
    SAT solver searches for (two layouts ``x != y`` with ``A x = A y``).

    Parameters
    ----------
    board
        The table: its numbers are the equations, its hidden cells the unknowns.
    conflicts
        Give up after this many solver conflicts (``None``: search to the end, which on a
        large table without such a pair may take very long).

    Returns
    -------
    tuple of frozenset or None
        ``(first, second)``, two layouts (mined cell indices) that give the same numbers;
        ``None`` when there are none.

    Raises
    ------
    BoardError
        when ``board`` is not a :class:`~minegraph.board.Board`.
    LimitError
        when the search gives up after ``conflicts`` conflicts, undecided.

    Examples
    --------
    >>> first, second = null_vector(Board.from_text("#1#"))
    >>> sorted(first | second)
    [0, 2]
    >>> null_vector(Board.from_text("121\\n###")) is None
    True
    """
    m = clue_incidence(board)
    if matrix_rank(m.rows, len(m.columns)).full:
        return None
    from pysat.card import CardEnc, EncType
    from pysat.formula import CNF, IDPool
    from pysat.solvers import Solver
    n = len(m.columns)
    pool = IDPool()
    x = [pool.id(("x", j)) for j in range(n)]
    y = [pool.id(("y", j)) for j in range(n)]
    cnf = CNF()
    for row in m.rows:
        lits = [x[j] for j in row] + [-y[j] for j in row]
        cnf.extend(CardEnc.equals(lits, bound=len(row), vpool=pool,
                                  encoding=EncType.seqcounter).clauses)
    diff = [pool.id(("d", j)) for j in range(n)]
    for j in range(n):    # d_j -> x_j != y_j
        cnf.append([-diff[j], x[j], y[j]])
        cnf.append([-diff[j], -x[j], -y[j]])
    cnf.append(diff)
    with Solver(name="cadical153", bootstrap_with=cnf.clauses) as solver:
        if conflicts is not None:
            solver.conf_budget(conflicts)
            found = solver.solve_limited()
            if found is None:
                from minegraph.errors import LimitError
                raise LimitError(f"no answer after {conflicts} solver conflicts: the search for "
                                 f"two layouts with the same numbers gave up")
        else:
            found = solver.solve()
        if not found:
            return None
        model = set(lit for lit in solver.get_model() or [] if lit > 0)
    first = frozenset(m.columns[j] for j in range(n) if x[j] in model)
    second = frozenset(m.columns[j] for j in range(n) if y[j] in model)
    return first, second


@dataclass(frozen=True)
class LinearDeduction:
    """What the linear equations alone decide on a position.

    Attributes
    ----------
    safe, mines
        Hidden cells (indices) that are safe / mines in every real solution of the equations.
    determined
        ``(cells, mines)`` for each group of interchangeable cells whose mine count the
        equations fix, also when the count decides no single cell.
    """

    safe: frozenset[int]
    mines: frozenset[int]
    determined: tuple[tuple[tuple[int, ...], Fraction], ...]


def linear_deductions(system: ConstraintSystem, *, total: bool = True) -> LinearDeduction:
    """The cells that the equations of ``system`` decide by linear algebra over the rationals.

    The unknowns are the system's boxes (interchangeable cells) and, when the total mine count
    is used, one more for all floating cells; the equations are the clues and, with ``total``
    and a known total, the total. A box's mine count is determined when its unit vector lies in
    the row space, read off the exact reduced row echelon form (``fmpq_mat.rref``) of the
    augmented matrix: its column is a pivot whose row has no other unknown. A determined count
    of 0 makes the box safe; one equal to its size makes it mines.

    Parameters
    ----------
    system
        The constraint system of the position (with or without propagation).
    total
        Use the total mine count as one more equation, when the board has one.

    Returns
    -------
    LinearDeduction
        The cells decided and every mine count determined.

    Examples
    --------
    >>> from minegraph.constraints import build_system
    >>> board = Board.from_text("###\\n121\\n---")
    >>> d = linear_deductions(build_system(board, propagate=False))
    >>> sorted(d.mines), sorted(d.safe)
    ([0, 2], [1])
    """
    boxes = [b.cells for b in system.boxes]
    eqs: list[tuple[list[int], int]] = [(list(c.boxes), c.need) for c in system.clues]
    if total and system.remaining is not None:
        if system.floating:
            boxes.append(tuple(system.floating))
        eqs.append((list(range(len(boxes))), system.remaining))
    if not boxes or not eqs:
        return LinearDeduction(frozenset(), frozenset(), ())
    from flint import fmpq_mat
    ncols = len(boxes)
    table = []
    for cols, need in eqs:
        equation = [0] * (ncols + 1)
        for j in cols:
            equation[j] = 1
        equation[ncols] = need
        table.append(equation)
    reduced, rank = fmpq_mat(table).rref()
    entries = reduced.tolist()
    safe: set[int] = set()
    mines: set[int] = set()
    determined = []
    for i in range(rank):
        reduced_row = entries[i]
        nonzero = [j for j in range(ncols) if reduced_row[j] != 0]
        if len(nonzero) != 1:
            continue
        j = nonzero[0]
        pivot, rhs = reduced_row[j], reduced_row[ncols]
        value = Fraction(int(rhs.p), int(rhs.q)) / Fraction(int(pivot.p), int(pivot.q))
        determined.append((boxes[j], value))
        if value == 0:
            safe.update(boxes[j])
        elif value == len(boxes[j]):
            mines.update(boxes[j])
    return LinearDeduction(frozenset(safe), frozenset(mines), tuple(determined))
