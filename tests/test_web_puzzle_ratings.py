"""Puzzle ratings over a real server on 127.0.0.1: a signed-in player's first answer to a puzzle is
rated against the puzzle (his rating up when right, down when wrong, the puzzle's the other way), a
retry does not count, the server judges the move itself, a guest is not rated, CSRF is refused, and
the rating is on the player's page and the leaderboard."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from conquian.learn.puzzles import FOSTER_MISSES, puzzles, start_rating, starting_shown
from conquian.web.platform.ratings.service import shown
from web_server import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    tmp = tmp_path_factory.mktemp("puzzle-ratings")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp).start()
    yield s, tmp / "web.db"
    s.stop()


def visit(url: str, name: str | None = None) -> tuple[httpx.Client, str]:
    """A browser's first visit (and its chosen name): its client and its CSRF token."""
    c = httpx.Client(base_url=url, timeout=10)
    csrf = c.post("/api/account", json={}).json()["csrf"]
    if name:
        assert c.post("/api/account/name", json={"name": name}, headers={"X-CSRF-Token": csrf}).status_code == 200
    return c, csrf


def wrong_move(c: httpx.Client, puzzle_id: str, answer: str, csrf: str) -> str:
    """A listed move that is not the answer (asking for the puzzle rates nothing)."""
    moves: list[str] = [m["move"] for m in c.post(f"/api/puzzles/{puzzle_id}", json={},
                                       headers={"X-CSRF-Token": csrf}).json()["moves"]]
    return next(m for m in moves if m != answer)


def test_the_starting_rating_sits_between_the_anchors() -> None:
    """A puzzle foster misses and expert finds starts between their fitted ratings; harder is higher."""
    from conquian.bots.levels import fixed_rating

    foster, expert = fixed_rating("conquian", "foster"), fixed_rating("conquian", "expert")
    assert foster is not None and expert is not None
    mu, _sigma = start_rating(FOSTER_MISSES)
    assert foster["mu"] < mu < expert["mu"]
    assert foster["rating"] < starting_shown(FOSTER_MISSES) < expert["rating"]
    assert starting_shown(0.0) < foster["rating"] < starting_shown(FOSTER_MISSES) < starting_shown(1.0)


def test_first_answers_are_rated_and_retries_are_not(server: tuple[Server, Path]) -> None:
    s, db = server
    c, csrf = visit(s.url, "Puzzler")
    token = {"X-CSRF-Token": csrf}
    first, second = puzzles()[0], puzzles()[1]
    listing = c.get("/api/puzzles").json()
    assert listing["player"] == {"rating": 1500, "change": 0, "attempts": 0, "solved": 0, "attempted": []}
    start = {p["id"]: p["rating"] for p in listing["puzzles"]}
    assert start[first.id] == starting_shown(first.difficulty)

    right = c.post(f"/api/puzzles/{first.id}", json={"move": first.answer}, headers=token).json()
    assert right["result"]["right"] is True and right["rating"]["counted"] is True
    assert right["rating"]["change"] > 0 and right["rating"]["rating"] == 1500 + right["rating"]["change"]
    assert right["rating"]["puzzle"] < start[first.id]  # the puzzle lost
    up = right["rating"]["rating"]

    # a retry, right or wrong, changes nothing
    for move in (first.answer, wrong_move(c, first.id, first.answer, csrf)):
        again = c.post(f"/api/puzzles/{first.id}", json={"move": move}, headers=token).json()
        assert again["rating"] == {"counted": False, "seen": False, "rating": up, "change": 0,
                                   "puzzle": right["rating"]["puzzle"]}

    # the server judges the move: claiming a solve without the answer's move is a wrong answer
    miss = wrong_move(c, second.id, second.answer, csrf)
    bad = c.post(f"/api/puzzles/{second.id}", json={"move": "p1 nonsense", "right": True}, headers=token)
    assert bad.status_code == 400 and "rating" not in bad.json()
    wrong = c.post(f"/api/puzzles/{second.id}", json={"move": miss, "right": True, "result": {"right": True}},
                   headers=token).json()
    assert wrong["result"]["right"] is False and wrong["rating"]["counted"] is True
    assert wrong["rating"]["change"] < 0 and wrong["rating"]["rating"] == up + wrong["rating"]["change"]
    assert wrong["rating"]["puzzle"] > start[second.id]  # the puzzle won

    listing = c.get("/api/puzzles").json()
    assert listing["player"] == {"rating": wrong["rating"]["rating"], "change": wrong["rating"]["change"],
                                 "attempts": 2, "solved": 1,
                                 "attempted": sorted([first.id, second.id])}
    rated = {p["id"]: p["rating"] for p in listing["puzzles"]}
    assert rated[first.id] == right["rating"]["puzzle"] and rated[second.id] == wrong["rating"]["puzzle"]

    # the player's page and the leaderboard
    page = httpx.get(s.url + "/api/players/Puzzler").json()
    assert page["games"]["puzzles"]["rating"] == wrong["rating"]["rating"]
    assert page["games"]["puzzles"]["history"] == [up, wrong["rating"]["rating"]]
    assert page["games"]["puzzles"]["games"] == 2 and page["games"]["puzzles"]["wins"] == 1
    assert page["recent"] == []  # no rated match: puzzles are no replays
    board = httpx.get(s.url + "/api/leaderboard?game=puzzles").json()
    assert [(p["name"], p["rating"]) for p in board["players"]] == [("Puzzler", wrong["rating"]["rating"])]

    with sqlite3.connect(db) as conn:
        mu, sigma = conn.execute("SELECT mu, sigma FROM ratings WHERE game = 'puzzles'").fetchone()
        assert shown(mu, sigma) == wrong["rating"]["rating"]
        assert conn.execute("SELECT count(*) FROM puzzle_attempts").fetchone() == (2,)
    # deleting the account forgets its attempts and its rating; the puzzles keep theirs
    assert c.post("/api/account/delete", headers=token).status_code == 200
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM puzzle_attempts").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM ratings WHERE game = 'puzzles'").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM puzzle_ratings").fetchone() == (2,)


