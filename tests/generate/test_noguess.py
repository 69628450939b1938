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


def solved_step_by_step(b, total: bool) -> bool:  # type: ignore[no-untyped-def]
    """An independent check: from the position after the first click, uncover every cell the
    exact engine (``minegraph.analyze``) proves safe and flag every proven mine, with or
    without the total, until nothing is proven; solved when every safe cell is uncovered.
    Mistakes are impossible only if the layout is the one the numbers say: a flagged cell
    must be a mine and an uncovered one safe."""
    from minegraph import analyze
    numbers = numbers_of(b)
    states = list(b.start.states)
    while True:
        board = b.start.with_states(states, mines=b.mines if total else None)
        a = analyze(board)
        if not a.safe and not a.mines:
            return all(s >= 0 or i in b.layout for i, s in enumerate(states))
        for cell in a.mines:
            i = board.index(cell)
            assert i in b.layout
            states[i] = MINE
        stack = [board.index(cell) for cell in a.safe]
        while stack:
            i = stack.pop()
            if states[i] != HIDDEN:
                continue
            assert i not in b.layout
            states[i] = numbers[i]
            if numbers[i] == 0:
                stack.extend(b.neighbors[i])


REPAIRED = [(16, 30, 130, (0, 0), "classic"), (16, 30, 150, (3, 3), "modern"),
            (16, 30, 170, (3, 3), "modern"), (16, 30, 170, (0, 0), "classic")]


@pytest.mark.parametrize("rows, cols, mines, first, rules", REPAIRED)
def test_repaired_boards_are_solved_without_a_guess(rows: int, cols: int, mines: int,
                                                    first: tuple[int, int], rules: str) -> None:
    for seed in range(2):
        b = noguess_board(rows, cols, mines, first=first, rules=rules, seed=seed,
                          method="auto")
        assert b.method == "repair" and b.attempts > 200 and b.total
        assert len(b.layout) == mines and b.start.mines == mines
        kept = {b.first} if rules == "classic" else {b.first, *b.neighbors[b.first]}
        assert not kept & b.layout
        assert solved_step_by_step(b, total=True), seed
        # the position shown is the layout's after the first click
        numbers = numbers_of(b)
        assert all(s == HIDDEN or s == numbers[i] for i, s in enumerate(b.start.states))


def test_auto_filters_first_and_repair_is_deterministic() -> None:
    # Where the filter finds a board within its share, auto gives the filter's board.
    a = noguess_board(16, 30, 99, first=(3, 3), rules="modern", seed=1, method="auto")
    f = noguess_board(16, 30, 99, first=(3, 3), rules="modern", seed=1)
    assert (a.layout, a.attempts, a.method) == (f.layout, f.attempts, "filter")
    one = noguess_board(9, 9, 30, first=(4, 4), rules="modern", seed=4, method="repair")
    two = noguess_board(9, 9, 30, first=(4, 4), rules="modern", seed=4, method="repair")
    assert one.layout == two.layout and one.method == "repair"
    assert solved_step_by_step(one, total=True)


@pytest.mark.parametrize("mines, method", [(99, "filter"), (130, "auto"), (20, "repair")])
def test_without_the_total(mines: int, method: str) -> None:
    rows, cols = (16, 30) if mines > 20 else (9, 9)
    for seed in range(2):
        b = noguess_board(rows, cols, mines, first=(3, 3), rules="modern", seed=seed,
                          method=method, total=False)
        assert not b.total and b.start.mines == mines
        assert solved_step_by_step(b, total=False), seed


def test_without_the_total_refuses_a_board_that_needs_it() -> None:
    # 1x4, a mine at 2, first click 0: "0 1 # #" opens 0 and 1; 1's number puts the mine on
    # 2, and only the total (1 mine) makes 3 safe.
    from minegraph.topology import grid_neighbors
    nbrs = grid_neighbors("square", 1, 4)
    assert solved_without_guess(nbrs, frozenset({2}), 0, 1, rows=1, cols=4)
    from minegraph.generate.noguess import _template
    from minegraph.generate.player import DeductionPlayer
    player = DeductionPlayer(_template(nbrs, None, "square", 1, 4), "search")
    assert player.play(frozenset({2}), 0) is None
    # So of the three layouts only {3} comes out without the total ({1}: "1 # # #" puts the
    # mine on 1 and leaves 2 and 3 to the total); with it, any of them.
    for seed in range(6):
        assert noguess_board(1, 4, 1, seed=seed, total=False).layout == {3}
        assert noguess_board(1, 4, 1, seed=seed, method="repair", total=False).layout == {3}
        assert noguess_board(1, 4, 1, seed=seed).layout in ({1}, {2}, {3})


def test_repair_gives_up_on_a_coin_flip() -> None:
    with pytest.raises(GameError, match=r"no layout of 3 drawn \(3 repaired\)"):
        noguess_board(1, 3, 1, first=(0, 1), method="repair", max_attempts=3)


def test_method_errors(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(UserError, match="unknown method 'magic'"):
        noguess_board(9, 9, 10, method="magic")
    with pytest.raises(UserError, match="level 'total' uses the total"):
        noguess_board(9, 9, 10, level="total", total=False)
    assert main(["generate", "noguess", "--size", "9x9", "--mines", "10", "--level", "total",
                 "--no-total"]) == 2
    assert "level 'total' uses the total" in capsys.readouterr().err


def test_cli_noguess_repair(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "noguess", "--size", "16x30", "--mines", "150", "--seed", "2",
                 "--no-total", "--no-grade"]) == 0
    out = capsys.readouterr().out
    b = noguess_board(16, 30, 150, seed=2, method="auto", total=False)
    assert Board.from_text(out).states == b.start.states
    assert "no total" in out and "repaired (" in out


