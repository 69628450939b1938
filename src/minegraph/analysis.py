"""The public entry point: :func:`analyze` a position and get every answer at once."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from fractions import Fraction
from math import log10
from operator import countOf
from typing import TYPE_CHECKING, Any, Callable, Generic, Iterable, Mapping, TypeVar, cast

from minegraph.board import HIDDEN, MINE, Board, Cell
# cell_name lives with the board (the report names cells without importing this module); it
# stays importable from here.
from minegraph.board import cell_name as cell_name
from minegraph.deadline import Deadline, time_limit
from minegraph.errors import AnswerUnavailable, BoardError
from minegraph.lazy import FloatProbabilities, LazyDict
# How numbers are written lives in present.py; these names stay importable from here.
from minegraph.present import (SHOWN_DIGITS, SMALLEST_FLOAT, count_text, exact_decimal,
                               fraction_text, mantissa, probability_float, probability_json)

if TYPE_CHECKING:
    import numpy
    from minegraph.engines.base import Engine, EngineResult, Probability

__all__ = ["Analysis", "CellProbabilities", "analyze", "solve", "choose_best", "exact_decimal", "count_text", "mantissa",
           "check_board", "BEST_BASES", "SHOWN_DIGITS"]

#: Why ``best`` was chosen: a proven-safe cell, the lowest known mine probability, or (when no
#: probability is known for any cell that is not a proven mine) a cell of unknown probability.
BEST_BASES = ("safe", "probability", "unknown")

_T = TypeVar("_T")


class _computed_once(Generic[_T]):
    """:func:`functools.cached_property` without its lock: Python 3.11 takes an RLock on every
    first read, a tenth of what reading :attr:`Analysis.floats` of an Expert position costs
    otherwise (3.12 dropped the lock). Two threads reading at once may both compute it; they
    get equal values and one is kept."""

    def __init__(self, func: Callable[[Any], _T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> _T:
        if obj is None:
            return self  # type: ignore[return-value]  # the descriptor itself, on the class
        value = obj.__dict__[self.name] = self.func(obj)
        return value


def check_board(board: object, function: str) -> Board:
    """``board`` if it is a :class:`~minegraph.board.Board`, else a
    :class:`~minegraph.errors.BoardError` saying how to make one.

    Parameters
    ----------
    board
        The value a caller passed as a board.
    function
        The name of the function asking, for the message.

    Returns
    -------
    Board
        ``board`` itself.

    Raises
    ------
    BoardError
        when ``board`` is not a :class:`~minegraph.board.Board` (for text, the message says
        how to read it).

    Examples
    --------
    >>> check_board("#1#", "analyze")
    Traceback (most recent call last):
    ...
    minegraph.errors.BoardError: analyze needs a Board, got str: read board text with Board.from_text(text), or minegraph.formats.read_board(text) for any format
    """
    if isinstance(board, Board):
        return board
    hint = ": read board text with Board.from_text(text), or minegraph.formats.read_board(text) " \
        "for any format" if isinstance(board, (str, bytes)) else \
        " (Board.from_text, Board.grid or Board.from_graph build one)"
    raise BoardError(f"{function} needs a Board, got {type(board).__name__}{hint}")


class CellProbabilities(LazyDict[Cell, "Probability"]):
    """The mine probability of every hidden cell, built on first use.

    An engine's answer is per box (cells no number tells apart share one value); naming every
    hidden cell with its own exact fraction costs as much as the rest of an Expert analysis,
    and a caller that wants one cell, the best move or the safe cells does not need it. This
    read-only mapping builds the per-cell dictionary the first time it is read; it compares
    equal to a ``dict`` with the same items.

    Parameters
    ----------
    build
        Called once, on the first read, with no arguments: returns the dictionary cell ->
        mine probability.

    Examples
    --------
    >>> lazy = CellProbabilities(lambda: {(0, 0): Fraction(1, 2)})
    >>> lazy[(0, 0)], len(lazy), lazy == {(0, 0): Fraction(1, 2)}
    (Fraction(1, 2), 1, True)
    >>> lazy
    {(0, 0): Fraction(1, 2)}
    """

    __slots__ = ()


@dataclass(frozen=True, eq=False, repr=False)
class Analysis:
    """Every fact the engine established about a position.

    Cells are ``(row, col)`` on grids and ``int`` on graph boards, or the cells' labels on a
    board that has them (:meth:`~minegraph.board.Board.from_networkx`). Probabilities are exact
    :class:`~fractions.Fraction` values, or floats on boards too big for exact figures (see
    :attr:`arithmetic`; a probability below the double range stays a Fraction there too);
    0 and 1 appear only when proven. An analysis is
    equal only to itself and hashes by identity (it can be a set member or a dict key); its
    ``repr`` is one short line, and ``str`` (what ``print`` shows) the text report of
    ``minegraph analyze``.

    Attributes
    ----------
    board
        The position analysed (with the total mine count the answers respect).
    consistent
        Whether some completion exists (an inconsistent board is an answer, not an error).
    solutions
        The exact number of completions (respecting the total mine count when given);
        ``None`` when not counted (``probabilities_available`` is False).
    safe, mines
        Hidden cells that are safe / mined in every completion, sorted.
    probabilities
        The mine probability of every hidden cell (empty when inconsistent), a read-only
        mapping (:class:`CellProbabilities`, built on first use, when the board was counted).
        When the board was not counted, only the cells whose probability is still exact:
        forced cells, and without a total mine count, the cells of components that were
        counted and the floating cells.
    best
        The recommended next cell, never a proven mine while another hidden cell exists: a
        proven-safe cell if there is one, else the lowest known mine probability, else a cell
        whose probability is unknown; ties broken by fewest hidden neighbours, then position.
        ``None`` when inconsistent, when nothing is hidden, or when every hidden cell is a
        proven mine (nothing is left to uncover).
    best_basis
        Which of those cases applied: ``"safe"``, ``"probability"`` or ``"unknown"`` (``None``
        with ``best``).
    engine
        The name of the engine that answered (``"kernel"``, ``"dp"``, ``"sat"``, ...).
    stats
        Engine-specific figures (``stats["arithmetic"]``, why probabilities are unavailable,
        ...).
    result
        The engine's own :class:`~minegraph.engines.base.EngineResult` (``None`` for an
        analysis built without one).
    probabilities_available
        False when some hidden cell's probability is unknown; ``stats["probabilities"]`` then
        says why.
    completion
        One completion: the board with every hidden cell decided (mines as ``MINE``, safe
        cells with their number), or ``None``; built on first use.
    """

    board: Board
    consistent: bool
    solutions: int | None
    safe: list[Cell]
    mines: list[Cell]
    probabilities: Mapping[Cell, Probability]
    best: Cell | None
    engine: str
    stats: dict[str, object] = field(default_factory=dict)
    result: EngineResult | None = field(default=None, repr=False)
    probabilities_available: bool = True
    best_basis: str | None = None

    @property
    def arithmetic(self) -> str:
        """``"exact"`` (integers and fractions) or ``"float"`` (probabilities as floats, each
        proven to a relative error below 1e-13, 0.0 and 1.0 only when proven; a probability
        below the double range, about 2.2e-308, where no float is that close, as a
        :class:`~fractions.Fraction` within 1e-13 relative instead; ``solutions`` is then
        ``None`` and :attr:`solutions_log10` gives its size)."""
        return str(self.stats.get("arithmetic", "exact"))

    @property
    def solutions_log10(self) -> float | None:
        """``log10`` of the number of completions, also when it was not counted exactly
        (floating-point arithmetic); ``None`` when unknown or inconsistent.

        >>> round(analyze(Board.from_text("##")).solutions_log10, 6)    # log10(4)
        0.60206
        """
        if self.solutions is not None:
            return _log10(self.solutions) if self.solutions > 0 else None
        value = self.stats.get("solutions_log10")
        return float(value) if isinstance(value, (int, float)) else None

    @_computed_once
    def floats(self) -> dict[Cell, float | Fraction]:
        """The mine probability of every cell in :attr:`probabilities`, as a float: the exact
        value correctly rounded (in floating-point :attr:`arithmetic`, the proven value), except
        that a probability that is not proven 1 never reads 1.0 (it reads ``1.0 - 2**-53``).

        A probability below the double range (under
        :data:`~minegraph.present.SMALLEST_FLOAT`, about 2.2e-308) has no float within 1e-13
        relative of it, and 0.0 would claim a proven safe cell: it is given as a
        :class:`~fractions.Fraction` instead, the exact value (in floating-point arithmetic,
        a value within 1e-13 relative), which compares and sorts correctly with the floats
        (see :func:`~minegraph.present.probability_float`).

        When the native kernel answered, no Fraction is built: one division per box, shared
        by the box's cells, and the dictionary is built in C, in cell order (a Fraction only
        for a box below the double range). :meth:`to_json` writes these values;
        :meth:`float_array` gives them as one numpy array.

        Examples
        --------
        >>> analyze(Board.from_text("mines: 1\\n#1#\\n---")).floats
        {(0, 0): 0.5, (0, 2): 0.5}
        """
        result = self.result
        counts = result.mine_counts if result is not None else None
        held = result.probabilities if result is not None else None
        if isinstance(held, FloatProbabilities) and self.consistent:    # a float answer
            return _floats_of(self.board, held)
        cell_floats = getattr(counts, "cell_floats", None)
        if cell_floats is not None and self.consistent:     # a kernel answer
            keys = _cell_keys(self.board)
            return cast("dict[Cell, float | Fraction]",
                        _engines().native_float_dict(keys, _key_hashes(keys), cell_floats))
        groups = getattr(counts, "groups", None)
        if groups is None or not self.consistent:
            probs = self.probabilities      # in one pass: a million cells on the biggest boards
            return dict(zip(probs.keys(), _float_values(probs.values())))
        count = result.count if result is not None else None
        assert count is not None
        keys = _cell_keys(self.board)
        out: dict[Cell, float | Fraction] = {}
        for cells, m, x in groups():
            value: float | Fraction = x
            if x < SMALLEST_FLOAT and m:
                value = reduced_fraction(m, count)      # below the double range: exact
            elif x == 1.0 and m != count:
                value = _NEARLY_ONE
            out.update(dict.fromkeys([keys[c] for c in cells], value))
        return out

    def float_array(self) -> "numpy.ndarray[Any, numpy.dtype[numpy.float64]]":
        """Every cell's mine probability in one new numpy array of ``float64``: shape
        ``(rows, cols)`` on grids, ``(size,)`` in cell order on graph boards; ``nan`` on the
        cells that are not hidden (and on every cell of an inconsistent board). The values
        are those of :attr:`floats`, except that a probability below the double range (which
        :attr:`floats` gives as a Fraction) reads as the nearest double, and never 0.0 unless
        proven (the smallest positive double, about 5e-324).

        When the native kernel answered, the array is a copy of the kernel's own buffer: no
        dictionary and no float object per cell.

        Returns
        -------
        numpy.ndarray

        Examples
        --------
        >>> analyze(Board.from_text("mines: 1\\n#1#\\n---")).float_array()
        array([[0.5, nan, 0.5],
               [nan, nan, nan]])
        >>> analyze(Board.from_text("1#")).float_array().tolist()
        [[nan, 1.0]]
        """
        import numpy
        board = self.board
        shape = (board.rows, board.cols) if board.rows is not None and board.cols is not None \
            else (len(board.states),)
        result = self.result
        cell_floats = getattr(result.mine_counts if result is not None else None,
                              "cell_floats", None)
        if result is not None and isinstance(result.probabilities, FloatProbabilities):
            cell_floats = result.probabilities.cell_floats      # a float answer's array
        if cell_floats is not None and self.consistent:
            return numpy.frombuffer(cell_floats, dtype=numpy.float64).reshape(shape).copy()
        out = numpy.full(len(board.states), numpy.nan)
        where = board.index
        for cell, x in self._float_items():
            value = float(x)
            out[where(cell)] = value if value or not x else _SMALLEST_DOUBLE
        return out.reshape(shape)

    def _float_items(self) -> Iterable[tuple[Cell, float | Fraction]]:
        """``(cell, float)`` for every cell of :attr:`probabilities`: from :attr:`floats`
        when it is built or cheap (a box-level answer), else straight from the probabilities
        without a second dictionary (a million cells on the biggest boards)."""
        result = self.result
        if "floats" in self.__dict__ or (self.consistent and result is not None
                                         and hasattr(result.mine_counts, "groups")):
            return self.floats.items()
        return ((cell, _to_float(p)) for cell, p in self.probabilities.items())

    @cached_property
    def completion_mines(self) -> frozenset[int] | None:
        """The hidden cells holding a mine in :attr:`completion` (internal indices)."""
        return None if self.result is None else self.result.get_completion()

    @cached_property
    def completion(self) -> Board | None:
        mined = self.completion_mines
        if mined is None:
            return None
        return _completed(self.board, mined)

    def probability(self, cell: Cell | list[int]) -> Probability:
        """Mine probability of a hidden cell: ``(row, col)`` or ``[row, col]`` (the JSON's
        form) on grids, an ``int`` on graph boards.

        Raises
        ------
        BoardError
            for a cell outside the board, not hidden, or not a cell at all.
        AnswerUnavailable
            when the engine did not compute this cell's probability.

        Examples
        --------
        >>> a = analyze(Board.from_text("#1#"))
        >>> a.probability((0, 0)), a.probability([0, 2])
        (Fraction(1, 2), Fraction(1, 2))
        >>> a.probability((0, 1))
        Traceback (most recent call last):
        ...
        minegraph.errors.BoardError: cell (0, 1) is not hidden: only hidden cells have a mine probability
        """
        index = self.board.index(cell)
        key = self.board.cell(index)
        if self.board.states[index] != HIDDEN:
            raise BoardError(f"cell {key} is not hidden: only hidden cells have a mine probability")
        result = self.result
        lazy = self.probabilities
        if isinstance(lazy, CellProbabilities) and not lazy.built and result is not None \
                and self.consistent and hasattr(result.mine_counts, "groups") \
                and result.count is not None:
            # A box-level answer not yet spread over every cell: this cell's fraction alone.
            assert result.mine_counts is not None
            return reduced_fraction(result.mine_counts[index], result.count)
        if key not in self.probabilities:
            if not self.consistent:
                raise AnswerUnavailable(f"the board is inconsistent: cell {key} has no mine probability")
            why = str(self.stats.get("probabilities", f"engine {self.engine} does not count"))
            why = why.removeprefix("unavailable: ")
            raise AnswerUnavailable(f"the probability of cell {key} is unavailable: {why}")
        return self.probabilities[key]

    def to_json(self) -> dict[str, Any]:
        """The analysis object of docs/formats.md §5 (probabilities as floats, counts as strings).

        A probability below the double range (:attr:`floats` gives it as a Fraction) is
        written as a decimal string of 17 significant digits, such as
        ``"1.1740084566000549e-422"``: a JSON reader's double would read any number there as
        0.0 or a value off by orders of magnitude.

        ``"solutions"`` is the exact decimal string at any length (no 4,300-digit limit).
        When some probability is unknown, ``"solutions"`` may be ``null``, the unknown
        ``"probability"`` entries are ``null`` and the object has one more key,
        ``"probabilities_available": false``. ``"best_basis"`` says why ``best`` was chosen.
        ``"total_mines"`` is the total mine count the answers respect, or ``null`` when none
        was given: then every completion counts once whatever its number of mines, so a
        hidden cell touching no number has mine probability 1/2.

        On a board with cell labels (:meth:`~minegraph.board.Board.from_networkx`) cells are
        named by label, ``"probability"`` lists the cells in the board's order and one more
        key, ``"labels"``, gives that order's labels.

        Raises
        ------
        FormatError
            for a board whose labels are not all strings or whole numbers (JSON holds no
            others; see :meth:`~minegraph.board.Board.json_labels`).

        Examples
        --------
        >>> obj = analyze(Board.from_text("##")).to_json()
        >>> obj["solutions"], obj["probability"], obj["total_mines"]
        ('4', [[0.5, 0.5]], None)
        >>> import networkx as nx
        >>> path = Board.from_networkx(nx.path_graph(["a", "b", "c"]), {"a": 1}, mines=1)
        >>> obj = analyze(path).to_json()
        >>> obj["mines"], obj["safe"], obj["probability"], obj["labels"]
        (['b'], ['c'], [None, 1.0, 0.0], ['a', 'b', 'c'])
        """
        board = self.board
        labels = board.json_labels()    # a FormatError for labels JSON cannot hold

        def ref(cell: Cell) -> Any:
            return list(cell) if isinstance(cell, tuple) and labels is None else cell

        rows, cols = board.rows, board.cols
        grid_board = rows is not None and cols is not None and labels is None
        if rows is not None and cols is not None:
            probability: Any = self._array_grid()
            if probability is None:
                grid: list[Any] = [[None] * cols for _ in range(rows)]
                for cell, x in self._float_items():
                    r, c = cell  # type: ignore[misc]
                    grid[r][c] = x if isinstance(x, float) else probability_json(x)
                probability = grid
        else:
            flat: list[Any] = [None] * board.size
            where = board.index
            for cell, x in self._float_items():
                at = cell if labels is None else where(cell)
                flat[at] = x if isinstance(x, float) else probability_json(x)  # type: ignore[index]
            probability = flat
        obj = {"consistent": self.consistent,
               "solutions": None if self.solutions is None else exact_decimal(self.solutions),
               "safe": _pairs(self.safe) if grid_board else [ref(c) for c in self.safe],
               "mines": _pairs(self.mines) if grid_board else [ref(c) for c in self.mines],
               "probability": probability,
               "best": None if self.best is None else ref(self.best),
               "best_basis": self.best_basis,
               "engine": self.engine,
               "total_mines": board.mines}
        if not self.probabilities_available:
            obj["probabilities_available"] = False
        if self.arithmetic == "float":
            obj["arithmetic"] = "float"
            obj["solutions_log10"] = self.solutions_log10
        if labels is not None:
            obj["labels"] = labels
        return obj

    def _array_grid(self) -> list[list[Any]] | None:
        """:meth:`to_json`'s ``"probability"`` grid read straight from a floating-point
        answer's array of doubles (the same values as through :attr:`probabilities`, without
        a float object per cell going through a dictionary: a million cells on the biggest
        boards), or ``None`` for any other answer."""
        result, board = self.result, self.board
        held = result.probabilities if result is not None else None
        if not (isinstance(held, FloatProbabilities) and self.consistent and board.cols):
            return None
        import numpy
        rows = numpy.frombuffer(held.cell_floats, dtype=numpy.float64).reshape(
            -1, board.cols).tolist()
        grid: list[list[Any]] = [[None if x != x else x for x in row] for row in rows]
        for c, p in held.exceptions.items():        # the values the array does not hold
            x = probability_float(p)
            grid[c // board.cols][c % board.cols] = x if isinstance(x, float) else probability_json(x)
        return grid

    def svg(self, *, size: float = 28, caption: bool = True, compact: bool | None = None) -> str:
        """A picture of the analysis as an SVG document: a heat map of the mine probabilities.

        Every hidden cell whose probability is known is painted with
        :func:`~minegraph.formats.svg.probability_colour` (green 0, yellow 1/2, red 1) and has
        its exact probability as a tooltip; a proven-safe cell is marked with a green ring, a
        proven mine with a black cross, the recommended cell (:attr:`best`) with a blue dot.
        Cells whose probability was not computed stay grey. Drawn by
        :func:`~minegraph.formats.svg.board_svg` (``size``: pixels per cell; ``compact``: as
        there, automatic past 2,500 cells, without tooltips); ``caption`` adds a line that
        says what the colours and marks mean. Notebooks show it (:meth:`_repr_svg_`), and
        ``minegraph analyze --svg FILE`` writes it.

        Examples
        --------
        >>> import xml.etree.ElementTree as ET
        >>> a = analyze(Board.from_text("mines: 1\\n#1#\\n---"))
        >>> root = ET.fromstring(a.svg())
        >>> ns = "{http://www.w3.org/2000/svg}"
        >>> [e.get("fill") for e in root.iter(ns + "polygon") if e.get("class") == "fill"]
        ['#fdd835', '#fdd835']
        >>> [e.get("class") for e in root.iter(ns + "circle") if e.get("class") == "dot"]
        ['dot']
        """
        from minegraph.formats.svg import Mark, board_svg, probability_colour
        board = self.board
        where = {cell: board.index(cell) for cell in self.probabilities}
        fills = {where[c]: probability_colour(p) for c, p in self.probabilities.items()}
        titles = {where[c]: f"{board.label(where[c])}: mine probability {fraction_text(p)} "
                            f"≈ {float(p):.4f}" for c, p in self.probabilities.items()}
        marks: dict[int, Mark] = {}
        for cell in self.safe:
            marks[board.index(cell)] = Mark("ring", "#2e7d32")
        for cell in self.mines:
            marks[board.index(cell)] = Mark("cross", "#212121")
        if self.best is not None:
            marks[board.index(self.best)] = Mark("dot")
        if not self.consistent:
            text = "inconsistent: no completion exists"
        else:
            text = ("mine probability: green 0, yellow 1/2, red 1; ring safe, cross mine, dot best"
                    + ("" if self.probabilities_available else "; grey: not computed"))
        return board_svg(board, fills=fills, marks=marks, titles=titles, size=size,
                         caption=text if caption else None, compact=compact,
                         title="mine probabilities")

    def _repr_svg_(self) -> str:
        """The heat map of :meth:`svg`, for notebooks."""
        return self.svg()

    def __str__(self) -> str:
        """The text report, as ``minegraph analyze`` prints it
        (:func:`minegraph.report.render_analysis`, without its last line break):
        ``print(analysis)`` shows it, as python-chess prints a board; ``repr`` stays one short
        line.

        Examples
        --------
        >>> print(analyze(Board.from_text("mines: 1\\n#1#")))      # doctest: +ELLIPSIS
        board: 1x3 square, 2 hidden, total mines 1
        consistent: yes
        solutions: 2
        ...
        """
        from minegraph.report import render_analysis
        return render_analysis(self).removesuffix("\n")

    def __repr__(self) -> str:
        """A one-line summary: counts abbreviated past
        :data:`SHOWN_DIGITS` digits, cells counted, not listed.

        Examples
        --------
        >>> analyze(Board.from_text("mines: 1\\n#1#"))      # doctest: +ELLIPSIS
        <Analysis 1x3 square: consistent, solutions=2, safe=0, mines=0, best=(0, 0), engine=...>
        """
        board = self.board
        shape = f"{board.rows}x{board.cols} {board.topology}" if board.is_grid else \
            f"graph of {board.size} cells"
        if not self.consistent:
            return f"<Analysis {shape}: inconsistent, engine={self.engine!r}>"
        solutions = "not counted" if self.solutions is None else count_text(self.solutions)
        return (f"<Analysis {shape}: consistent, solutions={solutions}, safe={len(self.safe)}, "
                f"mines={len(self.mines)}, best={self.best!r}, engine={self.engine!r}>")


#: From this many bits on, :func:`reduced_fraction` takes the gcd from FLINT (half-gcd,
#: near-linear) instead of :func:`math.gcd` (quadratic: seconds per pair at 10**5 bits).
BIG_GCD_BITS = 20_000


def reduced_fraction(numerator: int, denominator: int) -> Fraction:
    """``Fraction(numerator, denominator)`` (``denominator > 0``), reduced by FLINT's gcd
    when the numbers are big.

    >>> reduced_fraction(6, 4)
    Fraction(3, 2)
    >>> n = 3 ** 30_000
    >>> reduced_fraction(n * 7, n * 5) == Fraction(7, 5)
    True
    """
    if denominator.bit_length() < BIG_GCD_BITS:
        return Fraction(numerator, denominator)
    from flint import fmpz
    g = int(fmpz(numerator).gcd(denominator))
    numerator, denominator = numerator // g, denominator // g
    # Both are now coprime: build the Fraction without Python's own (quadratic) reduction.
    from_coprime = getattr(Fraction, "_from_coprime_ints", None)     # Python 3.12+
    if from_coprime is not None:
        made: Fraction = from_coprime(numerator, denominator)
        return made
    build: Any = Fraction                                            # Python 3.11
    fraction: Fraction = build(numerator, denominator, _normalize=False)
    return fraction


def _log10(n: int) -> float:
    """``log10`` of a positive integer of any size."""
    shift = max(0, n.bit_length() - 1000)
    return log10(n >> shift) + shift * log10(2)


#: Every cell's key (``Board.cell``) by neighbour table: boards of one shape share the table,
#: and naming hundreds of cells per analysis is otherwise a large share of its cost.
_KEYS: dict[int, tuple[object, object, list[Cell]]] = {}


def _cell_keys(board: Board) -> list[Cell]:
    entry = _KEYS.get(id(board.neighbors))
    if entry is not None and entry[0] is board.neighbors and entry[1] is board.labels:
        return entry[2]
    keys = board.cells(range(len(board.states)))
    if len(_KEYS) >= 64:
        _KEYS.clear()
    _KEYS[id(board.neighbors)] = (board.neighbors, board.labels, keys)
    return keys


#: The hashes of the keys of :func:`_cell_keys` (the kernel's), kept with them: the float
#: dictionary of a kernel answer is filled without hashing a key.
_HASHES: dict[int, tuple[list[Cell], bytes]] = {}


def _key_hashes(keys: list[Cell]) -> bytes:
    entry = _HASHES.get(id(keys))
    if entry is not None and entry[0] is keys:
        return entry[1]
    hashes = _engines().key_hashes(keys)
    if len(_HASHES) >= 64:
        _HASHES.clear()
    _HASHES[id(keys)] = (keys, hashes)
    return hashes


#: What a probability that is not 0 but below the double range reads in an array of floats.
_SMALLEST_DOUBLE = 5e-324

#: What an unproven probability reads instead of 1.0 as a float.
_NEARLY_ONE = 1.0 - 2.0 ** -53


def _to_float(p: Probability) -> float | Fraction:
    """A float that never rounds an unproven probability to 0 or 1, or the probability
    itself (a Fraction) below the double range, where no float is within 1e-13 relative of
    it (:func:`~minegraph.present.probability_float`)."""
    return probability_float(p)


def _float_values(values: Iterable[Probability]) -> list[float | Fraction]:
    """:func:`~minegraph.present.probability_float` of every value: a float within the
    double range is its own answer (the values of floating-point arithmetic, a million on
    the biggest boards), and a value met before (the forced cells' shared 0 and 1) is
    converted once."""
    smallest = SMALLEST_FLOAT
    seen: dict[int, float | Fraction] = {}
    out: list[float | Fraction] = []
    append = out.append
    for p in values:
        if type(p) is float and p >= smallest:
            append(p)
            continue
        x = seen.get(id(p))
        if x is None:
            x = seen[id(p)] = probability_float(p)
        append(x)
    return out


def _pairs(cells: Iterable[Cell]) -> list[list[int]]:
    """Grid cells as JSON pairs (a quarter of a million on the biggest boards)."""
    return [list(c) for c in cast("Iterable[tuple[int, int]]", cells)]


def _floats_of(board: Board, probs: FloatProbabilities) -> dict[Cell, float | Fraction]:
    """:attr:`Analysis.floats` of a floating-point answer held as an array: the dictionary
    built in C from the hidden cells' doubles when the kernel is built, then the values the
    array does not hold (below the double range) put in their places."""
    import numpy
    from minegraph.kernel import module
    hidden = probs.hidden
    keys = board.cells(hidden)
    values = numpy.frombuffer(probs.cell_floats)[numpy.asarray(hidden, dtype=numpy.intp)]
    native = module()
    out: dict[Cell, float | Fraction]
    if native is not None:
        out = native.float_dict(keys, native.key_hashes(keys), values.tobytes())
    else:
        out = dict(zip(keys, values.tolist()))
    for c, p in probs.exceptions.items():
        out[board.cell(c)] = probability_float(p)
    return out


def _completed(board: Board, mined: frozenset[int]) -> Board:
    """The board with every hidden cell decided: mines, and numbers on the safe cells."""
    states = list(board.states)
    nbrs = board.neighbors
    for i, s in enumerate(board.states):
        if s == HIDDEN:
            states[i] = MINE if i in mined else sum(
                1 for q in nbrs[i] if q in mined or board.states[q] == MINE)
    return board.with_states(states)


def choose_best(board: Board, safe: Iterable[int], mines: Iterable[int],
                known: Mapping[int, Any]) -> tuple[int | None, str | None]:
    """The recommended hidden cell and why (one of :data:`BEST_BASES`).

    Proven-safe cells first; then the lowest known mine probability (or count: any values
    ordered like the probabilities) among cells that are not proven mines; then cells whose
    probability is unknown. Ties: fewest hidden neighbours, then lowest index. A proven mine
    is never chosen.

    Parameters
    ----------
    board
        The position.
    safe, mines
        Hidden cells (indices) proven safe / mined.
    known
        Hidden cell (index) -> its mine probability, or any value ordered like it (its mine
        count); cells left out are of unknown probability.

    Returns
    -------
    tuple
        ``(cell, basis)``: the cell's index and one of :data:`BEST_BASES`; ``(None, None)``
        when every hidden cell is a proven mine (or none is hidden).

    Examples
    --------
    >>> b = Board.from_text("###\\n#1#")
    >>> choose_best(b, [], [0], {})        # nothing known: an unknown cell, not the mine
    (2, 'unknown')
    >>> choose_best(b, [], [], {0: Fraction(1, 2), 1: Fraction(1, 4)})
    (1, 'probability')
    """
    states, nbrs = board.states, board.neighbors

    def rank(cells: Iterable[int]) -> int:
        covered = states.__getitem__
        return min((countOf(map(covered, nbrs[i]), HIDDEN), i) for i in cells)[1]

    safe = list(safe)
    if safe:
        return rank(safe), "safe"
    mined = set(mines)
    candidates = {c: p for c, p in known.items() if c not in mined}
    if candidates:
        low = min(candidates.values())
        return rank(c for c, p in candidates.items() if p == low), "probability"
    rest = [c for c in board.hidden if c not in mined and c not in known]
    if rest:
        return rank(rest), "unknown"
    return None, None


def analyze(board: Board, engine: "str | Engine" = "auto", *, mines: int | None = None,
            timeout: float | Deadline | None = None, arithmetic: str = "auto") -> Analysis:
    """Analyse a position exactly.

    Parameters
    ----------
    board
        The position.
    engine
        A registry name — ``"auto"`` (default: the portfolio), ``"dp"``, ``"sat"``,
        ``"backtrack"``, ``"thesis"``, ``"brute"``, ... (see
        :func:`~minegraph.engines.get_engine`) — or an engine object, e.g.
        ``SatEngine(solver="minisat")``. Engines that do not count leave ``solutions`` and
        the probabilities unavailable.
    mines
        Overrides the board's total mine count.
    timeout
        Seconds the whole query may take, or a :class:`~minegraph.deadline.Deadline`
        (``None``: no limit). Checked cooperatively: works in any thread.
    arithmetic
        ``"exact"``, ``"float"`` or ``"auto"`` (default: exact unless the exact figures would
        take more than :data:`~minegraph.engines.combine.EXACT_OUTPUT_BITS` bits, as on
        boards of a few hundred thousand cells); see :attr:`Analysis.arithmetic`.

    Returns
    -------
    Analysis
        Every answer about the position: consistency, the count, forced cells, mine
        probabilities and the recommended cell.

    Raises
    ------
    BoardError
        when ``board`` is not a :class:`~minegraph.board.Board` (text is not read: the message
        says how to read it) or ``mines`` is not a whole number from 0 to the number of cells.
    EngineError
        for an unknown engine, or a ``timeout`` that is not a positive number of seconds.
    QueryTimeout
        when ``timeout`` expires; it names the question left unanswered.

    Examples
    --------
    >>> from minegraph import Board, analyze
    >>> a = analyze(Board.from_text("#2#\\n#3#\\n###"))
    >>> a.solutions, a.mines, a.safe
    (18, [], [])
    >>> a.probability((0, 0)), a.probability((2, 1))
    (Fraction(1, 2), Fraction(1, 3))
    >>> a.best, a.best_basis
    ((2, 0), 'probability')
    """
    engines = _engines()
    board = check_board(board, "analyze")
    if mines is not None:
        board = board.with_states(board.states, mines)
    solver = engines.resolve_engine(engine)
    if timeout is None and arithmetic == engines.current_arithmetic():
        result = solver.run(board)      # nothing to set (the common call): no context
    else:
        with time_limit(timeout, "consistency"), engines.arithmetic(arithmetic):
            result = solver.run(board)
    return from_result(board, result, str(result.stats.get("engine", solver.name)))


class _Engines:
    """The engine functions :func:`analyze` calls, imported on its first call (importing
    minegraph loads no engine) and kept: an import statement per call costs as much as a
    small part of an Expert analysis."""

    def __init__(self) -> None:
        from minegraph.engines.base import resolve_engine
        from minegraph.engines.combine import arithmetic, current_arithmetic
        from minegraph.kernel import float_dict, key_hashes, module
        self.resolve_engine = resolve_engine
        self.float_dict = float_dict
        # the extension's own float_dict(keys, hashes, cell_floats), for answers it gave
        native = module()
        self.native_float_dict = native.float_dict if native is not None else float_dict
        self.key_hashes = key_hashes
        self.arithmetic = arithmetic
        self.current_arithmetic = current_arithmetic


_ENGINES: list[_Engines] = []


def _engines() -> _Engines:
    if not _ENGINES:
        _ENGINES.append(_Engines())
    return _ENGINES[0]


#: :class:`Analysis`'s fields in order (``_from_kernel`` sets them directly).
_ANALYSIS_FIELDS = tuple(f.name for f in fields(Analysis))


def _from_kernel(board: Board, result: EngineResult, name: str,
                 forced: tuple[list[int], list[int]]) -> Analysis:
    """:func:`from_result` of the native kernel's answer (a box-level count, the forced cells
    listed in order, the best move chosen): no more than the analysis holds is made, since
    on an Expert position the objects made here cost as much as the kernel's whole count."""
    count = result.count
    counts = result.mine_counts
    assert count is not None and counts is not None and result.best is not None
    groups = getattr(counts, "groups")

    def per_cell() -> dict[Cell, Probability]:
        # one Fraction per box, shared by its cells
        value: list[Probability] = [Fraction(0)] * len(board.states)
        for cells, m, _ in groups():
            f = reduced_fraction(m, count)
            for c in cells:
                value[c] = f
        hidden = board.hidden
        return dict(zip(board.cells(hidden), [value[c] for c in hidden]))

    key = _cell_keys(board)         # a board of playing size: every cell's key is kept
    safe, mined = forced
    best, basis = result.best
    # The fields in order, set without the frozen dataclass's __init__ (one object.__setattr__
    # call per field: a tenth of the Python around an Expert analysis).
    analysis: Analysis = object.__new__(Analysis)
    analysis.__dict__.update(zip(_ANALYSIS_FIELDS, (
        board, True, count, [key[c] for c in safe], [key[c] for c in mined],
        CellProbabilities(per_cell), None if best is None else key[best], name,
        dict(result.stats), result, True, basis)))
    return analysis


