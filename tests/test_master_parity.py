"""One master, two transports: the same scripted sessions, bad messages included, played against
the server over a real socket on 127.0.0.1 and against the page's engine (``conquian.web.local``,
called through :meth:`Games.call` as the offline app's worker calls it), answer alike.

What legitimately differs is left out before comparing: the table's id (and its rematch's), the
connection's welcome (its id, the server's chat settings), what the server adds for the people
watching (``spectators``, ``chat_muted``) and the page for itself (``offline``), the bots' pace
where the server's default stands (the page shows its own), and the bots' choices (their
randomness): each bot move the server's bot made is handed to the page's bot, through the one
place a bot chooses (:func:`conquian.web.master.bot_choice`).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conquian import get_rules
from conquian.engine.errors import ConquianError
from conquian.i18n import translator
from conquian.present import symbols
from conquian.web import master
from conquian.web.local import Games
from conquian.web.protocol import ProtocolError, decode_client
from conquian.web.store import Store
from conquian.web.table import Table
from web_server import Client, Server

SEED = 7


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Store]]:
    tmp = tmp_path_factory.mktemp("parity")
    db = f"sqlite:///{tmp / 'web.db'}"
    # the bots move when hurried (or after a minute): every bot move is a step of the script
    s = Server(db, tmp, bot_delay=60).start()
    store = Store(db)
    yield s, store
    store.dispose()
    s.stop()


def _normal(m: dict[str, Any]) -> dict[str, Any]:
    """A message less what the transports may say differently."""
    if m["type"] == "welcome":
        return {k: m[k] for k in ("type", "v", "seat")}
    if m["type"] != "table":
        return m
    t = {k: v for k, v in m["table"].items() if k not in ("id", "spectators", "chat_muted", "offline")}
    t["rematch"] = t["rematch"] is not None
    if t["pace"] in (None, 1.0):  # the server's default (None) and the page's (1 second)
        t["pace"] = "default"
    return {"type": "table", "table": t}


class ServerSide:
    """The server, over its socket, as the page reaches it."""

    def __init__(self, server: Server, store: Store, lang: str) -> None:
        t = server.create(variant="conquian", host_name="Ana", name="Parity", deals=1, set_deal=True, seed=SEED,
                          seats=[{"kind": "open"}, {"kind": "random"}])
        self.store, self.id = store, str(t["id"])
        self.client = _Lang(server, self.id, str(t["token"]), lang)
        self.first = [_normal({"type": "welcome", **self.client.welcome}),
                      _normal({"type": "table", "table": self.client.table})]

    def send(self, msg: Any) -> list[dict[str, Any]]:
        """The answers to ``msg``: everything the server sends until the pong of a ping after it."""
        for m in (msg, {"type": "ping"}):
            self.client.pace()
            self.client.send(m if isinstance(m, dict) else json.dumps(m))
        pongs = 2 if msg == {"type": "ping"} else 1
        out: list[dict[str, Any]] = []
        while True:
            m = self.client.recv()
            if m["type"] == "presence":
                continue
            if m["type"] == "pong":
                pongs -= 1
                if not pongs:
                    return [_normal(x) for x in out]
            out.append(m)

    def bot(self) -> tuple[list[dict[str, Any]], str]:
        """Hurry the bot; its move's table, and the move as stored."""
        state = self.client.table["state"]
        self.client.pace()
        self.client.send({"type": "hurry"})
        snap = self.client.wait_table(lambda t: t["state"] > state)
        table = self.store.load(self.id)
        assert table is not None
        command = table.commands[state]  # the command that led from ``state``
        assert command.startswith("act p2 "), command
        return [_normal({"type": "table", "table": snap})], command.removeprefix("act ")

    def close(self) -> None:
        self.client.close()


class _Lang(Client):
    """A client whose hello names its language."""

    def __init__(self, server: Server, table_id: str, token: str, lang: str) -> None:
        self._lang = lang
        super().__init__(server, table_id, token)

    def send(self, message: Any) -> None:
        if isinstance(message, dict) and message.get("type") == "hello":
            message = {**message, "lang": self._lang}
        super().send(message)


