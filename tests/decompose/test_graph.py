"""The board graph, sets with a shell (Definition 4, Statement 1) and interfaces (Statement 4)."""

from __future__ import annotations

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minegraph import Board
from minegraph.board import BLANK, HIDDEN, MINE
from minegraph.decompose.graph import board_graph
from strategies import graph_positions, positions, examples

SETTINGS = settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_figure_2_1_graph() -> None:
    """Thesis figure 2.1 (its ◇ written ``-``): numbers join exactly their mine and unknown
    neighbours; ◇ cells are no vertices."""
    g = board_graph(Board.from_text("#####\n1-2-1\n00000"))
    assert sorted(g.numbers) == [5, 7, 9, 10, 11, 12, 13, 14]
    assert not g.mines and sorted(g.unknowns) == [0, 1, 2, 3, 4]
    assert 6 not in g.graph and 8 not in g.graph
    assert sorted(g.neighbors(5)) == [0, 1] and sorted(g.neighbors(7)) == [1, 2, 3]
    assert all(g.neighbors(p) == [] for p in range(10, 15))   # the 0s: isolated vertices
    with_mine = board_graph(Board.from_text("#M#\n1-1"))
    assert sorted(with_mine.neighbors(3)) == [0, 1] and sorted(with_mine.mines) == [1]


@SETTINGS
@given(st.one_of(positions(), graph_positions()))
def test_the_graph_is_bipartite_between_numbers_and_the_rest(board: Board) -> None:
    g = board_graph(board)
    assert set(g.graph) == {v for v, s in enumerate(board.states) if s != BLANK}
    for u, v in g.graph.edges:
        number, other = (u, v) if u in g.numbers else (v, u)
        assert number in g.numbers and board.states[other] in (HIDDEN, MINE)
        assert other in board.neighbors[number]
    for p in g.numbers:
        assert set(g.neighbors(p)) == {q for q in board.neighbors[p] if board.states[q] in (HIDDEN, MINE)}


@SETTINGS
@given(positions(), st.data())
def test_shells_are_closed_under_union_and_intersection(board: Board, data: st.DataObject) -> None:
    """Statement 1, on shelled sets built as a number's closed neighbourhood plus extras."""
    g = board_graph(board)
    vertices = sorted(g.graph)
    shelled = []
    for _ in range(2):
        seeds = data.draw(st.lists(st.sampled_from(vertices), max_size=4)) if vertices else []
        x = set(seeds)
        for p in list(x):
            x.update(g.neighbors(p) if p in g.numbers else [])
        assert g.has_shell(x)
        shelled.append(x)
    assert g.has_shell(shelled[0] | shelled[1]) and g.has_shell(shelled[0] & shelled[1])


@SETTINGS
@given(positions(), st.data())
def test_both_sides_of_an_interface_have_a_shell(board: Board, data: st.DataObject) -> None:
    """Statement 4: for an interface J, every component X of G - J gives a shelled X ∪ J."""
    g = board_graph(board)
    candidates = sorted(g.mines | g.unknowns)
    cut = set(data.draw(st.lists(st.sampled_from(candidates), max_size=5))) if candidates else set()
    if not g.is_interface(cut):
        return
    sides = g.interface_sides(cut)
    assert len(sides) >= 2
    assert all(g.has_shell(side) for side in sides)


def test_interfaces_are_cuts_of_mines_and_unknowns_only() -> None:
    g = board_graph(Board.from_text("1#1#1"))
    assert g.is_interface({1}) and g.is_interface({3}) and g.is_interface({1, 3})
    assert not g.is_interface({2})                 # a number is never part of an interface
    assert not g.is_interface(set())
    assert not board_graph(Board.from_text("1##")).is_interface({1})   # nothing separated
    assert nx.number_connected_components(g.graph) == 1
