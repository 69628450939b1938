"""Bulk work on many cores or a Dask cluster: one ordered map, used by every command that plays
or generates in bulk (``minegraph bench``, ``minegraph generate --count``).

:func:`ordered_map` applies a picklable function to the items of an iterable and yields the
results in the order of the items:

- **where**: in this process (``workers=1``), on local worker processes (a
  :class:`~minegraph.pool.Pool`, the package's one pool, also the web app's big lane; it is
  exported here as :class:`Pool`), or on a Dask cluster (``scheduler="tcp://host:8786"``,
  :func:`dask_client`);
- **bounded**: the items are drawn lazily and at most ``in_flight`` tasks are submitted at a
  time, so ten billion items cost no more memory than ten;
- **clean stop**: when the consumer stops early (an exception such as ``KeyboardInterrupt``
  while it waits, the current query's deadline cancelled, ``break``, or closing the
  generator), queued tasks are cancelled and the
  worker processes are killed and reaped before the exception goes on. The workers ignore
  SIGINT: Ctrl-C reaches the whole process group, and it is the parent that decides to stop
  them (the library installs no handler in the caller's process).

Resuming is the caller's: pass only the items not done yet (a generator is fine). A progress
bar on standard error is :class:`Progress`.

Examples
--------
>>> list(ordered_map(abs, [-3, 1, -2], workers=1))
[3, 1, 2]
>>> [len(chunk) for chunk in chunked(range(7), 3)]
[3, 3, 1]
"""

from __future__ import annotations

import itertools
import os
import sys
from collections import deque
from typing import Any, Callable, Iterable, Iterator, TextIO, TypeVar

from minegraph.deadline import check_deadline
from minegraph.errors import UserError
from minegraph.extras import install_hint
from minegraph.pool import Pool, Task
from minegraph.present import shown

__all__ = ["ordered_map", "chunked", "dask_client", "require_dask", "Progress", "default_workers",
           "Pool"]

T = TypeVar("T")
R = TypeVar("R")

#: Seconds between two looks at the current query's deadline while a result is awaited.
POLL_SECONDS = 0.1

#: Seconds to wait for a Dask scheduler before giving up on it.
CONNECT_SECONDS = 10

#: Tasks in flight per worker: enough to keep every worker busy while results are consumed.
IN_FLIGHT_PER_WORKER = 4


def default_workers() -> int:
    """The cores this process may use.

    Returns
    -------
    int
        The size of the process's CPU affinity set (the CPU count where that is unknown).
    """
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def chunked(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """Consecutive lists of ``size`` items (the last may be shorter), drawn lazily.

    Parameters
    ----------
    items
        Any iterable (it may be endless).
    size
        Items per list, at least 1.

    Yields
    ------
    list
        The next ``size`` items, in order.
    """
    iterator = iter(items)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk


def ordered_map(fn: Callable[[T], R], items: Iterable[T], *, workers: int | None = None,
                scheduler: str | None = None, in_flight: int | None = None) -> Iterator[R]:
    """``fn(item)`` for every item, in the order of ``items``, computed in parallel.

    Parameters
    ----------
    fn
        A picklable function (defined at module level, or a ``functools.partial`` of one).
    items
        Any iterable, drawn lazily (it may be endless: stop consuming to stop).
    workers
        Local worker processes (default: every usable core); ``1`` runs in this process.
    scheduler
        The address of a Dask scheduler to run on instead of local processes.
    in_flight
        Tasks submitted and not yet consumed, at most (default: 4 per worker, or 64 on Dask).

    Returns
    -------
    Iterator
        The results, in order. Closing it early stops the work (see the module's notes).

    Raises
    ------
    UserError
        for a number of workers or tasks in flight below 1, or a Dask scheduler that is
        missing or cannot be reached.

    Examples
    --------
    >>> list(ordered_map(pow, [], workers=2))
    []
    """
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or workers < 1):
        raise UserError(f"workers: expected a whole number >= 1, got {shown(workers)}")
    if in_flight is not None and (isinstance(in_flight, bool) or not isinstance(in_flight, int)
                                  or in_flight < 1):
        raise UserError(f"in_flight: expected a whole number >= 1, got {shown(in_flight)}")
    if scheduler is not None:
        return _on_dask(fn, items, scheduler, in_flight or 64)
    count = workers if workers is not None else default_workers()
    if count == 1:
        return map(fn, items)
    return _on_pool(fn, items, count, in_flight or IN_FLIGHT_PER_WORKER * count)


