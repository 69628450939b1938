"""A read-only mapping built on first read: the per-cell answers of an analysis.

An engine answers per box (cells no number tells apart share one value); naming every hidden
cell with its own value costs as much as the rest of an Expert analysis, and a caller that
wants one cell, the best move or the safe cells does not need it.
"""

from __future__ import annotations

from typing import Callable, Iterator, Mapping, TypeVar

__all__ = ["LazyDict"]

K = TypeVar("K")
V = TypeVar("V")


class LazyDict(Mapping[K, V]):
    """The dictionary ``build()`` returns, built the first time it is read; it compares equal
    to a ``dict`` with the same items and is unhashable, like one.

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
