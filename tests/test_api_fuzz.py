"""The public API under random arguments: every entry point of ``minegraph.__all__`` called with
random types, random values and random cells gives a result or raises a
:class:`~minegraph.errors.MinegraphError`, never another exception (issue 9).

The arguments are mostly near misses (small integers, the board text's symbols, cells in and
just outside the board, lists where tuples are expected) mixed with values of any type, so
that both the checks and the work behind them run. Boards stay small, so that each example
takes milliseconds; the example counts follow the Hypothesis profile (``tests/conftest.py``).
"""

from __future__ import annotations

import math
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minegraph
from minegraph import (BLANK, HIDDEN, MINE, Analyser, Analysis, Board, Deadline, Explanation,
                       MinegraphError, analyze, explain, solve)
from strategies import examples, graph_positions, positions

# ----------------------------------------------------------------- random arguments
SYMBOLS = ["#", "?", "M", "F", "*", "-", "0", "1", "3", "8", "9", "c", "x", ".", "z", "", "##"]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 12), st.integers(), st.sampled_from(SYMBOLS),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=4), st.binary(max_size=3),
    st.sampled_from([HIDDEN, MINE, BLANK, 10 ** 30, -(10 ** 30), 2 ** 63, float("nan"), 1e-300,
                     1e10, "square", "graph", "hex", "auto", "dp", object(), Ellipsis]),
)
#: Anything: scalars, and small containers of them (cells, edges, state lists).
anything = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.tuples(inner, inner), st.tuples(inner),
    st.dictionaries(st.text(max_size=2), inner, max_size=2), st.frozensets(st.integers(0, 3), max_size=3)),
    max_leaves=8)

small = st.integers(-2, 6)
boards = st.one_of(positions(max_hidden=8), graph_positions(max_cells=8))
engines = st.one_of(st.sampled_from(["auto", "dp", "brute", "sat", "backtrack", "thesis",
                                     "dp-thesis", "sat:minisat", "backtrack:3", "nope", ""]),
                    anything)
timeouts = st.one_of(st.none(), st.just(60.0), st.just(1e-9), anything)


def totals(board: Board) -> st.SearchStrategy[Any]:
    return st.one_of(st.none(), st.integers(-1, board.size + 1), anything)


def cells(board: Board) -> st.SearchStrategy[Any]:
    """Cells in and around the board in every form, and anything else."""
    near = st.integers(-1, board.size)
    if board.rows is not None and board.cols is not None:
        grid = st.tuples(st.integers(-1, board.rows), st.integers(-1, board.cols))
        return st.one_of(grid, grid.map(list), near, anything)
    return st.one_of(near, st.tuples(near, near), anything)


def states(count: int) -> st.SearchStrategy[Any]:
    state = st.one_of(st.integers(-4, 13), st.sampled_from(SYMBOLS), anything)
    return st.one_of(st.lists(state, min_size=count, max_size=count),
                     st.lists(st.integers(-3, 8), min_size=max(count - 1, 0), max_size=count + 1),
                     st.text(alphabet="#M-0123?", min_size=count, max_size=count), anything)


def outcome(call: Callable[[], Any]) -> Any:
    """The call's result, or None after a MinegraphError; any other exception fails the test."""
    try:
        return call()
    except MinegraphError:
        return None


def exercise(value: Any) -> None:
    """Use a result the way a caller would: print it, hash it, serialise it."""
    repr(value)
    if isinstance(value, Board):
        hash(value)
        str(value)
        outcome(value.to_text)
    elif isinstance(value, Analysis):
        hash(value)
        value.to_json()
        value.completion
    elif isinstance(value, Explanation):
        value.text
        value.to_json()
        value.fragment()


