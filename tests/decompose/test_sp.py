"""Series-parallel recognition: ORIENT-SP-GRAPH, the Valdes-Tarjan-Lawler reductions, the
construction tree and its width-2 tree decomposition."""

from __future__ import annotations

import random

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minegraph.decompose.decomposition import is_tree_decomposition
from minegraph.decompose.sp import (construction_tree_decomposition, has_k4_minor,
                                          is_series_parallel, orient_sp_graph, recognize_ttsp,
                                          series_parallel_tree)
from minegraph.errors import MinegraphError

from strategies import examples


def _build(expr: object, s: int = 0, t: int = 1, edges: list[tuple[int, int]] | None = None,
           fresh: list[int] | None = None) -> list[tuple[int, int]]:
    """The edges of a series-parallel expression: ``"e"`` an edge, ``("S", x, y)`` and
    ``("P", x, y)`` the series and parallel compositions; terminals 0 and 1."""
    edges = [] if edges is None else edges
    fresh = [2] if fresh is None else fresh
    if expr == "e":
        edges.append((s, t))
    elif expr[0] == "S":  # type: ignore[index]
        m = fresh[0]
        fresh[0] += 1
        _build(expr[1], s, m, edges, fresh)  # type: ignore[index]
        _build(expr[2], m, t, edges, fresh)  # type: ignore[index]
    else:
        _build(expr[1], s, t, edges, fresh)  # type: ignore[index]
        _build(expr[2], s, t, edges, fresh)  # type: ignore[index]
    return edges


def _random_sp(rng: random.Random, operations: int) -> nx.Graph:
    """A random two-terminal series-parallel graph (0 and 1 the terminals), by subdividing
    or doubling random edges, simple and with shuffled labels."""
    g = nx.MultiGraph([(0, 1)])
    fresh = 2
    for _ in range(operations):
        u, v, k = rng.choice(list(g.edges(keys=True)))
        if rng.random() < 0.5:
            g.remove_edge(u, v, k)
            g.add_edges_from([(u, fresh), (fresh, v)])
            fresh += 1
        else:
            g.add_edge(u, v)
    simple = nx.Graph(g)
    labels = list(simple)
    rng.shuffle(labels)
    return nx.relabel_nodes(simple, dict(zip(list(simple), labels)))


KNOWN_NOT_SP = {
    "K4": nx.complete_graph(4),
    "K3,3": nx.complete_bipartite_graph(3, 3),
    "wheel W5": nx.wheel_graph(6),
    "Petersen": nx.petersen_graph(),
    "3x3 grid": nx.grid_2d_graph(3, 3),
    "K5": nx.complete_graph(5),
}


@pytest.mark.parametrize("name", sorted(KNOWN_NOT_SP))
def test_known_graphs_are_not_series_parallel(name: str) -> None:
    g = KNOWN_NOT_SP[name]
    assert has_k4_minor(g)
    assert series_parallel_tree(g, exhaustive=True) is None     # every pair s, t tried
    assert not is_series_parallel(g)


def test_nested_series_and_parallel_compositions_are() -> None:
    nested = ("P", ("S", ("P", "e", ("S", "e", "e")), ("P", "e", ("S", "e", "e"))),
              ("S", ("S", "e", ("P", ("S", "e", "e"), ("S", "e", ("P", "e", ("S", "e", "e"))))), "e"))
    g = nx.Graph(_build(nested))
    assert g.number_of_nodes() == 10 and g.number_of_edges() == 14 and nx.is_biconnected(g)
    found = series_parallel_tree(g, exhaustive=True)
    assert found is not None
    s, t, tree = found
    assert sorted(map(sorted, map(list, tree.leaves()))) == sorted(map(sorted, map(list, g.edges)))
    td = construction_tree_decomposition(tree)
    assert td.width == 2 and is_tree_decomposition(g, td)
    for small in (nx.cycle_graph(7), nx.complete_bipartite_graph(2, 5), nx.path_graph(4),
                  nx.complete_graph(3), nx.Graph([(0, 1)])):
        assert is_series_parallel(small, exhaustive=True)
    # A star has three leaves: not two-terminal series-parallel (every block of it is, though).
    assert not is_series_parallel(nx.star_graph(3))


def test_the_reductions_check_the_orientation() -> None:
    """Valdes-Tarjan-Lawler recognise two-terminal SP digraphs: the Wheatstone bridge is not
    SP from s to t (ORIENT-SP-GRAPH cannot even orient its middle edge that way), but it is
    between the ends of its middle edge."""
    bridge = [("s", "a"), ("s", "b"), ("a", "b"), ("a", "t"), ("b", "t")]
    assert recognize_ttsp(bridge, "s", "t") is None
    g = nx.Graph(bridge)
    assert sorted(orient_sp_graph(g, "s", "t")) == [("a", "t"), ("b", "t"), ("s", "a"), ("s", "b")]
    s, t, tree = series_parallel_tree(g)
    assert (s, t) == ("a", "b") and tree.kind == "parallel"
    assert recognize_ttsp([(0, 1), (1, 0)], 0, 1) is None                 # a cycle
    tree = recognize_ttsp([(0, 1), (0, 1), (1, 2)], 0, 2)
    assert tree is not None and tree.kind == "series" and tree.middle == 1
    assert tree.children[0].kind == "parallel"


def test_the_thesis_split_misses_some_series_parallel_graphs() -> None:
    """ZORIENTUJ-SP-GRAF as written recurses into components of the graph of the remaining
    edges; here, after the paths 0-2-1 and 0-3-1 and 0-4-1, the rest hangs as 0-6-3 and
    1-5-2, which touch the current path 0-4-1 only at 0 and 1: no pair s, t works. Splitting
    into the bridges of each path (what the proof of Statement 10 uses) finds it."""
    g = nx.Graph([(0, 2), (0, 3), (0, 4), (0, 6), (1, 2), (1, 3), (1, 4), (1, 5), (2, 5), (3, 6)])
    assert not has_k4_minor(g) and nx.is_biconnected(g)
    assert series_parallel_tree(g, exhaustive=True, split="thesis") is None
    s, t, _ = series_parallel_tree(g, exhaustive=True)
    assert (s, t) == (0, 2)
    with pytest.raises(MinegraphError, match="unknown split"):
        orient_sp_graph(g, 0, 1, split="nope")


@settings(max_examples=examples(400), deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 30))
def test_random_series_parallel_graphs_are_recognised(seed: int, operations: int) -> None:
    g = _random_sp(random.Random(seed), operations)
    found = series_parallel_tree(g, exhaustive=True)
    assert found is not None
    td = construction_tree_decomposition(found[2])
    assert td.width <= 2 and is_tree_decomposition(g, td)


@settings(max_examples=examples(400), deadline=None)
@given(st.integers(3, 9), st.integers(0, 10**9))
def test_recognition_agrees_with_the_k4_minor_test(n: int, seed: int) -> None:
    """On 2-connected graphs, series-parallel (some pair of terminals) iff no K4 minor
    (Duffin 1965); and the K4 shortcut never changes the answer."""
    rng = random.Random(seed)
    g = nx.gnm_random_graph(n, rng.randint(n, 2 * n), seed=seed)
    if not nx.is_biconnected(g):
        return
    exhaustive = series_parallel_tree(g, exhaustive=True) is not None
    assert exhaustive == (not has_k4_minor(g)) == is_series_parallel(g)
