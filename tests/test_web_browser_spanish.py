"""The web table in Spanish in a real browser (Debian's Chromium driven by Playwright, locale
es-MX): the lobby and the tables read in Spanish with no English sentence of the catalogue left,
the language switch and its choice kept, a whole deal of conquián mexicano and of five-hand
Cooncan played by clicks, a refusal with its rule in Spanish.

``CONQUIAN_SCREENSHOTS=1`` writes the screenshots of ``docs/screenshots/`` (``es-*.png``).
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect

from conquian.engine import rulebook
from conquian.i18n import translator
from test_web_browser import ARGS, CHROMIUM, all_moves, browser, create, pace, shot, state, wait_offered  # noqa: F401
from web_server import Server

_ = ARGS, CHROMIUM  # the same browser as the other browser tests


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("browser-spanish")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp).start()
    yield s
    s.stop()


def english_parts() -> list[str]:
    """The English words that must not be left on a Spanish page: for every message of the
    catalogue of two words or more whose Spanish differs, its parts between fields (of two words
    or more) that the Spanish does not say as well (a game's name)."""
    parts: set[str] = set()
    for msgid, text in translator("es").messages().items():
        spanish = text if isinstance(text, str) else text[0]
        if len(msgid.split()) < 2 or spanish == msgid:
            continue
        for part in re.split(r"\{\w+\}", msgid):
            if len(part.strip().split()) >= 2 and part.strip() not in spanish:
                parts.add(part.strip())
    return sorted(parts)


PARTS = english_parts()


def spanish_page(browser: Any, width: int = 1200, height: int = 850) -> Any:  # noqa: F811
    page = browser.new_context(viewport={"width": width, "height": height}, locale="es-MX").new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.set_default_timeout(20_000)
    return page


def server_words_untranslated(server: Server, table_id: str) -> bool:
    """Whether the server's own lines (the log, the result) read the same in English and Spanish:
    the session's words not translated yet, they are left out of the check."""
    en = server.get(f"/api/tables/{table_id}?lang=en").json()
    es = server.get(f"/api/tables/{table_id}?lang=es").json()
    return bool(en["log"] == es["log"] and en["log"])


def english_left(page: Any, server: Server | None = None, table_id: str | None = None) -> list[str]:
    """The English parts of the catalogue on the page (the server's lines left out while they
    read the same in both languages)."""
    seen = page.evaluate("() => ({body: document.body.innerText, log: Array.from("
                         "document.querySelectorAll('#log div'), d => d.innerText), "
                         "turn: document.querySelector('#turn')?.innerText || ''})")
    text = str(seen["body"])
    if server is not None and table_id is not None and server_words_untranslated(server, table_id):
        for line in sorted([*seen["log"], seen["turn"]], key=len, reverse=True):  # a line may begin another
            if line:
                text = text.replace(str(line), "")
    left = [p for p in PARTS if p in text]
    assert not left, (left, text)  # the page's text said with the failure, not left in a shared file
    return left


def over(page: Any) -> bool:
    return page.locator("#board[data-over='1']").count() > 0


def click_a_move(page: Any, rng: random.Random, prefer: tuple[str, ...] = ()) -> str:
    """A move by clicks (sometimes a card selected first); returns its notation."""
    before = state(page)
    cards = page.locator("#hand button.card")
    if cards.count() and page.locator("#exchange-prompt").count() == 0 and rng.random() < 0.3:
        pace(page)
        cards.nth(rng.randrange(cards.count())).click()
        wait_offered(page)
        if not page.locator("#actions button.move").count():
            page.get_by_text("quitar la selección").click()
    buttons = page.locator("#actions button.move")
    if not buttons.count():
        buttons = all_moves(page)
    actions = [str(a) for a in buttons.evaluate_all("bs => bs.map(b => b.dataset.action)")]
    pick = next((i for p in prefer for i, a in enumerate(actions) if a.startswith(p)), rng.randrange(len(actions)))
    pace(page)
    buttons.nth(pick).click()
    page.wait_for_function(f"() => Number(document.querySelector('#board')?.dataset.state) > {before} || "
                           "!document.querySelector('#alert').hidden")
    return actions[pick]


def test_the_lobby_is_in_spanish_and_the_switch_is_kept(server: Server, browser: Any) -> None:  # noqa: F811
    page = spanish_page(browser)
    page.goto(server.url + "/")
    expect(page.locator("#create-table")).to_have_text("Crear la mesa")
    assert page.evaluate("document.documentElement.lang") == "es"
    expect(page.locator("#rules-link")).to_have_text("Reglas")
    assert page.get_attribute("#rules-link", "href") == "/rules?lang=es"
    expect(page.locator("#variant-about")).to_contain_text("10 cartas, 11 bajadas para ganar")
    page.select_option("#variant", "conquian-mexicano")
    page.select_option("#players", "3")
    expect(page.locator("#variant-about")).to_contain_text("3 jugadores: la tercerilla")
    expect(page.locator("#tables")).to_contain_text("Mesas")
    assert english_left(page) == []
    shot(page, "es-lobby.png")
    # English by the switch, kept across a reload; then Spanish again
    page.select_option("#lang", "en")
    expect(page.locator("#create-table")).to_have_text("Create the table")
    assert page.evaluate("document.documentElement.lang") == "en"
    page.reload()
    expect(page.locator("#create-table")).to_have_text("Create the table")
    expect(page.locator("#lang")).to_have_value("en")
    page.select_option("#lang", "es")
    expect(page.locator("#create-table")).to_have_text("Crear la mesa")
    page.reload()
    expect(page.locator("#create-table")).to_have_text("Crear la mesa")
    assert page.errors == []


def test_a_whole_deal_of_conquian_mexicano_in_spanish(server: Server, browser: Any) -> None:  # noqa: F811
    page = spanish_page(browser)
    table_id = create(page, server, "Ana", "conquian-mexicano", 2, ["random"])
    rng = random.Random(3)
    expect(page.locator("#exchange-prompt")).to_contain_text("Elige una carta para darle a")
    assert english_left(page, server, table_id) == []
    # the exchange (R8.2): a card chosen, then given
    cards = page.locator("#hand button.card")
    card = str(cards.nth(rng.randrange(cards.count())).get_attribute("data-card"))
    page.locator(f"#hand button.card[data-card='{card}']").first.click()
    expect(page.locator("#give")).to_contain_text("Darle ")
    before = state(page)
    page.click("#give")
    page.wait_for_function(f"() => Number(document.querySelector('#board')?.dataset.state) > {before}")
    expect(page.locator("#exchange-result")).to_contain_text("Le diste ")
    shot_taken = False
    for _ in range(1500):
        if over(page):
            break
        if page.locator("#board[data-mine='1']").count() and page.locator("#exchange-prompt").count() == 0:
            if not shot_taken:
                assert english_left(page, server, table_id) == []
                expect(page.locator("#turn")).to_contain_text(re.compile("Te toca|Tienes que"))
                shot(page, "es-mexicano-table.png")
                shot_taken = True
            click_a_move(page, rng)
        else:
            page.wait_for_timeout(40)
    assert over(page), "the deal did not end"
    expect(page.locator("#deal-end")).to_be_visible()
    expect(page.locator("#hands")).to_be_visible()
    assert re.search(r"Sales con|sale con|Tablas|Se acabó el montón", page.inner_text("#turn"))
    expect(page.get_by_text("Las cartas de todos")).to_be_visible()
    assert english_left(page, server, table_id) == []
    shot(page, "es-deal-end.png")
    assert page.errors == []


def test_a_whole_deal_of_five_hand_cooncan_in_spanish(server: Server, browser: Any) -> None:  # noqa: F811
    page = spanish_page(browser)
    table_id = create(page, server, "Ana", "cooncan-double", 5, ["foster", "foster", "expert", "random"])
    page.wait_for_selector("#hand")
    expect(page.locator("#hand-panel h2").first).to_have_text("Tus cartas")
    rng = random.Random(6)
    shot_taken = False
    for _ in range(3000):
        if over(page):
            break
        if page.locator("#board[data-mine='1']").count():
            if not shot_taken and page.locator("#combos .meld").count():
                assert english_left(page, server, table_id) == []
                shot(page, "es-cooncan5-table.png")
                shot_taken = True
            click_a_move(page, rng, prefer=("meld", "add", "shift", "draw"))
        else:
            page.wait_for_timeout(30)
    assert over(page), "the deal did not end"
    expect(page.get_by_text("Las cartas de todos")).to_be_visible()
    assert page.locator("#hands .row").count() == 5
    expect(page.locator("#next-deal")).to_have_text("Siguiente mano")
    assert english_left(page, server, table_id) == []
    shot(page, "es-cooncan5-deal-end.png")
    assert page.errors == []


def test_a_refused_move_reads_in_spanish_and_links_to_the_spanish_rule(server: Server, browser: Any) -> None:  # noqa: F811
    page = spanish_page(browser)
    create(page, server, "Ana", seats=["foster"])
    page.wait_for_selector("#board[data-mine='1']")
    page.click("#type-move summary")
    page.wait_for_selector("#typed")
    assert page.get_attribute("#typed", "placeholder") == "o escribe una jugada: bajar 7♣ 8♣ 9♣, pagar 5♥"
    before = state(page)
    page.fill("#typed", "discard 7h")
    page.press("#typed", "Enter")
    page.wait_for_selector("#alert:not([hidden])")
    refusal = page.inner_text("#alert")
    assert "R3.5" in refusal and "lee la regla R3.5" in refusal
    assert state(page) == before
    assert [p for p in PARTS if p in refusal] == []
    link = page.get_attribute("#alert a.rule-link", "href")
    assert link == "/rules?lang=es#R3.5"
    rules = spanish_page(browser)
    rules.goto(server.url + link)
    assert rules.evaluate("document.documentElement.lang") == "es"
    expect(rules.locator("[id='R3.5']")).to_be_visible()
    expect(rules.locator("#back")).to_have_text("Volver a las mesas")
    if rulebook.book_language("es") == "es":  # the Spanish rule book is in the package
        title = rulebook.rules("es")["R3.5"].title
        expect(rules.locator("[id='R3.5']")).to_contain_text(title)
    assert page.errors == [] and rules.errors == []


#: A card written in the record's notation in a page's text (``5c``, ``Th``, ``X=9h``): never shown to a person.
CARD_CODE = re.compile(r"(?<![\w=/#.-])(?:X=)?(?:10|[2-9TAJQK])[cdhs](?![\w/.-])")


def card_codes(page: Any) -> list[str]:
    """The card codes of the notation in the page's visible text (the typed move's box apart)."""
    return CARD_CODE.findall(str(page.evaluate("() => document.body.innerText")))


def test_a_phone_in_spanish_reads_no_card_code_and_types_spanish_words(server: Server, browser: Any) -> None:  # noqa: F811
    """At a phone's size in Spanish, with the Spanish suits: the lobby names the game and the bot in
    Spanish; the exchange's button and lines give each card its article ("Darle la sota de
    espadas"); no card is ever shown as the record's code (the moves, the hint, the log, the
    review's choices); a move typed in Spanish words is played and the record keeps the notation."""
    from conquian.engine.actions import parse_action
    from conquian.present import move_msg

    page = spanish_page(browser, 390, 844)
    page.goto(server.url + "/")
    page.wait_for_selector("#variant option", state="attached")
    page.wait_for_selector("select[data-seat] option", state="attached")
    options = page.locator("#variant option").all_inner_texts()
    assert "Conquián mexicano" in options and "conquian-mexicano" not in options
    # the bots by level, each with its measured rating in conquian (the game shown first)
    assert any(o.startswith("Experto · ") for o in page.locator("select[data-seat] option").all_inner_texts())
    page.evaluate("() => localStorage.setItem('conquian:pref:spanish-suits', '1')")
    table_id = create(page, server, "Ana", "conquian-mexicano", 2, ["random"])
    expect(page.locator("#exchange-prompt")).to_contain_text("Elige una carta para darle a")
    expect(page.locator("#title")).to_contain_text("Conquián mexicano")
    # the exchange (R8.2): the button names the card with its article
    card = str(page.locator("#hand button.card").first.get_attribute("data-card"))
    page.locator(f"#hand button.card[data-card='{card}']").first.click()
    give = page.inner_text("#give")
    article = "la" if card[0] == "J" else "el"
    assert give.startswith(f"Darle {article} "), give
    assert not re.search(r"\b(el sota|la caballo|la rey|la as)\b", give), give
    before = state(page)
    page.click("#give")
    page.wait_for_function(f"() => Number(document.querySelector('#board')?.dataset.state) > {before}")
    expect(page.locator("#exchange-result")).to_contain_text(re.compile(r"Le diste (el|la) .* y recibiste (el|la) "))
    assert card_codes(page) == [], card_codes(page)
    # a move typed in the Spanish words of the move list: played, and the record keeps the notation
    typed = None
    for _ in range(1500):
        if over(page):
            break
        if page.locator("#board[data-mine='1']").count() and page.locator("#exchange-prompt").count() == 0:
            assert card_codes(page) == [], card_codes(page)
            if typed is None:
                shot(page, "es-phone-mexicano.png")
                if os.environ.get("CONQUIAN_PHONE_SHOT"):
                    page.screenshot(path=os.environ["CONQUIAN_PHONE_SHOT"], full_page=True)
                action = str(all_moves(page).first.get_attribute("data-action"))
                words = translator("es").render(move_msg(parse_action(f"p1 {action}")))
                if not page.locator("#type-move[open]").count():
                    page.locator("#type-move summary").click()
                page.fill("#typed", words)
                before = state(page)
                pace(page)
                page.locator("#typed").press("Enter")
                page.wait_for_function(f"() => Number(document.querySelector('#board')?.dataset.state) > {before}")
                typed = action
                continue
            click_a_move(page, random.Random(state(page)))
        else:
            page.wait_for_timeout(40)
    assert typed is not None and over(page)
    assert card_codes(page) == [], card_codes(page)
    record = server.get(f"/api/tables/{table_id}/record").text
    assert f'"p1 {typed}"' in record, record
    assert page.errors == []
