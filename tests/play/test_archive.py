"""The archive's CPU time per game (``review_cpu_seconds``): read from an injected clock, and
the reader's child process counted in it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("ms_toollib")

from minegraph.play import archive
from minegraph.play.archive import COLUMNS, review_row, summarize

EXAMPLE = Path(__file__).resolve().parents[1] / "data" / "replays" / "beginner-example.evf"


def test_a_rows_cpu_time_is_the_clocks_difference(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    readings = iter([10.0, 12.5])
    monkeypatch.setattr(archive, "_cpu", lambda: next(readings))
    row = review_row(str(EXAMPLE), win=False)
    assert row["review_cpu_seconds"] == 2.5 and "review_cpu_seconds" in COLUMNS
    monkeypatch.undo()                 # the real clock for the archive's run
    done = archive.review_archive([EXAMPLE], tmp_path, workers=1, win=False)
    assert done.reviewed == 1
    spread = summarize(tmp_path)["review_cpu_seconds"]
    assert spread["median"] is not None and spread["median"] >= 0


def test_the_clock_counts_the_child_processes_waited_for() -> None:
    before = archive._cpu()
    subprocess.run([sys.executable, "-c", "sum(range(3_000_000))"], check=True)
    assert archive._cpu() > before
