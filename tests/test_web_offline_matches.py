"""Offline matches come home, over a real server on 127.0.0.1: a match played in the offline app
(its record, as the page's engine writes it) is kept once in its named player's history, marked
offline and unrated, seen by him only, and reviewed like a server match; a record that is not a
legal finished match is refused with 400 and nothing kept; a guest without a name is refused."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import httpx
import pytest

from conquian.web.local import LocalTable
from test_web_accounts import visit
from test_web_ratings import signed_in
from test_web_review import review_server
from web_server import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = review_server(tmp_path_factory.mktemp("offline-home"), 8)
    yield s
    s.stop()


def offline_record(seed: int, deals: int = 1) -> str:
    """The record of a whole offline match against ``random`` (the page's :class:`LocalTable`, the
    player's moves at random), as the offline app sends it."""
    rng = random.Random(seed)
    t = LocalTable.new("conquian", bot="random", name="Me", seed=None, bot_seed=seed, deals=deals)
    for _ in range(5000):
        table = t.table
        if table.status == "over":
            return t.record()
        assert table.session is not None
        deal = table.session.deal
        if deal.over:
            assert t.handle({"type": "next", "state": table.state})[0]["type"] == "table"
        elif t.bot_to_act():
            t.bot_move()
        else:
            move = rng.choice(deal.legal_actions())
            assert t.handle({"type": "act", "action": str(move), "state": table.state})[0]["type"] == "table"
    raise AssertionError("the offline match did not end")


def send(c: httpx.Client, h: dict[str, str], record: object) -> httpx.Response:
    return c.post("/api/offline-matches", json={"record": record}, headers=h)


def own_matches(c: httpx.Client, name: str) -> list[dict[str, object]]:
    r = c.get(f"/api/players/{name}")
    assert r.status_code == 200, r.text
    return list(r.json()["recent"])


def test_an_offline_match_is_kept_once_unrated_in_its_players_history(server: Server) -> None:
    c, h = signed_in(server.url, "Olga")
    record = offline_record(3, deals=2)
    first = send(c, h, record)
    assert first.status_code == 201, first.text
    table_id = first.json()["table"]
    assert first.json()["new"] is True and first.json()["replay"] == f"/r/{table_id}"
    # the same record again (and with a comment more): kept once
    again = send(c, h, "# sent again\n" + record)
    assert again.status_code == 200 and again.json() == {"table": table_id, "new": False, "replay": f"/r/{table_id}"}
    page = c.get("/api/players/Olga").json()
    assert page["games"] == {} and page["matches"] == 1  # unrated: no rating anywhere
    [match] = page["recent"]
    assert match["table"] == table_id and match["offline"] is True
    assert match["rated"] is False and match["public"] is False and match["game"] == "conquian"
    # his only: another player, or anyone, sees no page of his and cannot replay it
    other, _ = signed_in(server.url, "Pavel")
    assert other.get("/api/players/Olga").status_code == 404
    assert httpx.get(server.url + "/api/players/Olga").status_code == 404
    assert httpx.get(server.url + f"/api/tables/{table_id}/replay").status_code == 403
    board = httpx.get(server.url + "/api/leaderboard?game=conquian").json()["players"]
    assert "Olga" not in [p["name"] for p in board]
    # its replay and record are his, his name at seat 1, the bots at the others
    replay = c.get(f"/api/tables/{table_id}/replay")
    assert replay.status_code == 200 and replay.json()["names"][0] == "Olga"
    kept = c.get(f"/api/tables/{table_id}/record")
    assert kept.status_code == 200 and 'players = ["Olga", ' in kept.text
    assert kept.text.count("[[deals]]") == 2


def test_the_review_of_an_offline_match_answers(server: Server) -> None:
    c, h = signed_in(server.url, "Quique")
    table_id = send(c, h, offline_record(4)).json()["table"]
    first = c.post(f"/api/tables/{table_id}/review", json={"seat": 1, "deal": 1}, headers=h)
    assert first.status_code in (200, 202), first.text
    answer = first.json()
    for _ in range(600):
        if answer["status"] == "done":
            break
        time.sleep(0.1)
        r = c.get(f"/api/tables/{table_id}/review?seat=1&deal=1")
        assert r.status_code in (200, 202), r.text
        answer = r.json()
    assert answer["status"] == "done", answer
    assert answer["review"]["decisions"], answer
    assert httpx.post(server.url + f"/api/tables/{table_id}/review", json={"seat": 1}).status_code == 403


def _tampered(record: str) -> dict[str, str]:
    """Records that are not a legal finished match, by what is wrong with them."""
    lines = record.splitlines()
    actions = [i for i, line in enumerate(lines) if line.startswith('  "p')]
    illegal = list(lines)
    illegal[actions[3]] = '  "p1 discard Xx",' if "discard" not in lines[actions[3]] else '  "p1 use 5c 5d 5h",'
    unfinished = [line for i, line in enumerate(lines) if i != actions[-1] and not line.startswith("result")]
    deck = next(i for i, line in enumerate(lines) if line.startswith("deck = "))
    reseeded = list(lines)
    reseeded[deck] = "seed = 12345"  # a deal that does not follow from the seed it names
    too_few = record.replace("deals = 2 }", "deals = 3 }")  # the table note's match has a deal more
    return {"illegal": "\n".join(illegal), "unfinished": "\n".join(unfinished), "reseeded": "\n".join(reseeded),
            "too few deals": too_few, "garbage": "not a record at all = [", "empty": ""}


def test_a_tampered_record_is_refused_and_nothing_kept(server: Server) -> None:
    c, h = signed_in(server.url, "Rosa")
    record = offline_record(5, deals=2)
    for what, text in _tampered(record).items():
        r = send(c, h, text)
        assert r.status_code == 400, (what, r.text)
        error = r.json()["error"]
        assert error["code"] == "bad_record" and "cannot be kept" in error["message"], (what, error)
    assert send(c, h, 42).status_code == 400
    body = c.post("/api/offline-matches", content=b"{not json", headers=h | {"Content-Type": "application/json"})
    assert body.status_code == 400
    huge = send(c, h, "#" * 300_000)
    assert huge.status_code == 413
    # in Spanish, naming the deal and action of an illegal move
    es = c.post("/api/offline-matches?lang=es", json={"record": _tampered(record)["illegal"]}, headers=h).json()
    assert es["error"]["deal"] == 1 and es["error"]["action"] == 4 and "no se puede guardar" in es["error"]["message"]
    assert own_matches(c, "Rosa") == []
    assert send(c, h, record).status_code == 201  # the record itself was good


def test_a_guest_without_a_name_and_a_stranger_are_refused(server: Server) -> None:
    c, csrf = visit(server.url)
    r = send(c, {"X-CSRF-Token": csrf}, offline_record(6))
    assert r.status_code == 403 and r.json()["error"]["code"] == "no_name"
    assert httpx.post(server.url + "/api/offline-matches", json={"record": "x"}).status_code == 401
    assert c.post("/api/offline-matches", json={"record": "x"}).status_code == 403  # no CSRF token

