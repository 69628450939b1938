"""The olympiad's program as a function: a game's text in, the answer's text out.

:func:`answer` reads an OI game (``gra.in``) or a PGSolver game, solves it with the named
algorithm, optionally checks the solution with the independent verifier, and writes the OI
answer (``gra.out``, optionally followed by both players' strategies) or a ``paritysol``
solution. ``minegraph green`` (:mod:`minegraph.cli.green`) adds the files around it.
"""

from __future__ import annotations

from minegraph.errors import MinegraphError
from minegraph.green.formats import read_oi, read_pgsolver, write_oi_answer, write_paritysol
from minegraph.green.solvers import solve
from minegraph.green.verify import verify

__all__ = ["answer", "FORMATS"]

#: The game formats :func:`answer` reads.
FORMATS: tuple[str, ...] = ("oi", "pgsolver")


def answer(text: str, *, format: str = "oi", algorithm: str = "fast", strategy: bool = False,
           limits: bool = True, check: bool = False) -> str:
    """The answer to the game in ``text``.

    Parameters
    ----------
    text
        The game's file content.
    format
        ``"oi"`` (the task's ``gra.in``; the answer is ``gra.out``) or ``"pgsolver"`` (the
        answer is a ``paritysol`` solution).
    algorithm
        A name of :data:`~minegraph.green.solvers.SOLVERS`.
    strategy
        With ``"oi"``: append both players' strategies (a line ``strategy``, then one
        ``field successor`` pair per line, 1-based); the answer is then no longer the task's.
    limits
        With ``"oi"``: refuse games beyond the task's limits.
    check
        Verify the solution independently first.

    Returns
    -------
    str
        The answer file's text.

    Raises
    ------
    FormatError
        for a game the reader rejects.
    MinegraphError
        for an unknown format or algorithm, or a solution that fails verification.

    Examples
    --------
    >>> from minegraph.green.solvers import SAMPLE_GRA_IN, SAMPLE_GRA_OUT
    >>> answer(SAMPLE_GRA_IN, check=True) == SAMPLE_GRA_OUT
    True
    >>> answer(SAMPLE_GRA_IN, strategy=True).split("strategy\\n")[1].splitlines()[:2]
    ['1 6', '2 6']
    """
    if format not in FORMATS:
        raise MinegraphError(f"unknown game format {format!r}; expected one of {', '.join(FORMATS)}")
    game = read_pgsolver(text) if format == "pgsolver" else read_oi(text, limits=limits)
    solution = solve(game, algorithm)
    if check:
        verdict = verify(game, solution)
        if not verdict:
            raise MinegraphError(f"the {algorithm} solver's answer fails verification: "
                                 f"{verdict.reason}")
    if format == "pgsolver":
        return write_paritysol(solution)
    out = write_oi_answer(solution)
    if strategy:
        moves = [f"{v + 1} {s + 1}\n" for v, s in enumerate(solution.strategy.tolist()) if s >= 0]
        out += "strategy\n" + "".join(moves)
    return out