def _from_floats(board: Board, result: EngineResult, name: str,
                 probs: FloatProbabilities) -> Analysis:
    """:func:`from_result` of a floating-point answer held as an array of doubles: the
    per-cell dictionary is built only when read, and the best move is found on the array
    (a million cells on the biggest boards). Forced cells read exactly 0 and 1, as Fractions,
    in :attr:`Analysis.probabilities`, as in every answer that was not counted."""
    import numpy
    safe = sorted(result.safe)
    mined = sorted(result.mines)
    hidden = probs.hidden
    where = numpy.asarray(hidden, dtype=numpy.intp)

    def per_cell() -> dict[Cell, Probability]:
        values: list[Probability] = numpy.frombuffer(probs.cell_floats)[where].tolist()
        at = numpy.searchsorted(where, safe).tolist()
        zero, one = Fraction(0), Fraction(1)
        for i in at:
            values[i] = zero
        for i in numpy.searchsorted(where, mined).tolist():
            values[i] = one
        for i, c in zip(numpy.searchsorted(where, list(probs.exceptions)).tolist(),
                        probs.exceptions):
            values[i] = probs.exceptions[c]
        return dict(zip(board.cells(hidden), values))

    if safe or probs.exceptions:
        # a safe cell is chosen without reading the probabilities
        best, basis = choose_best(board, safe, mined, {} if safe else dict(probs))
    else:
        # the lowest probability of a cell that is not a proven mine (those read 1.0, and no
        # other cell does), among the cells that have it
        values = numpy.frombuffer(probs.cell_floats)[where]
        open_ = values < 1.0
        if open_.any():
            low = float(values[open_].min())
            cells = where[values == low].tolist()
            best, basis = choose_best(board, [], mined, dict.fromkeys(cells, low))
        else:
            best, basis = choose_best(board, [], mined, {})
    return Analysis(board=board, consistent=True, solutions=result.count,
                    safe=board.cells(safe), mines=board.cells(mined),
                    probabilities=CellProbabilities(per_cell),
                    best=None if best is None else board.cell(best), engine=name,
                    stats=dict(result.stats), result=result, best_basis=basis)


