"""Win-rate benchmarks: many games of one policy under named rules, on a process pool or a Dask
cluster, resumable and mergeable by seed.

Game ``k`` of a run is played with seed ``k``; a run covers a range of seeds and its results
keep one record per seed, so runs over different ranges (or interrupted runs) merge into one
measurement as long as the configuration (size, rules, policy, first cell) is the same.

Examples
--------
>>> config = BenchConfig("beginner", "classic", "safest")
>>> results = run(config, range(20), workers=1, progress=False)
>>> s = results.summary()
>>> s["games"], 0 <= s["ci95"][0] <= s["win_rate"] <= s["ci95"][1] <= 1
(20, True)
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from functools import partial
from typing import Any, Callable, Iterable, Sequence, Sized

from minegraph.errors import FormatError, GameError
from minegraph.intervals import wilson
from minegraph.parallel import Progress, chunked, ordered_map
from minegraph.play.game import RULES, SIZES, Game
from minegraph.play.policies import OPENINGS, POLICIES, REVISIONS, Policy, get_policy, play

__all__ = ["BenchConfig", "BenchResults", "run", "wilson", "PUBLISHED", "play_batch"]

#: Games per task sent to a worker (fewer round trips; a worker keeps its analyser's cache).
BATCH = 20

#: The best published win rates we know, for comparison: (size, rules) -> [(who, rate, note)].
PUBLISHED: dict[tuple[str, str], list[tuple[str, float, str]]] = {
    ("expert", "modern"): [
        ("DavidNHill's solver (claim)", 0.543, "first click (3,3); game count not stated"),
        ("PSEQ-D256", 0.5345, "10^8 games; +-0.01%"),
    ],
    ("expert", "classic"): [
        ("DavidNHill's solver", 0.4113, "first click (0,0); 10^7 games, +-0.03%"),
        ("minesolve depth 4", 0.4080, "10^6 games"),
    ],
    ("beginner", "modern"): [("PSEQ-D256", 0.9717, "9x9/10")],
    ("intermediate", "modern"): [("PSEQ-D256", 0.8908, "16x16/40")],
    ("beginner", "classic"): [("PSEQ-D256", 0.9169, "9x9/10")],
    ("intermediate", "classic"): [("PSEQ-D256", 0.7823, "16x16/40")],
}


@dataclass(frozen=True)
class BenchConfig:
    """What is measured: a standard size, rules, a policy and optionally the first cell.

    Attributes
    ----------
    size
        A standard size, a key of :data:`~minegraph.rules.SIZES`.
    rules
        One of :data:`~minegraph.rules.RULES`.
    policy
        A policy name, a key of :data:`~minegraph.play.policies.POLICIES`.
    first
        The first cell, ``(row, col)``; ``None``: the policy's choice, recorded as its cell
        when the policy opens a fixed cell (:data:`~minegraph.play.policies.OPENINGS`:
        ``strong`` opens (3, 3) under modern rules and (0, 0) otherwise), so that a run without
        a first cell and one naming that cell are the same measurement.
    revision
        The policy's revision (the current one when not given).
    budget
        Seconds ``strong`` may spend on one decision (``None``: its fast default); runs with
        different budgets are different measurements.

    Raises
    ------
    GameError
        for an unknown size, rules or policy, or a first cell off the grid.
    """

    size: str
    rules: str
    policy: str
    first: tuple[int, int] | None = None
    #: The policy's revision (:data:`~minegraph.play.policies.REVISIONS`; the current one
    #: when not given).
    revision: int | None = None
    budget: float | None = None

    def __post_init__(self) -> None:
        if self.revision is None and self.policy in REVISIONS:
            object.__setattr__(self, "revision", REVISIONS[self.policy])
        if self.size not in SIZES:
            raise GameError(f"unknown size {self.size!r}; expected one of {', '.join(SIZES)}")
        if self.rules not in RULES:
            raise GameError(f"unknown rules {self.rules!r}; expected one of {', '.join(RULES)}")
        if self.policy not in POLICIES:
            raise GameError(f"unknown policy {self.policy!r}; expected one of {', '.join(POLICIES)}")
        if self.budget is not None:
            get_policy(self.policy, None, self.budget)     # checks the budget and the policy
        rows, cols, _ = SIZES[self.size]
        if self.first is None and self.policy in OPENINGS:
            object.__setattr__(self, "first", divmod(OPENINGS[self.policy](self.rules, rows, cols), cols))
        if self.first is not None:
            r, c = self.first
            if not (0 <= r < rows and 0 <= c < cols):
                raise GameError(f"first cell {self.first} is outside the {rows}x{cols} grid")

    def game(self, seed: int) -> Game:
        return Game(self.size, rules=self.rules, seed=seed)

    def first_index(self) -> int | None:
        if self.first is None:
            return None
        return self.first[0] * SIZES[self.size][1] + self.first[1]


# One policy per worker process and configuration: its analyser's component cache carries over
# from game to game.
_POLICIES: dict[BenchConfig, Policy] = {}


def play_batch(config: BenchConfig, seeds: Sequence[int]) -> list[tuple[int, bool, int, float]]:
    """Play the games of ``seeds``; per game ``(seed, won, guesses, seconds)``.

    The policy is made once per worker process and configuration, and reused from game to
    game (its analyser's cache carries over).

    Parameters
    ----------
    config
        What is measured.
    seeds
        The games' seeds.

    Returns
    -------
    list of tuple
        ``(seed, won, guesses, seconds)`` per game, in the order of ``seeds``.
    """
    policy = _POLICIES.get(config)
    if policy is None:
        policy = _POLICIES[config] = get_policy(config.policy, config.first_index(), config.budget)
    out = []
    for seed in seeds:
        record = play(config.game(seed), policy)
        out.append((seed, record.won, record.guesses, record.seconds))
    return out


@dataclass
class BenchResults:
    """One record per seed: ``seed -> (won, guesses, seconds)``.

    Attributes
    ----------
    config
        What was measured.
    records
        ``seed -> (won, guesses, seconds)``, one entry per game played.
    """

    config: BenchConfig
    records: dict[int, tuple[bool, int, float]] = field(default_factory=dict)

    def add(self, batch: Iterable[tuple[int, bool, int, float]]) -> None:
        for seed, won, guesses, seconds in batch:
            self.records[seed] = (won, guesses, seconds)

    def merge(self, other: "BenchResults") -> None:
        """Take in another run's records (the same configuration).

        Raises
        ------
        GameError
            when the configurations differ.
        """
        if other.config != self.config:
            raise GameError(f"cannot merge results of {other.config} into {self.config}")
        self.records.update(other.records)

    def summary(self) -> dict[str, Any]:
        """The figures ``minegraph bench --json`` prints."""
        games = len(self.records)
        wins = sum(1 for won, _, _ in self.records.values() if won)
        lo, hi = wilson(wins, games)
        seeds = sorted(self.records)
        return {
            "games": games, "wins": wins, "win_rate": wins / games if games else 0.0,
            "ci95": [lo, hi],
            "guesses_per_game": sum(g for _, g, _ in self.records.values()) / games if games else 0.0,
            "seconds_per_game": sum(s for _, _, s in self.records.values()) / games if games else 0.0,
            "median_seconds_per_game": _median([s for _, _, s in self.records.values()]),
            "rules": self.config.rules, "size": self.config.size, "policy": self.config.policy,
            "policy_revision": self.config.revision, "budget": self.config.budget,
            "first": list(self.config.first) if self.config.first is not None else None,
            "seed": seeds[0] if seeds else None,
            "seeds": _ranges(seeds),
        }

    def to_json(self) -> dict[str, Any]:
        return {"config": asdict(self.config), "summary": self.summary(),
                "records": [[seed, int(won), guesses, round(seconds, 6)]
                            for seed, (won, guesses, seconds) in sorted(self.records.items())]}

    def save(self, path: str | Path) -> None:
        """Write the results (atomically: an interrupted write leaves the old file)."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), allow_nan=False) + "\n", encoding="utf-8")
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: str | Path) -> "BenchResults":
        """Read results written by :meth:`save`.

        Raises
        ------
        FormatError
            for a file that is not such results.
        """
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            raw = data["config"]
            config = BenchConfig(raw["size"], raw["rules"], raw["policy"],
                                 tuple(raw["first"]) if raw.get("first") else None,
                                 int(raw.get("revision") or 0),
                                 float(raw["budget"]) if raw.get("budget") is not None else None)
            results = cls(config)
            for seed, won, guesses, seconds in data["records"]:
                results.records[int(seed)] = (bool(won), int(guesses), float(seconds))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError,
                ValueError) as exc:
            raise FormatError(f"{path}: not benchmark results ({exc})") from None
        return results


