"""The command line: analyze, solve, demo, errors as one line with exit status 2, and the
subcommands' one convention, each module imported only when its command runs."""

from __future__ import annotations

import io
import json
import math
import subprocess
import sys
from importlib import import_module
from pathlib import Path

import pytest

from minegraph.cli import COMMANDS, EXIT_INTERRUPTED, build_parser, main
from strategies import DEFAULT_ENGINE

EXAMPLES = Path(__file__).parents[2] / "src" / "minegraph" / "examples"


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "minegraph", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_analyze_json_from_stdin() -> None:
    p = run("analyze", "--json", "-", stdin="mines: 1\n#1#\n---\n")
    assert p.returncode == 0 and p.stderr == ""
    obj = json.loads(p.stdout)
    assert obj["solutions"] == "2" and obj["best"] == [0, 0] and obj["engine"] == DEFAULT_ENGINE


def test_analyze_text_report() -> None:
    out = io.StringIO()
    assert main(["analyze", str(EXAMPLES / "one-two-one.board")], out) == 0
    text = out.getvalue()
    assert "solutions: 1" in text and "mines (2): (0,1) (0,3)" in text
    assert "\n  0   0% 100%   0% 100%   0%\n" in text


def test_mines_option_and_format_option(tmp_path: Path) -> None:
    f = tmp_path / "b.txt"
    f.write_text("1 4 0\n9 1 9 9\n")   # header mines 0: total not specified
    out = io.StringIO()
    assert main(["analyze", "--json", "--format", "numeric", str(f)], out) == 0
    assert json.loads(out.getvalue())["solutions"] == "4"
    out = io.StringIO()
    assert main(["analyze", "--json", "--mines", "1", "--format", "numeric", str(f)], out) == 0
    obj = json.loads(out.getvalue())
    assert obj["solutions"] == "2" and obj["safe"] == [[0, 3]]


def test_solve_writes_the_same_format(tmp_path: Path) -> None:
    f = tmp_path / "b.mine"
    f.write_text("3x2x1\nH1H\n000\n")
    out = io.StringIO()
    # The zeros clear (0,0) and (0,2), so the 1 cannot be satisfied.
    assert main(["solve", str(f)], out) == 1
    f.write_text("3x2x1\nH1H\nHHH\n")
    out = io.StringIO()
    assert main(["solve", str(f)], out) == 0
    assert out.getvalue().splitlines()[0] == "3x2x1"
    assert out.getvalue().count("F") == 1


def test_solve_inconsistent() -> None:
    p = run("solve", "-", stdin="#3#\n---\n")
    assert p.returncode == 1 and "no solution" in p.stdout
    p = run("solve", "-", stdin="2 3 0\n9 3 9\n0 0 0\n")
    assert p.returncode == 1 and p.stdout == "NO SOLUTION\n"


def test_bad_input_is_one_line_and_exit_2() -> None:
    for stdin, where in [("#z#\n", "line 1, column 2"), ("###\n##\n", "line 2"),
                         ("mines: -3\n##\n", "line 1"), ("", "empty input"),
                         ("#9#\n###\n", "number 9 is too large")]:
        p = run("analyze", "-", stdin=stdin)
        assert p.returncode == 2, stdin
        assert p.stdout == "" and p.stderr.count("\n") == 1 and where in p.stderr
        assert p.stderr.startswith("minegraph: error: ")
    p = run("analyze", "/nonexistent/board.txt")
    assert p.returncode == 2 and "cannot read" in p.stderr


def test_unknown_engine_is_a_user_error() -> None:
    p = run("analyze", "--engine", "nope", "-", stdin="#1#\n")
    assert p.returncode == 2 and "unknown engine 'nope'" in p.stderr


def test_indentation_that_may_be_cells_is_refused_with_its_place() -> None:
    # Issue 22: printf ' 1##\n 1##\n 11#\n' | minegraph analyze - read a 3x3 board, exit 0.
    p = run("analyze", "-", stdin=" 1##\n 1##\n 11#\n")
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.startswith("minegraph: error: line 1, column 1: ") and p.stderr.count("\n") == 1
    assert "1 column of uncovered cells" in p.stderr and "remove the indentation" in p.stderr
    p = run("analyze", "-", stdin="   #1#\n   1##\n")       # a row starts hidden: not cells
    assert p.returncode == 0 and "board: 2x3 square" in p.stdout


def test_demo_analyses_every_example() -> None:
    out = io.StringIO()
    assert main(["demo"], out) == 0
    text = out.getvalue()
    for path in EXAMPLES.glob("*.board"):
        assert f"=== {path.name} ===" in text
    assert "board: 16x30 square" in text and "consistent: yes" in text


def test_demo_fits_80_columns_and_says_the_key_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 22: the key repeated after every board, and the Expert grid was 154 columns wide.
    import re
    monkeypatch.delenv("COLUMNS", raising=False)            # not a terminal: 80 columns
    for colour in ("never", "always"):
        out = io.StringIO()
        assert main(["demo", "--color", colour], out) == 0
        text = re.sub(r"\x1b\[[0-9;]*m", "", out.getvalue())
        lines = text.splitlines()
        assert max(map(len, lines)) <= 80, max(lines, key=len)
        assert text.count("key: cells are (row,col)") == 1
        assert text.count("best: the cell to uncover next") == 1
        assert len(lines) < 153                         # 153 before, the key five times
    # Every cell of the 16x30 Expert board is still shown: its grid comes in bands of columns
    # (0-14, then 15-29), each with its row numbers, so every row appears in each band.
    expert = text.split("=== expert-midgame.board ===")[1].split("===")[0]
    headers = [line.split()[1:] for line in expert.splitlines() if line.startswith("r\\c")]
    assert [int(c) for h in headers for c in h] == list(range(30)) and len(headers) == 2
    rows = [line.split()[0] for line in expert.splitlines() if line[:3].strip().isdigit()]
    assert rows == [str(r) for r in range(16)] * 2
    # It says what it shows before the first board.
    assert lines[0].startswith("minegraph demo: 5 example positions")


