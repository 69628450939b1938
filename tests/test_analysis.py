"""analyze(): the public facts, the best move, the JSON object of FORMATS.md §4."""

from __future__ import annotations

import json
import math
import random
import sys
from fractions import Fraction
from typing import Any

import pytest

from minegraph import HIDDEN, Board, analyze, explain, solve
from minegraph.analysis import _to_float, exact_decimal
from minegraph.present import probability_json
from minegraph.recipes import midgame
from minegraph.errors import BoardError, EngineError
from strategies import DEFAULT_ENGINE


def test_best_prefers_lowest_probability_then_fewest_hidden_neighbours() -> None:
    # No numbers: every cell 1/2; the corner (0,0) has 3 hidden neighbours, fewest.
    a = analyze(Board.from_text("###\n###\n###"))
    assert a.best == (0, 0)
    # "#2#/#3#/###": 18 completions; the bottom row cells are mines in 6 of them (1/3),
    # the others in 9 or 12; of the three 1/3 cells the corners have 3 hidden neighbours and
    # the middle 5: the corner (2,0) comes first.
    a = analyze(Board.from_text("#2#\n#3#\n###"))
    assert a.best == (2, 0) and a.probability((2, 0)) == Fraction(1, 3) and a.best_basis == "probability"
    # A proven-safe cell beats every probability: the floating corner (0,3) is safe when two
    # separate 50/50s take both mines of the total.
    a = analyze(Board.from_text("mines: 2\n##-#\n11-#\n--1#"))
    assert a.best == (0, 3) and a.best_basis == "safe"


def test_mines_override_and_only_total_decides() -> None:
    b = Board.from_text("##-#\n11-#\n--1#")
    assert analyze(b).solutions == 8
    a = analyze(b, mines=2)
    assert a.solutions == 4 and a.safe == [(0, 3)]
    assert analyze(b, mines=5).consistent is False


def test_inconsistent_board_is_an_answer() -> None:
    a = analyze(Board.from_text("#1-\n#3-\n#--"))
    assert (a.consistent, a.solutions, a.safe, a.mines, a.best, a.completion) == (False, 0, [], [], None, None)
    assert a.to_json() == {"consistent": False, "solutions": "0", "safe": [], "mines": [],
                           "probability": [[None] * 3] * 3, "best": None, "best_basis": None,
                           "engine": DEFAULT_ENGINE, "total_mines": None}


def test_json_object_matches_formats_section_4() -> None:
    a = analyze(Board.from_text("mines: 1\n#1#\n---"))
    obj = json.loads(json.dumps(a.to_json()))
    assert obj == {"consistent": True, "solutions": "2", "safe": [], "mines": [],
                   "probability": [[0.5, None, 0.5], [None, None, None]], "best": [0, 0],
                   "best_basis": "probability", "engine": DEFAULT_ENGINE, "total_mines": 1}


def test_graph_boards_use_integer_cells() -> None:
    b = Board.from_graph(3, [(0, 1), (1, 2)], [HIDDEN, 1, HIDDEN])
    a = analyze(b)
    assert a.probabilities == {0: Fraction(1, 2), 2: Fraction(1, 2)}
    assert a.to_json()["probability"] == [0.5, None, 0.5] and a.to_json()["best"] == 0


def test_unproven_probabilities_never_print_as_0_or_1() -> None:
    assert _to_float(Fraction(1, 10**400)) > 0
    assert _to_float(1 - Fraction(1, 10**400)) < 1
    assert _to_float(Fraction(0)) == 0 and _to_float(Fraction(1)) == 1


def test_completion_and_solve() -> None:
    b = Board.from_text("mines: 2\n#2#\n---")
    done = solve(b)
    assert done is not None and done.to_text() == "mines: 2\nM2M\n---\n"
    assert analyze(b).completion == done
    assert solve(Board.from_text("#3#\n---")) is None


def test_unknown_engine() -> None:
    with pytest.raises(EngineError, match="unknown engine 'fast'"):
        analyze(Board.from_text("#"), engine="fast")


def test_brute_and_dp_agree_through_analyze() -> None:
    b = Board.from_text("mines: 4\n#2##\n#3##\n####")
    assert analyze(b, engine="brute").probabilities == analyze(b, engine="dp").probabilities


