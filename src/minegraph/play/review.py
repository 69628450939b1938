"""Review a played game: the exact mine probability behind every click of a real replay.

A replay file (``.avf`` Minesweeper Arbiter, ``.evf`` Metasweeper, ``.rmv`` Vienna
Minesweeper, ``.mvf`` Minesweeper Clone) is read by ms_toollib (the optional extra
``replays``, :data:`INSTALL_HINT`). Before every click that uncovered a covered cell the position the
player saw (the uncovered numbers and the total mine count; flags are claims, not knowledge,
and are left out) is analysed exactly: the mine probability of the clicked cell, whether a
certainly safe cell existed, the safest cell. Per game: the luck (the exact chance of
surviving every guess taken), the avoidable risks, 3BV, 3BV/s, clicks and efficiency.

What counts (docs/review.md):

- a *click* is a left click that uncovered a covered cell (``Review.clicks``); a chord (both
  buttons, or a middle click, on a satisfied number) that uncovered cells is listed apart
  (``Review.chords``), and its risk is the exact chance that one of the cells it uncovered
  held a mine;
- the *first click* is never a mine under the rules of every program that writes these files:
  its probability is reported as the board shows it (mines / cells), and it is neither a guess
  nor a risk;
- a *guess* is any other click or chord with a mine probability above 0; an *avoidable risk*
  is a guess taken while a certainly safe cell existed; *luck* is the product of ``1 - p`` over
  the guesses (a fatal last guess included).

What each guess cost in chance of winning (labels, win probabilities, alternatives) is the
coach's (:func:`minegraph.play.coach.coach`, which fills :attr:`Review.verdicts`); the speedrun
community's figures are :meth:`Review.figures` (:mod:`minegraph.play.figures`).

ms_toollib aborts the whole process on some truncated files (a Rust panic that cannot be
caught), so the file is parsed in a child process; a crash there is a one-line error here.

Examples
--------
>>> from minegraph.play.record import evf_bytes
>>> from minegraph.play.game import Game
>>> game = Game(rows=1, cols=4, mines=1, rules="any", seed=1)
>>> sorted(game.layout)                      # 1 M 1 0
[1]
>>> _ = game.reveal(3); _ = game.reveal(0); game.status
'won'
>>> r = review_bytes(evf_bytes(game), "evf")
>>> r.outcome, r.bbbv, [(c.cell, c.probability) for c in r.clicks]
('won', 2, [((0, 3), Fraction(1, 4)), ((0, 0), Fraction(0, 1))])
>>> r.clicks[0].first, r.luck
(True, Fraction(1, 1))
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Sequence

from minegraph.analyser import Analyser
from minegraph.board import BLANK, HIDDEN, Board
from minegraph.deadline import check_deadline, time_left
from minegraph.extras import install_hint
from minegraph.errors import FormatError, LimitError, MinegraphError
from minegraph.present import fraction_text, probability_json
from minegraph.play.figures import figures
from minegraph.play.review_report import REPLAY_FORMATS, render_review, timeline_svg
from minegraph.rules import three_bv
from minegraph.topology import grid_neighbors

if TYPE_CHECKING:
    from minegraph.analysis import Analysis
    from minegraph.play.coach import Verdict

#: The coach's fields of a click in the JSON (``null`` for a click not judged).
VERDICT_KEYS = ("win_probability", "win_probability_best", "win_probability_lost",
                "win_probability_exact", "win_probability_error", "win_probability_interval",
                "best_cell", "samples", "alternatives")

__all__ = ["review", "review_bytes", "Review", "Click", "three_bv", "render_review",
           "timeline_svg", "MAX_REPLAY_BYTES",
           "MAX_REPLAY_CELLS", "REPLAY_FORMATS", "INSTALL_HINT"]

#: The largest replay file read (real replays are a few kB; a long Expert game about 100 kB).
MAX_REPLAY_BYTES = 10 * 1024 * 1024

#: The largest board reviewed (rows x columns).
MAX_REPLAY_CELLS = 10_000

#: Seconds the child process may take to parse a replay.
PARSE_SECONDS = 30.0

#: What to do when ms_toollib is missing.
INSTALL_HINT = f"reading replays needs ms_toollib: {install_hint('replays')}"

# ms_toollib's game-board values: 0..8 uncovered numbers, then these; larger values are mines
# shown at the end of a lost game.
TOOLLIB_COVERED = 10
TOOLLIB_FLAGGED = 11
TOOLLIB_QUESTION = 12
#: A covered cell, whatever the player marked on it.
_COVERED = frozenset((TOOLLIB_COVERED, TOOLLIB_FLAGGED, TOOLLIB_QUESTION))
#: What a chord uncovers: the covered neighbours that are not flagged.
_CHORDED = frozenset((TOOLLIB_COVERED, TOOLLIB_QUESTION))
#: The child sends each game board as text, one character per cell: ``chr(CODE_BASE + value)``
#: (so every value ms_toollib uses is a printable character).
CODE_BASE = 65
#: ms_toollib's statistics the child hands back (docs/review.md, "The community's figures").
TOOLLIB_STATS = ("bbbv", "bbbv_solved", "bbbv_s", "left", "right", "double", "cl", "ce",
                 "flag", "ioe", "corr", "rtime", "zini", "hzini", "op", "isl", "rqp", "stnb",
                 "path", "cl_s", "ce_s", "thrp")

#: The child process: reads the replay's bytes on standard input and writes what the review
#: needs as one JSON object (or {"error": ...}); it imports nothing of minegraph.
_CHILD = r"""
import json, math, sys
def main():
    fmt, max_cells = sys.argv[1], int(sys.argv[2])
    CODE_BASE, STATS = int(sys.argv[3]), sys.argv[4].split(",")
    try:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    except Exception:
        pass
    try:
        import ms_toollib
    except ImportError:
        return {"error": "missing"}
    data = sys.stdin.buffer.read()
    cls = {"avf": ms_toollib.AvfVideo, "evf": ms_toollib.EvfVideo,
           "rmv": ms_toollib.RmvVideo, "mvf": ms_toollib.MvfVideo}[fmt]
    try:
        v = cls(raw_data=list(data))
        v.parse()
    except Exception as exc:
        return {"error": "unreadable: " + str(exc)[:200]}
    rows, cols, mines = v.row, v.column, v.mine_num
    if not (0 < rows and 0 < cols and rows * cols <= max_cells and 0 <= mines < rows * cols):
        return {"error": "size", "rows": rows, "cols": cols, "mines": mines}
    try:
        v.analyse()
    except Exception as exc:
        return {"error": "unreadable: " + str(exc)[:200]}
    board = [list(r) for r in v.board]
    pix = v.pix_size
    events = []
    code = lambda b: "".join(chr(CODE_BASE + x) for r in b for x in r)
    for e in v.events:
        if e.useful_level < 2 or not e.event.is_mouse():
            continue
        m = e.event.unwrap_mouse()
        events.append([e.time, e.useful_level, m.mouse, m.y // pix, m.x // pix,
                       code(e.prior_game_board.game_board), code(e.next_game_board.game_board)])
    v.current_time = 1e9
    stats = {}
    for k in STATS:
        try:
            stats[k] = getattr(v, k)
        except Exception:      # a figure this reader does not give: absent, not fatal
            stats[k] = None
    # A rate of a game of no time is inf (bbbv_s of a one-click win): undefined, so null.
    stats = {k: None if isinstance(x, float) and not math.isfinite(x) else x for k, x in stats.items()}
    meta = {}
    for k in ("software", "player_identifier", "mode", "level", "is_completed"):
        try:
            meta[k] = getattr(v, k)
        except Exception:
            meta[k] = None
    return {"rows": rows, "cols": cols, "mines": mines, "board": board, "events": events,
            "stats": stats, "meta": meta}
