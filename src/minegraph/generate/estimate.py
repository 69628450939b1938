"""How long the uniform filter takes: its success rate on a sample, turned into a time.

The filter method (:func:`~minegraph.generate.noguess.noguess_board` with ``method="filter"``)
draws layouts until the deduction-only player solves one, so the boards are uniform among the
solved layouts at any density, but the number of layouts drawn is geometric with the share
``p`` of layouts the player solves: ``1/p`` on average. :func:`filter_estimate` plays a sample
of layouts (the first ones the filter itself would draw for that seed) and counts the solved
ones; :class:`FilterEstimate` turns the count into the expected layouts and seconds a board,
with a 95 % interval (Wilson's score interval for ``p``, whose bounds invert into bounds on
``1/p``). When no layout of the sample is solved, only a lower bound is known.

Examples
--------
>>> e = filter_estimate(9, 9, 10, first=(4, 4), rules="modern", sample=50)
>>> e.sampled, 0 < e.solved <= 50, e.expected_layouts >= 1
(50, True, True)
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Callable

from minegraph.deadline import time_limit
from minegraph.errors import UserError
from minegraph.intervals import wilson as wilson_interval
from minegraph.rules import draw_layout

__all__ = ["FilterEstimate", "filter_estimate", "wilson_interval", "DEFAULT_SAMPLE"]

#: Layouts :func:`filter_estimate` plays by default (about a second on Expert).
DEFAULT_SAMPLE = 1_000


@dataclass(frozen=True)
class FilterEstimate:
    """The filter method's success on a sample, and the time a board takes at that rate.

    Attributes
    ----------
    sampled
        Layouts played.
    solved
        Of them, those the player solved from the first click.
    seconds
        The time the sample took.
    max_attempts
        The layouts the run may draw (it gives up after them).

    Examples
    --------
    >>> e = FilterEstimate(sampled=500, solved=20, seconds=1.5, max_attempts=100_000)
    >>> e.rate, e.expected_layouts, round(e.expected_seconds, 3)
    (0.04, 25.0, 0.075)
    """

    sampled: int
    solved: int
    seconds: float
    max_attempts: int

    @property
    def rate(self) -> float:
        """The share of layouts solved."""
        return self.solved / self.sampled if self.sampled else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95 % interval of the share (:func:`wilson_interval`)."""
        return wilson_interval(self.solved, self.sampled)

    @property
    def seconds_per_layout(self) -> float:
        return self.seconds / self.sampled if self.sampled else 0.0

    @property
    def expected_layouts(self) -> float:
        """Layouts drawn a board on average (``1/p``; infinite when none was solved)."""
        return 1 / self.rate if self.solved else math.inf

    @property
    def layouts_interval(self) -> tuple[float, float]:
        """The 95 % interval of the layouts a board (the share's interval inverted)."""
        low, high = self.interval
        return 1 / high, (1 / low if low > 0 else math.inf)

    @property
    def expected_seconds(self) -> float:
        return self.expected_layouts * self.seconds_per_layout

    @property
    def seconds_interval(self) -> tuple[float, float]:
        low, high = self.layouts_interval
        return low * self.seconds_per_layout, high * self.seconds_per_layout

    def describe(self) -> str:
        """One line: the sample, the share solved and the time a board.

        Examples
        --------
        >>> print(FilterEstimate(1000, 10, 2.0, 100_000).describe())
        filter: 10 of 1,000 sampled layouts solved (1.0 %, 95 % 0.54-1.8 %) at 2.0 ms a layout: about 100 layouts a board (95 % 55-180), about 0.20 s (95 % 0.11-0.37 s)
        >>> print(FilterEstimate(1000, 0, 1.0, 100_000).describe())
        filter: none of 1,000 sampled layouts solved (95 %: below 0.38 %) at 1.0 ms a layout: more than 260 layouts a board, more than 0.26 s, possibly far more
        >>> print(FilterEstimate(1000, 7, 0.8, 100_000).describe())
        filter: 7 of 1,000 sampled layouts solved (0.70 %, 95 % 0.34-1.4 %) at 0.80 ms a layout: about 140 layouts a board (95 % 70-290), about 0.11 s (95 % 56 ms-0.24 s)
        >>> print(FilterEstimate(1000, 1, 1.0, 100).describe())  # doctest: +ELLIPSIS
        filter: 1 of 1,000 ... about 1,000 layouts a board (95 % 180-5,700), ...; more than the 100 layouts allowed (raise the limit)
        """
        per = f" at {_duration(self.seconds_per_layout)} a layout"
        low, high = self.interval
        first, last = self.layouts_interval
        if not self.solved:
            line = (f"filter: none of {self.sampled:,} sampled layouts solved (95 %: below "
                    f"{_percent(high)}){per}: more than {_count(first)} layouts a board, more "
                    f"than {_duration(self.seconds_interval[0])}, possibly far more")
        else:
            s_first, s_last = self.seconds_interval
            line = (f"filter: {self.solved:,} of {self.sampled:,} sampled layouts solved "
                    f"({_percent(self.rate)}, 95 % {_percent(low, False)}-{_percent(high)})"
                    f"{per}: about {_count(self.expected_layouts)} layouts a board (95 % "
                    f"{_count(first)}-{_count(last)}), about "
                    f"{_duration(self.expected_seconds)} (95 % {_span(s_first, s_last)})")
        if first > self.max_attempts:
            line += f"; more than the {self.max_attempts:,} layouts allowed (raise the limit)"
        elif self.solved and self.expected_layouts > self.max_attempts:
            line += f"; likely more than the {self.max_attempts:,} layouts allowed"
        return line


