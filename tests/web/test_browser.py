"""The web page in a real browser: Debian's chromium driven by Playwright, against the app
served by uvicorn on a free local port.

Checked against the library itself (an independent path: no browser, no HTTP): the
probabilities the page paints on a game after its first move, and the analyser tab's answer
on a pasted position; plus the error a bad position shows. ``make test`` installs chromium
with apt-get when it is missing; without it these tests fail rather than skip.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import playwright.sync_api as playwright_sync
import pytest

from minegraph import Board, analyze, explain
from waiting import wait_for

#: Measures time (or drives a UI): run alone, after the parallel pass of make test.
pytestmark = pytest.mark.serial

#: With MINEGRAPH_SCREENSHOTS=1 the tests also save a picture of each view into docs/img.
SCREENSHOTS = os.environ.get("MINEGRAPH_SCREENSHOTS") == "1"
DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"


def _shot(page: Any, name: str) -> None:
    if SCREENSHOTS:
        DOCS_IMG.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(DOCS_IMG / f"web-{name}.png"), full_page=True)


def _wait_idle(page: Any) -> None:
    page.wait_for_function("!minegraph.play.busy")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    import uvicorn

    from minegraph.web import Limits
    from minegraph.web.app import create_app
    from minegraph.web.server import server_config
    port = _free_port()
    # minegraph serve's configuration (its Host check and headers: the page must work under
    # its Content-Security-Policy), with room for the many games the tests start, and
    # deadlines a loaded machine cannot reach (a solver stopped at 10 s left a game unfinished
    # at load 20: the tests check what the page shows, not how fast the machine is).
    limits = Limits(games_per_minute=10_000, analyze_seconds=600, explain_seconds=600)
    srv = uvicorn.Server(server_config(create_app(limits), "127.0.0.1", port, limits))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    wait_for(lambda: srv.started, "uvicorn started")
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = shutil.which("chromium")
    assert executable is not None, "chromium is missing: make test installs it with apt-get"
    with playwright_sync.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield browser
        browser.close()


def _wait_for_function(page: Any, expression: str, seconds: float = 120) -> None:
    """Wait until ``expression`` is true in the page. Playwright's own ``wait_for_function``
    compiles its predicate with ``eval``, which the page's Content-Security-Policy forbids;
    this sends the expression as code to run (the DevTools protocol's evaluation, which the
    policy does not govern), checked on every timer tick in the page. The limit only keeps a
    broken page from hanging the run (as tests/waiting.py's): it never decides a passing test."""
    ok = page.evaluate("() => new Promise((done) => { const end = Date.now() + %d; "
                       "const check = () => { let v = false; try { v = !!(%s); } catch (e) {} "
                       "if (v || Date.now() > end) done(v); else setTimeout(check, 10); }; "
                       "check(); })" % (int(seconds * 1000), expression))
    assert ok, f"never true in the page: {expression}"


def _open(browser: Any, server: str, **context: Any) -> Any:
    """A fresh page (its own context: no state shared with other tests) on the app, under
    the server's Content-Security-Policy (any violation is an error of the page)."""
    ctx = browser.new_context(**context)
    page = ctx.new_page()
    page.set_default_timeout(120_000)          # a hang guard, as above
    page.wait_for_function = lambda expression: _wait_for_function(page, expression)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # Anything the Content-Security-Policy refuses is an error too.
    page.on("console", lambda m: errors.append(m.text)
            if "Content Security Policy" in m.text else None)
    page.js_errors = errors
    page.goto(server + "/")
    page.wait_for_selector("#board .cell")
    page.wait_for_function("minegraph.play.game !== null && minegraph.play.asked === 1")   # the first game is in
    return page


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    page = _open(browser, server, viewport={"width": 1366, "height": 900})
    yield page
    assert page.js_errors == [], page.js_errors
    page.context.close()


@pytest.fixture
def phone(browser: Any, server: str) -> Iterator[Any]:
    page = _open(browser, server, viewport={"width": 390, "height": 844}, has_touch=True,
                 is_mobile=True, device_scale_factor=2)
    yield page
    assert page.js_errors == [], page.js_errors
    page.context.close()


def _agrees(title: str, p: float) -> bool:
    """Whether the page's tooltip ``mine probability X%`` (4 decimals; ``0%`` and ``100%``
    only when proven, ``<0.0001%`` / ``>99.9999%`` near them) states ``p``."""
    shown = title.removeprefix("mine probability ").removesuffix("%")
    if p in (0, 1):
        return shown == ("0" if p == 0 else "100")
    if shown.startswith("<"):
        return 0 < p * 100 < 0.0001
    if shown.startswith(">"):
        return 99.9999 < p * 100 < 100
    return abs(float(shown) - p * 100) <= 0.00005 + 1e-12


def _new_custom_game(page: Any, rows: int, cols: int, mines: int, seed: int | None,
                     rules: str = "modern") -> None:
    """A new game from the form (``seed`` ``None``: a secret one)."""
    page.click("#tab-play")
    if not page.evaluate("(d => !d || d.open)(document.getElementById('game-settings'))"):
        page.click("#game-settings summary")
    page.select_option("select[name=size]", "custom")
    page.fill("input[name=rows]", str(rows))
    page.fill("input[name=cols]", str(cols))
    page.fill("input[name=mines]", str(mines))
    page.select_option("select[name=rules]", rules)
    page.fill("input[name=seed]", "" if seed is None else str(seed))
    before = page.evaluate("minegraph.play.asked")
    page.click("#new-game button[type=submit]")
    # The new game is in (not an earlier board that happens to have that many cells).
    page.wait_for_function(f"minegraph.play.asked > {before} && minegraph.play.game.rows === {rows} && "
                           f"minegraph.play.game.cols === {cols} && minegraph.play.game.mines === {mines} && "
                           f"minegraph.play.game.moves === 0")
    page.wait_for_selector(f"#board .cell[data-r='{rows - 1}'][data-c='{cols - 1}']")


def _shown_board(page: Any, rows: int, cols: int, mines: int) -> tuple[Board, dict[tuple[int, int], str]]:
    """The position as the page shows it, read back from the cells, and the tooltips of the
    cells the overlay paints."""
    cells = page.eval_on_selector_all(
        "#board .cell",
        "els => els.map(e => [Number(e.dataset.r), Number(e.dataset.c), e.className,"
        " e.textContent, e.title])")
    grid = [["#"] * cols for _ in range(rows)]
    painted: dict[tuple[int, int], str] = {}
    for r, c, classes, text, title in cells:
        if "open" in classes.split():
            grid[r][c] = text or "0"
        elif "flag" in classes.split():
            grid[r][c] = "F"
        elif "prob" in classes.split():
            painted[(r, c)] = title
    board = Board.from_text(f"mines: {mines}\n" + "\n".join("".join(row) for row in grid))
    return board, painted


def test_overlay_paints_the_library_probabilities(page: Any) -> None:
    _new_custom_game(page, 6, 7, 8, 12345)
    page.click("#board .cell[data-r='2'][data-c='3']")
    page.wait_for_selector("#board .cell.open")
    page.check("#overlay")
    page.wait_for_selector("#board .cell.prob")
    board, painted = _shown_board(page, 6, 7, 8)
    expected = analyze(board, arithmetic="exact")
    assert expected.consistent
    assert painted.keys() == {cell for cell in expected.probabilities}
    for cell, title in painted.items():
        assert _agrees(title, float(expected.probabilities[cell])), (cell, title)
    best = page.eval_on_selector("#board .cell.best", "e => [Number(e.dataset.r), Number(e.dataset.c)]")
    assert expected.probabilities[tuple(best)] == min(expected.probabilities.values())
    _shot(page, "play-overlay")


def test_why_highlights_the_numbers_that_force_a_cell(page: Any) -> None:
    """On a certain cell the page highlights exactly the numbers ``explain`` returns."""
    for seed in range(1, 40):
        _new_custom_game(page, 8, 8, 10, seed)
        page.click("#board .cell[data-r='4'][data-c='4']")
        page.wait_for_selector("#board .cell.open")
        page.check("#overlay")
        page.wait_for_selector("#board .cell.prob")
        certain = page.query_selector("#board .cell.certain-safe, #board .cell.certain-mine")
        if certain is not None:
            break
        page.uncheck("#overlay")
    else:  # pragma: no cover - the seeds above do give certain cells
        pytest.fail("no certain cell in 39 games")
    r, c = int(certain.get_attribute("data-r")), int(certain.get_attribute("data-c"))
    board, _ = _shown_board(page, 8, 8, 10)
    want = explain(board, (r, c))
    page.check("#why-mode")
    page.click(f"#board .cell[data-r='{r}'][data-c='{c}']")
    page.wait_for_selector("#board .cell.why-asked")
    page.wait_for_function("minegraph.whyState.controller === null")     # the last answer is in
    highlighted = page.eval_on_selector_all(
        "#board .cell.why-clue", "els => els.map(e => [Number(e.dataset.r), Number(e.dataset.c)])")
    assert {tuple(x) for x in highlighted} == set(want.clues) and highlighted
    assert page.text_content("#why-text") == want.text
    _shot(page, "play-why")
    page.uncheck("#why-mode")
    page.uncheck("#overlay")


def test_keyboard_moves_uncovers_and_flags(page: Any) -> None:
    _new_custom_game(page, 5, 5, 3, 777)
    page.focus("#board .cell[data-r='0'][data-c='0']")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Space")             # uncovers (1, 1): the first move is safe
    page.wait_for_selector("#board .cell[data-r='1'][data-c='1'].open")
    page.wait_for_function("!minegraph.play.busy")     # the move and its redraw are over
    r, c = page.eval_on_selector("#board .cell:not(.open)",
                                 "e => [Number(e.dataset.r), Number(e.dataset.c)]")
    page.focus(f"#board .cell[data-r='{r}'][data-c='{c}']")
    page.keyboard.press("f")
    page.wait_for_selector(f"#board .cell[data-r='{r}'][data-c='{c}'].flag")
    assert page.text_content("#mine-counter") == "2"


def test_a_long_press_flags_without_uncovering(page: Any) -> None:
    _new_custom_game(page, 6, 6, 5, 99)
    page.click("#board .cell[data-r='2'][data-c='2']")
    page.wait_for_selector("#board .cell.open")
    page.wait_for_function("!minegraph.play.busy")
    r, c = page.eval_on_selector("#board .cell:not(.open)",
                                 "e => [Number(e.dataset.r), Number(e.dataset.c)]")
    box = page.query_selector(f"#board .cell[data-r='{r}'][data-c='{c}']").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    # Held until the press flags (the page's timer, an event here), then let go: the click
    # that ends the press must not uncover the cell.
    page.wait_for_selector(f"#board .cell[data-r='{r}'][data-c='{c}'].flag")
    _wait_idle(page)
    page.mouse.up()
    _wait_idle(page)
    assert page.text_content("#mine-counter") == "4"
    assert page.query_selector(f"#board .cell[data-r='{r}'][data-c='{c}'].open") is None


def test_the_solver_plays_a_step_then_to_the_end(page: Any) -> None:
    from minegraph.play.game import Game
    from minegraph.play.policies import get_policy, play
    _new_custom_game(page, 9, 9, 10, 2024)
    page.click("#solver-step")
    page.wait_for_selector("#board .cell.open")
    assert "1 decision(s)" in (page.text_content("#why-text") or "")
    page.click("#solver-end")
    page.wait_for_function("['You won!', 'Boom — you lost.']"
                           ".includes(document.querySelector('#game-status').textContent)")
    record = play(Game(rows=9, cols=9, mines=10, rules="modern", seed=2024), get_policy("strong"))
    want = "You won!" if record.won else "Boom — you lost."
    assert page.text_content("#game-status") == want
    _shot(page, "play-solver")


def test_a_noguess_game_is_won_by_the_solver_without_guessing(page: Any) -> None:
    _new_custom_game(page, 9, 9, 12, 31, rules="noguess")
    page.click("#board .cell[data-r='4'][data-c='4']")
    page.wait_for_selector("#board .cell.open")
    page.wait_for_function("!minegraph.play.busy")
    page.click("#solver-end")
    page.wait_for_function("['You won!', 'Boom — you lost.']"
                           ".includes(document.querySelector('#game-status').textContent)")
    assert page.text_content("#game-status") == "You won!"
    assert "0 guess(es)" in (page.text_content("#why-text") or "")


def test_analyser_tab_answers_and_reports_errors(page: Any) -> None:
    page.click("#tab-analyse")
    page.fill("#position", "mines: 1\n#1#\n###")
    page.click("#analyse-form button[type=submit]")
    page.wait_for_selector("#analyse-result:not([hidden])")
    want = analyze(Board.from_text("mines: 1\n#1#\n###"))
    assert page.text_content("#r-solutions") == str(want.solutions)
    assert page.text_content("#r-consistent") == "yes"
    page.fill("#position", "#1-\n#1-\n#1-")          # the 1-1-1 wall: known safe cells
    page.click("#analyse-form button[type=submit]")
    page.wait_for_function("document.querySelector('#r-safe').textContent.includes('(0, 0)')")
    known = analyze(Board.from_text("#1-\n#1-\n#1-"))
    assert known.safe == [(0, 0), (2, 0)] and known.mines == [(1, 0)]
    # Cells are written (r, c), as the library and the command line write them.
    assert page.text_content("#r-safe") == "(0, 0) (2, 0)"
    assert page.text_content("#r-mines") == "(1, 0)"
    _shot(page, "analyser")
    page.fill("#position", "mines: 1\n#9#")
    page.click("#analyse-form button[type=submit]")
    error = page.wait_for_selector("#analyse-error:not([hidden])")
    assert "9" in (error.text_content() or "")
    _shot(page, "analyser-error")


def test_structure_tab_shows_the_pipeline(page: Any) -> None:
    from minegraph.decompose import classify
    from minegraph.decompose.picture import verdict
    text = "mines: 3\n#1#2#\n#####\n#2#1#"
    page.click("#tab-structure")
    page.fill("#structure-position", text)
    page.click("#structure-form button[type=submit]")
    page.wait_for_selector("#structure-result:not([hidden]) #structure-picture svg")
    found = classify(Board.from_text(text))
    assert page.text_content("#structure-verdict") == verdict(found)
    words = page.text_content("#structure-words")
    assert found.step == "series-parallel" and "in series and in parallel" in words
    assert f"The {found.to_json()['numbers']} number(s)" in words and f"{found.width} cells" in words
    _shot(page, "structure")
    page.fill("#structure-position", "#9#")
    page.click("#structure-form button[type=submit]")
    error = page.wait_for_selector("#structure-error:not([hidden])")
    assert "9" in (error.text_content() or "")


def test_puzzles_tab_generates_and_prints_the_key_on_its_own_page(page: Any) -> None:
    from minegraph.generate.unique import unique_puzzle
    page.click("#tab-puzzles")
    page.select_option("#puzzles-form select[name=kind]", "unique")
    page.fill("#puzzles-form input[name=rows]", "6")
    page.fill("#puzzles-form input[name=cols]", "6")
    page.fill("#puzzles-form input[name=mines]", "5")
    page.fill("#puzzles-form input[name=seed]", "3")
    page.click("#puzzles-form button[type=submit]")
    page.wait_for_selector("#puzzles-result:not([hidden]) #puzzle-sheet svg")
    made = unique_puzzle(6, 6, 5, seed=3)
    numbers = sum(1 for s in made.puzzle.states if s >= 0)
    assert len(page.query_selector_all("#puzzle-sheet svg .number")) == numbers
    assert len(page.query_selector_all("#answer-sheet svg .mine")) == 5
    _shot(page, "puzzles")
    page.emulate_media(media="print")
    try:
        assert page.eval_on_selector("#answer-sheet", "e => getComputedStyle(e).breakBefore") \
            == "page"
        assert page.eval_on_selector("header", "e => getComputedStyle(e).display") == "none"
    finally:
        page.emulate_media(media="screen")


def test_analyser_reads_dropped_files_and_edits_cells_by_clicking(page: Any) -> None:
    page.click("#tab-analyse")
    page.fill("#position", "")
    dropped = page.evaluate_handle(
        "() => { const dt = new DataTransfer();"
        " dt.items.add(new File(['#1-\\n#1-\\n#1-\\n'], 'wall.board', {type: 'text/plain'}));"
        " return dt; }")
    page.dispatch_event("#position", "drop", {"dataTransfer": dropped})
    page.wait_for_function("document.querySelector('#position').value.startsWith('#1-')")
    assert page.input_value("#position") == "#1-\n#1-\n#1-\n"
    page.click("#analyse-form button[type=submit]")
    page.wait_for_function("document.querySelector('#r-safe').textContent === '(0, 0) (2, 0)'")
    page.check("#edit-cells")
    page.wait_for_selector("#analyse-board .cell:not([disabled])")
    page.click("#analyse-board .cell[data-r='1'][data-c='0']")     # hidden -> 0
    page.wait_for_function("document.querySelector('#position').value.startsWith('#1-\\n01-')")
    edited = page.input_value("#position")
    assert edited == "#1-\n01-\n#1-\n"
    want = analyze(Board.from_text(edited))
    page.wait_for_function("document.querySelector('#r-consistent').textContent.startsWith('no')")
    assert not want.consistent
    page.uncheck("#edit-cells")


# --------------------------------------------------------------------------- player-grade page
def _three_bv(rows: int, cols: int, mines: set[tuple[int, int]]) -> int:
    """3BV straight from its definition (square grid): openings of zeros, plus the safe cells
    next to no zero."""
    def around(r: int, c: int) -> list[tuple[int, int]]:
        return [(r + a, c + b) for a in (-1, 0, 1) for b in (-1, 0, 1)
                if (a, b) != (0, 0) and 0 <= r + a < rows and 0 <= c + b < cols]
    zero = {(r, c) for r in range(rows) for c in range(cols)
            if (r, c) not in mines and not any(q in mines for q in around(r, c))}
    seen: set[tuple[int, int]] = set()
    clicks = 0
    for start in sorted(zero):
        if start in seen:
            continue
        clicks += 1
        todo = [start]
        seen.add(start)
        while todo:
            here = todo.pop()
            if here in zero:
                for q in around(*here):
                    if q not in seen and q not in mines:
                        seen.add(q)
                        todo.append(q)
    return clicks + sum(1 for r in range(rows) for c in range(cols)
                        if (r, c) not in mines and (r, c) not in seen)


def test_the_page_knows_the_neighbours_the_library_uses(page: Any) -> None:
    from minegraph.topology import grid_neighbors
    for topology in ("square", "triangle", "hex", "torus"):
        rows, cols = 5, 6
        found = page.evaluate(
            "([t, rows, cols]) => { const out = []; for (let r = 0; r < rows; r++)"
            " for (let c = 0; c < cols; c++) out.push(minegraph.neighbours(t, rows, cols, r, c)"
            ".map(([a, b]) => a * cols + b).sort((x, y) => x - y)); return out; }",
            [topology, rows, cols])
        assert [tuple(x) for x in found] == list(grid_neighbors(topology, rows, cols)), topology


def test_a_secret_seed_the_banner_and_the_disabled_solver(page: Any) -> None:
    page.select_option("select[name=size]", "beginner")
    page.select_option("select[name=rules]", "modern")
    page.fill("input[name=seed]", "")
    page.click("#new-game button[type=submit]")
    page.wait_for_selector("#board .cell")
    _wait_idle(page)
    assert page.text_content("#seed-shown") == "" and page.evaluate("location.hash") == ""
    assert page.evaluate("minegraph.play.game.seed") is None
    page.click("#solver-end")
    page.wait_for_selector("#banner:not([hidden])")
    _wait_idle(page)
    game = page.evaluate("minegraph.play.game")
    assert game["status"] in ("won", "lost") and isinstance(game["seed"], int)
    assert page.text_content("#seed-shown") == f"seed {game['seed']}"
    assert f"seed={game['seed']}" in page.evaluate("location.hash")
    want = _three_bv(9, 9, {tuple(x) for x in game["mines_at"]})
    assert f"3BV {want}" in page.text_content("#banner")
    assert page.is_disabled("#solver-step") and page.is_disabled("#solver-end")
    assert page.get_attribute("#face", "data-mood") == game["status"]
    # F2 and the face start new games.
    page.keyboard.press("F2")
    page.wait_for_function(f"minegraph.play.game.id !== {game['id']!r}")
    second = page.evaluate("minegraph.play.game.id")
    page.click("#face")
    page.wait_for_function(f"minegraph.play.game.id !== {second!r}")
    assert page.is_hidden("#banner") and not page.is_disabled("#solver-end")


def test_a_win_by_hand_is_counted_with_its_3bv_and_efficiency(page: Any) -> None:
    # One row of two cells and one mine, classic: the first click is safe and wins. The
    # seed is secret: the player could not know the layout.
    _new_custom_game(page, 1, 2, 1, None, rules="classic")
    page.evaluate("localStorage.removeItem('minegraph-stats')")
    page.click("#board .cell[data-r='0'][data-c='0']")
    page.wait_for_selector("#banner.won")
    _wait_idle(page)
    text = page.text_content("#banner")
    assert "3BV 1 " in text and "1 clicks" in text and "efficiency 100%" in text
    seconds = page.evaluate("minegraph.play.game.seconds")
    stats = page.evaluate("JSON.parse(localStorage.getItem('minegraph-stats'))")
    assert list(stats.values()) == [{"played": 1, "won": 1, "best_time": seconds,
                                     "best_rate": stats[next(iter(stats))]["best_rate"]}]
    assert page.text_content("#stats-table tbody td") == "1×2, 1 square classic"
    # A won game flags its mines, as classic games do: the counter shows none left.
    assert page.query_selector("#board .cell[data-r='0'][data-c='1'].flag") is not None
    assert page.text_content("#mine-counter") == "0"


def test_the_time_is_the_servers_and_a_redraw_keeps_it(page: Any) -> None:
    """The banner, the counter, the statistics (and the replay, tests/web/test_api.py) give
    the game's one time, the server's. A redraw later (an option toggled) used to recompute
    it from the page's clock: the clock is moved on 10 s first, so such a banner would
    change."""
    _new_custom_game(page, 1, 2, 1, None, rules="classic")
    page.evaluate("localStorage.removeItem('minegraph-stats')")
    page.click("#board .cell[data-r='0'][data-c='0']")
    page.wait_for_selector("#banner.won")
    _wait_idle(page)
    seconds = page.evaluate("minegraph.play.game.seconds")
    assert isinstance(seconds, (int, float))
    banner = page.text_content("#banner")
    assert f"You won in {seconds:.2f} s" in banner
    assert page.text_content("#timer") == str(int(seconds))
    page.evaluate("Date.now = ((now) => () => now() + 10000)(Date.now)")   # 10 s later
    page.click("#options summary")
    page.click("#opt-axes")                                 # a redraw
    page.wait_for_function("!minegraph.settings.axes")
    assert page.text_content("#banner") == banner
    assert page.text_content("#timer") == str(int(seconds))
    row = page.eval_on_selector_all("#stats-table tbody td", "els => els.map(e => e.textContent)")
    assert row[3] == f"{seconds:.2f} s"
    page.click("#opt-axes")


def test_a_game_on_a_chosen_seed_is_not_in_the_statistics(page: Any) -> None:
    """A seed the player typed (or replays) may have a known layout: such a win says so and
    leaves the statistics alone."""
    page.evaluate("localStorage.removeItem('minegraph-stats')")
    page.reload()
    page.wait_for_function("minegraph.play.game !== null && minegraph.play.asked === 1")
    from minegraph.play.game import Game
    _new_custom_game(page, 9, 9, 10, 5)
    layout = Game(rows=9, cols=9, mines=10, rules="modern", seed=5)
    layout.reveal((4, 4))
    assert layout.layout is not None
    mines = {divmod(m, 9) for m in layout.layout}
    # Won by hand, knowing the layout: every safe cell still covered is clicked.
    page.click("#board .cell[data-r='4'][data-c='4']")
    while True:
        _wait_idle(page)
        if page.evaluate("minegraph.play.game.status") != "playing":
            break
        covered = page.eval_on_selector_all(
            "#board .cell:not(.open)", "els => els.map(e => [Number(e.dataset.r), Number(e.dataset.c)])")
        r, c = next(tuple(x) for x in covered if tuple(x) not in mines)
        page.click(f"#board .cell[data-r='{r}'][data-c='{c}']")
        page.wait_for_selector(f"#board .cell[data-r='{r}'][data-c='{c}'].open")
    page.wait_for_selector("#banner.won")
    assert "a chosen seed: not in the statistics" in page.text_content("#banner")
    assert page.evaluate("localStorage.getItem('minegraph-stats')") is None
    assert page.query_selector("#stats-table tbody tr") is None
    # Every mine flagged, none left on the counter.
    flagged = page.eval_on_selector_all(
        "#board .cell.flag", "els => els.map(e => [Number(e.dataset.r), Number(e.dataset.c)])")
    assert {tuple(x) for x in flagged} == mines and page.text_content("#mine-counter") == "0"
    _shot(page, "play-won")


def test_a_long_press_and_the_contextmenu_it_fires_flag_once(page: Any) -> None:
    _new_custom_game(page, 6, 6, 5, 99)
    page.click("#board .cell[data-r='2'][data-c='2']")
    page.wait_for_selector("#board .cell.open")
    _wait_idle(page)
    r, c = page.eval_on_selector("#board .cell:not(.open)",
                                 "e => [Number(e.dataset.r), Number(e.dataset.c)]")
    selector = f"#board .cell[data-r='{r}'][data-c='{c}']"
    box = page.query_selector(selector).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_selector(f"{selector}.flag")
    _wait_idle(page)
    # Some touch devices fire contextmenu for the same press: it must not unflag.
    page.dispatch_event(selector, "contextmenu")
    page.mouse.up()
    _wait_idle(page)
    assert page.query_selector(f"{selector}.flag") is not None
    assert page.text_content("#mine-counter") == "4"


def test_flags_keep_the_overlay_and_hover_says_the_value(page: Any) -> None:
    _new_custom_game(page, 6, 7, 8, 12345)
    page.click("#board .cell[data-r='2'][data-c='3']")
    page.wait_for_selector("#board .cell.open")
    page.check("#overlay")
    page.wait_for_selector("#board .cell.prob")
    _wait_idle(page)
    r, c = page.eval_on_selector("#board .cell.prob:not(.best)",
                                 "e => [Number(e.dataset.r), Number(e.dataset.c)]")
    page.click(f"#board .cell[data-r='{r}'][data-c='{c}']", button="right")
    page.wait_for_selector(f"#board .cell[data-r='{r}'][data-c='{c}'].flag")
    _wait_idle(page)
    assert page.query_selector("#board .cell.prob") is not None        # not wiped
    hovered = page.query_selector("#board .cell.prob")
    hr, hc = hovered.get_attribute("data-r"), hovered.get_attribute("data-c")
    page.hover(f"#board .cell[data-r='{hr}'][data-c='{hc}']")
    assert page.text_content("#hover-info").startswith(f"({hr}, {hc}): mine probability")
    assert not page.is_hidden("#legend")
    # The game ends (the solver plays it out) under the pointer: the line about the overlay,
    # gone with the game, goes too.
    page.click("#solver-end")
    page.wait_for_selector("#banner:not([hidden])")
    _wait_idle(page)
    assert page.text_content("#hover-info") == ""


def test_a_loss_by_the_solver_says_the_solver_hit_the_mine(page: Any) -> None:
    from minegraph.play.game import Game
    from minegraph.play.policies import get_policy, play
    seed = next(k for k in range(1, 200) if not play(
        Game(rows=9, cols=9, mines=10, rules="modern", seed=k), get_policy("strong")).won)
    _new_custom_game(page, 9, 9, 10, seed)
    page.click("#solver-end")
    page.wait_for_selector("#banner.lost")
    _wait_idle(page)
    r, c = page.evaluate("minegraph.play.game.exploded")
    assert f"Boom — the solver hit the mine at ({r}, {c})." in page.text_content("#banner")


def _held_explains(page: Any, hold: list[int]) -> tuple[list[Any], list[tuple[Any, Any]]]:
    """Route /api/explain: the first request about cell ``hold`` is held (its route kept,
    to be let through by the test); every request is logged as (cell, smallest)."""
    held: list[Any] = []
    asked: list[tuple[Any, Any]] = []

    def route(r: Any) -> None:
        body = r.request.post_data_json
        asked.append((body.get("cell"), body.get("smallest")))
        if body.get("cell") == hold and not held:
            held.append(r)
        else:
            r.continue_()
    page.route("**/api/explain", route)
    return held, asked


def test_why_shows_work_in_progress_and_drops_stale_answers(page: Any) -> None:
    """An Expert opening: Why? on one cell shows that it works at once; asking another cell
    before the first answer comes drops the first (its answer never shows), and the second
    comes quick first (the first minimal set), then the proven-smallest search."""
    _new_custom_game(page, 16, 30, 99, 12345)
    page.click("#board .cell[data-r='8'][data-c='4']")
    page.wait_for_selector("#board .cell.open")
    _wait_idle(page)
    page.check("#overlay")
    page.wait_for_selector("#board .cell.prob")
    _wait_idle(page)
    forced = page.eval_on_selector_all(
        "#board .cell.certain-safe, #board .cell.certain-mine",
        "els => els.map(e => [Number(e.dataset.r), Number(e.dataset.c)])")
    assert len(forced) >= 2
    first, second = forced[0], forced[-1]
    board = Board.from_text(page.evaluate("minegraph.play.game.board"))
    held, asked = _held_explains(page, first)
    page.check("#why-mode")
    page.click(f"#board .cell[data-r='{first[0]}'][data-c='{first[1]}']")
    page.wait_for_selector("#why-text.busy[aria-busy='true']")
    assert page.text_content("#why-text") == f"Why ({first[0]}, {first[1]})? Working on it…"
    assert page.query_selector(f"#board .cell.why-asked[data-r='{first[0]}'][data-c='{first[1]}']")
    page.click(f"#board .cell[data-r='{second[0]}'][data-c='{second[1]}']")
    # The last answer: the proven-smallest set, or the first minimal one when the server's
    # search for a smaller one ran out of its time (a busy machine).
    quick = explain(board, tuple(second), smallest=False)
    answers = {e.text: e for e in (explain(board, tuple(second)), quick)}
    page.wait_for_function(f"minegraph.whyState.controller === null && "
                           f"{list(answers)!r}.includes(document.getElementById('why-text').textContent)")
    want = answers[page.text_content("#why-text") or ""]
    assert held, "the first question was never asked"
    try:
        held[0].continue_()               # the stale request's answer, if it still goes
    except Exception:                     # aborted by the page already: nothing to answer
        pass
    page.wait_for_function(f"minegraph.whyState.handled === {len(asked)}")
    assert page.text_content("#why-text") == want.text
    assert page.get_attribute("#why-text", "aria-busy") == "false"
    assert page.query_selector(f"#board .cell.why-asked[data-r='{second[0]}'][data-c='{second[1]}']")
    shown = page.eval_on_selector_all(
        "#board .cell.why-clue", "els => els.map(e => [Number(e.dataset.r), Number(e.dataset.c)])")
    assert {tuple(x) for x in shown} == set(want.clues)
    # The second cell: the quick question first, the smallest search after (unless the quick
    # answer was already proven smallest).
    about_second = [smallest for cell, smallest in asked if cell == second]
    assert about_second == ([False] if quick.smallest else [False, True])
    page.unroute("**/api/explain")
    page.uncheck("#why-mode")
    page.uncheck("#overlay")


def _luminance(colour: str) -> float:
    values = [float(x) / 255 for x in colour[colour.index("(") + 1:-1].split(",")[:3]]
    lin = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in values]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two ``rgb(...)`` colours."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_the_dark_theme_keeps_its_marks_readable(page: Any) -> None:
    """Dark theme: the Why? cells' numbers on their ground, the best-move ring on the page,
    the structure legend's keys on their ground (all at least 3:1, WCAG's least for
    graphics and large text)."""
    page.click("#options summary")
    page.select_option("#opt-theme", "dark")
    body = page.evaluate("getComputedStyle(document.body).backgroundColor")
    _new_custom_game(page, 9, 9, 10, 8)
    page.click("#board .cell[data-r='4'][data-c='4']")
    page.wait_for_selector("#board .cell.open")
    _wait_idle(page)
    page.check("#overlay")
    page.wait_for_selector("#board .cell.best")
    ring = page.eval_on_selector("#board .cell.best",
                                 "e => getComputedStyle(e, '::before').borderTopColor")
    assert _contrast(ring, body) >= 3, (ring, body)
    # A Why? clue: a number on the clue's ground.
    page.evaluate("document.querySelector('#board .cell.open.n1, #board .cell.open.n2')"
                  ".classList.add('why-clue')")
    ground, ink = page.eval_on_selector(
        "#board .cell.why-clue", "e => [getComputedStyle(e).backgroundColor, getComputedStyle(e).color]")
    assert _contrast(ground, ink) >= 3, (ground, ink)
    page.uncheck("#overlay")
    page.click("#tab-structure")
    page.click("#structure-form button[type=submit]")
    page.wait_for_selector("#structure-result:not([hidden])")
    for ground, stroke in page.eval_on_selector_all(
            "#structure-legend svg", "els => els.map(e => [getComputedStyle(e).backgroundColor,"
            " getComputedStyle(e.firstElementChild).stroke])"):
        if ground == "rgba(0, 0, 0, 0)":
            ground = body
        assert _contrast(ground, stroke) >= 3, (ground, stroke)
    page.click("#tab-play")
    page.select_option("#opt-theme", "light")


