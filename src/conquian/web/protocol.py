"""The web table's message protocol, version 1 (``docs/protocol.md``): every incoming message is
decoded against these schemas (msgspec), after a size check; anything else is refused with one
clear error to the sender.

```pycon
>>> decode_client(b'{"type": "act", "state": 3, "action": "pass"}')
Act(state=3, action='pass')
>>> decode_client(b'{"type": "act", "state": "3", "action": "pass"}')
Traceback (most recent call last):
...
conquian.web.protocol.ProtocolError: bad_message: the state number should be a whole number, not text
>>> decode_client(b'{"type": "shuffle"}').__class__.__name__
Traceback (most recent call last):
...
conquian.web.protocol.ProtocolError: bad_message: the message's type cannot be 'shuffle'

```
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Any, Literal

import msgspec

from conquian.engine.errors import ConquianError
from conquian.engine.match import _BAD_NAME_CATEGORIES  # the characters a player's name may not hold
from conquian.i18n import N_, Msg, NMsg

#: The protocol's version: sent in ``welcome`` and accepted in ``hello``.
VERSION = 1
#: The largest message a client may send (bytes); a larger one is refused unread.
MAX_MESSAGE_BYTES = 4096
#: Messages a connection may send per second on average, and in a burst.
RATE_PER_SECOND = 10.0
RATE_BURST = 30

Token = Annotated[str, msgspec.Meta(min_length=1, max_length=100)]
ActionText = Annotated[str, msgspec.Meta(min_length=1, max_length=400)]
CardText = Annotated[str, msgspec.Meta(min_length=1, max_length=4)]
StateNumber = Annotated[int, msgspec.Meta(ge=0, le=10**9)]
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=40)]
SeatNumber = Annotated[int, msgspec.Meta(ge=1, le=7)]
#: A language tag (``es``, ``es-MX``); one the server does not speak is read as English.
LanguageTag = Annotated[str, msgspec.Meta(min_length=1, max_length=35)]


class ProtocolError(ConquianError):
    """A message that is not valid protocol: ``code`` ``bad_message``, ``too_large``, ``too_fast``."""

    def __init__(self, code: str, message: str | Msg) -> None:
        self.code = code
        self.rule: str | None = None
        super().__init__(Msg("{code}: {message}", code=code, message=message))


# ---------------------------------------------------------------------------- client to server
class Hello(msgspec.Struct, tag="hello", forbid_unknown_fields=True):
    """The first message: who is connecting (a seat's token, the host's token, or neither: a
    spectator), and in which language the server writes to him (``lang``; English if left out or
    not one the server speaks)."""

    v: Literal[1] = 1
    token: Token | None = None
    host: Token | None = None
    lang: LanguageTag | None = None


class Act(msgspec.Struct, tag="act", forbid_unknown_fields=True):
    """A move in the notation (the seat may be left out), chosen on state ``state``."""

    state: StateNumber
    action: ActionText


class Options(msgspec.Struct, tag="options", forbid_unknown_fields=True):
    """Which moves the selected cards make (the listed ones with them, and forms built from them)."""

    cards: Annotated[list[CardText], msgspec.Meta(max_length=30)]


class Next(msgspec.Struct, tag="next", forbid_unknown_fields=True):
    """Deal the next hand (the current one is over)."""

    state: StateNumber


class Away(msgspec.Struct, tag="away", forbid_unknown_fields=True):
    """The host: a bot plays for a person away longer than ``seconds`` (None: never)."""

    seconds: Annotated[int, msgspec.Meta(ge=5, le=86400)] | None


class TurnTimer(msgspec.Struct, tag="turn_timer", forbid_unknown_fields=True):
    """The host: the seconds a person has to move before the expert plays that move for him (one of
    the server's turn timers; None: no timer)."""

    seconds: int | None


class Rematch(msgspec.Struct, tag="rematch", forbid_unknown_fields=True):
    """A new match at a new table with the same seats (the match must be over)."""


class Ping(msgspec.Struct, tag="ping", forbid_unknown_fields=True):
    """Keep-alive; answered with ``pong``."""


class Chat(msgspec.Struct, tag="chat", forbid_unknown_fields=True):
    """A line of chat: text only (the server checks its length and characters: :func:`check_chat`)."""

    text: Annotated[str, msgspec.Meta(max_length=1000)]


#: The quick reactions a seat or a spectator may send.
REACTIONS = ("👍", "👏", "😮", "😂", "🙏", "🔥")


class React(msgspec.Struct, tag="react", forbid_unknown_fields=True):
    """A quick reaction, one of :data:`REACTIONS`."""

    reaction: Literal["👍", "👏", "😮", "😂", "🙏", "🔥"]


class Hint(msgspec.Struct, tag="hint", forbid_unknown_fields=True):
    """The seat to act asks for the terminal game's hint (answered to it only)."""


class Pace(msgspec.Struct, tag="pace", forbid_unknown_fields=True):
    """Seconds between the bots' moves at this table."""

    seconds: Annotated[float, msgspec.Meta(ge=0, le=5)]


class Hurry(msgspec.Struct, tag="hurry", forbid_unknown_fields=True):
    """The bots play their next move now."""


class Mute(msgspec.Struct, tag="mute", forbid_unknown_fields=True):
    """The host mutes a spectator (by the connection id his chat lines carry)."""

    spectator: Annotated[str, msgspec.Meta(min_length=1, max_length=40)]


class Report(msgspec.Struct, tag="report", forbid_unknown_fields=True):
    """Report a chat line (its ``line`` id) to the server's owner (:mod:`conquian.web.friends`)."""

    line: Annotated[str, msgspec.Meta(min_length=1, max_length=40)]


class Block(msgspec.Struct, tag="block", forbid_unknown_fields=True):
    """Block the account that said a chat line (its ``line`` id): no chat either way, no pairing."""

    line: Annotated[str, msgspec.Meta(min_length=1, max_length=40)]


ClientMessage = (Hello | Act | Options | Next | Away | TurnTimer | Rematch | Ping | Chat | React | Hint | Pace | Hurry
                 | Mute | Report | Block)
_client = msgspec.json.Decoder(ClientMessage)


def decode_client(data: bytes | str) -> ClientMessage:
    """One client message, validated, or :class:`ProtocolError`."""
    raw = data.encode("utf-8", "replace") if isinstance(data, str) else data
    if len(raw) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", Msg("a message is at most {limit} bytes, not {size}",
                                              limit=MAX_MESSAGE_BYTES, size=len(raw)))
    try:
        # typed by msgspec 0.23, Any before it: the annotation holds for both
        message: ClientMessage = _client.decode(raw)
        return message
    except msgspec.ValidationError as e:
        raise ProtocolError("bad_message", invalid(str(e))) from None
    except msgspec.DecodeError as e:
        raise ProtocolError("bad_message", Msg("not JSON: {detail}", detail=str(e)[:120])) from None
    except UnicodeDecodeError as e:
        raise _not_utf8(e) from None


