"""The text report of an :class:`~minegraph.analysis.Analysis`, shared by the command line and
the web app.

It reads the analysis and its board only, so any front end can print the same facts in the
same words: :func:`render_analysis` for the whole report, :func:`percent` for one probability,
:func:`count_text` and :func:`fraction_text` for exact numbers of any length (abbreviated past
:data:`SHOWN_DIGITS` digits unless ``full``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from minegraph.analysis import SHOWN_DIGITS, count_text, fraction_text
from minegraph.formats.text_syntax import symbol
from minegraph.states import HIDDEN

if TYPE_CHECKING:
    from minegraph.analysis import Analysis
    from minegraph.board import Cell

__all__ = ["render_analysis", "percent", "count_text", "fraction_text", "SHOWN_DIGITS", "NO_TOTAL"]

#: Cells listed by name on a line before the rest is only counted.
_SHOWN = 40


def percent(p: Fraction) -> str:
    """A short percentage that never rounds an unproven probability to 0 or 100.

    Examples
    --------
    >>> [percent(Fraction(n, 1000)) for n in (0, 4, 500, 996, 1000)]
    ['0%', '<1%', '50%', '>99%', '100%']
    """
    if p == 0 or p == 1:
        return f"{int(p) * 100}%"
    x = float(p) * 100
    if x < 1:
        return "<1%"
    if x > 99:
        return ">99%"
    return f"{int(round(x))}%"


def _cells(items: list[Cell], full: bool = False) -> str:
    cut = len(items) if full else _SHOWN
    shown = " ".join(f"({c[0]},{c[1]})" if isinstance(c, tuple) else str(c) for c in items[:cut])
    return shown + (f" ... (+{len(items) - cut} more)" if len(items) > cut else "")


#: What the report says when the board gives no total mine count.
NO_TOTAL = ("no total mine count given: every completion counts once whatever its number of "
            "mines, so a hidden cell touching no number has mine probability 1/2")


def render_analysis(analysis: Analysis, *, full: bool = False) -> str:
    """The human-readable report of ``analysis``: the board, consistency, the number of
    solutions, forced cells, the best move, and every hidden cell's mine probability (a grid
    of percentages on grid boards, exact fractions on graph boards).

    Without a total mine count, a line says so and what the answers then assume
    (:data:`NO_TOTAL`). Counts and fractions of more than :data:`SHOWN_DIGITS` digits are
    abbreviated (``1.3309…e+5000 (5001 digits)``), and lists of forced cells are cut after 40
    cells; ``full=True`` prints every digit and every cell.

    Examples
    --------
    >>> from minegraph import Board, analyze
    >>> print(render_analysis(analyze(Board.from_text("mines: 2\\n#1#1#"))), end="")
    board: 1x5 square, 3 hidden, total mines 2
    consistent: yes
    solutions: 1
    safe (1): (0,2)
    mines (2): (0,0) (0,4)
    best: (0,2)  mine probability 0 ≈ 0.0000
    hidden cells: mine probability (0% and 100% only when proven); other cells as in the board:
    100%   1  0%   1100%
    """
    board = analysis.board
    lines = []
    total = "unknown" if board.mines is None else str(board.mines)
    shape = f"{board.rows}x{board.cols} {board.topology}" if board.is_grid else f"graph of {board.size} cells"
    lines.append(f"board: {shape}, {board.hidden_count} hidden, total mines {total}")
    if not analysis.consistent:
        lines.append("consistent: no (no completion exists)")
        return "\n".join(lines) + "\n"
    lines.append("consistent: yes")
    if board.mines is None and board.hidden_count:
        lines.append(NO_TOTAL)
    if analysis.solutions is None:
        why = analysis.stats.get("probabilities", f"unavailable: engine {analysis.engine} does not count")
        lines.append(f"solutions: not counted; probabilities {why}")
    else:
        lines.append(f"solutions: {count_text(analysis.solutions, full)}")
    lines.append(f"safe ({len(analysis.safe)}): {_cells(analysis.safe, full)}")
    lines.append(f"mines ({len(analysis.mines)}): {_cells(analysis.mines, full)}")
    if analysis.best is not None and analysis.best_basis == "unknown":
        lines.append(f"best: {_cells([analysis.best])}  mine probability unknown "
                     "(no hidden cell has a known one; never a proven mine)")
    elif analysis.best is not None:
        p = analysis.probability(analysis.best)
        lines.append(f"best: {_cells([analysis.best])}  mine probability {fraction_text(p, full)} "
                     f"≈ {float(p):.4f}")
    if board.rows is not None and board.cols is not None:
        unknown = "" if analysis.probabilities_available else " ? not computed;"
        lines.append(f"hidden cells: mine probability (0% and 100% only when proven);{unknown} "
                     "other cells as in the board:")
        for r in range(board.rows):
            row = []
            for c in range(board.cols):
                q = analysis.probabilities.get((r, c))
                state = board.states[r * board.cols + c]
                text = percent(q) if q is not None else "?" if state == HIDDEN else symbol(state)
                row.append(f"{text:>4}")
            lines.append("".join(row))
    else:
        for cell, p in sorted(analysis.probabilities.items()):
            lines.append(f"  cell {cell}: {fraction_text(p, full)}")
    return "\n".join(lines) + "\n"
