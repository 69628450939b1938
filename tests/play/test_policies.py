"""Autoplayers: certain moves first, deterministic, the first cell, the exact endgame, dead cells."""

from __future__ import annotations

import random
from fractions import Fraction

import networkx as nx
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from minegraph import Board, analyze
from minegraph.board import HIDDEN, MINE
from minegraph.errors import GameError
from minegraph.play.endgame import Endgame, completions
from minegraph.play.game import Game
from minegraph.play.policies import (SafestPolicy, StrongPolicy, _in_large_space, _is_dead,
                                     _living_safe_cells,
                                     _new_clears_chance,
                                     _mine_count_of, _survival, coin_flip, default_first,
                                     apply, get_policy, play)

from strategies import examples, positions, small_games


@pytest.mark.parametrize("name", ["safest", "strong"])
def test_same_seed_same_moves(name: str) -> None:
    a, b = Game("intermediate", rules="classic", seed=4), Game("intermediate", rules="classic", seed=4)
    play(a, get_policy(name))
    play(b, get_policy(name))
    assert a.moves == b.moves and a.status == b.status


@pytest.mark.parametrize("name", ["safest", "strong"])
def test_no_guess_while_a_cell_is_proven_safe(name: str) -> None:
    policy = get_policy(name)
    for seed in range(6):
        game = Game("intermediate", rules="modern", seed=seed)
        while game.status == "playing":
            decision = policy.decide(game)
            if game.uncovered:
                a = analyze(game.board())
                assert decision.guess == (not a.safe)
                for move in decision.moves:
                    assert (not decision.guess) <= (game.cell(move.cell) in a.safe)
                if decision.guess:  # never a proven mine
                    assert game.cell(decision.moves[0].cell) not in a.mines
            for move in decision.moves:
                if game.status == "playing" and game.is_legal(move):
                    game.push(move)


def test_first_cell() -> None:
    assert default_first(Game("expert", rules="classic")) == 0
    assert default_first(Game("expert", rules="modern")) == 3 * 30 + 3
    assert default_first(Game("beginner-8", rules="modern")) == 2 * 8 + 2     # 64 cells: (2, 2)
    assert default_first(Game("intermediate", rules="modern")) == 2 * 16 + 2  # 256 cells
    assert default_first(Game(rows=16, cols=17, mines=40, rules="modern")) == 3 * 17 + 3  # 272
    assert default_first(Game(rows=3, cols=4, mines=1, rules="modern")) == 1 * 4 + 1
    game = Game("expert", rules="modern", seed=0)
    assert StrongPolicy().decide(game).moves[0].cell == 93
    assert SafestPolicy(first=17).decide(game).moves[0].cell == 17


def test_strong_plays_the_endgame_optimum() -> None:
    """On positions with few completions the guess is one that keeps the best exact win
    probability."""
    checked = 0
    for seed in range(40):
        game = Game(rows=5, cols=6, mines=7, rules="classic", seed=seed)
        policy = StrongPolicy()
        while game.status == "playing":
            decision = policy.decide(game)
            if decision.guess and game.uncovered:
                board = game.board()
                count = analyze(board).solutions
                assert count is not None
                if count <= policy.endgame:
                    search = Endgame(board, policy.endgame)
                    cell = decision.moves[0].cell
                    assert search.cells_by_value([cell])[cell] == search.win_probability()
                    checked += 1
            for move in decision.moves:
                if game.status == "playing" and game.is_legal(move):
                    game.push(move)
    assert checked >= 5


def _possible_numbers(board: Board, cell: int) -> set[int] | None:
    layouts = completions(board, 3000)
    if layouts is None:
        return None
    return {sum(1 for q in board.neighbors[cell] if q in layout or board.states[q] == MINE)
            for layout in layouts if cell not in layout}


def _dead(board: Board, cell: int) -> bool | None:
    shown = _possible_numbers(board, cell)
    if shown is None:
        return None
    covered = any(board.states[q] == HIDDEN for q in board.neighbors[cell])
    return len(shown) == 1 and (min(shown) > 0 or not covered)


