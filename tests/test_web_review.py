"""The review of a seat's decisions on the web replay page (docs/review.md, "In the browser"):
``POST``/``GET /api/tables/{id}/review`` against the real server on 127.0.0.1 (refused before the
match is over, progress then the review, a second look from the cache without a job, refusals in
words), the limit of one review at a time, each decision found at its replay position in every
form, and the page in Chromium (the marks along the deal, a click on one jumps the replay to the
decision and shows its choices; in English and in Spanish; axe-core finds nothing serious).

The server reviews with 16 playouts a choice (``CONQUIAN_REVIEW_PLAYOUTS``), to be quick.
``CONQUIAN_SCREENSHOTS=1`` writes ``docs/screenshots/review-*.png``.
"""

from __future__ import annotations

import math
import os
import random
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")

from conquian import Match, get_rules
from conquian.bots.foster import FosterBot
from conquian.engine.record import record_from_match, write_record
from conquian.i18n import Msg, translator
from conquian.review import move_words, review_text
from conquian.web import review_jobs
from conquian.web.replay import replay_frames
from conquian.web.review_jobs import ReviewBusy, Reviews
from web_server import Client, Server

PLAYOUTS = 16


def review_server(tmp: Path, playouts: int) -> Server:
    """A server started on ``tmp`` whose reviews search ``playouts`` playouts a decision (the
    server's environment is this process's, set for its start only)."""
    before = os.environ.get(review_jobs.PLAYOUTS_ENV)
    os.environ[review_jobs.PLAYOUTS_ENV] = str(playouts)
    try:
        return Server(f"sqlite:///{tmp / 'web.db'}", tmp).start()
    finally:
        if before is None:
            del os.environ[review_jobs.PLAYOUTS_ENV]
        else:
            os.environ[review_jobs.PLAYOUTS_ENV] = before


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = review_server(tmp_path_factory.mktemp("review"), PLAYOUTS)
    yield s
    s.stop()


def play_out(server: Server, table: dict[str, Any], seed: int = 5) -> None:
    """The person's moves at seat 1, at random through the protocol, until the match is over."""
    rng = random.Random(seed)
    c = Client(server, table["id"], table["token"])
    try:
        for _ in range(2000):
            t = c.table
            if t["status"] == "over":
                return
            if t["deal"] and not t["deal"]["over"] and t["deal"]["to_act"] == 1 and t.get("legal"):
                c.act(rng.choice(t["legal"]))
            c.wait_table(lambda x, s=t["state"]: x["state"] > s or x["status"] == "over")
        raise AssertionError("the match did not end")
    finally:
        c.close()


@pytest.fixture(scope="module")
def finished(server: Server) -> dict[str, Any]:
    """A match of one deal of conquian (a set deal), Ann at random against foster, over; a public
    table's, which anyone may review (a casual one's is its players': tests/test_web_hosting.py)."""
    t = server.create(variant="conquian", host_name="Ann", deals=1, set_deal=True, seed=22, public=True,
                      seats=[{"kind": "open"}, {"kind": "foster"}])
    play_out(server, t)
    return t


def review_until_done(server: Server, table_id: str, seat: int, deal: int = 1) -> dict[str, Any]:
    """POST the review, then GET it until it is done; the answers on the way are kept in ``seen``."""
    first = server.post(f"/api/tables/{table_id}/review", {"seat": seat, "deal": deal})
    seen = [first.json()]
    assert first.status_code in (200, 202), first.text
    answer = first.json()
    for _ in range(600):
        if answer["status"] == "done":
            break
        time.sleep(0.1)
        r = server.get(f"/api/tables/{table_id}/review?seat={seat}&deal={deal}")
        assert r.status_code in (200, 202), r.text
        answer = r.json()
        seen.append(answer)
    assert answer["status"] == "done", answer
    answer["seen"] = seen
    return answer


# ---------------------------------------------------------------------------- the HTTP API
def test_a_review_is_refused_until_the_match_is_over(server: Server) -> None:
    t = server.create(variant="conquian", host_name="Ann", deals=1, seats=[{"kind": "open"}, {"kind": "foster"}])
    for lang, words in (("en", "a match can be reviewed once it is over"),
                        ("es", translator("es").gettext("a match can be reviewed once it is over"))):
        r = server.post(f"/api/tables/{t['id']}/review?lang={lang}", {"seat": 1})
        assert r.status_code == 409 and r.json()["error"] == {"code": "not_over", "rule": None, "message": words}
        g = server.get(f"/api/tables/{t['id']}/review?seat=1&lang={lang}")
        assert g.status_code == 409 and g.json()["error"]["message"] == words
    assert words != "a match can be reviewed once it is over"
    r = server.post("/api/tables/nosuchtable/review", {"seat": 1})
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_table"


