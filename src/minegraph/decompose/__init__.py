"""Hoder's (2007) decomposition pipeline: board graph, general decompositions, the bipartite
decomposition, redundant-edge removal, series-parallel recognition and classification, with
its text report and its picture.

Modules, in pipeline order: :mod:`~.graph` (board graph, shells, interfaces),
:mod:`~.decomposition` (general decompositions, checker, composition), :mod:`~.bipartite`
(bipartite decomposition, redundant-edge removal), :mod:`~.sp` (ORIENT-SP-GRAPH, Valdes–
Tarjan–Lawler reductions, width-2 decompositions), :mod:`~.pipeline` (classification),
:mod:`~.report` (the text summary), :mod:`~.picture` (the SVG picture). The two engines built on the pipeline live with the
other engines: :mod:`minegraph.engines.thesis` (``engine="thesis"``) and
:mod:`minegraph.engines.dp_thesis` (``engine="dp-thesis"``). See ``docs/treedec.md``.

Examples
--------
>>> from minegraph import Board
>>> from minegraph.decompose import classify
>>> c = classify(Board.from_text("1#1\\n#2#\\n1#1"))
>>> c.polynomial, c.step, c.width
(True, 'edge-removal', 4)
"""

from minegraph.decompose.bipartite import bipartite_decomposition, remove_redundant_edges
from minegraph.decompose.decomposition import (Decomposition, compose, decomposition_violations,
                                               is_decomposition, is_tree_decomposition)
from minegraph.decompose.graph import BoardGraph, board_graph
from minegraph.decompose.pipeline import Classification, classify, tree_decomposition
from minegraph.decompose.sp import is_series_parallel, series_parallel_tree

__all__ = ["BoardGraph", "board_graph", "Decomposition", "decomposition_violations",
           "is_decomposition", "is_tree_decomposition", "compose", "bipartite_decomposition",
           "remove_redundant_edges", "series_parallel_tree", "is_series_parallel",
           "Classification", "classify", "tree_decomposition"]
