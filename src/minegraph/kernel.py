"""The native kernel (``minegraph._kernel``, C): loading it, refusing a stale build, calling it.

The kernel answers a whole position in one call behind a narrow interface of flat arrays: the
board's neighbour lists in CSR form (two ``int32`` arrays, built once per neighbour table and
kept), the cell states and the total. It builds the constraints, propagates, groups boxes,
counts every component exactly and combines them under the total; out comes a box-level
answer (:class:`KernelAnswer`): the count, the forced cells, each box's cells with the exact
number of completions that put a mine on one of its cells and that share as a correctly
rounded float, the same for the floating cells, and the best move. What it is not built for
(a component of more than 2,000 cells, counts of a wide component past 128 bits or its state
budget, a combination of more
than 400 degrees) it declines, and the engine runs the Python path, which stays the readable
reference of the same mathematics (``constraints.py``, ``engines/dp.py``,
``engines/combine.py``); ``tests/test_kernel.py`` holds the two equal. The extension returns
struct sequences with named fields (typed in ``_kernel.pyi``) and exports its status codes
and limits, which this module reads from it rather than defining them again. It releases the
GIL while it builds the model and searches, so threads analysing at once overlap there.

The kernel is built by ``pip install`` (``setup.py``) when a C compiler is present, and is
optional: without it, or with ``MINEGRAPH_PURE=1``, everything runs in Python. A kernel built
from another version of minegraph, or (in a source checkout) from another ``_kernel.c``, is
refused by name: :func:`status` says why, and ``minegraph --version`` shows it. That choice
is made here alone (:func:`load_native`); in pure Python every call raises
:class:`Unavailable`, a :class:`Declined`, and callers run the Python path.

Examples
--------
>>> status() in ("native", "pure") or status().startswith("pure (")
True
"""

from __future__ import annotations

import hashlib
import importlib
import os
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn, Sequence

from minegraph.version import __version__

if TYPE_CHECKING:       # the kernel's typed results, as its stub _kernel.pyi describes them
    from minegraph._kernel import Answer, Component, Played
    # (annotations only: the board module reaches the kernel through topology's grid tables)
    from minegraph.board import Board

__all__ = ["KernelAnswer", "answer", "int32_list", "reasoning", "Declined", "Unavailable", "available", "load_native", "module",
           "status", "run", "float_dict", "key_hashes", "solvable", "count_component", "complete_component", "box_shares", "assemble",
           "max_component_cells", "SEARCH_BUDGET", "PURE_VARIABLE"]

#: Search nodes the kernel may spend on one position before it declines (a few milliseconds).
SEARCH_BUDGET = 200_000

#: ``MINEGRAPH_PURE=1`` in the environment: never use the kernel.
PURE_VARIABLE = "MINEGRAPH_PURE"

SOURCE = Path(__file__).resolve().parent / "_kernel.c"


