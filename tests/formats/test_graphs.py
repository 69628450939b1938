"""Graph files through networkx (docs/formats.md, Graph files), Board.from_networkx's labels in
every output, and numbers past 12 on graph boards (issue 9, "Graphs from the graph ecosystem").

Every expected board below is written out by hand from the file beside it; counts are checked
by hand in the comments.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from math import comb
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minegraph import Board, analyze
from minegraph.analysis import solve
from minegraph.board import BLANK, HIDDEN, MINE
from minegraph.errors import BoardError, FormatError, LimitError, MinegraphError, UserError
from minegraph.explain import explain
from minegraph.formats import GRAPH_FORMATS, detect_format, read_board, write_board
from minegraph.formats import graphs
from minegraph.formats.graphs import (read_graph, read_graph_board, read_states, to_networkx,
                                      write_adjlist, write_edgelist, write_states)
from minegraph.formats.json import read_json, write_json
from minegraph.report import render_analysis

H, M = HIDDEN, MINE

# ----------------------------------------------------------------- the hand-written files
# One board, seven cells a..g: a hexagon a-b-c-d-e-f-a with the chord b-e, and g on its own.
# b shows 1, e shows 2, the total is 3. By hand: e's hidden neighbours are d and f, so both
# are mines; b's hidden neighbours are a and c, one of them a mine; that is 3 mines, so g is
# safe. Two completions ({a, d, f} and {c, d, f}): a and c 1/2, d and f 1, g 0.
EDGES = [("a", "b"), ("b", "c"), ("c", "d"), ("d", "e"), ("e", "f"), ("f", "a"), ("b", "e")]
NAMES = ("a", "b", "c", "d", "e", "f", "g")
STATES = (H, 1, H, H, 2, H, H)

GRAPHML = """<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key id="s" for="node" attr.name="state" attr.type="string"/>
  <key id="m" for="graph" attr.name="mines" attr.type="int"/>
  <graph edgedefault="undirected">
    <data key="m">3</data>
    <node id="a"/>
    <node id="b"><data key="s">1</data></node>
    <node id="c"><data key="s">#</data></node>
    <node id="d"/>
    <node id="e"><data key="s">2</data></node>
    <node id="f"/>
    <node id="g"/>
    <edge source="a" target="b"/>
    <edge source="b" target="c"/>
    <edge source="c" target="d"/>
    <edge source="d" target="e"/>
    <edge source="e" target="f"/>
    <edge source="f" target="a"/>
    <edge source="b" target="e"/>
  </graph>
</graphml>
"""

GML = """# written by hand
graph [
  mines 3
  node [ id 10 label "a" ]
  node [ id 11 label "b" state 1 ]
  node [ id 12 label "c" state "#" ]
  node [ id 13 label "d" ]
  node [ id 14 label "e" state "2" ]
  node [ id 15 label "f" ]
  node [ id 16 label "g" ]
  edge [ source 10 target 11 ]
  edge [ source 11 target 12 ]
  edge [ source 12 target 13 ]
  edge [ source 13 target 14 ]
  edge [ source 14 target 15 ]
  edge [ source 15 target 10 ]
  edge [ source 11 target 14 ]
]
"""

NODE_LINK = """{"directed": false, "multigraph": false, "graph": {"mines": 3},
 "nodes": [{"id": "a"}, {"id": "b", "state": 1}, {"id": "c", "state": null}, {"id": "d"},
           {"id": "e", "state": "2"}, {"id": "f"}, {"id": "g"}],
 "links": [{"source": "a", "target": "b"}, {"source": "b", "target": "c"},
           {"source": "c", "target": "d"}, {"source": "d", "target": "e"},
           {"source": "e", "target": "f"}, {"source": "f", "target": "a"},
           {"source": "b", "target": "e"}]}
