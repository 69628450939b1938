"""The native kernel (minegraph/_kernel.c) answers exactly as the Python path and brute force.

Every test compares the kernel's answer with an independent one: the Python reference path
(constraint system, DP, combination: ``PortfolioEngine.run_system``), and on small boards the
brute-force oracle. Boards of every topology, with and without a total, with wrong flags and
wrong numbers (inconsistent boards).
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Callable

import numpy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minegraph import Board, Deadline, QueryCancelled, QueryTimeout, analyze, kernel
from minegraph.analysis import choose_best
from minegraph.board import HIDDEN, MINE
from minegraph.constraints import build_system
from minegraph.deadline import time_limit
from minegraph.engines.brute import BruteEngine
from minegraph.engines.native import run_kernel
from minegraph.engines.portfolio import PortfolioEngine
from minegraph.recipes import midgame
from strategies import examples, graph_positions, positions

pytestmark = pytest.mark.skipif(not kernel.available(), reason=f"kernel: {kernel.status()}")


def reference(board: Board) -> tuple[object, ...]:
    """The Python path's answer as plain values."""
    r = PortfolioEngine(native=False).run_system(build_system(board, native=False))
    if not r.consistent:
        return (False,)
    assert r.mine_counts is not None
    counts = dict(r.mine_counts)
    best = choose_best(board, sorted(r.safe), sorted(r.mines), counts)
    return True, r.count, counts, sorted(r.safe), sorted(r.mines), best


def native(board: Board) -> tuple[object, ...]:
    r = run_kernel(board)
    assert r is not None, "declined"
    if not r.consistent:
        return (False,)
    assert r.mine_counts is not None
    return True, r.count, dict(r.mine_counts), sorted(r.safe), sorted(r.mines), r.best


def brute(board: Board) -> tuple[object, ...]:
    r = BruteEngine().run(board)
    if not r.consistent:
        return (False,)
    assert r.mine_counts is not None
    counts = dict(r.mine_counts)
    return True, r.count, counts, sorted(r.safe), sorted(r.mines)


def floats_agree(board: Board) -> None:
    """``Analysis.floats`` and ``float_array`` of the kernel's answer (its own buffer of
    doubles, the dictionary built in C) equal the Python path's (each exact Fraction rounded
    in Python), and the kernel's dictionary is in cell order."""
    a = analyze(board)
    b = analyze(board, PortfolioEngine(native=False))
    assert a.floats == b.floats
    if a.consistent:
        assert list(a.floats) == board.cells(board.hidden)
    assert numpy.array_equal(a.float_array(), b.float_array(), equal_nan=True)


@settings(max_examples=examples(2000), deadline=None)
@given(positions())
def test_kernel_equals_python_and_brute_force_on_grids(board: Board) -> None:
    got = native(board)
    assert got == reference(board)
    assert got[:5] == brute(board)
    floats_agree(board)


@settings(max_examples=examples(1000), deadline=None)
@given(graph_positions())
def test_kernel_equals_python_on_graphs(board: Board) -> None:
    got = native(board)
    assert got == reference(board)
    assert got[:5] == brute(board)
    floats_agree(board)


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["square", "hex", "torus", "triangle"]),
       st.booleans(), st.booleans())
def test_kernel_equals_python_on_midgames(seed: int, topology: str, clicks: bool,
                                          total: bool) -> None:
    rows, cols, mines = (16, 30, 99) if topology == "square" else (12, 14, 30)
    board = midgame(rows, cols, mines, seed, topology, clicks=clicks).board
    if not total:
        board = board.with_states(board.states, None)
    r = run_kernel(board)
    if r is None:           # declined (a component past 120 cells): the Python path answers
        return
    assert native(board) == reference(board)
    floats_agree(board)


