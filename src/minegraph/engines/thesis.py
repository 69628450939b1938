"""The thesis's consistency algorithm (Hoder 2007, ch. 5) as an engine: ``engine="thesis"``.

OHODNOŤ-KOŘEN (EVALUATE-ROOT) computes, bottom-up over a tree decomposition whose bags have a
shell, the set of consistent assignments of each bag's unknown cells, keeping only those that
agree with some assignment of every child (KOMPATIBILNÍ-OHODNOCENÍ, COMPATIBLE-ASSIGNMENTS).
Statement 12: what is left at a node is exactly the assignments that extend consistently to
its subtree; the board is consistent iff the root keeps one. Linear for bounded width.

Two extensions, both needed for the engine's other answers:

- the total mine count, which the thesis leaves out: each kept assignment carries the set of
  mine totals its subtree can reach (a bit set in an ``int``), added up over children;
- forced cells and a completion: the same compatibility filter run top-down (what is then left
  at every node is exactly the restrictions of the board's completions), instead of the
  thesis's one rerun per cell with a mine or a safe mark put on it.

The decomposition is the pipeline's (:func:`~minegraph.decompose.pipeline.tree_decomposition`),
falling back to a min-fill one for boards outside the thesis's class.

References
----------
Hoder, *Hra minolovka – výpočetní složitost a implementace hledání řešení*, 2007, chapter 5.
"""

from __future__ import annotations

from minegraph.board import Board
from minegraph.constraints import build_system
from minegraph.deadline import check_deadline, current_deadline
from minegraph.engines.base import EngineResult
from minegraph.decompose.decomposition import Decomposition, contract_subsets, rooted
from minegraph.decompose.graph import board_graph
from minegraph.decompose.pipeline import classify, tree_decomposition

__all__ = ["ThesisEngine", "bag_assignments", "evaluate"]

Assignment = tuple[int, ...]


def clue_table(board: Board) -> dict[int, tuple[int, list[int]]]:
    """Every number's clue from the constraint model (unpropagated): its need (the number
    minus its known mines) and its hidden neighbours. A number with no hidden neighbour that
    is not met (the model reports the first) gets an impossible clue (need 1 over no cells), so
    every bag holding it fails."""
    system = build_system(board, propagate=False)
    table = {clue.cell: (clue.need, list(system.clue_cells(clue))) for clue in system.clues}
    failed = system.contradiction_clue
    if failed is not None and failed not in table:
        table[failed] = (1, [])
    return table


def bag_assignments(board: Board, bag: frozenset[int], unknowns: list[int],
                    clues: dict[int, tuple[int, list[int]]] | None = None) -> list[Assignment]:
    """Every consistent assignment (Definition 5) of ``unknowns`` (the bag's unknown cells,
    in this order; 1 = mine) for a bag with a shell: each number in the bag sees exactly its
    count. Backtracking, cutting a branch as soon as a number is over or cannot be reached.
    ``clues`` is :func:`clue_table` of the board (built here when not given).

    Parameters
    ----------
    board : Board
        The position.
    bag : frozenset of int
        The bag's cells.
    unknowns : list of int
        Its unknown cells, in the order of the assignments' entries.
    clues : dict, optional
        :func:`clue_table` of the board, if already made.

    Returns
    -------
    list of Assignment
        The consistent assignments.

    Examples
    --------
    >>> b = Board.from_text("#2#")
    >>> bag_assignments(b, frozenset({0, 1, 2}), [0, 2])
    [(1, 1)]
    """
    if clues is None:
        clues = clue_table(board)
    states = board.states
    where = {v: k for k, v in enumerate(unknowns)}
    needs: list[int] = []
    watch: list[list[int]] = [[] for _ in unknowns]     # numbers each variable touches
    left: list[int] = []                                # unassigned variables per number
    for p in sorted(bag):
        if states[p] < 0 or p not in clues:
            continue   # numbers without hidden neighbours are checked by the model itself
        need, around = clues[p]
        mine = [where[q] for q in around if q in where]
        if need < 0 or need > len(mine):
            return []
        k = len(needs)
        needs.append(need)
        left.append(len(mine))
        for v in mine:
            watch[v].append(k)
    out: list[Assignment] = []
    values = [0] * len(unknowns)
    deadline = current_deadline()
    steps = [0]  # calls of rec since the last look at the clock

    def rec(i: int) -> None:
        if deadline is not None:
            steps[0] += 1
            if steps[0] >= 4096:  # a node can take seconds: look at the clock inside it
                steps[0] = 0
                deadline.check()
        if i == len(unknowns):
            out.append(tuple(values))
            return
        for x in (0, 1):
            ok = True
            for k in watch[i]:
                left[k] -= 1
                needs[k] -= x
                if needs[k] < 0 or needs[k] > left[k]:
                    ok = False
            if ok:
                values[i] = x
                rec(i + 1)
            for k in watch[i]:
                left[k] += 1
                needs[k] += x

    rec(0)
    return out


