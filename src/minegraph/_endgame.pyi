"""Type stub of the native endgame search ``minegraph._endgame`` (``_endgame.c``); see
:mod:`minegraph.play.endgame`, which calls it.

Arrays are passed as bytes of native ``int32`` (CSR: offsets, then the items); a cancel flag
is a one-byte writable buffer (a :class:`~minegraph.deadline.Deadline`'s ``flag``) or ``None``.
"""

from typing import Final

from typing_extensions import Buffer

VERSION: Final[str]
SOURCE_HASH: Final[str]

OK: Final[int]
TIMEOUT: Final[int]
NOMEMORY: Final[int]
CANCELLED: Final[int]
LIMIT: Final[int]
MAX_LAYOUTS: Final[int]
MAX_TANGLE_LAYOUTS: Final[int]


def completions(cells: Buffer, watch_ptr: Buffer, watch: Buffer, need: Buffer, total: int,
                limit: int, seconds: float, cancel: Buffer | None,
                /) -> tuple[int, bytes | None, bytes | None]:
    """``(status, mined_ptr, mined)``: every completion's mined cells, or ``LIMIT``."""


def observations(indptr: Buffer, indices: Buffer, shown: Buffer, cells: Buffer,
                 mined_ptr: Buffer, mined: Buffer, constant: Buffer, arena_bytes: int,
                 /) -> bytes:
    """``codes[i * n_layouts + k]``: what cell ``i`` shows under layout ``k`` (-1: a mine)."""


def search(codes: Buffer, n_layouts: int, order: Buffer, first: Buffer, seconds: float,
           max_nodes: int, memo_bytes: int, cancel: Buffer | None, tangle_layouts: int,
           near_ptr: Buffer = ..., near: Buffer = ..., factor_min: int = ...,
           /) -> tuple[int, int, int, list[int] | None, int]:
    """``(status, won, best, values, nodes)``; with at most ``tangle_layouts`` layouts (and at
    most ``MAX_TANGLE_LAYOUTS``) every group is bounded by its sets of layouts no move tells
    apart (0: never); with ``near_ptr``/``near`` (per cell position, the positions at most
    two steps away, CSR) groups of ``factor_min`` layouts or more (8) that are products over
    independent regions are searched region by region."""
