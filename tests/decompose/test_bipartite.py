"""The bipartite decomposition (Statement 8) and redundant-edge removal (§4.1, Statement 9),
with the thesis's figure 4.3 reproduced step by step."""

from __future__ import annotations

from collections import Counter

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minegraph import Board
from minegraph.decompose.bipartite import bipartite_decomposition, edge_key, remove_redundant_edges
from minegraph.decompose.decomposition import is_decomposition
from minegraph.decompose.graph import board_graph
from minegraph.decompose.pipeline import classify
from strategies import graph_positions, positions, examples

SETTINGS = settings(max_examples=examples(2000), deadline=None, suppress_health_check=[HealthCheck.too_slow])

FIGURE_4_3 = """\
001#100
002#200
122#221
#######
122#221
002#200
001#100
"""


@SETTINGS
@given(st.one_of(positions(max_hidden=25), graph_positions()))
def test_bipartite_decomposition_and_removal_on_random_positions(board: Board) -> None:
    g = board_graph(board)
    bip = bipartite_decomposition(g)
    dec = bip.decomposition
    # Statement 8: a general decomposition, bags adjacent iff they meet.
    assert is_decomposition(g.graph, dec)
    assert dec.edges == {(i, j) for i in range(len(dec.bags)) for j in range(i + 1, len(dec.bags))
                         if dec.bags[i] & dec.bags[j]}
    # Corollary 4: every bag has a shell. Corollary 3: the width is the largest degree.
    assert all(g.has_shell(bag) for bag in dec.bags)
    assert dec.width == max((g.graph.degree[p] for p in g.numbers), default=0) if dec.bags else True
    # Adjacent bags meet only in mines and unknowns (the DP's condition, chapter 5).
    assert all(bip.base(i, j) <= g.mines | g.unknowns for i, j in dec.edges)
    # Statement 9: removal keeps a general decomposition, and is deterministic.
    reduced, steps = remove_redundant_edges(bip)
    assert is_decomposition(g.graph, reduced.decomposition)
    assert remove_redundant_edges(bip)[0] == reduced
    _replay(bip, steps)


def _replay(bip, steps) -> None:  # type: ignore[no-untyped-def]
    """Check the trace independently: edges visited by size and coordinates; an edge is
    removed iff, at that moment, another path joins its bags through bags holding its base."""
    dec = bip.decomposition
    assert [s.edge for s in steps] == sorted(dec.edges, key=lambda e: edge_key(bip, e))
    assert [len(s.base) for s in steps] == sorted(len(s.base) for s in steps)
    h = dec.to_networkx()
    for s in steps:
        u, v = s.edge
        h.remove_edge(u, v)
        inner = [w for w in h if w in (u, v) or s.base <= dec.bags[w]]
        detour = nx.has_path(h.subgraph(inner), u, v)
        assert detour == s.removed
        if s.removed:
            path = s.detour
            assert path[0] == u and path[-1] == v and len(path) >= 3
            assert all(h.has_edge(a, b) for a, b in zip(path, path[1:]))
            assert all(s.base <= dec.bags[w] for w in path[1:-1])
        else:
            h.add_edge(u, v)


def test_edge_order_breaks_ties_by_coordinates_and_slope() -> None:
    board = Board.from_text("1#1\n#1#")
    bip = bipartite_decomposition(board_graph(board))
    keys = {tuple(bip.controls[k] for k in e): edge_key(bip, e) for e in bip.decomposition.edges}
    assert keys[(0, 2)][0] == 1 and keys[(0, 4)][0] == 2    # bases {(0,1)} and {(0,1),(1,0)}
    # (0,2)-(1,1) goes down-left: slope -1 sorts before a down-right one of the same box.
    assert keys[(2, 4)][1:] == (0, 1, 1, 2, (0, -1))
    assert keys[(0, 4)][1:] == (0, 0, 1, 1, (0, 1))


def test_figure_4_3_step_by_step() -> None:
    """Hoder's figure 4.3: the 7x7 board with a hidden middle column and row."""
    board = Board.from_text(FIGURE_4_3)
    c = classify(board)
    bip = c.bipartite.decomposition
    cell = {i: divmod(p, 7) for i, p in enumerate(c.bipartite.controls)}
    # Bipartite decomposition: a bag per number; the 20 numbers next to the hidden cross have
    # 2-5 hidden neighbours, the 16 others none. 62 edges: 18 of base size 1, 36 of size 2, 8 of 3.
    assert len(bip.bags) == 36 and sum(len(b) > 1 for b in bip.bags) == 20
    assert bip.width == 5                                   # (2, 2) and its 5 hidden neighbours
    assert Counter(len(s.base) for s in c.removal) == {1: 18, 2: 36, 3: 8}
    # Removing edges of size 1, then 2 (the figure's two steps); no edge of size 3 goes.
    removed = Counter(len(s.base) for s in c.removal if s.removed)
    assert removed == {1: 18, 2: 24}
    kept = sorted(tuple(sorted((cell[i], cell[j]))) for i, j in c.reduced.decomposition.edges)
    assert kept == [
        ((0, 2), (1, 4)), ((0, 4), (1, 4)), ((1, 2), (1, 4)), ((1, 4), (2, 4)),
        ((2, 0), (4, 1)), ((2, 1), (4, 1)), ((2, 2), (2, 4)), ((2, 2), (4, 2)),
        ((2, 4), (4, 4)), ((2, 5), (4, 5)), ((2, 6), (4, 6)), ((4, 0), (4, 1)),
        ((4, 1), (4, 2)), ((4, 2), (4, 4)), ((4, 4), (4, 5)), ((4, 4), (5, 4)),
        ((4, 5), (4, 6)), ((5, 2), (5, 4)), ((5, 4), (6, 4)), ((6, 2), (6, 4))]
    # What is left is not a tree: one cycle, the four bags around the centre (3, 3), each
    # pair sharing three cells of the hidden cross. It is series-parallel.
    cycles = nx.cycle_basis(c.reduced.decomposition.to_networkx())
    assert len(cycles) == 1 and {cell[i] for i in cycles[0]} == {(2, 2), (2, 4), (4, 4), (4, 2)}
    assert [len(b.nodes) for b in c.blocks] == [4] and c.blocks[0].series_parallel
    assert c.step == "series-parallel" and c.width == 11 and c.bound == 17
