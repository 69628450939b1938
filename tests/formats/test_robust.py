"""Issue 9, the readers: no silent misreads, refusals with hints, bounded work on hostile sizes.

Every input here is hand-written with the board (or the error and its place) it must give.
"""

from __future__ import annotations

import json

import pytest

from minegraph.board import BLANK, HIDDEN, MAX_CELLS, MINE, Board
from minegraph.errors import FormatError, LimitError, UserError
from minegraph.formats import read_board
from minegraph.formats import json as json_format
from minegraph.formats.json import read_json
from minegraph.formats.mine import read_mine
from minegraph.formats.numeric import read_numeric
from minegraph.formats.text import read_text

H, M, B = HIDDEN, MINE, BLANK


class TestAmbiguousWhitespace:
    """Whitespace that could stand for cells is refused with its place; consistent spacing is a
    dialect that reads right."""

    def test_row_of_spaces_is_refused_not_dropped(self, gen) -> None:
        # The example: read as a 4-row board before.
        gen.raises_at(read_text, "###\n#1#\n   \n#1#\n###", 3, 1, "blank line inside the grid")

    def test_empty_line_inside_the_grid(self, gen) -> None:
        gen.raises_at(read_text, "###\n#1#\n\n#1#\n###", 3, 1, "may be a row of uncovered cells")
        # With a comment between, the blank line is still found and numbered.
        gen.raises_at(read_text, "###\n; note\n\t\n#1#", 3, 1, "blank line inside the grid")

    def test_blank_lines_around_the_grid_are_fine(self) -> None:
        board = read_text("\n  \nmines: 1\n\n#1\n; a comment inside\n11\n\n   \n")
        assert board == Board.grid(2, 2, [H, 1, 1, 1], mines=1)

    def test_uneven_gap_inside_a_row(self, gen) -> None:
        # Skipped before: "# 1  #" was read as three cells.
        gen.raises_at(read_text, "# 1  #\n# 1 #", 1, 5, "the row's first cells are separated by one space")
        gen.raises_at(read_text, "#1  #\n#1#", 1, 3, "written together at the start of the row")

    def test_rows_spaced_differently(self, gen) -> None:
        gen.raises_at(read_text, "#1#\n# 1 #", 2, 2,
                      "cells are separated by one space here but written together in the rows above")
        gen.raises_at(read_text, "# 1\n#\t1", 2, 2, "separated by a tab here but separated by one space")

    def test_rows_indented_differently(self, gen) -> None:
        # A leading space may be an uncovered cell: " 1#" under "#1#" is ambiguous.
        gen.raises_at(read_text, "#1#\n 1#", 2, 1, "the row is indented by ' ' but the first row is not")

    def test_space_separated_cells_read_right(self) -> None:
        expected = Board.grid(3, 3, [H, H, H, H, 1, H, M, B, 0], mines=1)
        assert read_text("mines: 1\n# # #\n# 1 #\nM - 0") == expected
        assert read_text("mines: 1\n#\t#\t#\n#\t1\t#\nM\t-\t0") == expected
        assert read_text("mines: 1\n#  #  #\n#  1  #\nM  -  0") == expected
        # Common indentation (a pasted code block) and trailing spaces are not cells.
        assert read_text("mines: 1\n    ###  \n    #1#\n    M-0 ") == expected

    def test_indentation_that_may_be_uncovered_cells_is_refused(self, gen) -> None:
        # Issue 22: read as 3x3 before, every coordinate off by one. A column of 0s whose
        # symbols were lost leaves the same indentation on every row, and a 0's neighbours are
        # uncovered: rows that all start with an uncovered cell may be one column wider.
        gen.raises_at(read_text, " 1##\n 1##\n 11#\n", 1, 1, "indentation may be 1 column of "
                      "uncovered cells")
        error = gen.raises_at(read_text, "mines: 3\n; a comment\n    1##\n    1##\n    11#", 3, 1,
                              "may be 4 columns of uncovered cells")
        assert "remove the indentation" in str(error) and "write those cells as 0 or -" in str(error)
        gen.raises_at(read_text, "\t--1#\n\t-12#", 1, 1, "uncovered cells whose symbols were lost")
        gen.raises_at(read_text, "  1\n  1", 1, 1, "may be 2 columns")       # one column of cells
        gen.raises_at(lambda t: read_text(t, dialect="ascii"), " .1x\n .1x", 1, 1, "may be 1 column")
        gen.raises_at(read_json, '{"cells": ["  1#", "  1#"]}', None, 1, "may be 2 columns",
                      path="$.cells[0]")
        gen.raises_at(read_board, b" 1##\n 1##\n 11#\n", 1, 1, "may be 1 column")

    def test_indentation_that_cannot_be_cells_is_read(self) -> None:
        # A hidden cell or a mine cannot lie next to an uncovered 0, so when some row starts
        # with one the common indentation is not cells (a pasted code block).
        assert read_text("   1##\n   #1#\n   11#") == Board.grid(3, 3, [1, H, H, H, 1, H, 1, 1, H])
        assert read_text(" M1\n 11") == Board.grid(2, 2, [M, 1, 1, 1])
        assert read_text("\t#\n\t1").states == (H, 1)
        assert read_json({"cells": ["  1#", "  ##"]}).states == (1, H, H, H)
        # Separated cells: the separator, not the indentation, says where the cells are.
        assert read_text("  1 #\n  1 #").states == (1, H, 1, H)
        # Not indented: nothing to decide.
        assert read_text("1##\n1##\n11#").cols == 3

    def test_one_column_boards_need_no_separator(self) -> None:
        assert read_text("#\n1\n1").states == (H, 1, 1)

    def test_json_rows_follow_the_same_rules(self, gen) -> None:
        assert read_json({"cells": ["# 1", "1 1"]}).states == (H, 1, 1, 1)
        gen.raises_at(read_json, '{"cells": ["#1#", "# 1 #"]}', None, 2, "separated by one space here",
                      path="$.cells[1]")
        gen.raises_at(read_json, '{"cells": ["# 1  #"]}', None, 5, "the row's first cells are separated",
                      path="$.cells[0]")


