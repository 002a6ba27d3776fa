"""The web table's bots under attack: ``python -m benchmarks.bot_fairness``.

Two measures, each against ``conquian serve`` on 127.0.0.1 (SQLite in a temporary folder);
figures are printed, never asserted.

``timing``: does a bot's answer time tell whether it had a choice?  Scripted people play
one-deal conquian matches against Foster at several tables at once; every bot answer's time
(from the update before its turn to its move) is put with the number of legal moves the bot
had (read from the match's record once it is over).  The answers with one legal move and those
with several are compared by a Mann-Whitney U test and the Kolmogorov-Smirnov distance: a
p-value far from 0 and a small distance mean the two cannot be told apart.  Run once with the
server's answer step (``--bot-answer-step``, default 0.25 s) and once with 0 (the old
behaviour) to see the difference.

``pool``: the expert's answer time at one table (made from 127.0.0.2) while another address
(127.0.0.1) spams hints from twenty connections of one seat, or runs five all-master tables at
pace 0; one bot worker, so every job shares it.

    python -m benchmarks.bot_fairness timing --answers 300
    python -m benchmarks.bot_fairness timing --answers 300 --step 0
    python -m benchmarks.bot_fairness pool --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine, Iterator
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from benchmarks.serve_load import PER_ADDRESS, free_port


@contextlib.contextmanager
def serving(*flags: str) -> Iterator[str]:
    tmp = tempfile.mkdtemp(prefix="conquian-fair-")
    port = free_port()
    log = open(os.path.join(tmp, "server.log"), "wb")  # noqa: SIM115 (the server's whole life)
    proc = subprocess.Popen([sys.executable, "-m", "conquian", "serve", "--port", str(port),
                             "--db", f"sqlite:///{tmp}/fair.db", "--log-level", "warning", *PER_ADDRESS,
                             "--replays-per-minute", "100000", "--lobby-per-address", "100000", *flags],
                            stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ, CONQUIAN_DATA=tmp))
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(url + "/health", timeout=1).status_code == 200:
                    break
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(15)
        log.close()


class Seat:
    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.table: dict[str, Any] = {}

    @classmethod
    async def open(cls, url: str, table_id: str, token: str | None, host: str | None = None) -> Seat:
        ws = await connect(url.replace("http", "ws") + f"/ws/{table_id}", max_size=None)
        await ws.send(json.dumps({"type": "hello", "v": 1, "token": token, "host": host}))
        seat = cls(ws)
        await seat.next_table()
        return seat

    async def next_message(self) -> dict[str, Any]:
        m: dict[str, Any] = json.loads(await self.ws.recv())
        if m["type"] == "table":
            self.table = m["table"]
        return m

    async def next_table(self) -> dict[str, Any]:
        while True:
            m = await self.next_message()
            if m["type"] == "table":
                return self.table


# ---------------------------------------------------------------------------- timing
def mann_whitney(a: list[float], b: list[float]) -> float:
    """The two-sided p-value of the Mann-Whitney U test (normal approximation, ties averaged)."""
    both = sorted([(x, 0) for x in a] + [(x, 1) for x in b])
    ranks = [0.0] * len(both)
    i = 0
    while i < len(both):
        j = i
        while j + 1 < len(both) and both[j + 1][0] == both[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        i = j + 1
    r1 = sum(r for r, (_, g) in zip(ranks, both, strict=True) if g == 0)
    n1, n2 = len(a), len(b)
    u = r1 - n1 * (n1 + 1) / 2
    mean, sd = n1 * n2 / 2, math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12)
    z = (u - mean) / sd if sd else 0.0
    return math.erfc(abs(z) / math.sqrt(2))


def ks_distance(a: list[float], b: list[float]) -> float:
    """The Kolmogorov-Smirnov distance between two samples."""
    points = sorted(set(a) | set(b))
    sa, sb = sorted(a), sorted(b)
    import bisect

    return max(abs(bisect.bisect_right(sa, x) / len(sa) - bisect.bisect_right(sb, x) / len(sb)) for x in points)


async def one_match(url: str, rng: random.Random, out: list[tuple[float, int]], bot: str) -> None:
    async with httpx.AsyncClient(timeout=30) as http:
        t = (await http.post(url + "/api/tables", json={"variant": "conquian", "host_name": "Ann", "deals": 1,
                                                        "seats": [{"kind": "open"}, {"kind": bot}]})).json()
        seat = await Seat.open(url, t["id"], t["token"], t["host"])
        times: dict[int, float] = {}  # the bot's state -> seconds it took
        seen = time.monotonic()
        while seat.table["status"] == "playing" or not seat.table.get("deal", {}).get("over", True):
            x = seat.table
            if x["status"] != "playing" or x["deal"]["over"]:
                break
            if x["deal"]["to_act"] == 1:
                await asyncio.sleep(rng.uniform(0.05, 0.3))
                await seat.ws.send(json.dumps({"type": "act", "state": x["state"], "action": rng.choice(x["legal"])}))
                while seat.table["state"] == x["state"]:
                    await seat.next_message()
                seen = time.monotonic()
                continue
            before = x["state"]
            while seat.table["state"] == before:
                await seat.next_message()
            now = time.monotonic()
            times[before] = now - seen
            seen = now
        await seat.ws.close()
        record = (await http.get(url + f"/api/tables/{t['id']}/record")).text
    from conquian.engine.match import new_deal
    from conquian.engine.record import read_record

    rec = read_record(record)
    d = rec.deals[0]
    deal = new_deal(rec.rules(), d.deck, dealer=d.dealer)
    for i, action in enumerate(d.actions):
        state = i + 1  # the table's state before the action: the deal's start is state 1
        if state in times and deal.to_act == 2:
            out.append((times[state], len(deal.legal_actions())))
        deal.play(action)


async def timing(url: str, answers: int, tables: int, bot: str) -> list[tuple[float, int]]:
    out: list[tuple[float, int]] = []
    rng = random.Random(7)
    while len(out) < answers:
        await asyncio.gather(*(one_match(url, random.Random(rng.random()), out, bot) for _ in range(tables)))
    return out


# ---------------------------------------------------------------------------- pool
async def victim(url: str, seconds: float, out: list[float]) -> None:
    """A person (from 127.0.0.2) against the expert: how long each of the expert's answers takes."""
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
    rng = random.Random(3)
    end = time.monotonic() + seconds
    async with httpx.AsyncClient(timeout=30, transport=transport) as http:
        while time.monotonic() < end:
            t = (await http.post(url + "/api/tables", json={"variant": "conquian", "host_name": "Vic", "deals": 1,
                                                            "seats": [{"kind": "open"}, {"kind": "expert"}]})).json()
            seat = await Seat.open(url, t["id"], t["token"], t["host"])
            seen = time.monotonic()
            while time.monotonic() < end and seat.table["status"] == "playing" and not seat.table["deal"]["over"]:
                x = seat.table
                if x["deal"]["to_act"] == 1:
                    await seat.ws.send(json.dumps({"type": "act", "state": x["state"],
                                                   "action": rng.choice(x["legal"])}))
                    while seat.table["state"] == x["state"]:
                        await seat.next_message()
                    seen = time.monotonic()
                    continue
                while seat.table["state"] == x["state"]:
                    await seat.next_message()
                out.append(time.monotonic() - seen)
                seen = time.monotonic()
            await seat.ws.close()