def test_practice_games_take_moves_back(page: Any) -> None:
    page.select_option("select[name=size]", "custom")
    page.fill("input[name=rows]", "5")
    page.fill("input[name=cols]", "5")
    page.fill("input[name=mines]", "5")
    page.fill("input[name=seed]", "4")
    page.check("input[name=practice]")
    page.click("#new-game button[type=submit]")
    page.wait_for_selector("#undo:not([hidden])")
    _wait_idle(page)
    page.click("#board .cell[data-r='2'][data-c='2']")
    page.wait_for_selector("#board .cell.open")
    _wait_idle(page)
    page.click("#undo")
    page.wait_for_function("minegraph.play.game.moves === 0")
    assert page.query_selector("#board .cell.open") is None


def test_analyse_this_position_and_the_short_count(page: Any) -> None:
    _new_custom_game(page, 16, 16, 40, 3)
    page.click("#board .cell[data-r='8'][data-c='8']")
    page.wait_for_selector("#board .cell.open")
    _wait_idle(page)
    shown = page.evaluate("minegraph.play.game.board")
    page.click("#analyse-this")
    page.wait_for_selector("#analyse-result:not([hidden])")
    assert page.input_value("#position") == shown
    want = analyze(Board.from_text(shown))
    full = str(want.solutions)
    assert len(full) > 12
    assert page.text_content("#r-solutions") == f"{full[0]}.{full[1:3]} × 10^{len(full) - 1}"
    page.click("#r-solutions")
    assert page.text_content("#r-solutions") == full
    # Numbers are coloured as on the board and zeros are blank.
    assert page.query_selector("#analyse-board .cell.open.n1") is not None
    assert all(t in "12345678" for t in page.eval_on_selector_all(
        "#analyse-board .cell.open", "els => els.map(e => e.textContent).filter(t => t)"))


