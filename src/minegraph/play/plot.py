"""A picture of win rates: each measured rate with its 95% interval beside the published ones.

Needs matplotlib (installed with the package's ``plot`` extra).
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from minegraph.errors import GameError
from minegraph.extras import install_hint
from minegraph.play.bench import PUBLISHED, BenchResults

__all__ = ["plot_results", "check_plot_path"]


def check_plot_path(path: str | Path) -> None:
    """Check, before any game is played, that :func:`plot_results` can write ``path``:
    matplotlib is installed, it writes the file type of the suffix, and the folder exists.

    Raises
    ------
    GameError
        saying what is missing (``minegraph bench --plot`` reports it in one line).

    Parameters
    ----------
    path : str or Path
        The picture's file.
    """
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        raise GameError(f"--plot needs matplotlib: {install_hint('plot')}") from None
    where = Path(path)
    types = FigureCanvasBase.get_supported_filetypes()
    suffix = where.suffix.lower().removeprefix(".")
    if suffix not in types:
        raise GameError(f"cannot draw {where.name}: matplotlib writes {', '.join(sorted(types))} "
                        f"files, named by the suffix (rates.png)")
    folder = where.parent
    if not folder.is_dir():
        raise GameError(f"cannot write {path}: no such directory {folder}")


def plot_results(results: Sequence[BenchResults], path: str | Path) -> None:
    """Draw one row per configuration: our rate with its interval (points and bars) and the
    published figures (crosses), and save it to ``path`` (PNG, SVG or PDF by its suffix).

    Raises
    ------
    GameError
        when matplotlib is missing or the file cannot be written.

    Parameters
    ----------
    results : sequence of BenchResults
        One per configuration.
    path : str or Path
        The picture's file.
    """
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - installed with the extras
        raise GameError(f"plots need matplotlib: {install_hint('plot')}") from None
    fig, ax = plt.subplots(figsize=(8, 0.7 * len(results) + 1.6))
    labels = []
    for row, r in enumerate(results):
        s = r.summary()
        first = f" {tuple(s['first'])}" if s["first"] else ""
        labels.append(f"{s['size']} {s['rules']}{first}\n{s['policy']}, {s['games']} games")
        lo, hi = s["ci95"]
        ax.errorbar([s["win_rate"]], [row], xerr=[[s["win_rate"] - lo], [hi - s["win_rate"]]],
                    fmt="o", color="tab:blue", capsize=4,
                    label="minegraph (95% Wilson interval)" if row == 0 else None)
        for k, (who, rate, _) in enumerate(PUBLISHED.get((s["size"], s["rules"]), [])):
            ax.plot([rate], [row + 0.15 * (k + 1)], "x", color=f"C{k + 1}")
            ax.annotate(who, (rate, row + 0.15 * (k + 1)), fontsize=7, xytext=(4, 0),
                        textcoords="offset points", va="center")
    ax.set_yticks(range(len(results)), labels, fontsize=8)
    ax.set_xlabel("win rate")
    ax.set_ylim(-0.6, len(results) - 0.1)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    try:
        fig.savefig(path)
    except OSError as exc:
        raise GameError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        plt.close(fig)
