"""The two big-board families of issue 10, at any size, deterministic from a seed.

Both lay ``round(0.2 * rows * cols)`` mines (20%) uniformly with ``random.Random(seed)``:

- **scattered**: a mid-game reached by many separate clicks, each on a uniformly chosen safe
  hidden cell of the whole board and flood-filling its zeros, until :data:`SCATTERED_SHARE` of
  the safe cells are uncovered. That share was tuned so the constraint system's component
  counts match the issue's boards (about 167 components at 100x100, 615 at 200x200; the counts
  grow with the area, about 2,470 at 400x400).
- **opening**: one player expanding a single opened region: the first click (its neighbourhood
  kept free of mines) opens a region of zeros, then a uniformly chosen safe hidden cell next to
  the uncovered region is uncovered (flood-filling zeros) until half the safe cells are
  uncovered. If the region is walled in by mines, a safe hidden cell anywhere is chosen.

Flood fill works on a padded flat grid (a border of sentinel cells, so no bounds checks) with
``bytearray`` flags and the numbers computed by numpy: a 1000x1000 board takes a few seconds,
most of it building the :class:`~minegraph.board.Board`.

Usage::

    python bench/bigboards.py scattered 200 200 --seed 1     # print size, mines, components
    python bench/bigboards.py opening 1000 1000 --text > /tmp/o.board
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass

import numpy as np

from minegraph.board import HIDDEN, Board

__all__ = ["BigBoard", "scattered", "opening", "big_board", "FAMILIES", "DENSITY",
           "SCATTERED_SHARE", "OPENING_SHARE"]

#: Mine density of both families.
DENSITY = 0.2
#: Share of the safe cells a scattered board has uncovered.
SCATTERED_SHARE = 0.49
#: Share of the safe cells an opening board has uncovered.
OPENING_SHARE = 0.5


@dataclass(frozen=True)
class BigBoard:
    """A generated position with how it was made.

    Attributes
    ----------
    board : Board
        The position (uncovered cells show their numbers, the rest is hidden; the total set).
    layout : frozenset of int
        The true mined cells (``r * cols + c``).
    revealed : int
        Number of uncovered cells.
    clicks : int
        Number of clicks that uncovered something.
    """

    board: Board
    layout: frozenset[int]
    revealed: int
    clicks: int


class _Grid:
    """A padded flat grid: cell ``(r, c)`` is ``(r + 1) * (cols + 2) + c + 1``."""

    def __init__(self, rows: int, cols: int, mines: int, rng: random.Random,
                 keep_clear: int | None = None) -> None:
        self.rows, self.cols = rows, cols
        w = self.width = cols + 2
        n = rows * cols
        cells = range(n)
        if keep_clear is not None:
            r0, c0 = divmod(keep_clear, cols)
            near = {r * cols + c for r in range(r0 - 1, r0 + 2) for c in range(c0 - 1, c0 + 2)
                    if 0 <= r < rows and 0 <= c < cols}
            cells = [i for i in range(n) if i not in near]  # type: ignore[assignment]
        self.layout = frozenset(rng.sample(cells, mines))
        mine = np.zeros((rows + 2, w), dtype=np.int8)
        if self.layout:
            idx = np.fromiter(self.layout, dtype=np.int64)
            mine[idx // cols + 1, idx % cols + 1] = 1
        numbers = np.zeros((rows, cols), dtype=np.int8)
        for dr in (0, 1, 2):
            for dc in (0, 1, 2):
                if dr != 1 or dc != 1:
                    numbers += mine[dr:dr + rows, dc:dc + cols]
        # number[p] for padded index p; 9 marks a mine, 10 the border.
        number = np.full((rows + 2, w), 10, dtype=np.int8)
        number[1:-1, 1:-1] = np.where(mine[1:-1, 1:-1] == 1, 9, numbers)
        self.number = number.tobytes()
        self.shown = bytearray(len(self.number))
        self.offsets = (-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1)
        self.revealed = 0

    def pad(self, i: int) -> int:
        r, c = divmod(i, self.cols)
        return (r + 1) * self.width + c + 1

    def unpad(self, p: int) -> int:
        r, c = divmod(p, self.width)
        return (r - 1) * self.cols + c - 1

    def uncover(self, p: int, newly: list[int] | None = None) -> None:
        """Uncover safe padded cell ``p`` and flood-fill zeros; append new cells to ``newly``."""
        number, shown, offsets = self.number, self.shown, self.offsets
        if shown[p]:
            return
        shown[p] = 1
        count = 1
        if newly is not None:
            newly.append(p)
        stack = [p] if number[p] == 0 else []
        while stack:
            v = stack.pop()
            for d in offsets:
                q = v + d
                if not shown[q] and number[q] < 9:
                    shown[q] = 1
                    count += 1
                    if newly is not None:
                        newly.append(q)
                    if number[q] == 0:
                        stack.append(q)
        self.revealed += count

    def board(self) -> Board:
        rows, cols, w = self.rows, self.cols, self.width
        number = np.frombuffer(self.number, dtype=np.int8).reshape(rows + 2, w)[1:-1, 1:-1]
        shown = np.frombuffer(bytes(self.shown), dtype=np.uint8).reshape(rows + 2, w)[1:-1, 1:-1]
        states = np.where(shown == 1, number, HIDDEN).ravel().tolist()
        return Board.grid(rows, cols, states, mines=len(self.layout))


def _mines(rows: int, cols: int) -> int:
    return round(DENSITY * rows * cols)


def scattered(rows: int, cols: int, seed: int, share: float = SCATTERED_SHARE) -> BigBoard:
    """A mid-game reached by separate clicks on random safe cells, each flood-filling zeros.

    Parameters
    ----------
    rows, cols : int
        Grid size (square neighbourhoods).
    seed : int
        The only source of randomness.
    share : float
        Stop once this share of the safe cells is uncovered.

    Examples
    --------
    >>> b = scattered(30, 30, seed=1)
    >>> b.board.rows, b.board.cols, b.board.mines, len(b.layout)
    (30, 30, 180, 180)
    >>> b.revealed >= SCATTERED_SHARE * (900 - 180), b == scattered(30, 30, seed=1)
    (True, True)
    >>> all(b.board.states[i] == sum(j in b.layout for j in b.board.neighbors[i])
    ...     for i in range(900) if b.board.states[i] >= 0)
    True
    """
    rng = random.Random(seed)
    mines = _mines(rows, cols)
    grid = _Grid(rows, cols, mines, rng)
    goal = share * (rows * cols - mines)
    number, shown, n = grid.number, grid.shown, rows * cols
    clicks = 0
    while grid.revealed < goal:
        p = grid.pad(rng.randrange(n))
        if number[p] < 9 and not shown[p]:
            grid.uncover(p)
            clicks += 1
    return BigBoard(grid.board(), grid.layout, grid.revealed, clicks)


def opening(rows: int, cols: int, seed: int, share: float = OPENING_SHARE) -> BigBoard:
    """One opened region expanded, a random safe neighbour at a time, to ``share`` of the
    safe cells.

    Examples
    --------
    >>> b = opening(30, 30, seed=2)
    >>> b.board.mines, b.revealed >= 0.5 * (900 - 180), b == opening(30, 30, seed=2)
    (180, True, True)
    """
    rng = random.Random(seed)
    n = rows * cols
    mines = _mines(rows, cols)
    click = rng.randrange(n)
    grid = _Grid(rows, cols, mines, rng, keep_clear=click)
    goal = share * (n - mines)
    number, shown, offsets = grid.number, grid.shown, grid.offsets
    # The frontier: safe hidden cells next to the region, a list with positions for O(1)
    # removal and uniform choice.
    items: list[int] = []
    where: dict[int, int] = {}

    def uncover(p: int) -> None:
        newly: list[int] = []
        grid.uncover(p, newly)
        for v in newly:
            i = where.pop(v, None)
            if i is not None:
                last = items.pop()
                if i < len(items):
                    items[i] = last
                    where[last] = i
        for v in newly:
            for d in offsets:
                q = v + d
                if not shown[q] and number[q] < 9 and q not in where:
                    where[q] = len(items)
                    items.append(q)

    uncover(grid.pad(click))
    clicks = 1
    while grid.revealed < goal:
        if items:
            p = items[rng.randrange(len(items))]
        else:
            rest = [q for q in range(len(number)) if number[q] < 9 and not shown[q]]
            p = rest[rng.randrange(len(rest))]
        uncover(p)
        clicks += 1
    return BigBoard(grid.board(), grid.layout, grid.revealed, clicks)


FAMILIES = {"scattered": scattered, "opening": opening}


def big_board(family: str, rows: int, cols: int, seed: int = 1) -> Board:
    """The board of ``family`` (``"scattered"`` or ``"opening"``) at the given size.

    >>> big_board("opening", 20, 20).rows
    20
    """
    return FAMILIES[family](rows, cols, seed).board


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("family", choices=sorted(FAMILIES))
    ap.add_argument("rows", type=int)
    ap.add_argument("cols", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--text", action="store_true", help="print the board in the text format")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    b = FAMILIES[args.family](args.rows, args.cols, args.seed)
    built = time.perf_counter() - t0
    if args.text:
        sys.stdout.write(b.board.to_text())
        return 0
    from minegraph.constraints import build_system
    t0 = time.perf_counter()
    system = build_system(b.board)
    print(f"{args.family} {args.rows}x{args.cols} seed {args.seed}: {b.board.mines} mines, "
          f"{b.revealed} uncovered in {b.clicks} clicks, built in {built:.2f} s; "
          f"{len(system.components)} components, {len(system.floating)} floating, "
          f"{sum(len(c.boxes) for c in system.components)} boxes "
          f"(system {time.perf_counter() - t0:.2f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