def test_the_dark_theme(page: Any) -> None:
    page.click("#options summary")
    page.select_option("#opt-theme", "dark")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert sum(int(x) for x in bg[bg.index("(") + 1:-1].split(",")[:3]) < 150
    _new_custom_game(page, 9, 9, 10, 8)
    page.click("#board .cell[data-r='4'][data-c='4']")
    page.wait_for_selector("#board .cell.open")
    page.check("#overlay")
    page.wait_for_selector("#board .cell.prob")
    _shot(page, "play-dark")
    page.select_option("#opt-theme", "light")


def test_an_expert_game_on_a_phone(phone: Any) -> None:
    page = phone
    # The settings fold away while playing (one line naming the game); a tap opens them.
    assert page.evaluate("document.getElementById('game-settings').open") is False
    page.tap("#game-settings summary")
    page.select_option("select[name=size]", "expert")
    page.select_option("select[name=rules]", "modern")
    page.fill("input[name=seed]", "12345")
    page.tap("#new-game button[type=submit]")
    page.wait_for_selector("#board .cell[data-r='15'][data-c='29']")
    _wait_idle(page)
    assert page.evaluate("document.getElementById('game-settings').open") is False
    assert "expert square modern" in page.text_content("#game-settings summary")
    # The board starts in the top third of the screen (it was at y = 450 of 844).
    top = page.query_selector("#board .cell[data-r='0'][data-c='0']").bounding_box()["y"]
    assert top < 844 / 3, top
    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width    # no page overflow
    box = page.query_selector("#board .cell[data-r='0'][data-c='0']").bounding_box()
    assert box["width"] >= 40 and box["height"] >= 40                        # tap targets
    assert page.evaluate("(f => f.scrollWidth > f.clientWidth)(document.getElementById('board-frame'))")
    assert "right click" not in page.text_content("#play-hint")
    assert page.is_visible("#flag-mode")
    page.tap("#board .cell[data-r='8'][data-c='4']")
    page.wait_for_selector("#board .cell.open")
    _wait_idle(page)
    page.tap("#overlay")
    page.wait_for_selector("#board .cell.prob")
    _wait_idle(page)
    _shot(page, "phone-play")
    # Why? answers above the board, in view; scrolled down the board, the counters and
    # the answer stay at the top of the screen.
    page.check("#why-mode")
    page.tap("#board .cell.certain-safe, #board .cell.certain-mine")
    page.wait_for_function("minegraph.whyState.controller === null && "
                           "document.getElementById('why-text').textContent !== ''")
    _shot(page, "phone-why")
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_function("window.scrollY > 300")
    for selector in ("#mine-counter", "#timer", "#why-text"):
        box = page.query_selector(selector).bounding_box()
        assert 0 <= box["y"] and box["y"] + box["height"] <= 844, (selector, box)
    page.uncheck("#why-mode")
    page.evaluate("window.scrollTo(0, 0)")
    page.check("#flag-mode")
    r, c = page.eval_on_selector("#board .cell:not(.open):not(.flag)",
                                 "e => [Number(e.dataset.r), Number(e.dataset.c)]")
    page.tap(f"#board .cell[data-r='{r}'][data-c='{c}']")
    page.wait_for_selector(f"#board .cell[data-r='{r}'][data-c='{c}'].flag")
    page.uncheck("#flag-mode")
    for view, form in (("analyse", "#analyse-form"), ("structure", "#structure-form"),
                       ("puzzles", "#puzzles-form")):
        page.tap(f"#tab-{view}")
        page.tap(f"{form} button[type=submit]")
        page.wait_for_selector(f"#{'analyse' if view == 'analyse' else view}-result:not([hidden])")
        assert page.evaluate("document.documentElement.scrollWidth") <= width, view
        _shot(page, f"phone-{view}")


