"""The web table served by ``conquian serve`` as a real process on loopback (issue 10): whole deals
between clients, bad input and attacks, and nothing lost when the server is killed."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from web_server import Client, Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("serve")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp).start()
    yield s
    s.stop()


def two_people(server: Server, **spec: object) -> tuple[dict[str, object], Client, Client]:
    t = server.create(variant="conquian", host_name="Ann", seats=[{"kind": "open"}, {"kind": "open"}], **spec)
    bea = server.post(f"/api/tables/{t['id']}/sit", {"seat": 2, "name": "Bea"}).json()
    a = Client(server, str(t["id"]), str(t["token"]))
    b = Client(server, str(t["id"]), bea["token"])
    a.wait_table(lambda x: x["status"] == "playing")
    b.wait_table(lambda x: x["status"] == "playing")
    return t, a, b


def play_deal(clients: dict[int, Client], rng: random.Random) -> dict[str, object]:
    """Random legal moves from whichever client is to act, until the deal is over."""
    any_client = next(iter(clients.values()))
    while True:
        table = any_client.wait_table(lambda x: True)
        deal = table["deal"]
        if deal["over"]:
            return table
        seat = deal["to_act"]
        c = clients[seat]
        state = table["state"]
        mine = c.wait_table(lambda x, s=state: x["state"] >= s)
        if mine["state"] != state:
            continue
        pace(c)
        c.act(rng.choice(mine["legal"]), state)
        any_client.wait_table(lambda x, s=state: x["state"] > s)


def pace(c: Client) -> None:
    """No faster than the server allows one connection (protocol.RATE_PER_SECOND, 10 a second):
    a deal of many passes played at socket speed ran past the burst, and the move refused as
    too_fast never came."""
    wait = getattr(c, "next_send", 0.0) - time.monotonic()
    if wait > 0:
        time.sleep(wait)
    c.next_send = time.monotonic() + 0.11  # type: ignore[attr-defined]


def test_two_people_play_a_whole_deal_and_the_record_replays(server: Server, tmp_path: Path) -> None:
    t, a, b = two_people(server)
    assert a.welcome["seat"] == 1 and b.welcome["seat"] == 2
    table = play_deal({1: a, 2: b}, random.Random(3))
    assert table["deal"]["over"] and "hands" in table["deal"]
    assert table["scores"]["result"]
    rec = server.get(f"/api/tables/{t['id']}/record")
    assert rec.status_code == 200 and 'format = "conquian-record/1"' in rec.text
    path = tmp_path / "web.toml"
    path.write_text(rec.text)
    out = subprocess.run([sys.executable, "-m", "conquian", "replay", str(path), "--json"], capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    # the next deal is dealt by the other seat (R3.8)
    dealer = table["deal"]["dealer"]
    a.send({"type": "next", "state": table["state"]})
    nxt = b.wait_table(lambda x: x["deal"]["number"] == 2)
    assert nxt["deal"]["dealer"] == 3 - dealer
    a.close()
    b.close()


def test_a_person_plays_five_hand_cooncan_against_four_bots(server: Server) -> None:
    t = server.create(variant="cooncan-double", players=5, host_name="Ann",
                      seats=[{"kind": "open"}] + [{"kind": "foster"}] * 4)
    a = Client(server, str(t["id"]), str(t["token"]))
    rng = random.Random(5)
    while True:
        table = a.wait_table(lambda x: x["deal"] and (x["deal"]["over"] or x["deal"]["to_act"] == 1), timeout=60)
        if table["deal"]["over"]:
            break
        a.act(rng.choice([w for w in table["legal"] if not w.startswith("take")] or table["legal"]))
        a.wait_table(lambda x, s=table["state"]: x["state"] > s)
    assert table["deal"]["winner"] is not None or table["deal"]["void"]
    a.close()


def test_bad_input_gets_a_clear_error_and_changes_nothing(server: Server) -> None:
    t, a, b = two_people(server)
    state = a.table["state"]
    to_act = {1: a, 2: b}[a.table["deal"]["to_act"]]
    other = b if to_act is a else a
    cases: list[tuple[Client, object, str]] = [
        (a, "{not json", "bad_message"),
        (a, {"type": "shuffle"}, "bad_message"),
        (a, {"type": "act", "state": state}, "bad_message"),
        (a, "x" * 5000, "too_large"),
        (a, {"type": "hello", "token": "again"}, "bad_message"),
        (other, {"type": "act", "state": state, "action": "pass"}, "not_your_turn"),
        (to_act, {"type": "act", "state": state, "action": f"p{other.welcome['seat']} pass"}, "not_your_seat"),
        (to_act, {"type": "act", "state": state - 1, "action": "pass"}, "stale"),
        (to_act, {"type": "act", "state": state, "action": "discard 7h"}, "illegal"),
        (to_act, {"type": "act", "state": state, "action": "p² pass"}, "bad_message"),
        (to_act, {"type": "options", "cards": ["Zz"]}, "bad_message"),
        (a, {"type": "away", "seconds": 30}, "not_host"),
    ]
    for client, message, code in cases:
        client.send(message)
        err = client.error()
        assert err["code"] == code, (message, err)
        assert err["message"] and len(err["message"]) <= 300
    illegal = [e for e in to_act.errors if e["code"] == "illegal"]
    assert illegal and illegal[0]["rule"] == "R3.5"
    assert server.get(f"/api/tables/{t['id']}").json()["state"] == state
    # and the table still plays
    to_act.act(to_act.table["legal"][0], state)
    other.wait_table(lambda x: x["state"] == state + 1)
    a.close()
    b.close()


def test_tokens_wrong_missing_or_of_another_seat(server: Server) -> None:
    t, a, b = two_people(server)
    wrong = Client(server, str(t["id"]), "not-a-token")
    assert wrong.welcome["seat"] is None and wrong.errors[0]["code"] == "bad_token"
    assert wrong.table["deal"]["hand"] is None
    wrong.act("pass")
    assert wrong.error()["code"] == "not_your_seat"
    spectator = Client(server, str(t["id"]))
    assert spectator.welcome["seat"] is None and spectator.table["legal"] == []
    for c in (a, b, wrong, spectator):
        c.close()


def test_the_same_move_from_two_tabs_applies_once(server: Server) -> None:
    t, a, b = two_people(server)
    seat = a.table["deal"]["to_act"]
    token = t["token"] if seat == 1 else None
    first = a if seat == 1 else b
    if token is None:
        pytest.skip("seat 1 is not to act")  # never: the pone (seat 1) acts first at a new conquian table
    second = Client(server, str(t["id"]), str(token))
    state = first.table["state"]
    move = first.table["legal"][0]
    barrier = threading.Barrier(2)

    def send(c: Client) -> None:
        barrier.wait()
        c.act(move, state)

    threads = [threading.Thread(target=send, args=(c,)) for c in (first, second)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    first.wait_table(lambda x: x["state"] == state + 1)
    # exactly one applied: the table is one state further, and one of the two got "stale"
    got = []
    for c in (first, second):
        try:
            got.append(c.error(timeout=3)["code"])
        except TimeoutError:
            got.append(None)
    assert sorted(g or "" for g in got) == ["", "stale"], got
    assert server.get(f"/api/tables/{t['id']}").json()["state"] == state + 1
    for c in (a, b, second):
        c.close()


def test_names_with_html_are_only_text(server: Server) -> None:
    t = server.create(variant="conquian", host_name="<script>alert(1)</script>", seats=[{"kind": "open"},
                                                                                      {"kind": "random"}])
    snap = server.get(f"/api/tables/{t['id']}").json()
    assert snap["seats"][0]["name"] == "<script>alert(1)</script>"  # kept as text; the page never runs it


def test_a_table_that_does_not_exist_and_a_foreign_origin(server: Server) -> None:
    assert server.get("/api/tables/nope").status_code == 404
    assert server.post("/api/tables/nope/sit", {"seat": 1, "name": "A"}).status_code == 404
    with connect(f"ws://127.0.0.1:{server.port}/ws/nope", open_timeout=5) as ws:
        assert json.loads(ws.recv(timeout=5))["code"] == "no_table"
    t = server.create(variant="conquian", host_name="Ann", seats=[{"kind": "open"}, {"kind": "random"}])
    with pytest.raises(InvalidStatus), connect(f"ws://127.0.0.1:{server.port}/ws/{t['id']}",
                                               additional_headers={"Origin": "http://evil.example"}, open_timeout=5):
        pass
    ok = Client(server, str(t["id"]), origin=f"http://127.0.0.1:{server.port}")
    ok.close()


@pytest.mark.parametrize("body,status", [
    ({"variant": "poker"}, 400),
    ({"variant": "conquian", "players": 9}, 400),
    ({"variant": "cooncan", "options": {"jokers": True}}, 400),
    ({"variant": "conquian", "seats": [{"kind": "open"}]}, 400),
    ({"variant": "conquian", "host_name": "x" * 41}, 400),
    ({"variant": "conquian", "unknown": 1}, 400),
])
def test_bad_tables_are_refused(server: Server, body: dict[str, object], status: int) -> None:
    r = server.post("/api/tables", body)
    assert r.status_code == status and r.json()["error"]["message"]


def test_a_flood_is_refused_and_others_are_served(server: Server) -> None:
    _t, a, b = two_people(server)
    for _ in range(60):
        a.send({"type": "ping"})
    codes = []
    try:
        while True:
            m = a.recv(timeout=2)
            if m["type"] == "error":
                codes.append(m["code"])
    except TimeoutError:
        pass
    assert "too_fast" in codes
    b.send({"type": "ping"})
    assert b.wait(lambda m: m["type"] == "pong")
    a.close()
    b.close()


def test_nothing_is_lost_when_the_server_is_killed(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'kill.db'}"
    s = Server(db, tmp_path).start()
    try:
        t, a, b = two_people(s)
        rng = random.Random(11)
        clients = {1: a, 2: b}
        for _ in range(10):  # half a deal
            table = a.wait_table(lambda x: True)
            if table["deal"]["over"]:
                break
            c = clients[table["deal"]["to_act"]]
            mine = c.wait_table(lambda x, st=table["state"]: x["state"] >= st)
            c.act(rng.choice(mine["legal"]), table["state"])
            a.wait_table(lambda x, st=table["state"]: x["state"] > st)
        before = a.table
        hand_before = a.table["deal"]["hand"]
        s.kill()
        s2 = Server(db, tmp_path, port=s.port).start()
        a2 = Client(s2, str(t["id"]), str(t["token"]))
        b2 = Client(s2, str(t["id"]), b.token)
        assert a2.table["state"] == before["state"] and a2.table["deal"]["hand"] == hand_before
        table = play_deal({1: a2, 2: b2}, rng)
        rec = s2.get(f"/api/tables/{t['id']}/record").text
        path = tmp_path / "after-kill.toml"
        path.write_text(rec)
        out = subprocess.run([sys.executable, "-m", "conquian", "replay", str(path)], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        assert table["deal"]["over"]
        s2.stop()
    finally:
        s.kill()


def test_a_bot_plays_for_someone_away_longer_than_the_host_allows(server: Server) -> None:
    t, a, b = two_people(server)
    host = Client(server, str(t["id"]), str(t["token"]), host=str(t["host"]))
    assert host.welcome["host"] is True
    host.send({"type": "away", "seconds": 5})
    host.wait_table(lambda x: x["away_after"] == 5)
    # play until it is Bea's turn, then Bea goes away
    rng = random.Random(2)
    while a.wait_table(lambda x: True)["deal"]["to_act"] != 2:
        a.act(rng.choice(a.table["legal"]))
        a.wait_table(lambda x, st=a.table["state"]: x["state"] > st)
    state = a.table["state"]
    b.close()
    a.wait_table(lambda x: not x["seats"][1]["connected"])
    moved = a.wait_table(lambda x: x["state"] > state, timeout=30)
    assert moved["state"] > state  # the expert played Bea's turn
    a.close()
    host.close()


def test_a_rematch_seats_the_same_people_at_a_new_table(server: Server) -> None:
    r = server.create(variant="conquian", host_name="Ann", seats=[{"kind": "open"}, {"kind": "random"}], deals=1)
    a = Client(server, str(r["id"]), str(r["token"]))
    rng = random.Random(9)
    while True:
        table = a.wait_table(lambda x: x["deal"]["over"] or x["deal"]["to_act"] == 1)
        if table["deal"]["over"]:
            break
        a.act(rng.choice(table["legal"]))
        a.wait_table(lambda x, st=table["state"]: x["state"] > st)
    final = a.wait_table(lambda x: x["status"] == "over")
    assert final["legal"] == []
    a.send({"type": "rematch"})
    new_id = a.wait_table(lambda x: x["rematch"] is not None)["rematch"]
    again = Client(server, new_id, str(r["token"]))
    assert again.welcome["seat"] == 1 and again.table["status"] == "playing"
    assert [s["name"] for s in again.table["seats"]] == [s["name"] for s in final["seats"]]
    # the finished match is its players': its replay opens to their tokens (docs/protocol.md)
    assert server.get(f"/api/tables/{r['id']}/replay").status_code == 403
    replay = httpx.get(f"{server.url}/api/tables/{r['id']}/replay",
                       headers={"Authorization": f"Bearer {r['token']}"}, timeout=10).json()
    assert replay["frames"][-1]["deal"]["over"]
    a.close()
    again.close()


def test_the_table_offers_the_strongest_quick_bot_first(server: Server) -> None:
    """New tables propose the strongest bot that answers at a person's pace here (issue 12)."""
    from conquian.bots import bot_names
    from conquian.bots.expert import strongest_quick_bot

    presets = server.get("/api/presets").json()
    assert presets["default_bot"] == strongest_quick_bot() and presets["default_bot"] in presets["bots"]
    assert set(presets["bots"]) == set(bot_names())


