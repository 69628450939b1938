"""The kernel's steps of big boards' analysis against the Python steps they replace: the
constraint assembly (``kernel.assemble`` / ``constraints._assembly``), each box's value in a
floating-point answer (``kernel.box_shares`` / ``dp._box_value``), and the count of a
component wider than the search's share (the programme first) against the DP."""

from __future__ import annotations

import math
import random
from array import array
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minegraph import Board, analyze, kernel
from minegraph.board import HIDDEN, MINE
from minegraph.constraints import _assembly, _open_numbers, _propagate, build_system
from minegraph.engines import dp
from minegraph.engines.combine_float import combine_float
from minegraph.engines.dp import ComponentDP, _box_value
from minegraph.recipes import midgame

from strategies import examples, graph_positions, positions

pytestmark = pytest.mark.skipif(not kernel.available(), reason=f"kernel: {kernel.status()}")

ANY_POSITION = st.one_of(positions(topologies=("square", "triangle", "hex", "torus")),
                         graph_positions())


def python_reasoning(board: Board, propagate: bool) -> tuple[object, int | None]:
    r, failed = _open_numbers(board)
    if propagate and failed is None:
        failed = _propagate(r, board.neighbors, r.opened[::-1])
    return r, failed


def assert_same_assembly(board: Board, propagate: bool) -> None:
    r, failed = python_reasoning(board, propagate)
    at = -1 if failed is None else failed
    in_c = kernel.assemble(board, r.decided, r.opened, r.need, r.unknown, at)  # type: ignore[attr-defined]
    python = _assembly(board, r, failed)  # type: ignore[arg-type]
    assert in_c == python
    assert [type(x) for x in in_c] == [type(x) for x in python]


@settings(max_examples=examples(1000), deadline=None)
@given(ANY_POSITION, st.booleans())
def test_assembly_in_c_equals_the_python_step(board: Board, propagate: bool) -> None:
    """Every topology (square, triangle, hex, torus, random graphs), with and without a
    total, right and wrong flags and numbers: the same clues, boxes, components and keys,
    hidden and floating cells, and the same failed number."""
    assert_same_assembly(board, propagate)


@pytest.mark.parametrize("topology", ["square", "hex", "torus", "triangle"])
def test_assembly_in_c_equals_the_python_step_on_midgames(topology: str) -> None:
    for seed in range(3):
        board = midgame(24, 30, 150, seed, topology=topology, clicks=True).board
        assert_same_assembly(board, True)
        flagged = list(board.states)
        for i in [i for i, s in enumerate(flagged) if s == HIDDEN][seed::29]:
            flagged[i] = MINE       # flags that may be wrong
        assert_same_assembly(board.with_states(flagged), True)


def test_assembly_declines_numbers_beyond_the_kernels_range() -> None:
    star = Board.from_graph(201, [(0, i) for i in range(1, 201)], [150] + [HIDDEN] * 200)
    r, failed = python_reasoning(star, True)
    with pytest.raises(kernel.Declined):
        kernel.assemble(star, r.decided, r.opened, r.need, r.unknown, -1)  # type: ignore[attr-defined]


def float_parts(board: Board) -> list[tuple[list[list[int]], tuple[int, ...], list[int], list[object]]]:
    """Per component of ``board``: its mined counts, box sizes, totals and its distribution
    of mines in a floating-point combination ([] when the board is inconsistent)."""
    system = build_system(board)
    if not system.consistent_so_far:
        return []
    with_total = system.remaining is not None
    parts = [ComponentDP.of(system, c, with_total=with_total) for c in system.components]
    if any(not p.total or p.total == [0] for p in parts):
        return []
    answer = combine_float([p.total for p in parts], len(system.floating), system.remaining)
    if answer is None or not answer.consistent:
        return []
    return [(p.mined, c.key[0], p.total, list(d))
            for p, c, d in zip(parts, system.components, answer.distribution)]


