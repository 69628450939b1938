"""A server's child processes, read from ``/proc``: what the load benchmark counts and the
server's tests check (the big lane's pool, its fork server; none may be left once the server
stops).

Linux only: where there is no ``/proc``, :func:`process_tree` finds nothing and
:func:`running` says ``False``.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["process_tree", "descendants", "running"]

_PROC = Path("/proc")


def _state_and_parent(pid: int) -> tuple[str, int] | None:
    """A process's state letter and parent id (``None``: gone, or no ``/proc``)."""
    try:
        stat = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # The command name (in parentheses) may hold spaces and parentheses: split after it.
    after = stat.rsplit(")", 1)[1].split()
    return after[0], int(after[1])


def process_tree(pid: int) -> dict[int, int]:
    """The running descendants of ``pid`` now, each with its parent: its children, theirs,
    and so on (zombies, which have ended and wait to be reaped, are left out).

    Parameters
    ----------
    pid
        The process.

    Returns
    -------
    dict of int to int
        Each descendant's process id and its parent's (empty without ``/proc``).

    Examples
    --------
    >>> import os, subprocess, sys
    >>> child = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
    ...                          stdin=subprocess.PIPE)
    >>> process_tree(os.getpid()).get(child.pid) in (os.getpid(), None)
    True
    >>> child.communicate(b""); child.pid in process_tree(os.getpid())
    (None, None)
    False
    """
    parents: dict[int, list[int]] = {}
    for entry in _PROC.iterdir() if _PROC.is_dir() else ():
        if entry.name.isdigit():
            found = _state_and_parent(int(entry.name))
            if found is not None and found[0] != "Z":
                parents.setdefault(found[1], []).append(int(entry.name))
    tree: dict[int, int] = {}
    todo = [pid]
    while todo:
        parent = todo.pop()
        for child in parents.get(parent, ()):
            if child not in tree:
                tree[child] = parent
                todo.append(child)
    return tree


def descendants(pid: int) -> set[int]:
    """The running descendants of ``pid`` now (:func:`process_tree` without the parents).

    Parameters
    ----------
    pid
        The process.

    Returns
    -------
    set of int
        Their process ids (empty without ``/proc``).

    Examples
    --------
    >>> import os
    >>> os.getpid() in descendants(os.getppid()) or not _PROC.is_dir()
    True
    """
    return set(process_tree(pid))


def running(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie does not).

    Parameters
    ----------
    pid
        The process.

    Returns
    -------
    bool

    Examples
    --------
    >>> import os
    >>> running(os.getpid()) or not _PROC.is_dir()
    True
    """
    found = _state_and_parent(pid)
    return found is not None and found[0] != "Z"