# ----------------------------------------------------------------- counts at any size (issue 9)
@pytest.fixture
def raised_int_limit():
    """Lift Python's limit on int-to-str conversion for computing the expected answers."""
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    yield
    sys.set_int_max_str_digits(old)


def test_exact_decimal_agrees_with_str_at_every_length(raised_int_limit) -> None:
    numbers = [0, 1, -1, 2 ** 2000, 2 ** 2000 - 1, -(2 ** 2001), 10 ** 4300, 10 ** 4301 - 1,
               7 ** 20000, -(3 ** 50000) + 1, math.comb(30000, 6000)]
    rng = random.Random(9)
    numbers += [rng.getrandbits(bits) for bits in (1023, 1024, 1025, 14000, 33333, 100_000)]
    for n in numbers:
        assert exact_decimal(n) == str(n)


def test_a_count_past_4300_digits_is_printed_and_serialised(raised_int_limit) -> None:
    # 6,000 mines on a 150x200 board with nothing uncovered: C(30000, 6000) completions.
    expected = str(math.comb(30000, 6000))
    assert len(expected) == 6518
    sys.set_int_max_str_digits(4300)                  # the interpreter's default, as users have it
    a = analyze(Board.grid(150, 200, [HIDDEN] * 30000, mines=6000))
    assert a.solutions == math.comb(30000, 6000)
    obj = a.to_json()
    assert obj["solutions"] == expected and obj["total_mines"] == 6000
    assert json.loads(json.dumps(obj))["solutions"] == expected
    assert repr(a) == (f"<Analysis 150x200 square: consistent, solutions={expected[0]}.{expected[1:5]}…"
                       f"e+6517 (6518 digits), safe=0, mines=0, best=(0, 0), engine='dp'>")
    assert a.probability((0, 0)) == Fraction(1, 5)


def test_an_analysis_is_hashable_and_its_repr_short() -> None:
    a = analyze(Board.from_text("###\n#1#"))
    assert hash(a) == hash(a) and {a: 1}[a] == 1 and len({a, a}) == 1
    assert a != analyze(Board.from_text("###\n#1#"))            # equal only to itself
    assert repr(analyze(Board.from_text("#3#\n---"))) == \
        f"<Analysis 2x3 square: inconsistent, engine='{DEFAULT_ENGINE}'>"
    wide = analyze(Board.from_text("#" * 400))               # 2**400: 121 digits
    assert len(repr(wide)) < 150 and "solutions=2.5822…e+120 (121 digits)," in repr(wide)


def test_no_total_is_said_in_the_json() -> None:
    assert analyze(Board.from_text("#1#")).to_json()["total_mines"] is None
    assert analyze(Board.from_text("#1#"), mines=1).to_json()["total_mines"] == 1
    # What no total assumes: every completion counts once, so a cell touching no number is 1/2.
    a = analyze(Board.from_text("#1#-#"))
    assert a.probability((0, 4)) == Fraction(1, 2) and a.solutions == 2 * 2


# ----------------------------------------------------------------- arguments (issue 9)
def test_probability_takes_the_jsons_cells_and_says_what_is_wrong() -> None:
    a = analyze(Board.from_text("#1#\n###"))
    assert a.probability([0, 0]) == a.probability((0, 0)) == a.probability(0)
    for cell, message in [((0, 1), r"cell \(0, 1\) is not hidden"), ((5, 0), "outside the 2x3 grid"),
                          ("a1", "expected a cell"), ((0,), "1 coordinates"), (None, "expected a cell"),
                          ([0.0, 1], "expected a row")]:
        with pytest.raises(BoardError, match=message):
            a.probability(cell)
    g = analyze(Board.from_graph(3, [(0, 1), (1, 2)], "#1#"))
    assert g.probability(0) == Fraction(1, 2)
    with pytest.raises(BoardError, match="a graph board's cells are numbers 0..2"):
        g.probability([0, 0])


