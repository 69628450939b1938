"""The game engine: rules, flood fill on every topology, moves and their undoing, 3BV."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minegraph import analyze
from minegraph.board import HIDDEN, MINE
from minegraph.errors import GameError
from minegraph.play.game import SIZES, Game, Move, flood_fill
from minegraph.topology import grid_neighbors

from strategies import examples

TOPOLOGIES = ["square", "triangle", "hex", "torus"]


# ---------------------------------------------------------------------- rules
@pytest.mark.parametrize("seed", range(40))
def test_modern_first_click_opens_an_area(seed: int) -> None:
    rng = random.Random(seed)
    game = Game("expert", rules="modern", seed=seed)
    first = rng.randrange(game.size)
    opened = game.reveal(first)
    assert game.layout is not None
    assert not ({first, *game.neighbors[first]} & game.layout)
    assert game.number(first) == 0 and set(game.neighbors[first]) <= set(opened)


@pytest.mark.parametrize("seed", range(40))
def test_classic_first_click_is_never_a_mine(seed: int) -> None:
    # A board nearly full of mines: only the first cell is sure to be free.
    game = Game(rows=4, cols=4, mines=15, rules="classic", seed=seed)
    first = seed % 16
    game.reveal(first)
    assert game.status == "won" and game.layout == frozenset(range(16)) - {first}


def test_classic_layouts_are_uniform_over_the_other_cells() -> None:
    # 3x3, 1 mine, first click in the centre: each of the 8 other cells equally often.
    counts = [0] * 9
    for seed in range(4000):
        game = Game(rows=3, cols=3, mines=1, rules="classic", seed=seed)
        game.reveal(4)
        assert game.layout is not None
        (mine,) = game.layout
        counts[mine] += 1
    assert counts[4] == 0
    assert all(400 < c < 600 for i, c in enumerate(counts) if i != 4), counts


def test_any_rules_place_mines_at_once_and_the_first_click_can_lose() -> None:
    lost = 0
    for seed in range(200):
        game = Game(rows=3, cols=3, mines=4, rules="any", seed=seed)
        assert game.layout is not None and len(game.layout) == 4
        game.reveal(0)
        lost += game.status == "lost"
    assert 60 < lost < 120   # 4 mines in 9 cells: P(loss) = 4/9


def test_same_seed_same_game_and_random_instances() -> None:
    a, b = Game("intermediate", seed=11), Game("intermediate", seed=11)
    a.reveal((5, 5))
    b.reveal((5, 5))
    assert a.layout == b.layout and a.uncovered == b.uncovered
    rng = random.Random(5)
    c, d = Game("intermediate", seed=rng), Game("intermediate", seed=rng)
    c.reveal(0)
    d.reveal(0)
    assert c.layout == d.layout                 # the Random's state is copied, not advanced
    assert Game("intermediate", seed=12).layout is None


def test_standard_sizes() -> None:
    assert SIZES["expert"] == (16, 30, 99) and SIZES["beginner"] == (9, 9, 10)
    assert SIZES["beginner-8"] == (8, 8, 10) and SIZES["intermediate"] == (16, 16, 40)
    game = Game("expert")
    assert (game.rows, game.cols, game.mine_count) == (16, 30, 99)


# ---------------------------------------------------------------------- flood fill
def _reference_fill(nbrs: tuple[tuple[int, ...], ...], mines: frozenset[int], cell: int) -> set[int]:
    """The definition: the cell, and every neighbour of an uncovered zero, to a fixpoint."""
    opened = {cell}
    while True:
        more = {q for c in opened if not any(w in mines for w in nbrs[c]) for q in nbrs[c]}
        if more <= opened:
            return opened
        opened |= more


@settings(max_examples=examples(400), deadline=None)
@given(topology=st.sampled_from(TOPOLOGIES), rows=st.integers(1, 9), cols=st.integers(1, 9),
       density=st.floats(0.0, 0.4), seed=st.integers(0, 10**6))
def test_flood_fill_matches_its_definition_on_every_topology(topology: str, rows: int, cols: int,
                                                             density: float, seed: int) -> None:
    if topology == "torus" and (rows < 3 or cols < 3):
        rows, cols = max(rows, 3), max(cols, 3)
    nbrs = grid_neighbors(topology, rows, cols)
    rng = random.Random(seed)
    n = rows * cols
    mines = frozenset(rng.sample(range(n), int(density * n)))
    safe = [c for c in range(n) if c not in mines]
    if not safe:
        return
    cell = rng.choice(safe)
    opened: set[int] = set()
    assert set(flood_fill(nbrs, mines, opened, cell)) == _reference_fill(nbrs, mines, cell)
    assert not opened & mines


def test_games_on_any_graph() -> None:
    # A star: the centre shows the number of mined leaves.
    star = [list(range(1, 13))] + [[0]] * 12
    game = Game(None, neighbors=star, mines=12, rules="classic", seed=0)
    game.reveal(0)
    assert game.status == "won" and game.board().states[0] == 12
    with pytest.raises(GameError, match="neighbours must be other cells"):
        Game(None, neighbors=[[1], [5]], mines=0)


# ---------------------------------------------------------------------- moves
@settings(max_examples=examples(200), deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(1, 30),
       rules=st.sampled_from(["classic", "modern", "any"]))
def test_push_pop_round_trips(seed: int, steps: int, rules: str) -> None:
    game = Game("beginner", rules=rules, seed=seed)
    rng = random.Random(seed)
    snapshots = []
    for _ in range(steps):
        legal = list(game.legal_moves())
        if not legal:
            break
        move = rng.choice(legal)
        snapshots.append((game.board(flags=True), game.status, game.layout))
        game.push(move)
    for board, status, layout in reversed(snapshots):
        game.pop()
        assert (game.board(flags=True), game.status, game.layout) == (board, status, layout)
    assert game.moves == [] and not game.uncovered and not game.flags


def test_replay_gives_the_same_position() -> None:
    game = Game("intermediate", rules="modern", seed=3)
    game.reveal((8, 8))
    covered = [c for c in range(game.size) if c not in game.uncovered and game.layout
               and c not in game.layout]
    game.reveal(covered[0])
    again = Game.replay(game.moves, size="intermediate", rules="modern", seed=3)
    assert again.board() == game.board() and again.status == game.status


def test_flags_chords_and_their_errors() -> None:
    game = Game(rows=1, cols=4, mines=1, rules="any", seed=0)
    assert game.layout is not None
    (mine,) = game.layout
    safe_next = mine - 1 if mine > 0 else mine + 1
    game.reveal(safe_next)
    with pytest.raises(GameError, match="cannot be chorded"):
        game.chord(safe_next)                   # no flag around it yet
    game.flag(mine)
    assert game.board(flags=True).states[mine] == MINE
    assert game.board().states[mine] == HIDDEN  # flags are claims, left out by default
    with pytest.raises(GameError, match="flagged"):
        game.reveal(mine)
    rest = [c for c in range(4) if c not in game.uncovered and c != mine]
    if any(c in game.neighbors[safe_next] for c in rest):
        game.chord(safe_next)
    for c in rest:
        if c not in game.uncovered:
            game.reveal(c)
    assert game.status == "won"
    with pytest.raises(GameError, match="the game is over"):
        game.flag(mine)


def test_a_wrong_flag_makes_the_chord_lose() -> None:
    # 1x3 with the mine on the right: flag the left cell, chord the middle 1.
    for seed in range(50):
        game = Game(rows=1, cols=3, mines=1, rules="any", seed=seed)
        if game.layout == frozenset({2}):
            break
    game.reveal(1)
    game.flag(0)
    game.chord(1)
    assert game.status == "lost" and game.exploded == 2
    game.pop()
    assert game.status == "playing" and game.exploded is None


def test_bad_cells_and_settings() -> None:
    game = Game("beginner", seed=0)
    for cell, match in [((9, 0), "outside the 9x9 grid"), (81, "outside 0..80"),
                        ("a1", "expected a cell"), (True, "expected a cell")]:
        with pytest.raises(GameError, match=match):
            game.reveal(cell)  # type: ignore[arg-type]
    with pytest.raises(GameError, match="unknown rules"):
        Game(rules="easy")
    with pytest.raises(GameError, match="unknown size"):
        Game("huge")
    with pytest.raises(GameError, match="do not fit"):
        Game(rows=3, cols=3, mines=9, rules="classic")
    with pytest.raises(GameError, match="no move to take back"):
        game.pop()
    with pytest.raises(GameError, match="unknown move"):
        Move("dig", 0)


# ---------------------------------------------------------------------- 3BV and snapshots
def test_three_bv_on_hand_made_layouts() -> None:
    # 0 0 1 M 1 / one opening (cells 0-2) and the lone 1 at the right end.
    game = Game(rows=1, cols=5, mines=1, rules="any", seed=0)
    object.__setattr__(game, "layout", frozenset({3}))
    assert game.three_bv() == 2
    # 3x3 with the centre mined: eight numbers, no opening.
    game = Game(rows=3, cols=3, mines=1, rules="any", seed=0)
    game.layout = frozenset({4})
    assert game.three_bv() == 8
    # No mine: one opening.
    game = Game(rows=4, cols=4, mines=0, rules="any", seed=0)
    assert game.three_bv() == 1


def test_the_snapshot_is_what_the_player_sees_and_is_consistent() -> None:
    game = Game("expert", rules="modern", seed=21)
    game.reveal((3, 3))
    board = game.board()
    assert board.mines == 99 and board.rows == 16 and board.cols == 30
    assert game.layout is not None
    for c in range(game.size):
        if c in game.uncovered:
            assert board.states[c] == game.number(c)
        else:
            assert board.states[c] == HIDDEN
    a = analyze(board)
    assert a.consistent
    assert all(game.index(c) not in game.layout for c in a.safe)
    assert all(game.index(c) in game.layout for c in a.mines)


def test_a_flood_leaves_flagged_cells_covered() -> None:
    game = Game(rows=3, cols=3, mines=0, rules="any", seed=0)
    game.flag((2, 2))
    game.reveal((0, 0))
    assert 8 not in game.uncovered and 8 in game.flags and game.status == "playing"
    game.flag((2, 2))
    game.reveal((2, 2))
    assert game.status == "won"


@pytest.mark.parametrize("rows, cols", [(-1, 5), (5, -1), (0, 5), (5, 0), (0, 0), (2.5, 3), (True, 3),
                                        ("9", 9), (None, 5)])
def test_the_size_is_checked_before_the_mines(rows: object, cols: object) -> None:
    # Issue 22: Game(None, rows=-1, cols=5, mines=3) said "3 mines do not fit: classic rules
    # leave at most 0 of the 0 cells for mines"; a float was a TypeError from deep inside.
    with pytest.raises(GameError) as info:
        Game(None, rows=rows, cols=cols, mines=3)                    # type: ignore[arg-type]
    message = str(info.value)
    assert "mines" not in message.split(";")[0] or rows is None, message
    if rows is None:
        assert "a custom game needs rows, cols and mines" in message
    else:
        bad = "rows" if not (isinstance(rows, int) and not isinstance(rows, bool) and rows >= 1) else "cols"
        assert message.startswith(f"{bad} must be a whole number of at least 1, got {rows if bad == 'rows' else cols!r}"), message


def test_the_mines_are_checked_as_a_number() -> None:
    for mines in (-1, 2.5, "3", True):
        with pytest.raises(GameError, match="mines must be a whole number of at least 0"):
            Game(None, rows=3, cols=3, mines=mines)                  # type: ignore[arg-type]
    with pytest.raises(GameError, match="do not fit"):
        Game(None, rows=3, cols=3, mines=9)


def test_a_grid_beyond_the_cell_limit_is_refused_before_it_is_built() -> None:
    from minegraph.states import MAX_CELLS
    with pytest.raises(GameError, match=f"limit of {MAX_CELLS} cells"):
        Game(None, rows=10**6, cols=10**6, mines=1)
