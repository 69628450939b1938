"""The native kernel as an engine result: the portfolio's first choice on every board it takes.

:func:`run_kernel` asks :mod:`minegraph.kernel` and turns its box-level answer into an
:class:`~minegraph.engines.base.EngineResult` whose per-cell counts are built on first read
(:class:`BoxCounts`): an Expert analysis never builds 480 dictionary entries or Fractions
unless someone reads them. The query's deadline and cancel flag go to the kernel, which polls
them; a position the kernel declines goes back to the Python path (``None``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterator, Sequence, TypeVar, Union

from minegraph.board import Board
from minegraph.deadline import current_deadline
from minegraph.engines.base import QUESTIONS, EngineResult
from minegraph.engines.combine import current_arithmetic
from minegraph.errors import QueryTimeout
from minegraph.kernel import (Declined, KernelAnswer, answer as kernel_answer, complete_component,
                              count_component, int32_list)
from minegraph.lazy import LazyDict

if TYPE_CHECKING:
    from minegraph._kernel import Answer

#: What :class:`BoxCounts` reads: the kernel's answer as :func:`minegraph.kernel.run` gives
#: it, or the extension's own (``floating`` packed, as :func:`run_kernel` passes it).
AnyAnswer = Union[KernelAnswer, "Answer"]

__all__ = ["BoxCounts", "KernelPart", "kernel_part", "run_kernel", "MAX_CELLS"]

T = TypeVar("T")


#: Boards of more cells go straight to the Python path: the kernel is built for positions of
#: playing size, and on bigger boards it declines (a combination past its 4,096 floating
#: cells or 400 degrees, a component past its budgets) after work that costs up to a sixth of the
#: Python path's time (measured on the openings of bench/bigboards.py, 400x400).
MAX_CELLS = 20_000


class BoxCounts(LazyDict[int, int]):
    """Per hidden cell, the completions with a mine on it, from the kernel's per-box answer;
    the dictionary is built on first read, in the order of the board's hidden cells.

    Parameters
    ----------
    board : Board
        The position.
    answer : KernelAnswer or minegraph._kernel.Answer
        The kernel's answer on it (the extension's own, with its floating cells packed as
        ``int32``, as :func:`run_kernel` passes it, or :func:`minegraph.kernel.run`'s).

    Examples
    --------
    >>> from minegraph import Board
    >>> from minegraph.kernel import KernelAnswer
    >>> answer = KernelAnswer(2, [], [], [(0, 2)], [1], [0.5], [], 0, 0.0, 0, "probability", {})
    >>> dict(BoxCounts(Board.from_text("#1#"), answer))
    {0: 1, 2: 1}
    """

    __slots__ = ("_answer",)

    def __init__(self, board: Board, answer: AnyAnswer) -> None:
        super().__init__(lambda: _per_cell(board, self))
        self._answer = answer

    @property
    def cell_floats(self) -> bytes | None:
        """Every cell's probability as the kernel gave it (:attr:`KernelAnswer.cell_floats`)."""
        return self._answer.cell_floats

    @property
    def forced(self) -> tuple[list[int], list[int]]:
        """The safe and the mined cells, each increasing, as the kernel listed them (the
        analysis names them without sorting the engine result's sets again)."""
        return self._answer.safe, self._answer.mines

    def groups(self) -> Iterator[tuple[tuple[int, ...], int, float]]:
        """Cells that share a count, with the count and its share of all completions as a
        correctly rounded float: the floating cells, each box, then each forced cell."""
        answer = self._answer
        floating = answer.floating
        if isinstance(floating, bytes):
            floating = int32_list(floating)
        if floating:
            yield tuple(floating), answer.floating_count, answer.floating_float
        yield from zip(answer.box_cells, answer.box_counts, answer.box_floats)
        grouped = {c for cells in answer.box_cells for c in cells}
        grouped.update(floating)
        decided_safe = tuple([c for c in answer.safe if c not in grouped])
        decided_mines = tuple([c for c in answer.mines if c not in grouped])
        if decided_safe:
            yield decided_safe, 0, 0.0
        if decided_mines:
            yield decided_mines, answer.count, 1.0


def _per_cell(board: Board, counts: BoxCounts) -> dict[int, int]:
    per_cell: list[int] = [0] * len(board.states)
    for cells, count, _ in counts.groups():
        for c in cells:
            per_cell[c] = count
    return {c: per_cell[c] for c in board.hidden}


