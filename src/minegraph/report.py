"""The text report of an :class:`~minegraph.analysis.Analysis`, shared by the command line and
the web app.

It reads the analysis and its board only, so any front end can print the same facts in the
same words: :func:`render_analysis` for the whole report, :func:`percent` for one probability.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from minegraph.formats.text_syntax import symbol
from minegraph.states import HIDDEN

if TYPE_CHECKING:
    from minegraph.analysis import Analysis
    from minegraph.board import Cell

__all__ = ["render_analysis", "percent"]

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


def _cells(items: list[Cell]) -> str:
    shown = " ".join(f"({c[0]},{c[1]})" if isinstance(c, tuple) else str(c) for c in items[:_SHOWN])
    return shown + (f" ... (+{len(items) - _SHOWN} more)" if len(items) > _SHOWN else "")


def render_analysis(analysis: Analysis) -> str:
    """The human-readable report of ``analysis``: the board, consistency, the number of
    solutions, forced cells, the best move, and every hidden cell's mine probability (a grid
    of percentages on grid boards, exact fractions on graph boards).

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
    if analysis.solutions is None:
        why = analysis.stats.get("probabilities", f"unavailable: engine {analysis.engine} does not count")
        lines.append(f"solutions: not counted; probabilities {why}")
    else:
        lines.append(f"solutions: {analysis.solutions}")
    lines.append(f"safe ({len(analysis.safe)}): {_cells(analysis.safe)}")
    lines.append(f"mines ({len(analysis.mines)}): {_cells(analysis.mines)}")
    if analysis.best is not None and analysis.best_basis == "unknown":
        lines.append(f"best: {_cells([analysis.best])}  mine probability unknown "
                     "(no hidden cell has a known one; never a proven mine)")
    elif analysis.best is not None:
        p = analysis.probability(analysis.best)
        lines.append(f"best: {_cells([analysis.best])}  mine probability {p} ≈ {float(p):.4f}")
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
            lines.append(f"  cell {cell}: {p}")
    return "\n".join(lines) + "\n"
