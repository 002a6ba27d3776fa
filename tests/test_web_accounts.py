"""Accounts over a real server on 127.0.0.1: an account made on the first visit (its cookie
HttpOnly, SameSite), a name chosen once and look-alikes refused in the words of a taken name
(no enumeration), CSRF refused, sessions listed and revoked, sign out, a seat tied to the account,
and a deleted account gone from the seats, the lobby's table and the record."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from conquian.web.platform.accounts.service import DELETED_NAME, AccountError, check_display_name, look_alike
from web_server import Server

ES = {"Accept-Language": "es-MX,es;q=0.9"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    tmp = tmp_path_factory.mktemp("accounts")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp).start()
    yield s, tmp / "web.db"
    s.stop()


def visit(url: str) -> tuple[httpx.Client, str]:
    """A browser's first visit: its client (holding the cookie) and its CSRF token."""
    c = httpx.Client(base_url=url, timeout=10)
    r = c.post("/api/account", json={})
    assert r.status_code == 200 and r.json()["new"] is True and r.json()["name"] is None
    return c, r.json()["csrf"]


def test_names_look_alike() -> None:
    assert look_alike("Ann") == look_alike("\u0410nn") == look_alike("ＡＮＮ") == look_alike("A n n")
    assert look_alike("paypal") == look_alike("pаypаl")  # Cyrillic a
    assert look_alike("Ann") != look_alike("Anne")
    for bad in ("A", "x" * 25, "Ann\u202e", "<b>", "\u0410nna Smith"):  # mixed scripts in the last
        with pytest.raises(AccountError):
            check_display_name(bad)
    assert check_display_name(" Ann   Lee ") == "Ann Lee"
    assert check_display_name("Ángeles") == "Ángeles"


def test_account_made_on_first_visit(server: tuple[Server, Path]) -> None:
    s, _ = server
    r = httpx.post(s.url + "/api/account", json={})
    cookie = r.headers["set-cookie"].lower()
    assert "conquian_account=" in cookie and "httponly" in cookie and "samesite=lax" in cookie
    assert r.headers["cache-control"] == "no-store"
    c, csrf = visit(s.url)
    again = c.get("/api/account").json()
    assert again["new"] is False and again["csrf"] == csrf  # the same account on the next visit


def test_name_once_and_look_alikes_refused(server: tuple[Server, Path]) -> None:
    s, _ = server
    ann, csrf = visit(s.url)
    assert ann.post("/api/account/name", json={"name": "Ann"}, headers={"X-CSRF-Token": csrf}).json() == {
        "name": "Ann"}
    assert ann.get("/api/account").json()["name"] == "Ann"
    again = ann.post("/api/account/name", json={"name": "Anna"}, headers={"X-CSRF-Token": csrf})
    assert again.status_code == 409 and again.json()["error"]["code"] == "name_chosen"
    other, csrf2 = visit(s.url)
    # "Аnn" with a Cyrillic A: refused (it mixes two alphabets, and looks like "Ann")
    mixed = other.post("/api/account/name", json={"name": "\u0410nn"}, headers={"X-CSRF-Token": csrf2})
    assert mixed.status_code == 400 and mixed.json()["error"]["code"] == "bad_name"
    assert ann.post("/api/account/name", json={"name": "Cop"}, headers={"X-CSRF-Token": csrf}).status_code == 409
    third, csrf3 = visit(s.url)
    assert third.post("/api/account/name", json={"name": "Cop"}, headers={"X-CSRF-Token": csrf3}).status_code == 200
    refusals = []
    for name in ("Ann", "ANN", "ａnn", "A n n", "\u0421\u043e\u0440"):  # the last: "Сор", all Cyrillic, like "Cop"
        r = other.post("/api/account/name", json={"name": name}, headers={"X-CSRF-Token": csrf2})
        assert r.status_code == 409, name
        refusals.append(r.json()["error"])
    # the same words whether the name is taken or only looks like one: nothing tells which
    assert len({e["message"] for e in refusals}) == 1 and refusals[0]["code"] == "name_unavailable"
    es = other.post("/api/account/name", json={"name": "ANN"}, headers={"X-CSRF-Token": csrf2, **ES})
    assert es.json()["error"]["message"] != refusals[0]["message"]  # in Spanish
    assert other.post("/api/account/name", json={"name": "Bea"}, headers={"X-CSRF-Token": csrf2}).status_code == 200


