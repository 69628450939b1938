"""What a review looks like: the text report ``minegraph review`` prints and the SVG
timeline of the clicks' probabilities (:mod:`minegraph.play.review` builds the review).
"""

from __future__ import annotations

import textwrap
from fractions import Fraction
from typing import TYPE_CHECKING

from minegraph.present import fraction_text, heat_rgb, percent_text

if TYPE_CHECKING:
    from minegraph.play.review import Review

__all__ = ["render_review", "timeline_svg", "REPLAY_FORMATS"]

#: The replay formats by file extension, with the program that writes them.
REPLAY_FORMATS = {"avf": "Minesweeper Arbiter", "evf": "Metasweeper",
                  "rmv": "Vienna Minesweeper", "mvf": "Minesweeper Clone"}


def _cell_text(cell: tuple[int, int] | None) -> str:
    return "-" if cell is None else f"({cell[0]},{cell[1]})"


def _probability_text(p: Fraction) -> str:
    return f"{percent_text(p)} ({fraction_text(p)})" if 0 < p < 1 else percent_text(p)


def render_review(r: Review, *, every: bool = False) -> str:
    """The text report of a review (what ``minegraph review`` prints).

    Parameters
    ----------
    r
        The review.
    every
        List every click, not only the first click and the guesses.

    Returns
    -------
    str
        The report.
    """
    size = {(9, 9, 10): "Beginner", (8, 8, 10): "Beginner", (16, 16, 40): "Intermediate",
            (16, 30, 99): "Expert"}.get((r.rows, r.cols, r.mines), "custom")
    by = REPLAY_FORMATS[r.format]
    head = (f"replay: {r.name} (.{r.format}, {by}"
            + (f"; written by {r.software}" if r.software else "")
            + (f"; player {r.player}" if r.player else "") + ")")
    lines = [*textwrap.wrap(head, width=88, subsequent_indent="  "),
             f"board: {size} {r.rows}x{r.cols}, {r.mines} mines; {r.outcome} "
             f"in {r.time:.3f} s"]
    bps, eff = r.bbbv_per_second, r.efficiency
    lines.append(f"3BV: {r.bbbv} (solved {r.bbbv_solved}); 3BV/s: "
                 f"{'-' if bps is None else f'{bps:.3f}'}; efficiency (3BV/clicks): "
                 f"{'-' if eff is None else f'{eff:.0%}'}")
    lines.append(f"clicks: {r.counts['total']} (left {r.counts['left']}, right "
                 f"{r.counts['right']}, chord {r.counts['chord']}; effective "
                 f"{r.counts['effective']})")
    lines.extend(textwrap.wrap(_figures_text(r.figures()), width=88, subsequent_indent="  "))
    guesses = r.guesses
    lines.append(f"uncovering clicks: {len(r.clicks)} left clicks, {len(r.chords)} chords; "
                 f"guesses: {len(guesses)}")
    lines.append(f"luck: {_probability_text(r.luck)}: the chance of surviving the "
                 f"{len(guesses)} guess{'es' if len(guesses) != 1 else ''} taken")
    avoidable = r.avoidable
    if avoidable:
        lines.append(f"avoidable risks: {len(avoidable)}, adding a "
                     f"{_probability_text(r.avoidable_cost)} chance of losing:")
        for c in avoidable:
            lines.extend(textwrap.wrap(
                f"  click {c.number} at {_cell_text(c.cell)}: mine probability "
                f"{_probability_text(c.probability)} while {_cell_text(c.best)} was certainly "
                f"safe", width=88, subsequent_indent="    "))
    else:
        lines.append("avoidable risks: none (no guess while a certainly safe cell existed)")
    if r.verdicts:
        lines.extend(_coach_lines(r))
    shown = [c for c in r.timeline if every or c.first or c.guess or c.exploded]
    if shown:
        lines.append(("every click:" if every else "the first click and the guesses:"))
        lines.append(f"  {'#':>4} {'kind':<5} {'cell':<7} {'time':>7} {'+s':>5}  "
                     f"{'mine probability':<17} {'safest then':<14} note")
        for c in shown:
            label = r.label(c)
            note = ("first click" if c.first else "avoidable" if c.avoidable
                    else "best guess" if label == "best" else "inferior guess"
                    if label == "inferior" else "guess" if c.guess else "")
            if c.exploded:
                note = (note + ", " if note else "") + "hit a mine"
            safest = "-" if c.best is None or c.best_probability is None else \
                f"{_cell_text(c.best)} {percent_text(c.best_probability)}"
            since = "" if c.since_previous is None else f"{c.since_previous:.2f}"
            lines.append(f"  {c.number:>4} {c.kind:<5} {_cell_text(c.cell):<7} {c.time:>7.2f} "
                         f"{since:>5}  {_probability_text(c.probability):<17} {safest:<14} "
                         f"{note}".rstrip())
    key = ("key: probabilities are exact, from the numbers the player saw and the total mine "
           "count (flags left out); cells are (row,col) from 0 at the top left; +s: seconds "
           "since the previous click; a guess is a click or chord with a mine probability "
           "above 0; the first click is never a mine under the game's rules and is no guess; "
           "luck multiplies 1 - p over the guesses"
           + ("; win chances are with perfect play where marked exact, else as a quick "
              "play-out plays on to the exact endgame (over uniformly drawn layouts, +- a "
              "95% half-width); progress: the chance a cell is safe and leaves a certainly safe "
              "cell" if r.verdicts else ""))
    lines.extend(textwrap.wrap(key, width=88, subsequent_indent="  ", break_on_hyphens=False))
    return "\n".join(lines) + "\n"


