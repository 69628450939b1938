"""Mutation testing of the five core rule modules with mutmut (issue 36).

Each module is mutated alone, against only the tests that exercise it, in its own scratch
folder ``build/mutation/<name>/`` (mutmut 3 copies the tree it mutates into ``mutants/``
there): a copy of ``src/`` and ``tests/`` with the repository's pytest settings and a
``[tool.mutmut]`` table naming the one module. ``constraints.py`` and ``engines/combine.py``
are mirrored by the C kernel, so their runs set ``MINEGRAPH_PURE=1``: with the kernel loaded
the tests would exercise the C code and every Python mutant would survive untested.

Usage::

    python tools/mutation.py                 # the five modules, one after another
    python tools/mutation.py rules game      # some of them
    python tools/mutation.py --json bench/results/mutation.json
    python tools/mutation.py --survivors     # also print each surviving mutant's diff
    python tools/mutation.py game --retest   # after adding tests: rerun only the mutants left

It prints each module's killed / survived / equivalent / timeout counts and its score,
``(killed + timeout) / (mutants - equivalent)``. A mutant listed in :data:`EQUIVALENT`
changes no behaviour (the reason is given beside it); the list names the mutant and the
mutated line, and a listing whose line no longer matches the mutant is reported as stale
rather than counted. Hypothesis runs its quick ``dev`` profile; mutmut runs one child at a
time (``--max-children``, default 1) under ``nice``, since the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "build" / "mutation"


@dataclass(frozen=True)
class Module:
    """One module's mutation run: the file mutated, the tests run, the environment."""

    path: str
    tests: tuple[str, ...]
    pure: bool
    #: pytest ``-k`` expression leaving out tests that only run the code in a child process
    #: (``python -m minegraph``, where the mutant is not switched on) or that are slow and
    #: check nothing the others do not.
    deselect: str = ""


MODULES: dict[str, Module] = {
    "constraints": Module("src/minegraph/constraints.py",
                          ("tests/test_constraints.py", "tests/test_constraints_update.py"), pure=True),
    "rules": Module("src/minegraph/rules.py", ("tests/test_rules.py", "tests/play/test_game.py"), pure=False),
    # The float path's big boards (hundreds of components) are left out: each takes seconds
    # and the same code is checked against brute force on small parts in test_combine.py.
    "combine": Module("src/minegraph/engines/combine.py",
                      ("tests/engines/test_combine.py", "tests/test_arithmetic.py"), pure=True,
                      deselect="not big_boards"),
    "game": Module("src/minegraph/play/game.py", ("tests/play/test_game.py",), pure=False),
    # Left out: the command line (a child process, where the mutant is off) and the five
    # slowest tests (seconds each: damaged files, whole Expert games, wrong flags and fatal
    # chords against ms_toollib); every click of twelve games against brute force stays,
    # with the hand-made readings, which check the same rules in-process.
    "review": Module("src/minegraph/play/review.py", ("tests/play/test_review.py",), pure=False,
                     deselect="not test_the_command_line and not test_damaged_files_are_one_line"
                              " and not test_games_lost_with_wrong_flags_equal_ms_toollib"
                              " and not test_a_chord_that_hits_a_mine_solves_what_ms_toollib_says"
                              " and not test_an_expert_replay_of_300_clicks_is_reviewed_incrementally"),
}

