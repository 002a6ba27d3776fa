"""Playing together at the web table, over HTTP and the WebSocket: the lobby's rows (the game in
words, the seats free, who sits there, who watches, nothing null), the chat's limits as ``serve``
flags, and a restarted server keeping a rematch's standings, pace and rotated dealer."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from test_web_chat import ask_rematch, finish_match, paced
from web_server import Client, Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("together")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp).start()
    yield s
    s.stop()


def nulls(value: Any, where: str = "") -> list[str]:
    """Where a JSON value holds a null."""
    if value is None:
        return [where]
    if isinstance(value, dict):
        return [n for k, v in value.items() for n in nulls(v, f"{where}.{k}")]
    if isinstance(value, list):
        return [n for i, v in enumerate(value) for n in nulls(v, f"{where}[{i}]")]
    return []


def test_the_lobby_lists_the_game_in_words_the_seats_free_who_sits_and_who_watches(server: Server) -> None:
    waiting = server.create(variant="conquian-mexicano", players=3, host_name="Ann",
                            seats=[{"kind": "open"}, {"kind": "open"}, {"kind": "foster"}])
    playing = server.create(variant="cooncan-double", players=4, host_name="Bea",
                            seats=[{"kind": "open"}, {"kind": "random"}, {"kind": "random"}, {"kind": "random"}])
    watcher = Client(server, waiting["id"])
    try:
        rows = {r["id"]: r for r in server.get("/api/tables?lang=en").json()["open"]}
        w, p = rows[waiting["id"]], rows[playing["id"]]
        assert w["game"] == "Tercerilla: the conquián mexicano for three (3 players)"
        assert w["seats_free"] == 1 and w["status"] == "waiting"
        assert w["seated"] == [{"seat": 1, "name": "Ann", "bot": False}, {"seat": 3, "name": "Foster", "bot": True}]
        assert w["spectators"] == 1
        assert p["game"] == "Cooncan with two packs and jokers (4 players)" and p["seats_free"] == 0
        assert [s["bot"] for s in p["seated"]] == [False, True, True, True] and p["spectators"] == 0
        spanish = {r["id"]: r for r in server.get("/api/tables?lang=es").json()["open"]}
        assert spanish[waiting["id"]]["game"] != w["game"] and "(3 jugadores)" in spanish[waiting["id"]]["game"]
        # the browser's language when the request names none
        again = server.get("/api/tables")
        assert again.headers["vary"] == "Accept-Language"
        listing = server.get("/api/tables?lang=en").json()
        assert nulls(listing) == []
    finally:
        watcher.close()


def test_a_finished_match_is_listed_with_its_game_and_players(server: Server) -> None:
    # a public table's (a casual one's is its players' only: tests/test_web_hosting.py)
    t = server.create(variant="conquian", host_name="Cy", deals=1, public=True,
                      seats=[{"kind": "open"}, {"kind": "foster"}])
    cy = Client(server, t["id"], t["token"])
    try:
        finish_match(cy)
    finally:
        cy.close()
    done = {r["id"]: r for r in server.get("/api/tables?lang=en").json()["finished"]}
    row = done[t["id"]]
    assert row["game"] == "Conquián (2 players)" and row["rematch"] == ""
    assert [(s["name"], s["bot"]) for s in row["seated"]] == [("Cy", False), ("Foster", True)]
    assert nulls(row) == []


def test_the_chat_limits_are_flags_of_serve(tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 'w.db'}", tmp_path,
               extra=("--log-level", "warning", "--chat-chars", "10", "--chat-burst", "1",
                      "--chat-per-minute", "6")).start()
    try:
        t = s.create(variant="conquian", host_name="Ann", seats=[{"kind": "open"}, {"kind": "foster"}])
        ann = Client(s, t["id"], t["token"])
        assert ann.welcome["chat_chars"] == 10  # the page's chat box holds what the server accepts
        ann.send({"type": "chat", "text": "x" * 11})
        refused = ann.error()
        assert refused["code"] == "too_long" and "10" in refused["message"]
        ann.send({"type": "chat", "text": "x" * 10})
        assert ann.wait(lambda m: m["type"] == "chat")["text"] == "x" * 10
        paced(ann)
        ann.send({"type": "react", "reaction": "👍"})
        refused = ann.error()
        assert refused["code"] == "too_fast" and "10 seconds" in refused["message"]  # one every 10 s, after 1
        ann.close()
    finally:
        s.stop()
    for bad in (["--chat-chars", "0"], ["--chat-chars", "1001"], ["--chat-burst", "0"], ["--chat-per-minute", "x"]):
        out = subprocess.run([sys.executable, "-m", "conquian", "serve", *bad], capture_output=True, text=True,
                             timeout=60)
        assert out.returncode == 2 and "Traceback" not in out.stderr, (bad, out.stderr)
    helped = subprocess.run([sys.executable, "-m", "conquian", "serve", "--help"], capture_output=True, text=True,
                            timeout=60).stdout
    assert all(flag in helped for flag in ("--chat-chars", "--chat-per-minute", "--chat-burst"))


def rematch_then_restart(db: str, tmp: Path) -> None:
    """Play a one-deal match against a bot, set the bots' pace, ask for the rematch; stop the server
    and start it again on the same database: the rematch's table keeps its standings (the first
    match's totals), its pace and its first dealer (the seat after the first match's, R3.8)."""
    s = Server(db, tmp).start()
    try:
        t = s.create(variant="conquian", host_name="Ann", deals=1, seats=[{"kind": "open"}, {"kind": "foster"}])
        ann = Client(s, t["id"], t["token"], host=t["host"])
        first_dealer = ann.wait_table(lambda x: x["status"] == "playing")["deal"]["dealer"]
        paced(ann)
        ann.send({"type": "pace", "seconds": 2.5})
        ann.wait_table(lambda x: x["pace"] == 2.5)
        over = finish_match(ann)
        totals = [s_["total"] for s_ in over["standings"]]
        assert totals == over["scores"]["totals"]
        rid = ask_rematch(ann)
        ann.close()
        seen = Client(s, rid, t["token"], host=t["host"]).table
        assert seen["deal"]["dealer"] == first_dealer % 2 + 1 and seen["pace"] == 2.5
    finally:
        s.stop()
    s2 = Server(db, tmp, port=s.port).start()
    try:
        again = Client(s2, rid, t["token"], host=t["host"])
        new = again.wait_table(lambda x: x["status"] == "playing")
        assert again.welcome["seat"] == 1
        assert new["deal"]["dealer"] == first_dealer % 2 + 1  # the deal passes to the left (R3.8, R4)
        assert [s_["total"] for s_ in new["standings"]] == [a + b for a, b in zip(totals, new["scores"]["totals"],
                                                                                  strict=True)]
        assert new["pace"] == 2.5
        old = Client(s2, t["id"], t["token"]).table
        assert old["rematch"] == rid and old["status"] == "over"
        again.close()
    finally:
        s2.stop()


def test_a_restarted_server_keeps_the_rematchs_standings_pace_and_dealer(tmp_path: Path) -> None:
    rematch_then_restart(f"sqlite:///{tmp_path / 'w.db'}", tmp_path)