def assert_box_shares_agree(mined: list[list[int]], sizes: tuple[int, ...], totals: list[int],
                            distribution: list[object]) -> None:
    likely = [t for t, p in enumerate(distribution) if p]
    shares = [distribution[t] for t in likely]
    if not all(type(x) is float for x in shares):
        return
    got = array("d", kernel.box_shares(mined, sizes, totals, likely, shares))  # type: ignore[attr-defined]
    for b, size in enumerate(sizes):
        want = _box_value(mined[b], size, totals, likely, distribution)  # type: ignore[arg-type]
        if type(want) is float and (want in (0.0, 1.0) or want >= dp._SAFE_SUM):
            assert got[b] == want and math.copysign(1, got[b]) == math.copysign(1, want)
        else:
            assert math.isnan(got[b])       # the caller answers it exactly


@settings(max_examples=examples(500), deadline=None)
@given(ANY_POSITION, st.integers(0, 3))
def test_box_shares_in_c_equal_the_python_step(board: Board, scale: int) -> None:
    """Each box's value bit for bit, also with counts past 64 bits (the same ratios, scaled:
    Python's own division then)."""
    factor = 1 << (40 * scale)
    for mined, sizes, totals, distribution in float_parts(board):
        assert_box_shares_agree([[m * factor for m in row] for row in mined], sizes,
                                [t * factor for t in totals], distribution)


def test_box_shares_of_hand_checked_parts() -> None:
    # Two boxes of 2 and 1 cells; given 1 mine (share 1/4) the first holds it in 2 of 3
    # ways, given 2 mines (share 3/4) in all: 2/3 / 2 * 1/4 + 2 / 2 * 3/4.
    mined, totals = [[0, 2, 2], [0, 1, 0]], [0, 3, 1]
    got = array("d", kernel.box_shares(mined, [2, 1], totals, [1, 2], [0.25, 0.75]))  # type: ignore[attr-defined]
    assert got[0] == (2 / 6) * 0.25 + (2 / 2) * 0.75
    assert got[1] == (1 / 3) * 0.25 + 0.0 * 0.75
    safe_full = array("d", kernel.box_shares([[0, 0, 0], [0, 3, 1]], [2, 1], totals, [1, 2],  # type: ignore[attr-defined]
                                             [0.25, 0.75]))
    assert list(safe_full) == [0.0, 1.0]
    tiny = array("d", kernel.box_shares([[0, 1]], [1], [1, 2], [1], [2.0 ** -1000]))  # type: ignore[attr-defined]
    assert math.isnan(tiny[0])
    with pytest.raises(ValueError):
        kernel.box_shares([[0, 1]], [1], [1, 1], [1], [Fraction(1, 2)])  # type: ignore[attr-defined]
    with pytest.raises(IndexError):
        kernel.box_shares([[0, 1]], [1], [1, 1], [5], [0.5])  # type: ignore[attr-defined]


