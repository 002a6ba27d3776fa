"""Issue 54 in a real browser (Debian's Chromium driven by Playwright), in Spanish at a phone's size:
the table's title names the game (never its preset's code), the log names the cards by the pack
the page draws, a refusal never covers the turn line or the Hint button, one buried card reads in
the singular, and the chat's reactions are drawn in SVG (no emoji font needed).

``CONQUIAN_SCREENSHOTS=1`` writes ``docs/screenshots/es-phone-table.png``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect

from test_web_browser import ARGS, CHROMIUM, browser, create, shot, state  # noqa: F401
from test_web_browser_spanish import click_a_move, over, spanish_page
from web_server import Server

_ = ARGS, CHROMIUM  # the same browser as the other browser tests

#: The Spanish pack's words (R8.1), and the French pack's, as a Spanish page writes them.
SPANISH_PACK = re.compile(r"\b(oros|copas|espadas|bastos|sota|caballo)\b")
FRENCH_PACK = re.compile(r"\b(tréboles|diamantes|corazones|picas|jota|reina)\b")
EMOJI = re.compile("[\U0001F300-\U0001FAFF]")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("browser-newcomer")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp).start()
    yield s
    s.stop()


def boxes_overlap(page: Any, a: str, b: str) -> bool:
    return bool(page.evaluate("""([a, b]) => {
      const x = document.querySelector(a).getBoundingClientRect();
      const y = document.querySelector(b).getBoundingClientRect();
      return x.left < y.right && y.left < x.right && x.top < y.bottom && y.top < x.bottom;
    }""", [a, b]))


def test_a_spanish_phone_table_reads_as_a_new_player_expects(server: Server, browser: Any) -> None:  # noqa: F811
    page = spanish_page(browser, 390, 844)
    create(page, server, "Ana", "conquian-mexicano", 2, ["random"])
    # the title: the game's name, never "mesa de conquian-mexicano"
    expect(page.locator("#title")).to_have_text("Conquián mexicano")
    assert "conquian-mexicano" not in page.title() and "mesa de" not in page.title()
    rng = random.Random(5)
    for _ in range(14):  # the exchange and some turns, the French suits shown (the default)
        if over(page):
            break
        mine = page.locator("#board[data-mine='1']").count() > 0
        if mine and page.locator("#exchange-prompt").count():
            before = state(page)
            page.locator("#hand button.card").first.click()  # the exchange (R8.2): give a card
            page.click("#give")
            page.wait_for_function(f"() => Number(document.querySelector('#board')?.dataset.state) > {before}")
        elif mine:
            click_a_move(page, rng)
        else:
            page.wait_for_timeout(40)
    log = "\n".join(page.locator("#log div").all_text_contents())
    assert FRENCH_PACK.search(log) and not SPANISH_PACK.search(log), log
    # each card's article is its French name's beside the French suits: "la Q♠" (la reina), "el K♠"
    body = str(page.evaluate("() => document.body.textContent"))
    assert not re.search(r"\bel [JQ][♣♦♥♠]|\bla (?:[2-7AK])[♣♦♥♠]", body), body
    # the Spanish suits switched on: the same log in the Spanish pack's words
    page.evaluate("() => { localStorage.setItem('conquian:pref:spanish-suits', '1'); }")
    page.reload()
    page.wait_for_selector("#log div", state="attached")
    log = "\n".join(page.locator("#log div").all_text_contents())
    assert SPANISH_PACK.search(log) and not FRENCH_PACK.search(log), log
    page.evaluate("() => { localStorage.setItem('conquian:pref:spanish-suits', '0'); }")
    page.reload()
    page.wait_for_selector("#board[data-mine='1']")  # the player's turn: the Hint button is there
    assert not over(page)
    shot(page, "es-phone-table.png")
    # a refusal of two lines: the turn line and the Hint button stay in sight
    expect(page.locator("#hint-button")).to_be_visible()
    page.evaluate("() => showError('No puedes pagar esa carta: la carta que tomaste del montón no se paga en el "
                  "mismo turno, y esta frase es larga a propósito', 'R3.5')")
    expect(page.locator("#alert")).to_be_visible()
    assert not boxes_overlap(page, "#alert", "#turn")
    assert not boxes_overlap(page, "#alert", "#hint-button")
    # one buried card: the verb, as every other last move; the buried cards' label by their number
    assert page.evaluate("() => [lastKindWords('bury', 'conquian'), ngettext('Buried:', 'Buried:', 1), "
                         "ngettext('Buried:', 'Buried:', 2)]") == ["enterró", "Enterrada:", "Enterradas:"]
    assert page.errors == []


def test_the_chats_reactions_are_drawn_in_svg(server: Server, browser: Any) -> None:  # noqa: F811
    page = spanish_page(browser, 390, 844)
    create(page, server, "Ana", "conquian", 2, ["random"])
    page.click("#sheet-chat")  # on a phone the chat opens as a sheet over the table
    buttons = page.locator("#side.open button.chat-react")
    expect(buttons).to_have_count(6)
    assert page.locator("#side.open button.chat-react svg.reaction-icon").count() == 6
    # no emoji left to a font: the buttons read the pictures and the reactions' names
    assert not EMOJI.search(page.locator("#side.open .chat-reactions").inner_text())
    buttons.first.click()
    line = page.locator("#side.open .chat-line .chat-reaction")
    expect(line.first).to_be_visible()
    assert line.first.locator("svg.reaction-icon").count() == 1
    assert line.first.get_attribute("aria-label") == "pulgar arriba"
    assert not EMOJI.search(page.locator("#side.open .chat-lines").inner_text())
    # the picture has a size: it is drawn, not an empty box
    size = page.evaluate("() => { const r = document.querySelector('.chat-line .reaction-icon')"
                         ".getBoundingClientRect(); return [r.width, r.height]; }")
    assert size[0] > 10 and size[1] > 10, size
    assert page.errors == []