def _figures_text(f: dict[str, object]) -> str:
    """The community's figures on one line (``-`` where undefined)."""
    def num(key: str, digits: int = 3) -> str:
        value = f.get(key)
        return "-" if not isinstance(value, (int, float)) else \
            (str(value) if isinstance(value, int) else f"{value:.{digits}f}")
    return (f"RQP {num('rqp')}; IOE {num('ioe')}; STNB {num('stnb', 1)}; ZiNi {num('zini')}; "
            f"openings {num('openings')}, islands {num('islands')}; path "
            f"{num('path', 0)} px; clicks/s {num('clicks_per_second', 2)}")


def _win_text(x: Fraction | float, exact: bool) -> str:
    return percent_text(x) if exact or isinstance(x, Fraction) else \
        percent_text(Fraction(x).limit_denominator(10 ** 6))


def _coach_lines(r: Review) -> list[str]:
    """What each judged guess cost in chance of winning, and why: the alternatives."""
    lost = r.win_probability_lost or 0.0
    lines = [f"win chance given up: {lost:.1%} over {len(r.verdicts)} judged "
             f"guess{'es' if len(r.verdicts) != 1 else ''}:"]
    for number, v in sorted(r.verdicts.items()):
        click = next(c for c in r.timeline if c.number == number)
        how = "exact" if v.exact else f"by play over {v.samples} layouts, +-{v.error or 0:.0%}"
        best = "itself" if v.best_cells == v.alternatives[0].cells else \
            _cells_text(v.best_cells, r.cols)
        text = (f"  click {number} at {_cell_text(click.cell)} ({v.label}): wins "
                f"{_win_text(v.win_probability, v.exact)}, the best ({best}) "
                f"{_win_text(v.win_probability_best, v.exact)} ({how}). Why: "
                + "; ".join(f"{_cells_text(a.cells, r.cols)} mine {percent_text(a.probability)}, "
                            + ("" if a.progress is None else
                               f"progress {percent_text(a.progress)}, ")
                            + f"wins {_win_text(a.win, v.exact)}" for a in v.alternatives))
        lines.extend(textwrap.wrap(text, width=88, subsequent_indent="    "))
    return lines


def _cells_text(cells: tuple[int, ...], cols: int) -> str:
    return "+".join(_cell_text(divmod(c, cols)) for c in cells)


def _counted(n: int, word: str, plural: str | None = None) -> str:
    """``n`` and ``word``, plural unless ``n`` is 1.

    Examples
    --------
    >>> _counted(1, "guess", "guesses"), _counted(0, "guess", "guesses"), _counted(2, "click")
    ('1 guess', '0 guesses', '2 clicks')
    """
    return f"{n} {word if n == 1 else plural or word + 's'}"


def _hex(p: Fraction) -> str:
    red, green, blue = heat_rgb(p)
    return f"#{red:02x}{green:02x}{blue:02x}"


