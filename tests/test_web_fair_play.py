"""The fair-play rules of rated play (issue 50, findings 1 and 2; docs/play.md, "Fair play"),
re-running the outside reviewer's probes over a real server on loopback: a client asking for a
hint at every turn of a rated table (and of a quick match) is refused each time while a casual
table still answers; the record of a rated match in play is refused; a player who stays
connected and never moves has the expert move for him within the move clock and is ranked as
one who left; a paired seat whose player never opens the table is played by the expert within
its first-move deadline and the match moves on, aborted and unrated."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from conquian import get_rules
from conquian.web.table import Table, TableError, rated_clock
from test_web_quickmatch import quick, signed_in, wait_matched
from test_web_ratings import board, play_out
from web_server import Client, Server

#: The move clock of the test server's rated tables (seconds), and its away rule's delay.
CLOCK = 3
AWAY = 6


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("fair")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp,
               extra=("--log-level", "warning", "--turn-timers", "2,30,60,120,300", "--rated-clock", str(CLOCK),
                      "--quick-deals", "1")).start()
    yield s
    s.stop()


def rated_pair(server: Server, a: str, b: str, **spec: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A rated table made by ``a`` with ``a`` and ``b`` seated from their accounts: the table and
    the two seats' answers (their tokens)."""
    ca, ha = signed_in(server.url, a)
    cb, hb = signed_in(server.url, b)
    t = ca.post("/api/tables", json={"variant": "conquian", "rated": True, **spec}, headers=ha).json()
    seats = [ca.post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": "x"}, headers=ha).json(),
             cb.post(f"/api/tables/{t['id']}/sit", json={"seat": 2, "name": "x"}, headers=hb).json()]
    return t, seats


def note(name: str) -> str:
    return f"the expert played for {name}: time ran out"


def pump(clients: list[Client], seconds: float = 0.05) -> None:
    for c in clients:
        with contextlib.suppress(TimeoutError):
            c.recv(seconds)


# ------------------------------------------------------------------ the table alone
def test_a_rated_table_keeps_its_clock() -> None:
    assert rated_clock(30, 60) == 30 and rated_clock(60, 60) == 60
    for bad in (None, 120):
        with pytest.raises(TableError, match="bad_turn_timer: a rated table keeps its move clock: at most 60"):
            rated_clock(bad, 60)


def test_the_expert_for_a_seat_out_of_time_makes_it_away_until_it_moves() -> None:
    t = Table("t", "x", get_rules("conquian"), seed=5, turn_timer=30, away_after=60, rated=True)
    t.sit(1, "Ann")
    t.sit(2, "Bea")
    t.connect(1)
    t.connect(2)
    assert t.session is not None
    seat = t.session.deal.to_act
    assert seat is not None and t.away_from(seat) is None
    t.act(seat, t.session.legal()[0], t.state, timed=True)  # his first move, by the expert: aborted
    assert t.seats[seat - 1].idle_since is not None and t.away_from(seat) == t.seats[seat - 1].idle_since
    assert t.aborted and t.missed_first_move == seat
    assert any("the match is aborted" in line for line in t.session.log)
    twin = Table("t", "x", t.rules, seed=5, turn_timer=30, rated=True)
    twin.sit(1, "Ann")
    twin.sit(2, "Bea")
    twin.commands, twin.session = [], None
    twin.rebuild(t.commands)  # every process works the abort out of the stored commands alike
    assert twin.aborted and twin.missed_first_move == seat
    t.disconnect(seat)
    t.connect(seat)  # he opened the table again: no longer away
    assert t.away_from(seat) is None and t.seats[seat - 1].idle_since is None
    # the expert's move for one away past the away rule is stored as such: never his own first move
    gone = Table("g", "x", get_rules("conquian"), seed=5, away_after=60, rated=True)
    gone.sit(1, "Ann")
    gone.sit(2, "Bea")
    assert gone.session is not None and gone.session.deal.to_act is not None
    first = gone.session.deal.to_act
    gone.disconnect(first, now=0.0)
    assert gone.bot_to_act(now=61.0) == (first, "expert")
    assert gone.act(first, gone.session.legal()[0], gone.state, away=True).startswith("away act ")
    assert not gone.seats[first - 1].moved and gone.aborted and gone.away_from(first) == 0.0
    casual = Table("c", "x", get_rules("conquian"), seed=5, turn_timer=30)
    casual.sit(1, "Ann")
    casual.sit(2, "Bea")
    casual.rebuild([])
    assert not casual.aborted


