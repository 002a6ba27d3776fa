"""Rated tables over a real server: only signed-in players with a name sit there, a rated match
moves both players' ratings (openskill) once it is over, the leaderboard lists them beside the bots
(marked), a player's page has each game's rating with its history and the recent matches with their
replay links, a rated match is listed among the lobby's finished matches, and a deleted account's
ratings are gone."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text

from conquian.web.platform.ratings.service import NEW_SIGMA
from conquian.web.platform.ratings.storage import Ratings
from test_web_accounts import visit
from web_server import Client, Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("ratings")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp).start()
    yield s
    s.stop()


def signed_in(url: str, name: str, address: str | None = None) -> tuple[httpx.Client, dict[str, str]]:
    """A new account named ``name``: its client and CSRF header; ``address``: the client address
    its requests come from once named (``X-Forwarded-For``, which a server on loopback trusts from
    loopback, as behind a proxy)."""
    c, csrf = visit(url)
    if address is not None:
        c.headers["X-Forwarded-For"] = address
    h = {"X-CSRF-Token": csrf}
    assert c.post("/api/account/name", json={"name": name}, headers=h).status_code == 200
    return c, h


def play_out(clients: list[Client], timeout: float = 240) -> dict[str, Any]:
    """Play every client's seat (its first listed move) until the match is over."""
    end = time.time() + timeout
    acted: dict[int, int] = {}
    while time.time() < end:
        for i, c in enumerate(clients):
            t = c.table
            if t.get("status") == "over":
                return t
            if t.get("legal") and acted.get(i) != t["state"]:
                acted[i] = t["state"]
                c.act(t["legal"][0])
        for c in clients:
            with contextlib.suppress(TimeoutError):
                c.recv(0.05)
            assert not c.errors, c.errors
    raise AssertionError("the match did not end")


def board(url: str, game: str = "conquian") -> dict[str, dict[str, Any]]:
    r = httpx.get(url + f"/api/leaderboard?game={game}")
    assert r.status_code == 200 and r.json()["game"] == game
    return {e["name"]: e for e in r.json()["players"]}


def test_a_rated_match_moves_both_ratings(server: Server) -> None:
    url = server.url
    ann, ha = signed_in(url, "Ann")
    bea, hb = signed_in(url, "Bea")
    t = ann.post("/api/tables", json={"variant": "conquian", "rated": True, "deals": 1}, headers=ha).json()
    # a guest may not sit at a rated table
    guest = httpx.post(url + f"/api/tables/{t['id']}/sit", json={"seat": 2, "name": "Guest"})
    assert guest.status_code == 403 and guest.json()["error"]["code"] == "sign_in"
    sa = ann.post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": "x"}, headers=ha).json()
    sb = bea.post(f"/api/tables/{t['id']}/sit", json={"seat": 2, "name": "x"}, headers=hb).json()
    ca, cb = Client(server, t["id"], sa["token"]), Client(server, t["id"], sb["token"])
    over = play_out([ca, cb])
    totals = [s["total"] for s in over["standings"]]
    for _ in range(100):
        rows = board(url)
        if "Ann" in rows and "Bea" in rows:
            break
        time.sleep(0.1)
    a, b = rows["Ann"], rows["Bea"]
    assert a["games"] == b["games"] == 1 and not a["bot"]
    # both from a newcomer's 1,500 and his uncertainty: the model is surer of both (a draw too), and
    # each is provisional after one game
    assert a["sigma"] < NEW_SIGMA and b["sigma"] < NEW_SIGMA and a["provisional"] and b["provisional"]
    if totals[0] == totals[1]:
        assert a["draws"] == b["draws"] == 1 and a["mu"] == b["mu"] and a["rating"] == b["rating"] == 1500
    else:
        winner, loser = (a, b) if totals[0] > totals[1] else (b, a)
        assert winner["wins"] == 1 and loser["wins"] == 0 and winner["mu"] > 25 > loser["mu"]
        assert winner["rating"] > 1500 > loser["rating"]
    # rated once, whatever else happens at the table
    assert board(url)["Ann"]["games"] == 1
    # a rated match is listed among the finished ones, its replay open to anyone
    assert t["id"] in [f["id"] for f in httpx.get(url + "/api/tables").json()["finished"]]
    assert httpx.get(url + f"/api/tables/{t['id']}/replay").status_code == 200
    page = httpx.get(url + "/api/players/Ann").json()
    assert page["games"]["conquian"]["games"] == 1 and len(page["games"]["conquian"]["history"]) == 1
    assert page["recent"][0]["replay"] == f"/r/{t['id']}"
    assert httpx.get(url + "/api/players/Nobody").status_code == 404


