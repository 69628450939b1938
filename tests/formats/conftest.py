"""Shared helpers for the format tests: random boards and a check of error locations.

Test modules cannot import each other under ``--import-mode=importlib``, so the Hypothesis
strategies are handed out by a session fixture and drawn with ``st.data()``.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Callable

import pytest
from hypothesis import strategies as st

from minegraph.board import BLANK, HIDDEN, MINE, Board
from minegraph.errors import FormatError
from minegraph.topology import TOPOLOGIES, grid_neighbors

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"


@st.composite
def grid_boards(draw: st.DrawFn, topologies: tuple[str, ...] = TOPOLOGIES, blank: bool = True,
                total: str = "any", max_side: int = 6) -> Board:
    """A random grid board; ``total`` is "any" (None or 0..n), "known" (0..n) or
    "nonzero" (None or 1..n, what the numeric header can hold)."""
    topology = draw(st.sampled_from(topologies))
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    neighbors = grid_neighbors(topology, rows, cols)
    specials = [HIDDEN, MINE] + ([BLANK] if blank else [])
    states = [draw(st.one_of(st.sampled_from(specials), st.integers(0, len(near))))
              for near in neighbors]
    n = rows * cols
    mines = {"any": st.one_of(st.none(), st.integers(0, n)),
             "known": st.integers(0, n),
             "nonzero": st.one_of(st.none(), st.integers(1, n))}[total]
    return Board.grid(rows, cols, states, topology=topology, mines=draw(mines))


@st.composite
def graph_boards(draw: st.DrawFn, max_cells: int = 10) -> Board:
    """A random board on a random simple graph (isolated cells included)."""
    n = draw(st.integers(1, max_cells))
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    edges = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    degree = [0] * n
    for u, v in edges:
        degree[u] += 1
        degree[v] += 1
    states = [draw(st.one_of(st.sampled_from([HIDDEN, MINE, BLANK]), st.integers(0, min(d, 12))))
              for d in degree]
    mines = draw(st.one_of(st.none(), st.integers(0, n)))
    return Board.from_graph(n, edges, states, mines=mines)


def raises_at(read: Callable[[str], object], text: str, line: int | None, column: int | None,
              words: str, path: str | None = None) -> FormatError:
    """Assert ``read(text)`` raises a FormatError at ``line``/``column``/``path`` mentioning
    ``words``, and return it."""
    with pytest.raises(FormatError) as info:
        read(text)
    error = info.value
    assert (error.line, error.column, error.path) == (line, column, path), str(error)
    assert words in str(error), str(error)
    return error


@pytest.fixture(scope="session")
def gen() -> SimpleNamespace:
    """The shared strategies and helpers."""
    return SimpleNamespace(grid_boards=grid_boards, graph_boards=graph_boards, raises_at=raises_at,
                           data=DATA)
