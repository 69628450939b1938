"""minegraph explain: the board fragment, the sentence, the JSON object, one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def _run(*args: str, columns: int = 200) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": str(columns)}
    return subprocess.run([sys.executable, "-m", "minegraph", "explain", *args],
                          capture_output=True, text=True, timeout=60, env=env)


def test_explain_a_safe_cell(tmp_path: Path) -> None:
    board = tmp_path / "one-one.board"
    board.write_text("###\n11-\n")
    done = _run(str(board), "0,2")
    assert done.returncode == 0
    # The 1-1 pattern: both numbers, marked, and the cell asked about.
    assert done.stdout == (" #  # (?)\n[1][1] -\n(0, 2) is certainly safe: with a mine there, "
                           "the numbers at (1, 0) and (1, 1) could not all be satisfied.\n")
    obj = json.loads(_run(str(board), "0,2", "--json").stdout)
    assert obj["status"] == "safe" and obj["clues"] == [[1, 0], [1, 1]] and obj["uses_total"] is False


def test_explain_an_inconsistent_board_and_bad_cells(tmp_path: Path) -> None:
    board = tmp_path / "bad.board"
    board.write_text("#1-\n#3-\n#--\n")
    obj = json.loads(_run(str(board), "--json").stdout)
    assert obj["status"] == "inconsistent" and obj["clues"] == [[0, 1], [1, 1]]
    for cell, message in [("9,9", "outside"), ("x", "expected ROW,COL"), ("0,1", "not hidden")]:
        done = _run(str(board), cell)
        assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
