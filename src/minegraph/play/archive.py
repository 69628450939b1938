"""Reviewing a whole archive of replays: one row of figures per game, a summary and plots.

:func:`review_archive` reviews every replay under the paths given (directories are searched
for ``.avf``, ``.evf``, ``.rmv`` and ``.mvf`` files) on local worker processes or a Dask
cluster (:func:`minegraph.parallel.ordered_map`), and appends one row per game to
``OUT/games.csv`` as soon as it is done, so an interrupted run resumes where it stopped: a
file already in ``games.csv`` (or in ``OUT/broken.csv``, the files that could not be
reviewed, with the reason) is skipped. A broken file is listed, never fatal.
:func:`summarize` reads ``games.csv`` back into the summary (luck, avoidable risks, win
chance given up, time per 3BV) and :func:`plot_archive` draws it.

Examples
--------
>>> import tempfile, os
>>> from minegraph.play.game import Game
>>> from minegraph.play.record import save_evf
>>> folder = tempfile.mkdtemp()
>>> game = Game(rows=3, cols=3, mines=1, rules="any", seed=17)
>>> _ = game.reveal((0, 0))
>>> _ = save_evf(game, os.path.join(folder, "g.evf"))
>>> with open(os.path.join(folder, "bad.avf"), "wb") as f:
...     _ = f.write(b"not a replay")
>>> out = os.path.join(folder, "out")
>>> done = review_archive([folder], out, workers=1)
>>> done.reviewed, done.broken, done.skipped
(1, 1, 0)
>>> summarize(out)["games"]
1
>>> review_archive([folder], out, workers=1).skipped      # a rerun skips what is done
2
"""

from __future__ import annotations

import csv
import functools
import os
import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

from minegraph.errors import MinegraphError, UserError
from minegraph.play.coach import DEFAULT_ALTERNATIVES, DEFAULT_LIMIT, DEFAULT_SAMPLES
from minegraph.play.review_report import REPLAY_FORMATS

__all__ = ["find_replays", "review_archive", "summarize", "plot_archive", "ArchiveRun",
           "COLUMNS", "GAMES_CSV", "BROKEN_CSV"]

#: The table of games, and the files that could not be reviewed, in the output folder.
GAMES_CSV = "games.csv"
BROKEN_CSV = "broken.csv"

#: The columns of ``games.csv`` (docs/review.md, "A whole archive").
COLUMNS = ("file", "format", "rows", "cols", "mines", "outcome", "time", "bbbv", "bbbv_solved",
           "bbbv_per_second", "time_per_bbbv", "clicks", "left", "right", "chords", "guesses",
           "avoidable", "best", "inferior", "judged", "exact", "luck",
           "win_probability_lost", "rqp", "ioe", "stnb", "zini", "openings", "islands",
           "path", "clicks_per_second", "review_seconds", "review_cpu_seconds")


def find_replays(paths: Sequence[str | os.PathLike[str]]) -> list[Path]:
    """The replay files named or found (recursively) under ``paths``, sorted, each once.

    Raises
    ------
    UserError
        for a path that does not exist, or a named file that is no replay.

    Parameters
    ----------
    paths : sequence of str or path
        Replay files and folders.

    Returns
    -------
    list of Path
        The replay files.
    """
    found: set[Path] = set()
    for p in map(Path, paths):
        if p.is_dir():
            found.update(f for f in p.rglob("*") if f.is_file()
                         and f.suffix.lower().lstrip(".") in REPLAY_FORMATS)
        elif p.is_file():
            if p.suffix.lower().lstrip(".") not in REPLAY_FORMATS:
                raise UserError(f"{p}: not a replay file: expected one of "
                                f"{', '.join('.' + k for k in REPLAY_FORMATS)}")
            found.add(p)
        else:
            raise UserError(f"{p}: no such file or directory")
    return sorted(found)


def _rounded(x: Any) -> Any:
    return round(x, 6) if isinstance(x, float) else x