# --------------------------------------------------------------------------- replays
REPLAYS = Path(__file__).resolve().parents[1] / "data" / "replays"


def test_a_finished_game_saves_its_replay(page: Any) -> None:
    pytest.importorskip("ms_toollib")
    from minegraph.play.review import review_bytes
    _new_custom_game(page, 9, 9, 10, 2024)
    assert page.query_selector("#save-replay") is None
    page.click("#solver-end")
    page.wait_for_selector("#banner:not([hidden])")
    _wait_idle(page)
    game = page.evaluate("minegraph.play.game")
    link = page.query_selector("#banner a#save-replay")
    assert link is not None and link.text_content() == "Save replay"
    href = link.get_attribute("href")
    assert href == f"/api/game/{game['id']}/replay.evf" and link.get_attribute("download") == ""
    answer = page.request.get(page.url.split("#")[0].rstrip("/") + href)
    assert answer.status == 200
    r = review_bytes(answer.body(), "evf")
    assert r.outcome == game["status"] and r.bbbv == game["bbbv"]
    assert {divmod(c, 9) for c in r.layout} == {tuple(m) for m in game["mines_at"]}


def _review_file(page: Any, path: Path) -> None:
    page.click("#tab-review")
    page.set_input_files("#replay-file", str(path))
    page.wait_for_selector("#review-result:not([hidden])")
    page.wait_for_selector("#review-board .cell")