# ---------------------------------------------------------------------------- HTTP bodies
class SeatSpec(msgspec.Struct, forbid_unknown_fields=True):
    """A seat at a new table: ``open`` (a person will take it) or a bot's name."""

    kind: Annotated[str, msgspec.Meta(max_length=20)] = "open"


class CreateTable(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/tables``: a new table.  ``host_name`` seats the host at seat 1."""

    variant: Annotated[str, msgspec.Meta(max_length=30)] = "conquian"
    name: Annotated[str, msgspec.Meta(max_length=60)] = ""
    players: Annotated[int, msgspec.Meta(ge=2, le=7)] | None = None
    options: Annotated[dict[str, int | str | bool], msgspec.Meta(max_length=10)] = msgspec.field(
        default_factory=dict)
    seats: Annotated[list[SeatSpec], msgspec.Meta(max_length=7)] = msgspec.field(default_factory=list)
    host_name: Name | None = None
    show_buried: bool = False
    away_after: Annotated[int, msgspec.Meta(ge=5, le=86400)] | None = None
    deals: Annotated[int, msgspec.Meta(ge=1, le=50)] | None = None
    turn_timer: int | None = None
    """Seconds a person has to move (one of the server's turn timers; None: no timer)."""
    set_deal: bool = False
    """The host chooses the cards (``seed`` and/or ``deck``): every seat is shown it."""
    seed: Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)] | None = None
    deck: Annotated[str, msgspec.Meta(max_length=1000)] | None = None
    public: bool = False
    """The finished match is listed in the lobby and anyone may replay it (else: its players only)."""
    rated: bool = False
    """The match is rated (only signed-in players with a name sit there); a rated match is listed
    in the lobby when it is over, and anyone may replay it."""


