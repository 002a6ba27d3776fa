"""Quick match (docs/protocol.md, "Quick match"): the rating window that widens with the wait and
the groups it makes; over a real server, only signed-in players with a name queue (with the CSRF
token), two players of the same game and size are paired once at a rated table with their seats
tied to their accounts, a player leaves the queue, bots fill the empty seats only after the wait,
and what a waiting or paired player is told holds no card (the same when every card unknown to
a seat is dealt again)."""

from __future__ import annotations

import itertools
import json
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from conquian.bots.levels import fixed_rating, level_for
from conquian.web.platform.quickmatch.service import (
    NEW_RATING,
    WINDOW_EVERY,
    Waiting,
    accepts,
    check_request,
    groups,
    status,
    window,
)
from conquian.web.platform.ratings.service import NEW_SIGMA
from test_web_ratings import board, play_out
from test_web_ratings import signed_in as signed_in_at
from web_server import Client, Server

#: A card as the protocol writes it (R2.1): what no quick-match payload may hold.
CARD = re.compile(r"\b(?:[2-9TAJQK][cdhs]|X)\b")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("quick")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp,
               extra=("--log-level", "warning", "--quick-bot-after", "2", "--quick-deals", "1")).start()
    yield s
    s.stop()


# ------------------------------------------------------------------ the window and the groups
def test_the_window_widens_by_fifty_every_five_seconds() -> None:
    assert window(0) == window(WINDOW_EVERY - 0.01) == 100
    assert [window(5 * k) for k in range(5)] == [100, 150, 200, 250, 300]
    assert window(-3) == 100  # a clock a little behind another process's


def test_a_group_is_made_when_each_accepts_the_others() -> None:
    a, b = Waiting("a", 1000, 0.0), Waiting("b", 1150, 8.0)
    assert not accepts([a, b], 8.0)  # a's window is 150 after 8 s, b's still 100
    assert not accepts([a, b], 12.9)
    assert accepts([a, b], 13.0)  # b has waited 5 s: 150 both
    assert groups([a, b], 2, 8.0) == [] and groups([a, b], 2, 13.0) == [([a, b], 0)]


def test_the_longest_waiting_is_paired_first_with_the_closest() -> None:
    old, near, far, new = (Waiting("old", 1200, 0.0), Waiting("near", 1230, 9.0), Waiting("far", 1110, 2.0),
                           Waiting("new", 1240, 9.5))
    made = groups([near, far, new, old], 2, 10.0)
    # old (window 200) takes near (30 away); far (150 after 8 s) and new (100 after 0.5 s) are 130 apart
    assert [[w.account for w in g] for g, _ in made] == [["old", "near"]]
    # three players: the first to wait (by name at the same time) and the two closest to him
    three = groups([Waiting("x", 1000, 0.0), Waiting("y", 1050, 0.0), Waiting("z", 1090, 0.0),
                    Waiting("w", 1095, 0.0)], 3, 1.0)
    assert [(sorted(w.account for w in g), bots) for g, bots in three] == [(["w", "y", "z"], 0)]


def test_bots_fill_a_group_only_after_the_wait_and_when_asked() -> None:
    alone = Waiting("a", 1000, 0.0, bots=True)
    assert groups([alone], 3, 5.0, bot_after=10.0) == []
    assert groups([alone], 3, 10.0, bot_after=10.0) == [([alone], 2)]
    unwilling = Waiting("b", 1000, 0.0)
    assert groups([unwilling], 2, 100.0, bot_after=10.0) == []
    # a waiting player within the window who also accepts bots joins the group; one who does not, stays
    other, stays = Waiting("c", 1050, 4.0, bots=True), Waiting("d", 1020, 4.0)
    made = groups([alone, stays, other], 4, 10.0, bot_after=10.0)
    assert made == [([alone, other], 2)]


