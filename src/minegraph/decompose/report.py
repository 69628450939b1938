"""The human-readable report of a :class:`~minegraph.decompose.pipeline.Classification`."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from minegraph.decompose.pipeline import Classification

__all__ = ["summary"]


def summary(c: Classification) -> str:
    """The pipeline's steps and verdict, one fact per line.

    Parameters
    ----------
    c : Classification
        The pipeline's answer.

    Returns
    -------
    str
        The lines of the report.

    Examples
    --------
    >>> from minegraph import Board
    >>> from minegraph.decompose.pipeline import classify
    >>> print(summary(classify(Board.from_text("#1#\\n1#1"))), end="")
    board: 2x3 square, 3 hidden, 3 numbers, 0 known mines
    board graph: 6 vertices, 7 edges; treewidth <= 2 (min-fill heuristic)
    bipartite decomposition: 3 bags, 3 edges, width 3
    redundant-edge removal: 2 edges kept, 1 removed
    class: polynomial, by edge removal alone; tree decomposition of width 3
    """
    board, g = c.board, c.graph
    shape = (f"{board.rows}x{board.cols} {board.topology}" if board.is_grid
             else f"graph of {board.size} cells")
    lines = [f"board: {shape}, {len(g.unknowns)} hidden, {len(g.numbers)} numbers, "
             f"{len(g.mines)} known mines"]
    if c.decided is not None:
        lines.append(f"trivial propagation: {c.decided} decided cells taken out first")
    tw = "" if c.heuristic_width is None else f"; treewidth <= {c.heuristic_width} (min-fill heuristic)"
    lines.append(f"board graph: {g.graph.number_of_nodes()} vertices, "
                 f"{g.graph.number_of_edges()} edges{tw}")
    bip = c.bipartite.decomposition
    lines.append(f"bipartite decomposition: {len(bip.bags)} bags, {len(bip.edges)} edges, "
                 f"width {bip.width}")
    kept = len(c.reduced.decomposition.edges)
    lines.append(f"redundant-edge removal: {kept} edges kept, {len(bip.edges) - kept} removed")
    if c.blocks:
        sp = sum(b.series_parallel for b in c.blocks)
        largest = max(len(b.nodes) for b in c.blocks)
        lines.append(f"2-connected components with a cycle: {len(c.blocks)} (largest {largest} "
                     f"bags), {sp} series-parallel")
    if c.step == "edge-removal":
        lines.append(f"class: polynomial, by edge removal alone; tree decomposition of width {c.width}")
    elif c.step == "series-parallel":
        lines.append(f"class: polynomial, by series-parallel components; tree decomposition of "
                     f"width {c.width} (bound {c.bound})")
    else:
        lines.append(f"class: not found; {c.reason}")
    return "\n".join(lines) + "\n"