def _median(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def _ranges(seeds: list[int]) -> list[list[int]]:
    """Sorted seeds as inclusive ``[first, last]`` runs."""
    out: list[list[int]] = []
    for s in seeds:
        if out and s == out[-1][1] + 1:
            out[-1][1] = s
        else:
            out.append([s, s])
    return out


def run(config: BenchConfig, seeds: Iterable[int], *, workers: int | None = None,
        scheduler: str | None = None, progress: bool = True, results: BenchResults | None = None,
        on_batch: Callable[[BenchResults], None] | None = None) -> BenchResults:
    """Play the games of ``seeds`` not yet in ``results``, in parallel
    (:func:`minegraph.parallel.ordered_map`: seeds drawn lazily, a bounded number of batches in
    flight, workers ended at once when the run stops).

    Parameters
    ----------
    config
        What is measured.
    seeds
        The games' seeds (any iterable, drawn lazily; a ``range`` is counted for the
        progress bar without being listed).
    workers
        Local worker processes (default: every core); ``1`` plays in this process.
    scheduler
        The address of a Dask scheduler (``tcp://host:8786``) to play on instead.
    progress
        Show a live progress bar (rich, on standard error).
    results
        Earlier results to extend (their seeds are skipped).
    on_batch
        Called after every finished batch (e.g. to save the results so far).

    Returns
    -------
    BenchResults
        with every finished game, also when interrupted (``KeyboardInterrupt``, or an
        exception from ``on_batch``, is raised again after the finished batches are recorded).

    Raises
    ------
    UserError
        for a number of workers below 1, or a Dask scheduler that is missing or cannot be
        reached.
    """
    results = results if results is not None else BenchResults(config)
    done = results.records
    todo = (s for s in seeds if s not in done)
    total = _todo_count(seeds, done)
    if total is not None and total <= BATCH:
        workers = 1                 # one batch: a pool would only cost its start-up
    bar = Progress(total, f"{config.size} {config.rules} {config.policy}", show=progress,
                   note_width=len("win 100.00% [100.00, 100.00]"))
    try:
        for batch in ordered_map(partial(play_batch, config), chunked(todo, BATCH),
                                 workers=workers, scheduler=scheduler):
            results.add(batch)
            s = results.summary()
            lo, hi = s["ci95"]
            bar.advance(len(batch), f"win {s['win_rate']:.2%} [{100 * lo:.2f}, {100 * hi:.2f}]")
            if on_batch is not None:
                on_batch(results)
    finally:
        bar.close()
    return results


def _todo_count(seeds: Iterable[int], done: dict[int, Any]) -> int | None:
    """How many of ``seeds`` are not in ``done``, when ``seeds`` knows its length (a range
    of a billion seeds is counted without being listed)."""
    if not isinstance(seeds, Sized):
        return None
    if isinstance(seeds, range):
        return len(seeds) - sum(1 for s in done if s in seeds)
    return sum(1 for s in seeds if s not in done)
