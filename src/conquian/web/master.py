"""The master of a table: a table's messages in, its answers and effects out (no I/O, no storage,
no transport, no event loop).

The web page talks to a table through one client and two transports (``docs/internals.md``):
the server's socket (:mod:`conquian.web.sockets`) or the page's own engine in a Web Worker
(:mod:`conquian.web.local`).  Both are thin adapters around this module, which holds what a
table's message means once, for both: the limits a message is checked against, the presets
the lobby reads, a refusal in words, the rematch's new table, the bots' turns (an effect: *bot
seat N moves after D seconds*, which the adapter schedules and calls back) and the bot's choice
itself.  The adapters keep what is theirs: the server stores a move before it tells anyone,
locks a table, shares it across processes and rates it; the page saves to IndexedDB.

**One set of limits, the server's**: the bots' pace is at most :data:`MAX_PACE` (5) seconds and a
selection at most :data:`MAX_CARDS` (30) cards, in the page as on the server (the page allowed
10 seconds and 60 cards before).

```pycon
>>> from conquian import get_rules
>>> t = Table("t1", "", get_rules("conquian"), seed=5)
>>> _ = t.sit(1, "Ann"); t.set_bot(2, "random", host=True)
>>> player = Reader(seat=1)
>>> handle(t, player, {"type": "pace", "seconds": 9}).replies[0]["message"]
'bad_message: the number of seconds is at most 5'
>>> handle(t, player, {"type": "pace", "seconds": 0}).changed, t.pace
('settings', 0.0)
>>> t.act(1, "pass", state=1) and None
>>> bot_turn(t, default_pace=1.0)
BotTurn(work='move', seat=2, bot='random', delay=0.0)

```
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from conquian.bots import make_bot
from conquian.bots.expert import ExpertBot
from conquian.bots.levels import LEVELS, bot_ratings, levels_by_rating
from conquian.engine.errors import ConquianError
from conquian.engine.rules import PRESETS
from conquian.i18n import ENGLISH, N_, Msg, NMsg, Translator
from conquian.present import cards_named, spanish_pack
from conquian.session import HUMAN
from conquian.web.snapshot import options_message
from conquian.web.table import OPEN, OVER, PLAYING, Table, TableError

#: The protocol's version: sent in ``welcome`` and accepted in ``hello``.
VERSION = 1
#: The most seconds between the bots' moves a table may be set to (the server's limit).
MAX_PACE = 5.0
#: The most cards a selection may hold (the server's limit).
MAX_CARDS = 30
#: The longest move, in characters.
MAX_ACTION_CHARS = 400
#: The largest state number a message may carry.
MAX_STATE = 10**9
#: The longest refusal sent, in characters.
MAX_ERROR_CHARS = 300


# ---------------------------------------------------------------------------- the presets
def presets(bots: Sequence[str], default_bot: str, turn_timers: Sequence[int]) -> dict[str, Any]:
    """The games, their seat counts and options, the bots among ``bots`` and the turn timers a
    table may have, as the lobby reads them (the server's ``/api/presets`` and the page's lobby)."""
    allowed = set(bots)
    return {
        "variants": [
            {"name": r.name, "family": r.family, "min_players": r.min_players, "max_players": r.max_players,
             "players": r.players, "options": {k: v for k, v in r.option_values().items() if k != "players"},
             # the Spanish pack (R2.2, R8.1): its suits may show as oros, copas, espadas and bastos
             "pack": "spanish" if 11 in r.ranks and 8 not in r.ranks else "french"}
            for r in PRESETS.values()
        ],
        "bots": list(bots),
        "levels": [level.bot for level in LEVELS if level.bot in allowed],
        # per game, the levels as listed for people: by their fitted rating there, weakest first
        "level_order": {name: [b for b in levels_by_rating(name) if b in allowed] for name in PRESETS},
        "bot_ratings": {game: {b: r for b, r in rated.items() if b in allowed}
                        for game, rated in bot_ratings().items()},
        "default_bot": default_bot,
        # the turn timers a table may have here (the page's menus: never a copy of the list)
        "turn_timers": list(turn_timers),
        "protocol": VERSION,
    }


# ---------------------------------------------------------------------------- refusals in words
def error_code(e: ConquianError) -> str:
    """A refusal's code: the error's own, else ``illegal`` for a rule of the game, else ``bad_message``."""
    code = getattr(e, "code", None)
    if isinstance(code, str) and code:
        return code
    return "illegal" if getattr(e, "rule", None) else "bad_message"


def error_message(e: ConquianError, table: Table, tr: Translator = ENGLISH) -> dict[str, Any]:
    """The ``error`` message of a refusal at ``table``: its code and rule (the same in every
    language), its words in the reader's language with the seats named and the cards as the page
    names them (:func:`~conquian.present.cards_named`; ``message_suits`` too beside the Spanish
    pack's own suits, R8.1), and the table's state."""
    session = table.session

    def said(shown: Translator) -> str:
        text = e.render(shown)
        words = session.humanize(text, shown) if session else text
        # the engine's sentences write some cards in the notation ("8c 9c is not a valid
        # combination"): named here as the page names them, so that the page only shows the words
        return cards_named(words, shown.spanish_suits)[:MAX_ERROR_CHARS]

    out = {"type": "error", "code": error_code(e), "rule": getattr(e, "rule", None),
           "message": said(tr.shown(False)), "state": table.state}
    if spanish_pack(table.rules):
        out["message_suits"] = said(tr.shown(True))
    return out


#: The fields a person fills, and the others, in words (``{kind}.{field}`` first, then ``{field}``).
FIELD_WORDS = {
    "Sit.name": N_("your name"), "host_name": N_("your name"), "CreateTable.name": N_("the table's name"),
    "seat": N_("the seat"), "seats": N_("the list of seats"), "kind": N_("a seat's player"), "bot": N_("the bot"),
    "host": N_("the host's token"), "token": N_("the seat's token"), "variant": N_("the game"),
    "players": N_("the number of players"), "options": N_("the list of the game's options"),
    "deals": N_("the number of deals"),
    "show_buried": N_("the memory aid"), "away_after": N_("the time away before a bot plays"),
    "turn_timer": N_("the turn timer"), "set_deal": N_("the set deal"), "seed": N_("the seed"),
    "deck": N_("the deck"), "state": N_("the state number"), "action": N_("the move"), "cards": N_("the list of cards"),
    "text": N_("the chat line"), "reaction": N_("the reaction"), "seconds": N_("the number of seconds"),
    "spectator": N_("the spectator"), "lang": N_("the language"), "type": N_("the message's type"),
    "v": N_("the protocol's version"), "deal": N_("the deal"), "playouts": N_("the number of playouts"),
}
#: The JSON kinds a message's check names, in words.
KIND_WORDS = {
    "str": N_("text"), "int": N_("a whole number"), "float": N_("a number"), "bool": N_("true or false"),
    "array": N_("a list"), "object": N_("an object"), "null": N_("nothing"),
}
_AT = re.compile(r"^(?P<what>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.S)
_LENGTH = re.compile(r"^Expected `(?P<kind>\w+)` of length (?P<op>>=|<=) (?P<n>\d+)$")
_BOUND = re.compile(r"^Expected `(?P<kind>\w+)` (?P<op>>=|<=|>|<) (?P<n>-?[\d.e+]+)$")
_TYPE = re.compile(r"^Expected `(?P<want>[^`]+)`, got `(?P<got>[^`]+)`$")
_FIELD = re.compile(r"^Object (?P<how>missing required|contains unknown) field `(?P<field>[^`]{1,40})`$")
_VALUE = re.compile(r"^Invalid (?:enum )?value (?P<value>.{1,40})$")


def _field_words(path: str, kind: str) -> Msg:
    """A field of a message (``.seats[0].kind``) in words: the last name in its path."""
    names = re.findall(r"\.(\w+)", path)
    name = names[-1] if names else ""
    words = FIELD_WORDS.get(f"{kind}.{name}") or FIELD_WORDS.get(name)
    if words:
        return Msg(words)
    return Msg("the field {field}", field=path.lstrip(".")[:40]) if name else Msg("the message")


def _kinds(text: str) -> Msg | str:
    """``int | null`` in words: a whole number or nothing."""
    parts = [Msg(KIND_WORDS[k]) if k in KIND_WORDS else k for k in (p.strip() for p in text.split("|"))]
    out: Msg | str = parts[0]
    for part in parts[1:]:
        out = Msg("{first} or {second}", first=out, second=part)
    return out


def invalid(detail: str, kind: str = "") -> Msg:
    """What is wrong in a message of type ``kind`` (a check's English detail, as msgspec writes
    it: ``Expected `str` of length >= 1 - at `$.name```), as a sentence a person reads in his language.

    ```pycon
    >>> from conquian.i18n import translator
    >>> m = invalid("Expected `str` of length >= 1 - at `$.name`", "Sit")
    >>> m.render(), m.render(translator("es"))
    ('write your name first (1 to 40 characters)', 'primero escribe tu nombre (de 1 a 40 caracteres)')
    >>> invalid("Expected `int | null`, got `str` - at `$.turn_timer`").render()
    'the turn timer should be a whole number or nothing, not text'
    >>> invalid("Object missing required field `seat`").render()
    'the seat is missing'

    ```
    """
    m = _AT.match(detail.strip())
    what, path = (m["what"], m["path"] or "") if m else (detail, "")
    if what == "Expected `str` of length >= 1" and (kind, path) in (("Sit", ".name"), ("CreateTable", ".host_name")):
        return Msg("write your name first (1 to {n} characters)", n=40)
    name = _field_words(path, kind)
    if found := _LENGTH.match(what):
        n = int(found["n"])
        if found["kind"] == "str":
            return (NMsg("{field} needs at least {n} character", "{field} needs at least {n} characters", n,
                         field=name) if found["op"] == ">=" else
                    NMsg("{field} holds at most {n} character", "{field} holds at most {n} characters", n,
                         field=name))
        return (NMsg("{field} needs at least {n} item", "{field} needs at least {n} items", n, field=name)
                if found["op"] == ">=" else
                NMsg("{field} holds at most {n} item", "{field} holds at most {n} items", n, field=name))
    if found := _BOUND.match(what):
        bound = found["n"][:-2] if found["n"].endswith(".0") else found["n"]
        return {">=": Msg("{field} is at least {n}", field=name, n=bound),
                "<=": Msg("{field} is at most {n}", field=name, n=bound),
                ">": Msg("{field} is more than {n}", field=name, n=bound),
                "<": Msg("{field} is less than {n}", field=name, n=bound)}[found["op"]]
    if found := _TYPE.match(what):
        return Msg("{field} should be {expected}, not {got}", field=name, expected=_kinds(found["want"]),
                   got=_kinds(found["got"]))
    if found := _FIELD.match(what):
        named = _field_words(f"{path}.{found['field']}", kind)
        return (Msg("{field} is missing", field=named) if found["how"].startswith("missing") else
                Msg("{field} is not part of this message", field=named))
    if found := _VALUE.match(what):
        return Msg("{field} cannot be {value}", field=name, value=found["value"])
    return Msg("the message is not valid ({detail})", detail=detail[:200])


# ---------------------------------------------------------------------------- checking a message
class MessageError(TableError):
    """A message that is not valid protocol (``bad_message``), in the same words whichever
    transport brought it."""

    def __init__(self, detail: str) -> None:
        super().__init__("bad_message", invalid(detail))


def _json_kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    return {str: "str", int: "int", float: "float", list: "array", dict: "object"}.get(type(value), "object")


def _text(value: object, at: str, least: int, most: int) -> str:
    if not isinstance(value, str):
        raise MessageError(f"Expected `str`, got `{_json_kind(value)}` - at `$.{at}`")
    if len(value) < least or len(value) > most:
        op, n = (">=", least) if len(value) < least else ("<=", most)
        raise MessageError(f"Expected `str` of length {op} {n} - at `$.{at}`")
    return value


def _state(value: object) -> int:
    if type(value) is not int:
        raise MessageError(f"Expected `int`, got `{_json_kind(value)}` - at `$.state`")
    if not 0 <= value <= MAX_STATE:
        raise MessageError(f"Expected `int` {'>= 0' if value < 0 else f'<= {MAX_STATE}'} - at `$.state`")
    return value


def _cards(value: object) -> list[str]:
    if not isinstance(value, list):
        raise MessageError(f"Expected `array`, got `{_json_kind(value)}` - at `$.cards`")
    if len(value) > MAX_CARDS:
        raise MessageError(f"Expected `array` of length <= {MAX_CARDS} - at `$.cards`")
    return [_text(c, f"cards[{i}]", 1, 4) for i, c in enumerate(value)]


def _seconds(value: object) -> float:
    if type(value) not in (int, float):
        raise MessageError(f"Expected `float`, got `{_json_kind(value)}` - at `$.seconds`")
    seconds = float(value)  # type: ignore[arg-type]
    if not 0 <= seconds <= MAX_PACE:
        raise MessageError(f"Expected `float` {'>= 0.0' if seconds < 0 else f'<= {MAX_PACE}'} - at `$.seconds`")
    return seconds


def _optional(check: Callable[[object], object]) -> Callable[[object], object]:
    return lambda v: None if v is None else check(v)


def _version(value: object) -> int:
    if type(value) is not int:
        raise MessageError(f"Expected `int`, got `{_json_kind(value)}` - at `$.v`")
    if value != VERSION:
        raise MessageError(f"Invalid enum value {value} - at `$.v`")
    return value


#: The table's messages and their fields: each field's check, and whether it must be there.
SCHEMAS: dict[str, dict[str, tuple[Callable[[object], object], bool]]] = {
    "hello": {"v": (_version, False), "token": (_optional(lambda v: _text(v, "token", 1, 100)), False),
              "host": (_optional(lambda v: _text(v, "host", 1, 100)), False),
              "lang": (_optional(lambda v: _text(v, "lang", 1, 35)), False)},
    "act": {"state": (_state, True), "action": (lambda v: _text(v, "action", 1, MAX_ACTION_CHARS), True)},
    "options": {"cards": (_cards, True)},
    "next": {"state": (_state, True)},
    "pace": {"seconds": (_seconds, True)},
    "rematch": {}, "ping": {}, "hint": {}, "hurry": {},
}


def check(msg: object, schemas: dict[str, dict[str, tuple[Callable[[object], object], bool]]] = SCHEMAS
          ) -> dict[str, Any]:
    """A table's message (decoded JSON), checked field by field against the same limits and in
    the same words as the server's decoder (:func:`conquian.web.protocol.decode_client`); its
    checked fields with its ``type``, or :class:`MessageError`."""
    if not isinstance(msg, dict):
        raise MessageError(f"Expected `object`, got `{_json_kind(msg)}`")
    if "type" not in msg:
        raise MessageError("Object missing required field `type`")
    kind = msg["type"]
    if not isinstance(kind, str):
        raise MessageError("Expected `str` - at `$.type`")
    if kind not in schemas:
        raise MessageError(f"Invalid value {kind[:30]!r} - at `$.type`")
    fields = schemas[kind]
    out: dict[str, Any] = {"type": kind}
    for name, value in msg.items():
        if name == "type":
            continue
        if name not in fields:
            raise MessageError(f"Object contains unknown field `{str(name)[:40]}`")
        out[name] = fields[name][0](value)
    for name, (_, required) in fields.items():
        if required and name not in out:
            raise MessageError(f"Object missing required field `{name}`")
    return out


# ---------------------------------------------------------------------------- a message's answer
@dataclass(frozen=True)
class Reader:
    """Who sent a message: the seat his token holds (None: a spectator), whether he is the host,
    and his language."""

    seat: int | None = None
    host: bool = False
    tr: Translator = ENGLISH


@dataclass
class Answer:
    """What a message did: ``replies`` to its sender only, ``changed`` what of the table changed
    (``moves``: the adapter stores it and tells every reader; ``settings``: the table's settings),
    ``hurry`` (the bots play their next move now), ``rematch`` (the adapter makes the rematch
    with :func:`rematch_table`, which needs its storage)."""

    replies: list[dict[str, Any]] = field(default_factory=list)
    changed: str | None = None
    hurry: bool = False
    rematch: bool = False


def handle(table: Table, reader: Reader, msg: object) -> Answer:
    """The answer to one table message (decoded JSON, checked by :func:`check`); a refusal is an
    ``error`` reply, the table unchanged.  ``hello`` is the transport's own (who is who)."""
    try:
        m = check(msg)
        kind = m["type"]
        if kind == "act":
            return act(table, reader, m["action"], m["state"])
        if kind == "next":
            return next_deal(table, reader, m["state"])
        if kind == "options":
            return options(table, reader, m["cards"])
        if kind == "pace":
            return pace(table, reader, m["seconds"])
        if kind == "hurry":
            return hurry(reader)
        if kind == "rematch":
            return rematch(table, reader)
        if kind == "ping":
            return Answer([{"type": "pong"}])
        raise TableError("bad_message", Msg("the message's type cannot be {kind}", kind=repr(kind[:20])))
    except ConquianError as e:
        return Answer([error_message(e, table, reader.tr)])


def _seated(reader: Reader) -> int:
    if reader.seat is None:
        raise TableError("not_your_seat", Msg("spectators watch; take a seat to play"))
    return reader.seat


def act(table: Table, reader: Reader, action: str, state: int) -> Answer:
    """The reader's move, chosen on ``state``."""
    table.act(_seated(reader), action, state)
    return Answer(changed="moves")


def next_deal(table: Table, reader: Reader, state: int) -> Answer:
    """The next deal, the current one being over."""
    _seated(reader)
    table.next_deal(state)
    return Answer(changed="moves")


def options(table: Table, reader: Reader, cards: list[str]) -> Answer:
    """The moves the selected cards make (:func:`~conquian.web.snapshot.options_message`)."""
    return Answer([options_message(table, reader.seat, cards[:MAX_CARDS], reader.tr) | {"cards": cards}])


def pace(table: Table, reader: Reader, seconds: float) -> Answer:
    """The bots' pace: set by the host, or by the one person at a table of bots (every other seat
    a bot's; not open: a waiting table's lone player is not its host)."""
    alone = reader.seat is not None and all(s.kind not in (HUMAN, OPEN) for s in table.seats
                                            if s.number != reader.seat)
    if not (reader.host or alone):
        raise TableError("not_host", Msg("only the host, or the one person at a table of bots, sets the bots' pace"))
    table.pace = float(seconds)
    return Answer(changed="settings", hurry=True)  # a shorter pace takes effect now


def hurry(reader: Reader) -> Answer:
    """The bots play their next move now."""
    if reader.seat is None and not reader.host:
        raise TableError("not_your_seat", Msg("only a player or the host may hurry the bots"))
    return Answer(hurry=True)


def rematch(table: Table, reader: Reader) -> Answer:
    """A rematch asked for: checked here, made by the adapter (:func:`rematch_table`)."""
    if reader.seat is None and not reader.host:
        raise TableError("not_your_seat", Msg("only a player or the host may ask for a rematch"))
    if table.status != OVER:
        raise TableError("not_over", Msg("a rematch starts once the match is over"))
    return Answer(rematch=True)


def rematch_table(old: Table, table_id: str, public: bool = False) -> Table:
    """The rematch of ``old``, a finished match: a new table ``table_id`` with the same seats and
    settings, dealt from fresh randomness (a set deal's too: its decks are known to whoever read
    the first match's record), the first deal passed to the left, the standings carried."""
    if old.status != OVER:
        raise TableError("not_over", Msg("a rematch starts once the match is over"))
    table = Table(id=table_id, name=old.name, rules=old.rules, seed=None, deck=None, host_hash=old.host_hash,
                  show_buried=old.show_buried, away_after=old.away_after, deals_in_match=old.deals_in_match,
                  pace=old.pace, turn_timer=old.turn_timer, public=public,
                  first_dealer=old.dealer_of_first_deal % len(old.seats) + 1,
                  carried=[int(str(r["total"])) for r in old.standings()])
    for s, o in zip(table.seats, old.seats, strict=True):
        s.kind, s.name, s.token_hash = o.kind, o.name, o.token_hash
    table.start_if_full()
    return table


# ---------------------------------------------------------------------------- the bots
@dataclass(frozen=True)
class BotTurn:
    """The bots' next work at a table, an effect for the adapter to schedule: ``move`` (``bot``
    plays ``seat`` after ``delay`` seconds), ``next`` (a table of bots deals its next hand), or
    ``wait`` (a person to act whose clock or absence may hand his move to the expert)."""

    work: str
    seat: int | None = None
    bot: str | None = None
    delay: float = 0.0


def bot_turn(table: Table, default_pace: float, now: float | None = None) -> BotTurn | None:
    """The bots' next work at ``table`` (None: none), a bot's move ``delay`` seconds away: the
    table's pace, else ``default_pace``."""
    if table.status != PLAYING or table.session is None:
        return None
    delay = default_pace if table.pace is None else table.pace
    if table.session.deal.over:
        return BotTurn("next", delay=delay) if table.all_bots else None
    who = table.bot_to_act(now)
    if who is not None:
        return BotTurn("move", who[0], who[1], delay)
    seat_no = table.session.deal.to_act
    if table.turn_ends() is not None:
        return BotTurn("wait", seat_no)  # a person to act with a turn timer: the expert plays once it runs out
    if seat_no is not None and table.away_after is not None and table.away_from(seat_no) is not None:
        return BotTurn("wait", seat_no)  # a person away: the expert plays for him once ``away_after`` has passed
    return None


def bot_choice(deal: Any, seat: int, bot: str, seed: int, *, ms: float | None = None,
               iterations: int | None = None, stop: Callable[[], bool] | None = None) -> tuple[str, Any]:
    """``bot`` (seeded with ``seed``) chooses ``seat``'s move from its view of ``deal``: the move
    as text, and the bot (its last search's playouts).  ``ms`` caps the expert's time a move,
    ``iterations`` its search; ``stop`` ends its search early."""
    params: dict[str, Any] = {}
    if ms is not None and bot == "expert":
        params["ms"] = ms
    if iterations is not None:
        params["iterations"] = iterations
    player = make_bot(bot, seed=seed, **params)
    if stop is not None and isinstance(player, ExpertBot):
        player.stop = stop
    return str(player.choose(deal.view(seat))), player