def test_analyze_and_solve_refuse_what_is_not_a_board() -> None:
    # Text is refused rather than guessed at (it could be any of four formats): the message
    # says how to read it.
    for call in (analyze, solve, explain):
        with pytest.raises(BoardError, match=r"needs a Board, got str: read board text with "
                                             r"Board.from_text\(text\)"):
            call("#1#")  # type: ignore[arg-type]
        with pytest.raises(BoardError, match="needs a Board, got NoneType"):
            call(None)  # type: ignore[arg-type]
    b = Board.from_text("#1#")
    for kwargs, error, message in [({"mines": -1}, BoardError, "outside 0..3"),
                                   ({"mines": 1.0}, BoardError, "expected a total mine count"),
                                   ({"mines": "1"}, BoardError, "expected a total mine count"),
                                   ({"engine": 5}, EngineError, "an engine is a name"),
                                   ({"engine": "dpp"}, EngineError, "unknown engine"),
                                   ({"timeout": -1}, EngineError, "a time limit must be"),
                                   ({"timeout": "2"}, EngineError, "a time limit must be"),
                                   ({"timeout": 1e10}, EngineError, "a time limit must be")]:
        with pytest.raises(error, match=message):
            analyze(b, **kwargs)


def test_solve_takes_the_total_like_analyze() -> None:
    # "#1#1#": one mine on the middle cell satisfies both 1s; two mines must sit on the ends
    # (each 1 sees exactly one of them); three cannot be placed.
    board = Board.from_text("#1#1#")
    assert solve(board, mines=1) == Board.from_text("mines: 1\n01M10")
    assert solve(board, mines=2) == Board.from_text("mines: 2\nM101M")
    assert solve(board, mines=3) is None
    # The option overrides a total the board has, as analyze's does.
    assert solve(Board.from_text("mines: 2\n#1#1#"), mines=1) == Board.from_text("mines: 1\n01M10")
    for mines, message in [(-1, "outside 0..5"), (1.0, "expected a total mine count"),
                           ("1", "expected a total mine count")]:
        with pytest.raises(BoardError, match=message):
            solve(board, mines=mines)  # type: ignore[arg-type]


def test_the_analysis_picture_is_a_probability_heat_map() -> None:
    import xml.etree.ElementTree as ET
    from minegraph.formats.svg import probability_colour
    ns = "{http://www.w3.org/2000/svg}"

    def centre(cell: tuple[int, int]) -> tuple[str, str]:
        return f"{cell[1] * 28 + 14:.1f}", f"{cell[0] * 28 + 14:.1f}"

    # (1,0) sees only (0,0): a mine; then the 1 at (0,1) clears (0,2), and the total of 1 is
    # used up, so (0,3) is safe too. (0,2) and (0,3) tie (one hidden neighbour each): the first.
    a = analyze(Board.from_text("mines: 1\n#1##\n11--"))
    assert a.safe == [(0, 2), (0, 3)] and a.mines == [(0, 0)] and a.best == (0, 2)
    root = ET.fromstring(a._repr_svg_())
    assert a._repr_svg_() == a.svg()
    fills = {tuple(map(float, e.get("points", "").split()[0].split(","))): e.get("fill")
             for e in root.iter(ns + "polygon") if e.get("class") == "fill"}
    assert fills == {(c * 28.0, r * 28.0): probability_colour(p) for (r, c), p in a.probabilities.items()}
    titles = [e.find(ns + "title") for e in root.iter(ns + "polygon") if e.get("class") == "cell"]
    assert [t.text for t in titles if t is not None] == [
        "(0, 0): mine probability 1 ≈ 1.0000", "(0, 2): mine probability 0 ≈ 0.0000",
        "(0, 3): mine probability 0 ≈ 0.0000"]
    marks = {(e.get("class"), e.get("cx"), e.get("cy")) for e in root.iter(ns + "circle")
             if e.get("class") in ("dot", "ring")}
    assert marks == {("dot", *centre((0, 2))), ("ring", *centre((0, 3)))}
    cross = [e for e in root.iter(ns + "path") if e.get("class") == "cross"]
    assert len(cross) == 1 and cross[0].get("d", "").startswith("M7.8,7.8") and cross[0].get("stroke") == "#212121"
    caption = [e for e in root.iter(ns + "text") if e.get("class") == "caption"][0].text or ""
    assert "green 0, yellow 1/2, red 1" in caption and "dot best" in caption
    assert root.find(ns + "title").text == "mine probabilities"  # type: ignore[union-attr]
    assert not [e for e in ET.fromstring(a.svg(caption=False)).iter(ns + "text") if e.get("class") == "caption"]
    # Probabilities an engine did not compute stay grey, and the caption says so.
    sat = analyze(Board.from_text("mines: 1\n#1#\n###"), engine="sat")
    assert "grey: not computed" in sat.svg()
    # An inconsistent board: nothing painted, and the caption says why.
    bad = ET.fromstring(analyze(Board.from_text("#3#\n---")).svg())
    assert not [e for e in bad.iter(ns + "polygon") if e.get("class") == "fill"]
    assert "inconsistent" in ([e for e in bad.iter(ns + "text") if e.get("class") == "caption"][0].text or "")


