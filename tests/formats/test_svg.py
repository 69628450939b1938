"""SVG pictures: well-formed, with the grid, the numbers, and overlays landing where asked."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

from minegraph import Board
from minegraph.errors import BoardError, MinegraphError
from minegraph.formats import svg
from minegraph.formats.svg import (MARK_KINDS, REPR_OPTIONS, LineStyle, Mark, board_svg,
                                   probability_colour, set_notebook_drawer)

NS = "{http://www.w3.org/2000/svg}"
SIZE = 28


def _parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == NS + "svg"
    return root


def _by_class(root: ET.Element, tag: str, name: str) -> list[ET.Element]:
    return [e for e in root.iter(NS + tag) if e.get("class") == name]


def _square_centre(board: Board, i: int) -> tuple[float, float]:
    assert board.cols is not None
    r, c = divmod(i, board.cols)
    return (c + 0.5) * SIZE, (r + 0.5) * SIZE


def _title(e: ET.Element) -> str | None:
    t = e.find(NS + "title")
    return None if t is None else t.text


def test_a_plain_board_shows_cells_numbers_and_mines() -> None:
    board = Board.from_text("#1M\n-23")
    root = _parse(board_svg(board))
    assert len(_by_class(root, "polygon", "cell")) == 6
    assert sorted(t.text or "" for t in _by_class(root, "text", "number")) == ["1", "2", "3"]
    assert len(_by_class(root, "circle", "mine")) == 1
    assert len(_by_class(root, "polygon", "blank")) == 1
    assert not list(root.iter(NS + "line"))
    assert root.find(NS + "title") is None and not _by_class(root, "text", "caption")


def test_fills_land_on_their_cells_under_the_numbers() -> None:
    board = Board.from_text("#1#\n#2#\n###")
    root = _parse(board_svg(board, fills={0: "#ff0000", 8: "rgb(0, 0, 255)"}))
    cells = _by_class(root, "polygon", "cell")
    fills = _by_class(root, "polygon", "fill")
    assert [(f.get("points"), f.get("fill")) for f in fills] == [
        (cells[0].get("points"), "#ff0000"), (cells[8].get("points"), "rgb(0, 0, 255)")]
    # Drawn after the cells and before the numbers, so a number is never hidden.
    order = [e for e in root.iter() if e.get("class") in ("cell", "fill", "number")]
    kinds = [e.get("class") for e in order]
    assert kinds.index("fill") > max(i for i, k in enumerate(kinds) if k == "cell")
    assert kinds.index("number") > max(i for i, k in enumerate(kinds) if k == "fill")


def test_a_line_joins_the_centres_of_its_cells() -> None:
    board = Board.from_text("1##\n#2#\n##3")
    style = LineStyle("#123456", width=2.5, dashed=True, opacity=0.5, tooltip="why", css_class="link")
    root = _parse(board_svg(board, lines=[(0, 8, style), (4, 5, LineStyle())]))
    first, second = root.iter(NS + "line")
    x1, y1 = _square_centre(board, 0)
    x2, y2 = _square_centre(board, 8)
    assert [float(first.get(k) or "nan") for k in ("x1", "y1", "x2", "y2")] == [x1, y1, x2, y2]
    assert (first.get("stroke"), first.get("stroke-width"), first.get("opacity")) == ("#123456", "2.5", "0.5")
    assert first.get("stroke-dasharray") and first.get("class") == "link" and _title(first) == "why"
    assert second.get("stroke-dasharray") is None and second.get("class") is None
    assert _title(second) is None and second.get("opacity") is None
    assert (float(second.get("x2") or 0), float(second.get("y2") or 0)) == _square_centre(board, 5)


def test_tooltips_on_cells_and_the_document_title() -> None:
    board = Board.from_text("#1\n##")
    root = _parse(board_svg(board, titles={0: "mine probability 1/3 ≈ 0.3333", 3: "<safe> & sound"},
                            title="a heat map"))
    cells = _by_class(root, "polygon", "cell")
    assert [_title(c) for c in cells] == ["mine probability 1/3 ≈ 0.3333", None, None, "<safe> & sound"]
    assert root[0].tag == NS + "title" and root[0].text == "a heat map"
    # Whatever lies over a cell lets the pointer through to it, so its tooltip shows.
    overlays = [g for g in root.iter(NS + "g") if g.get("class") in ("contents",)]
    assert overlays and all(g.get("pointer-events") == "none" for g in overlays)


def test_marks_of_every_kind_sit_on_their_cells() -> None:
    board = Board.from_text("1#1\n###")
    root = _parse(board_svg(board, marks={0: "ring", 1: Mark("dot", "#00ff00"), 4: Mark("cross")}))
    ring, = _by_class(root, "circle", "ring")
    dot, = _by_class(root, "circle", "dot")
    cross, = _by_class(root, "path", "cross")
    assert (float(ring.get("cx") or 0), float(ring.get("cy") or 0)) == _square_centre(board, 0)
    assert (float(dot.get("cx") or 0), float(dot.get("cy") or 0)) == _square_centre(board, 1)
    assert dot.get("fill") == "#00ff00" and ring.get("stroke") == "#37474f"
    x, y = _square_centre(board, 4)
    assert f"M{x - 0.22 * SIZE:.1f},{y - 0.22 * SIZE:.1f}" in (cross.get("d") or "")
    assert set(MARK_KINDS) == {"ring", "dot", "cross"}


def test_a_caption_is_written_under_the_board() -> None:
    root = _parse(board_svg(Board.from_text("##"), caption="a long caption that is wider than the board"))
    caption, = _by_class(root, "text", "caption")
    assert caption.text == "a long caption that is wider than the board"
    assert float(caption.get("y") or 0) > SIZE
    assert float(root.get("width") or 0) > 2 * SIZE     # widened to hold the caption


def test_overlays_on_missing_cells_or_unknown_marks_are_refused() -> None:
    board = Board.from_text("##")
    with pytest.raises(BoardError, match="fills: cell 2 is outside 0..1"):
        board_svg(board, fills={2: "red"})
    with pytest.raises(BoardError, match="lines"):
        board_svg(board, lines=[(0, -1, LineStyle())])
    with pytest.raises(MinegraphError, match="unknown mark 'star'"):
        board_svg(board, marks={0: "star"})


@pytest.mark.parametrize("text", ["topology: hex\n#1#2#\n1###1\n#2#1#\n",
                                  "topology: triangle\n#####\n#3#4#\n#####\n",
                                  "topology: torus\n###\n#1#\n###\n"])
def test_every_topology(text: str) -> None:
    board = Board.from_text(text)
    root = _parse(board_svg(board, fills={0: "red"}, marks={1: "dot"}, lines=[(0, 1, LineStyle())]))
    cells = _by_class(root, "polygon", "cell")
    assert len(cells) == board.size
    assert _by_class(root, "polygon", "fill")[0].get("points") == cells[0].get("points")


def test_graph_boards_are_drawn_as_discs() -> None:
    board = Board.from_graph(5, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)], [-1, 1, -1, -2, 2])
    root = _parse(board_svg(board, fills={3: "red"}, titles={3: "a mine"}))
    discs = _by_class(root, "circle", "cell")
    assert len(discs) == 5 and _title(discs[3]) == "a mine"
    fill, = _by_class(root, "circle", "fill")
    assert (fill.get("cx"), fill.get("cy")) == (discs[3].get("cx"), discs[3].get("cy"))
    assert len([e for e in root.iter(NS + "line") if e.get("class") is None]) == 5


def test_probability_colours() -> None:
    assert probability_colour(0) == "#43a047" and probability_colour(1) == "#e53935"
    assert probability_colour(Fraction(1, 2)) == "#fdd835"
    reds = [int(probability_colour(p / 10)[1:3], 16) for p in range(11)]
    greens = [int(probability_colour(p / 10)[3:5], 16) for p in range(11)]
    # Redder up to even odds, then less green: the colour moves one way all along.
    assert reds[:6] == sorted(reds[:6]) and greens[5:] == sorted(greens[5:], reverse=True)
    for bad in (-0.01, 1.5, float("nan")):
        with pytest.raises(MinegraphError):
            probability_colour(bad)


def test_the_notebook_representation_and_its_drawer() -> None:
    board = Board.from_text("#1#\n1#1")
    assert svg.repr_svg(board) == board._repr_svg_() == board_svg(board)
    REPR_OPTIONS["size"] = 10
    try:
        assert _parse(board._repr_svg_()).get("width") == board_svg(board, size=10).split('"')[3]
    finally:
        del REPR_OPTIONS["size"]
    previous = set_notebook_drawer(lambda b: board_svg(b, caption="drawn"))
    try:
        assert _by_class(_parse(board._repr_svg_()), "text", "caption")[0].text == "drawn"
    finally:
        assert set_notebook_drawer(previous) is not None
    assert board._repr_svg_() == board_svg(board)


# ----------------------------------------------------------------- big boards, drawn compactly
def _big_board(rows: int = 200, cols: int = 200, topology: str = "square", seed: int = 3) -> Board:
    """A position with about a fifth mines: half the safe cells uncovered (numbers), some
    mines flagged, the rest hidden."""
    import random
    from minegraph.topology import grid_neighbors
    rng = random.Random(seed)
    n = rows * cols
    mines = set(rng.sample(range(n), n // 5))
    near = grid_neighbors(topology, rows, cols)
    states = []
    for i in range(n):
        if i in mines:
            states.append(-2 if rng.random() < 0.2 else -1)
        else:
            states.append(sum(q in mines for q in near[i]) if rng.random() < 0.5 else -1)
    return Board.grid(rows, cols, states, topology=topology)


def _square_runs(d: str) -> list[tuple[int, int, int]]:
    """(row, first column, length) of each run of a compact square picture's path: strokes
    along the rows' middles, ``M c r.5 h k`` then relative moves ``m dc dr h k``."""
    import re
    runs, x, y = [], 0.0, 0.0
    for move, dx, dy, k in re.findall(r"([Mm])(-?\d+) (-?\d+(?:\.5)?)h(\d+)", d):
        x, y = (float(dx), float(dy)) if move == "M" else (x + float(dx), y + float(dy))
        runs.append((int(y - 0.5), int(x), int(k)))
        x += int(k)
    assert "".join(f"{m}{a} {b}h{k}" for m, a, b, k in re.findall(
        r"([Mm])(-?\d+) (-?\d+(?:\.5)?)h(\d+)", d)) == d
    return runs


