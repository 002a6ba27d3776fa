"""A game at one table: people and bots, a match, a log in words, records (no user interface).

The terminal application (:mod:`conquian.tui`) is a thin layer over this.  A
session knows which seats are people, lets bots play their turns one at a time
(so an interface can pace them), writes every action in words, and saves the
match as a record.

```pycon
>>> from conquian import get_rules
>>> s = GameSession(get_rules("conquian"), seats=["human", "foster"], names=["Ann", "Bob"], seed=3)
>>> s.human_to_act, s.deal.to_act
(True, 1)
>>> line = s.play_human(s.legal()[0])
>>> line.startswith("Ann ")
True

```
"""

from __future__ import annotations

import re
import time
import tomllib
from collections.abc import Sequence
from dataclasses import InitVar, dataclass, field
from typing import Any

from conquian.bots import Bot, make_bot
from conquian.engine.actions import Action, Draw, Force, Give, Use, meld_text, parse_action
from conquian.engine.cards import card_str, mask_of
from conquian.engine.conquian.deal import ConquianDeal, Event
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.conquian.mexicano_events import MexicanoEvent
from conquian.engine.cooncan.deal import CooncanEvent
from conquian.engine.deck import SplitMix64
from conquian.engine.errors import ConquianError, IllegalActionError
from conquian.engine.files import atomic_write, records_dir
from conquian.engine.match import Deal, Match
from conquian.engine.record import Record, ReplayError, read_record, record_from_match, replay, write_record
from conquian.engine.rules import CONQUIAN, Rules
from conquian.hints import current_round, live_out_msgs, live_outs
from conquian.i18n import N_, Msg, NMsg, Translator, active
from conquian.present import Joined, going_out_msg, move_msg, named_cards, spanish_pack
from conquian.words import HUMAN, YOU, Words, default_names

#: The name of the lone person at a table of bots (:func:`default_names`): the log speaks to him.
#: the record format skips it, and the record stays exactly as docs/records.md describes it).
TABLE_NOTE = "# table = "
_KIND = re.compile(r"[a-z][a-z0-9_-]{0,30}")


class FinishedMatchError(ConquianError):
    """A record whose match is over: there is nothing to resume."""


@dataclass(frozen=True)
class LogLine:
    """One line of the table's log: ``text`` as everyone sees it, and for one ``seat`` (a draw from the
    pack, a hint) the ``private`` text only that seat may read.  ``text`` empty: a line for that seat only."""

    text: str | Msg
    seat: int | None = None
    private: str | Msg = ""

    def for_seat(self, seat: int | None) -> str | Msg:
        """The line as ``seat`` sees it (``None``: a spectator), or "" if it is not for him; a
        :class:`~conquian.i18n.Msg` is rendered in the reader's language (:meth:`render`)."""
        return self.private if seat is not None and seat == self.seat else self.text

    def render(self, seat: int | None, tr: Translator | None = None) -> str:
        """The line as ``seat`` reads it, in ``tr``'s language (the program's by default)."""
        return (tr or active()).render(self.for_seat(seat))


