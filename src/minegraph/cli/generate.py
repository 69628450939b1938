"""``minegraph generate``: puzzles to print or play.

``generate paper --theorem 1|2|3 --size RxC --seed S [--variant rows] [--answer FILE] [--svg FILE]``
prints a table of German & Lakshtanov (2010) in the canonical board text (hidden cells ``#``,
the numbers, the ``topology:`` header for triangle tables), with comment lines (``;``) giving
how it was made, its rank certificate and its difficulty grade; ``--answer`` writes the answer
key in the same text (mines ``M``). A size the theorem does not allow exits with status 2 and
the violated condition.

``--count K`` makes K puzzles, seeds ``S .. S+K-1``, separated by blank lines (a progress bar
on a terminal), on ``--workers`` processes if given (a process pool, as ``minegraph bench``),
or on a Dask cluster with ``--scheduler ADDRESS`` (the output is in seed order and the same
either way); ``--svg``/``--answer-svg``
then write one file per puzzle, the seed added to the name (``sheet-7.svg``).

``generate unique --size RxC --mines N --seed S [--topology T] [--no-total]`` prints a puzzle with
exactly one solution and a minimal set of numbers (:mod:`minegraph.generate.unique`), with the
total mine count unless ``--no-total``.

``generate noguess --size RxC --mines N --rules classic|modern --first R,C --seed S
[--level L] [--method auto|filter|repair] [--no-total] [--max-attempts N] [--sample N]``
prints the position after the first click of a layout that the deduction-only player solves
without a guess (:mod:`minegraph.generate.noguess`; drawn until one is solved, then repaired
where the player is stuck, :mod:`minegraph.generate.repair`), with the generation time and the
retries; the answer file has the mine layout. ``--level evf`` is the replay format EVF's
no-guess (any deduction, without the total). With ``--method filter`` the command first plays
``--sample`` layouts and prints on standard error the share solved and the time a board it
implies (:mod:`minegraph.generate.estimate`); ``--estimate-only`` prints just that.

Examples
--------
``minegraph generate paper --theorem 2 --size 9x10 --seed 1 --answer key.txt --svg sheet.svg``
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Iterator

from minegraph.cli.common import cell_argument, seed_number, whole_number
from minegraph.errors import MinegraphError
from minegraph.parallel import Progress, ordered_map
from minegraph.present import output_width, shown, wrap_text

if TYPE_CHECKING:
    from minegraph.board import Board
    from minegraph.cli.common import Subparsers

__all__ = ["register", "run", "produce", "Made", "size_argument"]

HELP = "make puzzles: certified paper tables, unique puzzles, no-guess boards"

#: The largest --count.
MAX_COUNT = 100_000


@dataclass(frozen=True)
class Made:
    """One generated puzzle as the command writes it.

    Attributes
    ----------
    seed : int
        The seed it was made from.
    puzzle : Board
        The puzzle as printed: a paper table or unique puzzle, or a no-guess board's position
        after the first click.
    layout : frozenset of int
        The mined cells (the answer key).
    comments : tuple of str
        The comment lines written above the board (without their ``;``): how it was made, and
        its grade once graded.
    caption : str
        The one-line description under the SVG sheets (with the grade once graded).
    reveal : callable, optional
        A game's numbers for the grader (no-guess boards): cell -> its number; ``None``: a
        puzzle on paper.
    """

    seed: int
    puzzle: Board
    layout: frozenset[int]
    comments: tuple[str, ...]
    caption: str
    #: A game's numbers for the grader (no-guess boards); ``None``: a puzzle on paper.
    reveal: Callable[[int], int] | None = None


def size_argument(text: str) -> tuple[int, int]:
    """``RxC`` (rows x columns, e.g. ``9x10``) as two positive whole numbers.

    The ``type`` of the ``--size`` options.

    Parameters
    ----------
    text : str
        The option's value; the ``x`` may be upper case.

    Returns
    -------
    tuple of int
        ``(rows, cols)``, each from 1 to 1,000,000.

    Raises
    ------
    argparse.ArgumentTypeError
        when the text is not two such numbers joined by ``x`` (argparse reports it).

    Examples
    --------
    >>> size_argument("9x10")
    (9, 10)
    >>> size_argument("9 by 10")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected the size as ROWSxCOLS (e.g. 9x10), got '9 by 10'
    """
    parts = text.lower().split("x")
    side = whole_number(1, 10**6)
    try:
        rows, cols = (side(p) for p in parts)
    except (ValueError, argparse.ArgumentTypeError):
        raise argparse.ArgumentTypeError(f"expected the size as ROWSxCOLS (e.g. 9x10), got {shown(text)}") from None
    return rows, cols


def _probability(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"expected a probability from 0 to 1, got {shown(text)}")
    return value


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=seed_number, default=0, help="random seed (default 0)")
    p.add_argument("--count", type=whole_number(1, MAX_COUNT, "a count"), default=1,
                   help="make this many puzzles, seeds S, S+1, ... (default 1)")
    p.add_argument("--answer", metavar="FILE", help="write the answer key (mines as M) to FILE")
    p.add_argument("--svg", metavar="FILE", help="write a printable SVG of the puzzle to FILE")
    p.add_argument("--answer-svg", metavar="FILE", help="write the solution sheet (SVG) to FILE")
    p.add_argument("--no-grade", action="store_true",
                   help="do not grade the puzzles (grading plays each one through)")
    p.add_argument("--workers", type=whole_number(1, MAX_COUNT, "a count"), default=1,
                   help="worker processes for --count (default 1: this process)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="make the puzzles on a Dask cluster (tcp://host:8786) instead, as "
                        "minegraph bench does; the output is the same, in seed order")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def register(subparsers: Subparsers) -> None:
    """Add the ``generate`` subcommand and its kinds.

    Parameters
    ----------
    subparsers : Subparsers
        The command line's subcommands (``add_subparsers`` of the ``minegraph`` parser), to
        which ``generate`` is added with its kinds ``paper``, ``unique`` and ``noguess``.
    """
    from minegraph.cli.common import Formatter
    g = subparsers.add_parser(
        "generate", help=HELP, formatter_class=Formatter,
        description=HELP + ". Every table and puzzle is checked by the exact engine; "
                           "KIND --help lists each kind's options.",
        epilog="examples:\n"
               "  minegraph generate paper --theorem 2 --size 9x10 --seed 1 --answer key.board\n"
               "  minegraph generate unique --size 9x9 --mines 10 --seed 1\n"
               "  minegraph generate noguess --size 16x30 --mines 99 --rules modern --first 3,3 --seed 1")
    kinds = g.add_subparsers(dest="kind", metavar="KIND")
    kinds.required = True
    p = kinds.add_parser("paper", help="a table of German & Lakshtanov (2010), certified unique",
                         description="A table for paper Minesweeper: its numbers determine the "
                                     "mines whatever they are (certified by exact full rank, or "
                                     "by the null-space argument when the rank falls short by one; "
                                     "the comment line says which).",
                         epilog="example: minegraph generate paper --theorem 2 --size 9x10 --seed 1")
    p.add_argument("--theorem", type=int, choices=[1, 2, 3], required=True,
                   help="1: 2xn, top row uncovered, n+1 not divisible by 3; 2: checkerboard, "
                        "gcd(m+1, n+1) = 1; 3: triangle grid checkerboard, m+1 and n+1 not "
                        "divisible by 4 (certified sizes only)")
    p.add_argument("--size", type=size_argument, required=True, metavar="RxC",
                   help="rows x columns, e.g. 9x10")
    p.add_argument("--variant", choices=["bernoulli", "rows"], default="bernoulli",
                   help="rows: the paper's row-by-row variant avoiding numbers 0 and 'all' "
                        "(default bernoulli: one trial per hidden cell)")
    p.add_argument("--p", type=_probability, default=0.5, metavar="P",
                   help="mine probability of a hidden cell (default 0.5)")
    _common(p)
    from minegraph.cli.common import mine_count
    from minegraph.topology import TOPOLOGIES
    u = kinds.add_parser("unique", help="a random layout with a minimal set of numbers that "
                                        "determines it (checked by the exact engine)",
                         description="A puzzle with exactly one solution: from a random layout, "
                                     "numbers are removed while the exact engine still counts "
                                     "one solution, until none can be.",
                         epilog="example: minegraph generate unique --size 9x9 --mines 10 --seed 1")
    u.add_argument("--size", type=size_argument, required=True, metavar="RxC",
                   help="rows x columns, e.g. 9x9")
    u.add_argument("--mines", type=mine_count, required=True, metavar="N", help="number of mines")
    u.add_argument("--topology", choices=list(TOPOLOGIES), default="square",
                   help="grid topology (default square)")
    u.add_argument("--no-total", action="store_true",
                   help="do not give the total mine count: the numbers alone must determine the mines")
    _common(u)
    from minegraph.generate.estimate import DEFAULT_SAMPLE
    from minegraph.generate.noguess import AUTO_FILTER, LEVELS, MAX_ATTEMPTS, METHODS_OF_MAKING
    n = kinds.add_parser("noguess", formatter_class=Formatter,
                         help="a game layout a deduction-only player solves from "
                              "the first click without guessing",
                         description="A no-guess game board: layouts are drawn by the game "
                                     "engine under the rules and played from the first click by "
                                     "a player that never guesses, until one is solved.",
                         epilog="examples:\n"
                                "  minegraph generate noguess --size 16x30 --mines 99 "
                                "--rules modern --first 3,3 --seed 1\n"
                                "  minegraph generate noguess --size 16x30 --mines 170 "
                                "--seed 1 --no-total")
    n.add_argument("--size", type=size_argument, required=True, metavar="RxC",
                   help="rows x columns, e.g. 16x30 (expert)")
    n.add_argument("--mines", type=mine_count, required=True, metavar="N", help="number of mines")
    n.add_argument("--rules", choices=["classic", "modern"], default="classic",
                   help="classic: the first cell is safe; modern: it and its neighbours are "
                        "(default classic)")
    n.add_argument("--first", type=cell_argument, default=(0, 0), metavar="R,C",
                   help="the first cell, 0-based (default 0,0)")
    n.add_argument("--topology", choices=list(TOPOLOGIES), default="square",
                   help="grid topology (default square)")
    n.add_argument("--level", choices=list(LEVELS), default="search", metavar="LEVEL",
                   help=f"{', '.join(LEVELS)}: the strongest deduction the player may use "
                        "(default search: any "
                        "deduction; with the total mine count unless --no-total); evf: the "
                        "replay format EVF's no-guess (classic and strong no-guess layouts): "
                        "any deduction without the total")
    n.add_argument("--method", choices=list(METHODS_OF_MAKING), default="auto",
                   help="filter: draw layouts until one is solved (uniform among them; "
                        "slow above about 110 mines on 16x30: an estimate of the time is "
                        "printed first); repair: change a layout where "
                        "the player is stuck (any density, not uniform); auto (default): "
                        f"filter {AUTO_FILTER} layouts, then repair")
    n.add_argument("--max-attempts", type=whole_number(1, 10**12, "a count"),
                   default=MAX_ATTEMPTS, metavar="N",
                   help=f"layouts to draw before giving up (default {MAX_ATTEMPTS:,})")
    n.add_argument("--sample", type=whole_number(0, 10**9, "a count"), default=DEFAULT_SAMPLE,
                   metavar="N",
                   help="with --method filter: layouts played first to estimate the time a "
                        f"board takes, printed on standard error (default {DEFAULT_SAMPLE:,}; "
                        "0: no estimate)")
    n.add_argument("--estimate-only", action="store_true",
                   help="print the filter's estimate (on standard output) and make no board")
    n.add_argument("--no-total", action="store_true",
                   help="the player is not given the total mine count: the numbers alone "
                        "solve the board (the replay format EVF's 'no-guess')")
    _common(n)


def _total(args: argparse.Namespace) -> bool | None:
    """``--no-total``: without the total; otherwise the level's own (``None``)."""
    return False if getattr(args, "no_total", False) else None


