"""The fourth security review's findings on accounts, names and headers (issue 50, findings 7 to
12), each re-played against ``conquian serve`` on 127.0.0.1 the way the reviewer probed it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

pytest.importorskip("uvicorn")

from web_server import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("review4")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp).start()
    yield s
    s.stop()


def visit(url: str, name: str | None = None) -> tuple[httpx.Client, dict[str, str]]:
    """A browser's first visit (its account made, and named when ``name``): its client and CSRF header."""
    c = httpx.Client(base_url=url, timeout=10)
    h = {"X-CSRF-Token": c.post("/api/account", json={}).json()["csrf"]}
    if name is not None:
        assert c.post("/api/account/name", json={"name": name}, headers=h).status_code == 200
    return c, h


# ---------------------------------------------------------------------------- 12: the policy
def test_12_webassembly_is_allowed_on_the_offline_apps_paths_only(server: Server) -> None:
    """``'wasm-unsafe-eval'`` lets a page compile WebAssembly: the offline app needs it (its engine
    runs in Pyodide), no other page does."""
    for path in ("/", "/account", "/t/abc", "/learn", "/leaderboard", "/api/tables", "/static/app.js",
                 "/offline-not", "/no/such/page"):
        policy = server.get(path).headers["content-security-policy"]
        assert "wasm-unsafe-eval" not in policy and "script-src 'self';" in policy, path
    for path in ("/offline/", "/offline/worker.js", "/offline/sw.js"):
        policy = server.get(path).headers["content-security-policy"]
        assert "script-src 'self' 'wasm-unsafe-eval';" in policy, path


# ---------------------------------------------------------------------------- 11: who has an account
def test_11_a_player_page_tells_not_whether_an_account_exists(server: Server) -> None:
    """An account without a rating or a match anyone may see is answered exactly as a name no
    account has (status and body, in each language); its own player still sees his page."""
    quiet, _ = visit(server.url, "Quinta")
    for lang in ({}, {"Accept-Language": "es"}):
        unknown = httpx.get(server.url + "/api/players/Quintb", headers=lang)
        named = httpx.get(server.url + "/api/players/Quinta", headers=lang)
        assert unknown.status_code == named.status_code == 404
        assert unknown.json() == named.json() and named.json()["error"]["code"] == "no_player"
    own = quiet.get("/api/players/Quinta")
    assert own.status_code == 200 and own.json()["own"] is True and own.json()["recent"] == []


# ---------------------------------------------------------------------------- 7: names
#: The reviewer's pairs, and each the other way round (fresh names: one server for the module).
PAIRS = (("Sam", "Sarn"), ("Will", "VVill"), ("Dan", "Clan"), ("Ann", "Ann_"),
         ("Sarnia", "Samia"), ("VVillo", "Willo"), ("Clara", "Dara"), ("_Bo.", "Bo"))


def test_7_multi_letter_look_alikes_are_refused(server: Server) -> None:
    """Beside each first name, the second is refused in the words of a taken name."""
    words = set()
    for first, second in PAIRS:
        visit(server.url, first)
        c, h = visit(server.url)
        r = c.post("/api/account/name", json={"name": second}, headers=h)
        assert r.status_code == 409 and r.json()["error"]["code"] == "name_unavailable", (first, second, r.text)
        words.add(r.json()["error"]["message"])
    assert len(words) == 1  # the words of a taken name: nothing tells a look-alike from the name itself


def test_7_the_bots_and_the_servers_words_are_reserved(server: Server) -> None:
    """A name of a bot (its id, its name for people in English and Spanish), the name a deleted
    account's seats show, a spectator's name in the chat, or a word of the server's is refused."""
    c, h = visit(server.url)
    for name in ("expert", "Master", "random", "Foster", "Beginner", "Experto", "Maestro", "Azar", "deleted player",
                 "jugador borrado", "admin", "Guest", "invitado", "Spectator 12ab", "espectador 9", "rand0m",
                 "Expert_", "MAESTR0"):
        r = c.post("/api/account/name", json={"name": name}, headers=h)
        assert r.status_code == 409 and r.json()["error"]["code"] == "name_unavailable", name
    assert c.get("/api/account").json()["name"] is None
    assert c.post("/api/account/name", json={"name": "Expertise"}, headers=h).status_code == 200