# ------------------------------------------------------------------ finding 1: no engine help
def test_a_hint_is_refused_at_every_turn_of_a_rated_table_and_its_record_until_the_end(server: Server) -> None:
    t, seats = rated_pair(server, "Hana", "Hugo", deals=2)
    ann, bea = Client(server, t["id"], seats[0]["token"]), Client(server, t["id"], seats[1]["token"])
    first = ann.wait_table(lambda x: x["status"] == "playing")
    assert first["rated"] is True and first["turn_timer"] == CLOCK and first["aborted"] is False
    refused = 0
    end = time.time() + 120
    while time.time() < end and not (ann.table.get("deal") or {}).get("over"):
        for c in (ann, bea):
            x = c.table
            if x.get("legal") and x["deal"]["to_act"] == x["you"]:
                c.send({"type": "hint"})  # the hostile client: a hint before every move
                e = c.error()
                assert e["code"] == "fair_play" and e["message"] == "fair_play: no hints at a rated table: the " \
                    "fair-play rules", e
                refused += 1
                c.act(x["legal"][0])
                c.wait_table(lambda y, s=x["state"]: y["state"] > s)
        pump([ann, bea])
    assert refused >= 4 and ann.table["deal"]["over"] and ann.table["status"] == "playing"
    assert not [m for c in (ann, bea) for m in c.other if m["type"] == "hint"]
    # between deals the record holds every card dealt so far: not while a rated match is played
    r = httpx.get(server.url + f"/api/tables/{t['id']}/record")
    assert r.status_code == 409 and r.json()["error"]["code"] == "fair_play"
    # the host may not take the clock away, nor lengthen it
    host = Client(server, t["id"], host=t["host"])
    for seconds in (None, 30):
        host.send({"type": "turn_timer", "seconds": seconds})
        assert host.error()["code"] == "bad_turn_timer"
    for c in (ann, bea, host):
        c.close()


def test_a_hint_is_refused_at_a_quick_match_and_answered_at_a_casual_table(server: Server) -> None:
    ann, ha = signed_in(server.url, "Quin")
    bea, hb = signed_in(server.url, "Quon")
    quick(ann, ha, game="conquian", players=2)
    second = quick(bea, hb, game="conquian", players=2).json()
    mine = wait_matched(ann)
    tokens = {mine["seat"]: mine["token"], second["seat"]: second["token"]}
    clients = [Client(server, mine["table"], tokens[1]), Client(server, mine["table"], tokens[2])]
    x = clients[0].wait_table(lambda y: y["deal"] and y["deal"]["to_act"] in (1, 2))
    assert x["rated"] is True and x["turn_timer"] == CLOCK
    to_act = clients[x["deal"]["to_act"] - 1]
    to_act.send({"type": "hint"})
    assert to_act.error()["code"] == "fair_play"
    for c in clients:
        c.close()
    # a casual table keeps its hint
    casual = server.create(variant="conquian", host_name="Cass", seats=[{"kind": "open"}, {"kind": "random"}])
    cass = Client(server, casual["id"], casual["token"])
    table = cass.wait_table(lambda y: y["status"] == "playing" and y["deal"]["to_act"] == 1)
    assert table["rated"] is False
    cass.send({"type": "hint"})
    assert cass.wait(lambda m: m["type"] == "hint", timeout=60)["act"] in table["legal"]
    cass.close()


