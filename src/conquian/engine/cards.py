"""Cards and card sets (R2.1).

A card is a small int: ``suit * 16 + rank`` with ranks ``A=1 .. K=13`` and suits
``c d h s`` numbered 0-3, so every single pack fits one int bitmask and a
sequence is a run of adjacent bits.  Users see :class:`CardSet`, a set API
over such a mask, and the notation of R2.1 (``Th``, ``7s``, ``Ac``).

```pycon
>>> parse_card("10h") == parse_card("Th") == parse_card("t♥")
True
>>> card_str(parse_card("10h"))
'Th'
>>> CardSet.parse("7h 8h 9h")
CardSet.parse('7h 8h 9h')
>>> str(CardSet.parse("9h 7h 8h"))
'7h 8h 9h'

```
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TypeVar

from conquian.engine.errors import NotationError, quote
from conquian.i18n import ENGLISH, CMsg, Msg, Translator

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")

#: The joker's card number (R2.3).  It is outside every suit's bits.
JOKER = 63


def make_card(rank: int, suit: int) -> int:
    """Return the card number of ``rank`` (1-13) in ``suit`` (0-3)."""
    return suit * 16 + rank


def rank_of(card: int) -> int:
    """The rank of a card: 1 (ace) to 13 (king); 0 for the joker."""
    return 0 if card == JOKER else card & 15


def suit_of(card: int) -> int:
    """The suit of a card: 0-3 for ``c d h s``; -1 for the joker."""
    return -1 if card == JOKER else card >> 4


def card_str(card: int) -> str:
    """The canonical notation of one card (R2.1).

    ```pycon
    >>> card_str(make_card(10, 2))
    'Th'

    ```
    """
    if card == JOKER:
        return "X"
    if not is_card(card):
        raise NotationError(Msg("{value} is not a card number", value=quote(card)))
    rank, suit = card & 15, card >> 4
    return RANK_CHARS[rank - 1] + SUIT_CHARS[suit]


def card_name(card: int) -> str:
    """A card in words, for logs and messages: ``the 7 of hearts``."""
    if card == JOKER:
        return "the joker"
    if not is_card(card):
        raise NotationError(Msg("{value} is not a card number", value=quote(card)))
    return f"the {RANK_NAMES[(card & 15) - 1]} of {SUIT_NAMES[card >> 4]}"


_SYMBOL_TO_SUIT = {sym: SUIT_CHARS[i] for i, sym in enumerate(SUIT_SYMBOLS)}


def parse_card(text: str) -> int:
    """Parse one card in the notation of R2.1 (case-insensitive, ``10`` and suit symbols accepted).

    ```pycon
    >>> card_str(parse_card("10♠"))
    'Ts'
    >>> parse_card("Zz")
    Traceback (most recent call last):
    ...
    conquian.engine.errors.NotationError: 'Zz' is not a card (R2.1: rank A 2-9 T J Q K, suit c d h s, or X)

    ```
    """
    if not isinstance(text, str):
        raise NotationError(Msg("{value} is not a card: cards are written as text (R2.1)", value=quote(text)))
    raw = text.strip()
    if len(raw) > 4:  # the longest card is a suit symbol and "10"
        raise NotationError(_not_a_card(raw))
    t = "".join(_SYMBOL_TO_SUIT.get(ch, ch) for ch in raw).upper()
    if t == "X":
        return JOKER
    if len(t) >= 2 and t[0] in "CDHS":
        # a suit written first, as with symbols ("♦7"): no suit letter is also a rank
        t = t[1:] + t[0]
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) == 2 and t[0] in RANK_CHARS and t[1].lower() in SUIT_CHARS:
        return make_card(RANK_CHARS.index(t[0]) + 1, SUIT_CHARS.index(t[1].lower()))
    raise NotationError(_not_a_card(raw))


def _not_a_card(raw: str) -> Msg:
    return Msg("{value} is not a card (R2.1: rank A 2-9 T J Q K, suit c d h s, or X)", value=quote(raw))


def parse_cards(text: str) -> list[int]:
    """Parse a space-separated list of cards, keeping order and repeats."""
    return [parse_card(tok) for tok in text.split()]


def bit(card: int) -> int:
    """The one-bit mask of a card."""
    return 1 << card


def mask_of(cards: Iterable[int]) -> int:
    """The bitmask of some cards (repeats collapse)."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