def test_a_request_is_checked() -> None:
    assert check_request({"game": "cooncan", "players": 3, "bots": True}) == ("cooncan", 3, True, True)
    assert check_request({}) == ("conquian", 2, False, True)  # rated by default
    assert check_request({"rated": False}) == ("conquian", 2, False, False)
    for bad, code in (([], "bad_request"), ({"game": "chess"}, "bad_variant"), ({"players": 9}, "bad_players"),
                      ({"players": "2"}, "bad_request"), ({"bots": 1}, "bad_request"), ({"deck": "x"}, "bad_request"),
                      ({"rated": "no"}, "bad_request"), ({"game": "conquian-mexicano", "players": 5}, "bad_players")):
        with pytest.raises(Exception) as e:
            check_request(bad)
        assert getattr(e.value, "code", None) == code, bad


# ------------------------------------------------------------------ over a server
#: Each player's own address (documentation's 192.0.2.0/24): two accounts of one address are not
#: paired for a rated match, so players who are to meet come from different ones.
ADDRESSES = (f"192.0.2.{n}" for n in itertools.cycle(range(1, 255)))


def signed_in(url: str, name: str, address: str | None = None) -> tuple[httpx.Client, dict[str, str]]:
    """A new named account whose requests come from an address of its own (or ``address``)."""
    return signed_in_at(url, name, address or next(ADDRESSES))


def quick(c: httpx.Client, h: dict[str, str], **body: Any) -> httpx.Response:
    return c.post("/api/quick", json=body, headers=h)


def wait_matched(c: httpx.Client, timeout: float = 15) -> dict[str, Any]:
    end = time.time() + timeout
    while time.time() < end:
        now = c.get("/api/quick").json()
        if now.get("matched"):
            return dict(now)
        time.sleep(0.2)
    raise AssertionError("not paired")


