"""The terminal game (``minegraph play``), driven headlessly with Textual's test pilot.

Each test runs the app with ``App.run_test()`` inside ``asyncio.run`` (no pytest plugin), presses
keys and clicks cells, and checks what is drawn against a :class:`Game` played alongside and
against a fresh :class:`Analyser`.
"""

from __future__ import annotations

import asyncio
import re
import sys
from fractions import Fraction
from typing import Awaitable, Callable

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot  # noqa: E402

from minegraph.analyser import Analyser  # noqa: E402
from minegraph.cli import EXIT_USAGE, main  # noqa: E402
from minegraph.play.game import Game  # noqa: E402
from minegraph.play.policies import StrongPolicy, play  # noqa: E402
from minegraph.play.tui import MineField, PlayApp, percent  # noqa: E402

#: Drives a UI: run alone, after the parallel pass of make test.
pytestmark = pytest.mark.serial

Script = Callable[[Pilot[None]], Awaitable[None]]


def drive(app: PlayApp, script: Script) -> None:
    """Run ``app`` headlessly and play ``script`` on it."""
    async def go() -> None:
        async with app.run_test(size=(110, 32)) as pilot:
            await pilot.pause()
            await script(pilot)
    asyncio.run(go())


def solver_events(app: PlayApp) -> tuple[asyncio.Event, list[int]]:
    """An event set when the solver stops (the game over, or stopped by the player), and the
    count of its steps: its step wrapped on the instance, which the app's timer calls."""
    stopped, steps = asyncio.Event(), [0]
    step = app.solver_step

    def counted() -> None:
        steps[0] += 1
        step()
        if not app.solver_playing:
            stopped.set()

    app.solver_step = counted  # type: ignore[method-assign]
    return stopped, steps


async def until(event: asyncio.Event, pilot: Pilot[None]) -> None:
    """Wait for ``event`` (600 s: a guard against a hang only), then for the app to draw."""
    await asyncio.wait_for(event.wait(), 600)
    await pilot.pause()


def bar(app: PlayApp) -> str:
    return str(app.query_one("#bar").render())


def status(app: PlayApp) -> str:
    return str(app.query_one("#status").render())


def message(app: PlayApp) -> str:
    return str(app.query_one("#message").render())


def at(app: PlayApp, cell: int) -> tuple[int, int]:
    """The offset inside the grid widget of the middle of ``cell``: past the row numbers and
    under the column numbers."""
    assert app.game.cols is not None
    r, c = divmod(cell, app.game.cols)
    header = app.query_one(MineField).render().plain.split("\n")[:app.header_lines]
    gutter = len(str(app.game.rows - 1)) + 1 if app.game.rows else 0
    return gutter + c * app.cell_width + 1, len(header) + r


async def click(pilot: Pilot[None], app: PlayApp, cell: int, button: int = 1) -> None:
    await pilot.click(MineField, offset=at(app, cell), button=button)
    await pilot.pause()


def shows_the_game(app: PlayApp) -> None:
    """Every cell is drawn as the game has it: numbers on uncovered cells, flags, covers."""
    g = app.game
    for cell in range(g.size):
        text = app.cell_text(cell)
        if cell in g.uncovered:
            n = g.number(cell)
            assert text.strip() == (str(n) if n else ""), (cell, text)
        elif cell in g.flags:
            assert text == " F "
        else:
            assert text == " · "


# ---------------------------------------------------------------------- new game and counter
@pytest.mark.parametrize("size, mines", [("beginner", 10), ("intermediate", 40), ("expert", 99)])
def test_a_new_game_shows_the_mine_count(size: str, mines: int) -> None:
    app = PlayApp(Game(size, rules="classic", seed=4), seed=4)

    async def script(pilot: Pilot[None]) -> None:
        assert app.mines_left == mines
        assert bar(app).startswith(f"Mines: {mines}   Time: 0")
        assert "seed 4" in bar(app) and status(app).startswith("Playing")
        shows_the_game(app)

    drive(app, script)