def test_help_lists_every_subcommand_with_its_help_line() -> None:
    p = run("--help")
    assert p.returncode == 0
    for name, entry in COMMANDS.items():
        assert name in p.stdout
        assert " ".join(entry.help.split()[:4]) in " ".join(p.stdout.split())
    p = run()
    assert p.returncode == 2 and "COMMAND" in p.stdout


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_subcommand_follows_the_convention(name: str) -> None:
    module = import_module(COMMANDS[name].module)
    assert callable(module.register) and callable(module.run)
    # The static help line is the one the module's own parser gives.
    assert build_parser(name).format_help() == build_parser().format_help()
    with pytest.raises(SystemExit) as exit:
        build_parser(name).parse_args([name, "--help"])
    assert exit.value.code == 0


def _imported_after(*argv: str, stdin: str = "") -> set[str]:
    """The modules loaded by running ``minegraph ARGV`` in a fresh interpreter."""
    code = ("import sys\nfrom minegraph.cli import main\ntry:\n    main(sys.argv[1:])\n"
            "except SystemExit:\n    pass\nprint('MODULES', *sorted(sys.modules), file=sys.stderr)")
    p = subprocess.run([sys.executable, "-c", code, *argv], input=stdin, capture_output=True,
                       text=True, timeout=120)
    last = p.stderr.splitlines()[-1].split()
    assert last[0] == "MODULES", p.stderr
    return set(last[1:])


def _heavy(modules: set[str]) -> set[str]:
    roots = ("numpy", "networkx", "pysat", "minegraph.green", "minegraph.decompose")
    return {m for m in modules if any(m == r or m.startswith(r + ".") for r in roots)}


def test_subcommands_are_imported_only_when_they_run() -> None:
    loaded = _imported_after("--help")
    assert "minegraph.cli" in loaded and not _heavy(loaded)
    assert not {m for m in loaded if m.startswith("minegraph.cli.")}
    loaded = _imported_after("green", "--help")
    assert "minegraph.cli.green" in loaded and not _heavy(loaded)
    loaded = _imported_after("analyze", "--engine", "dp", str(EXAMPLES / "one-two-one.board"))
    assert "minegraph.cli.analyze" in loaded and not _heavy(loaded)
    assert not {"minegraph.cli.classify", "minegraph.cli.green", "minegraph.cli.urbas"} & loaded


def test_an_interrupt_exits_with_130(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(args: object) -> int:
        raise KeyboardInterrupt
    monkeypatch.setattr(import_module("minegraph.cli.demo"), "run", interrupted)
    assert main(["demo"]) == EXIT_INTERRUPTED


def test_counts_past_4300_digits_in_the_report_and_the_json(tmp_path: Path) -> None:
    # 6,000 mines on a 150x200 board: C(30000, 6000), 6,518 digits (issue 9).
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        expected = str(math.comb(30000, 6000))
    finally:
        sys.set_int_max_str_digits(old)
    board = tmp_path / "big.board"
    board.write_text("mines: 6000\n" + ("#" * 200 + "\n") * 150)
    p = run("analyze", str(board))
    assert p.returncode == 0 and p.stderr == ""
    assert "\nsolutions: 2.6340…e+6517 (6518 digits)\n" in p.stdout
    p = run("analyze", "--full", str(board))
    assert p.returncode == 0 and f"\nsolutions: {expected}\n" in p.stdout
    p = run("analyze", "--json", str(board))
    assert p.returncode == 0 and json.loads(p.stdout)["solutions"] == expected


def test_dialect_option_reads_dots_as_hidden(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "dots.txt"
    path.write_text("..1\n..1\n")
    assert main(["analyze", str(path)]) == 2
    assert "dialect" in capsys.readouterr().err
    assert main(["analyze", str(path), "--dialect", "dots", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    # Both 1s see exactly (0,1) and (1,1): one mine there (2 ways); (0,0) and (1,0) touch no
    # number and, without a total, are free (4 ways).
    assert data["solutions"] == "8"
    assert main(["solve", str(path), "--dialect", "ascii"]) == 1   # '.' is an uncovered 0 there


def test_graph_files_with_states_and_labels(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edges, states = tmp_path / "g.txt", tmp_path / "s.txt"
    edges.write_text("a b\nb c\n")
    states.write_text("mines: 1\nb 1\n")
    assert main(["analyze", str(edges), "--format", "edgelist", "--states", str(states), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["solutions"] == "2" and data["labels"] == ["a", "b", "c"]
    assert main(["explain", str(edges), "a", "--format", "edgelist", "--states", str(states),
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["probability"] == 0.5
    assert main(["explain", str(edges), "z", "--format", "edgelist", "--states", str(states)]) == 2
    assert "node labels" in capsys.readouterr().err
    assert main(["analyze", str(edges), "--format", "edgelist", "--states", str(tmp_path / "no")]) == 2
    assert "states file" in capsys.readouterr().err
