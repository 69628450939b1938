"""Issue 34, item 2: the command line fits the terminal's width (``COLUMNS``; 80 columns
written to a file or a pipe). No line is wider, except one holding a word too long for any
line; no word and no cell name such as ``(4, 23)`` is broken across lines; a probability
grid wider than the width comes in bands of columns, the same bands in ``analyze`` and
``demo``."""

from __future__ import annotations

import argparse
import io
import re
from pathlib import Path

import pytest

from minegraph.cli import COMMANDS, build_parser, main

ROOT = Path(__file__).parents[2]
EXAMPLES = ROOT / "src" / "minegraph" / "examples"
EXPERT = str(EXAMPLES / "expert-midgame.board")        # 16x30
REPLAY = str(ROOT / "tests" / "data" / "replays" / "beginner-example.evf")
WIDTHS = [60, 80, 100]
WIDE = 1000                                            # nothing wraps


def fits(text: str, width: int, groups: bool = False) -> None:
    """Every line within ``width``, but for a line holding a word that could fit on no line
    (a count of 56 digits), or with ``groups`` a usage line of one option with its choices
    (argparse keeps ``[--topology {square,triangle,hex,torus}]`` whole, under ``usage:
    minegraph play``, 62 columns wide)."""
    usage = False
    for line in text.splitlines():
        usage = line.startswith("usage:") or (usage and line.startswith(" "))
        whole = groups and usage and re.fullmatch(r"\s*\[[^][]*\]", line) is not None
        assert len(line) <= width or whole or max(map(len, line.split())) > width // 2, \
            (width, line)


def unbroken(text: str) -> None:
    """No cell name ``(r,c)`` or ``(r, c)`` is cut across lines."""
    cut = re.search(r"\([ \t]*\n|\(\d+[ \t]*\n[ \t]*,|\(\d+,[ \t]*\n[ \t]*\d+\)", text)
    assert cut is None, text[max(cut.start() - 40, 0):cut.end() + 40] if cut else ""


def words(text: str) -> list[str]:
    return text.split()


def helps() -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = [()]
    for name in COMMANDS:
        out.append((name,))
    out += [("generate", kind) for kind in ("paper", "unique", "noguess")]
    return out


def help_text(path: tuple[str, ...]) -> str:
    parser = build_parser(path[0] if path else None)
    for name in path:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = sub.choices[name]
    return parser.format_help()


