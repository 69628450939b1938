"""Every numeric option of every subcommand: extreme or malformed values are one line on
standard error and exit status 2 (never an ``OverflowError``, a traceback or a usage block), and
only plain ASCII numbers are read (``int()`` would take ``1_0`` as 10 and ``٣`` as 3)."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from minegraph.cli import COMMANDS, EXIT_USAGE, build_parser, main
from minegraph.cli.common import mine_count, seconds
from minegraph.deadline import MAX_SECONDS
from minegraph.states import MAX_CELLS

EXAMPLES = Path(__file__).parents[2] / "src" / "minegraph" / "examples"
BOARD = str(EXAMPLES / "one-two-one.board")       # 3x5, no total

#: Values no numeric option accepts.
BAD_EVERYWHERE = ["", "abc", "٣", "1_0", "0x10", "nan", "inf", "-inf", "9" * 5000, "1e400",
                  "-1", " ", "1,5"]
BAD = {seconds: BAD_EVERYWHERE + ["0", "0.0", "1e10", str(MAX_SECONDS * 2), "-0.5"],
       mine_count: BAD_EVERYWHERE + ["1.5", "1e3", str(MAX_CELLS + 1), "+-1"]}
GOOD = {seconds: [("2", 2.0), ("0.25", 0.25), (".5", 0.5), ("1e3", 1000.0), ("1E+2", 100.0),
                  (f"{MAX_SECONDS:g}", MAX_SECONDS)],
        mine_count: [("0", 0), ("7", 7), ("007", 7), ("+3", 3), (str(MAX_CELLS), MAX_CELLS)]}

#: Values no numeric option of any kind accepts (for the types of other subcommands).
BAD_FOR_ANY = ["", "abc", "٣", "1_0", "nan", "inf", "9" * 5000, "1e400", "٣,٣", "1_0,2", "1,2,3",
               "9" * 5000 + ",1"]

#: What each subcommand needs besides the option (parsing fails before anything is read).
POSITIONALS = {"analyze": [BOARD], "solve": [BOARD], "explain": [BOARD, "0,0"],
               "classify": [BOARD], "green": ["-"]}


def numeric_options() -> list[tuple[str, str, object]]:
    """(command, option, type) for every option of every subcommand that takes a value
    through a type function."""
    found = []
    for name in COMMANDS:
        parser = build_parser(name)
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        for action in sub.choices[name]._actions:
            if action.type is not None and action.option_strings:
                found.append((name, action.option_strings[-1], action.type))
    return found


OPTIONS = numeric_options()


def test_every_numeric_option_uses_a_checked_type() -> None:
    assert {(c, o) for c, o, _ in OPTIONS} >= {
        ("analyze", "--mines"), ("analyze", "--timeout"), ("solve", "--mines"),
        ("solve", "--timeout"), ("explain", "--mines"), ("explain", "--timeout"),
        ("urbas", "--timeout")}
    # int and float accept inf, nan, 1_0 and non-ASCII digits: every option goes through
    # a checked type instead.
    assert not [(c, o) for c, o, t in OPTIONS if t in (int, float)]


@pytest.mark.parametrize("kind", list(BAD), ids=lambda t: t.__name__)
def test_the_checked_types(kind) -> None:
    for text in BAD[kind]:
        with pytest.raises(argparse.ArgumentTypeError):
            kind(text)
    for text, value in GOOD[kind]:
        assert kind(text) == value


@pytest.mark.parametrize("command,option,kind", OPTIONS, ids=[f"{c} {o}" for c, o, _ in OPTIONS])
def test_bad_values_are_one_line_and_exit_2(command: str, option: str, kind, capsys) -> None:
    for text in BAD.get(kind, BAD_FOR_ANY):
        with pytest.raises(SystemExit) as exit:
            main([command, *POSITIONALS.get(command, []), option, text])
        assert exit.value.code == EXIT_USAGE, (option, text)
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err.count("\n") == 1, captured.err
        assert captured.err.startswith(f"minegraph: error: argument {option}: expected ")
        assert len(captured.err) < 300            # a 5000-digit value is not echoed whole


def test_in_a_real_process() -> None:
    for args in (["--timeout", "1e10"], ["--mines", "9" * 5000], ["--timeout", "inf"],
                 ["--mines", "-1"]):
        p = subprocess.run([sys.executable, "-m", "minegraph", "analyze", BOARD, *args],
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == EXIT_USAGE and p.stdout == "", args
        assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr, p.stderr


def test_a_total_beyond_the_board_is_the_boards_error(capsys) -> None:
    assert main(["analyze", BOARD, "--mines", "16"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err == f"minegraph: error: {BOARD}: total mine count 16 is outside 0..15 (the number of cells)\n"
