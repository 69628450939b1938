"""The picture of a :class:`~minegraph.decompose.pipeline.Classification`, drawn with the
generic overlays of :func:`minegraph.formats.svg.board_svg`.

Like Hoder's figures 4.1–4.3, the graph of the bipartite decomposition after redundant-edge
removal: a ring on the number controlling each bag, a line for every kept edge between two
bags' numbers, as thick as the edge's base is large; green for edges on no cycle, blue inside
series-parallel 2-connected components, red inside the others. ``show_removed`` adds the
removed edges, dashed and grey, under the kept ones; a caption gives the pipeline's verdict.

References
----------
Hoder, *Hra minolovka – výpočetní složitost a implementace hledání řešení*, 2007, fig. 4.1–4.3.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from minegraph.formats.svg import Line, LineStyle, Mark, board_svg

if TYPE_CHECKING:
    # Only the type: the pipeline imports this module (Classification._repr_svg_).
    from minegraph.decompose.pipeline import Classification

__all__ = ["DecompositionOverlay", "EDGE_COLOURS", "decomposition_overlay", "verdict",
           "decomposition_svg"]

#: Colour of a kept edge by where it lies: on no cycle (``"tree"``), inside a series-parallel
#: 2-connected component (``"sp"``), inside any other (``"other"``).
EDGE_COLOURS: dict[str, str] = {"tree": "#2e7d32", "sp": "#1565c0", "other": "#c62828"}
_NODE = Mark("ring", "#37474f")
_REMOVED = LineStyle("#757575", 1, dashed=True, opacity=0.6, css_class="removed")


@dataclass(frozen=True)
class DecompositionOverlay:
    """What :func:`decomposition_overlay` adds to the board's picture: the arguments of the
    same names of :func:`~minegraph.formats.svg.board_svg`.

    Parameters
    ----------
    marks : dict of int to Mark
        Marks by cell.
    lines : list of Line
        Lines between cells.
    caption : str
        The text under the picture.
    """

    marks: dict[int, Mark] = field(default_factory=dict)
    lines: list[Line] = field(default_factory=list)
    caption: str = ""


def verdict(c: Classification) -> str:
    """The pipeline's verdict in one line, as written under the picture.

    Parameters
    ----------
    c : Classification
        The pipeline's answer.

    Returns
    -------
    str
        The verdict.

    Examples
    --------
    >>> from minegraph import Board
    >>> from minegraph.decompose import classify
    >>> verdict(classify(Board.from_text("#1#\\n1#1"), heuristic=False))
    'polynomial by edge removal alone: tree decomposition of width 3'
    """
    if c.step == "edge-removal":
        return f"polynomial by edge removal alone: tree decomposition of width {c.width}"
    if c.step == "series-parallel":
        return f"polynomial by series-parallel components: width {c.width} (bound {c.bound})"
    bad = sum(not b.series_parallel for b in c.blocks)
    return f"not in the class found: {bad} component(s) not series-parallel"


def decomposition_overlay(c: Classification, *, show_removed: bool = False) -> DecompositionOverlay:
    """The decomposition after redundant-edge removal as generic overlays on ``c.board``.

    Kept edges are lines of class ``edge`` with their base as tooltip, removed edges (with
    ``show_removed``) lines of class ``removed``; the numbers of bags with more than one
    vertex get a ring.

    Cost: linear in the decomposition's edges times its 2-connected components.

    Parameters
    ----------
    c : Classification
        The pipeline's answer.
    show_removed : bool
        Draw the removed edges too (dashed).

    Returns
    -------
    DecompositionOverlay
        The overlays.

    Examples
    --------
    >>> from minegraph import Board
    >>> from minegraph.decompose import classify
    >>> o = decomposition_overlay(classify(Board.from_text("#1#\\n1#1"), heuristic=False))
    >>> sorted(o.marks), [(a, b, s.colour, s.tooltip) for a, b, s in o.lines]
    ([1, 3, 5], [(1, 3, '#2e7d32', 'base 2'), (1, 5, '#2e7d32', 'base 2')])
    """
    kind: dict[tuple[int, int], str] = {}
    for block in c.blocks:
        for i, j in c.reduced.decomposition.edges:
            if i in block.nodes and j in block.nodes:
                kind[(i, j)] = "sp" if block.series_parallel else "other"
    controls, bags = c.bipartite.controls, c.bipartite.decomposition.bags
    lines: list[Line] = []
    if show_removed:
        lines += [(controls[s.edge[0]], controls[s.edge[1]], _REMOVED) for s in c.removal if s.removed]
    for i, j in sorted(c.reduced.decomposition.edges):
        base = len(bags[i] & bags[j])
        style = LineStyle(EDGE_COLOURS[kind.get((i, j), "tree")], 1.2 + 0.9 * base, opacity=0.75,
                          tooltip=f"base {base}", css_class="edge")
        lines.append((controls[i], controls[j], style))
    marks = {p: _NODE for i, p in enumerate(controls) if len(bags[i]) > 1}
    return DecompositionOverlay(marks, lines, verdict(c))


def decomposition_svg(c: Classification, *, show_removed: bool = False, caption: bool = True,
                      size: float = 28) -> str:
    """An SVG picture of ``c.board`` with its decomposition (:func:`decomposition_overlay`).

    Parameters
    ----------
    c
        The pipeline's answer (:func:`~minegraph.decompose.pipeline.classify`).
    show_removed
        Also draw the removed edges, dashed.
    caption
        Write the pipeline's verdict (:func:`verdict`) under the picture.
    size
        Cell size in pixels.

    Returns
    -------
    str
        The SVG document.

    Examples
    --------
    >>> import xml.etree.ElementTree as ET
    >>> from minegraph import Board
    >>> from minegraph.decompose import classify
    >>> svg = decomposition_svg(classify(Board.from_text("1#1\\n#2#\\n1#1")))
    >>> root = ET.fromstring(svg)
    >>> ns = "{http://www.w3.org/2000/svg}"
    >>> len(root.findall(f".//{ns}text")), len(root.findall(f".//{ns}line"))
    (6, 4)
    """
    overlay = decomposition_overlay(c, show_removed=show_removed)
    return board_svg(c.board, marks=overlay.marks, lines=overlay.lines, size=size,
                     caption=overlay.caption if caption else None)