class PageSide:
    """The page's engine, called as the worker calls it (JSON text both ways)."""

    def __init__(self, lang: str) -> None:
        self.games, self.lang = Games(), lang
        saved = self._call("new", {"variant": "conquian", "players": 2, "bot": "random", "name": "Ana", "seed": SEED,
                                   "bot_seed": 1, "deals": 1, "title": "Parity"})
        self.id = saved["id"]
        self.first = [_normal(m) for m in self._call("handle", self.id, {"type": "hello", "v": 1, "lang": lang})]

    def _call(self, method: str, *args: Any) -> Any:
        out = json.loads(self.games.call(method, json.dumps(list(args)), self.lang))
        assert out["ok"], out
        return out["value"]

    def send(self, msg: Any) -> list[dict[str, Any]]:
        return [_normal(m) for m in self._call("handle", self.id, msg)]

    def bot(self, move: str, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
        """The bot's turn (after a hurry), its choice the server's bot's."""
        assert self._call("handle", self.id, {"type": "hurry"}) == []
        turn = self._call("bot_turn", self.id)
        assert turn["seat"] == 2 and turn["bot"] == "random"
        with monkeypatch.context() as m:
            m.setattr(master, "bot_choice", lambda deal, seat, bot, seed, **kw: (move, None))
            return [_normal(x) for x in self._call("bot_move", self.id)]


#: Messages no master takes (each refused in the same words by both), sent at the player's turn.
BAD = [
    {"type": "shuffle"}, {}, {"type": 3}, [], "hola", 5, {"type": "act"},
    {"type": "act", "state": "1", "action": "pass"}, {"type": "act", "state": True, "action": "pass"},
    {"type": "act", "state": 1.0, "action": "pass"}, {"type": "act", "state": -1, "action": "pass"},
    {"type": "act", "state": 10**10, "action": "pass"}, {"type": "act", "state": 1, "action": ""},
    {"type": "act", "state": 1, "action": None}, {"type": "act", "state": 1, "action": "x" * 401},
    {"type": "act", "state": 1, "action": "pass", "seat": 2}, {"type": "act", "action": "pass"},
    {"type": "options", "cards": "3s"}, {"type": "options", "cards": [1]}, {"type": "options", "cards": [""]},
    {"type": "options", "cards": ["10oro"]}, {"type": "options", "cards": ["3s"] * 31},
    {"type": "pace", "seconds": 9}, {"type": "pace", "seconds": 5.5}, {"type": "pace", "seconds": -1},
    {"type": "pace", "seconds": "1"}, {"type": "pace", "seconds": False}, {"type": "pace"},
    {"type": "next"}, {"type": "hint", "now": True}, {"type": "hurry", "x": 1}, {"type": "rematch", "x": 1},
    {"type": "ping", "x": None},
]


def _refusals(state: int) -> list[dict[str, Any]]:
    """Refusals of the table's own: a stale move, a move that is no move, a card not held or not
    a card, the next deal while one is played, a rematch before the end."""
    return [
        {"type": "act", "state": state + 5, "action": "pass"}, {"type": "act", "state": state, "action": "meld xyz"},
        {"type": "act", "state": state, "action": "p2 pass"}, {"type": "options", "cards": ["zz"]},
        {"type": "options", "cards": ["Ko"]}, {"type": "next", "state": state}, {"type": "rematch"},
        {"type": "ping"},
    ]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_scripted_session_answers_alike_on_both_transports(served: tuple[Server, Store], lang: str,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    server, page = ServerSide(*served, lang), PageSide(lang)
    try:
        assert server.first == page.first
        compared = 0
        for msg in BAD:
            s, p = server.send(msg), page.send(msg)
            assert s == p, msg
            assert s[0]["type"] == "error" and s[0]["code"] == "bad_message", msg
            compared += 1
        for step in range(2000):
            snap = server.client.table
            if snap["status"] == "over":
                break
            if snap["deal"]["over"]:
                msg = {"type": "next", "state": snap["state"]}
                assert server.send(msg) == page.send(msg)
                continue
            if snap["deal"]["to_act"] == 2:
                moved, move = server.bot()
                assert moved == page.bot(move, monkeypatch), step
                continue
            if step % 5 == 0:  # the table's own refusals and options, now and then
                for msg in [*_refusals(snap["state"]), {"type": "options", "cards": snap["deal"]["hand"][:2]}]:
                    assert server.send(msg) == page.send(msg), msg
                    compared += 1
            msg = {"type": "act", "state": snap["state"], "action": snap["legal"][step % len(snap["legal"])]}
            s, p = server.send(msg), page.send(msg)
            assert s == p and s[0]["type"] == "table", msg
        assert server.client.table["status"] == "over"
        for msg in ({"type": "pace", "seconds": 2}, {"type": "rematch"}):  # the pace set, the rematch made
            s, p = server.send(msg), page.send(msg)
            assert s == p and s[-1]["type"] == "table", msg
        assert s[-1]["table"]["rematch"] is True and s[-1]["table"]["pace"] == 2
        assert compared > len(BAD)
    finally:
        server.close()


@pytest.mark.parametrize("msg", BAD)
def test_the_pages_checks_are_the_servers_decoders(msg: Any) -> None:
    """The master's checks of a decoded message (the page's transport) say what the server's
    decoder says of the same JSON."""
    with pytest.raises(ProtocolError) as server:
        decode_client(json.dumps(msg))
    with pytest.raises(master.MessageError) as page:
        master.check(msg)
    assert (page.value.code, page.value.render()) == (server.value.code, server.value.render())


def test_the_limits_are_the_servers_in_the_page() -> None:
    """One set of limits: a pace over 5 seconds and a selection over 30 cards are refused in the
    page too (it took 10 seconds and 60 cards before)."""
    page = PageSide("en")
    assert page.send({"type": "pace", "seconds": 10})[0]["code"] == "bad_message"
    assert page.send({"type": "options", "cards": ["3s"] * 60})[0]["code"] == "bad_message"
    assert page.send({"type": "pace", "seconds": 5})[0]["table"]["pace"] == 5


def test_the_master_module_is_pure() -> None:
    """No I/O, no storage, no transport, no event loop in the master: it imports none of them."""
    tree = ast.parse(Path(master.__file__).read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {str(node.module).split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported <= {"__future__", "re", "collections", "dataclasses", "typing", "conquian"}, imported
    modules = {str(node.module) for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not {m for m in modules if m.startswith("conquian.web.") and
                m not in ("conquian.web.snapshot", "conquian.web.table")}, modules
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in ("open", "print", "input")]


def test_one_list_of_presets_for_the_lobby_and_the_page(served: tuple[Server, Store]) -> None:
    """The server's ``/api/presets`` is the master's list, and the page's is the same list with
    the bots quick enough in the page."""
    from conquian.bots import bot_names
    from conquian.bots.expert import strongest_quick_bot
    from conquian.web.table import TURN_TIMERS

    server = served[0].get("/api/presets").json()
    assert server == json.loads(json.dumps(master.presets(bot_names(), strongest_quick_bot(), TURN_TIMERS)))
    page = PageSide("en")._call("presets")
    assert {k: v for k, v in page.items() if k not in ("bots", "levels", "level_order", "bot_ratings",
                                                           "default_bot")} == \
        {k: v for k, v in server.items() if k not in ("bots", "levels", "level_order", "bot_ratings", "default_bot")}
    assert set(page["bots"]) <= set(server["bots"]) and page["levels"] == [b for b in server["levels"]
                                                                           if b in page["bots"]]


#: A card in the notation (``7h``, ``Tc``): never in a refusal's words.
_NOTATION = re.compile(r"(?<![\w=])(?:10|[2-9TAJQK])[cdhs](?![\w])")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_refusal_names_its_cards_as_the_page_does_on_both_transports(served: tuple[Server, Store],
                                                                      lang: str) -> None:
    """The engine writes the cards of a refusal in the notation ("8c 9c is not a valid
    combination"): the master names them as the page does (8♣ 9♣), so the page only shows them."""
    server, page = ServerSide(*served, lang), PageSide(lang)
    try:
        snap = server.client.table
        hand = snap["deal"]["hand"]
        msg = {"type": "act", "state": snap["state"], "action": f"use {hand[0]} {hand[-1]}"}
        s, p = server.send(msg), page.send(msg)
        assert s == p and s[0]["type"] == "error", s
        words = s[0]["message"]
        assert not _NOTATION.search(words), words
        assert symbols(hand[0]) in words and symbols(hand[-1]) in words, words
        assert "message_suits" not in s[0]  # the French pack: no other suits to show
    finally:
        server.close()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_refusal_beside_the_spanish_packs_suits_names_them_in_that_packs_words(lang: str) -> None:
    t = Table("t", "test", get_rules("conquian-spanish"), seed=5)
    t.sit(1, "Ana")
    t.sit(2, "Bea")
    assert t.session is not None
    try:
        t.session.play_human("p1 use 7h 7d")
        raise AssertionError("not refused")
    except ConquianError as e:
        answer = master.error_message(e, t, translator(lang))
    es = lang == "es"
    assert answer["message"] == ("R2.2: 7♦ 7♥ no es una combinación válida" if es
                                 else "R2.2: 7♦ 7♥ is not a valid combination")
    assert answer["message_suits"] == ("R2.2: 7 de oros 7 de copas no es una combinación válida" if es
                                       else "R2.2: 7 de oros 7 de copas is not a valid combination")
