"""A terminal Minesweeper game: :class:`PlayApp`, the application behind ``minegraph play``.

Built with Textual (imported by this module only). The screen shows the mine counter (mines
minus flags; 0 once the game is won, every mine then shown flagged), a timer, the game's
settings and seed, the grid with its row numbers on the left and its column numbers above
(the ``(r, c)`` that hints and messages name), a status line and a message line. Every grid
topology is drawn as a plain grid of cells: on ``hex`` and ``triangle`` boards the cells are
shown square, with the neighbours of those topologies. Cells are :data:`CELL_WIDTH` columns
wide, or :data:`COMPACT_WIDTH` when that is what makes the grid fit the terminal (Expert in
80 columns), the probability overlay aside.

Keys
----
arrows (or ``k``/``j``/``l``: up, down, right)
    move the cursor (``h`` is the hint, so vi's left is the arrow only);
space, enter
    uncover the cursor's cell (on an uncovered number: chord);
``f``, ``c``
    flag or unflag; chord (uncover the neighbours of a number that has as many flags);
``p``
    the probability overlay: every covered cell shows its exact mine probability with a ``%``
    sign (``0%`` only when proven safe, otherwise 1..99; a proven mine shows ``M``), so that it
    is told from an uncovered number without colour, and is coloured from green to red by
    risk;
``h``
    hint: the ``strong`` policy's move, highlighted, with the reason when the move is certain
    or the mine probability of the guess;
``s``
    let the solver (``strong``) play, a move at a time, until the game ends or ``s`` again;
``u``, ``n``, ``q``
    undo the last move, new game, quit;
``w``
    write the finished game's replay (once: a game already written is named, not written
    again);
``?``
    list the keys and the mouse buttons on the message line.

Mouse: a left click uncovers (on a number with as many flags around it: chords), a right
click flags, a middle click chords.

Examples
--------
>>> from minegraph.play.game import Game
>>> app = PlayApp(Game("beginner", rules="modern", seed=1))
>>> app.mines_left, app.game.status
(10, 'playing')
>>> percent(Fraction(1, 300)), percent(Fraction(0)), percent(Fraction(299, 300))
(1, 0, 99)
"""

from __future__ import annotations

import os
import shlex
import time
from fractions import Fraction
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container
from textual.css.query import NoMatches
from textual.geometry import Region, Size
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Footer, Static

from minegraph.analyser import Analyser
from minegraph.analysis import Analysis
from minegraph.board import Board
from minegraph.errors import GameError, MinegraphError
from minegraph.play.game import Game, Move
from minegraph.play.autoplay import Autoplay
from minegraph.play.policies import StrongPolicy
from minegraph.present import heat_rgb, whole_percent as percent

if TYPE_CHECKING:
    from minegraph.engines.base import Probability

__all__ = ["PlayApp", "MineField", "percent", "risk_colour", "overlay_label", "CELL_WIDTH",
           "COMPACT_WIDTH", "KEYS_HELP"]

#: Terminal columns per cell.
CELL_WIDTH = 3

#: Terminal columns per cell when :data:`CELL_WIDTH` would not fit the terminal (the
#: probability overlay keeps :data:`CELL_WIDTH`: a percentage needs three columns).
COMPACT_WIDTH = 2

#: What ``?`` shows: every key and mouse button.
KEYS_HELP = ("Keys: arrows (or k, j, l) move; space or enter uncover (on a number: chord); "
             "f flag; c chord; p probabilities; h hint; s solver plays (s again stops it); "
             "u undo; n new game; w write the replay of a finished game (.evf); q quit; "
             "? these keys. Mouse: left click uncovers (on a number: "
             "chords), right click flags, middle click chords.")

#: Colours of the uncovered numbers (the classic ones; 9..12 occur on the triangle grid).
NUMBER_COLOURS = {1: "bright_blue", 2: "green", 3: "bright_red", 4: "blue", 5: "red",
                  6: "cyan", 7: "white", 8: "bright_black"}

_RULE_REASONS = {
    "classic": "the first cell uncovered is never a mine under classic rules",
    "modern": "under modern rules the first cell and its neighbours hold no mine",
}


