"""A read-only mapping built on first read: the per-cell answers of an analysis.

An engine answers per box (cells no number tells apart share one value); naming every hidden
cell with its own value costs as much as the rest of an Expert analysis, and a caller that
wants one cell, the best move or the safe cells does not need it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable, Collection, Iterator, Mapping, Sequence, TypeVar, Union

__all__ = ["LazyDict", "GroupedCounts", "FloatProbabilities"]

K = TypeVar("K")
V = TypeVar("V")


class LazyDict(Mapping[K, V]):
    """The dictionary ``build()`` returns, built the first time it is read; it compares equal
    to a ``dict`` with the same items and is unhashable, like one.

    Parameters
    ----------
    build : callable
        Returns the dictionary, called once, on first read.

    Examples
    --------
    >>> lazy = LazyDict(lambda: {"a": 1})
    >>> lazy.built, lazy["a"], lazy.built, lazy == {"a": 1}
    (False, 1, True, True)
    """

    __slots__ = ("_build", "_values")

    def __init__(self, build: Callable[[], dict[K, V]]) -> None:
        self._build: Callable[[], dict[K, V]] | None = build
        self._values: dict[K, V] | None = None

    @property
    def built(self) -> bool:
        """Whether the dictionary has been built."""
        return self._values is not None

    def _dict(self) -> dict[K, V]:
        values = self._values
        if values is None:
            build = self._build
            assert build is not None
            # Two threads may both build: the same values, and either result is kept.
            values = self._values = build()
            self._build = None
        return values

    def __getitem__(self, key: K) -> V:
        return self._dict()[key]

    def __contains__(self, key: object) -> bool:
        return key in self._dict()

    def __iter__(self) -> Iterator[K]:
        return iter(self._dict())

    def __len__(self) -> int:
        return len(self._dict())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyDict):
            other = other._dict()
        return self._dict() == other

    __hash__ = None  # type: ignore[assignment]   # like a dict

    def __repr__(self) -> str:
        return repr(self._dict())


class GroupedCounts(LazyDict[int, int]):
    """Per hidden cell, the completions with a mine on it, given per group of cells that share
    the value (a box, the floating cells, the forced cells); the per-cell dictionary is built
    on first read, in the order of ``hidden``, and cells of no group count 0.

    :meth:`groups` lets a caller that wants every cell's probability divide once per group.

    Parameters
    ----------
    hidden : sequence of int
        The hidden cells, in the dictionary's order.
    count : int
        The number of completions.
    groups : list of (collection of int, int)
        Cells sharing a value, and the value.

    Examples
    --------
    >>> counts = GroupedCounts([0, 2, 3], 4, [([0, 2], 1), ([3], 4)])
    >>> list(counts.groups()), dict(counts)
    ([([0, 2], 1, 0.25), ([3], 4, 1.0)], {0: 1, 2: 1, 3: 4})
    """

    __slots__ = ("_groups", "_count")

    def __init__(self, hidden: Sequence[int], count: int,
                 groups: list[tuple[Collection[int], int]]) -> None:
        super().__init__(lambda: self._per_cell(hidden))
        self._groups = groups
        self._count = count

    def _per_cell(self, hidden: Sequence[int]) -> dict[int, int]:
        values = dict.fromkeys(hidden, 0)
        for cells, m in self._groups:
            values.update(dict.fromkeys(cells, m))
        return values

    def groups(self) -> Iterator[tuple[Collection[int], int, float]]:
        """Each group's cells, its count, and that count's share of all completions as a
        correctly rounded float (Python's integer division is). Below the double range that
        float is 0.0 or a subnormal, not within 1e-13 relative:
        :attr:`~minegraph.analysis.Analysis.floats` then gives the exact Fraction."""
        count = self._count
        for cells, m in self._groups:
            yield cells, m, m / count


class FloatProbabilities(LazyDict[int, Union[float, Fraction]]):
    """Every hidden cell's mine probability in a floating-point answer, held as one array of
    native doubles in cell order (``nan`` on cells that are not hidden); the dictionary, in
    the order of ``hidden``, is built on first read. A probability that is not a double at
    least :data:`~minegraph.present.SMALLEST_FLOAT` (0.0 aside) is in ``exceptions`` with its
    own value, and the array holds its nearest double there (never 0.0: 5e-324 at least).

    On a board of a million cells the array is 8 MB where the dictionary is about 100: the
    analysis reads the array (its floats, its array, its best move) and builds the dictionary
    only when asked for it.

    Parameters
    ----------
    hidden : sequence of int
        The hidden cells, increasing.
    cell_floats : bytes
        One native double per cell of the board.
    exceptions : dict of int to float or Fraction
        The cells whose value the array does not hold exactly, with their values.

    Examples
    --------
    >>> from array import array
    >>> nan = float("nan")
    >>> p = FloatProbabilities([0, 2], array("d", [0.25, nan, 5e-324]).tobytes(),
    ...                        {2: Fraction(1, 10 ** 400)})
    >>> p[0], p[2] == Fraction(1, 10 ** 400), p.built
    (0.25, True, True)
    """

    __slots__ = ("hidden", "cell_floats", "exceptions")

    def __init__(self, hidden: Sequence[int], cell_floats: bytes,
                 exceptions: dict[int, float | Fraction]) -> None:
        super().__init__(self._per_cell)
        self.hidden = hidden
        self.cell_floats = cell_floats
        self.exceptions = exceptions

    def _per_cell(self) -> dict[int, float | Fraction]:
        values = memoryview(self.cell_floats).cast("d")
        out: dict[int, float | Fraction] = dict(zip(self.hidden, map(values.__getitem__,
                                                                     self.hidden)))
        out.update(self.exceptions)
        return out
