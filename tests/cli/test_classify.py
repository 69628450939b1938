"""The ``minegraph classify`` command."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from minegraph.cli.classify import examples
from minegraph.cli import main

FIGURE_4_3 = "001#100\n002#200\n122#221\n#######\n122#221\n002#200\n001#100\n"


def test_one_board(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "120")            # each line whole (80: wrapped, issue 34)
    path = tmp_path / "fig.board"
    path.write_text(FIGURE_4_3)
    assert main(["classify", str(path)]) == 0
    assert capsys.readouterr().out == (
        "board: 7x7 square, 13 hidden, 36 numbers, 0 known mines\n"
        "board graph: 49 vertices, 60 edges; treewidth <= 3 (min-fill heuristic)\n"
        "bipartite decomposition: 36 bags, 62 edges, width 5\n"
        "redundant-edge removal: 20 edges kept, 42 removed\n"
        "2-connected components with a cycle: 1 (largest 4 bags), 1 series-parallel\n"
        "class: polynomial, by series-parallel components; tree decomposition of width 11 (bound 17)\n")


def test_svg_output(tmp_path: Path) -> None:
    board, picture = tmp_path / "fig.board", tmp_path / "fig.svg"
    board.write_text(FIGURE_4_3)
    assert main(["classify", str(board), "--svg", str(picture), "--removed", "--no-heuristic"]) == 0
    root = ET.parse(picture).getroot()
    lines = [e for e in root.iter("{http://www.w3.org/2000/svg}line")]
    assert sum(e.get("class") == "edge" for e in lines) == 20
    assert sum(e.get("class") == "removed" for e in lines) == 42


def test_the_shipped_examples_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["classify", "--json", "--no-heuristic"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["board"] for r in rows] == [name for name, _ in examples()]
    steps = {r["board"]: r["step"] for r in rows}
    assert steps["figure-4-3.board"] == "series-parallel" and steps["k4-minor.board"] is None
    assert all(r["heuristic_width"] is None for r in rows)
    assert main(["classify"]) == 0
    assert capsys.readouterr().out.count("=== ") == len(rows)


def test_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["classify", str(tmp_path / "missing.board")]) == 2
    assert capsys.readouterr().err.startswith("minegraph: error: cannot read")
    assert main(["classify", "--svg", str(tmp_path / "x.svg")]) == 2
    assert "--svg draws one board" in capsys.readouterr().err
    bad = tmp_path / "bad.board"
    bad.write_text("#1\n#")
    assert main(["classify", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("minegraph: error:") and err.count("\n") == 1