def run_kernel(board: Board) -> EngineResult | None:
    """The kernel's answer on ``board`` as an engine result, or ``None`` when the Python path
    is to answer: the kernel is not built or not used (:mod:`minegraph.kernel` decides, and
    declines), the board has more than :data:`MAX_CELLS` cells, the query asks for
    floating-point arithmetic, or the kernel declines the position.

    Raises
    ------
    QueryTimeout, QueryCancelled
        when the current query's deadline passes or it is cancelled while the kernel works.

    Parameters
    ----------
    board : Board
        The position.

    Returns
    -------
    EngineResult or None
        The answer, or ``None``.
    """
    if len(board.states) > MAX_CELLS or current_arithmetic() == "float":
        return None
    try:
        if current_deadline() is None:      # the common call: no lambda, no checks
            answer = kernel_answer(board)
        else:
            answer = _under_deadline(lambda expires, flag: kernel_answer(board, expires, flag))
    except Declined:
        return None
    if answer is None:
        return EngineResult.inconsistent(board.hidden, {"engine": "kernel"})
    stats: dict[str, object] = {"engine": "kernel", **answer.stats}

    def completer() -> frozenset[int]:
        # Built only when asked for, by the Python DP (every component here is within its
        # reach: the kernel took the board).
        from minegraph.constraints import build_system
        from minegraph.engines.dp import DPEngine
        found = DPEngine().run_system(build_system(board)).get_completion()
        assert found is not None     # the kernel proved the board consistent
        return found

    best = answer.best
    # positional: the dataclass's fields in order (consistent ... best)
    return EngineResult(True, QUESTIONS, answer.count, BoxCounts(board, answer),
                        frozenset(answer.safe), frozenset(answer.mines), {}, None, stats,
                        completer, (None if best < 0 else best, answer.basis))


def _under_deadline(call: Callable[[float, bytearray | None], T]) -> T:
    """``call(expires, cancel_flag)`` under the current query's deadline, the kernel's
    timeout and cancellation turned into the query's errors."""
    deadline = current_deadline()
    if deadline is None:
        return call(0.0, None)
    deadline.check()
    try:
        return call(deadline.expires, deadline.flag)
    except (TimeoutError, InterruptedError):
        deadline.check()        # QueryTimeout or QueryCancelled, naming the question
        raise QueryTimeout(deadline.question, deadline.seconds) from None


class KernelPart:
    """One component counted by the kernel's search: the figures of
    :class:`~minegraph.engines.dp.ComponentDP` (``total``, ``mined``; a
    :class:`~minegraph.engines.dp.CountedPart`) without a clique tree, and a completion found
    by the same search.

    Parameters
    ----------
    sizes : sequence of int
        The cells of each box.
    clues : sequence of (int, tuple of int)
        Each clue's mines and boxes.
    with_total : bool
        Whether the counts are by mine count.
    total : list of int
        The assignments by mine count.
    mined : list of list of int
        The mines of each box, by mine count.

    Examples
    --------
    >>> part = kernel_part([1, 1, 1], [(1, (0, 1)), (1, (1, 2))], with_total=True)
    >>> if part is not None:            # the kernel is built
    ...     print(part.total, part.mined, part.completion(2))
    ... else:
    ...     print([0, 1, 1], [[0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 1, 0]], [1, 0, 1])
    [0, 1, 1] [[0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 1, 0]] [1, 0, 1]
    """

    __slots__ = ("sizes", "clues", "cells", "bits", "total", "mined", "width")

    def __init__(self, sizes: Sequence[int], clues: Sequence[tuple[int, tuple[int, ...]]],
                 *, with_total: bool, total: list[int], mined: list[list[int]]) -> None:
        self.sizes = sizes
        self.clues = clues
        self.cells = sum(sizes)
        self.bits = 1 if with_total else 0   # as ComponentDP: non-zero when counts are per total
        self.total = total
        self.mined = mined
        self.width = 0                       # no tree decomposition was needed

    def completion(self, target: int) -> list[int]:
        """Mines per local box in one assignment with ``target`` mines (any without a
        total): the kernel's search, or past its node budget (a component the programme
        counted, whose assignments the search may take long to reach) the DP's."""
        try:
            found = complete_component(self.sizes, self.clues, target if self.bits else -1)
        except Declined:
            from minegraph.engines.dp import ComponentDP
            dp = ComponentDP(self.sizes, self.clues, with_total=bool(self.bits))
            return dp.completion(target if self.bits else 0)
        if found is None:       # pragma: no cover - the combination asks for a count it saw
            raise AssertionError("no assignment for the requested mine count")
        return found


def kernel_part(sizes: Sequence[int], clues: Sequence[tuple[int, tuple[int, ...]]], *,
                with_total: bool) -> KernelPart | None:
    """The component counted by the kernel, or ``None`` when the kernel is not used or
    declines it (more than 2,000 cells, counts past 128 bits or past its budgets): the DP
    counts it then.

    Raises
    ------
    QueryTimeout, QueryCancelled
        when the current query's deadline passes or it is cancelled while the kernel works.

    Parameters
    ----------
    sizes : sequence of int
        The cells of each box.
    clues : sequence of (int, tuple of int)
        Each clue's mines and boxes.
    with_total : bool
        Whether to count by mine count.

    Returns
    -------
    KernelPart or None
        The counted component, or ``None``.
    """
    try:
        total, mined = _under_deadline(
            lambda expires, flag: count_component(sizes, clues, with_total=with_total,
                                                  deadline=expires, cancel=flag))
    except Declined:
        return None
    return KernelPart(sizes, clues, with_total=with_total, total=total, mined=mined)