def test_new_game_takes_the_next_seed_and_resets_the_counter() -> None:
    app = PlayApp(Game(rows=6, cols=7, mines=5, rules="modern", seed=10), seed=10)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("space")
        await click(pilot, app, min(set(range(42)) - app.game.uncovered), button=3)
        assert app.mines_left == 4 and app.game.uncovered
        await pilot.press("n")
        g = app.game
        assert (g.rows, g.cols, g.mine_count, g.rules) == (6, 7, 5, "modern")
        assert not g.moves and not g.uncovered and not g.flags
        assert bar(app).startswith("Mines: 5   Time: 0") and "seed 11" in bar(app)
        # The new game is the one seed 11 gives.
        g.reveal(0)
        same = Game(rows=6, cols=7, mines=5, rules="modern", seed=11)
        same.reveal(0)
        assert g.layout == same.layout

    drive(app, script)


# ---------------------------------------------------------------------- uncovering
def test_the_keyboard_moves_the_cursor_and_uncovers() -> None:
    app = PlayApp(Game("beginner", rules="classic", seed=2), seed=2)
    ref = Game("beginner", rules="classic", seed=2)

    async def script(pilot: Pilot[None]) -> None:
        assert app.cursor == 4 * 9 + 4
        await pilot.press("up", "up", "k", "left", "l", "l", "j", "down")   # to (3, 5)
        assert app.cursor == 3 * 9 + 5
        await pilot.press("left", *["up"] * 12)                             # stops at the edge
        assert app.cursor == 0 * 9 + 4
        await pilot.press("down", "down", "space")
        opened = ref.reveal((2, 4))
        assert app.game.uncovered == set(opened) == ref.uncovered
        shows_the_game(app)
        await pilot.press("right", "right", "right", "down", "down", "enter")
        cell = 4 * 9 + 7
        if cell not in ref.uncovered:
            ref.reveal(cell)
        assert app.game.uncovered == ref.uncovered and app.game.status == ref.status
        shows_the_game(app)

    drive(app, script)


def test_a_left_click_uncovers_what_the_game_says() -> None:
    app = PlayApp(Game("beginner", rules="modern", seed=6), seed=6)
    ref = Game("beginner", rules="modern", seed=6)

    async def script(pilot: Pilot[None]) -> None:
        await click(pilot, app, 3 * 9 + 6)
        assert app.cursor == 3 * 9 + 6
        assert app.game.uncovered == set(ref.reveal((3, 6))) and len(ref.uncovered) > 1
        shows_the_game(app)
        layout = ref.layout or frozenset()
        covered = next(c for c in range(81) if c not in ref.uncovered and c not in layout)
        await click(pilot, app, covered)
        ref.reveal(covered)
        assert app.game.uncovered == ref.uncovered
        shows_the_game(app)

    drive(app, script)


def test_a_click_on_a_satisfied_number_chords() -> None:
    app = PlayApp(Game("beginner", rules="modern", seed=6), seed=6)
    ref = Game("beginner", rules="modern", seed=6)

    async def script(pilot: Pilot[None]) -> None:
        await click(pilot, app, 3 * 9 + 6)
        ref.reveal((3, 6))
        layout = ref.layout
        assert layout is not None
        # A number whose mines can all be flagged and which still has a safe covered neighbour.
        number = next(c for c in sorted(ref.uncovered) if ref.number(c) > 0 and any(
            q not in ref.uncovered and q not in layout for q in ref.neighbors[c]))
        await click(pilot, app, number)                 # not satisfied yet: nothing happens
        assert app.game.uncovered == ref.uncovered and "cannot be chorded" in message(app)
        for q in ref.neighbors[number]:
            if q in layout:
                await click(pilot, app, q, button=3)
                ref.flag(q)
        await click(pilot, app, number)
        ref.chord(number)
        assert app.game.moves[-1].action == "chord"
        assert app.game.uncovered == ref.uncovered and app.game.flags == ref.flags
        shows_the_game(app)

    drive(app, script)