def test_only_named_accounts_queue_with_their_csrf_token(server: Server) -> None:
    assert httpx.post(server.url + "/api/quick", json={}).status_code == 401
    assert httpx.get(server.url + "/api/quick").status_code == 401
    c = httpx.Client(base_url=server.url, timeout=10)
    csrf = c.post("/api/account", json={}).json()["csrf"]
    r = c.post("/api/quick", json={}, headers={"X-CSRF-Token": csrf, "Accept-Language": "es-MX"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "sign_in" and "cuenta" in r.json()["error"]["message"]
    ann, h = signed_in(server.url, "Quinn")
    assert ann.post("/api/quick", json={}).status_code == 403  # no CSRF token: refused
    assert quick(ann, h, game="chess").json()["error"]["code"] == "bad_variant"
    now = quick(ann, h, game="cooncan", players=3).json()
    assert now["queued"] and not now["matched"] and now["window"] == 100 and now["rating"] == 1500
    assert now["bots_in"] == 2 and now["bots"] is False
    # too soon for bots; then leave
    r = ann.post("/api/quick/bots", headers=h)
    assert r.status_code == 409 and r.json()["error"]["code"] == "too_soon"
    assert ann.request("DELETE", "/api/quick", headers=h).json() == {"queued": False}
    assert ann.get("/api/quick").json() == {"queued": False}


def test_two_players_are_paired_once_at_a_rated_table(server: Server) -> None:
    ann, ha = signed_in(server.url, "Rosa")
    bea, hb = signed_in(server.url, "Saul")
    first = quick(ann, ha, game="conquian", players=2).json()
    assert first["matched"] is False and first["waiting"] == 1
    second = quick(bea, hb, game="conquian", players=2).json()
    assert second["matched"] is True  # paired on joining
    mine = wait_matched(ann)
    assert mine["table"] == second["table"] and {mine["seat"], second["seat"]} == {1, 2}
    table = httpx.get(server.url + f"/api/tables/{mine['table']}").json()
    assert table["status"] == "playing" and sorted(s["name"] for s in table["seats"]) == ["Rosa", "Saul"]
    # the seats are tied to the accounts; leaving now is refused (the seat waits), and joining again
    # puts the player in the queue afresh
    assert {s["table"] for s in ann.get("/api/account").json()["seats"]} == {mine["table"]}
    r = ann.request("DELETE", "/api/quick", headers=ha)
    assert r.status_code == 409 and r.json()["quick"]["table"] == mine["table"]
    clients = {mine["seat"]: Client(server, mine["table"], mine["token"]),
               second["seat"]: Client(server, second["table"], second["token"])}
    play_out([clients[1], clients[2]])
    for _ in range(100):
        rows = board(server.url)
        if "Rosa" in rows and "Saul" in rows:
            break
        time.sleep(0.1)
    assert rows["Rosa"]["games"] == rows["Saul"]["games"] == 1 and rows["Rosa"]["provisional"]
    assert rows["Rosa"]["sigma"] < NEW_SIGMA  # rated: the model is surer of her (a draw keeps 1,500)
    assert mine["table"] in [f["id"] for f in httpx.get(server.url + "/api/tables").json()["finished"]]
    # rated now: the next quick match is asked with the new rating
    again = quick(ann, ha, game="conquian", players=2).json()
    assert again["rating"] == rows["Rosa"]["rating"] and not again.get("matched")
    assert ann.request("DELETE", "/api/quick", headers=ha).status_code == 200


def test_a_casual_quick_match_is_paired_apart_and_not_rated(server: Server) -> None:
    vic, hv = signed_in(server.url, "Vic")
    wes, hw = signed_in(server.url, "Wes")
    xia, hx = signed_in(server.url, "Xia")
    assert quick(vic, hv, game="conquian-spanish", players=2, rated=False).json()["rated"] is False
    assert quick(wes, hw, game="conquian-spanish", players=2).json()["matched"] is False  # rated: not with Vic
    seat = quick(xia, hx, game="conquian-spanish", players=2, rated=False).json()
    assert seat["matched"] is True and seat["rated"] is False
    assert wait_matched(vic)["table"] == seat["table"]
    table = httpx.get(server.url + f"/api/tables/{seat['table']}").json()
    assert table["public"] is False and sorted(s["name"] for s in table["seats"]) == ["Vic", "Xia"]
    assert wes.get("/api/quick").json()["matched"] is False  # still waiting for a rated match
    assert wes.request("DELETE", "/api/quick", headers=hw).status_code == 200
    from conquian.web.platform.ratings.storage import Ratings
    from conquian.web.store import Store

    store = Store(f"sqlite:///{server.tmp / 'web.db'}")
    try:
        assert not Ratings(store.engine).is_rated(seat["table"])  # never rated
    finally:
        store.dispose()


def test_bots_fill_the_empty_seats_after_the_wait(server: Server) -> None:
    tess, h = signed_in(server.url, "Tess")
    now = quick(tess, h, game="cooncan", players=3).json()
    assert now["bots_in"] == 2
    time.sleep(2.1)
    assert tess.get("/api/quick").json()["matched"] is False  # not asked for: she waits on
    seat = tess.post("/api/quick/bots", headers=h).json()
    assert seat["matched"] is True
    table = httpx.get(server.url + f"/api/tables/{seat['table']}").json()
    kinds = sorted(s["kind"] for s in table["seats"])
    # three-hand Cooncan has fitted levels: a newcomer's two bots are the level nearest his rating
    fill = level_for("cooncan", NEW_RATING)
    assert fill is not None and fixed_rating("cooncan", fill) is not None
    assert kinds == sorted([fill, fill, "human"]) and table["status"] == "playing"
    # asked for when joining: filled by the server's own rounds once the wait is over
    uma, hu = signed_in(server.url, "Uma")
    assert quick(uma, hu, game="conquian", players=2, bots=True).json()["bots"] is True
    seat = wait_matched(uma, timeout=10)
    kinds = sorted(s["kind"] for s in httpx.get(server.url + f"/api/tables/{seat['table']}").json()["seats"])
    # a newcomer's bot is the level fitted nearest his rating: foster, the anchor, at 1,500 as he is
    assert kinds == sorted([level_for("conquian", NEW_RATING), "human"]) and kinds[0] == "foster"


def test_two_players_of_whom_one_blocked_the_other_are_not_paired(server: Server) -> None:
    vic, hv = signed_in(server.url, "Yolanda")
    wes, hw = signed_in(server.url, "Zeferino")
    assert vic.post("/api/blocks", json={"name": "Zeferino"}, headers=hv).status_code == 200
    assert quick(vic, hv, game="conquian", players=2).json()["matched"] is False
    assert quick(wes, hw, game="conquian", players=2).json()["matched"] is False  # blocked: not together
    time.sleep(1.5)  # a pairing round of the server's own passes: still apart
    assert vic.get("/api/quick").json()["matched"] is False
    xia, hx = signed_in(server.url, "Quetzal")
    third = quick(xia, hx, game="conquian", players=2).json()
    assert third["matched"] is True  # with whichever of them waited longest: Yolanda
    assert wait_matched(vic)["table"] == third["table"] and wes.get("/api/quick").json()["matched"] is False
    assert wes.request("DELETE", "/api/quick", headers=hw).status_code == 200


def test_quick_payloads_hold_no_card_and_are_the_same_when_unknown_cards_are_redealt(tmp_path: Path) -> None:
    """A waiting player's and a paired player's payloads are built from the queue only: at the
    table made for them, whose match goes on, the same payloads whatever the cards unknown to each
    seat, and no card in them."""
    from conquian.web.platform.accounts.storage import AccountStore
    from conquian.web.platform.quickmatch.storage import QuickStore
    from conquian.web.store import Store
    from test_view import rearrange_hidden
    from test_web_table import _play_and_snapshot, _twin

    store = Store(f"sqlite:///{tmp_path / 'q.db'}")
    store.upgrade()
    accounts, queue = AccountStore(store.engine), QuickStore(store)
    ids = []
    for name in ("P1", "P2", "P3"):
        account_id, _sid, _token = accounts.create("test")
        accounts.set_name(account_id, name)
        ids.append(account_id)
    queue.join(ids[0], "conquian", 2, False, now=100.0)
    queue.join(ids[2], "cooncan", 3, False, now=100.0)
    waiting = status(queue.entry(ids[0]), 103.0, 30.0, 1)
    assert waiting == {"queued": True, "game": "conquian", "players": 2, "rated": True, "rating": 1500,
                       "provisional": True, "matched": False, "waited": 3, "window": 100, "bots": False,
                       "bots_in": 27, "waiting": 1}
    queue.join(ids[1], "conquian", 2, False, now=101.0)
    [table] = queue.pair(30.0, now=104.0)
    assert queue.pair(30.0, now=104.5) == []  # paired once
    stored = store.load(table.id)
    assert stored is not None and stored.commands == table.commands
    def payloads() -> list[str]:
        out = []
        for account_id in ids:
            entry = queue.entry(account_id)
            text = json.dumps(status(entry, 105.0, 30.0), sort_keys=True)
            # no card (the table's id and the seat's token are random words: left out of the search)
            assert entry is not None and not CARD.search(text.replace(table.id, "").replace(str(entry["token"]), ""))
            out.append(text)
        return out

    before = payloads()
    _play_and_snapshot(stored, random.Random(3), 5)
    deal = stored.session.deal  # type: ignore[union-attr]
    for seat in (1, 2):
        twin = _twin(stored, tuple(rearrange_hidden(deal, seat, random.Random(seat)).deck))
        store.delete(stored.id)
        store.create(twin)
        assert payloads() == before
    paired = [status(queue.entry(a), 105.0, 30.0) for a in ids[:2]]
    assert all(p["matched"] and p["table"] == table.id for p in paired)
    assert set(paired[0]) == {"queued", "game", "players", "rated", "rating", "provisional", "matched", "table", "seat",
                              "token", "url"}
    assert status(queue.entry(ids[2]), 105.0, 30.0)["matched"] is False


# ------------------------------------------------------------------ nobody is seated in his absence
def test_a_player_whose_page_stopped_asking_is_never_seated(tmp_path: Path) -> None:
    """A closed page (nobody asks how things stand for ``--quick-gone-after`` seconds) leaves the
    queue: the next player is not paired with an empty chair, and a rated loss by the away rule
    cannot fall on someone who was not there.  A page that keeps asking keeps its place."""
    s = Server(f"sqlite:///{tmp_path / 'web.db'}", tmp_path,
               extra=("--log-level", "warning", "--quick-gone-after", "5", "--quick-deals", "1")).start()
    try:
        ana, ha = signed_in(s.url, "Anabel")
        bea, hb = signed_in(s.url, "Benita")
        assert quick(ana, ha, game="conquian", players=2).json()["matched"] is False
        time.sleep(5.5)  # Anabel's page is closed: it asks nothing
        now = quick(bea, hb, game="conquian", players=2).json()
        assert now["matched"] is False and now["waiting"] == 1, now  # Benita alone
        assert ana.get("/api/quick").json() == {"queued": False}
        # Benita's page asks every second, for longer than the limit: she keeps her place
        end = time.time() + 6.0
        while time.time() < end:
            assert bea.get("/api/quick").json()["matched"] is False
            time.sleep(1.0)
        cira, hc = signed_in(s.url, "Ciriaco")
        seat = quick(cira, hc, game="conquian", players=2).json()
        assert seat["matched"] is True and wait_matched(bea)["table"] == seat["table"]
    finally:
        s.stop()


def test_signing_out_leaves_the_queue(server: Server) -> None:
    """The browser that waited signs out: nobody is there to sit down, so the account leaves the queue."""
    dora, hd = signed_in(server.url, "Dorotea")
    eli, he = signed_in(server.url, "Eliseo")
    assert quick(dora, hd, game="conquian-spanish", players=2).json()["matched"] is False
    assert dora.post("/api/account/signout", headers=hd).status_code == 200
    now = quick(eli, he, game="conquian-spanish", players=2).json()
    assert now["matched"] is False and now["waiting"] == 1, now
    assert eli.request("DELETE", "/api/quick", headers=he).status_code == 200


# ------------------------------------------------------------------ people, not an address with itself
def test_two_accounts_from_one_address_are_not_paired_for_a_rated_match(server: Server) -> None:
    """The outside review's probe: two accounts from one address queued for a rated quick match
    and were paired within a second.  Now each waits on (the queue tells each that nobody he could
    meet waits), a player from another address is paired with the one who waited longest, and a
    casual match may pair them."""
    one, ho = signed_in(server.url, "Nicasio", "198.51.100.7")
    two, ht = signed_in(server.url, "Nicanor", "198.51.100.7")
    assert quick(one, ho, game="conquian", players=2).json()["matched"] is False
    joined = quick(two, ht, game="conquian", players=2).json()  # the join pairs at once if it may
    assert joined["matched"] is False and joined["waiting"] == 1  # himself: the other is not for him
    now = one.get("/api/quick").json()
    assert now["matched"] is False and now["waiting"] == 1
    other, hx = signed_in(server.url, "Norberta", "203.0.113.9")
    assert quick(other, hx, game="conquian", players=2).json()["matched"] is True  # with the first to wait
    assert wait_matched(one)["table"] == other.get("/api/quick").json()["table"]
    assert two.get("/api/quick").json()["matched"] is False
    assert two.request("DELETE", "/api/quick", headers=ht).json() == {"queued": False}
    # casual: not rated, nothing to trade; two of one home may play each other
    three, h3 = signed_in(server.url, "Nemesio", "198.51.100.8")
    four, h4 = signed_in(server.url, "Nemesia", "198.51.100.8")
    assert quick(three, h3, game="conquian", players=2, rated=False).json()["matched"] is False
    assert quick(four, h4, game="conquian", players=2, rated=False).json()["matched"] is True


def test_one_address_is_one_ipv6_network_and_kept_hashed(tmp_path: Path) -> None:
    from sqlalchemy import select

    from conquian.web.platform.accounts.storage import AccountStore
    from conquian.web.platform.quickmatch.storage import QuickStore, quick_queue
    from conquian.web.store import Store

    store = Store(f"sqlite:///{tmp_path / 'a.db'}")
    store.upgrade()
    accounts, queue = AccountStore(store.engine), QuickStore(store)
    ids = []
    for name in ("P1", "P2", "P3"):
        account_id, _sid, _token = accounts.create("test")
        accounts.set_name(account_id, name)
        ids.append(account_id)
    try:
        queue.join(ids[0], "conquian", 2, False, now=100.0, address="2001:db8:1:2::10")
        queue.join(ids[1], "conquian", 2, False, now=100.2, address="2001:db8:1:2:a::7")  # the same /64
        assert queue.pair(30.0, now=101.0) == [] and queue.waiting_count("conquian", 2, True, ids[0]) == 1
        with store.engine.connect() as conn:
            kept = [r.address for r in conn.execute(select(quick_queue.c.address))]
        assert all(a and "2001" not in a and len(a) == 64 for a in kept)  # no address as it is
        queue.join(ids[2], "conquian", 2, False, now=100.5, address="2001:db8:1:3::10")  # another network
        [table] = queue.pair(30.0, now=102.0)
        assert {queue.entry(a)["table_id"] for a in (ids[0], ids[2])} == {table.id}  # type: ignore[index]
    finally:
        store.dispose()


# ------------------------------------------------------------------ the window reaches a bot
def test_a_lone_player_gets_a_bot_once_his_window_reaches_one(tmp_path: Path) -> None:
    """Bots fill a lone player's seats after the wait and once his widening window reaches the
    fitted level nearest his rating (the review saw a window of 900-1100 that no bot's rating was
    in): a strong player far above every bot is offered one later, and it is the nearest level."""
    from sqlalchemy import insert

    from conquian.bots.levels import rated_bots
    from conquian.web.platform.accounts.storage import AccountStore
    from conquian.web.platform.quickmatch.service import bot_distance, reach_after
    from conquian.web.platform.quickmatch.storage import QuickStore
    from conquian.web.platform.ratings.service import POINTS_PER_MU
    from conquian.web.platform.ratings.storage import ratings
    from conquian.web.store import Store

    store = Store(f"sqlite:///{tmp_path / 'w.db'}")
    store.upgrade()
    accounts, queue = AccountStore(store.engine), QuickStore(store)
    strong, _sid, _token = accounts.create("test")
    accounts.set_name(strong, "Strong")
    with store.engine.begin() as conn:  # 2,100: 500 and more above every conquian bot
        conn.execute(insert(ratings).values(subject=strong, game="conquian", mu=25 + 600 / POINTS_PER_MU, sigma=2.0,
                                            games=40, wins=30, draws=0, tableaux=0, updated_at=0.0))
    try:
        queue.join(strong, "conquian", 2, True, now=0.0)
        entry = queue.entry(strong)
        assert entry is not None and entry["rating"] == 2100 and entry["provisional"] is False
        top = max(r for _b, r in rated_bots("conquian"))
        distance = bot_distance("conquian", 2100)
        assert distance == 2100 - top and reach_after(distance) > 2.0
        reach = reach_after(distance)
        assert window(reach - 0.01) < distance <= window(reach)
        # bots were wanted from the start and the wait (2 s) is over, but no bot is within his window yet
        assert queue.pair(2.0, now=reach - 0.01) == []
        told = status(queue.entry(strong), reach - 1.0, 2.0)
        assert told["bots_in"] == 1 and told["window"] < distance
        [table] = queue.pair(2.0, now=reach)
        bot = next(s.kind for s in table.seats if s.kind != "human")
        assert bot == level_for("conquian", 2100) and fixed_rating("conquian", bot)["rating"] == top  # type: ignore[index]
        # a newcomer is at foster's 1,500: a bot is within his window at once (after the wait)
        assert bot_distance("conquian", NEW_RATING) == 0 and reach_after(0) == 0.0
    finally:
        store.dispose()