#: Mutants that change no behaviour, by mutmut's name: (the mutated line as mutmut writes it,
#: why no test can tell the mutant from the original).
EQUIVALENT: dict[str, tuple[str, str]] = {
    'minegraph.constraints.x__around__mutmut_6': (
        'hidden = 1',
        "the count of hidden neighbours is read only as true or false (update_system's `if not hidden`)"),
    'minegraph.constraints.x__around__mutmut_7': (
        'hidden -= 1',
        'the same: only whether it is 0 is read, and -n is 0 exactly when n is'),
    'minegraph.constraints.x__around__mutmut_8': (
        'hidden += 2',
        'the same: only whether it is 0 is read'),
    'minegraph.constraints.x__assemble__mutmut_11': (
        'if need != 0 and failed is not None:',
        'a number with no undecided cell left was already checked by propagation; after a failure the mutant may name another number that fails too (which one is not specified)'),
    'minegraph.constraints.x__assemble__mutmut_12': (
        'failed = None',
        'unreachable: propagation (or _open_numbers without it) already failed on any such number'),
    'minegraph.constraints.x__propagate__mutmut_4': (
        'if n < 0 and n > u:',
        "propagation goes on past a failing number, which keeps failing (a decision lowers its need and its cells alike, or only its cells), so the assembly still reports the board inconsistent; it may name another number that fails (which one is not specified)"),
    'minegraph.constraints.x__components__mutmut_32': (
        'ks = clue_groups.get(root, None)',
        'every component has a clue (a box is made of cells next to clues), so the default is never used'),
    'minegraph.constraints.x__components__mutmut_34': (
        'ks = clue_groups.get(root, )',
        'the same default, never used'),
    'minegraph.constraints.x__open_numbers__mutmut_5': (
        'need = [1] * n',
        "the need of a cell that is not an open number is never read (only opened numbers' entries are)"),
    'minegraph.constraints.x__open_numbers__mutmut_8': (
        'unknown = [1] * n',
        'the same for the count of undecided cells'),
    'minegraph.constraints.x_update_system__mutmut_1': (
        'r0 = None',
        "always a fresh build, which update_system's answer equals by contract: slower, not different"),
    'minegraph.constraints.x_update_system__mutmut_6': (
        'if (r0 is None or len(board.states) == len(old_board.states)',
        'a fresh build for every board of the same size: slower, not different'),
    'minegraph.constraints.x_update_system__mutmut_7': (
        'or (board.neighbors is not old_board.neighbors or board.neighbors != old_board.neighbors)):',
        'a fresh build also for an equal graph held in another object: slower, not different'),
    'minegraph.constraints.x_update_system__mutmut_26': (
        'if was != HIDDEN and now == HIDDEN:',
        'a number changed or a flag swapped goes the incremental way, where every number around the change is recounted and any decision it made that no longer holds fails its recount, which falls back to a fresh build'),
    'minegraph.constraints.x_update_system__mutmut_27': (
        'if was == HIDDEN or now == HIDDEN:',
        'a fresh build after every change: slower, not different'),
    'minegraph.constraints.x_update_system__mutmut_28': (
        'if was != HIDDEN or now != HIDDEN:',
        'a fresh build after every change: slower, not different'),
    'minegraph.constraints.x_update_system__mutmut_32': (
        'if c in r0.decided and r0.decided[c] == (now == MINE):',
        'a change against a decision is then caught by the number that made it, which is next to the cell: its recount fails and the fresh build follows; a change that agrees is rebuilt, only slower'),
    'minegraph.constraints.x_update_system__mutmut_33': (
        'if c in r0.decided and r0.decided[c] != (now != MINE):',
        'the same as the previous mutant'),
    'minegraph.constraints.x_update_system__mutmut_36': (
        'return previous if (board == old_board) and False else _assemble(board, r0, None, True)',
        'the same board assembled again: an equal system, a new object'),
    'minegraph.constraints.x_update_system__mutmut_66': (
        'need[p] = unknown[p] = None',
        'a cell around the change that is not a number is dropped from the open numbers, so its entries are never read'),
    'minegraph.constraints.x_update_system__mutmut_67': (
        'need[p] = unknown[p] = 1',
        'the same'),
    'minegraph.constraints.x_update_system__mutmut_68': (
        'opened.discard(None)',
        'a cell that is not a number now was not an open number before (a number covered again is built afresh), so there is nothing to discard'),
    'minegraph.constraints.x_update_system__mutmut_83': (
        'need[p] = unknown[p] = None',
        'a number with no hidden neighbour is dropped from the open numbers, so its entries are never read'),
    'minegraph.constraints.x_update_system__mutmut_84': (
        'need[p] = unknown[p] = 1',
        'the same'),
    'minegraph.constraints.x_update_system__mutmut_85': (
        'opened.discard(None)',
        'a number kept among the open numbers with no undecided cell and a need of 0 adds no clue and no failure'),
    'minegraph.constraints.x_update_system__mutmut_113': (
        'failed = _propagate(r, nbrs, sorted((p for p in around if p in opened), ))',
        "the order numbers are re-examined in changes only the trace's order, which update_system leaves open (the fixpoint is unique)"),
    'minegraph.constraints.x_update_system__mutmut_115': (
        'failed = _propagate(r, nbrs, sorted((p for p in around if p in opened), reverse=False))',
        'the same'),
    'minegraph.rules.x_check_fit__mutmut_21': (
        'room = size - (kept if kept is not None else 1 + min((len(a) for a in neighbors), default=1))',
        'the default is used only on a graph with no cell, where a room of -1 or -2 refuses every count alike and shows as 0'),
    'minegraph.play.game.xǁGameǁ__init____mutmut_88': (
        'raise GameError(None) from None',
        'unreachable: grid_neighbors refuses only an unknown topology, which the line before already refused'),
    'minegraph.play.game.xǁGameǁ__init____mutmut_89': (
        'raise GameError(str(None)) from None',
        'the same unreachable branch'),
    'minegraph.play.game.xǁGameǁ_draw__mutmut_2': (
        "rng = random.Random(None)      # (seeded: an unseeded Random reads the OS's entropy)",
        'setstate() on the next line replaces the whole state the seed made'),
    'minegraph.play.game.xǁGameǁ_draw__mutmut_3': (
        "rng = random.Random(1)      # (seeded: an unseeded Random reads the OS's entropy)",
        "the same: the seed's state is replaced"),
    'minegraph.play.game.xǁGameǁ_why_illegal__mutmut_3': (
        'where = self.label(move.cell) if (0 <= move.cell < self.size) or True else str(move.cell)',
        'a cell off the board gets the message that names it by number, without `where`'),
    'minegraph.play.game.xǁGameǁ_why_illegal__mutmut_7': (
        'where = self.label(move.cell) if 0 <= move.cell <= self.size else str(move.cell)',
        'the same: `where` of a cell off the board is never shown'),
    'minegraph.play.game.xǁGameǁ_why_illegal__mutmut_8': (
        'where = self.label(move.cell) if 0 <= move.cell < self.size else str(None)',
        'the same'),
    'minegraph.play.game.xǁGameǁpush__mutmut_8': (
        'undo = _Undo(move, status=self.status, exploded=None)',
        'a move is legal only while playing, when nothing has exploded: exploded is always None here'),
    'minegraph.play.game.xǁGameǁpush__mutmut_10': (
        'undo = _Undo(move, exploded=self.exploded)',
        'the default status is "playing", the only status a legal move is played in'),
    'minegraph.play.game.xǁGameǁpush__mutmut_11': (
        'undo = _Undo(move, status=self.status, )',
        'the default exploded is None, the only value it has while playing'),
    'minegraph.engines.combine.x_exact_output_bits__mutmut_15': (
        'elif 1 <= remaining <= floating + degree:',
        'for remaining 0 the term left out is log2 C(n, 0) = 0'),
    'minegraph.engines.combine.x_exact_output_bits__mutmut_16': (
        'elif 0 < remaining <= floating + degree:',
        'the same: log2 C(n, 0) = 0'),
    'minegraph.engines.combine.x_exact_output_bits__mutmut_17': (
        'elif 0 <= remaining < floating + degree:',
        'for remaining n the term left out is log2 C(n, n) = 0'),
    'minegraph.engines.combine.x_poly_div__mutmut_8': (
        'out = [1] * (len(q) - len(p) + 1)',
        'every entry is written by the loop before it is read'),
    'minegraph.engines.combine.x_poly_div__mutmut_22': (
        'for j in range(len(p)):',
        'j = 0 only turns rem[k] into its remainder, 0 for an exact division, and rem[k] is not read again'),
    'minegraph.engines.combine.x_combine__mutmut_17': (
        'if length - 1 >= TREE_DEGREE or len(polys) > 1:',
        "the subproduct tree and the schoolbook products give the same integers (the module's contract, held by the tests against brute force); only the speed differs"),
    'minegraph.engines.combine.x_combine__mutmut_18': (
        'if length + 1 >= TREE_DEGREE and len(polys) > 1:',
        'the same: another threshold between two algorithms with equal answers'),
    'minegraph.engines.combine.x__combine_small__mutmut_57': (
        'if u - t < len(weight)) for t in range(len(poly))])',
        'the guard is always true: the weights have one entry per mine count of all the parts together, so u + t never passes the end'),
    'minegraph.engines.combine.x__combine_small__mutmut_58': (
        'if u + t <= len(weight)) for t in range(len(poly))])',
        'the same: u + t stays below len(weight)'),
    'minegraph.engines.combine.x_combine__mutmut_19': (
        'if length - 2 >= TREE_DEGREE and len(polys) > 1:',
        'another threshold between two algorithms with equal answers'),
    'minegraph.engines.combine.x_combine__mutmut_20': (
        'if length - 1 > TREE_DEGREE and len(polys) > 1:',
        'the same'),
    'minegraph.engines.combine.x_combine__mutmut_21': (
        'if length - 1 >= TREE_DEGREE and len(polys) >= 1:',
        'the same: the tree also takes a single part, with the same integers'),
    'minegraph.engines.combine.x_combine__mutmut_22': (
        'if length - 1 >= TREE_DEGREE and len(polys) > 2:',
        'the same'),
    'minegraph.play.review.x__format_of__mutmut_7': (
        'ext = os.path.splitext(name)[1].lower().lstrip("XX.XX")',
        'after lower() no capital X is left to strip, and the dot is stripped all the same'),
    'minegraph.engines.combine.x__reduced_weights__mutmut_15': (
        'if lo >= hi:',
        'with one weight not 0 there is nothing to reduce; whether to reduce the weights is a matter of speed: the reduced weights are scaled back exactly, so the integers are the same either way'),
    'minegraph.engines.combine.x__reduced_weights__mutmut_17': (
        'full_bits = (lgamma(floating + 1) - lgamma(hi + 1) - lgamma(floating - hi + 1)) * log(2)',
        'the estimate only decides whether to reduce, a matter of speed: the reduced weights are scaled back exactly'),
    'minegraph.engines.combine.x__reduced_weights__mutmut_18': (
        'full_bits = (lgamma(floating + 1) - lgamma(hi + 1) + lgamma(floating - hi + 1)) / log(2)',
        'the same estimate, only deciding whether to reduce'),
    'minegraph.engines.combine.x__reduced_weights__mutmut_19': (
        'full_bits = (lgamma(floating + 1) + lgamma(hi + 1) - lgamma(floating - hi + 1)) / log(2)',
        'the same'),
    'minegraph.engines.combine.x__reduced_weights__mutmut_22': (
        'full_bits = (lgamma(floating + 2) - lgamma(hi + 1) - lgamma(floating - hi + 1)) / log(2)',
        'the same'),
    'minegraph.engines.combine.x__scaled__mutmut_2': (
        'return int(fmpz(x) * num / den)',
        "FLINT's / on integers is exact division, and the quotient is known to be an integer"),
    'minegraph.engines.combine.x__scaled_rows__mutmut_6': (
        'return [[int(fmpz(x) / small * big) for x in row] for row in rows]',
        'the same: every x is divisible by den'),
    'minegraph.play.review.x__counts__mutmut_28': (
        'for k, v in ((k, stats.get(src, None)) for k, src in named.items())}',
        'a missing figure as None is not a whole number, so it is counted 0 all the same'),
    'minegraph.play.review.x__counts__mutmut_30': (
        'for k, v in ((k, stats.get(src, )) for k, src in named.items())}',
        "the same: get's default None becomes 0"),
    'minegraph.engines.combine.x__reduced_weights__mutmut_25': (
        'full_bits = (lgamma(floating + 1) - lgamma(hi + 2) - lgamma(floating - hi + 1)) / log(2)',
        'the same estimate, only deciding whether to reduce (speed)'),
    'minegraph.engines.combine.x__reduced_weights__mutmut_29': (
        'full_bits = (lgamma(floating + 1) - lgamma(hi + 1) - lgamma(floating - hi + 2)) / log(2)',
        'the same estimate, only deciding whether to reduce (speed)'),
    'minegraph.engines.combine.x__reduced_weights__mutmut_31': (
        'full_bits = (lgamma(floating + 1) - lgamma(hi + 1) - lgamma(floating - hi + 1)) / log(3)',
        'the same estimate, only deciding whether to reduce (speed)'),
    'minegraph.engines.combine.x__reduced_weights__mutmut_36': (
        'if (hi - lo) * log2(floating + 2) > full_bits / 2:',
        'another threshold for whether to reduce (speed)'),
    'minegraph.engines.combine.x__reduced_weights__mutmut_37': (
        'if (hi - lo) * log2(floating + 1) >= full_bits / 2:',
        'the same'),
    'minegraph.engines.combine.x__reduced_weights__mutmut_38': (
        'if (hi - lo) * log2(floating + 1) > full_bits * 2:',
        'the same'),
    'minegraph.engines.combine.x__reduced_weights__mutmut_39': (
        'if (hi - lo) * log2(floating + 1) > full_bits / 3:',
        'the same'),
    'minegraph.engines.combine.x__reduced_weights__mutmut_42': (
        'span = hi + lo + 1',
        'a longer list of products, whose extra entries are never read (indices stay below hi - lo + 1)'),
    'minegraph.engines.combine.x__reduced_weights__mutmut_43': (
        'span = hi - lo + 2',
        'the same: one extra entry, never read'),
    'minegraph.engines.combine.x__combine_tree__mutmut_34': (
        'reduced = None',
        'the tree runs on the full weights instead of the reduced ones: the same integers, slower'),
}

