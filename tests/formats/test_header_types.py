"""Issue 34, item 1: every header field of every format, given a value of the wrong type, is
refused with a :class:`~minegraph.errors.FormatError` that says where and what was expected;
never a ``ValueError`` or ``TypeError`` from inside a reader, and never a silent misread.

The text reader's fast path (``_plain_grid``) once took ``mines: lots`` for a number and
raised ``int()``'s ``ValueError``; its words ``unknown`` and ``none`` (an unknown total) went
the same way.
"""

from __future__ import annotations

import pytest

from minegraph.cli import EXIT_USAGE, main
from minegraph.errors import FormatError
from minegraph.formats import read_board
from minegraph.formats.graphs import read_graph_board

GRID = "###\n#1#\n###\n"


@pytest.mark.parametrize("value", ["lots", "x", "abc", "ten", "1.5", "3e2", "-", "mines"])
@pytest.mark.parametrize("topology", [None, "hex"])
def test_text_mines_header_that_is_not_a_number(gen, value: str, topology: str | None) -> None:
    header = f"mines: {value}\n" + (f"topology: {topology}\n" if topology else "")
    gen.raises_at(lambda t: read_board(t, "text"), header + GRID, 1, 8,
                  f"expected a whole number of mines, got {value!r}")


@pytest.mark.parametrize("value", ["unknown", "none", "?", "UNKNOWN"])
def test_text_words_for_an_unknown_total_still_read(value: str) -> None:
    board = read_board(f"mines: {value}\n{GRID}", "text")
    assert board.mines is None and board.states == (-1, -1, -1, -1, 1, -1, -1, -1, -1)


@pytest.mark.parametrize("header, column, words", [
    ("topology: 5", 11, "unknown topology '5'; expected one of square"),
    ("topology: lots", 11, "unknown topology 'lots'; expected one of square"),
    ("dialect: 3", 10, "unknown dialect '3'; expected one of standard"),
    ("mines: -1", 8, "mine count -1 is outside 0..9"),
])
def test_text_other_headers(gen, header: str, column: int, words: str) -> None:
    gen.raises_at(lambda t: read_board(t, "text"), f"{header}\n{GRID}", 1, column, words)


@pytest.mark.parametrize("text, column", [
    ("3x1xlots\nHHH", 5), ("ax1x1\nHHH", 1), ("3xbx1\nHHH", 3), ("1.5x1x1\nH", 2), ("3x1x1.0\nHHH", 6),
    ("3x1x-1\nHHH", 5),
])
def test_mine_header_fields(gen, text: str, column: int) -> None:
    gen.raises_at(lambda t: read_board(t, "mine"), text, 1, column, "expected the header 'WxHxM'")


@pytest.mark.parametrize("text, column, words", [
    ("x 3 1\n9 9 9", 1, "expected the number of rows (an integer), got 'x'"),
    ("1.0 3 1\n9 9 9", 1, "expected the number of rows (an integer), got '1.0'"),
    ("1 x 1\n9 9 9", 3, "expected the number of columns (an integer), got 'x'"),
    ("1 3 lots\n9 9 9", 5, "expected the number of mines (an integer, 0 if not specified), got 'lots'"),
    ("1 3 1.5\n9 9 9", 5, "expected the number of mines (an integer, 0 if not specified), got '1.5'"),
])
def test_numeric_header_fields(gen, text: str, column: int, words: str) -> None:
    gen.raises_at(lambda t: read_board(t, "numeric"), text, 1, column, words)


_GRID_JSON = '"cells": ["###", "#1#", "###"]'


@pytest.mark.parametrize("field, value, words", [
    ("mines", '"lots"', "expected a whole number of mines or null (unknown), got the string 'lots'"),
    ("mines", "1.5", "expected a whole number of mines or null (unknown), got the number 1.5"),
    ("mines", "true", "expected a whole number of mines or null (unknown), got a boolean"),
    ("mines", "[1]", "expected a whole number of mines or null (unknown), got a list"),
    ("mines", "NaN", "expected a whole number of mines or null (unknown), got the number nan"),
    ("rows", '"3"', "expected the number of rows (a whole number), got the string '3'"),
    ("rows", "3.0", "expected the number of rows (a whole number), got the number 3.0"),
    ("cols", "[3]", "expected the number of cols (a whole number), got a list"),
    ("cols", "false", "expected the number of cols (a whole number), got a boolean"),
    ("topology", "5", "expected a topology, one of square, triangle, hex, torus, got the number 5"),
    ("topology", '["hex"]', "expected a topology, one of square, triangle, hex, torus, got a list"),
    ("topology", '{"a": 1}', "expected a topology, one of square, triangle, hex, torus, got an object"),
])
def test_json_grid_fields(gen, field: str, value: str, words: str) -> None:
    gen.raises_at(lambda t: read_board(t, "json"), f'{{{_GRID_JSON}, "{field}": {value}}}', None, None,
                  words, path=f"$.{field}")