def test_bots_on_the_leaderboard_and_deleted_accounts_gone(server: Server) -> None:
    url = server.url
    cleo, h = signed_in(url, "Cleo")
    t = cleo.post("/api/tables", json={"variant": "conquian", "rated": True, "deals": 1}, headers=h).json()
    seat = cleo.post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": "x"}, headers=h).json()
    assert httpx.post(url + f"/api/tables/{t['id']}/bot", json={"seat": 2, "bot": "random", "host": t["host"]},
                      headers={"Content-Type": "application/json"}).status_code == 200
    play_out([Client(server, t["id"], seat["token"])])
    for _ in range(100):
        rows = board(url)
        if "Cleo" in rows and "random" in rows:
            break
        time.sleep(0.1)
    assert rows["random"]["bot"] is True and rows["random"]["games"] == 1 and rows["Cleo"]["bot"] is False
    assert httpx.get(url + "/api/leaderboard?game=nothing").status_code == 400
    assert cleo.post("/api/account/delete", headers=h).status_code == 200
    assert "Cleo" not in board(url)
    assert httpx.get(url + "/api/players/Cleo").status_code == 404


def test_pages(server: Server, tmp_path: Path) -> None:
    for path in ("/leaderboard", "/p/Ann", "/account"):
        r = httpx.get(server.url + path)
        assert r.status_code == 200 and "<main" in r.text


def test_ratings_payloads_are_the_same_when_unknown_cards_are_redealt(tmp_path: Path) -> None:
    """The leaderboard and a player's page are built from settled matches only: at a rated table
    whose match is under way, the table and its twin (every card unknown to a seat dealt again)
    settle nothing and give the same payloads; once a match is over every card is public."""
    import json
    import random

    from conquian.web.platform.accounts.storage import AccountStore
    from conquian.web.platform.ratings.storage import Ratings
    from conquian.web.store import Store
    from test_view import rearrange_hidden
    from test_web_table import _play_and_snapshot, _twin, full_table

    store = Store(f"sqlite:///{tmp_path / 'r.db'}")
    store.upgrade()
    accounts, board = AccountStore(store.engine), Ratings(store.engine)
    ids = []
    for name in ("P1", "P2"):
        account_id, _sid, _token = accounts.create("test")
        accounts.set_name(account_id, name)
        ids.append(account_id)
    for seed in range(6):
        t = full_table("conquian", 2, seed=seed)
        t.id = f"t{seed}"
        store.create(t)
        board.mark_rated(t.id)
        for seat, account_id in enumerate(ids, 1):
            accounts.tie_seat(account_id, t.id, seat)
        _play_and_snapshot(t, random.Random(seed), random.Random(seed).randint(0, 40))
        deal = t.session.deal  # type: ignore[union-attr]
        if deal.over:
            continue
        for seat in (1, 2):
            twin = _twin(t, tuple(rearrange_hidden(deal, seat, random.Random(seed + seat)).deck))
            payloads = []
            for table in (t, twin):
                assert board.settle(table) is False
                board.done.discard(table.id)
                payloads.append(json.dumps([board.leaderboard("conquian"), board.player("P1"), board.player("P2")]))
            assert payloads[0] == payloads[1]


def test_an_abandoned_match_is_a_loss_for_the_one_who_left(tmp_path: Path) -> None:
    import random

    from conquian.web.platform.accounts.storage import AccountStore
    from conquian.web.platform.ratings.storage import Ratings
    from conquian.web.store import Store
    from test_web_table import _play_and_snapshot, full_table

    store = Store(f"sqlite:///{tmp_path / 'a.db'}")
    store.upgrade()
    accounts, ratings = AccountStore(store.engine), Ratings(store.engine)
    ids = []
    for name in ("P1", "P2"):
        account_id, _sid, _token = accounts.create("test")
        accounts.set_name(account_id, name)
        ids.append(account_id)
    t = full_table("conquian", 2, seed=3, deals_in_match=1, away_after=30.0)
    t.id = "left1"
    store.create(t)
    ratings.mark_rated(t.id)
    for seat, account_id in enumerate(ids, 1):
        accounts.tie_seat(account_id, t.id, seat)
    _play_and_snapshot(t, random.Random(3), 500)
    assert t.status == "over"
    totals = [s["total"] for s in t.standings()]
    leaver = 1 if totals[0] >= totals[1] else 2  # the one who led (or tied) leaves: still last
    t.seats[leaver - 1].away_since = time.time() - 31
    assert ratings.settle(t) is True and ratings.settle(t) is False  # once
    rows = {r["name"]: r for r in ratings.leaderboard("conquian")}
    stayed = rows[f"P{3 - leaver}"]
    assert stayed["wins"] == 1 and rows[f"P{leaver}"]["wins"] == 0 and stayed["rating"] > rows[f"P{leaver}"]["rating"]
    assert ratings.player(f"P{leaver}")["recent"][0]["place"] == 2  # type: ignore[index]


