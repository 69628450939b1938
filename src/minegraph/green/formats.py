"""Files of the green game: the olympiad's ``gra.in``/``gra.out`` and PGSolver's format.

OI format (docs/formats.md §5): ``a b``, then a+b lines ``colour k s1 ... sk`` (Ania's fields first,
fields numbered from 1); the answer is ``p`` and then Ania's p winning fields, ascending, one per
line. PGSolver format (docs/formats.md §6): ``parity N;`` then ``id priority owner s,s,... "name";``
with ids from 0 (= our internal index); green -> priority 2, white -> 1, Ania -> owner 0.
Solutions are written as ``paritysol N;`` then ``id winner strategy;``.

Readers report the line and column (1-based) of the first problem. They take text or bytes
(bytes that are not UTF-8, such as a binary file, are a :class:`FormatError`), read numbers in
ASCII digits only (no ``+``, ``_`` or other scripts' digits), separate items by spaces and tabs
only, and check every declared size before allocating anything for it: ``a + b`` against the
task's limits and the lines that follow, a PGSolver ``parity N;`` against
:data:`MAX_PGSOLVER_VERTICES` and the lines that follow.
"""

from __future__ import annotations

import re
from itertools import islice
from typing import Iterator

import numpy as np

from minegraph.errors import FormatError, LimitError
from minegraph.green.game import MAX_EDGES, MAX_FIELDS, MAX_GREEN, GreenGame, check_task_rules
from minegraph.green.solution import Solution

__all__ = ["read_oi", "write_oi", "write_oi_answer", "read_oi_answer", "read_pgsolver",
           "write_pgsolver", "write_paritysol", "read_paritysol", "MAX_PGSOLVER_VERTICES"]

#: The most vertices a PGSolver game or solution may declare (``parity N;`` with N + 1 above
#: this is refused before anything is allocated).
MAX_PGSOLVER_VERTICES = 10_000_000

_TOKEN = re.compile(r"[^ \t]+")
_CONTENT = re.compile(r"^[ \t]*[^ \t\n]", re.MULTILINE)
_MAX_DIGITS = 18    # no count, field or vertex number of these formats needs more
_COUNT_UP_TO = 10_000


# The green game shares only the error types with the Minesweeper layers
# (tests/test_layers.py), so these few reading helpers are its own, not minegraph.formats'.
def _decode(data: str | bytes) -> str:
    """Text as given; bytes decoded as UTF-8, with a FormatError at the first bad byte."""
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    if not isinstance(data, (bytes, bytearray)):
        raise FormatError(f"expected the input as text (str) or UTF-8 bytes, got {type(data).__name__}")
    raw = bytes(data)
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line_start = raw.rfind(b"\n", 0, exc.start) + 1
        column = len(raw[line_start:exc.start].decode("utf-8", "replace")) + 1
        raise FormatError(f"not UTF-8 text: byte 0x{raw[exc.start]:02x} cannot be decoded (a binary "
                          f"file?); expected a text file", raw.count(b"\n", 0, exc.start) + 1,
                          column) from None


def _whole(token: str, signed: bool = False) -> int | None:
    """``token`` as a whole number in ASCII digits (at most 18), else None: int() would also
    take '١', '1_0', '+1' and fail past 4,300 digits."""
    body = token[1:] if signed and token.startswith("-") else token
    if not body or not body.isascii() or not body.isdigit() or len(body.lstrip("0")) > _MAX_DIGITS:
        return None
    return -int(body) if body is not token else int(body)


def _show(token: str, limit: int = 40) -> str:
    """``token`` quoted for a message, cut after ``limit`` characters."""
    return repr(token) if len(token) <= limit else f"{token[:limit]!r}… ({len(token)} characters)"


def _content_lines(text: str, start: int = 0) -> Iterator[tuple[int, int, str]]:
    """(line number, offset, line) of each non-blank line from offset ``start`` (a line start);
    blank lines are skipped by the regular-expression engine and no list of lines is made."""
    lineno, counted, pos = 1 + text.count("\n", 0, start), start, start
    while pos <= len(text):
        found = _CONTENT.search(text, pos)
        if found is None:
            return
        begin = found.start()
        end = text.find("\n", begin)
        end = len(text) if end < 0 else end
        lineno += text.count("\n", counted, begin)
        counted = begin
        yield lineno, begin, text[begin:end]
        pos = end + 1