class Sit(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/tables/{id}/sit``: take an open seat."""

    seat: SeatNumber
    name: Name


class SeatBot(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/tables/{id}/bot``: the host gives an open seat to a bot."""

    seat: SeatNumber
    bot: Annotated[str, msgspec.Meta(max_length=20)]
    host: Token


def decode_body(data: bytes, kind: type[Any]) -> Any:
    """An HTTP JSON body of type ``kind``, or :class:`ProtocolError`."""
    if len(data) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", Msg("a request body is at most {limit} bytes", limit=MAX_MESSAGE_BYTES))
    try:
        return msgspec.json.decode(data, type=kind)
    except msgspec.ValidationError as e:
        raise ProtocolError("bad_message", invalid(str(e), kind.__name__)) from None
    except msgspec.DecodeError as e:
        raise ProtocolError("bad_message", Msg("not JSON: {detail}", detail=str(e)[:120])) from None
    except UnicodeDecodeError as e:
        raise _not_utf8(e) from None


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
#: The JSON kinds msgspec names, in words.
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
    field = names[-1] if names else ""
    words = FIELD_WORDS.get(f"{kind}.{field}") or FIELD_WORDS.get(field)
    if words:
        return Msg(words)
    return Msg("the field {field}", field=path.lstrip(".")[:40]) if field else Msg("the message")


def _kinds(text: str) -> Msg | str:
    """``int | null`` in words: a whole number or nothing."""
    parts = [Msg(KIND_WORDS[k]) if k in KIND_WORDS else k for k in (p.strip() for p in text.split("|"))]
    out: Msg | str = parts[0]
    for part in parts[1:]:
        out = Msg("{first} or {second}", first=out, second=part)
    return out


def invalid(detail: str, kind: str = "") -> Msg:
    """What msgspec found wrong in a message of type ``kind`` (its English detail: ``Expected `str`
    of length >= 1 - at `$.name```), as a sentence a person reads in his language.

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
    field = _field_words(path, kind)
    if found := _LENGTH.match(what):
        n = int(found["n"])
        if found["kind"] == "str":
            return (NMsg("{field} needs at least {n} character", "{field} needs at least {n} characters", n,
                         field=field) if found["op"] == ">=" else
                    NMsg("{field} holds at most {n} character", "{field} holds at most {n} characters", n,
                         field=field))
        return (NMsg("{field} needs at least {n} item", "{field} needs at least {n} items", n, field=field)
                if found["op"] == ">=" else
                NMsg("{field} holds at most {n} item", "{field} holds at most {n} items", n, field=field))
    if found := _BOUND.match(what):
        bound = found["n"][:-2] if found["n"].endswith(".0") else found["n"]
        return {">=": Msg("{field} is at least {n}", field=field, n=bound),
                "<=": Msg("{field} is at most {n}", field=field, n=bound),
                ">": Msg("{field} is more than {n}", field=field, n=bound),
                "<": Msg("{field} is less than {n}", field=field, n=bound)}[found["op"]]
    if found := _TYPE.match(what):
        return Msg("{field} should be {expected}, not {got}", field=field, expected=_kinds(found["want"]),
                   got=_kinds(found["got"]))
    if found := _FIELD.match(what):
        named = _field_words(f"{path}.{found['field']}", kind)
        return (Msg("{field} is missing", field=named) if found["how"].startswith("missing") else
                Msg("{field} is not part of this message", field=named))
    if found := _VALUE.match(what):
        return Msg("{field} cannot be {value}", field=field, value=found["value"])
    return Msg("the message is not valid ({detail})", detail=detail[:200])


def _not_utf8(e: UnicodeDecodeError) -> ProtocolError:
    # msgspec checks UTF-8 only inside strings, and tells it with Python's own exception
    return ProtocolError("bad_message", Msg("not JSON: a string is not valid UTF-8 (byte {byte})", byte=e.start))


def check_table_name(name: str) -> str:
    """A new table's name, stripped (empty: the server names it), or :class:`ProtocolError`
    ``bad_name`` if it holds a character a player's name may not hold (a control or format
    character: NUL, an escape, a bidi override; :func:`conquian.engine.match.check_name`)."""
    for ch in name:
        if unicodedata.category(ch) in _BAD_NAME_CATEGORIES:
            raise ProtocolError("bad_name", Msg("the table's name holds a control character ({char})",
                                                  char=f"U+{ord(ch):04X}"))
    return name.strip()


def check_chat(text: str, limit: int = 200) -> str:
    """A chat line, trimmed, or :class:`ProtocolError`: ``too_long`` past ``limit`` characters,
    ``bad_message`` if empty or holding a control or format character.  It stays text: clients
    show it as text, never as markup.

    ```pycon
    >>> check_chat("  hola  ")
    'hola'
    >>> check_chat("x" * 201)
    Traceback (most recent call last):
    ...
    conquian.web.protocol.ProtocolError: too_long: a chat line is at most 200 characters, not 201

    ```
    """
    text = text.strip()
    if not text:
        raise ProtocolError("bad_message", Msg("a chat line holds at least one character"))
    if len(text) > limit:
        raise ProtocolError("too_long", Msg("a chat line is at most {limit} characters, not {size}",
                                            limit=limit, size=len(text)))
    for ch in text:
        if unicodedata.category(ch) in _BAD_NAME_CATEGORIES and ch != "\u200d":  # an emoji's joiner may stay
            raise ProtocolError("bad_message", Msg("a chat line may not hold a control character ({char})",
                                                   char=f"U+{ord(ch):04X}"))
    return text


def encode(message: dict[str, Any]) -> str:
    """A server message as JSON text."""
    return msgspec.json.encode(message).decode()


class RateLimit:
    """A token bucket: :data:`RATE_PER_SECOND` messages a second on average, bursts of
    :data:`RATE_BURST`.  ``allow(now)`` says whether one more message may pass."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: int = RATE_BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.last: float | None = None

    def allow(self, now: float) -> bool:
        """Take one token if there is one."""
        if self.last is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