def test_a_fitted_bot_keeps_its_rating_and_the_person_is_rated_against_it(tmp_path: Path) -> None:
    """A bot fitted on duplicate deals (``conquian/bots/levels.json``) is on the leaderboard before
    any rated match, with its fixed rating and interval; a rated match against it moves the
    person's rating as openskill does against that fixed rating (from a newcomer's prior: mu 25,
    :data:`NEW_SIGMA`), and not the bot's."""
    import random

    from openskill.models import PlackettLuce

    from conquian.bots.levels import fixed_rating
    from conquian.engine.rules import get_rules
    from conquian.web.platform.accounts.storage import AccountStore
    from conquian.web.platform.ratings.service import match_ranks
    from conquian.web.platform.ratings.storage import Ratings
    from conquian.web.store import Store
    from conquian.web.table import Table
    from test_web_table import _play_and_snapshot

    store = Store(f"sqlite:///{tmp_path / 'f.db'}")
    store.upgrade()
    accounts, ratings = AccountStore(store.engine), Ratings(store.engine)
    fit = fixed_rating("conquian", "foster")
    assert fit is not None
    rows = {r["name"]: r for r in ratings.leaderboard("conquian")}
    assert rows["foster"] == {"name": "foster", "bot": True, "fixed": True, "rating": fit["rating"], "mu": fit["mu"],
                              "sigma": fit["sigma"], "games": 0, "wins": 0, "draws": 0, "tableaux": 0,
                              "interval": fit["interval"], "provisional": False}
    assert fit["rating"] == 1500  # the anchor
    assert all(r["bot"] and r["fixed"] for r in rows.values())
    model = PlackettLuce()
    for i, bot in enumerate(("foster", "beginner")):
        account_id, _sid, _token = accounts.create("test")
        accounts.set_name(account_id, f"Q{i}")
        t = Table(f"fx{i}", "test", get_rules("conquian"), seed=4, deals_in_match=1)
        t.sit(1, "x")
        t.set_bot(2, bot, host=True)
        store.create(t)
        ratings.mark_rated(t.id)
        accounts.tie_seat(account_id, t.id, 1)
        _play_and_snapshot(t, random.Random(i), 500)
        assert t.status == "over"
        assert ratings.settle(t) is True
        ranks = match_ranks([int(x) for x in t.session.match.totals])  # type: ignore[union-attr]
        rows = {r["name"]: r for r in ratings.leaderboard("conquian")}
        its = fixed_rating("conquian", bot)
        assert its is not None
        before = model.rating(mu=its["mu"], sigma=its["sigma"])
        [[me], [_it]] = model.rate([[model.rating(mu=25.0, sigma=NEW_SIGMA)], [before]], ranks=ranks)
        assert rows[f"Q{i}"]["mu"] == round(me.mu, 3) and not rows[f"Q{i}"]["fixed"]
        assert rows[bot]["games"] == 1
        # fixed: as fitted, whatever the result
        assert [rows[bot][k] for k in ("mu", "sigma", "rating")] == [its["mu"], its["sigma"], its["rating"]]


def settled(url: str, name: str, games: int, game: str = "conquian") -> dict[str, Any]:
    """The player's leaderboard row once his ``games`` rated matches are rated."""
    for _ in range(200):
        row = board(url, game).get(name)
        if row is not None and row["games"] >= games:
            return row
        time.sleep(0.1)
    raise AssertionError(f"{name} was not rated {games} times")