def test_analysis_from_the_kernel_reads_like_the_python_path() -> None:
    board = midgame(16, 30, 99, 11).board
    a = analyze(board)
    assert a.engine == "kernel"
    b = analyze(board, PortfolioEngine(native=False))
    assert a.probabilities == analyze(board, "dp").probabilities
    assert (a.solutions, a.safe, a.mines, a.best, a.best_basis) == \
        (b.solutions, b.safe, b.mines, b.best, b.best_basis)
    assert a.to_json() == analyze(board, "dp").to_json() | {"engine": "kernel"}
    assert a.completion is not None and a.completion.hidden_count == 0


def test_declines_a_component_past_its_cells() -> None:
    # A strip of hidden cells under a row of 1s: one component past the kernel's widest.
    width = int(kernel.module().MAX_WIDE_CELLS) + 10
    board = Board.from_text("#" * width + "\n" + "1" * width + "\n" + "0" * width)
    with pytest.raises(kernel.Declined):
        kernel.run(board)


def counted(board: Board, budget: int) -> tuple[object, ...]:
    """The kernel's answer with a node budget (0: every component counted by the dynamic
    programme) as the plain values of :func:`reference`, best move aside."""
    a = kernel.run(board, budget=budget)
    if a is None:
        return (False,)
    counts = {c: a.floating_count for c in a.floating}
    for cells, m in zip(a.box_cells, a.box_counts):
        counts.update(dict.fromkeys(cells, m))
    counts.update(dict.fromkeys(a.safe, 0))
    counts.update(dict.fromkeys(a.mines, a.count))
    return True, a.count, {c: counts[c] for c in board.hidden}, a.safe, a.mines


@settings(max_examples=examples(1000), deadline=None)
@given(st.one_of(positions(), graph_positions()))
def test_the_wide_programme_equals_python_and_brute_force(board: Board) -> None:
    """With no search nodes every component goes to the dynamic programme (count_wide):
    its counts equal the Python path's and brute force's on boards of every topology, with
    and without totals, wrong numbers and wrong flags."""
    got = counted(board, 0)
    assert got == reference(board)[:5]
    assert got == brute(board)


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["square", "hex", "torus", "triangle"]),
       st.booleans(), st.booleans())
def test_the_wide_programme_equals_python_on_midgames(seed: int, topology: str, clicks: bool,
                                                       total: bool) -> None:
    rows, cols, mines = (16, 30, 99) if topology == "square" else (12, 14, 30)
    board = midgame(rows, cols, mines, seed, topology, clicks=clicks).board
    if not total:
        board = board.with_states(board.states, None)
    assert counted(board, 0) == reference(board)[:5]


def chain(cells: int) -> Board:
    """A row of hidden cells over a row of 1s on every other column (blank between): one
    component whose counts grow about 1.6-fold per two cells."""
    numbers = "".join("1" if c % 2 else "-" for c in range(cells))
    return Board.from_text("#" * cells + "\n" + numbers)


def test_wide_components_beyond_64_bits_equal_python_integers() -> None:
    """A component of 301 cells (past the search) whose counts pass 2**64: the programme's
    128-bit figures equal the Python DP's integers, with and without a total."""
    board = chain(301)
    for b in (board, board.with_states(board.states, 100)):
        got = counted(b, kernel.SEARCH_BUDGET)
        assert got == reference(b)[:5]
        assert isinstance(got[1], int) and got[1] > 2 ** 64
        assert analyze(b).engine == "kernel"


def test_wide_components_past_128_bits_go_to_python_integers() -> None:
    """A component whose count passes 2**128: the kernel declines (an overflow, never a wrong
    count) and the Python path answers in Python integers."""
    board = chain(601)
    with pytest.raises(kernel.Declined, match="128-bit"):
        kernel.run(board)
    a = analyze(board)
    assert a.engine != "kernel" and a.solutions is not None and a.solutions > 2 ** 128
    sizes, clues = build_system(board).components[0].key
    with pytest.raises(kernel.Declined):
        kernel.count_component(sizes, clues, with_total=True)


def test_cancel_flag_and_deadline_stop_the_search() -> None:
    board = Board.from_text("#" * 100 + "\n" + "1" * 100)
    flag = bytearray(b"\x01")
    with pytest.raises(InterruptedError):
        kernel.run(board, cancel=flag, budget=10**9)
    with pytest.raises(TimeoutError):
        kernel.run(board, deadline=1e-9, budget=10**9)     # long past


