"""The web table's Learn section (issue 41): the lessons over HTTP with the same runner as the
terminal (the seat's view only, refusals naming the rule, nothing kept on the server), and a new
player completing the first lesson by taps only in Chromium at 390x844, in Spanish."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

import httpx

from conquian.engine.cards import card_str, cards_of
from conquian.engine.cooncan.deal import CooncanDeal
from conquian.i18n import translator
from conquian.learn.lessons import LESSONS
from conquian.learn.puzzles import daily_puzzle
from conquian.learn.runner import LessonRun
from conquian.present import symbols
from conquian.web.platform.learn.routes import learn_routes


class Client:
    """The Learn routes in process, over httpx's ASGI transport (the server keeps no state)."""

    def __init__(self) -> None:
        from starlette.applications import Starlette

        self.app = Starlette(routes=learn_routes())

    def request(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        async def go() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
                return await c.request(method, url, **kwargs)

        return asyncio.run(go())

    def get(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("POST", url, **kwargs)


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    yield Client()


def test_list_and_page_in_spanish(client: Client) -> None:
    data = client.get("/api/learn?lang=es").json()
    assert [d["key"] for d in data["lessons"]] == [les.key for les in LESSONS]
    assert data["lessons"][0]["title"] == translator("es").render(LESSONS[0].title)
    page = client.get("/learn", headers={"Accept-Language": "es-MX"}).text
    assert 'lang="es"' in page and "Aprende conquián" in page


def test_lesson_refuses_then_accepts(client: Client) -> None:
    les = LESSONS[0]
    state = client.post(f"/api/learn/{les.key}?lang=es", json={"moves": [], "move": "p1 pass"}).json()
    assert state["answer"]["accepted"] is False and state["answer"]["text"].startswith("R2.2 ")
    state = client.post(f"/api/learn/{les.key}?lang=es", json={"moves": [], "move": les.steps[0].expect[0]}).json()
    assert state["answer"]["accepted"] is True and state["step"] == 1


def test_seat_view_only(client: Client) -> None:
    """R3.3/R7: the page is sent the learner's own hand and the table, never another seat's cards."""
    for les in LESSONS:
        if les.rules().copies != 1:
            continue  # the double pack holds two of each card: a symbol does not tell whose it is
        state = client.post(f"/api/learn/{les.key}", json={"moves": []}).json()
        run = LessonRun(les)
        assert state["hand"] == [symbols(card_str(c)) for c in run.hand()]
        deal = run.deal
        hidden: set[int] = set()
        for seat in range(1, deal.rules.players + 1):
            if seat != les.seat:
                if isinstance(deal, CooncanDeal):
                    hidden |= set(deal.hand(seat))
                else:
                    hidden |= set(cards_of(deal.view(seat).hand_mask))
        assert hidden
        shown = " ".join(state["board"] + state["hand"] + [m["label"] for m in state["moves"]]).split()
        assert not {symbols(card_str(c)) for c in hidden} & set(shown), les.key


def test_bad_requests(client: Client) -> None:
    assert client.post("/api/learn/nosuch", json={}).status_code == 404
    assert client.post("/api/learn/say", content=b"[1]").status_code == 400
    assert client.post("/api/learn/say", json={"moves": ["p1 use 7c 7d 7h"]}).status_code == 400
    assert client.post("/api/learn/say", json={"moves": "x"}).status_code == 400


def test_puzzles_over_http(client: Client) -> None:
    from conquian.learn.puzzles import puzzles

    data = client.get("/api/puzzles?lang=es").json()
    assert [p["id"] for p in data["puzzles"]] == [p.id for p in puzzles()]
    assert data["daily"] in {p.id for p in puzzles()}
    p = puzzles()[0]
    state = client.post(f"/api/puzzles/{p.id}?lang=es", json={}).json()
    assert "result" not in state and p.answer in [m["move"] for m in state["moves"]]
    assert state["lines"][0].startswith("Tu adversario tiene ")  # the seat named as the table does (issue 54)
    right = client.post(f"/api/puzzles/{p.id}?lang=es", json={"move": p.answer}).json()
    assert right["result"]["right"] is True and right["result"]["text"].startswith("¡Correcto!")
    wrong = next(m["move"] for m in state["moves"] if m["move"] != p.answer)
    answer = client.post(f"/api/puzzles/{p.id}?lang=es", json={"move": wrong}).json()
    assert answer["result"]["right"] is False and "Tema:" in answer["result"]["text"]
    assert client.post(f"/api/puzzles/{p.id}", json={"move": "p1 nonsense"}).status_code == 400
    assert client.post("/api/puzzles/nosuch", json={}).status_code == 404


def test_chromium_first_lesson_by_taps_in_spanish(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    pytest.importorskip("playwright.sync_api")
    from playwright.sync_api import expect, sync_playwright

    from test_web_browser import ARGS, CHROMIUM
    from web_server import Server

    server = Server(f"sqlite:///{tmp_path / 'web.db'}", tmp_path).start()
    try:
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                page: Any = b.new_context(viewport={"width": 390, "height": 844}, locale="es-MX",
                                          has_touch=True, is_mobile=True).new_page()
                errors: list[str] = []
                page.on("pageerror", lambda e: errors.append(str(e)))
                # an account made on a first visit of its page: the Learn progress is kept in it too
                page.goto(server.url + "/account")
                for _ in range(50):
                    if any(c["name"] == "conquian_csrf" for c in page.context.cookies()):
                        break
                    page.wait_for_timeout(200)
                page.goto(server.url + "/")
                page.locator("#learn-link").tap()
                expect(page.locator("#path h1")).to_contain_text("Aprende conquián")
                page.locator(".lesson-button").first.tap()
                expect(page.locator("#l-title")).to_have_text(translator("es").render(LESSONS[0].title))
                # a wrong tap first: refused with its rule, in Spanish
                page.locator("#l-moves button[data-move='p1 pass']").tap()
                expect(page.locator("#l-answer")).to_contain_text("R2.2")
                for step in LESSONS[0].steps:
                    move = step.sample or step.expect[0]
                    page.locator(f"#l-moves button[data-move='{move}']").tap()
                expect(page.locator("#l-summary")).to_be_visible()
                expect(page.locator("#l-summary")).to_have_text(translator("es").render(LESSONS[0].summary))
                assert page.evaluate("document.documentElement.scrollWidth") <= 390
                page.locator("#l-back").tap()
                expect(page.locator(".lesson-button.done")).to_have_count(1)
                # the puzzle of the day, answered by a tap: the verdict, then why, in Spanish
                daily = daily_puzzle()
                page.locator("#puzzle-list button").first.tap()
                page.locator(f"#p-moves button[data-move='{daily.answer}']").tap()
                expect(page.locator("#p-result")).to_have_text("¡Correcto!")
                expect(page.locator("#p-why li").first).to_contain_text("Tema:")
                expect(page.locator("#p-why li")).to_have_count(1 + len(daily.reasons()))
                # signed in: the first answer is rated, the new puzzle rating and its change shown
                expect(page.locator("#p-rating")).to_contain_text("Tu puntuación en problemas: 1")
                rated = page.locator("#p-rating").inner_text()
                assert re.match(r"Tu puntuación en problemas: 1[.,\u00a0]?\d{3} \(\+\d+\) · "
                                r"puntuación de este problema: 1[.,\u00a0]?\d{3}$", rated), rated
                page.screenshot(path=str(tmp_path / "puzzle-es-390.png"), full_page=True)
                page.locator("#p-back").tap()
                expect(page.locator("#puzzle-list button.done")).to_have_count(1)
                expect(page.locator("#puzzle-rating")).to_have_text(rated.split(" · ", 1)[0])
                expect(page.locator("#puzzle-list button").first).to_contain_text("puntuación")
                # this browser's account (made on the first visit) keeps the progress too
                kept: Any = None
                for _ in range(50):  # the page keeps it in the background
                    kept = page.evaluate("() => fetch('/api/account/learn').then(r => r.json())")
                    if kept["puzzles"]:
                        break
                    page.wait_for_timeout(200)
                assert kept == {"lessons": [LESSONS[0].key], "puzzles": [daily.id]}
                assert page.evaluate("document.documentElement.scrollWidth") <= 390
                assert not errors
            finally:
                b.close()
    finally:
        server.stop()
