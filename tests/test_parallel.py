"""One ordered map for bulk work: results in order, items drawn lazily, a clean stop.

The stop is checked by its effect (the worker processes are gone), not by how long it took.
"""

from __future__ import annotations

import multiprocessing
import operator
import os
import signal
import subprocess
import sys
from functools import partial
from pathlib import Path
from typing import Iterator

import lane_work
import pytest
from waiting import wait_for

from minegraph import Deadline, QueryCancelled
from minegraph.deadline import time_limit
from minegraph.errors import UserError
from minegraph.parallel import chunked, ordered_map


@pytest.mark.parametrize("workers", [1, 2])
def test_results_come_in_the_order_of_the_items(workers: int) -> None:
    items = list(range(-40, 40))
    assert list(ordered_map(operator.neg, items, workers=workers)) == [-x for x in items]


def test_items_are_drawn_lazily_and_bounded() -> None:
    drawn = 0

    def endless() -> Iterator[int]:
        nonlocal drawn
        while True:
            drawn += 1
            yield drawn

    results = ordered_map(operator.neg, endless(), workers=2, in_flight=3)
    got = [next(results) for _ in range(5)]
    results.close()
    assert got == [-1, -2, -3, -4, -5]
    # Five consumed, and never more than three submitted ahead of the consumer.
    assert drawn <= 5 + 3


def test_a_cancelled_query_stops_the_wait_and_ends_the_workers() -> None:
    before = set(multiprocessing.active_children())
    deadline = Deadline(3600)
    deadline.cancel()
    with pytest.raises(QueryCancelled):
        with time_limit(deadline):
            # Tasks that would run for a day: only the clean stop can end them.
            list(ordered_map(lane_work.never_ends, [86400.0] * 4, workers=2))
    assert set(multiprocessing.active_children()) <= before


def test_closing_early_ends_the_workers() -> None:
    before = set(multiprocessing.active_children())
    results = ordered_map(partial(operator.mul, 2), [1, 2] + [3] * 50, workers=2)
    assert next(results) == 2
    results.close()
    assert set(multiprocessing.active_children()) <= before


def test_chunks_and_bad_arguments() -> None:
    assert list(chunked(range(5), 2)) == [[0, 1], [2, 3], [4]]
    assert list(chunked([], 3)) == []
    for bad in ({"workers": 0}, {"workers": True}, {"in_flight": 0}):
        with pytest.raises(UserError):
            ordered_map(abs, [1], **bad)  # type: ignore[arg-type]


def _sigint_as_at_a_terminal() -> None:
    """In the child before it starts: SIGINT's default disposition, as a command started at a
    terminal has it. A suite started in the background by a non-interactive shell inherits
    SIGINT ignored, and Python then installs no handler of its own (Ctrl-C would do nothing,
    as the shell intends for background commands)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.serial
@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a process group is POSIX")
def test_bench_on_two_workers_stops_on_ctrl_c(tmp_path: Path) -> None:
    """``minegraph bench --workers 2`` ended on Ctrl-C? It hung 10 times in 10, and a billion
    games built a list of a billion seeds first (MemoryError)."""
    out = tmp_path / "r.json"
    proc = subprocess.Popen([sys.executable, "-m", "minegraph", "bench", "--workers", "2",
                             "--games", "1000000000", "--out", str(out), "--no-progress"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=_sigint_as_at_a_terminal,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        # The event to wait for: the first batch saved (games are being played on the pool).
        wait_for(lambda: out.exists() or proc.poll() is not None, "the first batch saved")
        assert out.exists(), proc.communicate()
        os.killpg(proc.pid, signal.SIGINT)        # Ctrl-C reaches the whole process group
        try:
            stdout, stderr = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            pytest.fail("still running 60 s after SIGINT")
        assert proc.returncode == 130, stderr
        assert "(interrupted)" in stdout and "Traceback" not in stderr, stderr
        with pytest.raises(ProcessLookupError):   # no worker left behind in the group
            os.killpg(proc.pid, 0)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


@pytest.mark.serial
@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a process group is POSIX")
def test_generate_on_two_workers_stops_on_ctrl_c() -> None:
    """Puzzles come faster than the wait's poll: the cancelled query must still be seen
    between two results (it was not, and the workers outlived the command)."""
    proc = subprocess.Popen([sys.executable, "-m", "minegraph", "generate", "noguess", "--size",
                             "9x9", "--mines", "10", "--count", "100000", "--workers", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=_sigint_as_at_a_terminal,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()       # the event: puzzles are being made on the pool
        assert first, proc.communicate()
        os.killpg(proc.pid, signal.SIGINT)
        try:
            _, stderr = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            pytest.fail("still running 60 s after SIGINT")
        assert proc.returncode == 130 and "Traceback" not in stderr, stderr
        with pytest.raises(ProcessLookupError):   # no worker left behind in the group
            os.killpg(proc.pid, 0)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


# ----------------------------------------------------------------- the progress bar (issue 22)
def _drawn(width: int, total: int, note: str, note_width: int) -> list[str]:
    """The lines a :class:`Progress` draws at ``width`` columns, without terminal codes."""
    import io
    import re
    from minegraph.parallel import Progress
    buffer = io.StringIO()
    bar = Progress(total, "expert modern strong", show=True, file=buffer, width=width,
                   note_width=note_width)
    bar.advance(total // 3 + 1, note)
    bar.close()
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", buffer.getvalue())
    return [line for line in re.split(r"[\r\n]", text) if line.strip()]


@pytest.mark.parametrize("width", [40, 60, 80, 100, 120, 200])
@pytest.mark.parametrize("total", [100, 20000, 1000000])
def test_the_progress_bar_fits_the_terminal(width: int, total: int) -> None:
    import re
    # It was laid out for any width and cut at 80 columns: "12345… win 54.19% ... 0… -…".
    note = "win 54.19% [53.50, 54.88]"
    lines = _drawn(width, total, note, 28)
    assert lines and all(len(line) < width for line in lines), (width, lines)
    last = lines[-1]
    if width >= 60:                       # the count and the win rate whole, never cut
        assert f"{total // 3 + 1}/{total}" in last and note in last, last
    if width >= 100:                      # then the label, the bar and the time left too
        assert "expert modern strong" in last and "━" in last and ":" in last, last
    if width >= 120:                      # the bar takes what the texts leave, up to 60 columns
        bar = max(re.findall("[━╸╺]+", last), key=len)
        assert len(last) >= width - 2 or len(bar) == 60, last


def test_the_progress_bar_measures_the_terminal_it_draws_on(monkeypatch: pytest.MonkeyPatch) -> None:
    # The width of standard error's terminal, not of another stream's (rich asked standard
    # input first, and a pseudo-terminal of size 0 there meant 80 columns).
    import fcntl
    import struct
    import termios
    from minegraph.present import terminal_width
    monkeypatch.delenv("COLUMNS", raising=False)
    leader, follower = os.openpty()
    try:
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 137, 0, 0))
        with os.fdopen(os.dup(follower), "w") as stream:
            assert terminal_width(stream) == 137
            monkeypatch.setenv("COLUMNS", "99")             # as shells, rich and shutil do
            assert terminal_width(stream) == 99
    finally:
        os.close(leader)
        os.close(follower)
    import io
    assert terminal_width(io.StringIO()) is None            # not a terminal
