"""The Board model: construction, validation, cells."""

from __future__ import annotations

from fractions import Fraction

import pytest

from minegraph import BLANK, HIDDEN, MINE, Board
from minegraph.errors import BoardError, LimitError, MinegraphError


def test_grid_cells_and_labels() -> None:
    b = Board.from_text("mines: 2\n#1-\nM2#")
    assert (b.rows, b.cols, b.size, b.mines) == (2, 3, 6, 2)
    assert b.states == (HIDDEN, 1, BLANK, MINE, 2, HIDDEN)
    assert b.hidden == [0, 5] and b.known_mines == 1
    assert b.index((1, 2)) == 5 and b.cell(5) == (1, 2)


def test_number_above_degree_is_rejected_with_its_position() -> None:
    with pytest.raises(BoardError, match=r"cell \(0, 0\): number 4 exceeds its 3 neighbours"):
        Board.grid(2, 2, [4, HIDDEN, HIDDEN, HIDDEN])
    with pytest.raises(BoardError, match="number 9 exceeds the square maximum 8"):
        Board.grid(3, 3, [HIDDEN] * 4 + [9] + [HIDDEN] * 4)


def test_totals_are_checked() -> None:
    with pytest.raises(BoardError, match="outside 0..4"):
        Board.grid(2, 2, [HIDDEN] * 4, mines=5)
    with pytest.raises(BoardError, match="outside 0..4"):
        Board.grid(2, 2, [HIDDEN] * 4, mines=-1)


def test_graph_boards() -> None:
    b = Board.from_graph(4, [(0, 1), (1, 2), (2, 3)], [HIDDEN, 1, HIDDEN, HIDDEN], mines=1)
    assert b.topology == "graph" and b.cell(2) == 2 and b.neighbors[1] == (0, 2)
    with pytest.raises(BoardError, match="edge 0: cell 7 is outside 0..3"):
        Board.from_graph(4, [(0, 7)], [HIDDEN] * 4)
    with pytest.raises(BoardError, match="loop"):
        Board.from_graph(2, [(1, 1)], [HIDDEN] * 2)
    with pytest.raises(MinegraphError, match="no grid text form"):
        b.to_text()


def test_hostile_sizes_are_refused() -> None:
    with pytest.raises(LimitError):
        Board.grid(2000, 2000, [])
    with pytest.raises(LimitError):
        Board.from_graph(10**7, [], [])


def test_index_outside() -> None:
    b = Board.from_text("##")
    with pytest.raises(BoardError, match="outside"):
        b.index((1, 0))


# ----------------------------------------------------------------- arguments (issue 9)
# Every public constructor and method checks its arguments and says what it expected, with a
# MinegraphError subclass: never a TypeError, IndexError or KeyError from deep inside.

def test_states_may_be_ints_or_the_texts_symbols() -> None:
    as_symbols = Board.grid(2, 2, ["#", "1", "#", "#"])
    assert as_symbols == Board.grid(2, 2, [HIDDEN, 1, HIDDEN, HIDDEN]) == Board.grid(2, 2, "#1##")
    assert Board.from_graph(3, [(0, 1), (1, 2)], ["#", "2", "M"]).states == (HIDDEN, 2, MINE)
    import numpy as np                       # numpy's integers are whole numbers too
    b = Board.grid(np.int64(1), np.int32(3), np.array([HIDDEN, 1, HIDDEN]), mines=np.int64(1))
    assert b.states == (HIDDEN, 1, HIDDEN) and type(b.mines) is int and b.mines == 1