#: Every bit a card mask may hold: 64 card numbers (suits of 16, and the joker at 63).
MASK_LIMIT = 1 << 64


def is_card(card: object) -> bool:
    """Whether ``card`` is a card number (an int naming a real card, or the joker), never a bool."""
    return type(card) is int and (card == JOKER or (0 <= card < 64 and 1 <= card & 15 <= 13))


def check_mask(mask: object) -> int:
    """``mask`` if it is a card mask (a non-negative int below 2**64), else :class:`NotationError`."""
    if type(mask) is not int or not 0 <= mask < MASK_LIMIT:
        raise NotationError(Msg("{value} is not a set of cards (a non-negative int below 2**64)", value=quote(mask)))
    return mask


def iter_mask(mask: int) -> Iterator[int]:
    """The card numbers of a mask, lowest first."""
    if mask < 0:
        check_mask(mask)
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


_T = TypeVar("_T")


def row_picks(row: int, shift: int, table: Sequence[_T]) -> tuple[_T, ...]:
    """``table``'s items at the cards of one suit's holding: ``row`` (16 bits) shifted by ``shift``,
    lowest card first (the listings' discards, made once per holding)."""
    out: list[_T] = []
    while row:
        low = row & -row
        out.append(table[low.bit_length() - 1 + shift])
        row ^= low
    return tuple(out)


def mask_picks(mask: int, table: Sequence[_T], memo: dict[int, tuple[_T, ...]]) -> list[_T]:
    """``table``'s items at the cards of ``mask``, suit by suit (lowest card first in each), each
    suit's holding looked up in ``memo`` (filled by :func:`row_picks`)."""
    out: list[_T] = []
    for shift in (0, 16, 32, 48):
        row = mask >> shift & 0xFFFF
        if row:
            key = row | shift << 16
            got = memo.get(key)
            if got is None:
                got = memo[key] = row_picks(row, shift, table)
            out += got
    return out


def cards_of(mask: int) -> list[int]:
    """The card numbers of a mask as a list, lowest first (a negative int is refused: it has no end)."""
    if mask < 0:
        check_mask(mask)
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def sort_key(card: int) -> tuple[int, int]:
    """Canonical order for writing cards: by rank, then suit ``c d h s``."""
    return (card & 15, card >> 4)


def mask_str(mask: int) -> str:
    """Canonical text of a set of cards: rank order, then suit order."""
    return " ".join(card_str(c) for c in sorted(cards_of(mask), key=sort_key))


class CardSet:
    """An immutable set of cards over an int bitmask (like python-chess's ``SquareSet``).

    ```pycon
    >>> s = CardSet.parse("Ac 2c 3c")
    >>> parse_card("2c") in s, len(s)
    (True, 3)
    >>> str(s | CardSet.parse("Kd"))
    'Ac 2c 3c Kd'
    >>> [card_str(c) for c in s]
    ['Ac', '2c', '3c']

    ```
    """

    __slots__ = ("mask",)

    def __init__(self, mask: int | Iterable[int] = 0) -> None:
        if isinstance(mask, int):
            self.mask: int = check_mask(mask)
        else:
            cards = list(mask)
            for c in cards:
                if not is_card(c):
                    raise NotationError(Msg("{value} is not a card number", value=quote(c)))
            self.mask = mask_of(cards)

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Parse a space-separated list of cards (R2.1)."""
        return cls(mask_of(parse_cards(text)))

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 64 and bool(self.mask >> card & 1)

    def __iter__(self) -> Iterator[int]:
        return iter(sorted(cards_of(self.mask), key=sort_key))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __xor__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask ^ other.mask)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

    def __str__(self) -> str:
        return mask_str(self.mask)

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"


def card_symbol(card: int) -> str:
    """One card as a person reads it with its suit's symbol: ``10♦``, ``A♣``, ``X`` for the joker."""
    if card == JOKER:
        return "X"
    s = card_str(card)
    return ("10" if s[0] == "T" else s[0]) + SUIT_SYMBOLS[SUIT_CHARS.index(s[1])]