def _painted(page: Any) -> dict[tuple[int, int], str]:
    return {(int(r), int(c)): t for r, c, t in page.eval_on_selector_all(
        "#review-board .cell.prob",
        "els => els.map(e => [e.dataset.r, e.dataset.c, e.title])")}


def test_the_review_tab_steps_through_a_replay(page: Any) -> None:
    pytest.importorskip("ms_toollib")
    from minegraph.play.review import review
    path = REPLAYS / "beginner-example.evf"
    want = review(path)
    _review_file(page, path)
    assert f"({want.luck.numerator}/{want.luck.denominator})" in page.text_content("#review-summary")
    assert page.get_attribute("#review-step", "max") == str(len(want.timeline))
    # Each click: the position before it, painted with the library's own probabilities, the
    # clicked cell outlined; an avoidable risk says so.
    for k, click in enumerate(want.timeline):
        if k:
            page.click("#review-next")
        page.wait_for_function(f"minegraph.review.index === {k} && document.querySelector("
                               f"'#review-board .cell.review-clicked[data-r=\"{click.cell[0]}\"]"
                               f"[data-c=\"{click.cell[1]}\"]') !== null")
        _wait_review(page)
        expected = analyze(click.board)
        painted = _painted(page)
        assert painted.keys() == set(expected.probabilities)
        for cell, title in painted.items():
            assert _agrees(title, float(expected.probabilities[cell])), (k, cell, title)
        text = page.text_content("#review-click") or ""
        assert f"({click.cell[0]}, {click.cell[1]})" in text
        assert ("an avoidable risk" in text) == click.avoidable
        if click.avoidable:
            _shot(page, "review")
    # Why? on a certain click gives explain's sentence.
    certain = next(c for c in want.clicks if c.probability == 0)
    page.fill("#review-step", str(certain.number))
    page.dispatch_event("#review-step", "input")
    page.wait_for_function(f"minegraph.review.index === {certain.number - 1}")
    _wait_review(page)
    page.click("#review-why")
    page.wait_for_function("(e => e.textContent !== '' && !e.classList.contains('busy'))"
                           "(document.querySelector('#review-why-text'))")
    assert page.text_content("#review-why-text") == explain(certain.board, certain.cell).text


