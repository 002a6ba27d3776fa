"""Chat, reactions, mutes, hints, the bots' pace and the rematch's standings at a table served on
loopback: who hears what, and nothing of a seat's cards in what another seat receives."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from web_server import Client, Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("chat")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp).start()
    yield s
    s.stop()


def two_seats(server: Server) -> tuple[dict[str, Any], Client, Client]:
    t = server.create(variant="conquian", host_name="Ann")
    bob = server.post(f"/api/tables/{t['id']}/sit", {"seat": 2, "name": "Bob"}).json()
    ann = Client(server, t["id"], t["token"], host=t["host"])
    b = Client(server, t["id"], bob["token"])
    ann.wait_table(lambda x: x["status"] == "playing")
    b.wait_table(lambda x: x["status"] == "playing")
    return t, ann, b


def chats(c: Client) -> list[dict[str, Any]]:
    return [m for m in c.other if m["type"] == "chat"]


def test_players_chat_to_all_spectators_only_to_spectators_and_the_host(server: Server) -> None:
    t, ann, bob = two_seats(server)
    watch = Client(server, t["id"])
    bob.send({"type": "chat", "text": "  hola <b>Ann</b> "})
    for c in (ann, bob, watch):
        m = c.wait(lambda m: m["type"] == "chat")
        assert m["text"] == "hola <b>Ann</b>" and m["from"] == "Bob" and m["seat"] == 2
        assert m["channel"] == "players" and m["reaction"] is None
    watch.send({"type": "react", "reaction": "🔥"})
    m = watch.wait(lambda m: m["type"] == "chat" and m["channel"] == "spectators")
    assert m["reaction"] == "🔥" and m["seat"] is None and m["id"] == watch.welcome["id"]
    ann.wait(lambda m: m["type"] == "chat" and m["channel"] == "spectators")  # the host hears it
    time.sleep(0.5)
    bob.ws.send('{"type": "ping"}')
    bob.wait(lambda m: m["type"] == "pong")
    assert all(m["channel"] == "players" for m in chats(bob))  # no coaching of a seated player
    watch.send({"type": "chat", "text": "x" * 201})
    assert watch.error()["code"] == "too_long"
    watch.send({"type": "chat", "text": "a\x1bb"})
    assert watch.error()["code"] == "bad_message"
    bob.send({"type": "mute", "spectator": watch.welcome["id"]})
    assert bob.error()["code"] == "not_host"
    ann.send({"type": "mute", "spectator": watch.welcome["id"]})
    watch.wait_table(lambda x: x["chat_muted"] is True)
    watch.send({"type": "chat", "text": "psst"})
    assert watch.error()["code"] == "muted"
    for c in (ann, bob, watch):
        c.close()


def test_chat_is_rate_limited(server: Server) -> None:
    _, ann, bob = two_seats(server)
    for i in range(5):
        ann.send({"type": "chat", "text": f"line {i}"})
    assert ann.error()["code"] == "too_fast"
    ann.close()
    bob.close()


def test_last_moves_hint_and_pace_come_from_the_seats_view(server: Server) -> None:
    _, ann, bob = two_seats(server)
    table = ann.table
    assert table["pace"] is None and table["timer"] is None
    assert [m["seat"] for m in table["last_moves"]] == [1, 2]
    to_act = ann if table["deal"]["to_act"] == 1 else bob
    other = bob if to_act is ann else ann
    other.send({"type": "hint"})
    assert other.error()["code"] == "not_your_turn"
    to_act.send({"type": "hint"})
    hint = to_act.wait(lambda m: m["type"] == "hint", 60)
    assert hint["act"] in to_act.table["legal"] and hint["move"] and isinstance(hint["outs"], list)
    hand = set(to_act.table["deal"]["hand"])
    state = to_act.table["state"]
    to_act.act(to_act.table["legal"][0])
    seen = other.wait_table(lambda x: x["state"] > state)
    moved = seen["last_moves"][to_act.welcome["seat"] - 1]
    assert moved["kind"] and moved["words"] and seen["last_event"] == moved["event"]
    # the mover's hand never shows in what the other seat receives, but for the cards he showed
    assert set(c for m in seen["last_moves"] for c in m["cards"]) - hand <= {seen["deal"]["card_in_play"],
                                                                             *[c for s in seen["deal"]["sides"]
                                                                               for m in s["melds"] for c in m]} | (
        set(moved["cards"]))
    bob.send({"type": "pace", "seconds": 1.5})
    assert bob.error()["code"] == "not_host"
    ann.send({"type": "pace", "seconds": 1.5})
    bob.wait_table(lambda x: x["pace"] == 1.5)
    ann.close()
    bob.close()


def test_a_rematch_keeps_the_standings_and_passes_the_deal(server: Server) -> None:
    t = server.create(variant="conquian", host_name="Ann", deals=1,
                      seats=[{"kind": "open"}, {"kind": "foster"}])
    ann = Client(server, t["id"], t["token"], host=t["host"])
    table = ann.wait_table(lambda x: x["status"] == "playing")
    first_dealer = table["deal"]["dealer"]
    while ann.table["status"] != "over":
        x = ann.wait_table(lambda x: x["status"] == "over" or bool(x["legal"]), 60)
        if x["status"] == "over":
            break
        ann.act(x["legal"][0])
        ann.wait_table(lambda y, s=x["state"]: y["state"] > s, 60)
    totals = {s["seat"]: s["total"] for s in ann.table["standings"]}
    assert totals == dict(enumerate(ann.table["scores"]["totals"], 1))
    ann.send({"type": "rematch"})
    rid = ann.wait_table(lambda x: x["rematch"] is not None)["rematch"]
    again = Client(server, rid, t["token"], host=t["host"])
    new = again.wait_table(lambda x: x["status"] == "playing")
    assert new["deal"]["dealer"] == first_dealer % 2 + 1  # the deal passes to the left (R3.8)
    assert {s["seat"]: s["total"] for s in new["standings"]} == totals
    ann.close()
    again.close()
