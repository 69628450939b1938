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


# ---------------------------------------------------------------------- errors and views
# Every refusal names what was expected (issue 36: mutation testing found the messages
# unchecked); the texts below are the documented ones, written out by hand.

@pytest.mark.parametrize(("options", "message"), [
    ({"rules": "easy"}, "unknown rules 'easy'; expected one of classic, modern, any"),
    ({"size": "huge"}, "unknown size 'huge'; expected one of beginner, beginner-8, intermediate, "
                       "expert (or rows, cols and mines)"),
    ({"size": None, "rows": 3, "cols": 3, "mines": 1, "topology": "cube"},
     "unknown topology 'cube'; expected one of square, triangle, hex, torus"),
    ({"size": None, "rows": 3, "mines": 1}, "a custom game needs rows, cols and mines (or a size name)"),
    ({"size": None, "rows": 3, "cols": 3}, "a custom game needs a number of mines"),
    ({"size": None, "neighbors": [[1], [2]], "mines": 0}, "cell 1: neighbours must be other cells 0..1"),
    ({"size": None, "neighbors": [[1], [1]], "mines": 0}, "cell 1: neighbours must be other cells 0..1"),
    ({"size": None, "neighbors": [[-1], [0]], "mines": 0}, "cell 0: neighbours must be other cells 0..1"),
])
def test_bad_settings_are_refused_naming_what_was_expected(options: dict[str, object], message: str) -> None:
    with pytest.raises(GameError) as caught:
        Game(**options)  # type: ignore[arg-type]
    assert str(caught.value) == message


def test_the_cell_limit_is_inclusive(monkeypatch: pytest.MonkeyPatch) -> None:
    import minegraph.play.game as game_module
    monkeypatch.setattr(game_module, "MAX_CELLS", 12)
    assert Game(None, rows=3, cols=4, mines=1).size == 12
    with pytest.raises(GameError, match=r"^a 1x13 grid exceeds the limit of 12 cells$"):
        Game(None, rows=1, cols=13, mines=1)


def test_an_unknown_move_and_nothing_to_take_back() -> None:
    with pytest.raises(GameError) as caught:
        Move("jump", 0)
    assert str(caught.value) == "unknown move 'jump'; expected one of reveal, flag, chord"
    game = Game(None, rows=3, cols=3, mines=1, seed=0)
    with pytest.raises(GameError) as caught:
        game.pop()
    assert str(caught.value) == "no move to take back"
    with pytest.raises(GameError) as caught:
        game.three_bv()
    assert str(caught.value) == "the layout is not placed yet: uncover a first cell"


def test_illegal_moves_say_why_naming_the_cell_as_the_board_does() -> None:
    # 0 0 0 / 1 1 0 / M 1 0: the mine on (2, 0); (1, 0) shows a 1.
    game = Game(None, rows=3, cols=3, mines=1, rules="any", seed=0)
    assert game.layout == {6}

    def why(action: str, cell: int) -> str:
        with pytest.raises(GameError) as caught:
            game.push(Move(action, cell))
        return str(caught.value)

    assert not game.is_legal(Move("reveal", 9)) and not game.is_legal(Move("reveal", -1))
    assert why("reveal", 9) == "cell 9 is outside 0..8"
    assert why("flag", -1) == "cell -1 is outside 0..8"
    game.reveal(3)
    assert why("reveal", 3) == "cell (1, 0) is already uncovered"
    assert why("flag", 3) == "cell (1, 0) is uncovered and cannot be flagged"
    assert why("chord", 3) == ("cell (1, 0) cannot be chorded: it must be an uncovered number with "
                               "as many flags around it, and a covered neighbour")
    game.flag(0)                               # cell 0 is named (0, 0) too, not 0
    assert why("reveal", 0) == "cell (0, 0) is flagged"
    game.flag(0)
    game.flag(6)
    assert why("reveal", 6) == "cell (2, 0) is flagged"
    game.push(Move("flag", 6))                 # flags come off again
    game.reveal(6)
    assert game.status == "lost" and game.exploded == 6
    assert why("reveal", 0) == "the game is over (lost); pop() to take moves back"
    assert why("flag", 7) == "the game is over (lost); pop() to take moves back"
    game.pop()
    assert game.status == "playing" and game.exploded is None
    # On a graph a cell is its index.
    graph = Game(None, neighbors=[[1], [0, 2], [1]], mines=1, rules="any", seed=0)
    graph.reveal(0)
    with pytest.raises(GameError, match=r"^cell 0 is already uncovered$"):
        graph.reveal(0)


def _legal_by_definition(game: Game, move: Move) -> bool:
    """A move's legality from the rules: while playing, reveal a covered unflagged cell, flag
    (or unflag) a covered cell, chord an uncovered number with exactly as many flags around it
    and a covered unflagged neighbour."""
    if game.status != "playing" or not 0 <= move.cell < game.size:
        return False
    c, around = move.cell, game.neighbors[move.cell]
    if move.action == "reveal":
        return c not in game.uncovered and c not in game.flags
    if move.action == "flag":
        return c not in game.uncovered
    if c not in game.uncovered or game.layout is None:
        return False
    mines_around = sum(1 for q in around if q in game.layout)
    flags_around = sum(1 for q in around if q in game.flags)
    return flags_around == mines_around and any(
        q not in game.uncovered and q not in game.flags for q in around)


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 10**6), topology=st.sampled_from(TOPOLOGIES))
def test_legal_moves_are_the_rules_legal_moves_along_random_play(seed: int, topology: str) -> None:
    rng = random.Random(seed)
    game = Game(None, rows=4, cols=4, mines=3, topology=topology, rules="classic", seed=seed)
    for _ in range(12):
        everything = [Move(a, c) for c in range(-1, game.size + 1) for a in ("reveal", "flag", "chord")]
        expected = [m for m in everything if _legal_by_definition(game, m)]
        assert [m for m in everything if game.is_legal(m)] == expected
        assert list(game.legal_moves()) == expected
        if not expected:
            break
        # Flags mostly on mines, so that chords become legal.
        move = rng.choice(expected)
        if game.layout is not None and rng.random() < 0.5:
            on_mines = [m for m in expected if m.action == "flag" and m.cell in game.layout
                        and m.cell not in game.flags]
            move = on_mines[0] if on_mines else move
        game.push(move)


def test_cells_labels_and_repr_on_a_grid_and_on_a_graph() -> None:
    grid = Game(None, rows=3, cols=4, mines=1, rules="any", seed=0)
    assert grid.cell(6) == (1, 2) and grid.label(6) == "(1, 2)"
    assert repr(grid) == "<Game 3x4 square, 1 mines, any: playing, 0 uncovered, 0 moves>"
    graph = Game(None, neighbors=[[1], [0, 2], [1]], mines=1, rules="classic", seed=0)
    assert graph.cell(2) == 2 and graph.label(2) == "2"
    graph.reveal(0)
    assert repr(graph) == (f"<Game 3-cell graph, 1 mines, classic: {graph.status}, "
                           f"{len(graph.uncovered)} uncovered, 1 moves>")