@pytest.mark.parametrize("topology", ["torus", "hex", "triangle"])
def test_every_grid_topology_is_played_as_a_grid(topology: str) -> None:
    app = PlayApp(Game(rows=6, cols=8, mines=5, topology=topology, rules="modern", seed=1), seed=1)
    ref = Game(rows=6, cols=8, mines=5, topology=topology, rules="modern", seed=1)

    async def script(pilot: Pilot[None]) -> None:
        assert (f"{topology} grid drawn square" in status(app)) == (topology != "torus")
        await click(pilot, app, 2 * 8 + 3)
        assert app.game.uncovered == set(ref.reveal((2, 3)))
        shows_the_game(app)

    drive(app, script)


# ---------------------------------------------------------------------- flags and undo
def test_flags_change_the_counter() -> None:
    app = PlayApp(Game("beginner", rules="classic", seed=3), seed=3)

    async def script(pilot: Pilot[None]) -> None:
        await click(pilot, app, 0, button=3)
        assert app.game.flags == {0} and app.mines_left == 9 and bar(app).startswith("Mines: 9 ")
        assert app.cell_text(0) == " F " and app.cursor == 0
        await pilot.press("right", "f")                  # the cursor's cell, (0, 1)
        assert app.game.flags == {0, 1} and bar(app).startswith("Mines: 8 ")
        await pilot.press("f")                           # off again
        assert app.game.flags == {0} and bar(app).startswith("Mines: 9 ")
        await click(pilot, app, 0)                       # a flagged cell is not uncovered
        assert not app.game.uncovered and "flagged" in message(app)
        shows_the_game(app)

    drive(app, script)


def test_undo_takes_moves_back() -> None:
    app = PlayApp(Game("beginner", rules="classic", seed=3), seed=3)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("u")
        assert "no move to take back" in message(app)
        await pilot.press("space")
        opened = set(app.game.uncovered)
        await click(pilot, app, next(c for c in range(81) if c not in opened), button=3)
        assert app.mines_left == 9
        await pilot.press("u")
        assert app.game.flags == set() and app.game.uncovered == opened
        assert bar(app).startswith("Mines: 10 ") and "Took back: flag" in message(app)
        await pilot.press("u")
        assert not app.game.uncovered and app.game.layout is None and not app.game.moves
        shows_the_game(app)

    drive(app, script)


def test_the_end_of_a_game_is_shown_and_undo_resumes_it() -> None:
    game = Game(rows=1, cols=3, mines=1, rules="any", seed=1)       # the mine at (0, 0)
    assert game.layout == frozenset({0})
    app = PlayApp(game, seed=1)

    async def script(pilot: Pilot[None]) -> None:
        await click(pilot, app, 0)
        assert app.game.status == "lost" and status(app).startswith("LOST: a mine at (0, 0)")
        assert app.cell_text(0) == " * "
        await pilot.press("u")
        assert app.game.status == "playing" and status(app).startswith("Playing")
        await click(pilot, app, 2)                      # a 0: opens (0, 1) too
        assert app.game.status == "won" and status(app).startswith("WON in")
        assert app.cell_text(0) == " F " and app.cell_text(1) == " 1 "

    drive(app, script)


# ---------------------------------------------------------------------- the overlay
def test_percent_is_proven_only_at_0_and_100() -> None:
    assert [percent(Fraction(n, 1000)) for n in (0, 1, 4, 5, 500, 994, 995, 999, 1000)] == \
        [0, 1, 1, 1, 50, 99, 99, 99, 100]
    assert percent(Fraction(1, 3)) == 33 and percent(Fraction(2, 3)) == 67


def test_the_overlay_shows_both_ends_of_1_x_3_at_50_percent() -> None:
    app = PlayApp(Game(rows=1, cols=3, mines=1, rules="any", seed=1), seed=1)

    async def script(pilot: Pilot[None]) -> None:
        await click(pilot, app, 1)
        assert app.cell_text(1) == " 1 "
        assert app.cell_text(0) == app.cell_text(2) == " · "
        await pilot.press("p")
        assert "overlay" in status(app)
        assert Analyser().analyze(app.game.board()).probabilities == \
            {(0, 0): Fraction(1, 2), (0, 2): Fraction(1, 2)}
        assert app.cell_text(0) == app.cell_text(2) == "50%"
        await pilot.press("p")
        assert app.cell_text(0) == " · " and "overlay" not in status(app)

    drive(app, script)


