"""The canonical board text (docs/formats.md §1) as plain data: parsing and writing without a Board.

:func:`parse_text` checks the text and returns its parts (:class:`ParsedText`);
:func:`write_text` writes any object with a board's grid attributes. The board builds
``Board.from_text`` and ``Board.to_text`` on them and :mod:`minegraph.formats.text` its reader,
so the board and its text form need not import each other: this module knows the states and
the topologies only.

Symbols: ``#`` and ``?`` hidden, ``M``/``F``/``*`` a known mine, ``-``/``◇`` uncovered without
number, ``0``-``9`` and ``a``-``c`` (10-12) numbers. Symbols whose meaning differs between
sources (``.`` an uncovered 0 or an unknown cell, ``x`` a hidden cell or a mine) are refused
unless a dialect says which is meant (:data:`DIALECTS`). Headers ``mines: N``,
``topology: NAME`` and ``dialect: NAME`` come before the rows; lines starting with ``;`` are
comments. Cells may be separated by spaces or tabs if every two neighbouring cells of the
grid are separated the same way; whitespace that could stand for cells (a blank line inside
the grid, uneven gaps, rows indented differently, or indentation of rows written without
separators when every row starts with an uncovered cell, :meth:`GridRows.indent_problem`) is
refused, naming its line and column.

:class:`GridRows` checks rows one at a time (spacing, width, the cell limit before any cell
is stored, symbols); the JSON reader's grid form uses it too.
"""

from __future__ import annotations


import re
from array import array
from typing import NamedTuple, Protocol, Sequence

from minegraph.errors import FormatError, LimitError, UserError
from minegraph.formats.scan import content_lines, normalise_newlines, show, whole_number
from minegraph.states import BLANK, HIDDEN, MAX_CELLS, MINE
from minegraph.topology import MAX_DEGREE, TOPOLOGIES, degree_limits, grid_neighbors

__all__ = ["ParsedText", "TextGrid", "GridRows", "RowProblem", "parse_text", "write_text", "symbol",
           "symbols", "unknown_symbol", "expected_symbols", "split_row", "row_separator", "spaced_zero_rows", "SYMBOLS",
           "DIALECTS"]

#: The symbols every dialect reads: the canonical ones and the aliases no source disagrees on.
SYMBOLS: dict[str, int] = {"#": HIDDEN, "?": HIDDEN,
                           "M": MINE, "F": MINE, "*": MINE,
                           "-": BLANK, "◇": BLANK}
SYMBOLS.update({str(d): d for d in range(10)})
SYMBOLS.update({"a": 10, "b": 11, "c": 12})

#: The dialects, each the symbols it reads beyond :data:`SYMBOLS`: ``standard`` (the default)
#: refuses ``.`` and ``x``; ``ascii`` reads ``x``/``X`` as hidden and ``.`` as an uncovered 0;
#: ``dots`` reads ``.`` as an unknown (hidden) cell.
DIALECTS: dict[str, dict[str, int]] = {
    "standard": {},
    "ascii": {"x": HIDDEN, "X": HIDDEN, ".": 0},
    "dots": {".": HIDDEN},
}

_TABLES: dict[str, dict[str, int]] = {name: {**SYMBOLS, **extra} for name, extra in DIALECTS.items()}
_EXPECTED = {"standard": "one of # ? M F * - ◇ 0-9 a-c",
             "ascii": "one of # ? x X M F * - ◇ . 0-9 a-c",
             "dots": "one of # ? . M F * - ◇ 0-9 a-c"}
_AMBIGUOUS = {
    ".": "'.' is an uncovered 0 in some boards and an unknown cell in others: say which with the "
         "dialect 'ascii' (. = 0) or 'dots' (. = hidden), in a header line 'dialect: dots' or the "
         "reader's dialect option, or write 0 or #",
    "x": "'x' is a hidden cell in some boards and a mine in others: say which with the dialect "
         "'ascii' (x = hidden), in a header line 'dialect: ascii' or the reader's dialect option, "
         "or write # or M",
}
_AMBIGUOUS["X"] = _AMBIGUOUS["x"]

