"""Friends and blocks with two server processes on one PostgreSQL database: a friend who is
connected to the other process shows as online, a block made on one process stops the chat both
ways on the other at once, and a line said on the other process is reported as it was said.
See ``tests/pg.py`` for how the database server is started."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

pytest.importorskip("psycopg")
pytest.importorskip("uvicorn")

from conquian.cli import main
from pg import require_postgres, running_postgres
from test_web_friends import Player, befriend, chats, quiet
from web_server import Client, Server

require_postgres()


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    with running_postgres() as url:
        yield url


def test_online_block_and_report_across_processes(postgres_url: str, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    one = Server(postgres_url, tmp_path).start()
    two = Server(postgres_url, tmp_path).start()
    clients: list[Client] = []
    try:
        ann, bob = Player(one.url, "Ann"), Player(two.url, "Bob")
        befriend(ann, bob)
        t = one.create(variant="conquian", host_name="Ann")
        bt = bob.post(f"/api/tables/{t['id']}/sit", {"seat": 2, "name": "Bob"}).json()["token"]
        a = Client(one, t["id"], t["token"], cookie=ann.cookie)
        b = Client(two, t["id"], bt, cookie=bob.cookie)
        watch = Client(one, t["id"])
        clients += [a, b, watch]
        # Bob, connected to the other process, is online for Ann
        assert [(f["name"], f["online"]) for f in ann.friends()["friends"]] == [("Bob", True)]
        b.send({"type": "chat", "text": "from two"})
        line = a.wait(lambda m: m["type"] == "chat" and m["text"] == "from two")
        a.send({"type": "report", "line": line["line"]})
        a.wait(lambda m: m["type"] == "reported")
        a.send({"type": "block", "line": line["line"]})
        a.wait(lambda m: m["type"] == "blocked")
        # at once, both ways, across the processes; the spectator reads both
        a.send({"type": "chat", "text": "not for Bob"})
        watch.wait(lambda m: m["type"] == "chat" and m["text"] == "not for Bob")
        b.send({"type": "chat", "text": "not for Ann"})
        watch.wait(lambda m: m["type"] == "chat" and m["text"] == "not for Ann")
        quiet(a)
        quiet(b)
        assert "not for Ann" not in chats(a) and "not for Bob" not in chats(b)
        # unblocked on the other process: the lines flow again
        on_two = httpx.Client(base_url=two.url, cookies=ann.http.cookies, timeout=10)
        assert on_two.post("/api/blocks/remove", json={"name": "Bob"}, headers=ann.h).status_code == 200
        b.send({"type": "chat", "text": "hello again"})
        a.wait(lambda m: m["type"] == "chat" and m["text"] == "hello again")
    finally:
        for c in clients:
            c.close()
        one.stop()
        two.stop()
    assert main(["admin", "reports", "--db", postgres_url, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["text"], r["seat_name"], r["account"], r["reporter"]) for r in rows] == [
        ("from two", "Bob", "Bob", "Ann")]
