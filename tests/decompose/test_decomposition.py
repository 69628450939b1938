"""General decompositions: the checker, width, and composition (Statement 6) with its bound."""

from __future__ import annotations

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from networkx.algorithms.approximation import treewidth_min_degree

from minegraph import Board
from minegraph.decompose.bipartite import bipartite_decomposition, remove_redundant_edges
from minegraph.decompose.decomposition import (Decomposition, compose, composition_bound,
                                                     contract_subsets, decomposition_violations,
                                                     elimination_order, is_decomposition,
                                                     is_tree_decomposition, link_components)
from minegraph.decompose.graph import board_graph
from strategies import positions, examples

SETTINGS = settings(max_examples=examples(1000), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _as_decomposition(tree: nx.Graph) -> Decomposition:
    """networkx's (width, tree of frozensets) decomposition as ours."""
    nodes = list(tree.nodes)
    index = {bag: i for i, bag in enumerate(nodes)}
    return Decomposition.build(nodes, [(index[a], index[b]) for a, b in tree.edges])


def test_the_checker_names_each_broken_condition() -> None:
    g = nx.Graph([(0, 1), (1, 2)])
    g.add_node(3)
    assert decomposition_violations(g, Decomposition.build([{0, 1}, {1, 2}, {3}], [(0, 1)])) == []
    assert decomposition_violations(g, Decomposition.build([{0, 1}, {1, 2}], [(0, 1)])) == [
        "vertex 3 is in no bag"]
    assert decomposition_violations(g, Decomposition.build([{0, 1}, {2}, {3}], [(0, 1)])) == [
        "edge (1, 2) is in no bag"]
    assert decomposition_violations(g, Decomposition.build([{0, 1}, {3}, {1, 2}], [(0, 1), (1, 2)])) == [
        "the bags holding vertex 1 are not connected"]
    assert not is_decomposition(g, Decomposition.build([{0, 1, 2, 3, 9}], []))


def test_width_and_shape() -> None:
    cycle = Decomposition.build([{0, 1}, {1, 2}, {2, 3}, {3, 0}], [(0, 1), (1, 2), (2, 3), (3, 0)])
    assert cycle.width == 1 and not cycle.is_tree() and not cycle.is_forest()
    assert is_decomposition(nx.cycle_graph(4), cycle)
    assert not is_tree_decomposition(nx.cycle_graph(4), cycle)
    assert Decomposition.build([], []).width == -1


def test_composition_of_a_small_example() -> None:
    """Statement 6 on a path 0-1-2-3-4: H has the edges' bags in a path, M pairs them up."""
    g = nx.path_graph(5)
    h = Decomposition.build([{0, 1}, {1, 2}, {2, 3}, {3, 4}], [(0, 1), (1, 2), (2, 3)])
    m = Decomposition.build([{0, 1}, {1, 2}, {2, 3}], [(0, 1), (1, 2)])
    assert is_decomposition(nx.path_graph(4), m)          # M decomposes H's node graph
    z = compose(h, m)
    assert [sorted(b) for b in z.bags] == [[0, 1, 2], [1, 2, 3], [2, 3, 4]]
    assert z.edges == m.edges and is_tree_decomposition(g, z)
    assert z.width == 2 <= composition_bound(h, m) == 3


@SETTINGS
@given(positions(max_hidden=25))
def test_composition_bound_on_random_positions(board: Board) -> None:
    """H: the bipartite decomposition after edge removal; M: networkx's min-degree tree
    decomposition of H's node graph, and M with extra edges (still general). Their composition
    decomposes the board graph within (W(H)+1)(W(M)+1)-1."""
    g = board_graph(board)
    h = remove_redundant_edges(bipartite_decomposition(g))[0].decomposition
    hg = h.to_networkx()
    if not h.bags:
        return
    m = link_components(_as_decomposition(treewidth_min_degree(hg)[1]))
    assert is_tree_decomposition(hg, m)
    z = compose(h, m)
    assert is_tree_decomposition(g.graph, z)
    assert z.width <= composition_bound(h, m)
    general = Decomposition(m.bags, m.edges | {(0, i) for i in range(1, len(m.bags), 3)})
    zz = compose(h, general)
    assert is_decomposition(g.graph, zz) and zz.width <= composition_bound(h, general)


@settings(max_examples=examples(500), deadline=None)
@given(st.integers(2, 12), st.floats(0.1, 0.7), st.integers(0, 10**6))
def test_composition_bound_on_random_graphs(n: int, p: float, seed: int) -> None:
    """H: closed neighbourhoods, adjacent when they meet (a general decomposition of any graph);
    M: min-degree tree decomposition of H. Also the bound of Corollary 2 via M's width."""
    g = nx.gnp_random_graph(n, p, seed=seed)
    h = Decomposition.build([{v, *g.adj[v]} for v in g],
                            [(u, v) for u in g for v in g if u < v and ({u, *g.adj[u]} & {v, *g.adj[v]})])
    assert is_decomposition(g, h)
    m = link_components(_as_decomposition(treewidth_min_degree(h.to_networkx())[1]))
    z = compose(h, m)
    assert is_tree_decomposition(g, z) and z.width <= composition_bound(h, m)


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(2, 14), st.floats(0.1, 0.6), st.integers(0, 10**6))
def test_contraction_and_elimination_keep_the_width(n: int, p: float, seed: int) -> None:
    g = nx.gnp_random_graph(n, p, seed=seed)
    td = link_components(_as_decomposition(treewidth_min_degree(g)[1]))
    small = contract_subsets(td)
    assert is_tree_decomposition(g, small) and small.width == td.width
    assert all(not (a <= b) for i, j in small.edges for a, b in
               ((small.bags[i], small.bags[j]), (small.bags[j], small.bags[i])))
    # Eliminating in the derived order never makes a clique bigger than a bag.
    order = elimination_order(td)
    assert sorted(order) == sorted(g)
    work = {v: set(g.adj[v]) for v in g}
    for v in order:
        nb = work.pop(v)
        assert len(nb) <= td.width
        for a in nb:
            work[a].discard(v)
            work[a].update(nb - {a})
