"""Hypothesis strategies for random small positions shared by the test modules."""

from __future__ import annotations

import os
import random

from hypothesis import strategies as st

from minegraph import kernel
from minegraph.board import BLANK, HIDDEN, MINE, Board
from minegraph.topology import grid_neighbors

#: The test profile: ``dev`` (the default, quick) or ``ci`` (thorough; ``.ci/run`` sets it),
#: from the ``HYPOTHESIS_PROFILE`` environment variable (``tests/conftest.py`` loads the
#: matching Hypothesis profile).
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")

#: The engine name the default analysis reports: the native kernel's, or the DP's when the
#: kernel is not built or not used (``MINEGRAPH_PURE=1``).
DEFAULT_ENGINE = "kernel" if kernel.available() else "dp"


def examples(n: int) -> int:
    """A property test's example count: ``n`` under the ``ci`` profile, a fifth of it (at
    least 20) under ``dev``."""
    return n if PROFILE == "ci" else max(20, n // 5)


@st.composite
def positions(draw: st.DrawFn, max_hidden: int = 14, topologies=("square", "triangle", "hex", "torus"),
              allow_inconsistent: bool = True) -> Board:
    """A random position: a mine layout, some cells uncovered (their true numbers), some mines
    known, some numbers hidden (BLANK), an optional total; optionally perturbed to be wrong."""
    topology = draw(st.sampled_from(topologies))
    rows = draw(st.integers(1, 5))
    cols = draw(st.integers(1, 5))
    if topology == "torus":
        rows, cols = max(rows, 3), max(cols, 3)
    n = rows * cols
    nbrs = grid_neighbors(topology, rows, cols)
    density = draw(st.sampled_from([0.1, 0.2, 0.3, 0.5]))
    layout = [draw(st.floats(0, 1)) < density for _ in range(n)]
    states = []
    for i in range(n):
        kind = draw(st.sampled_from(["hidden", "open", "open", "known", "blank"]))
        if layout[i]:
            states.append(MINE if kind == "known" else HIDDEN)
        elif kind in ("open", "known"):
            states.append(sum(1 for q in nbrs[i] if layout[q]))
        elif kind == "blank":
            states.append(BLANK)
        else:
            states.append(HIDDEN)
    # Keep the brute-force oracle fast.
    hidden = [i for i, s in enumerate(states) if s == HIDDEN]
    for i in hidden[max_hidden:]:
        states[i] = MINE if layout[i] else sum(1 for q in nbrs[i] if layout[q])
    mines = None
    if draw(st.booleans()):
        mines = sum(layout)
        if allow_inconsistent and draw(st.integers(0, 4)) == 0:
            mines = min(n, max(0, mines + draw(st.integers(-2, 2))))
    if allow_inconsistent and draw(st.integers(0, 5)) == 0:
        numbered = [i for i, s in enumerate(states) if s >= 0]
        if numbered:
            i = draw(st.sampled_from(numbered))
            states[i] = draw(st.integers(0, len(nbrs[i])))
    return Board.grid(rows, cols, states, topology=topology, mines=mines)


@st.composite
def graph_positions(draw: st.DrawFn, max_cells: int = 12) -> Board:
    """A random position on a random graph."""
    n = draw(st.integers(1, max_cells))
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
                          .filter(lambda e: e[0] != e[1]), max_size=3 * n))
    adj: list[set[int]] = [set() for _ in range(n)]
    for u, v in edges:
        adj[u].add(v)
        adj[v].add(u)
    layout = [draw(st.booleans()) for _ in range(n)]
    states = []
    for i in range(n):
        if draw(st.booleans()):
            states.append(HIDDEN)
        elif layout[i]:
            states.append(MINE)
        else:
            states.append(sum(1 for q in adj[i] if layout[q]))
    mines = sum(layout) if draw(st.booleans()) else None
    return Board.from_graph(n, edges, states, mines=mines)


def is_completion_of(board: Board, completed: Board) -> bool:
    """Independent check: ``completed`` refines ``board``, has no hidden cell, every number
    matches its mined neighbours, and the total (if any) is met."""
    if completed.size != board.size or completed.neighbors != board.neighbors:
        return False
    for s, t in zip(board.states, completed.states):
        if t == HIDDEN or (s != HIDDEN and s != t):
            return False
    for i, s in enumerate(completed.states):
        if s >= 0 and s != sum(1 for q in completed.neighbors[i] if completed.states[q] == MINE):
            return False
    mines = sum(1 for s in completed.states if s == MINE)
    return board.mines is None or board.mines == mines


@st.composite
def small_games(draw: st.DrawFn, known_mines: bool = False, density: int = 3) -> Board:
    """A position of a small square-grid game with its total known: the true numbers of some
    safe cells (and, with ``known_mines``, about half of the mines of some cells shown as
    known); at most one mine in ``density`` cells."""
    rows, cols = draw(st.integers(2, 4)), draw(st.integers(2, 5))
    n = rows * cols
    rng = random.Random(draw(st.integers(0, 10**6)))
    layout = set(rng.sample(range(n), draw(st.integers(1, max(1, n // density)))))
    nbrs = grid_neighbors("square", rows, cols)
    states = [HIDDEN] * n
    for c in rng.sample(range(n), rng.randrange(n)):
        if c not in layout:
            states[c] = sum(1 for q in nbrs[c] if q in layout)
        elif known_mines and rng.random() < 0.5:
            states[c] = MINE
    return Board.grid(rows, cols, states, mines=len(layout))