def test_the_overlay_shows_the_analysers_probabilities() -> None:
    app = PlayApp(Game("beginner", rules="classic", seed=0), seed=0)

    async def script(pilot: Pilot[None]) -> None:
        await click(pilot, app, 0)
        await click(pilot, app, 80, button=3)            # flags play no part in the analysis
        await pilot.press("p")
        analysis = Analyser().analyze(app.game.board())
        assert analysis.safe and analysis.mines
        for where, p in analysis.probabilities.items():
            assert isinstance(where, tuple)
            r, c = where
            cell = r * 9 + c
            text = app.cell_text(cell)
            if cell in app.game.flags:
                assert text == " F "
            elif (r, c) in analysis.mines:
                assert text == " M ", (r, c, p, text)          # a proven mine, not "100"
            else:
                assert text == f"{percent(p)}%".rjust(3), (r, c, p, text)
                assert (text.strip() == "0%") == ((r, c) in analysis.safe)

    drive(app, script)


# ---------------------------------------------------------------------- hint
def test_hint_names_a_certain_cell_with_explains_reason() -> None:
    app = PlayApp(Game("beginner", rules="classic", seed=0), seed=0)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("h")                           # the first move: the corner
        assert app.hint_cell == 0 and app.cursor == 0
        assert message(app) == "Hint: uncover (0, 0): the first cell uncovered is never a " \
                               "mine under classic rules."
        await pilot.press("space")                       # the hint moved the cursor there
        assert 0 in app.game.uncovered and app.hint_cell is None
        await pilot.press("h")
        board = app.game.board()
        analyser = Analyser()
        safe = analyser.analyze(board).safe
        cell = app.hint_cell
        assert cell is not None and divmod(cell, 9) in safe
        where = str(divmod(cell, 9))
        reason = analyser.explain(board, divmod(cell, 9))
        assert reason.status == "safe"
        assert message(app) == f"Hint: uncover {where}. {reason.text}"
        assert "yellow" in app.face(cell)[1]

    drive(app, script)


def test_hint_on_a_guess_gives_the_mine_probability() -> None:
    app = PlayApp(Game(rows=1, cols=3, mines=1, rules="any", seed=1), seed=1)

    async def script(pilot: Pilot[None]) -> None:
        await click(pilot, app, 1)
        await pilot.press("h")
        assert app.hint_cell in (0, 2)
        assert message(app) == f"Hint: uncover {(0, app.hint_cell)} (guess: 50% mine)."

    drive(app, script)


# ---------------------------------------------------------------------- the solver
def test_the_solver_finishes_a_beginner_game() -> None:
    app = PlayApp(Game("beginner", rules="modern", seed=1), seed=1, solver_delay=0.01)
    ref = Game("beginner", rules="modern", seed=1)
    record = play(ref, StrongPolicy())
    stopped, _ = solver_events(app)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("s")
        await until(stopped, pilot)
        assert app.game.status == ("won" if record.won else "lost") == "won"
        assert app.game.uncovered == ref.uncovered
        assert not app.solver_playing and status(app).startswith("WON in")
        shows_the_game_over = [app.cell_text(c) for c in sorted(ref.layout or ())]
        assert shows_the_game_over == [" F "] * 10
        assert app.mines_left == 0 and bar(app).startswith("Mines: 0 ")

    drive(app, script)


def test_s_again_stops_the_solver() -> None:
    app = PlayApp(Game("expert", rules="modern", seed=1), seed=1, solver_delay=0.2)
    _, steps = solver_events(app)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("s")
        assert app.solver_playing and "solver playing" in status(app)
        await pilot.press("s")
        assert not app.solver_playing and message(app) == "Solver stopped."
        moves, taken = len(app.game.moves), steps[0]
        for _ in range(5):                  # whatever was queued is handled: no step comes
            await pilot.pause()
        assert (len(app.game.moves), steps[0]) == (moves, taken)
        assert app.game.status == "playing"

    drive(app, script)