BAD_CALLS = [
    # (call, message fragment)
    (lambda: Board.grid(2, 2, ["#", "1", "#", "z"]), r"cell \(1, 1\): expected a state.*got 'z'"),
    (lambda: Board.grid(2, 2, [HIDDEN, None, HIDDEN, HIDDEN]), r"cell \(0, 1\): expected a state"),
    (lambda: Board.grid(2, 2, [HIDDEN, 1.0, HIDDEN, HIDDEN]), r"expected a state.*got 1.0"),
    (lambda: Board.grid(2, 2, [HIDDEN, True, HIDDEN, HIDDEN]), r"expected a state.*got True"),
    (lambda: Board.grid(2, 2, 5), "expected a sequence of states"),
    (lambda: Board.grid(2, 2, b"#1##"), "expected a sequence of states"),
    (lambda: Board.grid(2, 2, [HIDDEN] * 3), "expected 4 states"),
    (lambda: Board.grid(2, 2, iter(int, 1)), "expected 4 states .*got more than 4"),
    (lambda: Board.grid("2", 2, "####"), "expected a number of rows"),
    (lambda: Board.grid(2.0, 2, "####"), "expected a number of rows"),
    (lambda: Board.grid(2, None, "####"), "expected a number of columns"),
    (lambda: Board.grid(0, 2, []), "at least one row"),
    (lambda: Board.grid(2, 2, "####", topology="hexagon"), "unknown topology 'hexagon'"),
    (lambda: Board.grid(2, 2, "####", topology=["square"]), "unknown topology"),
    (lambda: Board.grid(2, 2, "####", mines=1.5), "expected a total mine count"),
    (lambda: Board.grid(2, 2, "####", mines=True), "expected a total mine count"),
    (lambda: Board.grid(2, 2, "####", mines=-1), "outside 0..4"),
    (lambda: Board.grid(2, 2, "####", mines="2"), "expected a total mine count"),
    (lambda: Board.from_graph("3", [], "###"), "expected a number of cells"),
    (lambda: Board.from_graph(3, 7, "###"), "expected the edges as pairs"),
    (lambda: Board.from_graph(3, "01", "###"), "expected the edges as pairs"),
    (lambda: Board.from_graph(3, [(0, 1, 2)], "###"), "edge 0: expected a pair"),
    (lambda: Board.from_graph(3, [(0, 1.5)], "###"), "edge 0: expected a cell number 0..2"),
    (lambda: Board.from_graph(3, [("0", "1")], "###"), "edge 0: expected a cell number"),
    (lambda: Board.from_graph(3, [(0, -1)], "###"), "edge 0: cell -1 is outside 0..2"),
    (lambda: Board.from_graph(3, [], "##"), "expected 3 states"),
    (lambda: Board.from_text(b"#1#"), "expected the board text as a str, got bytes"),
    (lambda: Board.from_text(None), "expected the board text as a str, got NoneType"),
    # Built field by field: the neighbour lists are checked too.
    (lambda: Board("graph", None, None, ((1,), (0, 5)), (HIDDEN, 1)),
     "cell 1: neighbour 5 is not a cell of the board"),
    (lambda: Board("graph", None, None, ((1,), ()), (HIDDEN, 1)), "but 1 does not have 0"),
    (lambda: Board("graph", None, None, ((0,),), (HIDDEN,)), "its own neighbour"),
    (lambda: Board("graph", None, None, ((1, 1), (0, 0)), (HIDDEN, 1)), "listed twice"),
    (lambda: Board("graph", None, None, (("1",), (0,)), (HIDDEN, 1)), "expected a neighbour"),
    (lambda: Board("graph", None, None, (), ()), "at least one cell"),
    (lambda: Board("graph", 1, 2, ((1,), (0,)), (HIDDEN, 1)), "no rows and columns"),
    (lambda: Board("square", 1, 2, ((1,), ()), (HIDDEN, 1)), "not those of the 1x2 square grid"),
    (lambda: Board("square", 2, 2, ((1,), (0,)), (HIDDEN, 1)), "needs that many neighbour lists"),
    (lambda: Board("squares", 1, 1, ((),), (HIDDEN,)), "unknown topology 'squares'"),
    (lambda: Board("graph", None, None, ((1,), (0,)), (HIDDEN, "z")), r"cell 1: expected a state"),
]


@pytest.mark.parametrize("call,message", BAD_CALLS, ids=[m for _, m in BAD_CALLS])
def test_bad_construction_arguments_say_what_was_expected(call, message: str) -> None:
    with pytest.raises(MinegraphError, match=message):
        call()


def test_a_graph_board_naming_a_missing_cell_is_refused_at_once() -> None:
    # It used to be accepted and to fail later, in the analysis, with an IndexError.
    with pytest.raises(BoardError, match="neighbour 2 is not a cell of the board"):
        Board("graph", None, None, ((1,), (0, 2)), (HIDDEN, 1))


def test_a_board_built_field_by_field_is_checked_and_normalised() -> None:
    square = Board("square", 1, 3, [[1], [0, 2], [1]], [HIDDEN, 1, HIDDEN])
    assert square == Board.from_text("#1#") and square.neighbors == ((1,), (0, 2), (1,))
    graph = Board("graph", None, None, [[1], [0]], "#1", 1)
    assert graph == Board.from_graph(2, [(0, 1)], [HIDDEN, 1], mines=1)


