"""Elimination orders and their clique trees are tree decompositions."""

from __future__ import annotations

import random

from minegraph.engines.elimination import clique_tree


def _is_tree_decomposition(adj: list[set[int]], tree) -> bool:  # type: ignore[no-untyped-def]
    bags = [set(c) for c in tree.cliques]
    n = len(adj)
    if set().union(*bags) != set(range(n)) if n else False:
        return False
    for u in range(n):
        for v in adj[u]:
            if not any(u in b and v in b for b in bags):
                return False
    # The bags holding a vertex form a connected subtree.
    for v in range(n):
        holding = {i for i, b in enumerate(bags) if v in b}
        roots = [i for i in holding if tree.parent[i] not in holding]
        if len(roots) != 1:
            return False
    return True


def test_random_graphs_give_tree_decompositions() -> None:
    rng = random.Random(1)
    for _ in range(300):
        n = rng.randint(1, 12)
        adj: list[set[int]] = [set() for _ in range(n)]
        for _ in range(rng.randint(0, 3 * n)):
            u, v = rng.randrange(n), rng.randrange(n)
            if u != v:
                adj[u].add(v)
                adj[v].add(u)
        # Make it connected, as components are.
        for v in range(1, n):
            w = rng.randrange(v)
            adj[v].add(w)
            adj[w].add(v)
        tree = clique_tree(adj)
        assert _is_tree_decomposition(adj, tree)
        assert sum(1 for p in tree.parent if p < 0) == 1


def test_width_of_known_graphs() -> None:
    path = [{1}, {0, 2}, {1, 3}, {2}]
    assert clique_tree(path).width == 1
    cycle = [{1, 5}, {0, 2}, {1, 3}, {2, 4}, {3, 5}, {4, 0}]
    assert clique_tree(cycle).width == 2
    k4 = [{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}]
    assert clique_tree(k4).width == 3
    grid = [set() for _ in range(9)]  # 3x3 grid graph: treewidth 3
    for r in range(3):
        for c in range(3):
            for dr, dc in ((0, 1), (1, 0)):
                if r + dr < 3 and c + dc < 3:
                    a, b = 3 * r + c, 3 * (r + dr) + c + dc
                    grid[a].add(b)
                    grid[b].add(a)
    assert clique_tree(grid).width == 3