#: The article of a card in a sentence, one context per kind of card: a translator gives each its
#: gender ("la J♠" for the jota, "el K♠" for the rey; the Spanish pack's "la sota", "el caballo").
_ARTICLE_CONTEXTS = {"A": "card: ace", "J": "card: jack", "Q": "card: queen", "K": "card: king"}
_SPANISH_ARTICLE_CONTEXTS = {"A": "Spanish pack card: as", "J": "Spanish pack card: sota",
                             "Q": "Spanish pack card: caballo", "K": "Spanish pack card: rey"}
# the contexts, for the catalogues (each is a msgctxt of "the {card}")
_CONTEXTS = (CMsg("card: ace", "the {card}"), CMsg("card: jack", "the {card}"), CMsg("card: queen", "the {card}"),
             CMsg("card: king", "the {card}"), CMsg("card: number", "the {card}"), CMsg("card: joker", "the {card}"),
             CMsg("Spanish pack card: as", "the {card}"), CMsg("Spanish pack card: sota", "the {card}"),
             CMsg("Spanish pack card: caballo", "the {card}"), CMsg("Spanish pack card: rey", "the {card}"),
             CMsg("Spanish pack card: number", "the {card}"))


#: R8.1: the Spanish pack's suits and courts as a card shows them (``7 Co``, ``Sota Or``), by the
#: notation's letters: the marks of that pack on the screen, in every language.
SPANISH_SUITS_SHORT = {"d": "Or", "h": "Co", "s": "Es", "c": "Ba"}
SPANISH_RANKS_SHORT = {"A": "As", "J": "Sota", "Q": "Cab", "K": "Rey"}


def spanish_card(card: int) -> str:
    """A card of the Spanish pack as a card shows it: ``7 Co``, ``Rey Es``, ``As Or`` (R8.1)."""
    s = card_str(card)
    return f"{SPANISH_RANKS_SHORT.get(s[0], s[0])} {SPANISH_SUITS_SHORT[s[1]]}"


class TheCard(CMsg):
    """A card of the Spanish pack in a sentence, with its article, named by the pack the reader's
    screen shows (:attr:`~conquian.i18n.Translator.spanish_suits`): "la Sota Or" with the Spanish
    suits, "la J♦" with the French ones."""

    __slots__ = ("card",)

    def __init__(self, card: int) -> None:
        rank = card_str(card)[0]
        super().__init__(_ARTICLE_CONTEXTS.get(rank, "card: number"), "the {card}", card=card_symbol(card))
        self.card = card

    def render(self, tr: Translator | None = None) -> str:
        """The card with its article, in ``tr``'s language and pack."""
        tr = tr or ENGLISH
        if not tr.spanish_suits:
            return super().render(tr)
        context = _SPANISH_ARTICLE_CONTEXTS.get(card_str(self.card)[0], "Spanish pack card: number")
        return CMsg(context, "the {card}", card=spanish_card(self.card)).render(tr)


def the_card(card: int, spanish: bool = False, shown: str | Msg | None = None) -> Msg:
    """A card in a sentence with its article, in the reader's language: "the J♠", Spanish "la J♠",
    "el K♠"; ``spanish``: a card of the Spanish pack (R8.1: "la sota", "el caballo"), named as the
    reader's screen shows that pack (:class:`TheCard`) unless ``shown`` says how the card is
    written (its symbol by default).

    ```pycon
    >>> from conquian.engine.cards import parse_card
    >>> from conquian.i18n import translator
    >>> es = translator("es")
    >>> str(the_card(parse_card("Js"))), es.render(the_card(parse_card("Js"))), es.render(the_card(parse_card("Ks")))
    ('the J♠', 'la J♠', 'el K♠')
    >>> es.render(the_card(parse_card("Qs"), spanish=True, shown="caballo de espadas"))
    'el caballo de espadas'
    >>> es.render(the_card(parse_card("Qs"), spanish=True)), es.shown(True).render(the_card(parse_card("Qs"), True))
    ('la Q♠', 'el Cab Es')

    ```
    """
    if card == JOKER:
        return CMsg("card: joker", "the {card}", card=card_symbol(card) if shown is None else shown)
    if spanish and shown is None:
        return TheCard(card)
    face = card_symbol(card) if shown is None else shown
    rank = card_str(card)[0]
    if spanish:
        return CMsg(_SPANISH_ARTICLE_CONTEXTS.get(rank, "Spanish pack card: number"), "the {card}", card=face)
    return CMsg(_ARTICLE_CONTEXTS.get(rank, "card: number"), "the {card}", card=face)