def test_progress_then_the_review_then_the_cache(server: Server, finished: dict[str, Any]) -> None:
    tid = finished["id"]
    done = review_until_done(server, tid, 1)
    first = done["seen"][0]
    assert first["status"] == "running" and first["done"] == 0 and first["total"] >= 1
    assert first["playouts"] == PLAYOUTS and first["seat"] == 1 and first["deal"] == 1
    assert all(a["status"] == "running" and 0 <= a["done"] <= a["total"] for a in done["seen"][:-1])
    assert done["cached"] is False
    rv = done["review"]
    assert rv["seat"] == "p1" and rv["deal"] == 1 and rv["playouts"] == PLAYOUTS and rv["variant"] == "conquian"
    assert len(rv["decisions"]) == first["total"]
    assert sum(rv["summary"]["counts"].values()) == len(rv["decisions"])
    assert done["words"]["marks"] == {"good": "good", "inaccuracy": "inaccuracy", "mistake": "mistake",
                                      "blunder": "blunder"}
    assert done["words"]["report"].startswith("Conquián, deal 1, Player 1: ")  # no preset or seat code (issue 54)
    # a second look is the review made, at once: no job
    again = server.post(f"/api/tables/{tid}/review", {"seat": 1})
    assert again.status_code == 200 and again.json()["cached"] is True and again.json()["review"] == rv
    look = server.get(f"/api/tables/{tid}/review?seat=1&deal=1")
    assert look.status_code == 200 and look.json()["cached"] is True and look.json()["review"] == rv
    # fewer playouts is another review, not begun until asked for
    fewer = server.get(f"/api/tables/{tid}/review?seat=1&deal=1&playouts=4").json()
    assert fewer == {"status": "none", "seat": 1, "deal": 1, "playouts": 4}
    # every decision is at its place in the replay: the frame before it, and the move made after it
    frames = server.get(f"/api/tables/{tid}/replay").json()["frames"]
    at = {(f["deal_number"], f["step"]): f for f in frames}
    for d in rv["decisions"]:
        assert at[(1, d["action_index"])]["action"] == d["played"]
        assert at[(1, d["action_index"] - 1)]["deal"]["to_act"] == 1


def test_the_review_in_spanish_has_the_same_numbers(server: Server, finished: dict[str, Any]) -> None:
    tid = finished["id"]
    review_until_done(server, tid, 2)
    en = server.get(f"/api/tables/{tid}/review?seat=2&lang=en").json()
    es = server.get(f"/api/tables/{tid}/review?seat=2&lang=es").json()
    assert en["review"] == es["review"] and en["review"]["seat"] == "p2"
    tr = translator("es")
    assert es["words"]["marks"] == {m: tr.gettext(m) for m in ("good", "inaccuracy", "mistake", "blunder")}
    assert es["words"]["marks"]["blunder"] != "blunder"
    assert es["words"]["report"] != en["words"]["report"]



def test_the_replay_and_the_review_give_their_moves_in_words(server: Server, finished: dict[str, Any]) -> None:
    """The page reads no notation: the replay's ``moves`` (one a frame) and the review's
    ``words.moves`` (by the notation the review keeps) are the server's words in the reader's language."""
    tid = finished["id"]
    en, es = (server.get(f"/api/tables/{tid}/replay?lang={lang}").json() for lang in ("en", "es"))
    assert en["frames"] == es["frames"] and len(en["moves"]) == len(en["frames"])
    for frame, said_en, said_es in zip(en["frames"], en["moves"], es["moves"], strict=True):
        assert (frame["action"] is None) == (said_en is None) == (said_es is None)
    passes = [k for k, f in enumerate(en["frames"]) if f["action"] and f["action"].split()[1] == "pass"]
    assert passes and all(en["moves"][k]["words"].endswith(": pass") for k in passes)
    assert all(es["moves"][k]["words"].endswith(": " + translator("es").gettext("pass")) for k in passes)
    review = review_until_done(server, tid, 1)
    rv, moves = review["review"], review["words"]["moves"]
    named = {a for d in rv["decisions"]
             for a in (d["played"], d["best"], d["foster"], *(c["action"] for c in d["candidates"]))}
    assert set(moves) == named
    # as the replay says the move played: "Ann: pass", the table's words
    said = {f["action"]: m["words"] for f, m in zip(en["frames"], en["moves"], strict=True) if f["action"]}
    for d in rv["decisions"]:
        assert moves[d["played"]]["words"] == said[d["played"]]
    assert all(moves[a]["words"] == "Ann: " + move_words(a, translator("en"), "conquian") for a in named
               if a.split()[1] in ("pass", "draw", "discard"))


