"""The offline app in Chromium: the engine in the page (Pyodide in a Web Worker), no server.

The site is ``conquian site build``'s, served by a plain static file server on 127.0.0.1 (what any
static host does); its own service worker keeps it for use offline.  Loaded once, the network is
cut (``context.set_offline``), the page reloaded, a match against ``foster`` started and a whole
deal played by taps, then the page reloaded offline again and the match resumed from IndexedDB;
in English and in Spanish.  A deal played in the page and the same seeded deal in CPython give
the same record.
"""

from __future__ import annotations

import functools
import hashlib
import http.server
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

pytest.importorskip("playwright.sync_api")

from playwright import sync_api

from conquian.engine.record import read_record
from conquian.web import site
from conquian.web.local import LocalTable

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
#: The engine's first load (the runtime compiled, the package unpacked) on a slow shared machine.
LOAD_MS = 120_000

if not os.path.exists(CHROMIUM):
    if os.environ.get("CONQUIAN_REQUIRE_BROWSER"):
        raise RuntimeError("Chromium is required (CONQUIAN_REQUIRE_BROWSER) but /usr/bin/chromium is missing")
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)


@pytest.fixture(scope="module")
def site_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The built site served by Python's plain static file server."""
    try:
        site.fetch_runtime()
    except site.SiteError as e:
        if os.environ.get("CONQUIAN_REQUIRE_BROWSER"):
            raise
        pytest.skip(f"the Pyodide runtime cannot be had here: {e}")
    root = tmp_path_factory.mktemp("site")
    site.build_site(root)
    handler = functools.partial(_Quiet, directory=str(root))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                                                ".wasm": "application/wasm"}

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _page(context: Any) -> Any:
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.set_default_timeout(30_000)
    return page


def _lobby(page: Any) -> None:
    page.wait_for_selector("#offline-start", timeout=LOAD_MS)
    page.wait_for_function("() => ENGINE.status === 'ready'", timeout=LOAD_MS)


def _play_turn(page: Any) -> None:
    """One move of the player, by taps: an offered move, else a hand card then a move it makes,
    else the card in play then its move, else the list of every move."""
    state = page.get_attribute("#board", "data-state")
    offered = page.locator("#actions button.move, #give")
    if offered.count() == 0:
        page.locator("#hand .card").first.click()
        try:
            page.wait_for_selector("#actions button.move, #give", timeout=5_000)
        except sync_api.TimeoutError:
            page.locator("[data-key=clear]").first.click()
            if page.locator("#play-card.tappable").count():
                page.click("#play-card")
    if page.locator("#actions button.move, #give").count() == 0:
        if page.get_attribute("#all-moves", "open") is None:
            page.click("[data-key=all-moves]")
        page.locator("#all-moves button.move").first.click()
    else:
        page.locator("#actions button.move, #give").first.click()
    page.wait_for_function("s => document.querySelector('#board') && "
                           "document.querySelector('#board').dataset.state !== s", arg=state)


def _play_deal(page: Any, stop_after: int | None = None) -> int:
    """Play the player's moves until the deal is over (or ``stop_after`` of them); the moves made."""
    made = 0
    for _ in range(400):
        page.wait_for_selector("#board[data-mine='1'], #board[data-over='1']", timeout=60_000)
        if page.get_attribute("#board", "data-over") == "1":
            return made
        if stop_after is not None and made >= stop_after:
            return made
        _play_turn(page)
        made += 1  # noqa: SIM113 (the moves made, not the rounds)
    raise AssertionError("the deal did not end in 400 moves")