class TestIntegerLists:
    """Lines of integers that are not a board (edge lists, adjacency lists, a numeric grid
    without its header) are refused with the format that would read them."""

    def test_edge_list_is_refused_with_a_hint(self, gen) -> None:
        # Read as a 3x2 grid of numbers (and reported inconsistent) before.
        error = gen.raises_at(read_board, "0 1\n1 2\n2 3", 1, 1, "not board cells")
        assert "JSON graph board" in str(error) and "edge list" in str(error)

    def test_multi_digit_and_ragged_integer_lists(self, gen) -> None:
        gen.raises_at(read_text, "0 1\n1 12\n", 1, 1, "an edge list or adjacency list is a graph")
        gen.raises_at(read_text, "0 1 2\n1 0\n", 1, 1, "an edge list or adjacency list is a graph")

    def test_fully_uncovered_board_written_with_spaces(self, gen) -> None:
        # Integers only, with spaces: refused, with the way to write such a board.
        gen.raises_at(read_text, "1 1\n1 1", 1, 1, "written without spaces, e.g. '11'")
        assert read_text("11\n11").states == (1, 1, 1, 1)

    def test_a_board_with_hidden_cells_and_spaces_is_a_board(self) -> None:
        assert read_text("0 1\n1 #").states == (0, 1, 1, H)

    def test_integer_lists_detected_as_numeric_say_so(self) -> None:
        # An adjacency list whose first line has three integers looks like a numeric grid.
        with pytest.raises(FormatError) as info:
            read_board("0 1 2\n1 0\n2 0")
        assert str(info.value).startswith("line 1, column 1: a board needs at least one row, got 0")
        assert "this was read as a numeric grid" in str(info.value)
        assert "JSON graph board" in str(info.value)
        # An explicit format is not second-guessed or annotated.
        with pytest.raises(FormatError) as explicit:
            read_board("0 1 2\n1 0\n2 0", format="numeric")
        assert "this was read" not in str(explicit.value)



