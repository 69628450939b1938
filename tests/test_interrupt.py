"""Ctrl-C in the command line: exit status 130 and no traceback, whichever engine is at work.

Each test starts ``python -m minegraph analyze FILE --engine E`` twice at once, without and with
``--timeout 60`` (an engine works differently under a deadline: CaDiCaL in budget slices,
MiniSat and Glucose interruptible from a timer), on a board that keeps the engine busy for
many seconds; waits until both are well inside the engine (each has done WORK seconds of its
own CPU work, however busy the machine), sends ``SIGINT`` (what Ctrl-C sends) and checks the
exit status and standard error. How soon they stop is not asserted (a time limit only guards
against a hang).

Found this way: under ``--timeout`` an interruptible solver ignored Ctrl-C until the deadline
(PySAT runs it without its Ctrl-C handler, and Python's own runs only between bytecodes); a
CaDiCaL solver that PySAT's handler had jumped out of sometimes crashed the process when it
was deleted (``free(): invalid pointer``, exit status -6: 1 run in 24); a Ctrl-C while the
parser was being built gave a traceback.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from waiting import HAS_PROC, cpu_seconds, wait_for_work

from minegraph.recipes import checkerboard_opening

# They start CPU-bound processes: run alone, after the parallel pass of make test.
pytestmark = [pytest.mark.skipif(not HAS_PROC, reason="SIGINT to a child and /proc are Linux's"),
              pytest.mark.serial]

#: Seconds of a run's own CPU work before the interrupt: the interpreter, the imports and the
#: board's SAT encoding take 0.3-0.7 s, so the interrupt lands inside the engine's search.
WORK = 1.5

#: Engine -> a checkerboard opening (rows, cols, seed, with its total; density 0.3) that keeps
#: it busy far longer than WORK (test_deadline.py lists the measured times).
BOARDS: dict[str, tuple[int, int, int, bool]] = {
    "dp": (36, 36, 1, True),
    "sat": (60, 60, 1, True),          # CaDiCaL: PySAT's own Ctrl-C handler
    "sat:minisat": (60, 60, 1, True),  # MiniSat: conflict-budget slices as for CaDiCaL
    "auto": (60, 60, 1, True),
    "backtrack": (36, 36, 1, True),
    "thesis": (16, 16, 2, True),
    "dp-thesis": (26, 26, 1, True),
    "brute": (4, 9, 4, False),
}


def _start(path: Path, engine: str, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "minegraph", "analyze", str(path),
                             "--engine", engine, *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})


@pytest.mark.parametrize("engine", list(BOARDS))
def test_ctrl_c_exits_130_without_traceback(tmp_path: Path, engine: str) -> None:
    rows, cols, seed, total = BOARDS[engine]
    path = tmp_path / "hard.board"
    path.write_text(checkerboard_opening(rows, cols, 0.3, seed=seed, total=total).to_text(),
                    encoding="utf-8")
    runs = {"no limit": _start(path, engine),
            "--timeout 60": _start(path, engine, "--timeout", "60")}
    try:
        for how, proc in runs.items():
            wait_for_work(proc.pid, WORK, f"{engine} ({how}): {WORK} s of work",
                          ended=lambda: proc.poll() is not None)
        for how, proc in runs.items():
            assert proc.poll() is None, \
                f"{engine} ({how}) ended before the interrupt: {proc.communicate()}"
        for proc in runs.values():
            proc.send_signal(signal.SIGINT)
        for how, proc in runs.items():
            try:
                _, err = proc.communicate(timeout=600)      # a guard against a hang only
            except subprocess.TimeoutExpired:
                pytest.fail(f"{engine} ({how}): still running 600 s after SIGINT")
            assert "Traceback" not in err, f"{how}: {err}"
            assert proc.returncode == 130, (how, proc.returncode, err)
    finally:
        for proc in runs.values():
            if proc.poll() is None:  # pragma: no cover - only when the test already failed
                proc.kill()
                proc.communicate()


def test_ctrl_c_while_the_parser_is_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """The parser imports its command's module (and argparse its helpers): an interrupt there,
    the first tenth of a second of a run, is an interrupt too, not a traceback."""
    import minegraph.cli as cli

    def interrupted(command: str | None = None) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", interrupted)
    assert cli.main(["analyze", "board.txt"]) == cli.EXIT_INTERRUPTED == 130


def test_a_solver_that_failed_inside_is_not_freed(monkeypatch: pytest.MonkeyPatch) -> None:
    """PySAT's own Ctrl-C handler (installed in the main thread when the library is called
    without the command line) leaves the solver through ``longjmp`` and raises its own error;
    freeing that solver has crashed the process, so the oracle leaves any solver that failed
    inside allocated, and the error goes on unchanged."""
    from minegraph.engines.sat import Oracle

    oracle = Oracle("cadical195", [[1, 2], [-1, 2]])
    inner = oracle.solver.solver

    def jumped_out(*args: object, **kwargs: object) -> bool:
        raise RuntimeError("the solver's own error")

    monkeypatch.setattr(oracle.solver, "solve", jumped_out)
    with pytest.raises(RuntimeError, match="own error"):
        oracle.solve([1])
    assert oracle.solver.solver is None and inner.cadical is None
    oracle.close()  # frees nothing, and PySAT's __del__ will not either


@pytest.mark.skipif(__import__("minegraph.cli.interrupt").cli.interrupt._guard() is None,
                    reason="the C-level guard (minegraph.cli._sigint) is not built or not used")
def test_ctrl_c_ends_a_command_whose_worker_holds_the_gil() -> None:
    """A worker inside a long C call that holds the GIL (here ``sum`` over a huge range; in
    practice a CaDiCaL slice) keeps Python's own handler from ever running; the command line's
    C guard still ends the command with status 130, GRACE seconds after Ctrl-C."""
    code = ("import sys\n"
            "from minegraph.cli.interrupt import run_cancellable\n"
            "print('started', flush=True)\n"
            "try:\n"
            "    run_cancellable(lambda: sum(range(10 ** 12)))\n"
            "except KeyboardInterrupt:\n"
            "    sys.exit(130)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "started\n"
        # Inside the C call: 0.3 s of the process's own work past the print.
        wait_for_work(proc.pid, cpu_seconds(proc.pid) + 0.3, "0.3 s inside the C call")
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=600)             # a guard against a hang only
    finally:
        if proc.poll() is None:  # pragma: no cover - only when the test already failed
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130 and "Traceback" not in err, (proc.returncode, err)
