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


class TestHostileInput:
    """Issue 9: binary files, non-ASCII or huge numbers and declared sizes the file cannot hold
    are FormatErrors or LimitErrors naming their place, never a traceback or an allocation."""

    @pytest.mark.parametrize("read", [read_oi, read_pgsolver, read_paritysol, read_oi_answer])
    def test_binary_file(self, read):
        # A UnicodeDecodeError traceback before (from the caller's decoding).
        with pytest.raises(FormatError, match=r"^line 2, column 3: not UTF-8 text: byte 0x89"):
            read(b"1 1\n1 \x89PNG\x00\x00")

    def test_utf8_bytes_are_read(self):
        assert read_oi(SAMPLE_GRA_IN.encode()).n == 8
        assert read_pgsolver(b'parity 1;\r\n0 2 0 1 "1";\r\n1 1 1 0;\r\n').successor_lists() == [[1], [0]]

    @pytest.mark.parametrize("text, where, what", [
        ("1 ١\n1 1 2\n0 1 1\n", "line 1, column 3", "expected the number b of Bolek's fields, found '١'"),
        ("1 1\n1 1 1_0\n0 1 1\n", "line 2, column 5", "expected a field number, found '1_0'"),
        ("1 1\n+1 1 2\n0 1 1\n", "line 2, column 1", "expected colour 0 or 1, found '+1'"),
        ("1 1\n1 ٣ 2\n0 1 1\n", "line 2, column 3", "expected the number k of successors, found '٣'"),
        ("1 " + "9" * 5000 + "\n", "line 1, column 3", "(5000 characters)"),
        ("1 1\n1 1 2\n0 1 " + "1" * 5000 + "\n", "line 3, column 5", "(5000 characters)"),
        ("1\u20031\n1 1 2\n0 1 1\n", "line 1, column 1", "expected two numbers 'a b', found 1 item(s)"),
    ])
    def test_oi_numbers_are_ascii_digits(self, text, where, what):
        # int() read '١' as 1, '1_0' as 10 and '+1' as 1, and crashed past 4,300 digits.
        with pytest.raises(FormatError) as err:
            read_oi(text)
        assert str(err.value).startswith(where) and what in str(err.value)

    def test_oi_answer_numbers_are_ascii_digits(self):
        with pytest.raises(FormatError, match="line 2, column 1: expected a field number, found '٣'"):
            read_oi_answer("1\n٣\n")

    def test_pgsolver_declared_size_beyond_the_limit(self):
        # Tried to allocate 93 GiB before.
        with pytest.raises(LimitError, match=r"^line 1: parity '99999999999' declares more than 10000000"):
            read_pgsolver("parity 99999999999;\n0 2 0 1;\n")
        with pytest.raises(LimitError, match="paritysol '99999999999' declares more"):
            read_paritysol("paritysol 99999999999;\n")

    def test_pgsolver_declared_size_beyond_the_file(self):
        with pytest.raises(FormatError, match=r"^line 1, column 8: 'parity 5;' declares 6 vertices \(0..5\), "
                                              r"but only 2 line\(s\) follow"):
            read_pgsolver("parity 5;\n0 2 0 1;\n")

    @pytest.mark.parametrize("text, where, what", [
        ("parity 1;\n0 2 0 ١;\n1 1 1 0;\n", "line 2, column 1", "expected 'id priority owner"),
        ("parity 1;\n0 2 0 " + "1" * 30 + ";\n1 1 1 0;\n", "line 2, column 7", "number '111"),
        ("parity 1;\n0 2 0 1;\n1 1 1 0;\n\x00\n", "line 4, column 1", "expected 'id priority owner"),
    ])
    def test_pgsolver_numbers(self, text, where, what):
        with pytest.raises(FormatError) as err:
            read_pgsolver(text)
        assert str(err.value).startswith(where) and what in str(err.value)

    def test_paritysol_strategy_must_be_a_vertex(self):
        with pytest.raises(FormatError, match="line 2, column 5: strategy 7 is not a vertex 0..1"):
            read_paritysol("paritysol 1;\n0 0 7;\n1 0;\n")

    def test_oi_hostile_line_is_read_only_as_far_as_k(self):
        # One field line of a million items: only k + 3 of them are looked at.
        with pytest.raises(FormatError,
                           match="line 2, column 7: field 1: expected 1 successors, found more than 9998"):
            read_oi("1 1\n1 1 2 " + "2 " * 999_999 + "\n0 1 1\n")
