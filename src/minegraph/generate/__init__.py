"""Puzzle generation: certified paper tables, unique puzzles, no-guess boards, grades.

- :mod:`minegraph.generate.paper`: tables by German & Lakshtanov's theorems, certified by full
  rank or by the null-space argument;
- :mod:`minegraph.generate.grade`: the deduction-only player and difficulty grades;
- :mod:`minegraph.generate.unique`: puzzles with a minimal set of numbers and one solution;
- :mod:`minegraph.generate.noguess`: game layouts solved from the first click without a guess;
- :mod:`minegraph.generate.repair`: repairing a layout where the no-guess player is stuck;
- :mod:`minegraph.generate.estimate`: the uniform filter's success rate and time a board;
- :mod:`minegraph.generate.sheet`: printable SVG sheets (puzzle and solution).

The submodules are imported on first use, so ``import minegraph.generate`` stays light.
"""