@pytest.mark.parametrize(("lang", "variant", "players", "start", "unrated"), [
    ("en", "conquian", 2, "Play offline", "unrated"),
    ("es", "conquian-mexicano", 3, "Jugar sin conexión", "sin clasificar"),
])
def test_offline_match_played_and_resumed(browser: Any, site_url: str, lang: str, variant: str, players: int,
                                          start: str, unrated: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script(f"localStorage.setItem('conquian:pref:lang', '{lang}')")
    page = _page(context)
    page.goto(f"{site_url}/offline/")
    _lobby(page)
    # the site's service worker has kept the app and its engine: the network goes off
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=LOAD_MS)
    page.wait_for_function("() => document.documentElement.dataset.kept === '1'", timeout=LOAD_MS)
    context.set_offline(True)
    page.reload()
    _lobby(page)
    assert page.text_content("#offline-start") == start
    assert unrated in page.text_content("#offline-lobby")
    page.select_option("#offline-variant", variant)
    page.select_option("#offline-players", str(players))
    page.select_option("#offline-bot", "foster")
    page.fill("#offline-name", "Ana")
    page.click("#offline-start")
    page.wait_for_selector("#board", timeout=60_000)
    page.click("#sheet-settings")  # the table's settings, in a sheet on a phone
    page.select_option("#pace", "0")  # the bots at once
    page.click("#side .sheet-close")  # the table again
    # a few moves, a reload, and the deal goes on where it was
    _play_deal(page, stop_after=3)
    state = page.get_attribute("#board", "data-state")
    page.reload()
    page.wait_for_selector(f"#board[data-state='{state}']", timeout=LOAD_MS)
    _play_deal(page)
    over = page.get_attribute("#board", "data-state")
    assert page.locator("#next-deal").count() == 1
    assert unrated in page.text_content("#unrated")
    # offline still: the match is kept in the browser, listed, and resumed as it was
    page.reload()
    page.wait_for_selector(f"#board[data-state='{over}'][data-over='1']", timeout=LOAD_MS)
    page.goto(f"{site_url}/offline/#/")
    _lobby(page)
    assert page.locator("#offline-saved li").count() == 1
    page.click("#offline-saved .resume")
    page.wait_for_selector(f"#board[data-state='{over}'][data-over='1']", timeout=LOAD_MS)
    page.click("#next-deal")
    page.wait_for_selector("#board[data-over='']")
    assert page.errors == []
    context.close()


def test_a_deal_in_the_page_and_in_cpython_give_the_same_record(browser: Any, site_url: str) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 850})
    page = _page(context)
    page.goto(f"{site_url}/offline/")
    _lobby(page)
    spec = {"variant": "conquian", "players": 2, "bot": "foster", "name": "Ann", "seed": 41, "bot_seed": 41, "pace": 0}
    table_id = page.evaluate("spec => ENGINE.call('create', { spec })", spec)
    page.goto(f"{site_url}/offline/#/t/{table_id}")
    page.wait_for_selector("#board", timeout=LOAD_MS)
    _play_deal(page)
    in_page = page.evaluate("id => ENGINE.call('record', { id })", table_id)["text"]
    # the same seeded deal in CPython: the player's moves as the page made them, the bots' its own
    rec = read_record(in_page)
    assert len(rec.deals) == 1 and rec.deals[0].result is not None
    here = LocalTable.new("conquian", players=2, bot="foster", name="Ann", seed=41, bot_seed=41, pace=0)
    for action in rec.deals[0].actions:
        if action.startswith("p1 "):
            assert here.handle({"type": "act", "state": here.table.state, "action": action})[0]["type"] == "table"
        else:
            assert here.bot_to_act()
            here.bot_move()
    assert here.record() == in_page
    assert page.errors == []
    context.close()


