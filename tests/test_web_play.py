"""Playing at the web table with the cards themselves (issue 24): a player taps cards of his hand,
the card in play, a pile or a combination, and the table offers what that selection does in words
("Lay 7♠ 8♠ 9♠", "Discard the 2♣"); one more tap plays it.  No typing, no list of notation.

Chromium through Playwright, as tests/test_web_browser.py.  ``CONQUIAN_SCREENSHOTS=1`` writes
``docs/screenshots/play-*.png``.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect

from test_web_browser import alert, browser, new_page, pace, server, shot, state, wait_offered  # noqa: F401
from web_server import Server

#: A move written in the notation (docs/records.md): a verb of it, or a card such as 7h or Td.
# The notation's action names a verb first ("discard 5h", "take"); a sentence may say "the discard pile".
NOTATION = re.compile(r"^(use|pass|discard|force|draw|take|meld|add|shift|give)(\s|$)|\b[2-9AJQKT][cdhs]\b")
PHONE, DESKTOP = (390, 844), (1280, 800)


def sit(page: Any, server: Server, **spec: Any) -> dict[str, Any]:  # noqa: F811
    """A table made through the API, its host's seat (1) kept in the page's browser, opened."""
    r = server.create(host_name="Ann", **spec)
    page.goto(server.url + "/")
    page.evaluate("([id, host, token]) => { localStorage.setItem('conquian:host:' + id, host);"
                  " localStorage.setItem('conquian:seat:' + id, token); }", [r["id"], r["host"], r["token"]])
    page.goto(server.url + r["url"])
    page.wait_for_selector("#board")
    return r


def snap(page: Any, name: str) -> None:
    """A screenshot (once the cards have stopped moving), the page at its top."""
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, name)


def mine(page: Any) -> bool:
    return page.locator("#board[data-mine='1']").count() > 0


def over(page: Any) -> bool:
    return page.locator("#board[data-over='1']").count() > 0


def offered(page: Any) -> list[tuple[str, str]]:
    """The moves offered under the hand: (notation, words) of each button."""
    return [(str(a), str(t)) for a, t in page.locator("#actions button.move").evaluate_all(
        "bs => bs.map(b => [b.dataset.action, b.innerText])")]


def tap(page: Any, selector: str) -> None:
    pace(page)
    page.locator(selector).first.click()


def play(page: Any, moves: list[tuple[str, str]], pick: int) -> str:
    """Tap the offered move ``pick`` (in words, never in the notation); wait for the table to move."""
    action, words = moves[pick]
    assert not NOTATION.search(words), words
    before = state(page)
    pace(page)
    page.locator("#actions button.move").nth(pick).click()
    page.wait_for_function(f"() => Number(document.querySelector('#board')?.dataset.state) > {before} || "
                           "!document.querySelector('#alert').hidden")
    assert state(page) > before, alert(page)
    return action


def choose(moves: list[tuple[str, str]], rng: random.Random, prefer: tuple[str, ...]) -> int:
    for verb in prefer:
        fits = [i for i, (a, _) in enumerate(moves) if a.startswith(verb)]
        if fits:
            return rng.choice(fits)
    return rng.randrange(len(moves))


def tap_a_move(page: Any, rng: random.Random) -> str:
    """One move by taps only: the card in play or a pile, or cards of the hand, then a word button."""
    for _ in range(30):
        if page.locator("button#play-card").count() and rng.random() < 0.6:
            tap(page, "button#play-card")  # every move with the card in play: lay it, pass it, force it
            expect(page.locator("#actions button.move").first).to_be_visible()
            return play(page, offered(page), choose(offered(page), rng, ("use", "force")))
        if page.locator("button#pack").count() and rng.random() < 0.6:
            tap(page, "button#pack")
            expect(page.locator("#actions button.move[data-action='draw']")).to_be_visible()
            return play(page, offered(page), 0)
        if offered(page) and rng.random() < 0.5:  # the say's or the draw's choices, shown untouched
            return play(page, offered(page), choose(offered(page), rng, ("pass", "take", "draw")))
        cards = page.locator("#hand button.card")
        if not cards.count():  # ten down, nothing in hand: the say only (R3.7)
            continue
        for _k in range(rng.choice((1, 1, 2, 3))):
            tap(page, f"#hand button.card >> nth={rng.randrange(cards.count())}")
        if page.locator("#hand button.card.selected").count():
            wait_offered(page)
        moves = offered(page)
        if moves:
            return play(page, moves, choose(moves, rng, ("use", "meld", "add", "force", "discard")))
        if page.locator("#actions button[data-key=clear]").count():  # a card tapped twice is chosen no more
            tap(page, "#actions button[data-key=clear]")
    raise AssertionError("no move found by taps")


def last_move(page: Any) -> tuple[int, str, str]:
    box = page.locator("#last-move")
    return int(box.get_attribute("data-event")), str(box.get_attribute("data-seat")), box.inner_text()


def no_overflow(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), \
        page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_two_people_play_a_whole_deal_by_tapping_cards(server: Server, browser: Any, size: tuple[int, int]) -> None:  # noqa: F811
    t = server.create(variant="conquian", host_name="Ann", seats=[{"kind": "open"}, {"kind": "open"}], deals=1)
    bea_seat = server.post(f"/api/tables/{t['id']}/sit", {"seat": 2, "name": "Bea"}).json()
    pages = []
    for token in (t["token"], bea_seat["token"]):
        p = new_page(browser, *size)
        p.goto(server.url + "/")
        p.evaluate("([id, token]) => localStorage.setItem('conquian:seat:' + id, token)", [t["id"], token])
        p.goto(server.url + t["url"])
        p.wait_for_selector("#hand button.card")
        pages.append(p)
    ann, bea = pages
    rng = random.Random(24)
    played: list[str] = []
    marks: list[int] = []
    for _ in range(600):
        if over(ann):
            break
        for p in pages:
            if mine(p):
                if len(played) == 3:
                    snap(p, f"play-conquian-{size[0]}x{size[1]}.png")
                played.append(tap_a_move(p, rng))
                # the last move is marked: who moved and the card (R3.3: every move is public)
                event, seat, text = last_move(p)
                assert not marks or event > marks[-1]
                marks.append(event)
                assert seat in ("1", "2") and ("Ann" in text or "Bea" in text), text
                expect(p.locator(f".seat.newest[data-seat='{seat}']")).to_have_count(1)
                break
        else:
            ann.wait_for_timeout(40)
    assert over(ann) and over(bea), "the deal did not end"
    expect(bea.locator("#board[data-over='1']")).to_have_count(1)
    assert {a.split()[0] for a in played} >= {"pass", "use", "discard"}, played
    for p in pages:
        assert p.locator("#all-moves[open]").count() == 0 and p.locator("#type-move[open]").count() == 0
        no_overflow(p)
        assert p.errors == []
        p.context.close()


def test_one_person_and_four_bots_at_five_hands_on_a_phone(server: Server, browser: Any) -> None:  # noqa: F811
    page = new_page(browser, *PHONE)
    sit(page, server, variant="cooncan-double", players=5,
        seats=[{"kind": "open"}, *({"kind": "random"} for _ in range(4))])
    page.wait_for_selector("#hand button.card")
    rng = random.Random(5)
    turns = 0
    for _ in range(400):
        if over(page) or turns >= 6:
            break
        if not mine(page):
            page.wait_for_timeout(30)
            continue
        no_overflow(page)
        # every seat's name, count of cards and score in view
        seen = page.evaluate("""() => [...document.querySelectorAll('#board .seat[data-seat]')].map(chip => {
            const inside = e => { const r = e && e.getBoundingClientRect();
              return !!r && r.width > 0 && r.left >= -0.5 && r.right <= window.innerWidth + 0.5; };
            return [inside(chip), inside(chip.querySelector('.score')), inside(chip.querySelector('.held .n')),
                    inside(chip.querySelector('.who strong'))]; })""")
        assert len(seen) == 5 and all(all(x) for x in seen), seen
        if turns == 2:
            snap(page, "play-cooncan-double-5-390x844.png")
        before = last_move(page)[0] if page.locator("#last-move").count() else -1
        tap_a_move(page, rng)
        # the bots play at once: the newest move is Ann's or a later one, and Ann's chip shows hers
        assert last_move(page)[0] > before
        expect(page.locator(".seat[data-seat='1'] .last")).to_be_visible()
        turns += 1
    assert turns >= 4
    assert page.errors == []
    page.context.close()


def test_a_selection_offers_its_moves_in_words_and_one_tap_plays(server: Server, browser: Any) -> None:  # noqa: F811
    page = new_page(browser, *PHONE)
    sit(page, server, variant="cooncan", players=2, seats=[{"kind": "open"}, {"kind": "random"}])
    for _ in range(60):
        if mine(page) and page.locator("button#pack").count():
            break
        page.wait_for_timeout(100)
    # nothing chosen: the draw's choices, the card taken named (R4.3)
    words = dict(offered(page))
    assert words["draw"] == "Draw from the pack", words
    take = next(w for a, w in words.items() if a.startswith("take"))
    # the card is named, a joker too (the deal is the server's: any card may lie there)
    assert re.match(r"^Take the (joker|(10|[2-9AJQK])[♣♦♥♠]) from the discard pile$", take), take
    play(page, offered(page), list(words).index("draw"))
    # one card chosen in the play: its moves, a discard at least; a ten is written 10
    page.locator("#hand button.card").first.click()
    wait_offered(page)
    moves = offered(page)
    assert any(a.startswith("discard") for a, _ in moves), moves
    card = str(page.locator("#hand button.card.selected").get_attribute("data-card"))
    discard = next(w for a, w in moves if a.startswith("discard"))
    assert discard == f"Discard the {card[:-1].replace('T', '10')}{dict(c='♣', d='♦', h='♥', s='♠')[card[-1]]}", discard
    snap(page, "play-selection-390x844.png")
    # the stock tapped with that card chosen: the one move it makes there is played at once
    before = state(page)
    tap(page, "#stock-button")
    page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.state) > {before}")
    expect(page.locator(".seat[data-seat='1'] .last")).to_contain_text("discarded")
    # a card dragged onto the stock is discarded (pointer events: a mouse here, a finger on a phone)
    page.wait_for_selector("#board[data-mine='1'] button#pack")
    play(page, offered(page), next(i for i, (a, _) in enumerate(offered(page)) if a == "draw"))
    before = state(page)
    card = page.locator("#hand button.card").last
    code = str(card.get_attribute("data-card"))
    pace(page)
    card.drag_to(page.locator("#stock-button"))
    page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.state) > {before}")
    expect(page.locator(".seat[data-seat='1'] .last")).to_contain_text("discarded")
    assert code in page.evaluate("game.table.last_moves[0].cards"), alert(page)
    assert page.errors == []
    page.context.close()


def test_the_last_move_is_marked_on_the_table(server: Server, browser: Any) -> None:  # noqa: F811
    page = new_page(browser, *DESKTOP)
    sit(page, server, variant="conquian", players=2, seats=[{"kind": "open"}, {"kind": "random"}])
    page.wait_for_selector("#last-move")
    seen = set()
    rng = random.Random(3)
    for _ in range(12):
        if over(page):
            break
        # one look at the page (a bot may move at any time: the marks are read together)
        look = page.evaluate("""() => {
          const box = document.querySelector('#last-move'), seat = box.dataset.seat;
          const chip = document.querySelectorAll(`.seat.newest[data-seat='${seat}']`);
          const card = document.querySelector('#in-play .card[data-card]');
          const code = card ? card.dataset.card : '';
          return {event: Number(box.dataset.event), seat, kind: box.dataset.kind, text: box.innerText,
                  chips: chip.length, minis: chip.length ? chip[0].querySelectorAll('.last .mini-card').length : 0,
                  marked: document.querySelectorAll(`#in-play .card.last-card[data-card='${code}']`).length,
                  laid: document.querySelectorAll('#board .side .card.last-card').length};
        }""")
        event, seat, text, kind = look["event"], look["seat"], look["text"], look["kind"]
        name = "Ann" if seat == "1" else "Random"
        assert name in text, text
        assert look["chips"] == 1, look
        if kind in ("turn", "pass", "discard"):
            # the card that moved, where it lies now: the card in play (R3.3)
            assert look["marked"] == 1 and look["minis"] == 1, look
        if kind == "use":
            assert look["laid"] >= 3, look
        seen.add(kind)
        if kind == "use" and "screenshot" not in seen:
            snap(page, "play-last-move-1280x800.png")
            seen.add("screenshot")
        if mine(page):
            tap_a_move(page, rng)
        else:
            page.wait_for_function(f"() => Number(document.querySelector('#last-move')?.dataset.event) > {event} || "
                                   "document.querySelector('#board').dataset.mine === '1'")
    assert "turn" in seen
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_the_cards_move_unless_the_player_asks_for_less_motion(server: Server, browser: Any, motion: str) -> None:  # noqa: F811
    page = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion=motion).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.set_default_timeout(20_000)
    sit(page, server, variant="conquian", players=2, seats=[{"kind": "open"}, {"kind": "random"}])
    rng = random.Random(9)
    running = 0
    for _ in range(8):
        page.wait_for_function("() => document.querySelector('#board').dataset.mine === '1' || "
                               "document.querySelector('#board').dataset.over === '1'")
        if over(page):
            break
        tap_a_move(page, rng)
        running += page.evaluate("document.getAnimations().length")
    moved = int(page.evaluate("Number(main.dataset.animations || 0)"))
    if motion == "reduce":
        assert running == 0 and moved == 0
        # and the marks' own pulse is off: no CSS animation either
        assert page.evaluate("getComputedStyle(document.querySelector('.seat')).animationName") == "none"
    else:
        assert moved > 0
    assert page.errors == []
    page.context.close()


def test_the_hint_shows_a_move_in_words_and_plays_it(server: Server, browser: Any) -> None:  # noqa: F811
    page = new_page(browser, *PHONE)
    sit(page, server, variant="conquian", players=2, seats=[{"kind": "open"}, {"kind": "random"}])
    page.wait_for_selector("#board[data-mine='1']")
    expect(page.locator("#hint-button")).to_have_text("Hint")
    tap(page, "#hint-button")
    expect(page.locator("#hint")).to_be_visible(timeout=60_000)
    words = page.inner_text("#hint-move")
    assert words and not NOTATION.search(words), words
    assert page.get_attribute("#hint-play", "data-action") in page.evaluate("game.table.legal")
    snap(page, "play-hint-390x844.png")
    before = state(page)
    tap(page, "#hint-play")
    page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.state) > {before}")
    assert page.locator("#hint").count() == 0
    assert page.errors == []
    page.context.close()


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Bots that wait four seconds between moves, unless the table sets its pace."""
    tmp = tmp_path_factory.mktemp("slow")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp, bot_delay=4.0).start()
    yield s
    s.stop()


