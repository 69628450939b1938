"""SVG pictures of boards, with generic overlays: cell fills, marks, lines, tooltips, a caption.

:func:`board_svg` draws the cells (square, torus, hex and triangle grids in their own shapes;
graph boards as a ring of discs) with their numbers and mines, and over them what the caller
asks for, in this order (later on top):

- ``fills``: a CSS colour per cell, painted over the cell (a probability heat map; see
  :func:`probability_colour`);
- ``lines``: segments between two cells' centres, each with a :class:`LineStyle` (colour,
  width, dashes, opacity, a tooltip);
- ``marks``: a small symbol per cell, one of :data:`MARK_KINDS` (a highlighted number is a
  ``"ring"``, the recommended move a ``"dot"``, a cell ruled out a ``"cross"``);
- the cells' own numbers and mines, so they stay readable;
- ``titles``: a tooltip per cell (e.g. its exact probability), shown on hover;
- ``caption``: a line of text under the picture.

This module knows boards only by their attributes (``topology``, ``rows``, ``cols``,
``neighbors``, ``states``) and imports no analysis, engine or decomposition code, so every layer
above can draw with it: :mod:`minegraph.decompose.picture` draws Hoder's decompositions this
way.

Grids of more than :data:`COMPACT_CELLS` cells are drawn compactly: consecutive cells of a row
that look alike are merged into one run, each colour is one ``<path>`` (hex grids paint their
runs through patterns), the numbers of a row are one ``<text>``, mines one path, and cells
get no tooltips. A 200x200 square position with half its safe cells uncovered takes 0.5-0.6
MB instead of 6-7 MB, a fully uncovered one 0.95 MB instead of 9.1 MB (docs/index.md has the
figures of every topology).

Notebooks show a board through :func:`repr_svg`: the plain board with :data:`REPR_OPTIONS`, or
whatever :func:`set_notebook_drawer` installed.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence, SupportsFloat
from xml.sax.saxutils import escape

from minegraph.errors import BoardError, MinegraphError
from minegraph.present import heat_rgb
from minegraph.states import BLANK, HIDDEN, MINE

if TYPE_CHECKING:
    from minegraph.board import Board

__all__ = ["board_svg", "Mark", "MARK_KINDS", "LineStyle", "Line", "probability_colour",
           "repr_svg", "set_notebook_drawer", "REPR_OPTIONS", "COMPACT_CELLS"]

#: The marks :func:`board_svg` draws on a cell, with the use each is meant for:
#: ``"ring"`` a highlighted number (a circle on a white disc, so lines behind it do not cross
#: the number), ``"dot"`` the recommended move (a filled disc), ``"cross"`` a cell ruled out.
MARK_KINDS: tuple[str, ...] = ("ring", "dot", "cross")

_MARK_COLOURS = {"ring": "#37474f", "dot": "#1565c0", "cross": "#c62828"}
_NUMBER_COLOURS = ["#9e9e9e", "#1565c0", "#2e7d32", "#c62828", "#4527a0", "#6d4c41",
                   "#00838f", "#212121", "#616161", "#ad1457", "#ef6c00", "#558b2f", "#283593"]
_HIDDEN_FILL, _OPEN_FILL, _LINE = "#b0bec5", "#f5f5f5", "#78909c"


@dataclass(frozen=True)
class Mark:
    """A mark on a cell: ``kind`` is one of :data:`MARK_KINDS`; ``colour`` any CSS colour
    (``None``: the kind's default, dark grey for rings, blue for dots, red for crosses).

    Parameters
    ----------
    kind : str
        One of :data:`MARK_KINDS`.
    colour : str, optional
        A CSS colour.
    """

    kind: str
    colour: str | None = None


@dataclass(frozen=True)
class LineStyle:
    """How a line between two cells is drawn.

    Attributes
    ----------
    colour
        Any CSS colour.
    width
        Stroke width in pixels.
    dashed
        Draw it dashed (e.g. for something removed or only possible).
    opacity
        0 (invisible) to 1 (opaque).
    tooltip
        Text shown on hover, or ``None``.
    css_class
        The ``class`` attribute of the ``<line>``, for style sheets and tests (``None``: none).
    """

    colour: str = "#37474f"
    width: float = 1.5
    dashed: bool = False
    opacity: float = 1.0
    tooltip: str | None = None
    css_class: str | None = None


#: A line of :func:`board_svg`: from one cell's centre to another's, with its style.
Line = tuple[int, int, LineStyle]

#: Keyword arguments :func:`repr_svg` passes to :func:`board_svg` (e.g. ``{"size": 20}``).
REPR_OPTIONS: dict[str, Any] = {}

_notebook_drawer: Callable[["Board"], str] | None = None


def _attr(value: str) -> str:
    """``value`` escaped for a double-quoted XML attribute."""
    return escape(value, {'"': "&quot;"})


def _num(x: float) -> str:
    """A coordinate or width with at most two decimals and no trailing zeros."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _geometry(board: Board, size: float) -> tuple[list[list[tuple[float, float]]], list[tuple[float, float]], float, float]:
    """Polygon and centre of every cell (``[]`` polygon for graph boards' discs), and the
    picture's width and height."""
    n = len(board.states)
    polys: list[list[tuple[float, float]]] = []
    centres: list[tuple[float, float]] = []
    if board.rows is None or board.cols is None:
        radius = max(2 * size, size * n / (2 * math.pi) * 1.6)
        for i in range(n):
            a = 2 * math.pi * i / n - math.pi / 2
            centres.append((radius + size + radius * math.cos(a), radius + size + radius * math.sin(a)))
            polys.append([])
        return polys, centres, 2 * (radius + size), 2 * (radius + size)
    rows, cols = board.rows, board.cols
    if board.topology == "hex":
        r_hex = size / math.sqrt(3)
        for i in range(n):
            r, c = divmod(i, cols)
            x = c * size + size / 2 + (size / 2 if r % 2 else 0)
            y = r_hex + r * 1.5 * r_hex
            centres.append((x, y))
            polys.append([(x + r_hex * math.cos(math.radians(a)), y + r_hex * math.sin(math.radians(a)))
                          for a in range(-90, 270, 60)])
        return polys, centres, (cols + 0.5) * size, (1.5 * rows + 0.5) * r_hex
    if board.topology == "triangle":
        h = size * math.sqrt(3) / 2
        for i in range(n):
            r, c = divmod(i, cols)
            left, top = c * size / 2, r * h
            if (r + c) % 2 == 0:   # pointing up: its base touches five cells of the next row
                polys.append([(left, top + h), (left + size, top + h), (left + size / 2, top)])
                centres.append((left + size / 2, top + 2 * h / 3))
            else:
                polys.append([(left, top), (left + size, top), (left + size / 2, top + h)])
                centres.append((left + size / 2, top + h / 3))
        return polys, centres, (cols + 1) * size / 2, rows * h
    for i in range(n):
        r, c = divmod(i, cols)
        polys.append([(c * size, r * size), ((c + 1) * size, r * size),
                      ((c + 1) * size, (r + 1) * size), (c * size, (r + 1) * size)])
        centres.append(((c + 0.5) * size, (r + 0.5) * size))
    return polys, centres, cols * size, rows * size


def _points(poly: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in poly)


def _shape(cls: str, poly: list[tuple[float, float]], centre: tuple[float, float], size: float,
           fill: str, title: str | None) -> str:
    """A cell's outline (polygon, or disc on graph boards), filled, with an optional tooltip."""
    if poly:
        tag, where = "polygon", f'points="{_points(poly)}"'
    else:
        tag, where = "circle", f'cx="{centre[0]:.1f}" cy="{centre[1]:.1f}" r="{size * 0.45:.1f}"'
    head = f'<{tag} class="{cls}" {where} fill="{_attr(fill)}" stroke="{_LINE}" stroke-width="1"'
    if title is None:
        return head + "/>"
    return f"{head}><title>{escape(title)}</title></{tag}>"


def _contents(board: Board, centres: list[tuple[float, float]], size: float) -> list[str]:
    """The cells' numbers, mines and blank marks."""
    out: list[str] = []
    font = size * (0.42 if board.topology == "triangle" else 0.6)
    for i, s in enumerate(board.states):
        x, y = centres[i]
        if s == MINE:
            out.append(f'<circle class="mine" cx="{x:.1f}" cy="{y:.1f}" r="{size * 0.2:.1f}" fill="#212121"/>')
            out.append(f'<circle cx="{x - size * 0.06:.1f}" cy="{y - size * 0.06:.1f}" '
                       f'r="{size * 0.05:.1f}" fill="#ffffff"/>')
        elif s == BLANK:
            d = size * 0.12
            out.append(f'<polygon class="blank" points="{_points([(x, y - d), (x + d, y), (x, y + d), (x - d, y)])}" '
                       f'fill="none" stroke="#9e9e9e" stroke-width="1"/>')
        elif s >= 0:
            colour = _NUMBER_COLOURS[min(s, len(_NUMBER_COLOURS) - 1)]
            out.append(f'<text class="number" x="{x:.1f}" y="{y:.1f}" fill="{colour}" '
                       f'font-size="{font:.1f}">{s}</text>')
    return out


def _mark(mark: Mark, centre: tuple[float, float], size: float, topology: str) -> str:
    x, y = centre
    colour = _attr(mark.colour or _MARK_COLOURS[mark.kind])
    if mark.kind == "ring":
        # Triangles are narrow: a smaller ring stays inside its cell.
        r = size * (0.26 if topology == "triangle" else 0.36)
        return (f'<circle class="ring" cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="#ffffff" '
                f'fill-opacity="0.9" stroke="{colour}" stroke-width="1.2"/>')
    if mark.kind == "dot":
        return (f'<circle class="dot" cx="{x:.1f}" cy="{y:.1f}" r="{size * 0.16:.1f}" '
                f'fill="{colour}" stroke="#ffffff" stroke-width="1"/>')
    d = size * 0.22
    return (f'<path class="cross" d="M{x - d:.1f},{y - d:.1f} L{x + d:.1f},{y + d:.1f} '
            f'M{x - d:.1f},{y + d:.1f} L{x + d:.1f},{y - d:.1f}" stroke="{colour}" '
            f'stroke-width="{_num(max(1.5, size * 0.08))}" stroke-linecap="round"/>')


def _line(a: tuple[float, float], b: tuple[float, float], style: LineStyle) -> str:
    cls = "" if style.css_class is None else f'class="{_attr(style.css_class)}" '
    dash = ' stroke-dasharray="3,3"' if style.dashed else ""
    opacity = "" if style.opacity == 1 else f' opacity="{_num(style.opacity)}"'
    head = (f'<line {cls}x1="{a[0]:.1f}" y1="{a[1]:.1f}" x2="{b[0]:.1f}" y2="{b[1]:.1f}" '
            f'stroke="{_attr(style.colour)}" stroke-width="{_num(style.width)}"{dash}{opacity}')
    if style.tooltip is None:
        return head + "/>"
    return f"{head}><title>{escape(style.tooltip)}</title></line>"


def _check_cells(name: str, cells: Any, n: int) -> None:
    for i in cells:
        if not (isinstance(i, int) and 0 <= i < n):
            raise BoardError(f"{name}: cell {i!r} is outside 0..{n - 1}")


# ----------------------------------------------------------------- compact drawing of big grids
#: Grid boards of more cells than this are drawn compactly by :func:`board_svg` (when its
#: ``compact`` is ``None``): cells merged into runs, one ``<path>`` per colour, numbers one
#: ``<text>`` per row and value, no tooltips. 200x200 boards take about a tenth of the bytes.
COMPACT_CELLS = 2500

_SQRT3 = math.sqrt(3)


def _n1(x: float) -> str:
    """A pixel coordinate with at most one decimal and no trailing zeros."""
    text = f"{x:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _unit_scale(topology: str, size: float) -> tuple[float, float]:
    """Pixels per unit of the compact drawing's cell coordinates, in which every vertex of a
    cell is a pair of integers: square cells are 1x1; triangles 2 units wide (a row advances
    one unit per cell) and 1 high; hexagons 2 wide and 4 high (rows 3 apart)."""
    if topology == "hex":
        return size / 2, size / _SQRT3 / 2
    if topology == "triangle":
        return size / 2, size * _SQRT3 / 2
    return size, size


def _row_runs(cells: Sequence[int], cols: int) -> list[tuple[int, int, int]]:
    """The maximal runs ``(row, first column, last column)`` of consecutive cells of one row,
    from sorted cell indices.

    Examples
    --------
    >>> _row_runs([0, 1, 2, 3, 5, 6], 3)
    [(0, 0, 2), (1, 0, 0), (1, 2, 2), (2, 0, 0)]
    """
    runs: list[tuple[int, int, int]] = []
    start = prev = -2
    for i in cells:
        if i == prev + 1 and i % cols:
            prev = i
            continue
        if prev >= 0:
            runs.append((start // cols, start % cols, prev % cols))
        start = prev = i
    if prev >= 0:
        runs.append((start // cols, start % cols, prev % cols))
    return runs


def _run_path(topology: str, r: int, c0: int, c1: int) -> str:
    """Path data, in cell units, of the cells ``c0..c1`` of row ``r``: a rectangle on square
    grids, a trapezoid on triangle grids; on hex grids the run's bounding box, in which a
    pattern paints the hexagons (:func:`_hex_pattern`)."""
    if topology == "triangle":
        up0, up1 = (r + c0) % 2 == 0, (r + c1) % 2 == 0
        tl, bl = (c0 + 1, c0) if up0 else (c0, c0 + 1)
        tr, br = (c1 + 1, c1 + 2) if up1 else (c1 + 2, c1 + 1)
        return f"M{tl} {r}H{tr}L{br} {r + 1}H{bl}z"
    k = c1 - c0 + 1
    if topology == "hex":
        return f"M{2 * c0 + r % 2} {3 * r}h{2 * k}v4h-{2 * k}z"
    return f"M{c0} {r}h{k}v1H{c0}z"


def _region(topology: str, rows: int, cols: int, size: float) -> str:
    """Path data, in pixels, of the whole board's outline (triangle grids: of each row)."""
    sx, sy = _unit_scale(topology, size)

    def at(x: float, y: float) -> str:
        return f"{_n1(x * sx)} {_n1(y * sy)}"

    if topology == "triangle":
        out = []
        for r in range(rows):
            tl, bl = (1, 0) if r % 2 == 0 else (0, 1)
            up = (r + cols - 1) % 2 == 0
            tr, br = (cols, cols + 1) if up else (cols + 1, cols)
            out.append(f"M{at(tl, r)}L{at(tr, r)}L{at(br, r + 1)}L{at(bl, r + 1)}z")
        return "".join(out)
    if topology == "hex":
        # The top of row 0 and the bottom of the last row zigzag; the sides step in and out.
        last = rows - 1
        points = [at(x, 1 - x % 2) for x in range(2 * cols + 1)]
        for r in range(rows):
            points += [at(2 * cols + r % 2, 3 * r + 1), at(2 * cols + r % 2, 3 * r + 3)]
        points += [at(x, 3 * last + 3 + (x - last) % 2) for x in range(2 * cols + last % 2 - 1, last % 2 - 1, -1)]
        for r in reversed(range(rows)):
            points += [at(r % 2, 3 * r + 3), at(r % 2, 3 * r + 1)]
        return "M" + "L".join(points) + "z"
    return f"M0 0H{_n1(cols * sx)}V{_n1(rows * sy)}H0z"


def _hex_pattern(pid: str, parity: int, fill: str) -> str:
    """A pattern painting, in ``fill``, the hexagons of the rows of one parity (a run's
    bounding box holds those of its own row only)."""
    return (f'<pattern id="{pid}" patternUnits="userSpaceOnUse" x="{parity}" y="{3 * parity}" '
            f'width="2" height="6"><path d="M1 0l1 1v2l-1 1-1-1v-2z" fill="{_attr(fill)}"/></pattern>')


def _line_pattern(pid: str, topology: str, size: float, parity: int) -> str:
    """A pattern, in pixels, of the cells' edges: the triangles' (both rows of a period), or
    the hexagons of the rows of one parity (a row's bounding box holds its own only)."""
    if topology == "triangle":
        h = size * _SQRT3 / 2
        w, tile_h = size, 2 * h
        d = (f"M0 {_n1(h)}L{_n1(size / 2)} 0L{_n1(size)} {_n1(h)}L{_n1(size / 2)} {_n1(2 * h)}Z"
             f"M0 0H{_n1(size)}M0 {_n1(h)}H{_n1(size)}M0 {_n1(2 * h)}H{_n1(size)}")
        x = y = 0.0
    else:
        r = size / _SQRT3
        w, tile_h = size, 3 * r
        d = (f"M{_n1(size / 2)} 0L{_n1(size)} {_n1(r / 2)}V{_n1(1.5 * r)}L{_n1(size / 2)} "
             f"{_n1(2 * r)}L0 {_n1(1.5 * r)}V{_n1(r / 2)}Z")
        x, y = parity * size / 2, parity * 1.5 * r
    return (f'<pattern id="{pid}" patternUnits="userSpaceOnUse" x="{_n1(x)}" y="{_n1(y)}" '
            f'width="{_n1(w)}" height="{tile_h:.3f}"><path d="{d}" fill="none" stroke="{_LINE}" '
            f'stroke-width="1"/></pattern>')


def _compact_cells(board: Board, fills: Mapping[int, str], size: float,
                   pid: str) -> tuple[list[str], list[str]]:
    """The cells of a big grid, drawn by runs: ``(defs, parts)``."""
    rows, cols, topology = board.rows, board.cols, board.topology
    assert rows is not None and cols is not None
    sx, sy = _unit_scale(topology, size)
    defs: list[str] = []
    hex_grid = topology == "hex"

    def area(cls: str, cells: Sequence[int], colour: str, key: str) -> list[str]:
        runs = _row_runs(cells, cols)
        if topology in ("square", "torus"):
            # A run is a horizontal stroke one cell thick along the row's middle, reached by a
            # relative move from the end of the previous run.
            strokes: list[str] = []
            px = py = 0
            for r, c0, c1 in runs:
                start = f"m{c0 - px} {r - py}" if strokes else f"M{c0} {r}.5"
                strokes.append(f"{start}h{c1 - c0 + 1}")
                px, py = c1 + 1, r
            return [f'<path class="{cls}" d="{"".join(strokes)}" fill="none" '
                    f'stroke="{_attr(colour)}" stroke-width="1"/>']
        if not hex_grid:
            return [f'<path class="{cls}" fill="{_attr(colour)}" '
                    f'd="{"".join(_run_path(topology, *run) for run in runs)}"/>']
        out = []
        for parity in (0, 1):
            d = "".join(_run_path(topology, *run) for run in runs if run[0] % 2 == parity)
            if d:
                defs.append(_hex_pattern(f"{pid}{key}{parity}", parity, colour))
                out.append(f'<path class="{cls}" fill="url(#{pid}{key}{parity})" d="{d}"/>')
        return out

    parts = [f'<g class="cells" transform="scale({sx:.6f} {sy:.6f})">']
    uncovered = [i for i, s in enumerate(board.states) if s not in (HIDDEN, MINE)]
    if uncovered:
        parts += area("open", uncovered, _OPEN_FILL, "o")
    by_colour: dict[str, list[int]] = {}
    for i in sorted(fills):
        by_colour.setdefault(fills[i], []).append(i)
    for k, (colour, cells) in enumerate(by_colour.items()):
        parts += area("fill", cells, colour, f"f{k}_")
    parts.append("</g>")
    # Edges in pixels, so that lines are 1 pixel wide whatever the units.
    region = _region(topology, rows, cols, size)
    parts.insert(0, f'<path class="region" d="{region}" fill="{_HIDDEN_FILL}"/>')
    if topology == "triangle":
        defs.append(_line_pattern(f"{pid}l", topology, size, 0))
        parts.append(f'<path class="grid" d="{region}" fill="url(#{pid}l)"/>')
    elif topology == "hex":
        for parity in (0, 1):
            d = "".join(f"M{_n1(parity * sx)} {_n1(3 * r * sy)}h{_n1(2 * cols * sx)}v{_n1(4 * sy)}"
                        f"h-{_n1(2 * cols * sx)}z" for r in range(parity, rows, 2))
            if d:
                defs.append(_line_pattern(f"{pid}l{parity}", topology, size, parity))
                parts.append(f'<path class="grid" d="{d}" fill="url(#{pid}l{parity})"/>')
    else:
        grid = "".join(f"M0 {_n1(r * sy)}H{_n1(cols * sx)}" for r in range(1, rows)) + \
            "".join(f"M{_n1(c * sx)} 0V{_n1(rows * sy)}" for c in range(1, cols))
        if grid:
            parts.append(f'<path class="grid" d="{grid}" fill="none" stroke="{_LINE}" stroke-width="1"/>')
    parts.append(f'<path class="outline" d="{region}" fill="none" stroke="{_LINE}" stroke-width="1"/>')
    return defs, parts


def _moves(points: Sequence[tuple[float, float]], shape: str, end: tuple[float, float] = (0.0, 0.0)) -> str:
    """Path data drawing ``shape`` (relative commands) at every point, reaching each point by
    a relative move from where the previous shape ended (``end``: that end, relative to its
    point), which is shorter than an absolute move. Coordinates are cut to 0.1 pixel first, so
    the moves add up exactly."""
    out = []
    px = py = None
    for x, y in points:
        x, y = round(x, 1), round(y, 1)
        if px is None or py is None:
            out.append(f"M{_n1(x)} {_n1(y)}{shape}")
        else:
            out.append(f"m{_n1(x - px)} {_n1(y - py)}{shape}")
        px, py = round(x + end[0], 1), round(y + end[1], 1)
    return "".join(out)


def _discs(cls: str, centres: Sequence[tuple[float, float]], colour: str, radius: float) -> str:
    """Filled discs as one path: zero-length segments with round caps."""
    return (f'<path class="{cls}" d="{_moves(centres, "h0")}" fill="none" stroke="{_attr(colour)}" '
            f'stroke-width="{_num(2 * radius)}" stroke-linecap="round"/>')


def _compact_contents(board: Board, centres: list[tuple[float, float]], size: float) -> list[str]:
    """Numbers (one ``<text>`` per row and value, a ``<tspan>`` per digit), mines (one path
    of discs) and blank marks (one path)."""
    font = size * (0.42 if board.topology == "triangle" else 0.6)
    digits: dict[int, dict[float, list[float]]] = {}
    out: list[str] = []
    mines: list[tuple[float, float]] = []
    blanks: list[str] = []
    d = size * 0.12
    for i, s in enumerate(board.states):
        x, y = centres[i]
        if s == MINE:
            mines.append((x, y))
        elif s == BLANK:
            blanks.append(f"M{_n1(x)} {_n1(y - d)}l{_num(d)} {_num(d)}-{_num(d)} {_num(d)}"
                          f"-{_num(d)}-{_num(d)}z")
        elif s >= 10:
            colour = _NUMBER_COLOURS[min(s, len(_NUMBER_COLOURS) - 1)]
            out.append(f'<text class="number" x="{_n1(x)}" y="{_n1(y)}" fill="{colour}">{s}</text>')
        elif s >= 0:
            digits.setdefault(s, {}).setdefault(round(y, 1), []).append(x)
    for s, lines in sorted(digits.items()):
        out.append(f'<g fill="{_NUMBER_COLOURS[s]}">')
        # A <tspan> per digit: renderers outside browsers often ignore a list of positions
        # on one <text> (x="14 42 70"), and would draw the digits side by side.
        out += [f'<text class="numbers" y="{_n1(y)}">'
                + "".join(f'<tspan x="{_n1(x)}">{s}</tspan>' for x in xs) + "</text>"
                for y, xs in lines.items()]
        out.append("</g>")
    out.insert(0, f'<g class="numbers" font-size="{font:.1f}">')
    out.append("</g>")
    if mines:
        out.append(_discs("mines", mines, "#212121", size * 0.2))
    if blanks:
        out.append(f'<path class="blanks" d="{"".join(blanks)}" fill="none" stroke="#9e9e9e" '
                   f'stroke-width="1"/>')
    return out


def _compact_marks(marks: Mapping[int, Mark], centres: list[tuple[float, float]], size: float,
                   topology: str) -> list[str]:
    """The marks, one path (or two) per kind and colour."""
    groups: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for i, m in sorted(marks.items()):
        groups.setdefault((m.kind, m.colour or _MARK_COLOURS[m.kind]), []).append(centres[i])
    out = []
    for (kind, colour), where in groups.items():
        if kind == "dot":
            r = size * 0.16
            out += [_discs("dot", where, "#ffffff", r + 1), _discs("dot", where, colour, r)]
        elif kind == "ring":
            r = size * (0.26 if topology == "triangle" else 0.36)
            out += [_discs("ring", where, colour, r + 0.6), _discs("ring", where, "#ffffff", r - 0.6)]
        else:
            w = round(size * 0.44)              # whole pixels: shorter path data
            path = _moves([(x - w / 2, y - w / 2) for x, y in where], f"l{w} {w}m0-{w}l-{w} {w}",
                          (0, w))
            out.append(f'<path class="cross" d="{path}" stroke="{_attr(colour)}" '
                       f'stroke-width="{_num(max(1.5, size * 0.08))}" stroke-linecap="round"/>')
    return out


def _document_id(board: Board, fills: Mapping[int, str]) -> str:
    """A prefix for the ids of one picture's patterns, from what it shows, so that pictures
    inlined in one page (a notebook) do not take each other's patterns."""
    crc = zlib.crc32(f"{board.topology} {board.rows} {board.cols}".encode())
    crc = zlib.crc32(bytes(s + 3 for s in board.states), crc)
    crc = zlib.crc32(repr(sorted(fills.items())).encode(), crc)
    return f"mg{crc:08x}"


def board_svg(board: Board, *, fills: Mapping[int, str] | None = None,
              marks: Mapping[int, str | Mark] | None = None, lines: Sequence[Line] | None = None,
              titles: Mapping[int, str] | None = None, caption: str | None = None,
              size: float = 28, title: str | None = None, compact: bool | None = None) -> str:
    """An SVG picture of ``board`` with optional overlays (a complete document, as a string).

    Cells are internal indices (``r * cols + c`` on grids, as in ``board.index``).

    Parameters
    ----------
    board
        Any board: only ``topology``, ``rows``, ``cols``, ``neighbors`` and ``states`` are read.
    fills
        Cell -> CSS colour painted over the cell (e.g. from :func:`probability_colour`).
    marks
        Cell -> a :class:`Mark`, or just its kind (one of :data:`MARK_KINDS`).
    lines
        ``(cell_a, cell_b, style)`` segments between the cells' centres, drawn in this order.
    titles
        Cell -> tooltip text.
    caption
        A line of text under the picture.
    size
        Cell size in pixels.
    title
        The document's title (``<title>``), which viewers show as its name.
    compact
        Draw a grid by runs of cells (see the module's notes; ``titles`` are then left out),
        or cell by cell; ``None`` (the default): compactly past :data:`COMPACT_CELLS` cells.
        Graph boards are always drawn cell by cell.

    Raises
    ------
    BoardError
        for an overlay on a cell the board does not have.
    MinegraphError
        for an unknown mark kind.

    Cost: linear in the cells plus the overlays (0.2 s for 40,000 cells).

    Returns
    -------
    str
        The SVG document.

    Examples
    --------
    >>> import xml.etree.ElementTree as ET
    >>> from minegraph import Board
    >>> svg = board_svg(Board.from_text("1#1\\n#2#"), fills={1: probability_colour(0.5)},
    ...                 marks={4: "ring"}, lines=[(0, 2, LineStyle(tooltip="a pair"))])
    >>> root = ET.fromstring(svg)
    >>> ns = "{http://www.w3.org/2000/svg}"
    >>> [e.get("fill") for e in root.iter(ns + "polygon") if e.get("class") == "fill"]
    ['#fdd835']
    >>> len(root.findall(f".//{ns}text")), root.find(f".//{ns}line/{ns}title").text
    (3, 'a pair')
    """
    n = len(board.states)
    fills, titles, lines = fills or {}, titles or {}, lines or []
    shown = {i: m if isinstance(m, Mark) else Mark(m) for i, m in (marks or {}).items()}
    for name, cells in (("fills", fills), ("marks", shown), ("titles", titles),
                        ("lines", [c for a, b, _ in lines for c in (a, b)])):
        _check_cells(name, cells, n)
    for i, m in shown.items():
        if m.kind not in MARK_KINDS:
            raise MinegraphError(f"unknown mark {m.kind!r} on cell {i}; expected one of "
                                 f"{', '.join(MARK_KINDS)}")
    polys, centres, width, height = _geometry(board, size)
    pad = size * 0.5
    # Big grids are drawn by runs of cells (graph boards always cell by cell).
    compact = (n > COMPACT_CELLS if compact is None else bool(compact)) and board.rows is not None
    defs: list[str] = []
    parts: list[str] = []
    if compact:
        defs, parts = _compact_cells(board, fills, size, _document_id(board, fills))
    else:
        if board.rows is None:                      # a graph board: its edges join the discs
            for u in range(n):
                for v in board.neighbors[u]:
                    if u < v:
                        (x1, y1), (x2, y2) = centres[u], centres[v]
                        parts.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                                     f'stroke="{_LINE}" stroke-width="1"/>')
        for i, s in enumerate(board.states):
            fill = _HIDDEN_FILL if s in (HIDDEN, MINE) else _OPEN_FILL
            parts.append(_shape("cell", polys[i], centres[i], size, fill, titles.get(i)))
        # Overlays and contents let the pointer through, so hovering anywhere on a cell shows
        # the cell's tooltip; lines keep it, for their own tooltips.
        if fills:
            parts.append('<g class="fills" pointer-events="none">')
            parts += [_shape("fill", polys[i], centres[i], size, colour, None)
                      for i, colour in sorted(fills.items())]
            parts.append("</g>")
    if lines:
        parts.append('<g class="lines" stroke-linecap="round">')
        parts += [_line(centres[a], centres[b], style) for a, b, style in lines]
        parts.append("</g>")
    if shown:
        parts.append('<g class="marks" pointer-events="none">')
        parts += _compact_marks(shown, centres, size, board.topology) if compact else \
            [_mark(m, centres[i], size, board.topology) for i, m in sorted(shown.items())]
        parts.append("</g>")
    parts.append('<g class="contents" pointer-events="none">')
    parts += _compact_contents(board, centres, size) if compact else _contents(board, centres, size)
    parts.append("</g>")
    text = caption or ""
    font = size * 0.45
    extra = size * 0.9 if text else 0.0
    # A rough width for the caption (average glyph about 0.55 em) so it is never cut off.
    total_w = max(width + 2 * pad, 2 * pad + 0.55 * font * len(text))
    total_h = height + 2 * pad + extra
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w:.0f}" height="{total_h:.0f}" '
            f'viewBox="0 0 {total_w:.1f} {total_h:.1f}" font-family="DejaVu Sans, Arial, sans-serif">')
    body = [head]
    if title is not None:
        body.append(f"<title>{escape(title)}</title>")
    if defs:
        body.append("<defs>" + "".join(defs) + "</defs>")
    body += ['<rect width="100%" height="100%" fill="#ffffff"/>',
             f'<g transform="translate({pad:.1f},{pad:.1f})" text-anchor="middle" '
             f'dominant-baseline="central" font-weight="bold">', *parts, "</g>"]
    if text:
        body.append(f'<text class="caption" x="{pad:.1f}" y="{height + pad + extra * 0.75:.1f}" '
                    f'font-size="{font:.1f}" fill="#263238">{escape(text)}</text>')
    body.append("</svg>")
    return "\n".join(body) + "\n"


def probability_colour(p: SupportsFloat) -> str:
    """The heat-map colour of a mine probability ``p`` in [0, 1], as ``#rrggbb``.

    Linear in each RGB channel from green ``#43a047`` (0, safe) through yellow ``#fdd835``
    (1/2) to red ``#e53935`` (1, a mine), so equal steps in probability look like equal
    steps in colour. Accepts floats and :class:`~fractions.Fraction`.

    Raises
    ------
    MinegraphError
        for a value outside [0, 1] (or NaN).

    Parameters
    ----------
    p : float or Fraction
        A probability in [0, 1].

    Returns
    -------
    str
        The colour, ``#rrggbb``.

    Examples
    --------
    >>> from fractions import Fraction
    >>> probability_colour(0), probability_colour(Fraction(1, 2)), probability_colour(1.0)
    ('#43a047', '#fdd835', '#e53935')
    >>> probability_colour(0.25)
    '#a0bc3e'
    """
    x = float(p)
    if not 0 <= x <= 1:
        raise MinegraphError(f"a probability must lie in [0, 1], got {x!r}")
    return "#" + "".join(f"{channel:02x}" for channel in heat_rgb(x))


def set_notebook_drawer(drawer: Callable[[Board], str] | None) -> Callable[[Board], str] | None:
    """Make notebooks draw every board with ``drawer`` (board -> SVG text); ``None`` restores
    the plain picture. Returns the drawer it replaces, to put back later.

    Layers above this one install their pictures this way without this module importing them,
    e.g. every board with its decomposition::

        from minegraph.decompose import classify
        from minegraph.decompose.picture import decomposition_svg
        set_notebook_drawer(lambda board: decomposition_svg(classify(board, heuristic=False)))

    Parameters
    ----------
    drawer : callable or None
        The new drawer, or ``None``.

    Returns
    -------
    callable or None
        The drawer it replaces.

    Examples
    --------
    >>> from minegraph import Board
    >>> previous = set_notebook_drawer(lambda board: "<svg/>")
    >>> Board.from_text("#1")._repr_svg_()
    '<svg/>'
    >>> set_notebook_drawer(previous) is not None
    True
    """
    global _notebook_drawer
    previous, _notebook_drawer = _notebook_drawer, drawer
    return previous


def repr_svg(board: Board) -> str:
    """The notebook picture of a board: the installed drawer's (:func:`set_notebook_drawer`),
    else :func:`board_svg` with :data:`REPR_OPTIONS`.

    Parameters
    ----------
    board : Board
        The board.

    Returns
    -------
    str
        The SVG text.
    """
    if _notebook_drawer is not None:
        return _notebook_drawer(board)
    return board_svg(board, **REPR_OPTIONS)