class TestHintsNameTheCause:
    """Issue 22: three inputs got a hint about something else. ``mines=1`` was "unknown symbol
    'm'", ``# my board`` a complaint about the spacing of cells, and rows of ``0 0 0`` (a board
    of uncovered numbers written with spaces, detected as a numeric grid) a note about edge
    lists."""

    @pytest.mark.parametrize("line, fixed", [("mines=1", "mines: 1"), ("Mines = 10", "mines: 10"),
                                             ("mines 1", "mines: 1"), ("topology=hex", "topology: hex"),
                                             ("dialect = dots", "dialect: dots")])
    def test_a_header_without_its_colon(self, gen, line, fixed) -> None:
        error = gen.raises_at(read_board, f"{line}\n1#\n##\n", 1, 1, f"write it '{fixed}'")
        assert "unknown symbol" not in str(error) and "key: value" in str(error)
        # After the grid, the same, and where headers go.
        error = gen.raises_at(read_text, f"1#\n##\n{line}\n", 3, 1, f"write it '{fixed}'")
        assert "before the grid rows" in str(error)

    @pytest.mark.parametrize("text, line", [("# my board\n1#\n##\n", 1), ("#my board\n1#\n##", 1),
                                            ("1#\n##\n# the end\n", 3), ("// my board\n1#\n##", 1)])
    def test_a_comment_that_starts_with_a_hash(self, gen, text, line) -> None:
        error = gen.raises_at(read_board, text, line, 1, "comment lines start with ';'")
        assert "separated" not in str(error) and "'#' is a hidden cell" in str(error) or \
            text.startswith("//")
        # Written as the format says, it reads.
        fixed = text.replace("# ", "; ", 1).replace("#my", "; my", 1).replace("//", ";", 1)
        assert read_board(fixed).states == (1, H, H, H)

    def test_grid_rows_are_not_taken_for_comments(self, gen) -> None:
        # Rows of symbols only keep their own messages.
        gen.raises_at(read_text, "# 1\n#1#", 2, 3, "row has 3 cells but the first row has 2")
        gen.raises_at(read_text, "# 1 #\n#1#", 2, 2, "written together here")
        gen.raises_at(read_text, "#@#\n###", 1, 2, "unknown symbol '@'")
        # Letters a dialect reads are cells, with their own hint.
        gen.raises_at(read_text, "#xx1\n####", 1, 2, "'x' is a hidden cell in some boards")

    @pytest.mark.parametrize("text", ["0 0 0\n0 0 0\n", "0 0 0\n0 0 0\n0 0 0\n", "0\t0\t0\n0\t0\t0",
                                      "0 0 0 0\n\n0 0 0 0\n"])
    def test_zeros_written_with_spaces(self, text) -> None:
        # The first line of three integers made them a numeric grid whose header is that line.
        # A board whose cells are all uncovered numbers is consistent only when they are 0s:
        # an opened region, its spaces taken for separators.
        with pytest.raises(FormatError) as info:
            read_board(text)
        message = str(info.value)
        cause = message.index("a board of uncovered 0s written with spaces")
        assert "(e.g. '000')" in message or "(e.g. '0000')" in message
        assert ("header 'rows cols mines'" in message) == (len(text.split("\n")[0].split()) == 3)
        # The graph formats may still be mentioned, but after the likely cause.
        assert "edge list" not in message[:cause]
        # Without spaces it is the board that was meant.
        written = text.replace(" ", "").replace("\t", "").replace("\n\n", "\n")
        assert read_board(written).states == tuple(int(ch) for ch in text if ch.isdigit())

    def test_two_numbers_a_row_written_with_spaces(self, gen) -> None:
        # Not detected as numeric (two integers a line): the text reader names the same cause first.
        error = gen.raises_at(read_board, "0 0\n0 0\n", 1, 1, "a board of uncovered 0s written with spaces")
        assert str(error).index("written with spaces") < str(error).index("edge list")

    def test_edge_lists_keep_their_hint(self) -> None:
        with pytest.raises(FormatError) as info:
            read_board("0 1 2\n1 0\n2 0")
        assert "edge list" in str(info.value) and "written with spaces" not in str(info.value)
        for graph in ("0 1\n1 12\n2 3", "0 1\n1 2\n2 3", "0 1 2\n1 0 2\n2 0 1"):
            with pytest.raises(FormatError) as info:
                read_board(graph)
            assert "written with spaces" not in str(info.value) and "edge list" in str(info.value)

class TestAsciiNumbers:
    """Numbers are ASCII digits only: ``int()`` would read ``1_0`` as 10 and ``٣`` as 3."""

    @pytest.mark.parametrize("value", ["٣", "1_0", "+3", "３", "3.0"])
    def test_text_mines_header(self, gen, value) -> None:
        gen.raises_at(read_text, f"mines: {value}\n###\n###", 1, 8,
                      f"expected a whole number of mines, got {value!r}")

    def test_text_mines_header_with_thousands_of_digits(self, gen) -> None:
        # int() fails past 4,300 digits with a ValueError; the reader refuses it with its place.
        gen.raises_at(read_text, "mines: " + "9" * 5000 + "\n#", 1, 8, "(5000 characters)")

    @pytest.mark.parametrize("text, column", [("1_0 2 0\n9 9", 1), ("2 ٢ 0\n9 9\n9 9", 3),
                                              ("1 2 " + "9" * 5000 + "\n9 9", 5)])
    def test_numeric_header(self, gen, text, column) -> None:
        gen.raises_at(read_numeric, text, 1, column, "expected the number of")

    def test_numeric_cells(self, gen) -> None:
        gen.raises_at(read_numeric, "1 2 0\n9 ٣", 2, 3, "got '٣'")

    def test_mine_header_with_too_many_digits(self, gen) -> None:
        gen.raises_at(read_mine, "2x1x" + "0" * 30 + "1" + "9" * 20 + "\nHH", 1, 5, "too large for a board")
        gen.raises_at(read_mine, "2x١x1\nHH", 1, 3, "expected the header 'WxHxM'")

    def test_leading_zeros_are_still_numbers(self) -> None:
        assert read_text("mines: " + "0" * 30 + "1\n#1").mines == 1


