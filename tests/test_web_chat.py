"""Chat, reactions, mutes, hints, the bots' pace and the rematch's standings at a table served on
loopback: who hears what, and nothing of a seat's cards in what another seat receives."""

from __future__ import annotations

import contextlib
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


def test_players_chat_to_all_spectators_only_to_spectators(server: Server) -> None:
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
    time.sleep(0.5)
    for seated in (ann, bob):  # no coaching of a seated player, the seated host included
        seated.ws.send('{"type": "ping"}')
        seated.wait(lambda m: m["type"] == "pong")
        assert all(m["channel"] == "players" for m in chats(seated))
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


def paced(c: Client) -> None:
    """No faster than a person: the server takes 10 messages a second from one connection, in
    bursts of 30 (protocol.RATE_PER_SECOND).  A whole deal played at socket speed spends the
    burst, and the rematch asked for right after the last move was then refused as too_fast:
    the test waited for a rematch that never came (one run in two, on a loaded machine)."""
    wait = getattr(c, "next_send", 0.0) - time.monotonic()
    if wait > 0:
        time.sleep(wait)
    c.next_send = time.monotonic() + 0.12  # type: ignore[attr-defined]


def finish_match(c: Client, timeout: float = 120) -> dict[str, Any]:
    """Play the client's seat (its first listed move) until the match is over; the other seats are bots."""
    end = time.time() + timeout
    while time.time() < end:
        x = c.wait_table(lambda x: x["status"] == "over" or bool(x["legal"]), 60)
        if x["status"] == "over":
            assert not c.errors, c.errors
            return x
        paced(c)
        c.act(x["legal"][0])
        c.wait_table(lambda y, s=x["state"]: y["state"] > s or bool(c.errors), 60)
        assert not c.errors, c.errors
    raise AssertionError("the match did not end")


def ask_rematch(c: Client) -> str:
    """Ask for the rematch and wait for it: a refusal fails at once, with its words."""
    paced(c)
    c.send({"type": "rematch"})
    got = c.wait(lambda m: m["type"] == "error" or (m["type"] == "table" and m["table"]["rematch"] is not None), 30)
    assert got["type"] == "table", got
    return str(got["table"]["rematch"])


def test_a_rematch_keeps_the_standings_and_passes_the_deal(server: Server) -> None:
    t = server.create(variant="conquian", host_name="Ann", deals=1,
                      seats=[{"kind": "open"}, {"kind": "foster"}])
    ann = Client(server, t["id"], t["token"], host=t["host"])
    table = ann.wait_table(lambda x: x["status"] == "playing")
    first_dealer = table["deal"]["dealer"]
    over = finish_match(ann)
    totals = {s["seat"]: s["total"] for s in over["standings"]}
    assert totals == dict(enumerate(over["scores"]["totals"], 1))
    rid = ask_rematch(ann)
    again = Client(server, rid, t["token"], host=t["host"])
    new = again.wait_table(lambda x: x["status"] == "playing")
    assert new["deal"]["dealer"] == first_dealer % 2 + 1  # the deal passes to the left (R3.8)
    assert {s["seat"]: s["total"] for s in new["standings"]} == totals
    ann.close()
    again.close()


def test_a_rematch_asked_at_once_after_a_burst_is_refused_in_words_not_lost(server: Server) -> None:
    """Why the rematch's wait once timed out: the message came after the connection's burst of
    moves and was refused (too_fast), which the test never looked at.  The refusal is sent, in
    words, and the same request a moment later makes the rematch."""
    t = server.create(variant="conquian", host_name="Ann", deals=1, seats=[{"kind": "open"}, {"kind": "foster"}])
    ann = Client(server, t["id"], t["token"], host=t["host"])
    finish_match(ann)
    for _ in range(40):  # a burst of moves' worth of messages
        ann.send({"type": "ping"})
    ann.send({"type": "rematch"})
    time.sleep(3.5)  # the bucket fills again
    with contextlib.suppress(TimeoutError):
        while True:
            ann.recv(0.5)  # every answer to the burst
    assert ann.errors and all(e["code"] == "too_fast" and "messages a second" in e["message"] for e in ann.errors)
    assert ann.table["rematch"] is None
    ann.errors.clear()
    rid = ask_rematch(ann)
    assert rid and ann.table["rematch"] == rid
    ann.close()
