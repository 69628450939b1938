"""Benchmark the combination of parts (``engines/combine.py``) and the whole ``analyze``.

What is measured:

1. Per big board (``bench/bigboards.py``: scattered and opening, 20% mines, seed 1): the
   parts' mine-count polynomials are computed once (DP per component), then

   - the new :func:`minegraph.engines.combine.combine` (subproduct tree), ``--repeats`` runs;
   - the previous quadratic algorithm (:func:`old_combine`, a verbatim copy), in a child
     process with a time limit (``--old-timeout``), once; its result must equal the new one
     (compared by a SHA-256 digest of count, sensitivities and per-floating count);
   - ``minegraph.analyze(board)``, in a child process with a time limit
     (``--analyze-timeout``), ``--analyze-repeats`` runs, with the child's peak memory.

2. ``--backends``: the tree with FLINT's ``fmpz_poly`` (the one shipped) against the same tree
   on gmpy2 (GMP) integers with Kronecker packing (:func:`tree_gmpy2`, kept here to make the
   choice reproducible), on the scattered boards of ``--backend-sizes``.

3. Expert 30x16/99: ``midgame_position(16, 30, 99, seed)`` for ``--expert`` seeds; per
   position the median over repeats of the old and of the new combination (small path).

Times are wall clock (``time.perf_counter``) with the garbage collector off during a timed
call; medians are reported. Results go to ``bench/results/combine.json`` with the machine
description and the command.

Usage::

    python bench/bench_combine.py                        # the full run (about half an hour)
    python bench/bench_combine.py --sizes 100 200 --no-big-opening --expert 50 --out /tmp/c.json
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import heapq
import json
import resource
import shlex
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone
from math import comb
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bigboards import FAMILIES  # noqa: E402
from machine import describe  # noqa: E402

from minegraph.constraints import build_system  # noqa: E402
from minegraph.engines.combine import (Combination, _reduced_weights, _scaled,  # noqa: E402
                                       binomial_weights, combine)
from minegraph.engines.dp import ComponentDP  # noqa: E402

SEED = 1
Case = tuple[list[list[int]], int, "int | None"]


# ----------------------------------------------------------------- the previous algorithm
def old_combine(polys: list[list[int]], floating: int, remaining: int | None) -> Combination:
    """The combination before the subproduct tree (verbatim): the product of the parts'
    polynomials by schoolbook multiplication, then per part an exact division ``Q / P_c`` and
    ``len(P_c)`` dot products with the binomial weights (``math.comb`` and a ratio recurrence)."""
    def poly_mul(a: list[int], b: list[int]) -> list[int]:
        out = [0] * (len(a) + len(b) - 1)
        for i, x in enumerate(a):
            if x:
                for j, y in enumerate(b):
                    out[i + j] += x * y
        return out

    def poly_div(q: list[int], p: list[int]) -> list[int]:
        shift = next(i for i, x in enumerate(p) if x)
        p = p[shift:]
        q = q[shift:]
        out = [0] * (len(q) - len(p) + 1)
        rem = list(q)
        lead = p[0]
        for k in range(len(out)):
            c = rem[k] // lead
            out[k] = c
            if c:
                for j in range(1, len(p)):
                    rem[k + j] -= c * p[j]
        return out

    def weights(n: int, total: int, length: int) -> list[int]:
        weight = [0] * length
        lo, hi = max(0, total - length + 1), min(n, total)
        if lo > hi:
            return weight
        value = comb(n, lo)
        for k in range(lo, hi + 1):
            weight[total - k] = value
            value = value * (n - k) // (k + 1)
        return weight

    product = [1]
    for poly in polys:
        product = poly_mul(product, poly)
    weight = weights(floating, remaining, len(product)) if remaining is not None else [2 ** floating]
    count = sum(x * w for x, w in zip(product, weight))
    if not count:
        return Combination(0, [[0] * len(p) for p in polys], 0, weight)
    if not floating:
        per_floating = 0
    elif remaining is not None:
        per_floating = sum(x * (w * (remaining - u) // floating)
                           for u, (x, w) in enumerate(zip(product, weight)))
    else:
        per_floating = count // 2
    sensitivity = []
    for poly in polys:
        others = poly_div(product, poly)
        sensitivity.append([sum(others[u] * weight[u + t] for u in range(len(others))
                                if u + t < len(weight)) for t in range(len(poly))])
    return Combination(count, sensitivity, per_floating, weight)


# ----------------------------------------------------------------- the gmpy2 alternative
def tree_gmpy2(polys: list[list[int]], floating: int, remaining: int | None) -> Combination:
    """The same subproduct tree and transposed products as ``combine``, multiplied as GMP
    integers: each polynomial packed into one ``mpz`` (``gmpy2.pack``, Kronecker
    substitution with slots wide enough for every product coefficient), one integer product,
    and the wanted slots unpacked."""
    import gmpy2
    from gmpy2 import mpz, pack, unpack

    def bits(a: list[Any]) -> int:
        return max((x.bit_length() for x in a), default=0)

    def middle(p: list[Any], rs: list[Any], lo: int, count: int) -> list[Any]:
        """Coefficients lo .. lo + count - 1 of p * rs."""
        slot = bits(p) + bits(rs) + min(len(p), len(rs)).bit_length() + 1
        x = pack(p, slot) * pack(rs, slot)
        out = unpack(gmpy2.f_mod_2exp(x >> (lo * slot), count * slot), slot)
        return out[:count] + [mpz(0)] * (count - len(out))

    def mul(a: list[Any], b: list[Any]) -> list[Any]:
        return middle(a, b, 0, len(a) + len(b) - 1)

    def power(p: list[Any], m: int) -> list[Any]:
        result: list[Any] | None = None
        while True:
            if m & 1:
                result = p if result is None else mul(result, p)
            m >>= 1
            if not m:
                assert result is not None
                return result
            p = mul(p, p)

    length = sum(len(p) for p in polys) - len(polys) + 1
    weight = binomial_weights(floating, remaining, length) if remaining is not None else [2 ** floating]
    if not any(weight) or any(not any(p) for p in polys):
        return Combination(0, [[0] * len(p) for p in polys], 0, weight)
    groups: dict[tuple[int, ...], list[int]] = {}
    for c, p in enumerate(polys):
        groups.setdefault(tuple(p), []).append(c)
    keys = list(groups)
    num = den = 1
    base = weight
    if remaining is not None:
        reduced = _reduced_weights(floating, remaining, weight)
        if reduced is not None:
            base, num, den = reduced
    below: list[list[Any] | None] = []
    node_poly: list[list[Any]] = []
    degree: list[int] = []
    children: list[tuple[int, int] | None] = []
    heap: list[tuple[int, int]] = []
    for g, key in enumerate(keys):
        single = [mpz(x) for x in key]
        m = len(groups[key])
        b = power(single, m - 1) if m > 1 else None
        below.append(b)
        node_poly.append(mul(b, single) if b is not None else single)
        degree.append(m * (len(key) - 1))
        children.append(None)
        heap.append((degree[g], g))
    heapq.heapify(heap)
    while len(heap) > 1:
        da, a = heapq.heappop(heap)
        db, b = heapq.heappop(heap)
        node_poly.append(mul(node_poly[a], node_poly[b]))
        degree.append(da + db)
        children.append((a, b))
        heapq.heappush(heap, (da + db, len(node_poly) - 1))
    root = heap[0][1]
    top = degree[root] + 1
    rs_root = [mpz(x) for x in reversed(list(base[:top]) + [0] * (top - len(base)))]
    leaf_rs: dict[int, list[Any]] = {}
    stack = [(root, rs_root)]
    while stack:
        v, rs = stack.pop()
        kids = children[v]
        if kids is None:
            leaf_rs[v] = rs
            continue
        a, b = kids
        stack.append((a, middle(node_poly[b], rs, degree[b], degree[a] + 1)))
        stack.append((b, middle(node_poly[a], rs, degree[a], degree[b] + 1)))
    sens_of: list[list[int]] = []
    for g, key in enumerate(keys):
        rs = leaf_rs[g]
        d = len(key) - 1
        bg = below[g]
        if bg is not None:
            rs = middle(bg, rs, degree[g] - d, d + 1)
        sens_of.append([int(x) for x in reversed(rs[:d + 1])])
    count = sum(x * s for x, s in zip(keys[0], sens_of[0]))
    if not count:
        return Combination(0, [[0] * len(p) for p in polys], 0, weight)
    if not floating:
        per_floating = 0
    elif remaining is not None:
        moment = sum(len(groups[key]) * sum(t * x * s for t, (x, s) in enumerate(zip(key, sens)))
                     for key, sens in zip(keys, sens_of))
        per_floating = _scaled(remaining * count - moment, num, den * floating)
    else:
        per_floating = count // 2
    if den != 1 or num != 1:
        count = _scaled(count, num, den)
        sens_of = [[_scaled(s, num, den) for s in sens] for sens in sens_of]
    sensitivity: list[list[int]] = [[] for _ in polys]
    for key, sens in zip(keys, sens_of):
        for c in groups[key]:
            sensitivity[c] = list(sens)
    return Combination(count, sensitivity, per_floating, weight)


# ----------------------------------------------------------------- helpers
def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """One wall-clock run of ``fn`` with the garbage collector off."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        t0 = time.perf_counter()
        out = fn()
        return time.perf_counter() - t0, out
    finally:
        if enabled:
            gc.enable()