_WRITE = {HIDDEN: "#", MINE: "M", BLANK: "-"}
_HEADERS = ("mines", "topology", "dialect")
_SPACING_HINT = ("spaces could stand for uncovered cells, so this is ambiguous: separate every two "
                 "cells of the grid the same way (or not at all), indent every row the same, and "
                 "write uncovered cells as 0 or -")
_GAP = re.compile(r"[ \t]+")
_BLANK_LINE = re.compile(r"^[ \t]*\n", re.MULTILINE)
_INTEGER_ROW = re.compile(r"[ \t]*-?[0-9]+(?:([ \t]+)-?[0-9]+)*[ \t]*")


class ParsedText(NamedTuple):
    """A checked board text: a grid of ``rows`` x ``cols`` row-major ``states``.

    Parameters
    ----------
    topology : str
        The grid's topology.
    rows, cols : int
        Its size.
    states : tuple of int
        The cells' states, row-major.
    mines : int or None
        The total, if given.
    """

    topology: str
    rows: int
    cols: int
    states: tuple[int, ...]
    mines: int | None


class TextGrid(Protocol):
    """What :func:`write_text` reads of a board (a :class:`~minegraph.board.Board` has it)."""

    @property
    def topology(self) -> str: ...

    @property
    def rows(self) -> int | None: ...

    @property
    def cols(self) -> int | None: ...

    @property
    def states(self) -> Sequence[int]: ...

    @property
    def mines(self) -> int | None: ...


def symbols(dialect: str = "standard") -> dict[str, int]:
    """The symbol table of a dialect (one of :data:`DIALECTS`).

    Raises
    ------
    UserError
        for an unknown dialect name, listing the known ones.

    Parameters
    ----------
    dialect : str
        One of :data:`DIALECTS`.

    Returns
    -------
    dict of str to int
        The state of each symbol.

    Examples
    --------
    >>> symbols("dots")["."] == HIDDEN, "." in symbols()
    (True, False)
    """
    try:
        return _TABLES[dialect]
    except (KeyError, TypeError):
        raise UserError(f"unknown dialect {dialect!r}; expected one of {', '.join(DIALECTS)}") from None


def unknown_symbol(found: str, dialect: str = "standard") -> str:
    """The message for a symbol ``dialect`` does not read: which dialect would read it if it is
    ambiguous, else the symbols expected.

    Parameters
    ----------
    found : str
        The symbol read.
    dialect : str
        The dialect in use.

    Returns
    -------
    str
        The message.

    Examples
    --------
    >>> unknown_symbol("@")
    "unknown symbol '@'; expected one of # ? M F * - ◇ 0-9 a-c"
    >>> unknown_symbol(".").split(":")[0]
    "unknown symbol '.'; '.' is an uncovered 0 in some boards and an unknown cell in others"
    """
    hint = _AMBIGUOUS.get(found) if found not in symbols(dialect) else None
    return f"unknown symbol {show(found)}; " + (hint or f"expected {expected_symbols(dialect)}")


def expected_symbols(dialect: str = "standard") -> str:
    """The symbols ``dialect`` reads, for messages.

    Parameters
    ----------
    dialect : str
        The dialect.

    Returns
    -------
    str
        The symbols, for a message.

    Examples
    --------
    >>> expected_symbols("ascii")
    'one of # ? x X M F * - ◇ . 0-9 a-c'
    """
    symbols(dialect)
    return _EXPECTED[dialect]


def _spacing(sep: str) -> str:
    """How cells are spaced, for messages: 'written together', 'separated by one space', ..."""
    if not sep:
        return "written together"
    if set(sep) == {" "}:
        return "separated by one space" if len(sep) == 1 else f"separated by {len(sep)} spaces"
    if set(sep) == {"\t"}:
        return "separated by a tab" if len(sep) == 1 else f"separated by {len(sep)} tabs"
    return f"separated by {sep!r}"


def _indent(indent: str) -> str:
    if not indent:
        return "not indented"
    return f"indented by {indent!r}"


