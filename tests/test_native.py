"""The compiled path (minegraph/native.py): the extensions mypyc builds from the hot modules
answer exactly as their pure-Python sources do, and the switches between the two work."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import minegraph
from minegraph import Board, analyze, explain, native
from minegraph.analyser import Analyser
from minegraph.recipes import midgame

BUILT = native.MANIFEST.exists()

#: Positions of every shape the hot modules meet: Expert mid-games (one region and many
#: clicks), other topologies, without a total, and small boards with forced cells.
CASES: list[tuple[int, int, int, int, str, bool, bool]] = (
    [(16, 30, 99, seed, "square", False, True) for seed in range(20)]
    + [(16, 30, 99, seed, "square", True, True) for seed in range(20)]
    + [(12, 12, 30, seed, topology, False, total) for seed in range(6)
       for topology in ("hex", "torus", "triangle") for total in (True, False)]
    + [(5, 6, 7, seed, "square", True, False) for seed in range(30)]
)

SCRIPT = """
import pickle, sys
sys.path.insert(0, {tests!r})
from test_native import answers
sys.stdout.buffer.write(pickle.dumps((__import__("minegraph").native.mode(), answers())))
"""


def _position(case: tuple[int, int, int, int, str, bool, bool]) -> Board:
    rows, cols, mines, seed, topology, clicks, total = case
    board = midgame(rows, cols, mines, seed, topology, clicks=clicks).board
    return board if total else board.with_states(board.states, None)


def answers() -> list[Any]:
    """Every answer of analyze (and the reusable analyser, and explain on one cell) on
    :data:`CASES`, as comparable plain values."""
    out: list[Any] = []
    analyser = Analyser()
    for case in CASES:
        board = _position(case)
        a = analyze(board)
        again = analyser.analyze(board)
        probabilities = sorted((k, str(v)) for k, v in a.probabilities.items())
        out.append((a.consistent, a.solutions, a.safe, a.mines, probabilities, a.best,
                    a.best_basis, again.solutions, again.probabilities == a.probabilities,
                    a.completion is not None and a.completion.to_text()))
        if a.safe:
            why = explain(board, a.safe[0])
            out.append((why.status, why.clues, why.uses_total, why.smallest))
    return out


def _in_subprocess(pure: bool) -> tuple[str, list[Any]]:
    env = dict(os.environ)
    env.pop(native.PURE_VARIABLE, None)
    if pure:
        env[native.PURE_VARIABLE] = "1"
    code = SCRIPT.format(tests=str(Path(__file__).resolve().parent))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, check=True)
    mode, values = pickle.loads(done.stdout)
    return str(mode), values


def test_the_compiled_and_the_pure_path_give_the_same_answers() -> None:
    pure_mode, pure = _in_subprocess(pure=True)
    assert pure_mode.startswith("pure")
    here_mode, here = _in_subprocess(pure=False)
    if BUILT:
        assert native.modules_mode() == "compiled", \
            f"{here_mode}: run `make native` after editing sources"
        assert here_mode.endswith("mypyc modules compiled"), here_mode
    assert here == pure
    # And neither is an empty comparison.
    assert len(pure) > len(CASES) and any(v[1] and v[1] > 1 for v in pure if len(v) > 2)


@pytest.mark.skipif(not BUILT, reason="pure-Python install (MINEGRAPH_COMPILE=0): nothing built")
def test_a_built_install_runs_every_listed_module_compiled() -> None:
    env = {k: v for k, v in os.environ.items() if k != native.PURE_VARIABLE}
    code = "from minegraph import native; print(native.modules_mode(), len(native.compiled()))"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["compiled", str(len(native.NATIVE_MODULES))], \
        f"{done.stdout.strip()}: run `make native` after editing sources"
    package = Path(native.__file__).parent
    built = json.loads(native.MANIFEST.read_text())["sources"]
    for module in native.NATIVE_MODULES:      # each built from the source it sits beside
        source = native.source_path(module)
        assert built[str(source.relative_to(package))] == native.source_hash(module)


def test_minegraph_pure_imports_every_module_from_its_source() -> None:
    env = dict(os.environ, **{native.PURE_VARIABLE: "1"})
    code = ("from minegraph import native; import minegraph.engines.dp as dp; "
            "print(native.modules_mode().split()[0], native.compiled(), "
            "dp.__file__.endswith('.py'))")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["pure", "[]", "True"]


def test_a_source_edited_after_the_build_is_noticed(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Any source of the package, not only a compiled one: compiled code reads the others'
    classes (an edit to board.py broke it with a bare TypeError)."""
    package = Path(native.__file__).parent
    manifest = tmp_path / "native.json"
    hashes = {str(p.relative_to(package)): hashlib.sha256(p.read_bytes()).hexdigest()
              for p in sorted(package.rglob("*.py"))}
    manifest.write_text(json.dumps({"sources": hashes}))
    monkeypatch.setattr(native, "MANIFEST", manifest)
    assert native._stale_modules() == []
    hashes["board.py"] = "0" * 64                      # as if board.py changed since the build
    manifest.write_text(json.dumps({"sources": hashes}))
    assert native._stale_modules() == list(native.NATIVE_MODULES)
    manifest.write_text("not json")                    # a broken manifest: nothing trusted
    assert native._stale_modules() == list(native.NATIVE_MODULES)


def test_the_version_line_says_which_path_runs() -> None:
    assert native.mode().startswith(("native", "pure"))
    assert minegraph.__version__ in subprocess.run(
        [sys.executable, "-m", "minegraph", "--version"], capture_output=True, text=True,
        check=True).stdout