def test_conquian_serve_serves_the_offline_app_under_its_policy(browser: Any, site_url: str,
                                                                tmp_path: Path) -> None:
    """The same app at ``/offline/`` of ``conquian serve``, under the server's content security
    policy (scripts and WebAssembly from its own origin only): it loads, plays, imports a record."""
    from web_server import Server

    server = Server(f"sqlite:///{tmp_path / 'web.db'}", tmp_path).start()
    try:
        listing = server.get("/offline/engine-assets.json").json()
        assert "pyodide/pyodide.asm.wasm" in listing["files"] and "engine.zip" in listing["files"]
        assert server.get("/offline/pyodide/pyodide.asm.wasm").headers["content-type"] == "application/wasm"
        assert server.get("/offline/no-such-file").status_code == 404
        assert "script-src 'self' 'wasm-unsafe-eval'" in server.get("/offline/").headers["content-security-policy"]
        context = browser.new_context(viewport={"width": 844, "height": 390})
        page = _page(context)
        page.goto(f"{server.url}/")
        page.click("#play-offline a")
        _lobby(page)
        # a record of the server's format imported: the player takes the first seat and plays on
        here = LocalTable.new("cooncan", players=3, bot="random", name="Bea", seed=8, bot_seed=8)
        while here.bot_to_act():
            here.bot_move()
        page.set_input_files("#offline-import", files=[{"name": "match.toml", "mimeType": "application/toml",
                                                         "buffer": here.record().encode()}])
        page.wait_for_selector("#board[data-mine='1']", timeout=LOAD_MS)
        assert page.locator("#board .seat").count() == 3
        _play_turn(page)
        page.goto(f"{server.url}/offline/#/")
        _lobby(page)
        assert page.locator("#offline-saved li").count() == 1
        rules = page.get_attribute("#rules-link", "href")
        assert rules and rules.startswith("../rules/en.html")
        assert page.errors == []
        context.close()
    finally:
        server.stop()


def test_every_preset_and_seat_count_against_each_bot_draws_in_the_page(browser: Any, site_url: str) -> None:
    """Every preset at every seat count, against random, foster and the expert by turns: the
    worker deals it and the table code draws every seat of the deal; the player's move is
    played (unless he sits this deal out, R6.3)."""
    from conquian.engine.rules import PRESETS

    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = _page(context)
    page.goto(f"{site_url}/offline/")
    _lobby(page)
    bots = ["random", "foster", "expert"]
    k = 0
    for variant, rules in PRESETS.items():
        for n in range(rules.min_players, rules.max_players + 1):
            bot = bots[k % 3]
            k += 1
            spec = {"variant": variant, "players": n, "bot": bot, "name": "Ann", "pace": 0}
            table_id = page.evaluate("spec => ENGINE.call('create', { spec })", spec)
            page.goto(f"{site_url}/offline/#/t/{table_id}")
            page.wait_for_selector("#board", timeout=LOAD_MS)
            assert page.evaluate("game.table.seats.length") == n
            # conquian with more than two: the seats of the deal (one sits out, R6.3)
            assert page.locator("#board .seat[data-seat]").count() == page.evaluate("game.table.deal.seats.length")
            assert page.locator(f"#board .seat:has-text('{bot.capitalize()}')").count() >= 1, (variant, n, bot)
            if page.evaluate("!!game.table.deal.hand"):
                page.wait_for_selector("#board[data-mine='1']", timeout=LOAD_MS)
                _play_turn(page)
    assert page.errors == []
    context.close()