def risk_colour(p: Probability) -> str:
    """The background colour of a covered cell with mine probability ``p``: the heat map of
    the pictures and the web page (:func:`minegraph.present.heat_rgb`), green when safe,
    through yellow, to red.

    Parameters
    ----------
    p : int or Fraction or float
        A mine probability; values outside 0..1 are clamped to it.

    Returns
    -------
    str
        A Rich colour, ``rgb(R,G,B)``.

    Examples
    --------
    >>> risk_colour(Fraction(0)), risk_colour(Fraction(1, 2)), risk_colour(Fraction(1))
    ('rgb(67,160,71)', 'rgb(253,216,53)', 'rgb(229,57,53)')
    """
    red, green, blue = heat_rgb(min(max(p, 0), 1))
    return f"rgb({red},{green},{blue})"


def overlay_label(p: Probability) -> str:
    """What the overlay shows on a covered cell of mine probability ``p``: the percentage
    (:func:`percent`) with its ``%`` sign, right-aligned, and ``M`` for a proven mine (whose
    ``100%`` would not fit). The sign tells a probability from an uncovered number (`` 3 ``)
    without colour, and ends every value, so that neighbours never run together.

    Parameters
    ----------
    p : int or Fraction or float
        A mine probability.

    Returns
    -------
    str
        :data:`CELL_WIDTH` characters: ``" M "`` for a proven mine, else the whole percentage
        (:func:`percent`: 0 only when proven safe) and ``%``, right-aligned.

    Examples
    --------
    >>> [overlay_label(Fraction(n, 8)) for n in (0, 1, 4, 8)]
    [' 0%', '13%', '50%', ' M ']
    """
    value = percent(p)
    return " M " if value == 100 else f"{value}%".rjust(CELL_WIDTH)