@dataclass
class GameSession(Words):
    """A match at one table.  ``seats`` holds ``"human"`` or a bot name for each seat."""

    rules: Rules
    seats: list[str]
    names: list[str] | None = None
    seed: int = 0
    deals_in_match: int | None = None
    """Conquian: deals to play (default 6); Cooncan: one round (R5.4)."""
    lines: list[LogLine] = field(default_factory=list)
    bots: dict[int, Bot] = field(default_factory=dict)
    first_deck: Sequence[int] | None = None
    """The first deal's deck (None: from ``seed``)."""
    first_dealer: int | None = None
    """The first deal's dealer (None: the last seat, so that seat 1 plays first; R3.8)."""
    record: InitVar[Record | None] = None
    """A saved match to continue: its deals are played again, action by action (see :func:`resume`)."""
    _rendered: dict[tuple[int | None, int], tuple[Translator, list[str], int, LogLine | None]] = field(
        default_factory=dict, init=False, repr=False, compare=False)
    """Each seat's log rendered so far, per language: (translator, lines, lines of ``lines`` read,
    the last of them), for :meth:`log_tail`."""

    def __post_init__(self, record: Record | None) -> None:
        n = self.rules.players
        if len(self.seats) != n:
            raise ConquianError(Msg("{game} with {n} players needs {n} seats, not {seats}", game=self.rules.name, n=n,
                                    seats=len(self.seats)))
        self.names = list(self.names) if self.names else default_names(self.seats)
        for i, kind in enumerate(self.seats):
            if kind != HUMAN:
                self.bots[i + 1] = make_bot(kind, seed=self.seed * 7 + i)
        self.match = Match(self.rules, self.names, first_dealer=self.first_dealer,
                           rounds=None if self.rules.family == CONQUIAN else 1)
        if self.deals_in_match is None:
            self.deals_in_match = 6 if self.rules.family == CONQUIAN else n
        self._seeds = SplitMix64(self.seed)
        self.started = time.strftime("%Y%m%d-%H%M%S")
        if record is not None:
            self._play_again(record)
        if not self.match.deals or (self.deal.over and not self.match_over):
            self.new_deal(None if self.match.deals else self.first_deck)

    def _play_again(self, record: Record) -> None:
        """The deals of a saved match, dealt and played again in this session (its log and scores)."""
        replay(record)  # every action and result checked first: a bad record fails here, whole
        for d in record.deals:
            self._announce(self.match.new_deal(d.deck, seed=d.seed, dealer=d.dealer))
            for text in d.actions:
                self._play(parse_action(text))

    # ------------------------------------------------------------------ state
    @property
    def deal(self) -> Deal:
        """The current deal."""
        return self.match.deals[-1]

    @property
    def human_seats(self) -> list[int]:
        """The seats played by people."""
        return [i + 1 for i, kind in enumerate(self.seats) if kind == HUMAN]

    @property
    def human_to_act(self) -> bool:
        """Whether a person is to act now."""
        seat = self.deal.to_act
        return seat is not None and self.seats[seat - 1] == HUMAN

    def holds_cards(self, seat: int) -> bool:
        """Whether a seat plays this deal (R6.3: at a three-seat conquian table the dealer sits out)."""
        deal = self.deal
        return not isinstance(deal, ConquianDeal) or seat in deal.seats

    @property
    def sitting_out(self) -> int | None:
        """The seat that sits out this deal (three at a conquian table, R6.3), if any."""
        deal = self.deal
        if isinstance(deal, ConquianDeal) and deal.n_seats == 3:
            return deal.dealer
        return None

    @property
    def match_over(self) -> bool:
        """Whether every deal of the match has been played."""
        rounds = self.match.rounds
        last = self.deals_in_match or 1
        if rounds is not None:  # Cooncan, the mexicano: the match ends with its round (R5.4, R8.7)
            last = min(last, rounds * self.rules.players)
        return self.deal.over and len(self.match.deals) >= last

    @property
    def log(self) -> list[str]:
        """The log as a spectator reads it (no one's draws from the pack, no hints), in the program's language."""
        return self.log_for(None)

    def log_for(self, seat: int | None, tr: Translator | None = None) -> list[str]:
        """The log as ``seat`` reads it: his own draws from the pack and his hints, nobody else's;
        in ``tr``'s language (the program's by default)."""
        return self.log_tail(seat, tr, None)

    def log_tail(self, seat: int | None, tr: Translator | None = None, count: int | None = None) -> list[str]:
        """The last ``count`` lines of :meth:`log_for` (every line for ``None``).  Each seat's log is
        rendered once per language and kept: a call renders only the lines added since the last,
        so that it costs the same at the first move of a match and the thousandth."""
        tr = tr or active()
        lines = self.lines
        key = (seat, id(tr))
        kept = self._rendered.get(key)
        done = 0
        out: list[str] = []
        if kept is not None and kept[0] is tr and kept[2] <= len(lines) and (
                kept[2] == 0 or lines[kept[2] - 1] is kept[3]):
            _tr, out, done, _last = kept
        for line in lines[done:]:
            text = line.render(seat, tr)
            if text:
                out.append(text)
        self._rendered[key] = (tr, out, len(lines), lines[-1] if lines else None)
        return out[-count:] if count else out[:]

    def say(self, text: str | Msg, seat: int | None = None, private: str | Msg = "") -> LogLine:
        """Add a line to the log (``seat`` and ``private``: see :class:`LogLine`)."""
        line = LogLine(text, seat, private)
        self.lines.append(line)
        return line

    def new_deal(self, deck: Sequence[int] | None = None) -> Deal:
        """Deal the next hand (the deal passes to the left, R3.8, R5.4): ``deck`` if given, else
        the next deck of ``seed``'s sequence."""
        d = self.match.new_deal(deck) if deck is not None else self.match.new_deal(seed=self._seeds.next64())
        self._announce(d)
        return d

    def _announce(self, d: Deal) -> None:
        n = len(self.match.deals)
        self.say(self._by(d.dealer, N_("--- deal {n}: {who} deals ---"), N_("--- deal {n}: You deal ---"), n=n))
        if isinstance(d, ConquianDeal):
            if d.n_seats == 3:
                self.say(self._by(d.dealer, N_("{who} sits out this deal (R6.3)"),
                                  N_("You sit out this deal (R6.3)")))
            self.say(self._by(d.seats[0], N_("{who} turned {card}"), N_("You turned {card}"),
                              card=self.card_msg(d.card)))
        elif isinstance(d, MexicanoDeal):
            self._announce_mexicano(d)
        else:
            self.say(Msg("the discard pile starts with {card}", card=self.card_msg(d.stock[0])))

    def legal(self) -> list[Action]:
        """The listed legal actions of the seat to act."""
        return self.deal.legal_actions()

    # ------------------------------------------------------------------ playing
    def play_human(self, action: Action | str) -> str:
        """Play a person's action (text may leave out the seat); returns the log line.

        Raises :class:`~conquian.engine.errors.ConquianError` (the state unchanged) if it is refused.
        """
        seat = self.deal.to_act
        if seat is None:
            raise IllegalActionError("R7", Msg("the deal is over"))
        return self._play(self.read_move(action, seat))

    def read_move(self, action: Action | str, seat: int) -> Action:
        """A move as a person types it, for ``seat``: the notation, or the words of the move list in
        English or Spanish, cards in the notation, symbols or words (:func:`conquian.typed.notation_of`).

        ```pycon
        >>> from conquian import get_rules
        >>> s = GameSession(get_rules("conquian"), seats=["human", "foster"], names=["Ann", "Bob"])
        >>> str(s.read_move("pagar con la sota de espadas", 1)), str(s.read_move("bajar 7♣ 8♣ 9♣", 1))
        ('p1 discard Js', 'p1 use 7c 8c 9c')

        ```
        """
        if isinstance(action, Action):
            return action
        from conquian.i18n import languages, translator
        from conquian.typed import notation_of

        forms = [{name, *forms} for name, *forms in zip(
            self.names or [], *(self.names_for_seats(translator(lang)) for lang in languages()), strict=True)]
        card = getattr(self.deal, "card", -1)
        in_play = card_str(card) if isinstance(card, int) and card >= 0 else None
        text = str(action).strip()
        if not re.match(r"p\d+\s", text):  # a seat written: the notation, read as it is
            text = notation_of(text, self.rules.family, forms, in_play)
        return seated_action(text, seat)

    def bot_step(self) -> str | None:
        """Let the bot to act play one action; None if a person is to act or the deal is over."""
        seat = self.deal.to_act
        if seat is None or self.seats[seat - 1] == HUMAN:
            return None
        view = self.deal.view(seat)
        bot: Any = self.bots[seat]  # a bot that does not play these rules refuses the view (TypeError)
        action = bot.choose(view)
        return self._play(action)

    def _play(self, action: Action) -> str:
        deal = self.deal
        before = deal.n_events
        deal.play(action)
        said = []
        for e in deal.recent_events(deal.n_events - before):
            line = self.describe_line(e)
            if line is not None:
                self.lines.append(line)
                said.append(str(line.text or line.private))
            if isinstance(deal, MexicanoDeal) and e.kind == "exchange":
                self.lines += self.exchange_lines(deal)  # each seat's own: never in ``said``
        if deal.over:
            self.match.settle()
            said.append(str(self.say(self.result_msg()).text))
        return "; ".join(said)

    # ------------------------------------------------------------------ words
    def describe_line(self, event: Event | CooncanEvent) -> LogLine | None:
        """An event as a log line with names; a draw from the pack shows its card to the drawer only."""
        if event.kind == "bury":
            return None
        if isinstance(event, MexicanoEvent) and event.kind == "give":
            return self.give_line(event)
        if isinstance(event, CooncanEvent) and event.kind == "draw":
            public = self._by(event.seat, N_("{who} drew from the pack"), N_("You drew from the pack"))
            private = public if event.card is None else self._by(
                event.seat, N_("{who} drew {card}"), N_("You drew {card}"), card=self.card_msg(event.card))
            return LogLine(public, event.seat, private)
        return LogLine(self.describe_msg(event))

    def action_words(self, action: Action, tr: Translator | None = None) -> str:
        """An action as a person reads it: the notation without the seat label (``tr``: the
        reader's language, the program's by default)."""
        text = str(action)
        return text.split(" ", 1)[1] if " " in text else text

    def goes_out(self, action: Use) -> bool:
        """Whether ``action``, a use, lays every card of its player's hand: he goes out (R3.7, R8.5)."""
        deal = self.deal
        if not isinstance(deal, ConquianDeal | MexicanoDeal) or action.seat not in deal.seats:
            return False
        laid = 0
        for m in action.melds:
            laid |= m
        return deal.hands[deal.player_of(action.seat)] & ~laid == 0

    def move_target(self, action: Action) -> int | None:
        """The seat a move sends a card to, where it names one: the next player for a card given in
        the exchange (R8.2), the seat forced (R3.6, R8.4)."""
        deal = self.deal
        if isinstance(action, Give) and isinstance(deal, MexicanoDeal):
            return deal.seats[(deal.player_of(action.seat) + 1) % deal.n]
        if isinstance(action, Force):
            if action.target is not None:
                return action.target
            if isinstance(deal, ConquianDeal | MexicanoDeal):
                return next((t for t in deal.seats[:2] if t != action.seat), None)
        return None

    def move_msg(self, action: Action) -> Msg:
        """A move in words as a message (:func:`conquian.present.move_msg`), naming the player a
        card goes to (:meth:`move_target`); a use that lays the whole hand says that it goes out
        (:func:`conquian.present.going_out_msg`, R3.7, R8.5)."""
        spanish = spanish_pack(self.rules)  # its cards drawn as each reader's screen draws the pack
        if isinstance(action, Use) and self.goes_out(action):
            return going_out_msg(action, spanish)
        to = self.move_target(action)
        return move_msg(action, self.person(to) if to is not None else None, spanish)

    def move_label(self, action: Action, tr: Translator | None = None) -> str:
        """A move as a button or a list shows it to a person, in ``tr``'s language (the program's by
        default): "force 5h on Bea", "forzar 5h a Bea"; :meth:`action_words` is the notation a
        client sends back."""
        return (tr or active()).render(self.move_msg(action))

    def result_msg(self) -> Msg:
        """The deal's result in words, as a message."""
        deal = self.deal
        scores = self.scores_msg(self.match.results[-1])
        if deal.winner_seat is not None:
            if getattr(deal, "splash", False):
                return self._by(deal.winner_seat, N_("{who} wins the deal (a splash): {scores}"),
                                N_("You win the deal (a splash): {scores}"), scores=scores)
            return self._by(deal.winner_seat, N_("{who} wins the deal: {scores}"), N_("You win the deal: {scores}"),
                            scores=scores)
        if getattr(deal, "void", False):
            return Msg("the deal is void: nobody scores")
        if isinstance(deal, MexicanoDeal):
            return Msg("tablas: the deal is a draw, nobody scores (R8.6)")
        return NMsg("tableau: nobody wins; the next winner takes the pool ({n} counter, R5.1)",
                    "tableau: nobody wins; the next winner takes the pool ({n} counters, R5.1)", self.match.pool)

    def result_line(self, tr: Translator | None = None) -> str:
        """The deal's result in words, in ``tr``'s language (the program's by default)."""
        return (tr or active()).render(self.result_msg())

    def deal_end(self) -> list[LogLine]:
        """The last words of a deal that is over: why it ended when the pack ran out (R8.6: tablas,
        or the fewest cards), then its result."""
        lines = [line for line in self.lines if line.text]
        if not lines:
            return []
        out = lines[-1:]
        if isinstance(self.deal, MexicanoDeal) and len(lines) > 1:
            before = lines[-2].text
            if isinstance(before, Msg) and before.msgid.startswith("the pack is exhausted"):
                out.insert(0, lines[-2])
        return out

    def pool_msg(self) -> Msg | None:
        """The conquian tableau pool waiting for the next winner (R5.1) as a message; None if empty."""
        if not self.match.pool:
            return None
        owed = Joined([Joined([self.person(i + 1), str(k)], " ") for i, k in enumerate(self.match.owed) if k])
        return NMsg("Tableau pool: {n} counter (owed by {owed}), to the next winner (R5.1)",
                    "Tableau pool: {n} counters (owed by {owed}), to the next winner (R5.1)", self.match.pool,
                    owed=owed)

    def pool_text(self, tr: Translator | None = None) -> str:
        """The conquian tableau pool waiting for the next winner (R5.1), in words (``tr``'s language,
        the program's by default); "" if empty."""
        m = self.pool_msg()
        return "" if m is None else (tr or active()).render(m)

    def washbook_text(self, tr: Translator | None = None) -> str:
        """The washbook (the deals' values and the running totals, R5) as a table, its headings and
        the default names in ``tr``'s language (the program's by default); in English the same as
        ``str(match.washbook)``."""
        tr = tr or active()
        book = self.match.washbook
        names = self.names_for_seats(tr)
        width = max(6, *(len(p) + 1 for p in names))
        number, worth = tr.gettext(N_("deal")), tr.gettext(N_("value"))  # the headings: a deal's number, its value
        head = f"{number:>4} {worth:>6}" + "".join(f"{p:>{width + 1}}" for p in names)
        lines = [head]
        for i, (value, totals) in enumerate(book.rows, 1):
            lines.append(f"{i:>4} {value:>6}" + "".join(f"{t:>+{width + 1}d}" if t else f"{0:>{width + 1}}"
                                                        for t in totals))
        return "\n".join(lines)

    # ------------------------------------------------------------------ the conquián mexicano (R8)
    def _announce_mexicano(self, d: MexicanoDeal) -> None:
        """A conquián mexicano deal's first words: the exchange to come (R8.2), or the first card turned."""
        if d.phase == "exchange" and d.to_act is not None:
            self.say(self._by(d.to_act, N_("the exchange: each player gives a card to the next, {who} first (R8.2)"),
                              N_("the exchange: each player gives a card to the next, You first (R8.2)")))
        elif d.card >= 0:
            self.say(self._by(d.seats[0], N_("{who} turned {card}"), N_("You turned {card}"),
                              card=self.card_msg(d.card)))

    def _next_seat(self, deal: MexicanoDeal, seat: int, step: int = 1) -> int:
        """The seat ``step`` places after ``seat`` in the order of play (-1: the one before)."""
        return deal.seats[(deal.player_of(seat) + step) % deal.n]

    def _next_of(self, seat: int) -> int:
        deal = self.deal
        return self._next_seat(deal, seat) if isinstance(deal, MexicanoDeal) else super()._next_of(seat)

    def give_line(self, event: MexicanoEvent) -> LogLine:
        """A card given in the exchange (R8.2): to everyone, that a card went; to the giver, which."""
        deal = self.deal
        assert isinstance(deal, MexicanoDeal)
        to = self._next_seat(deal, event.seat)
        public = self._gave(event.seat, to, None)
        card = deal.given(event.seat)
        private = public if card is None else self._gave(event.seat, to, self.card_msg(card))
        return LogLine(public, event.seat, private)

    def exchange_lines(self, deal: MexicanoDeal) -> list[LogLine]:
        """Once every seat has given (R8.2): for each seat, a line only it reads, from its own view."""
        out = []
        for seat in deal.seats:
            view = deal.view(seat)
            if view.gave is None or view.got is None:
                continue
            to, by = (self._next_seat(deal, seat, k) for k in (1, -1))
            fields: dict[str, object] = {"gave": self.card_msg(view.gave), "got": self.card_msg(view.got)}
            if self.is_you(seat):
                line = Msg("You gave {gave} to {to} and got {got} from {by}", to=self.person(to), by=self.person(by),
                           **fields)
            elif self.is_you(to) and self.is_you(by):
                line = Msg("{who} gave {gave} to you and got {got} from you", who=self.person(seat), **fields)
            elif self.is_you(to):
                line = Msg("{who} gave {gave} to you and got {got} from {by}", who=self.person(seat),
                           by=self.person(by), **fields)
            elif self.is_you(by):
                line = Msg("{who} gave {gave} to {to} and got {got} from you", who=self.person(seat),
                           to=self.person(to), **fields)
            else:
                line = Msg("{who} gave {gave} to {to} and got {got} from {by}", who=self.person(seat),
                           to=self.person(to), by=self.person(by), **fields)
            out.append(LogLine("", seat, line))
        return out

    # ------------------------------------------------------------------ selection
    def actions_from_selection(self, cards: Sequence[int]) -> list[Action]:
        """Legal actions built from selected hand cards, for forms the listing does not show
        (a four-card use, a use with a rearrangement, a four-card meld, several cards added at
        once): each candidate is checked by the engine, so every one offered is legal."""
        deal = self.deal
        seat = deal.to_act
        if seat is None or not cards:
            return []
        text = " ".join(card_str(c) for c in cards)
        candidates: list[str] = []
        if isinstance(deal, ConquianDeal | MexicanoDeal):
            if isinstance(deal, MexicanoDeal) and deal.phase == "exchange" and len(cards) == 1:
                candidates.append(f"give {text}")
            if deal.card >= 0:
                p = deal.player_of(seat)
                tbl = deal.tbl
                new = mask_of(cards) | 1 << deal.card
                part = tbl.partition(new)
                if part:
                    candidates.append("use " + " | ".join(meld_text(m) for m in part))
                whole = tbl.partition(deal.downs[p] | new)
                if whole:
                    changed = [m for m in whole if m not in deal.sides[p]]
                    candidates.append("use " + " | ".join(meld_text(m) for m in changed))
            if len(cards) == 1:
                candidates += [f"discard {text}", f"force {text}"]
                if isinstance(deal, MexicanoDeal) and deal.n > 2:  # R8.4: the force names its target
                    candidates += [f"force {text} p{t}" for t in deal.seats if t != seat]
        else:
            candidates.append(f"meld {text}")
            for k in range(1, len(deal.combos) + 1):
                candidates += [f"add {k} {text}", f"shift {k} {text}"]
            if len(cards) == 1:
                candidates.append(f"discard {text}")
        out: list[Action] = []
        for c in candidates:
            try:
                a = parse_action(f"p{seat} {c}")
            except ConquianError:
                continue
            if deal.is_legal(a) and str(a) not in {str(x) for x in out}:
                out.append(a)
        return out

    # ------------------------------------------------------------------ records
    def record_text(self) -> str:
        """The match so far as a record (docs/records.md), after a comment saying who plays each
        seat (a person or a bot, by name) and the deals of the match, for :func:`resume`."""
        return table_note(self.seats, self.deals_in_match or 1) + write_record(record_from_match(self.match))

    def default_record_name(self) -> str:
        """A file name for this match's record."""
        return f"conquian-{self.rules.name}-{self.started}.toml"

    def default_record_path(self) -> str:
        """Where this match's record goes when no path is given: a new file in the data folder
        (:func:`~conquian.engine.files.records_dir`, made if missing), never the current directory."""
        folder = records_dir()
        folder.mkdir(parents=True, exist_ok=True)
        return str(folder / self.default_record_name())

    def save(self, path: str | None = None) -> str:
        """Write the record atomically (a temporary file renamed over ``path``); returns the path.

        Without ``path``, to :meth:`default_record_path`.  Raises :class:`OSError` if it cannot be
        written; the file at ``path`` is then unchanged.
        """
        path = path or self.default_record_path()
        atomic_write(path, self.record_text())
        return path


