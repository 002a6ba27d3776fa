"""Actions and their one-line notation (docs/records.md, "Actions").

An action is a small frozen value; ``str()`` gives the canonical notation and
:func:`parse_action` reads it back (also the relaxed input forms: any case,
``10``, suit symbols, cards and combinations in any order).

```pycon
>>> a = parse_action("P2 USE 8h 6h 7h | 5h 5d 5c")
>>> str(a)
'p2 use 5c 5d 5h | 6h 7h 8h'
>>> parse_action(str(a)) == a
True
>>> str(parse_action("p1 force 10♠"))
'p1 force Ts'
>>> str(parse_action("P2 FORCE 9s P3")), str(parse_action("p1 give 7c"))
('p2 force 9s p3', 'p1 give 7c')

```
"""

from __future__ import annotations

from dataclasses import dataclass

from conquian.engine.cards import (
    JOKER,
    card_str,
    cards_of,
    check_mask,
    is_card,
    mask_of,
    parse_card,
    parse_cards,
    sort_key,
)
from conquian.engine.errors import NotationError, quote
from conquian.i18n import Msg

#: The longest seat number and combination number read from text (no table has more than 7 seats,
#: or 99,999 combinations: a 5,000-digit number is refused before it is converted).
MAX_DIGITS = 5
#: The longest card token read in add, meld and shift (``X=10h`` with suit symbols and spaces).
MAX_TOKEN = 16


def meld_text(mask: int) -> str:
    """A combination in canonical notation: low to high, sets by suit; an ace above a king goes last."""
    cards = sorted(cards_of(mask), key=sort_key)
    ranks = {c & 15 for c in cards}
    if 1 in ranks and 13 in ranks and len(ranks) > 1:
        cards = [c for c in cards if c & 15 != 1] + [c for c in cards if c & 15 == 1]
    return " ".join(card_str(c) for c in cards)


def meld_order(mask: int) -> tuple[int, int]:
    """The order of combinations written together (``use``): by each one's lowest card, rank then suit."""
    return min(sort_key(c) for c in cards_of(mask))


@dataclass(frozen=True)
class Action:
    """Base class of actions: ``seat`` is the acting seat, numbered from 1 (``p1``)."""

    seat: int

    def check(self) -> None:
        """Raise :class:`NotationError` unless every field has the type and range of the notation.

        A deal checks every action it is given (``play``, ``verify``; ``is_legal`` answers False),
        so that no object, however it was built, reaches the rules with a float card, a negative
        mask or no cards at all.  Making an action checks nothing more than it needs.

        ```pycon
        >>> Discard(1, 7.0).check()
        Traceback (most recent call last):
        ...
        conquian.engine.errors.NotationError: discard: 7.0 is not a card number

        ```
        """
        if type(self.seat) is not int or self.seat < 1:
            raise NotationError(Msg("{value} is not a seat number (seats are 1, 2, ...: p1, p2, ...)",
                                    value=quote(self.seat)))

    @property
    def verb(self) -> str:
        """The action's verb in the notation."""
        raise NotImplementedError

    def args(self) -> str:
        """The text after the verb (empty if none)."""
        return ""

    def __str__(self) -> str:
        a = self.args()
        return f"p{self.seat} {self.verb}" + (f" {a}" if a else "")


@dataclass(frozen=True, init=False)
class Use(Action):
    """Use the card in play (R3.4): ``melds`` are the new or changed combinations."""

    melds: tuple[int, ...]

    def __init__(self, seat: int, melds: tuple[int, ...] | list[int]) -> None:
        object.__setattr__(self, "seat", seat)
        if not isinstance(melds, tuple | list):
            raise NotationError(Msg("{verb}: {value} is not a list of combinations (card masks)", verb="use",
                                    value=quote(melds)))
        object.__setattr__(self, "melds", tuple(melds))
        self.check()  # the combinations are sorted below: a negative mask would never end
        object.__setattr__(self, "melds", tuple(sorted(melds, key=meld_order)))

    def check(self) -> None:
        super().check()
        if not isinstance(self.melds, tuple) or not self.melds:
            raise NotationError(Msg("{verb} needs at least one combination (R3.4)", verb="use"))
        for m in self.melds:
            check_mask(m)
            if m == 0 or m >> JOKER & 1 or any(not is_card(c) for c in cards_of(m)):
                raise NotationError(Msg("{verb}: {value} is not a combination of cards", verb="use", value=quote(m)))

    @property
    def verb(self) -> str:
        return "use"

    def args(self) -> str:
        return " | ".join(meld_text(m) for m in self.melds)

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