def test_the_rematch_of_a_rated_match_is_rated(server: Server) -> None:
    """The same signed-in players sit again at a rated table's rematch: it is rated too, public
    once over, its seats tied to their accounts, and the ratings move after it."""
    url = server.url
    cora, hc = signed_in(url, "Cora")
    dan, hd = signed_in(url, "Dan")
    t = cora.post("/api/tables", json={"variant": "conquian", "rated": True, "deals": 1}, headers=hc).json()
    sc = cora.post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": "x"}, headers=hc).json()
    sd = dan.post(f"/api/tables/{t['id']}/sit", json={"seat": 2, "name": "x"}, headers=hd).json()
    cc, cd = Client(server, t["id"], sc["token"]), Client(server, t["id"], sd["token"])
    play_out([cc, cd])
    first = {n: settled(url, n, 1) for n in ("Cora", "Dan")}
    from test_web_chat import ask_rematch

    rid = ask_rematch(cc)
    # the same seats (their tokens), tied to the same accounts
    assert {"table": rid, "seat": 1} in cora.get("/api/account").json()["seats"]
    assert {"table": rid, "seat": 2} in dan.get("/api/account").json()["seats"]
    rc, rd = Client(server, rid, sc["token"]), Client(server, rid, sd["token"])
    assert [s["name"] for s in rc.table["seats"]] == ["Cora", "Dan"]
    play_out([rc, rd])
    after = {n: settled(url, n, 2) for n in ("Cora", "Dan")}
    for n in ("Cora", "Dan"):
        assert after[n]["games"] == 2
        assert after[n]["sigma"] < first[n]["sigma"]  # the rematch moved the rating: the model is surer
        page = httpx.get(url + f"/api/players/{n}").json()
        assert len(page["games"]["conquian"]["history"]) == 2
        assert [r["table"] for r in page["recent"]][:2] == [rid, t["id"]] and page["recent"][0]["rated"] is True
    assert settled(url, "Cora", 2)["games"] == 2  # rated once
    assert rid in [f["id"] for f in httpx.get(url + "/api/tables").json()["finished"]]  # public, as rated
    assert httpx.get(url + f"/api/tables/{rid}/replay").status_code == 200
    for c in (cc, cd, rc, rd):
        c.close()


def test_a_rematch_after_a_player_left_his_account_is_casual(server: Server) -> None:
    """If a person of a rated match has deleted his account, its rematch is casual and private
    (the seats of those still signed in stay tied to their accounts)."""
    url = server.url
    eve, he = signed_in(url, "Eve")
    fay, hf = signed_in(url, "Fay")
    t = eve.post("/api/tables", json={"variant": "conquian", "rated": True, "deals": 1}, headers=he).json()
    se = eve.post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": "x"}, headers=he).json()
    sf = fay.post(f"/api/tables/{t['id']}/sit", json={"seat": 2, "name": "x"}, headers=hf).json()
    ce, cf = Client(server, t["id"], se["token"]), Client(server, t["id"], sf["token"])
    play_out([ce, cf])
    settled(url, "Eve", 1)
    assert fay.post("/api/account/delete", headers=hf).status_code == 200
    from test_web_chat import ask_rematch

    rid = ask_rematch(ce)
    engine = create_engine(f"sqlite:///{server.tmp / 'web.db'}")
    with engine.begin() as conn:
        assert conn.execute(text("SELECT count(*) FROM rated_tables WHERE table_id = :t"), {"t": rid}).scalar() == 0
        assert conn.execute(text("SELECT public FROM tables WHERE id = :t"), {"t": rid}).scalar() in (0, False)
        tied = conn.execute(text("SELECT seat FROM seat_accounts WHERE table_id = :t"), {"t": rid}).scalars().all()
    assert tied == [1]
    ce.close()
    cf.close()


