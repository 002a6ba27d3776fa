"""Denial of service and abuse of ``conquian serve``, over real sockets on 127.0.0.1: what one
client address may take (connections, messages, tables), the audience of a table, slow
clients, and two servers on one SQLite file."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from conquian.web.limits import sqlite_path
from web_server import Client, Server, free_port


@contextmanager
def serving(tmp: Path, *limits: str) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp / 'limits.db'}", tmp, limits=(*Server.LOOSE, *limits)).start()
    try:
        yield s
    finally:
        s.stop()


def refused(server: Server, table_id: str, token: str | None = None) -> dict[str, Any]:
    """Open a WebSocket that the server is expected to refuse: its error, and the close code."""
    error: dict[str, Any] = {}
    close: int | None = None
    try:
        with connect(f"ws://127.0.0.1:{server.port}/ws/{table_id}", open_timeout=10) as ws:
            with contextlib.suppress(ConnectionClosed):
                ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
            try:
                while True:
                    m = json.loads(ws.recv(timeout=10))
                    if m["type"] == "error":
                        error = m
            except ConnectionClosed as e:
                close = e.rcvd.code if e.rcvd else None
    except ConnectionClosed as e:
        close = close or (e.rcvd.code if e.rcvd else None)
    return error | {"close": close}


def test_a_second_server_on_the_same_sqlite_file_refuses_to_start(tmp_path: Path) -> None:
    first = Server(f"sqlite:///{tmp_path / 'one.db'}", tmp_path).start()
    try:
        assert first.proc is not None
        out = subprocess.run(
            [sys.executable, "-m", "conquian", "serve", "--port", str(free_port()), "--db",
             f"sqlite:///{tmp_path / 'one.db'}"], capture_output=True, text=True, timeout=60)
        assert out.returncode == 2
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1 and f"pid {first.proc.pid}" in lines[0] and "in use" in lines[0]
        assert first.health()["ok"]  # the first one goes on
    finally:
        first.stop()
    # once the first has stopped, the file is free again
    again = Server(f"sqlite:///{tmp_path / 'one.db'}", tmp_path).start()
    again.stop()
    assert sqlite_path("postgresql+psycopg://u@h/db") is None  # PostgreSQL takes several processes


def test_a_table_takes_so_many_spectators_and_its_players_still(tmp_path: Path) -> None:
    with serving(tmp_path, "--max-spectators", "3") as s:
        t = s.create(variant="conquian", host_name="Ann", seats=[{"kind": "open"}, {"kind": "random"}])
        watching = [Client(s, t["id"]) for _ in range(3)]
        err = refused(s, t["id"])
        assert err["code"] == "too_many_spectators" and err["close"] == 4429
        ann = Client(s, t["id"], t["token"])
        assert ann.welcome["seat"] == 1
        watching[0].close()
        time.sleep(0.3)
        watching[0] = Client(s, t["id"])  # a place came free
        for c in (*watching, ann):
            c.close()


def test_an_arrival_is_not_told_to_each_of_the_audience(tmp_path: Path) -> None:
    with serving(tmp_path) as s:
        t = s.create(variant="conquian", host_name="Ann", seats=[{"kind": "open"}, {"kind": "random"}])
        first = Client(s, t["id"])
        others = [Client(s, t["id"]) for _ in range(20)]
        got: list[dict[str, Any]] = []
        end = time.time() + 2.5
        while time.time() < end:
            try:
                got.append(first.recv(timeout=max(0.01, end - time.time())))
            except TimeoutError:
                break
        # one presence message (a count, not a list) for the twenty arrivals, not twenty tables
        assert 1 <= len(got) <= 3, got
        assert all(m["type"] == "presence" for m in got)
        assert got[-1]["spectators"] == 21 and isinstance(got[-1]["spectators"], int)
        assert first.table["spectators"] == 21
        for c in (first, *others):
            c.close()


def test_one_address_holds_so_many_connections(tmp_path: Path) -> None:
    with serving(tmp_path, "--connections-per-address", "4") as s:
        t = s.create(variant="conquian", host_name="Ann")
        held = [Client(s, t["id"]) for _ in range(4)]
        err = refused(s, t["id"])
        assert err["code"] == "too_many_connections" and err["close"] == 4429
        held.pop().close()
        time.sleep(0.3)
        held.append(Client(s, t["id"]))
        for c in held:
            c.close()


def test_messages_are_limited_per_address_not_only_per_connection(tmp_path: Path) -> None:
    with serving(tmp_path, "--messages-per-address", "5") as s:
        t = s.create(variant="conquian", host_name="Ann")
        clients = [Client(s, t["id"]) for _ in range(10)]
        for c in clients:
            for _ in range(6):  # each connection well within its own limit (bursts of 30)
                c.send({"type": "ping"})
        pongs = fast = 0
        for c in clients:
            try:
                while True:
                    m = c.recv(timeout=1)
                    pongs += m["type"] == "pong"
                    fast += m["type"] == "error" and m["code"] == "too_fast"
            except TimeoutError:
                pass
        assert pongs < 60 and fast > 0 and pongs + fast == 60
        for c in clients:
            c.close()


def test_one_address_makes_so_many_tables(tmp_path: Path) -> None:
    with serving(tmp_path, "--tables-per-minute", "3") as s:
        spec = {"variant": "conquian"}
        codes = [s.post("/api/tables", spec).status_code for _ in range(8)]
        assert codes[:5] == [201] * 5 and codes[5:] == [429] * 3
        err = s.post("/api/tables", spec).json()["error"]
        assert err["code"] == "too_many_tables" and "\n" not in err["message"]


def test_the_lobby_lists_tables_with_people_first_and_forgets_unjoined_ones(tmp_path: Path) -> None:
    with serving(tmp_path, "--unjoined-after", "2") as s:
        real = s.create(variant="conquian", host_name="Ann", name="real")
        empty = [s.create(variant="conquian", name=f"empty {i}")["id"] for i in range(5)]
        listed = [x["id"] for x in s.get("/api/tables").json()["open"]]
        assert listed[0] == real["id"] and set(empty) <= set(listed)
        time.sleep(2.5)
        listed = [x["id"] for x in s.get("/api/tables").json()["open"]]
        assert listed == [real["id"]]
        assert s.get(f"/api/tables/{empty[0]}").status_code == 200  # still there for whoever has its link


def test_a_slow_client_is_cut_off(tmp_path: Path) -> None:
    with serving(tmp_path, "--request-timeout", "2") as s:
        socks = []
        for i in range(6):
            sock = socket.create_connection(("127.0.0.1", s.port), timeout=0.5)
            if i % 2:
                sock.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the end
            socks.append(sock)
        start = time.monotonic()
        closed_after = []
        for i, sock in enumerate(socks):
            while True:
                assert time.monotonic() - start < 8, "a slow client was held"
                try:
                    if i % 2:
                        sock.sendall(b"X")  # a byte now and then: uvicorn's own timer starts again
                    if sock.recv(1024) == b"":
                        break
                except TimeoutError:
                    continue
                except OSError:
                    break  # reset by the server
            closed_after.append(time.monotonic() - start)
        assert max(closed_after) < 6
        assert s.health()["ok"]  # a whole request is answered as ever
        for sock in socks:
            sock.close()