def test_the_presets_name_the_levels_and_the_bots_fitted_ratings(server: Server) -> None:
    """The bot menus offer the levels by their measured ratings: ``/api/presets`` gives the levels
    and, per game, each fitted bot's rating and interval as ``conquian/bots/levels.json`` has them."""
    from conquian.bots.levels import LEVELS, fitted

    presets = server.get("/api/presets").json()
    assert presets["levels"] == [lv.bot for lv in LEVELS] and set(presets["levels"]) <= set(presets["bots"])
    assert set(presets["bot_ratings"]) == set(fitted()["games"])
    for game, bots in fitted()["games"].items():
        assert presets["bot_ratings"][game] == {b: {"rating": e["rating"], "interval": e["interval"]}
                                                for b, e in bots["bots"].items()}


@pytest.mark.parametrize("players", [2, 3])
def test_people_play_a_whole_conquian_mexicano_deal_over_sockets(server: Server, tmp_path: Path, players: int) -> None:
    """R8 over real sockets: the lobby lists the preset; every seat gives a card before any moves
    (R8.2) and no seat is told another's before that; the deal is played to its end and replays."""
    presets = {v["name"]: v for v in server.get("/api/presets").json()["variants"]}
    mex = presets["conquian-mexicano"]
    assert (mex["max_players"], mex["pack"], mex["options"]) == (4, "spanish", {
        "exchange": True, "exhausted": "tablas", "hand": 8})
    t = server.create(variant="conquian-mexicano", players=players, host_name="Ann",
                      seats=[{"kind": "open"}] * players, options={"exhausted": "fewest"})
    clients = {1: Client(server, str(t["id"]), str(t["token"]))}
    for seat in range(2, players + 1):
        sat = server.post(f"/api/tables/{t['id']}/sit", {"seat": seat, "name": f"P{seat}"}).json()
        clients[seat] = Client(server, str(t["id"]), sat["token"])
    for c in clients.values():
        c.wait_table(lambda x: x["status"] == "playing")
    for seat in range(1, players + 1):  # the exchange: each in turn, nobody told the others' cards
        c = clients[seat]
        table = c.wait_table(lambda x, s=seat: x["deal"]["to_act"] == s)
        assert table["deal"]["phase"] == "exchange" and all(w.startswith("give ") for w in table["legal"])
        for other, oc in clients.items():
            ex = oc.wait_table(lambda x, s=table["state"]: x["state"] >= s)["deal"]["exchange"]
            assert ex["got"] is None and (ex["gave"] is None) == (other >= seat)
        c.act(table["legal"][0])
        c.wait_table(lambda x, s=table["state"]: x["state"] > s)
    got = clients[1].wait_table(lambda x: x["deal"]["phase"] != "exchange")["deal"]["exchange"]
    assert got["got"] is not None and got["from"] == players
    table = play_deal(clients, random.Random(players))
    assert table["deal"]["over"] and table["deal"]["ended"] in ("out", "fewest", "tablas")
    assert sum(table["scores"]["deals"][-1]) == 0 and table["scores"]["result"]
    rec = server.get(f"/api/tables/{t['id']}/record")
    assert rec.status_code == 200 and "give" in rec.text
    path = tmp_path / "mex.toml"
    path.write_text(rec.text)
    out = subprocess.run([sys.executable, "-m", "conquian", "replay", str(path), "--json"], capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["deals"][0]["over"]
    for c in clients.values():
        c.close()


def test_a_card_held_twice_in_a_double_pack_can_be_selected(server: Server) -> None:
    """Two copies of a card in one hand (R2.1): selecting it offers its moves, not a refusal."""
    from conquian import get_rules
    from conquian.engine.cards import card_str
    from conquian.engine.deck import pack_order

    deck = pack_order(get_rules("cooncan-double"))  # each card twice: Ac Ac 2c 2c ...
    # dealt one at a time from the seat after the dealer (p5): cards 1 and 6 are seat 1's
    deck[1], deck[5] = deck[5], deck[1]
    twice = card_str(deck[0])
    t = server.create(variant="cooncan-double", players=5, host_name="Ann", seats=[{"kind": "open"}] * 5,
                      set_deal=True, deck=" ".join(card_str(c) for c in deck))
    for seat in range(2, 6):
        server.post(f"/api/tables/{t['id']}/sit", {"seat": seat, "name": f"P{seat}"})
    a = Client(server, str(t["id"]), str(t["token"]))
    table = a.wait_table(lambda x: x["status"] == "playing" and x["deal"]["to_act"] == 1)
    assert table["deal"]["hand"].count(twice) == 2
    a.send({"type": "options", "cards": [twice]})
    answer = a.wait(lambda m: m["type"] in ("options", "error"))
    assert answer["type"] == "options", answer
    a.close()
