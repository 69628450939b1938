"""SVG pictures of boards, optionally with the thesis's decomposition drawn over them.

:func:`board_svg` draws the cells (square, torus, hex and triangle grids in their own shapes;
graph boards as a ring of discs) with their numbers and mines. With a decomposition it adds,
like Hoder's figures 4.1–4.3, the graph of the bipartite decomposition after redundant-edge
removal: a circle on the number controlling each bag, a line for every kept edge between two
bags' numbers, as thick as the edge's base is large; green for edges on no cycle, blue inside
series-parallel 2-connected components, red inside the others. ``show_removed`` adds the
removed edges, dashed.

Notebooks show a board through :func:`repr_svg`, which reads :data:`REPR_OPTIONS`; set
``REPR_OPTIONS["decomposition"] = True`` to see every board with its decomposition.

References
----------
Hoder, *Hra minolovka – výpočetní složitost a implementace hledání řešení*, 2007, fig. 4.1–4.3.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from minegraph.board import BLANK, HIDDEN, MINE, Board

if TYPE_CHECKING:
    from minegraph.decompose.pipeline import Classification

__all__ = ["board_svg", "repr_svg", "REPR_OPTIONS"]

#: Keyword arguments :func:`repr_svg` (the notebook picture of a board) passes to :func:`board_svg`.
REPR_OPTIONS: dict[str, Any] = {"decomposition": False}

_NUMBER_COLOURS = ["#9e9e9e", "#1565c0", "#2e7d32", "#c62828", "#4527a0", "#6d4c41",
                   "#00838f", "#212121", "#616161", "#ad1457", "#ef6c00", "#558b2f", "#283593"]
_EDGE_COLOURS = {"tree": "#2e7d32", "sp": "#1565c0", "other": "#c62828"}
_HIDDEN_FILL, _OPEN_FILL, _LINE = "#b0bec5", "#f5f5f5", "#78909c"


def _geometry(board: Board, size: float) -> tuple[list[list[tuple[float, float]]], list[tuple[float, float]], float, float]:
    """Polygon and centre of every cell (``[]`` polygon for graph boards' discs), and the
    picture's width and height."""
    n = board.size
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


def _cells(board: Board, polys: list[list[tuple[float, float]]], centres: list[tuple[float, float]],
           size: float) -> tuple[list[str], list[str]]:
    """The cells' shapes, and their marks (numbers, mines) to draw over any overlay."""
    out: list[str] = []
    marks: list[str] = []
    font = size * (0.42 if board.topology == "triangle" else 0.6)
    if board.rows is None:
        for u in range(board.size):
            for v in board.neighbors[u]:
                if u < v:
                    (x1, y1), (x2, y2) = centres[u], centres[v]
                    out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                               f'stroke="{_LINE}" stroke-width="1"/>')
    for i, s in enumerate(board.states):
        x, y = centres[i]
        fill = _HIDDEN_FILL if s in (HIDDEN, MINE) else _OPEN_FILL
        if polys[i]:
            out.append(f'<polygon class="cell" points="{_points(polys[i])}" fill="{fill}" '
                       f'stroke="{_LINE}" stroke-width="1"/>')
        else:
            out.append(f'<circle class="cell" cx="{x:.1f}" cy="{y:.1f}" r="{size * 0.45:.1f}" '
                       f'fill="{fill}" stroke="{_LINE}" stroke-width="1"/>')
        if s == MINE:
            marks.append(f'<circle class="mine" cx="{x:.1f}" cy="{y:.1f}" r="{size * 0.2:.1f}" fill="#212121"/>')
            marks.append(f'<circle cx="{x - size * 0.06:.1f}" cy="{y - size * 0.06:.1f}" '
                         f'r="{size * 0.05:.1f}" fill="#ffffff"/>')
        elif s == BLANK:
            d = size * 0.12
            marks.append(f'<polygon class="blank" points="{_points([(x, y - d), (x + d, y), (x, y + d), (x - d, y)])}" '
                         f'fill="none" stroke="#9e9e9e" stroke-width="1"/>')
        elif s >= 0:
            colour = _NUMBER_COLOURS[min(s, len(_NUMBER_COLOURS) - 1)]
            marks.append(f'<text class="number" x="{x:.1f}" y="{y:.1f}" fill="{colour}" '
                         f'font-size="{font:.1f}">{s}</text>')
    return out, marks