def test_the_player_page_counts_the_same_matches_in_its_accuracy_and_its_list(server: Server) -> None:
    """A player's page: the average accuracy and the recent matches are over the same matches,
    rated and public ones for anyone, his casual private ones too on his own page only."""
    url = server.url
    gil, hg = signed_in(url, "Gil")
    hal, hh = signed_in(url, "Hal")
    made = {}
    for kind, spec in (("rated", {"rated": True}), ("private", {}), ("public", {"public": True})):
        t = gil.post("/api/tables", json={"variant": "conquian", "deals": 1, **spec}, headers=hg).json()
        sg = gil.post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": "x"}, headers=hg).json()
        sh = hal.post(f"/api/tables/{t['id']}/sit", json={"seat": 2, "name": "x"}, headers=hh).json()
        clients = [Client(server, t["id"], sg["token"]), Client(server, t["id"], sh["token"])]
        play_out(clients)
        for c in clients:
            c.close()
        made[kind] = t["id"]
    settled(url, "Gil", 1)
    board_ = Ratings(create_engine(f"sqlite:///{server.tmp / 'web.db'}"))
    figures = {"rated": 0.5, "private": 0.9, "public": 0.7}
    for kind, figure in figures.items():
        assert board_.keep_review(made[kind], {"variant": "conquian", "seat": "p1", "deal": 1, "playouts": 4,
                                               "decisions": [{"number": 1}] * 2, "summary": {"accuracy": figure}})

    def page(client: httpx.Client | None) -> dict[str, Any]:
        r = (client or httpx).get(url + "/api/players/Gil")
        assert r.status_code == 200 and "no-store" in r.headers["cache-control"]
        out: dict[str, Any] = r.json()
        return out

    for seen_by in (None, hal):  # anyone, and another signed-in player
        p = page(seen_by)
        assert p["own"] is False and p["matches"] == 2
        assert {r["table"] for r in p["recent"]} == {made["rated"], made["public"]}
        assert p["accuracy"]["conquian"] == {"accuracy": 0.6, "reviewed": 2}
        assert p["games"]["conquian"]["accuracy"] == 0.6 and p["games"]["conquian"]["reviewed"] == 2
        casual = next(r for r in p["recent"] if r["table"] == made["public"])
        assert casual == {"table": made["public"], "game": "conquian", "rated": False, "public": True,
                          "offline": False, "at": casual["at"], "replay": f"/r/{made['public']}", "accuracy": 0.7}
    mine = page(gil)
    assert mine["own"] is True and mine["matches"] == 3
    assert {r["table"] for r in mine["recent"]} == set(made.values())
    assert mine["accuracy"]["conquian"] == {"accuracy": 0.7, "reviewed": 3}
    private = next(r for r in mine["recent"] if r["table"] == made["private"])
    assert private["rated"] is False and private["public"] is False and private["accuracy"] == 0.9
    rated = next(r for r in mine["recent"] if r["table"] == made["rated"])
    assert rated["rated"] is True and rated["place"] in (1, 2) and rated["accuracy"] == 0.5
    # his private match's replay, listed on his own page, opens from his account on any device
    # (no seat token needed); to anyone else it stays private
    replay = f"/api/tables/{made['private']}/replay"
    assert gil.get(replay).status_code == 200
    assert httpx.get(url + replay).status_code == 403
    ivo, _ = signed_in(url, "Ivo")
    assert ivo.get(replay).status_code == 403
    assert ivo.get(f"/api/tables/{made['private']}/record").status_code == 403
    assert gil.get(f"/api/tables/{made['private']}/record").status_code == 200
    # every listed match is counted in the accuracy and no other: the two sets are one
    for p in (page(None), mine):
        assert sum(1 for r in p["recent"] if "accuracy" in r) == p["accuracy"]["conquian"]["reviewed"]


def _rated_against(tmp_path: Path, bot: str, *, left: bool = False, name: str = "Newcomer") -> tuple[Any, Any]:
    """A rated one-deal match of a new account against ``bot``, played out (his seat away past the
    away rule when ``left``: a loss whatever the score) and settled; the Ratings and the table."""
    import random

    from conquian.engine.rules import get_rules
    from conquian.web.platform.accounts.storage import AccountStore
    from conquian.web.store import Store
    from conquian.web.table import Table
    from test_web_table import _play_and_snapshot

    store = Store(f"sqlite:///{tmp_path / (name + '.db')}")
    store.upgrade()
    accounts, ratings = AccountStore(store.engine), Ratings(store.engine)
    account_id, _sid, _token = accounts.create("test")
    accounts.set_name(account_id, name)
    t = Table(f"vs{bot}"[:16], "test", get_rules("conquian"), seed=4, deals_in_match=1, away_after=30.0)
    t.sit(1, "x")
    t.set_bot(2, bot, host=True)
    store.create(t)
    ratings.mark_rated(t.id)
    accounts.tie_seat(account_id, t.id, 1)
    _play_and_snapshot(t, random.Random(5), 500)
    assert t.status == "over"
    if left:
        t.seats[0].away_since = time.time() - 31
    ratings.settle(t)
    return ratings, t


