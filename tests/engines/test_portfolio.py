"""engine="auto": DP by its estimated work, SAT to cut wide components, DP again."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings

from minegraph import Board, analyze, solve
from minegraph.constraints import build_system
from minegraph.engines.base import get_engine
from minegraph.engines.dp import DPEngine
from minegraph.engines.portfolio import ComponentCache, PortfolioEngine, component_width
from minegraph.errors import AnswerUnavailable, EngineError
from minegraph.recipes import midgame_position
from minegraph.recipes import checkerboard_opening as checkerboard
from strategies import DEFAULT_ENGINE, examples, is_completion_of, positions

JANKO = sorted((Path(__file__).parents[1] / "data" / "formats" / "janko-puzzles").glob("*.board"))


def test_narrow_boards_get_the_dp_answer_unchanged() -> None:
    for seed in range(5):
        board = midgame_position(16, 30, 99, seed)
        python = PortfolioEngine().run_system(build_system(board))
        auto, dp = PortfolioEngine().run(board), DPEngine().run(board)
        assert python.stats["engine"] == "dp" and python.stats["rounds"] == 1
        assert auto.stats["engine"] == DEFAULT_ENGINE
        assert dp.mine_counts is not None and auto.mine_counts is not None
        assert (python.count, python.mine_counts) == (dp.count, dp.mine_counts)
        assert (auto.count, dict(auto.mine_counts)) == (dp.count, dp.mine_counts)
    assert analyze(midgame_position(16, 30, 99, 0)).engine == DEFAULT_ENGINE


def test_component_width_on_known_shapes() -> None:
    # A chain of clues over single cells is a path of boxes: treewidth 1.
    chain = build_system(Board.from_text("#1#1#1#"))
    assert component_width(chain, chain.components[0]) == 1
    # Four corner clues around a ring of four hidden cells: the boxes form a 4-cycle,
    # treewidth 2.
    ring = build_system(Board.from_text("1#1\n#-#\n1#1"))
    assert len(ring.components) == 1 and len(ring.boxes) == 4
    assert component_width(ring, ring.components[0]) == 2
    # One clue over a 3x3 block of hidden cells: one box, width 0.
    block = build_system(Board.from_text("####\n#1##\n####"), propagate=False)
    assert component_width(block, block.components[0]) in (0, 1)


@pytest.mark.parametrize("path", JANKO, ids=[p.stem for p in JANKO])
def test_every_janko_puzzle_has_exactly_one_solution(path: Path) -> None:
    # Each of the ten puzzles is known to have exactly one solution (exhaustive enumeration,
    # see tests/data/formats/janko-puzzles/README.md).
    board = Board.from_text(path.read_text(encoding="utf-8"))
    a = analyze(board)
    assert a.consistent and a.solutions == 1 and a.probabilities_available
    assert set(a.probabilities.values()) <= {0, 1}
    assert len(a.safe) + len(a.mines) == board.hidden_count
    assert a.completion is not None and is_completion_of(board, a.completion)
    # SAT alone decides every hidden cell, which proves the count is 1 as well.
    s = analyze(board, engine="sat")
    assert s.solutions == 1 and s.safe == a.safe and s.mines == a.mines


def test_sat_cuts_then_dp_counts_exactly() -> None:
    board = checkerboard(12, 12, 0.3, seed=4, total=True)
    dp = DPEngine().run(board)
    # A budget below the widest component's estimate (139,400 table entries): it goes to SAT
    # first; its backbone (43 cells) splits it and dp counts the pieces exactly.
    engine = PortfolioEngine(work_budget=1600, dp_slice=0)
    low = engine.run(board)
    assert low.stats["forced_by_sat"] == 43 and low.stats["engine"] == "dp+sat"
    assert (low.count, low.mine_counts) == (dp.count, dp.mine_counts)
    completed = solve(board, engine=engine)
    assert completed is not None and is_completion_of(board, completed)


def test_wide_components_left_give_forced_cells_and_the_exact_rest() -> None:
    board = checkerboard(12, 12, 0.3, seed=1, total=False)
    exact = analyze(board, engine="dp")
    a = analyze(board, engine=PortfolioEngine(work_budget=0))   # nothing is counted
    assert a.engine == "sat" and a.solutions is None and not a.probabilities_available
    assert a.safe == exact.safe and a.mines == exact.mines
    assert "unavailable" in str(a.stats["probabilities"])
    # Without a total the floating cells are 1/2 whatever the rest does.
    system = build_system(board)
    for c in system.floating:
        assert a.probability(board.cell(c)) == exact.probability(board.cell(c)) == 0.5
    assert a.to_json()["probabilities_available"] is False
    unknown = next(board.cell(c) for c in board.hidden if board.cell(c) not in a.probabilities)
    with pytest.raises(AnswerUnavailable, match="unavailable"):
        a.probability(unknown)
    # A budget that lets some components through keeps their exact probabilities.
    mid = analyze(board, engine=PortfolioEngine(work_budget=60, dp_slice=0))
    for cell, p in mid.probabilities.items():
        assert p == exact.probability(cell)


def test_best_is_never_a_proven_mine() -> None:
    board = midgame_position(6, 8, 9, 31)
    # Both forced mines, (0, 5) and (4, 5), hold in every completion (dp counts them).
    exact = analyze(board, engine="dp")
    assert exact.mines == [(0, 5), (4, 5)] and exact.safe == []
    for engine in ("auto:0", "sat", "backtrack"):
        a = analyze(board, engine=engine)
        assert a.best not in a.mines and a.best_basis == "unknown", engine
        assert a.best == (0, 0)      # fewest hidden neighbours (3), then position
    # With probabilities, the lowest one; with a safe cell, the safe cell.
    assert exact.best_basis == "probability" and exact.best == (1, 4)
    safe_board = Board.from_text("mines: 2\n##-#\n11-#\n--1#")
    assert analyze(safe_board, engine="sat").best == (0, 3)
    assert analyze(safe_board, engine="sat").best_basis == "safe"


def test_budget_option() -> None:
    assert get_engine("auto:5").work_budget == 5  # type: ignore[attr-defined]
    assert get_engine("auto", work_budget=7).work_budget == 7  # type: ignore[attr-defined]
    with pytest.raises(EngineError, match="work budget"):
        get_engine("auto:wide")
    with pytest.raises(EngineError, match=">= 0"):
        PortfolioEngine(work_budget=-1)


def test_the_cache_reuses_components_by_key() -> None:
    cache = ComponentCache()
    engine = PortfolioEngine(cache=cache)
    board = midgame_position(16, 30, 99, 4)
    first = engine.run(board)
    assert cache.misses > 0 and cache.hits == 0
    again = engine.run(board)
    assert cache.hits == len(build_system(board).components)
    assert (again.count, again.mine_counts) == (first.count, first.mine_counts)


def test_a_limit_that_does_not_expire_changes_nothing() -> None:
    board = Board.from_text("mines: 2\n##-#\n11-#\n--1#")
    a, b = analyze(board, timeout=30), analyze(board)
    assert (a.solutions, a.probabilities, a.best) == (b.solutions, b.probabilities, b.best)


# ----------------------------------------------------------------- forced cells alone
@settings(max_examples=examples(300))
@given(positions())
def test_forced_alone_equals_the_forced_cells_of_the_full_answer(board: Board) -> None:
    # Against the brute-force oracle, with and without a cache (shared clique trees) and
    # with every component sent to SAT first (work budget 0).
    truth = get_engine("brute").run(board)
    system = build_system(board)
    for engine in (PortfolioEngine(), PortfolioEngine(cache=ComponentCache()),
                   PortfolioEngine(work_budget=0)):
        forced = engine.forced(system)
        if not truth.consistent:
            assert forced is None
        else:
            assert forced == (truth.safe, truth.mines)


def test_components_with_one_shape_share_a_clique_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    # The DP's path: the kernel's search would count these small components without a tree.
    monkeypatch.setattr("minegraph.engines.portfolio.kernel_part", lambda *args, **kwargs: None)
    cache = ComponentCache()
    engine = PortfolioEngine(cache=cache)
    # Two components of one shape (a number over three cells, then another over the same
    # kind of box) but different numbers: two counted parts, one clique tree.
    engine.run(Board.from_text("###-###\n#1#-#2#\n###-###"))
    assert len(cache.parts) == 2 and len(cache.trees) == 1


@pytest.mark.parametrize("kwargs", [{"dp_slice": "1"}, {"dp_slice": -1}, {"work_budget": True},
                                    {"work_budget": "many"}, {"cache": {}}, {"solver": 3},
                                    {"native": "yes"}])
def test_wrong_arguments_are_named_on_every_path(kwargs: dict[str, object]) -> None:
    """Compiled or pure, a wrong argument is an EngineError naming it, never a bare TypeError."""
    with pytest.raises(EngineError):
        PortfolioEngine(**kwargs)  # type: ignore[arg-type]
    with pytest.raises(EngineError, match="max_cells"):
        ComponentCache("big")  # type: ignore[arg-type]


def test_the_kernel_counts_small_components_and_the_dp_wide_ones() -> None:
    """A board with a component the kernel counts and one it declines (its count passes the
    kernel's 128 bits): the cached path counts the first by the kernel, the second by DP in
    Python integers, and the answer equals the DP engine's alone."""
    from minegraph import kernel
    from minegraph.engines.dp import DPEngine
    # A hidden row of 601 cells over 1s on every other column: one component of about
    # 1.6**300 assignments; below, a small component of two cells.
    width = 601
    numbers = "".join("1" if c % 2 else "-" for c in range(width))
    board = Board.from_text("#" * width + "\n" + numbers + "\n" + "-" * width + "\n"
                            + "#1#" + "-" * (width - 3))
    cache = ComponentCache()
    stats = PortfolioEngine(cache=cache).run(board)
    truth = DPEngine().run(board)
    assert (stats.count, dict(stats.mine_counts or {})) == (truth.count, dict(truth.mine_counts or {}))
    if kernel.available():
        assert stats.stats.get("enumerated") == 1 and stats.stats["width"] > 0


def test_without_the_kernel_every_call_declines_and_python_answers() -> None:
    """The native/pure choice is made once (``kernel.load_native``): when this process runs
    pure Python every kernel call raises ``Unavailable`` (a ``Declined``), so the engine, the
    component counter and the no-guess player answer on the Python path."""
    from minegraph import kernel
    from minegraph.engines.native import kernel_part, run_kernel
    from minegraph.generate.player import DeductionPlayer
    board = Board.from_text("mines: 1\n#1#")
    if kernel.available():
        assert kernel.max_component_cells() > 0
        return
    assert kernel.max_component_cells() == 0
    with pytest.raises(kernel.Unavailable):
        kernel.run(board)
    assert run_kernel(board) is None
    assert kernel_part([1, 1], [(1, (0, 1))], with_total=True) is None
    player = DeductionPlayer(Board.from_text("mines: 1\n###\n###"), "search")
    assert player.play(frozenset({2}), 3) is None and not player.native