@dataclass(frozen=True)
class Pass(Action):
    """Pass the card in play (R3.3)."""

    @property
    def verb(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


@dataclass(frozen=True)
class Force(Action):
    """Force a card on the adversary (R3.6): the card in play, or a discard from the hand.

    ``target`` is the seat forced (R8.4: with more than two players a force names it,
    ``p2 force 9s p3``); ``None`` means the adversary of a two-hand game.
    """

    card: int
    target: int | None = None

    def check(self) -> None:
        super().check()
        _check_card(self.card, "force")
        if self.target is not None and (type(self.target) is not int or self.target < 1):
            raise NotationError(Msg("{verb}: {value} is not a seat number (seats are 1, 2, ...)", verb="force",
                                    value=quote(self.target)))

    @property
    def verb(self) -> str:
        return "force"

    def args(self) -> str:
        return card_str(self.card) + ("" if self.target is None else f" p{self.target}")

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


@dataclass(frozen=True)
class Discard(Action):
    """Discard a hand card face up (R3.5)."""

    card: int

    def check(self) -> None:
        super().check()
        _check_card(self.card, "discard")

    @property
    def verb(self) -> str:
        return "discard"

    def args(self) -> str:
        return card_str(self.card)

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


@dataclass(frozen=True)
class Give(Action):
    """Conquián mexicano: the card a seat gives the next player in the exchange (R8.2)."""

    card: int

    def check(self) -> None:
        super().check()
        _check_card(self.card, "give")

    @property
    def verb(self) -> str:
        return "give"

    def args(self) -> str:
        return card_str(self.card)

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


@dataclass(frozen=True)
class Draw(Action):
    """Cooncan: draw the top card of the pack (R4.3)."""

    @property
    def verb(self) -> str:
        return "draw"

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


@dataclass(frozen=True)
class Take(Action):
    """Cooncan: take a card from the stock (R4.2); ``card`` None means the top of a closed stock."""

    card: int | None = None

    def check(self) -> None:
        super().check()
        if self.card is not None:
            _check_card(self.card, "take")

    @property
    def verb(self) -> str:
        return "take"

    def args(self) -> str:
        return "" if self.card is None else card_str(self.card)

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


@dataclass(frozen=True)
class Meld(Action):
    """Cooncan: lay out one new combination (R4.3); ``cards`` as written (``X`` or ``X=9h`` for jokers)."""

    cards: tuple[str, ...]

    def check(self) -> None:
        super().check()
        _check_tokens(self, "meld")

    @property
    def verb(self) -> str:
        return "meld"

    def args(self) -> str:
        return " ".join(self.cards)

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


@dataclass(frozen=True)
class Add(Action):
    """Cooncan: add hand cards to combination number ``combo`` (numbered from 1, R4.4)."""

    combo: int
    cards: tuple[str, ...]

    def check(self) -> None:
        super().check()
        _check_combo(self.combo, "add")
        _check_tokens(self, "add")

    @property
    def verb(self) -> str:
        return "add"

    def args(self) -> str:
        return f"{self.combo} " + " ".join(self.cards)

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


@dataclass(frozen=True)
class Shift(Action):
    """Cooncan: move the joker of a sequence to its other end and add cards (R2.3)."""

    combo: int
    which: str | None
    cards: tuple[str, ...]

    def check(self) -> None:
        super().check()
        _check_combo(self.combo, "shift")
        if self.which not in (None, "low", "high"):
            raise NotationError(Msg("{verb}: the joker that moves is 'low', 'high' or None, not {value}",
                                    verb="shift", value=quote(self.which)))
        _check_tokens(self, "shift")

    @property
    def verb(self) -> str:
        return "shift"

    def args(self) -> str:
        which = f"{self.which} " if self.which else ""
        return f"{self.combo} {which}" + " ".join(self.cards)

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


def _check_card(card: object, verb: str) -> None:
    if not is_card(card):
        raise NotationError(Msg("{verb}: {value} is not a card number", verb=verb, value=quote(card)))


def _check_combo(number: object, verb: str) -> None:
    if type(number) is not int or number < 1:
        raise NotationError(Msg("{verb}: {value} is not a combination number (1, 2, ...)", verb=verb,
                                value=quote(number)))


def _check_tokens(action: Meld | Add | Shift, verb: str) -> None:
    """The cards of a meld, add or shift: a non-empty tuple of short strings."""
    cards = action.cards
    if not isinstance(cards, tuple | list) or not cards:
        raise NotationError(Msg("{verb} needs at least one card (R2.2, R4.3)", verb=verb))
    for t in cards:
        if not isinstance(t, str) or not t or len(t) > MAX_TOKEN:
            raise NotationError(Msg("{verb}: {value} is not a card as written (7h, X, X=9h)", verb=verb,
                                    value=quote(t)))


def _number(text: str) -> int | None:
    """A whole number written in ASCII digits (``²`` and 5,000-digit numbers are not), else None."""
    if text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS:
        return int(text)
    return None


def _card_tokens(text: str, what: str) -> tuple[str, ...]:
    """Normalise cards as written, keeping joker names: ``x=10h`` -> ``X=Th``."""
    out = []
    for tok in text.split():
        if "=" in tok:
            left, _, right = tok.partition("=")
            if parse_card(left) != JOKER:
                raise NotationError(Msg("{value}: only the joker X is named (X=9h)", value=quote(tok)))
            name = parse_card(right)
            if name == JOKER:
                raise NotationError(Msg("{value}: a joker is named as a natural card", value=quote(tok)))
            out.append(f"X={card_str(name)}")
        else:
            out.append(card_str(parse_card(tok)))
    if not out:
        raise NotationError(Msg("{verb} needs at least one card", verb=what))
    return tuple(out)


def parse_seat(text: str) -> int:
    """Parse a seat ``p1``, ``p2``, ... into its number."""
    t = text.strip().lower()
    if len(t) >= 2 and t[0] == "p":
        n = _number(t[1:])
        if n is not None and n >= 1:
            return n
    raise NotationError(Msg("{value} is not a seat (seats are p1, p2, ...)", value=quote(text.strip())))


def parse_action(text: str) -> Action:
    """Parse one action line (docs/records.md).  Raises :class:`NotationError` if it cannot."""
    if not isinstance(text, str):
        raise NotationError(Msg("{value} is not an action: actions are written as text", value=quote(text)))
    words = text.split(None, 2)
    if len(words) < 2:
        raise NotationError(Msg("{value} is not an action: expected a seat, a verb and arguments", value=quote(text)))
    seat = parse_seat(words[0])
    verb = words[1].lower()
    rest = words[2] if len(words) > 2 else ""
    if verb == "pass":
        if rest.strip():
            raise NotationError(Msg("{value}: {verb} takes no arguments", value=quote(text), verb="pass"))
        return Pass(seat)
    if verb in ("force", "discard", "give"):
        target = None
        toks = rest.split()
        if verb == "force" and len(toks) > 1 and toks[-1][:1] in "pP":
            # R8.4: the seat forced, last (no card is written with a p)
            target = parse_seat(toks[-1])
            rest = " ".join(toks[:-1])
        cards = parse_cards(rest)
        if len(cards) != 1:
            raise NotationError(Msg("{value}: {verb} takes exactly one card", value=quote(text), verb=verb))
        if verb == "force":
            return Force(seat, cards[0], target)
        return Discard(seat, cards[0]) if verb == "discard" else Give(seat, cards[0])
    if verb == "use":
        melds = []
        for part in rest.split("|"):
            cards = parse_cards(part)
            if not cards:
                raise NotationError(Msg("{value}: an empty combination in {verb}", value=quote(text), verb="use"))
            m = mask_of(cards)
            if m.bit_count() != len(cards):
                raise NotationError(Msg("{value}: a card is written twice in one combination", value=quote(text)))
            melds.append(m)
        return Use(seat, melds)
    if verb == "draw":
        if rest.strip():
            raise NotationError(Msg("{value}: {verb} takes no arguments", value=quote(text), verb="draw"))
        return Draw(seat)
    if verb == "take":
        cards = parse_cards(rest)
        if len(cards) > 1:
            raise NotationError(Msg("{value}: {verb} names at most one card", value=quote(text), verb="take"))
        return Take(seat, cards[0] if cards else None)
    if verb == "meld":
        return Meld(seat, _card_tokens(rest, "meld"))
    if verb in ("add", "shift"):
        parts = rest.split(None, 1)
        number = _number(parts[0]) if parts else None
        if number is None or number < 1:
            raise NotationError(Msg("{value}: {verb} needs a combination number (1, 2, ...) and cards",
                                    value=quote(text), verb=verb))
        tail = parts[1] if len(parts) > 1 else ""
        if verb == "add":
            return Add(seat, number, _card_tokens(tail, "add"))
        which = None
        first = tail.split(None, 1)
        if first and first[0].lower() in ("low", "high"):
            which = first[0].lower()
            tail = first[1] if len(first) > 1 else ""
        return Shift(seat, number, which, _card_tokens(tail, "shift"))
    raise NotationError(Msg(
        "{value}: unknown verb {verb} (conquian: use, pass, force, discard, give; "
        "cooncan: draw, take, meld, add, shift, discard)", value=quote(text), verb=quote(words[1], 20)
    ))


__all__ = [
    "Action",
    "Discard",
    "Force",
    "Give",
    "Pass",
    "Use",
    "meld_text",
    "parse_action",
    "parse_card",
    "parse_seat",
]