def test_a_bot_without_a_fitted_rating_is_never_rated_nor_on_the_board(tmp_path: Path) -> None:
    """The outside review's probe: rated matches against ``exit`` (no fitted rating in conquian)
    gave it a rating of its games (1,248).  Now such a match rates nobody, the bot has no row, and
    a bot's row of an older version without a fit is not on the board: only fitted bots are there."""
    from sqlalchemy import insert

    from conquian.bots.levels import fixed_rating, rated_bots
    from conquian.web.platform.ratings.storage import ratings as ratings_table

    assert fixed_rating("conquian", "exit") is None
    board_, t = _rated_against(tmp_path, "exit")
    assert board_.settle(t) is False
    rows = {r["name"]: r for r in board_.leaderboard("conquian")}
    assert "exit" not in rows and "Newcomer" not in rows
    assert {n for n, r in rows.items() if r["bot"]} == {b for b, _r in rated_bots("conquian")}
    with board_.engine.begin() as conn:  # a row an older version wrote
        conn.execute(insert(ratings_table).values(subject="bot:exit", game="conquian", mu=18.0, sigma=5.0, games=2,
                                                  wins=0, draws=0, tableaux=0, updated_at=0.0))
    assert "exit" not in {r["name"] for r in board_.leaderboard("conquian")}


def test_a_rated_table_refuses_a_bot_without_a_fitted_rating(server: Server) -> None:
    """At a rated table, a bot with no fitted rating in the game is refused (when the table is
    made and when the host seats it), in the reader's language; a casual table takes it."""
    url = server.url
    dora, h = signed_in(url, "Dora")
    made = dora.post("/api/tables?lang=es", json={"variant": "conquian", "rated": True, "deals": 1,
                                                  "seats": [{"kind": "open"}, {"kind": "exit"}]}, headers=h)
    assert made.status_code == 400 and made.json()["error"]["code"] == "unrated_bot"
    assert "exit" in made.json()["error"]["message"] and "puntuación medida" in made.json()["error"]["message"]
    t = dora.post("/api/tables", json={"variant": "conquian", "rated": True, "deals": 1}, headers=h).json()
    refused = httpx.post(url + f"/api/tables/{t['id']}/bot", json={"seat": 2, "bot": "exit", "host": t["host"]})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "unrated_bot"
    assert "has none" in refused.json()["error"]["message"]
    assert httpx.post(url + f"/api/tables/{t['id']}/bot",
                      json={"seat": 2, "bot": "expert", "host": t["host"]}).status_code == 200
    casual = dora.post("/api/tables", json={"variant": "conquian", "deals": 1}, headers=h).json()
    assert httpx.post(url + f"/api/tables/{casual['id']}/bot",
                      json={"seat": 2, "bot": "exit", "host": casual["host"]}).status_code == 200


def test_a_new_player_starts_at_foster_and_one_loss_to_the_weakest_bot_costs_under_100(tmp_path: Path) -> None:
    """The scale people recognize: a new player is shown 1,500 (foster's rating, the anchor) and
    provisional; a rated loss to ``random``, the weakest bot, takes less than 100 points (the
    review saw 1,000 shown, below every bot, and 106 points lost to ``beginner``)."""
    from conquian.bots.levels import fixed_rating, rated_bots
    from conquian.web.platform.quickmatch.service import NEW_RATING
    from conquian.web.platform.ratings.service import PROVISIONAL_GAMES, rating

    assert NEW_RATING == rating(25.0) == 1500 == fixed_rating("conquian", "foster")["rating"]  # type: ignore[index]
    assert min(rated_bots("conquian"), key=lambda x: x[1])[0] == "random"
    board_, _t = _rated_against(tmp_path, "random", left=True)
    row = {r["name"]: r for r in board_.leaderboard("conquian")}["Newcomer"]
    assert row["wins"] == 0 and row["games"] == 1 and row["provisional"] is True
    assert 1400 < row["rating"] < 1500
    page = board_.player("Newcomer")
    assert page is not None
    assert page["games"]["conquian"]["provisional"] is True and page["games"]["conquian"]["rating"] == row["rating"]
    assert page["recent"][0]["rating"] == row["rating"] and page["games"]["conquian"]["history"] == [row["rating"]]
    assert PROVISIONAL_GAMES == 10


def test_the_menus_list_the_levels_by_their_fitted_rating(server: Server) -> None:
    """The web's bot menus take each game's order of the levels from ``/api/presets``: by fitted
    rating, so that ``master`` is not listed above ``expert`` where it measures below it."""
    from conquian.bots.levels import fixed_rating, levels_by_rating

    presets = httpx.get(server.url + "/api/presets").json()
    order = presets["level_order"]
    assert order["cooncan"] == levels_by_rating("cooncan")
    assert order["cooncan"].index("master") < order["cooncan"].index("expert")
    for game, levels in order.items():
        figures = [presets["bot_ratings"][game][b]["rating"] for b in levels]
        assert figures == sorted(figures) and all(fixed_rating(game, b) for b in levels), game
