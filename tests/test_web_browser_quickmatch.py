"""Quick match in Chromium on phones (390x844), one in English and one in Spanish: each chooses a
name and "Play now" for a two-player conquian match in the lobby, waits (the clock, the rating
window, a cancel button), is paired with the other and sent to the table; the match (one deal:
``--quick-deals 1``) is played by clicks on both phones, both pages show its end, and both
ratings move on the leaderboard.  Then a player alone has bots fill the empty seat after the wait
(``--quick-bot-after 2``) in a casual match, and the create-table form makes a rated table with its host seated
from his account."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

sync_api = pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect  # noqa: E402

from conquian.bots.levels import level_for  # noqa: E402
from test_web_browser import browser, click_a_move, my_turn, shot  # noqa: E402, F401 (browser: a fixture)
from web_server import Server  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("browser-quick")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp,
               extra=("--log-level", "warning", "--quick-bot-after", "2", "--quick-deals", "1")).start()
    yield s
    s.stop()


#: Each phone's own address (X-Forwarded-For, trusted from loopback): one address is never paired
#: with itself for a rated match.
PHONES = iter(range(1, 255))


def phone(browser: Any, locale: str) -> Any:  # noqa: F811
    page = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale,
                               extra_http_headers={"X-Forwarded-For": f"192.0.2.{next(PHONES)}"}).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.set_default_timeout(20_000)
    return page


def play_now(page: Any, server: Server, name: str, players: int = 2, game: str = "conquian",
             rated: bool = True) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#quick-form")
    page.select_option("#quick-game", game)
    page.select_option("#quick-players", str(players))
    page.select_option("#quick-rated", "1" if rated else "")
    page.fill("#quick-name", name)
    page.click("#quick-play")


def seat_token(page: Any, table_id: str) -> str:
    return str(page.evaluate(f"() => localStorage.getItem('conquian:seat:{table_id}')"))


def test_two_phones_are_paired_play_and_both_ratings_move(server: Server, browser: Any) -> None:  # noqa: F811
    from test_web_ratings import board

    ann = phone(browser, "en-US")
    bea = phone(browser, "es-MX")
    bea.goto(server.url + "/")
    expect(bea.locator("#quick-title")).to_have_text("Jugar ya")
    shot(bea, "es-phone-quick-choose.png")
    play_now(ann, server, "Ann")
    expect(ann.locator("#quick-waiting")).to_be_visible()
    expect(ann.locator("#quick-waited")).to_contain_text("Waiting 0:0")
    # a newcomer: 1,500, provisional ("?"), where foster is
    expect(ann.locator("#quick-window")).to_contain_text("Your rating 1,500?; players from 1,400 to 1,600")
    # she cancels, then plays again (a reload finds her in the queue)
    ann.click("#quick-cancel")
    expect(ann.locator("#quick-form")).to_be_visible()
    ann.click("#quick-play")
    expect(ann.locator("#quick-waiting")).to_be_visible()
    ann.reload()
    expect(ann.locator("#quick-waiting")).to_be_visible()
    expect(ann.locator("#quick-waited")).not_to_contain_text("0:00")  # the clock runs
    play_now(bea, server, "Bea")
    for page in (ann, bea):
        page.wait_for_url("**/t/*")
        page.wait_for_selector("#board")
    table_id = ann.url.rsplit("/", 1)[-1]
    assert bea.url.rsplit("/", 1)[-1] == table_id
    shot(bea, "es-phone-quick-table.png")
    table = httpx.get(server.url + f"/api/tables/{table_id}").json()
    assert sorted(s["name"] for s in table["seats"]) == ["Ann", "Bea"] and table["status"] == "playing"
    # the match played by clicks on both phones, to its end
    rng = random.Random(7)
    for _ in range(600):
        if ann.get_attribute("#board", "data-over"):
            break
        for page in (ann, bea):
            if my_turn(page):
                click_a_move(page, rng)
                break
        else:
            ann.wait_for_timeout(50)
    for page in (ann, bea):
        page.wait_for_selector("#board[data-over]", timeout=30_000)
    rows: dict[str, Any] = {}
    for _ in range(100):
        rows = board(server.url)
        if "Ann" in rows and "Bea" in rows:
            break
        bea.wait_for_timeout(100)
    assert rows["Ann"]["games"] == rows["Bea"]["games"] == 1
    bea.goto(server.url + "/leaderboard?game=conquian")
    for row in bea.locator("#leaderboard tbody tr.person").all():
        assert row.locator("td").nth(2).inner_text().endswith("?")  # both provisional after one match
    expect(bea.locator("#provisional-note")).to_contain_text("menos de 10 partidas")
    assert ann.errors == [] and bea.errors == []
    ann.context.close()
    bea.context.close()


def test_alone_bots_fill_the_seat_after_the_wait(server: Server, browser: Any) -> None:  # noqa: F811
    cleo = phone(browser, "es-MX")
    play_now(cleo, server, "Cleo", players=3, game="cooncan", rated=False)
    expect(cleo.locator("#quick-waiting")).to_contain_text("Buscando jugadores")
    expect(cleo.locator("#quick-waiting")).to_contain_text("partida amistosa")
    expect(cleo.locator("#quick-bots-in")).to_be_visible()
    shot(cleo, "es-phone-quick-waiting.png")
    expect(cleo.locator("#quick-fill")).to_be_visible(timeout=10_000)  # after the wait
    shot(cleo, "es-phone-quick-fill.png")
    cleo.click("#quick-fill")
    cleo.wait_for_url("**/t/*")
    cleo.wait_for_selector("#hand")
    table = httpx.get(server.url + f"/api/tables/{cleo.url.rsplit('/', 1)[-1]}").json()
    # a newcomer (shown 1,500) gets the fitted level nearest his rating: foster, the anchor
    level = level_for("cooncan", 1500)
    assert level == "foster"
    assert sorted(s["kind"] for s in table["seats"]) == [level, level, "human"]
    assert table["public"] is False  # casual: its players' only
    assert cleo.errors == []
    cleo.context.close()


def test_a_rated_table_from_the_form(server: Server, browser: Any) -> None:  # noqa: F811
    dan = phone(browser, "en-US")
    play_now(dan, server, "Dan")  # his name chosen on the way
    dan.click("#quick-cancel")
    dan.fill("#host-name", "whatever")
    dan.select_option("#rated", "1")
    expect(dan.locator("#public")).to_be_disabled()
    dan.click("#create-table")
    dan.wait_for_url("**/t/*")
    table_id = dan.url.rsplit("/", 1)[-1]
    seats = httpx.get(server.url + f"/api/tables/{table_id}").json()["seats"]
    assert seats[0]["name"] == "Dan" and seats[0]["kind"] == "human"
    assert seat_token(dan, table_id) not in ("", "None")
    assert dan.errors == []
    dan.context.close()


def test_a_wait_ended_while_away_is_told(server: Server, browser: Any) -> None:  # noqa: F811
    """The server took the player out of the queue (his page was away too long: a phone put
    away): when the page asks again it says so, in his language, and offers Play now again."""
    import sqlite3

    eva = phone(browser, "es-MX")
    play_now(eva, server, "Evangelina", game="conquian-spanish")
    expect(eva.locator("#quick-waiting")).to_be_visible()
    with sqlite3.connect(server.tmp / "web.db") as conn:  # as the pairing round does with a page gone
        conn.execute("DELETE FROM quick_queue WHERE account_id IN (SELECT id FROM accounts WHERE name = ?)",
                     ("Evangelina",))
    expect(eva.locator("#quick-gone")).to_contain_text("Ya no estás esperando")
    expect(eva.locator("#quick-play")).to_be_visible()
    shot(eva, "es-phone-quick-gone.png")
    assert eva.errors == []
    eva.context.close()