def from_result(board: Board, result: EngineResult, name: str) -> Analysis:
    """The :class:`Analysis` of an engine's result on ``board``."""
    cell = board.cell
    if not result.consistent:
        return Analysis(board=board, consistent=False, solutions=0, safe=[], mines=[],
                        probabilities={}, best=None, engine=name, stats=dict(result.stats),
                        result=result, probabilities_available=True)
    forced = getattr(result.mine_counts, "forced", None)
    if forced is not None:          # the kernel's answer: listed in order already
        return _from_kernel(board, result, name, forced)
    held = result.probabilities
    if isinstance(held, FloatProbabilities) and \
            len(result.safe) + len(result.mines) < len(held.hidden):    # else counted below
        return _from_floats(board, result, name, held)
    safe = sorted(result.safe)
    mined = sorted(result.mines)
    if result.counts_known:
        count = result.count
        counts = result.mine_counts
        assert count is not None and counts is not None
        # Cells of one box (and all floating cells) share a numerator: build each Fraction once.
        # The cells of one box share one count object: one Fraction per object, found by
        # identity (hashing a count costs its length, and counts can have thousands of digits).
        fractions: dict[int, Fraction] = {}

        def fraction(m: object) -> Fraction:
            f = fractions.get(id(m))
            if f is None:
                f = fractions[id(m)] = reduced_fraction(cast(int, m), count)
            return f

        def per_cell() -> dict[Cell, Probability]:
            return dict(zip(board.cells(counts), map(fraction, counts.values())))

        probs = CellProbabilities(per_cell)
        if result.best is not None:
            best, basis = result.best
        else:
            best, basis = choose_best(board, safe, mined, counts)
        return Analysis(board=board, consistent=True, solutions=count,
                        safe=board.cells(safe), mines=board.cells(mined),
                        probabilities=probs, best=None if best is None else cell(best),
                        engine=name, stats=dict(result.stats), result=result,
                        best_basis=basis)
    hidden = board.hidden
    if len(safe) + len(mined) == len(hidden):
        # Every hidden cell is forced: the one completion is the count (a proof, not a guess).
        # A new result: the engine's own is left as it answered (it may be cached or shared).
        exact_again = ("arithmetic", "solutions_log10", "precision_bits")
        counted = replace(result, count=1,
                          mine_counts={c: int(c in result.mines) for c in hidden},
                          stats={k: v for k, v in result.stats.items() if k not in exact_again})
        return from_result(board, counted, name)
    # Not counted: forced cells keep their exact 0 or 1; an engine may know more.
    known: dict[int, Probability] = dict(result.probabilities)
    known.update(dict.fromkeys(safe, Fraction(0)))
    known.update(dict.fromkeys(mined, Fraction(1)))
    complete = len(known) == len(hidden)
    best, basis = choose_best(board, safe, mined, known)
    stats = dict(result.stats)
    if not complete:
        stats.setdefault("probabilities", f"unavailable: engine {name} does not count")
    return Analysis(board=board, consistent=True, solutions=result.count,
                    safe=board.cells(safe), mines=board.cells(mined),
                    probabilities=dict(zip(board.cells(known), known.values())),
                    best=None if best is None else cell(best), engine=name, stats=stats,
                    result=result, probabilities_available=complete, best_basis=basis)


