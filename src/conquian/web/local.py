"""The table's master in the page: a match against the bots with no server (``Play offline``).

The web page talks to a table through one client and two transports (``docs/internals.md``):
the server over its socket, or this module in a Web Worker of the page, where the Python engine
runs in Pyodide.  Both are adapters around one master (:mod:`conquian.web.master`: the messages'
checks and limits, the refusals in words, the rematch, the bots' turns and choices), so they
answer the same client messages (``docs/protocol.md``) with the same snapshots
(:mod:`conquian.web.snapshot`), and the page's table code is the same for both.

This module imports nothing but the engine and the table (no server dependency), and keeps no
state outside its :class:`LocalTable`: the page saves :meth:`LocalTable.saved` (JSON) after every
change and rebuilds the table from it with :meth:`LocalTable.restore` after a reload.  A match
played here is the player's own, on his own device: it is unrated, and every snapshot says so
(``offline``).

```pycon
>>> t = LocalTable.new("conquian", bot="random", seed=7, bot_seed=7, table_id="a1")
>>> [m["type"] for m in t.handle({"type": "hello"})]
['welcome', 'table']
>>> t.table.seats[1].kind, t.snapshot()["offline"]
('random', True)
>>> again = LocalTable.restore(t.saved())
>>> again.snapshot() == t.snapshot()
True

```
"""

from __future__ import annotations

import json
import random
import secrets
import time
import zlib
from typing import Any

from conquian.bots import bot_names
from conquian.engine.errors import ConquianError, RecordError
from conquian.engine.match import new_deal
from conquian.engine.record import read_record, record_from_match, write_record
from conquian.engine.rules import PRESETS, get_rules
from conquian.i18n import ENGLISH, Msg, Translator, match_language, translator
from conquian.session import HUMAN, read_table_note, table_note
from conquian.web import master
from conquian.web.snapshot import hint_message, table_snapshot
from conquian.web.table import PLAYING, TURN_TIMERS, Table, TableError, deck_text

#: The saved table's format (what the page keeps in IndexedDB).
SAVED_FORMAT = "conquian-offline/1"
#: The bots a player may meet offline: quick enough in the page.
OFFLINE_BOTS = ("beginner", "casual", "foster", "random", "expert")
#: The expert's time for one move in the page (milliseconds): its playouts stop there.
EXPERT_MS = 300.0
#: Seconds between the bots' moves unless the player sets the pace.
DEFAULT_PACE = 1.0
#: The hint's playouts in the page (fewer than the review's: the page is slower than CPython).
HINT_PLAYOUTS = 120


def presets() -> dict[str, Any]:
    """The games, their seat counts and options, and the bots, as the page's lobby reads them
    (:func:`conquian.web.master.presets`: the server's ``/api/presets``, with the page's bots)."""
    return master.presets(OFFLINE_BOTS, "foster", TURN_TIMERS)


def _reader(lang: object) -> Translator:
    found = match_language(lang[:35]) if isinstance(lang, str) and lang else None
    return translator(found) if found else ENGLISH


