"""Joining and hosting, over real sockets on 127.0.0.1: every refusal a person can cause when
joining is a sentence in his language (never msgspec's English), a finished casual match is its
players' only (not listed, its replay, record and review refused to others), the invitation's QR
code, ``conquian serve --lan`` (the address and a QR code in the terminal, the allowed host), and
a server stopped by ctrl+c or SIGTERM that stops its bot workers without a word of warning."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import segno
from websockets.sync.client import connect

from conquian.web.invite import lan_address, qr_svg, terminal_qr
from conquian.web.protocol import Sit, decode_body, invalid
from test_web_chat import finish_match
from web_server import Client, Server, free_port

ES = {"Accept-Language": "es-MX,es;q=0.9"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("hosting")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp).start()
    yield s
    s.stop()


def sit(server: Server, table_id: str, body: Any, headers: dict[str, str] = ES) -> httpx.Response:
    return httpx.post(f"{server.url}/api/tables/{table_id}/sit", json=body, headers=headers, timeout=10)


# ---------------------------------------------------------------------------- refusals in words
def test_every_refusal_of_taking_a_seat_is_a_spanish_sentence(server: Server) -> None:
    t = server.create(variant="conquian", host_name="Lupita", seats=[{"kind": "open"}, {"kind": "open"}])
    cases = [
        ({"seat": 2, "name": ""}, 400, "bad_message: primero escribe tu nombre (de 1 a 40 caracteres)"),
        ({"seat": 2, "name": "x" * 41}, 400, "bad_message: tu nombre admite como máximo 40 caracteres"),
        ({"seat": 9, "name": "Tere"}, 400, "bad_message: el lugar debe ser como máximo 7"),
        ({"seat": 0, "name": "Tere"}, 400, "bad_message: el lugar debe ser al menos 1"),
        ({"seat": "dos", "name": "Tere"}, 400, "bad_message: el lugar debe ser un número entero, no texto"),
        ({"name": "Tere"}, 400, "bad_message: falta el lugar"),
        ({"seat": 1, "name": "Tere"}, 409, "seat_taken: el lugar 1 está ocupado"),
    ]
    for body, status, words in cases:
        r = sit(server, t["id"], body)
        assert r.status_code == status, (body, r.text)
        assert r.json()["error"]["message"] == words, body
    # what msgspec says in English never reaches a person
    for body, _status, _words in cases:
        text = sit(server, t["id"], body).json()["error"]["message"]
        assert "Expected" not in text and "$." not in text and "`" not in text, text
    # a name of spaces, of control characters: the engine's refusal, in Spanish too
    blank = sit(server, t["id"], {"seat": 2, "name": "   "}).json()["error"]["message"]
    assert blank.startswith("bad_name: el nombre de un jugador tiene de 1 a 40 caracteres"), blank
    # the same refusal in English for an English reader
    en = sit(server, t["id"], {"seat": 2, "name": ""}, {"Accept-Language": "en"}).json()["error"]["message"]
    assert en == "bad_message: write your name first (1 to 40 characters)"
    missing = httpx.post(f"{server.url}/api/tables/nada/sit", json={"seat": 2, "name": "Tere"}, headers=ES)
    assert missing.status_code == 404 and missing.json()["error"]["message"] == "esa mesa no existe"


def test_a_bad_message_on_the_socket_is_refused_in_the_connections_language(server: Server) -> None:
    t = server.create(variant="conquian", host_name="Lupita", seats=[{"kind": "open"}, {"kind": "foster"}])
    with connect(f"ws://127.0.0.1:{server.port}/ws/{t['id']}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "v": 1, "token": t["token"], "lang": "es"}))

        def error() -> dict[str, Any]:
            while True:
                m: dict[str, Any] = json.loads(ws.recv(timeout=10))
                if m["type"] == "error":
                    return m

        ws.send(json.dumps({"type": "pace", "seconds": 9}))
        assert error()["message"] == "bad_message: el número de segundos debe ser como máximo 5"
        ws.send(json.dumps({"type": "react", "reaction": "x"}))
        assert error()["message"] == "bad_message: la reacción no puede ser 'x'"
        ws.send(json.dumps({"type": "act", "state": "3", "action": "pass"}))
        assert error()["message"] == "bad_message: el número de estado debe ser un número entero, no texto"


FINDINGS = [  # what msgspec says, the message's type, the sentence in English and in Spanish
    ("Expected `str` of length >= 1 - at `$.host_name`", "CreateTable",
     "write your name first (1 to 40 characters)", "primero escribe tu nombre (de 1 a 40 caracteres)"),
    ("Expected `str` of length <= 60 - at `$.name`", "CreateTable",
     "the table's name holds at most 60 characters", "el nombre de la mesa admite como máximo 60 caracteres"),
    ("Expected `array` of length <= 7 - at `$.seats`", "CreateTable",
     "the list of seats holds at most 7 items", "la lista de lugares admite como máximo 7 elementos"),
    ("Expected `str`, got `int` - at `$.seats[0].kind`", "CreateTable",
     "a seat's player should be text, not a whole number", "quien ocupa un lugar debe ser texto, no un número entero"),
    ("Expected `int | null`, got `float` - at `$.seed`", "CreateTable",
     "the seed should be a whole number or nothing, not a number",
     "la semilla debe ser un número entero o nada, no un número"),
    ("Expected `float` <= 5.0 - at `$.seconds`", "",
     "the number of seconds is at most 5", "el número de segundos debe ser como máximo 5"),
    ("Object contains unknown field `colour`", "Sit",
     "the field colour is not part of this message", "el campo colour no forma parte de este mensaje"),
    ("Expected `object`, got `array`", "Sit",
     "the message should be an object, not a list", "el mensaje debe ser un objeto, no una lista"),
    ("something msgspec never said", "Sit",
     "the message is not valid (something msgspec never said)",
     "el mensaje no es válido (something msgspec never said)"),
]


@pytest.mark.parametrize(("detail", "kind", "english", "spanish"), FINDINGS)
def test_msgspecs_findings_in_words(detail: str, kind: str, english: str, spanish: str) -> None:
    from conquian.i18n import translator

    message = invalid(detail, kind)
    assert (message.render(), message.render(translator("es"))) == (english, spanish)


def test_decoding_a_body_names_the_field_in_words() -> None:
    from conquian.engine.errors import ConquianError

    with pytest.raises(ConquianError, match="write your name first"):
        decode_body(b'{"seat": 2, "name": ""}', Sit)


# ---------------------------------------------------------------------------- finished matches
def finished(server: Server, public: bool) -> dict[str, Any]:
    t = server.create(variant="conquian", host_name="Lupita", deals=1, public=public,
                      seats=[{"kind": "open"}, {"kind": "foster"}])
    c = Client(server, t["id"], t["token"])
    try:
        finish_match(c)
    finally:
        c.close()
    return t


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_casual_match_is_kept_to_its_players(server: Server) -> None:
    casual, shown = finished(server, public=False), finished(server, public=True)
    listed = {r["id"] for r in server.get("/api/tables").json()["finished"]}
    assert shown["id"] in listed and casual["id"] not in listed
    for what in ("replay", "record", "review?seat=1&deal=1"):
        path = f"{server.url}/api/tables/{casual['id']}/{what}"
        for headers in ({}, bearer("not-a-token"), {"Authorization": casual["token"]}):
            r = httpx.get(path, headers=ES | headers, timeout=30)
            assert r.status_code == 403, (what, headers, r.text)
            assert r.json()["error"] == {"code": "private", "rule": None, "message": (
                "esta partida es solo de sus jugadores: ábrela en el navegador con el que jugaste, o desde "
                "el enlace de tu lugar")}
        # its seat's token and its host's open it
        for token in (casual["token"], casual["host"]):
            r = httpx.get(path, headers=bearer(token), timeout=30)
            assert r.status_code in (200, 202), (what, r.text)
        # a public table's, anyone
        r = httpx.get(f"{server.url}/api/tables/{shown['id']}/{what}", timeout=30)
        assert r.status_code in (200, 202), (what, r.text)
    replay = httpx.get(f"{server.url}/api/tables/{casual['id']}/replay", headers=bearer(casual["token"])).json()
    assert replay["names"] == ["Lupita", "Foster"] and replay["frames"]
    # the table itself says whether it is public (the page shows its players the way back)
    assert server.get(f"/api/tables/{casual['id']}").json()["public"] is False
    assert server.get(f"/api/tables/{shown['id']}").json()["public"] is True


def test_a_rematch_keeps_the_tables_choice(server: Server) -> None:
    from test_web_chat import ask_rematch

    t = finished(server, public=True)
    c = Client(server, t["id"], t["token"])
    try:
        again = ask_rematch(c)
    finally:
        c.close()
    assert server.get(f"/api/tables/{again}").json()["public"] is True


# ---------------------------------------------------------------------------- the invitation
def test_the_invitations_qr_code_is_its_link(server: Server) -> None:
    t = server.create(variant="conquian", host_name="Lupita", seats=[{"kind": "open"}, {"kind": "open"}])
    r = server.get(f"/api/tables/{t['id']}/invitation.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.content == qr_svg(f"{server.url}/t/{t['id']}")
    assert b"<script" not in r.content and b"viewBox" in r.content
    missing = httpx.get(f"{server.url}/api/tables/nada/invitation.svg", headers=ES)
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "no_table"


# ---------------------------------------------------------------------------- serve --lan
def read_qr(lines: list[str]) -> list[list[bool]]:
    """The modules (True: dark) of a QR code drawn by :func:`terminal_qr`: each character is two
    rows, a full block light over light (the terminal's dark background shows the dark modules)."""
    light = {"█": (True, True), " ": (False, False), "▀": (True, False), "▄": (False, True)}
    rows: list[list[bool]] = []
    for line in lines:
        pairs = [light[c] for c in line]
        rows.append([not top for top, _ in pairs])
        rows.append([not bottom for _, bottom in pairs])
    return rows


def modules(text: str) -> list[list[bool]]:
    """The modules of ``text``'s QR code with the quiet zone of four around it."""
    matrix = [[bool(v) for v in row] for row in segno.make(text, error="m").matrix]
    n = len(matrix) + 8
    return [[False] * n] * 4 + [[False] * 4 + row + [False] * 4 for row in matrix] + [[False] * n] * 4


def test_the_terminals_qr_code_reads_as_its_address() -> None:
    url = "http://192.168.1.20:8000/"
    drawn = read_qr(terminal_qr(url).splitlines())
    assert drawn[:len(modules(url))] == modules(url)


def test_the_home_networks_address_is_one_others_can_reach() -> None:
    import ipaddress

    address = lan_address()
    if address is not None:  # a machine on no network has none, and says so
        ip = ipaddress.IPv4Address(address)
        assert not (ip.is_loopback or ip.is_unspecified or ip.is_link_local)


def test_serve_lan_prints_the_address_and_its_qr_code_and_answers_to_it(tmp_path: Path) -> None:
    # the test listens on loopback only: the address is given (on a real network --lan finds it)
    port = free_port()
    env = dict(os.environ, CONQUIAN_DATA=str(tmp_path), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "conquian", "serve", "--lan", "127.0.0.1", "--port", str(port),
                             "--db", f"sqlite:///{tmp_path / 'lan.db'}", "--log-level", "warning",
                             "--bot-workers", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            start_new_session=True)
    try:
        assert proc.stdout is not None
        lines: list[str] = []
        end = time.time() + 60
        while time.time() < end:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip("\n"))
            if "firewall" in line:
                break
        url = f"http://127.0.0.1:{port}/"
        text = "\n".join(lines)
        assert f"open {url} on a phone" in text, text
        drawn = [line for line in lines if line and set(line) <= set("█▀▄ ")]
        assert read_qr(drawn)[:len(modules(url))] == modules(url)
        for _ in range(300):  # the lines are printed before uvicorn listens
            try:
                health = httpx.get(url + "health", timeout=2).json()
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        assert health == {"ok": True}
        page = httpx.get(url, timeout=10)
        assert page.status_code == 200
        other = httpx.get(url, headers={"Host": "cards.example"}, timeout=10)
        assert other.status_code == 400 and other.json()["error"]["code"] == "bad_host"
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
    # uvicorn stops, then raises the signal it caught again: a clean stop ends by SIGTERM
    assert proc.returncode in (0, -signal.SIGTERM)