def test_cells_as_tuples_lists_or_indices() -> None:
    b = Board.from_text("###\n###")
    assert b.index((1, 2)) == b.index([1, 2]) == b.index(5) == 5
    g = Board.from_graph(3, [(0, 1)], "###")
    assert g.index(2) == 2
    for board, cell, message in [
            (b, (1,), r"expected a cell \(row, col\), got 1 coordinates"),
            (b, (0, 1, 2), "got 3 coordinates"),
            (b, (0, "1"), "expected a column"), (b, (True, 0), "expected a row"),
            (b, (2, 0), r"cell \(2, 0\) is outside the 2x3 grid"), (b, (0, -1), "outside"),
            (b, "0,1", "expected a cell"), (b, 1.0, "expected a cell"), (b, None, "expected a cell"),
            (b, 6, "cell 6 is outside 0..5"), (g, (0, 1), "a graph board's cells are numbers 0..2"),
            (g, [0], "a graph board's cells"), (g, -1, "outside 0..2")]:
        with pytest.raises(BoardError, match=message):
            board.index(cell)
    with pytest.raises(BoardError, match="cell index 6 is outside 0..5"):
        b.cell(6)
    with pytest.raises(BoardError, match="expected a cell index"):
        b.cell((0, 1))
    assert b.label(99) == "99"        # messages may name anything


def test_with_states_checks_like_the_constructors() -> None:
    b = Board.from_text("mines: 1\n#1#")
    assert b.with_states("M1#").states == (MINE, 1, HIDDEN) and b.with_states("M1#").mines == 1
    assert b.with_states("##-", mines=None).mines is None
    for states, mines, message in [("##", "keep", "expected 3 states"),
                                   ("#1#", 4, "outside 0..3"), ("#1#", "many", "expected a total"),
                                   ([HIDDEN, 9, HIDDEN], "keep", "number 9 exceeds")]:
        with pytest.raises(BoardError, match=message):
            b.with_states(states, mines=mines)


# ----------------------------------------------------------------- numbers past 12 (issue 9)
# Graph boards take numbers up to the cell's degree; grids keep their topology's maximum.

def _star(centre: int | str, leaves: int = 13, mines: int | None = None) -> Board:
    return Board.from_graph(leaves + 1, [(0, i) for i in range(1, leaves + 1)],
                            [centre] + [HIDDEN] * leaves, mines=mines)


def test_a_star_centre_may_show_its_degree() -> None:
    from minegraph.analysis import analyze, solve
    board = _star(13)
    # Hand count: all 13 leaves must be mines, so there is exactly one completion.
    a = analyze(board)
    assert a.consistent and a.solutions == 1 and a.mines == list(range(1, 14)) and a.safe == []
    assert solve(board).states == (13,) + (MINE,) * 13
    # A 5 in the centre: any 5 of the 13 leaves, C(13, 5) = 13*12*11*10*9/120 = 1287.
    five = analyze(_star(5))
    assert five.solutions == 1287 and all(p == Fraction(5, 13) for p in five.probabilities.values())
    completed = solve(_star(5))
    assert completed is not None and completed.states[0] == 5
    assert sorted(completed.states[1:]).count(MINE) == 5
    # The total agrees or contradicts: 13 mines fit, 12 do not.
    assert analyze(_star(13, mines=13)).solutions == 1
    assert not analyze(_star(13, mines=12)).consistent


def test_graph_numbers_are_capped_by_the_degree_only() -> None:
    assert _star("13").states[0] == 13 == _star(13).states[0]          # digits of a number
    assert Board.from_graph(21, [(0, i) for i in range(1, 21)], [20] + [HIDDEN] * 20).states[0] == 20
    with pytest.raises(BoardError, match="cell 0: number 14 exceeds its 13 neighbours"):
        _star(14)
    # Grids keep their topology's maximum, whatever the symbol.
    with pytest.raises(BoardError, match="number 9 exceeds the square maximum 8"):
        Board.grid(3, 3, [HIDDEN] * 4 + ["9"] + [HIDDEN] * 4)
    with pytest.raises(BoardError, match="number 13 exceeds the triangle maximum 12"):
        Board.grid(5, 5, [HIDDEN] * 12 + ["13"] + [HIDDEN] * 12, topology="triangle")


# ----------------------------------------------------------------- files, the front door (issue 9)
def test_from_file_reads_every_format_by_name_and_content(tmp_path) -> None:
    import minegraph
    from minegraph.formats import FORMATS
    board = Board.from_text("mines: 2\n#1#\n#2#\n###")
    for fmt, name in zip(FORMATS, ("b.board", "b.mine", "b.txt", "b.json")):
        path = tmp_path / name
        path.write_text(minegraph.write_board(board, fmt))
        assert Board.from_file(path) == board, fmt                 # a Path ...
        assert Board.from_file(str(path), fmt) == board, fmt       # ... or a str, format given
        assert minegraph.read_board(path.read_text()) == board, fmt
    # Windows line ends and a byte-order mark read the same.
    path = tmp_path / "crlf.board"
    path.write_bytes(b"\xef\xbb\xbfmines: 2\r\n#1#\r\n#2#\r\n###\r\n")
    assert Board.from_file(path) == board
    path = tmp_path / "dots.txt"
    path.write_text("..1\n..1\n")
    assert Board.from_file(path, dialect="dots").states == (HIDDEN, HIDDEN, 1) * 2