def digest(c: Combination) -> str:
    """SHA-256 of a combination's integers (count, sensitivities, per-floating count)."""
    h = hashlib.sha256()
    for x in (c.count, c.per_floating):
        h.update(b"%x;" % x)
    for row in c.sensitivity:
        h.update(b",".join(b"%x" % x for x in row) + b"|")
    return h.hexdigest()


def case_of(board: Any) -> Case:
    """The combination's input for ``board``: per component its DP polynomial, as ``count``."""
    system = build_system(board)
    with_total = system.remaining is not None
    polys = [ComponentDP.of(system, comp, with_total).total for comp in system.components]
    return polys, len(system.floating), system.remaining if with_total else None


def describe_case(case: Case) -> dict[str, Any]:
    polys, floating, remaining = case
    return {"parts": len(polys), "distinct_parts": len({tuple(p) for p in polys}),
            "total_degree": sum(len(p) - 1 for p in polys), "floating": floating,
            "remaining": remaining}


def child(argv: list[str]) -> None:
    """``--child old|analyze FAMILY SIZE REPEATS``: run one side and print JSON."""
    what, family, size, repeats = argv[0], argv[1], int(argv[2]), int(argv[3])
    board = FAMILIES[family](size, size, SEED).board
    out: dict[str, Any] = {}
    if what == "old":
        case = case_of(board)
        gc.collect()
        t, c = timed(lambda: old_combine(*case))
        out = {"times": [t], "digest": digest(c)}
    else:
        from minegraph import analyze
        times = []
        a = None
        for _ in range(repeats):
            a = None
            gc.collect()
            t, a = timed(lambda: analyze(board))
            times.append(t)
        assert a is not None
        out = {"times": times, "engine": getattr(a, "engine", None),
               "consistent": a.consistent, "count_bits": a.solutions.bit_length()}
    out["peak_rss_mb"] = peak_mb()
    json.dump(out, sys.stdout)


