"""Accounts in Chromium: two browsers open /account (an account each), choose names, the second's
look-alike of the first's refused in its language; a signed-in browser's requests carry the CSRF
token (it makes a table and sits under its account's name from the lobby's API); its session
ended from the page; an account deleted from the page leaves the table's seat renamed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

sync_api = pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect  # noqa: E402

from conquian.web.platform.accounts.service import DELETED_NAME  # noqa: E402
from test_web_browser import browser  # noqa: E402, F401 (browser: a fixture)
from web_server import Server  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("browser-accounts")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp).start()
    yield s
    s.stop()


def choose(page: Any, name: str) -> None:
    page.fill("#name", name)
    page.click("#name-form button[type=submit]")


def test_two_browsers_names_csrf_and_delete(server: Server, browser: Any, tmp_path: Path) -> None:  # noqa: F811
    ann = browser.new_context(locale="en-US").new_page()
    ann.goto(server.url + "/account")
    choose(ann, "Ann")
    expect(ann.locator("#account-name")).to_have_text("You play as Ann.")
    cookies = {c["name"]: c for c in ann.context.cookies()}
    assert cookies["conquian_account"]["httpOnly"] and cookies["conquian_account"]["sameSite"] == "Lax"
    assert not cookies["conquian_csrf"]["httpOnly"]

    bea = browser.new_context(locale="es-MX").new_page()
    bea.goto(server.url + "/account")
    choose(bea, "ANN")
    expect(bea.locator("#alert")).to_contain_text("nombre no está disponible")
    choose(bea, "\u0410nn")  # a Cyrillic A
    expect(bea.locator("#alert")).to_contain_text("un solo alfabeto")
    choose(bea, "Bea")
    expect(bea.locator("#account-name")).to_contain_text("Bea")

    # the page's own requests carry the CSRF token: a table made and a seat taken as Ann
    made = ann.evaluate("() => api('/api/tables', { variant: 'conquian', public: true })")
    sat = ann.evaluate(f"() => api('/api/tables/{made['id']}/sit', {{ seat: 1, name: 'whoever' }})")
    assert sat["seat"] == 1
    assert httpx.get(server.url + f"/api/tables/{made['id']}").json()["seats"][0]["name"] == "Ann"
    # a request without the header, with the cookie, is refused (a page of another site)
    status = ann.evaluate("""async () => (await fetch('/api/tables', {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: '{"variant": "conquian"}'})).status""")
    assert status == 403

    # Ann deletes her account from the page: her seat is renamed, her name free again
    ann.once("dialog", lambda d: d.accept())
    ann.click("#delete-account")
    ann.wait_for_url(server.url + "/")
    assert httpx.get(server.url + f"/api/tables/{made['id']}").json()["seats"][0]["name"] == DELETED_NAME
    assert not [c for c in ann.context.cookies() if c["name"].startswith("conquian_")]

    # every path is guarded, the lessons' too (learn.js sends the token from the cookie)
    bea.goto(server.url + "/learn")
    bea.wait_for_load_state("networkidle")
    status = bea.evaluate("""async () => (await fetch('/api/learn/nosuch', {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: '{}'})).status""")
    assert status == 403  # without the header: refused for the cookie's sake
    bea.goto(server.url + "/account")
    # Bea signs out from the page: her session ends
    bea.click("#sessions button")
    expect(bea.locator("#name-form")).to_be_visible()  # a new, nameless account for this browser
    ann.context.close()
    bea.context.close()


def test_two_browsers_play_a_rated_match_and_see_the_leaderboard(server: Server, browser: Any) -> None:  # noqa: F811
    """Two browsers sign up, make and take a rated conquian table from their pages (the CSRF token
    sent by the page), their seats' moves played through the table's socket, and both find
    themselves on the leaderboard page beside a bot (marked), and on their player pages."""
    from test_web_ratings import play_out
    from web_server import Client

    pages = []
    for name, locale in (("Gil", "en-US"), ("Hana", "es-MX")):
        page = browser.new_context(locale=locale).new_page()
        page.goto(server.url + "/account")
        choose(page, name)
        expect(page.locator("#account-name")).to_contain_text(name)
        pages.append(page)
    gil, hana = pages
    t = gil.evaluate("() => api('/api/tables', { variant: 'conquian', rated: true, deals: 1 })")
    sg = gil.evaluate(f"() => api('/api/tables/{t['id']}/sit', {{ seat: 1, name: 'x' }})")
    sh = hana.evaluate(f"() => api('/api/tables/{t['id']}/sit', {{ seat: 2, name: 'x' }})")
    play_out([Client(server, t["id"], sg["token"]), Client(server, t["id"], sh["token"])])
    # a rated match against a bot, so that the leaderboard has one
    t2 = gil.evaluate("() => api('/api/tables', { variant: 'conquian', rated: true, deals: 1 })")
    s2 = gil.evaluate(f"() => api('/api/tables/{t2['id']}/sit', {{ seat: 1, name: 'x' }})")
    gil.evaluate(f"() => api('/api/tables/{t2['id']}/bot', {{ seat: 2, bot: 'foster', host: '{t2['host']}' }})")
    play_out([Client(server, t2["id"], s2["token"])])

    hana.goto(server.url + "/leaderboard?game=conquian")
    board = hana.locator("#leaderboard")
    expect(board).to_contain_text("Gil")
    expect(board).to_contain_text("Hana")
    # every fitted bot is listed with its fixed rating; foster has the game just played
    foster = board.locator("tr.bot", has_text="Foster (bot)")
    expect(foster).to_have_count(1)
    expect(foster.locator("td").nth(3)).to_have_text("1")
    for row in board.locator("tbody tr.person").all():
        assert row.locator("td").nth(2).inner_text().endswith("?")  # both rated once: provisional
    hana.click("#leaderboard a:text('Gil')")
    expect(hana.locator("#player-name")).to_have_text("Gil")
    expect(hana.locator(".rating-chart circle")).to_have_count(2)
    expect(hana.locator("#recent a")).to_have_count(2)
    gil.context.close()
    hana.context.close()


def test_the_pages_headers_and_a_missing_player_on_a_spanish_phone(server: Server, browser: Any) -> None:  # noqa: F811
    """At 360 px the header keeps the page's title readable (it was squeezed to its first letter
    beside the links), and a player who does not exist is said in the page, with a way back,
    rather than "Cargando…" left under an alert that goes away."""
    page = browser.new_context(viewport={"width": 360, "height": 780}, locale="es-MX").new_page()
    for path, title in (("/account", "Tu cuenta"), ("/leaderboard", "Clasificación")):
        page.goto(server.url + path)
        expect(page.locator("header #title")).to_have_text(title)
        shown = page.locator("header #title").evaluate("t => t.scrollWidth <= t.clientWidth")
        assert shown, f"{path}: the header cuts its title"
    page.goto(server.url + "/p/Nadie")
    expect(page.locator("#failed")).to_contain_text("No hay ningún jugador")
    expect(page.locator("main")).not_to_contain_text("Cargando")
    expect(page.locator("main a[href='/']")).to_have_text("Volver a las mesas")
    assert page.evaluate("document.scrollingElement.scrollWidth <= 360")
    page.context.close()
