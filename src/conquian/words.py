"""The words of a table for people: names, cards and events as messages each reader renders in
his own language (:class:`~conquian.i18n.Msg`), and seat labels (``p2``) turned into names.

A :class:`~conquian.session.GameSession` speaks with these words; the record viewer too, from a
record's names.  Nothing here changes a game: only what a person reads.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from conquian.engine.actions import meld_text
from conquian.engine.conquian.deal import Event
from conquian.engine.conquian.mexicano_events import MexicanoEvent
from conquian.engine.cooncan.deal import CooncanEvent
from conquian.engine.rules import Rules
from conquian.i18n import N_, SOURCE_LANGUAGE, Msg, Translator, active
from conquian.present import BOT_NAMES, Joined, bot_name, card_words, shown_cards, spanish_pack, symbols

#: The seat kind of a person (any other kind is a bot's name).
HUMAN = "human"
#: The name of the lone person at a table of bots: the log speaks to him in the second person.
YOU = "You"
_SEAT = re.compile(r"\bp(\d{1,2})('s)?\b")
#: Spanish: a seat label after a preposition reads "ti" ("a ti", "de ti"); after "con", "contigo".
_ES_PREPOSITION = re.compile(r"\b(?:a|de|para|sin|hacia|contra|por|sobre|ante|según|entre)\s+$", re.IGNORECASE)
_ES_WITH = re.compile(r"\bcon\s+$", re.IGNORECASE)
_SENTENCE_START = re.compile(r"(?:^|[.:;!?¡¿]\s*|\n\s*)$")
#: The comment line that tells who sits at the table of a saved match (a comment: every reader of


class Words:
    """The words of a table for people: names (the default ones in the reader's language), cards,
    and events as messages each reader renders in his language (:class:`~conquian.i18n.Msg`).

    :class:`GameSession` speaks with them; the record viewer too, from a record's names.
    """

    rules: Rules
    seats: list[str]
    names: list[str] | None
    name_kinds: list[str] | None = None
    """Who sits at each seat, for the names only, where :attr:`seats` does not say (a web table's
    session plays every seat as a person's; its bots' default names are read in each language)."""

    def __init__(self, rules: Rules, names: Sequence[str], seats: Sequence[str] | None = None) -> None:
        self.rules = rules
        self.names = list(names)
        self.seats = list(seats) if seats is not None else [""] * len(self.names)

    def _next_of(self, seat: int) -> int:
        """The seat after ``seat`` in the order of play (the conquián mexicano's exchange, R8.2)."""
        return seat % self.rules.players + 1

    def name(self, seat: int) -> str:
        """A seat's player name."""
        assert self.names is not None
        return self.names[seat - 1]

    def _who(self, seat: int) -> str:
        return self.name(seat)

    def _verb(self, seat: int, third: str, second: str) -> str:
        """``Ann wins`` but ``You win`` (English)."""
        name = self.name(seat)
        return f"{name} {second if name == YOU else third}"

    def is_you(self, seat: int) -> bool:
        """Whether the log speaks to this seat's player in the second person: the lone person at a
        table of bots, named "You" (:func:`default_names`)."""
        return self.name(seat) == YOU

    def person(self, seat: int) -> str | Msg:
        """A seat's name as a reader reads it: the default names of people ("You", "Player 2") and
        of bots ("Expert", "Expert 3") in his language, any other name (a person's own) as it is."""
        name = self.name(seat)
        if name == YOU:
            return Msg("You")
        kind = self.seats[seat - 1]
        if kind == HUMAN and name == f"Player {seat}":
            return Msg("Player {n}", n=seat)
        kind = self.name_kinds[seat - 1] if self.name_kinds and len(self.name_kinds) >= seat else kind
        if kind in BOT_NAMES:  # a bot's default name ("Expert", "Expert 3"): in the reader's words
            if name == kind.capitalize():
                return bot_name(kind)
            number = re.fullmatch(re.escape(kind.capitalize()) + r" (\d{1,2})", name)
            if number:
                return Msg("{bot} {n}", bot=bot_name(kind), n=int(number.group(1)))
        return name

    def names_for_seats(self, tr: Translator | None = None) -> list[str]:
        """Every seat's name in ``tr``'s language (the program's by default): :meth:`person`."""
        tr = tr or active()
        return [tr.render(self.person(i + 1)) for i in range(self.rules.players)]

    def _by(self, seat: int, third: str, second: str, **fields: object) -> Msg:
        """A sentence about what ``seat`` did: ``third`` with his name in ``{who}``, or ``second``
        (the second person) when the log speaks to him."""
        if self.is_you(seat):
            return Msg(second, **fields)
        return Msg(third, who=self.person(seat), **fields)

    def card_msg(self, card: int | None) -> Msg:
        """A card in words, in the reader's language ("the 7 of hearts"; the Spanish pack in
        Spanish: "el 7 de copas", R8.1); "nothing" for no card."""
        if card is None or card < 0:
            return Msg("nothing")
        return card_words(card, spanish_pack(self.rules))

    def scores_msg(self, scores: Sequence[int]) -> Msg:
        """Every seat's name and points: "Ann +2, Bob -2"."""
        return Joined([Joined([self.person(i + 1), f"{s:+d}"], " ") for i, s in enumerate(scores)])

    def describe(self, event: object, tr: Translator | None = None) -> str:
        """An event in words, with names ("Bob passed the 7 of hearts"; "You win"), in ``tr``'s
        language (the program's by default)."""
        return (tr or active()).render(self.describe_msg(event))

    def describe_msg(self, event: object) -> str | Msg:
        """An event in words, with names, as a message each reader renders in his language; built
        from the event's fields, kind by kind (an unknown kind: the engine's English words)."""
        if isinstance(event, MexicanoEvent):
            return self.describe_mexicano(event)
        if isinstance(event, CooncanEvent):
            return self._describe_cooncan(event)
        if isinstance(event, Event):
            return self._describe_conquian(event)
        return self.humanize(str(event), active())

    def record_msg(self, event: object) -> str | Msg:
        """An event as the whole record tells it, every card shown (a replay): a draw from the
        pack names its card, which the table's log shows to the drawer only (R4.3)."""
        if isinstance(event, CooncanEvent) and event.kind == "draw" and event.card is not None:
            return self._by(event.seat, N_("{who} drew {card}"), N_("You drew {card}"), card=self.card_msg(event.card))
        return self.describe_msg(event)

    def _describe_conquian(self, e: Event) -> str | Msg:
        """A conquian event (R3) in words."""
        seat, kind = e.seat, e.kind
        card = self.card_msg(e.card)
        if kind == "turn":
            return self._by(seat, N_("{who} turned {card}"), N_("You turned {card}"), card=card)
        if kind == "pass":
            return self._by(seat, N_("{who} passed {card}"), N_("You passed {card}"), card=card)
        if kind == "bury":
            return self._by(seat, N_("{who} buried {card}"), N_("You buried {card}"), card=card)
        if kind == "use":
            melds = shown_cards(" | ".join(meld_text(m) for m in e.melds), spanish_pack(self.rules))
            return self._by(seat, N_("{who} used {card}: {melds}"), N_("You used {card}: {melds}"),
                            card=card, melds=melds)
        if kind == "force":
            target = e.target or 0
            if 1 <= target <= self.rules.players and self.is_you(target):
                return Msg("{who} forced {card} on you", who=self.person(seat), card=card)
            on = self.person(target) if 1 <= target <= self.rules.players else f"p{target}"
            return self._by(seat, N_("{who} forced {card} on {target}"), N_("You forced {card} on {target}"),
                            card=card, target=on)
        if kind == "discard":
            return self._by(seat, N_("{who} discarded {card}"), N_("You discarded {card}"), card=card)
        if kind == "win":
            return self._by(seat, N_("{who} is eleven down and wins"), N_("You are eleven down and win"))
        if kind == "tableau":
            return Msg("the pack is exhausted: tableau")
        return self.humanize(str(e), active())

    def _describe_cooncan(self, e: CooncanEvent) -> str | Msg:
        """A Cooncan event (R4) in words."""
        seat, kind = e.seat, e.kind
        if kind == "draw":
            return self._by(seat, N_("{who} drew from the pack"), N_("You drew from the pack"))
        if kind == "take":
            return self._by(seat, N_("{who} took {card} from the discard pile"),
                            N_("You took {card} from the discard pile"), card=self.card_msg(e.card))
        if kind == "meld":
            return self._by(seat, N_("{who} laid out {cards} (combination {n})"),
                            N_("You laid out {cards} (combination {n})"), cards=symbols(e.text), n=e.combo)
        if kind == "add":
            return self._by(seat, N_("{who} added {cards} to combination {n}: {combination}"),
                            N_("You added {cards} to combination {n}: {combination}"),
                            cards=symbols(" ".join(e.cards)), n=e.combo, combination=symbols(e.text))
        if kind == "shift":
            return self._by(seat, N_("{who} moved the joker of combination {n} and added {cards}: {combination}"),
                            N_("You moved the joker of combination {n} and added {cards}: {combination}"),
                            cards=symbols(" ".join(e.cards)), n=e.combo, combination=symbols(e.text))
        if kind == "discard":
            return self._by(seat, N_("{who} discarded {card}"), N_("You discarded {card}"),
                            card=self.card_msg(e.card))
        if kind == "start":
            return self._by(seat, N_("{who} deals; the discard pile starts with {card}"),
                            N_("You deal; the discard pile starts with {card}"), card=self.card_msg(e.card))
        if kind == "turnover":
            return Msg("the pack is exhausted: the discard pile is turned over to make a new pack")
        if kind == "win":
            return self._by(seat, N_("{who} is out and wins"), N_("You are out and win"))
        if kind == "void":
            return Msg("the deal is void: the pack ran out too often, or the deal lasted too long")
        return self.humanize(str(e), active())

    def humanize(self, text: str | Msg, tr: Translator | None = None) -> str:
        """Seat labels (``p2``, ``p2's``) replaced by names, for text meant for people (refusals, hints),
        in ``tr``'s language (the program's by default).

        In English the lone person's label reads "you" ("your"); in Spanish "tú", "ti" after a
        preposition ("a ti", "de ti") and "contigo" after "con"; in any other language his name.
        """
        tr = tr or active()
        text = tr.render(text)
        players = self.rules.players
        english = tr.lang == SOURCE_LANGUAGE
        spanish = tr.lang.split("_")[0] == "es"

        def you(m: re.Match[str]) -> bool:
            seat = int(m.group(1))
            return 1 <= seat <= players and self.is_you(seat)

        if spanish:
            text = re.sub(r"\bcon\s+p(\d{1,2})\b", lambda m: "contigo" if you(m) else m.group(0), text)

        def name(m: re.Match[str]) -> str:
            seat = int(m.group(1))
            if not 1 <= seat <= players:
                return m.group(0)
            if english:
                who = self.name(seat)
                if m.group(2):
                    return "your" if who == YOU else f"{who}'s"
                return "you" if who == YOU else who
            if spanish and self.is_you(seat):
                before = m.string[:m.start()]
                if _ES_PREPOSITION.search(before):
                    return "ti"
                return "Tú" if _SENTENCE_START.search(before) else "tú"
            return tr.render(self.person(seat)) + (m.group(2) or "")

        return _SEAT.sub(name, text)

    def _gave(self, seat: int, to: int, card: Msg | None) -> Msg:
        """``seat`` gave a card (``card``: which, for his eyes only) to ``to`` (R8.2)."""
        if card is None:
            if self.is_you(to):
                return Msg("{who} gave a card to you", who=self.person(seat))
            return self._by(seat, N_("{who} gave a card to {to}"), N_("You gave a card to {to}"), to=self.person(to))
        if self.is_you(to):
            return Msg("{who} gave {card} to you", who=self.person(seat), card=card)
        return self._by(seat, N_("{who} gave {card} to {to}"), N_("You gave {card} to {to}"), card=card,
                        to=self.person(to))

    def describe_mexicano(self, event: MexicanoEvent) -> str | Msg:
        """A conquián mexicano event in words, with names (R8)."""
        seat = event.seat
        if event.kind == "give":
            return self._gave(seat, self._next_of(seat), None if event.card is None else self.card_msg(event.card))
        if event.kind == "win":
            down = self.rules.hand_size + 1
            return self._by(seat, N_("{who} is out, {n} down, and wins"), N_("You are out, {n} down, and win"), n=down)
        if event.kind == "fewest":
            return self._by(seat, N_("the pack is exhausted: {who} holds the fewest cards and wins (R8.6)"),
                            N_("the pack is exhausted: You hold the fewest cards and win (R8.6)"))
        if event.kind == "tableau":
            return Msg("the pack is exhausted: tablas, the deal is a draw (R8.6)")
        if event.kind == "exchange":
            return Msg("every player has given: each card goes to the next player (R8.2)")
        return self._describe_conquian(event)




def default_names(seats: Sequence[str]) -> list[str]:
    """Names for seats: "You" for a lone person, "Player 2" for several, "Foster", "Expert 3" for bots.

    They are the names a record keeps (language-neutral); :meth:`GameSession.person` gives the
    people's default names in a reader's language."""
    out = []
    for i, kind in enumerate(seats):
        if kind == HUMAN:
            out.append(YOU if seats.count(HUMAN) == 1 else f"Player {i + 1}")
        else:
            out.append(kind.capitalize() if seats.count(kind) == 1 else f"{kind.capitalize()} {i + 1}")
    return out


