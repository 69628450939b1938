"""The web page in a real browser: Debian's chromium driven by Playwright, against the app
served by uvicorn on a free local port.

Checked against the library itself (an independent path: no browser, no HTTP): the
probabilities the page paints on a game after its first move, and the analyser tab's answer
on a pasted position; plus the error a bad position shows. ``make test`` installs chromium
with apt-get when it is missing; without it these tests fail rather than skip.
"""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import playwright.sync_api as playwright_sync
import pytest

from minegraph import Board, analyze


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    import uvicorn

    from minegraph.web.app import create_app
    port = _free_port()
    config = uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        if time.monotonic() > deadline:  # pragma: no cover - a broken server
            raise RuntimeError("uvicorn did not start within 20 s")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def page(server: str) -> Iterator[Any]:
    executable = shutil.which("chromium")
    assert executable is not None, "chromium is missing: make test installs it with apt-get"
    with playwright_sync.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        page = browser.new_page()
        page.set_default_timeout(20_000)
        page.goto(server + "/")
        yield page
        browser.close()


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


def test_overlay_paints_the_library_probabilities(page: Any) -> None:
    page.click("#tab-play")
    page.select_option("select[name=size]", "custom")
    page.fill("input[name=rows]", "6")
    page.fill("input[name=cols]", "7")
    page.fill("input[name=mines]", "8")
    page.select_option("select[name=rules]", "modern")
    page.fill("input[name=seed]", "12345")
    page.click("#new-game button[type=submit]")
    page.wait_for_selector("#board .cell[data-r='5'][data-c='6']")
    page.click("#board .cell[data-r='2'][data-c='3']")
    page.wait_for_selector("#board .cell.open")
    page.check("#overlay")
    page.wait_for_selector("#board .cell.prob")
    # The position as the page shows it, read back from the cells.
    cells = page.eval_on_selector_all(
        "#board .cell",
        "els => els.map(e => [Number(e.dataset.r), Number(e.dataset.c), e.className,"
        " e.textContent, e.title])")
    rows = [["#"] * 7 for _ in range(6)]
    painted: dict[tuple[int, int], str] = {}
    for r, c, classes, text, title in cells:
        if "open" in classes.split():
            rows[r][c] = text or "0"
        elif "prob" in classes.split():
            painted[(r, c)] = title
    board = Board.from_text("mines: 8\n" + "\n".join("".join(row) for row in rows))
    expected = analyze(board, arithmetic="exact")
    assert expected.consistent
    assert painted.keys() == {cell for cell in expected.probabilities}
    for cell, title in painted.items():
        assert _agrees(title, float(expected.probabilities[cell])), (cell, title)
    best = page.eval_on_selector("#board .cell.best", "e => [Number(e.dataset.r), Number(e.dataset.c)]")
    assert expected.probabilities[tuple(best)] == min(expected.probabilities.values())


def test_analyser_tab_answers_and_reports_errors(page: Any) -> None:
    page.click("#tab-analyse")
    page.fill("#position", "mines: 1\n#1#\n###")
    page.click("#analyse-form button[type=submit]")
    page.wait_for_selector("#analyse-result:not([hidden])")
    want = analyze(Board.from_text("mines: 1\n#1#\n###"))
    assert page.text_content("#r-solutions") == str(want.solutions)
    assert page.text_content("#r-consistent") == "yes"
    page.fill("#position", "mines: 1\n#9#")
    page.click("#analyse-form button[type=submit]")
    error = page.wait_for_selector("#analyse-error:not([hidden])")
    assert "9" in (error.text_content() or "")