class LocalTable:
    """One table played in the page: the player at seat 1, bots at the others.

    ``bot_seed``: the bots' randomness (None: the operating system's); with a seed, the same moves
    of the player give the same moves of ``random`` and ``foster`` in CPython and in the page."""

    def __init__(self, table: Table, bot_seed: int | None = None, expert_ms: float = EXPERT_MS,
                 updated: float | None = None) -> None:
        self.table = table
        table.connect(1)  # the player is here: the page is his connection
        self.bot_seed = bot_seed
        self.expert_ms = expert_ms
        self.updated = updated or time.time()
        self.tr: Translator = ENGLISH
        #: The playouts of each of the expert's moves here (its strength in the page, measured by
        #: benchmarks/offline_page.py): a time cap plays fewer on a slower machine.
        self.expert_playouts: list[int] = []
        #: The rematch the last message made (:class:`Games` opens it).
        self.rematched: LocalTable | None = None

    # ------------------------------------------------------------------ making one
    @classmethod
    def new(cls, variant: str, *, players: int | None = None, bot: str = "foster", bots: list[str] | None = None,
            name: str = "You", seed: int | None = None, bot_seed: int | None = None,
            options: dict[str, Any] | None = None, deals: int | None = None, table_id: str | None = None,
            title: str = "", pace: float | None = None) -> LocalTable:
        """A new match: ``variant`` for ``players`` seats (the preset's count if None), the player
        named ``name`` at seat 1 and ``bot`` (or one of ``bots`` per other seat) at the others.
        ``seed``: every deck from it (None: fresh randomness).  Bad input: a :class:`TableError`."""
        if variant not in PRESETS:
            raise TableError("bad_variant", Msg("there is no game {variant} (games: {games})",
                                                variant=repr(str(variant)[:30]), games=", ".join(PRESETS)))
        try:
            rules = get_rules(variant, **({} if players is None else {"players": players}), **(options or {}))
        except ConquianError as e:
            raise TableError("bad_options", e.message) from None
        n = rules.players
        kinds = list(bots) if bots else [bot] * (n - 1)
        if len(kinds) != n - 1:
            raise TableError("bad_bot", Msg("give one bot for each of the {n} other seats", n=n - 1))
        for k in kinds:
            if k not in bot_names():
                raise TableError("bad_bot", Msg("there is no bot {bot} (bots: {bots})", bot=repr(str(k)[:40]),
                                                bots=", ".join(OFFLINE_BOTS)))
        table = Table(id=table_id or secrets.token_urlsafe(6), name=title or rules.name, rules=rules,
                      seed=seed, deals_in_match=deals, pace=pace)
        table.sit(1, name)
        for s, k in enumerate(kinds, 2):
            table.set_bot(s, k, host=True)  # the last one starts the match
        return cls(table, bot_seed)

    @classmethod
    def from_record(cls, text: str, *, name: str | None = None, bot: str = "foster",
                    table_id: str | None = None) -> LocalTable:
        """A match read from a ``conquian-record/1`` file, to go on playing: seat 1 is the player
        (his name from the record unless ``name``), the other seats the bots the record's table
        note names, else ``bot``.  A record the engine refuses raises its error (a
        :class:`~conquian.engine.errors.RecordError`)."""
        rec = read_record(text)
        n = len(rec.players)
        rules = rec.rules()
        note = read_table_note(text, n)
        kinds = note[0] if note else []
        deals = note[1] if note else None
        others = [k if k in bot_names() else bot for k in (kinds[1:] if len(kinds) == n else [bot] * (n - 1))]
        if not rec.deals:
            raise RecordError(Msg("the record has no deal"))
        table = Table(id=table_id or secrets.token_urlsafe(6), name=rules.name, rules=rules, seed=None,
                      deals_in_match=max(deals or 0, len(rec.deals)) or None, first_dealer=rec.deals[0].dealer)
        table.seats[0].kind, table.seats[0].name = HUMAN, (name or rec.players[0])
        for s, k in zip(table.seats[1:], others, strict=True):
            s.kind, s.name = k, rec.players[s.number - 1]
        for i, d in enumerate(rec.deals):
            deck = d.deck if d.deck is not None else new_deal(rules, None, dealer=d.dealer, seed=d.seed).deck
            table.rebuild([f"{'start' if i == 0 else 'next'} {deck_text(deck)}"])
            table.rebuild([f"act {a}" for a in d.actions])
        return cls(table)

    # ------------------------------------------------------------------ saving
    def saved(self) -> dict[str, Any]:
        """Everything needed to rebuild the table (JSON): its settings, seats and commands."""
        t = self.table
        return {
            "format": SAVED_FORMAT, "id": t.id, "name": t.name, "variant": t.rules.name, "players": t.rules.players,
            "options": t.rules.options_diff(), "seed": t.seed, "bot_seed": self.bot_seed,
            "seats": [{"kind": s.kind, "name": s.name} for s in t.seats],
            "deals_in_match": t.deals_in_match, "first_dealer": t.first_dealer, "carried": list(t.carried),
            "pace": t.pace, "commands": list(t.commands), "rematch": t.rematch_id, "created": t.created,
            "updated": self.updated, "status": t.status, "expert_ms": self.expert_ms,
            "totals": t.session.match.totals if t.session is not None else [0] * len(t.seats),
        }

    @classmethod
    def restore(cls, saved: dict[str, Any]) -> LocalTable:
        """The table :meth:`saved` described, rebuilt by replaying its commands."""
        if saved.get("format") != SAVED_FORMAT:
            raise TableError("bad_saved", Msg("this saved match is not one this version reads"))
        rules = get_rules(saved["variant"], players=saved["players"], **saved.get("options", {}))
        t = Table(id=saved["id"], name=saved["name"], rules=rules, seed=saved.get("seed"),
                  deals_in_match=saved.get("deals_in_match"), first_dealer=saved.get("first_dealer"),
                  carried=list(saved.get("carried") or []), pace=saved.get("pace"),
                  created=saved.get("created") or time.time())
        for s, d in zip(t.seats, saved["seats"], strict=True):
            s.kind, s.name = d["kind"], d["name"]
        t.rebuild(saved["commands"])
        t.rematch_id = saved.get("rematch")
        return cls(t, saved.get("bot_seed"), float(saved.get("expert_ms") or EXPERT_MS), saved.get("updated"))

    def record(self) -> str:
        """The match so far as a ``conquian-record/1`` file, after a note of who sits where (the
        bots by name), so that importing it seats the same bots."""
        t = self.table
        if t.session is None:
            raise TableError("not_playing", Msg("the match has not started: seats are still open"))
        return (table_note([s.kind for s in t.seats], t.deals_in_match or 1)
                + write_record(record_from_match(t.session.match)))

    def record_name(self) -> str:
        """A file name for the record."""
        return f"conquian-{self.table.rules.name}-{self.table.id}.toml"

    # ------------------------------------------------------------------ messages
    def snapshot(self) -> dict[str, Any]:
        """The table as the player sees it, with ``offline`` (unrated, played in the page)."""
        out = table_snapshot(self.table, 1, self.tr)
        out["offline"] = True
        out["rated"] = False
        if out["pace"] is None:
            out["pace"] = DEFAULT_PACE
        return out

    def _table(self) -> dict[str, Any]:
        return {"type": "table", "table": self.snapshot()}

    def handle(self, msg: dict[str, Any]) -> list[dict[str, Any]]:
        """The answers to one client message (:func:`conquian.web.master.handle`, the protocol's
        shape); a refusal is an ``error`` message, the table unchanged.  The ``hello`` and the
        ``hint`` are answered here: the page is the player's only connection, and works the hint
        out itself."""
        kind = msg.get("type") if isinstance(msg, dict) else None
        if kind in ("hello", "hint"):
            try:
                checked = master.check(msg)
                if kind == "hint":
                    return [self.hint()]
            except ConquianError as e:
                return [master.error_message(e, self.table, self.tr)]
            if "lang" in checked:
                self.tr = _reader(checked.get("lang"))
            # not the host: nobody else joins, so the host's settings (the away rule, the turn timer) do not apply
            return [{"type": "welcome", "v": master.VERSION, "seat": 1, "host": False, "table": self.table.id,
                     "id": "local"}, self._table()]
        answer = master.handle(self.table, master.Reader(seat=1, tr=self.tr), msg)
        if answer.rematch:
            self.rematched = self.rematch()
        if answer.changed or answer.rematch:
            self.updated = time.time()
            return [*answer.replies, self._table()]
        return answer.replies

    def hint(self) -> dict[str, Any]:
        """The ``hint`` answer for the player (the review's choice, with the page's playouts)."""
        t = self.table
        if t.session is None or t.status != PLAYING:
            raise TableError("not_your_seat", Msg("only a seat in play may ask for a hint"))
        session = t.session
        if session.deal.over or session.deal.to_act != 1:
            raise TableError("not_your_turn", Msg("a hint is for the seat to act"))
        # imported on the first hint, not when the page's engine starts (the review is a second of
        # imports in Pyodide that a new match does not need)
        from conquian.review import hint_choice

        act = hint_choice(t.rules.name, t.rules.options_diff(), list(session.names or ()), len(session.match.deals),
                          session.deal, 1, playouts=HINT_PLAYOUTS)
        return hint_message(session, 1, act, self.tr)

    def rematch(self, table_id: str | None = None) -> LocalTable:
        """The rematch of a finished match (:func:`conquian.web.master.rematch_table`): a new table
        with the same seats, the first deal passed to the left, the standings carried."""
        t = master.rematch_table(self.table, table_id or secrets.token_urlsafe(6))
        self.table.rematch_id = t.id
        self.updated = time.time()
        new = LocalTable(t, None if self.bot_seed is None else self.bot_seed + 1, self.expert_ms)
        new.tr = self.tr
        return new

    # ------------------------------------------------------------------ the bots
    def bot_turn(self) -> master.BotTurn | None:
        """The bots' next move here (:func:`conquian.web.master.bot_turn`): which seat, which bot,
        after how many seconds; None if a person is to act."""
        turn = master.bot_turn(self.table, DEFAULT_PACE)
        return turn if turn is not None and turn.work == "move" else None

    def bot_to_act(self) -> bool:
        """Whether a bot plays the next move."""
        return self.bot_turn() is not None

    def pace(self) -> float:
        """Seconds to wait before a bot's move."""
        turn = self.bot_turn()
        return turn.delay if turn is not None else (DEFAULT_PACE if self.table.pace is None else self.table.pace)

    def bot_move(self) -> list[dict[str, Any]]:
        """Play one bot's move, if a bot is to act; the new table (none if no bot was to act)."""
        t = self.table
        turn = self.bot_turn()
        if turn is None or turn.seat is None or turn.bot is None or t.session is None:
            return []
        action, bot = master.bot_choice(t.session.deal, turn.seat, turn.bot, self._seed(turn.seat), ms=self.expert_ms)
        if turn.bot == "expert":
            self.expert_playouts.append(int(getattr(bot, "last_playouts", 0)))
        t.act(turn.seat, action, t.state)
        self.updated = time.time()
        return [self._table()]

    def _seed(self, seat: int) -> int:
        if self.bot_seed is None:
            return random.SystemRandom().getrandbits(63)
        session = self.table.session
        assert session is not None
        key = f"{self.bot_seed}|{len(session.match.deals)}|{len(session.deal.actions())}|{seat}".encode()
        return zlib.crc32(key)


