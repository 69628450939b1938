"""The text report of an :class:`~minegraph.analysis.Analysis`, shared by the command line and
the web app.

It reads the analysis and its board only, so any front end can print the same facts in the
same words: :func:`render_analysis` for the whole report, :func:`percent` for one probability,
:func:`count_text` and :func:`fraction_text` for exact numbers of any length (abbreviated past
:data:`SHOWN_DIGITS` digits unless ``full``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minegraph.board import cell_name
from minegraph.formats.text_syntax import symbol
from minegraph.present import SHOWN_DIGITS, SMALLEST_FLOAT, count_text, fraction_text, scientific_text
from minegraph.present import percent_text as percent
from minegraph.states import HIDDEN

if TYPE_CHECKING:
    from minegraph.analysis import Analysis
    from minegraph.engines.base import Probability
    from minegraph.board import Board, Cell

__all__ = ["render_analysis", "render_key", "grid_width", "grid_bands", "percent", "count_text", "fraction_text",
           "SHOWN_DIGITS", "NO_TOTAL", "LEGEND_GRID", "LEGEND_CELLS", "LEGEND_GRAPH", "LEGEND_BEST",
           "WIDTH"]

#: Cells listed by name on a line before the rest is only counted.
_SHOWN = 40


#: Report lines are wrapped to this many characters (the grid excepted).
WIDTH = 88

#: What the report's last lines say: how cells are named, what the grid shows, what ``best`` is.
LEGEND_GRID = ("key: cells are (row,col) from 0 at the top left (r\\c: row numbers down, column "
               "numbers across); hidden cells show their mine probability, the others their "
               "symbol in the board text (a number; - uncovered, no number; M a known mine)")
LEGEND_CELLS = "key: cells are (row,col) from 0 at the top left"
LEGEND_GRAPH = "key: cells are numbered from 0 in the order of the board's cells"
LEGEND_LABELS = "key: cells are named by the graph's node labels, in the order of the board's cells"
LEGEND_BEST = ("best: the cell to uncover next: a proven-safe cell if there is one, else the "
               "lowest mine probability; ties go to the cell with the fewest hidden neighbours, "
               "then the first; never a proven mine")

# A line of the report: (text, style or None) pieces; a style is words: "bold", "dim",
# "reverse" and a colour (a name or #rrggbb).
_Line = list[tuple[str, str | None]]


def _name(c: Cell, board: Board | None = None) -> str:
    """A cell as the report writes it: ``(r,c)`` on grids (compact), else as
    :func:`~minegraph.board.cell_name` does."""
    if board is not None and board.labels is not None:
        return cell_name(board, c)
    return f"({c[0]},{c[1]})" if isinstance(c, tuple) else str(c)


def _cells(items: list[Cell], full: bool = False, board: Board | None = None) -> str:
    cut = len(items) if full else _SHOWN
    shown = " ".join(_name(c, board) for c in items[:cut])
    return shown + (f" ... (+{len(items) - cut} more)" if len(items) > cut else "")


def _wrapped(label: str, body: str, style: str | None, label_style: str | None = "bold",
             width: int = WIDTH) -> list[_Line]:
    """``label body`` wrapped to ``width``, continuation lines indented."""
    import textwrap
    lines = textwrap.wrap(body, width - len(label) - 1, break_long_words=False,
                          break_on_hyphens=False) or [""]
    out: list[_Line] = [[(label, label_style), (" " + lines[0] if lines[0] else "", style)]]
    out += [[(" " * (len(label) + 1) + line, style)] for line in lines[1:]]
    return out


#: What the report says when the board gives no total mine count.
NO_TOTAL = ("no total mine count given: every completion counts once whatever its number of "
            "mines, so a hidden cell touching no number has mine probability 1/2")


def _log10_text(size: float) -> str:
    """A count given by its ``log10`` as ``d.dddd…e+N``.

    >>> _log10_text(12345.5)
    '3.1623…e+12345'
    """
    exponent = int(size // 1)
    return f"{10 ** (size - exponent):.4f}…e+{exponent}"


def _heat(p: Probability) -> str:
    """The rich style of a probability: the SVG heat map's colour, bold when proven."""
    from minegraph.formats.svg import probability_colour
    colour = probability_colour(p)
    return f"bold {colour}" if p == 0 or p == 1 else colour