def test_a_200x200_board_is_drawn_compactly_in_a_tenth_of_the_bytes() -> None:
    board = _big_board()
    compact, detailed = board._repr_svg_(), board_svg(board, compact=False)
    assert board_svg(board) == compact                          # automatic past COMPACT_CELLS
    assert len(compact.encode()) < 1_000_000 and len(detailed.encode()) > 10 * len(compact.encode())
    root, full = _parse(compact), _parse(detailed)
    assert (root.get("width"), root.get("height")) == (full.get("width"), full.get("height"))
    # The uncovered cells, and only they, are covered by the runs of the "open" path.
    opened = {(r, c + j) for r, c, k in _square_runs(_by_class(root, "path", "open")[0].get("d") or "")
              for j in range(k)}
    assert opened == {divmod(i, 200) for i, s in enumerate(board.states) if s >= 0}
    # Every number is drawn once, in its colour, at its cell's centre; every mine once.
    drawn = sorted((float(t.get("x") or 0), float(text.get("y") or 0), t.text or "")
                   for text in _by_class(root, "text", "numbers") for t in text.iter(NS + "tspan"))
    expected = sorted(((c + 0.5) * SIZE, (r + 0.5) * SIZE, str(s)) for (r, c), s in
                      ((divmod(i, 200), s) for i, s in enumerate(board.states) if s >= 0))
    assert drawn == expected
    mines = _by_class(root, "path", "mines")[0].get("d") or ""
    assert mines.count("h0") == board.known_mines


