"""The web table on a real PostgreSQL server (Debian's packages), started by these tests (issue 10).

See ``tests/pg.py`` for how the server is started.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("psycopg")
pytest.importorskip("uvicorn")

from conquian import get_rules
from conquian.web.store import ConflictError, Store
from conquian.web.table import Table
from pg import require_postgres, running_postgres
from test_web_server import play_deal, two_people
from web_server import Client, Server, free_port

require_postgres()


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    with running_postgres() as url:
        yield url


def test_the_schema_is_created_and_upgraded_idempotently(postgres_url: str) -> None:
    store = Store(postgres_url)
    store.upgrade()
    store.upgrade()  # a second start finds the schema current
    t = Table("pg1", "pg", get_rules("cooncan", players=3), seed=2**62)
    store.create(t)
    for s in (1, 2, 3):
        t.sit(s, f"P{s}")
    store.save_seats(t)
    store.append(t, 0)
    again = store.load("pg1")
    assert again is not None and again.session is not None and again.session.deal == t.session.deal  # type: ignore[union-attr]
    assert again.seed == 2**62
    store.dispose()


def test_a_state_is_stored_once_whoever_writes_it(postgres_url: str) -> None:
    store = Store(postgres_url)
    store.upgrade()
    t = Table("pg2", "pg", get_rules("conquian"), seed=1)
    store.create(t)
    t.sit(1, "A")
    t.sit(2, "B")
    store.save_seats(t)
    store.append(t, 0)
    t.act(1, "pass", t.state)
    twin = store.load("pg2")
    assert twin is not None
    twin.act(1, "pass", twin.state)
    store.append(t, t.state - 1)
    with pytest.raises(ConflictError):
        store.append(twin, twin.state - 1)  # the second writer of the same state loses
    assert len(store.load("pg2").commands) == 2  # type: ignore[union-attr]
    store.dispose()


def test_a_deal_on_postgres_survives_sigkill(postgres_url: str, tmp_path: Path) -> None:
    s = Server(postgres_url, tmp_path).start()
    try:
        t, a, b = two_people(s)
        rng = random.Random(21)
        for _ in range(8):
            table = a.wait_table(lambda x: True)
            c = {1: a, 2: b}[table["deal"]["to_act"]]
            mine = c.wait_table(lambda x, st=table["state"]: x["state"] >= st)
            c.act(rng.choice(mine["legal"]), table["state"])
            a.wait_table(lambda x, st=table["state"]: x["state"] > st)
        state = a.table["state"]
        s.kill()
        s2 = Server(postgres_url, tmp_path, port=s.port).start()
        a2 = Client(s2, str(t["id"]), str(t["token"]))
        b2 = Client(s2, str(t["id"]), b.token)
        assert a2.table["state"] == state
        final = play_deal({1: a2, 2: b2}, rng)
        assert final["deal"]["over"]
        path = tmp_path / "pg.toml"
        path.write_text(s2.get(f"/api/tables/{t['id']}/record").text)
        out = subprocess.run([sys.executable, "-m", "conquian", "replay", str(path)], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        s2.stop()
    finally:
        s.kill()


def test_serve_refuses_a_database_it_cannot_reach(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "conquian", "serve", "--db",
                          f"postgresql+psycopg://nobody@127.0.0.1:{free_port()}/x", "--port", str(free_port())],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "cannot use the database" in out.stderr and "Traceback" not in out.stderr


def test_table_names_with_control_characters_are_refused_on_postgres(postgres_url: str, tmp_path: Path) -> None:
    """A NUL, which PostgreSQL cannot store in text, and the other characters a player's name may
    not hold: refused with the protocol's error, never a 500; the database is written (/health)."""
    s = Server(postgres_url, tmp_path).start()
    try:
        for name in ("a\x00b", "red \x1b[31m", "abc\u202edcba"):
            r = s.post("/api/tables", {"variant": "conquian", "name": name})
            assert r.status_code == 400 and r.json()["error"]["code"] == "bad_name", r.text
            r = s.post("/api/tables", {"variant": "conquian", "host_name": name})
            assert r.status_code == 400 and r.json()["error"]["code"] == "bad_name", r.text
        assert s.get("/health").json() == {"ok": True}
        detail = s.health()
        assert detail["database"] == "postgresql" and detail["database_writable"] is True
        assert all(row["status"] != "probe" for row in s.get("/api/tables").json()["open"])
    finally:
        s.stop()
