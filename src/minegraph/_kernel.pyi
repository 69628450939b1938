"""Type stub of the native kernel ``minegraph._kernel`` (``_kernel.c``); see
:mod:`minegraph.kernel`, which calls it.

The status codes and the limits are the module's own constants (the one definition); the
results are struct sequences: tuples whose fields also have names.
"""

from typing import Any, Final, Literal, Sequence, final

from typing_extensions import Buffer

VERSION: Final[str]
SOURCE_HASH: Final[str]

OK: Final[int]
INCONSISTENT: Final[int]
DECLINED: Final[int]
TIMEOUT: Final[int]
CANCELLED: Final[int]

MAX_COMPONENT_CELLS: Final[int]
MAX_BOX_CELLS: Final[int]
MAX_WIDE_CELLS: Final[int]
PARITY_NONE: Final[int]
PARITY_SUM: Final[int]
PARITY_ROW: Final[int]
MAX_DEGREE_COMBINED: Final[int]
MAX_FLOATING_COMBINED: Final[int]


@final
class Answer(tuple[Any, ...]):
    """``analyze``'s answer; the fields after ``detail`` are ``None`` unless status is OK."""

    n_fields: int
    n_sequence_fields: int
    n_unnamed_fields: int
    __match_args__: Final[tuple[
        Literal["status"], Literal["detail"], Literal["count"], Literal["safe"],
        Literal["mines"], Literal["box_cells"], Literal["box_counts"], Literal["box_floats"],
        Literal["floating"], Literal["floating_count"], Literal["floating_float"],
        Literal["best"], Literal["basis"], Literal["stats"], Literal["cell_floats"]]]

    @property
    def status(self) -> int: ...
    @property
    def detail(self) -> str: ...
    @property
    def count(self) -> int: ...  # type: ignore[override]  # the field, not tuple.count
    @property
    def safe(self) -> list[int]: ...
    @property
    def mines(self) -> list[int]: ...
    @property
    def box_cells(self) -> list[tuple[int, ...]]: ...
    @property
    def box_counts(self) -> list[int]: ...
    @property
    def box_floats(self) -> list[float]: ...
    @property
    def floating(self) -> bytes: ...
    @property
    def floating_count(self) -> int: ...
    @property
    def floating_float(self) -> float: ...
    @property
    def best(self) -> int: ...
    @property
    def basis(self) -> str | None: ...
    @property
    def stats(self) -> dict[str, int]: ...
    @property
    def cell_floats(self) -> bytes | None: ...


@final
class Component(tuple[Any, ...]):
    """``count_component``'s answer: ``total``, ``mined`` and ``nodes`` when counting,
    ``completion`` when completing; ``None`` otherwise."""

    n_fields: int
    n_sequence_fields: int
    n_unnamed_fields: int
    __match_args__: Final[tuple[
        Literal["status"], Literal["detail"], Literal["total"], Literal["mined"],
        Literal["completion"], Literal["nodes"]]]

    @property
    def status(self) -> int: ...
    @property
    def detail(self) -> str: ...
    @property
    def total(self) -> list[int]: ...
    @property
    def mined(self) -> list[list[int]]: ...
    @property
    def completion(self) -> list[int]: ...
    @property
    def nodes(self) -> int: ...


@final
class Played(tuple[Any, ...]):
    """``solvable``'s answer: OK (solved without a guess) or INCONSISTENT (stuck), or why
    not, and the safe cells left covered."""

    n_fields: int
    n_sequence_fields: int
    n_unnamed_fields: int
    __match_args__: Final[tuple[Literal["status"], Literal["left"]]]

    @property
    def status(self) -> int: ...
    @property
    def left(self) -> int: ...


def analyze(indptr: Buffer, indices: Buffer, states: Sequence[int], total: int, budget: int,
            deadline: float, cancel: Buffer | None, /) -> Answer: ...


def key_hashes(keys: list[Any], /) -> bytes: ...


def float_dict(keys: list[Any], hashes: Buffer, cell_floats: Buffer, /) -> dict[Any, float]: ...


def solvable(indptr: Buffer, indices: Buffer, layout: Buffer, first: int, total: int,
             budget: int, deadline: float, cancel: Buffer | None, exact: bool = True,
             /) -> Played: ...


def count_component(sizes: Sequence[int], clues: Sequence[tuple[int, tuple[int, ...]]],
                    with_total: bool, budget: int, deadline: float, cancel: Buffer | None,
                    want: int, /) -> Component: ...


def box_shares(mined: Sequence[Sequence[int]], sizes: Sequence[int], totals: Sequence[int],
               likely: Sequence[int], shares: Sequence[float], /) -> bytes: ...


def assemble(indptr: Buffer, indices: Buffer, states: Sequence[int], decided: Buffer,
             opened: Sequence[int], need: Sequence[int], unknown: Sequence[int], failed: int,
             /) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]], list[int], list[int],
                         list[tuple[int, ...]], list[tuple[int, ...]], list[tuple[int, ...]],
                         list[tuple[tuple[int, ...], tuple[tuple[int, tuple[int, ...]], ...]]],
                         tuple[int, ...], tuple[int, ...], int] | None: ...


def csr(neighbors: Sequence[Sequence[int]], /) -> tuple[bytes, bytes]: ...


def grid_table(rows: int, cols: int, wrap: bool, parity: int,
               offsets: tuple[tuple[tuple[int, int], ...], ...], /) -> tuple[tuple[int, ...], ...]: ...


def reasoning(indptr: Buffer, indices: Buffer, states: Sequence[int], propagate: bool,
              /) -> tuple[bytes, bytes, bytes, bytes, bytes, bytes, int] | None: ...
