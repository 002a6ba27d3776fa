"""The web table in the reader's language, against the real server on 127.0.0.1: the page's
catalogue (``/i18n/{lang}.json``), the negotiation of ``Accept-Language``, the ``hello``'s
``lang``, refusals and snapshots in each connection's language (and nothing but words changing
with it), the HTTP API's refusals, and the rule book in Spanish."""

from __future__ import annotations

import json
import random
import re
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("uvicorn")

from babel.messages.extract import extract_javascript
from websockets.sync.client import connect

from conquian.engine import rulebook
from conquian.i18n import translator
from web_server import Client, Server

STATIC = Path(__file__).resolve().parent.parent / "src" / "conquian" / "web" / "static"
#: What a snapshot says in words (in the reader's language); everything else is the same in every language.
WORDS = ("log", "legal_words")
SCORE_WORDS = ("pool_text", "result")


def page_messages() -> list[str | tuple[str, str]]:
    """The page's own texts, as Babel's JavaScript extractor reads them (scripts/catalogues.py)."""
    out: list[str | tuple[str, str]] = []
    for script in sorted(STATIC.glob("*.js")):
        with script.open("rb") as f:
            for _line, _func, message, _comments in extract_javascript(f, ["_", "ngettext"], [], {}):
                if isinstance(message, tuple):
                    out.append((str(message[0]), str(message[1])))
                else:
                    out.append(str(message))
    return out


class LangClient(Client):
    """A client whose hello asks for a language."""

    def __init__(self, server: Server, table_id: str, lang: Any, token: str | None = None) -> None:
        self.lang = lang
        super().__init__(server, table_id, token)

    def send(self, message: Any) -> None:
        if isinstance(message, dict) and message.get("type") == "hello":
            message = dict(message, lang=self.lang)
        super().send(message)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("web-i18n")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp).start()
    yield s
    s.stop()


def two_people(server: Server, variant: str = "conquian") -> tuple[str, str, str]:
    """A table of two people: its id and the seats' tokens."""
    made = server.create(variant=variant, host_name="Ana", seats=[{"kind": "open"}, {"kind": "open"}])
    sat = server.post(f"/api/tables/{made['id']}/sit", {"seat": 2, "name": "Beto"})
    assert sat.status_code == 200, sat.text
    return made["id"], made["token"], sat.json()["token"]


def without_words(table: dict[str, Any]) -> dict[str, Any]:
    """A snapshot without its words (and without who is connected, told apart by ``presence``)."""
    out = {k: v for k, v in table.items() if k not in (*WORDS, "spectators")}
    out["seats"] = [{k: v for k, v in s.items() if k != "connected"} for s in out["seats"]]
    if out.get("scores"):
        out["scores"] = {k: v for k, v in out["scores"].items() if k not in SCORE_WORDS}
    out["last_moves"] = [{k: v for k, v in m.items() if k != "words"} for m in out.get("last_moves", [])]
    out["moves"] = [{k: v for k, v in m.items() if k not in ("words", "words_suits")} for m in out.get("moves", [])]
    return out


# ---------------------------------------------------------------------------- the catalogue
def test_the_spanish_catalogue_translates_every_text_of_the_page(server: Server) -> None:
    r = server.get("/i18n/es.json")
    assert r.status_code == 200 and "max-age" in r.headers["cache-control"]
    data = r.json()
    assert data["lang"] == "es" and data["nplurals"] == 2
    assert {"code": "es", "name": "Español"} in data["languages"] and data["languages"][0]["code"] == "en"
    messages = data["messages"]
    wanted = page_messages()
    assert len(wanted) > 150
    for msgid in wanted:
        key = msgid if isinstance(msgid, str) else msgid[0]
        assert key in messages, f"{msgid!r} is not translated into Spanish"
        found = messages[key]
        if isinstance(msgid, tuple):
            assert isinstance(found, list) and len(found) == 2 and all(found), msgid
            assert set(re.findall(r"\{\w+\}", found[1])) == set(re.findall(r"\{\w+\}", msgid[1]))
        else:
            assert isinstance(found, str) and found
            assert set(re.findall(r"\{\w+\}", found)) == set(re.findall(r"\{\w+\}", msgid)), msgid
    assert messages["Create the table"] == "Crear la mesa"