def _level_note(level: str) -> str:
    return " (EVF's no-guess: any deduction)" if level == "evf" else ""


def _estimate(args: argparse.Namespace, only: bool = False) -> None:
    """With ``--method filter``: the share of layouts solved on a sample and the time a board
    it implies, on standard error before the run (on standard output with ``only``)."""
    from minegraph.generate.estimate import DEFAULT_SAMPLE, filter_estimate
    if not only and (getattr(args, "method", None) != "filter" or not args.sample):
        return
    rows, cols = args.size
    e = filter_estimate(rows, cols, args.mines, first=args.first, rules=args.rules,
                        seed=args.seed, topology=args.topology, level=args.level,
                        total=_total(args), sample=args.sample or DEFAULT_SAMPLE,
                        max_attempts=args.max_attempts)
    print(e.describe(), file=sys.stdout if only else sys.stderr, flush=True)


def _noguess(args: argparse.Namespace) -> Callable[[int], Made]:
    from minegraph.generate.noguess import MAX_ATTEMPTS, noguess_board

    rows, cols = args.size

    def make(seed: int) -> Made:
        b = noguess_board(rows, cols, args.mines, first=args.first, rules=args.rules, seed=seed,
                          topology=args.topology, level=args.level,
                          method=getattr(args, "method", "filter"), total=_total(args),
                          max_attempts=getattr(args, "max_attempts", MAX_ATTEMPTS))
        r, c = divmod(b.first, cols)
        what = (f"no-guess board {rows}x{cols} {args.topology}, {args.mines} mines, "
                f"{args.rules} rules, first cell {r},{c}, seed {seed}"
                + ("" if b.total else ", no total"))
        made_by = "drawn as it is" if b.method == "filter" else \
            f"repaired ({b.changes} changes to the last)"
        comments = [f"minegraph generate {what}",
                    f"solved by the deduction-only player up to {b.level}"
                    f"{_level_note(b.level)}{'' if b.total else ' without the total'}; generated in "
                    f"{b.seconds:.3f} s; layouts drawn: {b.attempts} ({b.attempts - 1} retries), "
                    f"{made_by}"]
        layout, nbrs = b.layout, b.neighbors
        numbers = [sum(1 for q in nbrs[i] if q in layout) for i in range(len(nbrs))]
        return Made(seed, b.start, layout, tuple(comments), what, numbers.__getitem__)

    return make