def test_from_file_errors_name_the_file(tmp_path) -> None:
    from minegraph.errors import FormatError, UserError
    bad = tmp_path / "bad.board"
    bad.write_text("###\n#z#\n")
    with pytest.raises(FormatError, match=r"^.*bad\.board: line 2, column 2: ") as info:
        Board.from_file(bad)
    assert (info.value.line, info.value.column) == (2, 2)           # still the reader's error
    with pytest.raises(UserError, match=r"cannot read .*missing\.board: No such file"):
        Board.from_file(tmp_path / "missing.board")
    with pytest.raises(UserError, match="cannot read .*: Is a directory"):
        Board.from_file(tmp_path)
    with pytest.raises(UserError, match="expected a file name"):
        Board.from_file(3)  # type: ignore[arg-type]
    binary = tmp_path / "image.board"
    binary.write_bytes(b"#1#\n\x89PNG\n")
    with pytest.raises(FormatError, match=r"image\.board: line 2, column 1: not UTF-8"):
        Board.from_file(binary)


def test_the_front_door_is_light_to_import() -> None:
    import subprocess
    import sys
    code = ("import sys, minegraph\nassert minegraph.read_board and minegraph.write_board\n"
            "print(*sorted(m for m in sys.modules if m.split('.')[0] in "
            "('numpy', 'networkx', 'pysat', 'rich', 'textual')))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stdout.strip() == "", p.stdout + p.stderr


def test_repr_shows_the_grid_and_rebuilds_the_board() -> None:
    boards = [Board.from_text("mines: 2\n#1#\n#2#\n###"), Board.from_text("M-#\n1?2"),
              Board.grid(2, 3, "#1##2#", topology="hex", mines=1),
              Board.grid(3, 4, "#" * 12, topology="triangle"),
              Board.grid(3, 3, "#" * 9, topology="torus", mines=0),
              Board.from_graph(3, [(0, 1), (1, 2)], "#2#", mines=2),
              Board.from_graph(1, [], "#"),
              # a number beyond the one-character symbols: states as a list of ints
              Board.from_graph(14, [(0, i) for i in range(1, 14)], [13] + [HIDDEN] * 13, mines=13)]
    for board in boards:
        text = repr(board)
        assert eval(text, {"Board": Board}) == board, text
    # A board with cell labels (from networkx) is rebuilt field by field, labels included.
    import networkx as nx
    labelled = Board.from_networkx(nx.path_graph(["a", "b", "c"]), {"b": 1}, mines=1)
    assert eval(repr(labelled), {"Board": Board}) == labelled and "labels=('a', 'b', 'c')" in repr(labelled)
    text = repr(boards[0])
    assert text == "Board.from_text('''\\\nmines: 2\n#1#\n#2#\n###\n''')"
    assert "#1#\n#2#\n###" in text                       # the grid, as it looks
    assert repr(boards[5]) == "Board.from_graph(3, [(0, 1), (1, 2)], '#2#', mines=2)"


def test_repr_of_a_huge_board_is_bounded_and_says_it_is_abbreviated() -> None:
    from minegraph.board import REPR_CELLS, REPR_COLS, REPR_ROWS
    board = Board.grid(1000, 1000, [HIDDEN] * 1_000_000, mines=1000)
    text = repr(board)
    lines = text.splitlines()
    assert lines[0].startswith("<Board 1000x1000 square: 1000000 cells, 1000000 hidden, total "
                               "mines 1000; abbreviated past 2500 cells")
    assert lines[1:-1] == ["#" * REPR_COLS + "…"] * REPR_ROWS and lines[-1] == "… 990 more rows>"
    assert len(text) < 1000
    # Just past the limit: abbreviated; at it: whole.
    assert repr(Board.grid(1, REPR_CELLS + 1, "#" * (REPR_CELLS + 1))).startswith("<Board 1x2501")
    assert repr(Board.grid(1, REPR_CELLS, "#" * REPR_CELLS)).startswith("Board.from_text(")
    chain = Board.from_graph(REPR_CELLS + 1, [(i, i + 1) for i in range(REPR_CELLS)], "#" * (REPR_CELLS + 1))
    assert repr(chain) == ("<Board graph: 2501 cells, 2500 edges, 2501 hidden, total mines unknown; "
                           "abbreviated past 2500 cells or edges (minegraph.write_board(board, "
                           "'json') writes it whole)>")


# ----------------------------------------------------------------- from_networkx and labels (issue 9)

def test_from_networkx_keeps_the_nodes_as_labels() -> None:
    import networkx as nx
    g = nx.Graph([("x", "y"), ("y", "z")])
    b = Board.from_networkx(g, {"y": "2", "x": MINE}, mines=2)
    assert b.labels == ("x", "y", "z") and b.states == (MINE, 2, HIDDEN) and b.mines == 2
    assert b.neighbors == ((1,), (0, 2), (1,))
    assert [b.cell(i) for i in range(3)] == ["x", "y", "z"] and b.index("z") == 2
    assert b.label(1) == "'y'" and b.with_states("###").labels == b.labels
    # Nodes that are all ints are sorted; exactly 0..n-1 is the plain graph board.
    assert Board.from_networkx(nx.Graph([(2, 1), (1, 0)])) == Board.from_graph(3, [(0, 1), (1, 2)], "###")
    assert Board.from_networkx(nx.Graph([(5, 3)])).labels == (3, 5)
    # States from the node attribute and the total from the graph attribute by default.
    nx.set_node_attributes(g, {"y": 2}, "state")
    g.graph["mines"] = 2
    assert Board.from_networkx(g) == b.with_states([HIDDEN, 2, HIDDEN])
    nx.set_node_attributes(g, {"x": "13"}, "shown")
    with pytest.raises(BoardError, match="cell 'x': number 13 exceeds its 1 neighbours"):
        Board.from_networkx(g, attribute="shown")


def test_labels_built_field_by_field_are_checked() -> None:
    nbrs = ((1,), (0,))
    assert Board("graph", None, None, nbrs, (HIDDEN, 1), None, ["a", "b"]).labels == ("a", "b")
    assert Board("graph", None, None, nbrs, (HIDDEN, 1), None, (0, 1)).labels is None   # 0..n-1
    for labels, message in [(("a",), "expected 2 cell labels"), ("ab", "as a sequence"),
                            (("a", "a"), "cells 0 and 1 have the same label 'a'"),
                            ((1, True), "the same label True"), (([1], 2), "must be hashable")]:
        with pytest.raises(BoardError, match=message):
            Board("graph", None, None, nbrs, (HIDDEN, 1), None, labels)
    with pytest.raises(BoardError, match="only graph boards have cell labels"):
        Board("square", 1, 2, nbrs, (HIDDEN, 1), None, ("a", "b"))


def test_cells_of_a_labelled_board_are_named_by_label_only() -> None:
    b = Board("graph", None, None, ((1,), (0,)), (HIDDEN, 1), None, ("a", (0, 1)))
    assert b.index("a") == 0 and b.index((0, 1)) == 1 and b.index([0, 1]) == 1
    for cell, message in [(0, "no cell is labelled 0"), ("b", "no cell is labelled 'b'"),
                          ({}, "not hashable")]:
        with pytest.raises(BoardError, match=message):
            b.index(cell)
    with pytest.raises(MinegraphError, match=r"cell 1 is labelled \(0, 1\), a tuple"):
        b.json_labels()
    numbered = Board("graph", None, None, ((1,), (0,)), (HIDDEN, 1), None, (7, 1))
    assert numbered.json_labels() == [7, 1] and numbered.index(1) == 1
    with pytest.raises(BoardError, match="no cell is labelled True"):
        numbered.index(True)


def test_one_reader_of_typed_cells() -> None:
    """``Board.parse_cell`` is what the command line reads; the web's JSON cells reach the
    same cells through ``Board.index``."""
    import networkx as nx

    from minegraph.web.positions import _cell
    grid = Board.from_text("###\n###")
    assert grid.parse_cell("1,2") == _cell([1, 2], grid) == (1, 2)
    assert grid.parse_cell(" 0, 1") == (0, 1)
    graph = Board.from_graph(3, [(0, 1), (1, 2)], "###")
    assert graph.parse_cell("2") == _cell(2, graph) == 2
    labelled = Board.from_networkx(nx.path_graph(["a", "b", "c"]))
    assert labelled.parse_cell("b") == _cell("b", labelled) == "b"
    for board, text in [(grid, "2,0"), (grid, "1"), (grid, "a,b"), (grid, "1,2,3"),
                        (graph, "0,1"), (graph, "9"), (labelled, "d"), (grid, "9" * 5000)]:
        with pytest.raises(BoardError) as info:
            board.parse_cell(text)
        assert len(str(info.value)) < 200