def test_serve_lan_refuses_what_is_not_an_address(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "conquian", "--lang", "es", "serve", "--lan", "mi-casa"],
                       capture_output=True, text=True, env=dict(os.environ, CONQUIAN_DATA=str(tmp_path)), timeout=60)
    assert r.returncode == 2
    assert "--lan espera la dirección IP de esta computadora" in r.stderr and "Traceback" not in r.stderr


# ---------------------------------------------------------------------------- stopping
WARNINGS = re.compile(r"leaked|resource_tracker|Traceback|KeyboardInterrupt|bot_failed|the bot failed|Error", re.I)


@pytest.mark.parametrize("how", ["ctrl+c", "SIGTERM", "SIGTERM to the group"])
def test_stopping_the_server_stops_its_bot_workers_without_a_warning(tmp_path: Path, how: str) -> None:
    s = Server(f"sqlite:///{tmp_path / 'stop.db'}", tmp_path, extra=("--log-level", "warning")).start()
    assert s.proc is not None
    try:
        # two experts playing each other: a worker is searching when the stop comes
        t = s.create(variant="conquian", seats=[{"kind": "expert"}, {"kind": "expert"}])
        end = time.time() + 60
        while s.get(f"/api/tables/{t['id']}").json()["state"] < 4 and time.time() < end:
            time.sleep(0.2)
        if how == "ctrl+c":  # the terminal sends SIGINT to every process of the command
            os.killpg(s.proc.pid, signal.SIGINT)
        elif how == "SIGTERM":
            s.proc.send_signal(signal.SIGTERM)
        else:  # systemd's default: SIGTERM to every process of the service
            os.killpg(s.proc.pid, signal.SIGTERM)
        # uvicorn stops, then raises the signal it caught again: a clean stop ends by it
        assert s.proc.wait(30) in (0, -signal.SIGINT, -signal.SIGTERM)
        # nothing of the server is left: its bot workers and their resource tracker (the last to
        # go, and the one that would warn of leaked semaphores) are gone
        end = time.time() + 15
        while time.time() < end:
            try:
                os.killpg(s.proc.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.2)
        else:
            raise AssertionError("a process of the server outlived it")
        log = s.log.read_text(errors="replace")
        assert not WARNINGS.search(log), log[-3000:]
    finally:
        s.stop()
