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

import unicodedata
from typing import Annotated, Any, Literal

import msgspec

from conquian.engine.errors import ConquianError
from conquian.engine.match import _BAD_NAME_CATEGORIES  # the characters a player's name may not hold
from conquian.i18n import Msg

# the limits, the protocol's version and a check's words are the table's master's (one set, for both transports)
from conquian.web.master import MAX_ACTION_CHARS, MAX_CARDS, MAX_PACE, MAX_STATE
from conquian.web.master import VERSION as VERSION
from conquian.web.master import invalid as invalid

#: The largest message a client may send (bytes); a larger one is refused unread.
MAX_MESSAGE_BYTES = 4096
#: Messages a connection may send per second on average, and in a burst.
RATE_PER_SECOND = 10.0
RATE_BURST = 30

Token = Annotated[str, msgspec.Meta(min_length=1, max_length=100)]
ActionText = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_ACTION_CHARS)]
CardText = Annotated[str, msgspec.Meta(min_length=1, max_length=4)]
StateNumber = Annotated[int, msgspec.Meta(ge=0, le=MAX_STATE)]
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

    cards: Annotated[list[CardText], msgspec.Meta(max_length=MAX_CARDS)]


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

    seconds: Annotated[float, msgspec.Meta(ge=0, le=MAX_PACE)]


class Hurry(msgspec.Struct, tag="hurry", forbid_unknown_fields=True):
    """The bots play their next move now."""


class Mute(msgspec.Struct, tag="mute", forbid_unknown_fields=True):
    """The host mutes a spectator (by the connection id his chat lines carry)."""

    spectator: Annotated[str, msgspec.Meta(min_length=1, max_length=40)]


class Report(msgspec.Struct, tag="report", forbid_unknown_fields=True):
    """Report a chat line (its ``line`` id) to the server's owner (:mod:`conquian.web.platform.friends`)."""

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