def test_a_dead_cell_is_guessed_only_when_its_equals_are_dead_too() -> None:
    """Checked by brute force (every completion) on the guesses of many small games: when
    the chosen cell could show only one number, so could every cell as safe as it."""
    checked = 0
    for seed in range(60):
        game = Game(rows=5, cols=6, mines=7, rules="classic", seed=seed)
        policy = StrongPolicy(endgame=0)
        while game.status == "playing":
            decision = policy.decide(game)
            if decision.guess and game.uncovered:
                board = game.board()
                cell = decision.moves[0].cell
                dead = _dead(board, cell)
                if dead:
                    a = analyze(board)
                    p = a.probability(game.cell(cell))
                    for other, q in a.probabilities.items():
                        if q == p and board.states[game.index(other)] == HIDDEN:
                            assert _dead(board, game.index(other)) is not False
                    checked += 1
                elif dead is False:
                    checked += 1
            for move in decision.moves:
                if game.status == "playing" and game.is_legal(move):
                    game.push(move)
    assert checked >= 20


def test_unknown_policy() -> None:
    with pytest.raises(GameError, match="unknown policy 'best'; expected one of safest, strong"):
        get_policy("best")


@settings(max_examples=examples(600), deadline=None)
@given(small_games())
def test_a_coin_flip_is_exactly_one_mine_and_best_taken_now(board: Board) -> None:
    # Oracles: every completion (the pair holds exactly one mine) and the exact endgame
    # (guessing the pair now wins as often as perfect play).
    layouts = completions(board, 300)
    assume(layouts)
    a = analyze(board)
    assume(not a.safe)
    probs = {board.index(c): p for c, p in a.probabilities.items()}
    cell = coin_flip(board, probs, {board.index(c) for c in a.mines})
    if cell is None:
        return
    partners = [q for q in board.hidden if q != cell
                and all((q in m) != (cell in m) for m in layouts)]
    assert partners, "no cell pairs with it in every completion"
    search = Endgame(board, 300)
    assert search.cells_by_value([cell])[cell] == search.win_probability()


@settings(max_examples=examples(600), deadline=None)
@given(small_games())
def test_the_enclosed_region_move_is_as_good_as_perfect_play(board: Board) -> None:
    # Oracle: the exact endgame on the whole position. Nothing outside an enclosed region
    # tells about it and its mine count is fixed, so its own best move is a best move.
    layouts = completions(board, 300)
    assume(layouts)
    a = analyze(board)
    assume(not a.safe)
    cell = StrongPolicy(endgame=300)._enclosed_endgame(board, {board.index(c) for c in a.mines})
    if cell is None:
        return
    search = Endgame(board, 300)
    assert search.cells_by_value([cell])[cell] == search.win_probability()


def test_an_enclosed_pair_beside_an_open_board() -> None:
    # Top-left: two cells that only the 1 and the 3 see (the Ms fence them off), one mine
    # between them; the whole position has 252 completions, too many for an endgame of 10,
    # so only the region's own search answers (and the right part is not enclosed).
    board = Board.from_text("mines: 7\n##M2####\n13M2####\n0111####")
    a = analyze(board)
    assert a.solutions == 252
    cell = StrongPolicy(endgame=10)._enclosed_endgame(board, {board.index(c) for c in a.mines})
    assert cell in (0, 1)


def test_decisions_say_why() -> None:
    """Each decision names its reason, and the reason agrees with what the position shows."""
    policy = StrongPolicy()
    reasons = set()
    for seed in range(4):
        game = Game("intermediate", rules="classic", seed=seed)
        while game.status == "playing":
            decision = policy.decide(game)
            reasons.add(decision.reason)
            if not game.uncovered:
                assert decision.reason == "first"
            else:
                a = analyze(game.board())
                assert (decision.reason == "certain") == bool(a.safe)
                if decision.reason == "endgame":
                    assert a.solutions is not None and a.solutions <= policy.endgame
            for move in decision.moves:
                if game.status == "playing" and game.is_legal(move):
                    game.push(move)
    assert {"first", "certain", "lookahead"} <= reasons


def test_near_breaks_ties_towards_the_uncovered_cells() -> None:
    """The corner (0, 0) shows a number: every far corner is equally safe and scores the same,
    so the lowest index, (0, 29), is guessed; with ``near`` the corner nearest the uncovered
    cell, (15, 0), 15 moves away rather than 29."""
    played = 0
    for seed in range(20):
        for near, corner in ((False, 29), (True, 15 * 30)):
            game = Game("expert", rules="classic", seed=seed)
            if game.reveal(0) != [0]:
                break   # the corner opened an area: another position
            decision = StrongPolicy(0, near=near).decide(game)
            assert decision.reason == "lookahead" and decision.moves[0].cell == corner
            played += 1
    assert played >= 10