def _unique(args: argparse.Namespace) -> Callable[[int], Made]:
    from minegraph.generate.unique import unique_puzzle

    rows, cols = args.size

    def make(seed: int) -> Made:
        u = unique_puzzle(rows, cols, args.mines, seed=seed, topology=args.topology,
                          total=not args.no_total)
        what = (f"unique puzzle {rows}x{cols} {args.topology}, {args.mines} mines, seed {seed}"
                + ("" if u.total else ", no total"))
        shown = sum(1 for s in u.puzzle.states if s >= 0)
        comments = [f"minegraph generate {what}",
                    f"numbers shown: {shown} (none removable); layouts drawn: {u.layouts}; "
                    f"exact counts: {u.checks}"]
        return Made(seed, u.puzzle, u.layout, tuple(comments), what)

    return make


def _paper(args: argparse.Namespace) -> Callable[[int], Made]:
    from minegraph.generate.paper import paper_table

    rows, cols = args.size

    def make(seed: int) -> Made:
        t = paper_table(args.theorem, rows, cols, seed=seed, p=args.p, variant=args.variant)
        what = f"Theorem {t.theorem} table {rows}x{cols}, seed {seed}, p {t.p}, {t.variant}"
        comments = [f"minegraph generate paper: {what}",
                    f"certificate ({t.certified_by}): {t.certificate_text()}"]
        if t.variant == "rows":
            comments.append(f"numbers left unguarded by the variant: {len(t.unguarded)}")
        return Made(seed, t.puzzle, t.layout, tuple(comments), what)

    return make