def _report(analysis: Analysis, full: bool, colour: bool, width: int | None = None,
            legend: bool = True, grid: bool = True, grid_note: str | None = None) -> list[_Line]:
    """The report's lines; ``width`` (when given) bounds every line, the grid's too, which
    then comes in bands of columns; without the ``grid``, ``grid_note`` in its place."""
    board = analysis.board
    w = width or WIDTH
    lines: list[_Line] = []
    total = "unknown" if board.mines is None else str(board.mines)
    shape = f"{board.rows}x{board.cols} {board.topology}" if board.is_grid else f"graph of {board.size} cells"
    lines.append([("board:", "bold"), (f" {shape}, {board.hidden_count} hidden, total mines {total}", None)])
    if not analysis.consistent:
        lines.append([("consistent:", "bold"), (" no (no completion exists)", "bold red")])
        return lines
    lines.append([("consistent:", "bold"), (" yes", "green")])
    if board.mines is None and board.hidden_count:
        lines += [[(line, "yellow")] for line in _wrap(NO_TOTAL, w)]
    if analysis.arithmetic == "float":
        size = analysis.solutions_log10
        about = "" if size is None else f"about 10^{size:.6f} ({_log10_text(size)}); "
        lines += _wrapped("solutions:", f"{about}probabilities in floating point, each within "
                          "1e-13 relative, 0% and 100% only when proven (--exact for exact "
                          "fractions)", None, width=w)
    elif analysis.solutions is None:
        why = analysis.stats.get("probabilities", f"unavailable: engine {analysis.engine} does not count")
        lines += _wrapped("solutions:", f"not counted; probabilities {why}", "yellow", width=w)
    else:
        lines += _wrapped("solutions:", count_text(analysis.solutions, full=full), None, width=w)
    lines += _wrapped(f"safe ({len(analysis.safe)}):", _cells(analysis.safe, full, board), "green",
                      width=w)
    lines += _wrapped(f"mines ({len(analysis.mines)}):", _cells(analysis.mines, full, board), "red",
                      width=w)
    if analysis.best is not None and analysis.best_basis == "unknown":
        lines.append([("best:", "bold"), (f" {_name(analysis.best, board)}", "bold blue"),
                      ("  mine probability unknown (no hidden cell has a known one; never a "
                       "proven mine)", None)])
    elif analysis.best is not None:
        p = analysis.probability(analysis.best)
        why = "proven safe" if analysis.best_basis == "safe" else "the lowest mine probability"
        # In floating point, a probability below the double range is a Fraction within 1e-13
        # of the value: written in decimal, as the floats are, not as an exact fraction.
        shown = scientific_text(p) if analysis.arithmetic == "float" and 0 < p < SMALLEST_FLOAT \
            else fraction_text(p, full=full)
        best_line: _Line = [("best:", "bold"), (f" {_name(analysis.best, board)}", "bold blue"),
                            (f"  mine probability {shown} ≈ {float(p):.4f}", None),
                            (f" ({why})", None)]
        if width is not None and sum(len(text) for text, _ in best_line) > width:
            lines += [best_line[:3], [(f"  ({why})", None)]]     # the reason on a line of its own
        else:
            lines.append(best_line)
    if board.rows is not None and board.cols is not None and not grid:
        if grid_note:
            lines += [[(line, "yellow")] for line in _wrap(grid_note, w)]
    elif board.rows is not None and board.cols is not None:
        unknown = "" if analysis.probabilities_available else " ? not computed;"
        heading = (f"hidden cells: mine probability, 0% and 100% only when proven;{unknown} others "
                   "as in the board:")
        if width is not None and len(heading) > width:      # the same, on one line of 80
            heading = (f"mine probabilities (0% and 100% only when proven);{unknown} other cells "
                       "as in the board:")
        lines += [[(line, None)] for line in _wrap(heading, w)]
        # Fixed-width columns, one space apart, so that 100% and - never run together.
        label = max(3, len(str(board.rows - 1)))
        best = analysis.best
        for band in grid_bands(board, width) or []:
            header: _Line = [("r\\c".rjust(label), "dim")]
            lines.append(header + [(f" {c:>4}", "dim") for c in band])
            for r in range(board.rows):
                row: _Line = [(f"{r:>{label}}", "dim")]
                for c in band:
                    q = analysis.probabilities.get((r, c))
                    state = board.states[r * board.cols + c]
                    if q is not None:
                        style = "bold reverse blue" if (r, c) == best else _heat(q) if colour else None
                        row += [(" ", None), (f"{percent(q):>4}", style)]
                    else:
                        row.append((f" {'?' if state == HIDDEN else symbol(state):>4}", None))
                lines.append(row)
    else:
        # In the board's order of cells: labels need not be comparable with each other.
        for i in range(board.size):
            cell = board.cell(i)
            known = analysis.probabilities.get(cell)
            if known is not None:
                lines.append([(f"  cell {_name(cell, board)}: ", None),
                              (fraction_text(known, full=full), _heat(known) if colour else None)])
    if legend:
        lines += _key(board, w, grid)
    return lines