def test_compact_pictures_of_every_topology_with_overlays() -> None:
    for topology in ("square", "torus", "hex", "triangle"):
        board = _big_board(60, 50, topology)
        fills = {i: probability_colour(i % 3 / 2) for i in board.hidden}
        marks = {0: "dot", 1: "ring", 2: "cross", 3: Mark("cross", "#000000")}
        text = board_svg(board, fills=fills, marks=marks, lines=[(0, 99, LineStyle())],
                         titles={0: "ignored"})
        root = _parse(text)
        assert _by_class(root, "g", "cells") and _by_class(root, "path", "outline")
        assert "<title>" not in text                           # no tooltips in compact pictures
        # Every colour of the overlay is painted, directly or through a pattern.
        assert {probability_colour(0), probability_colour(0.5), probability_colour(1)} <= set(
            e.get(paint) for e in root.iter() for paint in ("fill", "stroke") if e.get(paint))
        # Every pattern used is defined, once, with ids of this picture only.
        ids = [e.get("id") for e in root.iter(NS + "pattern")]
        used = {v[5:-1] for e in root.iter() for v in (e.get("fill") or "",) if v.startswith("url(#")}
        assert len(ids) == len(set(ids)) and used <= set(ids)
        assert len(_by_class(root, "path", "cross")) == 2 and len(_by_class(root, "path", "dot")) == 2
        assert len(list(root.iter(NS + "line"))) == 1
    # Two pictures in one page do not share pattern ids.
    one = _parse(board_svg(_big_board(60, 50, "hex", seed=1)))
    two = _parse(board_svg(_big_board(60, 50, "hex", seed=2)))
    assert not {e.get("id") for e in one.iter(NS + "pattern")} & {e.get("id") for e in two.iter(NS + "pattern")}


def test_the_compact_switch() -> None:
    small = Board.from_text("#1#\n1#1")
    assert not _by_class(_parse(board_svg(small)), "g", "cells")
    assert _by_class(_parse(board_svg(small, compact=True)), "g", "cells")
    over = Board.grid(1, svg.COMPACT_CELLS + 1, "#" * (svg.COMPACT_CELLS + 1))
    assert _by_class(_parse(board_svg(over)), "g", "cells")
    assert not _by_class(_parse(board_svg(over, compact=False)), "g", "cells")
    # Graph boards are always drawn cell by cell.
    graph = Board.from_graph(3, [(0, 1), (1, 2)], "#1#")
    assert len(_by_class(_parse(board_svg(graph, compact=True)), "circle", "cell")) == 3