def _grade_line(made: Made) -> str:
    from minegraph.generate.grade import grade
    return grade(made.puzzle, reveal=made.reveal).describe()


def _named(path: str, seed: int, many: bool) -> Path:
    target = Path(path)
    return target.with_name(f"{target.stem}-{seed}{target.suffix}") if many else target


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise MinegraphError(f"cannot write {path}: {exc.strerror or exc}") from None


_MAKERS: dict[str, Callable[[argparse.Namespace], Callable[[int], Made]]] = {}


def produce(kind: str, options: dict[str, Any], seed: int) -> Made:
    """Make (and grade, unless ``options["no_grade"]``) the puzzle of ``seed``: what one worker
    process does, so it takes only picklable arguments (the parsed options as a dict).

    Parameters
    ----------
    kind : str
        ``"paper"``, ``"unique"`` or ``"noguess"``.
    options : dict
        The parsed command-line options, ``vars(args)`` without its callables.
    seed : int
        The puzzle's seed.

    Returns
    -------
    Made
        The puzzle, with a ``grade:`` comment and caption added unless ``no_grade``.
    """
    args = argparse.Namespace(**options)
    if not _MAKERS:                 # a fresh worker (a Dask worker imports this module anew)
        _MAKERS.update(paper=_paper, unique=_unique, noguess=_noguess)
    made = _MAKERS[kind](args)(seed)
    if args.no_grade:
        return made
    line = _grade_line(made)
    return replace(made, comments=(*made.comments, f"grade: {line}"),
                   caption=f"{made.caption}; grade: {line}")