def test_learn_offline_first_lesson_by_taps_in_spanish(browser: Any, site_url: str, tmp_path: Path) -> None:
    """The Learn section of the offline app, on a phone in Spanish with the network off: a new
    player finds Learn from the offline games, completes the first lesson by taps (a wrong tap
    refused with its rule), the lesson runner answering from the engine in the page; his progress
    stays in the browser across a reload; the puzzle of the day (its answer sealed in the bundle, the
    page saying puzzles offline are unrated) is answered and explained."""
    from playwright.sync_api import expect

    from conquian.i18n import Msg, translator
    from conquian.learn.lessons import LESSONS
    from conquian.learn.puzzles import daily_puzzle

    es = translator("es")
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="es-MX", has_touch=True,
                                  is_mobile=True)
    page = _page(context)
    page.goto(f"{site_url}/offline/")
    _lobby(page)
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=LOAD_MS)
    context.set_offline(True)
    page.locator("#learn-link").tap()
    # while the engine loads, the header and the title are already in Spanish
    loading = page.wait_for_function(
        "() => { const s = document.getElementById('learn-status');"
        " return s && !s.hidden && s.textContent.includes('Cargando')"
        " ? document.querySelector('header .learn-home').textContent + '|' + document.title : false; }",
        timeout=LOAD_MS, polling="raf")
    assert loading.json_value() == "Aprender|conquian · Aprender"
    expect(page.locator("#path h1")).to_contain_text("Aprende conquián", timeout=LOAD_MS)
    expect(page.locator("#lesson-list .lesson-button")).to_have_count(len(LESSONS))
    page.locator(".lesson-button").first.tap()
    expect(page.locator("#l-title")).to_have_text(es.render(LESSONS[0].title))
    page.locator("#l-moves button[data-move='p1 pass']").tap()
    expect(page.locator("#l-answer")).to_contain_text("R2.2")
    for step in LESSONS[0].steps:
        page.locator(f"#l-moves button[data-move='{step.sample or step.expect[0]}']").tap()
    expect(page.locator("#l-summary")).to_have_text(es.render(LESSONS[0].summary))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(tmp_path / "offline-lesson-es-390.png"), full_page=True)
    page.locator("#l-back").tap()
    expect(page.locator(".lesson-button.done")).to_have_count(1)
    # offline still: the page and its progress come back after a reload
    page.reload()
    # the engine loads again from the app's cache before the list shows: on a machine whose other
    # cores run the suite's heaviest tests (a parallel run) this took past LOAD_MS once
    expect(page.locator(".lesson-button.done")).to_have_count(1, timeout=2 * LOAD_MS)
    # its puzzles are judged by the page's engine from sealed answers (digests): unrated, and it says so
    expect(page.locator("#puzzle-unrated")).to_have_text(es.render(Msg("Puzzles played here, offline, are not rated.")))
    daily = daily_puzzle()
    page.locator(f"#puzzle-list button[data-puzzle='{daily.id}']").tap()
    page.locator(f"#p-moves button[data-move='{daily.answer}']").tap()
    expect(page.locator("#p-result")).to_have_text("¡Correcto!")
    expect(page.locator("#p-why li").first).to_contain_text("Tema:")
    expect(page.locator("#p-why li")).to_have_count(1 + len(daily.reasons()))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(tmp_path / "offline-puzzle-es-390.png"), full_page=True)
    page.locator("#p-back").tap()
    expect(page.locator("#puzzle-list button.done")).to_have_count(1)
    assert page.errors == []
    context.close()


#: Holds the page's messages to the engine's worker while localStorage says so (the engine then
#: answers nothing): what the page draws meanwhile is drawn without it.
HOLD = """(() => {
  const post = Worker.prototype.postMessage;
  window.heldMessages = [];
  Worker.prototype.postMessage = function (...args) {
    if (localStorage.getItem('test:hold') === '1') { window.heldMessages.push([this, args]); return; }
    return post.apply(this, args);
  };
  window.releaseEngine = () => {
    localStorage.removeItem('test:hold');
    for (const [w, args] of window.heldMessages.splice(0)) post.apply(w, args);
  };
})();"""


def _app_context(browser: Any, profile: Path, lang: str) -> Any:
    """A browser profile of its own on disk, a phone's screen, the language chosen."""
    context = browser.browser_type.launch_persistent_context(str(profile), executable_path=CHROMIUM, args=ARGS,
                                                             viewport={"width": 390, "height": 844})
    context.add_init_script(f"localStorage.setItem('conquian:pref:lang', '{lang}')")
    context.add_init_script(HOLD)
    return context


def _app_page(context: Any) -> Any:
    page = context.pages[0] if context.pages else context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.set_default_timeout(30_000)
    return page


def _resume_from_snapshot(page: Any, state: str, drawn: str) -> None:
    """The match kept in this browser, resumed from the offline start page: its table is drawn
    from its saved snapshot (``drawn``: the player's seat, to act or the deal over) while the
    engine answers nothing, then the engine takes over."""
    page.evaluate("localStorage.setItem('test:hold', '1')")
    page.click("#offline-kept .resume")
    page.wait_for_selector(f"#board[data-state='{state}']{drawn}", timeout=LOAD_MS)
    # drawn with the engine's worker told nothing yet: its hello is still held
    assert page.evaluate("window.heldMessages.some(([w, a]) => a[0] && a[0].msg && a[0].msg.type === 'hello')")
    page.evaluate("window.releaseEngine()")
    page.wait_for_function("() => ENGINE.status === 'ready'", timeout=LOAD_MS)


