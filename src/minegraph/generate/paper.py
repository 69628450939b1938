"""Tables for paper Minesweeper by the theorems of German & Lakshtanov (2010).

A *table* shows some cells' numbers and hides the rest; it is a puzzle for paper when exactly one
mine layout on the hidden cells gives those numbers. German & Lakshtanov (*Application of
spectral theory to constructing a puzzle on the basis of the Minesweeper computer game*, Mat.
Zametki 88(6), 2010, 935-937) choose the uncovered cells so that this holds for *every* layout:

- Theorem 1: a 2 x n square grid (8 neighbours), one full row uncovered, n + 1 not divisible by 3;
- Theorem 2: an m x n square grid, the checkerboard ``i + j`` even uncovered (rows and columns
  counted from 1, which is the same as from 0), gcd(m + 1, n + 1) = 1;
- Theorem 3: the triangle grid (12 neighbours, :mod:`minegraph.topology`), the checkerboard
  uncovered, m + 1 and n + 1 not divisible by 4.

Mines are drawn by a Bernoulli(p) trial per hidden cell (p = 1/2 by default), the paper's step 1,
and the numbers filled in. Every table is certified, not assumed: Theorem 3 as printed fails
on some sizes (2x2, 2x4, 4x5, ...). A table's certificate (:attr:`PaperTable.certified_by`) is
either the full rank of its equations (:func:`minegraph.linalg.certify`), or, when the rank
falls short by one, the *null-space argument*: the null space is then the line of one exact
integer vector, and when that vector's non-zero entries do not all have one size, no
difference of two layouts (entries -1, 0, 1) lies on it, so no two layouts give the same
numbers (13x6 under Theorem 3, entries of sizes 1 to 6). Other sizes are refused
(docs/puzzles.md has the table).

The paper's *row-by-row variant* (``variant="rows"``) avoids numbers equal to 0 or to "all":
cells are decided row by row, left to right, and a cell that is the last hidden neighbour of a
number is decided so that this number is neither 0 nor equal to its count of hidden neighbours
(which rules out the paper's bound, the count of all neighbours, too). Each cell still draws its
trial, so where no number is at stake the variant places the same mines as the plain table.
A number cannot be protected when it has only one hidden neighbour, or when its last cell is
also the last cell of another number that needs the opposite choice; :attr:`PaperTable.unguarded`
lists those.

Examples
--------
>>> t = paper_table(2, 3, 4, seed=1)
>>> print(t.puzzle.to_text(), end="")
1#2#
#3#2
1#3#
>>> t.certificate.full, len(t.layout)
(True, 4)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction

from minegraph.board import HIDDEN, MINE, Board
from minegraph.errors import LimitError, MinegraphError, UserError
from minegraph.linalg import RankCertificate, certify, clue_incidence, null_vector
from minegraph.states import MAX_CELLS
from minegraph.topology import grid_neighbors

__all__ = ["THEOREMS", "VARIANTS", "MAX_SIDE", "TheoremError", "PaperTable", "paper_table",
           "theorem_condition", "open_cells", "theorem_topology", "completed"]

#: The theorems: number -> (topology, what is uncovered).
THEOREMS: dict[int, tuple[str, str]] = {
    1: ("square", "the top row of a 2 x n grid"),
    2: ("square", "the checkerboard (i + j even)"),
    3: ("triangle", "the checkerboard (i + j even)"),
}

#: Ways of drawing the mines: ``bernoulli`` (one trial per hidden cell) and ``rows`` (the
#: paper's row-by-row variant avoiding numbers 0 and "all").
VARIANTS = ("bernoulli", "rows")

#: The longest side of a table.
MAX_SIDE = 1000


class TheoremError(UserError):
    """A size the theorem does not allow; the message names the violated condition."""


def theorem_topology(theorem: int) -> str:
    """The grid of a theorem's tables (``square`` or ``triangle``).

    Parameters
    ----------
    theorem
        1, 2 or 3 (module docstring).

    Returns
    -------
    str
        The topology's name.

    Raises
    ------
    TheoremError
        for a theorem other than 1, 2, 3.
    """
    if theorem not in THEOREMS:
        raise TheoremError(f"unknown theorem {theorem!r}; expected 1, 2 or 3")
    return THEOREMS[theorem][0]


def theorem_condition(theorem: int, rows: int, cols: int) -> str | None:
    """Why the paper's theorem does not cover a ``rows`` x ``cols`` table, or ``None``.

    Only the printed condition is checked here; :func:`paper_table` also certifies the rank.

    Parameters
    ----------
    theorem
        1, 2 or 3 (module docstring).
    rows, cols
        The table's size.

    Returns
    -------
    str or None
        The condition the size violates, as a sentence; ``None`` when the theorem covers it.

    Raises
    ------
    TheoremError
        for a theorem other than 1, 2, 3.

    Examples
    --------
    >>> theorem_condition(1, 2, 5)
    'Theorem 1 needs n + 1 not divisible by 3, but 5 + 1 = 6 is'
    >>> theorem_condition(2, 5, 7)
    'Theorem 2 needs gcd(m + 1, n + 1) = 1, but gcd(6, 8) = 2'
    >>> theorem_condition(3, 4, 4) is None
    True
    """
    theorem_topology(theorem)
    if theorem == 1:
        if rows != 2:
            return f"Theorem 1 is about 2 x n grids, but the size has {rows} rows"
        if (cols + 1) % 3 == 0:
            return f"Theorem 1 needs n + 1 not divisible by 3, but {cols} + 1 = {cols + 1} is"
        return None
    if theorem == 2:
        g = math.gcd(rows + 1, cols + 1)
        if g != 1:
            return f"Theorem 2 needs gcd(m + 1, n + 1) = 1, but gcd({rows + 1}, {cols + 1}) = {g}"
        return None
    for name, side in (("m", rows), ("n", cols)):
        if (side + 1) % 4 == 0:
            return f"Theorem 3 needs m + 1 and n + 1 not divisible by 4, but {name} + 1 = {side + 1} is"
    return None


def open_cells(theorem: int, rows: int, cols: int) -> frozenset[int]:
    """The uncovered cells (indices ``r * cols + c``) of a theorem's table.

    Parameters
    ----------
    theorem
        1, 2 or 3 (module docstring).
    rows, cols
        The table's size.

    Returns
    -------
    frozenset of int
        The top row (Theorem 1) or the checkerboard ``r + c`` even (Theorems 2 and 3).

    Raises
    ------
    TheoremError
        for a theorem other than 1, 2, 3.

    Examples
    --------
    >>> sorted(open_cells(1, 2, 3)), sorted(open_cells(2, 2, 2))
    ([0, 1, 2], [0, 3])
    """
    theorem_topology(theorem)
    if theorem == 1:
        return frozenset(range(cols))
    return frozenset(i for i in range(rows * cols) if (i // cols + i % cols) % 2 == 0)


@dataclass(frozen=True)
class PaperTable:
    """A table for paper Minesweeper with its planted layout and certificate.

    Attributes
    ----------
    theorem, rows, cols, seed, p, variant
        How it was made.
    puzzle
        The table: numbers on the uncovered cells, the others hidden.
    layout
        The planted mines (cell indices).
    certificate
        The rank certificate of the table's equations (full: unique for every layout).
    unguarded
        Under the ``rows`` variant, the numbers the variant could not keep from 0 or "all"
        (a single hidden neighbour, or a conflict with another number); empty otherwise.
    null_vector
        When the rank falls short by one, the exact integer vector spanning the null space
        (one entry per hidden cell, row-major), whose non-zero entries have more than one
        size: the null-space certificate. ``None`` for a table of full rank.
    """

    theorem: int
    rows: int
    cols: int
    seed: int
    p: Fraction
    variant: str
    puzzle: Board
    layout: frozenset[int]
    certificate: RankCertificate
    unguarded: frozenset[int]
    null_vector: tuple[int, ...] | None = None

    @property
    def certified_by(self) -> str:
        """What proves the table unique for every layout: ``"full rank"`` or ``"null space"``
        (module docstring)."""
        return "full rank" if self.null_vector is None else "null space"

    def certificate_text(self) -> str:
        """The certificate in one line (the comment ``minegraph generate paper`` prints).

        Examples
        --------
        >>> paper_table(2, 2, 3).certificate_text()
        'rank 3 of 3 unknowns (full column rank modulo 2^61-1): unique for every layout'
        >>> print(paper_table(3, 13, 6).certificate_text())  # doctest: +ELLIPSIS
        rank 38 of 39 unknowns (...): nullity 1, but the null space is spanned by an exact integer vector whose non-zero entries have sizes 1 to 6, so no difference of two layouts lies in it: unique for every layout
        """
        if self.null_vector is None:
            return self.certificate.describe()
        sizes = sorted({abs(v) for v in self.null_vector} - {0})
        return (f"{self.certificate.describe()}, but the null space is spanned by an exact integer "
                f"vector whose non-zero entries have sizes {sizes[0]} to {sizes[-1]}, so no "
                f"difference of two layouts lies in it: unique for every layout")

    @property
    def answer(self) -> Board:
        """The answer key: the table with every hidden cell decided (mines ``M``, the other
        cells with their numbers)."""
        return completed(self.puzzle, self.layout)


def completed(board: Board, layout: frozenset[int]) -> Board:
    """``board`` with every hidden cell decided by ``layout``: mines as :data:`MINE`, safe cells
    with their numbers.

    Parameters
    ----------
    board
        The table.
    layout
        The mined cells (indices).

    Returns
    -------
    Board
        The answer key.

    Examples
    --------
    >>> completed(Board.from_text("#1#"), frozenset({0})).to_text()
    'M10\\n'
    """
    nbrs = board.neighbors
    states = [MINE if i in layout else (s if s != HIDDEN else sum(1 for q in nbrs[i] if q in layout))
              for i, s in enumerate(board.states)]
    return board.with_states(states)


def _check_size(theorem: int, rows: int, cols: int) -> None:
    for name, side in (("rows", rows), ("columns", cols)):
        if type(side) is not int or side < 1:
            raise TheoremError(f"expected a positive whole number of {name}, got {side!r}")
        if side > MAX_SIDE:
            raise LimitError(f"{side} {name} exceed the limit of {MAX_SIDE}")
    if rows * cols > MAX_CELLS:
        raise LimitError(f"a table of {rows}x{cols} cells exceeds the limit of {MAX_CELLS} cells")
    why = theorem_condition(theorem, rows, cols)
    if why is not None:
        raise TheoremError(why)


def _probability(p: float | Fraction) -> Fraction:
    value = Fraction(p).limit_denominator(10**9) if isinstance(p, float) else Fraction(p)
    if not 0 <= value <= 1:
        raise UserError(f"the mine probability must lie in [0, 1], got {p}")
    return value


def paper_table(theorem: int, rows: int, cols: int, *, seed: int = 0,
                p: float | Fraction = Fraction(1, 2), variant: str = "bernoulli") -> PaperTable:
    """A certified table of Theorem ``theorem`` of ``rows`` x ``cols`` cells.

    Parameters
    ----------
    theorem
        1, 2 or 3 (module docstring).
    rows, cols
        The size; it must meet the theorem's condition, and for Theorem 3 be certified.
    seed
        The random seed: the same arguments give the same table.
    p
        The mine probability of each hidden cell's trial.
    variant
        ``"bernoulli"`` (the paper's step 1) or ``"rows"`` (its row-by-row variant).

    Returns
    -------
    PaperTable
        The table with its planted layout and its rank certificate.

    Raises
    ------
    TheoremError
        naming the violated condition, or for a triangle size that is certified neither by
        full rank nor by the null-space argument (saying whether two layouts give the same
        numbers, or that it is not known).
    LimitError
        for a side over :data:`MAX_SIDE` or more than :data:`~minegraph.states.MAX_CELLS` cells.
    UserError
        for ``p`` outside [0, 1] or an unknown variant.

    Examples
    --------
    >>> print(paper_table(1, 2, 7, seed=3).puzzle.to_text(), end="")
    1211122
    #######
    >>> t = paper_table(1, 2, 7, seed=3, variant="rows")   # the last 2 would be "all"
    >>> print(t.puzzle.to_text(), end="")
    1211111
    #######
    >>> sorted(t.layout), sorted(t.unguarded)
    ([7, 9, 12], [])
    >>> paper_table(3, 2, 2)
    Traceback (most recent call last):
    ...
    minegraph.generate.paper.TheoremError: Theorem 3's condition holds for 2x2, but the table is not unique for every layout: two layouts give the same numbers (its equations have rank 1 of 2 unknowns, nullity 1); docs/puzzles.md lists the certified triangle sizes
    """
    topology = theorem_topology(theorem)
    _check_size(theorem, rows, cols)
    if variant not in VARIANTS:
        raise UserError(f"unknown variant {variant!r}; expected one of {', '.join(VARIANTS)}")
    prob = _probability(p)
    uncovered = open_cells(theorem, rows, cols)
    nbrs = grid_neighbors(topology, rows, cols)
    template = Board.grid(rows, cols, [0 if i in uncovered else HIDDEN for i in range(rows * cols)],
                          topology=topology)
    certificate = certify(template)
    vector: tuple[int, ...] | None = None
    if not certificate.full:
        if theorem != 3:  # pragma: no cover - the theorems 1 and 2 hold (tests/generate)
            raise MinegraphError(f"Theorem {theorem}'s table of {rows}x{cols} is not certified: "
                                 f"{certificate.describe()}")
        line = _null_line(template, certificate)
        if line is None or len({abs(v) for v in line} - {0}) == 1:
            raise TheoremError(_refusal(rows, cols, template, certificate))
        vector = line
    layout, unguarded = _draw(rows * cols, nbrs, uncovered, prob, seed, variant == "rows")
    states = [sum(1 for q in nbrs[i] if q in layout) if i in uncovered else HIDDEN
              for i in range(rows * cols)]
    puzzle = template.with_states(states)
    return PaperTable(theorem, rows, cols, seed, prob, variant, puzzle, layout, certificate,
                      unguarded, vector)


#: A rank-deficient table of at most this many unknowns is searched for two layouts with the
#: same numbers, so that the refusal says which holds: not unique, or unique but not certified
#: by rank (as 13x6).
TWIN_SEARCH_UNKNOWNS = 1000

#: Solver conflicts the search for two layouts spends at most (nullity 2 or more).
_TWIN_CONFLICTS = 100_000


def _null_line(template: Board, certificate: RankCertificate) -> tuple[int, ...] | None:
    """The exact primitive integer vector spanning the null space of ``template``'s equations
    when it has nullity 1 and at most :data:`TWIN_SEARCH_UNKNOWNS` unknowns, else ``None``."""
    if certificate.nullity != 1 or certificate.unknowns > TWIN_SEARCH_UNKNOWNS:
        return None
    from flint import fmpz_mat
    incidence = clue_incidence(template)
    n = len(incidence.columns)
    entries = [0] * (len(incidence.rows) * n)
    for i, row in enumerate(incidence.rows):
        for j in row:
            entries[i * n + j] = 1
    basis, nullity = fmpz_mat(len(incidence.rows), n, entries).nullspace()
    if nullity != 1:   # pragma: no cover - the modular rank is the rational rank here
        return None
    column = [int(basis[j, 0]) for j in range(n)]
    common = math.gcd(*column)
    return tuple(v // common for v in column)


def _twins(template: Board, certificate: RankCertificate) -> bool | None:
    """Whether two different layouts give ``template`` the same numbers; ``None`` when not
    decided (too many unknowns, or the search gave up).

    Two layouts differ by a vector of the null space with entries in {-1, 0, 1}. With nullity
    1 the null space is the line of one integer vector ``v``, and a multiple of ``v`` has its
    entries in {-1, 0, 1} exactly when the non-zero entries of ``v`` all have one size: an
    exact test. Otherwise a SAT search (:func:`~minegraph.linalg.null_vector`) decides, within
    a budget."""
    if certificate.full:
        return False
    if certificate.unknowns > TWIN_SEARCH_UNKNOWNS:
        return None
    if certificate.nullity == 1:
        line = _null_line(template, certificate)
        assert line is not None
        return len({abs(v) for v in line} - {0}) == 1
    try:
        return null_vector(template, conflicts=_TWIN_CONFLICTS) is not None
    except LimitError:
        return None


def _refusal(rows: int, cols: int, template: Board, certificate: RankCertificate) -> str:
    """Why a triangle size that meets Theorem 3's condition is refused: its rank is short,
    and what is known of its layouts (never "not unique" unless two layouts are found)."""
    rank = (f"its equations have rank {certificate.rank} of {certificate.unknowns} unknowns, "
            f"nullity {certificate.nullity}")
    where = "docs/puzzles.md lists the certified triangle sizes"
    twins = _twins(template, certificate)
    if twins:
        return (f"Theorem 3's condition holds for {rows}x{cols}, but the table is not unique for "
                f"every layout: two layouts give the same numbers ({rank}); {where}")
    if twins is None:
        return (f"Theorem 3's condition holds for {rows}x{cols}, but the table is not certified "
                f"unique for every layout: {rank}; {where}")
    return (f"Theorem 3's condition holds for {rows}x{cols} and the table is unique for every "
            f"layout (no two layouts give the same numbers), but it is not certified by full "
            f"rank ({rank}), and only certified tables are made; {where}")


def _draw(n: int, nbrs: tuple[tuple[int, ...], ...], uncovered: frozenset[int], p: Fraction,
          seed: int, guarded: bool) -> tuple[frozenset[int], frozenset[int]]:
    """The mines, one trial per hidden cell in row-major order, and the unguarded numbers."""
    rng = random.Random(seed)
    hidden_around = {a: [q for q in nbrs[a] if q not in uncovered] for a in uncovered}
    last: dict[int, list[int]] = {}
    for a, cells in hidden_around.items():
        if cells:
            last.setdefault(max(cells), []).append(a)
    unguarded = {a for a, cells in hidden_around.items() if len(cells) < 2}
    mines: set[int] = set()
    threshold = float(p)
    for cell in range(n):
        if cell in uncovered:
            continue
        mine = rng.random() < threshold if 0 < p < 1 else p == 1
        if guarded:
            want: dict[bool, list[int]] = {True: [], False: []}
            for a in last.get(cell, ()):
                size = len(hidden_around[a])
                if size < 2:
                    continue
                placed = sum(1 for q in hidden_around[a] if q in mines)
                if placed == 0:
                    want[True].append(a)        # a mine here, or the number is 0
                elif placed == size - 1:
                    want[False].append(a)       # no mine here, or the number is "all"
            if want[True] and want[False]:
                unguarded.update(want[not mine])
            elif want[True] or want[False]:
                mine = bool(want[True])
        if mine:
            mines.add(cell)
    return frozenset(mines), frozenset(unguarded)