#: mutmut's exit codes, grouped as this report counts them.
KILLED_CODES = {1, 3}
TIMEOUT_CODES = {36, -24, 24, 152, 255}


def _prepare(name: str, module: Module, fresh: bool) -> Path:
    """The scratch folder of one module: the sources, the tests, pyproject.toml with a
    ``[tool.mutmut]`` table."""
    folder = WORK / name
    if fresh and folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", ".hypothesis")
    for part in ("src", "tests"):
        if (folder / part).exists():
            shutil.rmtree(folder / part)
        shutil.copytree(ROOT / part, folder / part, ignore=ignore)
    # Test helpers some tests import from bench/ (bigboards.py).
    (folder / "bench").mkdir(exist_ok=True)
    for helper in (ROOT / "bench").glob("*.py"):
        shutil.copy2(helper, folder / "bench" / helper.name)
    pytest_args = ["-p", "no:cacheprovider"]
    if module.deselect:
        pytest_args += ["-k", module.deselect]
    table = "\n".join([
        "", "[tool.mutmut]",
        'source_paths = ["src"]',
        'also_copy = ["bench"]',
        f"only_mutate = [{json.dumps(module.path)}]",
        f"pytest_add_cli_args_test_selection = {json.dumps(list(module.tests))}",
        f"pytest_add_cli_args = {json.dumps(pytest_args)}",
        # A mutant that loops forever is stopped after 2 x 10 x (its tests' time + 10 s) of
        # CPU time (not wall time: a busy machine does not stop a slow but finite mutant; the
        # 10 s cover pytest's own start in each worker).
        "timeout_multiplier = 10.0",
        "timeout_constant = 10.0",
        "",
    ])
    text = (ROOT / "pyproject.toml").read_text()
    (folder / "pyproject.toml").write_text(text + table)
    return folder