json.dump(main(), sys.stdout, allow_nan=False)
"""


def _rounded(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def _finite(value: Any) -> Any:
    """``value``, or ``None`` for a float that is not finite (a rate over no time): strict
    JSON has no ``Infinity`` or ``NaN``.

    Examples
    --------
    >>> _finite(2.5), _finite(float("inf")), _finite(float("nan")), _finite("x")
    (2.5, None, None, 'x')
    """
    return None if isinstance(value, float) and not math.isfinite(value) else value


@dataclass(frozen=True)
class Click:
    """One click that uncovered covered cells, with the position the player faced.

    Attributes
    ----------
    number
        Its place among the game's uncovering clicks and chords, from 1.
    kind
        ``"left"`` (a left click on a covered cell) or ``"chord"`` (on a satisfied number).
    cell
        The cell clicked, ``(row, col)`` from 0 at the top left.
    time
        Seconds from the start of the game (the replay's clock).
    since_previous
        Seconds since the previous uncovering click or chord (``None`` for the first).
    board
        The position before the click: the uncovered numbers and the total mine count.
    probability
        The exact probability that the click hits a mine: the clicked cell's mine probability
        (a left click), or that one of the cells the chord uncovers is a mine.
    safe_available
        Whether a certainly safe covered cell existed.
    best, best_probability
        The safest cell then (:attr:`~minegraph.analysis.Analysis.best`) and its mine
        probability.
    first
        The game's first uncovering click (never a mine under the games' rules).
    uncovered
        The safe cells this click uncovered.
    exploded
        Whether it hit a mine.
    at_risk
        The cells it uncovered from the covered state (indices): the cell clicked, or a
        chord's covered neighbours without a flag.
    """

    number: int
    kind: str
    cell: tuple[int, int]
    time: float
    since_previous: float | None
    board: Board = field(repr=False)
    probability: Fraction
    safe_available: bool
    best: tuple[int, int] | None
    best_probability: Fraction | None
    first: bool = False
    uncovered: tuple[tuple[int, int], ...] = field(default=(), repr=False)
    exploded: bool = False
    at_risk: tuple[int, ...] = field(default=(), repr=False)

    @property
    def guess(self) -> bool:
        """A risk taken: a mine probability above 0, the first click aside."""
        return self.probability > 0 and not self.first

    @property
    def avoidable(self) -> bool:
        """A guess taken while a certainly safe cell existed."""
        return self.guess and self.safe_available

    def to_json(self) -> dict[str, Any]:
        """The click as the review's JSON gives it (docs/review.md).

        Returns
        -------
        dict
            ``cell``, ``kind``, ``time``, ``since_previous``, ``probability`` (a float),
            ``probability_exact`` (``"p/q"``), ``safe_available``, ``best``,
            ``best_probability``, ``first``, ``guess``, ``avoidable``, ``uncovered`` (a
            count) and ``exploded``.
        """
        return {"number": self.number, "kind": self.kind, "cell": list(self.cell),
                "time": round(self.time, 3),
                "since_previous": None if self.since_previous is None
                else round(self.since_previous, 3),
                "probability": probability_json(self.probability),
                "probability_exact": fraction_text(self.probability, full=True),
                "safe_available": self.safe_available,
                "best": None if self.best is None else list(self.best),
                "best_probability": None if self.best_probability is None
                else probability_json(self.best_probability),
                "first": self.first, "guess": self.guess, "avoidable": self.avoidable,
                "uncovered": len(self.uncovered), "exploded": self.exploded}


@dataclass(frozen=True)
class Review:
    """The review of one replay.

    Attributes
    ----------
    name
        The file's name (or what the caller called the bytes).
    format
        ``avf``, ``evf``, ``rmv`` or ``mvf``.
    rows, cols, mines
        The board's size and mine count.
    layout
        The mined cells, as indices ``row * cols + col``.
    clicks
        The left clicks that uncovered covered cells, in order.
    chords
        The chords that uncovered cells, in order.
    outcome
        ``"won"``, ``"lost"`` or ``"unfinished"``.
    time
        The game's time in seconds, as the replay gives it.
    bbbv, bbbv_solved
        The layout's 3BV and the part of it solved (:func:`three_bv`).
    counts
        Clicks as ms_toollib counts them: ``left``, ``right``, ``chord``, ``total`` and
        ``effective``.
    software, player
        What the file says wrote it and who played (may be empty).
    toollib
        ms_toollib's own statistics of the game (``bbbv``, ``bbbv_s``, ``ioe``, ``corr``,
        ``zini``, ...), for comparison.
    verdicts
        The coach's verdict on each guess judged, by click number
        (:func:`minegraph.play.coach.coach`; empty without win probabilities).
    """

    name: str
    format: str
    rows: int
    cols: int
    mines: int
    layout: frozenset[int] = field(repr=False)
    clicks: tuple[Click, ...] = field(repr=False)
    chords: tuple[Click, ...] = field(repr=False)
    outcome: str
    time: float
    bbbv: int
    bbbv_solved: int
    counts: dict[str, int] = field(repr=False)
    software: str = ""
    player: str = ""
    toollib: dict[str, Any] = field(default_factory=dict, repr=False)
    verdicts: dict[int, Verdict] = field(default_factory=dict, repr=False)

    def label(self, click: Click) -> str:
        """The click's label: ``safe`` (certainly safe, or the first click), ``avoidable`` (a
        guess while a certainly safe cell existed), ``best`` or ``inferior`` (a guess judged
        by :func:`minegraph.play.coach.coach`), or ``guess`` (a guess not judged: the review
        was made without win probabilities)."""
        if not click.guess:
            return "safe"
        if click.avoidable:
            return "avoidable"
        verdict = self.verdicts.get(click.number)
        return "guess" if verdict is None else verdict.label

    @property
    def win_probability_lost(self) -> float | None:
        """The chance of winning given up, summed over the guesses judged (each against the
        best candidate in the position it was taken in); ``None`` when none was judged."""
        if not self.verdicts:
            return None
        return float(sum(v.lost for v in self.verdicts.values()))

    @property
    def bbbv_per_second(self) -> float | None:
        """3BV solved per second of game time (``None`` for a game of no time)."""
        return self.bbbv_solved / self.time if self.time > 0 else None

    @property
    def efficiency(self) -> float | None:
        """3BV solved per click of any kind (ms_toollib's IOE); ``None`` without clicks."""
        total = self.counts.get("total", 0)
        return self.bbbv_solved / total if total else None

    @property
    def timeline(self) -> list[Click]:
        """The clicks and chords together, in the order played."""
        return sorted(self.clicks + self.chords, key=lambda c: c.number)

    @property
    def guesses(self) -> list[Click]:
        """The clicks and chords that took a risk (:attr:`Click.guess`)."""
        return [c for c in self.timeline if c.guess]

    @property
    def avoidable(self) -> list[Click]:
        """The guesses taken while a certainly safe cell existed."""
        return [c for c in self.timeline if c.avoidable]

    @property
    def luck(self) -> Fraction:
        """The exact chance of surviving every guess taken: the product of ``1 - p``."""
        out = Fraction(1)
        for c in self.guesses:
            out *= 1 - c.probability
        return out

    @property
    def avoidable_cost(self) -> Fraction:
        """The chance of losing that the avoidable risks added: ``1 - prod(1 - p)`` over
        them."""
        keep = Fraction(1)
        for c in self.avoidable:
            keep *= 1 - c.probability
        return 1 - keep

    def to_json(self) -> dict[str, Any]:
        """The review as JSON data (the contract of docs/review.md).

        Returns
        -------
        dict
            ``rows``, ``cols``, ``mines``, ``bbbv``, ``luck`` (a float), ``luck_exact``,
            ``clicks`` (one object per left click that uncovered a covered cell, in order:
            ``cell``, ``probability``, ``probability_exact``, ``safe_available``, ...),
            ``chords``, the avoidable risks, the counts and ms_toollib's figures.
        """
        bps = self.bbbv_per_second
        eff = self.efficiency
        return {"file": self.name, "format": self.format, "software": self.software,
                "player": self.player, "rows": self.rows, "cols": self.cols,
                "mines": self.mines, "outcome": self.outcome, "time": self.time,
                "bbbv": self.bbbv, "bbbv_solved": self.bbbv_solved,
                "bbbv_per_second": None if bps is None else round(bps, 4),
                "efficiency": None if eff is None else round(eff, 4),
                "counts": dict(self.counts),
                "luck": float(self.luck), "luck_exact": fraction_text(self.luck, full=True),
                "guesses": len(self.guesses),
                "avoidable": [{"number": c.number, "kind": c.kind, "cell": list(c.cell),
                               "probability": probability_json(c.probability),
                               "probability_exact": fraction_text(c.probability, full=True),
                               "best": None if c.best is None else list(c.best)}
                              for c in self.avoidable],
                "avoidable_cost": float(self.avoidable_cost),
                "win_probability_lost": _rounded(self.win_probability_lost),
                "labels": {k: sum(1 for c in self.timeline if self.label(c) == k)
                           for k in ("safe", "avoidable", "best", "inferior", "guess")},
                "figures": self.figures(),
                "clicks": [self._click_json(c) for c in self.clicks],
                "chords": [self._click_json(c) for c in self.chords],
                "ms_toollib": {k: _finite(x) for k, x in self.toollib.items()}}

    def figures(self) -> dict[str, Any]:
        """The speedrun community's figures (:func:`minegraph.play.figures.figures`): RQP,
        IOE, STNB, ZiNi, openings, islands, path length, clicks per second.

        Returns
        -------
        dict
            Name -> value (``None`` where undefined).
        """
        return figures(self)

    def _click_json(self, click: Click) -> dict[str, Any]:
        """A click's JSON: :meth:`Click.to_json`, its label and the coach's fields
        (``null`` where the click was not judged)."""
        out = click.to_json()
        out["label"] = self.label(click)
        verdict = self.verdicts.get(click.number)
        if verdict is not None:
            out.update(verdict.to_json(self.cols))
        else:
            out.update({k: None for k in VERDICT_KEYS})
            out["win_probability_exact"] = False
        return out

    def report(self, *, every: bool = False) -> str:
        """The text ``minegraph review`` prints.

        Parameters
        ----------
        every
            List every click, not only the first click and the guesses.

        Returns
        -------
        str
            The report, lines ending in newlines.
        """
        return render_review(self, every=every)

    def svg(self) -> str:
        """The timeline picture: the mine probability faced at each click, guesses marked.

        Returns
        -------
        str
            An SVG document.
        """
        return timeline_svg(self)


# ---------------------------------------------------------------------------- reading
def _format_of(name: str) -> str:
    ext = os.path.splitext(name)[1].lower().lstrip(".")
    if ext not in REPLAY_FORMATS:
        raise FormatError(f"{os.path.basename(name) or name}: not a replay file: expected one of "
                          f"{', '.join('.' + k for k in REPLAY_FORMATS)}")
    return ext


def _parse(data: bytes, fmt: str, name: str) -> dict[str, Any]:
    """ms_toollib's reading of ``data``, in a child process."""
    if importlib.util.find_spec("ms_toollib") is None:
        raise MinegraphError(INSTALL_HINT)
    # Within the caller's time limit too (a web request's deadline), checked once it returns.
    left = time_left()
    seconds = PARSE_SECONDS if left is None else max(0.05, min(PARSE_SECONDS, left))
    try:
        # In a directory of its own: ms_toollib writes crash.log into the working directory
        # when it panics, which must not litter the user's.
        with tempfile.TemporaryDirectory(prefix="minegraph-replay-") as scratch:
            done = subprocess.run([sys.executable, "-P", "-c", _CHILD, fmt, str(MAX_REPLAY_CELLS),
                                   str(CODE_BASE), ",".join(TOOLLIB_STATS)],
                                  input=data, capture_output=True, timeout=seconds, check=False,
                                  cwd=scratch)
    except subprocess.TimeoutExpired:
        check_deadline()
        raise FormatError(f"{name}: the replay reader took more than {PARSE_SECONDS:g} s; "
                          f"not a readable .{fmt} replay") from None
    check_deadline()
    if done.returncode != 0:
        raise FormatError(f"{name}: not a readable .{fmt} replay (the reader stopped: truncated "
                          f"or damaged file)")
    try:
        out = json.loads(done.stdout)
    except ValueError:
        raise FormatError(f"{name}: not a readable .{fmt} replay") from None
    if not isinstance(out, dict):
        raise FormatError(f"{name}: not a readable .{fmt} replay")
    error = out.get("error")
    if error == "missing":
        raise MinegraphError(INSTALL_HINT)
    if error == "size":
        raise LimitError(f"{name}: a {out.get('rows')}x{out.get('cols')} board with "
                         f"{out.get('mines')} mines: reviews take boards of 1 to "
                         f"{MAX_REPLAY_CELLS:,} cells with fewer mines than cells")
    if error is not None:
        raise FormatError(f"{name}: not a readable .{fmt} replay ({str(error)[:120]})")
    return out


def review(path: str | os.PathLike[str]) -> Review:
    """Review the replay file at ``path``: the exact probabilities behind every click.

    The file's extension names its format (``.avf``, ``.evf``, ``.rmv``, ``.mvf``); a file of
    more than :data:`MAX_REPLAY_BYTES` is refused before it is read.

    Parameters
    ----------
    path
        The replay file.

    Returns
    -------
    Review
        The game's review.

    Raises
    ------
    FormatError
        for a file of another kind, or a truncated or damaged replay.
    LimitError
        for a file over :data:`MAX_REPLAY_BYTES` or a board over :data:`MAX_REPLAY_CELLS`.
    MinegraphError
        when ms_toollib is not installed (:data:`INSTALL_HINT`), or the file
        cannot be read.

    Examples
    --------
    >>> import tempfile, os
    >>> from minegraph.play.game import Game
    >>> from minegraph.play.record import save_evf
    >>> game = Game(rows=3, cols=3, mines=1, rules="any", seed=17)
    >>> _ = game.reveal((0, 0))
    >>> folder = tempfile.mkdtemp()
    >>> path = save_evf(game, os.path.join(folder, "g.evf"))
    >>> r = review(path)
    >>> r.rows, r.cols, r.mines, r.outcome, len(r.clicks), r.luck
    (3, 3, 1, 'won', 1, Fraction(1, 1))
    """
    name = os.path.basename(os.fspath(path)) or os.fspath(path)
    fmt = _format_of(os.fspath(path))
    try:
        size = os.stat(path).st_size
        if size > MAX_REPLAY_BYTES:
            raise LimitError(f"{name}: {size:,} bytes: replays are limited to "
                             f"{MAX_REPLAY_BYTES:,} bytes (real ones are a few kB)")
        with open(path, "rb") as f:
            data = f.read(MAX_REPLAY_BYTES + 1)
    except OSError as exc:
        raise MinegraphError(f"{name}: cannot read the replay: {exc.strerror or exc}") from None
    if len(data) > MAX_REPLAY_BYTES:
        raise LimitError(f"{name}: more than {MAX_REPLAY_BYTES:,} bytes: replays are limited "
                         f"to {MAX_REPLAY_BYTES:,} bytes")
    return review_bytes(data, fmt, name=name)


def review_bytes(data: bytes, format: str, *, name: str | None = None) -> Review:
    """Review a replay given as bytes (an upload, say).

    Parameters
    ----------
    data
        The replay file's contents.
    format
        ``"avf"``, ``"evf"``, ``"rmv"`` or ``"mvf"`` (a leading dot is allowed).
    name
        What error messages call the replay (default ``replay.FORMAT``).

    Returns
    -------
    Review
        The game's review.

    Raises
    ------
    FormatError
        for an unknown format, or a truncated or damaged replay.
    LimitError
        for more than :data:`MAX_REPLAY_BYTES` bytes or a board over :data:`MAX_REPLAY_CELLS`.
    MinegraphError
        when ms_toollib is not installed.

    Examples
    --------
    >>> review_bytes(b"not a replay", "avf")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    minegraph.errors.FormatError: replay.avf: not a readable .avf replay (...)
    """
    fmt = str(format).lower().lstrip(".")
    if fmt not in REPLAY_FORMATS:
        raise FormatError(f"unknown replay format {format!r}: expected one of "
                          f"{', '.join(REPLAY_FORMATS)}")
    name = name if name is not None else f"replay.{fmt}"
    if not isinstance(data, (bytes, bytearray)):
        raise FormatError(f"{name}: expected the replay's bytes, got {type(data).__name__}")
    if len(data) > MAX_REPLAY_BYTES:
        raise LimitError(f"{name}: {len(data):,} bytes: replays are limited to "
                         f"{MAX_REPLAY_BYTES:,} bytes (real ones are a few kB)")
    return _build(_parse(bytes(data), fmt, name), fmt, name)


def _checked_int(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FormatError(f"{name}: not a readable replay (a bad field)")
    return value


@dataclass(frozen=True)
class _Event:
    """One uncovering mouse event of the replay, decoded: the cell under the cursor, and the
    game board (ms_toollib's values per cell) before and after it."""

    time: float
    cell: int
    before: list[int]
    after: list[int]

    def opened(self) -> list[int]:
        """The cells it uncovered (covered before, not after)."""
        return [i for i, (b, a) in enumerate(zip(self.before, self.after))
                if b in _COVERED and a not in _COVERED]


def _layout(raw: dict[str, Any], fmt: str, name: str) -> tuple[int, int, int, frozenset[int]]:
    """The board's rows, columns, mine count and mined cells, checked."""
    rows = _checked_int(raw.get("rows"), name)
    cols = _checked_int(raw.get("cols"), name)
    mines = _checked_int(raw.get("mines"), name)
    grid = raw.get("board")
    if not (isinstance(grid, list) and len(grid) == rows
            and all(isinstance(r, list) and len(r) == cols for r in grid)):
        raise FormatError(f"{name}: not a readable .{fmt} replay (no board)")
    # ms_toollib's board marks a mine -1.
    layout = frozenset(r * cols + c for r in range(rows) for c in range(cols) if grid[r][c] == -1)
    if len(layout) != mines:
        raise FormatError(f"{name}: the board holds {len(layout)} mines, the file says {mines}")
    return rows, cols, mines, layout


def _events(raw: dict[str, Any], rows: int, cols: int, fmt: str, name: str) -> list[_Event]:
    """The replay's mouse events that uncovered cells, decoded and checked."""
    size = rows * cols
    out = []
    for event in raw.get("events", []):
        try:
            t, _level, _mouse, r, c, before, after = event
            t = float(t)
        except (TypeError, ValueError):
            raise FormatError(f"{name}: not a readable .{fmt} replay (a bad event)") from None
        if not (isinstance(before, str) and isinstance(after, str) and len(before) == size
                and len(after) == size and isinstance(r, int) and isinstance(c, int)
                and 0 <= r < rows and 0 <= c < cols):
            raise FormatError(f"{name}: not a readable .{fmt} replay (a bad event)")
        decoded = _Event(t, r * cols + c, [ord(ch) - CODE_BASE for ch in before],
                         [ord(ch) - CODE_BASE for ch in after])
        if decoded.opened():
            out.append(decoded)
    return out


def _shown_number(value: int) -> bool:
    """Whether a game-board value is an uncovered number (0 to 8)."""
    return 0 <= value <= 8


def _position(before: list[int], rows: int, cols: int, mines: int, layout: frozenset[int],
              numbers: list[int], name: str) -> Board:
    """The position the player saw: the uncovered numbers (checked against the layout) and
    the total; flags and question marks are covered cells."""
    states = []
    for i, v in enumerate(before):
        if not _shown_number(v):
            states.append(HIDDEN)
        elif i in layout or v != numbers[i]:
            raise FormatError(f"{name}: the replay shows {v} at {divmod(i, cols)}, "
                              f"which its board contradicts")
        else:
            states.append(v)
    return Board.grid(rows, cols, states, mines=mines)


def _at_risk(event: _Event, kind: str, neighbors: Sequence[Sequence[int]]) -> list[int]:
    """The cells the click uncovers from the covered state: the cell clicked, or a chord's
    covered neighbours that carry no flag."""
    if kind == "left":
        return [event.cell]
    return [q for q in neighbors[event.cell] if event.before[q] in _CHORDED]


def _risk(analyser: Analyser, board: Board, analysis: Analysis, at_risk: list[int]) -> Fraction:
    """The exact chance that one of ``at_risk`` holds a mine in ``board``."""
    safe = {board.index(x) for x in analysis.safe}
    if all(q in safe for q in at_risk):
        return Fraction(0)
    if len(at_risk) == 1:
        return Fraction(analysis.probability(board.cell(at_risk[0])))
    # Several cells (a chord): one minus the share of completions with all of them safe.
    spared = board.with_states([BLANK if i in at_risk else s for i, s in enumerate(board.states)])
    return 1 - Fraction(analyser.analyze(spared).solutions or 0, analysis.solutions or 1)


def _click(number: int, event: _Event, kind: str, board: Board, analyser: Analyser,
           at_risk: list[int], first: bool, previous: float | None, layout: frozenset[int],
           cols: int) -> Click:
    """The click of ``event``, with its exact risk in ``board``."""
    cell = divmod(event.cell, cols)
    best: tuple[int, int] | None
    best_p: Fraction | None
    if first and all(s == HIDDEN for s in board.states):
        # The first click on an untouched board: every cell alike.
        p = best_p = Fraction(board.mines or 0, board.size)
        safe_available = board.mines == 0
        best = cell
    else:
        analysis = analyser.analyze(board)
        p = _risk(analyser, board, analysis, at_risk)
        safe_available = bool(analysis.safe)
        best = analysis.best if isinstance(analysis.best, tuple) else None
        best_p = None if best is None else Fraction(analysis.probability(best))
    # Uncovered: shown as a number now. At the end of a lost game ms_toollib also shows the
    # mines and marks the wrong flags; those cells were not uncovered.
    shown = [i for i in event.opened() if _shown_number(event.after[i]) and i not in layout]
    return Click(number, kind, cell, event.time,
                 None if previous is None else event.time - previous, board, p, safe_available,
                 best, best_p, first, tuple(divmod(i, cols) for i in shown),
                 any(q in layout for q in at_risk), tuple(at_risk))


def _counts(stats: dict[str, Any]) -> dict[str, int]:
    """The click counts under their review names (ms_toollib's ``double`` is a chord)."""
    named = {"left": "left", "right": "right", "chord": "double", "total": "cl",
             "effective": "ce"}
    return {k: v if isinstance(v, int) and not isinstance(v, bool) else 0
            for k, v in ((k, stats.get(src, 0)) for k, src in named.items())}


def _build(raw: dict[str, Any], fmt: str, name: str) -> Review:
    """The review of ms_toollib's reading ``raw``."""
    rows, cols, mines, layout = _layout(raw, fmt, name)
    neighbors = grid_neighbors("square", rows, cols)
    numbers = [sum(1 for q in neighbors[c] if q in layout) for c in range(rows * cols)]
    analyser = Analyser()
    timeline: list[Click] = []
    uncovered: set[int] = set()
    for event in _events(raw, rows, cols, fmt, name):
        # A left click uncovers the covered cell under the cursor; a chord is on a number.
        kind = "left" if event.before[event.cell] in _COVERED else "chord"
        board = _position(event.before, rows, cols, mines, layout, numbers, name)
        previous = timeline[-1].time if timeline else None
        click = _click(len(timeline) + 1, event, kind, board, analyser,
                       _at_risk(event, kind, neighbors), not timeline, previous, layout, cols)
        timeline.append(click)
        uncovered.update(r * cols + c for r, c in click.uncovered)
        if click.exploded:
            break
    stats = raw.get("stats") or {}
    meta = raw.get("meta") or {}
    if timeline and timeline[-1].exploded:
        outcome = "lost"
    else:
        outcome = "won" if len(uncovered) == rows * cols - mines else "unfinished"
    bbbv, solved = three_bv(neighbors, layout, uncovered)
    return Review(name=name, format=fmt, rows=rows, cols=cols, mines=mines, layout=layout,
                  clicks=tuple(c for c in timeline if c.kind == "left"),
                  chords=tuple(c for c in timeline if c.kind == "chord"), outcome=outcome,
                  time=float(stats.get("rtime") or 0.0), bbbv=bbbv, bbbv_solved=solved,
                  counts=_counts(stats), software=str(meta.get("software") or ""),
                  player=str(meta.get("player_identifier") or ""), toollib=dict(stats))