@pytest.mark.parametrize(("lang", "needs", "computer"), [
    ("en", "This needs a connection.", "Play against the computer"),
    ("es", "Esto necesita conexión.", "Jugar contra la computadora"),
])
def test_the_app_opened_offline_at_its_start_url_plays_against_the_bots(
        browser: Any, site_url: str, tmp_path: Path, lang: str, needs: str, computer: str) -> None:
    """The installed app opened from its icon with no network: ``/`` once online (the service
    worker keeps the shell and, in the background, the engine), then offline: the start page
    shows the matches kept and the game against the computer at once, the online parts say they
    need a connection; a match is started and a whole deal played; a match in progress reappears
    at once from its snapshot; and a cold start of the same profile, offline, plays on."""
    from web_server import Server

    server = Server(f"sqlite:///{tmp_path / 'web.db'}", tmp_path).start()
    profile = tmp_path / "profile"
    try:
        context = _app_context(browser, profile, lang)
        page = _app_page(context)
        page.goto(f"{server.url}/")
        page.wait_for_selector("#create-table")
        # the engine downloaded in the background once the page is idle, its progress shown
        page.wait_for_function("() => document.documentElement.dataset.kept === '1'", timeout=LOAD_MS)
        assert page.evaluate("navigator.serviceWorker.controller !== null")
        kept = page.text_content("#play-offline #engine-kept") or ""
        assert kept and "MB" not in kept
        context.set_offline(True)
        page.reload()
        page.wait_for_selector("#offline-home")
        assert page.text_content("#play-computer") == computer
        assert page.locator("#lobby-offline .needs-connection").count() == 3
        assert needs in page.text_content("#create-offline")
        assert page.locator("#offline-kept li").count() == 0
        page.click("#play-computer")
        _lobby(page)
        page.select_option("#offline-bot", "foster")
        page.click("#offline-start")
        page.wait_for_selector("#board", timeout=LOAD_MS)
        page.click("#sheet-settings")
        page.select_option("#pace", "0")
        page.click("#side .sheet-close")
        _play_deal(page, stop_after=3)
        state = page.get_attribute("#board", "data-state")
        # back at the start page, offline: the match in progress is there, and reappears at once
        page.goto(f"{server.url}/")
        page.wait_for_selector("#offline-kept li")
        assert page.locator("#offline-kept li").count() == 1
        _resume_from_snapshot(page, state, "[data-mine='1']")
        _play_deal(page)
        over = page.get_attribute("#board", "data-state")
        assert page.locator("#next-deal").count() == 1
        assert page.errors == []
        context.close()
        # a cold start of the same profile, with no network from the first request
        context = _app_context(browser, profile, lang)
        context.set_offline(True)
        page = _app_page(context)
        page.goto(f"{server.url}/")
        page.wait_for_selector("#offline-kept li")
        _resume_from_snapshot(page, over, "[data-over='1']")
        page.wait_for_selector(f"#board[data-state='{over}'][data-over='1']")
        page.click("#next-deal")
        page.wait_for_selector("#board[data-over='']")
        _play_deal(page)
        assert page.locator("#next-deal").count() == 1
        if lang == "es":
            page.goto(f"{server.url}/")
            page.wait_for_selector("#offline-kept li")
            page.screenshot(path=str(tmp_path / "offline-start-es.png"))
            if os.environ.get("CONQUIAN_SCREENSHOTS"):  # the docs' picture (docs/play.md)
                shutil.copyfile(tmp_path / "offline-start-es.png", SHOTS / "offline-start-es.png")
        assert page.errors == []
        context.close()
    finally:
        server.stop()