def _wait_review(page: Any) -> None:
    """The board of the click shown is drawn: the answer to the latest analysis asked for
    (the page counts both)."""
    page.wait_for_function("minegraph.review.drawn === minegraph.review.asked && "
                           "document.querySelector('#review-board .cell.review-clicked') !== null")


def test_a_damaged_replay_is_one_line_on_the_page(page: Any, tmp_path: Path) -> None:
    pytest.importorskip("ms_toollib")
    bad = tmp_path / "broken.avf"
    bad.write_bytes((REPLAYS / "beginner-example.evf").read_bytes()[:60])
    page.click("#tab-review")
    page.set_input_files("#replay-file", str(bad))
    page.wait_for_selector("#review-error:not([hidden])")
    assert "not a readable .avf replay" in page.text_content("#review-error")
    assert page.is_hidden("#review-result")


def test_the_review_tab_on_a_phone(phone: Any) -> None:
    pytest.importorskip("ms_toollib")
    page = phone
    page.tap("#tab-review")
    page.set_input_files("#replay-file", str(REPLAYS / "beginner-example.evf"))
    page.wait_for_selector("#review-result:not([hidden])")
    page.wait_for_selector("#review-board .cell.review-clicked")
    for _ in range(4):
        page.tap("#review-next")
    page.wait_for_function("minegraph.review.index === 4")
    _wait_review(page)
    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    _shot(page, "phone-review")


