"""The decomposition's picture: the thesis's figures through the generic SVG overlays."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from minegraph import Board
from minegraph.decompose import classify
from minegraph.decompose.picture import (EDGE_COLOURS, decomposition_overlay, decomposition_svg,
                                         verdict)
from minegraph.formats.svg import set_notebook_drawer

NS = "{http://www.w3.org/2000/svg}"
FIGURE_4_3 = "001#100\n002#200\n122#221\n#######\n122#221\n002#200\n001#100\n"
K4_MINOR = "####1000\n####2100\n#####211\n###1#3#1\n####2#3#\n###23##1\n########\n########\n"


def _parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == NS + "svg"
    return root


def _by_class(root: ET.Element, tag: str, name: str) -> list[ET.Element]:
    return [e for e in root.iter(NS + tag) if e.get("class") == name]


def test_figure_4_3_draws_the_kept_edges() -> None:
    c = classify(Board.from_text(FIGURE_4_3), heuristic=False)
    root = _parse(decomposition_svg(c, show_removed=True))
    edges = _by_class(root, "line", "edge")
    assert len(edges) == len(c.reduced.decomposition.edges) == 20
    assert len(_by_class(root, "line", "removed")) == 42
    assert len(_by_class(root, "circle", "ring")) == 20       # numbers with hidden neighbours
    # The centre's 4-cycle is series-parallel (blue); the rest lies on no cycle (green).
    colours = sorted(e.get("stroke") or "" for e in edges)
    assert colours.count(EDGE_COLOURS["sp"]) == 4 and colours.count(EDGE_COLOURS["tree"]) == 16
    # An edge from (2, 2) to (2, 4): cell centres at 28 * (c + 0.5).
    assert any((e.get("x1"), e.get("y1"), e.get("x2"), e.get("y2")) == ("70.0", "70.0", "126.0", "70.0")
               for e in edges)
    # Thicker for bigger bases, which the tooltip names.
    for e in edges:
        title = e.find(NS + "title")
        assert title is not None and (title.text or "").startswith("base ")
        assert float(e.get("stroke-width") or 0) == pytest.approx(1.2 + 0.9 * int((title.text or "")[5:]))
    # The removed edges lie under the kept ones, dashed.
    kinds = [e.get("class") for e in root.iter(NS + "line")]
    assert kinds == ["removed"] * 42 + ["edge"] * 20
    assert all(e.get("stroke-dasharray") for e in _by_class(root, "line", "removed"))
    caption = [t.text for t in _by_class(root, "text", "caption")]
    assert caption == ["polynomial by series-parallel components: width 11 (bound 17)"]


def test_the_overlay_names_cells_of_the_board() -> None:
    board = Board.from_text(FIGURE_4_3)
    c = classify(board, heuristic=False)
    overlay = decomposition_overlay(c)
    assert all(board.states[i] > 0 for i in overlay.marks)
    assert all(board.states[a] > 0 and board.states[b] > 0 for a, b, _ in overlay.lines)
    assert overlay.caption == verdict(c)
    assert not [s for *_, s in overlay.lines if s.css_class == "removed"]


def test_non_series_parallel_components_are_red() -> None:
    c = classify(Board.from_text(K4_MINOR), heuristic=False)
    root = _parse(decomposition_svg(c))
    assert any(e.get("stroke") == EDGE_COLOURS["other"] for e in _by_class(root, "line", "edge"))
    assert verdict(c) == "not in the class found: 1 component(s) not series-parallel"


def test_no_caption_on_request() -> None:
    c = classify(Board.from_text("#1#\n1#1"), heuristic=False)
    assert not _by_class(_parse(decomposition_svg(c, caption=False)), "text", "caption")


@pytest.mark.parametrize("text", ["topology: hex\n#1#2#\n1###1\n#2#1#\n",
                                  "topology: triangle\n#####\n#3#4#\n#####\n",
                                  "topology: torus\n###\n#1#\n###\n"])
def test_every_topology(text: str) -> None:
    board = Board.from_text(text)
    c = classify(board)
    root = _parse(decomposition_svg(c))
    assert len(_by_class(root, "polygon", "cell")) == board.size
    assert len(_by_class(root, "line", "edge")) == len(c.reduced.decomposition.edges)


def test_graph_boards() -> None:
    board = Board.from_graph(5, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)], [-1, 1, -1, -2, 2])
    root = _parse(decomposition_svg(classify(board)))
    assert len(_by_class(root, "circle", "cell")) == 5
    assert len([e for e in root.iter(NS + "line") if e.get("class") is None]) == 5


def test_notebooks_show_classifications_and_optionally_every_board() -> None:
    board = Board.from_text(FIGURE_4_3)
    c = classify(board)
    assert c._repr_svg_() == decomposition_svg(c)
    assert not _by_class(_parse(board._repr_svg_()), "line", "edge")
    previous = set_notebook_drawer(lambda b: decomposition_svg(classify(b, heuristic=False)))
    try:
        assert len(_by_class(_parse(board._repr_svg_()), "line", "edge")) == 20
    finally:
        set_notebook_drawer(previous)
