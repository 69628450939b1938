"""No-guess boards: every board is solved from the first click by the deduction-only player
without a guess (checked again by the grader, an independent loop), is the game engine's layout
for its seed, and keeps the rules' promise about the first cell."""

from __future__ import annotations

from pathlib import Path

import pytest

from minegraph import Board
from minegraph.board import HIDDEN, MINE
from minegraph.cli import main
from minegraph.errors import GameError, UserError
from minegraph.generate.grade import METHODS, grade
from minegraph.generate.noguess import edge_density, noguess_board, solved_without_guess
from minegraph.play.game import Game


def numbers_of(b) -> list[int]:  # type: ignore[no-untyped-def]
    return [sum(1 for q in b.neighbors[i] if q in b.layout) for i in range(len(b.neighbors))]


CASES = [(9, 9, 10, (4, 4), "modern", "square"), (9, 9, 10, (0, 0), "classic", "square"),
         (16, 16, 40, (3, 3), "modern", "square"), (16, 30, 99, (3, 3), "modern", "square"),
         (16, 30, 99, (0, 0), "classic", "square"), (8, 8, 10, (3, 3), "modern", "triangle"),
         (8, 8, 8, (3, 3), "classic", "hex"), (8, 8, 8, (3, 3), "modern", "torus")]


@pytest.mark.parametrize("rows, cols, mines, first, rules, topology", CASES)
def test_boards_are_solved_without_a_guess(rows: int, cols: int, mines: int,
                                           first: tuple[int, int], rules: str,
                                           topology: str) -> None:
    for seed in range(3):
        b = noguess_board(rows, cols, mines, first=first, rules=rules, seed=seed, topology=topology)
        numbers = numbers_of(b)
        g = grade(b.start, reveal=numbers.__getitem__)
        assert g.solved and g.grade in METHODS, (seed, g.describe())
        assert {i for i, s in enumerate(g.final.states) if s == MINE} == b.layout
        # the game engine's layout for this seed and first cell, and its view after the click
        game = Game(rows=rows, cols=cols, mines=mines, topology=topology, rules=rules,
                    seed=(seed << 32) + b.attempts - 1)
        game.reveal(first)
        assert game.layout == b.layout and game.board().states == b.start.states
        kept = {b.first} if rules == "classic" else {b.first, *b.neighbors[b.first]}
        assert not kept & b.layout
        assert b.start.mines == mines and b.seconds >= 0


@pytest.mark.parametrize("level", ["single", "pair", "total", "linear"])
def test_a_weaker_player(level: str) -> None:
    b = noguess_board(9, 9, 10, first=(4, 4), rules="modern", seed=5, level=level)
    g = grade(b.start, up_to=level, reveal=numbers_of(b).__getitem__)
    assert g.solved and METHODS.index(g.grade) <= METHODS.index(level)


def test_solved_without_guess_refuses_a_coin_flip() -> None:
    from minegraph.topology import grid_neighbors
    nbrs = grid_neighbors("square", 1, 3)
    assert not solved_without_guess(nbrs, frozenset({0}), 1, 1)
    assert solved_without_guess(nbrs, frozenset({0}), 2, 1)
    assert not solved_without_guess(nbrs, frozenset({1}), 1, 1)      # the first cell a mine


def test_no_solvable_layout() -> None:
    with pytest.raises(GameError, match="no layout of 20 tried.*fewer mines or modern rules"):
        noguess_board(1, 3, 1, first=(0, 1), max_attempts=20)
    # A modern game is not told to try modern rules.
    with pytest.raises(GameError, match=r"\(2x6, 3 mines, modern\); try fewer mines$"):
        noguess_board(2, 6, 3, first=(0, 0), rules="modern", max_attempts=20)


@pytest.mark.parametrize("topology, rows, cols, mines", [
    ("square", 8, 8, 56), ("hex", 8, 8, 58), ("triangle", 8, 8, 52)])
def test_mines_that_fit_a_corner_but_not_the_first_click(topology: str, rows: int, cols: int,
                                                          mines: int) -> None:
    # A corner leaves room for them; a middle first click under modern rules does not.
    with pytest.raises(GameError, match="do not fit outside the .* cells kept clear"):
        noguess_board(rows, cols, mines, first=(4, 4), rules="modern", topology=topology)


def test_bad_arguments() -> None:
    with pytest.raises(GameError, match="classic or modern"):
        noguess_board(9, 9, 10, rules="any")
    with pytest.raises(GameError, match="outside"):
        noguess_board(9, 9, 10, first=(9, 0))
    with pytest.raises(GameError, match="do not fit"):
        noguess_board(3, 3, 9, rules="modern", first=(1, 1))
    with pytest.raises(UserError, match="unknown deduction method"):
        noguess_board(9, 9, 10, level="magic")


def test_edge_density() -> None:
    boards = [noguess_board(16, 16, 40, first=(8, 8), rules="modern", seed=s) for s in range(6)]
    rows = edge_density(boards)
    assert [r["distance"] for r in rows] == list(range(7))   # the 4 cells at 7 are kept clear
    assert sum(r["mines"] for r in rows) == 240
    assert sum(r["cells"] for r in rows) == 6 * (256 - 9)
    for r in rows:
        assert r["uniform"] == pytest.approx(240 / (6 * 247))
        assert r["ratio"] == pytest.approx(r["density"] / r["uniform"])


def test_cli_noguess(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = tmp_path / "layout.txt"
    assert main(["generate", "noguess", "--size", "9x9", "--mines", "10", "--rules", "modern",
                 "--first", "4,4", "--seed", "2", "--answer", str(key)]) == 0
    out = capsys.readouterr().out
    b = noguess_board(9, 9, 10, first=(4, 4), rules="modern", seed=2)
    assert Board.from_text(out).states == b.start.states
    assert "retries)" in out and "; grade: " in out and "guess after" not in out
    answer = Board.from_text(key.read_text())
    assert {i for i, s in enumerate(answer.states) if s == MINE} == b.layout
    assert HIDDEN not in answer.states


def test_cli_noguess_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "noguess", "--size", "9x9", "--mines", "10", "--first", "9,9"]) == 2
    assert "outside the 9x9 grid" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["generate", "noguess", "--size", "9x9", "--mines", "10", "--first", "a,b"])
