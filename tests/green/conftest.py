"""Shared hypothesis strategies for the green game tests."""

from __future__ import annotations

from hypothesis import strategies as st

from minegraph.green.game import GreenGame


@st.composite
def oi_games(draw, max_side: int = 4) -> GreenGame:
    """Tiny games following the task's rules: Ania's fields first, moves alternate."""
    a = draw(st.integers(1, max_side))
    b = draw(st.integers(1, max_side))
    green = draw(st.lists(st.booleans(), min_size=a + b, max_size=a + b))
    succ = []
    for v in range(a + b):
        other = list(range(a, a + b)) if v < a else list(range(a))
        succ.append(draw(st.lists(st.sampled_from(other), min_size=1, max_size=len(other),
                                  unique=True)))
    return GreenGame.from_oi(a, green, succ)


@st.composite
def any_games(draw, max_n: int = 7) -> GreenGame:
    """Tiny games on any graph (loops and same-player moves allowed), as PGSolver permits."""
    n = draw(st.integers(1, max_n))
    owner = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    green = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    succ = [draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=min(n, 3), unique=True))
            for _ in range(n)]
    return GreenGame.from_successors(owner, green, succ)
