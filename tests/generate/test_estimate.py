"""The filter method's time estimate: the Wilson interval against its closed forms, the sample
counted again by an independent loop (the game engine's layouts graded by the grader), and the
arithmetic from the count and an injected clock to layouts and seconds."""

from __future__ import annotations

import math

import pytest

from minegraph.cli import main
from minegraph.errors import GameError, UserError
from minegraph.generate.estimate import FilterEstimate, filter_estimate, wilson_interval
from minegraph.generate.grade import grade
from minegraph.generate.noguess import noguess_board
from minegraph.play.game import Game

Z = 1.959963984540054


def test_wilson_interval_closed_forms() -> None:
    # 0 of n: the upper bound is z^2 / (n + z^2); n of n: the lower bound is n / (n + z^2).
    for n in (1, 10, 1000):
        assert wilson_interval(0, n) == (0.0, pytest.approx(Z * Z / (n + Z * Z)))
        assert wilson_interval(n, n) == (pytest.approx(n / (n + Z * Z)), 1.0)
    # Symmetric: k of n is 1 minus the interval of n - k of n, reversed.
    low, high = wilson_interval(3, 40)
    other = wilson_interval(37, 40)
    assert (low, high) == (pytest.approx(1 - other[1]), pytest.approx(1 - other[0]))
    # 50 of 100: centred on 1/2, half-width z sqrt(1/400 + z^2/40000) / (1 + z^2/100).
    low, high = wilson_interval(50, 100)
    half = Z * math.sqrt(0.25 / 100 + Z * Z / 40000) / (1 + Z * Z / 100)
    assert (low, high) == (pytest.approx(0.5 - half), pytest.approx(0.5 + half))
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(UserError, match="3 out of 2"):
        wilson_interval(3, 2)


def test_arithmetic_of_an_estimate() -> None:
    e = FilterEstimate(sampled=400, solved=8, seconds=2.0, max_attempts=100_000)
    assert e.rate == 0.02 and e.seconds_per_layout == 0.005
    assert e.expected_layouts == pytest.approx(50) and e.expected_seconds == pytest.approx(0.25)
    low, high = wilson_interval(8, 400)
    assert e.layouts_interval == (pytest.approx(1 / high), pytest.approx(1 / low))
    assert e.seconds_interval == (pytest.approx(0.005 / high), pytest.approx(0.005 / low))
    none = FilterEstimate(sampled=100, solved=0, seconds=1.0, max_attempts=20)
    assert math.isinf(none.expected_layouts) and math.isinf(none.layouts_interval[1])
    assert none.layouts_interval[0] == pytest.approx((100 + Z * Z) / (Z * Z))
    text = none.describe()
    assert text.startswith("filter: none of 100 sampled layouts solved")
    assert "more than the 20 layouts allowed" in text
    assert "likely more than the 40 layouts" in FilterEstimate(100, 2, 1.0, 40).describe()
    assert "allowed" not in FilterEstimate(100, 2, 1.0, 60).describe()


def test_the_sample_is_counted_right() -> None:
    # The estimate plays the filter's first layouts of the seed: the game engine's, seeded
    # seed * 2^32 + k; the grader (a second loop) must solve exactly the same ones.
    ticks = iter([10.0, 13.0])
    e = filter_estimate(9, 9, 12, first=(0, 0), rules="classic", seed=7, sample=30,
                        clock=lambda: next(ticks))
    solved = 0
    for k in range(30):
        game = Game(rows=9, cols=9, mines=12, rules="classic", seed=(7 << 32) + k)
        game.reveal((0, 0))
        layout = game.layout
        assert layout is not None
        numbers = [sum(1 for q in game.neighbors[i] if q in layout) for i in range(81)]
        start = game.board()
        solved += grade(start, reveal=numbers.__getitem__).solved
    assert (e.sampled, e.solved, e.seconds) == (30, solved, 3.0)
    assert 0 < solved < 30          # a sample that tells something
    # The first solved layout of the sample is the filter's board.
    b = noguess_board(9, 9, 12, first=(0, 0), rules="classic", seed=7)
    assert b.attempts <= 30


def test_estimate_errors() -> None:
    with pytest.raises(UserError, match="a sample of at least 1"):
        filter_estimate(9, 9, 10, sample=0)
    with pytest.raises(GameError, match="do not fit"):
        filter_estimate(3, 3, 9, rules="modern", first=(1, 1))
    with pytest.raises(UserError, match="defined without the total"):
        filter_estimate(9, 9, 10, level="evf", total=True)


def test_cli_prints_the_estimate_before_a_filter_run(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["generate", "noguess", "--size", "9x9", "--mines", "10", "--first", "4,4",
            "--rules", "modern", "--seed", "3", "--no-grade", "--method", "filter"]
    assert main([*args, "--sample", "40"]) == 0
    captured = capsys.readouterr()
    e = filter_estimate(9, 9, 10, first=(4, 4), rules="modern", seed=3, sample=40)
    assert captured.err.startswith(f"filter: {e.solved} of 40 sampled layouts solved")
    b = noguess_board(9, 9, 10, first=(4, 4), rules="modern", seed=3, method="filter")
    assert f"layouts drawn: {b.attempts} " in captured.out
    assert main([*args, "--sample", "0"]) == 0
    assert capsys.readouterr().err == ""
    # The other methods print no estimate.
    assert main(args[:-2]) == 0
    assert capsys.readouterr().err == ""


def test_cli_max_attempts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "noguess", "--size", "1x3", "--mines", "1", "--first", "0,1",
                 "--method", "filter", "--max-attempts", "7", "--sample", "5"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("filter: none of 5 sampled layouts solved")
    assert "no layout of 7 tried is solved without a guess" in err


def test_cli_estimate_only(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "noguess", "--size", "16x30", "--mines", "99", "--first", "3,3",
                 "--rules", "modern", "--seed", "2", "--sample", "60", "--estimate-only"]) == 0
    captured = capsys.readouterr()
    e = filter_estimate(16, 30, 99, first=(3, 3), rules="modern", seed=2, sample=60)
    assert captured.out.startswith(f"filter: {e.solved} of 60 sampled layouts solved")
    assert captured.out.count("\n") == 1 and captured.err == ""