class MineField(Widget, can_focus=True):
    """The grid: draws what :meth:`PlayApp.face` says of each cell and turns clicks into moves.

    Parameters
    ----------
    owner
        The application whose game is drawn.
    id
        The widget's Textual id (for queries and CSS), or ``None``.
    """

    DEFAULT_CSS = """
    MineField { width: auto; height: auto; }
    """

    def __init__(self, owner: PlayApp, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.owner = owner

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self.owner.gutter + (self.owner.game.cols or 0) * self.owner.cell_width

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.owner.header_lines + (self.owner.game.rows or 0)

    def header(self) -> list[str]:
        """The column numbers above the grid: one line when cells are :data:`CELL_WIDTH`
        wide (each number under the middle of its cell), two in :data:`COMPACT_WIDTH` (the
        tens, at every tenth column, above the units)."""
        cols, width, pad = self.owner.game.cols or 0, self.owner.cell_width, self.owner.gutter
        if width >= CELL_WIDTH:
            return [" " * pad + "".join(f"{c:>2}".ljust(width) for c in range(cols))]
        units = " " * pad + "".join(f"{c % 10:>{width}}" for c in range(cols))
        if cols <= 10:
            return [units]
        tens = " " * pad + "".join(f"{c // 10:>{width}}" if c and c % 10 == 0 else " " * width
                                   for c in range(cols))
        return [tens, units]

    def render(self) -> Text:
        """The whole grid: the column numbers, then one line per row, its number first and
        :attr:`PlayApp.cell_width` columns per cell."""
        game = self.owner.game
        rows, cols = game.rows or 0, game.cols or 0
        width, pad = self.owner.cell_width, self.owner.gutter
        text = Text(no_wrap=True, overflow="crop")
        for line in self.header():
            text.append(line + "\n", style="grey70")
        probs = self.owner.probabilities() if self.owner.overlay and game.status == "playing" \
            else None
        for r in range(rows):
            text.append(f"{r:>{pad - 1}} ", style="grey70")
            for c in range(cols):
                label, style = self.owner.face(r * cols + c, probs)
                text.append(label[:width], style=style)
            if r + 1 < rows:
                text.append("\n")
        return text

    def offset_of(self, cell: int) -> tuple[int, int]:
        """The offset inside the widget of the middle of ``cell`` (where a click hits it)."""
        cols = self.owner.game.cols or 1
        r, c = divmod(cell, cols)
        return (self.owner.gutter + c * self.owner.cell_width + 1,
                self.owner.header_lines + r)

    def cell_at(self, event: events.MouseEvent) -> int | None:
        """The cell under the mouse, or ``None`` outside the grid (on its numbers too)."""
        offset = event.get_content_offset(self)
        game = self.owner.game
        if offset is None or game.cols is None or game.rows is None:
            return None
        x = offset.x - self.owner.gutter
        r, c = offset.y - self.owner.header_lines, x // self.owner.cell_width
        if not (x >= 0 and 0 <= r < game.rows and 0 <= c < game.cols):
            return None
        return r * game.cols + c

    def on_mouse_down(self, event: events.MouseDown) -> None:
        # Right (flag) and middle (chord) act on the press; the left button acts on a click,
        # so that a press dragged away from the cell does nothing.
        if event.button not in (2, 3):
            return
        cell = self.cell_at(event)
        if cell is None:
            return
        self.owner.cursor = cell
        if event.button == 3:
            self.owner.flag(cell)
        else:
            self.owner.chord(cell)

    def on_click(self, event: events.Click) -> None:
        if event.button != 1:
            return
        cell = self.cell_at(event)
        if cell is not None:
            self.owner.cursor = cell
            self.owner.primary(cell)


class PlayApp(App[None]):
    """Minesweeper in the terminal, with the analyser's probabilities, hints and an autoplayer.

    Parameters
    ----------
    game
        The first game (on a grid: ``rows`` and ``cols`` set). New games (``n``) take its
        size, topology and rules, with the next seed.
    seed
        The first game's seed, shown on screen; game ``k`` (counting from 0) of this session
        uses ``seed + k``. ``None``: every new game draws a seed from the system.
    solver_delay
        Seconds between the solver's moves when it plays (``s``).
    record
        A folder where every finished game's replay (``.evf``) is written (``--record DIR``),
        and where ``w`` writes one; ``None``: none is written by itself, and ``w`` writes into
        the current directory.

    Raises
    ------
    GameError
        for a game on a graph without rows and columns.
    """

    TITLE = "minegraph play"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #bar { height: 1; background: $panel; }
    #status { height: 1; }
    #box { height: 1fr; overflow: auto auto; }
    #message { height: auto; min-height: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "move(-1, 0)", "Up", show=False, priority=True),
        Binding("down,j", "move(1, 0)", "Down", show=False, priority=True),
        Binding("left", "move(0, -1)", "Left", show=False, priority=True),
        Binding("right,l", "move(0, 1)", "Right", show=False, priority=True),
        Binding("space,enter", "uncover", "Uncover", priority=True),
        Binding("f", "flag", "Flag"),
        Binding("c", "chord", "Chord"),
        Binding("p", "overlay", "Probabilities"),
        Binding("h", "hint", "Hint"),
        Binding("s", "solver", "Solver plays"),
        Binding("u", "undo", "Undo"),
        Binding("n", "new_game", "New game"),
        Binding("w", "write_replay", "Write replay", show=False),
        Binding("q", "quit", "Quit"),
        Binding("question_mark", "keys", "Keys"),
    ]

    def __init__(self, game: Game, *, seed: int | None = None, solver_delay: float = 0.15,
                 record: str | None = None) -> None:
        super().__init__()
        if game.rows is None or game.cols is None:
            raise GameError("the terminal game draws grids only (a game with rows and columns)")
        self.game = game
        self.seed = seed
        self.games_started = 1
        self.solver_delay = solver_delay
        #: Where replays go: with ``--record DIR`` every finished game is written there; ``w``
        #: writes the finished game there (the current directory without ``--record``).
        self.record = record
        self.analyser = Analyser()
        self.policy = StrongPolicy(analyser=self.analyser)
        self.cursor = (game.rows // 2) * game.cols + game.cols // 2
        self.overlay = False
        self.hint_cell: int | None = None
        self.message = self._welcome()
        self._analysis: tuple[Board, Analysis | None, str] | None = None
        self._solver: Timer | None = None
        #: The solver's loop while it plays (``s``): the library's one :class:`Autoplay`.
        self._autoplay: Autoplay | None = None
        self._elapsed = 0.0
        self._since: float | None = None
        self._mounted = False
        #: The game last written by :meth:`write_replay`: the game, its moves and their times
        #: then, and the path.
        self._written: tuple[Game, list[Move], list[float], str] | None = None

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Static(id="bar")
        yield Static(id="status")
        with Container(id="box"):
            yield MineField(self, id="field")
        yield Static(id="message")
        yield Footer()

    def on_mount(self) -> None:
        self._mounted = True
        self.query_one(MineField).focus()
        self.set_interval(0.5, self._tick)
        self.show()

    def on_resize(self, event: events.Resize) -> None:
        # The cell width follows the terminal's.
        self.show()

    @property
    def gutter(self) -> int:
        """Columns left of the grid for the row numbers (the widest, and a space)."""
        return len(str(max((self.game.rows or 1) - 1, 0))) + 1

    @property
    def header_lines(self) -> int:
        """Lines above the grid for the column numbers (:meth:`MineField.header`)."""
        return 2 if self.cell_width < CELL_WIDTH and (self.game.cols or 0) > 10 else 1

    @property
    def cell_width(self) -> int:
        """Terminal columns per cell: :data:`CELL_WIDTH`, or :data:`COMPACT_WIDTH` when only
        that fits the grid and its row numbers into the terminal's width (and the probability
        overlay is off: a percentage needs :data:`CELL_WIDTH`)."""
        cols = self.game.cols or 0
        room = self.size.width - 2 if self._mounted else 0      # a vertical scroll bar
        if self.overlay or room <= 0 or self.gutter + cols * CELL_WIDTH <= room:
            return CELL_WIDTH
        return COMPACT_WIDTH if self.gutter + cols * COMPACT_WIDTH <= room else CELL_WIDTH

    # ------------------------------------------------------------------ what is shown
    @property
    def mines_left(self) -> int:
        """The mine counter: mines minus flags (negative with too many flags). A flag that a
        flood fill of zeros has uncovered (the cell was safe) no longer counts. A won game
        shows every mine flagged (:meth:`face`), so its counter is 0."""
        if self.game.status == "won":
            return 0
        return self.game.mine_count - len(self.game.flags - self.game.uncovered)

    @property
    def seconds(self) -> int:
        """Whole seconds played: from the first move to the end of the game."""
        running = self._elapsed + (time.monotonic() - self._since if self._since is not None else 0)
        return int(running)

    @property
    def solver_playing(self) -> bool:
        """Whether the solver is playing (``s``)."""
        return self._solver is not None

    def bar_text(self) -> str:
        """The top line: counter, timer, settings, seed."""
        g = self.game
        seed = "random" if self.seed is None else str(self.seed + self.games_started - 1)
        return (f"Mines: {self.mines_left}   Time: {self.seconds}   {g.rows}x{g.cols} {g.topology}, "
                f"{g.mine_count} mines, {g.rules} rules, seed {seed}")

    def status_text(self) -> str:
        """The status line: playing, won or lost, and what is switched on."""
        g = self.game
        if g.status == "won":
            text = f"WON in {self.seconds} s!  n: new game"
        elif g.status == "lost":
            where = g.label(g.exploded) if g.exploded is not None else "?"
            text = f"LOST: a mine at {where}.  u: undo the last move, n: new game"
        else:
            text = "Playing"
        extras = []
        if self.overlay and g.status == "playing":
            extras.append("overlay: mine probability in %, M a proven mine")
            if self._mounted and self.gutter + (g.cols or 0) * CELL_WIDTH > self.size.width - 2:
                extras.append("scroll for the rest")
        if self.solver_playing:
            extras.append("solver playing (s to stop)")
        if g.topology in ("hex", "triangle"):
            extras.append(f"{g.topology} grid drawn square")
        return "  |  ".join([text, *extras])

    def probabilities(self) -> dict[int, Probability] | None:
        """The analyser's mine probability of each covered cell of the position shown (flags
        are the player's claims and play no part), by cell index; ``None`` when it could not
        be computed (the message line says why)."""
        board = self.game.board()
        if self._analysis is None or self._analysis[0] != board:
            try:
                analysis: Analysis | None = self.analyser.analyze(board)
                why = ""
            except MinegraphError as exc:
                analysis, why = None, str(exc)
            self._analysis = (board, analysis, why)
        found = self._analysis[1]
        if found is None:
            return None
        return {self.game.index(cell): p for cell, p in found.probabilities.items()}

    def face(self, cell: int, probs: dict[int, Probability] | None = None) -> tuple[str, str]:
        """What the grid shows at ``cell``: its :data:`CELL_WIDTH` characters and their style.

        Parameters
        ----------
        cell
            A cell index.
        probs
            The overlay's probabilities (:meth:`probabilities`), when it is shown.
        """
        g = self.game
        over = g.status != "playing"
        mined = g.layout is not None and cell in g.layout
        if cell in g.uncovered:
            n = g.number(cell)
            label = f"{n:^{CELL_WIDTH}}" if n else " " * CELL_WIDTH
            style = f"bold {NUMBER_COLOURS.get(n, 'magenta')} on grey15"
        elif over and mined:
            if cell == g.exploded:
                label, style = " * ", "bold white on red"
            elif g.status == "won" or cell in g.flags:
                label, style = " F ", "bold red on grey50"
            else:
                label, style = " * ", "bold black on grey50"
        elif cell in g.flags:
            wrong = over and g.layout is not None and not mined
            label, style = (" X ", "bold red on grey50") if wrong else (" F ", "bold red on grey50")
            if self.overlay and not over:
                p = (probs or {}).get(cell)
                if p is not None:
                    style = f"bold black on {risk_colour(p)}"
        elif self.overlay and not over:
            p = (probs or {}).get(cell)
            if p is None:
                label, style = " ? ", "black on grey50"
            else:
                label, style = overlay_label(p), f"black on {risk_colour(p)}"
        else:
            label, style = " · ", "grey70 on grey35"
        if cell == self.hint_cell:
            style = "bold black on yellow"
        if cell == self.cursor:
            style += " reverse"
        return label, style

    def cell_text(self, cell: int) -> str:
        """The characters the grid shows at ``cell`` (as painted by :class:`MineField`)."""
        g = self.game
        assert g.cols is not None
        row = self.query_one(MineField).render().plain.split("\n")[
            self.header_lines + cell // g.cols]
        start = self.gutter + (cell % g.cols) * self.cell_width
        return row[start:start + self.cell_width]

    def show(self) -> None:
        """Redraw every part from the game's state."""
        self._sync_clock()
        if self.overlay and self.game.status == "playing":
            probs = self.probabilities()
            if probs is None and self._analysis is not None:
                self.message = f"No probabilities: {self._analysis[2]}"
        if not self._mounted:
            return
        self.query_one("#bar", Static).update(self.bar_text())
        self.query_one("#status", Static).update(self.status_text())
        self.query_one("#message", Static).update(self.message)
        field = self.query_one(MineField)
        field.refresh(layout=True)
        self._scroll_to_cursor()

    def _scroll_to_cursor(self) -> None:
        g = self.game
        assert g.cols is not None
        field = self.query_one(MineField)
        x, y = field.offset_of(self.cursor)
        at = field.virtual_region
        self.query_one("#box", Container).scroll_to_region(
            Region(at.x + x - 1, at.y + y, self.cell_width, 1), animate=False)

    def _welcome(self) -> str:
        note = f" The {self.game.topology} grid is drawn square." \
            if self.game.topology in ("hex", "triangle") else ""
        return "Uncover: click or space. Flag: right click or f. Probabilities: p. Hint: h. " \
               "Solver: s. All keys: ?." + note

    def _tick(self) -> None:
        if not self._mounted:
            return
        try:
            bar = self.query_one("#bar", Static)
        except NoMatches:       # a tick while the app closes: its screen is already gone
            return
        bar.update(self.bar_text())

    def _sync_clock(self) -> None:
        g = self.game
        running = g.status == "playing" and bool(g.moves)
        if not g.moves:
            self._elapsed, self._since = 0.0, None
        elif running and self._since is None:
            self._since = time.monotonic()
        elif not running and self._since is not None:
            self._elapsed += time.monotonic() - self._since
            self._since = None

    # ------------------------------------------------------------------ moves
    def _push(self, move: Move, *, by_solver: bool = False) -> bool:
        """Play ``move``; a user's move drops the solver's remaining plan. Returns whether it
        was played (an illegal move only sets the message)."""
        if not by_solver and self._autoplay is not None:
            self._autoplay.forget()
        try:
            self.game.push(move)
        except GameError as exc:
            self.message = str(exc)
            self.show()
            return False
        self.hint_cell = None
        if self.game.status == "won":
            self.message = "Every safe cell is uncovered."
        elif self.game.status == "lost":
            self.message = "Boom. Undo (u) takes the move back."
        elif not by_solver:
            self.message = ""
        if self.game.status != "playing":
            self._stop_solver()
            if self.record is not None:
                self.write_replay()
        self.show()
        return True

    def write_replay(self) -> str | None:
        """Write the finished game's replay (``.evf``, :mod:`minegraph.play.record`) into
        :attr:`record` (or the current directory); the message line says where, with the
        ``minegraph review`` command to paste (the path quoted for the shell). A game already
        written (by ``--record`` or an earlier ``w``) is not written again: the message names
        its file. Returns the path, or ``None`` when the game is not over or the file cannot
        be written."""
        from minegraph.play.record import save_evf
        if self.game.status == "playing":
            self.message = "The game is not over: w writes the replay of a won or lost game."
            self.show()
            return None
        if self._written is not None:
            game, moves, times, written = self._written
            if game is self.game and moves == self.game.moves \
                    and times == self.game.move_times and os.path.exists(written):
                self.message = f"Already saved: {written} (minegraph review " \
                               f"{shlex.quote(written)})"
                self.show()
                return written
        try:
            path = save_evf(self.game, self.record if self.record is not None else ".")
        except (GameError, OSError) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.message = f"No replay written: {why}"
            self.show()
            return None
        self._written = (self.game, list(self.game.moves), list(self.game.move_times), path)
        self.message = f"Replay written: {path} (minegraph review {shlex.quote(path)})"
        self.show()
        return path

    def uncover(self, cell: int) -> None:
        """Uncover ``cell`` (with the flood fill of zeros)."""
        self._push(Move("reveal", cell))

    def flag(self, cell: int) -> None:
        """Put a flag on ``cell``, or take it off."""
        if cell in self.game.uncovered:
            self.message = f"{self.game.label(cell)} is uncovered: nothing to flag"
            self.show()
            return
        self._push(Move("flag", cell))

    def chord(self, cell: int) -> None:
        """Uncover the unflagged neighbours of the number at ``cell`` if it has as many flags
        around it."""
        self._push(Move("chord", cell))

    def primary(self, cell: int) -> None:
        """A left click or space: uncover a covered cell, chord an uncovered number."""
        if cell in self.game.uncovered:
            self.chord(cell)
        else:
            self.uncover(cell)

    def undo(self) -> None:
        """Take the last move back (:meth:`Game.pop`)."""
        if self._autoplay is not None:
            self._autoplay.forget()
        try:
            move = self.game.pop()
        except GameError as exc:
            self.message = str(exc)
        else:
            self.hint_cell = None
            self.message = f"Took back: {move.action} {self.game.label(move.cell)}"
        self.show()

    def new_game(self) -> None:
        """Start a new game with the same settings and the next seed."""
        self._stop_solver()
        g = self.game
        seed = None if self.seed is None else self.seed + self.games_started
        self.game = Game(None, rows=g.rows, cols=g.cols, mines=g.mine_count, topology=g.topology,
                         rules=g.rules, seed=seed)
        self.games_started += 1
        self.hint_cell = None
        self._analysis = None
        self._elapsed, self._since = 0.0, None
        self.message = "New game."
        self.show()

    def toggle_overlay(self) -> None:
        """Show or hide every covered cell's mine probability."""
        self.overlay = not self.overlay
        self.message = "Each covered cell shows its exact mine probability in %: 0% only " \
                       "when proven safe; M marks a proven mine." if self.overlay else ""
        self.show()

    def hint(self) -> None:
        """Highlight the ``strong`` policy's next move and say why (or how risky) it is."""
        g = self.game
        if g.status != "playing":
            self.message = "The game is over: n for a new game, u to take the last move back."
            self.show()
            return
        try:
            decision = self.policy.decide(g)
        except MinegraphError as exc:
            self.message = f"No hint: {exc}"
            self.show()
            return
        cell = decision.moves[0].cell
        self.hint_cell = self.cursor = cell
        where = g.label(cell) + (" (take its flag off first)" if cell in g.flags else "")
        if not decision.guess and not g.uncovered:
            reason = _RULE_REASONS.get(g.rules, "the rules keep it clear")
            self.message = f"Hint: uncover {where}: {reason}."
        elif not decision.guess:
            try:
                reason = self.analyser.explain(g.board(), g.cell(cell)).text
            except MinegraphError as exc:
                reason = f"it is certainly safe (no explanation: {exc})"
            self.message = f"Hint: uncover {where}. {reason}"
        else:
            p = decision.probability
            if p is None:
                p = (self.probabilities() or {}).get(cell)
            risk = "mine probability unknown" if p is None else f"{percent(p)}% mine"
            self.message = f"Hint: uncover {where} (guess: {risk})."
        self.show()

    # ------------------------------------------------------------------ the solver
    def toggle_solver(self) -> None:
        """Let the ``strong`` policy play, a move every :attr:`solver_delay` seconds, until the
        game ends; or stop it."""
        if self._solver is not None:
            self._stop_solver()
            self.message = "Solver stopped."
        elif self.game.status != "playing":
            self.message = "The game is over: n for a new game."
        else:
            self._autoplay = Autoplay(self.game, self.policy)
            self._solver = self.set_interval(self.solver_delay, self.solver_step)
            self.message = "The solver plays."
        self.show()

    def _stop_solver(self) -> None:
        if self._solver is not None:
            self._solver.stop()
            self._solver = None
        self._autoplay = None

    def solver_step(self) -> None:
        """Play the solver's next move: the next of :class:`~minegraph.play.autoplay.Autoplay`
        (which asks the policy when its plan is used up, and takes a wrong flag off before
        uncovering the cell)."""
        g = self.game
        if g.status != "playing":
            self._stop_solver()
            self.show()
            return
        if self._autoplay is None or self._autoplay.game is not g:
            self._autoplay = Autoplay(g, self.policy)
        auto = self._autoplay
        asked = auto.decisions
        try:
            move = auto.next_move()
        except MinegraphError as exc:
            self._stop_solver()
            self.message = f"The solver stopped: {exc}"
            self.show()
            return
        if move is None:
            self._stop_solver()
            self.message = f"The solver stopped: {auto.stopped or 'nothing left to play'}."
            self.show()
            return
        decision = auto.decision
        if auto.decisions != asked and decision is not None:
            first = decision.moves[0].cell
            if decision.guess:
                p = decision.probability
                self.message = f"Solver: guess {g.label(first)}" + \
                    ("" if p is None else f" ({percent(p)}% mine)")
            else:
                self.message = f"Solver: {len(decision.moves)} safe cell(s) to uncover"
        self.cursor = move.cell
        if self._push(move, by_solver=True):
            auto.played(move)

    # ------------------------------------------------------------------ key actions
    def action_move(self, dr: int, dc: int) -> None:
        """Move the cursor (stopping at the edges)."""
        g = self.game
        assert g.rows is not None and g.cols is not None
        r, c = divmod(self.cursor, g.cols)
        r = min(max(r + dr, 0), g.rows - 1)
        c = min(max(c + dc, 0), g.cols - 1)
        self.cursor = r * g.cols + c
        self.show()

    def action_uncover(self) -> None:
        self.primary(self.cursor)

    def action_flag(self) -> None:
        self.flag(self.cursor)

    def action_chord(self) -> None:
        self.chord(self.cursor)

    def action_overlay(self) -> None:
        self.toggle_overlay()

    def action_hint(self) -> None:
        self.hint()

    def action_solver(self) -> None:
        self.toggle_solver()

    def action_undo(self) -> None:
        self.undo()

    def action_new_game(self) -> None:
        self.new_game()

    def action_write_replay(self) -> None:
        self.write_replay()

    def action_keys(self) -> None:
        """``?``: every key and mouse button, on the message line."""
        self.message = KEYS_HELP
        self.show()

