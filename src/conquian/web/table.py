"""A table's game session: seats, tokens, the state number and the moves (no transport, no storage).

A :class:`Table` is what the web server keeps for each table, and nothing of how messages
travel or where they are stored: the server (:mod:`conquian.web.server`) feeds it commands
and stores the ones it accepts, the storage (:mod:`conquian.web.store`) rebuilds it by feeding
the same commands again.  Every command that changes the game has a number, the *state
number*: an action carries the number of the state it was chosen on, and an action chosen on
another state is refused, so the same move sent twice (two tabs, a retry) applies once.

**Clocks and fair play** (docs/play.md, "Fair play").  A rated or quick-match table always has
a turn timer, its *move clock*: a clock per move, not a bank for the match (the server's
``rated_clock``; a rated table's host may shorten it, never lengthen it nor switch it off:
:func:`rated_clock`).  When it runs out the expert makes that move (``timed act``), and the seat
counts as away from that moment (:attr:`Seat.idle_since`, :meth:`Table.away_from`) until its
person moves himself or opens the table again: past the away rule the expert plays for it at
once, and the ratings rank it as one who left.  A seat's first move has the same clock, its
*first-move deadline*: a player who never opens the table has his first move made by the
expert, and the match moves on.  The *abort window*: at a rated table, when the expert makes a
person's first move of the match in its first deal (``timed`` or ``away act``), the match is
aborted (:attr:`Table.aborted`): worked out from the stored commands alike in every process,
told in the log, and never rated.

```pycon
>>> from conquian import get_rules
>>> t = Table("t1", "Friday", get_rules("conquian"), seed=5)
>>> ann = t.sit(1, "Ann")
>>> t.set_bot(2, "foster", host=True)
>>> t.status, t.state
('playing', 1)
>>> t.seat_of(ann), t.seat_of("no such token")
(1, None)
>>> command = t.act(1, t.session.legal()[0], state=1)
>>> command.startswith("act p1 "), t.state
(True, 2)
>>> t.act(1, "pass", state=1)
Traceback (most recent call last):
...
conquian.web.table.TableError: stale: this move was chosen on state 1; the table is at state 2

```
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

from conquian.bots import bot_names
from conquian.engine.actions import Action, parse_action
from conquian.engine.cards import card_str, parse_cards
from conquian.engine.deck import pack_order
from conquian.engine.errors import ConquianError, IllegalActionError
from conquian.engine.match import check_name
from conquian.engine.rules import CONQUIAN, Rules
from conquian.i18n import Msg
from conquian.session import HUMAN, GameSession

#: Bytes of randomness in a seat token (192 bits; the issue asks for at least 128).
TOKEN_BYTES = 24
OPEN = "open"
"""A seat nobody has taken yet."""
WAITING, PLAYING, OVER = "waiting", "playing", "over"

#: Letters of other scripts that look like Latin letters (and digits like letters), for
#: :func:`name_skeleton` (after NFKC and case folding).
_LOOK_ALIKES = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w",
    "ɡ": "g", "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
    "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ϲ": "c", "ı": "i", "ℓ": "l", "0": "o", "1": "l", "|": "l",
})
#: Characters that show as nothing, or as a blank (fillers of the Hangul script, the Braille blank...).
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5")
#: Letter pairs that look like one letter in most fonts ("Sarn" and "Sam", "VVill" and "Will",
#: "Clan" and "Dan"), folded after the single look-alikes (so "c1" is "cl" first).
_PAIRS = (("rn", "m"), ("vv", "w"), ("cl", "d"))


def name_skeleton(name: str) -> str:
    """What a name looks like on screen, for telling names apart at a table: two names with the
    same skeleton ("Ann", "Аnn" with a Cyrillic A, "Ann" and a Hangul filler, "ANN ") are
    confusable.

    >>> name_skeleton("Ann") == name_skeleton("\u0410nn") == name_skeleton("Ann\u3164") == name_skeleton(" ANN")
    True
    >>> name_skeleton("Ann") == name_skeleton("Anne")
    False

    Letter pairs that read as one letter, and punctuation before or after the name, count for
    nothing:

    >>> all(name_skeleton(a) == name_skeleton(b) for a, b in (("Sarn", "Sam"), ("VVill", "Will"),
    ...                                                         ("Clan", "Dan"), ("Ann_", "Ann"), ("-Bo.", "bo")))
    True
    """
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    kept = "".join(ch for ch in folded if ch not in _BLANKS and not ch.isspace()
                   and unicodedata.category(ch) not in ("Mn", "Me", "Cf", "Cc")).translate(_LOOK_ALIKES)
    start, end = 0, len(kept)
    while start < end and unicodedata.category(kept[start])[0] in "PS":
        start += 1
    while end > start and unicodedata.category(kept[end - 1])[0] in "PS":
        end -= 1
    kept = kept[start:end]
    for pair, letter in _PAIRS:
        kept = kept.replace(pair, letter)
    return kept.replace("l", "i")
#: What every seat is shown of a set-deal table (one whose cards the host chose).
SET_DEAL_TEXT = "set deal: the host knows every card"
#: The turn timers a table may have (seconds a person has to move before the expert moves for him).
TURN_TIMERS = (30, 60, 120, 300)
#: The word before a stored ``act`` command the expert played for a person whose time ran out.
TIMED = "timed "
#: The word before a stored ``act`` command the expert played for a person away past the away rule.
AWAY = "away "

_system_random = secrets.SystemRandom()


def fresh_deck(rules: Rules) -> list[int]:
    """A deck shuffled from the operating system's randomness (:class:`secrets.SystemRandom`):
    how every deal of an ordinary table is dealt, so that no number anyone has seen, and no
    earlier deck, tells anything of it."""
    cards = pack_order(rules)
    _system_random.shuffle(cards)
    return cards


def deck_text(deck: Sequence[int]) -> str:
    """A deck as stored in a ``start`` or ``next`` command: its cards in the notation."""
    return " ".join(card_str(c) for c in deck)


class TableError(ConquianError):
    """A command the table refuses for a reason other than the rules: ``code`` says which
    (``stale``, ``not_your_turn``, ``not_your_seat``, ``seat_taken``, ``no_seat``, ``not_host``,
    ``not_playing``, ``deal_in_progress``, ``bad_name``, ``bad_bot``)."""

    def __init__(self, code: str, message: str | Msg) -> None:
        self.code = code
        self.rule: str | None = None
        super().__init__(Msg("{code}: {message}", code=code, message=message))


def check_turn_timer(seconds: object, allowed: Sequence[int] = TURN_TIMERS) -> int | None:
    """``seconds`` if it is one of the ``allowed`` turn timers (None: no timer), else
    :class:`TableError` ``bad_turn_timer`` in words."""
    if seconds is None or (type(seconds) is int and seconds in allowed):
        return seconds
    raise TableError("bad_turn_timer", Msg("a turn timer is one of {choices} seconds, or none, not {seconds}",
                                           choices=", ".join(str(a) for a in allowed), seconds=str(seconds)[:20]))


#: The refusal of a hint at a rated table (the fair-play rules, docs/play.md).
NO_HINT = Msg("no hints at a rated table: the fair-play rules")


def rated_clock(seconds: int | None, most: int) -> int:
    """The move clock a rated table's host asks for (``seconds``, an allowed turn timer), or
    :class:`TableError` ``bad_turn_timer``: a rated table keeps its clock (never none), at most
    ``most`` seconds a move."""
    if seconds is None or seconds > most:
        raise TableError("bad_turn_timer", Msg("a rated table keeps its move clock: at most {seconds} seconds a move",
                                               seconds=most))
    return seconds


def new_token() -> str:
    """A fresh secret token (URL-safe, :data:`TOKEN_BYTES` random bytes)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """What the server keeps of a token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass
class Seat:
    """One seat: who sits there (``kind`` is ``human``, a bot's name, or ``open``)."""

    number: int
    kind: str = OPEN
    name: str = ""
    token_hash: str = ""
    connected: int = 0
    """Open connections holding this seat's token in this process (not stored: a restart starts at
    zero)."""
    elsewhere: int = 0
    """Open connections holding it in the other server processes (as they last told)."""
    away_since: float | None = None
    """When the seat's last connection closed (a person who has not come back)."""
    idle_since: float | None = None
    """When the seat's move clock ran out and the expert moved for it, if its person has not made a
    move himself since (not stored: replaying the commands sets it again, from then)."""
    moved: bool = False
    """Whether the seat's person has made a move himself in this match (replayed with the commands)."""

    @property
    def present(self) -> bool:
        """Whether the seat's person has a connection open to any process."""
        return self.connected + self.elsewhere > 0


class SeatConnections:
    """Who is connected to each seat of a table (in this process and, as told, in the others), and
    since when its person counts as away: a concern of its own, mixed into :class:`Table`."""

    seats: list[Seat]

    def connect(self, seat: int | None) -> None:
        """A connection holding ``seat``'s token opened."""
        if seat is not None:
            s = self.seats[seat - 1]
            s.connected += 1
            s.away_since = s.idle_since = None  # back: opening the table again ends his time away

    def disconnect(self, seat: int | None, now: float | None = None) -> None:
        """A connection holding ``seat``'s token closed."""
        if seat is not None:
            s = self.seats[seat - 1]
            s.connected = max(0, s.connected - 1)
            if not s.present:
                s.away_since = now if now is not None else time.time()

    def connected_elsewhere(self, seat: int, count: int, now: float | None = None) -> None:
        """Another process's connections to ``seat`` add up to ``count`` now."""
        s = self.seats[seat - 1]
        was = s.present
        if count > s.elsewhere:
            s.idle_since = None  # he opened the table again there
        s.elsewhere = max(0, count)
        if s.present:
            s.away_since = None
        elif was:
            s.away_since = now if now is not None else time.time()


@dataclass
class Table(SeatConnections):
    """A table: its rules and seats, a match once every seat is filled, and the state number.

    An ordinary table (no ``seed``, no ``deck``) deals every hand from the operating system's
    randomness when that deal starts (:func:`fresh_deck`); the deck is part of the deal's
    command (``start <deck>``, ``next <deck>``), so the stored commands rebuild the table
    exactly, and a finished deal's deck says nothing of the next one's.  A *set deal* is a table
    whose cards the host chose: a ``seed`` (every deck from it) and/or a ``deck`` (the first
    deal's); every seat is shown :data:`SET_DEAL_TEXT`."""

    id: str
    name: str
    rules: Rules
    seed: int | None = None
    """A set deal's seed (None: an ordinary table)."""
    host_hash: str = ""
    show_buried: bool = False
    """The memory aid of R3.3: buried and covered cards shown to every seat alike."""
    away_after: float | None = None
    """Seconds after which a bot plays for a person who is away (None: never)."""
    deals_in_match: int | None = None
    seats: list[Seat] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)
    """Every accepted command, in order: its index plus one is the state it led to."""
    session: GameSession | None = None
    rematch_id: str | None = None
    created: float = field(default_factory=time.time)
    deck: tuple[int, ...] | None = None
    """A set deal's first deck, as the host gave it."""
    first_dealer: int | None = None
    """The first deal's dealer (None: the last seat); a rematch's is the seat after the previous
    match's first dealer (the deal passes to the left, R3.8, R4)."""
    carried: list[int] = field(default_factory=list)
    """The running totals of this table's earlier matches (rematches add up), one per seat."""
    pace: float | None = None
    """Seconds between the bots' moves set at the table (None: the server's default)."""
    turn_timer: int | None = None
    """Seconds a person has to move; then the expert plays that one move for him (None: no timer)."""
    public: bool = False
    """Listed among the lobby's finished matches, its replay, record and review open to anyone; else
    (the default) a finished match is its players' only: its seats' and host's tokens open them."""
    turn_since: float = field(default_factory=time.time)
    """When the table's state last changed (not stored: each process counts from when it learnt of
    the change, and a restart gives the person to act a whole turn again)."""
    rated: bool = False
    """The match is rated (:mod:`conquian.web.platform.ratings`; stored as its row there, not in the table's):
    the fair-play rules hold (no hint, no record before the end) and its move clock stays on."""
    missed_first_move: int | None = None
    """The seat whose first move of the match, in its first deal, the expert made because the clock
    ran out before its person moved (worked out from the commands: the same in every process)."""

    def may_read(self, token: str | None) -> bool:
        """Whether a request with ``token`` (a seat's or the host's; None: none) may read this
        table's finished match (replay, record, review): anyone at a public table, else its
        seats and its host only."""
        return self.public or (bool(token) and (self.seat_of(token or "") is not None or self.is_host(token)))

    def __post_init__(self) -> None:
        if not self.seats:
            self.seats = [Seat(i + 1) for i in range(self.rules.players)]
        if self.deals_in_match is None:
            self.deals_in_match = 6 if self.rules.family == CONQUIAN else self.rules.players
        elif self.rules.family != CONQUIAN:
            # a Cooncan or mexicano match is one round, every player dealing once (R5.4, R8.7): a
            # table asked for more deals ends with the round (it would wait for a deal never dealt)
            self.deals_in_match = min(self.deals_in_match, self.rules.players)

    # ------------------------------------------------------------------ state
    @property
    def state(self) -> int:
        """The state number: how many commands the table has accepted."""
        return len(self.commands)

    @property
    def status(self) -> str:
        """``waiting`` for players, ``playing``, or ``over`` (the match is finished)."""
        if self.session is None:
            return WAITING
        return OVER if self.session.match_over else PLAYING

    @property
    def set_deal(self) -> bool:
        """Whether the host chose the cards (a seed or a deck): shown to every seat."""
        return self.seed is not None or self.deck is not None

    @property
    def aborted(self) -> bool:
        """A rated match aborted: a person never made his first move (:attr:`missed_first_move`); it
        is not rated, and goes on as a casual one."""
        return self.rated and self.missed_first_move is not None

    @property
    def names(self) -> list[str]:
        """The seats' names (an open seat: ``Seat N``)."""
        return [s.name or f"Seat {s.number}" for s in self.seats]

    @property
    def dealer_of_first_deal(self) -> int:
        """The first deal's dealer (the last seat unless a rematch rotated it, R3.8)."""
        return self.first_dealer or len(self.seats)

    def standings(self) -> list[dict[str, object]]:
        """Running totals across this table's matches: the earlier matches' (``carried``) plus this
        one's, one entry per seat."""
        totals = self.session.match.totals if self.session is not None else [0] * len(self.seats)
        carried = self.carried or [0] * len(self.seats)
        return [{"seat": s.number, "name": self.names[i], "total": int(carried[i]) + int(totals[i])}
                for i, s in enumerate(self.seats)]

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token holds, or None (compared in constant time)."""
        if not token:
            return None
        h = hash_token(token)
        for s in self.seats:
            if s.token_hash and hmac.compare_digest(s.token_hash, h):
                return s.number
        return None

    def is_host(self, token: str | None) -> bool:
        """Whether ``token`` is the host's."""
        return bool(token) and bool(self.host_hash) and hmac.compare_digest(self.host_hash, hash_token(token or ""))

    def seat(self, number: object) -> Seat:
        """A seat by number, or :class:`TableError` ``no_seat``."""
        if type(number) is not int or not 1 <= number <= len(self.seats):
            raise TableError("no_seat", Msg("this table has seats 1 to {last}", last=len(self.seats)))
        return self.seats[number - 1]

    # ------------------------------------------------------------------ seats
    def sit(self, number: int, name: str, token: str | None = None) -> str:
        """A person takes an open seat; returns the seat's secret token (kept only as a hash)."""
        seat = self.seat(number)
        if seat.kind != OPEN:
            raise TableError("seat_taken", Msg("seat {number} is taken", number=number))
        try:
            check_name(name.strip() if isinstance(name, str) else name)
        except ConquianError as e:
            raise TableError("bad_name", e.message) from None
        taken = {name_skeleton(s.name): s.name for s in self.seats if s.kind != OPEN}
        if name_skeleton(name) in taken:
            raise TableError("bad_name", Msg("{name} already sits at this table, or a name that looks the same "
                                             "({other})", name=repr(name.strip()),
                                             other=repr(taken[name_skeleton(name)])))
        token = token or new_token()
        seat.kind, seat.name, seat.token_hash = HUMAN, name.strip(), hash_token(token)
        self._maybe_start()
        return token

    def set_bot(self, number: int, bot: str, host: bool) -> None:
        """The host gives an open seat to a bot (before the match starts)."""
        if not host:
            raise TableError("not_host", Msg("only the table's host may seat a bot"))
        seat = self.seat(number)
        if seat.kind != OPEN:
            raise TableError("seat_taken", Msg("seat {number} is taken", number=number))
        if bot not in bot_names():
            raise TableError("bad_bot", Msg("there is no bot {bot} (bots: {bots})", bot=repr(bot[:40]),
                                            bots=", ".join(bot_names())))
        seat.kind, seat.name = bot, _bot_name(bot, self.seats)
        self._maybe_start()

    def _maybe_start(self) -> None:
        if self.session is None and all(s.kind != OPEN for s in self.seats):
            deck = self.deck if self.deck is not None else (None if self.seed is not None else fresh_deck(self.rules))
            self._apply("start" if deck is None else f"start {deck_text(deck)}")

    def start_if_full(self) -> None:
        """Start the match if every seat is filled (a rematch's table is full from the start)."""
        self._maybe_start()

    # ------------------------------------------------------------------ moves
    def act(self, seat: int, action: Action | str, state: object, timed: bool = False, away: bool = False) -> str:
        """A seat's move, chosen on ``state``; returns the command stored (``timed``: the expert's
        for a person whose time ran out, which the log says; ``away``: the expert's for a person
        away past the away rule).  Refusals: a :class:`TableError`, or
        the engine's :class:`IllegalActionError` naming the rule; either way the table is unchanged."""
        self._check_state(state)
        session = self._playing()
        deal = session.deal
        if deal.over:
            raise IllegalActionError("R7", Msg("the deal is over"))
        action = session.read_move(action, seat)  # the notation, or the move list's words in either language
        if action.seat != seat:
            raise TableError("not_your_seat", Msg("you sit at seat {seat}, not {other}", seat=seat, other=action.seat))
        if deal.to_act != seat:
            if not deal.to_act:
                raise TableError("not_your_turn", Msg("it is nobody's turn, not yours"))
            raise TableError("not_your_turn", Msg("it is {name}'s turn, not yours", name=self.names[deal.to_act - 1]))
        # the engine refuses (naming the rule) or plays it
        return self._apply(f"{TIMED if timed else AWAY if away else ''}act {action}")

    def next_deal(self, state: object) -> str:
        """Deal the next hand once the current one is over (any seated player may ask)."""
        self._check_state(state)
        session = self._playing()
        if not session.deal.over:
            raise TableError("deal_in_progress", Msg("the deal is still being played"))
        return self._apply("next" if self.seed is not None else f"next {deck_text(fresh_deck(self.rules))}")

    def _check_state(self, state: object) -> None:
        if type(state) is not int or state != self.state:
            raise TableError("stale", Msg("this move was chosen on state {chosen}; the table is at state {state}",
                                          chosen=str(state)[:20], state=self.state))

    def _playing(self) -> GameSession:
        if self.session is None:
            raise TableError("not_playing", Msg("the match has not started: seats are still open"))
        if self.session.match_over:
            raise TableError("not_playing", Msg("the match is over"))
        return self.session

    def _apply(self, command: str) -> str:
        ends = self.turn_ends()
        self.replay_command(command)
        self.commands.append(command)
        now = self.turn_since = time.time()
        if command.startswith(("act ", TIMED, AWAY)):
            seat = self.seats[parse_action(command.split("act ", 1)[1]).seat - 1]
            if command.startswith(AWAY):
                pass  # the expert's for one away: he is still away
            elif command.startswith(TIMED):
                # away from when the clock ran out, until he moves himself
                seat.idle_since = seat.idle_since or min(now, ends if ends is not None else now)
            else:
                seat.idle_since, seat.moved = None, True
        return command

    def replay_command(self, command: str) -> None:
        """Apply a stored command (``start``, ``act ...``, ``timed act ...``, ``away act ...``, ``next``;
        ``start`` and ``next`` with the deal's deck, or without it at a set deal with a seed) without
        checks of turn or state: how a table is rebuilt from storage.  An illegal stored action still
        raises."""
        if command.startswith((TIMED + "act ", AWAY + "act ")):
            action = parse_action(command.split("act ", 1)[1])
            session = self._playing()
            first = (len(session.match.deals) == 1 and self.missed_first_move is None
                     and self.seats[action.seat - 1].kind == HUMAN and not self.seats[action.seat - 1].moved)
            session.play_human(action)
            if command.startswith(TIMED):
                session.say(Msg("the expert played for {name}: time ran out", name=self.names[action.seat - 1]))
            if first:
                self.missed_first_move = action.seat
                if self.rated:
                    session.say(Msg("the match is aborted and will not be rated: {name} did not make a first "
                                    "move in time (the deal goes on, unrated)", name=self.names[action.seat - 1]))
            return
        word, _, rest = command.partition(" ")
        deck = parse_cards(rest) if word in ("start", "next") and rest else None
        if word in ("start", "next") and deck is None and self.seed is None:
            raise TableError("bad_command", Msg("a {word} command without a deck at a table with no seed", word=word))
        if word == "start":
            if self.session is not None:
                raise TableError("not_playing", Msg("the match has already started"))
            self.session = GameSession(self.rules, seats=[HUMAN] * len(self.seats), names=self.names,
                                       seed=self.seed or 0, deals_in_match=self.deals_in_match, first_deck=deck,
                                       first_dealer=self.first_dealer)
            self.session.name_kinds = [s.kind for s in self.seats]  # the bots' names in each reader's words
        elif word == "next":
            session = self._playing()
            if not session.deal.over:
                raise TableError("deal_in_progress", Msg("the deal is still being played"))
            session.new_deal(deck)
        elif command.startswith("act "):
            self._playing().play_human(parse_action(command[4:]))
        else:
            raise TableError("bad_command", Msg("unknown stored command {command}", command=repr(command[:40])))

    def rebuild(self, commands: Sequence[str]) -> None:
        """Apply stored commands in order, after those the table has (a new table: all of them)."""
        for c in commands:
            self._apply(c)

    def update_seats(self, seats: Sequence[Seat]) -> None:
        """Take who sits where from storage (another process seated someone), keeping this
        process's connections."""
        for mine, stored in zip(self.seats, seats, strict=True):
            mine.kind, mine.name, mine.token_hash = stored.kind, stored.name, stored.token_hash

    # ------------------------------------------------------------------ bots
    def turn_ends(self) -> float | None:
        """When the time of the person to act runs out (Unix seconds), or None: no timer, or no
        person to act."""
        if self.turn_timer is None or self.status != PLAYING:
            return None
        assert self.session is not None
        seat_no = self.session.deal.to_act
        if self.session.deal.over or not seat_no or self.seats[seat_no - 1].kind != HUMAN:
            return None
        return self.turn_since + self.turn_timer

    def out_of_time(self, now: float | None = None) -> bool:
        """Whether the person to act has run out of time (the expert then plays his move)."""
        ends = self.turn_ends()
        return ends is not None and (now if now is not None else time.time()) >= ends

    def bot_to_act(self, now: float | None = None) -> tuple[int, str] | None:
        """The seat a bot must play now and the bot's name: a bot's seat, or a person away longer
        than ``away_after`` or out of time (:meth:`out_of_time`; the expert plays for him).  None
        when a person is to act."""
        if self.status != PLAYING:
            return None
        assert self.session is not None
        seat_no = self.session.deal.to_act
        if seat_no is None:
            return None
        seat = self.seats[seat_no - 1]
        if seat.kind != HUMAN:
            return seat_no, seat.kind
        now = now if now is not None else time.time()
        since = self.away_from(seat_no)
        if since is not None and self.away_after is not None and now - since >= self.away_after:
            return seat_no, "expert"
        return (seat_no, "expert") if self.out_of_time(now) else None

    def away_from(self, number: int) -> float | None:
        """Since when seat ``number``'s person counts as away (None: he is here): since his last
        connection closed, or since his move clock ran out and the expert moved for him, while he
        has not moved himself (a person who stays connected and never moves is away as one who
        left); the earlier of both."""
        seat = self.seats[number - 1]
        if seat.kind != HUMAN:
            return None
        times = [t for t in (seat.idle_since, None if seat.present else seat.away_since) if t is not None]
        return min(times, default=None)

    @property
    def all_bots(self) -> bool:
        """Whether no person sits at the table (deals then follow one another by themselves)."""
        return all(s.kind not in (HUMAN, OPEN) for s in self.seats)


def _bot_name(bot: str, seats: Sequence[Seat]) -> str:
    taken = {s.name for s in seats}
    base = bot.capitalize()
    name, k = base, 2
    while name in taken:
        name, k = f"{base} {k}", k + 1
    return name