def test_the_host_sets_the_bots_pace_and_hurries_them(slow_server: Server, browser: Any) -> None:  # noqa: F811
    page = new_page(browser, *PHONE)
    sit(page, slow_server, variant="cooncan", players=3,
        seats=[{"kind": "open"}, {"kind": "random"}, {"kind": "random"}])
    rng = random.Random(2)
    # while a bot is to act, the status line offers to hurry it
    for _ in range(200):
        if page.locator("#hurry").count():
            break
        if mine(page):
            a_turn(page, rng)
        page.wait_for_timeout(50)
    before = state(page)
    start = time.monotonic()
    tap(page, "#hurry")
    page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.state) > {before}")
    assert time.monotonic() - start < 3.5  # not the server's four seconds
    # the host sets the pace at the table (its settings, in a sheet on a phone): the bots play at once
    page.click("#sheet-settings")
    page.select_option("#pace", "0")
    page.wait_for_function("() => game.table.pace === 0")
    page.click("#side .sheet-close")  # the table again
    page.wait_for_function("() => document.querySelector('#board').dataset.mine === '1'", timeout=15_000)
    for _ in range(2):
        a_turn(page, rng)
        start = time.monotonic()
        page.wait_for_function("() => document.querySelector('#board').dataset.mine === '1' || "
                               "document.querySelector('#board').dataset.over === '1'", timeout=15_000)
        assert time.monotonic() - start < 3.5  # two bots drew and discarded without waiting four seconds a move
        if over(page):
            break
    assert page.errors == []
    page.context.close()