def test_named_levels() -> None:
    from minegraph.generate.noguess import LEVELS, NAMED_LEVELS, level_meaning
    assert LEVELS == (*METHODS, "evf") and NAMED_LEVELS == {"evf": ("search", False)}
    assert [level_meaning(m) for m in METHODS] == [(m, True) for m in METHODS]
    assert level_meaning("linear", False) == ("linear", False)
    assert level_meaning("evf") == level_meaning("evf", False) == ("search", False)
    with pytest.raises(UserError, match="'evf' is defined without the total"):
        level_meaning("evf", True)
    with pytest.raises(UserError, match="unknown deduction method 'strong'.*search, evf"):
        level_meaning("strong")


# A wall of mines: from (0, 0) the numbers place the three mines of column 2, and only the
# total (3 mines) then shows column 3 safe (its cells touch no uncovered number).
WALL = (3, 4, frozenset({2, 6, 10}))


def test_evf_refuses_a_board_only_the_total_solves() -> None:
    from minegraph.generate.noguess import _template
    from minegraph.generate.player import DeductionPlayer
    from minegraph.topology import grid_neighbors
    rows, cols, layout = WALL
    nbrs = grid_neighbors("square", rows, cols)
    assert solved_without_guess(nbrs, layout, 0, 3, rows=rows, cols=cols)
    player = DeductionPlayer(_template(nbrs, None, "square", rows, cols), "search")
    assert player.play(layout, 0) is None


def _ms_toollib_grid(b) -> list[list[int]]:  # type: ignore[no-untyped-def]
    numbers = numbers_of(b)
    return [[-1 if r * b.cols + c in b.layout else numbers[r * b.cols + c]
             for c in range(b.cols)] for r in range(b.rows)]


@pytest.mark.parametrize("mines, method, seeds", [(99, "filter", 3), (130, "auto", 1)])
def test_evf_boards_are_evf_no_guess(mines: int, method: str, seeds: int) -> None:
    # Two independent checks of EVF's definition: step by step with the exact engine without
    # the total, and ms_toollib's own is_solvable (the check of EVF's no-guess games; it
    # opens the first cell's neighbours too, so modern rules).
    ms_toollib = pytest.importorskip("ms_toollib")
    for seed in range(seeds):
        b = noguess_board(16, 30, mines, first=(3, 3), rules="modern", seed=seed,
                          method=method, level="evf")
        assert b.level == "evf" and not b.total
        assert solved_step_by_step(b, total=False), seed
        assert ms_toollib.is_solvable(_ms_toollib_grid(b), 3, 3), seed


def test_ms_toollib_agrees_on_the_wall() -> None:
    # The wall is solved with the total, and neither EVF's check nor level evf accepts it.
    ms_toollib = pytest.importorskip("ms_toollib")
    rows, cols, layout = WALL
    from minegraph.topology import grid_neighbors
    nbrs = grid_neighbors("square", rows, cols)
    grid = [[-1 if r * cols + c in layout else sum(1 for q in nbrs[r * cols + c] if q in layout)
             for c in range(cols)] for r in range(rows)]
    assert grid == [[0, 2, -1, 2], [0, 3, -1, 3], [0, 2, -1, 2]]
    assert not ms_toollib.is_solvable(grid, 0, 0)


def test_cli_level_evf(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "noguess", "--size", "16x30", "--mines", "99", "--rules", "modern",
                 "--first", "3,3", "--seed", "4", "--level", "evf", "--no-grade"]) == 0
    out = capsys.readouterr().out
    b = noguess_board(16, 30, 99, first=(3, 3), rules="modern", seed=4, method="auto",
                      level="evf")
    assert Board.from_text(out).states == b.start.states
    assert "up to evf (EVF's no-guess: any deduction) without the total" in " ".join(
        line.lstrip("; ").strip() for line in out.splitlines() if line.startswith(";"))


def test_evf_is_ms_toollib_is_solvable_on_random_layouts() -> None:
    # Both directions: on ordinary layouts (Expert, 99 mines, modern opening at (3, 3)) level
    # evf solves exactly those ms_toollib's is_solvable, EVF's check, solves.
    ms_toollib = pytest.importorskip("ms_toollib")
    import random
    from minegraph.rules import draw_layout, kept_clear
    from minegraph.topology import grid_neighbors
    rows, cols, first = 16, 30, 3 * 30 + 3
    nbrs = grid_neighbors("square", rows, cols)
    kept = kept_clear("modern", nbrs, first)
    verdicts = []
    for k in range(120):
        layout = draw_layout(random.Random(k), kept, rows * cols, 99)
        ours = solved_without_guess(nbrs, layout, first, 99, level="evf", rows=rows, cols=cols)
        grid = [[-1 if r * cols + c in layout else sum(1 for q in nbrs[r * cols + c] if q in layout)
                 for c in range(cols)] for r in range(rows)]
        verdicts.append((ours, bool(ms_toollib.is_solvable(grid, 3, 3))))
    assert all(ours == theirs for ours, theirs in verdicts)
    assert 5 < sum(ours for ours, _ in verdicts) < 115          # both verdicts occur