def _significant(x: float) -> str:
    """Two significant digits, with thousands separators.

    Examples
    --------
    >>> [_significant(x) for x in (0.99995, 0.0123, 184.0, 54.67, 12345.0)]
    ['1.0', '0.012', '180', '55', '12,000']
    """
    if x == 0:
        return "0"
    digits = 1 - math.floor(math.log10(abs(x)))
    rounded = round(x, digits)
    # Rounding up to the next power of ten (0.99995 to 1.0) takes a digit less.
    digits = 1 - math.floor(math.log10(abs(rounded)))
    rounded = round(rounded, digits)
    if digits <= 0:
        return f"{int(rounded):,}"
    return f"{rounded:.{digits}f}"


def _percent(share: float, unit: bool = True) -> str:
    return _significant(100 * share) + (" %" if unit else "")


def _count(layouts: float) -> str:
    return "infinitely many" if math.isinf(layouts) else _significant(max(1.0, layouts))


def _duration(seconds: float, unit: bool = True) -> str:
    """Seconds in ms, s, min, h or days, two significant digits."""
    if math.isinf(seconds):
        return "forever"
    for size, name in ((86400, "days"), (3600, "h"), (60, "min"), (1, "s")):
        if seconds >= size:
            return _significant(seconds / size) + (f" {name}" if unit else "")
    if seconds >= 0.1:
        return _significant(seconds) + (" s" if unit else "")
    return _significant(1000 * seconds) + (" ms" if unit else "")


def _span(low: float, high: float) -> str:
    """``low-high unit``, or each with its unit when they differ (``57 ms-0.24 s``)."""
    first, last = _duration(low), _duration(high)
    if first.rsplit(" ", 1)[-1] == last.rsplit(" ", 1)[-1]:
        return f"{_duration(low, False)}-{last}"
    return f"{first}-{last}"


def filter_estimate(rows: int, cols: int, mines: int, *, first: tuple[int, int] | int = (0, 0),
                    rules: str = "classic", seed: int = 0, topology: str = "square",
                    level: str = "search", total: bool | None = None,
                    sample: int = DEFAULT_SAMPLE, max_attempts: int | None = None,
                    clock: Callable[[], float] = time.perf_counter) -> FilterEstimate:
    """Play the first ``sample`` layouts the filter would draw and count the solved ones.

    Parameters
    ----------
    rows, cols, mines, first, rules, seed, topology, level, total
        As for :func:`~minegraph.generate.noguess.noguess_board`.
    sample
        Layouts to play (at least 1).
    max_attempts
        The run's limit (default :data:`~minegraph.generate.noguess.MAX_ATTEMPTS`), compared
        with the estimate.
    clock
        The time source (seconds).

    Returns
    -------
    FilterEstimate
        The count, the time the sample took and the limit.

    Raises
    ------
    GameError, UserError
        as :func:`~minegraph.generate.noguess.noguess_board` does, and for a ``sample`` below 1.

    Examples
    --------
    >>> ticks = iter(range(0, 100, 4))
    >>> e = filter_estimate(9, 9, 10, first=(4, 4), rules="modern", sample=20,
    ...                     clock=lambda: next(ticks))
    >>> e.seconds, e.sampled
    (4, 20)
    """
    from minegraph.generate.noguess import MAX_ATTEMPTS, _prepare
    if sample < 1:
        raise UserError(f"a sample of at least 1 layout expected, got {sample}")
    setup = _prepare(rows, cols, mines, first, rules, topology, level, total)
    started = clock()
    solved = 0
    with time_limit(None, "no-guess estimate"):
        for attempt in range(1, sample + 1):
            # The layouts noguess_board's filter draws first for this seed.
            rng = random.Random((seed << 32) + attempt - 1)
            layout = draw_layout(rng, setup.kept, len(setup.neighbors), mines)
            solved += setup.player.play(layout, setup.first) is not None
    return FilterEstimate(sample, solved, clock() - started,
                          MAX_ATTEMPTS if max_attempts is None else max_attempts)
