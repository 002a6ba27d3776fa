"""The web table under load: ``python -m benchmarks.serve_load``.

Starts ``conquian serve`` on 127.0.0.1 (SQLite in a temporary folder unless ``--db``), seats
scripted WebSocket clients two to a conquian table, and lets them play legal moves at a human
pace (a move every ``--think`` seconds on average, random).  For every move it measures the
time from the move sent to the moment every seat of the table has received the new state, and
counts errors and lost moves (a move sent whose state never came).  Figures are printed, never
asserted.

    python -m benchmarks.serve_load                       # 100, 300 and 1,000 players, 30 s each
    python -m benchmarks.serve_load --players 300 --seconds 60 --json
    python -m benchmarks.serve_load --quick               # a smoke run (CI)
    python -m benchmarks.serve_load --postgres --servers 2  # two processes over a throwaway PostgreSQL

With ``--servers N`` the players of a table are spread over the processes (seat 1 on one, seat
2 on the next), so every move travels from one process to another through PostgreSQL.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Figures:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    sent: int = 0
    lost: int = 0
    connect_failures: int = 0


@dataclass
class Seat:
    ws: ClientConnection
    seat: int
    table: dict[str, Any] = field(default_factory=dict)


@dataclass
class Game:
    """A table of two scripted players, and the moves in flight: state -> time sent."""

    seats: list[Seat]
    pending: dict[int, tuple[float, set[int]]] = field(default_factory=dict)


async def reader(game: Game, me: Seat, figures: Figures) -> None:
    async for raw in me.ws:
        m = json.loads(raw)
        if m["type"] == "error":
            if m["code"] != "stale":
                figures.errors.append(m["code"])
            continue
        if m["type"] != "table":
            continue
        me.table = m["table"]
        state = me.table["state"]
        for s, (sent, waiting) in list(game.pending.items()):
            if state >= s:
                waiting.discard(me.seat)
                if not waiting:
                    figures.latencies.append(time.perf_counter() - sent)
                    del game.pending[s]


async def player(game: Game, me: Seat, figures: Figures, think: float, until: float, rng: random.Random) -> None:
    while time.perf_counter() < until:
        await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
        t = me.table
        if not t or not t.get("deal"):
            continue
        if t["deal"]["over"]:
            if me.seat == 1 and t["status"] == "playing":
                await me.ws.send(json.dumps({"type": "next", "state": t["state"]}))
            continue
        if t["deal"]["to_act"] != me.seat or not t["legal"]:
            continue
        state = t["state"]
        if any(s > state for s in game.pending):
            continue
        game.pending[state + 1] = (time.perf_counter(), {s.seat for s in game.seats})
        figures.sent += 1
        await me.ws.send(json.dumps({"type": "act", "state": state, "action": rng.choice(t["legal"])}))


async def run_level(url: str, ports: list[int], players: int, seconds: float, think: float, seed: int
                    ) -> dict[str, Any]:
    figures = Figures()
    rng = random.Random(seed)
    games: list[Game] = []
    readers: list[asyncio.Task[None]] = []
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        for i in range(players // 2):
            r = await http.post("/api/tables", json={"variant": "conquian", "host_name": f"A{i}",
                                                     "seats": [{"kind": "open"}, {"kind": "open"}],
                                                     "name": f"load {i}"})
            t = r.json()
            b = (await http.post(f"/api/tables/{t['id']}/sit", json={"seat": 2, "name": f"B{i}"})).json()
            seats = []
            for n, token in ((1, t["token"]), (2, b["token"])):
                port = ports[(i + n - 1) % len(ports)]
                try:
                    ws = await connect(f"ws://127.0.0.1:{port}/ws/{t['id']}", open_timeout=30, max_size=2**20)
                except Exception:
                    figures.connect_failures += 1
                    continue
                await ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
                seats.append(Seat(ws, n))
            game = Game(seats)
            games.append(game)
            readers += [asyncio.create_task(reader(game, s, figures)) for s in seats]
    await asyncio.sleep(1.0)
    until = time.perf_counter() + seconds
    start = time.perf_counter()
    await asyncio.gather(*(player(g, s, figures, think, until, random.Random(rng.random()))
                           for g in games for s in g.seats))
    await asyncio.sleep(2.0)  # let the last moves arrive
    elapsed = time.perf_counter() - start
    figures.lost = sum(len(g.pending) for g in games)
    for g in games:
        for s in g.seats:
            await s.ws.close()
    for task in readers:
        task.cancel()
    lat = sorted(figures.latencies)

    def q(p: float) -> float | None:
        return round(lat[min(len(lat) - 1, int(p * len(lat)))] * 1000, 1) if lat else None

    return {
        "players": players, "seconds": round(elapsed, 1), "moves": len(lat),
        "moves_per_second": round(len(lat) / elapsed, 1),
        "p50_ms": q(0.50), "p95_ms": q(0.95), "p99_ms": q(0.99),
        "mean_ms": round(statistics.fmean(lat) * 1000, 1) if lat else None,
        "errors": len(figures.errors), "error_codes": sorted(set(figures.errors)), "lost": figures.lost,
        "connect_failures": figures.connect_failures,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.serve_load", description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, action="append", help="players (repeatable; default 100, 300, 1000)")
    p.add_argument("--seconds", type=float, default=30.0, help="play time per level (default 30)")
    p.add_argument("--think", type=float, default=2.0, help="mean seconds between a player's looks (default 2)")
    p.add_argument("--db", default=None, help="database URL (default: SQLite in a temporary folder)")
    p.add_argument("--postgres", action="store_true",
                   help="a throwaway PostgreSQL from Debian's packages as the database")
    p.add_argument("--servers", type=int, default=1, help="server processes over the database (default 1)")
    p.add_argument("--quick", action="store_true", help="a smoke run: 20 players, 5 s")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    levels = [20] if args.quick else (args.players or [100, 300, 1000])
    seconds = 5.0 if args.quick else args.seconds
    if max(levels) > 5000 or seconds > 600:
        p.error("at most 5,000 players and 600 seconds a level")
    if args.servers > 1 and not (args.postgres or (args.db or "").startswith("postgres")):
        p.error("several servers need PostgreSQL: --postgres or --db postgresql+psycopg://...")
    with contextlib.ExitStack() as stack:
        db = args.db
        if args.postgres:
            from benchmarks.postgres import running_postgres

            db = stack.enter_context(running_postgres(max_connections=100 + 60 * args.servers))
        results = run_levels(args, levels, seconds, db)
        database = (db or "sqlite").split("://")[0].split("+")[0]
    if args.json:
        print(json.dumps({"machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
                          "database": database, "servers": args.servers, "think_seconds": args.think,
                          "levels": results}))
    return 0


#: Every simulated player connects from 127.0.0.1, one address for them all: the server's limits
#: per client address (tables a minute, connections, messages a second) are raised out of the way,
#: so that the benchmark measures the server, not its defences against one abusive address.
PER_ADDRESS = ("--tables-per-minute", "100000", "--connections-per-address", "100000",
               "--messages-per-address", "100000")


def run_levels(args: argparse.Namespace, levels: list[int], seconds: float, db: str | None) -> list[dict[str, Any]]:
    tmp = tempfile.mkdtemp(prefix="conquian-load-")
    db = db or f"sqlite:///{tmp}/load.db"
    ports = [free_port() for _ in range(args.servers)]
    url = f"http://127.0.0.1:{ports[0]}"
    log = open(os.path.join(tmp, "server.log"), "wb")  # noqa: SIM115 (the servers' whole life)
    procs = [subprocess.Popen([sys.executable, "-m", "conquian", "serve", "--port", str(port), "--db", db,
                               "--bot-workers", "0", "--log-level", "warning", *PER_ADDRESS],
                              stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ, CONQUIAN_DATA=tmp))
             for port in ports]
    results = []
    try:
        for port in ports:
            for _ in range(300):
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                time.sleep(0.1)
            else:
                log.flush()
                raise SystemExit(f"the server on port {port} did not start: "
                                 + Path(log.name).read_text(errors="replace")[-1500:])
        for i, n in enumerate(levels):
            r = asyncio.run(run_level(url, ports, n, seconds, args.think, seed=i))
            results.append(r)
            if not args.json:
                print(f"{n:>6} players on {len(ports)} server(s): {r['moves']:>6} moves ({r['moves_per_second']}/s), "
                      f"move to every seat's update p50 {r['p50_ms']} ms, p95 {r['p95_ms']} ms, p99 {r['p99_ms']} "
                      f"ms; errors {r['errors']} {r['error_codes'] or ''}, lost {r['lost']}, connections refused "
                      f"{r['connect_failures']}", flush=True)
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(10)
        log.close()
    return results


if __name__ == "__main__":
    sys.exit(main())
