"""The label rules (:mod:`minegraph.labels`): checked by hand, and held to being the one rule
of the board and the graph files (the same labels accepted and refused, and named the same
way, by ``Board`` and by :mod:`minegraph.formats.graphs`)."""

from __future__ import annotations

import json

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minegraph.board import Board
from minegraph.errors import BoardError, FormatError
from minegraph.formats.graphs import read_graph_board
from minegraph.labels import (as_key, cell_order, is_json_label, json_labels, label_from_text,
                              label_index, plain, same_label, text_names)


def test_the_rules_by_hand() -> None:
    assert cell_order([5, -1, 3]) == [-1, 3, 5] and cell_order([5, "a", 3]) == [5, "a", 3]
    assert cell_order([True, 0]) == [True, 0]           # a bool is not an int node here
    assert plain([0, 1, 2]) and not plain([0, 2]) and not plain([1, 0]) and plain([])
    assert not plain([0, True])
    assert label_index(["x", (1, 2), 3]) == {"x": 0, (1, 2): 1, 3: 2}
    with pytest.raises(BoardError, match="cells 0 and 2 have the same label True"):
        label_index([1, "1", True])                      # 1 == True: one label
    with pytest.raises(BoardError, match="cell 1: a label must be hashable.*got a list"):
        label_index(["a", ["b"]])
    assert same_label(0, 0) and same_label(False, False) and not same_label(0, False)
    assert [is_json_label(v) for v in ("", 0, -7, True, 1.0, None, (0,))] == \
        [True, True, True, False, False, False, False]
    assert as_key([[0, 1], 2]) == ((0, 1), 2) and as_key("ab") == "ab"
    assert text_names(["1", 1, 2, False]) == {"1": "1", "2": 2}     # the first keeps "1"
    assert label_from_text([10, -3], "-3") == -3 and label_from_text([10], "x") is None


def test_json_labels_name_the_cell() -> None:
    assert json_labels(["a", 3]) == ["a", 3]
    with pytest.raises(FormatError, match=r"cell 1 is labelled True, a bool"):
        json_labels(["a", True])


def test_a_negative_number_label_is_typed_as_written() -> None:
    """The one reading of a label written as text serves the command line's cells and the
    states files alike; a negative number is found by both."""
    board = Board.from_networkx(nx.path_graph([-1, "a", 5]))
    assert board.parse_cell("-1") == -1 and board.parse_cell(" a ") == "a"
    with pytest.raises(BoardError, match="expected one of the graph's node labels"):
        board.parse_cell("True")
    nodelink = {"nodes": [{"id": -1}, {"id": "a"}, {"id": 5}],
                "edges": [{"source": -1, "target": "a"}, {"source": "a", "target": 5}]}
    read = read_graph_board(json.dumps(nodelink), "nodelink", states="-1 #\na 1\n5 #\n")
    assert read.labels == (-1, "a", 5) and read.states == (-1, 1, -1)


def test_node_link_ids_follow_the_json_label_rule() -> None:
    for bad in (True, 1.5, None, [0]):
        text = json.dumps({"nodes": [{"id": bad}], "edges": []})
        with pytest.raises(FormatError, match="expected a node id that is a string or a whole number"):
            read_graph_board(text, "nodelink")
        assert not is_json_label(bad)


def test_gml_labels_follow_the_distinct_label_rule() -> None:
    text = 'graph [\n node [ id 0 label "a" ]\n node [ id 1 label "a" ]\n]'
    with pytest.raises(FormatError, match="nodes with ids 0 and 1 have the same label 'a'"):
        read_graph_board(text, "gml")


LABELS = st.one_of(st.integers(-50, 50), st.text("abc-_1", min_size=1, max_size=3),
                   st.tuples(st.integers(0, 3), st.integers(0, 3)))


@settings(max_examples=60, deadline=None)
@given(st.lists(LABELS, min_size=1, max_size=6, unique_by=lambda v: (type(v), v)))
def test_the_board_and_the_files_accept_the_same_labels(labels: list[object]) -> None:
    """Labels that are valid for a board are exactly those the rule accepts; JSON output holds
    exactly the labels :func:`is_json_label` accepts; a board written as node-link JSON reads
    back with the same labels whenever its labels are JSON labels."""
    try:
        table = label_index(labels)
    except BoardError:
        with pytest.raises(BoardError):
            Board.from_networkx(nx.empty_graph(labels))
        return
    graph = nx.empty_graph(labels)
    board = Board.from_networkx(graph)
    order = cell_order(labels)
    assert board.labels == (None if plain(order) else tuple(order))
    assert all(board.index(v) == order.index(v) for v in table)
    if all(is_json_label(v) for v in labels):
        from minegraph.formats.graphs import write_nodelink
        back = read_graph_board(write_nodelink(board), "nodelink")
        assert back == board
    elif board.labels is not None:
        with pytest.raises(FormatError):
            board.json_labels()