def test_the_solver_takes_off_a_wrong_flag() -> None:
    app = PlayApp(Game("beginner", rules="classic", seed=0), seed=0, solver_delay=0.01)

    async def script(pilot: Pilot[None]) -> None:
        await click(pilot, app, 0)
        wrong = app.game.index(Analyser().analyze(app.game.board()).safe[0])
        await click(pilot, app, wrong, button=3)         # a flag on a proven-safe cell
        await pilot.press("h")
        assert app.hint_cell == wrong and "(take its flag off first)" in message(app)
        await pilot.press("s")
        await until(stopped, pilot)
        assert app.game.status == "won" and wrong in app.game.uncovered
        assert wrong not in app.game.flags
        assert any(m.action == "flag" and m.cell == wrong for m in app.game.moves[2:])

    stopped, _ = solver_events(app)
    drive(app, script)


def test_the_solver_steps_through_the_library_loop_with_wrong_flags() -> None:
    """Step by step (no timer), the terminal's solver plays what the flag-free game gives with
    each wrong flag taken off just before its cell is uncovered (tests/solver_cases.py)."""
    from solver_cases import wrong_flags
    case = wrong_flags({"size": "beginner", "rules": "modern", "seed": 2}, (3, 3), "strong")
    assert case.flags
    app = PlayApp(case.start(), seed=2)
    begun = len(app.game.moves)

    async def script(pilot: Pilot[None]) -> None:
        for _ in range(len(case.expected)):
            app.solver_step()
        assert app.game.moves[begun:] == list(case.expected)
        assert app.game.status == case.status and not app.solver_playing
        app.solver_step()                                # over: nothing more is played
        assert len(app.game.moves) == begun + len(case.expected)

    drive(app, script)


