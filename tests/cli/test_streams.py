"""Standard streams as well-made Unix tools treat them, checked in real processes: a reader that
went away ends the command quietly with status 141 (what a shell reports for SIGPIPE); a closed
standard input or output, a full disk or bytes that are not UTF-8 give one line on standard
error and status 2, never a traceback."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from minegraph.cli import EXIT_BROKEN_PIPE, EXIT_USAGE
from minegraph.green.solvers import SAMPLE_GRA_IN

EXAMPLES = Path(__file__).parents[2] / "src" / "minegraph" / "examples"
BOARD = str(EXAMPLES / "one-two-one.board")
GAME = SAMPLE_GRA_IN    # the green game's sample input


def minegraph(*args: str) -> list[str]:
    return [sys.executable, "-m", "minegraph", *args]


def one_line(stderr: str) -> str:
    """The single line a failed command printed (and no traceback)."""
    assert "Traceback" not in stderr and "Exception ignored" not in stderr, stderr
    assert stderr.count("\n") == 1 and stderr.startswith("minegraph: error: "), stderr
    return stderr


def into_closed_pipe(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``minegraph ARGS`` writing into a pipe whose reading end is already closed, so the
    first write fails with EPIPE whatever the output's size (no race with the reader)."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(minegraph(*args), stdout=write, stderr=subprocess.PIPE,
                              input=stdin, text=True, timeout=120)
    finally:
        os.close(write)


@pytest.mark.parametrize("args", [("demo",), ("classify",), ("analyze", BOARD),
                                  ("analyze", "--json", BOARD), ("solve", BOARD),
                                  ("explain", BOARD, "0,1"), ("--help",), ("analyze", "--help")])
def test_a_closed_pipe_ends_quietly_with_141(args: tuple[str, ...]) -> None:
    p = into_closed_pipe(*args)
    assert (p.returncode, p.stderr) == (EXIT_BROKEN_PIPE, "")


def test_urbas_and_green_into_a_closed_pipe() -> None:
    p = into_closed_pipe("urbas", stdin="1 3 0\n9 1 9\n")
    assert (p.returncode, p.stderr) == (EXIT_BROKEN_PIPE, "")
    p = into_closed_pipe("green", "-", stdin=GAME)
    assert (p.returncode, p.stderr) == (EXIT_BROKEN_PIPE, "")


@pytest.mark.skipif(shutil.which("bash") is None or shutil.which("head") is None,
                    reason="needs bash and head")
def test_piped_into_head() -> None:
    script = 'set -o pipefail; "$0" -m minegraph demo | head -1; echo "status $?" >&2'
    p = subprocess.run(["bash", "-c", script, sys.executable], capture_output=True, text=True,
                       timeout=120)
    assert p.stdout.startswith("minegraph demo: ") and p.stdout.count("\n") == 1
    # 0 when the output fitted in the pipe before head left, else 141; never a traceback.
    assert p.stderr in ("status 0\n", f"status {EXIT_BROKEN_PIPE}\n"), p.stderr


@pytest.mark.parametrize("args", [("analyze", "-"), ("solve", "-"), ("explain", "-", "0,0"),
                                  ("classify", "-"), ("urbas",), ("green", "-")])
def test_a_closed_standard_input(args: tuple[str, ...]) -> None:
    # `<&-` closes descriptor 0 for the program: Python then has no sys.stdin at all.
    p = subprocess.run(["sh", "-c", 'exec "$@" <&-', "sh", *minegraph(*args)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == EXIT_USAGE and p.stdout == ""
    assert "cannot read standard input: it is closed" in one_line(p.stderr)


def test_a_closed_standard_output() -> None:
    p = subprocess.run(["sh", "-c", 'exec "$@" >&-', "sh", *minegraph("analyze", BOARD)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == EXIT_USAGE
    assert "cannot write standard output: it is closed" in one_line(p.stderr)


def test_standard_input_that_is_not_utf8() -> None:
    p = subprocess.run(minegraph("analyze", "-"), input=b"#1#\n\xff\xfe\n", capture_output=True,
                       timeout=120)
    assert p.returncode == EXIT_USAGE
    # Issue 22: "(byte 4)" before; line and column, as the library says them.
    assert "standard input: line 2, column 1: not UTF-8 text: byte 0xff" in one_line(p.stderr.decode())


def test_files_that_are_not_utf8_name_line_and_column(tmp_path: Path) -> None:
    binary = tmp_path / "b.board"
    binary.write_bytes(b"mines: 1\n#1#\n1\xe91\n")
    p = subprocess.run(minegraph("analyze", str(binary)), capture_output=True, text=True, timeout=120)
    assert p.returncode == EXIT_USAGE
    assert f"{binary}: line 3, column 2: not UTF-8 text: byte 0xe9" in one_line(p.stderr)
    wide = tmp_path / "notepad.board"                   # saved as UTF-16, with its byte-order mark
    wide.write_bytes("mines: 1\r\n#1#\r\n111\r\n".encode("utf-16"))
    for args in (("analyze", str(wide)), ("analyze", "-")):
        p = subprocess.run(minegraph(*args), input=wide.read_bytes(), capture_output=True,
                           timeout=120)
        line = one_line(p.stderr.decode())
        assert p.returncode == EXIT_USAGE and "line 1, column 1: not UTF-8 text: this is UTF-16" in line


def test_standard_input_keeps_reading_crlf_text() -> None:
    p = subprocess.run(minegraph("analyze", "--json", "-"), input=b"mines: 1\r\n#1#\r\n",
                       capture_output=True, timeout=120)
    assert p.returncode == 0 and b'"solutions": "2"' in p.stdout


full = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")


@full
@pytest.mark.parametrize("args", [("analyze", BOARD), ("analyze", "--json", BOARD), ("demo",),
                                  ("classify",), ("solve", BOARD), ("--help",)])
def test_standard_output_on_a_full_disk(args: tuple[str, ...]) -> None:
    with open("/dev/full", "w") as disk:
        p = subprocess.run(minegraph(*args), stdout=disk, stderr=subprocess.PIPE, text=True,
                           timeout=120)
    assert p.returncode == EXIT_USAGE
    assert "cannot write standard output: No space left on device" in one_line(p.stderr)


@full
def test_output_files_on_a_full_disk(tmp_path: Path) -> None:
    game = tmp_path / "gra.in"
    game.write_text(GAME)
    p = subprocess.run(minegraph("green", str(game), "-o", "/dev/full"), capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == EXIT_USAGE
    assert "cannot write /dev/full: No space left on device" in one_line(p.stderr)
    p = subprocess.run(minegraph("classify", BOARD, "--svg", "/dev/full"), capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == EXIT_USAGE
    assert "cannot write /dev/full: No space left on device" in one_line(p.stderr)