def source_hash(path: Path = SOURCE) -> str:
    """SHA-256 of the kernel's C source, as the build embeds it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load_native(name: str, source: Path) -> tuple[ModuleType | None, str]:
    """The compiled extension ``name`` built from the C file ``source``, or ``None``: the one
    place where minegraph chooses between native code and pure Python (for the analysis
    kernel here, and for the command line's Ctrl-C guard, ``minegraph.cli._sigint``).

    Parameters
    ----------
    name : str
        The extension's dotted module name, such as ``"minegraph._kernel"``.
    source : pathlib.Path
        Its C source; when the file exists (a source checkout), the extension's embedded
        ``SOURCE_HASH`` must be this file's :func:`source_hash`.

    Returns
    -------
    tuple
        The module (``None``: pure Python) and ``"native"`` or ``"pure"`` with the reason in
        parentheses: ``MINEGRAPH_PURE=1``, not built, built for another version, or (in a
        source checkout) older than its C file.
    """
    if os.environ.get(PURE_VARIABLE, "") not in ("", "0"):
        return None, f"pure ({PURE_VARIABLE}=1)"
    try:
        extension = importlib.import_module(name)
    except ImportError:
        return None, "pure"
    built: str = getattr(extension, "VERSION", "?")
    what = "kernel" if name == "minegraph._kernel" else name
    if built != __version__:
        return None, f"pure ({what} built for {built}, not {__version__}: reinstall)"
    if source.exists() and getattr(extension, "SOURCE_HASH", "") != source_hash(source):
        return None, f"pure ({what} older than {source.name}: make native)"
    return extension, "native"


_KERNEL, _STATUS = load_native("minegraph._kernel", SOURCE)


def module() -> ModuleType | None:
    """The loaded extension module ``minegraph._kernel``, or ``None`` (pure Python).

    Returns
    -------
    types.ModuleType or None
        The extension chosen at import by :func:`load_native`; ``None`` when this process
        runs pure Python (:func:`status` says why).
    """
    return _KERNEL


def available() -> bool:
    """Whether this process runs the native kernel.

    Returns
    -------
    bool
        ``True`` when the extension was loaded (:func:`module` is not ``None``).
    """
    return _KERNEL is not None


def status() -> str:
    """``"native"``, or ``"pure"`` with the reason in parentheses when a kernel exists but
    is not used.

    Returns
    -------
    str
        ``"native"``, ``"pure"`` (no kernel built), or ``"pure (...)"``: ``MINEGRAPH_PURE=1``,
        a kernel built for another version, or one older than its C file (as
        :func:`load_native` gives it).
    """
    return _STATUS


class KernelAnswer(NamedTuple):
    """The kernel's answer on a consistent position, per box (cell indices throughout).

    Its fields, in order (as a NamedTuple, they are its constructor's parameters and its
    attributes alike; :func:`run` makes it from the extension's result):

    Parameters
    ----------
    count
        Completions of the board (respecting the total when there is one).
    safe, mines
        Hidden cells safe / mined in every completion, increasing.
    box_cells, box_counts, box_floats
        Per box: its cells; the completions with a mine on any one of them; that count over
        ``count``, correctly rounded.
    floating, floating_count, floating_float
        Hidden cells next to no active clue, and the same two figures for each of them.
    best, basis
        The recommended cell and why (as :func:`~minegraph.analysis.choose_best`).
    stats
        Components, boxes, clues, floating cells and search nodes.
    cell_floats
        Every cell's mine probability as :attr:`~minegraph.analysis.Analysis.floats` reads
        it, ``n`` native doubles (NaN on cells that are not hidden); ``None`` when a
        probability lies below the double range (not given, or given as a Fraction there).
    """

    count: int  # type: ignore[assignment]  # the field, not tuple.count
    safe: list[int]
    mines: list[int]
    box_cells: list[tuple[int, ...]]
    box_counts: list[int]
    box_floats: list[float]
    floating: list[int]
    floating_count: int
    floating_float: float
    best: int | None
    basis: str | None
    stats: dict[str, int]
    cell_floats: bytes | None = None


class Declined(Exception):
    """The kernel is not built for this position; the reason is the message."""


class Unavailable(Declined):
    """This process runs pure Python (:func:`status` says why): the kernel declines every
    position."""


#: CSR arrays by neighbour table (boards made by ``with_states`` share one table). Keyed by
#: identity, with the table kept alive beside its arrays so the identity stays its own.
_CSR: dict[int, tuple[object, bytes, bytes]] = {}
_CSR_KEEP = 64
#: Tables of more cells are not kept: a million-cell board's is 36 MB, needed once per
#: analysis (by :func:`reasoning`), and the peak memory of such an analysis is what bounds it.
_CSR_KEEP_CELLS = 100_000


#: The table of one big board between :func:`reasoning` and :func:`assemble`, the two steps
#: of one constraint build (held by the first, released by the second).
_HELD: list[tuple[object, bytes, bytes]] = []


def _csr(neighbors: tuple[tuple[int, ...], ...], hold: bool | None = None) -> tuple[bytes, bytes]:
    """The CSR arrays of a neighbour table; of a big table, ``hold=True`` keeps them for the
    next call with ``hold=False``, which releases them."""
    entry = _CSR.get(id(neighbors))
    if entry is not None and entry[0] is neighbors:
        return entry[1], entry[2]
    held = _HELD.pop() if _HELD and hold is False else None
    if held is not None and held[0] is neighbors:
        return held[1], held[2]
    assert _KERNEL is not None      # only the kernel's callers need the table
    pair: tuple[bytes, bytes] = _KERNEL.csr(neighbors)
    if len(neighbors) > _CSR_KEEP_CELLS:
        if hold:
            _HELD[:] = [(neighbors, *pair)]
        return pair     # made again per build (a tenth of a second), not held beside the board
    if len(_CSR) >= _CSR_KEEP:
        _CSR.clear()
    _CSR[id(neighbors)] = (neighbors, *pair)
    return pair


def _native() -> ModuleType:
    """The kernel; :class:`Unavailable` when this process runs pure Python.  Every call into
    the kernel goes through here, so that callers decide nothing: they catch
    :class:`Declined` and run the Python path."""
    if _KERNEL is None:
        raise Unavailable(f"the native kernel is not available: {_STATUS}")
    return _KERNEL


def _raise_for(kernel: ModuleType, code: int, why: str) -> NoReturn:
    """The exception of a kernel status other than OK and INCONSISTENT (the status codes
    are the kernel's own constants)."""
    if code == kernel.DECLINED:
        raise Declined(why)
    if code == kernel.TIMEOUT:
        raise TimeoutError(why)
    raise InterruptedError(why)


def max_component_cells() -> int:
    """The most cells of a component the kernel counts (its own limit, read from it); 0 when
    this process runs pure Python. Up to 63 cells it searches; a wider component, or one past
    the search's node budget, it counts by a dynamic programme in 128-bit integers (the
    faster there), and declines when a count would overflow them (a component of at most
    ``MAX_COMPONENT_CELLS``, 120, cells the programme declines goes back to the search).

    Returns
    -------
    int
        The extension's ``MAX_WIDE_CELLS`` (2,000), or 0 without the kernel.

    Examples
    --------
    >>> max_component_cells() in (0, 2000)
    True
    """
    return int(_KERNEL.MAX_WIDE_CELLS) if _KERNEL is not None else 0


def run(board: Board, deadline: float = 0.0, cancel: bytearray | None = None,
        budget: int = SEARCH_BUDGET) -> KernelAnswer | None:
    """The kernel's answer on ``board``, or ``None`` when the board is inconsistent.

    Parameters
    ----------
    board
        The position.
    deadline
        A :func:`time.monotonic` value at which to stop (0: none).
    cancel
        A one-byte buffer; the kernel stops when the caller sets it to non-zero.
    budget
        Search nodes allowed.

    Returns
    -------
    KernelAnswer or None
        The box-level answer, or ``None`` when no completion of the board exists
        (inconsistent).

    Raises
    ------
    Declined
        when the position is beyond what the kernel is built for (:class:`Unavailable` when
        this process runs pure Python).
    TimeoutError, InterruptedError
        when the deadline passed or the cancel flag was set (the engine turns these into
        :class:`~minegraph.errors.QueryTimeout` and :class:`~minegraph.errors.QueryCancelled`).

    Examples
    --------
    >>> from minegraph import Board
    >>> if available():
    ...     a = run(Board.from_text("mines: 1\\n#1#"))
    ...     print(a.count, a.box_cells, a.box_floats)
    ... else:
    ...     print(2, [(0, 2)], [0.5])
    2 [(0, 2)] [0.5]
    """
    out = answer(board, deadline, cancel, budget)
    if out is None:
        return None
    return KernelAnswer(out.count, out.safe, out.mines, out.box_cells, out.box_counts,
                        out.box_floats, int32_list(out.floating), out.floating_count,
                        out.floating_float, None if out.best < 0 else out.best, out.basis,
                        out.stats, out.cell_floats)


def int32_list(packed: bytes) -> list[int]:
    """The cells packed as native ``int32`` values (the extension's ``Answer.floating``).

    Parameters
    ----------
    packed : bytes
        Native ``int32`` values.

    Returns
    -------
    list of int
        The values.

    Examples
    --------
    >>> from array import array
    >>> int32_list(array("i", [3, 5]).tobytes())
    [3, 5]
    """
    values: list[int] = memoryview(packed).cast("i").tolist()
    return values


def answer(board: Board, deadline: float = 0.0, cancel: bytearray | None = None,
           budget: int = SEARCH_BUDGET) -> Answer | None:
    """The extension's own answer on ``board`` (:func:`run` without the conversion to a
    :class:`KernelAnswer`: the engine reads it as it is, since an analysis of an Expert
    position costs little more than the objects made for it).

    Parameters
    ----------
    board
        The position.
    deadline, cancel, budget
        As for :func:`run`.

    Returns
    -------
    minegraph._kernel.Answer or None
        The struct sequence with status ``OK`` (``floating`` packed as ``int32``, ``best``
        ``-1`` for none), or ``None`` when the board is inconsistent.

    Raises
    ------
    Declined, TimeoutError, InterruptedError
        As :func:`run`.
    """
    kernel = _native()
    indptr, indices = _csr(board.neighbors)
    total = -1 if board.mines is None else board.mines
    out: Answer = kernel.analyze(indptr, indices, board.states, total, budget, deadline,
                                 cancel)
    if out.status == kernel.OK:
        return out
    if out.status == kernel.INCONSISTENT:
        return None
    _raise_for(kernel, out.status, out.detail)


def float_dict(keys: list[Any], cell_floats: bytes, hashes: bytes | None = None) -> dict[Any, float]:
    """``{keys[c]: p}`` for every cell ``c`` whose probability ``p`` in ``cell_floats`` (``n``
    native doubles, :attr:`KernelAnswer.cell_floats`) is not NaN, in cell order: the
    dictionary :attr:`~minegraph.analysis.Analysis.floats` of a kernel answer, built in C.
    ``hashes`` are the keys' :func:`key_hashes` (computed here when not given).

    Parameters
    ----------
    keys : list
        One key per cell, in cell order (the board's labels or indices).
    cell_floats : bytes
        ``len(keys)`` native doubles, NaN where a cell has no probability.
    hashes : bytes, optional
        ``key_hashes(keys)``, when the caller keeps them for the board's shape.

    Returns
    -------
    dict
        Key -> probability for the cells whose value is not NaN, in cell order.

    Raises
    ------
    Unavailable
        when this process runs pure Python.

    Examples
    --------
    >>> from array import array
    >>> if available():
    ...     print(float_dict(["a", "b", "c"], array("d", [0.5, float("nan"), 0.25]).tobytes()))
    ... else:
    ...     print({'a': 0.5, 'c': 0.25})
    {'a': 0.5, 'c': 0.25}
    """
    native = _native()
    out: dict[Any, float] = native.float_dict(keys, native.key_hashes(keys) if hashes is None
                                              else hashes, cell_floats)
    return out


def key_hashes(keys: list[Any]) -> bytes:
    """The hash of every key, as native ``Py_hash_t`` values (for :func:`float_dict`: the
    keys of a board shape are hashed once, not on every analysis).

    Parameters
    ----------
    keys : list
        Hashable keys, one per cell.

    Returns
    -------
    bytes
        ``hash(key)`` of each key in order, packed as native ``Py_hash_t`` values.

    Raises
    ------
    Unavailable
        when this process runs pure Python.
    """
    out: bytes = _native().key_hashes(keys)
    return out


def reasoning(board: Board, propagate: bool = True
              ) -> tuple[list[int], list[int], list[int], list[int], bytes, list[int], int]:
    """The first steps of :func:`~minegraph.constraints.build_system` in C: the numbers with
    hidden neighbours and, when ``propagate``, the two trivial rules to their fixpoint (the
    Python steps ``_open_numbers`` and ``_propagate``, which ``tests/test_kernel.py`` holds
    equal to these).

    Parameters
    ----------
    board
        The position.
    propagate
        Whether to propagate.

    Returns
    -------
    tuple
        ``(opened, need, unknown, cells, mines, clues, failed)``: the numbers with hidden
        neighbours, increasing; each cell's need and undecided hidden neighbours (lists of
        ``n``); the decisions in order (cells, one byte per decision, 1 for a mine, and the
        numbers that decided them); the first number found unsatisfiable, or -1.

    Raises
    ------
    Declined
        for a number above 127 (:class:`Unavailable` when this process runs pure Python).

    Examples
    --------
    >>> from minegraph import Board
    >>> if available():
    ...     out = reasoning(Board.from_text("#1-\\n01-"))
    ...     print(out[0], out[3], list(out[4]), out[5], out[6])
    ... else:
    ...     print([1, 3, 4], [0], [1], [1], 3)
    [1, 3, 4] [0] [1] [1] 3
    """
    native = _native()
    indptr, indices = _csr(board.neighbors, hold=True)
    out = native.reasoning(indptr, indices, board.states, propagate)
    if out is None:
        raise Declined("a number above 127")
    opened, need, unknown, cells, mines, clues, failed = out
    return (int32_list(opened), int32_list(need), int32_list(unknown), int32_list(cells),
            mines, int32_list(clues), failed)


#: :func:`assemble`'s answer: boxes (cells, clues), clues (cells, needs, boxes), components
#: (boxes, clues, keys), the hidden and the floating cells, and the first failed number.
Assembly = tuple[list[tuple[int, ...]], list[tuple[int, ...]], list[int], list[int],
                 list[tuple[int, ...]], list[tuple[int, ...]], list[tuple[int, ...]],
                 list[tuple[tuple[int, ...], tuple[tuple[int, tuple[int, ...]], ...]]],
                 tuple[int, ...], tuple[int, ...], int]


def assemble(board: Board, decided: dict[int, bool], opened: Sequence[int], need: Sequence[int],
             unknown: Sequence[int], failed: int) -> Assembly:
    """The last steps of :func:`~minegraph.constraints.build_system` in C, from propagation's
    result: the active clues, the boxes, the components with their keys, the hidden and the
    floating cells (the Python step ``constraints._assembly``, which
    ``tests/test_kernel.py`` holds equal to this).

    Parameters
    ----------
    board
        The position.
    decided
        Propagation's decisions: cell -> whether it is a mine.
    opened
        The numbers with hidden neighbours, increasing.
    need, unknown
        Each cell's need and undecided hidden neighbours (sequences of ``n``; read at the
        numbers of ``opened``).
    failed
        A number already found unsatisfiable, or -1.

    Returns
    -------
    tuple
        ``(box_cells, box_clues, clue_cells, clue_needs, clue_boxes, comp_boxes, comp_clues,
        comp_keys, hidden, floating, failed)`` as ``constraints._assembly`` gives them.

    Raises
    ------
    Declined
        for a number above 127 (:class:`Unavailable` when this process runs pure Python).

    Examples
    --------
    >>> from minegraph import Board
    >>> if available():
    ...     out = assemble(Board.from_text("#1#1#"), {}, [1, 3], [0, 1, 0, 1, 0],
    ...                    [0, 2, 0, 2, 0], -1)
    ...     print(out[0], out[2], out[7])
    ... else:
    ...     print([(0,), (2,), (4,)], [1, 3], [((1, 1, 1), ((1, (0, 1)), (1, (1, 2))))])
    [(0,), (2,), (4,)] [1, 3] [((1, 1, 1), ((1, (0, 1)), (1, (1, 2))))]
    """
    native = _native()
    indptr, indices = _csr(board.neighbors, hold=False)
    marks = bytearray(len(board.states))
    for c, mine in decided.items():
        marks[c] = 2 if mine else 1
    out: Assembly | None = native.assemble(indptr, indices, board.states, marks, opened, need,
                                           unknown, failed)
    if out is None:
        raise Declined("a number above 127")
    return out


def solvable(board: Board, layout: frozenset[int], first: int, deadline: float = 0.0,
             cancel: bytearray | None = None, budget: int = SEARCH_BUDGET,
             exact: bool = True) -> bool:
    """Whether the layout is solved without a guess from the cell ``first``: uncover (zeros
    flood-fill), the two single-number rules, and when they are stuck (with ``exact``) the
    exact forced cells of the position under the total (``board.mines``), until every safe
    cell is uncovered.

    ``board`` gives the shape (its states are not read). This is the no-guess generator's
    ``search`` player (:class:`~minegraph.generate.player.DeductionPlayer`) in one native call,
    and with ``exact=False`` its ``single`` player.

    Parameters
    ----------
    board : Board
        The shape and the total (``board.mines``); its states are not read.
    layout : frozenset of int
        The mined cells.
    first : int
        The first cell uncovered (not in ``layout``).
    deadline : float
        A :func:`time.monotonic` value at which to stop (0: none).
    cancel : bytearray, optional
        A one-byte buffer; the kernel stops when the caller sets it to non-zero.
    budget : int
        Search nodes allowed for each stuck position.
    exact : bool
        Whether to fall back on the exact forced cells when the single-number rules are stuck
        (``False``: the rules alone).

    Returns
    -------
    bool
        ``True`` when every safe cell gets uncovered without a guess, ``False`` when play gets
        stuck.

    Raises
    ------
    Declined
        when a stuck position is beyond what the kernel is built for.
    TimeoutError, InterruptedError
        as for :func:`run`.

    Examples
    --------
    >>> from minegraph import Board
    >>> line, block = Board.from_text("mines: 1\\n###"), Board.from_text("mines: 1\\n###\\n###")
    >>> if available():     # a 1 at (1, 0) of the block: (0, 1) or (0, 2)? a guess
    ...     print(solvable(line, frozenset({2}), 0), solvable(block, frozenset({2}), 3))
    ... else:
    ...     print(True, False)
    True False
    """
    kernel = _native()
    indptr, indices = _csr(board.neighbors)
    mined = bytearray(len(board.neighbors))
    for c in layout:
        mined[c] = 1
    total = -1 if board.mines is None else board.mines
    played: Played = kernel.solvable(indptr, indices, bytes(mined), first, total, budget,
                                     deadline, cancel, exact)
    code = played.status
    if code in (kernel.OK, kernel.INCONSISTENT):
        return bool(code == kernel.OK)
    _raise_for(kernel, code, "a stuck position beyond the kernel" if code == kernel.DECLINED
               else "timed out" if code == kernel.TIMEOUT else "cancelled")


def count_component(sizes: Sequence[int], clues: Sequence[tuple[int, tuple[int, ...]]], *,
                    with_total: bool, deadline: float = 0.0, cancel: bytearray | None = None,
                    budget: int = SEARCH_BUDGET, search_only: bool = False
                    ) -> tuple[list[int], list[list[int]]]:
    """One component counted by the kernel's search, in local numbering (its canonical key:
    box sizes, and clues as ``(need, boxes)``): the figures of
    :class:`~minegraph.engines.dp.ComponentDP`, ``total[t]`` the assignments with ``t`` mines
    (one entry, the plain count, without a total) and ``mined[b][t]`` the mines in box ``b``
    summed over them.

    Parameters
    ----------
    sizes : sequence of int
        The cells in each box, by local box number.
    clues : sequence of (int, tuple of int)
        Each clue as ``(need, boxes)``: the mines it still needs over those boxes.
    with_total : bool
        Whether to count by number of mines (``total[t]`` for each ``t``) or only in all.
    deadline : float
        A :func:`time.monotonic` value at which to stop (0: none).
    cancel : bytearray, optional
        A one-byte buffer; the kernel stops when the caller sets it to non-zero.
    budget : int
        Search nodes allowed.
    search_only : bool
        Count by the search alone, never the programme (up to ``MAX_COMPONENT_CELLS``, 120,
        cells): a benchmark's and a test's way to compare the two.

    Returns
    -------
    tuple
        ``(total, mined)`` as above; ``([0], [[0, ...], ...])`` (all zero) when the component
        has no assignment.

    Raises
    ------
    Declined
        past 2,000 cells, 128 bits or the state budget (counting), or the node budget.
    TimeoutError, InterruptedError
        as for :func:`run`.

    Examples
    --------
    >>> if available():
    ...     print(count_component([1, 1, 1], [(1, (0, 1)), (1, (1, 2))], with_total=True))
    ... else:
    ...     print(([0, 1, 1], [[0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 1, 0]]))
    ([0, 1, 1], [[0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 1, 0]])
    """
    out = _component(sizes, clues, with_total, deadline, cancel, budget, -3 if search_only else -2)
    if out is None:         # a number over no box that needs mines: no assignment
        length = sum(sizes) + 1 if with_total else 1
        return [0], [[0] * length for _ in sizes]
    return out.total, out.mined


def box_shares(mined: Sequence[Sequence[int]], sizes: Sequence[int], totals: Sequence[int],
               likely: Sequence[int], shares: Sequence[float]) -> bytes:
    """Every box's probability in a floating-point answer, for the boxes of one counted part:
    the Python step ``engines.dp._box_value`` in C (``tests/test_kernel_floats.py`` holds the
    two equal), one native double per box, ``nan`` where the value lies below 2**-922 (the
    caller then answers exactly).

    Parameters
    ----------
    mined : sequence of sequence of int
        ``mined[b][t]``: the mines in box ``b`` summed over the part's assignments with ``t``
        mines (:attr:`~minegraph.engines.dp.ComponentDP.mined`).
    sizes : sequence of int
        The cells of each box.
    totals : sequence of int
        ``totals[t]``: the part's assignments with ``t`` mines.
    likely : sequence of int
        The mine counts of the part whose share is not 0, increasing.
    shares : sequence of float
        Their shares.

    Returns
    -------
    bytes
        One native double per box: 0.0 (proven safe), 1.0 (proven mines), else the sum of
        ``mined[b][t] / (sizes[b] * totals[t]) * share`` in order, at most ``1 - 2**-53``;
        ``nan`` below 2**-922 or where a total is 0.

    Raises
    ------
    Declined
        (:class:`Unavailable`) when this process runs pure Python.

    Examples
    --------
    >>> from array import array
    >>> if available():
    ...     print(array("d", box_shares([[0, 1, 2], [0, 0, 0]], [2, 1], [1, 2, 1], [1, 2],
    ...                                 [0.5, 0.5])).tolist())
    ... else:
    ...     print([0.625, 0.0])
    [0.625, 0.0]
    """
    out: bytes = _native().box_shares(mined, sizes, totals, likely, shares)
    return out


def complete_component(sizes: Sequence[int], clues: Sequence[tuple[int, tuple[int, ...]]],
                       want: int, budget: int = SEARCH_BUDGET) -> list[int] | None:
    """Mines per box of one assignment of the component with ``want`` mines (any when
    ``want`` is -1), or ``None`` when there is none.

    Parameters
    ----------
    sizes : sequence of int
        The cells in each box, by local box number.
    clues : sequence of (int, tuple of int)
        Each clue as ``(need, boxes)``: the mines it still needs over those boxes.
    want : int
        The mines the assignment must hold in all; -1 (or less): any number.
    budget : int
        Search nodes allowed.

    Returns
    -------
    list of int or None
        The mines in each box, by local box number, or ``None``.

    Raises
    ------
    Declined
        past 2,000 cells or the node budget.

    Examples
    --------
    >>> if available():
    ...     print(complete_component([1, 1, 1], [(1, (0, 1)), (1, (1, 2))], 2))
    ... else:
    ...     print([1, 0, 1])
    [1, 0, 1]
    """
    out = _component(sizes, clues, True, 0.0, None, budget, max(want, -1))
    return None if out is None else list(out.completion)


def _component(sizes: Sequence[int], clues: Sequence[tuple[int, tuple[int, ...]]],
               with_total: bool, deadline: float, cancel: bytearray | None, budget: int,
               want: int) -> Component | None:
    """The kernel's Component answer, or ``None`` when the component has no assignment."""
    kernel = _native()
    out: Component = kernel.count_component(sizes, clues, with_total, budget, deadline, cancel,
                                            want)
    if out.status == kernel.OK:
        return out
    if out.status == kernel.INCONSISTENT:
        return None
    _raise_for(kernel, out.status, out.detail)