def _results(args: argparse.Namespace, seeds: range) -> Iterator[Made]:
    """The puzzles in seed order: in this process, on ``--workers`` processes or on a Dask
    cluster (:func:`minegraph.parallel.ordered_map`)."""
    options = {k: v for k, v in vars(args).items() if not callable(v)}
    workers = 1 if len(seeds) <= 1 else args.workers
    return ordered_map(partial(produce, args.kind, options), seeds, workers=workers,
                       scheduler=getattr(args, "scheduler", None))


def run(args: argparse.Namespace) -> int:
    """Make the puzzles and write them.

    The puzzles (with their comment lines) go to standard output in seed order; the answer
    key and the SVG sheets to the files named by ``--answer``, ``--svg`` and ``--answer-svg``.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of ``minegraph generate KIND``.

    Returns
    -------
    int
        The exit status: 0 (errors are raised, as :class:`~minegraph.errors.MinegraphError`
        for a file that cannot be written).
    """
    from minegraph.generate.paper import completed
    from minegraph.generate.sheet import puzzle_svg, solution_svg
    _MAKERS.update(paper=_paper, unique=_unique, noguess=_noguess)
    if args.kind == "noguess":
        if args.estimate_only:
            _estimate(args, only=True)
            return 0
        _estimate(args)
    seeds = range(args.seed, args.seed + args.count)
    many = args.count > 1
    bar = Progress(args.count, f"generate {args.kind}",
                   show=not args.no_progress and many and sys.stderr.isatty())
    answers: list[str] = []
    width = output_width(sys.stdout)
    try:
        for k, made in enumerate(_results(args, seeds)):
            seed = made.seed
            # Each comment wrapped to the width, every line of it a comment (its continuation
            # lines indented).
            head = "".join(f"; {line}\n" for c in made.comments
                           for line in wrap_text(c, width - 2, subsequent_indent="  ") or [""])
            sys.stdout.write(("\n" if k else "") + head + made.puzzle.to_text())
            if args.answer:
                answers.append(("\n" if k else "") + head + completed(made.puzzle, made.layout).to_text())
            if args.svg:
                _write(_named(args.svg, seed, many), puzzle_svg(made.puzzle, caption=made.caption,
                                                                title=made.caption))
            if args.answer_svg:
                _write(_named(args.answer_svg, seed, many),
                       solution_svg(made.puzzle, made.layout, caption="Solution: " + made.caption,
                                    title="Solution: " + made.caption))
            bar.advance()
    finally:
        bar.close()
    if args.answer:
        _write(Path(args.answer), "".join(answers))
    return 0
