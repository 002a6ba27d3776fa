"""Joining from a phone, in Spanish, in Debian's Chromium: the refusals read as sentences, the
invitation copies over plain HTTP (where browsers give pages no clipboard) as over
http://127.0.0.1, is shared where the browser has a share sheet, and shows its QR code; a
finished casual match opens to its players only.

The home network's plain HTTP is a name that is not this machine's (``lan.test``, which
Chromium is told is 127.0.0.1: the server still listens on loopback only, and answers to that
name, ``--allowed-host lan.test``): a page there is not a secure context, as at 192.168.1.20.

``CONQUIAN_SCREENSHOTS=1`` writes ``docs/screenshots/es-phone-invitation.png`` and
``es-phone-join-refusal.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect  # noqa: E402

from conquian.web.invite import qr_svg  # noqa: E402
from test_web_browser import ARGS, CHROMIUM, shot  # noqa: E402
from test_web_chat import finish_match  # noqa: E402
from web_server import Client, Server  # noqa: E402

LAN = "lan.test"
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("browser-hosting")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp, extra=("--log-level", "warning", "--allowed-host", LAN)).start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[*ARGS, f"--host-resolver-rules=MAP {LAN} 127.0.0.1"])
        yield b
        b.close()


def phone(browser: Any, **context: Any) -> Any:
    """A page of a phone-sized browser that reads Spanish."""
    ctx = browser.new_context(viewport=PHONE, locale="es-MX", is_mobile=True, has_touch=True, **context)
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.set_default_timeout(20_000)
    return page


def lan_url(server: Server) -> str:
    return f"http://{LAN}:{server.port}"


def waiting_table(server: Server) -> dict[str, Any]:
    return server.create(variant="conquian", host_name="Lupita", seats=[{"kind": "open"}, {"kind": "open"}])


def test_taking_a_seat_without_a_name_says_so_in_spanish(server: Server, browser: Any) -> None:
    t = waiting_table(server)
    page = phone(browser)
    page.goto(f"{lan_url(server)}/t/{t['id']}")
    name = page.locator("[data-key='name-2']")
    name.fill("")
    page.locator(".seat-row[data-seat='2'] button.take").click()
    expect(page.locator("#alert")).to_have_text("Primero escribe tu nombre (de 1 a 40 caracteres)")
    assert name.get_attribute("aria-invalid") == "true"
    shot(page, "es-phone-join-refusal.png")
    # the server's refusals read the same way: a sentence, without its code or msgspec's English
    said = page.evaluate("""async ([id, body]) => {
        try { await api(`/api/tables/${id}/sit`, body); return ""; } catch (e) { return e.message; } }""",
                         [t["id"], {"seat": 2, "name": ""}])
    assert said == "Primero escribe tu nombre (de 1 a 40 caracteres)"
    taken = page.evaluate("""async ([id, body]) => {
        try { await api(`/api/tables/${id}/sit`, body); return ""; } catch (e) { return e.message; } }""",
                          [t["id"], {"seat": 1, "name": "Tere"}])
    assert taken == "El lugar 1 está ocupado"
    name.fill("Tere")
    page.locator(".seat-row[data-seat='2'] button.take").click()
    page.wait_for_selector("#board")  # every seat taken: the match starts
    assert page.errors == []


def test_the_invitation_copies_over_plain_http(server: Server, browser: Any) -> None:
    t = waiting_table(server)
    page = phone(browser)
    page.goto(f"{lan_url(server)}/t/{t['id']}")
    page.wait_for_selector("#invite-copy")
    # as on the home network: no secure context, so no clipboard API
    assert page.evaluate("() => [window.isSecureContext, typeof navigator.clipboard]") == [False, "undefined"]
    invite = f"{lan_url(server)}/t/{t['id']}"
    assert page.inner_text("#invite") == invite
    page.click("#invite-copy")
    expect(page.locator("#invite-said")).to_have_text("Enlace copiado: pégalo en un mensaje.")
    assert page.evaluate("() => String(window.getSelection())") == invite  # and shown selected
    # what is on the clipboard, read by a page of this machine (a secure context may read it)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    reader = page.context.new_page()
    reader.goto(server.url + "/")
    assert reader.evaluate("() => navigator.clipboard.readText()") == invite
    shot(page, "es-phone-invitation.png")
    assert page.errors == []


def test_the_invitation_copies_over_http_on_this_machine(server: Server, browser: Any) -> None:
    t = waiting_table(server)
    page = phone(browser)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    page.goto(f"{server.url}/t/{t['id']}")
    page.wait_for_selector("#invite-copy")
    assert page.evaluate("() => window.isSecureContext") is True  # http://127.0.0.1 is
    page.evaluate("() => navigator.clipboard.writeText('something else')")
    page.click("#invite-copy")
    expect(page.locator("#invite-said")).to_have_text("Enlace copiado: pégalo en un mensaje.")
    assert page.evaluate("() => navigator.clipboard.readText()") == f"{server.url}/t/{t['id']}"
    assert page.errors == []


def test_the_invitation_is_shared_where_the_browser_has_a_share_sheet(server: Server, browser: Any) -> None:
    t = waiting_table(server)
    page = phone(browser)
    page.goto(f"{server.url}/t/{t['id']}")
    page.wait_for_selector("#invite-copy")
    has_share = page.evaluate("() => typeof navigator.share === 'function'")
    assert (page.locator("#invite-share").count() == 1) == has_share
    # a phone's share sheet: what the page hands it
    page.add_init_script("navigator.share = async data => { window.shared = data; };")
    page.reload()
    page.click("#invite-share")
    shared = page.evaluate("() => window.shared")
    assert shared["url"] == f"{server.url}/t/{t['id']}" and shared["text"] == "Ven a jugar conquián conmigo:"
    assert page.errors == []


def test_the_invitations_qr_code_is_on_the_page(server: Server, browser: Any) -> None:
    t = waiting_table(server)
    page = phone(browser)
    page.goto(f"{lan_url(server)}/t/{t['id']}")
    qr = page.locator("#invite-qr")
    expect(qr).to_be_visible()
    page.wait_for_function("() => document.querySelector('#invite-qr').naturalWidth > 0")
    assert qr.get_attribute("alt") == "Código QR del enlace de invitación"
    svg = page.evaluate("async src => await (await fetch(src)).text()", qr.get_attribute("src"))
    assert svg.encode() == qr_svg(f"{lan_url(server)}/t/{t['id']}")  # the code of the link shown
    box = qr.bounding_box()
    assert box["width"] >= 150 and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways scroll
    assert page.errors == []


def test_a_finished_casual_match_opens_to_its_players_only(server: Server, browser: Any) -> None:
    t = server.create(variant="conquian", host_name="Lupita", deals=1, seats=[{"kind": "open"}, {"kind": "foster"}])
    c = Client(server, t["id"], t["token"])
    try:
        finish_match(c)
    finally:
        c.close()
    stranger = phone(browser)
    stranger.goto(f"{server.url}/r/{t['id']}")
    expect(stranger.locator("main")).to_contain_text("Esta partida es solo de sus jugadores")
    assert stranger.locator("#replay").count() == 0
    lupita = phone(browser)
    lupita.goto(server.url + "/")
    lupita.evaluate("([id, token]) => localStorage.setItem(`conquian:seat:${id}`, token)", [t["id"], t["token"]])
    lupita.goto(f"{server.url}/r/{t['id']}")
    expect(lupita.locator("#replay")).to_be_visible()
    # the record downloads with the seat's token
    with lupita.expect_download() as download:
        lupita.get_by_text("Descargar el registro").click()
    assert download.value.suggested_filename == f"conquian-conquian-{t['id']}.toml"
    assert "[[deals]]" in Path(download.value.path()).read_text(encoding="utf-8")
    assert stranger.errors == [] and lupita.errors == []
