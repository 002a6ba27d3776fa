"""The accuracy of the reviews on a player's page in Chromium, in Spanish and in English: a rated
match played out over the API, one seat reviewed; its player's page shows the game's average
accuracy, how many matches it comes from, and the recent match's accuracy; the other player's page
shows none."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

sync_api = pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect  # noqa: E402

from test_web_browser import browser  # noqa: E402, F401 (browser: a fixture)
from test_web_ratings import play_out, signed_in  # noqa: E402
from test_web_review import review_server, review_until_done  # noqa: E402
from web_server import Client, Server  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = review_server(tmp_path_factory.mktemp("browser-accuracy"), 4)  # quick reviews
    yield s
    s.stop()


def test_the_player_page_shows_the_reviews_accuracy(server: Server, browser: Any) -> None:  # noqa: F811
    url = server.url
    lia, hl = signed_in(url, "Lia")
    max_, hm = signed_in(url, "Max")
    t = lia.post("/api/tables", json={"variant": "conquian", "rated": True, "deals": 1}, headers=hl).json()
    sl = lia.post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": "x"}, headers=hl).json()
    sm = max_.post(f"/api/tables/{t['id']}/sit", json={"seat": 2, "name": "x"}, headers=hm).json()
    play_out([Client(server, t["id"], sl["token"]), Client(server, t["id"], sm["token"])])
    figure = review_until_done(server, t["id"], 1)["review"]["summary"]["accuracy"]
    percent = round(figure * 100)
    assert httpx.get(url + "/api/players/Lia").json()["accuracy"]["conquian"]["reviewed"] == 1
    for locale, average, recent, one in (
            ("es-MX", f"Precisión promedio {percent}%, de 1 partida revisada", f"precisión {percent}%",
             "1 partida con puntuación · "),
            ("en-US", f"Average accuracy {percent}%, from 1 reviewed match", f"accuracy {percent}%",
             "1 rated match · ")):
        page = browser.new_context(locale=locale).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.goto(url + "/p/Lia")
        expect(page.locator(".player-game .accuracy")).to_have_text(average)
        expect(page.locator("#recent li").first).to_contain_text(recent)
        # one match: its count in the singular, and no chart of a single point
        expect(page.locator(".player-game p").first).to_contain_text(one)
        expect(page.locator(".rating-chart")).to_have_count(0)
        page.goto(url + "/p/Max")  # not reviewed: no accuracy
        expect(page.locator("#player-name")).to_have_text("Max")
        expect(page.locator(".player-game h2").first).to_be_visible()
        expect(page.locator(".accuracy")).to_have_count(0)
        expect(page.locator("#recent li").first).not_to_contain_text("%")
        assert not errors, errors
        page.context.close()