def test_the_picture_of_a_big_analysis_stays_small() -> None:
    # A 200x200 position as play leaves it: 20% mines, the openings around 30 zeros flooded.
    import random
    from minegraph.topology import grid_neighbors
    rng = random.Random(5)
    near = grid_neighbors("square", 200, 200)
    mines = set(rng.sample(range(40000), 8000))
    numbers = [sum(q in mines for q in near[i]) for i in range(40000)]
    opened: set[int] = set()
    for start in rng.sample([i for i in range(40000) if numbers[i] == 0 and i not in mines], 30):
        todo = [start]
        while todo:
            i = todo.pop()
            if i not in opened and i not in mines:
                opened.add(i)
                if numbers[i] == 0:
                    todo.extend(near[i])
    a = analyze(Board.grid(200, 200, [numbers[i] if i in opened else -1 for i in range(40000)],
                           mines=8000))
    text = a.svg()
    assert len(text.encode()) < 500_000
    assert text.count("<title>") == 1                  # the document's; no tooltip per cell


def test_an_analysis_leaves_the_engines_result_as_it_was() -> None:
    """Every hidden cell forced by a non-counting engine: the analysis counts one completion,
    in a result of its own (the engine's may be cached or shared between threads)."""
    from minegraph.analysis import from_result
    from minegraph.engines.sat import SatEngine
    board = Board.from_text("M1#\n---")
    result = SatEngine().run(board)
    before = (result.count, result.mine_counts, dict(result.stats))
    analysis = from_result(board, result, "sat")
    assert analysis.solutions == 1 and analysis.probability((0, 2)) == 0
    assert (result.count, result.mine_counts, dict(result.stats)) == before


def _arms(floating: int = 3000, arms: int = 300) -> Board:
    """A graph board with probabilities far below the double range: a number 1 over {x, y},
    ``arms`` numbers 1 over {y, u_i}, ``floating`` cells next to no number, and a total of
    ``arms + 1``. With y a mine (x and every u_i safe) the floating cells take ``arms`` mines:
    C(floating, arms) completions; with y safe, x and every u_i are mines: one completion.
    Cells: x = 0, y = 1, u_i = 2.., then the numbers, then the floating cells."""
    x, y, us = 0, 1, list(range(2, 2 + arms))
    c0 = 2 + arms
    numbers = list(range(c0 + 1, c0 + 1 + arms))
    n = c0 + 1 + arms + floating
    edges = [(c0, x), (c0, y)] + [(c, y) for c in numbers] + list(zip(numbers, us))
    states = [HIDDEN] * n
    for c in (c0, *numbers):
        states[c] = 1
    return Board.from_graph(n, edges, states, mines=arms + 1)


def _within_promise(value: object, exact: Fraction) -> bool:
    """``value`` (a float, a Fraction, or the decimal string JSON writes) is within 1e-13
    relative of ``exact``."""
    assert isinstance(value, (float, Fraction, str)), value
    return abs(Fraction(value) - exact) <= exact * Fraction(1, 10 ** 13)


