"""The thesis's consistency DP (engine "thesis") and the pipeline's decomposition inside the
counting DP (engine "dp-thesis"), differential-tested against brute force and dp."""

from __future__ import annotations

from itertools import product

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minegraph import Board, analyze, solve
from minegraph.board import BLANK, HIDDEN, MINE
from minegraph.engines import get_engine
from minegraph.engines.brute import BruteEngine
from minegraph.engines.dp import DPEngine
from minegraph.decompose.decomposition import contract_subsets
from minegraph.decompose.graph import board_graph
from minegraph.decompose.pipeline import tree_decomposition
from minegraph.engines.thesis import ThesisEngine, _Tables, evaluate
from minegraph.recipes import midgame_position
from strategies import graph_positions, is_completion_of, positions, examples

SETTINGS = settings(max_examples=examples(1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _forced(result) -> tuple[set[int], set[int]]:  # type: ignore[no-untyped-def]
    """Safe and mined cells from a counting result."""
    counts = result.mine_counts
    return ({c for c, m in counts.items() if m == 0},
            {c for c, m in counts.items() if m == result.count})


def _agree_with_brute(board: Board) -> None:
    thesis = get_engine("thesis").run(board)
    brute = BruteEngine().run(board)
    assert thesis.consistent == brute.consistent
    assert thesis.count is None if thesis.consistent else thesis.count == 0
    if brute.consistent:
        assert (set(thesis.safe), set(thesis.mines)) == _forced(brute)
        completed = solve(board, engine="thesis")
        assert completed is not None and is_completion_of(board, completed)
    else:
        assert thesis.completion is None and solve(board, engine="thesis") is None


@SETTINGS
@given(positions())
def test_thesis_matches_brute_force_on_grids(board: Board) -> None:
    _agree_with_brute(board)


@settings(max_examples=examples(500), deadline=None)
@given(graph_positions())
def test_thesis_matches_brute_force_on_graphs(board: Board) -> None:
    _agree_with_brute(board)


@st.composite
def midgames(draw: st.DrawFn) -> Board:
    rows, cols = draw(st.integers(6, 12)), draw(st.integers(6, 16))
    mines = draw(st.integers(rows * cols // 8, rows * cols // 5 + 1))
    board = midgame_position(rows, cols, mines, draw(st.integers(0, 10**6)))
    return board if draw(st.booleans()) else board.with_states(board.states, None)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(midgames())
def test_thesis_matches_dp_on_midgame_positions(board: Board) -> None:
    thesis = ThesisEngine().run(board)
    dp = DPEngine().run(board)
    assert thesis.consistent and dp.consistent
    assert (set(thesis.safe), set(thesis.mines)) == _forced(dp)
    assert thesis.stats["decomposition"] in ("edge-removal", "series-parallel", "min-fill")


@settings(max_examples=examples(300), deadline=None)
@given(positions(max_hidden=10, allow_inconsistent=True))
def test_forced_cells_as_the_thesis_finds_them(board: Board) -> None:
    """§1.2: a cell is safe iff the board with a mine put on it is inconsistent, a mine iff the
    board with it marked uncovered-without-number (◇) is; consistency alone decides both."""
    result = ThesisEngine().run(board)
    if not result.consistent:
        return
    for cell in board.hidden:
        with_mine = list(board.states)
        with_mine[cell] = MINE
        with_blank = list(board.states)
        with_blank[cell] = BLANK
        assert (cell in result.safe) == (not ThesisEngine().run(board.with_states(with_mine)).consistent)
        assert (cell in result.mines) == (not ThesisEngine().run(board.with_states(with_blank)).consistent)


@settings(max_examples=examples(300), deadline=None)
@given(positions(max_hidden=12))
def test_evaluate_root_keeps_exactly_the_extendable_assignments(board: Board) -> None:
    """Statement 12: after EVALUATE-ROOT, a node keeps exactly the assignments of its bag that
    extend consistently to its subtree; at the root, the restrictions of all completions."""
    board = board.with_states(board.states, None)
    td = contract_subsets(tree_decomposition(board)[0])
    tables = _Tables(board, td)
    tables.upward()
    hidden = board.hidden
    completions = []
    for bits in product((0, 1), repeat=len(hidden)):
        states = list(board.states)
        for c, b in zip(hidden, bits):
            states[c] = MINE if b else BLANK
        if all(s < 0 or s == sum(states[q] == MINE for q in board.neighbors[p])
               for p, s in enumerate(states)):
            completions.append(dict(zip(hidden, bits)))
    for root in tables.roots:
        expected = {tuple(m[v] for v in tables.var[root]) for m in completions}
        assert set(tables.up[root]) == expected


def test_total_mine_count_is_respected() -> None:
    """The thesis has no total; the engine's reachable-totals extension handles it."""
    free = Board.from_text("mines: 1\n#1#\n###")          # the 1 sees all five hidden cells
    result = ThesisEngine().run(free)
    assert result.consistent and not result.safe and not result.mines
    assert not ThesisEngine().run(free.with_states(free.states, 2)).consistent
    assert ThesisEngine().run(free.with_states(free.states, None)).consistent
    # Cell 0 is forced by the 1; the far cell 4 touches no number: the total decides it.
    line = Board.from_text("mines: 2\n#1--#")
    assert ThesisEngine().run(line).mines == {0, 4}
    assert ThesisEngine().run(line.with_states(line.states, 1)).safe == {4}
    assert ThesisEngine().run(line.with_states(line.states, None)).mines == {0}


def test_the_engines_are_registered() -> None:
    thesis = get_engine("thesis")
    assert thesis.name == "thesis" and thesis.answers == {"consistency", "completion", "forced"}
    # It does not count: analyze reports its forced cells without probabilities.
    a = analyze(Board.from_text("1#1\n#2#\n---"), engine="thesis")
    assert a.consistent and a.safe == [(0, 1)] and a.mines == [(1, 0), (1, 2)]
    # It does not count, but every hidden cell is forced here: exactly one completion.
    assert a.probabilities_available and a.solutions == 1
    assert a.probabilities == {(0, 1): 0, (1, 0): 1, (1, 2): 1}
    # On a board it does not decide fully, only the forced cells keep a probability.
    b = analyze(Board.from_text("1#1\n#2#\n---\n###"), engine="thesis")
    assert not b.probabilities_available and b.solutions is None
    assert get_engine("dp-thesis").name == "dp-thesis"
    assert analyze(Board.from_text("#1#"), engine="dp-thesis").solutions == 2


@SETTINGS
@given(st.one_of(positions(), graph_positions()))
def test_dp_over_the_pipeline_decomposition_counts_the_same(board: Board) -> None:
    ours = get_engine("dp-thesis").run(board)
    theirs = DPEngine().run(board)
    assert (ours.consistent, ours.count, ours.mine_counts) == (theirs.consistent, theirs.count, theirs.mine_counts)


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(midgames())
def test_dp_over_the_pipeline_decomposition_on_midgame_positions(board: Board) -> None:
    ours = get_engine("dp-thesis").run(board)
    theirs = DPEngine().run(board)
    assert (ours.count, ours.mine_counts) == (theirs.count, theirs.mine_counts)
    # The box-level decomposition is never wider than the pipeline's bags.
    td, _ = tree_decomposition(board)
    assert ours.stats["width"] <= td.width


def test_evaluate_needs_no_numbers() -> None:
    board = Board.from_text("mines: 2\n###")
    result = evaluate(board, tree_decomposition(board)[0])
    assert result.consistent and not result.safe and not result.mines
    assert len(result.completion) == 2 and board_graph(board).unknowns == {0, 1, 2}
    assert HIDDEN in board.states
