"""Adapter to the peer solver, ``ms_toollib.cal_probability_onboard`` (Rust, via PyO3).

Call convention (ms_toollib 1.5.x, checked against 1.5.20)::

    probs, (min_mines, mines, max_mines) = ms_toollib.cal_probability_onboard(game_board, mine_num)

- ``game_board``: a list of rows (lists) of ints, ``game_board[r][c]``: ``0..8`` an uncovered
  number, ``10`` a hidden cell, ``11`` a flag. Flags are *not* hard constraints: the
  documentation says wrong flags are corrected automatically, and a flag the numbers refute
  comes back with probability 0. There is no "uncovered without a number" state.
- ``mine_num``: a float; ``>= 1`` is the total number of mines on the board (flags included),
  ``< 1`` is read as a mine *density*. A total of 0 is therefore indistinguishable from a
  density of 0 (which is what it means anyway).
- Returns a tuple: ``probs``, a list of rows of floats, the mine probability of every cell
  (uncovered cells ``0.0``; flagged cells the probability the solver found for them), and a
  list ``[min, current, max]`` of the possible total mine counts the position allows and the
  total used. If ``mine_num`` is outside ``[min, max]`` the peer silently uses another total
  (``current`` then differs from ``mine_num``) instead of reporting an inconsistent board.
- Raises ``RuntimeError`` ("标记阶段无解的局面" / "枚举阶段无解的局面": no solution found while
  marking / enumerating) on some inconsistent positions; Rust panics surface as
  ``pyo3_runtime.PanicException``, which derives from ``BaseException``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import ms_toollib

from minegraph.board import BLANK, HIDDEN, MINE, Board

__all__ = ["PeerError", "PeerResult", "to_peer_board", "peer_call", "peer_probabilities",
           "PEER_NAME", "peer_version"]

PEER_NAME = "ms_toollib.cal_probability_onboard"
PEER_HIDDEN = 10
PEER_FLAG = 11


class PeerError(Exception):
    """The peer could not analyse a position (it raised, panicked or used another mine total)."""


@dataclass(frozen=True)
class PeerResult:
    """The peer's answer in minegraph's terms.

    Attributes
    ----------
    probabilities : dict[(int, int), float]
        Mine probability of every hidden cell (state ``HIDDEN``), keyed ``(row, col)``.
    min_mines, mines_used, max_mines : int
        The range of totals the peer found possible and the total it used.
    """

    probabilities: dict[tuple[int, int], float]
    min_mines: int
    mines_used: int
    max_mines: int


def peer_version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("ms_toollib")
    except PackageNotFoundError:  # pragma: no cover
        return "unknown"


def to_peer_board(board: Board) -> list[list[int]]:
    """The peer's ``game_board`` for a square-grid ``board``.

    Known mines become flags (11); the peer may "correct" them, so results on boards with
    known mines are only comparable when the flags are right.

    Examples
    --------
    >>> to_peer_board(Board.from_text("#1#\\n#1M"))
    [[10, 1, 10], [10, 1, 11]]
    """
    if board.topology != "square" or board.rows is None or board.cols is None:
        raise ValueError(f"the peer handles only square grids, not {board.topology!r}")
    code = {HIDDEN: PEER_HIDDEN, MINE: PEER_FLAG}
    rows: list[list[int]] = []
    for r in range(board.rows):
        row = []
        for s in board.states[r * board.cols:(r + 1) * board.cols]:
            if s == BLANK:
                raise ValueError("the peer has no state for an uncovered cell without a number")
            row.append(code.get(s, s))
        rows.append(row)
    return rows


def peer_call(game_board: list[list[int]], mines: int) -> Any:
    """The raw call, nothing around it (what the benchmark times)."""
    return ms_toollib.cal_probability_onboard(game_board, float(mines))


def peer_probabilities(board: Board, raw: Any | None = None) -> PeerResult:
    """Run the peer on ``board`` (or convert its precomputed answer ``raw``).

    Raises
    ------
    PeerError
        if the peer raises or panics, or used a total other than ``board.mines``.

    Examples
    --------
    >>> res = peer_probabilities(Board.from_text("mines: 1\\n###\\n111\\n000"))
    >>> res.probabilities
    {(0, 0): 0.0, (0, 1): 1.0, (0, 2): 0.0}
    """
    if board.mines is None:
        raise ValueError("the peer needs the total number of mines")
    if raw is None:
        try:
            raw = peer_call(to_peer_board(board), board.mines)
        except BaseException as exc:  # noqa: BLE001 - PanicException derives from BaseException
            if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                raise
            raise PeerError(f"{type(exc).__name__}: {exc}") from exc
    probs, counts = raw
    lo, used, hi = (int(x) for x in counts)
    if used != board.mines:
        raise PeerError(f"the peer used {used} mines instead of {board.mines} (range {lo}..{hi})")
    cols = board.cols
    assert cols is not None
    out = {}
    for i, s in enumerate(board.states):
        if s == HIDDEN:
            r, c = divmod(i, cols)
            out[(r, c)] = float(probs[r][c])
    return PeerResult(out, lo, used, hi)