def a_turn(page: Any, rng: random.Random) -> None:
    """A turn of Cooncan by taps: the pack, then a card of the hand onto the stock (R4.3)."""
    tap(page, "button#pack")
    expect(page.locator("#actions button.move[data-action='draw']")).to_be_visible()
    play(page, offered(page), 0)
    cards = page.locator("#hand button.card")
    tap(page, f"#hand button.card >> nth={rng.randrange(cards.count())}")
    wait_offered(page)
    moves = offered(page)
    play(page, moves, choose(moves, rng, ("discard",)))


def test_the_moves_read_in_spanish(server: Server, browser: Any) -> None:  # noqa: F811
    page = browser.new_context(viewport={"width": 390, "height": 844}, locale="es-MX").new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.set_default_timeout(20_000)
    sit(page, server, variant="conquian", players=2, seats=[{"kind": "open"}, {"kind": "random"}])
    for _ in range(200):
        if mine(page) and page.locator("button#play-card").count():
            break
        page.wait_for_timeout(50)
    tap(page, "button#play-card")
    expect(page.locator("#actions button.move").first).to_be_visible()
    words = [w for _, w in offered(page)]
    assert words and all(re.match(r"^(Pasar|Bajar|Forzar|Pagar) ", w) for w in words), words
    assert not any(w.startswith(("Pass", "Lay", "Force")) for w in words), words
    expect(page.locator("#hint-button")).to_have_text("Pista")
    snap(page, "play-es-390x844.png")
    assert page.errors == []
    page.context.close()