def test_7_names_kept_before_are_found_by_todays_look_alikes(tmp_path: Path) -> None:
    """An account named before the skeleton learnt letter pairs ("Sarn" kept as ``sarn``) gets
    today's skeleton when the server starts, so "Sam" is refused beside it."""
    from sqlalchemy import update

    from conquian.web.platform.accounts.service import AccountError
    from conquian.web.platform.accounts.storage import AccountStore, accounts
    from conquian.web.store import Store

    store = Store(f"sqlite:///{tmp_path / 'old.db'}")
    store.upgrade()
    names = AccountStore(store.engine)
    old, _, _ = names.create("a browser")
    names.set_name(old, "Sarn")
    with store.engine.begin() as conn:  # as it was kept before
        conn.execute(update(accounts).where(accounts.c.id == old).values(skeleton="sarn"))
    new, _, _ = names.create("another browser")
    assert names.refresh_skeletons() == 1 and names.refresh_skeletons() == 0
    with pytest.raises(AccountError) as refused:
        names.set_name(new, "Sam")
    assert refused.value.code == "name_unavailable"
    store.dispose()


# ---------------------------------------------------------------------------- 10: after the notifications come back
def test_10_a_table_catches_up_after_the_notifications_come_back_even_if_the_first_read_fails(
        tmp_path: Path) -> None:
    """The reviewer's probe: a move stored (by another process) while this process's
    notifications were reconnecting never reached its pages.  When they come back (``resync``)
    every table held is read again from the database, and a read that fails (the pool's old
    connections after the database came back) is tried again."""
    import asyncio
    import random

    from sqlalchemy.exc import OperationalError

    from conquian.engine.rules import get_rules
    from conquian.web.app import Hub, Server, Settings
    from conquian.web.store import Store
    from conquian.web.table import Table

    db = f"sqlite:///{tmp_path / 'resync.db'}"

    async def run() -> None:
        server = Server(Settings(db_url=db))
        server.store.upgrade()
        t = Table("rs1", "missed", get_rules("conquian"), seed=3)
        server.store.create(t)
        t.sit(1, "Ann")
        t.sit(2, "Bea")
        server.store.save_seats(t)
        server.store.append(t, 0)
        hub = server.hubs[t.id] = Hub(t, t.state)
        # another process plays a move and stores it; its notification never comes
        other = Store(db)
        theirs = other.load(t.id)
        assert theirs is not None and theirs.session is not None
        before = theirs.state
        deal = theirs.session.deal
        theirs.act(deal.to_act, str(random.Random(1).choice(deal.legal_actions())), before)  # type: ignore[arg-type]
        other.append(theirs, before)
        other.dispose()
        # the first read after the notifications come back fails, as a stale connection's would
        changes, failures = server.store.changes, []

        def flaky(table_id: str, after: int) -> object:
            if not failures:
                failures.append(table_id)
                raise OperationalError("SELECT", {}, Exception("server closed the connection unexpectedly"))
            return changes(table_id, after)

        server.store.changes = flaky  # type: ignore[method-assign, assignment]
        await server.on_notice({"k": "resync"})
        for _ in range(100):
            if hub.table.state == theirs.state or not server.tasks:
                break
            await asyncio.wait(list(server.tasks), timeout=0.5)
        assert failures == [t.id]
        assert hub.table.state == hub.stored == theirs.state
        server.store.dispose()

    asyncio.run(run())


def test_12_a_websocket_from_the_other_scheme_is_refused(server: Server) -> None:
    """A page of ``https://host`` is not this plain-HTTP server's (nor the other way round): its
    WebSocket is refused like another site's; the server's own origin is let in."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    from web_server import Client

    t = server.create(variant="conquian", host_name="Ann")
    with pytest.raises(InvalidStatus), connect(f"ws://127.0.0.1:{server.port}/ws/{t['id']}", open_timeout=5,
                                               additional_headers={"Origin": f"https://127.0.0.1:{server.port}"}):
        pass
    Client(server, str(t["id"]), origin=server.url).close()


def test_12_an_origin_the_operator_allows_passes_the_csrf_check(tmp_path: Path) -> None:
    """``serve --origin`` names pages of other origins that may use the server (as for its
    WebSocket and passkeys): the cookie's requests from there pass, others' do not."""
    s = Server(f"sqlite:///{tmp_path / 'web.db'}", tmp_path,
               extra=("--log-level", "warning", "--origin", "https://cards.example")).start()
    try:
        c, h = visit(s.url)
        evil = c.post("/api/account/name", json={"name": "Nia"}, headers=h | {"Origin": "https://evil.example"})
        assert evil.status_code == 403
        ok = c.post("/api/account/name", json={"name": "Nia"}, headers=h | {"Origin": "https://cards.example"})
        assert ok.status_code == 200, ok.text
    finally:
        s.stop()