@pytest.mark.parametrize("path", helps(), ids=lambda p: " ".join(p) or "minegraph")
def test_help_fits_the_terminal_and_breaks_no_word(path: tuple[str, ...],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # The help was single lines up to 402 characters, broken mid-word by the terminal, and
    # argparse broke "no-guess" at its hyphen.
    monkeypatch.setenv("COLUMNS", str(WIDE))
    whole = help_text(path)
    for width in WIDTHS:
        monkeypatch.setenv("COLUMNS", str(width))
        text = help_text(path)
        fits(text, width, groups=width < 80)
        unbroken(text)
        assert words(text) == words(whole), width       # the same words, none cut in two


def run(width: int, *argv: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("COLUMNS", str(width))
    out = io.StringIO()                                   # a pipe: COLUMNS, else 80
    assert main(list(argv), out) == 0
    return out.getvalue()


def grid(text: str) -> dict[tuple[int, int], str]:
    """The probability grid's cells, read from its bands (each headed ``r\\c`` and the
    column numbers)."""
    cells: dict[tuple[int, int], str] = {}
    columns: list[int] = []
    for line in text.splitlines():
        if line.startswith("r\\c"):
            columns = [int(c) for c in line.split()[1:]]
        elif columns and re.match(r"\s*\d+ ", line) and len(line.split()) == len(columns) + 1:
            r, *values = line.split()
            for c, value in zip(columns, values):
                assert (int(r), c) not in cells
                cells[(int(r), c)] = value
        else:
            columns = []
    return cells


@pytest.mark.parametrize("width", WIDTHS)
def test_analyze_fits_and_splits_the_expert_grid(width: int,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # At 80 columns analyze left the Expert grid out; demo printed it in two halves.
    whole = run(WIDE, "analyze", EXPERT, monkeypatch=monkeypatch)
    text = run(width, "analyze", EXPERT, monkeypatch=monkeypatch)
    fits(text, width)
    unbroken(text)
    headers = [line for line in text.splitlines() if line.startswith("r\\c")]
    assert len(whole.split("\nr\\c")) == 2                      # one band, 153 columns
    # 16x30: a row label of 3, then 5 characters a column: 153 > width, so bands.
    assert len(headers) >= 2 and len(headers) == -(-30 // ((width - 3) // 5))
    assert sorted(int(c) for h in headers for c in h.split()[1:]) == list(range(30))
    assert grid(text) == grid(whole) and len(grid(whole)) == 16 * 30
    # Above the grid, the same words.
    assert words(text.split("\nbest:")[0]) == words(whole.split("\nbest:")[0])
    # demo splits the same grid the same way, at the same width.
    monkeypatch.setenv("COLUMNS", str(width))
    out = io.StringIO()
    assert main(["demo", "--color", "never"], out) == 0
    demo = out.getvalue()
    fits(demo, width)
    expert = demo.split("=== expert-midgame.board ===")[1].split("===")[0]
    assert [line for line in expert.splitlines() if line.startswith("r\\c")] == headers
    assert grid(expert) == grid(whole)


def test_the_report_wraps_to_the_width_not_88(monkeypatch: pytest.MonkeyPatch) -> None:
    # The lists of safe cells and mines were wrapped at 88 columns.
    whole = run(WIDE, "analyze", "--no-grid", EXPERT, monkeypatch=monkeypatch)
    assert max(map(len, whole.splitlines())) > 88
    for width in WIDTHS:
        text = run(width, "analyze", "--no-grid", EXPERT, monkeypatch=monkeypatch)
        fits(text, width)
        unbroken(text)
        assert words(text) == words(whole)


@pytest.mark.parametrize("width", WIDTHS)
def test_explain_classify_and_review_fit(width: int, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    # "(7, 3) is not forced: ... its mine probability is 13/62 (about 21.0%)." was one line
    # of 115 characters; classify names cells "(0, 17)".
    commands = [("explain", EXPERT, "7,3"),
                ("classify", str(EXAMPLES / "classify" / "expert-seed-2.board"),
                 str(EXAMPLES / "classify" / "k4-minor.board"))]
    pytest.importorskip("ms_toollib")
    commands.append(("review", "--all", REPLAY))
    for argv in commands:
        whole = run(WIDE, *argv, monkeypatch=monkeypatch)
        text = run(width, *argv, monkeypatch=monkeypatch)
        fits(text, width)
        unbroken(text)
        assert words(text) == words(whole), argv
        if argv[0] != "review":
            assert re.search(r"\(\d+, \d+\)", text)             # cell names with a space, whole
    assert capsys.readouterr().err == ""


def test_a_pipe_without_columns_gets_80(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    out = io.StringIO()
    assert main(["analyze", EXPERT], out) == 0
    fits(out.getvalue(), 80)
    assert len([line for line in out.getvalue().splitlines() if line.startswith("r\\c")]) == 2


@pytest.mark.parametrize("width", WIDTHS)
def test_generate_wraps_its_comments(width: int, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    # "; minegraph generate no-guess board 16x30 square, ..." was one comment of 95 characters.
    from minegraph.board import Board
    argv = ["generate", "noguess", "--size", "16x30", "--mines", "99", "--rules", "modern",
            "--first", "3,3", "--seed", "1"]
    outputs = []
    for columns in (WIDE, width):
        monkeypatch.setenv("COLUMNS", str(columns))
        assert main(argv) == 0
        outputs.append(capsys.readouterr().out)
    whole, text = outputs
    fits(text, width)
    assert Board.from_text(text) == Board.from_text(whole)
    comments = [line for line in text.splitlines() if line.startswith(";")]
    assert len(comments) > len([line for line in whole.splitlines() if line.startswith(";")])
    # The same words, less the timing ("generated in 0.003 s").
    strip = [re.sub(r"generated in [0-9.]+ s", "", t) for t in outputs]
    assert [w for w in words(strip[1]) if w != ";"] == [w for w in words(strip[0]) if w != ";"]