def test_12_reading_the_account_makes_none(server: tuple[Server, Path]) -> None:
    """``GET /api/account`` has no side effect: without a session it answers ``401`` and sets no
    cookie (a page of another site could make an account in a visitor's browser by a mere
    image); ``POST`` makes it, from a JSON body only (what a form of another site cannot send)."""
    s, db = server
    with sqlite3.connect(db) as conn:
        before = conn.execute("SELECT count(*) FROM accounts").fetchone()[0]
    r = httpx.get(s.url + "/api/account")
    assert r.status_code == 401 and r.json()["error"]["code"] == "signed_out"
    assert "set-cookie" not in r.headers
    for bad in ({"content": b"", "headers": {"Content-Type": "application/x-www-form-urlencoded"}},
                {"json": {}, "headers": {"Origin": "https://evil.example"}}):
        refused = httpx.post(s.url + "/api/account", **bad)
        assert refused.status_code == 403 and "set-cookie" not in refused.headers, bad
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM accounts").fetchone()[0] == before
    made = httpx.post(s.url + "/api/account", json={}, headers={"Origin": s.url})
    assert made.status_code == 200 and made.json()["new"] is True


def test_12_the_origin_check_compares_the_scheme(server: tuple[Server, Path]) -> None:
    """``https://host`` is not ``http://host``: a page served over the other scheme (another
    origin, say a plain-HTTP page an attacker on the network writes) cannot act with the cookie."""
    s, _ = server
    c, csrf = visit(s.url)
    host = s.url.split("://", 1)[1]
    other = c.post("/api/account/name", json={"name": "Cleo"}, headers={"X-CSRF-Token": csrf,
                                                                        "Origin": f"https://{host}"})
    assert other.status_code == 403 and other.json()["error"]["code"] == "csrf"
    assert c.post("/api/tables", json={"variant": "conquian"},
                  headers={"X-CSRF-Token": csrf, "Origin": f"https://{host}"}).status_code == 403
    same = c.post("/api/account/name", json={"name": "Cleo"}, headers={"X-CSRF-Token": csrf, "Origin": s.url})
    assert same.status_code == 200, same.text


def test_csrf_refused(server: tuple[Server, Path]) -> None:
    s, _ = server
    c, csrf = visit(s.url)
    for headers in ({}, {"X-CSRF-Token": "0" * 64}, {"X-CSRF-Token": csrf, "Origin": "https://evil.example"}):
        r = c.post("/api/account/name", json={"name": "Cleo"}, headers=headers)
        assert r.status_code == 403 and r.json()["error"]["code"] == "csrf", headers
        # every state-changing request that carries the cookie, the tables' too
        made = c.post("/api/tables", json={"variant": "conquian"}, headers=headers)
        assert made.status_code == 403
    assert c.get("/api/account").json()["name"] is None  # nothing changed
    assert c.post("/api/tables", json={"variant": "conquian"}, headers={"X-CSRF-Token": csrf}).status_code == 201
    # a guest (no cookie) keeps the API as it was: its authority travels in the request itself
    assert httpx.post(s.url + "/api/tables", json={"variant": "conquian"}).status_code == 201


def test_sessions_revoked_and_sign_out(server: tuple[Server, Path]) -> None:
    s, _ = server
    c, csrf = visit(s.url)
    listed = c.get("/api/account/sessions").json()["sessions"]
    assert len(listed) == 1 and listed[0]["current"] is True
    nobody = c.post("/api/account/sessions", json={"id": "not-a-session"}, headers={"X-CSRF-Token": csrf})
    assert nobody.status_code == 404
    out = c.post("/api/account/signout", headers={"X-CSRF-Token": csrf})
    assert out.status_code == 200 and "conquian_account=" in out.headers["set-cookie"]
    # the old cookie no longer opens the account, even if a browser kept it
    stale = httpx.Client(base_url=s.url, cookies={"conquian_account": "x" * 43})
    assert stale.get("/api/account/sessions").status_code == 401


