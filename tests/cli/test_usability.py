"""The command line as a user of python-chess expects it (issue 9): ``--version``, a description
and examples in every ``--help``, the engine list, several boards per command with errors naming
the file, the ``analyse`` alias, ``analyze --svg``, colour only for terminals, and the green
game's hints."""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import minegraph
from minegraph.cli import COMMANDS, EXIT_USAGE, build_parser, main
from minegraph.cli.common import SAT_SOLVERS, use_colour
from minegraph.engines.base import ENGINES

ROOT = Path(__file__).parents[2]
EXAMPLES = ROOT / "src" / "minegraph" / "examples"
ONE_TWO_ONE = str(EXAMPLES / "one-two-one.board")        # 3x5, no total, solutions: 1
TORUS = str(EXAMPLES / "torus.board")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run(*args: str, stdin: str = "", env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "minegraph", *args], input=stdin, capture_output=True,
                          text=True, timeout=120, env=env)


def call(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(args), out)
    return status, out.getvalue()


def subparser(name: str) -> argparse.ArgumentParser:
    parser = build_parser(name)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[name]


# ----------------------------------------------------------------- --version and --help
def test_version_is_the_packages() -> None:
    from importlib.metadata import version as installed
    version = installed("minegraph")            # pyproject.toml reads minegraph/version.py
    assert minegraph.__version__ == version
    p = run("--version")
    assert (p.returncode, p.stderr) == (0, "")
    # The version, then which path runs: the native kernel or pure Python (kernel.py).
    assert p.stdout == f"minegraph {version} ({minegraph.kernel.status()})\n"
    assert p.stdout.split("(")[1].startswith(("native", "pure"))
    assert "--version" in run("--help").stdout


#: Commands added after issue 9's pass over the help texts, still without examples.
WITHOUT_EXAMPLES: set[str] = set()


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_subcommand_has_a_description_and_examples(name: str) -> None:
    if name in WITHOUT_EXAMPLES:
        pytest.xfail(f"minegraph {name} --help has no examples yet")
    p = subparser(name)
    assert p.description and len(p.description) > 40, name
    assert p.epilog and re.search(r"^examples?:", p.epilog, re.M), name
    assert f"minegraph {name}" in p.epilog
    # The help keeps the examples' lines as written, those wider than the terminal wrapped
    # (issue 34): their words in order.
    text = p.format_help()
    width = shutil.get_terminal_size().columns - 2          # argparse's width
    words = " ".join(text.split())
    for line in p.epilog.splitlines():
        assert line in text if len(line) <= width else " ".join(line.split()) in words


@pytest.mark.parametrize("name", ["analyze", "solve"])
def test_the_help_lists_every_engine_of_the_registry(name: str) -> None:
    text = subparser(name).format_help()
    listed = re.findall(r"^  (\S+)\s{2,}", text.split("engines (--engine")[1], re.M)
    assert listed[:len(ENGINES)] == list(ENGINES)
    from minegraph.engines.sat import SOLVERS
    assert list(SAT_SOLVERS) == list(SOLVERS)
    assert all(solver in text for solver in SOLVERS)