def _on_pool(fn: Callable[[T], R], items: Iterable[T], workers: int,
             in_flight: int) -> Iterator[R]:
    """On a :class:`~minegraph.pool.Pool` of ``workers`` processes (the package's one pool,
    which the web app's big lane runs on too), closed however the run ends: the clean stop
    and the end of a finished run alike kill the workers and read nothing more."""
    pool = Pool(workers)
    try:
        yield from _run(pool, fn, enumerate(items), in_flight)
    finally:
        pool.close()


def _run(pool: Pool, fn: Callable[[Any], Any], tasks: Iterator[tuple[int, Any]],
         in_flight: int) -> Iterator[Any]:
    running: dict[Task, int] = {}                 # task -> the index of its item
    finished: dict[int, Any] = {}                 # results waiting for an earlier one
    submitted = wanted = 0
    exhausted = False
    while True:
        while len(running) < pool.size and not exhausted and submitted - wanted < in_flight:
            task = next(tasks, None)
            if task is None:
                exhausted = True
                break
            running[pool.submit(fn, (task[1],))] = task[0]
            submitted += 1
        if wanted in finished:
            yield finished.pop(wanted)
            wanted += 1
            continue
        if exhausted and not running:
            return
        check_deadline()                            # a cancelled query stops the wait
        for done in Pool.wait(running, POLL_SECONDS):
            finished[running.pop(done)] = done.result()     # a task's exception goes on


def _wait(future: Any) -> Any:
    """A Dask future's result, waiting in short slices so that a cancelled query (the command
    line cancels it on Ctrl-C) stops the wait: :func:`~minegraph.deadline.check_deadline`
    raises, and the caller's clean stop cancels the rest."""
    while True:
        check_deadline()            # also between results that come quickly
        try:
            return future.result(timeout=POLL_SECONDS)
        except TimeoutError:
            if future.done():       # the task's own TimeoutError, or done just now
                return future.result()


def require_dask() -> Any:
    """``distributed.Client``, or a :class:`UserError` saying how to install it: what a
    command checks before any work when ``--scheduler`` is given.

    Returns
    -------
    type
        ``distributed.Client``.

    Raises
    ------
    UserError
        when dask.distributed (the package's ``cluster`` extra) is missing.
    """
    try:
        from distributed import Client
    except ImportError:
        raise UserError(f"--scheduler needs dask.distributed: {install_hint('cluster')}") \
            from None
    return Client


def dask_client(scheduler: str) -> Any:
    """A ``distributed.Client`` on the scheduler at ``scheduler`` (``tcp://host:8786``).

    Parameters
    ----------
    scheduler
        The scheduler's address.

    Returns
    -------
    distributed.Client
        A client connected to it (the caller closes it).

    Raises
    ------
    UserError
        when dask.distributed is missing or the scheduler cannot be reached in
        :data:`CONNECT_SECONDS`.
    """
    Client = require_dask()
    try:
        return Client(scheduler, timeout=f"{CONNECT_SECONDS}s")
    except OSError as exc:
        raise UserError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None


def _on_dask(fn: Callable[[T], R], items: Iterable[T], scheduler: str,
             in_flight: int) -> Iterator[R]:
    client = dask_client(scheduler)
    pending: deque[Any] = deque()
    iterator = iter(items)
    try:
        for item in itertools.islice(iterator, in_flight):
            pending.append(client.submit(fn, item, pure=False))
        while pending:
            result: R = _wait(pending.popleft())
            for item in itertools.islice(iterator, 1):
                pending.append(client.submit(fn, item, pure=False))
            yield result
    finally:
        for future in pending:
            future.cancel()
        client.close()


