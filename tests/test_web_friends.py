"""Friends, blocks and reports over a real server on 127.0.0.1: a friend link accepted, the
friends list with who is online, an invitation to a table (its link, nothing of its cards), a
block that stops chat both ways over real sockets (and ``blocked_between`` for pairing), a
report of a chat line kept and listed by ``conquian admin``, CSRF refused, and a deleted
account gone from friends and blocks."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from sqlalchemy import create_engine

from conquian.cli import main
from conquian.web.platform.friends.storage import FriendStore, blocked_between
from web_server import Client, Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    tmp = tmp_path_factory.mktemp("friends")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp).start()
    yield s, tmp / "web.db"
    s.stop()


class Player:
    """A browser with an account and a name: its HTTP client, CSRF header and cookie."""

    def __init__(self, url: str, name: str | None) -> None:
        self.http = httpx.Client(base_url=url, timeout=10)
        me = self.http.post("/api/account", json={}).json()
        self.h = {"X-CSRF-Token": me["csrf"]}
        self.cookie = f"conquian_account={self.http.cookies['conquian_account']}"
        if name:
            assert self.post("/api/account/name", {"name": name}).status_code == 200
        self.name = name

    def post(self, path: str, body: Any = None) -> httpx.Response:
        return self.http.post(path, json=body if body is not None else {}, headers=self.h)

    def friends(self) -> dict[str, Any]:
        r = self.http.get("/api/friends")
        assert r.status_code == 200, r.text
        return dict(r.json())


def befriend(a: Player, b: Player) -> None:
    code = a.friends()["link"].rsplit("/", 1)[1]
    r = b.post("/api/friends/add", {"code": code})
    assert r.status_code == 200 and r.json() == {"friend": a.name}


def account_id(db: Path, name: str) -> str:
    with sqlite3.connect(db) as conn:
        return str(conn.execute("SELECT id FROM accounts WHERE name=?", (name,)).fetchone()[0])


def chats(c: Client) -> list[str]:
    return [m["text"] for m in c.other if m["type"] == "chat"]


def quiet(c: Client) -> None:
    """Wait until what was sent to ``c`` has arrived (a ping answered after a pause)."""
    time.sleep(0.5)
    c.send({"type": "ping"})
    c.wait(lambda m: m["type"] == "pong")


def test_friend_link_list_online_and_invitation(server: tuple[Server, Path]) -> None:
    s, _db = server
    ann, bob = Player(s.url, "Ann"), Player(s.url, "Bob")
    first = ann.friends()
    assert first["name"] == "Ann" and first["friends"] == [] and first["link"].startswith("/f/")
    code = first["link"].rsplit("/", 1)[1]
    assert ann.friends()["link"] == first["link"]  # the same link until a new one is asked for
    # the link's page, and who it adds (asked before confirming)
    assert bob.http.get(first["link"]).status_code == 200
    assert bob.http.get(f"/api/friends/link/{code}").json() == {"name": "Ann", "yours": False}
    assert ann.http.get(f"/api/friends/link/{code}").json()["yours"] is True
    assert bob.http.get("/api/friends/link/nope").status_code == 404
    # without the CSRF token (or from another site), nothing happens
    assert bob.http.post("/api/friends/add", json={"code": code}).json()["error"]["code"] == "csrf"
    other = bob.http.post("/api/friends/add", json={"code": code}, headers=bob.h | {"Origin": "http://evil.test"})
    assert other.status_code == 403
    assert bob.friends()["friends"] == []
    own = ann.post("/api/friends/add", {"code": code})
    assert own.status_code == 400 and own.json()["error"]["code"] == "own_link"
    nameless = Player(s.url, None)
    assert nameless.post("/api/friends/add", {"code": code}).json()["error"]["code"] == "no_name"
    assert nameless.friends()["link"] is None
    assert bob.post("/api/friends/add", {"code": code}).json() == {"friend": "Ann"}
    assert bob.post("/api/friends/add", {"code": code}).status_code == 200  # twice: still one friendship
    # both see the other, online (a request in the last minutes)
    listed = ann.friends()["friends"]
    assert [f["name"] for f in listed] == ["Bob"] and listed[0]["online"] is True and listed[0]["seen_at"]
    assert [f["name"] for f in bob.friends()["friends"]] == ["Ann"]
    # a new link ends the old one
    new = ann.post("/api/friends/link").json()["link"]
    assert new != first["link"] and ann.friends()["link"] == new
    assert Player(s.url, "Cleo").post("/api/friends/add", {"code": code}).status_code == 404
    assert httpx.get(s.url + "/api/friends").status_code == 401  # no account: nothing to list

    # invite a friend to one's table: a waiting table, its host's token or a seat taken from the account
    t = s.create(variant="conquian", host_name="Ann")
    refused = ann.post("/api/friends/invite", {"name": "Bob", "table": t["id"]})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_your_table"
    assert ann.post("/api/friends/invite", {"name": "Cleo", "table": t["id"], "token": t["host"]}).status_code == 404
    assert ann.post("/api/friends/invite", {"name": "Bob", "table": "nope", "token": t["host"]}).status_code == 404
    done = ann.post("/api/friends/invite", {"name": "Bob", "table": t["id"], "token": t["token"]})
    assert done.status_code == 200 and done.json()["link"] == f"/t/{t['id']}"
    ann.post("/api/friends/invite", {"name": "Bob", "table": t["id"], "token": t["host"]})  # again: one notice
    notices = bob.friends()["notices"]
    assert [(n["from"], n["table"], n["link"]) for n in notices] == [("Ann", t["id"], f"/t/{t['id']}")]
    assert set(notices[0]) == {"id", "from", "table", "link", "at"}  # nothing of the table's cards
    # Bob joins from the notice: he sits from his account, under his name
    sat = bob.post(f"/api/tables/{t['id']}/sit", {"seat": 2, "name": "x"})
    assert sat.status_code == 200
    assert s.get(f"/api/tables/{t['id']}").json()["seats"][1]["name"] == "Bob"
    assert bob.post("/api/friends/notices/dismiss", {"id": notices[0]["id"]}).status_code == 200
    assert bob.post("/api/friends/notices/dismiss", {"id": notices[0]["id"]}).status_code == 404
    assert bob.friends()["notices"] == []
    # removing a friend ends it both ways
    assert bob.post("/api/friends/remove", {"name": "Ann"}).status_code == 200
    assert ann.friends()["friends"] == [] and bob.friends()["friends"] == []
    assert bob.post("/api/friends/remove", {"name": "Ann"}).json()["error"]["code"] == "not_friends"
    assert bob.post("/api/friends/remove", {"name": 5}).json()["error"]["code"] == "bad_request"
    assert bob.http.post("/api/friends/remove", content=b"{", headers=bob.h).status_code == 400


def test_online_is_a_live_connection_or_a_recent_request(server: tuple[Server, Path]) -> None:
    s, db = server
    gus, hal = Player(s.url, "Gus"), Player(s.url, "Hal")
    befriend(gus, hal)
    t = s.create(variant="conquian", host_name="Gus")
    store = FriendStore(create_engine(f"sqlite:///{db}"))
    hal_id = account_id(db, "Hal")
    # Hal's last request was long ago...
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE account_sessions SET seen_at=0 WHERE account_id=?", (hal_id,))
        conn.execute("DELETE FROM account_seen WHERE account_id=?", (hal_id,))
    assert store.friends(account_id(db, "Gus"))[0]["online"] is False
    # ...but he watches a table: online (noted in the database, for every server process)
    watch = Client(s, t["id"], cookie=hal.cookie)
    try:
        assert store.friends(account_id(db, "Gus"))[0]["online"] is True
    finally:
        watch.close()


def test_block_stops_chat_both_ways(server: tuple[Server, Path]) -> None:
    s, db = server
    ivy, jon, kim = Player(s.url, "Ivy"), Player(s.url, "Jon"), Player(s.url, "Kim")
    befriend(ivy, jon)
    t = s.create(variant="conquian", host_name="Ivy")
    jt = jon.post(f"/api/tables/{t['id']}/sit", {"seat": 2, "name": "Jon"}).json()["token"]
    a = Client(s, t["id"], t["token"], host=t["host"], cookie=ivy.cookie)
    b = Client(s, t["id"], jt, cookie=jon.cookie)
    watch = Client(s, t["id"], cookie=kim.cookie)
    try:
        b.send({"type": "chat", "text": "hola"})
        line = a.wait(lambda m: m["type"] == "chat")
        assert line["text"] == "hola" and isinstance(line["line"], str)
        assert not blocked_between(create_engine(f"sqlite:///{db}"), account_id(db, "Ivy"), account_id(db, "Jon"))
        a.send({"type": "block", "line": line["line"]})
        said = a.wait(lambda m: m["type"] == "blocked")
        assert said["seat"] == 2 and said["line"] == line["line"]
        # the block is the pairing's answer too, either way round, and it ends the friendship
        engine = create_engine(f"sqlite:///{db}")
        assert blocked_between(engine, account_id(db, "Jon"), account_id(db, "Ivy"))
        assert blocked_between(FriendStore(engine), account_id(db, "Ivy"), account_id(db, "Jon"))
        assert not blocked_between(engine, account_id(db, "Ivy"), account_id(db, "Kim"))
        assert not blocked_between(engine, account_id(db, "Ivy"), None)
        assert ivy.friends()["friends"] == [] and ivy.friends()["blocked"] == ["Jon"]
        # Jon's lines no longer reach Ivy, Ivy's no longer reach Jon; a spectator reads on (players' lines)
        b.send({"type": "chat", "text": "still there?"})
        a.send({"type": "chat", "text": "not for Jon"})
        watch.wait(lambda m: {"not for Jon", "still there?"} <= set(chats(watch)))
        b.wait(lambda m: m["type"] == "chat" and m["text"] == "still there?")  # his own line
        a.wait(lambda m: m["type"] == "chat" and m["text"] == "not for Jon")
        quiet(a)
        quiet(b)
        assert "still there?" not in chats(a) and "not for Jon" not in chats(b)
        b.send({"type": "react", "reaction": "🔥"})
        watch.wait(lambda m: m["type"] == "chat" and m.get("reaction") == "🔥")
        quiet(a)
        assert not any(m.get("reaction") == "🔥" for m in a.other if m["type"] == "chat")
        # a new connection of Jon's is still blocked (read from the database at its hello)
        b.close()
        b = Client(s, t["id"], jt, cookie=jon.cookie)
        b.send({"type": "chat", "text": "me again"})
        watch.wait(lambda m: m["type"] == "chat" and m["text"] == "me again")
        quiet(a)
        assert "me again" not in chats(a)
        # blocking needs an account and a line said by one; one's own line is no one else's
        guest = Client(s, t["id"])
        guest.send({"type": "block", "line": line["line"]})
        assert guest.error()["code"] == "signed_out"  # no account: nobody to keep the block for
        guest.close()
        a.send({"type": "block", "line": "nope"})
        assert a.error()["code"] == "no_line"
        # unblocked (on the account page), the lines flow again at once
        assert ivy.post("/api/blocks/remove", {"name": "Jon"}).status_code == 200
        assert ivy.post("/api/blocks/remove", {"name": "Jon"}).json()["error"]["code"] == "not_blocked"
        b.send({"type": "chat", "text": "friends again?"})
        a.wait(lambda m: m["type"] == "chat" and m["text"] == "friends again?")
        # blocked by name from the account page: the same at once
        assert ivy.post("/api/blocks", {"name": "Jon"}).status_code == 200
        assert ivy.post("/api/blocks", {"name": "Nobody Here"}).json()["error"]["code"] == "no_player"
        assert ivy.post("/api/blocks", {"name": "Ivy"}).json()["error"]["code"] == "self"
        b.send({"type": "chat", "text": "gone"})
        watch.wait(lambda m: m["type"] == "chat" and m["text"] == "gone")
        quiet(a)
        assert "gone" not in chats(a)
        # a blocked pair cannot become friends by link
        code = jon.friends()["link"].rsplit("/", 1)[1]
        assert ivy.post("/api/friends/add", {"code": code}).json()["error"]["code"] == "blocked"
        # each blocked the other: one unblocking leaves the other's block in force
        assert jon.post("/api/blocks", {"name": "Ivy"}).status_code == 200
        assert ivy.post("/api/blocks/remove", {"name": "Jon"}).status_code == 200
        b.send({"type": "chat", "text": "still blocked"})
        watch.wait(lambda m: m["type"] == "chat" and m["text"] == "still blocked")
        quiet(a)
        assert "still blocked" not in chats(a)
    finally:
        for c in (a, b, watch):
            c.close()


def test_report_kept_and_listed_by_the_admin_command(server: tuple[Server, Path],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    s, db = server
    lea, max_ = Player(s.url, "Lea"), Player(s.url, "Max")
    t = s.create(variant="conquian", host_name="Lea")
    mt = max_.post(f"/api/tables/{t['id']}/sit", {"seat": 2, "name": "Max"}).json()["token"]
    a = Client(s, t["id"], t["token"], cookie=lea.cookie)
    b = Client(s, t["id"], mt, cookie=max_.cookie)
    try:
        b.send({"type": "chat", "text": "you play like a <b>bot</b>"})
        line = a.wait(lambda m: m["type"] == "chat")
        mine = b.wait(lambda m: m["type"] == "chat")
        b.send({"type": "report", "line": mine["line"]})
        assert b.error()["code"] == "own_line"
        a.send({"type": "report", "line": line["line"]})
        assert a.wait(lambda m: m["type"] == "reported")["line"] == line["line"]
        a.send({"type": "report", "line": "x" * 41})
        assert a.error()["code"] == "bad_message"
    finally:
        a.close()
        b.close()
    url = f"sqlite:///{db}"
    assert main(["admin", "reports", "--db", url, "--json"]) == 0
    rows = [r for r in json.loads(capsys.readouterr().out) if r["table"] == t["id"]]
    assert len(rows) == 1
    r = rows[0]
    assert (r["text"], r["seat_name"], r["account"], r["reporter"], r["status"]) == (
        "you play like a <b>bot</b>", "Max", "Max", "Lea", "open")
    assert abs(r["said_at"] - line["at"]) < 1
    assert main(["admin", "reports", "--db", url]) == 0
    out = capsys.readouterr().out
    assert f"#{r['id']} [open] table {t['id']}" in out and "Max (account Max)" in out and "reported by Lea" in out
    assert main(["admin", "resolve", str(r["id"]), "--db", url]) == 0
    assert f"report {r['id']} resolved" in capsys.readouterr().out
    main(["admin", "reports", "--db", url, "--json"])
    assert all(x["id"] != r["id"] for x in json.loads(capsys.readouterr().out))
    main(["admin", "reports", "--db", url, "--json", "--all"])
    assert [x["status"] for x in json.loads(capsys.readouterr().out) if x["id"] == r["id"]] == ["resolved"]
    # bad arguments: one clear line, no traceback
    assert main(["admin", "resolve", "999999", "--db", url]) == 1
    assert "there is no report 999999" in capsys.readouterr().err
    assert main(["admin", "resolve", "--db", url]) == 2
    assert "needs the report's number" in capsys.readouterr().err
    assert main(["admin", "reports", "5", "--db", url]) == 2
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        main(["admin", "resolve", "abc", "--db", url])
    assert exit_.value.code == 2 and "Traceback" not in capsys.readouterr().err
    assert main(["admin", "reports", "--db", "nosuchdb://x"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("conquian admin: cannot use the database") and "Traceback" not in err
    assert main(["--lang", "es", "admin", "resolve", "999999", "--db", url]) == 1
    assert "no hay" in capsys.readouterr().err.lower()


def test_deleted_account_vanishes_from_friends_and_blocks(server: tuple[Server, Path]) -> None:
    s, db = server
    ned, ora, pia = Player(s.url, "Ned"), Player(s.url, "Ora"), Player(s.url, "Pia")
    befriend(ned, ora)
    assert pia.post("/api/blocks", {"name": "Ora"}).status_code == 200
    t = s.create(variant="conquian", host_name="Ora")
    assert ora.post("/api/friends/invite", {"name": "Ned", "table": t["id"], "token": t["host"]}).status_code == 200
    ora_id = account_id(db, "Ora")
    assert ora.post("/api/account/delete").status_code == 200
    assert ned.friends()["friends"] == [] and ned.friends()["notices"] == []
    assert pia.friends()["blocked"] == []
    with sqlite3.connect(db) as conn:
        for table, column in (("friendships", "friend_id"), ("friendships", "account_id"), ("blocks", "blocked"),
                              ("friend_notices", "from_account"), ("friend_codes", "account_id"),
                              ("account_seen", "account_id")):
            assert conn.execute(f"SELECT count(*) FROM {table} WHERE {column}=?", (ora_id,)).fetchone() == (0,)


def test_the_account_page_lists_the_waiting_tables_to_invite_friends_to(server: tuple[Server, Path]) -> None:
    s, _db = server
    dee, eve = Player(s.url, "Dee"), Player(s.url, "Eve")
    befriend(dee, eve)
    assert dee.friends()["tables"] == []
    t = dee.post("/api/tables", {"variant": "conquian", "name": "Dee's table"}).json()
    assert dee.friends()["tables"] == []  # hosting is not holding a seat
    assert dee.post(f"/api/tables/{t['id']}/sit", {"seat": 1, "name": "x"}).status_code == 200
    assert dee.friends()["tables"] == [{"id": t["id"], "name": "Dee's table"}]
    assert eve.friends()["tables"] == []
    # the account page's button: the invitation from the seat held, without a table token
    done = dee.post("/api/friends/invite", {"name": "Eve", "table": t["id"]})
    assert done.status_code == 200, done.text
    assert [n["table"] for n in eve.friends()["notices"]] == [t["id"]]
    # once every seat is taken the table plays: it is no longer offered
    assert eve.post(f"/api/tables/{t['id']}/sit", {"seat": 2, "name": "x"}).status_code == 200
    for _ in range(50):
        if dee.friends()["tables"] == []:
            break
        time.sleep(0.1)
    assert dee.friends()["tables"] == []
    # a table made by a signed-in host who sits under his account's name: his seat is his account's
    made = dee.post("/api/tables", {"variant": "conquian", "name": "Dee again", "host_name": "Dee"}).json()
    assert made["seat"] == 1
    assert dee.friends()["tables"] == [{"id": made["id"], "name": "Dee again"}]
    assert dee.post("/api/friends/invite", {"name": "Eve", "table": made["id"]}).status_code == 200
    # under another name it is a guest's seat, as before
    other = dee.post("/api/tables", {"variant": "conquian", "name": "Incognito", "host_name": "Zed"}).json()
    assert other["id"] not in [t["id"] for t in dee.friends()["tables"]]