def test_help_loads_no_engine() -> None:
    code = ("import sys\nfrom minegraph.cli import main\ntry:\n    main(['analyze', '--help'], "
            "__import__('io').StringIO())\nexcept SystemExit:\n    pass\n"
            "print(*sorted(m for m in sys.modules if m.startswith(('minegraph.engines.', 'pysat', "
            "'numpy', 'networkx', 'rich'))))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.stdout.split() == ["minegraph.engines.base"], p.stdout + p.stderr


# ----------------------------------------------------------------- analyse, several boards, errors
def test_analyse_is_analyze() -> None:
    assert call("analyse", ONE_TWO_ONE) == call("analyze", ONE_TWO_ONE)
    assert "analyze (analyse)" in run("--help").stdout


def test_several_boards_each_headed_by_its_file() -> None:
    # Headed by the file's name, as the README shows them (issue 22); the JSON keeps the path.
    status, text = call("analyze", ONE_TWO_ONE, TORUS)
    assert status == 0
    first, second = text.split("\n=== torus.board ===\n")
    assert first.startswith("=== one-two-one.board ===\nboard: 3x5 square")
    assert first == "=== one-two-one.board ===\n" + call("analyze", ONE_TWO_ONE)[1]
    assert second == call("analyze", TORUS)[1]
    status, text = call("analyze", "--json", ONE_TWO_ONE, TORUS)
    objects = [json.loads(line) for line in text.splitlines()]
    assert [o["board"] for o in objects] == [ONE_TWO_ONE, TORUS]
    assert {k: v for k, v in objects[0].items() if k != "board"} == json.loads(call("analyze", "--json", ONE_TWO_ONE)[1])
    status, text = call("solve", ONE_TWO_ONE, TORUS)
    assert status == 0 and text == ("=== one-two-one.board ===\n" + call("solve", ONE_TWO_ONE)[1] + "\n"
                                    "=== torus.board ===\n" + call("solve", TORUS)[1])


def test_solve_exits_1_when_any_board_has_no_completion(tmp_path: Path) -> None:
    bad = tmp_path / "bad.board"
    bad.write_text("#3#\n---\n")
    status, text = call("solve", ONE_TWO_ONE, str(bad))
    assert status == 1 and text.endswith("=== bad.board ===\nno solution: the board is inconsistent\n")
    status, text = call("solve", "--mines", "2", ONE_TWO_ONE)
    assert status == 0 and text.startswith("mines: 2\n")                      # solve(mines=...)


def test_errors_name_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.board"
    bad.write_text("###\n#9#\n")
    for args in (["analyze", str(bad)], ["analyze", ONE_TWO_ONE, str(bad)], ["solve", ONE_TWO_ONE, str(bad)],
                 ["explain", str(bad), "0,0"], ["classify", str(bad)]):
        assert main(args, io.StringIO()) == EXIT_USAGE, args
        err = capsys.readouterr().err
        assert err.startswith(f"minegraph: error: {bad}: line 2, column 2: number 9 is too large"), err
        assert err.count("\n") == 1
    # A missing file is named once.
    assert main(["analyze", ONE_TWO_ONE, str(tmp_path / "missing.board")], io.StringIO()) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.count(str(tmp_path / "missing.board")) == 1 and "cannot read" in err
    # Standard input is named when it is one of several boards.
    p = run("analyze", ONE_TWO_ONE, "-", stdin="#z#\n")
    assert p.returncode == 2 and p.stderr.startswith("minegraph: error: standard input: line 1, column 2")
    p = run("analyze", "-", stdin="#z#\n")
    assert p.returncode == 2 and p.stderr.startswith("minegraph: error: line 1, column 2")


def test_a_total_beyond_one_of_several_boards(capsys: pytest.CaptureFixture[str]) -> None:
    # one-two-one has 15 cells, the torus 16: 16 mines fit the second only.
    assert main(["analyze", TORUS, ONE_TWO_ONE, "--mines", "16"], io.StringIO()) == EXIT_USAGE
    assert capsys.readouterr().err == (f"minegraph: error: {ONE_TWO_ONE}: total mine count 16 is "
                                       "outside 0..15 (the number of cells)\n")


# ----------------------------------------------------------------- the picture
def test_analyze_svg_writes_the_heat_map(tmp_path: Path) -> None:
    out = tmp_path / "heat.svg"
    status, text = call("analyze", "--svg", str(out), ONE_TWO_ONE)
    assert status == 0 and text == call("analyze", ONE_TWO_ONE)[1]
    root = ET.fromstring(out.read_text())
    ns = "{http://www.w3.org/2000/svg}"
    fills = [e for e in root.iter(ns + "polygon") if e.get("class") == "fill"]
    assert len(fills) == 7                                    # every hidden cell of one-two-one
    assert {e.get("fill") for e in fills} == {"#43a047", "#e53935"}   # all proven: safe or mine
    assert main(["analyze", "--svg", str(out), ONE_TWO_ONE, TORUS], io.StringIO()) == EXIT_USAGE
    assert main(["analyze", "--svg", str(tmp_path / "no" / "dir.svg"), ONE_TWO_ONE], io.StringIO()) == EXIT_USAGE


# ----------------------------------------------------------------- colour
def test_colour_only_for_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TERM", raising=False)
    assert use_colour("auto", Terminal()) and not use_colour("auto", io.StringIO())
    assert use_colour("always", io.StringIO()) and not use_colour("never", Terminal())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour("auto", Terminal()) and use_colour("always", Terminal())
    monkeypatch.setenv("NO_COLOR", "")                      # empty: not set (no-color.org)
    assert use_colour("auto", Terminal())
    monkeypatch.setenv("TERM", "dumb")
    assert not use_colour("auto", Terminal())


def test_colour_in_real_processes() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLORTERM")}
    piped = run("analyze", ONE_TWO_ONE, env=env)
    assert piped.returncode == 0 and "\x1b[" not in piped.stdout             # a pipe: no colour
    always = run("analyze", "--color", "always", ONE_TWO_ONE, env={**env, "NO_COLOR": "1"})
    assert "\x1b[" in always.stdout and ANSI.sub("", always.stdout) == piped.stdout
    assert "\x1b[" not in run("demo", "--color", "never", env=env).stdout
    assert "\x1b[" not in run("analyze", "--json", "--color", "always", ONE_TWO_ONE, env=env).stdout
    # A terminal: colour unless NO_COLOR says otherwise.
    import pty
    for extra, coloured in (({}, True), ({"NO_COLOR": "1"}, False)):
        leader, follower = pty.openpty()
        p = subprocess.Popen([sys.executable, "-m", "minegraph", "analyze", ONE_TWO_ONE],
                             stdout=follower, stderr=subprocess.PIPE, env={**env, "TERM": "xterm", **extra})
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        os.close(leader)
        assert p.wait(timeout=120) == 0
        assert ("\x1b[" in b"".join(chunks).decode()) == coloured, extra


# ----------------------------------------------------------------- the green game
def test_green_hints_the_format_it_sees(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from minegraph.green.solvers import SAMPLE_GRA_IN
    game = tmp_path / "game.gm"
    game.write_text('parity 1;\n0 2 0 1 "1";\n1 1 1 0,1;\n')
    assert main(["green", str(game)], io.StringIO()) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "PGSolver game" in err and "--format pgsolver" in err and err.count("\n") == 1
    assert main(["green", "--format", "pgsolver", str(game)], io.StringIO()) == 0
    oi = tmp_path / "gra.in"
    oi.write_text(SAMPLE_GRA_IN)
    assert main(["green", "--format", "pgsolver", str(oi)], io.StringIO()) == EXIT_USAGE
    assert "leave out --format pgsolver" in capsys.readouterr().err


def test_green_verify_says_what_it_verified(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from minegraph.green.solvers import SAMPLE_GRA_IN, SAMPLE_GRA_OUT
    oi = tmp_path / "gra.in"
    oi.write_text(SAMPLE_GRA_IN)
    out = io.StringIO()
    assert main(["green", "--verify", str(oi)], out) == 0
    assert out.getvalue() == SAMPLE_GRA_OUT                     # the answer is unchanged
    assert capsys.readouterr().err == ("minegraph: verified: the winning regions and both players' "
                                       "strategies are correct for all 8 fields (Ania wins from 5, "
                                       "Bolek from 3)\n")
    out = io.StringIO()
    assert main(["green", "--verify", "--strategy", str(oi)], out) == 0
    with_strategy = io.StringIO()
    main(["green", "--strategy", str(oi)], with_strategy)
    assert out.getvalue() == with_strategy.getvalue()            # the same answer either way
    game = tmp_path / "game.gm"
    game.write_text('parity 1;\n0 2 0 1 "1";\n1 1 1 0,1;\n')
    out = io.StringIO()
    assert main(["green", "--format", "pgsolver", "--verify", str(game)], out) == 0
    plain = io.StringIO()
    main(["green", "--format", "pgsolver", str(game)], plain)
    assert out.getvalue() == plain.getvalue()
    assert "correct for all 2 vertices (player 0 wins from 0, player 1 from 2)" in capsys.readouterr().err


# ----------------------------------------------------------------- issue 22, item 8
def test_headers_name_files_by_name_and_by_path_when_names_repeat(tmp_path: Path) -> None:
    # classify printed "=== src/minegraph/examples/classify/expert-seed-0.board ===" where the
    # README shows "=== expert-seed-0.board ==="; analyze and solve head their boards alike.
    shipped = sorted((EXAMPLES / "classify").glob("*.board"))[:2]
    status, text = call("classify", "--no-heuristic", *map(str, shipped))
    assert status == 0
    assert [line for line in text.splitlines() if line.startswith("===")] == \
        [f"=== {path.name} ===" for path in shipped]
    # Two files of one name: the paths tell them apart.
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    for folder in ("a", "b"):
        (tmp_path / folder / "x.board").write_text("1#\n11\n")
    paths = [str(tmp_path / "a" / "x.board"), str(tmp_path / "b" / "x.board"), ONE_TWO_ONE]
    for command in (["classify", "--no-heuristic"], ["analyze"], ["solve"]):
        status, text = call(*command, *paths)
        assert [line for line in text.splitlines() if line.startswith("===")] == \
            [f"=== {paths[0]} ===", f"=== {paths[1]} ===", "=== one-two-one.board ==="], command


def test_the_readme_classify_run_is_what_classify_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)            # not a terminal: 80 columns
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = "minegraph classify src/minegraph/examples/classify/*.board"
    assert f"`{command}`" in readme
    shown = readme.split(f"`{command}`")[1].split("```")[1].strip("\n")
    shipped = sorted((EXAMPLES / "classify").glob("*.board"))
    status, text = call("classify", *map(str, shipped))
    assert status == 0 and text.strip("\n") == shown


def test_green_without_a_file_says_one_can_be_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["green"], io.StringIO()) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith("minegraph: error: cannot read gra.in: No such file or directory")
    assert "minegraph green FILE" in err and "- for standard input" in err and err.count("\n") == 1
    # A file named on the command line that is missing is that file's error only.
    assert main(["green", "missing.in"], io.StringIO()) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "missing.in" in err and "minegraph green FILE" not in err


@pytest.mark.parametrize("sep", [" ", "\t", "  "])
def test_solve_writes_rows_in_the_inputs_style(tmp_path: Path, sep: str) -> None:
    board = tmp_path / "b.board"
    board.write_text(f"mines: 1\n; a comment\n{sep.join('#1-')}\n{sep.join('#1-')}\n{sep.join('11-')}\n")
    status, text = call("solve", str(board))
    assert status == 0
    assert text == f"mines: 1\n{sep.join('11-')}\n{sep.join('M1-')}\n{sep.join('11-')}\n"
    # Read back, it is the completion solve finds in the canonical text.
    from minegraph import Board, solve
    assert Board.from_text(text) == solve(Board.from_file(str(board)))
    # Cells written together stay together; a one-column board has no separator to keep.
    board.write_text("mines: 1\n#1\n11\n")
    assert call("solve", str(board))[1] == "mines: 1\nM1\n11\n"
    board.write_text(f"#{sep}1\n")
    assert call("solve", "--mines", "1", str(board))[1] == f"mines: 1\nM{sep}1\n"


@pytest.mark.parametrize("argv, prog", [(["analyze", ONE_TWO_ONE, "--bogus"], "minegraph analyze"),
                                        (["analyse", ONE_TWO_ONE, "--bogus"], "minegraph analyze"),
                                        (["solve", ONE_TWO_ONE, "extra", "--nope"], "minegraph solve"),
                                        (["generate", "paper", "--theorem", "1", "--size", "3x3", "--bogus"],
                                         "minegraph generate paper"),
                                        (["bench", "--bogus", "1"], "minegraph bench"),
                                        (["demo", "now"], "minegraph demo")])
def test_unknown_arguments_point_to_the_subcommands_help(argv: list[str], prog: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        main(argv, io.StringIO())
    assert exit.value.code == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unrecognized arguments" in err
    assert err.endswith(f"(see {prog} --help)\n"), err
    # The main parser's own mistakes still point to the main help.
    for main_mistake in (["bogus"], ["--bogus", *argv]):
        with pytest.raises(SystemExit):
            main(main_mistake, io.StringIO())
        assert capsys.readouterr().err.endswith("(see minegraph --help)\n")


# ----------------------------------------------------------------- issue 22, item 9
class _Terminal(io.StringIO):
    """Standard output as a terminal (its width from COLUMNS)."""

    def isatty(self) -> bool:
        return True


def test_analyze_leaves_out_a_grid_of_too_many_bands(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    # Issue 22: a 600x600 board printed a 3,000-column grid, with no way to leave it out.
    # Issue 34: a grid wider than the terminal comes in bands of columns (Expert: two in 80
    # or 100 columns); in a terminal, one of more than MAX_BANDS bands is left out.
    from minegraph.cli.analyze import MAX_BANDS
    expert = str(EXAMPLES / "expert-midgame.board")              # 16x30: a 153-column grid
    monkeypatch.setenv("COLUMNS", "100")
    out = _Terminal()
    assert main(["analyze", "--color", "never", expert], out) == 0
    text = out.getvalue()
    assert max(map(len, text.splitlines())) <= 100 and "left out" not in text
    assert len([line for line in text.splitlines() if line.startswith("r\\c")]) == 2
    # 2 rows of 100 columns: 3 + 5 x 100 characters, in 19 columns a band of 100: 6 bands.
    wide = tmp_path / "wide.board"
    wide.write_text("mines: 3\n" + "#" * 100 + "\n" + "#" * 100 + "\n")
    assert MAX_BANDS < 6
    out = _Terminal()
    assert main(["analyze", "--color", "never", str(wide)], out) == 0
    text = out.getvalue()
    assert "r\\c" not in text and max(map(len, text.splitlines())) <= 100
    said = [line for line in text.splitlines() if "grid" in line and "left out" in line]
    assert len(said) == 1 and "503 columns" in said[0] and "6 bands" in said[0], said
    assert "100" in said[0] and "--grid" in said[0]
    # The rest of the report is all there, the note in the grid's place.
    full = call("analyze", str(wide))[1]
    assert text.split(said[0])[0] == full.split("hidden cells:")[0]
    # --grid prints it anyway, in its 6 bands; a file or pipe gets every grid.
    out = _Terminal()
    assert main(["analyze", "--color", "never", "--grid", str(wide)], out) == 0
    assert out.getvalue().count("\nr\\c") == 6 and "left out" not in out.getvalue()
    assert "r\\c" in full and "left out" not in full
    monkeypatch.setenv("COLUMNS", "600")
    out = _Terminal()
    assert main(["analyze", "--color", "never", str(wide)], out) == 0
    assert out.getvalue().count("\nr\\c") == 1


def test_analyze_no_grid(monkeypatch: pytest.MonkeyPatch) -> None:
    status, text = call("analyze", "--no-grid", ONE_TWO_ONE)
    assert status == 0 and "r\\c" not in text and "left out" not in text
    full = call("analyze", ONE_TWO_ONE)[1]
    # The same report without the grid (and the key's words about it).
    assert text.splitlines()[:6] == full.splitlines()[:6]
    assert "hidden cells show their mine probability" not in text
    assert "key: cells are (row,col) from 0 at the top left" in text
    # JSON has no grid to leave out: the same object.
    assert call("analyze", "--json", "--no-grid", ONE_TWO_ONE) == call("analyze", "--json", ONE_TWO_ONE)
    with pytest.raises(SystemExit):
        main(["analyze", "--grid", "--no-grid", ONE_TWO_ONE])
