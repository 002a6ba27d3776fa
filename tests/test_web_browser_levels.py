"""The bots' levels in a real browser (Debian's Chromium driven by Playwright), on a phone
(390x844) that reads Spanish: the lobby's and the table's bot menus offer the levels, weakest
first, each with its measured rating ("Principiante · 1,583"), the other bots apart; a level seated
from the table's menu plays under its name; the leaderboard lists the bots' fixed ratings with
their intervals, within the phone's width.

``CONQUIAN_SCREENSHOTS=1`` writes the screenshots of ``docs/screenshots/`` (``es-phone-levels*.png``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect

from conquian.bots.levels import LEVELS, fixed_rating, levels_by_rating
from conquian.i18n import translator
from conquian.present import bot_name
from test_web_browser import ARGS, CHROMIUM, browser, shot  # noqa: F401
from web_server import Server

_ = ARGS, CHROMIUM  # the same browser as the other browser tests
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("browser-levels")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp).start()
    yield s
    s.stop()


def phone(browser: Any) -> Any:  # noqa: F811
    ctx = browser.new_context(viewport=PHONE, locale="es-MX", is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.set_default_timeout(20_000)
    return page


def expected_levels() -> list[str]:
    """The levels' labels in Spanish, weakest first by their fitted rating, with it: "Principiante · 1,338"."""
    es = translator("es")
    return [f"{es.render(bot_name(b))} · {fixed_rating('conquian', b)['rating']:,}"  # type: ignore[index]
            for b in levels_by_rating("conquian")]


def menu(page: Any, select: str) -> dict[str, list[str]]:
    """A menu's groups and their options' texts."""
    return dict(page.locator(select).evaluate(
        "s => Array.from(s.querySelectorAll('optgroup'), "
        "g => [g.label, Array.from(g.querySelectorAll('option'), o => o.textContent)])"))


def fits(page: Any) -> bool:
    """Whether the page is no wider than the phone (nothing to scroll sideways)."""
    return bool(page.evaluate(f"() => document.scrollingElement.scrollWidth <= {PHONE['width']}"))


def test_the_menus_offer_the_levels_by_rating_on_a_spanish_phone(server: Server, browser: Any) -> None:  # noqa: F811
    page = phone(browser)
    page.goto(server.url + "/")
    page.fill("#host-name", "Lupita")
    page.select_option("#variant", "conquian")
    lobby = menu(page, "select[data-seat='2']")
    assert lobby["Bots por nivel"] == expected_levels()
    assert "Otros bots" in lobby and any(o.startswith("Azar") for o in lobby["Otros bots"])
    page.select_option("select[data-seat='2']", "open")
    page.click("#create-table")
    page.wait_for_url("**/t/*")
    pick = page.locator("select.seat-bot")
    pick.wait_for()
    assert menu(page, "select.seat-bot")["Bots por nivel"] == expected_levels()
    assert fits(page)
    pick.select_option("beginner")
    shot(page, "es-phone-levels-menu.png")
    page.get_by_text("Dárselo a un bot").click()
    page.locator("#board").wait_for()  # the match begins, against the level chosen
    expect(page.locator("main")).to_contain_text("Principiante")
    page.goto(server.url + "/leaderboard?game=conquian")
    board = page.locator("#leaderboard")
    board.wait_for()
    text = board.inner_text()
    for lv in LEVELS:
        e = fixed_rating("conquian", lv.bot)
        assert e is not None
        name = translator("es").render(bot_name(lv.bot))
        assert f"{name} (bot)" in text and f"({e['interval'][0]:,} a {e['interval'][1]:,})" in text
    assert "puntuación de un bot es fija" in page.locator("#fixed-note").inner_text()
    assert fits(page) and page.locator("#leaderboard").evaluate("t => t.scrollWidth <= t.parentElement.clientWidth")
    shot(page, "es-phone-levels-leaderboard.png")
    assert page.errors == []
