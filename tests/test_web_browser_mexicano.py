"""The conquián mexicano (R8) in a real browser (Debian's Chromium driven by Playwright): a person
plays a whole deal at three by clicks, the exchange included, and the Spanish suits switch.

The page re-renders whenever a snapshot or a presence message arrives, so every element is found
through Playwright's locators (re-queried at each use, auto-waiting) rather than kept as a handle.
``CONQUIAN_SCREENSHOTS=1`` writes the screenshots of ``docs/screenshots/``.
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

from test_web_browser import all_moves, browser, create, new_page, pace, shot, state  # noqa: F401 (browser: a fixture)
from web_server import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("browser-mexicano")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp).start()
    yield s
    s.stop()


def over(page: Any) -> bool:
    return page.locator("#board[data-over='1']").count() > 0


def give_a_card(page: Any, rng: random.Random, screenshot: str = "") -> str:
    """The exchange (R8.2): choose a card of the hand, then give it with one more click."""
    expect(page.locator("#exchange-prompt")).to_contain_text("Choose a card to give to")
    cards = page.locator("#hand button.card")
    k = rng.randrange(cards.count())
    card = str(cards.nth(k).get_attribute("data-card"))
    pace(page)
    cards.nth(k).click()
    give = page.locator("#give")
    expect(give).to_have_attribute("data-action", f"give {card}")
    if screenshot:
        shot(page, screenshot)
    before = state(page)
    pace(page)
    give.click()
    page.wait_for_function(f"() => Number(document.querySelector('#board')?.dataset.state) > {before}")
    return card


def click_a_move(page: Any, rng: random.Random) -> str:
    """One of the moves, by a click in the list of every move; returns its notation."""
    buttons = all_moves(page)
    actions = [str(buttons.nth(i).get_attribute("data-action")) for i in range(buttons.count())]
    forces = [i for i, a in enumerate(actions) if a.startswith("force ")]
    pick = rng.choice(forces) if forces and rng.random() < 0.5 else rng.randrange(len(actions))
    before = state(page)
    pace(page)
    buttons.nth(pick).click()
    page.wait_for_function(f"() => Number(document.querySelector('#board')?.dataset.state) > {before} || "
                           "!document.querySelector('#alert').hidden")
    return actions[pick]


def test_a_person_plays_a_whole_tercerilla_deal_by_clicks(server: Server, browser: Any) -> None:  # noqa: F811
    page = new_page(browser)
    page.goto(server.url + "/")
    page.select_option("#variant", "conquian-mexicano")
    page.select_option("#players", "3")
    expect(page.locator("#variant-about")).to_contain_text(
        "conquián mexicano: 8 cards, 9 down to win; 3 players: the tercerilla")
    page.select_option("[data-opt=hand]", "9")
    expect(page.locator("#variant-about")).to_contain_text("9 cards, 10 down to win")
    assert page.locator("#players option[value='4']").is_disabled()  # R8.1: four only with eight cards
    page.select_option("[data-opt=hand]", "8")
    table_id = create(page, server, "Ann", "conquian-mexicano", 3, ["random", "random"])
    rng = random.Random(8)
    expect(page.locator("#exchange-prompt")).to_contain_text("Choose a card to give to Random")
    gave = give_a_card(page, rng, "web-mexicano-exchange.png")
    expect(page.locator("#exchange-result")).to_contain_text("You gave ")
    result = page.inner_text("#exchange-result")
    assert result.startswith("You gave ") and " and got " in result and " from Random" in result, result
    seen: set[str] = set()
    for _ in range(1500):
        if over(page):
            break
        if page.locator("#board[data-mine='1']").count():
            turn = page.inner_text("#turn")
            if "the say to" in turn:
                seen.add("say")
            if page.locator("#actions button[data-action^='force ']").count():
                label = page.locator("#actions button[data-action^='force ']").first.inner_text()
                assert label.startswith("Force ") and " on " in label, label
                if "force" not in seen:
                    shot(page, "web-mexicano-force.png")
                seen.add("force")
            seen.add(click_a_move(page, rng).split()[0])
        else:
            page.wait_for_timeout(40)
    assert over(page), "the deal did not end"
    expect(page.locator("#deal-end")).to_be_visible()
    end = page.inner_text("#turn")
    scores = page.inner_text("#deal-end")
    expect(page.locator("#hands")).to_be_visible()
    shown = page.locator("#hands .card").count() + page.locator(".side .card").count()
    table = server.get(f"/api/tables/{table_id}").json()
    d = table["deal"]
    # every card dealt is in a hand or down at the end: 8 each, and the winner's ninth (R8.5)
    assert shown == 24 + (1 if d["ended"] == "out" else 0), (shown, d["ended"])
    assert sum(table["scores"]["deals"][0]) == 0
    if d["winner"]:
        assert sorted(table["scores"]["deals"][0]) == [-1, -1, 2] and "win" in end  # R8.7
        assert "+2" in scores and scores.count("-1") == 2
    else:
        assert end.startswith("Tablas") and scores.startswith("Nobody scores")
    assert "say" in seen and gave
    shot(page, "web-mexicano-end-of-deal.png")
    assert page.errors == []


def test_the_spanish_suits_switch_names_the_suits_and_is_kept(server: Server, browser: Any) -> None:  # noqa: F811
    page = new_page(browser)
    create(page, server, "Ann", "conquian-mexicano", 2, ["random"])
    page.locator("#settings summary").click()  # the switch is among the table's settings
    switch = page.locator("#spanish-suits")
    expect(switch).not_to_be_checked()
    first = page.locator("#hand button.card").first
    assert " de " not in str(first.get_attribute("aria-label"))
    switch.check()
    expect(page.locator("#hand button.card").first).to_have_attribute(
        "aria-label", re.compile(r"^(as|[2-7]|sota|caballo|rey) de (oros|copas|espadas|bastos)$"))
    expect(page.locator("#hand .badge").first).to_be_visible()
    shot(page, "web-mexicano-spanish-suits.png")
    page.reload()
    expect(page.locator("#spanish-suits")).to_be_checked()  # kept in localStorage
    label = str(page.locator("#hand button.card").first.get_attribute("aria-label"))
    assert " de " in label, label
    # the notation stays R2.1's: the moves are still written 7h, not 7 de copas
    assert all(" de " not in str(a) for a in page.locator("button[data-action]").evaluate_all(
        "bs => bs.map(b => b.dataset.action)"))
    # conquian-spanish has the switch too; a pack of A to 10 has none
    create(page, server, "Ann", "conquian-spanish", 2, ["random"])
    expect(page.locator("#hand button.card").first).to_have_attribute("aria-label", re.compile(" de "))
    create(page, server, "Ann", "conquian", 2, ["random"])
    expect(page.locator("#hand button.card").first).to_be_visible()
    assert page.locator("#spanish-suits").count() == 0
    assert " de " not in str(page.locator("#hand button.card").first.get_attribute("aria-label"))
    page.goto(server.url + "/")
    page.evaluate("() => localStorage.removeItem('conquian:pref:spanish-suits')")
    assert page.errors == []