class RowProblem(Exception):
    """A row that :class:`GridRows` refuses: the message, the 1-based column in the row, and
    whether it is a size limit (a :class:`~minegraph.errors.LimitError`) or a format error."""

    def __init__(self, message: str, column: int | None, limit: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.column = column
        self.limit = limit


def split_row(line: str) -> tuple[str, str, str]:
    """Split one grid row into its indentation, the separator between its cells and the cells.

    Trailing spaces and tabs are dropped. A row is either written together (``#1#``) or has
    one and the same run of spaces or tabs between every two cells (``# 1 #``).

    Raises
    ------
    RowProblem
        for uneven gaps inside the row, at the first one.

    Parameters
    ----------
    line : str
        One grid row.

    Returns
    -------
    (str, str, str)
        The indentation, the separator and the cells.

    Examples
    --------
    >>> split_row("  # 1 #  ")
    ('  ', ' ', '#1#')
    >>> split_row("#1  #")
    Traceback (most recent call last):
    ...
    minegraph.formats.text_syntax.RowProblem: cells are written together at the start of the row but separated by 2 spaces here; spaces could stand for uncovered cells, so this is ambiguous: separate every two cells of the grid the same way (or not at all), indent every row the same, and write uncovered cells as 0 or -
    """
    body = line.rstrip(" \t")
    cells = body.lstrip(" \t")
    indent = body[:len(body) - len(cells)]
    if " " not in cells and "\t" not in cells:
        return indent, "", cells
    gap = _GAP.search(cells)
    assert gap is not None
    sep = gap.group()
    if gap.start() > 1:
        raise RowProblem(f"cells are written together at the start of the row but "
                         f"{_spacing(sep)} here; {_SPACING_HINT}", len(indent) + gap.start() + 1)
    step = len(sep) + 1
    picked = cells[::step]
    if sep.join(picked) == cells:
        return indent, sep, picked
    for p, ch in enumerate(cells):
        expected_gap = p % step != 0
        if (ch in " \t") != expected_gap or (expected_gap and ch != sep[p % step - 1]):
            raise RowProblem(f"the row's first cells are {_spacing(sep)}, but not the cells here; "
                             f"{_SPACING_HINT}", len(indent) + p + 1)
    raise AssertionError("unreachable: the row was regular")  # pragma: no cover


class GridRows:
    """Grid rows read one at a time, refused as soon as they break a rule.

    Each :meth:`add` checks the row's spacing against the first row's, its width, and the
    cell limit (:data:`~minegraph.states.MAX_CELLS`) *before* its cells are stored, so an
    oversize grid is refused after at most ``MAX_CELLS`` cells of work; then it maps the
    symbols with ``table``.

    Parameters
    ----------
    dialect : str
        One of :data:`DIALECTS`: the symbols read.
    first : str
        How messages name the first row (``"the first row"``, ``"row 0"``).
    rows : int, optional
        The number of rows, when known in advance (the JSON list), to refuse at the first row.

    Examples
    --------
    >>> g = GridRows("standard", "the first row")
    >>> g.add("# 1"); g.add("1 1")
    >>> g.rows, g.width, g.states
    (2, 2, [-1, 1, 1, 1])
    >>> g.add("111")
    Traceback (most recent call last):
    ...
    minegraph.formats.text_syntax.RowProblem: row has 3 cells but the first row has 2
    """

    def __init__(self, dialect: str, first: str, rows: int | None = None) -> None:
        self.dialect = dialect
        self.table = symbols(dialect)
        self.first = first
        self.known_rows = rows
        self.states: list[int] = []
        self.rows = 0
        self.width = 0
        self.indent = ""
        self.sep: str | None = None
        #: Whether every row so far starts with an uncovered cell (a number or ``-``).
        self.starts_uncovered = True

    def column(self, col: int) -> int:
        """The 1-based column of cell ``col`` as written (every row is indented and spaced
        alike, so the row does not matter)."""
        return len(self.indent) + col * (len(self.sep or "") + 1) + 1

    def add(self, line: str) -> None:
        """Check and store one row; raise :class:`RowProblem` if it breaks a rule."""
        indent, sep, cells = split_row(line)
        n = len(cells)
        if self.rows == 0:
            if n == 0:
                raise RowProblem("expected at least one cell symbol in the row", None)
            total = n * (self.known_rows or 1)
            if total > MAX_CELLS:
                size = f"{self.known_rows}x{n}" if self.known_rows else f"at least 1x{n}"
                raise RowProblem(f"board of {size} cells exceeds the limit of {MAX_CELLS} cells", None,
                                 limit=True)
            self.width = n
            self.indent = indent
        else:
            if indent != self.indent:
                raise RowProblem(f"the row is {_indent(indent)} but {self.first} is "
                                 f"{_indent(self.indent)}; {_SPACING_HINT}", 1)
            if n != self.width:
                # Point at the first extra cell, or just past the end of a short row.
                column = (len(indent) + self.width * (len(sep) + 1) + 1 if n > self.width
                          else len(line.rstrip(" \t")) + 1)
                raise RowProblem(f"row has {n} cells but {self.first} has {self.width}", column)
            if (self.rows + 1) * n > MAX_CELLS:
                raise RowProblem(f"board of at least {self.rows + 1}x{n} cells exceeds the limit of "
                                 f"{MAX_CELLS} cells", None, limit=True)
        if n >= 2:
            if self.sep is None:
                self.sep = sep
            elif sep != self.sep:
                raise RowProblem(f"cells are {_spacing(sep)} here but {_spacing(self.sep)} in the "
                                 f"rows above; {_SPACING_HINT}", len(indent) + 2)
        step = len(sep) + 1
        table = self.table
        try:
            self.states.extend([table[ch] for ch in cells])
        except KeyError:
            for i, ch in enumerate(cells):
                if ch not in table:
                    raise RowProblem(unknown_symbol(ch, self.dialect), len(indent) + i * step + 1) from None
        if self.starts_uncovered and n:
            first = table[cells[0]]
            self.starts_uncovered = first >= 0 or first == BLANK
        self.rows += 1

    def indent_problem(self) -> RowProblem | None:
        """The problem with the rows' common indentation once every row is read, or ``None``.

        In rows written without separators each space stands for one cell, so indentation
        may be a column of uncovered cells whose symbols were lost (0s shown as spaces). A 0's
        neighbours are all uncovered, so that reading is possible only when every row starts
        with an uncovered cell (a number or ``-``); then the indentation is refused. When some
        row starts with a hidden cell or a mine, the indentation cannot be cells and is read as
        indentation (a pasted code block). Separated cells (``# 1 #``) are placed by their
        separator, so their indentation is not in question.

        Examples
        --------
        >>> g = GridRows("standard", "the first row")
        >>> g.add("  1#"); g.add("  1#")
        >>> print(g.indent_problem())  # doctest: +ELLIPSIS
        the rows are indented by '  ' ... may be 2 columns of uncovered cells ...
        >>> g.add("  ##"); g.indent_problem() is None
        True
        """
        if not self.indent or self.sep or not self.starts_uncovered:
            return None
        k = len(self.indent)
        columns = "1 column" if k == 1 else f"{k} columns"
        return RowProblem(f"the rows are indented by {self.indent!r} and written without separators, "
                          f"and every row starts with an uncovered cell, so the indentation may be "
                          f"{columns} of uncovered cells whose symbols were lost (0s shown as "
                          f"spaces): remove the indentation if it is not cells, or write those "
                          f"cells as 0 or -", 1)

    def too_large(self, topology: str) -> tuple[int, str] | None:
        """The first cell (row-major index) whose number exceeds the topology's maximum or its
        own neighbour count, with the reason; ``None`` if there is none.

        Examples
        --------
        >>> g = GridRows("standard", "the first row")
        >>> g.add("##"); g.add("#4")
        >>> g.too_large("square"), g.column(1)
        ((3, 'number 4 is too large: this cell has only 3 neighbours'), 2)
        """
        cap = MAX_DEGREE[topology]
        neighbors = grid_neighbors(topology, self.rows, self.width)
        if not self.states or (max(self.states) <= cap and
                               degree_limits(neighbors).first_over(self.states) is None):
            return None     # every number within its cell's reach: no loop
        for i, s in enumerate(self.states):
            if s > 0:
                degree = len(neighbors[i])
                if s > cap or s > degree:
                    why = (f"the {topology} grid allows at most {cap}" if s > cap
                           else f"this cell has only {degree} neighbours")
                    return i, f"number {s} is too large: {why}"
        return None


def _parse_header(line: str, lineno: int, headers: dict[str, tuple[str, int, int]]) -> bool:
    """Record a ``key: value`` header; return False if the line is not a header."""
    key, sep, value = line.partition(":")
    if not sep:
        return False
    name = key.strip().lower()
    if name not in _HEADERS:
        raise FormatError(f"unknown header {show(key.strip())}; expected one of {', '.join(_HEADERS)}",
                          lineno, 1)
    if name in headers:
        raise FormatError(f"header {name!r} given twice", lineno, 1)
    column = len(key) + 2 + (len(value) - len(value.lstrip()))
    headers[name] = (value.strip(), lineno, column)
    return True


def _chosen_dialect(dialect: str | None, headers: dict[str, tuple[str, int, int]]) -> str:
    """The dialect: the reader's option, else the ``dialect:`` header, else ``standard``."""
    if "dialect" in headers:
        value, ln, col = headers["dialect"]
        named = value.lower()
        if named not in DIALECTS:
            raise FormatError(f"unknown dialect {show(value)}; expected one of {', '.join(DIALECTS)}",
                              ln, col)
        if dialect is not None and dialect != named:
            raise FormatError(f"the text says dialect {named!r} but the {dialect!r} dialect was asked "
                              f"for; drop one of the two", ln, col)
        return named
    return dialect or "standard"


_GRAPH_HINT = ("an edge list or adjacency list is a graph (read it with the format 'edgelist' or "
               "'adjlist' and the cell states alongside, docs/formats.md, Graph files; or write "
               "it as a JSON graph board, §4)")


def _integer_lists(lineno: int, text: str) -> FormatError:
    """Rows of integers separated by spaces: refused, naming first what they most likely are."""
    row = spaced_zero_rows(text)
    if row is not None:
        return FormatError(f"these rows look like a board of uncovered 0s written with spaces, which "
                           f"could stand for uncovered cells: write its cells without spaces "
                           f"(e.g. '{row}'); if they are not a board, {_GRAPH_HINT}", lineno, 1)
    return FormatError(f"these rows are integers separated by spaces, not board cells: {_GRAPH_HINT}; "
                       "a numeric grid needs its header line 'rows cols mines' (§3); a board of "
                       "uncovered numbers is written without spaces, e.g. '11'", lineno, 1)


_SPACED_ZEROS = re.compile(r"[ \t]*0(?:[ \t]+0)+[ \t]*")


def spaced_zero_rows(text: str) -> str | None:
    """The first row, written without spaces, when every line of ``text`` (blank lines and ``;``
    comments aside) is 0s separated by spaces or tabs, as many on each line: an opened region of
    a board written with spaces (a board of uncovered numbers only, without hidden cells or
    mines, is consistent only when every number is 0). ``None`` otherwise (a graph's lines, a
    numeric grid). For messages: linear in the length of ``text``.

    Parameters
    ----------
    text : str
        The input.

    Returns
    -------
    str or None
        The first row without its spaces, or ``None``.

    Examples
    --------
    >>> spaced_zero_rows("0 0 0\\n0 0 0\\n"), spaced_zero_rows("0 0\\n0 0 0"), spaced_zero_rows("0 1\\n1 2")
    ('000', None, None)
    """
    first: str | None = None
    width = 0
    for _, _, line in content_lines(normalise_newlines(text), comments=";"):
        if _SPACED_ZEROS.fullmatch(line) is None:
            return None
        cells = line.split()
        if first is None:
            first, width = "".join(cells), len(cells)
        elif len(cells) != width:
            return None
    return first


_HEADER_WITHOUT_COLON = re.compile(r"[ \t]*(mines|topology|dialect)[ \t]*(?:=[ \t]*|[ \t]+)([^ \t:=].*?)?[ \t]*",
                                   re.IGNORECASE)
# A line that starts with '#' or '//' and then has a word that is not cells: a comment written
# as in other languages (the format's comments start with ';').
_COMMENT_LIKE = re.compile(r"[ \t]*(#|//)(?=.*[A-Za-z]{2})")


#: Every symbol some dialect reads.
_ANY_SYMBOL = frozenset().union(*_TABLES.values())


def _misread_line(line: str, in_grid: bool) -> str | None:
    """What a line the grid refused most likely is, when it is not a grid row at all: a header
    written without its colon (``mines=1``), or a comment started with ``#`` or ``//``. The
    message, or ``None`` to keep the grid's own."""
    header = _HEADER_WITHOUT_COLON.fullmatch(line)
    if header is not None:
        fixed = f"{header.group(1).lower()}: {header.group(2) or ''}".rstrip()
        where = ("; header lines come before the grid rows" if in_grid else "")
        return (f"this looks like a header written without its colon: header lines are 'key: "
                f"value' (docs/formats.md §1), so write it '{fixed}'{where}")
    comment = _COMMENT_LIKE.match(line)
    if comment is not None:
        # A word with a letter no dialect reads (so not 'xx' or 'ab', which may be cells).
        words = [w for w in re.findall(r"[A-Za-z]{2,}", line)
                 if any(ch not in _ANY_SYMBOL for ch in w)]
        if words:
            start = comment.group(1)
            what = "'#' is a hidden cell" if start == "#" else "'/' is not a cell symbol"
            return (f"this looks like a comment, but {what}: comment lines start with ';' "
                    f"(e.g. '; {line.strip()[len(start):].strip()}')")
    return None


def parse_text(text: str, dialect: str | None = None) -> ParsedText:
    """Check the canonical text and return its topology, size, states and mine total.

    Everything a reader can reject is rejected here, with its place: unknown or ambiguous
    symbols and headers, ragged rows, whitespace that could stand for cells, a bad total,
    numbers above the topology's maximum or the cell's neighbour count, and boards over
    :data:`~minegraph.states.MAX_CELLS` (refused at the row that crosses the limit, before the
    rest is read). Cost: linear in the length of the text up to that row.

    Parameters
    ----------
    text : str
        The board text.
    dialect : str, optional
        One of :data:`DIALECTS`; by default the text's own ``dialect:`` header, else
        ``standard``. Asking for a dialect other than the header's is an error.

    Raises
    ------
    FormatError
        naming line and column (1-based) and what was expected.
    LimitError
        for a board of more than :data:`~minegraph.states.MAX_CELLS` cells.
    UserError
        for an unknown ``dialect`` name.

    Returns
    -------
    ParsedText
        The checked text's parts.

    Examples
    --------
    >>> parse_text("mines: 2\\ntopology: hex\\n#2\\n-0")
    ParsedText(topology='hex', rows=2, cols=2, states=(-1, 2, -3, 0), mines=2)
    >>> parse_text("x.\\n11", dialect="ascii").states, parse_text("# 1\\n1 1").states
    ((-1, 0, 1, 1), (-1, 1, 1, 1))
    """
    if not isinstance(text, str):
        raise FormatError(f"expected the board text as a str, got {type(text).__name__}")
    if dialect is not None:
        symbols(dialect)
    text = normalise_newlines(text)
    if dialect in (None, "standard"):
        plain = _plain_grid(text)
        if plain is not None:
            return plain
    return _parse_rows(text, dialect)


#: A header line the fast reader takes as it is (anything else goes to the full reader).
_PLAIN_HEADER = re.compile(r"(mines|topology): ?([0-9]{1,9}|[a-z]{1,20})")


def _plain_grid(text: str) -> ParsedText | None:
    """The common case at C speed, or ``None`` for the full reader: ``mines:`` and
    ``topology:`` headers written plainly, then rows of standard symbols of one width, no
    spaces, comments, blank lines or numbers too large. Whatever is refused here is read (and
    its errors named) by :func:`_parse_rows`, which gives the same answer on every text this
    one accepts (tests/formats/test_text_syntax.py checks both on random texts)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    headers: dict[str, str] = {}
    start = 0
    for line in lines:
        found = _PLAIN_HEADER.fullmatch(line)
        if found is None:
            break
        if found.group(1) in headers:
            return None
        headers[found.group(1)] = found.group(2)
        start += 1
    rows = lines[start:]
    if not rows:
        return None
    width = len(rows[0])
    if not width or any(len(row) != width for row in rows) or len(rows) * width > MAX_CELLS:
        return None
    try:
        states = tuple(map(_TABLES["standard"].__getitem__, "".join(rows)))
    except KeyError:
        return None
    topology = headers.get("topology", "square")
    mines: int | None = None
    if "mines" in headers:
        written = headers["mines"]
        if not written.isdigit():
            return None                 # a word ('unknown', or a mistake): the full reader says
        mines = int(written)
        if mines > len(states) or written != str(mines):
            return None                 # out of range, or leading zeros: the full reader says
    if topology not in TOPOLOGIES:
        return None
    if max(states) > MAX_DEGREE[topology] or \
            degree_limits(grid_neighbors(topology, len(rows), width)).first_over(states) is not None:
        return None
    return ParsedText(topology, len(rows), width, states, mines)


def _parse_rows(text: str, dialect: str | None) -> ParsedText:
    """:func:`parse_text` line by line, every rule checked with its place."""
    headers: dict[str, tuple[str, int, int]] = {}
    grid: GridRows | None = None
    lines = array("l")        # the line number of each grid row
    integer_rows = True       # every row so far is a list of integers (``-1 0 12``) ...
    spaced = False            # ... and some row has two or more of them
    previous_end = 0          # offset just past the previous grid row
    for lineno, start, line in content_lines(text, comments=";"):
        if grid is None and _parse_header(line, lineno, headers):
            continue
        if ":" in line:
            raise FormatError("header lines must come before the grid rows", lineno, line.index(":") + 1)
        integers = _INTEGER_ROW.fullmatch(line) if integer_rows else None
        integer_rows = integers is not None
        spaced = spaced or (integers is not None and integers.group(1) is not None)
        if grid is None:
            chosen = _chosen_dialect(dialect, headers)
            grid = GridRows(chosen, "the first row")
        elif start > previous_end + 1:
            blank = _BLANK_LINE.search(text, previous_end + 1, start)
            if blank is not None:
                if integer_rows and spaced:
                    raise _integer_lists(lines[0], text)
                raise FormatError("blank line inside the grid: it may be a row of uncovered cells "
                                  "whose spaces were lost; remove it, or write that row's cells "
                                  "(0 or - for uncovered)", lines[-1] + 1 +
                                  text.count("\n", previous_end + 1, blank.start()), 1)
        try:
            grid.add(line)
        except RowProblem as problem:
            if integer_rows and spaced:
                raise _integer_lists(lines[0] if lines else lineno, text) from None
            if problem.limit:
                raise LimitError(f"line {lineno}: {problem.message}") from None
            misread = _misread_line(line, grid.rows > 0)
            if misread is not None:
                raise FormatError(misread, lineno, 1) from None
            raise FormatError(problem.message, lineno, problem.column) from None
        lines.append(lineno)
        previous_end = start + len(line)
    if grid is None:
        raise FormatError("empty input: expected at least one row of cells", 1, 1)
    if integer_rows and spaced:
        raise _integer_lists(lines[0], text)
    indented = grid.indent_problem()
    if indented is not None:
        raise FormatError(indented.message, lines[0], indented.column)

    topology = "square"
    if "topology" in headers:
        value, ln, col = headers["topology"]
        if value.lower() not in TOPOLOGIES:
            raise FormatError(f"unknown topology {show(value)}; expected one of {', '.join(TOPOLOGIES)}",
                              ln, col)
        topology = value.lower()
    n_rows, n_cols = grid.rows, grid.width
    mines = None
    if "mines" in headers:
        value, ln, col = headers["mines"]
        if value.lower() not in ("", "?", "unknown", "none"):
            mines = whole_number(value, signed=True)
            if mines is None:
                raise FormatError(f"expected a whole number of mines, got {show(value)} (digits 0-9 only)",
                                  ln, col)
            if not 0 <= mines <= n_rows * n_cols:
                raise FormatError(f"mine count {mines} is outside 0..{n_rows * n_cols} (the number of "
                                  f"cells)", ln, col)
    too_large = grid.too_large(topology)
    if too_large is not None:
        index, message = too_large
        r, c = divmod(index, n_cols)
        raise FormatError(message, lines[r], grid.column(c))
    return ParsedText(topology, n_rows, n_cols, tuple(grid.states), mines)


def symbol(state: int) -> str:
    """The canonical symbol of one state.

    Numbers above 12 occur on graph boards only (a cell's degree caps them there); they have
    no one-character symbol and are written in decimal digits.

    Parameters
    ----------
    state : int
        A cell state.

    Returns
    -------
    str
        Its symbol.

    Examples
    --------
    >>> [symbol(s) for s in (HIDDEN, MINE, BLANK, 3, 12, 13)]
    ['#', 'M', '-', '3', 'c', '13']
    """
    if state >= 0:
        return str(state) if state < 10 else "abc"[state - 10] if state <= 12 else str(state)
    return _WRITE[state]


def write_text(board: TextGrid, separator: str = "") -> str:
    """Write the canonical text of a grid board; ``read_text(write_text(b)) == b``.

    ``separator`` goes between the cells of a row: ``""`` (canonical) or a run of spaces or
    tabs, the space-separated dialect the reader takes (:func:`row_separator` finds a text's).

    Raises
    ------
    FormatError
        for a graph board, which has no grid (write JSON instead).
    UserError
        for a separator other than spaces or tabs.

    Parameters
    ----------
    board : TextGrid
        A grid board (its topology, size, states and total).
    separator : str
        What to write between two cells of a row.

    Returns
    -------
    str
        The text.

    Examples
    --------
    >>> print(write_text(parse_text("mines: 1\\n#1\\n11")), end="")
    mines: 1
    #1
    11
    >>> print(write_text(parse_text("#1\\n11"), separator=" "), end="")
    # 1
    1 1
    """
    if separator.strip(" \t"):
        raise UserError(f"a row separator is spaces or tabs, got {separator!r}")
    if board.rows is None or board.cols is None:
        raise FormatError("a graph board has no grid text form; write it as JSON")
    lines = []
    if board.mines is not None:
        lines.append(f"mines: {board.mines}")
    if board.topology != "square":
        lines.append(f"topology: {board.topology}")
    cols = board.cols
    for r in range(board.rows):
        lines.append(separator.join(symbol(s) for s in board.states[r * cols:(r + 1) * cols]))
    return "\n".join(lines) + "\n"


def row_separator(text: str) -> str:
    """What separates the cells of the grid rows in a board text the reader accepted: ``""``
    for cells written together (or rows of one cell), else the run of spaces or tabs between
    every two cells, so that a writer can answer in the input's style
    (``write_text(board, separator=...)``). Linear in the length of the text up to the first
    row of two or more cells.

    Parameters
    ----------
    text : str
        A board text the reader accepted.

    Returns
    -------
    str
        The separator.

    Examples
    --------
    >>> row_separator("mines: 1\\n; note\\n# 1\\n1 1"), row_separator("#1\\n11"), row_separator("#\\n1")
    (' ', '', '')
    """
    for _, _, line in content_lines(normalise_newlines(text), comments=";"):
        if ":" in line:
            continue                        # a header (rows have no colon)
        try:
            _, sep, cells = split_row(line)
        except RowProblem:
            return ""
        if len(cells) >= 2:
            return sep
    return ""
