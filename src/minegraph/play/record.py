"""Record a finished game as an ``.evf`` replay (Metasweeper's open format, version 4).

The replay holds the layout, and the moves as mouse events at the pace they were played
(:attr:`~minegraph.play.game.Game.move_times`): an uncovering is a left press and release on
the cell, a flag a right press and release, a chord both buttons on the number. ms_toollib
and the programs that play ``.evf`` files (Metasweeper, the Flop player, the review of
:mod:`minegraph.play.review`) read it back with the same board and clicks.

The bytes are written here, by the published layout of the format (ms_toollib's
``evf format`` document, v0.4), not by ms_toollib's ``BaseVideo``: that one stamps every event
with the wall clock as it is stepped, so a game written after it was played would have every
click at 0 ms. ms_toollib reads every recording back in the tests.

Examples
--------
>>> from minegraph.play.game import Game, Move
>>> game = Game(rows=3, cols=3, mines=1, rules="any", seed=17)
>>> sorted(game.layout), len(game.reveal((0, 0))), game.status
([8], 8, 'won')
>>> data = evf_bytes(game)
>>> data[:1], data[3], data[4]          # version 4; 3 rows, 3 columns
(b'\\x04', 3, 3)
"""

from __future__ import annotations

import os
import struct
import time
from typing import Sequence

from minegraph.errors import GameError
from minegraph.play.game import Game, Move
from minegraph.play.review import three_bv
from minegraph.version import __version__

__all__ = ["evf_bytes", "save_evf", "replay_name", "game_seconds", "CELL_PIXELS"]

#: The cell size written, in pixels (the replay players draw cells this large).
CELL_PIXELS = 16

# Mouse event codes of the format.
_MV, _LC, _LR, _RC, _RR = 1, 2, 3, 4, 5


def _check(game: Game) -> None:
    if game.topology != "square" or game.rows is None or game.cols is None:
        raise GameError("only games on a square grid can be recorded as .evf replays")
    if not (1 <= game.rows <= 255 and 1 <= game.cols <= 255 and game.mine_count <= 65535):
        raise GameError(f"a {game.rows}x{game.cols} game with {game.mine_count} mines does not "
                        f"fit an .evf replay (at most 255 rows and columns, 65,535 mines)")
    if game.status == "playing" or game.layout is None:
        raise GameError("the game is not over: a replay holds the layout, so it is written "
                        "only when the game is won or lost")


def _mode(game: Game) -> int:
    if type(game).__name__ == "NoGuessGame":
        return 5            # the format's "competitive solvable"
    return {"classic": 0, "modern": 4}.get(game.rules, 65535)


def _text(value: str) -> bytes:
    return value.replace("\0", "").encode("utf-8") + b"\0"


def _milliseconds(when: Sequence[float]) -> list[int]:
    """Move times in whole milliseconds, never decreasing (as the replay writes them)."""
    ms = [max(0, round(t * 1000)) for t in when]
    for k in range(1, len(ms)):
        ms[k] = max(ms[k], ms[k - 1])
    return ms


def _clock_ms(moves: Sequence[Move], ms: Sequence[int]) -> int:
    """The game's clock: from the first uncovering to the last, in milliseconds."""
    opening = [at for at, m in zip(ms, moves) if m.action != "flag"]
    return (opening[-1] - opening[0]) if opening else 0


def game_seconds(game: Game) -> float:
    """The game's time: from its first uncovering to its last, in seconds to the
    millisecond, exactly as its replay (:func:`evf_bytes`) records it, so the game, its
    replay and the replay's review give one time.

    Parameters
    ----------
    game
        A game (over or not: so far).

    Returns
    -------
    float

    Examples
    --------
    >>> game = Game(rows=1, cols=3, mines=1, rules="any", seed=5)
    >>> _ = game.reveal(0); game_seconds(game)
    0.0
    """
    return _clock_ms(game.moves, _milliseconds(game.move_times)) / 1000