def test_the_review_tab_draws_the_coachs_win_chances(page: Any) -> None:
    # A game with three forced guesses the exact endgame judges (one not the best): a point
    # per guess on the win-chance line, coloured by its label, and a point shows its click.
    pytest.importorskip("ms_toollib")
    from minegraph.play.coach import coach
    from minegraph.play.review import review
    path = REPLAYS / "coach-example.evf"
    judged = coach(review(path), samples=0)
    verdicts = sorted(judged.verdicts.items())
    assert [v.label for _, v in verdicts] == ["inferior", "best", "best"]
    _review_file(page, path)
    page.wait_for_selector("#review-chart:not([hidden]) circle")
    assert page.eval_on_selector_all("#review-chart circle", "cs => cs.length") == len(verdicts)
    number, verdict = verdicts[0]
    page.click("#review-chart circle >> nth=0")
    page.wait_for_function(f"minegraph.review.index === {number - 1}")
    _wait_review(page)
    text = page.text_content("#review-click") or ""
    chance = f"{100 * float(verdict.win_probability):.1f}%"
    assert "not the best guess" in text and f"win chance {chance} (exact)" in text
    page.click("#review-why")
    page.wait_for_function("(e => e.textContent !== '' && !e.classList.contains('busy'))"
                           "(document.querySelector('#review-why-text'))")
    assert "Weighed:" in (page.text_content("#review-why-text") or "")
    _shot(page, "review-coach")
