"""Printable sheets: cells drawn in their own shapes, the numbers printed, the mines only on the
solution sheet; --count writes one file per seed, in the same order on any number of workers."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from minegraph import parallel
from minegraph.board import Board
from minegraph.cli import main
from minegraph.errors import BoardError
from minegraph.generate.paper import paper_table
from minegraph.generate.sheet import puzzle_svg, solution_svg

NS = "{http://www.w3.org/2000/svg}"


def cells(svg: str) -> list[list[tuple[float, float]]]:
    root = ET.fromstring(svg)
    return [[tuple(map(float, p.split(","))) for p in e.get("points", "").split()]  # type: ignore[misc]
            for e in root.iter(NS + "polygon") if e.get("class") == "cell"]


@pytest.mark.parametrize("theorem, rows, cols, corners", [(2, 4, 5, 4), (3, 5, 6, 3)])
def test_cells_in_their_shapes(theorem: int, rows: int, cols: int, corners: int) -> None:
    t = paper_table(theorem, rows, cols, seed=1)
    svg = puzzle_svg(t.puzzle, caption="x")
    shapes = cells(svg)
    assert len(shapes) == rows * cols and {len(p) for p in shapes} == {corners}
    root = ET.fromstring(svg)
    numbers = [e.text for e in root.iter(NS + "text") if e.get("class") == "number"]
    assert numbers == [str(s) for s in t.puzzle.states if s >= 0]
    assert 'class="mine"' not in svg
    white = [e for e in root.iter(NS + "polygon") if e.get("class") == "fill"]
    assert len(white) == len(t.puzzle.hidden)
    answer = solution_svg(t.puzzle, t.layout)
    assert answer.count('class="mine"') == len(t.layout)


def test_solution_checks_its_mines() -> None:
    with pytest.raises(BoardError, match="not hidden"):
        solution_svg(Board.from_text("#1#"), frozenset({1}))


def test_count_files_and_workers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["generate", "unique", "--size", "5x5", "--mines", "4", "--seed", "10", "--count", "4"]
    assert main([*base, "--svg", str(tmp_path / "p.svg"), "--answer-svg", str(tmp_path / "a.svg"),
                 "--no-progress"]) == 0
    one = capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == \
        ["a-10.svg", "a-11.svg", "a-12.svg", "a-13.svg", "p-10.svg", "p-11.svg", "p-12.svg", "p-13.svg"]
    assert main([*base, "--workers", "2"]) == 0
    assert capsys.readouterr().out == one
    assert one.count("mines: 4") == 4 and one.count("; grade: ") == 4


def test_count_on_a_dask_cluster(capsys: pytest.CaptureFixture[str]) -> None:
    """``--scheduler``: the same puzzles, in seed order, made on a Dask cluster."""
    import warnings
    distributed = pytest.importorskip("distributed")
    base = ["generate", "noguess", "--size", "8x8", "--mines", "9", "--rules", "modern",
            "--first", "3,3", "--seed", "4", "--count", "3", "--no-progress"]
    assert main(base) == 0
    here = capsys.readouterr().out
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                      dashboard_address=None) as cluster:
            assert main([*base, "--scheduler", cluster.scheduler_address]) == 0
    import re

    def untimed(text: str) -> str:      # the comment lines carry each board's own time
        return re.sub(r"in [0-9.]+ s", "in T s", text)

    there = capsys.readouterr().out
    assert untimed(there) == untimed(here) and here.count("mines: 9") == 3


def test_unreachable_scheduler(capsys: pytest.CaptureFixture[str],
                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "CONNECT_SECONDS", 1)     # nothing listens: no need to wait 10 s
    assert main(["generate", "unique", "--size", "4x4", "--mines", "3", "--count", "2",
                 "--scheduler", "tcp://127.0.0.1:9", "--no-progress"]) == 2
    assert "cannot reach the Dask scheduler" in capsys.readouterr().err


def test_unwritable_svg(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "paper", "--theorem", "1", "--size", "2x4",
                 "--svg", "/nonexistent/dir/x.svg"]) == 2
    assert "cannot write /nonexistent/dir/x.svg" in capsys.readouterr().err