def _tokens(line: str, most: int) -> list[tuple[str, int]]:
    """The first ``most`` tokens of ``line`` (separated by spaces and tabs) with their 1-based
    columns; never more, so a hostile line costs no more than a valid one."""
    return [(m.group(), m.start() + 1) for m in islice(_TOKEN.finditer(line), most)]


def _count(line: str, less: int = 0) -> str:
    """How many tokens ``line`` has, minus ``less``, for a message (``more than ...`` for a
    huge line, which is not counted to its end)."""
    count = sum(1 for _ in islice(_TOKEN.finditer(line), _COUNT_UP_TO + 1))
    return str(count - less) if count <= _COUNT_UP_TO else f"more than {_COUNT_UP_TO - less}"


def _int(token: str, lineno: int, column: int, what: str, signed: bool = False) -> int:
    value = _whole(token, signed)
    if value is None:
        raise FormatError(f"expected {what}, found {_show(token)}", lineno, column)
    return value


def _text(data: str | bytes) -> str:
    """The input as text with ``\n`` line ends; bytes must be UTF-8."""
    text = _decode(data)
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _lines(text: str) -> Iterator[tuple[int, str]]:
    """Every line of ``text`` up to its last non-blank one, numbered from 1, one at a time."""
    end = len(text.rstrip(" \t\n"))
    pos, lineno = 0, 1
    while pos < end:
        stop = text.find("\n", pos, end)
        if stop < 0:
            stop = end
        yield lineno, text[pos:stop]
        pos, lineno = stop + 1, lineno + 1


def read_oi(text: str | bytes, *, limits: bool = True) -> GreenGame:
    """Read ``gra.in``. With ``limits`` the task's size limits are enforced too.

    Lines are read one at a time, and a line's items only as far as its count ``k`` says, so
    the work is bounded by the task's limits whatever the file holds.

    Raises
    ------
    FormatError
        naming the line and column of the first malformed or rule-breaking item (bytes that
        are not UTF-8 included).
    LimitError
        for more than 3000 fields, 30,000 edges or 100 green fields (with ``limits``).

    Parameters
    ----------
    text : str or bytes
        The file's content.
    limits : bool
        Enforce the task's size limits.

    Returns
    -------
    GreenGame
        The game.

    Examples
    --------
    >>> g = read_oi("1 1\\n1 1 2\\n0 1 1\\n")
    >>> g.owner.tolist(), g.green.tolist(), g.successor_lists()
    ([0, 1], [True, False], [[1], [0]])
    >>> read_oi("1 1\\n1 1 2\\n0 1 2\\n")
    Traceback (most recent call last):
    ...
    minegraph.errors.FormatError: line 3, column 5: field 2 is Bolek's and so is its successor 2; moves must alternate between the players
    >>> read_oi("1 ١\\n1 1 2\\n0 1 1\\n")
    Traceback (most recent call last):
    ...
    minegraph.errors.FormatError: line 1, column 3: expected the number b of Bolek's fields, found '١'
    """
    text = _text(text)
    lines = _lines(text)
    first = next(lines, None)
    if first is None:
        raise FormatError("empty input; expected 'a b' on the first line", 1, 1)
    head = _tokens(first[1], 3)
    if len(head) != 2:
        count = _count(first[1])
        raise FormatError(f"expected two numbers 'a b', found {count} item(s)", 1, 1)
    a = _int(head[0][0], 1, head[0][1], "the number a of Ania's fields", signed=True)
    b = _int(head[1][0], 1, head[1][1], "the number b of Bolek's fields", signed=True)
    if a < 0 or b < 0:
        raise FormatError("a and b must be non-negative", 1, 1)
    n = a + b
    if n < 1:
        raise FormatError("a + b must be at least 1", 1, 1)
    if limits and n > MAX_FIELDS:
        raise LimitError(f"line 1: a + b = {n}; the task allows at most {MAX_FIELDS} fields")
    colours: list[bool] = []
    successors: list[list[int]] = []
    edges = 0
    greens = 0
    for v in range(n):
        item = next(lines, None)
        if item is None:
            raise FormatError(f"expected {n} field lines after the first, found {v}", v + 2, 1)
        lineno, line = item
        tok = _tokens(line, 2)
        if len(tok) < 2:
            raise FormatError(f"field {v + 1}: expected 'colour k s1 ... sk'", lineno, 1)
        colour = _int(tok[0][0], lineno, tok[0][1], "colour 0 or 1")
        if colour not in (0, 1):
            raise FormatError(f"colour must be 0 (white) or 1 (green), found {colour}", lineno,
                              tok[0][1])
        k = _int(tok[1][0], lineno, tok[1][1], "the number k of successors", signed=True)
        if k < 1 or k > n:
            raise FormatError(f"field {v + 1}: number of successors must be 1..{n}, found {k}",
                              lineno, tok[1][1])
        tok = _tokens(line, k + 3)
        if len(tok) != k + 2:
            found = str(len(tok) - 2) if len(tok) < k + 2 else _count(line, 2)
            column = tok[k + 2][1] if len(tok) > k + 2 else len(line) + 1
            raise FormatError(f"field {v + 1}: expected {k} successors, found {found}", lineno, column)
        succ = [_int(t, lineno, col, "a field number") for t, col in tok[2:]]
        mine_ania = v < a
        for i, s in enumerate(succ):
            if not 1 <= s <= n:
                raise FormatError(f"successor {s} is not a field number 1..{n}", lineno,
                                  tok[2 + i][1])
            if (s <= a) == mine_ania:
                who = "Ania's" if mine_ania else "Bolek's"
                raise FormatError(f"field {v + 1} is {who} and so is its successor {s}; moves "
                                  "must alternate between the players", lineno, tok[2 + i][1])
        if len(set(succ)) != k:
            seen: set[int] = set()
            for i, s in enumerate(succ):
                if s in seen:
                    raise FormatError(f"successor {s} listed twice", lineno, tok[2 + i][1])
                seen.add(s)
        edges += k
        greens += colour
        if limits and edges > MAX_EDGES:
            raise LimitError(f"line {lineno}: more than {MAX_EDGES} edges in all; the task's "
                             "limit")
        if limits and greens > MAX_GREEN:
            raise LimitError(f"line {lineno}: more than {MAX_GREEN} green fields; the task's "
                             "limit")
        colours.append(bool(colour))
        successors.append([s - 1 for s in succ])
    extra = next(lines, None)
    if extra is not None:
        raise FormatError(f"unexpected text after the {n} field lines", extra[0], 1)
    return GreenGame.from_oi(a, colours, successors)


