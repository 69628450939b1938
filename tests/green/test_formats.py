"""OI and PGSolver files: reading, byte-exact writing, round trips, errors naming the place."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

from minegraph.errors import FormatError, LimitError
from minegraph.green.formats import (read_oi, read_oi_answer, read_paritysol, read_pgsolver,
                                     write_oi, write_oi_answer, write_paritysol, write_pgsolver)
from minegraph.green.solvers import SAMPLE_GRA_IN, SAMPLE_GRA_OUT, solve

from .conftest import any_games, oi_games


def test_sample_reads_as_in_seeds():
    g = read_oi(SAMPLE_GRA_IN)
    assert (g.n, g.n_ania, g.m) == (8, 5, 11)
    assert (np.flatnonzero(g.green) + 1).tolist() == [4, 5, 6]
    assert g.successor_lists()[7] == [2, 3]  # 8 -> {3, 4}


def test_sample_answer_is_byte_exact():
    assert write_oi_answer(solve(read_oi(SAMPLE_GRA_IN))) == SAMPLE_GRA_OUT
    assert read_oi_answer(SAMPLE_GRA_OUT) == [1, 2, 4, 6, 7]


def test_empty_answer():
    g = read_oi("1 1\n0 1 2\n0 1 1\n")
    assert write_oi_answer(solve(g)) == "0\n"


@pytest.mark.parametrize("text, where, what", [
    ("", "line 1, column 1", "empty input"),
    ("5\n", "line 1, column 1", "two numbers"),
    ("1 x\n1 1 2\n0 1 1\n", "line 1, column 3", "number b"),
    ("0 0\n", "line 1, column 1", "at least 1"),
    ("1 1\n1 1 2\n", "line 3, column 1", "expected 2 field lines"),
    ("1 1\n1 1 2\n0 1 1\n0 1 1\n", "line 4, column 1", "unexpected text"),
    ("1 1\n2 1 2\n0 1 1\n", "line 2, column 1", "colour must be 0"),
    ("1 1\n1 0\n0 1 1\n", "line 2, column 3", "number of successors must be 1..2"),
    ("1 1\n1 2 2\n0 1 1\n", "line 2, column 6", "expected 2 successors, found 1"),
    ("1 1\n1 1 3\n0 1 1\n", "line 2, column 5", "not a field number 1..2"),
    ("1 1\n1 1 2\n0 1 q\n", "line 3, column 5", "expected a field number"),
    ("1 1\n1 1 1\n0 1 1\n", "line 2, column 5", "moves must alternate"),
    ("1 2\n1 2 2 2\n0 1 1\n0 1 1\n", "line 2, column 7", "listed twice"),
])
def test_oi_errors_name_the_place(text, where, what):
    with pytest.raises(FormatError) as err:
        read_oi(text)
    assert str(err.value).startswith(where)
    assert what in str(err.value)


def test_oi_limits():
    a = 1501
    text = f"{a} {a}\n" + "".join(f"0 1 {a + i + 1}\n" for i in range(a)) + \
        "".join(f"0 1 {i + 1}\n" for i in range(a))
    with pytest.raises(LimitError, match="3002"):
        read_oi(text)
    assert read_oi(text, limits=False).n == 3002
    many = "1 101\n0 101 " + " ".join(str(i) for i in range(2, 103)) + "\n" + "1 1 1\n" * 101
    with pytest.raises(LimitError, match="line 103: more than 100 green"):
        read_oi(many)


@settings(max_examples=200, deadline=None)
@given(oi_games())
def test_oi_round_trip(game):
    again = read_oi(write_oi(game))
    assert again.successor_lists() == game.successor_lists()
    assert np.array_equal(again.green, game.green) and np.array_equal(again.owner, game.owner)


@settings(max_examples=200, deadline=None)
@given(any_games())
def test_pgsolver_round_trip(game):
    again = read_pgsolver(write_pgsolver(game))
    assert again.successor_lists() == game.successor_lists()
    assert np.array_equal(again.green, game.green) and np.array_equal(again.owner, game.owner)
    sol = solve(game)
    back = read_paritysol(write_paritysol(sol))
    assert np.array_equal(back.winner, sol.winner)
    assert np.array_equal(back.strategy, sol.strategy)


def test_pgsolver_sample_text():
    text = write_pgsolver(read_oi(SAMPLE_GRA_IN))
    assert text.splitlines()[:3] == ['parity 7;', '0 1 0 5 "1";', '1 1 0 5 "2";']
    assert text.splitlines()[-1] == '7 1 1 2,3 "8";'


def test_pgsolver_accepts_start_and_no_names():
    g = read_pgsolver("parity 1;\nstart 0;\n0 2 0 1;\n1 1 1 0 ;\n\n")
    assert g.successor_lists() == [[1], [0]]


@pytest.mark.parametrize("text, where, what", [
    ("", "line 1", "expected 'parity N;'"),
    ("parity 1;\n0 3 0 1;\n1 1 1 0;\n", "line 2, column 3", "priorities 1 (white) and 2"),
    ("parity 1;\n0 2 0 1;\n0 1 1 0;\n", "line 3, column 1", "described twice"),
    ("parity 1;\n0 2 0 1;\n", "line 3", "vertex 1 of 0..1 is not described"),
    ("parity 1;\n0 2 0 5;\n1 1 1 0;\n", "line 2, column 7", "successor 5 beyond"),
    ("parity 1;\n0 2 0 1\n", "line 2, column 1", "expected 'id priority owner"),
    ("parity 1;\n0 2 2 1;\n1 1 1 0;\n", "line 2, column 5", "owner must be 0 or 1"),
])
def test_pgsolver_errors(text, where, what):
    with pytest.raises(FormatError) as err:
        read_pgsolver(text)
    assert str(err.value).startswith(where) and what in str(err.value)