def table_note(seats: Sequence[str], deals: int) -> str:
    """The comment line of a record that says who sits at the table: ``human`` or a bot's name for
    each seat, and the deals of the match.

    ```pycon
    >>> table_note(["human", "foster"], 6)
    '# table = { seats = ["human", "foster"], deals = 6 }\\n'

    ```
    """
    kinds = ", ".join(f'"{k}"' for k in seats if _KIND.fullmatch(k))
    return f"{TABLE_NOTE}{{ seats = [{kinds}], deals = {deals} }}\n"


def read_table_note(text: str, players: int) -> tuple[list[str], int] | None:
    """The seats and the number of deals a record's :func:`table_note` gives, or None if it has none
    (a record not written by ``conquian play``) or one that does not fit its ``players`` seats."""
    from conquian.bots import bot_names

    for line in text.splitlines():
        if not line.startswith(TABLE_NOTE):
            continue
        try:
            note = tomllib.loads("table = " + line[len(TABLE_NOTE):])["table"]
        except (tomllib.TOMLDecodeError, ValueError, RecursionError):
            return None
        seats, deals = note.get("seats"), note.get("deals")
        known = (HUMAN, *bot_names())
        if (isinstance(seats, list) and len(seats) == players and all(k in known for k in seats)
                and type(deals) is int and 1 <= deals <= 10_000):
            return list(seats), deals
        return None
    return None