class Games:
    """The worker's side of the page: the tables open in the page, by id, each call taking and
    giving JSON text (what crosses between JavaScript and Python).  The worker keeps each
    table's :meth:`LocalTable.saved` in IndexedDB and gives it back to :meth:`open`."""

    def __init__(self) -> None:
        self.tables: dict[str, LocalTable] = {}
        self.lang = ""

    def call(self, method: str, args: str, lang: str = "") -> str:
        """The worker's one entry: ``method`` with the JSON list ``args``; JSON ``{"ok": true,
        "value": ...}``, or ``{"ok": false, "error": {code, message, rule}}`` in ``lang``."""
        try:
            if method not in self.METHODS:
                raise TableError("bad_message", Msg("the engine has no call {name}", name=repr(method[:30])))
            self.lang = lang
            value = getattr(self, method)(*json.loads(args))
            return json.dumps({"ok": True, "value": value})
        except Exception as e:  # every failure goes back to the page as words, never lost in the worker
            return json.dumps({"ok": False, "error": self.error(e, lang)})

    #: The methods :meth:`call` runs.
    METHODS = frozenset({"presets", "new", "open", "is_open", "handle", "bot_move", "bot_to_act", "bot_turn", "pace",
                         "saved", "record", "import_record", "learn", "playouts"})

    def playouts(self, table_id: str) -> list[int]:
        """The playouts of each of the expert's moves at the table since it was opened."""
        return list(self.tables[table_id].expert_playouts)

    def learn(self, path: str, body: object = None) -> dict[str, Any]:
        """The Learn section played in the page: the answer the server gives at ``path`` (the same
        paths and bodies: :func:`conquian.learn.api.learn_request`), in the call's language; a
        refused request is ``{"error": {code, message, rule}, "status": ...}``, as the server's."""
        from conquian.learn.api import LearnError, learn_request

        tr = _reader(self.lang)
        try:
            return learn_request(str(path)[:200], body, tr)
        except LearnError as e:
            return {"error": {"code": "bad_request", "rule": None, "message": tr.render(e.message)},
                    "status": e.status}

    def presets(self) -> dict[str, Any]:
        """:func:`presets`."""
        return presets()

    def new(self, d: dict[str, Any]) -> dict[str, Any]:
        """A new match from the lobby's ``spec`` (JSON: ``variant``, ``players``, ``bot``, ``name``,
        and optionally ``seed``, ``bot_seed``, ``deals``, ``pace``, ``expert_ms``); its saved form."""
        if not isinstance(d, dict):
            raise TableError("bad_message", Msg("a new match is described by an object"))
        seed, bot_seed = d.get("seed"), d.get("bot_seed")
        t = LocalTable.new(str(d.get("variant", "")), players=_whole(d.get("players")),
                           bot=str(d.get("bot", "foster")),
                           name=str(d.get("name") or "You")[:40], seed=_whole(seed), bot_seed=_whole(bot_seed),
                           deals=_whole(d.get("deals")),
                           pace=d.get("pace") if isinstance(d.get("pace"), int | float) else None,
                           title=str(d.get("title") or "")[:60])
        if isinstance(d.get("expert_ms"), int | float):
            t.expert_ms = float(d["expert_ms"])
        self.tables[t.table.id] = t
        return t.saved()

    def open(self, d: dict[str, Any]) -> str:
        """Open a saved table (if not open already); its id."""
        if d["id"] not in self.tables:
            self.tables[d["id"]] = LocalTable.restore(d)
        return str(d["id"])

    def is_open(self, table_id: str) -> bool:
        """Whether the table is open in the page."""
        return table_id in self.tables

    def handle(self, table_id: str, m: dict[str, Any]) -> list[dict[str, Any]]:
        """The answers to a client message; a rematch opens its new table."""
        t = self.tables[table_id]
        out = t.handle(m)
        if t.rematched is not None:
            self.tables[t.rematched.table.id], t.rematched = t.rematched, None
        return out

    def bot_turn(self, table_id: str) -> dict[str, Any] | None:
        """The bots' next move at the table (``seat``, ``bot``, ``delay`` in seconds), or None:
        the worker plays it (:meth:`bot_move`) once the delay has passed."""
        turn = self.tables[table_id].bot_turn()
        return None if turn is None else {"seat": turn.seat, "bot": turn.bot, "delay": turn.delay}

    def bot_move(self, table_id: str) -> list[dict[str, Any]]:
        """One bot's move at the table (its messages, none if no bot was to act)."""
        return self.tables[table_id].bot_move()

    def bot_to_act(self, table_id: str) -> bool:
        """Whether a bot plays next at the table."""
        return self.tables[table_id].bot_to_act()

    def pace(self, table_id: str) -> float:
        """Seconds before the next bot's move at the table."""
        return self.tables[table_id].pace()

    def saved(self, table_id: str) -> dict[str, Any]:
        """The table's saved form."""
        return self.tables[table_id].saved()

    def record(self, table_id: str) -> dict[str, str]:
        """The table's record and its file name (``text``, ``name``)."""
        t = self.tables[table_id]
        return {"text": t.record(), "name": t.record_name()}

    def import_record(self, text: str, name: str = "") -> dict[str, Any]:
        """A match read from a record (:meth:`LocalTable.from_record`): its saved form."""
        t = LocalTable.from_record(text, name=name or None)
        self.tables[t.table.id] = t
        return t.saved()

    @staticmethod
    def error(e: BaseException, lang: str = "") -> dict[str, Any]:
        """An exception as the page shows it (``code``, ``message``, ``rule``)."""
        if isinstance(e, ConquianError):
            return {"code": getattr(e, "code", None) or "bad_record", "message": e.render(_reader(lang)),
                    "rule": getattr(e, "rule", None)}
        return {"code": "engine", "message": f"{type(e).__name__}: {e}"[:300], "rule": None}


def _whole(value: object) -> int | None:
    return value if type(value) is int else None