def review_row(path: str, *, win: bool = True, limit: int = DEFAULT_LIMIT,
               samples: int = DEFAULT_SAMPLES, alternatives: int = DEFAULT_ALTERNATIVES,
               seed: int = 0) -> dict[str, Any]:
    """One game's row of ``games.csv``, or ``{"file": path, "error": why}`` for a file that
    cannot be reviewed (what the workers run; never raises for a bad file).

    Parameters
    ----------
    path
        The replay file.
    win
        Judge the guesses by win probability (:func:`minegraph.play.coach.coach`).
    limit, samples, alternatives, seed
        The coach's options.

    Returns
    -------
    dict
        The row (:data:`COLUMNS`).
    """
    from minegraph.play.coach import coach
    from minegraph.play.review import review
    started, cpu = time.perf_counter(), _cpu()
    try:
        r = review(path)
        if win:
            r = coach(r, limit=limit, samples=samples, alternatives=alternatives, seed=seed)
    except MinegraphError as exc:
        return {"file": path, "error": str(exc)}
    except Exception as exc:   # a broken file must never stop an archive: listed instead
        return {"file": path, "error": f"{type(exc).__name__}: {exc}"}
    labels = [r.label(c) for c in r.timeline]
    f = r.figures()
    row = {"file": path, "format": r.format, "rows": r.rows, "cols": r.cols, "mines": r.mines,
           "outcome": r.outcome, "time": r.time, "bbbv": r.bbbv, "bbbv_solved": r.bbbv_solved,
           "bbbv_per_second": r.bbbv_per_second,
           "time_per_bbbv": r.time / r.bbbv_solved if r.bbbv_solved else None,
           "clicks": r.counts.get("total"), "left": r.counts.get("left"),
           "right": r.counts.get("right"), "chords": r.counts.get("chord"),
           "guesses": len(r.guesses), "avoidable": len(r.avoidable),
           "best": labels.count("best"), "inferior": labels.count("inferior"),
           "judged": len(r.verdicts) if win else None,
           "exact": sum(1 for v in r.verdicts.values() if v.exact) if win else None,
           "luck": float(r.luck), "win_probability_lost": _lost(r) if win else None,
           **{k: f[k] for k in ("rqp", "ioe", "stnb", "zini", "openings", "islands", "path",
                                "clicks_per_second")},
           "review_seconds": time.perf_counter() - started, "review_cpu_seconds": _cpu() - cpu}
    return {k: _rounded(v) for k, v in row.items()}


def _cpu() -> float:
    """The CPU time of this process and of the child processes it has waited for (the
    replay's reader): what a review costs on an idle core, whatever runs beside it."""
    try:
        import resource
    except ImportError:                 # pragma: no cover - not POSIX: this process alone
        return time.process_time()
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + kids.ru_utime + kids.ru_stime


def _lost(r: Any) -> float | None:
    """The win chance given up in a game: 0 without guesses, ``None`` when some guess was
    left unjudged (``samples`` 0 and a position too large for the exact endgame)."""
    if len(r.verdicts) < len(r.guesses):
        return None
    return float(r.win_probability_lost or 0.0)


@dataclass(frozen=True)
class ArchiveRun:
    """What one run of :func:`review_archive` did.

    Attributes
    ----------
    reviewed, broken, skipped
        Files reviewed now, found broken now, and skipped as done by an earlier run.
    out
        The output folder.
    """

    reviewed: int
    broken: int
    skipped: int
    out: Path


def _done(out: Path) -> set[str]:
    done: set[str] = set()
    for name in (GAMES_CSV, BROKEN_CSV):
        path = out / name
        if path.exists():
            with open(path, newline="", encoding="utf-8") as f:
                done.update(row["file"] for row in csv.DictReader(f) if row.get("file"))
    return done


def _appender(path: Path, columns: Sequence[str]) -> Any:
    new = not path.exists() or path.stat().st_size == 0
    f = open(path, "a", newline="", encoding="utf-8")
    writer = csv.DictWriter(f, fieldnames=list(columns), extrasaction="ignore")
    if new:
        writer.writeheader()
        f.flush()
    return f, writer


def review_archive(paths: Sequence[str | os.PathLike[str]], out: str | os.PathLike[str], *,
                   workers: int | None = None, scheduler: str | None = None,
                   progress: bool = False, win: bool = True, limit: int = DEFAULT_LIMIT,
                   samples: int = DEFAULT_SAMPLES, alternatives: int = DEFAULT_ALTERNATIVES,
                   seed: int = 0) -> ArchiveRun:
    """Review every replay under ``paths`` into ``out`` (resumable; broken files listed).

    Parameters
    ----------
    paths
        Replay files and folders (searched recursively).
    out
        The output folder (made if missing): ``games.csv``, ``broken.csv``.
    workers, scheduler
        Where to run (:func:`minegraph.parallel.ordered_map`).
    progress
        Draw a progress bar on standard error.
    win, limit, samples, alternatives, seed
        As for :func:`review_row`.

    Returns
    -------
    ArchiveRun
        What was done.

    Raises
    ------
    UserError
        for a missing path, an output folder that cannot be made, or bad parallel options.
    """
    from minegraph.parallel import Progress, ordered_map
    files = [str(p) for p in find_replays(paths)]
    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot make {folder}: {exc.strerror or exc}") from None
    done = _done(folder)
    todo = [f for f in files if f not in done]
    job = functools.partial(review_row, win=win, limit=limit, samples=samples,
                            alternatives=alternatives, seed=seed)
    bar = Progress(len(todo), "replays reviewed", show=progress, note_width=12)
    games_file, games = _appender(folder / GAMES_CSV, COLUMNS)
    broken_file, broken = _appender(folder / BROKEN_CSV, ("file", "error"))
    reviewed = failed = 0
    try:
        for row in ordered_map(job, todo, workers=workers, scheduler=scheduler):
            if "error" in row:
                broken.writerow(row)
                broken_file.flush()
                failed += 1
            else:
                games.writerow(row)
                games_file.flush()
                reviewed += 1
            bar.advance(1, f"{failed} broken")
    finally:
        bar.close()
        games_file.close()
        broken_file.close()
    return ArchiveRun(reviewed, failed, len(files) - len(todo), folder)