def _key(board: Board, width: int, grid: bool = True) -> list[_Line]:
    """The legend's lines for ``board``'s kind (and whether its grid is shown): how cells are
    named, what the grid shows, what ``best`` is."""
    texts = ([LEGEND_GRID if grid else LEGEND_CELLS] if board.rows is not None and board.cols is not None
             else [LEGEND_GRAPH if board.labels is None else LEGEND_LABELS]) + [LEGEND_BEST]
    return [[(line, "dim")] for text in texts for line in _wrap(text, width)]


def grid_width(board: Board) -> int | None:
    """The width in characters of the probability grid's lines in one band (a row label, then
    five characters a column), as :func:`render_analysis` prints it without ``width``;
    ``None`` for a graph board, which has no grid.

    Parameters
    ----------
    board : Board
        The board.

    Returns
    -------
    int or None
        The width, or ``None``.

    Examples
    --------
    >>> from minegraph import Board
    >>> grid_width(Board.grid(16, 30, [-1] * 480)), grid_width(Board.from_graph(1, [], "#"))
    (153, None)
    """
    if board.rows is None or board.cols is None:
        return None
    return max(3, len(str(board.rows - 1))) + 5 * board.cols


def grid_bands(board: Board, width: int | None) -> list[range] | None:
    """The columns of ``board``'s probability grid in the bands :func:`render_analysis`
    prints with ``width`` (each band's lines fit in ``width`` characters); ``None`` for a
    graph board. ``minegraph analyze`` and ``minegraph demo`` split grids this one way.

    Parameters
    ----------
    board : Board
        The board.
    width : int or None
        The widest line (``None``: one band).

    Returns
    -------
    list of range or None
        The columns of each band, or ``None``.

    Examples
    --------
    >>> from minegraph import Board
    >>> grid_bands(Board.grid(16, 30, [-1] * 480), 80)
    [range(0, 15), range(15, 30)]
    >>> grid_bands(Board.grid(16, 30, [-1] * 480), 160), grid_bands(Board.grid(2, 2, [-1] * 4), 20)
    ([range(0, 30)], [range(0, 2)])
    """
    if board.rows is None or board.cols is None:
        return None
    return _bands(board.cols, max(3, len(str(board.rows - 1))), width)