def _endgame_positions(count: int) -> list[Game]:
    """Intermediate games stopped at guesses with 6 to 300 completions."""
    from minegraph.play.policies import apply
    found: list[Game] = []
    for seed in range(200):
        game = Game("intermediate", rules="classic", seed=seed)
        policy = StrongPolicy(endgame=5)
        while game.status == "playing" and len(found) < count:
            decision = policy.decide(game)
            if decision.guess and game.uncovered:
                a = analyze(game.board())
                if a.solutions is not None and 5 < a.solutions <= 300 and not a.safe:
                    found.append(Game.replay(game.moves, size="intermediate", rules="classic", seed=seed))
                    break
            apply(game, decision)
        if len(found) >= count:
            break
    return found


def test_a_budget_plays_the_exact_endgame_on_more_completions() -> None:
    """With a budget the endgame takes on positions over ``endgame`` completions: the move
    keeps the best exact win probability; a budget that runs out leaves the move without one."""
    from minegraph.deadline import time_limit
    from minegraph.errors import QueryTimeout
    positions = _endgame_positions(4)
    assert len(positions) == 4
    for game in positions:
        board = game.board()
        search = Endgame(board, 300)
        best = search.win_probability()
        decision = StrongPolicy(endgame=5, budget=1000.0, budget_endgame=300).decide(game)
        assert decision.reason in ("endgame", "fifty")
        if decision.reason == "endgame":
            assert search.cells_by_value([decision.moves[0].cell])[decision.moves[0].cell] == best
        spent = StrongPolicy(endgame=5, budget=1e-9, budget_endgame=300).decide(game)
        plain = StrongPolicy(endgame=5).decide(game)
        assert spent == plain and plain.reason in ("lookahead", "fifty")
        # A caller's own deadline that runs out is not swallowed by the budget.
        if plain.reason == "lookahead":
            with pytest.raises(QueryTimeout):
                with time_limit(1e-9):
                    StrongPolicy(endgame=5, budget=1000.0, budget_endgame=300).decide(game)


def test_a_budget_is_a_positive_number_for_strong() -> None:
    with pytest.raises(GameError, match="budget"):
        StrongPolicy(budget=0)
    with pytest.raises(GameError, match="strong"):
        get_policy("safest", budget=1.0)
    assert isinstance(get_policy("strong", budget=2.5), StrongPolicy)


# ------------------------------------------------------------------ living next-move safety
#: Certain cells (0, 4) and (1, 4) both have their numbers fixed (each covered neighbour is a
#: certain mine or certain to be safe): uncovering them teaches nothing, and what is left is
#: the chain (3, 0)-(3, 1)-(3, 3)-(3, 4) with two layouts, every cell of it mined in one.
ONLY_DEAD_CERTAIN = "mines: 5\n01#1#\n1212#\n#212#\n##1##"


def test_certain_cells_that_teach_nothing_leave_the_next_guess_to_make() -> None:
    after = analyze(Board.from_text(ONLY_DEAD_CERTAIN))
    assert set(after.safe) == {(0, 4), (1, 4)}
    assert _survival(after) == 1 and _survival(after, 0.2) == 1
    assert _survival(after, 0.0, living=True) == Fraction(1, 2)
    assert _survival(after, 0.2, living=True) == Fraction(1, 2)
    assert _living_safe_cells(after) == set()


def _brute_survival(board: Board, blend: Fraction) -> Fraction | None:
    """:func:`_survival` with ``living`` from every completion: the dead test on the counts
    of the enumeration, the safest living cell (every cell when none lives) and the blend."""
    layouts = completions(board, 3000)
    if not layouts:
        return None
    total = len(layouts)
    hidden = [i for i, s in enumerate(board.states) if s == HIDDEN]
    mined = {c: sum(1 for layout in layouts if c in layout) for c in hidden}
    open_cells = sorted((n, c) for c, n in mined.items() if n < total)

    def dead(c: int) -> bool:
        return all(mined[q] in (0, total) for q in board.neighbors[c] if board.states[q] == HIDDEN)
    living = [n for n, c in open_cells if not dead(c)] or [n for n, _ in open_cells]
    if not living:
        return None
    first, second = living[0], living[1 if len(living) > 1 else 0]
    return ((1 - blend) * (total - first) + blend * (total - second)) / total