@pytest.mark.parametrize(("ask", "code"), [
    ({"seat": 3}, "bad_request"), ({"seat": 1, "deal": 2}, "bad_request"), ({"seat": 0}, "bad_message"),
    ({"seat": 1, "playouts": 0}, "bad_message"), ({"seat": 1, "color": "red"}, "bad_message"),
    ({"deal": 1}, "bad_message"), ({"seat": "p1"}, "bad_message"),
])
def test_a_bad_ask_is_refused_in_words(server: Server, finished: dict[str, Any], ask: dict[str, Any],
                                       code: str) -> None:
    r = server.post(f"/api/tables/{finished['id']}/review", ask)
    assert r.status_code == 400, r.text
    err = r.json()["error"]
    assert err["code"] == code and "\n" not in err["message"] and "Traceback" not in r.text
    if ask.get("seat") == 3:
        assert err["message"] == "no seat p3: the record has p1 to p2"
        es = server.post(f"/api/tables/{finished['id']}/review?lang=es", ask).json()["error"]["message"]
        assert es == translator("es").render(Msg("no seat p{seat}: the record has p1 to p{n}",
                                                             seat=3, n=2))


def test_a_bad_query_and_a_body_that_is_not_json_are_refused(server: Server, finished: dict[str, Any]) -> None:
    for query in ("seat=x", "seat=1&deal=-1", "deal=1", "seat=99999999999"):
        r = server.get(f"/api/tables/{finished['id']}/review?{query}")
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_message", (query, r.text)
    import httpx

    r = httpx.post(f"{server.url}/api/tables/{finished['id']}/review", content=b"seat=1", timeout=10,
                   headers={"Content-Type": "text/plain"})
    assert r.status_code == 415 and r.json()["error"]["code"] == "not_json"


# ---------------------------------------------------------------------------- the limits
def record_text(seed: int = 22) -> str:
    m = Match(get_rules("conquian"), ["Ann", "Bob"])
    d = m.new_deal(seed=seed)
    bots = {1: FosterBot(1), 2: FosterBot(2)}
    while not d.over:
        d.play(bots[d.to_act].choose(d.view(d.to_act)))
    return write_record(record_from_match(m))


def test_one_review_runs_at_a_time_and_a_second_look_is_the_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    reviews = Reviews(jobs=1, workers=1, playouts=2, cache_size=1)
    go = threading.Event()
    real = reviews._run

    def held(key: str, job: review_jobs.Job, text: str) -> None:
        go.wait(30)
        real(key, job, text)

    monkeypatch.setattr(reviews, "_run", held)
    text, en = record_text(), translator("en")
    status, first = reviews.ask(text, 1, 1, None, en, start=True)
    assert status == 202 and first["status"] == "running" and first["playouts"] == 2
    assert reviews.ask(text, 1, 1, None, en, start=True)[0] == 202  # the same review: the same job
    with pytest.raises(ReviewBusy) as busy:
        reviews.ask(text, 2, 1, None, en, start=True)
    assert busy.value.code == "review_busy" and "another deal" in busy.value.render(en)
    assert reviews.ask(text, 2, 1, None, en, start=False) == (200, {"status": "none", "seat": 2, "deal": 1,
                                                                    "playouts": 2})
    go.set()
    for _ in range(300):
        status, answer = reviews.ask(text, 1, 1, None, en, start=False)
        if answer["status"] == "done":
            break
        time.sleep(0.05)
    assert answer["status"] == "done" and answer["cached"] is False
    assert reviews.ask(text, 1, 1, None, en, start=False)[1]["cached"] is True
    # the cache holds the last reviews made (here one)
    status, _ = reviews.ask(text, 2, 1, None, en, start=True)
    assert status == 202
    for _ in range(300):
        if reviews.ask(text, 2, 1, None, en, start=False)[1]["status"] == "done":
            break
        time.sleep(0.05)
    assert list(reviews.cache) and reviews.ask(text, 1, 1, None, en, start=False)[1]["status"] == "none"


