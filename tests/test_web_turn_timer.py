"""The turn timer of a table of people (issue 24): a person who does not move in time has that one
move played by the expert, keeps his seat and plays his next turn himself; the host sets it, and
the table keeps it across a restart."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from conquian import get_rules
from conquian.web.table import Table, TableError, check_turn_timer
from web_server import Client, Server

#: The test servers allow a two-second timer besides the usual ones.
TIMERS = ("--turn-timers", "2,30,60,120,300")
NOTE = "the expert played for Ann: time ran out"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("timer")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp, extra=("--log-level", "warning", *TIMERS)).start()
    yield s
    s.stop()


def against_a_bot(server: Server, **spec: object) -> tuple[dict[str, object], Client]:
    t = server.create(variant="conquian", host_name="Ann", seats=[{"kind": "open"}, {"kind": "random"}], **spec)
    ann = Client(server, str(t["id"]), str(t["token"]))
    ann.wait_table(lambda x: x["status"] == "playing")
    return t, ann


# ------------------------------------------------------------------ the table alone
def test_the_expert_plays_for_a_person_out_of_time_and_the_log_says_so() -> None:
    t = Table("t", "x", get_rules("conquian"), seed=5, turn_timer=30)
    t.sit(1, "Ann")
    t.sit(2, "Bea")
    t.connect(1)
    t.connect(2)
    seat = t.session.deal.to_act if t.session else None
    assert seat is not None
    ends = t.turn_ends()
    assert ends is not None and ends == pytest.approx(t.turn_since + 30)
    assert t.bot_to_act(now=ends - 1) is None and not t.out_of_time(ends - 1)
    assert t.bot_to_act(now=ends) == (seat, "expert") and t.out_of_time(ends)
    command = t.act(seat, t.session.legal()[0] if t.session else "", t.state, timed=True)
    assert command.startswith("timed act ")
    name = t.names[seat - 1]
    assert t.session is not None and t.session.log[-1] == f"the expert played for {name}: time ran out"
    twin = Table("t", "x", t.rules, seed=5, turn_timer=30)
    twin.sit(1, "Ann")
    twin.sit(2, "Bea")
    twin.commands = []
    twin.session = None
    twin.rebuild(t.commands)  # a stored timed move replays, its note with it
    assert twin.session is not None and twin.session.log == t.session.log
    t.turn_timer = None
    assert t.turn_ends() is None and t.bot_to_act(now=ends + 999) is None


def test_only_the_allowed_timers() -> None:
    assert check_turn_timer(None) is None and check_turn_timer(60) == 60
    for bad in (45, 0, -30, 10**9, 30.0, "30", True):
        with pytest.raises(TableError, match="bad_turn_timer: a turn timer is one of 30, 60, 120, 300 seconds"):
            check_turn_timer(bad)


# ------------------------------------------------------------------ over sockets
def test_a_person_out_of_time_gets_one_move_from_the_expert_and_plays_on(server: Server) -> None:
    t, ann = against_a_bot(server, turn_timer=2)
    first = ann.wait_table(lambda x: x["deal"]["to_act"] == 1)
    assert first["turn_timer"] == 2 and first["turn_ends"] is not None
    assert first["turn_ends"] - time.time() <= 2.5
    timed = ann.wait_table(lambda x: NOTE in x["log"], timeout=20)  # Ann waited: the expert moved
    assert timed["seats"][0]["kind"] == "human" and timed["seats"][0]["name"] == "Ann"
    assert timed["log"].count(NOTE) >= 1
    host = Client(server, str(t["id"]), host=str(t["host"]))
    host.send({"type": "turn_timer", "seconds": None})  # the host turns it off: Ann plays on herself
    mine = ann.wait_table(lambda x: x["turn_timer"] is None and x["deal"]["to_act"] == 1 and not x["deal"]["over"])
    assert mine["turn_ends"] is None and mine["legal"]
    notes = mine["log"].count(NOTE)
    ann.act(mine["legal"][0])
    after = ann.wait_table(lambda x, s=mine["state"]: x["state"] > s)
    assert not ann.errors and after["log"].count(NOTE) == notes
    ann.close()
    host.close()


def test_no_timer_no_move(server: Server) -> None:
    _, ann = against_a_bot(server)
    table = ann.wait_table(lambda x: x["deal"]["to_act"] == 1)
    assert table["turn_timer"] is None and table["turn_ends"] is None
    time.sleep(3)
    ann.send({"type": "ping"})
    ann.wait(lambda m: m["type"] == "pong")
    assert ann.table["state"] == table["state"] and NOTE not in ann.table["log"]
    ann.close()


def test_only_the_host_sets_the_timer_and_only_to_an_allowed_value(server: Server) -> None:
    t, ann = against_a_bot(server)
    ann.send({"type": "turn_timer", "seconds": 60})
    e = ann.error()
    assert e["code"] == "not_host" and e["message"] == "not_host: only the host may set the turn timer"
    host = Client(server, str(t["id"]), host=str(t["host"]))
    for bad in (45, 0, -5, 100000):
        host.send({"type": "turn_timer", "seconds": bad})
        e = host.error()
        assert e["code"] == "bad_turn_timer" and "a turn timer is one of 2, 30, 60, 120, 300 seconds" in e["message"]
    host.send({"type": "turn_timer", "seconds": "60"})
    assert host.error()["code"] == "bad_message"
    host.send({"type": "turn_timer", "seconds": 120})
    table = ann.wait_table(lambda x: x["turn_timer"] == 120)
    assert table["deal"]["to_act"] != 1 or table["turn_ends"] - time.time() > 100
    for body, code in (({"turn_timer": 45}, "bad_turn_timer"), ({"turn_timer": -1}, "bad_turn_timer"),
                       ({"turn_timer": "soon"}, "bad_message")):
        r = server.post("/api/tables", {"variant": "conquian", **body})
        assert r.status_code == 400 and r.json()["error"]["code"] == code, r.text
    r = server.post("/api/tables", {"variant": "conquian", "turn_timer": 45})
    assert "a turn timer is one of 2, 30, 60, 120, 300 seconds, or none, not 45" in r.json()["error"]["message"]
    es = httpx_spanish(server, {"variant": "conquian", "turn_timer": 45})
    assert "el tiempo por turno es de 2, 30, 60, 120, 300 segundos" in es, es
    ann.close()
    host.close()


def httpx_spanish(server: Server, body: dict[str, object]) -> str:
    import httpx

    r = httpx.post(server.url + "/api/tables", json=body, headers={"Accept-Language": "es-MX"}, timeout=10)
    return str(r.json()["error"]["message"])


def test_a_restarted_server_keeps_the_timer(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'web.db'}"
    s = Server(db, tmp_path, extra=("--log-level", "warning", *TIMERS)).start()
    try:
        t, ann = against_a_bot(s, turn_timer=30)
        other, ann2 = against_a_bot(s)
        host = Client(s, str(other["id"]), host=str(other["host"]))
        host.send({"type": "turn_timer", "seconds": 300})
        ann2.wait_table(lambda x: x["turn_timer"] == 300)
        for c in (ann, ann2, host):
            c.close()
    finally:
        s.stop()
    s2 = Server(db, tmp_path, port=s.port, extra=("--log-level", "warning", *TIMERS)).start()
    try:
        for table_id, token, seconds in ((t["id"], t["token"], 30), (other["id"], other["token"], 300)):
            c = Client(s2, str(table_id), str(token))
            table = c.wait_table(lambda x: x["deal"]["to_act"] == 1)
            assert table["turn_timer"] == seconds
            assert 0 < table["turn_ends"] - time.time() <= seconds + 1
            c.close()
    finally:
        s2.stop()
