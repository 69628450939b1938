"""Paper tables: every generated table has exactly one solution, the planted layout (counted by
the exact engine); the row-by-row variant keeps its numbers from 0 and "all"; sizes the
theorems do not allow are refused with the condition."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import pytest

from minegraph import Board, analyze
from minegraph.board import HIDDEN, MINE
from minegraph.cli import main
from minegraph.errors import LimitError, UserError
from minegraph.generate.paper import (TheoremError, completed, open_cells, paper_table,
                                      theorem_condition)
from minegraph.linalg import certify, null_vector


def sizes(theorem: int, most: int) -> list[tuple[int, int]]:
    if theorem == 1:
        return [(2, n) for n in range(1, 3 * most) if (n + 1) % 3]
    out = []
    for m in range(1, most + 1):
        for n in range(1, most + 1):
            if theorem_condition(theorem, m, n) is None:
                if theorem == 3 and not certify(Board.grid(m, n, [0 if i in open_cells(3, m, n)
                                                                  else HIDDEN for i in range(m * n)],
                                                          topology="triangle")).full:
                    continue
                out.append((m, n))
    return out


def assert_unique(t) -> None:  # type: ignore[no-untyped-def]
    a = analyze(t.puzzle)
    assert a.solutions == 1
    assert a.completion_mines == t.layout
    assert a.completion == t.answer


@pytest.mark.parametrize("theorem", [1, 2, 3])
@pytest.mark.parametrize("variant", ["bernoulli", "rows"])
def test_every_table_has_one_solution_the_planted_one(theorem: int, variant: str) -> None:
    made = 0
    for m, n in sizes(theorem, 8):
        for seed in range(3):
            t = paper_table(theorem, m, n, seed=seed, variant=variant)
            assert t.certificate.full
            assert_unique(t)
            made += 1
    assert made > 40


@pytest.mark.parametrize("p", [Fraction(0), Fraction(1), Fraction(1, 5), 0.9])
def test_any_mine_probability(p: Fraction | float) -> None:
    t = paper_table(2, 6, 7, seed=5, p=p)
    hidden = set(t.puzzle.hidden)
    if p == 0:
        assert not t.layout
    elif p == 1:
        assert t.layout == hidden
    assert t.layout <= hidden
    assert_unique(t)


@pytest.mark.parametrize("theorem", [1, 2, 3])
def test_the_row_variant_avoids_0_and_all(theorem: int) -> None:
    """Where the paper says it avoids them (a number whose last hidden neighbour is decided
    with the number at stake), no number is 0 or its count of hidden neighbours, hence never
    the count of all its neighbours either."""
    checked = unguarded = 0
    for m, n in sizes(theorem, 9):
        for seed in range(4):
            t = paper_table(theorem, m, n, seed=seed, variant="rows")
            board = t.puzzle
            for a in open_cells(theorem, m, n):
                around = board.neighbors[a]
                hidden = [q for q in around if board.states[q] == HIDDEN]
                if a in t.unguarded:
                    unguarded += 1
                    # the documented causes only: one hidden neighbour, or a shared last cell
                    if len(hidden) >= 2:
                        last = max(hidden)
                        others = [b for b in open_cells(theorem, m, n) if b != a and
                                  max((q for q in board.neighbors[b]
                                       if board.states[q] == HIDDEN), default=-1) == last]
                        assert others, (theorem, m, n, seed, a)
                    continue
                checked += 1
                assert 0 < board.states[a] < len(hidden), (theorem, m, n, seed, a)
                assert board.states[a] not in (0, len(around))
    assert checked > 10 * unguarded


def test_the_row_variant_changes_only_what_is_at_stake() -> None:
    """Each cell draws its trial in both variants: the variant moves few mines."""
    plain = paper_table(2, 20, 21, seed=9)
    rows = paper_table(2, 20, 21, seed=9, variant="rows")
    assert 0 < len(plain.layout ^ rows.layout) < len(plain.puzzle.hidden) // 3
    values = [s for s in plain.puzzle.states if s >= 0]
    assert 0 in values or 4 in values


def test_same_seed_same_table() -> None:
    assert paper_table(3, 9, 9, seed=4) == paper_table(3, 9, 9, seed=4)
    assert paper_table(3, 9, 9, seed=4).puzzle != paper_table(3, 9, 9, seed=5).puzzle


@pytest.mark.parametrize("theorem, rows, cols, message", [
    (1, 3, 4, "Theorem 1 is about 2 x n grids, but the size has 3 rows"),
    (1, 2, 8, r"Theorem 1 needs n \+ 1 not divisible by 3, but 8 \+ 1 = 9 is"),
    (2, 5, 5, r"Theorem 2 needs gcd\(m \+ 1, n \+ 1\) = 1, but gcd\(6, 6\) = 6"),
    (2, 3, 5, r"gcd\(4, 6\) = 2"),
    (3, 3, 4, "Theorem 3 needs m \\+ 1 and n \\+ 1 not divisible by 4, but m \\+ 1 = 4 is"),
    (3, 4, 7, "but n \\+ 1 = 8 is"),
    (3, 2, 2, "Theorem 3's condition holds for 2x2, but the table is not unique for every layout"),
    (3, 4, 5, "rank 9 of 10 unknowns"),
    (4, 2, 2, "unknown theorem 4"),
    (2, 0, 3, "positive whole number of rows"),
])
def test_sizes_the_theorems_do_not_allow(theorem: int, rows: int, cols: int, message: str) -> None:
    with pytest.raises(TheoremError, match=message):
        paper_table(theorem, rows, cols)


def test_a_null_space_certificate_makes_13x6() -> None:
    """13x6 meets Theorem 3's condition and its rank falls short by one, yet no two layouts
    give the same numbers: its null vector has entries of sizes 1 to 6, so no multiple of it
    is a difference of two layouts (docs/puzzles.md). That is a certificate, so the table is
    made, and says which certificate backs it; 2x2, where two layouts do share the numbers,
    is still refused as not unique."""
    table = Board.grid(13, 6, [0 if i in open_cells(3, 13, 6) else HIDDEN for i in range(78)],
                       topology="triangle")
    assert certify(table).nullity == 1 and null_vector(table) is None     # SAT: no twins
    hidden = [i for i in range(78) if i not in open_cells(3, 13, 6)]
    for seed in range(3):
        t = paper_table(3, 13, 6, seed=seed)
        assert (t.certified_by, t.certificate.rank, t.certificate.unknowns) == ("null space", 38, 39)
        vector = t.null_vector
        assert vector is not None and len(vector) == len(hidden) == 39
        # The vector is in the null space: every number's hidden neighbours sum to 0 on it ...
        for cell in open_cells(3, 13, 6):
            assert sum(vector[hidden.index(q)] for q in t.puzzle.neighbors[cell] if q in hidden) == 0
        # ... and its non-zero entries have several sizes, so t * vector is never a 0/±1 vector.
        assert {abs(v) for v in vector} - {0} == {1, 2, 3, 4, 5, 6}
        assert "sizes 1 to 6" in t.certificate_text() and "unique for every layout" in t.certificate_text()
        # The exact engine agrees: one solution, the planted layout.
        a = analyze(t.puzzle)
        assert a.solutions == 1
        assert {i for i, s in enumerate(a.completion.states) if s == MINE} == t.layout
    assert paper_table(2, 2, 3).certified_by == "full rank"
    with pytest.raises(TheoremError, match="two layouts give the same numbers"):
        paper_table(3, 2, 2)


def test_limits_and_bad_arguments() -> None:
    with pytest.raises(LimitError):
        paper_table(2, 1001, 2)
    with pytest.raises(UserError, match="probability"):
        paper_table(2, 2, 3, p=1.5)
    with pytest.raises(UserError, match="unknown variant"):
        paper_table(2, 2, 3, variant="columns")


def test_large_tables_are_certified() -> None:
    t = paper_table(2, 200, 199, seed=1)
    assert t.certificate.full and t.certificate.reduced is not None
    t = paper_table(3, 30, 30, seed=1)
    assert t.certificate.full and t.puzzle.topology == "triangle"


def test_completed() -> None:
    b = Board.from_text("#2#\n###")
    done = completed(b, frozenset({0, 2}))
    assert done.states == (MINE, 2, MINE, 1, 2, 1)


# ----------------------------------------------------------------- the command line

def test_cli_paper_contract(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answer, svg, sheet = tmp_path / "key.txt", tmp_path / "t.svg", tmp_path / "a.svg"
    assert main(["generate", "paper", "--theorem", "3", "--size", "5x6", "--seed", "7",
                 "--answer", str(answer), "--svg", str(svg), "--answer-svg", str(sheet)]) == 0
    out = capsys.readouterr().out
    assert "\ntopology: triangle\n" in out
    puzzle = Board.from_text(out)
    t = paper_table(3, 5, 6, seed=7)
    assert puzzle == t.puzzle
    key = Board.from_text(answer.read_text())
    assert {i for i, s in enumerate(key.states) if s == MINE} == t.layout
    assert [s for s in key.states if s >= 0 and s != MINE][:1]
    assert svg.read_text().startswith("<svg") and sheet.read_text().count('class="mine"') == len(t.layout)


def test_cli_paper_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "paper", "--theorem", "1", "--size", "2x7", "--seed", "3",
                 "--count", "3", "--variant", "rows", "--svg", str(tmp_path / "s.svg")]) == 0
    out = capsys.readouterr().out
    parts = out.split("\n\n")
    assert len(parts) == 3
    assert [Board.from_text(p) for p in parts] == [paper_table(1, 2, 7, seed=s, variant="rows").puzzle
                                                    for s in (3, 4, 5)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s-3.svg", "s-4.svg", "s-5.svg"]


@pytest.mark.parametrize("args, message", [
    (["--theorem", "2", "--size", "5x5"], "gcd(6, 6) = 6"),
    (["--theorem", "3", "--size", "2x4"], "Theorem 3's condition holds for 2x4"),
    (["--theorem", "1", "--size", "2x5"], "5 + 1 = 6 is"),
    (["--theorem", "2", "--size", "5"], "expected the size as ROWSxCOLS"),
    (["--theorem", "5", "--size", "5x6"], "invalid choice"),
])
def test_cli_paper_errors(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) if "invalid" in message or "ROWS" in message else _nothing():
        status = main(["generate", "paper", *args])
        assert status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and err.startswith("minegraph: error: ")


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return False


def test_theorem_condition_matches_gcd() -> None:
    for m in range(1, 12):
        for n in range(1, 12):
            assert (theorem_condition(2, m, n) is None) == (math.gcd(m + 1, n + 1) == 1)


def test_the_published_triangle_table_is_the_certified_one() -> None:
    """docs/puzzles.md's table of triangle checkerboard sizes agrees with the certificates
    (checked here up to 16x16; the table was made by the same function up to 30x30)."""
    text = (Path(__file__).parents[2] / "docs" / "puzzles.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| ") and line[2].isdigit()
            and "✓" in line]
    table = {}
    for line in rows:
        cells = [c.strip() for c in line.strip("|").split("|")]
        m = int(cells[0])
        for n, value in enumerate(cells[1:], start=1):
            table[m, n] = 0 if value == "✓" else int(value)
    assert len(table) == 900
    for m in range(1, 17):
        for n in range(1, 17):
            board = Board.grid(m, n, [0 if (i // n + i % n) % 2 == 0 else HIDDEN
                                      for i in range(m * n)], topology="triangle")
            assert certify(board).nullity == table[m, n], (m, n)