def _environment(module: Module) -> dict[str, str]:
    env = dict(os.environ)
    # The copy's src must be imported, never the checkout's nor the editable install's.
    env.pop("PYTHONPATH", None)
    env["HYPOTHESIS_PROFILE"] = "dev"
    if module.pure:
        env["MINEGRAPH_PURE"] = "1"
    else:
        env.pop("MINEGRAPH_PURE", None)
    return env


def _mutmut_version() -> str:
    from importlib.metadata import version
    return version("mutmut")


def _diff(folder: Path, mutant: str) -> str:
    """mutmut's diff of one mutant (run in the scratch folder)."""
    out = subprocess.run([sys.executable, "-m", "mutmut", "show", mutant], cwd=folder,
                         capture_output=True, text=True, env=_environment(MODULES[folder.name]))
    return out.stdout


def _changed_line(diff: str) -> str:
    """The mutated line of a diff (its first ``+`` line), stripped."""
    for line in diff.splitlines():
        if line.startswith("+") and not line.startswith("+++"):
            return line[1:].strip()
    return ""


def _results(name: str, module: Module, folder: Path) -> dict[str, object]:
    meta = folder / "mutants" / (module.path + ".meta")
    codes: dict[str, int | None] = json.loads(meta.read_text())["exit_code_by_key"]
    killed = sorted(k for k, c in codes.items() if c in KILLED_CODES)
    timeout = sorted(k for k, c in codes.items() if c in TIMEOUT_CODES)
    # Not run yet (a run stopped part-way): counted apart, not in the score.
    unchecked = sorted(k for k, c in codes.items() if c is None)
    others = sorted(k for k, c in codes.items()
                    if c is not None and c not in KILLED_CODES | TIMEOUT_CODES)
    equivalent, survived, stale = [], [], []
    for mutant in others:
        listed = EQUIVALENT.get(mutant)
        if listed is None:
            survived.append(mutant)
            continue
        line = _changed_line(_diff(folder, mutant))
        if line == listed[0]:
            equivalent.append(mutant)
        else:
            stale.append(mutant)
            survived.append(mutant)
    total = len(codes)
    counted = total - len(unchecked) - len(equivalent)
    score = (len(killed) + len(timeout)) / counted if counted else 1.0
    return {"module": module.path, "tests": list(module.tests), "deselected": module.deselect,
            "pure_python": module.pure, "mutants": total, "not_checked": len(unchecked),
            "killed": len(killed), "timeout": len(timeout),
            "survived": len(survived), "equivalent": len(equivalent), "score": round(score, 4),
            "survivors": survived, "equivalent_mutants": equivalent, "stale_equivalents": stale,
            "exit_codes": {str(c): sum(1 for v in codes.values() if v == c)
                           for c in sorted({v for v in codes.values()}, key=str)}}


