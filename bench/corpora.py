"""Expert corpora for the analysis benchmark, each made by a different recipe.

- ``opening``: ``recipes.midgame``: one region grown from a random first click (the corpus the
  kernel was developed on);
- ``clicks``: ``recipes.midgame(..., clicks=True)``: many separate clicks anywhere;
- ``deduced``: :func:`deduced`: a game played by the two trivial single-number rules, with a
  guess whenever they are stuck, from modern and classic first clicks; mines the rules find
  are flagged. Written for issue 19 as positions the kernel was not tuned on.
- ``sizes``: :func:`sized`: other sizes and densities (16×30 with 130 mines, 24×30 with 180,
  20×20 with 80, 16×16 with 40, in turn by seed), grown as ``opening`` from a random first
  click. Written for issue 35: dense positions with wide components and long searches.

Every position is a ``recipes.Midgame`` (board, true layout, ...), made from its seed alone.
"""

from __future__ import annotations

import random
from typing import Callable

from minegraph.board import HIDDEN, MINE, Board
from minegraph.recipes import Midgame, midgame, random_layout
from minegraph.topology import grid_neighbors

ROWS, COLS, MINES = 16, 30, 99

RECIPES = ("opening", "clicks", "deduced", "sizes")

#: The boards of the ``sizes`` corpus (rows, columns, mines), position ``k`` on ``SIZES[k % 4]``.
SIZES = ((16, 30, 130), (24, 30, 180), (20, 20, 80), (16, 16, 40))


def sized(seed: int) -> Midgame:
    """Position ``seed`` of the ``sizes`` corpus: ``recipes.midgame`` on ``SIZES[seed % 4]``."""
    rows, cols, mines = SIZES[seed % len(SIZES)]
    return midgame(rows, cols, mines, seed)


def deduced(rows: int, cols: int, mines: int, seed: int) -> Midgame:
    """A position reached by trivial deductions plus guesses.

    From ``random.Random(seed)``: a target fraction ``t`` of the safe cells in ``[0.1, 0.8]``;
    the first click is modern (a uniformly random cell, the mines laid outside it and its
    neighbours) for even seeds and classic (the corner (0, 0), only that cell kept free) for
    odd ones. Then, until ``t`` of the safe cells are uncovered: every number whose mines are
    all found uncovers its other hidden neighbours, every number with as many hidden
    neighbours as mines missing flags them (repeated until nothing changes); when stuck, a
    uniformly chosen hidden unflagged cell is guessed, and a guess on a mine is drawn again
    (the position is the one a lucky player reaches). Zeros flood-fill.
    """
    rng = random.Random(seed)
    n = rows * cols
    target = rng.uniform(0.1, 0.8)
    modern = seed % 2 == 0
    first = rng.randrange(n) if modern else 0
    neighbors = grid_neighbors("square", rows, cols)
    if modern:
        layout = random_layout(rows, cols, mines, rng.getrandbits(64), safe=first)
    else:   # only the first cell kept free: every such layout equally likely
        layout = frozenset(rng.sample(range(1, n), mines))
    number = [sum(1 for q in neighbors[i] if q in layout) for i in range(n)]
    revealed: set[int] = set()
    flagged: set[int] = set()

    def uncover(cell: int) -> None:
        todo = [cell]
        while todo:
            v = todo.pop()
            if v in revealed:
                continue
            revealed.add(v)
            if number[v] == 0:
                todo.extend(w for w in neighbors[v] if w not in revealed)

    uncover(first)
    goal = target * (n - mines)
    while len(revealed) < goal:
        progress = True
        while progress and len(revealed) < goal:
            progress = False
            for p in sorted(revealed):
                hidden = [q for q in neighbors[p] if q not in revealed and q not in flagged]
                if not hidden:
                    continue
                missing = number[p] - sum(1 for q in neighbors[p] if q in flagged)
                if missing == 0:
                    for q in hidden:
                        uncover(q)
                    progress = True
                elif missing == len(hidden):
                    flagged.update(hidden)
                    progress = True
        if len(revealed) >= goal:
            break
        choices = [i for i in range(n) if i not in revealed and i not in flagged]
        while True:
            guess = choices[rng.randrange(len(choices))]
            if guess not in layout:
                break
        uncover(guess)
    states = [HIDDEN] * n
    for v in revealed:
        states[v] = number[v]
    for v in flagged:
        states[v] = MINE
    board = Board.grid(rows, cols, states, mines=mines)
    return Midgame(board, frozenset(layout), frozenset(revealed), first, target)


def corpus(recipe: str) -> Callable[[int], Midgame]:
    """The maker of one recipe's positions (Expert but for ``sizes``), by seed."""
    if recipe == "opening":
        return lambda seed: midgame(ROWS, COLS, MINES, seed)
    if recipe == "clicks":
        return lambda seed: midgame(ROWS, COLS, MINES, seed, clicks=True)
    if recipe == "deduced":
        return lambda seed: deduced(ROWS, COLS, MINES, seed)
    if recipe == "sizes":
        return sized
    raise ValueError(f"unknown recipe {recipe!r}; expected one of {', '.join(RECIPES)}")