def resume(text: str, *, seed: int = 0, seats: Sequence[str] | None = None) -> GameSession:
    """A saved match, continued: the record's deals played again (the same deals, the same actions),
    the same players by name, the same bots by name (its :func:`table_note`; without one, ``seats``
    or else a person in the first seat against the default bot), the scores so far.  The deals
    still to come are shuffled from ``seed``.

    Raises :class:`~conquian.engine.record.ReplayError` for a text that is not a valid record and
    :class:`FinishedMatchError` for a match that is over.

    ```pycon
    >>> from conquian import get_rules
    >>> s = GameSession(get_rules("conquian"), seats=["human", "foster"], names=["Ann", "Bob"], seed=3)
    >>> _ = s.play_human(s.legal()[0]); _ = s.play_human(s.legal()[0])
    >>> again = resume(s.record_text(), seed=9)
    >>> again.names, again.seats, str(again.deal.actions()[-1]) == str(s.deal.actions()[-1])
    (['Ann', 'Bob'], ['human', 'foster'], True)

    ```
    """
    rec = read_record(text)
    rules = rec.rules()
    note = read_table_note(text, rules.players)
    if note is not None:
        kinds, deals = note
    else:
        kinds = list(seats) if seats else seats_from_bots(rules, None)
        deals = 6 if rules.family == CONQUIAN else rules.players
    played = replay(rec).deals  # a bad record is refused as such, before anything else is said of it
    if len(played) >= deals and played[-1].scores is not None:
        raise FinishedMatchError(Msg("the match is over ({played} deals of {deals} played): nothing to resume",
                                     played=len(rec.deals), deals=deals))
    return GameSession(rules, kinds, names=rec.players, seed=seed, deals_in_match=deals, record=rec)


