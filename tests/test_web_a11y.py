"""The web table for everyone: axe-core (bundled by ``axe-playwright-python``, run offline in the
page) reports no serious or critical violation on the lobby, a table in play, the end of a deal and
the replay, in English and in Spanish; the cards have names for screen readers; a move can be
played with the keyboard alone.  Chromium through Playwright, as tests/test_web_browser.py.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")
pytest.importorskip("axe_playwright_python")

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from test_web_browser import browser, server  # noqa: F401
from web_server import Client, Server

LOCALES = {"en": "en-US", "es": "es-MX"}


def page_in(browser: Any, lang: str, width: int = 1200, height: int = 850) -> Any:  # noqa: F811
    page = browser.new_context(viewport={"width": width, "height": height}, locale=LOCALES[lang]).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.set_default_timeout(20_000)
    return page


def serious(page: Any) -> list[str]:
    """The serious and critical violations axe-core finds on the page, with where."""
    found = Axe().run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]}"
            for v in found if v["impact"] in ("serious", "critical")]


def sit(page: Any, server: Server, **spec: Any) -> dict[str, Any]:  # noqa: F811
    r = server.create(host_name="Ann", **spec)
    page.goto(server.url + "/")
    page.evaluate("([id, host, token]) => { localStorage.setItem('conquian:host:' + id, host);"
                  " localStorage.setItem('conquian:seat:' + id, token); }", [r["id"], r["host"], r["token"]])
    return r


def play_out(server: Server, r: dict[str, Any]) -> None:  # noqa: F811
    """The person's moves, at random, through the protocol, until the deal ends."""
    rng = random.Random(5)
    c = Client(server, r["id"], r["token"])
    try:
        for _ in range(2000):
            t = c.table
            if t["deal"]["over"]:
                return
            if t["deal"]["to_act"] == c.welcome["seat"] and t.get("legal"):
                c.act(rng.choice(t["legal"]))
            c.wait_table(lambda x, s=t["state"]: x["state"] > s)
        raise AssertionError("the deal did not end")
    finally:
        c.close()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_no_serious_violation_anywhere(server: Server, browser: Any, lang: str) -> None:  # noqa: F811
    page = page_in(browser, lang)
    page.goto(server.url + "/")
    page.wait_for_selector("#create-table")
    assert serious(page) == [], "lobby"
    # a table in play, at a phone's size too
    r = sit(page, server, variant="cooncan-double", players=5,
            seats=[{"kind": "open"}, *({"kind": "random"} for _ in range(4))])
    page.goto(server.url + r["url"])
    page.wait_for_selector("#hand button.card")
    assert serious(page) == [], "table"
    page.set_viewport_size({"width": 390, "height": 844})
    assert serious(page) == [], "table on a phone"
    # the end of a deal (a match of one deal), then its replay
    r = sit(page, server, variant="conquian", players=2, deals=1, seats=[{"kind": "open"}, {"kind": "random"}])
    play_out(server, r)
    page.goto(server.url + r["url"])
    page.wait_for_selector("#board[data-over='1']")
    assert serious(page) == [], "end of a deal"
    page.goto(server.url + f"/r/{r['id']}")
    page.wait_for_selector("#replay")
    assert serious(page) == [], "replay"
    for button in ("#first", "#last", "#back", "#forward"):
        assert page.locator(button).evaluate("b => b.getBoundingClientRect().width > 20 && !!b.querySelector('svg')")
    expect(page.locator("#first")).to_have_accessible_name(re.compile(r"\w"))
    expect(page.locator("#last")).to_have_accessible_name(re.compile(r"\w"))
    assert page.errors == []
    page.context.close()


def test_cards_are_named(server: Server, browser: Any) -> None:  # noqa: F811
    for lang, words in (("en", r"^(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of "
                                r"(clubs|diamonds|hearts|spades)$|^joker"),
                        ("es", r"^(as|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|jota|reina|rey) de "
                               r"(tréboles|diamantes|corazones|picas)$|^comodín")):
        page = page_in(browser, lang)
        r = sit(page, server, variant="cooncan-double", players=2, seats=[{"kind": "open"}, {"kind": "random"}])
        page.goto(server.url + r["url"])
        page.wait_for_selector("#hand button.card")
        labels = page.locator(".card").evaluate_all("cs => cs.map(c => c.getAttribute('aria-label'))")
        assert labels and all(re.search(words, str(x)) for x in labels), labels
        assert page.errors == []
        page.context.close()


def test_a_move_by_keyboard(server: Server, browser: Any) -> None:  # noqa: F811
    page = page_in(browser, "en")
    r = sit(page, server, variant="cooncan", players=2, seats=[{"kind": "open"}, {"kind": "random"}])
    page.goto(server.url + r["url"])
    page.wait_for_selector("#actions button.move")

    def tab_to(selector: str) -> None:
        for _ in range(80):
            page.keyboard.press("Tab")
            if page.evaluate(f"() => !!document.activeElement?.matches({selector!r})"):
                return
        raise AssertionError(f"Tab never reached {selector}")

    tab_to("#hand button.card")
    page.keyboard.press("Space")
    expect(page.locator("#hand button.card[aria-pressed='true']")).to_have_count(1)
    assert page.evaluate("() => document.activeElement.matches('#hand button.card')")
    page.keyboard.press("Enter")  # the same card again: no card selected
    expect(page.locator("#hand button.card[aria-pressed='true']")).to_have_count(0)
    before = int(page.get_attribute("#board", "data-state"))
    tab_to("#actions button.move")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.state) > {before}")
    assert page.errors == []
    page.context.close()
