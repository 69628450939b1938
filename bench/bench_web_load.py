"""A bounded load test of the web app on loopback.

The app runs as ``minegraph serve`` (default limits) in its own process on a free local port,
and the clients (httpx, asyncio) in this one. The first two phases each with ``--clients`` concurrent clients sending
``--requests`` ``POST /api/analyze`` requests each, on Expert positions of the benchmark corpus
(``bench/expert_corpus.py``, a different position per request):

1. the easy load alone;
2. the same easy load while ``--hard-clients`` clients keep sending a hard position (a 60x60
   checkerboard opening, 30% mines, with its total, German & Lakshtanov's family) with a short limit
   (``"timeout": --hard-timeout``), which the server answers with a JSON time-out error;
3. the abuse of issue 21 while ``--attack-clients`` clients analyse Expert positions: four
   clients each keep one heavy 100-byte request under way (a 100x100 no-guess puzzle of 2,500
   mines, twice; the solver to the end of a 100x100 game of 1,800 mines; the first click of a
   100x100 no-guess game), and ``--silent`` connections are opened that never send a request
   or only half of its head;
4. issue 33's attack 2 on the small lane (``small_lane``): ``--small-attackers`` client
   addresses keep three requests each under way (the most ``per_client`` lets one client
   have), each a board text under ``big_request_bytes`` that is hard to analyse (40x40
   checkerboard openings, 30% mines, 1,651 bytes), while one victim client sends
   ``--victim-requests`` Expert analyses one after another (``--victim-pause`` apart): its latencies (median, p99; and
   the same requests without the attack, just before) and the attackers' statuses are
   reported. The attackers send the same two boards again and again, or with
   ``--attack-boards N`` N different ones in turn (the server remembers the estimate of a
   board it has seen: many boards measure the estimate itself).

``--reference SRC`` serves from another checkout's ``src`` folder (main's, say) with this
script as the load generator, so that two servers can be compared in alternating runs on
one machine; the results name the tree and its commit (``"server"``).

Every client sends its own ``X-Forwarded-For`` address (as a reverse proxy would; the server
trusts the header from 127.0.0.1 with ``--trusted-proxy 127.0.0.1``), so the per-client
limit applies to each as to a separate player.

Also reported: the server's child processes (the big lane's pool and its fork server), sampled
twice a second: the most at once, how many different ones, and how many still run 10 s after
the server was stopped (the pool's clean shutdown: 0).

Reported per phase: throughput (easy requests per second, wall clock), latency median, p90,
p99 and max, the status codes seen, and for the hard requests their statuses and latencies.
An easy request that does not answer 200 with the library's own answer (the same
``to_json()`` object) counts as an error. Results go to ``bench/results/web_load.json``.

Usage::

    python bench/bench_web_load.py                     # 50 clients x 20 requests, about 1 min
    python bench/bench_web_load.py --clients 10 --requests 5 --out /tmp/w.json
    python bench/bench_web_load.py --phases small_lane --out bench/results/web_load_small_lane.json
    python bench/bench_web_load.py --phases small_lane --reference ../main/src --out /tmp/main.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shlex
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import httpx  # noqa: E402

from expert_corpus import expert_corpus  # noqa: E402
from machine import describe  # noqa: E402
from minegraph import analyze  # noqa: E402
from minegraph.recipes import checkerboard_opening  # noqa: E402
from minegraph.web.processes import descendants, running  # noqa: E402

HERE = Path(__file__).resolve().parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(source: str | None = None) -> tuple[str, subprocess.Popen[bytes]]:
    """``minegraph serve`` in its own process (the load generator must not share the server's
    interpreter lock), ready when ``GET /api/limits`` answers; from the source tree ``source``
    (a ``src`` folder, put first on the server's ``PYTHONPATH``) when given, else from the
    package this script imports."""
    port = _free_port()
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = os.pathsep.join([source, *filter(None, [env.get("PYTHONPATH")])])
    server = subprocess.Popen([sys.executable, "-m", "minegraph", "serve", "--host", "127.0.0.1",
                               "--port", str(port), "--trusted-proxy", "127.0.0.1"], env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(url + "/api/limits", timeout=1).status_code == 200:
                return url, server
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline or server.poll() is not None:
            server.kill()
            raise RuntimeError("minegraph serve did not start within 30 s")
        time.sleep(0.1)


class _Census:
    """The server's child processes (the big lane's pool, its fork server), sampled twice a
    second while the phases run: how many at most, how many different ones (a big-lane
    process is replaced when it is killed at a deadline, grows, or has served its jobs)."""

    def __init__(self, pid: int) -> None:
        import threading
        self.pid = pid
        self.seen: set[int] = set()
        self.most = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.5):
            now = descendants(self.pid)
            self.seen |= now
            self.most = max(self.most, len(now))

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def _served_from(source: str | None) -> dict[str, Any]:
    """Which tree the server runs from: its ``src`` folder, and that checkout's commit (with
    ``+changes`` when its work tree differs from it)."""
    import minegraph
    folder = Path(source).resolve() if source else Path(minegraph.__file__).resolve().parents[1]
    out: dict[str, Any] = {"src": str(folder)}
    try:
        commit = subprocess.run(["git", "-C", str(folder), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(folder), "status", "--porcelain", "."],
                               capture_output=True, text=True, check=True).stdout.strip()
        out["commit"] = commit + ("+changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        pass
    return out


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _summary(latencies: list[float]) -> dict[str, float]:
    if not latencies:
        return {}
    return {"median_ms": round(statistics.median(latencies) * 1000, 2),
            "p90_ms": round(_quantile(latencies, 0.90) * 1000, 2),
            "p99_ms": round(_quantile(latencies, 0.99) * 1000, 2),
            "max_ms": round(max(latencies) * 1000, 2)}


async def _phase(url: str, texts: list[str], expected: list[dict[str, Any]], clients: int,
                 requests: int, hard: str | None, hard_clients: int,
                 hard_timeout: float) -> dict[str, Any]:
    latencies: list[float] = []
    statuses: dict[str, int] = {}
    errors: list[str] = []
    hard_latencies: list[float] = []
    hard_statuses: dict[str, int] = {}
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=clients + hard_clients + 4)

    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as http:
        async def easy(k: int) -> None:
            who = {"X-Forwarded-For": f"10.0.{k // 256}.{k % 256}"}
            for j in range(requests):
                index = (k * requests + j) % len(texts)
                start = time.perf_counter()
                response = await http.post("/api/analyze", json={"board": texts[index]},
                                           headers=who)
                latencies.append(time.perf_counter() - start)
                statuses[str(response.status_code)] = statuses.get(str(response.status_code), 0) + 1
                if response.status_code != 200:
                    errors.append(f"status {response.status_code}: {response.text[:200]}")
                elif response.json() != expected[index]:
                    errors.append(f"position {index}: the answer differs from the library's")

        async def heavy(k: int) -> None:
            who = {"X-Forwarded-For": f"10.1.0.{k}"}
            while not stop.is_set():
                start = time.perf_counter()
                response = await http.post("/api/analyze",
                                           json={"board": hard, "timeout": hard_timeout},
                                           headers=who)
                hard_latencies.append(time.perf_counter() - start)
                key = str(response.status_code)
                hard_statuses[key] = hard_statuses.get(key, 0) + 1

        background = [asyncio.create_task(heavy(k)) for k in range(hard_clients if hard else 0)]
        if background:
            await asyncio.sleep(0.5)          # the hard requests are running first
        start = time.perf_counter()
        await asyncio.gather(*(easy(k) for k in range(clients)))
        wall = time.perf_counter() - start
        stop.set()
        await asyncio.gather(*background)
    out: dict[str, Any] = {"easy_requests": len(latencies), "wall_s": round(wall, 3),
                           "throughput_per_s": round(len(latencies) / wall, 1),
                           **_summary(latencies), "statuses": statuses,
                           "errors": len(errors), "first_errors": errors[:5]}
    if hard:
        out["hard"] = {"requests": len(hard_latencies), "statuses": hard_statuses,
                       **_summary(hard_latencies)}
    return out


async def _attack(url: str, texts: list[str], expected: list[dict[str, Any]], clients: int,
                  requests: int, silent: int) -> dict[str, Any]:
    """Phase 3: the abuse of issue 21 (items 2 and 3) while ``clients`` clients analyse Expert
    positions: four clients keep heavy 100-byte requests under way, and ``silent``
    connections are opened that never send a request (or only half of one)."""
    heavy_statuses: dict[str, int] = {}
    stop = asyncio.Event()
    sockets: list[socket.socket] = []
    host, port = url.removeprefix("http://").split(":")
    for k in range(silent):
        try:
            sock = socket.create_connection((host, int(port)), timeout=10)
        except OSError:
            break
        if k % 2:
            sock.sendall(b"POST /api/analyze HTTP/1.1\r\nHost: x\r\n")   # half a head
        sockets.append(sock)
    opened = time.monotonic()
    limits = httpx.Limits(max_connections=clients + 8)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as http:
        def who(k: int) -> dict[str, str]:
            return {"X-Forwarded-For": f"10.2.0.{k}"}

        async def keep(k: int, send: Any) -> None:
            while not stop.is_set():
                response = await send(k)
                key = str(response.status_code)
                heavy_statuses[key] = heavy_statuses.get(key, 0) + 1
                if response.status_code in (429, 503):
                    await asyncio.sleep(float(response.headers.get("Retry-After", "1")))

        async def puzzle(k: int) -> Any:
            return await http.post("/api/generate", headers=who(k), json={
                "kind": "noguess", "rows": 100, "cols": 100, "mines": 2500, "seed": k})

        async def solver(k: int) -> Any:
            made = await http.post("/api/game", headers=who(k), json={
                "rows": 100, "cols": 100, "mines": 1800, "rules": "modern"})
            if made.status_code != 201:           # games_per_minute: counted, waited for
                return made
            game = made.json()
            return await http.post(f"/api/game/{game['id']}/solver", headers=who(k),
                                   json={"steps": None})

        async def first_click(k: int) -> Any:
            made = await http.post("/api/game", headers=who(k), json={
                "rows": 100, "cols": 100, "mines": 1800, "rules": "noguess"})
            if made.status_code != 201:
                return made
            game = made.json()
            return await http.post(f"/api/game/{game['id']}/move", headers=who(k),
                                   json={"action": "reveal", "cell": [50, 50]})

        attackers = [asyncio.create_task(keep(k, send)) for k, send in
                     enumerate([puzzle, puzzle, solver, first_click])]
        await asyncio.sleep(1.0)              # the heavy requests are under way
        measured = await _phase(url, texts, expected, clients, requests, None, 0, 0.0)
        stop.set()
        for task in attackers:
            task.cancel()
        await asyncio.gather(*attackers, return_exceptions=True)
    # How many of the silent connections the server has closed once its header time
    # (5 s by default) has passed since they were opened.
    await asyncio.sleep(max(0.0, opened + 6.0 - time.monotonic()))
    closed = 0
    for sock in sockets:
        sock.setblocking(False)
        try:
            closed += sock.recv(1) == b""
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
        sock.close()
    return {**measured, "silent_connections": len(sockets), "silent_closed_by_server": closed,
            "heavy_statuses": heavy_statuses}


async def _small_lane_attack(url: str, texts: list[str], expected: list[dict[str, Any]],
                             attackers: int, victim_requests: int, pause: float,
                             boards: int = 2) -> dict[str, Any]:
    """Phase 4: ``attackers`` addresses keep three hard boards under ``big_request_bytes``
    each under way while one victim analyses Expert positions one after another, ``pause``
    seconds apart (a player's pace: the attack lasts long enough for the attackers' retries
    to come round). The attackers send ``boards`` different boards in turn (2: the same two
    again and again; many: a new board each time, which no memo of the server knows)."""
    hard = [checkerboard_opening(40, 40, 0.3, seed=seed, total=True).to_text()
            for seed in range(2, 2 + boards)]
    sent = 0
    statuses: dict[str, int] = {}
    stop = asyncio.Event()
    errors: list[str] = []
    limits = httpx.Limits(max_connections=3 * attackers + 4)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as http:
        async def attack(k: int, j: int) -> None:
            nonlocal sent
            who = {"X-Forwarded-For": f"10.3.0.{k}"}
            while not stop.is_set():
                board = hard[(j + sent) % len(hard)] if len(hard) > 2 else hard[j % len(hard)]
                sent += 1
                response = await http.post("/api/analyze", json={"board": board},
                                           headers=who)
                key = str(response.status_code)
                statuses[key] = statuses.get(key, 0) + 1
                if response.status_code in (429, 503):
                    await asyncio.sleep(float(response.headers.get("Retry-After", "1")))

        async def victim() -> tuple[list[float], float]:
            who = {"X-Forwarded-For": "10.4.0.1"}
            latencies: list[float] = []
            start = time.perf_counter()
            for i in range(victim_requests):
                index = i % len(texts)
                began = time.perf_counter()
                response = await http.post("/api/analyze", json={"board": texts[index]},
                                           headers=who)
                latencies.append(time.perf_counter() - began)
                if response.status_code != 200:
                    errors.append(f"status {response.status_code}: {response.text[:200]}")
                elif response.json() != expected[index]:
                    errors.append(f"position {index}: the answer differs from the library's")
                await asyncio.sleep(pause)
            return latencies, time.perf_counter() - start

        alone, _ = await victim()             # the same requests without the attack first
        tasks = [asyncio.create_task(attack(k, j)) for k in range(attackers) for j in range(3)]
        await asyncio.sleep(1.0)              # the hard requests are under way
        latencies, wall = await victim()
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return {"attackers": attackers, "requests_per_attacker": 3, "attack_boards": len(hard),
            "attack_requests": sent, "hard_board_bytes": sorted({len(h) for h in hard}), "victim_requests": len(latencies),
            "victim_pause_s": pause, "wall_s": round(wall, 3), "victim_alone": _summary(alone),
            "victim": _summary(latencies),
            "attacker_statuses": statuses, "errors": len(errors), "first_errors": errors[:5]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--requests", type=int, default=20)
    ap.add_argument("--hard-clients", type=int, default=3)
    ap.add_argument("--hard-timeout", type=float, default=1.0)
    ap.add_argument("--hard-size", type=int, default=60,
                    help="side of the checkerboard opening, 30%% mines (60: no answer in minutes)")
    ap.add_argument("--attack-clients", type=int, default=20,
                    help="clients analysing Expert positions during the attack phase")
    ap.add_argument("--silent", type=int, default=2000,
                    help="connections opened during the attack that never send a whole request")
    ap.add_argument("--small-attackers", type=int, default=4,
                    help="phase 4: client addresses with three hard small boards each")
    ap.add_argument("--victim-requests", type=int, default=300,
                    help="phase 4: Expert analyses the victim sends one after another")
    ap.add_argument("--victim-pause", type=float, default=0.05,
                    help="phase 4: seconds between the victim's requests")
    ap.add_argument("--attack-boards", type=int, default=2,
                    help="phase 4: different hard boards the attackers send in turn (2: the "
                         "same two again and again; 300: a new one almost every time)")
    ap.add_argument("--phases", default="alone,hard,attack,small_lane",
                    help="the phases to run, comma-separated (default: all four)")
    ap.add_argument("--reference", metavar="SRC", default=None,
                    help="serve from this source tree (another checkout's src folder, e.g. "
                         "main's) instead of the package this script imports, to compare "
                         "servers with one load generator")
    ap.add_argument("--note", default="",
                    help="a line stored with the results (what ran, how loaded the machine was)")
    ap.add_argument("--out", default=str(HERE / "results" / "web_load.json"))
    args = ap.parse_args(argv)

    boards = expert_corpus(min(1000, args.clients * args.requests))
    texts = [b.to_text() for b in boards]
    expected = [analyze(b).to_json() for b in boards]
    hard = checkerboard_opening(args.hard_size, args.hard_size, 0.3, seed=1, total=True).to_text()
    url, server = _serve(args.reference)
    served = _served_from(args.reference)
    try:
        import resource
        soft, hard_limit = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard_limit, hard_limit))
    except (ImportError, ValueError, OSError):
        pass
    phases = set(args.phases.split(","))
    unknown = phases - {"alone", "hard", "attack", "small_lane"}
    if unknown:
        ap.error(f"unknown phases: {', '.join(sorted(unknown))}")
    results: dict[str, Any] = {}
    load_before = os.getloadavg()
    census = _Census(server.pid)
    try:
        if "alone" in phases:
            results["easy_alone"] = asyncio.run(_phase(
                url, texts, expected, args.clients, args.requests, None, 0, args.hard_timeout))
            print("easy alone:", json.dumps(results["easy_alone"]), flush=True)
        if "hard" in phases:
            results["with_hard"] = asyncio.run(_phase(
                url, texts, expected, args.clients, args.requests, hard, args.hard_clients,
                args.hard_timeout))
            print("with hard requests:", json.dumps(results["with_hard"]), flush=True)
        if "attack" in phases:
            results["under_attack"] = asyncio.run(_attack(
                url, texts, expected, args.attack_clients, args.requests, args.silent))
            print("under attack:", json.dumps(results["under_attack"]), flush=True)
        if "small_lane" in phases:
            results["small_lane_attack"] = asyncio.run(_small_lane_attack(
                url, texts, expected, args.small_attackers, args.victim_requests,
                args.victim_pause, args.attack_boards))
            print("small lane attacked:", json.dumps(results["small_lane_attack"]), flush=True)
    finally:
        census.stop()
        server.terminate()
        server.wait(timeout=30)
    # The server's processes after it stopped: each must end (the big lane's workers with the
    # pool's close, or with the server by PR_SET_PDEATHSIG); a bounded wait for that event.
    left = set(census.seen)
    end = time.monotonic() + 10
    while left and time.monotonic() < end:
        time.sleep(0.05)
        left = {p for p in left if running(p)}
    processes = {"most_at_once": census.most, "different": len(census.seen),
                 "left_running_10s_after_stop": len(left)}
    print("server processes:", json.dumps(processes), flush=True)
    out = {"machine": describe(), "command": "python bench/bench_web_load.py "
           + shlex.join(argv if argv is not None else sys.argv[1:]),
           "clients": args.clients, "requests_per_client": args.requests,
           "hard_clients": args.hard_clients, "hard_timeout_s": args.hard_timeout,
           "load_average_before": [round(x, 2) for x in load_before],
           "load_average_after": [round(x, 2) for x in os.getloadavg()],
           **({"note": args.note} if args.note else {}), "server": served,
           "server_processes": processes,
           **results}
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    failed = sum(phase["errors"] for phase in results.values()) + len(left)
    print("errors:", failed)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