def _overlay(c: Classification, centres: list[tuple[float, float]], size: float,
             show_removed: bool) -> list[str]:
    kind: dict[tuple[int, int], str] = {}
    for block in c.blocks:
        for i, j in c.reduced.decomposition.edges:
            if i in block.nodes and j in block.nodes:
                kind[(i, j)] = "sp" if block.series_parallel else "other"
    controls, bags = c.bipartite.controls, c.bipartite.decomposition.bags
    out = ['<g class="decomposition" stroke-linecap="round">']
    if show_removed:
        for step in c.removal:
            if step.removed:
                (x1, y1), (x2, y2) = centres[controls[step.edge[0]]], centres[controls[step.edge[1]]]
                out.append(f'<line class="removed" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                           f'stroke="#757575" stroke-width="1" stroke-dasharray="3,3" opacity="0.6"/>')
    for i, j in sorted(c.reduced.decomposition.edges):
        (x1, y1), (x2, y2) = centres[controls[i]], centres[controls[j]]
        base = len(bags[i] & bags[j])
        colour = _EDGE_COLOURS[kind.get((i, j), "tree")]
        out.append(f'<line class="edge" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                   f'stroke="{colour}" stroke-width="{1.2 + 0.9 * base:.1f}" opacity="0.75">'
                   f'<title>base {base}</title></line>')
    radius = size * (0.26 if c.board.topology == "triangle" else 0.36)
    for i, p in enumerate(controls):
        if len(bags[i]) > 1:
            x, y = centres[p]
            out.append(f'<circle class="node" cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" '
                       f'fill="#ffffff" fill-opacity="0.9" stroke="#37474f" stroke-width="1.2"/>')
    out.append("</g>")
    return out


def _caption(c: Classification) -> str:
    if c.step == "edge-removal":
        return f"polynomial by edge removal alone: tree decomposition of width {c.width}"
    if c.step == "series-parallel":
        return f"polynomial by series-parallel components: width {c.width} (bound {c.bound})"
    bad = sum(not b.series_parallel for b in c.blocks)
    return f"not in the class found: {bad} component(s) not series-parallel"


def board_svg(board: Board, *, decomposition: Classification | bool = False, size: float = 28,
              show_removed: bool = False, caption: bool = True) -> str:
    """An SVG picture of ``board`` (a complete document, as a string).

    Parameters
    ----------
    decomposition
        ``True`` to run the pipeline and draw the decomposition after redundant-edge removal,
        or a :class:`~minegraph.decompose.pipeline.Classification` of ``board`` to draw.
    size
        Cell size in pixels.
    show_removed
        Also draw the removed edges, dashed.
    caption
        With a decomposition, write the pipeline's verdict under the picture.

    Cost: linear in cells plus the decomposition's edges.

    Examples
    --------
    >>> import xml.etree.ElementTree as ET
    >>> svg = board_svg(Board.from_text("1#1\\n#2#\\n1#1"), decomposition=True)
    >>> root = ET.fromstring(svg)
    >>> root.tag, len(root.findall(".//{http://www.w3.org/2000/svg}text"))
    ('{http://www.w3.org/2000/svg}svg', 6)
    """
    polys, centres, width, height = _geometry(board, size)
    pad = size * 0.5
    parts, marks = _cells(board, polys, centres, size)
    text = ""
    if decomposition is not False:
        if decomposition is True:
            from minegraph.decompose.pipeline import classify
            decomposition = classify(board, heuristic=False)
        parts += _overlay(decomposition, centres, size, show_removed)
        if caption:
            text = _caption(decomposition)
    parts += marks
    font = size * 0.45
    extra = size * 0.9 if text else 0.0
    # A rough width for the caption (average glyph about 0.55 em) so it is never cut off.
    total_w = max(width + 2 * pad, 2 * pad + 0.55 * font * len(text))
    total_h = height + 2 * pad + extra
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w:.0f}" height="{total_h:.0f}" '
            f'viewBox="0 0 {total_w:.1f} {total_h:.1f}" font-family="DejaVu Sans, Arial, sans-serif">')
    body = [head, '<rect width="100%" height="100%" fill="#ffffff"/>',
            f'<g transform="translate({pad:.1f},{pad:.1f})" text-anchor="middle" '
            f'dominant-baseline="central" font-weight="bold">', *parts, "</g>"]
    if text:
        body.append(f'<text x="{pad:.1f}" y="{height + pad + extra * 0.75:.1f}" font-size="{font:.1f}" '
                    f'fill="#263238">{escape(text)}</text>')
    body.append("</svg>")
    return "\n".join(body) + "\n"


def repr_svg(board: Board) -> str:
    """The notebook picture of a board: :func:`board_svg` with :data:`REPR_OPTIONS`."""
    return board_svg(board, **REPR_OPTIONS)
