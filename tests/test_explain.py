"""explain: minimal sets of numbers (flags, the total) that force a cell or contradict.

Every set returned is checked minimal independently of the SAT machinery that found it: on the
board reduced to those numbers (the others shown as uncovered cells without a number, unused
flags hidden again, the total dropped unless used) the brute-force oracle must find the cell
forced, and dropping any one reason must leave it unforced.
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minegraph import Analyser, Board, analyze
from minegraph.board import BLANK, HIDDEN, MINE
from minegraph.engines.brute import BruteEngine
from minegraph.topology import grid_neighbors
from minegraph.explain import Explanation, explain
from strategies import positions, examples


def _reduced(board: Board, clues: set[int], flags: set[int], total: bool) -> Board:
    states = []
    for i, s in enumerate(board.states):
        if s >= 0 and i not in clues:
            states.append(BLANK)      # still uncovered (no mine), but no longer a constraint
        elif s == MINE and i not in flags:
            states.append(HIDDEN)     # no longer known
        else:
            states.append(s)
    return board.with_states(states, board.mines if total else None)


def _status(board: Board, cell: int | None) -> str:
    r = BruteEngine().run(board)
    if not r.consistent:
        return "inconsistent"
    if cell is None:
        return "consistent"
    return "safe" if cell in r.safe else "mine" if cell in r.mines else "unknown"


def check_minimal(e: Explanation) -> None:
    """The reasons force the answer, and none of them can be dropped."""
    board = e.board
    cell = None if e.cell is None else board.index(e.cell)
    clues = {board.index(c) for c in e.clues}
    flags = {board.index(c) for c in e.flags}
    assert _status(_reduced(board, clues, flags, e.uses_total), cell) == e.status
    for c in clues:
        assert _status(_reduced(board, clues - {c}, flags, e.uses_total), cell) != e.status
    for f in flags:
        assert _status(_reduced(board, clues, flags - {f}, e.uses_total), cell) != e.status
    if e.uses_total:
        assert _status(_reduced(board, clues, flags, False), cell) != e.status


def test_the_one_one_pattern() -> None:
    # Along the wall: the 1 at (1,0) puts its mine on (0,0) or (0,1), which the 1 at (1,1)
    # also sees, so its third cell (0,2) is safe; neither number alone says so.
    e = explain(Board.from_text("###\n11-"), (0, 2))
    assert (e.status, e.clues, e.flags, e.uses_total) == ("safe", ((1, 0), (1, 1)), (), False)
    assert e.smallest
    check_minimal(e)


def test_the_one_two_one_pattern() -> None:
    b = Board.from_text("#####\n-121-")
    # (0,1) is a mine: without it, the 2 needs (0,2) and (0,3), too many for the 1 at (1,3).
    e = explain(b, (0, 1))
    assert (e.status, e.clues) == ("mine", ((1, 2), (1, 3)))
    # (0,3) likewise by symmetry; (0,2) safe needs all three numbers.
    assert explain(b, (0, 3)).clues == ((1, 1), (1, 2))
    assert explain(b, (0, 2)).clues == ((1, 1), (1, 2), (1, 3))
    for cell in [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]:
        check_minimal(explain(b, cell))


def test_a_deduction_that_needs_the_total() -> None:
    # Two separate 50/50s hold one mine each; with 2 mines in all, the corner (0,3), next to
    # no number, is safe. One number of the left pair suffices.
    b = Board.from_text("mines: 2\n##-#\n11-#\n--1#")
    e = explain(b, (0, 3))
    assert e.status == "safe" and e.uses_total and len(e.clues) == 2
    assert (2, 2) in e.clues and ({(1, 0), (1, 1)} & set(e.clues))
    check_minimal(e)
    assert "total of 2 mines" in e.text


def test_a_contradiction() -> None:
    # The 3 at (1,1) needs all of (0,0), (1,0), (2,0); the 1 at (0,1) allows one of the first two.
    b = Board.from_text("#1-\n#3-\n#--")
    e = explain(b)
    assert (e.status, e.clues, e.uses_total) == ("inconsistent", ((0, 1), (1, 1)), False)
    check_minimal(e)
    # Asking about a cell of an inconsistent board explains the inconsistency.
    assert explain(b, (0, 0)).status == "inconsistent"


def test_flags_are_reasons_too() -> None:
    # The 1 at (0,1) already touches the flag at (0,0): its other cells are safe.
    e = explain(Board.from_text("M1#\n###"), (1, 2))
    assert (e.status, e.clues, e.flags) == ("safe", ((0, 1),), ((0, 0),))
    check_minimal(e)
    # Two flags on one 1: a contradiction of the number and both flags.
    bad = explain(Board.from_text("M1M\n---"))
    assert (bad.status, bad.clues, bad.flags) == ("inconsistent", ((0, 1),), ((0, 0), (0, 2)))
    check_minimal(bad)


def test_an_unforced_cell_says_so_with_its_probability() -> None:
    e = explain(Board.from_text("#1#\n---"), (0, 0))
    assert e.status == "unknown" and e.clues == () and e.probability == 0.5
    obj = e.to_json()
    assert obj["probability"] == 0.5 and obj["status"] == "unknown" and "not forced" in obj["text"]


def test_json_shape() -> None:
    e = explain(Board.from_text("###\n11-"), (0, 2))
    obj = json.loads(json.dumps(e.to_json()))
    assert obj == {"cell": [0, 2], "status": "safe", "clues": [[1, 0], [1, 1]], "flags": [],
                   "uses_total": False, "smallest": True, "probability": 0.0, "text": e.text}


def test_fragment_marks_the_reasons() -> None:
    e = explain(Board.from_text("###\n11-"), (0, 2))
    assert e.fragment() == " #  # (?)\n[1][1] -\n"


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(max_hidden=9, topologies=("square", "triangle", "hex")))
def test_every_explanation_is_minimal_on_random_positions(board: Board) -> None:
    truth = BruteEngine().run(board)
    if not truth.consistent:
        e = explain(board)
        assert e.status == "inconsistent"
        check_minimal(e)
        return
    for cell in sorted(truth.safe | truth.mines)[:3]:
        e = explain(board, board.cell(cell))
        assert e.status == ("safe" if cell in truth.safe else "mine")
        check_minimal(e)
    for cell in sorted(set(board.hidden) - truth.safe - truth.mines)[:1]:
        assert explain(board, board.cell(cell)).status == "unknown"


def test_a_cell_the_analysis_shows_unforced_is_answered_without_sat() -> None:
    """Big board, a total over 1,500 cells: the exact analysis already says the cell is not
    forced (the SAT formula with its totalizer took minutes here)."""
    rows, cols = 30, 50
    text = "mines: 370\n" + "\n".join(("#1" + "#" * (cols - 2)) if r == 0 else "#" * cols
                                      for r in range(rows))
    board = Board.from_text(text)
    p = analyze(board).probability((0, 0))
    for e in (explain(board, (0, 0), timeout=20), Analyser().explain(board, (0, 0), timeout=20)):
        assert e.status == "unknown" and e.probability == p == Fraction(1, 5)
        assert e.clues == () and "not forced" in e.text


def _smallest_size(board: Board, cell: int | None, status: str, limit: int) -> int | None:
    """Independent oracle: the size of a smallest set of constraints (numbers, flags, the total)
    that forces ``status`` on ``cell`` (or contradicts, for ``cell`` ``None``), if one of fewer
    than ``limit`` constraints exists; else ``None``. Every completion of the unknowns (hidden
    cells and flags, a flag being a constraint "this cell is a mine") is enumerated; a set of
    constraints forces the answer when no completion contradicting the answer meets all of
    them."""
    unknown = [i for i, s in enumerate(board.states) if s in (HIDDEN, MINE)]
    slot = {c: k for k, c in enumerate(unknown)}
    numbers = [(i, s, [slot[q] for q in board.neighbors[i] if q in slot])
               for i, s in enumerate(board.states) if s >= 0]
    flags = [slot[i] for i, s in enumerate(board.states) if s == MINE]
    count = len(numbers) + len(flags) + (board.mines is not None)
    # For each completion that goes against the answer, the set of constraints it meets.
    met_sets = set()
    for bits in range(1 << len(unknown)):
        if cell is not None and ((bits >> slot[cell]) & 1) != (status == "safe"):
            continue   # "safe" is refuted by a mine on the cell, "mine" by none
        met = 0
        for k, (_, need, around) in enumerate(numbers):
            if sum((bits >> q) & 1 for q in around) == need:
                met |= 1 << k
        for k, q in enumerate(flags):
            if (bits >> q) & 1:
                met |= 1 << (len(numbers) + k)
        if board.mines is not None and bin(bits).count("1") == board.mines:
            met |= 1 << (count - 1)
        met_sets.add(met)
    # Keep the maximal ones: a set of constraints forces the answer iff it lies in none of them.
    maximal = [m for m in met_sets if not any(m != o and m & o == m for o in met_sets)]
    for size in range(0, limit):
        for subset in combinations(range(count), size):
            s = sum(1 << k for k in subset)
            if not any(s & m == s for m in maximal):
                return size
    return None


def check_smallest(e: Explanation) -> None:
    """When the explanation claims a smallest set, no smaller set forces the answer."""
    if not e.smallest:
        return
    board = e.board
    size = len(e.clues) + len(e.flags) + e.uses_total
    cell = None if e.cell is None else board.index(e.cell)
    assert _smallest_size(board, cell, e.status, size) is None, \
        f"{e.text} claims a smallest set of {size}, but a smaller one exists"


def test_a_smallest_reason_may_use_a_flag_next_to_no_number() -> None:
    # The flag at (0,0), the 2 at (2,1) (two mines among (1,0), (1,1), (2,2)) and the total of
    # 3 leave no mine for (0,1): three reasons, where the numbers around it need four.
    b = Board.from_text("mines: 3\nM##\n#M2\n12#")
    e = explain(b, (0, 1))
    assert e.status == "safe"
    check_minimal(e)
    check_smallest(e)
    assert _smallest_size(b, b.index((0, 1)), "safe", 4) == 3
    assert e.smallest and len(e.clues) + len(e.flags) + e.uses_total == 3


def test_a_smallest_contradiction_may_lie_away_from_the_first_found() -> None:
    # Two contradictions: the numbers at (0,0), (0,1) with the flag at (1,2) (three reasons),
    # and the 0 at (0,5) next to the flag at (1,5) (two): the smallest is the second.
    b = Board.from_text("11-#-0\n##M##M")
    e = explain(b)
    assert e.status == "inconsistent"
    check_minimal(e)
    check_smallest(e)
    assert e.smallest and (e.clues, e.flags, e.uses_total) == (((0, 5),), ((1, 5),), False)


@st.composite
def scrambled(draw: st.DrawFn) -> Board:
    """A small board of random symbols: two blocks apart and a column that may hold a flag
    next to no number; the numbers need not fit, so it is often inconsistent, sometimes twice
    over (a contradiction in each block); a random total, usually."""
    alphabet = "##MM-0123"
    rows, w1, w2 = draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    cols = w1 + w2 + 3
    states = []
    for _ in range(rows):
        states += [draw(st.sampled_from(alphabet)) for _ in range(w1)] + ["-"]
        states += [draw(st.sampled_from(alphabet)) for _ in range(w2)] + ["-"]
        states.append(draw(st.sampled_from("M-")))
    for i in [i for i, s in enumerate(states) if s in "#M"][11:]:
        states[i] = "-"   # keep the enumeration quick
    degree = [len(n) for n in grid_neighbors("square", rows, cols)]
    states = [str(min(int(s), degree[i])) if s.isdigit() else s for i, s in enumerate(states)]
    mines = draw(st.one_of(st.none(), st.integers(0, min(6, rows * cols)),
                           st.integers(0, min(6, rows * cols))))
    return Board.grid(rows, cols, states, mines=mines)


@settings(max_examples=examples(1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(positions(max_hidden=7, topologies=("square", "triangle", "hex", "torus")),
                 scrambled()))
def test_a_claimed_smallest_set_is_smallest_on_random_positions(board: Board) -> None:
    """Whenever an explanation says "smallest", no strictly smaller set of numbers, flags and
    the total forces the cell (or contradicts), by exhaustive enumeration of both the subsets
    and the completions."""
    if sum(1 for s in board.states if s in (HIDDEN, MINE)) > 13:
        return   # keep the enumeration quick
    truth = BruteEngine().run(board)
    if not truth.consistent:
        e = explain(board)
        check_minimal(e)
        check_smallest(e)
        return
    for cell in sorted(truth.safe | truth.mines)[:4]:
        e = explain(board, board.cell(cell))
        check_minimal(e)
        check_smallest(e)


def test_the_smallest_search_never_costs_the_answer() -> None:
    """The search for a smallest reason gets half the time left: with a clock that has just
    enough time for the minimal reason, the answer comes back (claimed minimal only) instead
    of a time-out. Driven by an injected deadline, not by wall time."""
    from minegraph.deadline import Deadline, time_limit
    from minegraph.errors import QueryTimeout
    import importlib
    from typing import Any

    import pytest
    module = importlib.import_module("minegraph.explain")

    board = Board.from_text("mines: 3\nM##\n#M2\n12#")
    calls = {"n": 0}
    real = module.Explainer._unsat

    from minegraph.deadline import current_deadline
    outer = Deadline(600)

    def counted(self: Any, subset: list[int], query: Any) -> bool:
        if current_deadline() is not outer:  # inside the smallest search: its time is up
            calls["n"] += 1
            raise QueryTimeout("forced", 1.0)
        return real(self, subset, query)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module.Explainer, "_unsat", counted)
        with time_limit(outer):
            answer = explain(board, (0, 1))
    assert calls["n"] == 1
    assert answer.status == "safe" and answer.smallest is False and answer.clues
    # Without a limit the search runs and proves its answer smallest.
    assert explain(board, (0, 1)).smallest is True


def test_with_a_total_a_big_board_claims_minimal_only() -> None:
    """Past SMALLEST_CELLS hidden cells with a total that can bind, each trial set would need
    a whole layout meeting the total (seconds each on big boards): the search is skipped.
    Without the total, or with one no few numbers can make bind (3 mines in 600 cells),
    the trials stay inside the cell's component, and the search runs."""
    from minegraph.explain import SMALLEST_CELLS
    rows = (SMALLEST_CELLS // 5) + 1
    text = "#####\n-121-\n-----\n" + "#####\n" * rows
    free = explain(Board.from_text(text), (0, 1))
    assert free.status == "mine" and free.smallest is True and len(free.clues) == 2
    loose = explain(Board.from_text("mines: 3\n" + text), (0, 1))
    assert loose.status == "mine" and loose.smallest is True and len(loose.clues) == 2
    # 2 mines: a number and the total could bind, so a search for fewer than the three
    # numbers forcing (0, 2) would need the total: skipped.
    tight = explain(Board.from_text("mines: 2\n" + text), (0, 2))
    assert tight.status == "safe" and len(tight.clues) == 3 and tight.smallest is False


# ----------------------------------------------------------------- messages (issue 34, item 4)
def test_a_cell_that_is_not_hidden_is_named_in_words() -> None:
    import pytest
    from minegraph.errors import BoardError
    board = Board.from_text("#M-\n3##")
    for cell, words in [((0, 2), "it is uncovered and shows no number"), ((0, 1), "it is a known mine"),
                        ((1, 0), "it shows 3")]:
        with pytest.raises(BoardError) as info:
            explain(board, cell)
        text = str(info.value)
        assert f"cell {cell} is not hidden: {words}; only hidden cells can be explained" == text
        assert "-3" not in text and "-2" not in text


def test_a_lone_number_cannot_be_satisfied() -> None:
    # The 5 has no hidden neighbour left: it contradicts nothing but itself.
    e = explain(Board.from_text("---\n-5-\n---"))
    assert (e.status, e.clues) == ("inconsistent", ((1, 1),))
    assert e.text == "The board has no solution: the number at (1, 1) cannot be satisfied."


def test_several_reasons_contradict_each_other() -> None:
    e = explain(Board.from_text("#1-\n#3-\n#--"))
    assert e.text == "The board has no solution: the numbers at (0, 1) and (1, 1) contradict each other."
    bad = explain(Board.from_text("M1M\n---"))
    assert bad.text == ("The board has no solution: the number at (0, 1) and the flags at (0, 0) and "
                        "(0, 2) contradict each other.")


def test_the_quick_answer_on_an_expert_opening_proves_only_what_the_analysis_found() -> None:
    """``smallest=False`` is the first answer a page shows: on an Expert opening (449 hidden
    cells and the total) each forced cell's quick reason is minimal, and its solver calls
    are the one proof and the deletions: no consistency check and no try of the other
    answer (whole-layout searches, the slow calls). The full answer is never larger."""
    from minegraph.play.game import Game
    game = Game("expert", rules="modern", seed=1)
    game.reveal((8, 15))
    board = game.board()
    truth = analyze(board)
    forced = sorted(c for c, p in truth.probabilities.items() if p in (0, 1))
    assert len(forced) >= 4
    for cell in forced[:4]:
        quick = explain(board, cell, smallest=False)
        full = explain(board, cell)
        assert quick.status == full.status == ("safe" if truth.probabilities[cell] == 0 else "mine")
        reasons = len(quick.clues) + len(quick.flags) + quick.uses_total
        assert len(full.clues) + len(full.flags) + full.uses_total <= reasons
        assert quick.smallest == (reasons == 1)
        # One proof, then at most one deletion try per constraint the first core named:
        # the numbers around the opening (never the whole board).
        assert quick.stats["solver_calls"] <= 1 + len(board.hidden) // 10, quick.stats
        assert quick.stats["solver_calls"] <= full.stats["solver_calls"]
    # The reasons of a smaller board are checked minimal by brute force.
    small = Board.from_text("mines: 3\nM##\n#M2\n12#")
    quick = explain(small, (0, 1), smallest=False)
    check_minimal(quick)


def test_the_smallest_search_skips_the_total_where_it_cannot_bind() -> None:
    """On an Expert opening (99 mines, 449 hidden cells) no few numbers can make the total
    bind, so the search tries no set with the total (each such call searches a whole layout
    of 99 mines: seconds in all) and still proves its answers smallest; on a board where
    the total matters it is still used."""
    import importlib
    from typing import Any

    import pytest
    from minegraph.play.game import Game
    module = importlib.import_module("minegraph.explain")
    game = Game("expert", rules="modern", seed=2)
    game.reveal((8, 15))
    board = game.board()
    truth = analyze(board)
    forced = sorted(c for c, p in truth.probabilities.items() if p in (0, 1))[:5]
    with_total: list[Any] = []
    real = module.Explainer._unsat

    def watched(self: Any, subset: list[int], query: Any) -> bool:
        if self.formula.total_selector in subset and query:
            with_total.append(subset)
        return real(self, subset, query)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module.Explainer, "_unsat", watched)
        answers = [explain(board, cell) for cell in forced]
    assert all(e.smallest for e in answers)
    # Only the first proof assumes everything (the total with it); the search never does.
    assert len(with_total) == len(forced)
    # The total still counts where it binds: 2 cells, 1 mine, no numbers.
    e = explain(Board.from_text("mines: 1\n1#\n-#"), (1, 1))
    check_minimal(e)