@pytest.mark.parametrize("seed", range(4))
def test_float_answers_with_and_without_box_shares_in_c_agree(seed: int,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole floating-point answer (floats, probabilities, forced cells, best move, array)
    with the boxes' values from C equals the one from the Python step."""
    board = midgame(30, 40, 240 + 40 * seed, seed, clicks=seed % 2 == 0).board
    if seed == 3:
        board = board.with_states(board.states, None)
    a = analyze(board, arithmetic="float")

    def declined(*args: object) -> bytes:
        raise kernel.Declined("the Python step")
    monkeypatch.setattr(kernel, "box_shares", declined)
    b = analyze(board, arithmetic="float")
    assert a.arithmetic == b.arithmetic == "float"
    assert list(a.floats.items()) == list(b.floats.items())
    assert dict(a.probabilities) == dict(b.probabilities)
    assert (a.safe, a.mines, a.best, a.best_basis) == (b.safe, b.mines, b.best, b.best_basis)
    assert a.float_array().tobytes() == b.float_array().tobytes()


def test_float_answers_equal_the_exact_answer_rounded() -> None:
    """An independent method: every float of a floating-point answer is within 1e-13
    relative of the exact probability, forced cells exactly, on a board with a total."""
    board = midgame(30, 40, 260, 7, clicks=True).board
    a = analyze(board, arithmetic="float")
    e = analyze(board, arithmetic="exact")
    assert a.safe == e.safe and a.mines == e.mines
    assert list(a.floats) == list(e.floats)
    for cell, p in e.probabilities.items():
        x = a.floats[cell]
        assert (x == p) if p in (0, 1) else abs(Fraction(x) - p) <= Fraction(1, 10 ** 13) * p


def wide_key(rng: random.Random, cells: int) -> tuple[list[int], list[tuple[int, tuple[int, ...]]]]:
    """A random component of about ``cells`` cells: boxes of 1 to 6 cells in a row, each clue
    over two to four neighbouring boxes, its need drawn from an assignment."""
    sizes: list[int] = []
    while sum(sizes) < cells:
        sizes.append(rng.randint(1, 6))
    mines = [rng.randint(0, s) for s in sizes]
    clues = []
    for start in range(len(sizes) - 1):
        boxes = tuple(range(start, min(len(sizes), start + rng.randint(2, 4))))
        clues.append((sum(mines[b] for b in boxes), boxes))
    return sizes, clues


@pytest.mark.parametrize("cells", [60, 64, 90, 120, 160])
def test_components_past_the_search_share_equal_the_dp(cells: int) -> None:
    """Components of more than 63 cells are counted by the programme first: the DP's figures
    exactly, with and without a total, and the search's (node budget large) below 121 cells."""
    rng = random.Random(cells)
    for _ in range(3):
        sizes, clues = wide_key(rng, cells)
        for with_total in (True, False):
            want = ComponentDP(sizes, clues, with_total=with_total)
            total, mined = kernel.count_component(sizes, clues, with_total=with_total)
            assert total == want.total and mined == want.mined
            if sum(sizes) <= kernel.module().MAX_COMPONENT_CELLS:  # type: ignore[union-attr]
                searched = kernel.count_component(sizes, clues, with_total=with_total,
                                                  budget=10 ** 9, search_only=True)
                assert searched == (want.total, want.mined)


def test_float_answer_below_the_double_range_keeps_fractions() -> None:
    """A box whose probability lies below the double range (a share of 2**-1050 given
    hand-made) is answered exactly: a Fraction in the probabilities and the floats, its
    nearest double in the array, and it is the best move; the other values are the Python
    step's."""
    from minegraph.analysis import from_result
    from minegraph.engines.combine_float import FloatCombination
    from minegraph.lazy import FloatProbabilities
    from minegraph.present import probability_json, scientific_text
    board = Board.from_text("mines: 2\n#1#1#")
    system = build_system(board)
    parts = [ComponentDP.of(system, c, with_total=True) for c in system.components]
    tiny = 2.0 ** -1050
    answer = FloatCombination(True, [[0.0, 1.0, tiny]], 0.0, 0.0, 53)
    result = dp._float_result(system, parts, [p.total for p in parts], answer, {})
    probs = result.probabilities
    assert isinstance(probs, FloatProbabilities)
    exact = Fraction(scientific_text(Fraction(tiny)))
    assert dict(probs) == {0: exact, 2: 1.0 - 2.0 ** -53, 4: exact}
    assert array("d", probs.cell_floats)[0] == tiny and sorted(probs.exceptions) == [0, 4]
    a = from_result(board, result, "dp")
    assert a.floats == {(0, 0): exact, (0, 2): 1.0 - 2.0 ** -53, (0, 4): exact}
    assert a.float_array()[0, 0] == tiny and a.best == (0, 0) and a.best_basis == "probability"
    assert a.probabilities[(0, 0)] == exact and a.safe == [] and a.mines == []
    assert a.to_json()["probability"] == [[probability_json(exact), None, 1.0 - 2.0 ** -53,
                                           None, probability_json(exact)]]


@pytest.mark.parametrize("with_total", [True, False])
def test_a_completion_past_the_search_budget_comes_from_the_dp(
        with_total: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """A component the programme counted may be one the completion search does not finish
    within its node budget: the DP's completion then, meeting every clue with the mines
    asked for."""
    from minegraph.engines import native
    sizes, clues = wide_key(random.Random(5), 100)
    part = native.kernel_part(sizes, clues, with_total=with_total)
    assert part is not None

    def declined(*args: object, **kwargs: object) -> list[int]:
        raise kernel.Declined("the search passed its node budget")
    monkeypatch.setattr(native, "complete_component", declined)
    targets = [t for t, ways in enumerate(part.total) if ways] if with_total else [0]
    for t in targets:
        found = part.completion(t)
        assert all(0 <= k <= s for k, s in zip(found, sizes))
        assert all(sum(found[b] for b in boxes) == need for need, boxes in clues)
        assert not with_total or sum(found) == t
