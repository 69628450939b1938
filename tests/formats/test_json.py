"""Boards as JSON (FORMATS.md §4): the grid and graph forms, and errors by JSON path."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minegraph.board import BLANK, HIDDEN, MINE, Board
from minegraph.errors import LimitError
from minegraph.formats.json import read_json, to_json_dict, write_json
from minegraph.formats.mine import read_mine

H, M, B = HIDDEN, MINE, BLANK


def grid(**changes) -> dict:
    """A valid grid-form object with some keys changed (None removes a key)."""
    obj = {"rows": 2, "cols": 3, "topology": "square", "mines": 2, "cells": ["#1#", "#1#"]}
    for key, value in changes.items():
        if value is None:
            obj.pop(key)
        else:
            obj[key] = value
    return obj


def graph(**changes) -> dict:
    obj = {"cells": 3, "edges": [[0, 1], [1, 2]], "states": ["#", "2", "#"], "mines": 2}
    obj.update(changes)
    return obj


# ----------------------------------------------------------------- reading
def test_read_grid_form() -> None:
    b = read_json(json.dumps(grid()))
    assert b == Board.grid(2, 3, [H, 1, H, H, 1, H], mines=2)


def test_grid_form_optional_keys() -> None:
    b = read_json({"cells": ["#1", "-M"]})
    assert (b.rows, b.cols, b.topology, b.mines) == (2, 2, "square", None)
    assert b.states == (H, 1, B, M)


def test_grid_form_symbols_and_spaces() -> None:
    assert read_json({"cells": ["# 0 *", "F ◇ 1"]}).states == (H, 0, M, M, B, 1)
    assert read_json({"cells": ["x . ?", "F ◇ 1"]}, dialect="ascii").states == (H, 0, H, M, B, 1)


def test_read_graph_form() -> None:
    b = read_json(graph())
    assert (b.topology, b.rows, b.cols, b.mines) == ("graph", None, None, 2)
    assert b.neighbors == ((1,), (0, 2), (1,))
    assert b.states == (H, 2, H)


def test_graph_form_without_edges() -> None:
    assert read_json({"cells": 2, "states": ["#", "0"]}).neighbors == ((), ())


def test_sample_files(gen) -> None:
    beginner = read_json((gen.data / "beginner.json").read_text(encoding="utf-8"))
    assert beginner == read_mine((gen.data / "beginner.mine").read_text(encoding="utf-8"))
    pentagon = read_json((gen.data / "pentagon.json").read_text(encoding="utf-8"))
    assert pentagon.neighbors == ((1, 4), (0, 2), (1, 3), (2, 4), (0, 3))
    assert (pentagon.hidden_count, pentagon.mines) == (3, 2)


# ----------------------------------------------------------------- writing
def test_write_grid_exact() -> None:
    b = Board.grid(1, 2, [H, 1], topology="torus")
    assert write_json(b) == ('{\n  "rows": 1,\n  "cols": 2,\n  "topology": "torus",\n'
                             '  "mines": null,\n  "cells": [\n    "#1"\n  ]\n}\n')


def test_write_graph_exact() -> None:
    b = Board.from_graph(3, [(2, 1), (0, 1)], [H, 2, M], mines=2)
    assert write_json(b) == ('{\n  "cells": 3,\n  "edges": [\n    [0, 1],\n    [1, 2]\n  ],\n'
                             '  "states": [\n    "#",\n    "2",\n    "M"\n  ],\n  "mines": 2\n}\n')
    assert json.loads(write_json(b)) == to_json_dict(b)


def test_write_graph_without_edges() -> None:
    assert '"edges": []' in write_json(Board.from_graph(1, [], [0]))


@given(data=st.data())
def test_round_trip_random_grids(gen, data) -> None:
    board = data.draw(gen.grid_boards())
    assert read_json(write_json(board)) == board
    assert read_json(to_json_dict(board)) == board


@given(data=st.data())
def test_round_trip_random_graphs(gen, data) -> None:
    board = data.draw(gen.graph_boards())
    assert read_json(write_json(board)) == board


# ----------------------------------------------------------------- errors: syntax and shape
def test_invalid_json_syntax(gen) -> None:
    gen.raises_at(read_json, '{\n  "cells": ["#1",\n  ]\n}', 3, 3, "invalid JSON")


def test_empty_input(gen) -> None:
    gen.raises_at(read_json, "", 1, 1, "invalid JSON: Expecting value")


def test_not_an_object(gen) -> None:
    gen.raises_at(read_json, '["#1#"]', None, None, "expected a JSON object describing a board, got a list",
                  path="$")


def test_missing_cells(gen) -> None:
    gen.raises_at(read_json, '{"rows": 1}', None, None, 'missing key "cells"', path="$")


def test_cells_of_the_wrong_type(gen) -> None:
    gen.raises_at(read_json, '{"cells": "#1#"}', None, None, "got the string '#1#'", path="$.cells")
    gen.raises_at(read_json, '{"cells": true, "states": []}', None, None, "got a boolean", path="$.cells")


def test_unknown_key(gen) -> None:
    gen.raises_at(read_json, json.dumps(grid(topolgy="hex")), None, None, "unknown key for a grid board",
                  path="$.topolgy")


# ----------------------------------------------------------------- errors: grid form
def test_unknown_symbol(gen) -> None:
    gen.raises_at(read_json, json.dumps(grid(cells=["#1#", "#@#"])), None, 2, "unknown symbol '@'",
                  path="$.cells[1]")


def test_ragged_rows(gen) -> None:
    gen.raises_at(read_json, json.dumps(grid(cells=["#1#", "#1#", "##"], rows=None)), None, 3,
                  "row has 2 cells but row 0 has 3", path="$.cells[2]")


def test_row_not_a_string(gen) -> None:
    gen.raises_at(read_json, json.dumps(grid(cells=["#1#", 7])), None, None,
                  "expected a row string of cell symbols, got the number 7", path="$.cells[1]")


def test_empty_rows(gen) -> None:
    gen.raises_at(read_json, json.dumps(grid(cells=[])), None, None, "at least one row", path="$.cells")
    gen.raises_at(read_json, json.dumps(grid(cells=[" "])), None, None, "at least one cell",
                  path="$.cells[0]")


def test_rows_and_cols_must_match_cells(gen) -> None:
    gen.raises_at(read_json, json.dumps(grid(rows=3)), None, None, "says 3, but cells has 2 rows",
                  path="$.rows")
    gen.raises_at(read_json, json.dumps(grid(cols="3")), None, None, "got the string '3'", path="$.cols")


def test_unknown_topology(gen) -> None:
    gen.raises_at(read_json, json.dumps(grid(topology="cube")), None, None,
                  "expected a topology, one of square, triangle, hex, torus, got the string 'cube'",
                  path="$.topology")


def test_nine_on_square_grid(gen) -> None:
    gen.raises_at(read_json, json.dumps(grid(cells=["###", "#9#", "###"], rows=3)), None, 2,
                  "the square grid allows at most 8", path="$.cells[1]")


def test_c_on_hex_grid(gen) -> None:
    gen.raises_at(read_json, json.dumps(grid(cells=["###", "#c#", "###"], rows=3, topology="hex")),
                  None, 2, "the hex grid allows at most 6", path="$.cells[1]")


def test_number_larger_than_corner_neighbourhood(gen) -> None:
    gen.raises_at(read_json, json.dumps(grid(cells=["4##", "###"])), None, 1,
                  "this cell has only 3 neighbours", path="$.cells[0]")


@pytest.mark.parametrize("mines, words", [
    (-1, "mine count -1 is outside 0..6"),
    (7, "mine count 7 is outside 0..6"),
    (True, "got a boolean"),
    (2.5, "got the number 2.5"),
])
def test_bad_total(gen, mines, words) -> None:
    gen.raises_at(read_json, json.dumps(grid(mines=mines)), None, None, words, path="$.mines")


# ----------------------------------------------------------------- errors: graph form
@pytest.mark.parametrize("edges, path, words", [
    ({"0": 1}, "$.edges", "expected a list of [u, v] pairs, got an object"),
    ([[0, 1], [1]], "$.edges[1]", "expected a pair [u, v] of cell numbers, got a list of length 1"),
    ([[0, 1], 5], "$.edges[1]", "got the number 5"),
    ([[0, 1], [1, 2], [1, "2"]], "$.edges[2][1]", "expected a cell number 0..2, got the string '2'"),
    ([[0, 1], [1, 2], [3, 1]], "$.edges[2][0]", "expected a cell number 0..2, got 3"),
    ([[0, -1]], "$.edges[0][1]", "got -1"),
    ([[0, 1], [2, 2]], "$.edges[1]", "a loop on cell 2 is not allowed"),
])
def test_bad_edges(gen, edges, path, words) -> None:
    gen.raises_at(read_json, json.dumps(graph(edges=edges)), None, None, words, path=path)


def test_bad_cell_count(gen) -> None:
    gen.raises_at(read_json, json.dumps(graph(cells=0, edges=[], states=[])), None, None,
                  "at least one cell, got 0", path="$.cells")


def test_hostile_cell_count() -> None:
    with pytest.raises(LimitError, match=r"\$\.cells: graph of 10000000 cells exceeds the limit"):
        read_json(graph(cells=10_000_000))


def test_hostile_grid_size() -> None:
    with pytest.raises(LimitError, match=r"\$\.cells: board of 1001x1000 cells exceeds the limit"):
        read_json({"cells": ["#" * 1000] * 1001})


def test_missing_states(gen) -> None:
    gen.raises_at(read_json, '{"cells": 2}', None, None, 'missing key: a graph board needs "states"', path="$")


def test_states_of_the_wrong_length(gen) -> None:
    gen.raises_at(read_json, json.dumps(graph(states=["#", "1"])), None, None,
                  "expected 3 states (one per cell), got 2", path="$.states")


@pytest.mark.parametrize("symbol, words", [("@", "unknown symbol '@'; expected one of"), (2, "got the number 2"),
                                           ("##", "got the string '##'")])
def test_unknown_state_symbol(gen, symbol, words) -> None:
    gen.raises_at(read_json, json.dumps(graph(states=["#", "1", symbol])), None, None, words,
                  path="$.states[2]")


def test_number_larger_than_graph_degree(gen) -> None:
    gen.raises_at(read_json, json.dumps(graph(states=["2", "1", "#"])), None, None,
                  "number 2 is too large: this cell has only 1 neighbours", path="$.states[0]")


def test_graph_form_rejects_grid_keys_and_topologies(gen) -> None:
    gen.raises_at(read_json, json.dumps(graph(rows=1)), None, None, "unknown key for a graph board",
                  path="$.rows")
    gen.raises_at(read_json, json.dumps(graph(topology="square")), None, None,
                  'expected "graph" or no topology', path="$.topology")
    assert read_json(graph(topology="graph")) == read_json(graph())
