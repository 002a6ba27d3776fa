"""Quick match with two server processes on one PostgreSQL database: players queued on different
processes are paired (each once, however many pairing rounds the processes run at the same time),
a player paired by the other process reads his seat from his own, and a bot fills a seat after
the wait.  See ``tests/pg.py`` for how the database server is started."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

pytest.importorskip("psycopg")
pytest.importorskip("uvicorn")

from conquian.bots.levels import level_for
from conquian.web.platform.quickmatch.service import NEW_RATING
from pg import require_postgres, running_postgres
from test_web_quickmatch import quick, signed_in, wait_matched
from web_server import Server

require_postgres()


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    with running_postgres() as url:
        yield url


def test_quick_match_across_two_processes(postgres_url: str, tmp_path: Path) -> None:
    extra = ("--log-level", "warning", "--quick-bot-after", "2")
    one = Server(postgres_url, tmp_path, extra=extra).start()
    two = Server(postgres_url, tmp_path, extra=extra).start()
    try:
        # one on each process: paired, the same table, each at his own seat
        ann, ha = signed_in(one.url, "Ann")
        bea, hb = signed_in(two.url, "Bea")
        assert quick(ann, ha, game="conquian", players=2).json()["matched"] is False
        assert quick(bea, hb, game="conquian", players=2).status_code == 200
        sa, sb = wait_matched(ann), wait_matched(bea)
        assert sa["table"] == sb["table"] and {sa["seat"], sb["seat"]} == {1, 2}
        for url in (one.url, two.url):
            table = httpx.get(url + f"/api/tables/{sa['table']}").json()
            assert table["status"] == "playing" and sorted(s["name"] for s in table["seats"]) == ["Ann", "Bea"]

        # eight players queued on both processes at once, with both processes pairing: each paired once
        players = [signed_in((one, two)[k % 2].url, f"Q{k}") for k in range(8)]
        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(lambda p: quick(p[0], p[1], game="cooncan", players=2), players))
        assert all(a.status_code == 200 for a in answers)
        seats = [wait_matched(c) for c, _h in players]
        tables: dict[str, list[int]] = {}
        for s in seats:
            tables.setdefault(s["table"], []).append(s["seat"])
        assert len(tables) == 4 and all(sorted(v) == [1, 2] for v in tables.values())
        for table_id in tables:
            names = [s["name"] for s in httpx.get(one.url + f"/api/tables/{table_id}").json()["seats"]]
            assert all(n.startswith("Q") for n in names) and len(set(names)) == 2
        seen = {s["name"] for t in tables for s in httpx.get(two.url + f"/api/tables/{t}").json()["seats"]}
        assert seen == {f"Q{k}" for k in range(8)}

        # alone on process two, for three: after the wait, bots fill the two empty seats and play
        cleo, hc = signed_in(two.url, "Cleo")
        assert quick(cleo, hc, game="cooncan", players=3).json()["bots_in"] == 2
        time.sleep(2.1)
        seat = cleo.post("/api/quick/bots", headers=hc).json()
        assert seat["matched"] is True
        table = httpx.get(one.url + f"/api/tables/{seat['table']}").json()
        level = level_for("cooncan", NEW_RATING)  # a newcomer's: the fitted level nearest 1,500 (foster)
        assert level is not None
        assert sorted(s["kind"] for s in table["seats"]) == [level, level, "human"]
    finally:
        one.stop()
        two.stop()