def peak_mb() -> float | None:
    """This process's peak resident memory in MB: ``VmHWM`` (``ru_maxrss`` would include the
    parent's, as Linux keeps it across ``exec``)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:  # pragma: no cover - not on Linux
        pass
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def in_child(what: str, family: str, size: int, repeats: int, timeout: float) -> dict[str, Any]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", what, family, str(size),
           str(repeats)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:g} s"}
    if proc.returncode != 0:
        lines = proc.stderr.strip().splitlines()
        return {"error": lines[-1] if lines else f"exit status {proc.returncode}"}
    data: dict[str, Any] = json.loads(proc.stdout)
    data["median"] = statistics.median(data["times"])
    return data


# ----------------------------------------------------------------- the runs
def run_board(family: str, size: int, args: argparse.Namespace) -> dict[str, Any]:
    t, big = timed(lambda: FAMILIES[family](size, size, SEED))
    out: dict[str, Any] = {"family": family, "size": f"{size}x{size}", "cells": size * size,
                           "seed": SEED, "board_built_s": round(t, 3), "uncovered": big.revealed}
    t, case = timed(lambda: case_of(big.board))
    out.update(describe_case(case), parts_built_s=round(t, 3))
    print(f"{family} {size}x{size}: {out['parts']} parts ({out['distinct_parts']} distinct), "
          f"degree {out['total_degree']}, {out['floating']} floating", flush=True)
    times, new = [], None
    for _ in range(args.repeats):
        new = None
        gc.collect()
        t, new = timed(lambda: combine(*case))
        times.append(t)
    assert new is not None
    out["new"] = {"times": times, "median": statistics.median(times), "digest": digest(new),
                  "count_bits": new.count.bit_length()}
    print(f"  new combine  {out['new']['median']:9.3f} s  (count of {new.count.bit_length()} bits)",
          flush=True)
    del new
    if size <= args.old_max_size:
        out["old"] = in_child("old", family, size, 1, args.old_timeout)
        if "median" in out["old"]:
            out["old"]["equal"] = out["old"]["digest"] == out["new"]["digest"]
            out["speedup"] = out["old"]["median"] / out["new"]["median"]
        print(f"  old combine  {_fmt(out['old'])}", flush=True)
    if size in args.backend_sizes and family == "scattered" and args.backends:
        times, alt = [], None
        for _ in range(args.repeats):
            alt = None
            gc.collect()
            t, alt = timed(lambda: tree_gmpy2(*case))
            times.append(t)
        assert alt is not None
        out["gmpy2"] = {"times": times, "median": statistics.median(times),
                        "equal": digest(alt) == out["new"]["digest"]}
        print(f"  gmpy2 tree   {_fmt(out['gmpy2'])}", flush=True)
        del alt
    del case
    out["analyze"] = in_child("analyze", family, size, args.analyze_repeats if size <= 200 else 1,
                              args.analyze_timeout)
    print(f"  analyze      {_fmt(out['analyze'])}", flush=True)
    return out


def _fmt(r: dict[str, Any]) -> str:
    if "median" not in r:
        return r.get("error", "?")
    extra = f", peak {r['peak_rss_mb']} MB" if "peak_rss_mb" in r else ""
    same = "" if "equal" not in r else (", equal" if r["equal"] else ", DIFFERENT")
    return f"{r['median']:9.3f} s{same}{extra}"


def run_expert(count: int, repeats: int) -> dict[str, Any]:
    from minegraph.recipes import midgame_position
    old_t, new_t, sizes = [], [], []
    for seed in range(count):
        case = case_of(midgame_position(16, 30, 99, seed))
        sizes.append(describe_case(case)["total_degree"])
        per_old, per_new = [], []
        for _ in range(repeats):
            t, a = timed(lambda: old_combine(*case))
            per_old.append(t)
            t, b = timed(lambda: combine(*case))
            per_new.append(t)
            assert digest(a) == digest(b)
        old_t.append(statistics.median(per_old))
        new_t.append(statistics.median(per_new))
    out = {"positions": count, "repeats": repeats, "median_total_degree": statistics.median(sizes),
           "max_total_degree": max(sizes),
           "old_median_us": statistics.median(old_t) * 1e6, "new_median_us": statistics.median(new_t) * 1e6,
           "old_total_ms": sum(old_t) * 1e3, "new_total_ms": sum(new_t) * 1e3}
    out["ratio_new_old"] = out["new_median_us"] / out["old_median_us"]
    print(f"Expert 30x16/99, {count} positions: combination median old {out['old_median_us']:.1f} us, "
          f"new {out['new_median_us']:.1f} us (ratio {out['ratio_new_old']:.3f})", flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--child":
        child(argv[1:])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[100, 200, 400])
    ap.add_argument("--families", nargs="+", default=["scattered", "opening"], choices=sorted(FAMILIES))
    ap.add_argument("--no-big-opening", dest="big_opening", action="store_false",
                    help="skip the opening 1000x1000 board")
    ap.add_argument("--repeats", type=int, default=3, help="runs of the new combination per board")
    ap.add_argument("--analyze-repeats", type=int, default=3, help="analyze runs up to 200x200 (1 above)")
    ap.add_argument("--old-max-size", type=int, default=1000, help="run the old combination up to this size")
    ap.add_argument("--old-timeout", type=float, default=200.0)
    ap.add_argument("--analyze-timeout", type=float, default=600.0)
    ap.add_argument("--no-backends", dest="backends", action="store_false",
                    help="skip the gmpy2 Kronecker tree")
    ap.add_argument("--backend-sizes", type=int, nargs="+", default=[200, 400])
    ap.add_argument("--expert", type=int, default=200, help="Expert positions (0: skip)")
    ap.add_argument("--expert-repeats", type=int, default=15)
    ap.add_argument("--out", type=Path, default=HERE / "results" / "combine.json")
    args = ap.parse_args(argv)

    import flint
    try:
        import gmpy2
        gmpy2_version: str | None = gmpy2.version()
    except ImportError:  # pragma: no cover
        gmpy2_version = None
    results: dict[str, Any] = {
        "command": " ".join(["python bench/bench_combine.py", *map(shlex.quote, argv)]),
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": describe(python_flint=flint.__version__, gmpy2=gmpy2_version),
        "boards": []}
    if args.expert:
        results["expert"] = run_expert(args.expert, args.expert_repeats)
    boards = [(f, s) for s in args.sizes for f in args.families]
    if args.big_opening and "opening" in args.families:
        boards.append(("opening", 1000))
    for family, size in boards:
        results["boards"].append(run_board(family, size, args))
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