def is_unfinished(text: str) -> bool:
    """Whether a record's text is a match ``conquian play`` could resume (read, not replayed)."""
    try:
        rec = read_record(text)
        rules = rec.rules()
    except (ReplayError, ConquianError):
        return False
    note = read_table_note(text, rules.players)
    deals = note[1] if note else (6 if rules.family == CONQUIAN else rules.players)
    return not rec.deals or rec.deals[-1].result is None or len(rec.deals) < deals


def seated_action(action: Action | str, seat: int) -> Action:
    """An action, read from text that may leave out the seat (``"use 7c 8c 9c"`` by ``seat``).

    ```pycon
    >>> str(seated_action("pass", 2)), str(seated_action("p1 pass", 2))
    ('p2 pass', 'p1 pass')

    ```
    """
    if isinstance(action, Action):
        return action
    text = str(action).strip()
    first = text.split(None, 1)[0].lower() if text else ""
    if not re.fullmatch(r"p\d+", first):  # "pass" is a verb, not a seat
        text = f"p{seat} {text}"
    return parse_action(text)


def _next_seat(seats: Sequence[int], seat: int) -> int:
    """The seat after ``seat`` in the order of play (the conquián mexicano: who gets its card, R8.2)."""
    return seats[(list(seats).index(seat) + 1) % len(seats)]


