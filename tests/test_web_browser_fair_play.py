"""The fair-play rules in a real browser (Debian's Chromium driven by Playwright): at a rated
table the player to act is offered no hint, and the line that took its place says why, in his
language; the move clock counts down; a casual table keeps its **Hint** button."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect

from test_web_browser import ARGS, CHROMIUM, browser  # noqa: F401
from test_web_ratings import signed_in
from web_server import Server

_ = ARGS, CHROMIUM  # the same browser as the other browser tests


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("browser-fair")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp, extra=("--log-level", "warning", "--rated-clock", "300")).start()
    yield s
    s.stop()


def page_in(browser: Any, locale: str) -> Any:  # noqa: F811
    page = browser.new_context(viewport={"width": 1200, "height": 850}, locale=locale).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.set_default_timeout(20_000)
    return page


def table_against_random(server: Server, owner: httpx.Client | None, headers: dict[str, str], rated: bool,
                         ) -> tuple[str, str]:
    """A table of Ann against ``random`` (rated: made and sat at from her account): its id and her token."""
    if rated:
        assert owner is not None
        t = owner.post("/api/tables", json={"variant": "conquian", "rated": True}, headers=headers).json()
        token = owner.post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": "x"}, headers=headers).json()["token"]
        r = httpx.post(server.url + f"/api/tables/{t['id']}/bot", json={"seat": 2, "bot": "random", "host": t["host"]})
        assert r.status_code == 200, r.text
        return str(t["id"]), str(token)
    t = server.create(variant="conquian", host_name="Cass", seats=[{"kind": "open"}, {"kind": "random"}])
    return str(t["id"]), str(t["token"])


@pytest.mark.parametrize("locale,words", [("en-US", "No hints at rated tables: fair-play rules"),
                                          ("es-MX", "No hay pistas en las mesas con puntuación: reglas de juego "
                                                    "limpio")])
def test_no_hint_button_at_a_rated_table_and_the_reason_shown(server: Server, browser: Any,  # noqa: F811
                                                               locale: str, words: str) -> None:
    owner, headers = signed_in(server.url, "Ann" if locale == "en-US" else "Ana")
    table_id, token = table_against_random(server, owner, headers, rated=True)
    page = page_in(browser, locale)
    page.goto(f"{server.url}/t/{table_id}#seat={token}")
    expect(page.locator("#no-hint")).to_have_text(words)
    expect(page.locator("#hint-button")).to_have_count(0)
    expect(page.locator("#countdown")).not_to_be_empty()  # the move clock, counting down
    assert not page.errors, page.errors
    page.context.close()


def test_a_casual_table_keeps_its_hint(server: Server, browser: Any) -> None:  # noqa: F811
    table_id, token = table_against_random(server, None, {}, rated=False)
    page = page_in(browser, "en-US")
    page.goto(f"{server.url}/t/{table_id}#seat={token}")
    expect(page.locator("#hint-button")).to_be_visible()
    expect(page.locator("#no-hint")).to_have_count(0)
    assert not page.errors, page.errors
    page.context.close()