def test_a_server_that_reviews_nothing_says_so(tmp_path: Path) -> None:
    os.environ[review_jobs.JOBS_ENV] = "0"
    try:
        s = Server(f"sqlite:///{tmp_path / 'web.db'}", tmp_path).start()
    finally:
        del os.environ[review_jobs.JOBS_ENV]
    try:
        t = s.create(variant="conquian", deals=1, public=True, seats=[{"kind": "foster"}, {"kind": "foster"}])
        for _ in range(300):
            if s.get(f"/api/tables/{t['id']}").json()["status"] == "over":
                break
            time.sleep(0.1)
        r = s.post(f"/api/tables/{t['id']}/review", {"seat": 1})
        assert r.status_code == 503 and r.headers["retry-after"] == str(review_jobs.RETRY_AFTER)
        assert r.json()["error"] == {"code": "review_busy", "rule": None,
                                     "message": "this server does not review deals"}
    finally:
        s.stop()


@pytest.mark.parametrize(("variant", "players"), [("conquian", 3), ("conquian-mexicano", 2),
                                                  ("conquian-mexicano", 3), ("cooncan", 2), ("cooncan-double", 3)])
def test_every_decision_is_at_its_place_in_the_replay(variant: str, players: int) -> None:
    """In every form, the decision with ``action_index`` j is taken at the replay's step j - 1 of
    its deal (the seat to act there) and its move is step j's action: what the page's marks jump to."""
    m = Match(get_rules(variant, players=players), [f"P{k}" for k in range(1, players + 1)])
    for k in range(2):
        d = m.new_deal(seed=11 + k)
        bots = {s: FosterBot(s) for s in range(1, players + 1)}
        while not d.over:
            d.play(bots[d.to_act].choose(d.view(d.to_act)))
        m.settle()
    text = write_record(record_from_match(m))
    at = {(f["deal_number"], f["step"]): f for f in replay_frames(m)}
    reviewed = 0
    for deal in (1, 2):
        for seat in range(1, players + 1):
            for d in review_text(text, seat, deal, playouts=1).decisions:
                assert at[(deal, d.action_index)]["action"] == d.played
                before = at[(deal, d.action_index - 1)]["deal"]
                assert before.get("to_act") in (seat, None)  # None: the exchange, every seat giving at once
                reviewed += 1
    assert reviewed > 0


# ---------------------------------------------------------------------------- the page
pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect  # noqa: E402

from test_web_browser import browser, new_page, shot  # noqa: E402, F401 (browser: a fixture)


def pct(x: float) -> int:
    """A chance in percent as the page writes it (JavaScript's ``Math.round``: halves up)."""
    return math.floor(x * 100 + 0.5)


def review_on_the_page(page: Any, server: Server, table_id: str, seat: int) -> None:
    page.goto(f"{server.url}/r/{table_id}")
    page.wait_for_selector("#review-start")
    page.select_option("#review-seat", str(seat))
    page.click("#review-start")
    page.wait_for_selector(".timeline button.mark", timeout=120_000)


def read_back(shown: str) -> str:
    """A move of the review as the page shows it ("Ann: discard A♦"), read back into the notation
    (``p1 discard Ad``): the words a person reads, the same move."""
    from conquian.engine.actions import parse_action
    from conquian.typed import notation_of

    who, _, move = shown.partition(": ")
    assert who == "Ann", shown
    return str(parse_action("p1 " + notation_of(move, "conquian", [{"Ann"}, {"Foster"}])))