async def hint_spam(url: str, seconds: float) -> None:
    """One seat asks for hints on twenty connections as fast as its limits let it, playing on."""
    end = time.monotonic() + seconds
    async with httpx.AsyncClient(timeout=30) as http:
        while time.monotonic() < end:
            t = (await http.post(url + "/api/tables", json={"variant": "conquian", "host_name": "Spam",
                                                            "seats": [{"kind": "open"}, {"kind": "random"}]})).json()
            seats = [await Seat.open(url, t["id"], t["token"]) for _ in range(20)]

            async def ask(s: Seat) -> None:
                while time.monotonic() < end:
                    await s.ws.send(json.dumps({"type": "hint"}))
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(s.next_message(), 0.5)
                    await asyncio.sleep(0.1)

            await asyncio.gather(*(ask(s) for s in seats))
            for s in seats:
                await s.ws.close()


async def masters(url: str, seconds: float) -> None:
    """Five all-master tables at pace 0 from one address."""
    async with httpx.AsyncClient(timeout=30) as http:
        hosts = []
        for _ in range(5):
            t = (await http.post(url + "/api/tables", json={"variant": "conquian",
                                                            "seats": [{"kind": "master"}, {"kind": "master"}]})).json()
            s = await Seat.open(url, t["id"], None, t["host"])
            await s.ws.send(json.dumps({"type": "pace", "seconds": 0}))
            hosts.append(s)

        async def drain(s: Seat) -> None:
            with contextlib.suppress(Exception):
                while True:
                    await s.next_message()

        tasks = [asyncio.ensure_future(drain(s)) for s in hosts]
        await asyncio.sleep(seconds)
        for task in tasks:
            task.cancel()
        for s in hosts:
            await s.ws.close()


