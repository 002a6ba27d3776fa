"""Accounts and ratings with two server processes on one PostgreSQL database: an account made on
one process is signed in on the other (the session, its CSRF token and the name are shared), a
look-alike name is refused across processes, and a rated match watched by both processes is
rated once.  See ``tests/pg.py`` for how the database server is started."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

pytest.importorskip("psycopg")
pytest.importorskip("uvicorn")

from pg import require_postgres, running_postgres
from test_web_accounts import visit
from test_web_ratings import board, play_out
from web_server import Client, Server

require_postgres()


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    with running_postgres() as url:
        yield url


def test_two_processes_share_accounts_and_rate_a_match_once(postgres_url: str, tmp_path: Path) -> None:
    one = Server(postgres_url, tmp_path).start()
    two = Server(postgres_url, tmp_path).start()
    try:
        ann, csrf = visit(one.url)
        h = {"X-CSRF-Token": csrf}
        # the same browser, on the other process: the same account, the same CSRF token
        on_two = httpx.Client(base_url=two.url, cookies=ann.cookies, timeout=10)
        me = on_two.get("/api/account").json()
        assert me["new"] is False and me["csrf"] == csrf
        assert on_two.post("/api/account/name", json={"name": "Ann"}, headers=h).status_code == 200
        assert ann.get("/api/account").json()["name"] == "Ann"
        bea, csrf_b = visit(two.url)
        hb = {"X-CSRF-Token": csrf_b}
        assert bea.post("/api/account/name", json={"name": "ANN"}, headers=hb).status_code == 409
        assert bea.post("/api/account/name", json={"name": "Bea"}, headers=hb).status_code == 200
        # a rated table made on one process, Bea seated on the other; each plays on her own process
        t = ann.post("/api/tables", json={"variant": "conquian", "rated": True, "deals": 1}, headers=h).json()
        sa = ann.post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": "x"}, headers=h).json()
        sb = bea.post(f"/api/tables/{t['id']}/sit", json={"seat": 2, "name": "x"}, headers=hb).json()
        play_out([Client(one, t["id"], sa["token"]), Client(two, t["id"], sb["token"])])
        for _ in range(100):
            rows = board(two.url)
            if "Ann" in rows and "Bea" in rows:
                break
            time.sleep(0.1)
        time.sleep(1)  # both processes have seen the end
        rows = board(one.url)
        assert rows["Ann"]["games"] == rows["Bea"]["games"] == 1  # rated once
        assert board(two.url) == rows
    finally:
        one.stop()
        two.stop()