def solve(board: Board, engine: "str | Engine" = "auto", *, mines: int | None = None,
          timeout: float | Deadline | None = None) -> Board | None:
    """One completion of ``board`` (every hidden cell decided), or ``None`` if inconsistent.

    Engines answer with their cheapest method for this one question (a single SAT call, one
    backtracking run); ``timeout`` bounds the query in seconds
    (:class:`~minegraph.errors.QueryTimeout`).

    Parameters
    ----------
    board
        The position.
    engine
        A registry name or an engine object, as for :func:`analyze`.
    mines
        Overrides the board's total mine count, as for :func:`analyze`; the completion
        returned carries this total.
    timeout
        Seconds the query may take, or a :class:`~minegraph.deadline.Deadline`.

    Returns
    -------
    Board or None
        The board with every hidden cell decided (mines as ``MINE``, safe cells with their
        number), or ``None`` when the board has no completion.

    Raises
    ------
    BoardError
        when ``board`` is not a :class:`~minegraph.board.Board` or ``mines`` is not a whole
        number from 0 to the number of cells.
    EngineError
        for an unknown engine or a bad ``timeout``.
    QueryTimeout
        when ``timeout`` expires.

    Examples
    --------
    >>> from minegraph import Board
    >>> solve(Board.from_text("#1-")).to_text()
    'M1-\\n'
    >>> print(solve(Board.from_text("#1#1#"), mines=2).to_text(), end="")
    mines: 2
    M101M
    >>> print(solve(Board.from_text("#1#1#"), mines=1).to_text(), end="")
    mines: 1
    01M10
    >>> solve(Board.from_text("#1#1#"), mines=3) is None
    True
    """
    from minegraph.engines.base import resolve_engine
    board = check_board(board, "solve")
    if mines is not None:
        board = board.with_states(board.states, mines)
    solver = resolve_engine(engine)
    with time_limit(timeout, "completion"):
        result = solver.complete(board)
        mined = result.get_completion() if result.consistent else None
    if mined is None:
        return None
    return _completed(board, mined)
