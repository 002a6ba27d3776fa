"""Playing together in a real browser (issue 24): the chat between two seats and a spectator (a
seat's line reaches everyone, a spectator's only the spectators and the host; an oversized line
refused in words; a reaction; the host mutes a spectator), the rematch's standings and first
dealer (R3.8, R4), the lobby's tables, the name and the matches this browser keeps.

Chromium through Playwright, as tests/test_web_browser.py; ``CONQUIAN_SCREENSHOTS=1`` writes
``docs/screenshots/web-chat-desktop.png``, ``web-chat-phone.png``, ``web-lobby.png``,
``web-lobby-history.png`` and ``web-match-end-standings.png``.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")
pytest.importorskip("axe_playwright_python")

from test_web_a11y import serious
from test_web_browser import browser, click_a_move, create, my_turn, new_page, server, shot  # noqa: F401
from web_server import Client, Server


def chat_text(page: Any) -> str:
    return str(page.inner_text("#chat-lines"))


def say(page: Any, text: str) -> None:
    if not page.locator("#chat-text").is_visible():  # a phone: the chat opens in a sheet over the table
        page.click("#sheet-chat")
    page.fill("#chat-text", text)
    page.click("#chat-send")


def take_seat(page: Any, seat: int, name: str) -> None:
    """Take a seat by the waiting table's form.  The page draws the table again at each message (who
    is connected comes a second after anyone arrives), and a name typed just before that was lost
    with the form's old box: so the name is typed again until the seat is taken."""
    for _ in range(5):
        page.fill(f"input[aria-label='name for seat {seat}']", name)
        if page.input_value(f"input[aria-label='name for seat {seat}']") != name:
            continue
        page.click(f".seat-row[data-seat='{seat}'] button.take")
        try:
            page.wait_for_selector("#hand", timeout=5000)
            return
        except Exception:
            if page.query_selector(f"input[aria-label='name for seat {seat}']") is None:
                raise
    raise AssertionError(f"seat {seat} was never taken")


def test_chat_between_two_seats_and_a_spectator(server: Server, browser: Any) -> None:  # noqa: F811
    ann = new_page(browser)
    table_id = create(ann, server, "Ann", seats=["open"])
    bea = new_page(browser, 390, 844)
    bea.goto(f"{server.url}/t/{table_id}")
    take_seat(bea, 2, "Bea")
    for p in (ann, bea):
        p.wait_for_selector("#hand")
    watcher = new_page(browser)
    watcher.goto(f"{server.url}/t/{table_id}")
    watcher.wait_for_selector("text=You are watching.")
    assert "players do not read it" in watcher.inner_text("#chat")
    # a seat's line reaches everyone, as text
    say(bea, "hola Ann <b>bold</b>")
    for p in (ann, bea, watcher):
        p.wait_for_selector("#chat-lines .chat-line:has-text('hola Ann')")
        assert "<b>bold</b>" in chat_text(p) and p.locator("#chat-lines b").count() == 0
    assert "Bea" in ann.inner_text("#chat-lines .chat-line") and "you" in bea.inner_text("#chat-lines .chat-line")
    # a reaction
    bea.click("#chat button[data-reaction='🔥']")
    ann.wait_for_selector("#chat-lines .chat-reaction[aria-label='fire']")
    # the host's tab that holds no seat (the host's link, without the seat's token) watches
    host_tab = new_page(browser)
    host_tab.goto(f"{server.url}/t/{table_id}")
    host_tab.evaluate("([id, h]) => localStorage.setItem(`conquian:host:${id}`, h)",
                      [table_id, ann.evaluate(f"localStorage.getItem('conquian:host:{table_id}')")])
    host_tab.reload()
    host_tab.wait_for_selector("text=You are watching.")
    # a spectator's line: the tabs that hold no seat read it, marked; no seated player does, the
    # seated host included (no coaching)
    say(watcher, "psst, discard the king")
    for p in (watcher, host_tab):
        p.wait_for_selector("#chat-lines .chat-spectators:has-text('psst')")
        assert "(spectators)" in p.inner_text("#chat-lines .chat-spectators")
    bea.wait_for_timeout(1500)
    assert "psst" not in chat_text(bea) and "psst" not in chat_text(ann)
    # an oversized line (past the box's own limit, as another client could send it): refused in words
    assert watcher.get_attribute("#chat-text", "maxlength") == "200"  # the server's limit, from its welcome
    watcher.evaluate("document.querySelector('#chat-text').removeAttribute('maxlength')")
    say(watcher, "x" * 201)
    watcher.wait_for_selector("#chat-error:has-text('at most 200 characters')")
    assert "x" * 201 not in chat_text(ann)
    shot(ann, "web-chat-desktop.png")
    shot(bea, "web-chat-phone.png")
    assert serious(ann) == [] and serious(bea) == [], "chat"
    # the host mutes the spectator from the tab that holds no seat: his lines are refused from then on
    host_tab.click("#chat-lines .chat-spectators button.chat-mute")
    watcher.wait_for_selector("#chat-error:has-text('muted')")
    assert watcher.locator("#chat-text").count() == 0
    host_tab.wait_for_selector("#chat-lines .chat-spectators .chat-muted")
    assert ann.errors == [] and bea.errors == [] and watcher.errors == [] and host_tab.errors == []
    for p in (ann, bea, watcher, host_tab):
        p.context.close()