FUZZ = settings(max_examples=examples(150), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def test_the_public_api_is_what_this_file_covers() -> None:
    assert {"Board", "Analysis", "Analyser", "Explanation", "analyze", "solve", "explain",
            "Deadline"} <= set(minegraph.__all__)


# ----------------------------------------------------------------- constructors
@FUZZ
@given(st.data())
def test_board_constructors(data: st.DataObject) -> None:
    rows = data.draw(st.one_of(small, anything), label="rows")
    cols = data.draw(st.one_of(small, anything), label="cols")
    n = rows * cols if isinstance(rows, int) and isinstance(cols, int) and 0 < rows * cols < 40 else 4
    topology = data.draw(st.one_of(st.sampled_from(["square", "hex", "triangle", "torus"]), anything))
    given_states = data.draw(states(n), label="states")
    mines = data.draw(st.one_of(st.none(), st.integers(-1, n + 1), anything), label="mines")
    kind = data.draw(st.sampled_from(["grid", "graph", "text", "fields"]))
    if kind == "grid":
        result = outcome(lambda: Board.grid(rows, cols, given_states, topology=topology, mines=mines))
    elif kind == "graph":
        cells = data.draw(st.one_of(st.integers(-1, 8), anything), label="cells")
        m = cells if isinstance(cells, int) and 0 < cells <= 8 else 4
        edge = st.one_of(st.tuples(st.integers(-1, m), st.integers(-1, m)),
                         st.lists(st.integers(0, m - 1), min_size=2, max_size=2), anything)
        edges = data.draw(st.one_of(st.lists(edge, max_size=6), anything), label="edges")
        result = outcome(lambda: Board.from_graph(cells, edges, data.draw(states(m)), mines=mines))
    elif kind == "text":
        text = data.draw(st.one_of(
            st.text(alphabet="#?M-.x0123456789abc \t\n:;minestopologyhexsquare", max_size=40),
            anything), label="text")
        result = outcome(lambda: Board.from_text(text))
    else:
        size = data.draw(st.integers(0, 6))
        neighbours = data.draw(st.one_of(
            st.lists(st.lists(st.integers(-1, size), max_size=3), min_size=size, max_size=size),
            anything), label="neighbors")
        result = outcome(lambda: Board(topology if data.draw(st.booleans()) else "graph",
                                       rows, cols, neighbours, given_states, mines))
    if result is not None:
        assert isinstance(result, Board)
        exercise(result)


@FUZZ
@given(boards, st.data())
def test_board_methods(board: Board, data: st.DataObject) -> None:
    cell = data.draw(cells(board), label="cell")
    for method in (board.index, board.cell, board.label):
        outcome(lambda: method(cell))
    new = data.draw(states(board.size), label="states")
    total = data.draw(st.one_of(st.just("keep"), totals(board)), label="mines")
    result = outcome(lambda: board.with_states(new, mines=total))
    if result is not None:
        exercise(result)


# ----------------------------------------------------------------- the questions
@FUZZ
@given(boards, st.data())
def test_analyze_and_the_analysis(board: Board, data: st.DataObject) -> None:
    target = data.draw(st.one_of(st.just(board), st.just(board), anything), label="board")
    engine = data.draw(engines, label="engine")
    mines = data.draw(totals(board), label="mines")
    timeout = data.draw(timeouts, label="timeout")
    a = outcome(lambda: analyze(target, engine, mines=mines, timeout=timeout))
    if a is None:
        return
    assert isinstance(a, Analysis)
    exercise(a)
    for _ in range(3):
        cell = data.draw(cells(board), label="cell")
        p = outcome(lambda: a.probability(cell))
        assert p is None or 0 <= p <= 1


@FUZZ
@given(boards, st.data())
def test_solve(board: Board, data: st.DataObject) -> None:
    target = data.draw(st.one_of(st.just(board), anything), label="board")
    result = outcome(lambda: solve(target, data.draw(engines), timeout=data.draw(timeouts)))
    if result is not None:
        assert isinstance(result, Board) and HIDDEN not in result.states
        exercise(result)


@FUZZ
@given(boards, st.data())
def test_explain(board: Board, data: st.DataObject) -> None:
    target = data.draw(st.one_of(st.just(board), anything), label="board")
    cell = data.draw(st.one_of(st.none(), cells(board)), label="cell")
    solver = data.draw(st.one_of(st.just("glucose"), anything), label="solver")
    e = outcome(lambda: explain(target, cell, timeout=data.draw(timeouts), solver=solver))
    if e is not None:
        assert isinstance(e, Explanation)
        exercise(e)
        outcome(lambda: e.fragment(data.draw(st.one_of(small, anything), label="margin")))


@FUZZ
@given(boards, st.data())
def test_analyser(board: Board, data: st.DataObject) -> None:
    options = data.draw(st.fixed_dictionaries({}, optional={
        "work_budget": st.one_of(st.floats(0, 1e6), anything),
        "solver": st.one_of(st.sampled_from(["cadical", "glucose", "nope"]), anything),
        "max_cells": st.one_of(st.integers(-1, 1000), anything)}), label="options")
    analyser = outcome(lambda: Analyser(**options))
    if analyser is None:
        return
    with analyser:
        for _ in range(2):
            target = data.draw(st.one_of(st.just(board), anything), label="board")
            since = data.draw(st.one_of(st.none(), st.just(analyser.last_system), anything))
            a = outcome(lambda: analyser.analyze(target, mines=data.draw(totals(board)),
                                                 timeout=data.draw(timeouts), since=since))
            if a is not None:
                exercise(a)
            cell = data.draw(st.one_of(st.none(), cells(board)), label="cell")
            e = outcome(lambda: analyser.explain(target, cell, timeout=data.draw(timeouts)))
            if e is not None:
                exercise(e)


@FUZZ
@given(anything, st.one_of(st.sampled_from(["consistency", "count", "explain"]), st.text(max_size=5)))
def test_deadline(seconds: Any, question: Any) -> None:
    d = outcome(lambda: Deadline(seconds, question))
    if d is not None:
        assert 0 < d.seconds <= 1e9 and not math.isnan(d.seconds)
        d.remaining()
        d.expired()
        d.cancel()
        assert outcome(d.check) is None       # a cancelled deadline raises QueryCancelled


def test_a_deadlines_question_that_is_not_a_str() -> None:
    with pytest.raises(minegraph.EngineError, match="question must be a str"):
        Deadline(1, [])  # type: ignore[arg-type]


# ----------------------------------------------------------------- files, formats and repr
@FUZZ
@given(boards, st.data())
def test_repr_write_read_and_from_file(board: Board, data: st.DataObject) -> None:
    """``eval(repr(board))`` rebuilds the board; every format that can hold it reads back what
    ``write_board`` wrote (or refuses with a MinegraphError); ``from_file`` and ``read_board``
    take any argument and answer or refuse."""
    import tempfile
    from pathlib import Path
    assert eval(repr(board), {"Board": Board}) == board  # noqa: S307 - the repr's own promise
    fmt = data.draw(st.sampled_from(["text", "mine", "numeric", "json", None]))
    written = outcome(lambda: minegraph.write_board(board, fmt or "json"))
    if written is not None:
        again = outcome(lambda: minegraph.read_board(written, fmt or "json"))
        if again is not None and fmt in ("text", "json"):
            assert again == board
    exercise(outcome(lambda: minegraph.read_board(data.draw(anything), data.draw(anything))))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "board.txt"
        if written is not None:
            path.write_text(written, encoding="utf-8")
            exercise(outcome(lambda: Board.from_file(path, data.draw(st.sampled_from([fmt, None])))))
        exercise(outcome(lambda: Board.from_file(data.draw(anything))))
