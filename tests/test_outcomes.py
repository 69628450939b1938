"""outcomes(): what a hidden cell would show and every other cell's chances after each number,
checked against one full analysis per number and against brute-force enumeration."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minegraph import Board, analyze
from minegraph.board import BLANK, HIDDEN, MINE
from minegraph.errors import BoardError, MinegraphError
from minegraph.outcomes import count_board, outcomes
from strategies import examples, graph_positions, positions


def per_value(board: Board, index: int, engine: str = "auto") -> dict[int, object]:
    """The independent method: analyse the board once per number the cell could show."""
    found = {}
    for k in range(len(board.neighbors[index]) + 1):
        states = list(board.states)
        states[index] = k
        try:
            after = analyze(board.with_states(states), engine)
        except MinegraphError:
            continue
        if after.consistent and after.solutions:
            found[k] = after
    return found


def check_against_analyses(board: Board, index: int, engine: str = "auto") -> None:
    whole = analyze(board, engine)
    expected = per_value(board, index, engine)
    if not expected:        # no completion with the cell safe (or none at all)
        with pytest.raises(BoardError):
            outcomes(board, board.cell(index))
        return
    out = outcomes(board, board.cell(index))
    assert out.numbers() == sorted(expected)
    assert out.total == whole.solutions
    assert out.mine_ways == round(whole.probability(board.cell(index)) * whole.solutions)
    for k, after in expected.items():
        assert out.ways(k) == after.solutions
        assert out.chance(k) == Fraction(after.solutions, whole.solutions)
        counts = out.by_number[k].mine_counts
        assert sorted(counts) == sorted(after.board.hidden)
        for cell, p in after.probabilities.items():
            assert out.probability(k, cell) == p
        mine = out.analysis(k)
        assert (mine.solutions, mine.safe, mine.mines) == (after.solutions, after.safe, after.mines)
        assert (mine.best, mine.best_basis) == (after.best, after.best_basis)
        assert dict(mine.probabilities) == dict(after.probabilities)


def hidden_cell(draw: st.DrawFn, board: Board) -> int | None:
    hidden = board.hidden
    return draw(st.sampled_from(hidden)) if hidden else None


def grids_and_graphs() -> st.SearchStrategy[Board]:
    """Square, triangle (12 neighbours), hex and torus grids, with and without totals, with
    flagged mines and uncovered blanks; and random graphs."""
    return st.one_of(positions(max_hidden=12), graph_positions(max_cells=12))


@settings(max_examples=examples(100))
@given(st.data())
def test_equals_one_analysis_per_value(data: st.DataObject) -> None:
    board = data.draw(grids_and_graphs())
    index = hidden_cell(data.draw, board)
    if index is not None:
        check_against_analyses(board, index)


@pytest.mark.slow
@settings(max_examples=5000)
@given(st.data())
def test_equals_one_analysis_per_value_sweep(data: st.DataObject) -> None:
    """Thousands of positions (``-m slow``)."""
    board = data.draw(grids_and_graphs())
    index = hidden_cell(data.draw, board)
    if index is not None:
        check_against_analyses(board, index)


@settings(max_examples=examples(60))
@given(st.data())
def test_equals_the_python_dp_per_value(data: st.DataObject) -> None:
    """Against the pure-Python DP too (the native kernel answers the default analyses)."""
    board = data.draw(positions(max_hidden=12, allow_inconsistent=False))
    index = hidden_cell(data.draw, board)
    if index is not None:
        check_against_analyses(board, index, "dp")


def brute(board: Board, index: int) -> tuple[dict[int, int], dict[int, dict[int, int]], int]:
    """Every completion enumerated: ways per number, mines per cell per number, and the cells'
    count of completions with the cell a mine."""
    states, nbrs = board.states, board.neighbors
    hidden = board.hidden
    ways: dict[int, int] = {}
    mines: dict[int, dict[int, int]] = {}
    mined_cell = 0
    for bits in product((False, True), repeat=len(hidden)):
        mine = dict(zip(hidden, bits))
        if board.mines is not None and sum(bits) + board.known_mines != board.mines:
            continue
        is_mine = [states[q] == MINE or mine.get(q, False) for q in range(len(states))]
        if any(s >= 0 and s != sum(is_mine[q] for q in nbrs[p]) for p, s in enumerate(states)):
            continue
        if is_mine[index]:
            mined_cell += 1
            continue
        k = sum(is_mine[q] for q in nbrs[index])
        ways[k] = ways.get(k, 0) + 1
        per = mines.setdefault(k, dict.fromkeys([c for c in hidden if c != index], 0))
        for c in per:
            per[c] += is_mine[c]
    return ways, mines, mined_cell


@settings(max_examples=examples(100))
@given(st.data())
def test_equals_brute_force_enumeration(data: st.DataObject) -> None:
    check_against_brute_force(data)


@pytest.mark.slow
@settings(max_examples=3000)
@given(st.data())
def test_equals_brute_force_enumeration_sweep(data: st.DataObject) -> None:
    """Thousands of positions (``-m slow``)."""
    check_against_brute_force(data)


def check_against_brute_force(data: st.DataObject) -> None:
    board = data.draw(st.one_of(positions(max_hidden=9), graph_positions(max_cells=9)))
    index = hidden_cell(data.draw, board)
    if index is None:
        return
    ways, mines, mined_cell = brute(board, index)
    if not ways:
        with pytest.raises(BoardError):
            outcomes(board, board.cell(index))
        return
    out = outcomes(board, board.cell(index))
    assert {k: out.ways(k) for k in out.numbers()} == ways
    assert {k: out.by_number[k].mine_counts for k in out.numbers()} == mines
    assert out.mine_ways == mined_cell


def test_hand_checked_position() -> None:
    # One mine among the 5 cells around the 1; (1, 0) sees (0, 0) and (0, 1) of them.
    board = Board.from_text("mines: 1\n###\n#1#")
    out = outcomes(board, (1, 0))
    assert {k: out.ways(k) for k in out.numbers()} == {0: 2, 1: 2}
    assert (out.mine_ways, out.total) == (1, 5)
    assert out.probability(1, (0, 0)) == Fraction(1, 2)
    assert out.probability(0, (0, 2)) == Fraction(1, 2)
    assert out.by_number[1].safe == [2, 5]          # (0, 2) and (1, 2)
    assert out.by_number[0].safe == [0, 1]
    assert out.by_number[1].mines == []


def test_flagged_and_decided_neighbours_count_in_the_number() -> None:
    # (0, 0) is flagged; the 1 at (1, 1)... sees it, so (0, 1), (0, 2), (1, 2), (2, x) are safe.
    board = Board.from_text("M##\n#1#\n###")
    out = outcomes(board, (1, 0))
    # Its neighbours: the flag, (0, 1), (1, 1) (a number), (2, 0), (2, 1): everything but the
    # flag is safe by the 1, so it shows 1 whatever the rest holds.
    assert out.numbers() == [1]
    assert out.ways(1) == analyze(board).solutions


def test_without_a_total_and_with_mines_override() -> None:
    board = Board.from_text("####\n#2##\n####")
    assert outcomes(board, (0, 3)).total == analyze(board).solutions == 224
    out = outcomes(board, (0, 3), mines=3)
    assert {k: out.ways(k) for k in out.numbers()} == {0: 15, 1: 27, 2: 13, 3: 1}
    assert out.total == analyze(board, mines=3).solutions


def test_a_certain_mine_is_a_clear_error() -> None:
    board = Board.from_text("#1-\n11-")
    with pytest.raises(BoardError, match=r"cell \(0, 0\): a mine in every completion"):
        outcomes(board, (0, 0))


def test_bad_cells_and_boards_are_clear_errors() -> None:
    board = Board.from_text("#1#")
    with pytest.raises(BoardError, match="expected a hidden cell"):
        outcomes(board, (0, 1))
    with pytest.raises(BoardError):
        outcomes(board, (5, 5))
    with pytest.raises(BoardError, match="outcomes needs a Board"):
        outcomes("#1#", (0, 0))  # type: ignore[arg-type]
    with pytest.raises(BoardError, match="no completion"):
        outcomes(Board.from_text("mines: 1\n2#\n##"), (0, 1))
    with pytest.raises(BoardError, match="cannot show 2"):
        outcomes(board, (0, 0)).analysis(2)
    with pytest.raises(BoardError, match="another hidden cell"):
        outcomes(board, (0, 0)).probability(0, (0, 0))


def test_networkx_labels() -> None:
    nx = pytest.importorskip("networkx")
    graph = nx.cycle_graph(["a", "b", "c", "d", "e"])
    board = Board.from_networkx(graph, {"a": 1}, mines=2)
    out = outcomes(board, "c")
    for k in out.numbers():
        after = analyze(out.after(k))
        assert out.ways(k) == after.solutions
        assert dict(out.analysis(k).probabilities) == dict(after.probabilities)
    assert out.total == analyze(board).solutions


def test_count_board_matches_analyze() -> None:
    for text in ("mines: 1\n###\n#1#", "#2#\n#3#\n###", "mines: 1\n2#\n##", "M1-\n11-"):
        board = Board.from_text(text)
        assert count_board(board) == analyze(board).solutions


def test_blank_neighbours_are_safe() -> None:
    board = Board.grid(1, 3, [HIDDEN, BLANK, HIDDEN], mines=1)
    out = outcomes(board, 0)
    assert out.numbers() == [0]    # its one neighbour is uncovered
    assert out.ways(0) == 1 and out.mine_ways == 1


def test_since_an_earlier_system_gives_the_same_answer() -> None:
    from minegraph.constraints import build_system
    earlier = Board.from_text("mines: 4\n#####\n#####\n#2###\n#####")
    later = Board.from_text("mines: 4\n#####\n#####\n#21##\n#####")
    since = build_system(earlier)
    for cell in [(0, 0), (1, 1), (1, 3), (3, 3)]:
        fresh, updated = outcomes(later, cell), outcomes(later, cell, since=since)
        assert fresh.by_number == updated.by_number
    with pytest.raises(BoardError, match="since"):
        outcomes(later, (0, 0), since="x")  # type: ignore[arg-type]


class CountingStrong:
    """``strong`` on a pure-Python analyser (its look-ahead by one pass), counting look-aheads
    and checking each against one analysis per number."""

    def __new__(cls) -> object:
        from minegraph.analyser import Analyser
        from minegraph.play.policies import StrongPolicy

        class Checked(StrongPolicy):
            looks = 0

            def _look(self, board, cell, count, base):  # type: ignore[no-untyped-def]
                look = super()._look(board, cell, count, base)
                Checked.looks += 1
                expected = per_value(board, cell, "dp")
                assert [(k, chance, a.solutions, a.safe, a.mines, a.best, a.best_basis)
                        for k, chance, a in look] == \
                    [(k, Fraction(a.solutions, count), a.solutions, a.safe, a.mines, a.best,
                      a.best_basis) for k, a in expected.items()]
                return look
        return Checked(analyser=Analyser(native=False))


def test_strong_looks_ahead_by_one_pass_without_the_kernel() -> None:
    from minegraph.play.autoplay import play
    from minegraph.play.game import Game
    policy = CountingStrong()
    for seed, rules in [(1, "modern"), (2, "classic")]:
        play(Game("beginner", rules=rules, seed=seed), policy)  # type: ignore[arg-type]
    assert type(policy).looks > 0       # type: ignore[attr-defined]


@pytest.mark.skipif(not __import__("minegraph.kernel").kernel.available(),
                    reason="the per-number way runs on the native kernel")
def test_strong_plays_the_same_moves_both_ways() -> None:
    """The native analyser looks ahead one analysis per number, the pure one by one pass:
    the same moves on seeded games (with 9, 6, 6 and 19 look-aheads)."""
    from minegraph.analyser import Analyser
    from minegraph.play.autoplay import play
    from minegraph.play.game import Game
    from minegraph.play.policies import StrongPolicy
    looks = 0

    class Counting(StrongPolicy):
        def _look(self, board, cell, count, base):  # type: ignore[no-untyped-def]
            nonlocal looks
            looks += not self.analyser.native
            return super()._look(board, cell, count, base)
    for seed, size in [(1, "beginner"), (2, "beginner"), (0, "intermediate"), (4, "intermediate")]:
        moves = []
        for native in (True, False):
            game = Game(size, rules="classic", seed=seed)
            play(game, Counting(analyser=Analyser(native=native)))
            moves.append(list(game.moves))
        assert moves[0] == moves[1]
    assert looks >= 30


anything = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.text(max_size=3),
                     st.floats(), st.lists(st.integers(-1, 6), max_size=3),
                     st.tuples(st.integers(-1, 6), st.integers(-1, 6)))


@settings(max_examples=examples(80))
@given(st.one_of(positions(max_hidden=8), graph_positions(max_cells=8)), st.data())
def test_random_arguments_give_answers_or_minegraph_errors(board: Board, data: st.DataObject) -> None:
    cell = data.draw(st.one_of(anything, st.sampled_from(board.hidden or [0])))
    mines = data.draw(st.one_of(st.none(), st.integers(-1, board.size + 1), anything))
    try:
        out = outcomes(board, cell, mines=mines)
    except MinegraphError:
        return
    number, other = data.draw(anything), data.draw(anything)
    for call in (lambda: out.ways(number), lambda: out.chance(number),
                 lambda: out.probability(number, other), lambda: out.analysis(number),
                 lambda: out.after(number)):
        try:
            call()
        except MinegraphError:
            pass


def test_a_cancelled_query_is_honoured() -> None:
    from minegraph.deadline import Deadline, time_limit
    from minegraph.errors import QueryCancelled
    deadline = Deadline(3600)
    deadline.cancel()
    board = Board.from_text("mines: 3\n####\n#2##\n####")
    with pytest.raises(QueryCancelled), time_limit(deadline):
        outcomes(board, (0, 0))