# ---------------------------------------------------------------------- the command
@pytest.mark.parametrize("argv, says", [
    (["--size", "huge"], "invalid choice: 'huge'"),
    (["--rows", "2", "--cols", "3"], "10 mines do not fit"),   # beginner's 10 mines in 2x3
    (["--mines", "90"], "90 mines do not fit"),
    (["--rows", "0", "--cols", "3", "--mines", "1"], "argument --rows"),
    (["--cols", "201", "--rows", "3", "--mines", "1"], "from 1 to 200"),
    (["--seed", "-3"], "argument --seed"),
    (["--rules", "easy"], "argument --rules"),
    (["--topology", "cube"], "argument --topology"),
    (["--delay", "0"], "argument --delay"),
])
def test_the_command_rejects_bad_options_in_one_line(
        argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    try:
        assert main(["play", *argv]) == EXIT_USAGE
    except SystemExit as exc:                           # the parser's errors end it at once
        assert exc.code == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith("minegraph: error: ") and says in err and err.count("\n") == 1


def test_the_command_needs_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--seed", "1"]) == EXIT_USAGE
    assert "needs an interactive terminal" in capsys.readouterr().err


class _Terminal:
    def isatty(self) -> bool:
        return True


def test_the_command_starts_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[PlayApp] = []
    monkeypatch.setattr(PlayApp, "run", lambda self: started.append(self))
    monkeypatch.setattr(sys, "stdin", _Terminal())
    monkeypatch.setattr(sys, "__stderr__", _Terminal())
    assert main(["play", "--size", "expert", "--rules", "modern", "--seed", "9",
                 "--delay", "0.05"]) == 0
    assert main(["play", "--rows", "4", "--cols", "12", "--mines", "7", "--topology", "hex"]) == 0
    assert main(["play", "--mines", "20"]) == 0
    first, custom, beginner = (app.game for app in started)
    assert (first.rows, first.cols, first.mine_count, first.rules) == (16, 30, 99, "modern")
    assert started[0].seed == 9 and started[0].solver_delay == 0.05
    assert (custom.rows, custom.cols, custom.mine_count, custom.topology) == (4, 12, 7, "hex")
    assert started[1].seed is not None                  # drawn, and shown on screen
    assert (beginner.rows, beginner.cols, beginner.mine_count) == (9, 9, 20)


def test_each_size_option_overrides_the_default_sizes_value(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 22: --help says --rows, --cols and --mines override the size's values, but
    # "--rows 5" alone was refused ("a custom game needs rows, cols and mines").
    started: list[PlayApp] = []
    monkeypatch.setattr(PlayApp, "run", lambda self: started.append(self))
    monkeypatch.setattr(sys, "stdin", _Terminal())
    monkeypatch.setattr(sys, "__stderr__", _Terminal())
    for argv in (["--rows", "5"], ["--cols", "12"], ["--rows", "5", "--cols", "5"],
                 ["--size", "expert", "--rows", "20"], ["--size", "intermediate", "--cols", "20"]):
        assert main(["play", "--seed", "1", *argv]) == 0, argv
    shapes = [(app.game.rows, app.game.cols, app.game.mine_count) for app in started]
    assert shapes == [(5, 9, 10), (9, 12, 10), (5, 5, 10), (20, 30, 99), (16, 20, 40)]


def test_the_top_bar_gives_the_size_as_rows_by_columns() -> None:
    # Issue 22: rows x columns as analyze and generate write sizes; it said 30x16 for Expert.
    app = PlayApp(Game("expert", rules="classic", seed=1), seed=1)
    assert "16x30 square, 99 mines" in app.bar_text()
    app = PlayApp(Game(rows=4, cols=12, mines=7, topology="hex", rules="classic", seed=1), seed=1)
    assert "4x12 hex, 7 mines" in app.bar_text()



def test_the_overlay_keeps_values_apart() -> None:
    # Issue 22: a proven mine showed "100", filling its 3-character cell, so that neighbours
    # ran together ("100100" or " 50100"). Every value now ends with "%" (issue 34) or is
    # " M ": no two values make one run of digits.
    app = PlayApp(Game("beginner", rules="classic", seed=0), seed=0)

    async def script(pilot: Pilot[None]) -> None:
        await click(pilot, app, 0)
        await pilot.press("p")
        analysis = Analyser().analyze(app.game.board())
        assert analysis.mines
        covered = [cell for cell in range(app.game.size) if cell not in app.game.uncovered]
        assert covered and all(app.cell_text(cell).endswith("%") or app.cell_text(cell) == " M "
                               for cell in covered)
        rows = app.query_one(MineField).render().plain.split("\n")[app.header_lines:]
        assert not any("100" in line for line in rows)
        assert not any(re.search(r"\d{3}", line[2:]) for line in rows)
        assert "M a proven mine" in status(app) and "M" in message(app)

    drive(app, script)


def test_question_mark_lists_the_keys() -> None:
    app = PlayApp(Game("beginner", rules="classic", seed=0), seed=0)

    async def script(pilot: Pilot[None]) -> None:
        assert "?" in message(app)                            # the welcome says how to ask
        await pilot.press("question_mark")
        text = message(app)
        for key in ("arrows", "space", "f ", "c ", "p ", "h ", "s ", "u ", "n ", "q ", "?",
                    "right click", "middle click"):
            assert key in text, (key, text)
        # Nothing was played, and a move clears it.
        assert not app.game.moves
        await pilot.press("space")
        assert "arrows" not in message(app)

    drive(app, script)


# ---------------------------------------------------------------------- issue 34
def drive_at(app: PlayApp, size: tuple[int, int], script: Script) -> None:
    """Run ``app`` headlessly in a terminal of ``size`` (columns, lines)."""
    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot)
    asyncio.run(go())


@pytest.mark.parametrize("columns", [80, 100])
def test_expert_fits_with_its_row_and_column_numbers(columns: int) -> None:
    # Hints and errors name cells (r, c): the grid shows the numbers to find them by, and
    # Expert's 30 columns fit an 80-column terminal (2 columns a cell) as a 100-column one.
    app = PlayApp(Game("expert", rules="classic", seed=3), seed=3)

    async def script(pilot: Pilot[None]) -> None:
        field = app.query_one(MineField)
        box = app.query_one("#box")
        assert field.region.right <= columns and box.max_scroll_x == 0
        assert field.region.bottom <= 40 and box.max_scroll_y == 0
        lines = field.render().plain.split("\n")
        header, grid = lines[:-16], lines[-16:]
        # The row numbers, 0 to 15, start the lines; every line fits.
        assert [line.split()[0] for line in grid] == [str(r) for r in range(16)]
        assert all(len(line) <= columns for line in lines)
        # The column numbers: read column c's position off the header (the units digit, and
        # the tens above it where there is a line for them), click under it in the row
        # labelled r, and (r, c) is the cell played.
        labels = list(re.finditer(r"\d+", header[-1]))
        where = [m.end() - 1 for m in labels]       # the last digit: over the cell's middle
        if len(header) == 2:                        # the units, and the tens above them
            assert [int(m.group()) for m in labels] == [c % 10 for c in range(30)]
            assert [(x, header[0][x]) for x in range(len(header[0])) if header[0][x] != " "] \
                == [(where[10], "1"), (where[20], "2")]
        else:
            assert [int(m.group()) for m in labels] == list(range(30))
        for r, c in [(4, 23), (15, 29), (0, 0), (9, 11)]:
            if app.game.status != "playing":
                break
            await pilot.click(MineField, offset=(where[c], len(header) + r), button=3)
            await pilot.pause()
            assert app.game.moves[-1].cell == r * 30 + c and app.game.flags >= {r * 30 + c}
            assert f"{grid[r].split()[0]}" == str(r)

    drive_at(app, (columns, 40), script)


def test_the_overlay_tells_probabilities_from_numbers_without_colour() -> None:
    # Read from the text alone (no styles): "N%" is a probability, a bare digit a number.
    app = PlayApp(Game("beginner", rules="classic", seed=0), seed=0)

    async def script(pilot: Pilot[None]) -> None:
        await click(pilot, app, 0)
        await pilot.press("p")
        g = app.game
        analysis = Analyser().analyze(g.board())
        rows = app.query_one(MineField).render().plain.split("\n")[app.header_lines:]
        gutter = len(str(g.rows - 1)) + 1 if g.rows else 0
        for cell in range(g.size):
            r, c = divmod(cell, 9)
            text = rows[r][gutter + 3 * c: gutter + 3 * c + 3]
            if cell in g.uncovered:
                n = g.number(cell)
                assert "%" not in text and text.strip() == (str(n) if n else "")
            elif (r, c) in analysis.mines:
                assert text == " M "
            else:
                p = analysis.probabilities[(r, c)]
                assert re.fullmatch(r" ?\d{1,2}%", text) and int(text.strip(" %")) == percent(p)
        assert any(g.number(c) for c in g.uncovered)        # numbers are there to tell apart

    drive(app, script)


def test_a_won_game_shows_every_mine_flagged_and_none_left() -> None:
    # Issue 34: after a win the counter said "Mines: 9" with all 10 mines shown flagged.
    game = Game(rows=1, cols=3, mines=1, rules="any", seed=1)       # M 1 0
    assert game.layout == frozenset({0})
    app = PlayApp(game, seed=1)

    async def script(pilot: Pilot[None]) -> None:
        assert app.mines_left == 1 and bar(app).startswith("Mines: 1 ")
        await click(pilot, app, 2)
        assert app.game.status == "won" and not app.game.flags
        assert app.cell_text(0) == " F "
        assert app.mines_left == 0 and bar(app).startswith("Mines: 0 ")

    drive(app, script)


def test_the_grid_follows_the_terminal_when_it_is_resized() -> None:
    app = PlayApp(Game("expert", rules="classic", seed=3), seed=3)

    async def script(pilot: Pilot[None]) -> None:
        field, box = app.query_one(MineField), app.query_one("#box")
        for columns in (80, 100, 80):
            await pilot.resize_terminal(columns, 40)
            await pilot.pause()
            assert field.region.right <= columns and box.max_scroll_x == 0
            units = field.render().plain.split("\n")[app.header_lines - 1]
            assert len(re.findall(r"\d+", units)) == 30

    drive_at(app, (100, 40), script)
