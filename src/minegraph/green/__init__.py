"""The green game (VIII Polish Olympiad in Informatics, *Gra w zielone*): a Büchi game.

Ania and Bolek move a token along the moves of a directed graph, each from the fields they own;
the game ends when a field is entered a second time, and Ania wins iff the cycle closed contains
a green field. :func:`solve` finds where each player wins and how (see ``docs/green.md``).

Fields are 0-based inside the package; ``gra.in``/``gra.out`` number them from 1.

Examples
--------
>>> from minegraph.green import read_oi, solve, verify, SAMPLE_GRA_IN
>>> game = read_oi(SAMPLE_GRA_IN)
>>> sol = solve(game)
>>> sol.oi_answer(), verify(game, sol).ok
([1, 2, 4, 6, 7], True)
"""

from minegraph.green.formats import (read_oi, read_paritysol, read_pgsolver, write_oi,
                                     write_oi_answer, write_paritysol, write_pgsolver)
from minegraph.green.game import ANIA, BOLEK, GreenGame, check_task_rules
from minegraph.green.solution import Solution
from minegraph.green.solvers import SAMPLE_GRA_IN, SAMPLE_GRA_OUT, SOLVERS, solve
from minegraph.green.verify import Verdict, verify

__all__ = ["GreenGame", "ANIA", "BOLEK", "Solution", "SOLVERS", "solve", "verify", "Verdict",
           "check_task_rules", "read_oi", "write_oi", "write_oi_answer", "read_pgsolver",
           "write_pgsolver", "write_paritysol", "read_paritysol", "SAMPLE_GRA_IN",
           "SAMPLE_GRA_OUT"]