def _read(out: Path) -> list[dict[str, str]]:
    path = out / GAMES_CSV
    if not path.exists():
        return []
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _numbers(rows: Iterable[dict[str, str]], key: str) -> list[float]:
    out = []
    for row in rows:
        value = row.get(key, "")
        if value not in ("", None):
            out.append(float(value))
    return out


def _spread(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"mean": None, "median": None, "p10": None, "p90": None}
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
    return {"mean": round(statistics.fmean(values), 6), "median": statistics.median(values),
            "p10": at(0.1), "p90": at(0.9)}


def summarize(out: str | os.PathLike[str]) -> dict[str, Any]:
    """The summary of ``out/games.csv``: games, outcomes, and the spread (mean, median, 10th
    and 90th percentiles) of luck, avoidable risks per game, win chance given up per game
    (games judged), time per 3BV (won games) and 3BV/s (won games).

    Parameters
    ----------
    out
        The output folder of :func:`review_archive`.

    Returns
    -------
    dict
        The summary (also what ``minegraph review`` writes to ``summary.json``).
    """
    folder = Path(out)
    rows = _read(folder)
    won = [r for r in rows if r["outcome"] == "won"]
    broken = 0
    if (folder / BROKEN_CSV).exists():
        with open(folder / BROKEN_CSV, newline="", encoding="utf-8") as f:
            broken = sum(1 for _ in csv.DictReader(f))
    return {"games": len(rows), "won": len(won),
            "lost": sum(1 for r in rows if r["outcome"] == "lost"), "broken": broken,
            "guesses": int(sum(_numbers(rows, "guesses"))),
            "avoidable": int(sum(_numbers(rows, "avoidable"))),
            "inferior": int(sum(_numbers(rows, "inferior"))),
            "luck": _spread(_numbers(rows, "luck")),
            "avoidable_per_game": _spread(_numbers(rows, "avoidable")),
            "win_probability_lost_per_game": _spread(_numbers(rows, "win_probability_lost")),
            "time_per_bbbv_won": _spread(_numbers(won, "time_per_bbbv")),
            "bbbv_per_second_won": _spread(_numbers(won, "bbbv_per_second")),
            "review_seconds": _spread(_numbers(rows, "review_seconds")),
            "review_cpu_seconds": _spread(_numbers(rows, "review_cpu_seconds"))}


def plot_archive(out: str | os.PathLike[str], path: str | os.PathLike[str]) -> None:
    """Draw the archive's four pictures in one PNG (or SVG/PDF by the suffix): the luck of
    each game, avoidable risks per game, win chance given up per game, and time per 3BV
    against 3BV (won games), each with its median marked.

    Raises
    ------
    UserError
        when matplotlib is missing.

    Parameters
    ----------
    out : str or path
        The archive's file (read).
    path : str or path
        The picture's file (PNG, SVG or PDF by its suffix).
    """
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import MaxNLocator
    except ImportError:
        from minegraph.extras import install_hint
        raise UserError(f"plots need matplotlib: {install_hint('plot')}") from None
    rows = _read(Path(out))
    fig, axes = plt.subplots(2, 2, figsize=(11, 7.5))
    fig.suptitle(f"{len(rows)} games reviewed", fontsize=13)

    def histogram(ax: Any, values: list[float], title: str, xlabel: str, bins: Any) -> None:
        ax.hist(values, bins=bins, color="#4c78a8", edgecolor="white")
        if values:
            m = statistics.median(values)
            ax.axvline(m, color="#e45756", linestyle="--", label=f"median {m:.3g}")
            ax.legend(frameon=False)
        ax.set_title(title)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("games")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))

    histogram(axes[0][0], _numbers(rows, "luck"), "Luck: the chance of surviving the guesses taken",
              "luck (1 = no risk taken)", [i / 20 for i in range(21)])
    avoidable = _numbers(rows, "avoidable")
    top = max(3, int(max(avoidable, default=0)))
    histogram(axes[0][1], avoidable, "Avoidable risks per game (a guess while a safe cell existed)",
              "avoidable risks", [x - 0.4 for x in range(top + 2)])
    axes[0][1].set_xticks(range(top + 1))
    lost = _numbers(rows, "win_probability_lost")
    right = max(0.05, max(lost, default=0.0))
    histogram(axes[1][0], lost, "Win chance given up per game (against the best move)",
              "win probability lost (sum over the game's guesses)",
              [right * i / 20 for i in range(21)])
    won = [r for r in rows if r["outcome"] == "won"]
    ax = axes[1][1]
    xs, ys = _numbers(won, "bbbv"), _numbers(won, "time_per_bbbv")
    ax.scatter(xs, ys, s=12, alpha=0.6, color="#4c78a8")
    if ys:
        m = statistics.median(ys)
        ax.axhline(m, color="#e45756", linestyle="--", label=f"median {m:.3g} s")
        ax.legend(frameon=False)
    ax.set_title(f"Time per 3BV, won games ({len(won)})")
    ax.set_xlabel("3BV")
    ax.set_ylabel("seconds per 3BV")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
