"""What a question on a position will cost, estimated before the work starts: which lane runs it.

A board text's length says little about its cost: a 1,600-byte board can take seconds, an
Expert board of 520 bytes takes milliseconds. The cost lies in the constraint system
(:func:`~minegraph.constraints.build_system`, linear in the board): the native kernel counts
a component of at most 120 cells in milliseconds by its search (wider ones, up to 2,000
cells, by a dynamic programme whose work grows with the component's width), and the
dynamic programme's work on a component is bounded by the table entries of its min-fill
clique tree (:func:`~minegraph.engines.dp.estimate_work`), exponential in its width. So
:func:`estimate` decides the cells the two trivial rules decide, and the position is *small*
(:meth:`Cost.small`) when no component of the cells left has more than ``most_cells`` cells
and the components' estimated work, summed, is at most ``most_work``.

The estimate runs in the server's own process, where every Python step holds the
interpreter lock that the other requests need, so it stops as soon as it knows a position is
not small: after propagation (linear in the board) it walks the components one cell at a
time and stops at the first that passes ``most_cells`` cells, without building the boxes,
clues and keys of the whole system (about a quarter of the time of
:func:`~minegraph.constraints.build_system` on a 40x40 board); only a position whose
components all fit is built whole, and its clique trees stop once the work passes
``most_work``.

:class:`CostMemo` remembers the verdict on a board text, so a request sent again is routed
without a second estimate (the web app's runner refuses a remembered big one at once when
the big lane is full, before it takes a thread of the small lane).

Examples
--------
>>> from minegraph import Board
>>> cost = estimate(Board.from_text("#1#1#"), most_cells=120, most_work=5000)
>>> cost.components, cost.largest, cost.small
(1, 3, True)
>>> estimate(Board.from_text("#1#1#"), most_cells=2, most_work=5000).small
False
"""

from __future__ import annotations

import hashlib
import math
import threading
from collections import OrderedDict
from dataclasses import dataclass

from minegraph.board import Board
from minegraph.states import HIDDEN

__all__ = ["Cost", "estimate", "CostMemo", "cost_key"]


@dataclass(frozen=True)
class Cost:
    """The estimated cost of a question on a position.

    Attributes
    ----------
    cells
        Undecided hidden cells next to a number (in components), after propagation; when
        the estimate stopped at a component past ``most_cells``, those of the components
        walked so far.
    components
        Components of the constraint system (when the estimate stopped early: those walked
        so far, the one past the bound included).
    largest
        Cells of the largest component; when the estimate stopped early, ``most_cells`` + 1
        (the component has at least that many).
    work
        The dynamic programme's estimated table entries summed over the components looked at
        (``inf`` when a component was past ``most_cells``; the sum may stop early once it
        passes ``most_work``).
    small
        Whether the position is within both bounds: the small lane may run it.
    """

    cells: int
    components: int
    largest: int
    work: float
    small: bool


def estimate(board: Board, *, most_cells: int, most_work: float) -> Cost:
    """The cost of analysing ``board``, and whether it is within ``most_cells`` and
    ``most_work`` (see the module docstring).

    Parameters
    ----------
    board
        The position.
    most_cells
        The most cells one component of a small position may have.
    most_work
        The most estimated table entries, summed over the components, of a small position.

    Returns
    -------
    Cost

    Examples
    --------
    >>> from minegraph.recipes import checkerboard_opening
    >>> cost = estimate(checkerboard_opening(40, 40, 0.3, seed=2, total=True),
    ...                 most_cells=120, most_work=5000)
    >>> cost.small, cost.largest, cost.work       # stopped at the first 121 cells
    (False, 121, inf)
    """
    # build_system's own steps (private to constraints.py), so that the walk below can
    # stop between propagation and the assembly of the whole system.
    from minegraph.constraints import _assemble, _open_numbers, _propagate
    from minegraph.engines.dp import estimate_work, local_graph
    from minegraph.engines.elimination import clique_tree
    reasoning, failed = _open_numbers(board)
    if failed is None:
        failed = _propagate(reasoning, board.neighbors, reasoning.opened[::-1])
    if failed is None:
        past = _walk(board, reasoning.opened, reasoning.unknown, reasoning.decided,
                     most_cells)
        if past is not None:
            return Cost(past[0], past[1], most_cells + 1, math.inf, False)
    # Every component fits (or the board is inconsistent, which the system reports): the
    # whole system (the rest of build_system's steps), then the work of each component.
    system = _assemble(board, reasoning, failed, True)
    sizes = [component.cells for component in system.components]
    largest = max(sizes, default=0)
    cells = sum(sizes)
    if largest > most_cells:
        return Cost(cells, len(sizes), largest, math.inf, False)
    work = 0.0
    # The widest first are the likeliest to pass the bound: stop there.
    for component in sorted(system.components, key=lambda c: -c.cells):
        boxes, clues = component.key
        work += estimate_work(boxes, clique_tree(local_graph(len(boxes), clues)))
        if work > most_work:
            break
    return Cost(cells, len(sizes), largest, work, work <= most_work)