def _serve(root: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


def test_the_engine_starts_from_its_memory_snapshot_and_plainly_when_it_does_not_load(
        browser: Any, site_url: str, tmp_path: Path) -> None:
    """The built site's memory snapshot (made with Node.js) starts the engine with Python and the
    engine already imported; a snapshot that does not load leaves the plain start, which plays."""
    import urllib.error
    import urllib.request

    try:
        urllib.request.urlopen(f"{site_url}/offline/engine.snapshot").close()
    except urllib.error.HTTPError:
        pytest.skip("no Node.js where the site was built: no memory snapshot")
    spec = {"variant": "conquian", "players": 2, "bot": "foster", "name": "Ann", "seed": 3, "bot_seed": 3, "pace": 0}
    context = browser.new_context()
    page = _page(context)
    page.goto(f"{site_url}/offline/")
    _lobby(page)
    assert page.evaluate("ENGINE.timings.snapshot") is True
    table_id = page.evaluate("spec => ENGINE.call('create', { spec })", spec)
    page.goto(f"{site_url}/offline/#/t/{table_id}")
    page.wait_for_selector("#board[data-mine='1']", timeout=LOAD_MS)
    _play_turn(page)
    assert page.errors == []
    context.close()
    # the same site with a snapshot made with another engine's package: not loaded (Pyodide would
    # hang on it), the plain start, and the game plays
    root = tmp_path / "site"
    site.build_site(root)
    snapshot = root / "offline" / "engine.snapshot"
    data = snapshot.read_bytes()
    snapshot.write_bytes(data[:8] + hashlib.sha256(b"another engine").digest() + data[40:])
    httpd, url = _serve(root)
    try:
        context = browser.new_context()
        page = _page(context)
        page.goto(f"{url}/offline/")
        _lobby(page)
        assert page.evaluate("ENGINE.timings.snapshot") is False
        assert page.evaluate("ENGINE.timings.snapshot_error") == "a snapshot of another engine"
        table_id = page.evaluate("spec => ENGINE.call('create', { spec })", spec)
        page.goto(f"{url}/offline/#/t/{table_id}")
        page.wait_for_selector("#board[data-mine='1']", timeout=LOAD_MS)
        _play_turn(page)
        assert page.errors == []
        context.close()
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_an_offline_match_comes_home_to_the_named_players_history(browser: Any, site_url: str,
                                                                   tmp_path: Path) -> None:
    """Signed in with a named account, a short match (one deal) played in the offline app with no
    network; online again, the page sends it to the account, whose page lists it marked offline,
    and its replay answers."""
    from web_server import Server

    server = Server(f"sqlite:///{tmp_path / 'web.db'}", tmp_path).start()
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = _page(context)
        page.goto(f"{server.url}/offline/")
        named = page.evaluate("""async () => {
            await ensureAccount();
            const r = await fetch('/api/account/name', { method: 'POST', body: JSON.stringify({ name: 'Wendy' }),
              headers: { ...csrfHeaders(), 'Content-Type': 'application/json' } });
            return r.status; }""")
        assert named == 200
        _lobby(page)
        context.set_offline(True)
        page.evaluate("""async () => {
            const id = await ENGINE.call('create', { spec: { variant: 'conquian', players: 2, bot: 'random',
              name: 'Wendy', deals: 1, pace: 0 } });
            location.hash = `#/t/${id}`; }""")
        page.wait_for_selector("#board", timeout=LOAD_MS)
        _play_deal(page)
        page.wait_for_selector("#board[data-over='1']")
        for _ in range(200):  # the finished match kept with its record
            if page.evaluate("keptMatches().then(all => all.some(m => m.status === 'over' && m.record))"):
                break
            page.wait_for_timeout(100)
        page.evaluate("location.hash = '#/'")
        page.wait_for_selector("#offline-saved li[data-match]")
        assert page.locator(".sent-home").count() == 0  # no network: not sent yet
        context.set_offline(False)
        page.wait_for_selector("#offline-saved .sent-home", timeout=30_000)
        table = page.evaluate("keptMatches().then(all => all[0].home.table)")
        page.goto(f"{server.url}/p/Wendy")
        page.wait_for_selector("#recent .offline-mark")
        assert page.locator("#recent li").count() == 1
        assert page.text_content("#recent .offline-mark") == "offline"
        assert page.evaluate(f"fetch('/api/tables/{table}/replay').then(r => r.status)") == 200
        assert page.errors == []
    finally:
        context.close()
        server.stop()
