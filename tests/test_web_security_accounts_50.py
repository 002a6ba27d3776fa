"""The fourth security review's findings on accounts, names and headers (issue 50, findings 7 to
12), each re-played against ``conquian serve`` on 127.0.0.1 the way the reviewer probed it."""

from __future__ import annotations

from collections.abc import Iterator

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