def test_seat_tied_and_deleted_account_gone(server: tuple[Server, Path]) -> None:
    s, db = server
    dora, csrf = visit(s.url)
    h = {"X-CSRF-Token": csrf}
    assert dora.post("/api/account/name", json={"name": "Dora"}, headers=h).status_code == 200
    t = httpx.post(s.url + "/api/tables", json={"variant": "conquian", "public": True}).json()
    # a signed-in player sits under her account's name, whatever the body says; the token works
    sat = dora.post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": "Someone"}, headers=h)
    assert sat.status_code == 200 and sat.json()["token"]
    assert httpx.get(s.url + f"/api/tables/{t['id']}").json()["seats"][0]["name"] == "Dora"
    assert dora.get("/api/account").json()["seats"] == [{"table": t["id"], "seat": 1}]
    # a guest at seat 2: the match starts with a bot? no: the table waits; delete the account now
    gone = dora.post("/api/account/delete", headers=h)
    assert gone.status_code == 200
    view = httpx.get(s.url + f"/api/tables/{t['id']}").json()
    assert view["seats"][0]["name"] == DELETED_NAME
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT name FROM seats WHERE table_id=? AND seat=1", (t["id"],)).fetchone() == (
            DELETED_NAME,)
        assert conn.execute("SELECT count(*) FROM accounts WHERE name='Dora'").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM seats WHERE name='Dora'").fetchone() == (0,)
    assert "Dora" not in httpx.get(s.url + "/api/tables").text
    # the name is free again, and the deleted account's cookie opens nothing
    assert dora.get("/api/account/sessions").status_code == 401
    eve, csrf3 = visit(s.url)
    assert eve.post("/api/account/name", json={"name": "Dora"}, headers={"X-CSRF-Token": csrf3}).status_code == 200


def test_learn_progress_kept_in_the_account(server: tuple[Server, Path]) -> None:
    """The Learn section's progress of a signed-in account: read, replaced with its CSRF token only,
    unknown keys dropped, bad bodies refused, and gone with the account."""
    from conquian.learn.lessons import LESSONS
    from conquian.learn.puzzles import puzzles

    s, db = server
    assert httpx.get(s.url + "/api/account/learn").status_code == 401  # no account, no progress
    c, csrf = visit(s.url)
    assert c.get("/api/account/learn").json() == {"lessons": [], "puzzles": []}
    done = {"lessons": [LESSONS[1].key, LESSONS[0].key, "no-such-lesson"], "puzzles": [puzzles()[0].id, "zz"]}
    for headers in ({}, {"X-CSRF-Token": "0" * 64}, {"X-CSRF-Token": csrf, "Origin": "https://evil.example"}):
        assert c.put("/api/account/learn", json=done, headers=headers).status_code == 403
    assert c.get("/api/account/learn").json() == {"lessons": [], "puzzles": []}
    put = c.put("/api/account/learn", json=done, headers={"X-CSRF-Token": csrf})
    want = {"lessons": sorted([LESSONS[0].key, LESSONS[1].key]), "puzzles": [puzzles()[0].id]}
    assert put.status_code == 200 and put.json() == want
    assert c.get("/api/account/learn").json() == want
    bads: list[object] = [{"lessons": "x", "puzzles": []}, {"lessons": [1], "puzzles": []}, {"lessons": []}, [], "x"]
    for bad in bads:
        r = c.put("/api/account/learn", json=bad, headers={"X-CSRF-Token": csrf, **ES})
        assert r.status_code == 400 and r.json()["error"]["message"], bad
    assert c.get("/api/account/learn").json() == want  # nothing changed
    assert c.post("/api/account/delete", headers={"X-CSRF-Token": csrf}).status_code == 200
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM learn_progress").fetchone() == (0,)


def test_rate_limits_per_address_and_account(tmp_path: Path) -> None:
    strict = (*Server.loose_except("--accounts-per-hour", "--account-requests-per-minute"),
              "--accounts-per-hour", "3", "--account-requests-per-minute", "10")
    s = Server(f"sqlite:///{tmp_path / 'web.db'}", tmp_path, limits=strict).start()
    try:
        clients = [visit(s.url) for _ in range(3)]
        r = httpx.post(s.url + "/api/account", json={}, headers=ES)  # a fourth new account from this address
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_fast"
        assert "minuto" in r.json()["error"]["message"]
        # the address has made 4 of its 10 account requests this minute; one account may make 5:
        # the sixth is refused by the account's limit (its address is at 9 of 10)
        c, csrf = clients[0]
        codes = [c.post("/api/account/name", json={"name": "x"}, headers={"X-CSRF-Token": csrf}).status_code
                 for _ in range(6)]
        assert codes == [400] * 5 + [429]
        # the address's limit covers its other accounts (now at 10 of 10)
        d, csrf2 = clients[1]
        assert d.post("/api/account/name", json={"name": "x"}, headers={"X-CSRF-Token": csrf2}).status_code == 429
    finally:
        s.stop()