def timeline_svg(r: Review) -> str:
    """The timeline of a review as SVG: one bar per uncovering click, as tall as the mine
    probability faced, in the heat map's colours; guesses are labelled, avoidable risks
    ringed, the first click drawn hollow, a fatal click crossed.

    Parameters
    ----------
    r
        The review.

    Returns
    -------
    str
        An SVG document.
    """
    items = r.timeline
    left, top, height = 46, 34, 160
    # The rows under the bars, from the axis down: the avoidable ring, the fatal cross (on rows
    # of their own, so a click that is both shows both), the chord mark, then the key.
    ring_y, cross_y, chord_y = 9, 22, 38
    # Bars 6 to 24 pixels apart: a long game widens the picture, a short one fills 600.
    step = min(24.0, max(6.0, (600 - left - 20) / max(len(items), 1)))
    width = max(round(left + 20 + step * len(items)), 600)
    bottom = top + height
    full = bottom + 78
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{full}" '
           f'viewBox="0 0 {width} {full}" font-family="sans-serif" font-size="11">',
           f'<title>{_escape(r.name)}: mine probability at each click</title>',
           f'<rect width="{width}" height="{full}" fill="white"/>',
           f'<text x="{left}" y="16" font-size="12">{_escape(r.name)}: {r.outcome}, '
           f'{_counted(len(r.clicks), "click")}, {_counted(len(r.chords), "chord")}, '
           f'{_counted(len(r.guesses), "guess", "guesses")}, luck '
           f'{_escape(percent_text(r.luck))}</text>']
    for frac in (0, 0.25, 0.5, 0.75, 1):
        y = bottom - frac * height
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{width - 10}" y2="{y:.1f}" '
                   f'stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{int(frac * 100)}%'
                   f'</text>')
    for k, c in enumerate(items):
        x = left + 10 + k * step + step / 2
        p = float(c.probability)
        h = max(p * height, 0 if c.probability == 0 else 2)
        colour = _hex(c.probability)
        tip = (f"#{c.number} {c.kind} {_cell_text(c.cell)} at {c.time:.2f} s: mine probability "
               f"{fraction_text(c.probability)} ({percent_text(c.probability)})"
               + ("; first click" if c.first else "")
               + ("; a certainly safe cell existed" if c.safe_available else "")
               + ("; hit a mine" if c.exploded else ""))
        if c.probability == 0:
            out.append(f'<rect x="{x - step / 2 + 1:.1f}" y="{bottom - 3}" width="{step - 2:.1f}" '
                       f'height="3" fill="{colour}"><title>{_escape(tip)}</title></rect>')
        elif c.first:
            out.append(f'<rect x="{x - step / 2 + 1:.1f}" y="{bottom - h:.1f}" '
                       f'width="{step - 2:.1f}" height="{h:.1f}" fill="none" stroke="#777" '
                       f'stroke-dasharray="2 2"><title>{_escape(tip)}</title></rect>')
        else:
            out.append(f'<rect x="{x - step / 2 + 1:.1f}" y="{bottom - h:.1f}" '
                       f'width="{step - 2:.1f}" height="{h:.1f}" fill="{colour}" stroke="#333" '
                       f'stroke-width="0.5"><title>{_escape(tip)}</title></rect>')
            label = percent_text(c.probability)
            out.append(f'<text x="{x:.1f}" y="{bottom - h - 4:.1f}" text-anchor="middle" '
                       f'font-size="9">{_escape(label)}</text>')
        if c.kind == "chord" and step >= 10:
            out.append(f'<text x="{x:.1f}" y="{bottom + chord_y}" text-anchor="middle" '
                       f'font-size="9" fill="#555">c</text>')
        if c.avoidable:
            out.append(f'<circle class="avoidable" cx="{x:.1f}" cy="{bottom + ring_y}" r="4" '
                       f'fill="none" stroke="#e65100" stroke-width="2"><title>avoidable: a '
                       f'certainly safe cell existed</title></circle>')
        if c.exploded:
            out.append(f'<path class="hit" d="M{x - 4:.1f},{bottom + cross_y - 4} l8,8 m0,-8 l-8,8" '
                       f'stroke="#b71c1c" stroke-width="2"><title>hit a mine</title></path>')
    out.append(f'<line x1="{left}" y1="{bottom}" x2="{width - 10}" y2="{bottom}" stroke="#333"/>')
    out.append(f'<text x="{left}" y="{bottom + 56}">clicks and chords (c) in order, 1 to '
               f'{len(items)}; bar: the mine probability faced</text>')
    out.append(f'<text x="{left}" y="{bottom + 71}">ring (first row): an avoidable risk (a '
               f'certainly safe cell existed); cross (second row): hit a mine; dashed: the '
               f'first click</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