def _sumset(a: int, b: int) -> int:
    """``{x + y : x in a, y in b}`` for bit sets."""
    if a == 1:
        return b
    if b == 1:
        return a
    if bin(a).count("1") > bin(b).count("1"):
        a, b = b, a
    out = 0
    while a:
        low = a & -a
        out |= b << (low.bit_length() - 1)
        a ^= low
    return out


def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


class _Tables:
    """A rooted tree decomposition with each bag's unknowns, the positions of the cells a node
    shares with its parent (in the parent's and in its own variables) and its own cells."""

    def __init__(self, board: Board, td: Decomposition) -> None:
        graph = board_graph(board)
        self.board, self.td = board, td
        self.clues = clue_table(board)
        self.order, self.parent = rooted(td)
        self.var = [sorted(v for v in bag if v in graph.unknowns) for bag in td.bags]
        self.with_total = board.mines is not None
        self.target = board.mines - len(graph.mines) if board.mines is not None else 0
        n = len(td.bags)
        self.children: list[list[int]] = [[] for _ in range(n)]
        for i in self.order:
            if self.parent[i] >= 0:
                self.children[self.parent[i]].append(i)
        self.roots = [i for i in self.order if self.parent[i] < 0]
        self.own: list[list[int]] = []
        self.up_pos: list[list[int]] = []     # shared cells, as positions in the parent
        self.here_pos: list[list[int]] = []   # the same cells, as positions in the node
        for i in range(n):
            p = self.parent[i]
            above = {v: k for k, v in enumerate(self.var[p])} if p >= 0 else {}
            self.own.append([k for k, v in enumerate(self.var[i]) if v not in above])
            self.up_pos.append([above[v] for v in self.var[i] if v in above])
            self.here_pos.append([k for k, v in enumerate(self.var[i]) if v in above])
        self.up: list[dict[Assignment, int]] = [{} for _ in range(n)]
        self.msg: list[dict[Assignment, int]] = [{} for _ in range(n)]

    def owned(self, i: int, a: Assignment) -> int:
        """The total of the node's own cells under ``a`` as a one-bit set (bit 0 without a total)."""
        return 1 << sum(a[k] for k in self.own[i]) if self.with_total else 1

    def key_up(self, c: int, a: Assignment) -> Assignment:
        """The parent assignment ``a`` restricted to the cells it shares with child ``c``."""
        return tuple(a[k] for k in self.up_pos[c])

    def key_here(self, c: int, b: Assignment) -> Assignment:
        """Child ``c``'s assignment ``b`` restricted to the cells it shares with its parent."""
        return tuple(b[k] for k in self.here_pos[c])

    def upward(self) -> int:
        """EVALUATE-ROOT with COMPATIBLE-ASSIGNMENTS at every node, leaves first; returns the
        totals the whole board reaches (a bit set; bit 0 alone without a total)."""
        for i in reversed(self.order):
            table: dict[Assignment, int] = {}
            check_deadline()
            for n, a in enumerate(bag_assignments(self.board, self.td.bags[i], self.var[i],
                                                  self.clues)):
                if n & 4095 == 4095:
                    check_deadline()
                mask = self.owned(i, a)
                for c in self.children[i]:
                    m = self.msg[c].get(self.key_up(c, a))
                    if m is None:
                        break
                    mask = _sumset(mask, m)
                else:
                    table[a] = mask
            self.up[i] = table
            message: dict[Assignment, int] = {}
            for a, mask in table.items():
                key = self.key_here(i, a)
                message[key] = message.get(key, 0) | mask
            self.msg[i] = message
        self.totals = [self.msg[r].get((), 0) for r in self.roots]
        reach = 1
        for t in self.totals:
            reach = _sumset(reach, t) if t else 0
        return reach

    def downward(self) -> list[dict[Assignment, int]]:
        """For every kept assignment, the totals reachable outside its node's subtree: the
        compatibility filter run top-down (an assignment missing here extends to nothing)."""
        down: list[dict[Assignment, int]] = [{} for _ in self.up]
        for n, r in enumerate(self.roots):
            others = 1
            for m, t in enumerate(self.totals):
                if m != n:
                    others = _sumset(others, t)
            down[r] = dict.fromkeys(self.up[r], others)
        for i in self.order:
            kids = self.children[i]
            if not kids:
                continue
            check_deadline()
            gathered: list[dict[Assignment, int]] = [{} for _ in kids]
            for a, outside in down[i].items():
                inner = [self.msg[c][self.key_up(c, a)] for c in kids]
                suffix = [1] * (len(kids) + 1)
                for j in reversed(range(len(kids))):
                    suffix[j] = _sumset(suffix[j + 1], inner[j])
                prefix = _sumset(outside, self.owned(i, a))
                for j, c in enumerate(kids):
                    key = self.key_up(c, a)
                    gathered[j][key] = gathered[j].get(key, 0) | _sumset(prefix, suffix[j + 1])
                    prefix = _sumset(prefix, inner[j])
            for j, c in enumerate(kids):
                down[c] = {b: gathered[j][key] for b in self.up[c]
                           if (key := self.key_here(c, b)) in gathered[j]}
        return down

    def completion(self) -> set[int]:
        """The mines of one completion: assignments chosen top-down, the mine total split
        among subtrees by the totals each can reach."""
        mines: set[int] = set()
        stack: list[tuple[int, Assignment, int]] = []
        rest = self.target
        for j, r in enumerate(self.roots):
            t = _split(self.totals[j], self.totals[j + 1:], rest)
            rest -= t
            stack.append((r, (), t))
        while stack:
            i, key, total = stack.pop()
            a = next(a for a, m in self.up[i].items() if m >> total & 1 and self.key_here(i, a) == key)
            mines.update(v for v, x in zip(self.var[i], a) if x)
            kids = self.children[i]
            inner = [self.msg[c][self.key_up(c, a)] for c in kids]
            left = total - (self.owned(i, a).bit_length() - 1)
            for j, c in enumerate(kids):
                t = _split(inner[j], inner[j + 1:], left)
                left -= t
                stack.append((c, self.key_up(c, a), t))
        return mines