def _walk(board: Board, opened: list[int], unknown: list[int], decided: dict[int, bool],
          most_cells: int) -> tuple[int, int] | None:
    """Walk the components of the undecided hidden cells (two are in one when a number with
    undecided cells, an active clue, touches both) from the active clues among ``opened``,
    one component at a time; at the first cell past ``most_cells`` in one component stop
    and return the cells and components walked. ``None`` when every component fits."""
    states, nbrs = board.states, board.neighbors
    seen = bytearray(len(states))          # clues and cells reached
    cells = components = 0
    for start in opened:
        if seen[start] or not unknown[start]:
            continue
        components += 1
        size = 0
        seen[start] = 1
        clues = [start]
        while clues:
            for q in nbrs[clues.pop()]:
                if states[q] != HIDDEN or seen[q] or q in decided:
                    continue
                seen[q] = 1                # an undecided cell: its active clues join
                size += 1
                cells += 1
                if size > most_cells:
                    return cells, components
                for t in nbrs[q]:
                    if states[t] >= 0 and unknown[t] and not seen[t]:
                        seen[t] = 1
                        clues.append(t)
    return None


def cost_key(board: str, format: str | None, dialect: str | None, mines: int | None) -> bytes:
    """What a position's cost depends on in a request: its board text as read (format and
    dialect) and its total, digested to 16 bytes (a :class:`CostMemo` key).

    Parameters
    ----------
    board
        The board text.
    format, dialect
        How it is read (``None``: detected, default).
    mines
        The request's total, if any.

    Returns
    -------
    bytes

    Examples
    --------
    >>> cost_key("#1#", None, None, 1) == cost_key("#1#", None, None, 1)
    True
    >>> cost_key("#1#", None, None, 1) == cost_key("#1#", None, None, None)
    False
    """
    digest = hashlib.blake2b(digest_size=16)
    # Each part framed by its length, so that no two requests share one byte string.
    for part in (board, format, dialect, mines):
        text = "" if part is None else str(part)
        digest.update(b"%d:%d:" % (part is None, len(text)) + text.encode("utf-8", "replace"))
    return digest.digest()


class CostMemo:
    """The estimates' verdicts on the last ``size`` positions seen (``True``: small), by
    :func:`cost_key`; thread-safe, least recently used first out.

    Parameters
    ----------
    size
        Verdicts kept.

    Examples
    --------
    >>> memo = CostMemo(2)
    >>> memo.put(b"a", False); memo.put(b"b", True); memo.get(b"a")
    False
    >>> memo.put(b"c", True); memo.get(b"b") is None      # b was the least recently used
    True
    """

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._verdicts: OrderedDict[bytes, bool] = OrderedDict()

    def get(self, key: bytes) -> bool | None:
        """The verdict on ``key`` (``None``: not known)."""
        with self._lock:
            found = self._verdicts.get(key)
            if found is not None:
                self._verdicts.move_to_end(key)
            return found

    def put(self, key: bytes, small: bool) -> None:
        """Remember that the position of ``key`` is ``small`` (or not)."""
        with self._lock:
            self._verdicts[key] = small
            self._verdicts.move_to_end(key)
            while len(self._verdicts) > self.size:
                self._verdicts.popitem(last=False)