@pytest.mark.parametrize("lang", ["en", "fr", "xx-YY", "e" * 40])
def test_a_language_the_server_does_not_speak_is_english_with_no_catalogue(server: Server, lang: str) -> None:
    r = server.get(f"/i18n/{lang}.json")
    assert r.status_code == 200
    assert r.json()["lang"] == "en" and r.json()["messages"] == {}


@pytest.mark.parametrize(("accept", "lang"), [("es-MX,es;q=0.9", "es"), ("fr", "en"), ("fr-CA,es;q=0.5", "es"),
                                              ("", "en"), ("en-US,en;q=0.9,es;q=0.8", "en")])
def test_the_browsers_languages_choose_the_catalogue(server: Server, accept: str, lang: str) -> None:
    headers = {"Accept-Language": accept}
    auto = httpx.get(server.url + "/i18n/auto.json", headers=headers, timeout=10)
    assert auto.json()["lang"] == lang and "Accept-Language" in auto.headers["vary"]
    assert bool(auto.json()["messages"]) == (lang != "en")
    choice = httpx.get(server.url + "/api/lang", headers=headers, timeout=10).json()
    assert choice["lang"] == lang and [x["code"] for x in choice["languages"]] == ["en", "es"]


# ---------------------------------------------------------------------------- the WebSocket
def test_a_hello_in_spanish_gets_spanish_refusals_with_the_same_code_and_rule(server: Server) -> None:
    table, ana, _ = two_people(server)
    es = LangClient(server, table, "es", token=ana)
    en = LangClient(server, table, "en", token=ana)  # the same seat, on another device, in English
    try:
        assert es.welcome["lang"] == "es" and en.welcome["lang"] == "en"
        t = es.wait_table(lambda t: t["deal"] is not None)
        # a refusal of the web table's own: a move chosen on an old state
        stale = t["state"] + 5
        for c in (es, en):
            c.act("pass", state=stale)
        e_es, e_en = es.error(), en.error()
        assert e_es["code"] == e_en["code"] == "stale" and e_es["rule"] is None
        assert e_en["message"] == f"stale: this move was chosen on state {stale}; the table is at state {t['state']}"
        assert e_es["message"] == (f"stale: esta jugada se eligió en el estado {stale}; "
                                   f"la mesa está en el estado {t['state']}")
        # a refusal of the rules: the same code and rule in every language, the message the reader's
        for c in (es, en):
            c.act("meld 2c 3c 4c")
        r_es, r_en = es.error(), en.error()
        assert r_es["code"] == r_en["code"] == "illegal"
        assert r_es["rule"] == r_en["rule"] and re.fullmatch(r"R\d+(\.\d+)?", r_es["rule"])
        assert r_es["message"].startswith(r_es["rule"]) and r_en["message"].startswith(r_en["rule"])
        cause = r_en["message"].split(": ", 1)[1]
        if translator("es").gettext(cause) != cause:  # the engine's refusal has its Spanish words
            assert r_es["message"] != r_en["message"]
        # a spectator's refusal in his language
        watcher = LangClient(server, table, "es")
        try:
            watcher.act("pass")
            assert watcher.error()["message"] == "not_your_seat: los espectadores miran; toma un lugar para jugar"
        finally:
            watcher.close()
    finally:
        es.close()
        en.close()


def test_an_english_and_a_spanish_reader_see_the_same_table_but_for_its_words(server: Server) -> None:
    table, ana, beto = two_people(server)
    rng = random.Random(7)
    seat1_es = LangClient(server, table, "es", token=ana)
    seat1_en = LangClient(server, table, "en", token=ana)
    seat2 = LangClient(server, table, "en", token=beto)
    watch_es = LangClient(server, table, "es")
    watch_en = LangClient(server, table, None)
    clients = [seat1_es, seat1_en, seat2, watch_es, watch_en]
    try:
        def settled(state: int) -> None:
            for c in clients:
                c.wait_table(lambda t, s=state: t["state"] == s)

        state = seat2.wait_table(lambda t: t["deal"] is not None)["state"]
        for _ in range(400):
            settled(state)
            t = seat1_en.table
            for a, b in ((seat1_es, seat1_en), (watch_es, watch_en)):
                assert without_words(a.table) == without_words(b.table)
                assert len(a.table["log"]) == len(b.table["log"])
                assert len(a.table["legal_words"]) == len(a.table["legal"])
            assert watch_es.table["legal"] == [] and watch_es.table["deal"]["hand"] is None
            if t["deal"]["over"]:
                break
            mover = seat1_es if t["deal"]["to_act"] == 1 else seat2
            legal = mover.table["legal"]
            assert legal, mover.table
            mover.act(rng.choice(legal))
            state += 1
        else:
            pytest.fail("the deal did not end")
        # the deal is over: the result line in each reader's language; a move now breaks R7
        assert seat1_en.table["scores"]["result"] and seat1_es.table["scores"]["result"]
        seat1_es.act("pass")
        seat1_en.act("pass")
        r_es, r_en = seat1_es.error(), seat1_en.error()
        assert r_es["rule"] == r_en["rule"] == "R7" and r_es["code"] == r_en["code"] == "illegal"
        assert r_en["message"] == "R7: the deal is over"
        assert r_es["message"] == "R7: la mano ya terminó"
        assert seat1_es.table["state"] == state
    finally:
        for c in clients:
            c.close()


