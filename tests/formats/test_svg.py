"""SVG pictures: well-formed, with the grid, the numbers and the kept decomposition edges."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from minegraph import Board
from minegraph.decompose.pipeline import classify
from minegraph.formats import svg
from minegraph.formats.svg import REPR_OPTIONS, board_svg

NS = "{http://www.w3.org/2000/svg}"
FIGURE_4_3 = "001#100\n002#200\n122#221\n#######\n122#221\n002#200\n001#100\n"


def _parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == NS + "svg"
    return root


def _by_class(root: ET.Element, tag: str, name: str) -> list[ET.Element]:
    return [e for e in root.iter(NS + tag) if e.get("class") == name]


def test_a_plain_board_shows_cells_numbers_and_mines() -> None:
    board = Board.from_text("#1M\n-23")
    root = _parse(board_svg(board))
    assert len(_by_class(root, "polygon", "cell")) == 6
    assert sorted(t.text for t in _by_class(root, "text", "number")) == ["1", "2", "3"]
    assert len(_by_class(root, "circle", "mine")) == 1
    assert len(_by_class(root, "polygon", "blank")) == 1
    assert not list(root.iter(NS + "line"))


def test_figure_4_3_draws_the_kept_edges() -> None:
    board = Board.from_text(FIGURE_4_3)
    c = classify(board, heuristic=False)
    root = _parse(board_svg(board, decomposition=c, show_removed=True))
    edges = _by_class(root, "line", "edge")
    assert len(edges) == len(c.reduced.decomposition.edges) == 20
    assert len(_by_class(root, "line", "removed")) == 42
    assert len(_by_class(root, "circle", "node")) == 20       # numbers with hidden neighbours
    # The centre's 4-cycle is series-parallel (blue); the rest lies on no cycle (green).
    colours = sorted(e.get("stroke") for e in edges)
    assert colours.count("#1565c0") == 4 and colours.count("#2e7d32") == 16
    # An edge from (2, 2) to (2, 4): cell centres at 28 * (c + 0.5).
    assert any((e.get("x1"), e.get("y1"), e.get("x2"), e.get("y2")) == ("70.0", "70.0", "126.0", "70.0")
               for e in edges)
    caption = [t.text for t in root.iter(NS + "text") if t.get("class") is None]
    assert caption == ["polynomial by series-parallel components: width 11 (bound 17)"]


def test_non_series_parallel_components_are_red() -> None:
    text = ("####1000\n####2100\n#####211\n###1#3#1\n####2#3#\n###23##1\n########\n########\n")
    root = _parse(board_svg(Board.from_text(text), decomposition=True))
    assert any(e.get("stroke") == "#c62828" for e in _by_class(root, "line", "edge"))


@pytest.mark.parametrize("text", ["topology: hex\n#1#2#\n1###1\n#2#1#\n",
                                  "topology: triangle\n#####\n#3#4#\n#####\n",
                                  "topology: torus\n###\n#1#\n###\n"])
def test_every_topology(text: str) -> None:
    board = Board.from_text(text)
    root = _parse(board_svg(board, decomposition=True))
    assert len(_by_class(root, "polygon", "cell")) == board.size
    assert len(_by_class(root, "line", "edge")) == len(classify(board).reduced.decomposition.edges)


def test_graph_boards_are_drawn_as_discs() -> None:
    board = Board.from_graph(5, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)], [-1, 1, -1, -2, 2])
    root = _parse(board_svg(board, decomposition=True))
    assert len(_by_class(root, "circle", "cell")) == 5
    assert len([e for e in root.iter(NS + "line") if e.get("class") is None]) == 5


def test_the_notebook_representation_and_its_option() -> None:
    board = Board.from_text(FIGURE_4_3)
    plain = _parse(board._repr_svg_())
    assert not _by_class(plain, "line", "edge")
    REPR_OPTIONS["decomposition"] = True
    try:
        assert len(_by_class(_parse(board._repr_svg_()), "line", "edge")) == 20
    finally:
        REPR_OPTIONS["decomposition"] = False
    assert "svg" in classify(board)._repr_svg_()
    assert svg.repr_svg(board) == board._repr_svg_()