async def pool(url: str, seconds: float, load: str) -> list[float]:
    out: list[float] = []
    others: list[Coroutine[Any, Any, None]] = []
    if load == "hints":
        others.append(hint_spam(url, seconds))
    elif load == "masters":
        others.append(masters(url, seconds))
    await asyncio.gather(victim(url, seconds, out), *others)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.bot_fairness", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    t = sub.add_parser("timing")
    t.add_argument("--answers", type=int, default=300)
    t.add_argument("--tables", type=int, default=6)
    t.add_argument("--step", type=float, default=None, help="--bot-answer-step (default: the server's)")
    t.add_argument("--delay", type=float, default=0.3, help="--bot-delay (default 0.3)")
    t.add_argument("--bot", default="foster", help="the bot (default foster)")
    q = sub.add_parser("pool")
    q.add_argument("--seconds", type=float, default=30.0)
    q.add_argument("--loads", default="quiet,hints,masters")
    args = p.parse_args(argv)
    if args.what == "timing":
        flags = ["--bot-delay", str(args.delay), "--bot-workers", "1"]
        flags += ["--bot-answer-step", str(args.step)] if args.step is not None else []
        with serving(*flags) as url:
            got = asyncio.run(timing(url, args.answers, args.tables, args.bot))
        one = [s * 1000 for s, n in got if n == 1]
        many = [s * 1000 for s, n in got if n > 1]
        if len(one) < 5 or len(many) < 5:
            print(f"too few answers of one kind: {len(one)} with one legal move, {len(many)} with several")
            return 1
        q1, qm = statistics.quantiles(one, n=20), statistics.quantiles(many, n=20)
        step = "default" if args.step is None else f"{args.step:g}"
        print(f"{args.bot}'s answers (--bot-delay {args.delay:g}, --bot-answer-step {step}):"
              f" one legal move n={len(one)} median {statistics.median(one):.0f} ms p95 {q1[-1]:.0f} ms; "
              f"several n={len(many)} median {statistics.median(many):.0f} ms p95 {qm[-1]:.0f} ms; "
              f"Mann-Whitney p={mann_whitney(one, many):.3g}, Kolmogorov-Smirnov distance "
              f"{ks_distance(one, many):.3f}")
    else:
        for load in args.loads.split(","):
            with serving("--bot-workers", "1") as url:
                waits = asyncio.run(pool(url, args.seconds, load))
            ms = sorted(x * 1000 for x in waits)
            p95 = statistics.quantiles(ms, n=20)[-1] if len(ms) >= 20 else max(ms, default=0)
            print(f"expert's answers at another address's table while {load}: n={len(ms)}, p50 "
                  f"{statistics.median(ms) if ms else 0:.0f} ms, p95 {p95:.0f} ms, max {max(ms, default=0):.0f} ms",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