@pytest.mark.parametrize("field, value, words", [
    ("mines", '"2"', "expected a whole number of mines or null (unknown), got the string '2'"),
    ("mines", "0.5", "expected a whole number of mines or null (unknown), got the number 0.5"),
    ("topology", "7", 'expected "graph" or no topology, got the number 7'),
    ("states", '"#1"', "expected a list of 2 cell symbols, got the string '#1'"),
    ("edges", '"0-1"', "expected a list of [u, v] pairs, got the string '0-1'"),
])
def test_json_graph_fields(gen, field: str, value: str, words: str) -> None:
    obj = {"cells": "2", "edges": "[[0, 1]]", "states": '["#", "1"]'}
    obj[field] = value
    text = "{" + ", ".join(f'"{k}": {v}' for k, v in obj.items()) + "}"
    gen.raises_at(lambda t: read_board(t, "json"), text, None, None, words, path=f"$.{field}")


@pytest.mark.parametrize("value", ["2.0", '"two"', "true", '{"n": 2}'])
def test_json_cells_of_the_wrong_type(gen, value: str) -> None:
    gen.raises_at(lambda t: read_board(t, "json"), f'{{"cells": {value}}}', None, None,
                  "expected a list of row strings (grid) or a number of cells (graph)", path="$.cells")


_NODE = '{"id": 0, "state": "#"}'


@pytest.mark.parametrize("graph, words", [
    ('{"mines": "lots"}', "graph attribute 'mines': expected a whole number of mines"),
    ('{"mines": 1.5}', "graph attribute 'mines': expected a whole number of mines"),
    ('{"mines": true}', "graph attribute 'mines': expected a whole number of mines"),
    ('{"mines": [1]}', "graph attribute 'mines': expected a whole number of mines"),
    ('[]', "expected an object of graph attributes"),
])
def test_nodelink_graph_attributes(graph: str, words: str) -> None:
    with pytest.raises(FormatError, match="expected") as info:
        read_board(f'{{"graph": {graph}, "nodes": [{_NODE}], "edges": []}}', "nodelink")
    assert words in str(info.value)


@pytest.mark.parametrize("state", ["1.5", "[1]", "true"])
def test_nodelink_state_of_the_wrong_type(state: str) -> None:
    with pytest.raises(FormatError) as info:
        read_board(f'{{"nodes": [{{"id": 0, "state": {state}}}], "edges": []}}', "nodelink")
    assert "node 0 (attribute 'state'): expected a state" in str(info.value)


@pytest.mark.parametrize("value, words", [
    ('"lots"', "graph attribute 'mines': expected a whole number of mines"),
    ("1.5", "graph attribute 'mines': expected a whole number of mines"),
])
def test_gml_mines_attribute(value: str, words: str) -> None:
    with pytest.raises(FormatError) as info:
        read_board(f'graph [\n mines {value}\n node [ id 0 state "#" ]\n]', "gml")
    assert words in str(info.value)


def _graphml(key_for: str, name: str, kind: str, graph_data: str = "", node_data: str = "") -> str:
    return ('<?xml version="1.0"?><graphml xmlns="http://graphml.graphdrawing.org/xmlns">'
            f'<key id="k" for="{key_for}" attr.name="{name}" attr.type="{kind}"/>'
            f'<graph edgedefault="undirected">{graph_data}<node id="a">{node_data}</node></graph></graphml>')


@pytest.mark.parametrize("text, words", [
    (_graphml("graph", "mines", "string", graph_data='<data key="k">lots</data>'),
     "graph attribute 'mines': expected a whole number of mines"),
    (_graphml("graph", "mines", "double", graph_data='<data key="k">1.5</data>'),
     "graph attribute 'mines': expected a whole number of mines"),
    (_graphml("graph", "mines", "int", graph_data='<data key="k">lots</data>'), "not a valid GraphML file"),
    (_graphml("node", "state", "double", node_data='<data key="k">1.5</data>'),
     "node 'a' (attribute 'state'): expected a state"),
])
def test_graphml_attributes(text: str, words: str) -> None:
    with pytest.raises(FormatError) as info:
        read_board(text, "graphml")
    assert words in str(info.value)


@pytest.mark.parametrize("states, column, words", [
    ("mines: lots\n0 #\n", 8, "expected a whole number of mines, got 'lots'"),
    ("mines: 1.5\n", 8, "expected a whole number of mines, got '1.5'"),
    ("mines: -1\n", 8, "expected a whole number of mines, got '-1'"),
])
def test_states_file_mines_line(gen, states: str, column: int, words: str) -> None:
    gen.raises_at(lambda s: read_graph_board("0 1\n", "edgelist", states=s), states, 1, column, words,
                  path="states")


def test_the_cli_says_it_in_one_line(tmp_path, capsys) -> None:
    path = tmp_path / "lots.board"
    path.write_text(f"mines: lots\n{GRID}")
    assert main(["analyze", str(path)]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "line 1, column 8: expected a whole number of mines, got 'lots'" in err
