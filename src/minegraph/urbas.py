"""The numeric solver program of Urbaś (2005) as a function: :func:`solve_numeric`.

Like the source program, it reads the numeric grid of docs/formats.md §3 (``rows cols mines``, then
rows of ``0``-``8`` numbers, ``9`` covered, ``-1`` mines; ``mines`` 0 means not specified) and
writes the solved board in the same form, every covered cell replaced by ``-1`` or its count,
or the single line ``NO SOLUTION``. The backtracking engine is the default, as in the source;
any other can be named. ``minegraph urbas`` (:mod:`minegraph.cli.urbas`) runs it on standard
input.

Examples
--------
>>> print(solve_numeric("2 3 1\\n9 1 9\\n0 1 9\\n"), end="")
2 3 1
0 1 -1
0 1 1
>>> solve_numeric("1 3 1\\n9 2 9\\n")
'NO SOLUTION\\n'
"""

from __future__ import annotations

from minegraph.analysis import solve
from minegraph.board import HIDDEN, MINE
from minegraph.formats.numeric import completed_numbers, read_numeric, write_numeric_solution

__all__ = ["solve_numeric"]


def solve_numeric(text: str, engine: str = "backtrack", timeout: float | None = None) -> str:
    """The program's answer for the numeric grid ``text``: the solved grid or ``NO SOLUTION``.

    Raises
    ------
    FormatError
        for input that is not a numeric grid (naming line and column).
    QueryTimeout
        when ``timeout`` seconds pass first.

    Parameters
    ----------
    text : str
        The numeric grid.
    engine : str
        The engine.
    timeout : float, optional
        The time limit in seconds.

    Returns
    -------
    str
        The answer's text.
    """
    board = read_numeric(text)
    completed = solve(board, engine, timeout=timeout)
    if completed is None:
        return write_numeric_solution(None)
    mined = [i for i, s in enumerate(completed.states) if s == MINE and board.states[i] == HIDDEN]
    return write_numeric_solution(completed_numbers(board, mined))