@pytest.mark.parametrize("lang", ["x" * 200, 42, ["es"], {"es": 1}, ""])
def test_a_bad_language_in_the_hello_is_refused_clearly(server: Server, lang: Any) -> None:
    table, _, _ = two_people(server)
    with connect(f"ws://127.0.0.1:{server.port}/ws/{table}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "v": 1, "lang": lang}))
        m = json.loads(ws.recv(timeout=10))
        assert m["type"] == "error" and m["code"] == "bad_message" and "lang" in m["message"]
    assert server.get("/health").status_code == 200


@pytest.mark.parametrize("lang", ["zz", "fr-CA", "../../etc", "es_MX.UTF-8", "ES"])
def test_a_language_the_server_does_not_speak_in_the_hello_is_english(server: Server, lang: str) -> None:
    table, _, _ = two_people(server)
    c = LangClient(server, table, lang)
    try:
        assert c.welcome["lang"] == ("es" if lang.lower().startswith("es") else "en")
    finally:
        c.close()


# ---------------------------------------------------------------------------- HTTP
def test_the_apis_refusals_are_in_the_requests_language_with_the_same_code(server: Server) -> None:
    es = httpx.get(server.url + "/api/tables/nosuchtable?lang=es", timeout=10)
    en = httpx.get(server.url + "/api/tables/nosuchtable", timeout=10)
    assert es.status_code == en.status_code == 404
    assert es.json()["error"]["code"] == en.json()["error"]["code"] == "no_table"
    assert en.json()["error"]["message"] == "there is no such table"
    assert es.json()["error"]["message"] == "esa mesa no existe"
    table, _, _ = two_people(server)
    taken = httpx.post(server.url + f"/api/tables/{table}/sit", json={"seat": 2, "name": "Carla"},
                       headers={"Accept-Language": "es-MX,es;q=0.9"}, timeout=10)
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "seat_taken"
    assert taken.json()["error"]["message"] == "seat_taken: el lugar 2 está ocupado"
    bad = httpx.post(server.url + "/api/tables?lang=es", json={"variant": "poker"}, timeout=10)
    assert bad.json()["error"]["code"] == "bad_variant"
    assert bad.json()["error"]["message"].startswith("bad_variant: no hay ningún juego 'poker'")
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(b"GET /api/tables HTTP/1.1\r\nHost: evil.example\r\nAccept-Language: es-MX\r\n"
                     b"Connection: close\r\n\r\n")
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.split()[1] == b"400"
    error = json.loads(body)["error"]
    assert error["code"] == "bad_host" and error["message"].startswith("este servidor no responde a ese nombre")


def test_the_rule_book_in_spanish_with_a_way_back_and_the_languages(server: Server) -> None:
    es = httpx.get(server.url + "/rules?lang=es", timeout=10)
    assert es.status_code == 200 and '<html lang="es">' in es.text
    assert "<title>Las reglas - conquian</title>" in es.text and 'id="back"' in es.text
    assert 'href="/rules?lang=en"' in es.text and "Volver a las mesas" in es.text
    assert 'id="R3.6"' in es.text  # the anchor a refusal links to
    if rulebook.book_language("es") == "es":  # the Spanish book is in the package
        assert rulebook.markdown(lang="es").splitlines()[0].lstrip("# ") in es.text
    negotiated = httpx.get(server.url + "/rules", headers={"Accept-Language": "es-MX"}, timeout=10)
    assert '<html lang="es">' in negotiated.text and "Accept-Language" in negotiated.headers["vary"]
    en = httpx.get(server.url + "/rules", timeout=10)
    assert '<html lang="en">' in en.text and "<title>The rules - conquian</title>" in en.text