def test_the_marks_on_the_timeline_jump_to_their_decisions(server: Server, browser: Any,  # noqa: F811
                                                           finished: dict[str, Any]) -> None:
    tid = finished["id"]
    rv = review_until_done(server, tid, 1)["review"]  # made before: the page has it at once
    page = new_page(browser)
    review_on_the_page(page, server, tid, 1)
    marks = page.locator(".timeline button.mark")
    assert marks.count() == len(rv["decisions"])
    assert [marks.nth(k).get_attribute("data-mark") for k in range(marks.count())] == \
        [d["mark"] for d in rv["decisions"]]
    expect(page.locator("#review-accuracy")).to_contain_text(f"Ann's accuracy: "
                                                             f"{pct(rv['summary']['accuracy'])}%")
    # each mark is named in words, not by its colour alone
    for k, d in enumerate(rv["decisions"]):
        expect(marks.nth(k)).to_have_accessible_name(re.compile(
            rf"^decision {d['number']}, step {d['action_index'] - 1}: Ann: .*, {d['mark']}$"))
        assert marks.nth(k).inner_text().strip().startswith({"good": "", "inaccuracy": "?!", "mistake": "?",
                                                              "blunder": "??"}[d["mark"]])
    # the costliest decision, clicked: the replay is where it was taken, and its choices are shown
    worst = max(rv["decisions"], key=lambda d: (d["cost"], -d["number"]))
    page.click(f"#mark-{worst['number']}")
    expect(page.locator("#step")).to_contain_text(f"step {worst['action_index'] - 1} ")
    expect(page.locator(f"#mark-{worst['number']}")).to_have_attribute("aria-current", "step")
    panel = page.locator("#review-decision")
    expect(panel).to_contain_text(f"Decision {worst['number']} of {len(rv['decisions'])}")
    assert panel.locator("table.choices tr").count() == len(worst["candidates"]) + 1
    assert read_back(panel.locator("tr.played td.move").inner_text()) == worst["played"]
    assert read_back(panel.locator("tr.best td.move").inner_text()) == worst["best"]
    best = next(c for c in worst["candidates"] if c["action"] == worst["best"])
    expect(panel.locator("tr.best")).to_contain_text(f"{pct(best['win'])}%")
    if worst["best"] != worst["played"]:
        expect(page.locator("#review-verdict")).to_contain_text(f"cost {pct(worst['cost'])}% of a win")
    assert (page.locator("#review-foster").count() == 1) == worst["foster_differs"]
    shot(page, "review-desktop.png")
    # forward: the move made is the step's action
    page.click("#forward")
    assert read_back(page.locator("#replay-action").inner_text()) == worst["played"]
    # by the keyboard: a mark takes the focus and Enter jumps; the focus stays on the mark
    first = rv["decisions"][0]
    page.focus(f"#mark-{first['number']}")
    page.keyboard.press("Enter")
    expect(page.locator("#step")).to_contain_text(f"step {first['action_index'] - 1} ")
    assert page.evaluate("document.activeElement.id") == f"mark-{first['number']}"
    # a turning point is a way to its decision too
    if rv["summary"]["turning_points"]:
        n = rv["summary"]["turning_points"][0]
        d = next(x for x in rv["decisions"] if x["number"] == n)
        page.click(f"#turning-{n}")
        expect(page.locator("#step")).to_contain_text(f"step {d['action_index'] - 1} ")
    page.set_viewport_size({"width": 390, "height": 844})
    page.click(f"#mark-{worst['number']}")
    shot(page, "review-phone.png")
    assert page.errors == []
    page.context.close()


def test_the_page_shows_the_progress_then_the_marks(server: Server, browser: Any) -> None:  # noqa: F811
    t = server.create(variant="conquian", host_name="Ann", deals=1, set_deal=True, seed=45, public=True,
                      seats=[{"kind": "open"}, {"kind": "foster"}])
    play_out(server, t, seed=9)
    page = new_page(browser)
    page.goto(f"{server.url}/r/{t['id']}")
    page.wait_for_selector("#review-start")
    page.select_option("#review-seat", "2")
    page.click("#review-start")
    # the progress bar, while the server works (at once if it was quick)
    page.wait_for_selector("#review-progress, .timeline button.mark")
    page.wait_for_selector(".timeline button.mark", timeout=120_000)
    assert page.locator("#review-progress").count() == 0
    expect(page.locator("#review-accuracy")).to_contain_text("accuracy")
    assert page.errors == []
    page.context.close()


def test_the_review_reads_in_spanish_and_axe_finds_nothing_serious(server: Server, browser: Any,  # noqa: F811
                                                                    finished: dict[str, Any]) -> None:
    pytest.importorskip("axe_playwright_python")
    from axe_playwright_python.sync_playwright import Axe

    tr = translator("es")
    page = browser.new_context(viewport={"width": 1200, "height": 850}, locale="es-MX").new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.set_default_timeout(20_000)
    review_on_the_page(page, server, finished["id"], 2)
    expect(page.locator("#review-start")).to_have_text(tr.gettext("Review"))
    expect(page.locator("#review-title")).to_have_text(tr.gettext("Review of deal {deal}").format(deal=1))
    page.locator(".timeline button.mark").first.click()
    panel = page.locator("#review-decision")
    expect(panel).to_contain_text(tr.gettext("Chance to win"))
    text = page.inner_text("#review")
    for english in ("Chance to win", "Turning points", "Decisions by mark", "accuracy", "Seat to review"):
        assert english not in text, english
    found = Axe().run(page).response["violations"]
    serious = [f"{v['id']}: {[n['target'] for n in v['nodes']][:4]}" for v in found
               if v["impact"] in ("serious", "critical")]
    assert serious == []
    assert page.errors == []
    page.context.close()