def test_query_cancelled_before_the_kernel_starts() -> None:
    deadline = Deadline(60)
    deadline.cancel()
    with pytest.raises(QueryCancelled):
        with time_limit(deadline):
            run_kernel(Board.from_text("#1#"))
    assert QueryTimeout is not None


def test_wrong_flag_is_inconsistent() -> None:
    board = Board.from_text("M1M")
    assert run_kernel(board) is not None and not run_kernel(board).consistent  # type: ignore[union-attr]
    assert HIDDEN != MINE


@settings(max_examples=examples(1000), deadline=None)
@given(st.sampled_from(["square", "hex", "torus", "triangle"]), st.integers(3, 9),
       st.integers(3, 12), st.floats(0.05, 0.35), st.integers(0, 2**32), st.booleans(),
       st.sampled_from(["single", "search"]))
def test_native_no_guess_player_agrees_with_the_python_player(
        topology: str, rows: int, cols: int, density: float, seed: int, total: bool,
        level: str) -> None:
    """The same verdict, solved or stuck, as the Python player (pair rule and exact engine)
    on random layouts: exact deduction reaches the same cells in any order."""
    import random

    from minegraph.generate.player import DeductionPlayer
    from minegraph.topology import grid_neighbors
    n = rows * cols
    rng = random.Random(seed)
    layout = frozenset(c for c in range(n) if rng.random() < density)
    first = rng.randrange(n)
    nbrs = grid_neighbors(topology, rows, cols)
    shape = Board.grid(rows, cols, [HIDDEN] * n, topology=topology,
                       mines=len(layout) if total else None)
    native_player = DeductionPlayer(shape, level)
    python_player = DeductionPlayer(shape, level)
    python_player.native = False
    assert native_player.native
    got, expected = native_player.play(layout, first), python_player.play(layout, first)
    assert got == expected
    if got is not None:     # the start position: the first click's flood fill
        assert got.states[first] == sum(1 for q in nbrs[first] if q in layout)


def test_numbers_beyond_the_kernels_range_go_to_the_python_path() -> None:
    """A graph cell may show any number up to its degree; the kernel keeps states in a byte
    and declines numbers above 127 (found by trying: it raised ValueError before)."""
    from math import comb
    leaves = 200
    star = Board.from_graph(leaves + 1, [(0, i) for i in range(1, leaves + 1)],
                            [150] + [HIDDEN] * leaves)
    with pytest.raises(kernel.Declined):
        kernel.run(star)
    a = analyze(star)
    assert a.engine != "kernel" and a.solutions == comb(leaves, 150)
    layout = frozenset(range(1, 131))       # the centre shows 130
    shape = Board.from_graph(leaves + 1, [(0, i) for i in range(1, leaves + 1)],
                             [HIDDEN] * (leaves + 1), mines=len(layout))
    with pytest.raises(kernel.Declined):
        kernel.solvable(shape, layout, 0)


@settings(max_examples=examples(1000), deadline=None)
@given(st.one_of(positions(), graph_positions()), st.booleans())
def test_component_counts_equal_the_dp(board: Board, with_total: bool) -> None:
    """Per component, the kernel's search gives the DP's figures exactly, and its completion
    for every reachable mine count meets the component's clues with that many mines."""
    from minegraph.engines.dp import ComponentDP
    system = build_system(board)
    for component in system.components:
        sizes, clues = component.key
        dp = ComponentDP(sizes, clues, with_total=with_total)
        total, mined = kernel.count_component(sizes, clues, with_total=with_total)
        assert total == dp.total
        if dp.total != [0]:
            assert mined == dp.mined
        for t, ways in enumerate(total):
            found = kernel.complete_component(sizes, clues, t if with_total else -1)
            assert (found is not None) == bool(ways)
            if found is not None:
                assert all(0 <= k <= s for k, s in zip(found, sizes))
                assert all(sum(found[b] for b in boxes) == need for need, boxes in clues)
                assert not with_total or sum(found) == t


