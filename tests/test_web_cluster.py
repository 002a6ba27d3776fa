"""Several ``conquian serve`` processes over one PostgreSQL database (issue 15).

Every test starts real server processes on 127.0.0.1 over a PostgreSQL server started for the
module (``tests/pg.py``), and plays through real WebSockets: clients of one table connected to
different processes, the same move sent to both at once, a process killed with SIGKILL while
its bots are playing, presence across processes, ``--workers 2`` behind one port, structured
logs.  Every record of a finished deal is replayed with ``conquian replay``.
"""

from __future__ import annotations

import contextlib
import json
import random
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("psycopg")
pytest.importorskip("uvicorn")

from pg import require_postgres, running_postgres
from web_server import Client, Server, free_port

require_postgres()


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    with running_postgres() as url:
        yield url


@pytest.fixture
def pair(postgres_url: str, tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    """Two server processes on one database."""
    one = Server(postgres_url, tmp_path, bot_delay=0.05).start()
    two = Server(postgres_url, tmp_path, bot_delay=0.05).start()
    try:
        yield one, two
    finally:
        for s in (one, two):
            s.stop()


def play_to_the_end(clients: dict[int, Client], rng: random.Random, timeout: float = 120) -> dict[str, Any]:
    """Random legal moves from the people's clients; the bots' turns are waited for."""
    watcher = next(iter(clients.values()))
    end = time.time() + timeout
    while time.time() < end:
        # a process that has not yet heard of the last sit may still show the table waiting
        table = watcher.wait_table(lambda x: x["deal"] is not None)
        deal = table["deal"]
        if deal["over"]:
            return table
        state, seat = table["state"], deal["to_act"]
        if seat in clients:
            mine = clients[seat].wait_table(lambda x, s=state: x["state"] >= s)
            if mine["state"] == state:
                clients[seat].act(rng.choice(mine["legal"]), state)
        watcher.wait_table(lambda x, s=state: x["state"] > s, timeout=30)
    raise AssertionError("the deal did not end in time")


def replays(server: Server, table_id: str, tmp: Path) -> str:
    text = server.get(f"/api/tables/{table_id}/record").text
    path = tmp / f"{table_id}.toml"
    path.write_text(text)
    out = subprocess.run([sys.executable, "-m", "conquian", "replay", str(path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return text


def test_clients_on_two_processes_play_a_whole_deal(pair: tuple[Server, Server], tmp_path: Path) -> None:
    one, two = pair
    t = one.create(variant="conquian", host_name="Ann", seats=[{"kind": "open"}, {"kind": "open"}])
    bea = two.post(f"/api/tables/{t['id']}/sit", {"seat": 2, "name": "Bea"})  # through the other process
    assert bea.status_code == 200, bea.text
    a = Client(one, str(t["id"]), str(t["token"]))
    b = Client(two, str(t["id"]), bea.json()["token"])
    for c in (a, b):
        c.wait_table(lambda x: x["status"] == "playing")
    final = play_to_the_end({1: a, 2: b}, random.Random(5))
    assert final["deal"]["over"]
    b.wait_table(lambda x: x["state"] == final["state"])
    # both processes tell the same table, and hold the same record
    assert one.get(f"/api/tables/{t['id']}").json()["state"] == two.get(f"/api/tables/{t['id']}").json()["state"]
    assert replays(one, str(t["id"]), tmp_path) == replays(two, str(t["id"]), tmp_path)
    a.close()
    b.close()


def test_a_seat_taken_through_both_processes_at_once_goes_to_one(pair: tuple[Server, Server]) -> None:
    one, two = pair
    for round_ in range(5):
        t = one.create(variant="conquian", host_name="Ann", seats=[{"kind": "open"}, {"kind": "open"}])
        answers: dict[str, Any] = {}

        def sit(server: Server, name: str, t: dict[str, Any] = t, answers: dict[str, Any] = answers) -> None:
            answers[name] = server.post(f"/api/tables/{t['id']}/sit", {"seat": 2, "name": name})

        threads = [threading.Thread(target=sit, args=(s, n)) for s, n in ((one, "Bea"), (two, "Cid"))]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        codes = sorted(r.status_code for r in answers.values())
        assert codes == [200, 409], (round_, {n: r.text for n, r in answers.items()})
        winner = next(n for n, r in answers.items() if r.status_code == 200)
        for s in (one, two):
            seats = s.get(f"/api/tables/{t['id']}").json()["seats"]
            assert [x["name"] for x in seats] == ["Ann", winner]


def test_the_same_move_sent_to_both_processes_at_once_applies_once(pair: tuple[Server, Server]) -> None:
    one, two = pair
    t = one.create(variant="conquian", host_name="Ann", seats=[{"kind": "open"}, {"kind": "open"}])
    bea = two.post(f"/api/tables/{t['id']}/sit", {"seat": 2, "name": "Bea"}).json()
    tokens = {1: str(t["token"]), 2: bea["token"]}
    clients = {(seat, s.port): Client(s, str(t["id"]), tokens[seat]) for seat in (1, 2) for s in (one, two)}
    rng = random.Random(9)
    applied = 0
    for _ in range(12):
        table = one.get(f"/api/tables/{t['id']}").json()  # the table as it stands (a spectator's view)
        if table["deal"]["over"]:
            break
        state, seat = table["state"], table["deal"]["to_act"]
        here, there = clients[(seat, one.port)], clients[(seat, two.port)]
        # each process must have heard of the state the move answers (a process may lag behind)
        there.wait_table(lambda x, s=state: x["state"] == s and bool(x["legal"]))
        move = rng.choice(here.wait_table(lambda x, s=state: x["state"] == s and bool(x["legal"]))["legal"])
        errors_before = len(here.errors) + len(there.errors)
        message = json.dumps({"type": "act", "state": state, "action": move})
        here.send(message)
        there.send(message)
        for c in (here, there):
            c.wait_table(lambda x, s=state: x["state"] > s)
        # one of the two was refused as stale; the move is stored once
        deadline = time.time() + 10
        while len(here.errors) + len(there.errors) == errors_before and time.time() < deadline:
            for c in (here, there):
                with contextlib.suppress(TimeoutError):
                    c.recv(0.2)
        new = here.errors[errors_before:] if len(here.errors) > errors_before else there.errors[-1:]
        assert len(here.errors) + len(there.errors) == errors_before + 1, (here.errors, there.errors)
        assert new[-1]["code"] == "stale"
        applied += 1
        for s in (one, two):
            assert s.get(f"/api/tables/{t['id']}").json()["state"] == state + 1
    assert applied >= 5
    for c in clients.values():
        c.close()


def holder(servers: list[Server], table_id: str, timeout: float = 20) -> Server:
    """The process that holds the table's bots."""
    end = time.time() + timeout
    while time.time() < end:
        held = [s for s in servers if table_id in s.health()["bots_for"]]
        assert len(held) <= 1, "two processes hold one table's bots"
        if held:
            return held[0]
        time.sleep(0.1)
    raise AssertionError("no process holds the bots")


def test_a_process_killed_mid_deal_its_clients_and_bots_go_on_elsewhere(pair: tuple[Server, Server],
                                                                         tmp_path: Path) -> None:
    one, two = pair
    t = one.create(variant="cooncan", players=3, host_name="Ann",
                   seats=[{"kind": "open"}, {"kind": "open"}, {"kind": "foster"}])
    tid = str(t["id"])
    bea = two.post(f"/api/tables/{tid}/sit", {"seat": 2, "name": "Bea"}).json()
    tokens = {1: str(t["token"]), 2: bea["token"]}
    clients = {1: Client(one, tid, tokens[1]), 2: Client(two, tid, tokens[2])}
    rng = random.Random(13)
    # play until the bot has moved a few times
    watcher = clients[1]
    while watcher.wait_table(lambda x: x["status"] == "playing")["state"] < 12:
        table = watcher.table
        if table["deal"]["over"]:
            break
        state, seat = table["state"], table["deal"]["to_act"]
        if seat in clients:
            mine = clients[seat].wait_table(lambda x, s=state: x["state"] >= s)
            if mine["state"] == state:
                clients[seat].act(rng.choice(mine["legal"]), state)
        watcher.wait_table(lambda x, s=state: x["state"] > s, timeout=30)
    dead = holder([one, two], tid)
    alive = two if dead is one else one
    killed_at = watcher.table["state"]
    dead.kill()  # SIGKILL: no shutdown, its bot lease goes with its database connection
    # its client reconnects to the other process, with the same token, and the deal goes on
    lost = 1 if dead is one else 2
    clients[lost] = Client(alive, tid, tokens[lost])
    assert clients[lost].welcome["seat"] == lost
    final = play_to_the_end({lost: clients[lost], 3 - lost: clients[3 - lost]}, rng)
    assert final["deal"]["over"]
    actions = tomllib.loads(replays(alive, tid, tmp_path))["deals"][0]["actions"]
    # the bot went on playing, from the surviving process
    assert final["state"] - killed_at < 3 or any(x.startswith("p3 ") for x in actions[killed_at - 1:])
    for c in clients.values():
        c.close()


def test_presence_crosses_processes_so_no_bot_plays_for_a_connected_person(pair: tuple[Server, Server]) -> None:
    one, two = pair
    t = one.create(variant="conquian", host_name="Ann", seats=[{"kind": "open"}, {"kind": "open"}], away_after=5)
    tid = str(t["id"])
    bea = two.post(f"/api/tables/{tid}/sit", {"seat": 2, "name": "Bea"}).json()
    a = Client(one, tid, str(t["token"]))  # Ann on one process, Bea on the other
    b = Client(two, tid, bea["token"])
    rng = random.Random(2)
    # move until it is Bea's turn
    while a.wait_table(lambda x: x["status"] == "playing")["deal"]["to_act"] != 2:
        state = a.table["state"]
        a.act(rng.choice(a.table["legal"]), state)
        a.wait_table(lambda x, s=state: x["state"] > s)
    state = a.table["state"]
    time.sleep(7)  # past away_after: had process one not known Bea is connected to two, it would play
    assert one.get(f"/api/tables/{tid}").json()["state"] == state
    b.close()  # now she is away: after five seconds the expert plays for her, on one process only
    a.wait_table(lambda x, s=state: x["state"] > s, timeout=20)  # Ann sent nothing: the expert played seat 2
    record = tomllib.loads(replays(one, tid, Path(tempfile.mkdtemp()))) if a.table["deal"]["over"] else None
    assert record is None or record["deals"][0]["actions"][state - 1].startswith("p2 ")
    a.close()


def test_workers_share_one_port(postgres_url: str, tmp_path: Path) -> None:
    s = Server(postgres_url, tmp_path, extra=("--workers", "2", "--log-level", "warning")).start()
    try:
        t = s.create(variant="conquian", host_name="Ann", seats=[{"kind": "open"}, {"kind": "open"}])
        bea = s.post(f"/api/tables/{t['id']}/sit", {"seat": 2, "name": "Bea"}).json()
        # several connections: the kernel spreads them over the two processes
        a = Client(s, str(t["id"]), str(t["token"]))
        b = Client(s, str(t["id"]), bea["token"])
        for c in (a, b):
            c.wait_table(lambda x: x["status"] == "playing")
        final = play_to_the_end({1: a, 2: b}, random.Random(8))
        assert final["deal"]["over"]
        pids = {s.health()["pid"] for _ in range(30)}
        assert len(pids) >= 1
        replays(s, str(t["id"]), tmp_path)
        a.close()
        b.close()
    finally:
        s.stop()


def test_several_workers_need_postgres(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "conquian", "serve", "--workers", "2", "--port", str(free_port()),
                          "--db", f"sqlite:///{tmp_path / 'x.db'}"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "needs a PostgreSQL database" in out.stderr and "Traceback" not in out.stderr


def test_logs_are_structured_and_never_hold_a_token(postgres_url: str, tmp_path: Path) -> None:
    s = Server(postgres_url, tmp_path, extra=("--log-format", "json", "--log-level", "info")).start()
    try:
        t = s.create(variant="conquian", host_name="Ann", seats=[{"kind": "open"}, {"kind": "foster"}])
        a = Client(s, str(t["id"]), str(t["token"]), host=str(t["host"]))
        a.wait_table(lambda x: x["status"] == "playing")
        for _ in range(3):
            table = a.wait_table(lambda x: x["deal"]["to_act"] == 1 or x["deal"]["over"])
            if table["deal"]["over"]:
                break
            state = table["state"]
            a.act(table["legal"][0], state)
            a.wait_table(lambda x, st=state: x["state"] > st)
        a.close()
        time.sleep(0.5)
    finally:
        s.stop()
    lines = [json.loads(x) for x in s.log.read_text().splitlines() if x.startswith("{")]
    assert lines, s.log.read_text()[-2000:]
    events = {x.get("event") for x in lines}
    assert {"request", "move", "ws_open", "ws_close"} <= events
    moves = [x for x in lines if x.get("event") == "move"]
    assert all(x["table"] == t["id"] and isinstance(x["state"], int) for x in moves)
    assert {x["by"] for x in moves} == {"person", "foster"}
    text = s.log.read_text()
    assert str(t["token"]) not in text and str(t["host"]) not in text


def test_processes_starting_together_upgrade_the_schema_once(tmp_path: Path) -> None:
    # a fresh database, several processes at once: each waits for the other's upgrade
    with running_postgres() as url:
        servers = [Server(url, tmp_path) for _ in range(3)]
        procs = [threading.Thread(target=s.start) for s in servers]
        for p in procs:
            p.start()
        for p in procs:
            p.join()
        try:
            assert all(s.health()["ok"] for s in servers)
        finally:
            for s in servers:
                s.stop()


def test_chat_and_mutes_cross_processes(pair: tuple[Server, Server]) -> None:
    """A line reaches every connection that may read it, whichever process holds it (a seat's
    connections on both); a spectator's reaches the spectators of both processes and no seated
    player; a spectator muted on one process is muted when he comes back on the other."""
    one, two = pair
    t = one.create(variant="conquian", host_name="Ann")
    bob = one.post(f"/api/tables/{t['id']}/sit", {"seat": 2, "name": "Bob"}).json()
    ann1 = Client(one, t["id"], t["token"], host=t["host"])
    ann2 = Client(two, t["id"], t["token"])
    bob2 = Client(two, t["id"], bob["token"])
    watch1, watch2 = Client(one, t["id"]), Client(two, t["id"])
    everyone = [ann1, ann2, bob2, watch1, watch2]
    for c in everyone:
        c.wait_table(lambda x: x["status"] == "playing")
    bob2.send({"type": "chat", "text": "hola"})
    for c in everyone:
        m = c.wait(lambda m: m["type"] == "chat", timeout=20)
        assert m["text"] == "hola" and m["from"] == "Bob"
    watch1.send({"type": "chat", "text": "psst"})
    assert watch2.wait(lambda m: m["type"] == "chat" and m["text"] == "psst", timeout=20)["channel"] == "spectators"
    time.sleep(1.0)
    for c in (ann1, ann2, bob2):
        c.send({"type": "ping"})
        c.wait(lambda m: m["type"] == "pong")
        assert not any(m["type"] == "chat" and m["text"] == "psst" for m in c.other)
    ann1.send({"type": "mute", "spectator": watch1.welcome["id"]})
    watch1.wait_table(lambda x: x["chat_muted"] is True)
    time.sleep(1.0)  # the other process hears of it
    watch1.close()
    back = Client(two, t["id"])
    assert back.table["chat_muted"] is True
    back.send({"type": "chat", "text": "again"})
    assert back.error()["code"] == "muted"
    for c in (ann1, ann2, bob2, watch2, back):
        c.close()