@pytest.mark.parametrize("arithmetic", ["exact", "float"])
def test_probabilities_below_the_double_range_keep_their_promise(arithmetic: str) -> None:
    """A probability of about 1e-422 is no float: it never comes back as 5e-324 (off by
    10^98) or 0.0, but exact (a Fraction; a decimal string in JSON), and the report says so."""
    from minegraph.report import render_analysis
    board = _arms()
    big = math.comb(3000, 300)
    tiny = Fraction(1, 1 + big)             # x and every u_i
    a = analyze(board, arithmetic=arithmetic)
    assert a.arithmetic == arithmetic and a.consistent
    obj = json.loads(json.dumps(a.to_json()))
    for cell in (0, 2, 301):
        assert _within_promise(a.probabilities[cell], tiny)
        assert _within_promise(a.floats[cell], tiny)
        assert isinstance(obj["probability"][cell], str)
        assert _within_promise(obj["probability"][cell], tiny)
    # The other cells are ordinary floats, within the promise too.
    assert isinstance(a.floats[1], float) and _within_promise(a.floats[1], 1 - tiny)
    floating = board.size - 1
    assert isinstance(a.floats[floating], float)
    assert _within_promise(a.floats[floating], Fraction(big, 10 * (1 + big)))
    assert a.best in (0, *range(2, 302)) and a.best_basis == "probability"
    text = render_analysis(a)
    assert "5e-324" not in text and ("e-422" in text or "e+421" in text)
    # An explanation of the unforced cell writes the same.
    e = explain(board, 0)
    assert e.status == "unknown" and _within_promise(e.probability, tiny)
    assert _within_promise(e.to_json()["probability"], tiny)


@pytest.mark.parametrize("engine", ["auto", "dp", "sat", "brute"])
def test_no_best_cell_when_every_hidden_cell_is_a_proven_mine(engine: str) -> None:
    """Nothing is left to uncover: ``best`` is ``None`` (and ``best_basis``), as documented
    (the docstring once named only inconsistent boards and boards with nothing hidden)."""
    for text in ("#2#\n---", "mines: 2\n#2#\n---"):
        a = analyze(Board.from_text(text), engine)
        assert a.consistent and a.mines == [(0, 0), (0, 2)] and a.safe == []
        assert (a.best, a.best_basis) == (None, None)
        assert a.to_json()["best"] is None
    from minegraph.analysis import Analysis
    doc = " ".join((Analysis.__doc__ or "").split())
    best = doc[doc.index("best The recommended"):doc.index("best_basis")]
    assert "every hidden cell is a proven mine" in best



def test_print_shows_the_report_and_repr_stays_short() -> None:
    # Issue 22: print(analysis) showed the repr; python-chess prints the board. str() is the
    # text report minegraph analyze prints, repr() the one-line summary.
    import io
    from contextlib import redirect_stdout

    from minegraph.report import render_analysis
    a = analyze(Board.from_text("mines: 2\n#1#1#"))
    assert str(a) + "\n" == render_analysis(a)
    printed = io.StringIO()
    with redirect_stdout(printed):
        print(a)
    assert printed.getvalue() == render_analysis(a)          # no blank line after it
    assert printed.getvalue().startswith("board: 1x5 square, 3 hidden, total mines 2\nconsistent: yes\n")
    assert repr(a).startswith("<Analysis 1x5 square: consistent, solutions=1,") and "\n" not in repr(a)
    assert f"{a}" == str(a) and str(analyze(Board.from_text("#3#\n---"))).endswith("no (no completion exists)")


def _json_grid_from_floats(a: Any) -> list[list[Any]]:
    """The JSON probability grid built from :attr:`Analysis.floats` cell by cell."""
    grid: list[list[Any]] = [[None] * a.board.cols for _ in range(a.board.rows)]
    for (r, c), x in a.floats.items():
        grid[r][c] = x if isinstance(x, float) else probability_json(x)
    return grid


@pytest.mark.parametrize("seed", range(3))
def test_float_answer_json_read_from_the_array_equals_the_floats(seed: int) -> None:
    """A floating-point answer's JSON grid (read straight from its array of doubles) holds
    the values of :attr:`~Analysis.floats`, None off the hidden cells, and the forced cells
    as pairs."""
    board = midgame(24, 30, 150 + 30 * seed, seed, clicks=seed % 2 == 0).board
    a = analyze(board, arithmetic="float")
    assert a.arithmetic == "float" and a._array_grid() is not None   # the array's path
    obj = a.to_json()
    assert obj["probability"] == _json_grid_from_floats(a)
    assert obj["safe"] == [list(c) for c in a.safe] and obj["mines"] == [list(c) for c in a.mines]
    assert obj == analyze(board, arithmetic="float").to_json()