def write_oi(game: GreenGame) -> str:
    """Write ``gra.in``; the game must follow the task's rules (Ania's fields first, moves
    alternating). Sizes are not limited here.

    Parameters
    ----------
    game : GreenGame
        The game.

    Returns
    -------
    str
        The file's text.

    Examples
    --------
    >>> print(write_oi(read_oi("1 1\\n1 1 2\\n0 1 1")), end="")
    1 1
    1 1 2
    0 1 1
    """
    check_task_rules(game, limits=False)
    a = game.n_ania
    out = [f"{a} {game.n - a}\n"]
    green = game.green.tolist()
    for v, succ in enumerate(game.successor_lists()):
        out.append(f"{int(green[v])} {len(succ)} {' '.join(str(s + 1) for s in succ)}\n")
    return "".join(out)


def write_oi_answer(solution: Solution) -> str:
    """``gra.out``: the number p of Ania's winning fields, then the fields (1-based), ascending.

    Parameters
    ----------
    solution : Solution
        The solution.

    Returns
    -------
    str
        The file's text.

    Examples
    --------
    >>> write_oi_answer(Solution(np.array([0, 1, 0], dtype=np.int8), np.array([1, 0, 1])))
    '2\\n1\\n3\\n'
    """
    wins = solution.oi_answer()
    return "".join(f"{x}\n" for x in [len(wins), *wins])


def read_oi_answer(text: str | bytes) -> list[int]:
    """Read ``gra.out`` back: Ania's winning fields, 1-based.

    Raises
    ------
    FormatError
        naming the line of a count or field that is not a whole number in ASCII digits, or
        a count that differs from the number of field lines.

    Parameters
    ----------
    text : str or bytes
        The file's content.

    Returns
    -------
    list of int
        The fields.

    Examples
    --------
    >>> read_oi_answer("2\\n1\\n3\\n")
    [1, 3]
    """
    text = _text(text)
    lines = _lines(text)
    first = next(lines, None)
    if first is None:
        raise FormatError("empty answer; expected the count p", 1, 1)
    p = _int(first[1].strip(" \t"), 1, 1, "the count p")
    fields: list[int] = []
    for lineno, line in lines:
        if len(fields) == p:
            raise FormatError(f"expected {p} field lines, found more", lineno, 1)
        fields.append(_int(line.strip(" \t"), lineno, 1, "a field number"))
    if len(fields) != p:
        raise FormatError(f"expected {p} field lines, found {len(fields)}", len(fields) + 2, 1)
    return fields