@settings(max_examples=examples(300), deadline=None)
@given(positions(max_hidden=10, allow_inconsistent=False))
def test_living_survival_matches_brute_force(board: Board) -> None:
    """The dead test is sound (a cell it calls dead shows one number in every completion
    where it is safe), the living survival is the enumeration's, and with no dead cell it is
    the survival of every cell."""
    after = analyze(board)
    assume(after.consistent and after.solutions and after.best is not None)
    layouts = completions(board, 3000)
    assume(layouts)
    total = after.solutions
    mined = _mine_count_of(after)
    for c, n in mined.items():
        if n < total and _is_dead(board, c, mined, total):
            assert len({sum(1 for q in board.neighbors[c] if q in layout or board.states[q] == MINE)
                        for layout in layouts if c not in layout}) == 1
    for blend in (Fraction(0), Fraction(1, 5)):
        expected = _brute_survival(board, blend)
        assume(expected is not None)
        assert _survival(after, float(blend), living=True) == expected
        if not any(_is_dead(board, c, mined, total) for c, n in mined.items() if n < total):
            assert _survival(after, float(blend), living=True) == _survival(after, float(blend))


def test_living_plays_whole_games() -> None:
    """``living`` is a policy option: games are played to the end, the same on a replay."""
    for seed in range(3):
        records = [play(Game("beginner", rules="modern", seed=seed), StrongPolicy(living=True))
                   for _ in range(2)]
        first, again = ((r.won, r.guesses, r.moves) for r in records)
        assert first == again and first[2] > 0


def test_living_survival_on_the_positions_of_small_games() -> None:
    """Every position of small games played to the end, against the enumeration; on some
    the certain cells are all dead and the living survival is below 1."""
    below = 0
    for seed in range(100):
        game = Game(rows=4, cols=5, mines=5, rules="classic", seed=seed)
        policy = StrongPolicy(endgame=0)
        while game.status == "playing":
            board = game.board()
            after = analyze(board)
            if game.uncovered and after.best is not None:
                for blend in (Fraction(0), Fraction(1, 5)):
                    expected = _brute_survival(board, blend)   # None: too many completions
                    assert expected is None or _survival(after, float(blend), living=True) == expected
                below += after.safe != () and _survival(after, 0.0, living=True) < 1
            apply(game, policy.decide(game))
    assert below >= 5


def _brute_new_clears_chance(board: Board, cell: int, layouts: list[frozenset[int]]) -> Fraction:
    """:func:`_new_clears_chance` from the completions: those where ``cell`` is safe, grouped
    by the number it shows; in each group the certain cells (none of its completions mines
    them) and the living ones among them (a covered neighbour neither always nor never a
    mine in the group); the chance of the groups with more living certain cells than those
    in every group, plus one for ``cell`` itself when it is living."""
    nbrs, states = board.neighbors, board.states
    hidden = [i for i, s in enumerate(states) if s == HIDDEN and i != cell]
    groups: dict[int, list[frozenset[int]]] = {}
    for layout in layouts:
        if cell not in layout:
            shown = sum(1 for q in nbrs[cell] if q in layout or states[q] == MINE)
            groups.setdefault(shown, []).append(layout)
    living_after = {}
    for shown, group in groups.items():
        mined = {c: sum(1 for layout in group if c in layout) for c in hidden}
        certain = [c for c in hidden if mined[c] == 0]
        living_after[shown] = {c for c in certain if any(
            0 < mined[q] < len(group) for q in nbrs[c] if q != cell and states[q] == HIDDEN)}
    covered_around = any(states[q] == HIDDEN for q in nbrs[cell])
    dead = len(groups) == 1 and (min(groups) > 0 or not covered_around)
    linked = len(set.intersection(*living_after.values())) + (0 if dead else 1)
    return Fraction(sum(len(groups[k]) for k, cells in living_after.items() if len(cells) > linked),
                    len(layouts))


def test_the_chance_of_new_certain_cells_is_the_enumerations() -> None:
    """``peer_order``'s progress chance, on every guess of small games, for every cell that
    could be guessed, against the completions."""
    checked = 0
    for seed in range(40):
        game = Game(rows=4, cols=5, mines=5, rules="classic", seed=seed)
        policy = StrongPolicy(endgame=0, living=True, peer_order=True)
        while game.status == "playing":
            board = game.board()
            decision = policy.decide(game)
            layouts = completions(board, 3000) if decision.guess and game.uncovered else None
            if layouts:
                count = len(layouts)
                for c in (i for i, s in enumerate(board.states) if s == HIDDEN):
                    look = policy._look(board, c, count, None)
                    if look:
                        assert _new_clears_chance(look, not (len(look) == 1 and (
                            look[0][0] > 0 or not any(board.states[q] == HIDDEN
                                                      for q in board.neighbors[c])))) \
                            == _brute_new_clears_chance(board, c, layouts)
                        checked += 1
            apply(game, decision)
    assert checked >= 100


