"""Two builds of the native kernel side by side: the same calls, the same raw answers.

For a change of ``_kernel.c`` that must not change any answer (issue 35 split the C into
functions, made the results struct sequences and released the GIL): an older build, loaded
from its file, and this checkout's kernel answer ``analyze``, ``count_component`` (counting,
with and without the total, and completing) and ``solvable`` (with and without the exact
step) on random positions -- grids of every topology (wrong numbers, wrong flags, right and
wrong totals), Expert mid-games and random graphs -- and every answer must be the same, field
for field (an older build's plain tuples against the struct sequences).

Usage::

    git show b0953c6:src/minegraph/_kernel.c > /tmp/old/_kernel.c
    gcc -O2 -shared -fPIC $(python3-config --includes) /tmp/old/_kernel.c \
        -o /tmp/old/_kernel$(python3-config --extension-suffix)
    PYTHONPATH=src .venv/bin/python tools/kernel_ab.py \
        /tmp/old/_kernel.cpython-311-x86_64-linux-gnu.so SEED COUNT
"""
import collections
import importlib.util
import random
import sys

spec = importlib.util.spec_from_file_location("_kernel", sys.argv[1])
assert spec is not None and spec.loader is not None
old = importlib.util.module_from_spec(spec)
spec.loader.exec_module(old)
from minegraph import kernel
from minegraph.board import Board, HIDDEN, MINE, BLANK
from minegraph.topology import grid_neighbors
from minegraph.recipes import midgame
from minegraph.constraints import build_system
new = kernel.module()
assert new is not None
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
N = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
stats = collections.Counter()

def same(a, b, what):
    ta = tuple(a)
    tb = tuple(b)
    if what == "count" and ta[0] == 0:
        tb = (b.status, b.total, b.mined, b.nodes)
    elif what == "complete" and ta[0] == 0:
        tb = (b.status, b.completion)
    elif ta[0] != 0:          # old: (status, detail) or (status, None); new: struct, rest None
        tb = tb[:len(ta)]
        if ta[0] == 1 and len(ta) == 2 and ta[1] is None:   # count_component inconsistent
            tb = (tb[0], None)
    if ta != tb:
        print("DIFF", what, ta[:3], tb[:3]); sys.exit(1)
    stats[f"{what} status {ta[0]}"] += 1

def random_board():
    topology = rng.choice(["square", "triangle", "hex", "torus"])
    rows, cols = rng.randint(3, 16), rng.randint(3, 30)
    n = rows * cols
    nbrs = grid_neighbors(topology, rows, cols)
    density = rng.choice([0.1, 0.15, 0.2, 0.3, 0.5])
    layout = [rng.random() < density for _ in range(n)]
    states = []
    for i in range(n):
        kind = rng.choice(["hidden", "hidden", "open", "open", "known", "blank"])
        if layout[i]:
            states.append(MINE if kind == "known" else HIDDEN)
        elif kind in ("open", "known"):
            states.append(sum(1 for q in nbrs[i] if layout[q]))
        elif kind == "blank":
            states.append(BLANK)
        else:
            states.append(HIDDEN)
    mines = sum(layout) if rng.random() < 0.6 else None
    if mines is not None and rng.random() < 0.2:
        mines = max(0, min(n, mines + rng.randint(-2, 2)))
    if rng.random() < 0.15:                     # a wrong number
        numbered = [i for i, s in enumerate(states) if s >= 0]
        if numbered:
            i = rng.choice(numbered); states[i] = rng.randint(0, len(nbrs[i]))
    if rng.random() < 0.1:                      # a wrong flag
        hidden = [i for i, s in enumerate(states) if s == HIDDEN]
        if hidden:
            states[rng.choice(hidden)] = MINE
    return Board.grid(rows, cols, states, topology=topology, mines=mines)

def random_graph():
    n = rng.randint(2, 60)
    edges = set()
    for _ in range(rng.randint(n, 4 * n)):
        u, v = rng.randrange(n), rng.randrange(n)
        if u != v:
            edges.add((min(u, v), max(u, v)))
    adj = [set() for _ in range(n)]
    for u, v in edges:
        adj[u].add(v); adj[v].add(u)
    layout = [rng.random() < 0.3 for _ in range(n)]
    states = []
    for i in range(n):
        kind = rng.choice(["hidden", "open", "open", "known"])
        if layout[i]:
            states.append(MINE if kind == "known" else HIDDEN)
        elif kind != "hidden":
            states.append(sum(layout[q] for q in adj[i]))
        else:
            states.append(HIDDEN)
    mines = None
    if rng.random() < 0.6:
        mines = sum(layout) + (rng.randint(-1, 1) if rng.random() < 0.2 else 0)
        mines = max(0, min(n, mines))
    return Board.from_graph(n, sorted(edges), states, mines=mines)

for k in range(N):
    if k % 4 == 3:
        board = random_graph()
    elif k % 4 == 0:
        topology = rng.choice(["square", "hex", "torus", "triangle"])
        rows, cols, m = (16, 30, 99) if topology == "square" else (12, 14, 30)
        seed = rng.randrange(10**6)
        board = midgame(rows, cols, m, seed, topology, clicks=rng.random() < .5).board
        if rng.random() < 0.5:
            board = board.with_states(board.states, None)
    else:
        board = random_board()
    ip, ix = kernel._csr(board.neighbors)
    total = -1 if board.mines is None else board.mines
    same(old.analyze(ip, ix, board.states, total, 200_000, 0.0, None),
         new.analyze(ip, ix, board.states, total, 200_000, 0.0, None), "analyze")
    # count_component on each component's key, counting and completing
    system = build_system(board)
    if system.consistent_so_far:
        for comp in system.components[:3]:
            sizes, clues = comp.key
            for wt in (True, False):
                same(old.count_component(sizes, clues, wt, 200_000, 0.0, None, -2),
                     new.count_component(sizes, clues, wt, 200_000, 0.0, None, -2), "count")
            for want in (-1, rng.randint(0, comp.cells)):
                same(old.count_component(sizes, clues, True, 200_000, 0.0, None, want),
                     new.count_component(sizes, clues, True, 200_000, 0.0, None, want), "complete")
    # solvable on a random layout of this shape
    n = len(board.states)
    mined = bytearray(n)
    for c in rng.sample(range(n), max(0, min(n - 1, int(n * rng.choice([0.1, 0.15, 0.2]))))):
        mined[c] = 1
    first = rng.randrange(n)
    for exact in (True, False):
        same(old.solvable(ip, ix, bytes(mined), first, sum(mined), 200_000, 0.0, None, exact),
             new.solvable(ip, ix, bytes(mined), first, sum(mined), 200_000, 0.0, None, exact),
             "solvable")
print(N, "positions, identical:", dict(sorted(stats.items())))