def test_count_component_refuses_malformed_keys() -> None:
    with pytest.raises(ValueError):
        kernel.count_component([1, 1], [(1, (0, 0))], with_total=True)        # a box twice in one clue
    with pytest.raises(ValueError):
        kernel.count_component([1, 1], [(1, (0, 2))], with_total=True)        # no box 2
    with pytest.raises(ValueError):
        kernel.count_component([0], [(0, (0,))], with_total=True)              # an empty box
    assert kernel.count_component([1], [(1, ())], with_total=True) == ([0], [[0, 0]])  # 1 over nothing
    with pytest.raises(kernel.Declined):
        kernel.count_component([121], [(1, (0,))], with_total=True)           # a box of 121
    wide = int(kernel.module().MAX_WIDE_CELLS)
    with pytest.raises(kernel.Declined):                                       # past the widest
        kernel.count_component([100] * (wide // 100 + 1), [(1, (0, 1))], with_total=True)
    # 121 cells: past the search, counted by the programme (C(121, 1) ways to place one mine)
    total, mined = kernel.count_component([60, 61], [(1, (0, 1))], with_total=True)
    assert total == [0, 121] and mined[0][1] == 60 and mined[1][1] == 61


def endless_component(clues: int = 16, need: int = 7) -> Board:
    """One component the kernel's search cannot finish: ``clues`` numbers (each ``need``),
    and for every pair of them one hidden cell next to both (the edges of a complete graph,
    16 * 15 / 2 = 120 cells, each a box of its own).  Its completions are the
    ``need``-regular spanning subgraphs of K16, far too many to enumerate one by one."""
    edges = []
    cell = clues
    for a in range(clues):
        for b in range(a + 1, clues):
            edges += [(a, cell), (b, cell)]
            cell += 1
    return Board.from_graph(cell, edges, [need] * clues + [HIDDEN] * (cell - clues))


def _long_calls() -> dict[str, tuple[Callable[..., object], Callable[[float, bytearray], object]]]:
    """Per entry point: the extension function, and a call into it (through
    minegraph.kernel) that runs until its deadline or its cancel flag."""
    board = endless_component()
    module = kernel.module()
    assert module is not None
    (sizes, clues), = [c.key for c in build_system(board).components]
    return {
        "analyze": (module.analyze,
                    lambda deadline, flag: kernel.run(board, deadline, flag, budget=10**15)),
        "count_component": (module.count_component,
                            lambda deadline, flag: kernel.count_component(
                                sizes, clues, with_total=True, deadline=deadline, cancel=flag,
                                budget=10**15)),
    }


@pytest.mark.parametrize("entry", ["analyze", "count_component"])
def test_the_kernel_releases_the_gil_while_it_searches(entry: str) -> None:
    """While a worker thread is inside a kernel call that cannot finish on its own, the main
    thread runs Python (a counter, which needs the GIL) and then stops the call with its
    cancel flag.  The call is seen entering and leaving the extension by a profile hook in the
    worker (``c_call`` / ``c_return`` events on the extension function) and two events; no
    clock decides anything: the counter runs a fixed number of steps (thousands of switch
    intervals' worth, so the worker is inside the C call for most of them), and the call's
    deadline, far away, is only a safety net that turns a kernel holding the GIL into a
    failure (TimeoutError, and the counter advancing only after the call left) instead of a
    hang."""
    function, call = _long_calls()[entry]
    entered, left = threading.Event(), threading.Event()
    flag = bytearray(1)
    outcome: list[type[BaseException] | None] = []

    def profile(frame: object, event: str, arg: object) -> None:
        if arg is function:
            (entered if event == "c_call" else left).set()

    def work() -> None:
        sys.setprofile(profile)
        try:
            call(time.monotonic() + 600, flag)
            outcome.append(None)
        except BaseException as exc:  # noqa: BLE001 - reported below
            outcome.append(type(exc))
        finally:
            sys.setprofile(None)
            left.set()
            entered.set()              # (a call that failed before it entered: no wait)

    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-4)        # the worker gets the GIL soon after it asks
    worker = threading.Thread(target=work, daemon=True)
    try:
        worker.start()
        assert entered.wait(600)
        steps = 0
        while steps < 2_000_000 and not left.is_set():
            steps += 1                 # Python bytecode: runs only with the GIL
        inside = not left.is_set()     # the call still running after all those steps
    finally:
        flag[0] = 1                    # stop the call (the kernel polls the flag)
        worker.join()
        sys.setswitchinterval(switch)
    assert inside and steps == 2_000_000, f"the counter stood still while the kernel ran " \
        f"({steps} steps before the call ended: {outcome})"
    assert outcome == [InterruptedError]            # stopped by the flag, not the deadline


def test_the_stub_describes_the_extension() -> None:
    """``_kernel.pyi`` names the fields of every result type in the extension's order, and
    every constant the module exports (the one definition of the status codes and limits)."""
    import ast
    from pathlib import Path

    module = kernel.module()
    assert module is not None
    stub = ast.parse((Path(kernel.__file__).parent / "_kernel.pyi").read_text(encoding="utf-8"))
    classes = {node.name: [item.name for item in node.body if isinstance(item, ast.FunctionDef)]
               for node in stub.body if isinstance(node, ast.ClassDef)}
    assert set(classes) == {"Answer", "Component", "Played"}
    functions = {node.name for node in stub.body if isinstance(node, ast.FunctionDef)}
    assert functions == {name for name in dir(module)
                         if callable(getattr(module, name)) and name[0].islower()}
    for name, fields in classes.items():
        assert tuple(fields) == getattr(module, name).__match_args__, name
    constants = [node.target.id for node in stub.body
                 if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)]
    for name in constants:
        assert isinstance(getattr(module, name), (int, str)), name
    codes = [getattr(module, c) for c in ("OK", "INCONSISTENT", "DECLINED", "TIMEOUT",
                                          "CANCELLED")]
    assert len(set(codes)) == 5
    assert kernel.max_component_cells() == module.MAX_WIDE_CELLS > module.MAX_COMPONENT_CELLS