class Progress:
    """A rich progress bar on standard error, or nothing when ``show`` is false.

    One line that fits the terminal's width (:func:`minegraph.present.terminal_width` of
    standard error, the stream it draws on): the label, the bar, the count done of the total,
    the note, the time elapsed and the time left. When they do not all fit, the elapsed time
    goes first, then the bar, then the time left, then the label is shortened: the count and
    the note are cut only on a terminal narrower than the two of them.

    Parameters
    ----------
    total
        Steps expected (``None``: unknown).
    label
        The text before the bar.
    show
        Whether to draw it (callers pass whether standard error is a terminal).
    note_width
        The longest note :meth:`advance` will show (its column is kept that wide).
    file, width
        Where to draw and in how many columns (default: standard error and its terminal's
        width); for tests and for embedding.

    Examples
    --------
    >>> bar = Progress(3, "games", show=False)
    >>> bar.advance(2, "win 50%"); bar.close()
    >>> Progress._layout(100, "expert modern strong", 28, 79)     # 80 columns, one kept free
    {'label': 20, 'count': 7, 'note': 28, 'left': 8, 'bar': 12}
    >>> Progress._layout(1000000, "expert modern strong", 28, 59)  # 60 columns: no room for a bar
    {'label': 14, 'count': 15, 'note': 28}
    """

    #: The narrowest bar worth drawing, and the widest (beyond it the line would only stretch).
    MIN_BAR, MAX_BAR = 5, 60
    #: A time column (``0:00:00``; ``10:00:00`` and more after ten hours).
    TIME = 8

    def __init__(self, total: int | None, label: str, *, show: bool, note_width: int = 0,
                 file: TextIO | None = None, width: int | None = None) -> None:
        self.bar: Any = None
        self.note_width = note_width
        if not show or total == 0:
            return
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn,
                                   TimeRemainingColumn)
        from rich.progress import Progress as RichProgress
        from rich.table import Column

        from minegraph.present import terminal_width
        if width is None:
            width = terminal_width(sys.stderr if file is None else file) or 80
        # One column short of the width: a line that fills the last column wraps on some terminals.
        sizes = self._layout(total, label, note_width, width - 1)

        def fixed(size: int) -> Column:
            return Column(width=size, min_width=size, max_width=size, no_wrap=True, overflow="ellipsis")

        columns: list[Any] = []
        if "label" in sizes:
            columns.append(TextColumn("{task.description}", table_column=fixed(sizes["label"])))
        if "bar" in sizes:
            columns.append(BarColumn(bar_width=sizes["bar"]))
        columns.append(MofNCompleteColumn(table_column=fixed(sizes["count"])))
        if "note" in sizes:
            columns.append(TextColumn("{task.fields[note]}", table_column=fixed(sizes["note"])))
        if "elapsed" in sizes:
            columns.append(TimeElapsedColumn(table_column=fixed(sizes["elapsed"])))
        if "left" in sizes:
            columns.append(TimeRemainingColumn(table_column=fixed(sizes["left"])))
        console = Console(stderr=True, width=width) if file is None else \
            Console(file=file, width=width, force_terminal=True)
        self.bar = RichProgress(*columns, console=console)
        self.task = self.bar.add_task(label, total=total, note="")
        self.bar.start()

    @classmethod
    def _layout(cls, total: int | None, label: str, note_width: int, width: int) -> dict[str, int]:
        """The width of each column shown in ``width`` columns (one space between columns)."""
        count = 2 * len(str(total)) + 1 if total is not None else 2 * 10 + 1
        sizes = {"label": len(label), "count": count}
        if note_width:
            sizes["note"] = note_width

        def used(parts: dict[str, int]) -> int:
            return sum(parts.values()) + len(parts) - 1

        for name, size in (("left", cls.TIME), ("bar", cls.MIN_BAR), ("elapsed", cls.TIME)):
            if used(sizes | {name: size}) <= width:
                sizes[name] = size
        if "bar" in sizes:
            sizes["bar"] = min(cls.MAX_BAR, cls.MIN_BAR + width - used(sizes))
        if used(sizes) > width:          # the label takes what is left, or goes
            room = width - used({k: v for k, v in sizes.items() if k != "label"}) - 1
            if room >= 4:
                sizes["label"] = room
            else:
                del sizes["label"]
        if used(sizes) > width and "note" in sizes:     # narrower than the count and the note
            sizes["note"] = max(1, width - sizes["count"] - 1)
        return sizes

    def advance(self, steps: int = 1, note: str | None = None) -> None:
        """Count ``steps`` more done, and show ``note`` beside the bar (when given)."""
        if self.bar is None:
            return
        if note is None:
            self.bar.update(self.task, advance=steps)
        else:
            self.bar.update(self.task, advance=steps, note=note)

    def close(self) -> None:
        """Stop drawing (the bar stays on the terminal as it last was)."""
        if self.bar is not None:
            self.bar.stop()
