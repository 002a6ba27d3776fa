"""The web table as an app a player installs (issue 39): the Web App Manifest is valid and its
icons are the PNGs it names; the service worker controls the page and keeps the app shell, so the
page opens with the network off; Chromium reports the page installable; a new version of the app
is offered with "Reload" and takes over when the player accepts; on the player's turn the title and
the favicon say so.  Chromium through Playwright, as tests/test_web_browser.py.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

from test_web_browser import ARGS, CHROMIUM, browser, new_page  # noqa: F401
from web_server import Server

STATIC = Path(__file__).resolve().parent.parent / "src" / "conquian" / "web" / "static"


@pytest.fixture
def app_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    monkeypatch.setenv("CONQUIAN_RELEASE", "first")
    s = Server(f"sqlite:///{tmp_path / 'web.db'}", tmp_path).start()
    yield s
    s.stop()


def profile_page(browser: Any, tmp_path: Path) -> Any:  # noqa: F811
    """A page in a browser profile of its own on disk: Chromium installs no app from an incognito
    context (Playwright's usual ones)."""
    ctx = browser.browser_type.launch_persistent_context(str(tmp_path / "profile"), executable_path=CHROMIUM,
                                                         args=ARGS, viewport={"width": 390, "height": 844})
    page = ctx.pages[0] if ctx.pages else ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.set_default_timeout(20_000)
    return page


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def controlled(page: Any) -> None:
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=20_000)


def version(page: Any) -> str:
    return str(page.evaluate("""() => new Promise(done => {
      const ch = new MessageChannel(); ch.port1.onmessage = e => done(e.data);
      navigator.serviceWorker.controller.postMessage({ type: 'version' }, [ch.port2]); })"""))


def test_the_manifest_is_valid_in_each_language(app_server: Server) -> None:
    for lang, words in (("en", "the original Rummy"), ("es", "el rummy original")):
        r = app_server.get(f"/manifest.webmanifest?lang={lang}")
        assert r.status_code == 200 and r.headers["content-type"].startswith("application/manifest+json")
        m = r.json()
        assert m["name"] == "Conquián" and m["short_name"] and m["lang"] == lang and words in m["description"]
        assert m["display"] == "standalone" and m["start_url"] == "/" and m["scope"] == "/"
        assert m["theme_color"].startswith("#") and m["background_color"].startswith("#")
        sizes = {(i["sizes"], i["purpose"]) for i in m["icons"]}
        assert {("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"), ("512x512", "maskable")} <= sizes
        for icon in m["icons"]:
            data = app_server.get(icon["src"]).content
            assert "x".join(map(str, png_size(data))) == icon["sizes"], icon
    sw = app_server.get("/sw.js")
    assert sw.status_code == 200 and "javascript" in sw.headers["content-type"]
    assert sw.headers["cache-control"] == "no-cache"
    assert "__VERSION__" not in sw.text and '"/static/table.js"' in sw.text


def test_every_page_of_the_app_names_the_manifest_and_one_service_worker(app_server: Server) -> None:
    """The lobby, the account, the leaderboard, Learn and the offline app's pages link the
    manifest and load install.js, which registers the site's one service worker; the manifest
    says what the README says; the worker keeps the offline app's engine with the shell."""
    from conquian.web import app_shell, site

    for path in ("/", "/account", "/leaderboard", "/learn", "/offline/", "/offline/learn.html"):
        page = app_server.get(path).text
        assert re.search(r'<link rel="manifest" href="(/|\.\./)manifest\.webmanifest">', page), path
        assert re.search(r'<script src="(/|\.\./)static/install\.js"></script>', page), path
    readme = (STATIC.parent.parent.parent.parent / "README.md").read_text()
    assert "Conquian, the original Rummy" in readme and "the original Rummy" in app_shell.DESCRIPTION.msgid
    assert app_server.get("/manifest.webmanifest?lang=es").json()["name"] == "Conquián"
    sw = app_server.get("/sw.js").text
    if site.runtime_ready():
        for kept in ('"/offline/"', '"/offline/engine.zip"', '"/offline/pyodide/pyodide.asm.wasm"', '"/i18n/es.json"'):
            assert kept in sw, kept