def test_threads_in_the_kernel_at_once_get_the_answers_of_one_thread() -> None:
    """With the GIL released, calls from several threads run in the kernel together: each
    keeps its own memory, so the answers are those of the same calls one after another (the
    positions of every topology, with and without the total; components counted too)."""
    from concurrent.futures import ThreadPoolExecutor

    boards = []
    for seed in range(24):
        topology = ["square", "hex", "torus", "triangle"][seed % 4]
        board = midgame(16, 30, 99, seed, topology, clicks=seed % 3 == 0).board
        boards.append(board if seed % 2 else board.with_states(board.states, None))
    keys = [c.key for b in boards for c in build_system(b).components if c.cells <= 120][:60]

    def answer(board: Board) -> object:
        try:
            return kernel.run(board)
        except kernel.Declined as why:
            return str(why)

    def counted(key: tuple[object, ...]) -> object:
        sizes, clues = key
        return kernel.count_component(sizes, clues, with_total=True)   # type: ignore[arg-type]

    alone = [answer(b) for b in boards], [counted(k) for k in keys]
    with ThreadPoolExecutor(4) as pool:
        for _ in range(3):
            together = list(pool.map(answer, boards * 2)), list(pool.map(counted, keys * 2))
            assert together == (alone[0] * 2, alone[1] * 2)


def assert_same_system(board: Board, propagate: bool) -> None:
    """``build_system`` with the numbers and the propagation in C equals the Python steps'
    system field by field: boxes, clues, components, forced cells, the trace in order, the
    contradiction, and the propagation state the incremental update starts from."""
    in_c = build_system(board, propagate=propagate)
    python = build_system(board, propagate=propagate, native=False)
    assert in_c == python
    assert in_c.trace == python.trace
    assert in_c.contradiction == python.contradiction


