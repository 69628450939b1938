"""Files of the green game: the olympiad's ``gra.in``/``gra.out`` and PGSolver's format.

OI format (docs/formats.md §5): ``a b``, then a+b lines ``colour k s1 ... sk`` (Ania's fields first,
fields numbered from 1); the answer is ``p`` and then Ania's p winning fields, ascending, one per
line. PGSolver format (docs/formats.md §6): ``parity N;`` then ``id priority owner s,s,... "name";``
with ids from 0 (= our internal index); green -> priority 2, white -> 1, Ania -> owner 0.
Solutions are written as ``paritysol N;`` then ``id winner strategy;``.

Readers report the line and column (1-based) of the first problem.
"""

from __future__ import annotations

import re

import numpy as np

from minegraph.errors import FormatError, LimitError, MinegraphError
from minegraph.green.game import MAX_EDGES, MAX_FIELDS, MAX_GREEN, GreenGame, check_task_rules
from minegraph.green.solution import Solution

__all__ = ["read_oi", "write_oi", "write_oi_answer", "read_oi_answer", "read_pgsolver",
           "write_pgsolver", "write_paritysol", "read_paritysol"]


def _column(line: str, index: int) -> int:
    """1-based column where the ``index``-th whitespace-separated token of ``line`` starts."""
    starts = [m.start() + 1 for m in re.finditer(r"\S+", line)]
    return starts[index] if index < len(starts) else len(line) + 1


def _int(token: str, line: str, lineno: int, index: int, what: str) -> int:
    if not re.fullmatch(r"[+-]?\d+", token):
        raise FormatError(f"expected {what}, found {token!r}", lineno, _column(line, index))
    return int(token)


def read_oi(text: str, limits: bool = True) -> GreenGame:
    """Read ``gra.in``. With ``limits`` the task's size limits are enforced too.

    Raises
    ------
    FormatError
        naming the line and column of the first malformed or rule-breaking item.
    LimitError
        for more than 3000 fields, 30,000 edges or 100 green fields (with ``limits``).

    Examples
    --------
    >>> g = read_oi("1 1\\n1 1 2\\n0 1 1\\n")
    >>> g.owner.tolist(), g.green.tolist(), g.successor_lists()
    ([0, 1], [True, False], [[1], [0]])
    >>> read_oi("1 1\\n1 1 2\\n0 1 2\\n")
    Traceback (most recent call last):
    ...
    minegraph.errors.FormatError: line 3, column 5: field 2 is Bolek's and so is its successor 2; moves must alternate between the players
    """
    lines = text.split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise FormatError("empty input; expected 'a b' on the first line", 1, 1)
    head = lines[0].split()
    if len(head) != 2:
        raise FormatError(f"expected two numbers 'a b', found {len(head)} item(s)", 1, 1)
    a = _int(head[0], lines[0], 1, 0, "the number a of Ania's fields")
    b = _int(head[1], lines[0], 1, 1, "the number b of Bolek's fields")
    if a < 0 or b < 0:
        raise FormatError("a and b must be non-negative", 1, 1)
    n = a + b
    if n < 1:
        raise FormatError("a + b must be at least 1", 1, 1)
    if limits and n > MAX_FIELDS:
        raise LimitError(f"line 1: a + b = {n}; the task allows at most {MAX_FIELDS} fields")
    if len(lines) - 1 < n:
        raise FormatError(f"expected {n} field lines after the first, found {len(lines) - 1}",
                          len(lines) + 1, 1)
    if len(lines) - 1 > n:
        raise FormatError(f"unexpected text after the {n} field lines", n + 2, 1)
    colours: list[bool] = []
    successors: list[list[int]] = []
    edges = 0
    greens = 0
    for v in range(n):
        lineno = v + 2
        line = lines[v + 1]
        tok = line.split()
        if len(tok) < 2:
            raise FormatError(f"field {v + 1}: expected 'colour k s1 ... sk'", lineno, 1)
        colour = _int(tok[0], line, lineno, 0, "colour 0 or 1")
        if colour not in (0, 1):
            raise FormatError(f"colour must be 0 (white) or 1 (green), found {colour}", lineno,
                              _column(line, 0))
        k = _int(tok[1], line, lineno, 1, "the number k of successors")
        if k < 1 or k > n:
            raise FormatError(f"field {v + 1}: number of successors must be 1..{n}, found {k}",
                              lineno, _column(line, 1))
        if len(tok) != k + 2:
            raise FormatError(f"field {v + 1}: expected {k} successors, found {len(tok) - 2}",
                              lineno, _column(line, min(len(tok), k + 2)))
        try:
            succ = [int(t) for t in tok[2:]]
        except ValueError:
            bad = next(i for i, t in enumerate(tok[2:]) if not re.fullmatch(r"[+-]?\d+", t))
            raise FormatError(f"expected a field number, found {tok[2 + bad]!r}", lineno,
                              _column(line, 2 + bad)) from None
        mine_ania = v < a
        for i, s in enumerate(succ):
            if not 1 <= s <= n:
                raise FormatError(f"successor {s} is not a field number 1..{n}", lineno,
                                  _column(line, 2 + i))
            if (s <= a) == mine_ania:
                who = "Ania's" if mine_ania else "Bolek's"
                raise FormatError(f"field {v + 1} is {who} and so is its successor {s}; moves "
                                  "must alternate between the players", lineno,
                                  _column(line, 2 + i))
        if len(set(succ)) != k:
            seen: set[int] = set()
            for i, s in enumerate(succ):
                if s in seen:
                    raise FormatError(f"successor {s} listed twice", lineno, _column(line, 2 + i))
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
    return GreenGame.from_oi(a, colours, successors)