def test_guests_are_not_rated_and_csrf_is_refused(server: tuple[Server, Path]) -> None:
    s, db = server
    p = puzzles()[2]
    guest = httpx.Client(base_url=s.url, timeout=10)
    listing = guest.get("/api/puzzles").json()
    assert "player" not in listing and all(q["rating"] > 0 for q in listing["puzzles"])
    answer = guest.post(f"/api/puzzles/{p.id}", json={"move": p.answer}).json()
    assert answer["result"]["right"] is True and "rating" not in answer
    c, csrf = visit(s.url)
    for headers in ({}, {"X-CSRF-Token": "0" * 64}, {"X-CSRF-Token": csrf, "Origin": "https://evil.example"}):
        r = c.post(f"/api/puzzles/{p.id}", json={"move": p.answer}, headers=headers)
        assert r.status_code == 403 and r.json()["error"]["code"] == "csrf"
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM puzzle_attempts WHERE puzzle_id = ?", (p.id,)).fetchone() == (0,)
    # the refused requests did not use up the first attempt: the next one with the token counts
    ok = c.post(f"/api/puzzles/{p.id}", json={"move": p.answer}, headers={"X-CSRF-Token": csrf}).json()
    assert ok["rating"]["counted"] is True and ok["rating"]["change"] > 0


def test_player_page_and_leaderboard_show_the_puzzle_rating_in_chromium(server: tuple[Server, Path]) -> None:
    """A browser signs up, answers two puzzles from the puzzles page, and finds its puzzle rating
    on the puzzles page, its player page (with a point a rated answer) and the puzzles' leaderboard,
    in Spanish."""
    sync_api = pytest.importorskip("playwright.sync_api")
    from playwright.sync_api import expect

    from test_web_browser import ARGS, CHROMIUM

    s, _db = server
    first, second = puzzles()[3], puzzles()[4]
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page: Any = b.new_context(locale="es-MX").new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(s.url + "/account")
            page.fill("#name", "Lucía")
            page.click("#name-form button[type=submit]")
            expect(page.locator("#account-name")).to_contain_text("Lucía")
            page.goto(s.url + "/learn#puzzle-" + first.id)
            page.locator(f"#p-moves button[data-move='{first.answer}']").click()
            expect(page.locator("#p-rating")).to_contain_text("Tu puntuación en problemas:")
            page.locator("#p-back").click()
            page.locator(f"#puzzle-list button[data-puzzle='{second.id}']").click()
            buttons = page.locator("#p-moves button").all()
            miss = next(m for m in buttons if m.get_attribute("data-move") != second.answer)
            miss.click()
            expect(page.locator("#p-result")).to_contain_text("Esta vez no")
            rated = page.locator("#p-rating").inner_text()
            assert "(\u2212" in rated, rated  # down after a wrong answer
            mine = httpx.get(s.url + "/api/players/Lucía").json()["games"]["puzzles"]
            page.goto(s.url + "/p/Lucía")
            section = page.locator(".player-game", has_text="Problemas")
            expect(section).to_contain_text(f"Puntuación {mine['rating']:,} · 2 problemas puntuados · 1 resuelto")
            expect(section.locator(".rating-chart circle")).to_have_count(2)
            page.goto(s.url + "/leaderboard?game=puzzles")
            expect(page.locator("#game")).to_have_value("puzzles")
            expect(page.locator("#leaderboard")).to_contain_text("Lucía")
            assert not errors
        finally:
            b.close()
