"""``make test``: every pytest pass ends with its summary line (issue 34, item 8).

pytest prints the ``N passed in T s`` line unless it is made quieter twice: pyproject.toml's
``addopts`` already has one ``-q``, so a second ``-q`` on a command line (``-qq``) leaves only
the dots. Each pytest command of the ``test`` target is read from the Makefile (continuation
lines joined) and its ``-q`` counted with the ``addopts`` ones.
"""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _quietness(args: list[str]) -> int:
    """How many times ``args`` lower pytest's verbosity (``-q``, ``-qq``, ``--quiet``)."""
    count = 0
    for arg in args:
        if arg == "--quiet":
            count += 1
        elif re.fullmatch(r"-q+", arg):
            count += len(arg) - 1
    return count


def _test_target_pytest_commands() -> list[list[str]]:
    text = ROOT.joinpath("Makefile").read_text().replace("\\\n", " ")
    recipe = re.search(r"^test:.*\n((?:\t.*\n)+)", text, re.MULTILINE)
    assert recipe is not None, "the Makefile has no test target"
    return [shlex.split(line) for line in recipe.group(1).splitlines() if "-m pytest" in line]


def test_every_pytest_pass_of_make_test_prints_its_summary() -> None:
    addopts = tomllib.loads(ROOT.joinpath("pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]["addopts"]
    base = _quietness(shlex.split(addopts))
    commands = _test_target_pytest_commands()
    assert len(commands) >= 3            # the parallel pass, the serial pass, the pure-Python pass
    for args in commands:
        assert base + _quietness(args) < 2, f"pytest -qq prints no summary line: {' '.join(args)}"


def test_quietness_counts_every_spelling() -> None:
    assert [_quietness(a) for a in (["-q"], ["-qq"], ["--quiet", "-q"], ["-n", "2"])] == [1, 2, 2, 0]