_HEADER = re.compile(r"[ \t]*(parity|paritysol)[ \t]+([0-9]+)[ \t]*;[ \t]*")
_START = re.compile(r"[ \t]*start[ \t]+[0-9]+[ \t]*;[ \t]*")
_NODE = re.compile(r'[ \t]*([0-9]+)[ \t]+([0-9]+)[ \t]+([0-9]+)[ \t]+([0-9]+(?:[ \t]*,[ \t]*[0-9]+)*)'
                   r'[ \t]*(?:"((?:[^"\\]|\\.)*)")?[ \t]*;[ \t]*')
_SOL = re.compile(r"[ \t]*([0-9]+)[ \t]+([01])(?:[ \t]+([0-9]+))?[ \t]*;[ \t]*")
_LONG_NUMBER = re.compile(r"[0-9]{19,}")


def _header(text: str, keyword: str) -> tuple[int, int, int]:
    """The line number of ``keyword N;`` (the first non-blank line), N, and the offset just
    past that line, after checking N + 1 against :data:`MAX_PGSOLVER_VERTICES` and against
    the lines that follow (each vertex needs one), so nothing is allocated for a size the
    file cannot hold."""
    first = next(_content_lines(text), None)
    if first is None:
        raise FormatError(f"empty input; expected '{keyword} N;'", 1, 1)
    lineno, start, line = first
    m = _HEADER.fullmatch(line)
    if not m or m.group(1) != keyword:
        raise FormatError(f"expected '{keyword} N;'", lineno, 1)
    top = _whole(m.group(2))
    if top is None or top + 1 > MAX_PGSOLVER_VERTICES:
        raise LimitError(f"line {lineno}: {keyword} {_show(m.group(2))} declares more than "
                         f"{MAX_PGSOLVER_VERTICES} vertices, the limit")
    after = start + len(line) + 1
    following = text.count("\n", after) + 1 if after <= len(text) else 0
    if top + 1 > following:
        raise FormatError(f"'{keyword} {top};' declares {top + 1} vertices (0..{top}), but only "
                          f"{following} line(s) follow; each vertex needs a line of its own",
                          lineno, m.start(2) + 1)
    return lineno, top, after


def _too_long(line: str, lineno: int) -> None:
    """Refuse a number of more digits than any vertex, priority or owner has."""
    long = _LONG_NUMBER.search(line)
    if long is not None:
        raise FormatError(f"number {_show(long.group())} is too large", lineno, long.start() + 1)


def read_pgsolver(text: str | bytes) -> GreenGame:
    """Read a PGSolver file whose priorities are 1 (white) and 2 (green).

    Moves need not alternate here (the solvers do not need it); every vertex 0..N must be
    described exactly once, on a line of its own, and have a successor. N + 1 may be at most
    :data:`MAX_PGSOLVER_VERTICES`, and no more than the lines that follow the header.

    Raises
    ------
    FormatError
        naming the line and column of the first malformed item (bytes that are not UTF-8
        included).
    LimitError
        for a header declaring more than :data:`MAX_PGSOLVER_VERTICES` vertices.

    Parameters
    ----------
    text : str or bytes
        The file's content.

    Returns
    -------
    GreenGame
        The game.

    Examples
    --------
    >>> g = read_pgsolver('parity 1;\\n0 2 0 1 "1";\\n1 1 1 0,1;\\n')
    >>> g.green.tolist(), g.owner.tolist(), g.successor_lists()
    ([True, False], [0, 1], [[1], [0, 1]])
    >>> read_pgsolver("parity 99999999999;\\n")
    Traceback (most recent call last):
    ...
    minegraph.errors.LimitError: line 1: parity '99999999999' declares more than 10000000 vertices, the limit
    """
    text = _text(text)
    first, top, after = _header(text, "parity")
    n = top + 1
    owner = np.full(n, -1, dtype=np.int8)
    green = np.zeros(n, dtype=bool)
    src: list[int] = []
    dst: list[int] = []
    for lineno, _, line in _content_lines(text, after):
        if lineno == first + 1 and _START.fullmatch(line):
            continue
        _too_long(line, lineno)
        m = _NODE.fullmatch(line)
        if not m:
            raise FormatError("expected 'id priority owner succ,succ,... \"name\";'", lineno, 1)
        v, prio, own = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if v > top:
            raise FormatError(f"vertex {v} beyond the declared maximum {top}", lineno,
                              m.start(1) + 1)
        if owner[v] != -1:
            raise FormatError(f"vertex {v} described twice", lineno, m.start(1) + 1)
        if prio not in (1, 2):
            raise FormatError(f"priority {prio}: a green game has priorities 1 (white) and "
                              "2 (green) only", lineno, m.start(2) + 1)
        if own not in (0, 1):
            raise FormatError(f"owner must be 0 or 1, found {own}", lineno, m.start(3) + 1)
        succ = [int(s) for s in m.group(4).split(",")]
        for s in succ:
            if s > top:
                raise FormatError(f"successor {s} beyond the declared maximum {top}", lineno,
                                  m.start(4) + 1)
        if len(set(succ)) != len(succ):
            raise FormatError(f"vertex {v} lists a successor twice", lineno, m.start(4) + 1)
        owner[v] = own
        green[v] = prio == 2
        src.extend([v] * len(succ))
        dst.extend(succ)
    missing = np.flatnonzero(owner == -1)
    if missing.size:
        raise FormatError(f"vertex {int(missing[0])} of 0..{top} is not described",
                          text.count("\n") + 1, 1)
    return GreenGame.from_edges(owner, green, src, dst)


