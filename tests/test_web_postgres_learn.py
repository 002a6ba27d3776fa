"""The fourth security review's probe of a read-only database, on the Learn section (issue 50,
finding 10): with the PostgreSQL database turned read-only under a running server, a signed-in
puzzle answer reset the connection.  Now a verdict that cannot be kept is answered
``503 storage``, without the answer; a puzzle's position, which keeps nothing, is still shown;
and once the database takes writes again the refused attempt has used nothing up.  See
``tests/pg.py`` for how the database server is started."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

pytest.importorskip("psycopg")
pytest.importorskip("uvicorn")

from conquian.learn.puzzles import puzzles
from pg import read_only, require_postgres, running_postgres
from web_server import Server

require_postgres()


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    with running_postgres() as url:
        yield url


def test_a_read_only_database_answers_storage_to_a_puzzle_answer(postgres_url: str, tmp_path: Path) -> None:
    s = Server(postgres_url, tmp_path).start()
    try:
        p = puzzles()[0]
        player = httpx.Client(base_url=s.url, timeout=30)
        token = {"X-CSRF-Token": player.post("/api/account", json={}).json()["csrf"]}
        guest = httpx.Client(base_url=s.url, timeout=30)
        with read_only(postgres_url):
            time.sleep(0.2)  # the server's open sessions read the reloaded setting at their next command
            for c, headers in ((player, token), (guest, {})):
                r = c.post(f"/api/puzzles/{p.id}", json={"move": p.answer}, headers=headers)
                assert r.status_code == 503, r.text
                error = r.json()["error"]
                assert error["code"] == "storage" and "\n" not in error["message"]
                assert p.answer not in r.text and "result" not in r.json()
            shown = guest.post(f"/api/puzzles/{p.id}", json={})  # nothing to keep: still shown
            assert shown.status_code == 200 and "result" not in shown.json()
            assert httpx.get(s.url + "/health", timeout=10).status_code == 503  # the health check sees it too
        time.sleep(0.2)
        # the refused attempt used nothing up: the player's first answer is rated now
        r = player.post(f"/api/puzzles/{p.id}", json={"move": p.answer}, headers=token)
        assert r.status_code == 200 and r.json()["rating"]["counted"] is True, r.text
    finally:
        s.stop()