def evf_bytes(game: Game, *, times: Sequence[float] | None = None, player: str = "",
              software: str | None = None, start: float | None = None) -> bytes:
    """A finished game as the bytes of an ``.evf`` replay.

    Parameters
    ----------
    game
        A won or lost game on a square grid of at most 255 rows and columns.
    times
        When each move was played, in seconds from the first (default: the game's own
        :attr:`~minegraph.play.game.Game.move_times`).
    player
        The player's name, written as the replay's user identifier.
    software
        What wrote the replay (default ``minegraph`` and its version).
    start
        The wall-clock time of the first move, in seconds since 1970 (default: as the game
        recorded it).

    Returns
    -------
    bytes
        The replay file's contents.

    Raises
    ------
    GameError
        for a game still in play, on another grid, too large for the format, or ``times``
        that do not give one time per move.

    Examples
    --------
    >>> game = Game(rows=1, cols=3, mines=1, rules="any", seed=5)
    >>> sorted(game.layout)
    [2]
    >>> _ = game.reveal(0); game.status
    'won'
    >>> data = evf_bytes(game, times=[0.0], start=0.0)
    >>> data[0], data[3], data[4], data.endswith(b"\\0\\0\\0")   # version, rows, columns
    (4, 1, 3, True)
    """
    _check(game)
    assert game.rows is not None and game.cols is not None and game.layout is not None
    moves = game.moves
    when = list(game.move_times) if times is None else [float(t) for t in times]
    if len(when) != len(moves):
        raise GameError(f"expected one time per move ({len(moves)}), got {len(when)}")
    ms = _milliseconds(when)
    rows, cols, pix = game.rows, game.cols, CELL_PIXELS
    history = getattr(game, "_history", [])
    began = start if start is not None else (history[0].at if history else time.time())
    # The game's clock runs from the first uncovering to the last.
    opening = [ms[k] for k, m in enumerate(moves) if m.action != "flag"]
    rtime = _clock_ms(moves, ms)
    bbbv, _ = three_bv(game.neighbors, game.layout)
    flags = any(m.action == "flag" for m in moves)
    summary = (0x80 if game.status == "won" else 0) | (0 if flags else 0x10)
    out = bytearray()
    out += struct.pack(">BBBBBHBHHI", 4, summary, 0x80, rows, cols, game.mine_count, pix,
                       _mode(game), bbbv, rtime)
    out += b"XX"
    first_us = round(began * 1e6) + (opening[0] * 1000 if opening else 0)
    out += struct.pack(">QQ", max(0, first_us), max(0, first_us + rtime * 1000))
    out += _text(software if software is not None else f"minegraph {__version__}")
    out += _text(player) + _text("") + _text("")
    out += struct.pack(">H", 0)                                   # no device identifier
    bits = bytearray((rows * cols + 7) // 8)
    for c in game.layout:
        bits[c // 8] |= 0x80 >> (c % 8)
    out += bits
    out += struct.pack(">H", 0)                                   # no custom metrics
    x = y = 0
    clock = 0

    def event(code: int, at: int, cell: int) -> None:
        nonlocal x, y, clock
        while at - clock > 255:                                   # a long pause: mouse moves
            out.extend(struct.pack(">BBhh", _MV, 255, 0, 0))
            clock += 255
        nx, ny = (cell % cols) * pix + pix // 2, (cell // cols) * pix + pix // 2
        out.extend(struct.pack(">BBhh", code, at - clock, nx - x, ny - y))
        x, y, clock = nx, ny, at

    for move, at in zip(moves, ms):
        if move.action == "reveal":
            event(_LC, at, move.cell)
            event(_LR, at, move.cell)
        elif move.action == "flag":
            event(_RC, at, move.cell)
            event(_RR, at, move.cell)
        else:
            event(_LC, at, move.cell)
            event(_RC, at, move.cell)
            event(_LR, at, move.cell)
            event(_RR, at, move.cell)
    out += b"\0"                                                  # end of the events
    out += struct.pack(">H", 0)                                   # no checksum
    return bytes(out)


def replay_name(game: Game) -> str:
    """A file name for a game's replay: size, outcome, 3BV and time, as replay sites name
    them (``beginner_won_3bv12_8.31s.evf``).

    Parameters
    ----------
    game
        A finished game on a square grid.

    Returns
    -------
    str
        The file name.

    Raises
    ------
    GameError
        as :func:`evf_bytes`.

    Examples
    --------
    >>> game = Game(rows=1, cols=3, mines=1, rules="any", seed=5)
    >>> _ = game.reveal(0)
    >>> replay_name(game)
    '1x3_won_3bv1_0.00s.evf'
    """
    _check(game)
    assert game.layout is not None and game.rows is not None and game.cols is not None
    size = {(9, 9, 10): "beginner", (8, 8, 10): "beginner-8", (16, 16, 40): "intermediate",
            (16, 30, 99): "expert"}.get((game.rows, game.cols, game.mine_count),
                                        f"{game.rows}x{game.cols}")
    seconds = game_seconds(game)
    return f"{size}_{game.status}_3bv{three_bv(game.neighbors, game.layout)[0]}_{seconds:.2f}s.evf"


def save_evf(game: Game, path: str | os.PathLike[str], **options: object) -> str:
    """Write a finished game's replay to ``path`` (a directory: a new file in it named by
    :func:`replay_name`).

    Parameters
    ----------
    game
        A won or lost game.
    path
        A file, or an existing directory.
    **options
        As for :func:`evf_bytes` (``times``, ``player``, ``software``, ``start``).

    Returns
    -------
    str
        The path written.

    Raises
    ------
    GameError
        as :func:`evf_bytes`.

    Examples
    --------
    >>> import tempfile
    >>> game = Game(rows=1, cols=3, mines=1, rules="any", seed=5)
    >>> _ = game.reveal(0)
    >>> os.path.basename(save_evf(game, tempfile.mkdtemp()))
    '1x3_won_3bv1_0.00s.evf'
    """
    data = evf_bytes(game, **options)  # type: ignore[arg-type]
    target = os.fspath(path)
    if os.path.isdir(target):
        base = replay_name(game)
        stem, ext = os.path.splitext(base)
        target = os.path.join(target, base)
        k = 2
        while os.path.exists(target):
            target = os.path.join(os.fspath(path), f"{stem}({k}){ext}")
            k += 1
    with open(target, "wb") as f:
        f.write(data)
    return target