class TestSymbolsAndDialects:
    """Pasted symbols: ``?`` (unknown) and ``F`` (flag) read right; ``.`` and ``x``, which mean
    different things in different sources, need a dialect."""

    def test_question_mark_is_hidden_and_flag_is_a_mine(self) -> None:
        assert read_text("?1F\n?11").states == (H, 1, M, H, 1, 1)
        assert read_json({"cells": 2, "edges": [[0, 1]], "states": ["?", "F"]}).states == (H, M)

    @pytest.mark.parametrize("symbol, words", [(".", "dialect 'ascii' (. = 0) or 'dots' (. = hidden)"),
                                               ("x", "dialect 'ascii' (x = hidden)"),
                                               ("X", "a hidden cell in some boards and a mine in others")])
    def test_ambiguous_symbols_are_refused_with_a_hint(self, gen, symbol, words) -> None:
        # "." was silently an uncovered 0 and "x" a hidden cell before.
        gen.raises_at(read_text, f"#1#\n#1{symbol}", 2, 3, words)

    def test_dialects_read_right(self) -> None:
        assert read_text(".1.\n.1.", dialect="dots").states == (H, 1, H, H, 1, H)
        assert read_text("x1.\n*1.", dialect="ascii").states == (H, 1, 0, M, 1, 0)
        assert read_board("..1\n..1", dialect="dots") == Board.grid(2, 3, [H, H, 1, H, H, 1])

    def test_dialect_header(self, gen) -> None:
        assert read_text("dialect: dots\nmines: 1\n.1\n11").states == (H, 1, 1, 1)
        assert read_text("Dialect: ASCII\n.x\n11").states == (0, H, 1, 1)
        gen.raises_at(read_text, "dialect: emoji\n#", 1, 10, "unknown dialect 'emoji'")
        gen.raises_at(lambda t: read_text(t, dialect="ascii"), "dialect: dots\n.", 1, 10,
                      "the text says dialect 'dots' but the 'ascii' dialect was asked for")

    def test_dots_dialect_still_refuses_x(self, gen) -> None:
        gen.raises_at(lambda t: read_text(t, dialect="dots"), ".x", 1, 2, "'x' is a hidden cell in some")

    def test_unknown_dialect_name(self) -> None:
        with pytest.raises(UserError, match="unknown dialect 'emoji'; expected one of standard, ascii, dots"):
            read_text("#", dialect="emoji")

    def test_dialect_with_a_format_without_dialects(self) -> None:
        with pytest.raises(UserError, match="the mine format has fixed symbols and takes no dialect"):
            read_board("1x1x0\nH", dialect="ascii")

    def test_json_dialects(self, gen) -> None:
        assert read_json('{"cells": [".1"]}', dialect="dots").states == (H, 1)
        gen.raises_at(read_json, '{"cells": 2, "edges": [], "states": ["#", "."]}', None, None,
                      "'.' is an uncovered 0 in some boards", path="$.states[1]")

    def test_writer_emits_canonical_symbols(self) -> None:
        board = read_text("dialect: ascii\nx.\n11")
        assert board.to_text() == "#0\n11\n"


class TestDuplicateJsonKeys:
    """``json`` keeps the last of two equal keys; the reader refuses them."""

    def test_duplicate_key(self, gen) -> None:
        gen.raises_at(read_json, '{"mines": 1, "cells": ["#1"], "mines": 2}', None, None,
                      "key 'mines' given twice")