def test_peer_order_plays_whole_games() -> None:
    for seed in range(3):
        records = [play(Game("beginner", rules="modern", seed=seed),
                        StrongPolicy(living=True, peer_order=True)) for _ in range(2)]
        first, again = ((r.won, r.guesses, r.moves) for r in records)
        assert first == again and first[2] > 0


@settings(max_examples=examples(300), deadline=None)
@given(positions(max_hidden=14), st.integers(1, 12), st.randoms(use_true_random=False))
def test_a_space_is_a_class_of_cells_linked_by_a_step(board: Board, threshold: int,
                                                      rng: random.Random) -> None:
    """``_in_large_space`` against networkx's connected components of the graph whose edges
    are the steps: covered cell to covered neighbour, and covered to covered over one
    uncovered cell; the mines (some covered cells) block."""
    states, nbrs = board.states, board.neighbors
    hidden = [c for c, s in enumerate(states) if s == HIDDEN]
    mines = set(rng.sample(hidden, rng.randrange(len(hidden) + 1)))
    open_cells = [c for c in hidden if c not in mines]
    graph = nx.Graph()
    graph.add_nodes_from(open_cells)
    uncovered = [c for c, s in enumerate(states) if s not in (HIDDEN, MINE)]
    for c in open_cells:
        graph.add_edges_from((c, q) for q in nbrs[c] if q in graph)
    for u in uncovered:
        around = [q for q in nbrs[u] if q in graph]
        graph.add_edges_from((a, b) for a in around for b in around if a < b)
    expected = {c for part in nx.connected_components(graph) if len(part) >= threshold for c in part}
    cells = rng.sample(open_cells, len(open_cells))
    assert _in_large_space(board, mines, cells, threshold) == expected


def test_defer_guesses_a_small_pocket_last() -> None:
    """Expert, modern rules, seed 33, the position below (the default's 153rd move): the top
    left corner's pocket has 6 open covered cells (the 4 and the 3 fence it with three
    certain mines), and the default guesses its corner (0, 0), 1/4 a mine, for the 50/50 it
    may settle; with ``defer=8`` the pocket waits and a cell of a large space, (12, 10),
    1/7 a mine, is guessed instead."""
    rows = ["####211100000001#210000002#3##", "#4##22#2000000012#21100002#433",
            "##3212#201221111113#20001222#1", "2210011212##23#2002#20001#1222",
            "12232101#2223##3112122322111#1", "#2###11222123##43#101###101332",
            "2323211#23#3#33##3201232112##1", "#1111012###422344#10001112#421",
            "222#2112##4#22##2110002#33#200", "##3#########22#42001112#4#2100",
            "###########3333#2101#123#33221", "###########2##22#101111#4#3##2",
            "###########23321110000113#323#", "###########12#2000122212221011",
            "###########34#31212##3#4#31000", "#############22#2#223#3###1000"]
    game = Game("expert", rules="modern", seed=33)
    game.reveal(3 * 30 + 3)
    for index, ch in enumerate("".join(rows)):
        if ch != "#" and game.board().states[index] == HIDDEN:
            game.reveal(index)
    board = game.board()
    assert [ch for ch in "".join(rows)] == ["#" if s == HIDDEN else str(s) for s in board.states]
    a = analyze(board)
    mines = {board.index(c) for c in a.mines}
    assert {32, 33, 61} <= mines      # (1, 2), (1, 3), (2, 1): the 3 at (2, 2) sees only them
    pocket = [0, 1, 2, 3, 30, 60]
    assert _in_large_space(board, mines, pocket + [370], 8) == {370}
    default = StrongPolicy().decide(game)
    deferred = StrongPolicy(defer=8).decide(game)
    assert default.reason == deferred.reason == "lookahead"
    assert default.moves[0].cell in pocket and default.probability == Fraction(1, 4)
    assert deferred.moves[0].cell == 370 and deferred.probability == Fraction(1, 7)