# ------------------------------------------------------------------ finding 2: the clocks
def test_a_connected_player_who_never_moves_is_played_for_and_ranked_as_one_who_left(server: Server) -> None:
    t, seats = rated_pair(server, "Iris", "Ivan", deals=1, away_after=AWAY)
    ann, bea = Client(server, t["id"], seats[0]["token"]), Client(server, t["id"], seats[1]["token"])
    # each makes a first move himself (no abort); then Ivan stays connected and never moves again
    moved = {0: False, 1: False}
    end = time.time() + 60
    while not all(moved.values()) and time.time() < end:
        for i, c in enumerate((ann, bea)):
            x = c.table
            if x.get("legal") and x["deal"]["to_act"] == x["you"] and not (i == 1 and moved[1]):
                c.act(x["legal"][0])
                c.wait_table(lambda y, s=x["state"]: y["state"] > s)
                moved[i] = True
        pump([ann, bea])
    assert all(moved.values())
    # the expert moves for him within the clock (the reviewer's griefer held the table for 120 s and more)
    ann.wait_table(lambda y: note("Ivan") in y["log"], timeout=10 * CLOCK)
    over = play_out([ann], timeout=240)
    assert over["aborted"] is False
    page: dict[str, Any] = {}
    for _ in range(100):
        page = httpx.get(server.url + "/api/players/Ivan").json()
        if page.get("recent") and page["recent"][0].get("place"):
            break
        time.sleep(0.1)
    mine = httpx.get(server.url + "/api/players/Iris").json()
    # he stayed connected, yet he is ranked after the player who played: as one who left
    assert page["recent"][0]["place"] == 2 and mine["recent"][0]["place"] == 1, (page, mine)
    ann.close()
    bea.close()


def test_a_paired_seat_never_opened_is_played_within_its_deadline_and_the_match_is_aborted(server: Server) -> None:
    ann, ha = signed_in(server.url, "Juno")
    bea, hb = signed_in(server.url, "Jude")
    quick(ann, ha, game="conquian", players=2)
    quick(bea, hb, game="conquian", players=2)
    mine = wait_matched(ann)  # Jude never opens the table
    juno = Client(server, mine["table"], mine["token"])
    other = 3 - mine["seat"]
    end = time.time() + 10 * CLOCK
    while note("Jude") not in juno.table["log"] and time.time() < end:
        x = juno.table
        if x.get("legal") and x["deal"]["to_act"] == x["you"]:  # Juno plays her own moves at once
            juno.act(x["legal"][0])
            juno.wait_table(lambda y, s=x["state"]: y["state"] > s)
        pump([juno])
    x = juno.table
    assert note("Jude") in x["log"] and note("Juno") not in x["log"]
    assert x["aborted"] is True and x["rated"] is True and x["status"] == "playing"
    assert any("the match is aborted and will not be rated: Jude" in line for line in x["log"])
    assert x["seats"][other - 1]["name"] == "Jude"
    # the match moves on: Juno plays it out, the expert for Jude
    over = play_out([juno], timeout=240)
    assert over["status"] == "over"
    page: dict[str, Any] = {}
    for _ in range(100):  # settled in the background once over: its rated mark taken away
        page = httpx.get(server.url + "/api/players/Juno").json()
        if page["recent"] and page["recent"][0]["rated"] is False:
            break
        time.sleep(0.1)
    assert not page["games"] and page["recent"][0]["rated"] is False, page
    rows = board(server.url)
    assert "Juno" not in rows and "Jude" not in rows  # aborted: not rated
    juno.close()


def test_a_restarted_server_keeps_a_rated_table_s_clock_and_rules(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'web.db'}"
    flags = ("--log-level", "warning", "--rated-clock", "300")
    s = Server(db, tmp_path, extra=flags).start()
    try:
        t, seats = rated_pair(s, "Kai", "Kim", deals=1)
    finally:
        s.stop()
    s2 = Server(db, tmp_path, port=s.port, extra=flags).start()
    try:
        clients = [Client(s2, t["id"], seat["token"]) for seat in seats]
        x = clients[0].wait_table(lambda y: y["status"] == "playing")
        assert x["rated"] is True and x["turn_timer"] == 300 and x["turn_ends"] is not None
        to_act = clients[x["deal"]["to_act"] - 1]
        to_act.send({"type": "hint"})
        assert to_act.error()["code"] == "fair_play"
        for c in clients:
            c.close()
    finally:
        s2.stop()