def _bands(cols: int, label: int, width: int | None) -> list[range]:
    """The grid's columns in bands whose lines fit in ``width`` characters (a row label of
    ``label`` characters, then five per column), as even as can be; one band when ``width`` is
    ``None``.

    >>> _bands(30, 3, 80), _bands(31, 3, 80), _bands(30, 3, None)
    ([range(0, 15), range(15, 30)], [range(0, 11), range(11, 22), range(22, 31)], [range(0, 30)])
    """
    per = cols if width is None else max(1, (width - label) // 5)
    count = -(-cols // per)
    size = -(-cols // count)
    return [range(start, min(start + size, cols)) for start in range(0, cols, size)]


def _wrap(text: str, width: int = WIDTH) -> list[str]:
    import textwrap
    return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False,
                         subsequent_indent="  ")


def render_analysis(analysis: Analysis, *, full: bool = False, colour: bool = False,
                    width: int | None = None, legend: bool = True, grid: bool = True,
                    grid_note: str | None = None) -> str:
    """The human-readable report of ``analysis``: the board, consistency, the number of
    solutions, forced cells, the best move (and why), every hidden cell's mine probability (a
    grid of percentages in columns of four characters one space apart, with row and column
    numbers, on grid boards; exact fractions on graph boards), and a legend.

    Without a total mine count, a line says so and what the answers then assume
    (:data:`NO_TOTAL`). Counts and fractions of more than :data:`SHOWN_DIGITS` digits are
    abbreviated (``1.3309…e+5000 (5001 digits)``), and lists of forced cells are cut after 40
    cells; ``full=True`` prints every digit and every cell. Lines other than the grid's are
    wrapped to :data:`WIDTH` characters; with ``width`` every line fits in ``width`` characters
    (a number or cell name longer than that aside): the text is wrapped to it and the grid
    comes in bands of columns, each with its column numbers. ``legend=False`` leaves out the
    key (:func:`render_key` gives it on its own, as ``minegraph demo`` prints it once).
    ``grid=False`` leaves out a grid board's probability grid (and the key's words about it),
    with ``grid_note`` in its place when given (``minegraph analyze`` says why it left the
    grid out); :func:`grid_width` is how wide the grid would be.

    With ``colour=True`` the text carries ANSI colours (through ``rich``): the probabilities
    in the heat map's colours (:func:`~minegraph.formats.svg.probability_colour`), safe cells
    green, mines red, the best cell highlighted; 256 colours, or 24-bit when the environment
    says the terminal has them (``COLORTERM=truecolor``).

    Parameters
    ----------
    analysis : Analysis
        The answer to report.
    full : bool
        Print every digit and every cell.
    colour : bool
        Colour the text (ANSI).
    width : int, optional
        The widest line (default: :data:`WIDTH` for text, the grid in one band).
    legend : bool
        End with the key.
    grid : bool
        Show a grid board's probability grid.
    grid_note : str, optional
        A line shown in the grid's place when it is left out.

    Returns
    -------
    str
        The report.

    Examples
    --------
    >>> from minegraph import Board, analyze
    >>> print(render_analysis(analyze(Board.from_text("mines: 2\\n#1#1#"))), end="")
    board: 1x5 square, 3 hidden, total mines 2
    consistent: yes
    solutions: 1
    safe (1): (0,2)
    mines (2): (0,0) (0,4)
    best: (0,2)  mine probability 0 ≈ 0.0000 (proven safe)
    hidden cells: mine probability, 0% and 100% only when proven; others as in the board:
    r\\c    0    1    2    3    4
      0 100%    1   0%    1 100%
    key: cells are (row,col) from 0 at the top left (r\\c: row numbers down, column numbers
      across); hidden cells show their mine probability, the others their symbol in the
      board text (a number; - uncovered, no number; M a known mine)
    best: the cell to uncover next: a proven-safe cell if there is one, else the lowest mine
      probability; ties go to the cell with the fewest hidden neighbours, then the first;
      never a proven mine
    """
    return _render(_report(analysis, full, colour, width, legend, grid, grid_note), colour)


def render_key(board: Board, *, width: int | None = None, colour: bool = False) -> str:
    """The key that ends :func:`render_analysis`'s report on ``board`` (how cells are named,
    what the grid shows, what ``best`` is), wrapped to ``width`` (default :data:`WIDTH`).

    Parameters
    ----------
    board : Board
        The board reported.
    width : int, optional
        The widest line.
    colour : bool
        Whether the report is coloured.

    Returns
    -------
    str
        The key.

    Examples
    --------
    >>> from minegraph import Board
    >>> print(render_key(Board.from_graph(2, [(0, 1)], "#1")), end="")  # doctest: +ELLIPSIS
    key: cells are numbered from 0 in the order of the board's cells
    best: the cell to uncover next: ...
    """
    return _render(_key(board, width or WIDTH), colour)


def _render(lines: list[_Line], colour: bool) -> str:
    """The lines as text, with ANSI colours when ``colour``."""
    if not colour:
        return "".join("".join(text for text, _ in line) + "\n" for line in lines)
    import os

    # rich turns the colours into codes for the terminal's colour system. (Its Style objects
    # are not used: they keep the codes of the first colour system they were rendered in.)
    from rich.color import Color, ColorSystem
    truecolor = os.environ.get("COLORTERM", "").lower() in ("truecolor", "24bit")
    system = ColorSystem.TRUECOLOR if truecolor else ColorSystem.EIGHT_BIT

    def codes(spec: str | None) -> str:
        words = (spec or "").split()
        out = [code for word, code in (("bold", "1"), ("dim", "2"), ("reverse", "7")) if word in words]
        colour = next((w for w in words if w not in ("bold", "dim", "reverse")), None)
        if colour is not None:
            out += Color.parse(colour).downgrade(system).get_ansi_codes(foreground=True)
        return ";".join(out)

    def styled(text: str, spec: str | None) -> str:
        code = codes(spec) if text else ""
        return f"\x1b[{code}m{text}\x1b[0m" if code else text

    return "".join("".join(styled(text, spec) for text, spec in line) + "\n" for line in lines)