def write_oi(game: GreenGame) -> str:
    """Write ``gra.in``; the game must follow the task's rules (Ania's fields first, moves
    alternating). Sizes are not limited here.

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

    Examples
    --------
    >>> write_oi_answer(Solution(np.array([0, 1, 0], dtype=np.int8), np.array([1, 0, 1])))
    '2\\n1\\n3\\n'
    """
    wins = solution.oi_answer()
    return "".join(f"{x}\n" for x in [len(wins), *wins])


def read_oi_answer(text: str) -> list[int]:
    """Read ``gra.out`` back: Ania's winning fields, 1-based.

    Examples
    --------
    >>> read_oi_answer("2\\n1\\n3\\n")
    [1, 3]
    """
    lines = [ln.strip() for ln in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    if not lines:
        raise FormatError("empty answer; expected the count p", 1, 1)
    p = _int(lines[0], lines[0], 1, 0, "the count p")
    if len(lines) != p + 1:
        raise FormatError(f"expected {p} field lines, found {len(lines) - 1}", len(lines) + 1, 1)
    return [_int(ln, ln, i + 2, 0, "a field number") for i, ln in enumerate(lines[1:])]


_HEADER = re.compile(r"\s*(parity|paritysol)\s+(\d+)\s*;\s*$")
_START = re.compile(r"\s*start\s+\d+\s*;\s*$")
_NODE = re.compile(r'\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+(?:\s*,\s*\d+)*)\s*(?:"((?:[^"\\]|\\.)*)")?\s*;\s*$')
_SOL = re.compile(r"\s*(\d+)\s+([01])(?:\s+(\d+))?\s*;\s*$")


def _header(lines: list[str], keyword: str) -> tuple[int, int]:
    """Index of the first non-blank line and N from its ``keyword N;``."""
    for i, line in enumerate(lines):
        if line.strip():
            m = _HEADER.match(line)
            if not m or m.group(1) != keyword:
                raise FormatError(f"expected '{keyword} N;'", i + 1, 1)
            return i, int(m.group(2))
    raise FormatError(f"empty input; expected '{keyword} N;'", 1, 1)


def read_pgsolver(text: str) -> GreenGame:
    """Read a PGSolver file whose priorities are 1 (white) and 2 (green).

    Moves need not alternate here (the solvers do not need it); every vertex 0..N must be
    described exactly once and have a successor.

    Examples
    --------
    >>> g = read_pgsolver('parity 1;\\n0 2 0 1 "1";\\n1 1 1 0,1;\\n')
    >>> g.green.tolist(), g.owner.tolist(), g.successor_lists()
    ([True, False], [0, 1], [[1], [0, 1]])
    """
    lines = text.split("\n")
    first, top = _header(lines, "parity")
    n = top + 1
    owner = np.full(n, -1, dtype=np.int8)
    green = np.zeros(n, dtype=bool)
    src: list[int] = []
    dst: list[int] = []
    for i in range(first + 1, len(lines)):
        line = lines[i]
        if not line.strip() or (i == first + 1 and _START.match(line)):
            continue
        m = _NODE.match(line)
        if not m:
            raise FormatError("expected 'id priority owner succ,succ,... \"name\";'", i + 1, 1)
        v, prio, own = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if v > top:
            raise FormatError(f"vertex {v} beyond the declared maximum {top}", i + 1,
                              m.start(1) + 1)
        if owner[v] != -1:
            raise FormatError(f"vertex {v} described twice", i + 1, m.start(1) + 1)
        if prio not in (1, 2):
            raise FormatError(f"priority {prio}: a green game has priorities 1 (white) and "
                              "2 (green) only", i + 1, m.start(2) + 1)
        if own not in (0, 1):
            raise FormatError(f"owner must be 0 or 1, found {own}", i + 1, m.start(3) + 1)
        succ = [int(s) for s in m.group(4).split(",")]
        for s in succ:
            if s > top:
                raise FormatError(f"successor {s} beyond the declared maximum {top}", i + 1,
                                  m.start(4) + 1)
        if len(set(succ)) != len(succ):
            raise FormatError(f"vertex {v} lists a successor twice", i + 1, m.start(4) + 1)
        owner[v] = own
        green[v] = prio == 2
        src.extend([v] * len(succ))
        dst.extend(succ)
    missing = np.flatnonzero(owner == -1)
    if missing.size:
        raise FormatError(f"vertex {int(missing[0])} of 0..{top} is not described",
                          len(lines), 1)
    return GreenGame.from_edges(owner, green, src, dst)


def write_pgsolver(game: GreenGame) -> str:
    """Write the game in PGSolver's format; names are the OI field numbers (1-based).

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


def read_paritysol(text: str) -> Solution:
    """Read a ``paritysol`` file (ours, or a peer solver's) into a :class:`Solution`.

    Examples
    --------
    >>> s = read_paritysol("paritysol 1;\\n0 0 1;\\n1 0;\\n")
    >>> s.winner.tolist(), s.strategy.tolist()
    ([0, 0], [1, -1])
    """
    lines = text.split("\n")
    first, top = _header(lines, "paritysol")
    winner = np.full(top + 1, -1, dtype=np.int8)
    strategy = np.full(top + 1, -1, dtype=np.int64)
    for i in range(first + 1, len(lines)):
        if not lines[i].strip():
            continue
        m = _SOL.match(lines[i])
        if not m:
            raise FormatError("expected 'id winner [strategy];'", i + 1, 1)
        v = int(m.group(1))
        if v > top or winner[v] != -1:
            raise FormatError(f"vertex {v} out of range or given twice", i + 1, 1)
        winner[v] = int(m.group(2))
        if m.group(3) is not None:
            strategy[v] = int(m.group(3))
    if np.any(winner == -1):
        raise MinegraphError(f"paritysol: vertex {int(np.flatnonzero(winner == -1)[0])} has no "
                             "winner")
    return Solution(winner, strategy, "paritysol")

