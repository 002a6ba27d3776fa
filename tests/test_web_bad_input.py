"""``conquian serve`` given bad input over real sockets on 127.0.0.1: bytes that are not UTF-8,
names with control characters, forged log lines, other sites' requests (a rebound name, a
cross-site form post, framing), a full disk, a damaged database file; and /health that tells
only ok or not ok to the public."""

from __future__ import annotations

import json
import logging
import os
import resource
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from websockets.exceptions import ConnectionClosed

from conquian import get_rules
from conquian.web.logs import TextFormatter
from conquian.web.security import HostNames, allowed_hosts
from conquian.web.store import Store
from conquian.web.table import Table
from web_server import Client, Server, free_port

#: Names with what a player's name may not hold: NUL, ESC, a line break, bidi controls.
BAD_NAMES = ["a\x00b", "red \x1b[31m", "two\nlines", "abc\u202edcba", "\u2066isolate\u2069"]
#: Headers every answer carries.
PROTECTIONS = {"x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("bad-input")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp, extra=("--log-level", "info")).start()
    yield s
    s.stop()


def raw(server: Server, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """One HTTP request sent as bytes: the status, the headers (lower case) and the body."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def get_with_host(server: Server, path: str, host: str) -> tuple[int, dict[str, str], bytes]:
    return raw(server, f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())


def table_with_open_seat(server: Server) -> dict[str, object]:
    return server.create(variant="conquian", host_name="Ann", seats=[{"kind": "open"}, {"kind": "open"}])


# ---------------------------------------------------------------------------- not UTF-8
def test_a_body_that_is_not_utf8_gets_the_json_error(server: Server) -> None:
    t = table_with_open_seat(server)
    for path, body in [("/api/tables", b'{"variant": "conquian", "name": "caf\xe9"}'),
                       (f"/api/tables/{t['id']}/sit", b'{"seat": 2, "name": "\xff\xfe"}')]:
        r = httpx.post(server.url + path, content=body, headers={"Content-Type": "application/json"}, timeout=10)
        assert r.status_code == 400, r.text
        assert r.json()["error"]["code"] == "bad_message" and "UTF-8" in r.json()["error"]["message"]
    assert server.get(f"/api/tables/{t['id']}").json()["seats"][1]["kind"] == "open"


def test_a_binary_frame_whose_string_is_not_utf8_gets_the_error_and_the_connection_goes_on(server: Server) -> None:
    t = table_with_open_seat(server)
    a = Client(server, str(t["id"]), str(t["token"]))
    a.ws.send(b'{"type": "act", "state": 0, "action": "pass \xff"}')
    err = a.error()
    assert err["code"] == "bad_message" and "UTF-8" in err["message"]
    a.send({"type": "ping"})
    assert a.wait(lambda m: m["type"] == "pong")
    a.close()


def test_a_text_frame_that_is_not_utf8_is_closed_with_1007_and_logged_in_one_line(server: Server) -> None:
    t = table_with_open_seat(server)
    a = Client(server, str(t["id"]), str(t["token"]))
    a.ws.send(b'{"type": "ping", "x": "\xc3("}', text=True)
    with pytest.raises(ConnectionClosed):
        while True:
            a.recv(timeout=10)
    assert a.ws.protocol.close_rcvd is not None and a.ws.protocol.close_rcvd.code == 1007
    log = server.log.read_text(errors="replace")
    assert "Invalid UTF-8" in log and "Traceback" not in log
    # the table is still served
    b = Client(server, str(t["id"]))
    b.close()


# ---------------------------------------------------------------------------- names
@pytest.mark.parametrize("name", BAD_NAMES)
def test_table_names_with_control_characters_are_refused(server: Server, name: str) -> None:
    r = server.post("/api/tables", {"variant": "conquian", "name": name})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_name", r.text
    assert all(name not in row["name"] for row in server.get("/api/tables").json()["open"])


def test_table_names_with_any_other_character_are_kept(server: Server) -> None:
    t = server.create(variant="conquian", name="  Café «日曜» ♠ 🂡  ", seats=[{"kind": "open"}, {"kind": "open"}])
    assert server.get(f"/api/tables/{t['id']}").json()["name"] == "Café «日曜» ♠ 🂡"


# ---------------------------------------------------------------------------- logs
def test_a_path_cannot_forge_a_log_line_or_write_a_nul(server: Server) -> None:
    forged = "2026-01-01 00:00:00,000 INFO conquian.web: move event=move table=fake by=person"
    for path in ["/nothing%0a" + forged.replace(" ", "%20"), "/x%00y%1b[31m%e2%80%aeabc", "/a%20status=200"]:
        assert raw(server, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())[0] == 404
    server.get("/health")  # a last line: the requests above are written
    data = server.log.read_bytes()
    assert b"\x00" not in data and b"\x1b" not in data and "\u202e".encode() not in data
    lines = data.decode().splitlines()
    assert all(line.startswith(("20", "conquian serve:")) for line in lines), lines
    assert not any(line.startswith(forged[:10]) for line in lines)
    requests = [line for line in lines if "event=request" in line and "/nothing" in line]
    assert len(requests) == 1 and "\\nINFO" not in requests[0] and '\\n2026-01-01' in requests[0]
    assert any('path="/a status=200" status=404' in line for line in lines)
    assert any("path=/x\\x00y\\x1b[31m\\u202eabc" in line for line in lines)


def test_an_exception_is_one_line_of_the_text_log() -> None:
    try:
        raise ValueError("first\nsecond")
    except ValueError:
        record = logging.LogRecord("conquian.web", logging.ERROR, "", 0, "failed %s", ("a\nb",), sys.exc_info())
    record.table = "t\r1"
    line = TextFormatter().format(record)
    assert "\n" not in line and "\r" not in line
    assert "failed a\\nb table=\"t\\r1\" exception=" in line and "ValueError: first\\nsecond" in line


# ---------------------------------------------------------------------------- other sites
def test_a_name_that_is_not_the_servers_is_refused(server: Server) -> None:
    for host in ("evil.example", f"evil.example:{server.port}", "127.0.0.1.evil.example", ""):
        status, headers, body = get_with_host(server, "/api/tables", host)
        assert status == 400 and json.loads(body)["error"]["code"] == "bad_host", (host, body)
        assert headers["x-frame-options"] == "DENY"
    for host in (f"127.0.0.1:{server.port}", f"localhost:{server.port}", "LOCALHOST", f"[::1]:{server.port}"):
        assert get_with_host(server, "/api/tables", host)[0] == 200, host
    # a load balancer checks each machine by its address: /health answers, ok or not ok only
    status, _, body = get_with_host(server, "/health", "10.1.2.3:8000")
    assert status == 200 and json.loads(body) == {"ok": True}
    t = table_with_open_seat(server)
    upgrade = (f"GET /ws/{t['id']} HTTP/1.1\r\nHost: evil.example:{server.port}\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
               "Sec-WebSocket-Version: 13\r\n\r\n")
    assert raw(server, upgrade.encode())[0] == 403


def test_the_names_an_operator_gives_are_served(tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 'h.db'}", tmp_path,
               extra=("--allowed-host", "cards.example", "--allowed-host", "*.games.example")).start()
    try:
        for host in ("cards.example", "cards.example:443", "a.games.example", f"127.0.0.1:{s.port}"):
            assert get_with_host(s, "/api/presets", host)[0] == 200, host
        for host in ("games.example.evil", "evil.example"):
            assert get_with_host(s, "/api/presets", host)[0] == 400, host
    finally:
        s.stop()


def test_any_name_only_when_the_operator_says_so() -> None:
    assert HostNames(allowed_hosts("0.0.0.0", ("*",))).allows("anything.example")
    assert not HostNames(allowed_hosts("0.0.0.0", ("cards.example",))).allows("anything.example")
    assert allowed_hosts("::1", ()) == ("[::1]", "127.0.0.1", "localhost")


def test_listening_on_every_address_needs_the_servers_names(tmp_path: Path) -> None:
    # the database cannot be opened: a server that did not check its names stops there, unbound
    out = subprocess.run([sys.executable, "-m", "conquian", "serve", "--host", "0.0.0.0", "--port", str(free_port()),
                          "--db", f"sqlite:///{tmp_path / 'no' / 'such' / 'x.db'}"],
                         capture_output=True, text=True, timeout=60, env=dict(os.environ, CONQUIAN_DATA=str(tmp_path)))
    assert out.returncode == 2 and "--allowed-host" in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_only_json_bodies_are_read(server: Server) -> None:
    before = len(server.get("/api/tables").json()["open"])
    t = table_with_open_seat(server)
    body = json.dumps({"variant": "conquian", "host_name": "Eve"})
    for ctype in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
        headers = {"Content-Type": ctype} if ctype else {}
        r = httpx.post(server.url + "/api/tables", content=body, headers=headers, timeout=10)
        assert r.status_code == 415 and r.json()["error"]["code"] == "not_json", (ctype, r.text)
        r = httpx.post(server.url + f"/api/tables/{t['id']}/sit", content=json.dumps({"seat": 2, "name": "Eve"}),
                       headers=headers, timeout=10)
        assert r.status_code == 415, (ctype, r.text)
    assert len(server.get("/api/tables").json()["open"]) == before + 1
    assert server.get(f"/api/tables/{t['id']}").json()["seats"][1]["kind"] == "open"
    r = httpx.post(server.url + "/api/tables", content=body, timeout=10,
                   headers={"Content-Type": "application/json; charset=utf-8"})
    assert r.status_code == 201


@pytest.mark.parametrize("path", ["/", "/t/abc", "/rules", "/api/presets", "/api/tables", "/static/app.js",
                                  "/static/style.css", "/health", "/api/tables/nope", "/no/such/page"])
def test_every_answer_carries_the_protections(server: Server, path: str) -> None:
    r = server.get(path)
    for name, value in PROTECTIONS.items():
        assert r.headers.get(name) == value, (path, name)
    policy = r.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "default-src 'self'" in policy and "script-src 'self'" in policy
    assert "unsafe-inline" not in policy and f"ws://127.0.0.1:{server.port}" in policy


# ---------------------------------------------------------------------------- the database
def test_a_full_disk_is_told_by_table_creation_and_health(tmp_path: Path) -> None:
    """Files the server writes may not grow past 400 kB (a real limit of the operating system,
    RLIMIT_FSIZE): the database's write-ahead log fills up after some tables."""

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (400_000, 400_000))

    s = Server(f"sqlite:///{tmp_path / 'full.db'}", tmp_path, preexec=small_files).start()
    try:
        first = table_with_open_seat(s)
        for _ in range(100):
            r = s.post("/api/tables", {"variant": "conquian", "name": "x" * 60, "seats": [{"kind": "open"}] * 2})
            if r.status_code != 201:
                break
        assert r.status_code == 503, r.text
        message = r.json()["error"]["message"]
        assert message.startswith("the server cannot store the table: ") and "\n" not in message
        r = s.post(f"/api/tables/{first['id']}/sit", {"seat": 2, "name": "Bea"})
        assert r.status_code == 503 and r.json()["error"]["code"] == "storage", r.text
        health = s.get("/health")
        assert health.status_code == 503 and health.json() == {"ok": False}
        assert s.health()["database_writable"] is False
        lines = s.log.read_text(errors="replace").splitlines()
        assert all(line.startswith(("20", "conquian serve:")) for line in lines), lines  # an event a line
    finally:
        s.stop()


def test_a_database_damaged_in_its_middle_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "damaged.db"
    store = Store(f"sqlite:///{path}")
    store.upgrade()
    for i in range(300):
        store.create(Table(f"t{i}", f"table {i} " + "x" * 40, get_rules("conquian"), seed=i))
    store.dispose()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size, pages = db.execute("PRAGMA page_size").fetchone()[0], db.execute("PRAGMA page_count").fetchone()[0]
    data = bytearray(path.read_bytes())
    data[pages // 2 * size:(pages // 2 + 3) * size] = b"\xa5" * 3 * size  # the header is intact
    path.write_bytes(bytes(data))
    port = free_port()
    try:
        out = subprocess.run([sys.executable, "-m", "conquian", "serve", "--port", str(port), "--db",
                              f"sqlite:///{path}"], capture_output=True, text=True, timeout=30,
                             env=dict(os.environ, CONQUIAN_DATA=str(tmp_path)))
    except subprocess.TimeoutExpired:
        pytest.fail("the server started on a damaged database")
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "cannot use the database" in out.stderr


# ---------------------------------------------------------------------------- health
def test_health_tells_the_public_only_ok(server: Server) -> None:
    r = server.get("/health")
    assert r.status_code == 200 and r.json() == {"ok": True}
    for wrong in ("Bearer nope", "Basic dGVzdA==", "Bearer", "test-health-token"):
        r = httpx.get(server.url + "/health", headers={"Authorization": wrong}, timeout=10)
        assert r.json() == {"ok": True}, wrong
    detail = server.health()
    assert detail["ok"] is True and detail["database_writable"] is True and "pid" in detail


def test_a_server_error_carries_the_protections_too(tmp_path: Path) -> None:
    """A 500 (here: a table row the server cannot read) is answered by Starlette's error handler,
    outside the application's middleware: the headers are added outside it."""
    url = f"sqlite:///{tmp_path / 'odd.db'}"
    store = Store(url)
    store.upgrade()
    store.create(Table("odd", "Odd", get_rules("conquian"), seed=1))
    store.dispose()
    with sqlite3.connect(tmp_path / "odd.db") as db:
        db.execute("UPDATE tables SET options = '{not json' WHERE id = 'odd'")
    s = Server(url, tmp_path).start()
    try:
        r = s.get("/api/tables/odd")
    finally:
        s.stop()
    assert r.status_code == 500
    for name, value in PROTECTIONS.items():
        assert r.headers.get(name) == value, name
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