@settings(max_examples=examples(2000), deadline=None)
@given(positions(), st.booleans())
def test_constraints_in_c_equal_the_python_steps_on_grids(board: Board, propagate: bool) -> None:
    """Every topology, flags right and wrong, numbers perturbed past what their neighbours
    allow (positions() draws them inconsistent one time in six)."""
    assert_same_system(board, propagate)


@settings(max_examples=examples(1000), deadline=None)
@given(graph_positions(), st.booleans())
def test_constraints_in_c_equal_the_python_steps_on_graphs(board: Board, propagate: bool) -> None:
    assert_same_system(board, propagate)


@pytest.mark.parametrize("topology", ["square", "hex", "torus", "triangle"])
@pytest.mark.parametrize("clicks", [False, True])
def test_constraints_in_c_equal_the_python_steps_on_midgames(topology: str, clicks: bool) -> None:
    for seed in range(5):
        board = midgame(24, 30, 150, seed, topology=topology, clicks=clicks).board
        assert_same_system(board, True)
        flagged = list(board.states)
        wrong = [i for i, s in enumerate(flagged) if s == HIDDEN][seed::37]
        for i in wrong:                 # flags that may be wrong: contradictions, in order
            flagged[i] = MINE
        assert_same_system(board.with_states(flagged), True)


def test_constraints_with_numbers_beyond_the_kernels_range_come_from_python() -> None:
    """The C steps keep states in a byte: a number above 127 is declined, and the Python
    steps build the system (the same one, with the same contradiction)."""
    leaves = 200
    star = Board.from_graph(leaves + 1, [(0, i) for i in range(1, leaves + 1)],
                            [150] + [HIDDEN] * leaves)
    with pytest.raises(kernel.Declined):
        kernel.reasoning(star)
    assert_same_system(star, True)
    over = Board.from_graph(3, [(0, 1), (0, 2)], [2, 1, HIDDEN])   # 1 has one hidden neighbour
    assert_same_system(over, True)


def test_floats_of_float_arithmetic_are_each_probability_as_a_float() -> None:
    """The big boards' path (floating-point combination, forced cells as exact 0 and 1):
    ``Analysis.floats`` reads every probability through ``probability_float``, in order, with
    values below the double range kept as Fractions."""
    from fractions import Fraction

    from minegraph.analysis import _float_values
    from minegraph.present import probability_float
    board = midgame(30, 40, 240, 3, clicks=True).board
    a = analyze(board, arithmetic="float")
    assert a.arithmetic == "float"
    assert a.floats == {c: probability_float(p) for c, p in a.probabilities.items()}
    assert list(a.floats) == list(a.probabilities)
    odd = [0.5, 1.0, 0.0, Fraction(0), Fraction(1), Fraction(1, 3), Fraction(1, 10 ** 400),
           1e-320, Fraction(0), 1 - 2 ** -53]
    got, want = _float_values(odd), [probability_float(p) for p in odd]
    assert got == want and [type(x) for x in got] == [type(x) for x in want]


def test_a_neighbour_table_that_does_not_fit_its_states_is_refused() -> None:
    # Both entry points check the table the same way (one C function): n + 1 offsets for n
    # states, the first 0 and the last the number of indices.
    from array import array
    native = kernel.module()
    assert native is not None
    states = [-1, 1, -1]
    good = array("i", [0, 1, 3, 4]), array("i", [1, 0, 2, 1])
    assert native.reasoning(*good, states, True) is not None
    assert native.analyze(*good, states, -1, 0, 0.0, None).status == native.OK
    for indptr, indices, why in [
        (array("i", [0, 1, 3]), good[1], r"n \+ 1 int32"),      # one offset short
        (array("i", [0, 1, 3, 5]), good[1], "does not match"),  # past the indices
        (array("i", [1, 1, 3, 4]), good[1], "does not match"),  # not starting at 0
    ]:
        with pytest.raises(ValueError, match=why):
            native.reasoning(indptr, indices, states, True)
        with pytest.raises(ValueError, match=why):
            native.analyze(indptr, indices, states, -1, 0, 0.0, None)