def write_pgsolver(game: GreenGame) -> str:
    """Write the game in PGSolver's format; names are the OI field numbers (1-based).

    Parameters
    ----------
    game : GreenGame
        The game.

    Returns
    -------
    str
        The file's text.

    Examples
    --------
    >>> print(write_pgsolver(read_oi("1 1\\n1 1 2\\n0 1 1")), end="")
    parity 1;
    0 2 0 1 "1";
    1 1 1 0 "2";
    """
    out = [f"parity {game.n - 1};\n"]
    green = game.green.tolist()
    owner = game.owner.tolist()
    for v, succ in enumerate(game.successor_lists()):
        out.append(f'{v} {2 if green[v] else 1} {owner[v]} {",".join(map(str, succ))} '
                   f'"{v + 1}";\n')
    return "".join(out)


def write_paritysol(solution: Solution) -> str:
    """Write a solution as ``paritysol N;`` then ``id winner strategy;`` (strategy only on the
    winner's own vertices).

    Parameters
    ----------
    solution : Solution
        The solution.

    Returns
    -------
    str
        The file's text.

    Examples
    --------
    >>> print(write_paritysol(Solution(np.array([0, 0], dtype=np.int8), np.array([1, -1]))),
    ...       end="")
    paritysol 1;
    0 0 1;
    1 0;
    """
    out = [f"paritysol {solution.winner.shape[0] - 1};\n"]
    for v, (w, s) in enumerate(zip(solution.winner.tolist(), solution.strategy.tolist())):
        out.append(f"{v} {w} {s};\n" if s >= 0 else f"{v} {w};\n")
    return "".join(out)


def read_paritysol(text: str | bytes) -> Solution:
    """Read a ``paritysol`` file (ours, or a peer solver's) into a :class:`Solution`.

    Raises
    ------
    FormatError
        naming the line of the first malformed item, a vertex given twice or out of range, a
        strategy that is not a vertex, or (at the end) a vertex without a winner.
    LimitError
        for a header declaring more than :data:`MAX_PGSOLVER_VERTICES` vertices.

    Parameters
    ----------
    text : str or bytes
        The file's content.

    Returns
    -------
    Solution
        The solution.

    Examples
    --------
    >>> s = read_paritysol("paritysol 1;\\n0 0 1;\\n1 0;\\n")
    >>> s.winner.tolist(), s.strategy.tolist()
    ([0, 0], [1, -1])
    """
    text = _text(text)
    _, top, after = _header(text, "paritysol")
    winner = np.full(top + 1, -1, dtype=np.int8)
    strategy = np.full(top + 1, -1, dtype=np.int64)
    for lineno, _, line in _content_lines(text, after):
        _too_long(line, lineno)
        m = _SOL.fullmatch(line)
        if not m:
            raise FormatError("expected 'id winner [strategy];'", lineno, 1)
        v = int(m.group(1))
        if v > top or winner[v] != -1:
            raise FormatError(f"vertex {v} out of range or given twice", lineno, 1)
        winner[v] = int(m.group(2))
        if m.group(3) is not None:
            move = int(m.group(3))
            if move > top:
                raise FormatError(f"strategy {move} is not a vertex 0..{top}", lineno, m.start(3) + 1)
            strategy[v] = move
    if np.any(winner == -1):
        raise FormatError(f"paritysol: vertex {int(np.flatnonzero(winner == -1)[0])} has no "
                          "winner", text.count("\n") + 1, 1)
    return Solution(winner, strategy, "paritysol")