class TestBoundedWork:
    """Sizes are checked while reading, before the board is built: an oversize board is refused
    at the row (or declared size) that crosses the limit, so what follows is never read.

    Each input is oversize at its start and broken further on; a reader that built the whole
    board first would report the break (or run out of memory) instead of the size.
    """

    def test_text_refused_at_the_row_that_crosses_the_limit(self) -> None:
        width = 5000
        rows = "\n".join("#" * width for _ in range(MAX_CELLS // width + 1))
        with pytest.raises(LimitError, match=r"^line 201: board of at least 201x5000 cells exceeds"):
            read_text(rows + "\n@@@ broken\n")

    def test_text_row_wider_than_the_limit(self) -> None:
        with pytest.raises(LimitError, match=r"^line 2: board of at least 1x1000001 cells"):
            read_text("mines: 1\n" + "#" * (MAX_CELLS + 1) + "\n@")

    def test_json_declared_size_refused_before_parsing(self) -> None:
        broken = ', "cells": ["#", "@'  # not even valid JSON
        with pytest.raises(LimitError, match=r"^\$\.rows, \$\.cols: board of 5000x5000 cells exceeds"):
            read_json('{"rows": 5000, "cols": 5000' + broken)
        with pytest.raises(LimitError, match=r"^\$\.cells: graph of 2000000 cells exceeds"):
            read_json('{"cells": 2000000, "edges": [[0, 1], [' + broken)
        with pytest.raises(LimitError, match=r"graph of a 5000-digit number cells"):
            read_json('{"cells": ' + "9" * 5000 + ', "states": []}')

    def test_json_grid_refused_at_the_first_row(self) -> None:
        # The list's length times the first row's width is over the limit: no row is mapped.
        cells = ["#" * 2000] + ["@"] * 600
        with pytest.raises(LimitError, match=r"^\$\.cells: board of 601x2000 cells exceeds"):
            read_json({"cells": cells})

    def test_json_counts_refuse_before_parsing(self, monkeypatch) -> None:
        monkeypatch.setattr(json_format, "MAX_EDGES", 3)
        edges = json.dumps([[0, 1], [1, 2], [2, 3], [3, 4], [4, 5]])
        with pytest.raises(LimitError, match=r"^\$\.edges: the JSON holds 6 lists, more than a board"):
            read_json('{"cells": 6, "edges": ' + edges + ', "states": "not even a list"}')
        monkeypatch.setattr(json_format, "MAX_JSON_CHARS", 10)
        with pytest.raises(LimitError, match="a JSON text of 12 characters exceeds the limit of 10"):
            read_json('{"cells": 1}')

    def test_json_flat_value_lists_over_a_mebibyte(self, gen) -> None:
        values = ", ".join(["1000"] * 300_000)
        gen.raises_at(read_json, '{"cells": [' + values + "]}", None, None,
                      "more than its rows, states and [u, v] edges can account for", path="$")
        # Below the threshold the reader's own message is precise.
        gen.raises_at(read_json, '{"cells": [1, 2]}', None, None, "expected a row string", path="$.cells[0]")

    def test_mine_and_numeric_refuse_extra_rows_at_the_first(self, gen) -> None:
        more = "the header says 1 rows, but there are more"
        gen.raises_at(read_mine, "2x1x0\nHH\nHH\n\x00 broken", 3, 1, more)
        gen.raises_at(read_numeric, "1 2 0\n9 9\n9 9\n\x00", 3, 1, more)

    def test_numeric_row_with_far_too_many_values(self, gen) -> None:
        gen.raises_at(read_numeric, "1 2 0\n" + "9 " * 100_000, 2, 5,
                      "row has more than 10000 values, expected 2")


class TestBytes:
    """Bytes are read as UTF-8; anything else is a FormatError naming its place."""

    def test_binary_board_file(self, gen) -> None:
        gen.raises_at(read_board, b"#1\n1\xff", 2, 2, "not UTF-8 text: byte 0xff")
        gen.raises_at(read_json, b'{"cells": ["\xc3"]}', 1, 13, "not UTF-8 text: byte 0xc3")

    def test_utf16_is_named(self, gen) -> None:
        # Issue 22: a board saved as UTF-16 (Windows Notepad's "Unicode") was "byte 0xff cannot
        # be decoded (a binary file?)", or, without a byte-order mark, unknown symbols '\x00'.
        text = "mines: 1\n#1\n11\n"
        for data in (text.encode("utf-16"), text.encode("utf-16-le"), text.encode("utf-16-be"),
                     b"\xfe\xff" + text.encode("utf-16-be")):
            error = gen.raises_at(read_board, data, 1, 1, "not UTF-8 text: this is UTF-16")
            assert "save it as UTF-8" in str(error), str(error)
        gen.raises_at(read_json, '{"cells": ["#1"]}'.encode("utf-16"), 1, 1, "this is UTF-16")
        # A NUL byte here and there is not UTF-16: the reader names the symbol as before.
        gen.raises_at(read_board, b"#1\n1\x00", 2, 2, "unknown symbol")

    def test_utf8_bytes_and_byte_order_mark(self) -> None:
        assert read_board("\ufeff#◇\n11".encode()) == Board.grid(2, 2, [H, B, 1, 1])
        assert read_json(b'{"cells": ["#1"]}').states == (H, 1)