def _unkilled(module: Module, folder: Path) -> list[str]:
    """The mutants of an earlier run that no test killed (survivors, untested, equivalent,
    timeouts: mutmut forgets a timeout when the timeout settings change)."""
    meta = folder / "mutants" / (module.path + ".meta")
    codes: dict[str, int | None] = json.loads(meta.read_text())["exit_code_by_key"]
    return sorted(k for k, c in codes.items() if c not in KILLED_CODES)


def report_module(name: str) -> dict[str, object]:
    """The counts of the last run of one module, as it stands (also of a run stopped
    part-way: its mutants not yet run are counted as not checked)."""
    return _results(name, MODULES[name], WORK / name)


def run_module(name: str, max_children: int, retest: bool, nice: int) -> dict[str, object]:
    """Run mutmut on one module and count its mutants (``retest``: only the mutants an
    earlier run left alive, against the current tests; the others keep their result)."""
    module = MODULES[name]
    again = _unkilled(module, WORK / name) if retest else []
    folder = _prepare(name, module, fresh=not retest)
    command = ["nice", "-n", str(nice), sys.executable, "-m", "mutmut", "run",
               "--max-children", str(max_children), *again]
    started = time.monotonic()
    log = folder / "mutmut.log"
    with log.open("w") as out:
        done = subprocess.run(command, cwd=folder, env=_environment(module), stdout=out,
                              stderr=subprocess.STDOUT)
    if done.returncode != 0:
        sys.exit(f"mutation: mutmut failed on {module.path} (exit {done.returncode}); see {log}")
    result = _results(name, module, folder)
    result["seconds"] = round(time.monotonic() - started, 1)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", metavar="MODULE",
                        help=f"modules to run: {', '.join(MODULES)} (default: all five)")
    parser.add_argument("--json", type=Path, help="write the results to this JSON file")
    parser.add_argument("--max-children", type=int, default=1, help="mutmut's worker processes")
    parser.add_argument("--nice", type=int, default=15, help="niceness of the mutmut runs")
    parser.add_argument("--retest", action="store_true",
                        help="run again only the mutants the last run left alive (after adding tests)")
    parser.add_argument("--survivors", action="store_true", help="print each survivor's diff")
    parser.add_argument("--report", action="store_true",
                        help="run nothing: count the last run's results (also of a run stopped part-way)")
    args = parser.parse_args(argv)
    names = args.modules or list(MODULES)
    unknown = [n for n in names if n not in MODULES]
    if unknown:
        parser.error(f"unknown module {unknown[0]!r}: expected one of {', '.join(MODULES)}")
    results = []
    for name in names:
        if args.report:
            result = report_module(name)
        else:
            result = run_module(name, args.max_children, args.retest, args.nice)
        results.append(result)
        unchecked = f", {result['not_checked']} not checked" if result["not_checked"] else ""
        print(f"{result['module']}: {result['mutants']} mutants, {result['killed']} killed, "
              f"{result['survived']} survived, {result['equivalent']} equivalent, "
              f"{result['timeout']} timeout{unchecked}: "
              f"score {100 * float(result['score']):.1f}%"  # type: ignore[arg-type]
              + (f" ({result['seconds']} s)" if "seconds" in result else ""), flush=True)
        if result["stale_equivalents"]:
            print(f"  stale EQUIVALENT entries (line changed): {result['stale_equivalents']}")
        if args.survivors:
            for mutant in result["survivors"]:  # type: ignore[attr-defined]
                print(_diff(WORK / name, mutant))
    if args.json:
        # Modules not run this time keep their earlier results; a module retested keeps the
        # commands of its earlier runs (its killed mutants come from them).
        earlier = json.loads(args.json.read_text())["modules"] if args.json.exists() else []
        this = "python tools/mutation.py " + " ".join(argv if argv is not None else sys.argv[1:])
        for result in results:
            before = [r for r in earlier if r["module"] == result["module"]]
            keep = before and (args.retest or args.report)
            result["commands"] = (before[0].get("commands", []) if keep else []) + [this]
        ran = {r["module"] for r in results}
        results = [r for r in earlier if r["module"] not in ran] + results
        order = [m.path for m in MODULES.values()]
        results.sort(key=lambda r: order.index(str(r["module"])))
        report = {"command": "make mutation (python tools/mutation.py --json bench/results/mutation.json)",
                  "tool": f"mutmut {_mutmut_version()}", "python": platform.python_version(),
                  "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()}",
                  "hypothesis_profile": "dev", "modules": results}
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