def play_to_the_end(page: Any, rng: random.Random) -> None:
    """Click moves until the match is over (the other seat is a bot)."""
    for _ in range(600):
        if page.query_selector("#summary"):
            return
        if my_turn(page):
            click_a_move(page, rng)
        elif page.query_selector("#next-deal"):
            page.click("#next-deal")
            page.wait_for_timeout(200)
        else:
            page.wait_for_timeout(50)
    raise AssertionError("the match did not end")


def test_the_rematch_carries_the_standings_and_passes_the_deal(server: Server, browser: Any) -> None:  # noqa: F811
    page = new_page(browser)
    page.goto(server.url + "/")
    page.fill("#host-name", "Ann")
    page.select_option("#deals", "1")
    page.select_option("select[data-seat='2']", "foster")
    page.click("#create-table")
    page.wait_for_url("**/t/*")
    first_id = page.url.rsplit("/", 1)[-1]
    page.wait_for_selector("#board")
    first = server.get(f"/api/tables/{first_id}").json()
    dealer = first["deal"]["dealer"]
    names = [s["name"] for s in first["seats"]]
    rng = random.Random(11)
    play_to_the_end(page, rng)
    over = server.get(f"/api/tables/{first_id}").json()
    totals = over["scores"]["totals"]
    summary = page.inner_text("#summary")
    assert f"In the rematch {names[dealer % 2]} deals first" in summary and "R3.8" in summary
    assert "Standings" in summary and all(n in page.inner_text("#standings") for n in names)
    assert page.get_attribute("#replay-link", "href") == f"/r/{first_id}"
    page.click("#rematch")
    page.click("#rematch-link")
    page.wait_for_url(re.compile(r".*/t/(?!" + re.escape(first_id) + r"$).+"))
    second_id = page.url.rsplit("/", 1)[-1]
    page.wait_for_selector("#board")
    second = server.get(f"/api/tables/{second_id}").json()
    assert second["deal"]["dealer"] == dealer % 2 + 1  # R3.8: the deal passes to the left
    assert f"{names[dealer % 2]} dealt" in page.inner_text("#board")
    assert [s["total"] for s in second["standings"]] == [a + b for a, b in zip(totals, second["scores"]["totals"],
                                                                               strict=True)]
    if any(totals):  # a match with a winner: its totals carried, shown beside the new match's
        page.wait_for_selector("#standings-row")
    play_to_the_end(page, rng)
    final = server.get(f"/api/tables/{second_id}").json()
    both = [a + b for a, b in zip(totals, final["scores"]["totals"], strict=True)]
    assert [s["total"] for s in final["standings"]] == both
    assert f"In the rematch {names[dealer - 1]} deals first" in page.inner_text("#summary")
    shot(page, "web-match-end-standings.png")
    assert serious(page) == [], "match end"
    # this browser's matches, in the lobby: both, with their replays
    page.goto(server.url + "/")
    page.wait_for_selector("#history")
    items = page.locator("#history .history-item")
    assert items.count() >= 2
    assert items.first.get_attribute("data-table") == second_id
    assert "Ann" in items.first.inner_text() and "Foster" in items.first.inner_text()
    shot(page, "web-lobby-history.png")
    assert serious(page) == [], "lobby with this browser's matches"
    items.nth(1).locator("a.history-replay").click()
    page.wait_for_selector("#replay")
    assert page.url.endswith(f"/r/{first_id}")
    page.goto(server.url + "/")
    page.click("#history-forget")
    page.wait_for_selector("#history", state="detached")
    assert page.errors == []
    page.context.close()


def test_the_lobby_shows_the_game_the_seats_free_and_who_is_there(server: Server, browser: Any) -> None:  # noqa: F811
    t = server.create(variant="conquian-mexicano", players=3, host_name="Lola", name="Viernes",
                      seats=[{"kind": "open"}, {"kind": "open"}, {"kind": "foster"}])
    watching = Client(server, t["id"])
    page = new_page(browser)
    try:
        page.goto(server.url + "/")
        row = page.locator(f"#open-tables li[data-table='{t['id']}']")
        row.wait_for()
        text = row.inner_text()
        assert "Tercerilla: the conquián mexicano for three (3 players)" in text
        assert "Seated: Lola, Foster (bot)" in text and "1 seat free" in text and "1 watching" in text
        assert row.locator("a.join").get_attribute("href") == f"/t/{t['id']}"
        body = page.inner_text("body")
        assert "null" not in body and "undefined" not in body and "NaN" not in body
        shot(page, "web-lobby.png")
        assert serious(page) == [], "lobby"
    finally:
        watching.close()
    assert page.errors == []
    page.context.close()


def test_the_name_persists_after_a_reload(server: Server, browser: Any) -> None:  # noqa: F811
    page = new_page(browser)
    page.goto(server.url + "/")
    page.fill("#host-name", "Zoë")
    page.press("#host-name", "Tab")  # the change is kept
    page.reload()
    page.wait_for_selector("#create-table")
    assert page.input_value("#host-name") == "Zoë"
    # the seat's form at another's table is filled with it too
    t = server.create(variant="conquian", host_name="Ann", seats=[{"kind": "open"}, {"kind": "open"}])
    page.goto(f"{server.url}/t/{t['id']}")
    assert page.input_value("input[aria-label='name for seat 2']") == "Zoë"
    assert page.errors == []
    page.context.close()
