"""The SAT engine: the encoding, the backbone on one solver, counting, solvers, time limits."""

from __future__ import annotations


import pytest

import minegraph.engines.sat as sat_module
from minegraph import Board, analyze
from minegraph.deadline import time_limit
from minegraph.engines.base import get_engine
from minegraph.engines.dp import DPEngine
from minegraph.constraints import build_system
from minegraph.engines.sat import ClueFormula, SatEngine
from minegraph.errors import AnswerUnavailable, EngineError, LimitError, QueryTimeout
from minegraph.recipes import checkerboard_opening as checkerboard


def test_encoding_has_one_variable_per_cell_next_to_a_number_and_a_selector_per_clue() -> None:
    system = build_system(Board.from_text("mines: 3\n#1#-#\n##--#"))
    f = ClueFormula(system)
    assert f.frontier == [0, 2, 5, 6] and list(system.floating) == [4, 9]
    assert set(f.var) == set(f.frontier) and f.remaining == 3
    assert (f.low, f.high) == (1, 3)        # 3 mines, at most 2 of them floating
    assert list(f.selector) == [0] and system.clues[0].cell == 1
    sel, total = f.selector[0], f.total_selector
    assert total is not None
    # Every clause mentions a selector, except the symmetry clauses inside the box {0,2,5,6}.
    guarded = [c for c in f.clauses if -sel in c or -total in c]
    symmetry = [c for c in f.clauses if c not in guarded]
    assert len(symmetry) == 3 and all(len(c) == 2 for c in symmetry)
    # Without its clue the formula allows anything the total allows; with it, exactly one mine.
    from minegraph.engines.sat import Oracle
    with Oracle("minisat22", f.clauses) as oracle:
        assert oracle.solve([total, f.var[0], f.var[2]])
        assert not oracle.solve([sel, total, f.var[0], f.var[2]])
    assert build_system(Board.from_text("#3#\n---")).contradiction == "number at (0, 1) cannot be satisfied"
    assert not build_system(Board.from_text("mines: 3\n#1#")).consistent_so_far


@pytest.mark.parametrize("solver", ["cadical", "glucose", "minisat", "cadical153"])
def test_every_solver_gives_the_same_answers(solver: str) -> None:
    board = Board.from_text("#####\n-121-")          # the 1-2-1 pattern
    r = SatEngine(solver).run(board)
    assert r.consistent and r.mines == {1, 3} and r.safe == {0, 2, 4}
    assert r.completion == {1, 3}
    assert SatEngine(solver).run(Board.from_text("###\n333\n###")).consistent is False


def test_solver_choice_by_name() -> None:
    assert get_engine("sat:minisat").solver == "minisat22"  # type: ignore[attr-defined]
    assert get_engine("sat").solver == "cadical195"  # type: ignore[attr-defined]
    with pytest.raises(EngineError, match="unknown SAT solver 'zchaff'; expected one of cadical, glucose, minisat"):
        get_engine("sat:zchaff")
    with pytest.raises(EngineError, match="takes no option"):
        get_engine("dp:minisat")


def test_backbone_uses_one_loaded_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    made = []
    real = sat_module.Solver

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        made.append(kwargs.get("name"))
        return real(*args, **kwargs)

    monkeypatch.setattr(sat_module, "Solver", counting)
    board = Board.from_text("mines: 4\n" + "#####\n-121-\n#####\n-1-1-\n#####")
    r = SatEngine().run(board)
    assert len(made) == 1
    assert r.stats["solver_calls"] <= 1 + 2 * len(board.hidden)
    dp = DPEngine().run(board)
    assert r.mines == dp.mines and r.safe == dp.safe
    # With only 4 mines the lower ones need two, so the 1-2-1 takes the top row's two.
    assert {board.cell(c) for c in r.mines} == {(0, 1), (0, 3)}


def test_the_total_forces_floating_cells_both_ways() -> None:
    # Two 50/50s take both mines, so the floating corner is safe.
    r = SatEngine().run(Board.from_text("mines: 2\n##-#\n11-#\n--1#"))
    assert r.safe == {3} and r.mines == frozenset()
    # One mine among (0,0), (0,2) and the total 2: the floating (0,4) must be the other.
    r = SatEngine().run(Board.from_text("mines: 2\n#1#-#\n-----"))
    assert r.mines == {4} and r.safe == frozenset() and r.completion in ({0, 4}, {2, 4})
    assert SatEngine().run(Board.from_text("mines: 3\n#1#-#\n-----")).consistent is False
    # Without a total, floating cells are never forced.
    assert SatEngine().run(Board.from_text("#1#-#\n-----")).mines == frozenset()


def test_counting_by_enumeration_matches_dp() -> None:
    for text in ["mines: 4\n#2#\n#3#\n###\n###", "#2#\n#3#\n###", "mines: 3\n#1#-#\n##--#"]:
        board = Board.from_text(text)
        dp = DPEngine().run(board)
        r = SatEngine(count=True).run(board)
        assert (r.count, r.mine_counts) == (dp.count, dp.mine_counts), text
    with pytest.raises(LimitError, match="stops at 10 models"):
        SatEngine(count=True, max_models=10).run(checkerboard(8, 8, 0.3, seed=1, total=False))


def test_analyze_with_sat_reports_probabilities_unavailable() -> None:
    a = analyze(Board.from_text("mines: 2\n##-#\n11-#\n--1#"), engine="sat")
    assert a.consistent and a.solutions is None and not a.probabilities_available
    assert a.safe == [(0, 3)] and a.best == (0, 3) and a.engine == "sat"
    obj = a.to_json()
    assert obj["solutions"] is None and obj["probabilities_available"] is False
    # Only the forced cell keeps a probability: it is proven 0.
    assert [(r, c) for r, row in enumerate(obj["probability"]) for c, p in enumerate(row)
            if p is not None] == [(0, 3)] and obj["probability"][0][3] == 0.0
    assert a.probability((0, 3)) == 0
    with pytest.raises(AnswerUnavailable, match=r"probability of cell \(0, 0\) is unavailable"):
        a.probability((0, 0))


@pytest.mark.parametrize("solver", ["cadical", "minisat"])
def test_time_limit_names_the_unanswered_question(solver: str) -> None:
    # 100x100 checkerboard opening without a total: consistency is quick, the backbone
    # (thousands of assumption calls) is not.
    board = checkerboard(100, 100, 0.3, seed=1, total=False)
    # Decided by what it raised: unlimited, the run answers (minutes later); how soon after
    # the limit it stops is bench/bench_deadline.py's figure.
    with pytest.raises(QueryTimeout) as info:
        with time_limit(1.0):
            SatEngine(solver).run(board)
    if info.value.question == "forced":
        assert info.value.answered == {"consistency": True}
        assert "forced cells" in str(info.value) and "consistency = True" in str(info.value)
    else:  # a loaded machine may not even finish the consistency call in time
        assert info.value.question == "consistency"


@pytest.mark.parametrize("solver", ["cadical", "minisat"])
def test_time_limit_interrupts_a_hard_call(solver: str) -> None:
    # With its exact total the 60x60 opening is hard for CDCL solvers (tens of seconds).
    board = checkerboard(60, 60, 0.3, seed=1, total=True)
    with pytest.raises(QueryTimeout) as info:
        with time_limit(0.5):
            SatEngine(solver).complete(board)
    assert info.value.question == "consistency" and info.value.seconds == 0.5
