"""Hidden information at the web table: nobody chooses or can foresee an ordinary table's cards.

Every deal of an ordinary table is shuffled from the operating system's randomness when it
starts; a table whose cards the host chose (a *set deal*) is shown as such to every seat."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from conquian import get_rules
from conquian.engine.cards import card_str, parse_cards
from conquian.engine.deck import pack_order
from conquian.engine.match import new_deal
from conquian.web import bots as web_bots
from conquian.web import table as web_table
from conquian.web.bots import bot_job
from conquian.web.table import SET_DEAL_TEXT, Table
from web_server import Client, Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("deals")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp).start()
    yield s
    s.stop()


def play_to_the_end(clients: dict[int, Client], rng: random.Random) -> dict[str, Any]:
    """Random legal moves from whichever client is to act, until the deal is over."""
    anyone = next(iter(clients.values()))
    while True:
        table = anyone.wait_table(lambda x: True)
        if table["deal"]["over"]:
            return table
        c = clients[table["deal"]["to_act"]]
        mine = c.wait_table(lambda x, s=table["state"]: x["state"] >= s)
        if mine["state"] == table["state"]:
            c.act(rng.choice(mine["legal"]), table["state"])
        anyone.wait_table(lambda x, s=table["state"]: x["state"] > s)


def two_people(server: Server, **spec: Any) -> tuple[dict[str, Any], Client, Client]:
    t = server.create(variant="conquian", host_name="Ann", seats=[{"kind": "open"}, {"kind": "open"}], **spec)
    bea = server.post(f"/api/tables/{t['id']}/sit", {"seat": 2, "name": "Bea"}).json()
    a, b = Client(server, t["id"], t["token"]), Client(server, t["id"], bea["token"])
    a.wait_table(lambda x: x["status"] == "playing")
    return t, a, b


@pytest.mark.parametrize("body", [{"seed": 7}, {"deck": "AC 2C"}, {"seed": 7, "set_deal": False}])
def test_an_ordinary_table_refuses_a_seed_or_a_deck(server: Server, body: dict[str, Any]) -> None:
    r = server.post("/api/tables", {"variant": "conquian", **body})
    assert r.status_code == 400
    err = r.json()["error"]
    assert err["code"] == "not_set_deal" and "\n" not in err["message"] and "set_deal" in err["message"]


def test_a_set_deal_needs_its_cards_and_a_good_deck(server: Server) -> None:
    assert server.post("/api/tables", {"set_deal": True}).json()["error"]["code"] == "bad_set_deal"
    r = server.post("/api/tables", {"set_deal": True, "deck": "AC AC"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_deck"


def test_an_ordinary_table_publishes_no_seed(server: Server) -> None:
    t, a, b = two_people(server)
    public = server.get(f"/api/tables/{t['id']}").json()
    assert public["set_deal"] is False and "seed" not in public
    listed = [x for x in server.get("/api/tables").json()["open"] if x["id"] == t["id"]]
    assert listed and listed[0]["set_deal"] is False and "seed" not in listed[0]
    play_to_the_end({1: a, 2: b}, random.Random(4))
    record = server.get(f"/api/tables/{t['id']}/record").text
    assert "seed" not in record and "deck = " in record
    a.close()
    b.close()


def test_every_deal_is_shuffled_from_the_systems_randomness(monkeypatch: pytest.MonkeyPatch) -> None:
    """The deck of each deal follows what the system's randomness gives when the deal starts
    (here a stand-in), and nothing else: not a seed, not the deck before."""
    rules = get_rules("conquian")
    drawn = random.Random(2026)
    monkeypatch.setattr(web_table, "_system_random", drawn)
    expect = random.Random(2026)
    t = Table("d1", "x", rules)
    assert t.seed is None and not t.set_deal
    t.sit(1, "Ann")
    t.sit(2, "Bea")
    decks = []
    for _ in range(3):
        cards = pack_order(rules)
        expect.shuffle(cards)
        assert list(t.session.deal.deck) == cards  # type: ignore[union-attr]
        assert t.commands[-1].split(" ", 1)[1] == " ".join(card_str(c) for c in cards)
        decks.append(cards)
        deal = t.session.deal  # type: ignore[union-attr]
        while not deal.over:
            t.act(deal.to_act, deal.legal_actions()[-1], t.state)  # type: ignore[arg-type]
        t.next_deal(t.state)
    assert len({tuple(d) for d in decks}) == 3
    # the table rebuilt from its commands has the same decks, with the randomness gone
    monkeypatch.setattr(web_table, "_system_random", None)
    again = Table("d1", "x", rules, seats=t.seats)
    again.rebuild(t.commands)
    assert [d.deck for d in again.session.match.deals] == [d.deck for d in t.session.match.deals]  # type: ignore


def test_the_bots_draw_their_own_randomness(monkeypatch: pytest.MonkeyPatch) -> None:
    t = Table("b1", "x", get_rules("conquian"), seed=5)
    t.sit(1, "Ann")
    t.set_bot(2, "random", host=True)
    monkeypatch.setattr(web_bots.secrets, "randbits", lambda k: 123456789)
    assert bot_job(t, 2, "random").seed == 123456789


def test_a_set_deal_is_shown_to_whoever_joins(server: Server) -> None:
    rules = get_rules("conquian")
    cards = pack_order(rules)
    random.Random(1).shuffle(cards)
    deck = " ".join(card_str(c) for c in cards)
    t = server.create(variant="conquian", set_deal=True, deck=deck, seats=[{"kind": "open"}, {"kind": "open"}])
    listed = [x for x in server.get("/api/tables").json()["open"] if x["id"] == t["id"]]
    assert listed[0]["set_deal"] is True
    watcher = Client(server, t["id"])
    assert watcher.table["set_deal"] is True and watcher.table["status"] == "waiting"
    assert SET_DEAL_TEXT in server.get("/static/table.js").text
    ann = server.post(f"/api/tables/{t['id']}/sit", {"seat": 1, "name": "Ann"}).json()
    server.post(f"/api/tables/{t['id']}/sit", {"seat": 2, "name": "Bea"})
    a = Client(server, t["id"], ann["token"])
    table = a.wait_table(lambda x: x["status"] == "playing")
    hand = new_deal(rules, parse_cards(deck), dealer=2).view(1).hand
    assert sorted(table["deal"]["hand"]) == sorted(card_str(c) for c in hand)
    assert table["set_deal"] is True
    a.close()
    watcher.close()


def test_a_rematch_is_shuffled_afresh_whatever_the_kind_of_deal(server: Server) -> None:
    for spec in ({}, {"set_deal": True, "seed": 99}):
        r = server.create(variant="conquian", host_name="Ann", seats=[{"kind": "open"}, {"kind": "random"}],
                          deals=1, **spec)
        a = Client(server, r["id"], r["token"])
        rng = random.Random(3)
        while True:
            table = a.wait_table(lambda x: x["deal"]["over"] or x["deal"]["to_act"] == 1)
            if table["deal"]["over"]:
                break
            a.act(rng.choice(table["legal"]))
            a.wait_table(lambda x, st=table["state"]: x["state"] > st)
        a.wait_table(lambda x: x["status"] == "over")
        a.send({"type": "rematch"})
        new_id = a.wait_table(lambda x: x["rematch"] is not None)["rematch"]
        again = Client(server, new_id, r["token"])
        assert again.table["set_deal"] is False  # a set deal's decks are known to whoever read its record
        a.close()
        again.close()


def test_a_restarted_server_rebuilds_the_second_deal_exactly(tmp_path: Path) -> None:
    db = tmp_path / "restart.db"
    s = Server(f"sqlite:///{db}", tmp_path, extra=("--log-format", "json", "--log-level", "info")).start()
    try:
        t, a, b = two_people(s)
        over = play_to_the_end({1: a, 2: b}, random.Random(5))
        a.send({"type": "next", "state": over["state"]})
        second = a.wait_table(lambda x: x["deal"]["number"] == 2)
        b.wait_table(lambda x: x["state"] == second["state"])
        for _ in range(3):
            table = a.wait_table(lambda x: True)
            c = {1: a, 2: b}[table["deal"]["to_act"]]
            mine = c.wait_table(lambda x, st=table["state"]: x["state"] >= st)
            c.act(mine["legal"][0], table["state"])
            a.wait_table(lambda x, st=table["state"]: x["state"] > st)
        before_a, before_b = a.wait_table(lambda x: True), b.wait_table(lambda x: x["state"] == a.table["state"])
        s.kill()
        logged = [json.loads(line) for line in s.log.read_text().splitlines() if line.startswith("{")]
        commands = [x["command"] for x in logged if x.get("event") == "move"]
        assert "next" in commands  # logged, without its deck
        assert not any(c.startswith(("start ", "next ")) for c in commands if c)
        with sqlite3.connect(db) as conn:
            stored = [c for (c,) in conn.execute("SELECT command FROM commands WHERE table_id = ? ORDER BY seq",
                                                 (t["id"],))]
            seed = conn.execute("SELECT seed FROM tables WHERE id = ?", (t["id"],)).fetchone()[0]
        assert seed == -1  # no seed: each deal's deck is in its command
        starts = [c for c in stored if c.startswith(("start", "next"))]
        assert [c.split(" ", 1)[0] for c in starts] == ["start", "next"]
        assert all(len(c.split()) == 41 for c in starts)
        s2 = Server(f"sqlite:///{db}", tmp_path, port=s.port).start()
        a2, b2 = Client(s2, t["id"], t["token"]), Client(s2, t["id"], b.token)
        for mine, before in ((a2, before_a), (b2, before_b)):
            assert mine.table["state"] == before["state"] and mine.table["deal"] == before["deal"]
        a2.close()
        b2.close()
        s2.stop()
    finally:
        s.kill()
