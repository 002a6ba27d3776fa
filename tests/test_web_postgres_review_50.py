"""The fourth security review's findings that need PostgreSQL (issue 50): a database gone
read-only (finding 10), and a spectator muted from another process (finding 8).  Real server
processes on 127.0.0.1 over a PostgreSQL server started for the module (``tests/pg.py``)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, text

pytest.importorskip("psycopg")
pytest.importorskip("uvicorn")

from pg import read_only, require_postgres, running_postgres
from test_web_security_accounts_50 import visit
from web_server import Client, Server

require_postgres()


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    with running_postgres() as url:
        yield url


def test_10_a_database_gone_read_only_fails_writes_not_requests(postgres_url: str, tmp_path: Path) -> None:
    """The reviewer's probe: with the database read-only, ``POST /api/quick`` answered 500 and a
    signed-in request failed outright (every one wrote when its session was last seen).  Now a
    write the database refuses is the API's ``503 storage``, and a signed-in request that only
    reads is answered."""
    s = Server(postgres_url, tmp_path).start()
    try:
        c, h = visit(s.url, "Rocío")
        admin = create_engine(postgres_url)
        with admin.begin() as conn:  # seen long ago: the next request notes it
            conn.execute(text("UPDATE account_sessions SET seen_at = 0"))
        admin.dispose()
        with read_only(postgres_url, end_sessions=True):
            # the server's old connections were ended: a first request may meet one (and fail,
            # in the API's words); the pool then opens new, read-only ones
            for _ in range(50):
                first = httpx.get(s.url + "/api/leaderboard", timeout=10)
                if first.status_code == 200:
                    break
                assert first.status_code == 503 and first.json()["error"]["code"] == "storage", first.text
            me = c.get("/api/account")
            assert me.status_code == 200 and me.json()["name"] == "Rocío", me.text
            for lang, words in (({}, "database"), ({"Accept-Language": "es"}, "base de datos")):
                quick = c.post("/api/quick", json={"game": "conquian", "players": 2}, headers=h | lang)
                assert quick.status_code == 503, quick.text
                assert quick.json()["error"]["code"] == "storage" and words in quick.json()["error"]["message"]
            made = httpx.post(s.url + "/api/tables", json={"variant": "conquian"}, timeout=10)
            assert made.status_code == 503 and made.json()["error"]["code"] == "storage"
            # a signed-in puzzle attempt (rated: a write): answered in the same words, not a reset
            puzzle = c.get("/api/puzzles").json()["puzzles"][0]["id"]
            moves = c.post(f"/api/puzzles/{puzzle}", json={}, headers=h)
            assert moves.status_code == 200, moves.text
            tried = c.post(f"/api/puzzles/{puzzle}", json={"move": moves.json()["moves"][0]["move"]}, headers=h)
            assert tried.status_code == 503 and tried.json()["error"]["code"] == "storage", tried.text
        # writable again: the same requests go through
        for _ in range(50):
            quick = c.post("/api/quick", json={"game": "conquian", "players": 2}, headers=h)
            if quick.status_code == 200:
                break
            assert quick.status_code == 503
            time.sleep(0.1)
        assert quick.status_code == 200 and quick.json()["queued"] is True, quick.text
        assert c.delete("/api/quick", headers=h).status_code == 200
    finally:
        s.stop()


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


def heard(client: Client, line: str) -> bool:
    """Whether ``client`` was told the chat line ``line`` (asked after a ping, so that what the
    server sent before its pong has arrived)."""
    client.send({"type": "ping"})
    client.wait(lambda m: m["type"] == "pong")
    return any(m["type"] == "chat" and m["text"] == line for m in client.other)


@pytest.mark.parametrize("where", ["same", "other"])
def test_8_a_spectator_is_muted_whichever_process_holds_him(pair: tuple[Server, Server], where: str) -> None:
    """The reviewer's probe: with two processes, the host muting a spectator connected to the
    other process was refused ("no spectator watches this table") and the spectator's lines went
    on reaching everyone.  The host, on process one, hears a spectator's line and mutes him: it
    is taken whichever process holds the spectator, his next line is refused there and reaches
    nobody, on either process."""
    one, two = pair
    t = one.create(variant="conquian", host_name="Ann")
    bob = one.post(f"/api/tables/{t['id']}/sit", {"seat": 2, "name": "Bob"}).json()
    host = Client(one, t["id"], None, host=t["host"])  # the host's tab without a seat: it reads spectators
    bob2 = Client(two, t["id"], bob["token"])
    loud = Client(one if where == "same" else two, t["id"])
    others = [Client(one, t["id"]), Client(two, t["id"])]  # spectators on each process
    everyone = [host, bob2, loud, *others]
    for c in everyone:
        c.wait_table(lambda x: x["status"] == "playing")
    loud.send({"type": "chat", "text": "first"})
    line = host.wait(lambda m: m["type"] == "chat" and m["text"] == "first", timeout=20)
    host.send({"type": "mute", "spectator": line["id"]})
    assert not heard(host, "nothing") and host.errors == []  # taken: no refusal
    loud.wait_table(lambda x: x["chat_muted"] is True, timeout=20)  # his process applied it
    loud.send({"type": "chat", "text": "second"})
    assert loud.error()["code"] == "muted"
    for c in (host, bob2, *others):
        assert not heard(c, "second")
    for c in everyone:
        c.close()