def test_the_service_worker_controls_the_page_and_chromium_reports_it_installable(
        app_server: Server, browser: Any, tmp_path: Path) -> None:  # noqa: F811
    page = profile_page(browser, tmp_path)
    page.goto(app_server.url + "/")
    page.wait_for_selector("#create-table")
    controlled(page)
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [] and manifest["url"].startswith(app_server.url + "/manifest.webmanifest")
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    # the app shell opens without the network (the lobby's list needs the server: it says so)
    page.context.set_offline(True)
    page.reload()
    page.wait_for_function("() => typeof Game === 'function' && document.querySelector('#main') !== null")
    assert page.evaluate("() => navigator.serviceWorker.controller !== null")
    page.context.set_offline(False)
    assert page.errors == []
    page.context.close()


def test_a_new_version_is_offered_and_taken_on_reload(app_server: Server, browser: Any,  # noqa: F811
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    page = new_page(browser)
    page.goto(app_server.url + "/")
    page.wait_for_selector("#create-table")
    controlled(page)
    first = version(page)
    # the server comes back with a new release on the same address
    app_server.stop()
    monkeypatch.setenv("CONQUIAN_RELEASE", "second")
    app_server.start()
    assert page.locator("#update-bar").count() == 0
    page.evaluate("() => navigator.serviceWorker.getRegistration().then(r => r.update())")
    page.wait_for_selector("#update-bar")
    assert page.locator("#update-reload").inner_text() == "Reload"
    with page.expect_navigation():
        page.click("#update-reload")
    page.wait_for_selector("#create-table")
    controlled(page)
    assert version(page) != first
    assert page.locator("#update-bar").count() == 0
    assert page.errors == []
    page.context.close()


def test_the_title_and_the_favicon_say_whose_turn_it_is(app_server: Server, browser: Any) -> None:  # noqa: F811
    page = new_page(browser)
    r = app_server.create(variant="cooncan", players=2, host_name="Ann", seats=[{"kind": "open"}, {"kind": "random"}])
    page.goto(app_server.url + "/")
    page.evaluate("([id, token]) => localStorage.setItem('conquian:seat:' + id, token)", [r["id"], r["token"]])
    page.goto(app_server.url + r["url"])
    page.wait_for_selector("#board[data-mine='1']")
    assert page.title().startswith("Your turn")
    assert page.get_attribute("link[rel='icon']", "href") == "/static/icons/turn.svg"
    # the sounds are offered at the first table, not hidden off; the answer is kept in this browser
    page.click("#sound-no")
    assert page.locator("#sound-offer").count() == 0
    assert page.evaluate("localStorage.getItem('conquian:pref:sound')") == "0"
    held = page.locator("#hand button.card").count()
    page.locator("#actions button.move[data-action='draw']").click()
    # the drawn card's update, before a card is chosen: a later redraw would clear the choice
    page.wait_for_function(f"() => document.querySelectorAll('#hand button.card').length > {held}")
    page.locator("#hand button.card").first.click()
    page.wait_for_function("() => document.querySelector('#prompt')?.dataset.waiting === ''")
    page.locator("#actions button.move[data-action^='discard']").first.click()
    page.wait_for_function("() => !document.title.startsWith('Your turn')"
                           " || document.querySelector('#board').dataset.mine === '1'")
    page.goto(app_server.url + "/")
    page.wait_for_selector("#create-table")
    assert page.get_attribute("link[rel='icon']", "href") == "/static/favicon.svg"
    assert not page.evaluate("document.body.classList.contains('in-play')")
    assert page.errors == []
    page.context.close()