def action_cards(action: Action) -> list[str]:
    """The cards an action names, in notation (for matching a selection of cards: a joker is ``X``)."""
    return [t.split("=")[0] for t in named_cards(action)]


def seats_from_bots(rules: Rules, bots: Sequence[str] | None) -> list[str]:
    """Seat kinds from ``--bots``: ``human`` first, then the bots, or as listed if it names humans."""
    n = rules.players
    names = [b.strip() for b in (bots or []) if b.strip()]
    if HUMAN in names:
        if len(names) != n:
            raise ConquianError(Msg("--bots lists {listed} seats; {game} seats {n}", listed=len(names), game=rules.name,
                                    n=n))
        return names
    if not names:
        from conquian.bots.expert import strongest_quick_bot

        names = [strongest_quick_bot()]
    if len(names) == 1:
        names = names * (n - 1)
    if len(names) != n - 1:
        raise ConquianError(Msg("--bots: give {n} bots for the other seats (or one for all), not {given}", n=n - 1,
                                given=len(names)))
    return [HUMAN, *names]


__all__ = ["HUMAN", "YOU", "Draw", "FinishedMatchError", "GameSession", "Joined", "LogLine", "action_cards",
           "current_round", "is_unfinished", "live_out_msgs", "live_outs", "read_table_note", "resume",
           "seats_from_bots", "table_note"]
