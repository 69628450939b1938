"""One rounding rule for every surface that shows a mine probability as a percentage."""

from __future__ import annotations

from fractions import Fraction

from minegraph import Board, analyze
from minegraph.present import percent_text, whole_percent
from minegraph.report import render_analysis


def test_half_up_and_proven_ends() -> None:
    # Hand-computed: 1/8 = 12.5% rounds up; 1/200 = 0.5% is unproven, so 1, not 0.
    assert [whole_percent(Fraction(n, d)) for n, d in
            [(0, 1), (1, 200), (1, 8), (3, 8), (199, 200), (1, 1)]] == [0, 1, 13, 38, 99, 100]
    assert [percent_text(Fraction(n, d)) for n, d in
            [(0, 1), (1, 200), (1, 100), (1, 8), (99, 100), (199, 200), (1, 1)]] == \
        ["0%", "<1%", "1%", "13%", "99%", ">99%", "100%"]


def test_floats_round_at_their_exact_value() -> None:
    assert whole_percent(0.125) == 13 and whole_percent(0.375) == 38
    assert whole_percent(5e-324) == 1 and whole_percent(1 - 2 ** -53) == 99


def test_the_report_and_the_terminal_game_agree_on_one_eighth() -> None:
    """Eight hidden cells and one mine: every cell is 1/8, which read 12% in `analyze` and 13
    in `play` before both used this module."""
    board = Board.from_text("mines: 1\n####\n####")
    analysis = analyze(board)
    assert set(analysis.probabilities.values()) == {Fraction(1, 8)}
    report = render_analysis(analysis)
    assert " 13%" in report and "12%" not in report
    from minegraph.play.tui import percent as tui_percent
    assert tui_percent(Fraction(1, 8)) == 13


def test_one_heat_map_for_pictures_terminal_and_web_page() -> None:
    import json
    import re
    from pathlib import Path

    import minegraph.web
    from minegraph.formats.svg import probability_colour
    from minegraph.play.tui import risk_colour
    from minegraph.present import HEAT_STOPS, heat_rgb
    # Hand-computed: a quarter of the way from green (67,160,71) to yellow (253,216,53) is
    # half-way between them in each channel: (160, 188, 62).
    assert heat_rgb(Fraction(1, 4)) == (160, 188, 62)
    assert probability_colour(Fraction(1, 4)) == "#a0bc3e"
    assert risk_colour(Fraction(1, 4)) == "rgb(160,188,62)"
    # The page reads the same three stops from static/rules.js, generated from HEAT_STOPS
    # (tests/web/test_page_rules.py runs its script against heat_rgb).
    rules = (Path(minegraph.web.__file__).parent / "static" / "rules.js").read_text()
    found = re.search(r"export const HEAT_STOPS = (\[.*\]);", rules)
    assert found is not None
    assert tuple(tuple(stop) for stop in json.loads(found[1])) == HEAT_STOPS


def test_a_huge_value_never_makes_a_huge_message(capsys: "pytest.CaptureFixture[str]") -> None:
    """Every quoting site goes through present.shown: a 10,000-character value is cut."""
    import pytest

    from minegraph.cli import main
    from minegraph.engines.portfolio import PortfolioEngine
    from minegraph.errors import EngineError
    from minegraph.parallel import ordered_map
    from minegraph.present import shown
    huge = "9" * 10_000
    assert shown(huge) == repr("9" * 40) + "… (10000 characters)"
    with pytest.raises(EngineError) as info:
        PortfolioEngine(work_budget="x" * 10_000)
    assert len(str(info.value)) < 200 and "(10000 characters)" in str(info.value)
    with pytest.raises(Exception) as info2:
        ordered_map(abs, [], workers=[0] * 5000)  # type: ignore[arg-type]
    assert len(str(info2.value)) < 200
    for argv in (["generate", "unique", "--size", huge], ["serve", "--port", huge]):
        with pytest.raises(SystemExit):
            main(argv)
        err = capsys.readouterr().err
        assert err.count("\n") <= 3 and len(err.splitlines()[-1]) < 300, err[:500]
