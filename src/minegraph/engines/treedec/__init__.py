"""Hoder's (2007) decomposition pipeline: board graph, general decompositions, the bipartite
decomposition, redundant-edge removal, series-parallel recognition, classification, and the
thesis's consistency DP.

Modules, in pipeline order: :mod:`~.graph` (board graph, shells, interfaces),
:mod:`~.decomposition` (general decompositions, checker, composition), :mod:`~.bipartite`
(bipartite decomposition, redundant-edge removal), :mod:`~.sp` (ORIENT-SP-GRAPH, Valdes–
Tarjan–Lawler reductions, width-2 decompositions), :mod:`~.pipeline` (classification),
:mod:`~.thesis` (``engine="thesis"``), :mod:`~.order` (``engine="dp-thesis"``).
See ``docs/treedec.md``.

Examples
--------
>>> from minegraph import Board
>>> from minegraph.engines.treedec import classify
>>> c = classify(Board.from_text("1#1\\n#2#\\n1#1"))
>>> c.polynomial, c.step, c.width
(True, 'edge-removal', 4)
"""

from minegraph.engines.treedec.bipartite import bipartite_decomposition, remove_redundant_edges
from minegraph.engines.treedec.decomposition import (Decomposition, compose, decomposition_violations,
                                                     is_decomposition, is_tree_decomposition)
from minegraph.engines.treedec.graph import BoardGraph, board_graph
from minegraph.engines.treedec.order import PipelineDPEngine, pipeline_order
from minegraph.engines.treedec.pipeline import Classification, classify, tree_decomposition
from minegraph.engines.treedec.sp import is_series_parallel, series_parallel_tree
from minegraph.engines.treedec.thesis import ThesisEngine

__all__ = ["BoardGraph", "board_graph", "Decomposition", "decomposition_violations",
           "is_decomposition", "is_tree_decomposition", "compose", "bipartite_decomposition",
           "remove_redundant_edges", "series_parallel_tree", "is_series_parallel",
           "Classification", "classify", "tree_decomposition", "ThesisEngine",
           "PipelineDPEngine", "pipeline_order"]
