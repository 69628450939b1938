"""The pair rule against its definition, computed by brute force: for every two constraints
that share a cell, the cells outside their overlap that take one value in every assignment of
their union meeting both (consistent pairs only; an inconsistent pair decides nothing)."""

from __future__ import annotations

from itertools import combinations, product

from hypothesis import given, settings
from hypothesis import strategies as st

from minegraph.generate.pairs import pair_rule
from strategies import examples

Constraint = tuple[frozenset[int], int]


def _by_brute_force(constraints: list[Constraint], focus: set[int] | None
                    ) -> tuple[set[int], set[int]]:
    safe: set[int] = set()
    mines: set[int] = set()
    for i, j in combinations(range(len(constraints)), 2):
        (a, na), (b, nb) = constraints[i], constraints[j]
        if not a & b or (focus is not None and i not in focus and j not in focus):
            continue
        cells = sorted(a | b)
        seen: dict[int, set[int]] = {c: set() for c in cells}
        for values in product((0, 1), repeat=len(cells)):
            x = dict(zip(cells, values))
            if sum(x[c] for c in a) == na and sum(x[c] for c in b) == nb:
                for c in cells:
                    seen[c].add(x[c])
        if not seen[cells[0]]:
            continue                          # no assignment: the pair is inconsistent
        for c in a ^ b:
            if seen[c] == {0}:
                safe.add(c)
            elif seen[c] == {1}:
                mines.add(c)
    return safe, mines


@st.composite
def constraint_lists(draw: st.DrawFn) -> tuple[list[Constraint], set[int] | None]:
    count = draw(st.integers(1, 6))
    out: list[Constraint] = []
    for _ in range(count):
        cells = frozenset(draw(st.sets(st.integers(0, 7), min_size=1, max_size=5)))
        out.append((cells, draw(st.integers(0, len(cells)))))
    focus = draw(st.none() | st.sets(st.integers(0, count - 1)))
    return out, focus


@settings(max_examples=examples(500))
@given(constraint_lists())
def test_the_pair_rule_decides_what_each_pair_alone_forces(case: tuple[list[Constraint],
                                                                      set[int] | None]) -> None:
    constraints, focus = case
    assert pair_rule(constraints, focus) == _by_brute_force(constraints, focus)


def test_the_subset_rule_and_its_mirror() -> None:
    # {0, 1} holds 1 and {0, 1, 2} holds 2: cell 2 is a mine, from either order.
    a, b = (frozenset({0, 1}), 1), (frozenset({0, 1, 2}), 2)
    assert pair_rule([a, b]) == pair_rule([b, a]) == (set(), {2})
    # {0, 1} holds 1 and {0, 1, 2} holds 1: cell 2 is safe.
    assert pair_rule([a, (frozenset({0, 1, 2}), 1)]) == ({2}, set())