def _split(first: int, others: list[int], total: int) -> int:
    """A total in ``first`` such that the ``others`` together reach the remainder."""
    after = 1
    for m in others:
        after = _sumset(after, m)
    return next(s for s in _bits(first) if s <= total and after >> (total - s) & 1)


def _meets(up: int, down: int, target: int) -> bool:
    return any(down >> (target - s) & 1 for s in _bits(up) if s <= target)


def evaluate(board: Board, td: Decomposition) -> EngineResult:
    """Consistency, forced cells and a completion of ``board`` over the tree decomposition
    ``td`` of its board graph (every bag must have a shell).

    Cost: linear in the nodes times the assignments per bag (at most ``2**(width + 1)``),
    times the mine totals tracked when the board has a total.

    Parameters
    ----------
    board : Board
        The position.
    td : Decomposition
        A tree decomposition of its board graph.

    Returns
    -------
    EngineResult
        The answer.

    Examples
    --------
    >>> b = Board.from_text("#1-\\n##-\\n---")
    >>> r = evaluate(b, tree_decomposition(b)[0])
    >>> r.consistent, sorted(r.safe), sorted(r.mines)
    (True, [], [])
    >>> r = evaluate(b.with_states(b.states, 3), tree_decomposition(b)[0])
    >>> r.consistent
    False
    """
    t = _Tables(board, td)
    reach = t.upward()
    stats: dict[str, object] = {"width": td.width, "nodes": len(td.bags),
                                "assignments": sum(len(u) for u in t.up)}
    if t.target < 0 or not reach >> t.target & 1:
        return EngineResult.inconsistent(board.hidden, stats)
    down = t.downward()
    safe, mines = set(board.hidden), set(board.hidden)
    for i in range(len(td.bags)):
        valid = [a for a, m in t.up[i].items() if _meets(m, down[i].get(a, 0), t.target)]
        for k in t.own[i]:
            v = t.var[i][k]
            if any(a[k] for a in valid):
                safe.discard(v)
            if any(not a[k] for a in valid):
                mines.discard(v)
    return EngineResult(True, ThesisEngine.answers, completion=frozenset(t.completion()), safe=frozenset(safe),
                        mines=frozenset(mines), stats=stats)


class ThesisEngine:
    """Consistency, forced cells and one completion by the thesis's DP over the pipeline's
    tree decomposition (a min-fill one for boards outside the thesis's class).

    Examples
    --------
    >>> r = ThesisEngine().run(Board.from_text("1#1\\n#2#\\n---"))
    >>> r.consistent, sorted(r.safe), sorted(r.mines), r.stats["decomposition"]
    (True, [1], [3, 5], 'edge-removal')
    """

    name = "thesis"
    answers = frozenset({"consistency", "completion", "forced"})

    def complete(self, board: Board) -> EngineResult:
        return self.run(board)

    def run(self, board: Board) -> EngineResult:
        td, how = tree_decomposition(board, classify(board, heuristic=False))
        result = evaluate(board, contract_subsets(td))
        result.stats["decomposition"] = how
        return result
