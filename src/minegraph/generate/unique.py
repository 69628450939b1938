"""General unique puzzles: a random layout on any grid topology, and a minimal set of numbers
that still determines it.

From a uniformly random layout of ``mines`` mines (``random.Random(seed).sample``), every safe
cell starts uncovered with its number, and the total mine count is given (unless
``total=False``). The safe cells are then visited in a random order, and each is hidden again
when the puzzle keeps exactly one solution without it, as the exact engine counts
(:class:`~minegraph.analyser.Analyser`, the same answers as :func:`~minegraph.analysis.analyze`).
Hiding a cell only adds solutions, so a cell that could not be hidden when visited cannot be
hidden later either: the result is *minimal*, no number can be removed without losing
uniqueness (the tests check every one).

A layout whose full set of numbers is not unique (without the total, a mine walled in by mines
is free) is replaced by the next one drawn, up to :data:`MAX_LAYOUTS`.

Examples
--------
>>> p = unique_puzzle(4, 4, 3, seed=2)
>>> print(p.puzzle.to_text(), end="")
mines: 3
###0
##1#
##22
####
>>> len(p.layout), p.checks
(3, 14)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from minegraph.board import HIDDEN, Board
from minegraph.errors import LimitError, UserError
from minegraph.topology import TOPOLOGIES, grid_neighbors

__all__ = ["UniquePuzzle", "unique_puzzle", "MAX_LAYOUTS", "MAX_UNIQUE_CELLS"]

#: Layouts tried before giving up.
MAX_LAYOUTS = 100

#: The largest puzzle (cells): each hidden cell costs one exact count.
MAX_UNIQUE_CELLS = 2500


@dataclass(frozen=True)
class UniquePuzzle:
    """A puzzle with exactly one solution and a minimal set of numbers.

    Attributes
    ----------
    puzzle
        The board: the numbers kept, every other cell hidden, the total when ``total``.
    layout
        The planted mines (cell indices), the only solution.
    seed, total
        How it was made.
    layouts
        Layouts drawn (1 unless the first's full set of numbers was not unique).
    checks
        Exact counts made while removing numbers.
    """

    puzzle: Board
    layout: frozenset[int]
    seed: int
    total: bool
    layouts: int
    checks: int


def _check(rows: int, cols: int, mines: int, topology: str) -> None:
    for name, value in (("rows", rows), ("columns", cols), ("mines", mines)):
        if type(value) is not int or value < (0 if name == "mines" else 1):
            raise UserError(f"expected a {'non-negative' if name == 'mines' else 'positive'} "
                            f"whole number of {name}, got {value!r}")
    if topology not in TOPOLOGIES:
        raise UserError(f"unknown topology {topology!r}; expected one of {', '.join(TOPOLOGIES)}")
    if rows * cols > MAX_UNIQUE_CELLS:
        raise LimitError(f"a unique puzzle of {rows}x{cols} cells exceeds the limit of "
                         f"{MAX_UNIQUE_CELLS} cells")
    if mines > rows * cols:
        raise UserError(f"{mines} mines do not fit in {rows * cols} cells")


def unique_puzzle(rows: int, cols: int, mines: int, *, seed: int = 0, topology: str = "square",
                  total: bool = True) -> UniquePuzzle:
    """A puzzle of ``rows`` x ``cols`` cells with ``mines`` mines, one solution, and no number
    that can be removed without losing that.

    Parameters
    ----------
    rows, cols, mines
        The size and the number of mines.
    seed
        The random seed (layouts and the order numbers are tried in).
    topology
        ``square``, ``triangle``, ``hex`` or ``torus``.
    total
        Give the total mine count (default); without it, uniqueness must come from the numbers.

    Returns
    -------
    UniquePuzzle
        The puzzle, its planted layout and how it was made.

    Raises
    ------
    UserError
        for bad arguments, or when no layout of :data:`MAX_LAYOUTS` has a unique full set of
        numbers.
    LimitError
        beyond :data:`MAX_UNIQUE_CELLS` cells.

    Examples
    --------
    >>> from minegraph import analyze
    >>> p = unique_puzzle(5, 5, 4, seed=7, topology="hex")
    >>> a = analyze(p.puzzle)
    >>> a.solutions, a.completion_mines == p.layout
    (1, True)
    """
    from minegraph.analyser import Analyser
    _check(rows, cols, mines, topology)
    n = rows * cols
    nbrs = grid_neighbors(topology, rows, cols)
    rng = random.Random(seed)
    analyser = Analyser()
    checks = 0
    for attempt in range(1, MAX_LAYOUTS + 1):
        layout = frozenset(rng.sample(range(n), mines))
        states = [HIDDEN if i in layout else sum(1 for q in nbrs[i] if q in layout)
                  for i in range(n)]
        board = Board.grid(rows, cols, states, topology=topology, mines=mines if total else None)
        checks += 1
        if analyser.analyze(board).solutions == 1:
            break
    else:
        raise UserError(f"no layout of {MAX_LAYOUTS} drawn has a unique full set of numbers "
                        f"({mines} mines on {rows}x{cols}{'' if total else ', no total'}); "
                        f"try fewer mines or give the total")
    order = [i for i in range(n) if i not in layout]
    rng.shuffle(order)
    for cell in order:
        kept = states[cell]
        states[cell] = HIDDEN
        candidate = board.with_states(states)
        checks += 1
        if analyser.analyze(candidate).solutions == 1:
            board = candidate
        else:
            states[cell] = kept
    return UniquePuzzle(board, layout, seed, total, attempt, checks)