"""

EDGE_LIST = """# the hexagon with a chord; g has no edge, so the edge list cannot hold it
a b
b c
c d  # a comment after an edge
d e
e f
f a
b e {}
"""

# Cells are numbered in the order of the lines (not of first mention, networkx's order).
ADJ_LIST = """a b f
b c e
c d
d e
e f
f
g
"""

STATES_FILE = """; the numbers and the total
mines: 3
b 1
e 2
"""


def hexagon() -> Board:
    """The board of the files, built by index (a = 0, ..., g = 6) without networkx."""
    index = {name: i for i, name in enumerate(NAMES)}
    board = Board.from_graph(7, [(index[u], index[v]) for u, v in EDGES], STATES, mines=3)
    return Board("graph", None, None, board.neighbors, board.states, 3, NAMES)


# ----------------------------------------------------------------- numbers past 12

def star(centre: int | str, leaves: int = 13) -> Board:
    return Board.from_graph(leaves + 1, [(0, i) for i in range(1, leaves + 1)],
                            [centre] + [H] * leaves)


class TestNumbersPastTwelve:
    def test_a_star_with_13_leaves_is_solved_and_counted(self) -> None:
        # Centre 13, 13 leaves: every leaf is a mine, one completion.
        a = analyze(star(13))
        assert a.solutions == 1 and a.mines == list(range(1, 14))
        assert solve(star(13)).states == (13,) + (M,) * 13
        # Centre 5: any 5 of the 13 leaves, C(13, 5) = 1287; each leaf 5/13.
        five = analyze(star(5))
        assert five.solutions == comb(13, 5) == 1287
        assert set(five.probabilities.values()) == {Fraction(5, 13)}

    def test_the_star_through_networkx_and_every_graph_file(self) -> None:
        board = Board.from_networkx(nx.star_graph(13), {0: 13})
        assert board == star(13) and board.labels is None
        for format in ("graphml", "gml", "nodelink"):
            text = write_board(board, format)
            assert read_board(text, format=format) == board
            assert analyze(read_board(text)).solutions == 1
        edges = write_board(board.with_states([H] * 14), "edgelist")
        assert read_board(edges, format="edgelist", states="0 13").states[0] == 13

    def test_json_graph_boards_write_large_numbers_in_digits(self) -> None:
        board = star(13).with_states([13] + [H] * 13, mines=13)
        written = write_json(board)
        assert json.loads(written)["states"][0] == "13"
        assert read_json(written) == board
        assert read_json({"cells": 3, "edges": [[0, 1], [0, 2]], "states": ["2", "#", "#"]}).states[0] == 2
        with pytest.raises(FormatError, match=r"\$\.states\[0\]: number 14 is too large: this cell has only 13"):
            read_json({"cells": 14, "edges": [[0, i] for i in range(1, 14)], "states": ["14"] + ["#"] * 13})
        # Grids keep their topology's maximum.
        with pytest.raises(FormatError, match="the square grid allows at most 8"):
            read_json({"rows": 3, "cols": 3, "cells": ["###", "#9#", "###"]})

    def test_text_grids_are_unaffected(self) -> None:
        # The text alphabet stops at c (12), the triangle grid's maximum; 13 has no symbol.
        assert Board.from_text("topology: triangle\n#####\n#####\n##c##\n#####\n#####").states[12] == 12
        with pytest.raises(FormatError, match="unknown symbol 'd'"):
            Board.from_text("topology: triangle\n#####\n#####\n##d##\n#####\n#####")


# ----------------------------------------------------------------- each format, by hand

class TestReadingEachFormat:
    @pytest.mark.parametrize("format, text", [("graphml", GRAPHML), ("gml", GML),
                                              ("nodelink", NODE_LINK)])
    def test_files_with_attributes(self, format: str, text: str) -> None:
        board = read_graph_board(text, format)
        assert board == hexagon()
        assert board.labels == NAMES and board.states == STATES and board.mines == 3
        assert board.neighbors[board.index("b")] == (0, 2, 4)   # a, c, e
        assert read_board(text) == board                          # detected by content
        assert detect_format(text) == format

    def test_edge_list_with_a_states_file(self) -> None:
        board = read_graph_board(EDGE_LIST, "edgelist", states=STATES_FILE)
        # No g: an edge list holds edges only.
        assert board.labels == NAMES[:6] and board.states == STATES[:6] and board.mines == 3
        assert board.neighbors == hexagon().neighbors[:6]
        assert read_board(EDGE_LIST, format="edgelist", states=STATES_FILE) == board

    def test_adjacency_list_with_states_as_a_mapping_or_a_path(self, tmp_path: Path) -> None:
        assert read_graph_board(ADJ_LIST, "adjlist", states={"b": 1, "e": "2"}, mines=3) == hexagon()
        graph_file, states_file = tmp_path / "hexagon.adjlist", tmp_path / "hexagon.states"
        graph_file.write_text(ADJ_LIST, encoding="utf-8")
        states_file.write_text(STATES_FILE, encoding="utf-8")
        assert read_graph_board(graph_file, "adjlist", states=states_file) == hexagon()
        # Without states every cell is hidden.
        assert read_board(ADJ_LIST, format="adjlist").states == (H,) * 7

    def test_files_by_path_and_extension(self, tmp_path: Path) -> None:
        for name, text in (("h.graphml", GRAPHML), ("h.gml", GML), ("h.json", NODE_LINK)):
            path = tmp_path / name
            path.write_bytes(text.encode("utf-8"))
            assert read_graph_board(path) == hexagon()
            assert detect_format(text, name=name) == graphs.graph_format(text)
            assert read_board(path.read_bytes(), name=name) == hexagon()

    def test_whole_number_names_are_ints(self) -> None:
        # 0 1 / 1 2: the board on cells 0..2 without labels, equal to Board.from_graph's.
        plain = Board.from_graph(3, [(0, 1), (1, 2)], "###")
        assert read_graph_board("0 1\n1 2\n", "edgelist") == plain
        assert read_graph_board("2 1\n1 0\n", "edgelist") == plain           # sorted
        assert read_graph_board("1 2\n2 3\n", "edgelist").labels == (1, 2, 3)
        assert read_graph_board("0 1\n1 02\n", "edgelist").labels == ("0", "1", "02")
        mixed = read_graph_board(GRAPHML.replace('"a"', '"0"'), "graphml")
        assert mixed.labels == ("0", "b", "c", "d", "e", "f", "g")
        # Node-link ids keep their JSON types.
        assert read_graph_board('{"nodes": [{"id": "1"}, {"id": 2}], "edges": []}').labels == ("1", 2)

    def test_gml_without_labels_names_nodes_by_id(self) -> None:
        board = read_graph_board("graph [ node [ id 0 ] node [ id 1 state 1 ] node [ id 2 ] "
                                 "edge [ source 0 target 1 ] edge [ source 1 target 2 ] ]")
        assert board == Board.from_graph(3, [(0, 1), (1, 2)], "#1#")

    def test_direction_and_parallel_edges_do_not_matter(self) -> None:
        text = ('{"directed": true, "multigraph": true, "nodes": [{"id": 1}, {"id": 2, "state": 1}], '
                '"edges": [{"source": 1, "target": 2, "key": 0}, {"source": 2, "target": 1, "key": 0}]}')
        assert read_graph_board(text).neighbors == ((1,), (0,))


# ----------------------------------------------------------------- labels in every output

class TestLabels:
    def test_the_analysis_of_graphml_equals_that_of_the_board_built_by_index(self) -> None:
        from_file = analyze(read_graph_board(GRAPHML))
        index = {name: i for i, name in enumerate(NAMES)}
        by_index = analyze(Board.from_graph(7, [(index[u], index[v]) for u, v in EDGES], STATES,
                                            mines=3))
        # By hand (see the files): two completions.
        assert from_file.solutions == by_index.solutions == 2
        assert [index[c] for c in from_file.safe] == by_index.safe == [6]
        assert [index[c] for c in from_file.mines] == by_index.mines == [3, 5]
        assert {index[c]: p for c, p in from_file.probabilities.items()} == by_index.probabilities \
            == {0: Fraction(1, 2), 2: Fraction(1, 2), 3: 1, 5: 1, 6: 0}
        assert index[from_file.best] == by_index.best == 6
        assert from_file.safe == ["g"] and from_file.mines == ["d", "f"] and from_file.best == "g"

    def test_from_networkx_round_trips_with_string_labels(self) -> None:
        g = nx.Graph(EDGES)
        g.add_node("g")
        board = Board.from_networkx(g, {"b": "1", "e": 2}, mines=3)
        assert board == hexagon()
        again = to_networkx(board)
        assert Board.from_networkx(again) == board
        assert dict(again.nodes(data="state"))["b"] == "1" and again.graph == {"mines": 3}
        for format in ("graphml", "gml", "nodelink"):
            assert read_board(write_board(board, format), format=format) == board
        blank = board.with_states([H] * 7, mines=None)
        assert read_board(write_adjlist(blank), format="adjlist", states=write_states(board)) == board
        assert write_states(board) == "mines: 3\nb 1\ne 2\n"

    def test_every_output_names_cells_by_label(self) -> None:
        board = hexagon()
        a = analyze(board)
        assert a.probability("a") == Fraction(1, 2) and a.probability("g") == 0
        obj = a.to_json()
        assert (obj["safe"], obj["mines"], obj["best"]) == (["g"], ["d", "f"], "g")
        assert obj["labels"] == list(NAMES)
        assert obj["probability"] == [0.5, None, 0.5, 1.0, None, 1.0, 0.0]
        json.dumps(obj)
        report = render_analysis(a)
        assert "safe (1): g" in report and "mines (2): d f" in report and "cell a: 1/2" in report
        e = explain(board, "d")
        assert (e.cell, e.status, e.clues) == ("d", "mine", ("e",))
        assert e.text.startswith("d is certainly a mine") and e.to_json()["clues"] == ["e"]
        assert "<Analysis graph of 7 cells" in repr(a) and "best='g'" in repr(a)

    def test_completions_keep_the_labels(self) -> None:
        completed = solve(hexagon())
        assert completed is not None and completed.labels == NAMES
        assert completed.states[completed.index("d")] == M
        assert completed.states[completed.index("g")] == 0

    def test_labels_json_cannot_hold_are_refused_in_json_only(self) -> None:
        board = Board.from_networkx(nx.grid_2d_graph(2, 2), {(0, 0): 2})
        assert board.labels == ((0, 0), (0, 1), (1, 0), (1, 1))
        a = analyze(board)
        # grid_2d_graph(2, 2) is a 4-cycle: (0, 0)'s two neighbours are mines, (1, 1) is free.
        assert a.solutions == 2 and a.mines == [(0, 1), (1, 0)] and a.best == (1, 1)
        assert board.label(0) == "(0, 0)" and board.index([1, 1]) == 3
        for write in (a.to_json, lambda: write_board(board, "nodelink"),
                      lambda: write_board(board, "graphml")):
            with pytest.raises(FormatError, match=r"cell 0 is labelled \(0, 0\), a tuple: JSON output"):
                write()
        with pytest.raises(FormatError, match="JSON board form cannot hold"):
            write_json(hexagon())

    def test_names_that_would_read_back_differently_are_refused(self) -> None:
        digits = Board.from_networkx(nx.path_graph(["1", "2"]))
        mixed = Board.from_networkx(nx.path_graph([1, "b"]))
        for board, words in ((digits, "strings of digits"), (mixed, "mix strings and numbers")):
            for format in ("graphml", "gml", "adjlist"):
                with pytest.raises(FormatError, match=words):
                    write_board(board, format)
        assert read_board(write_board(mixed, "nodelink")) == mixed      # JSON keeps the types
        spaced = Board.from_networkx(nx.path_graph(["a b", "c"]))
        with pytest.raises(FormatError, match="holds a space"):
            write_board(spaced, "edgelist")
        assert read_board(write_board(spaced, "graphml")) == spaced

    def test_edge_lists_keep_the_order_or_refuse(self) -> None:
        path = Board.from_networkx(nx.Graph([("x", "z"), ("y", "z")]))     # cells x, z, y
        assert read_board(write_board(path, "edgelist"), format="edgelist") == path
        reordered = Board("graph", None, None, ((2,), (2,), (0, 1)), (H, H, H), None, ("x", "y", "z"))
        with pytest.raises(FormatError, match="numbered in the order their names first appear"):
            write_board(reordered, "edgelist")
        assert read_board(write_board(reordered, "adjlist"), format="adjlist") == reordered

    def test_edge_lists_hold_no_states(self) -> None:
        with pytest.raises(FormatError, match="holds no cell states or total: write them alongside"):
            write_edgelist(hexagon())
        lone = Board.from_graph(2, [], "##")
        with pytest.raises(FormatError, match="cell 0 has no neighbours"):
            write_edgelist(lone)
        assert read_board(write_adjlist(lone), format="adjlist") == lone


# ----------------------------------------------------------------- errors

BAD_FILES = [
    # (format, text, error class, message fragment)
    ("graphml", GRAPHML[:400], FormatError, "not a valid GraphML file: no element found"),
    ("graphml", GRAPHML.replace('<node id="g"/>', '<node id="g"/><node id="g"/>'), FormatError,
     "line 13, column 19: node id 'g' is given twice"),
    ("graphml", GRAPHML.replace('<node id="a"/>', ""), FormatError,
     "an edge names node 'a', which no <node> element declares"),
    ("graphml", GRAPHML.replace("</graph>", '</graph><graph edgedefault="undirected"/>'), FormatError,
     "a second graph"),
    ("graphml", GRAPHML.replace('<graphml', '<!DOCTYPE graphml [<!ENTITY x "y">]><graphml'), FormatError,
     "a document type declaration"),
    ("graphml", GRAPHML.replace('<data key="m">3', '<data key="m">three'), FormatError,
     "not a valid GraphML file: invalid literal for int()"),
    ("graphml", GRAPHML.replace('<data key="s">1</data>', '<data key="s">z</data>'), FormatError,
     "node 'b' (attribute 'state'): expected a state"),
    ("graphml", GRAPHML.replace('<data key="s">1</data>', '<data key="s">4</data>'), FormatError,
     "cell 'b': number 4 exceeds its 3 neighbours"),
    ("graphml", '<graphml xmlns="http://graphml.graphdrawing.org/xmlns"/>', FormatError,
     "no <graph> element"),
    ("gml", GML.rstrip()[:-1], FormatError, "not a valid GML file: expected ']', found EOF"),
    ("gml", GML.replace('label "b"', 'label "a"'), FormatError, "the same label 'a'"),
    ("gml", GML.replace('label "b" ', ""), FormatError, "node with id 11 has no label while others"),
    ("gml", GML.replace("target 11 ]", "target 99 ]"), FormatError, "edge #0 has undefined target 99"),
    ("gml", GML.replace("mines 3", "mines 2.5"), FormatError, "expected a whole number of mines"),
    ("gml", GML.replace("source 14 target 15", "source 14 target 14"), FormatError, "node 'e': a loop"),
    ("nodelink", NODE_LINK.replace('{"source": "b", "target": "e"}', '{"source": "b", "target": "z"}'),
     FormatError, '$.links[6].target: expected the id of a node in $.nodes, got "z"'),
    ("nodelink", NODE_LINK.replace('{"id": "g"}', '{"id": "a"}'), FormatError,
     '$.nodes[6].id: node id "a" is given twice'),
    ("nodelink", NODE_LINK.replace('{"id": "g"}', '{"id": [1]}'), FormatError,
     "$.nodes[6].id: expected a node id that is a string or a whole number, got [1]"),
    ("nodelink", NODE_LINK.replace('{"id": "g"}', '{"name": "g"}'), FormatError,
     '$.nodes[6]: expected a node object with an "id"'),
    ("nodelink", NODE_LINK.replace('"links"', '"lines"'), FormatError, 'missing key "edges"'),
    ("nodelink", NODE_LINK[:-3], FormatError, "invalid JSON"),
    ("nodelink", '{"nodes": [], "edges": []}', FormatError, "the graph has no nodes"),
    ("edgelist", "a b\nc\n", FormatError, "line 2, column 1: one node, 'c': an edge list line holds two nodes"),
    ("edgelist", "0 1 2\n", FormatError, "line 1, column 5: expected two nodes 'u v' per line"),
    ("edgelist", "0 1 {'w': }\n", FormatError, "got 4 values"),
    ("edgelist", "a b\nb b\n", FormatError, "line 2, column 3: a loop: node 'b' is joined to itself"),
    ("edgelist", "# nothing\n", FormatError, "the graph has no nodes"),
    ("adjlist", "a b a\n", FormatError, "line 1, column 5: a loop"),
]


@pytest.mark.parametrize("format, text, error, words", BAD_FILES, ids=[w for *_, w in BAD_FILES])
def test_bad_files_say_what_is_wrong(format: str, text: str, error: type, words: str) -> None:
    with pytest.raises(error) as info:
        read_graph_board(text, format)
    assert words in str(info.value), str(info.value)
    with pytest.raises(error):
        read_board(text, format=format)


class TestErrors:
    def test_unknown_labels(self) -> None:
        board = hexagon()
        with pytest.raises(BoardError, match="no cell is labelled 'z'; this board names its cells by their nodes"):
            board.index("z")
        with pytest.raises(BoardError, match="no cell is labelled 0"):
            analyze(board).probability(0)
        with pytest.raises(BoardError, match="states: 'z' is not a node of the graph"):
            Board.from_networkx(nx.Graph(EDGES), {"z": 1})
        with pytest.raises(FormatError, match="states, line 3, column 1: no node 'z' in the graph"):
            read_graph_board(EDGE_LIST, "edgelist", states="b 1\ne 2\nz 1\n")
        with pytest.raises(FormatError, match="states: 1 is not a node of the graph"):
            read_graph_board("a b\n", "edgelist", states={1: "#"})

    def test_non_hashable_or_bad_states(self) -> None:
        with pytest.raises(FormatError, match=r"node 'b': expected a state.*got a list"):
            read_graph_board(EDGE_LIST, "edgelist", states={"b": ["1"]})
        with pytest.raises(BoardError, match=r"node 'b': expected a state.*got a dict"):
            Board.from_networkx(nx.Graph(EDGES), {"b": {}})
        with pytest.raises(BoardError, match="expected the states as a mapping"):
            Board.from_networkx(nx.Graph(EDGES), [1, 2])
        with pytest.raises(FormatError, match="expected the states as a mapping node -> state, the text of a states file"):
            read_graph_board(EDGE_LIST, "edgelist", states=5)
        with pytest.raises(BoardError, match="cell 0: a label must be hashable"):
            Board("graph", None, None, ((1,), (0,)), (H, H), None, ([0], [1]))

    def test_bad_states_files(self) -> None:
        for text, words in [("b 1 2\n", "states, line 1, column 1: expected 'NODE STATE' (two items), got 3"),
                            ("b 1\nb 2\n", "states, line 2, column 1: node 'b' is given twice (first on line 1)"),
                            ("b 1\nmines: 3\n", "states, line 2, column 1: the 'mines:' line must come once"),
                            ("mines: three\n", "states, line 1, column 8: expected a whole number of mines")]:
            with pytest.raises(FormatError) as info:
                read_graph_board(EDGE_LIST, "edgelist", states=text)
            assert words in str(info.value), str(info.value)
        assert read_states("; only a comment\nmines: ?\n") == ({}, None, {})

    def test_arguments(self, tmp_path: Path) -> None:
        with pytest.raises(FormatError, match="expected the graph file as text"):
            read_graph_board(42, "edgelist")
        with pytest.raises(UserError, match="unknown graph format 'dot'"):
            read_graph_board("a b", "dot")
        with pytest.raises(UserError, match="cannot read .*missing.graphml"):
            read_graph_board(tmp_path / "missing.graphml")
        with pytest.raises(FormatError, match="cannot tell the graph format from the content"):
            read_graph_board("a b\n")
        # A file name passed as a str is text; the error says how to read the file.
        path = tmp_path / "h.graphml"
        path.write_text(GRAPHML, encoding="utf-8")
        with pytest.raises(FormatError, match=r"pass pathlib.Path\(...\)"):
            read_graph_board(str(path))
        with pytest.raises(UserError, match="states are given alongside graph files"):
            read_board("#1#", states={"a": 1})
        with pytest.raises(UserError, match="the gml format has fixed symbols"):
            read_board(GML, dialect="dots")
        with pytest.raises(FormatError, match="line 1, column 1: not UTF-8 text"):
            read_graph_board(b"\x89PNG", "edgelist")

    def test_from_networkx_arguments(self) -> None:
        with pytest.raises(BoardError, match="expected a networkx graph"):
            Board.from_networkx({"a": ["b"]})
        with pytest.raises(BoardError, match="the graph has no nodes"):
            Board.from_networkx(nx.Graph())
        with pytest.raises(BoardError, match="node 'a': a loop"):
            Board.from_networkx(nx.Graph([("a", "a")]))
        g = nx.path_graph(2)
        g.graph["mines"] = "two"
        with pytest.raises(BoardError, match="graph attribute 'mines': expected a whole number of mines"):
            Board.from_networkx(g)


# ----------------------------------------------------------------- sizes

class TestLimits:
    @pytest.fixture
    def small(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Limits of 6 nodes and 6 edges (the real ones take millions of lines to reach)."""
        monkeypatch.setattr(graphs, "MAX_CELLS", 6)
        monkeypatch.setattr(graphs, "MAX_EDGES", 6)

    @pytest.mark.parametrize("format, text, words", [
        ("graphml", GRAPHML, "line 13: a graph of more than 6 nodes exceeds the limit of 6 cells"),
        ("gml", GML, "GML: a graph of more than 6 nodes"),
        ("nodelink", NODE_LINK, "$: the JSON holds 16 objects, more than a graph within the limits"),
        ("nodelink", json.dumps({"nodes": [{"id": i} for i in range(7)], "edges": []}),
         "$.nodes: a graph of more than 6 nodes"),
        ("adjlist", "a\nb\nc\nd\ne\nf\ng\n", "line 7: a graph of more than 6 nodes"),
        ("adjlist", "a b c d e f\nb c d\n", "line 2: a graph of more than 6 edges"),
        ("edgelist", "a b\nc d\ne f\ng h\n", "line 4: a graph of more than 6 nodes"),
        ("edgelist", EDGE_LIST, "line 8: a graph of more than 6 edges exceeds the limit of 6 edges"),
    ])
    def test_refused_before_networkx_builds_the_graph(self, small: None, monkeypatch: pytest.MonkeyPatch,
                                                      format: str, text: str, words: str) -> None:
        def never(*args: object, **kwargs: object) -> None:
            raise AssertionError("networkx was asked to build an oversize graph")
        for name in ("parse_graphml", "parse_gml", "node_link_graph", "parse_edgelist", "parse_adjlist"):
            monkeypatch.setattr(nx, name, never)
        with pytest.raises(LimitError) as info:
            read_graph_board(text, format)
        assert words in str(info.value), str(info.value)

    def test_edges_of_graphml_and_gml(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(graphs, "MAX_EDGES", 6)
        with pytest.raises(LimitError, match="line 20: a graph of more than 6 edges"):
            read_graph_board(GRAPHML)
        with pytest.raises(LimitError, match="GML: a graph of more than 6 edges"):
            read_graph_board(GML)
        with pytest.raises(LimitError, match=r"\$.links: a graph of more than 6 edges"):
            read_graph_board(NODE_LINK)

    def test_length_of_the_text(self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
        monkeypatch.setattr(graphs, "MAX_GRAPH_CHARS", 100)
        with pytest.raises(LimitError, match="a graph file of 114 characters exceeds the limit of 100"):
            read_graph_board("0 1\n" * 27 + "0 2\n" + "01", "edgelist")
        big = tmp_path / "big.graphml"
        big.write_text(GRAPHML, encoding="utf-8")
        with pytest.raises(LimitError, match="exceeds the limit of 100 characters"):
            read_graph_board(big)

    def test_from_networkx_checks_the_cell_limit(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import minegraph.board_networkx       # the reader behind Board.from_networkx
        monkeypatch.setattr(minegraph.board_networkx, "MAX_CELLS", 5)
        with pytest.raises(LimitError, match="graph of 6 nodes exceeds the limit of 5 cells"):
            Board.from_networkx(nx.path_graph(6))

    def test_the_documented_limits_are_the_boards(self) -> None:
        from minegraph.formats.json import MAX_EDGES, MAX_JSON_CHARS
        from minegraph.states import MAX_CELLS
        assert (graphs.MAX_CELLS, graphs.MAX_EDGES, graphs.MAX_GRAPH_CHARS) == (MAX_CELLS, MAX_EDGES,
                                                                                MAX_JSON_CHARS)


# ----------------------------------------------------------------- never another exception

FILES = {"graphml": GRAPHML, "gml": GML, "nodelink": NODE_LINK, "edgelist": EDGE_LIST,
         "adjlist": ADJ_LIST}


@settings(max_examples=150, deadline=None)
@given(format=st.sampled_from(GRAPH_FORMATS), data=st.data())
def test_mutated_files_give_a_board_or_a_minegraph_error(format: str, data: st.DataObject) -> None:
    text = FILES[format]
    cut = data.draw(st.integers(0, len(text)))
    insert = data.draw(st.text(alphabet=st.sampled_from(list('<>[]{}"#:; \n/=abg019-') + ["é", "\x00"]),
                               max_size=6))
    drop = data.draw(st.integers(0, 6))
    mutated = text[:cut] + insert + text[cut + drop:]
    try:
        board = read_graph_board(mutated, format)
    except MinegraphError:
        return
    assert isinstance(board, Board) and board.topology == "graph"


def test_import_minegraph_does_not_import_networkx() -> None:
    code = ("import sys, minegraph, minegraph.formats; from minegraph.formats import read_board; "
            "read_board('#1#'); print('networkx' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_read_graph_gives_the_networkx_graph() -> None:
    g = read_graph(GML)
    assert sorted(g.nodes) == list(NAMES) and g.nodes["b"]["state"] == 1 and g.graph["mines"] == 3
    assert BLANK == read_graph_board("a b\n", "edgelist", states={"a": "-"}).states[0]
