"""`minegraph urbas`: numeric grid on stdin, solved grid or NO SOLUTION on stdout; --timeout."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).parents[1] / "data" / "positions-urbas"
SOLVED = sorted(p.stem for p in DATA.glob("*.out"))


def run(*args: str, stdin: str = "", timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "minegraph", *args], input=stdin,
                          capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("name", SOLVED)
def test_program_output_matches_the_recorded_answer(name: str) -> None:
    p = run("urbas", stdin=(DATA / f"{name}.txt").read_text())
    expected = (DATA / f"{name}.out").read_text()
    assert p.stdout == expected and p.stderr == ""
    assert p.returncode == (1 if expected == "NO SOLUTION\n" else 0)


def test_bad_input_is_one_line_and_exit_2() -> None:
    p = run("urbas", stdin="2 2 0\n9 9\n9\n")
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.startswith("minegraph: error: line 3") and p.stderr.count("\n") == 1
    p = run("urbas", "--engine", "nope", stdin="1 1 0\n9\n")
    assert p.returncode == 2 and "unknown engine 'nope'" in p.stderr


def test_timeout_is_honoured_on_the_hard_gadget_stack() -> None:
    hard = (DATA / "gadgets-hard.txt").read_text()
    p = run("urbas", "--timeout", "1", stdin=hard)
    # Decided by the answer: the limit's message and exit status 3 (unlimited, the
    # backtracking search on this board runs for minutes).
    assert p.returncode == 3 and p.stdout == ""
    assert p.stderr.startswith("minegraph: timeout: no answer within 1 s to completion")
    assert p.stderr.count("\n") == 1
    # The same board is easy for the counting engines: the total cannot be met.
    p = run("urbas", "--engine", "dp", "--timeout", "5", stdin=hard)
    assert p.returncode == 1 and p.stdout == "NO SOLUTION\n"


def test_analyze_and_solve_honour_timeout_too(tmp_path: Path) -> None:
    f = tmp_path / "hard.txt"
    f.write_text((DATA / "gadgets-hard.txt").read_text())
    p = run("solve", "--engine", "backtrack", "--timeout", "0.5", str(f))
    assert p.returncode == 3 and "no answer within 0.5 s to completion" in p.stderr
    p = run("analyze", "--engine", "backtrack", "--timeout", "0.5", str(f))
    assert p.returncode == 3 and "to consistency" in p.stderr
    p = run("analyze", "--engine", "sat", "--json", "--timeout", "20", str(f))
    assert p.returncode == 0 and '"consistent": false' in p.stdout
