"""Moves and cards as a person reads them: an order a player thinks in, and ten written ``10``.

The notation (docs/records.md) writes ten as ``T`` and lists moves in text order; records keep
doing so.  What a person reads at a table is ordered and written for him here, with no user
interface attached: the terminal game uses it, and any other front end may.

```pycon
>>> from conquian.engine.actions import parse_action
>>> moves = [parse_action(f"p1 discard {c}") for c in "3c 4c 6c 8d Ac Jh Tc".split()]
>>> [move_words(a) for a in order_moves(moves)]
['discard Ac', 'discard 3c', 'discard 4c', 'discard 6c', 'discard 8d', 'discard 10c', 'discard Jh']
>>> for_people("use 8h 9h Th | X=Tc Jc Qc")
'use 8h 9h 10h | X=10c Jc Qc'

```

The Spanish pack (``conquian-spanish``, ``conquian-mexicano``) may be shown with its own suits
(R8.1: oros are diamonds, copas hearts, espadas spades, bastos clubs) and its sota, caballo and
rey: in words "7 de copas", on a card "7 Co"; the notation and records stay R2.1's.  A card is
named by the pack the reader's screen shows (:attr:`~conquian.i18n.Translator.spanish_suits`):
beside the French suits Spanish says corazones, diamantes, tréboles and **picas** (as Mexican
players name the ♠, so that "espadas" is only ever the Spanish pack's suit) with jota, reina and
rey; this module is the one source of these words for the terminal and the web page
(:func:`pack_words`).

```pycon
>>> spanish_text("Bea passed the jack of diamonds; Ann used the 7 of hearts: 5h 6h 7h | Ac As Ad")
'Bea passed sota de oros; Ann used 7 de copas: 5 Co, 6 Co, 7 Co | As Ba, As Es, As Or'
>>> from conquian.engine.cards import parse_card
>>> spanish_card(parse_card("Ks")), spanish_card_words(parse_card("Qc"))
('Rey Es', 'caballo de bastos')

```
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from conquian.engine.actions import Action, Add, Discard, Draw, Force, Give, Meld, Pass, Shift, Take, Use, meld_text
from conquian.engine.cards import (
    JOKER,
    RANK_CHARS,
    RANK_NAMES,
    SPANISH_RANKS_SHORT,
    SPANISH_SUITS_SHORT,
    SUIT_CHARS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    card_str,
    card_symbol,
    spanish_card,
    the_card,
)
from conquian.engine.rules import PRESETS, Rules
from conquian.i18n import ENGLISH, N_, SOURCE_LANGUAGE, Msg, Translator, active

# the games' and bots' names for people live in their own module; read here as ever
from conquian.names import BOT_NAMES, GAME_NAMES, GAMES, bot_name, game_name, games

# a ten in the notation: "Th", also after "X=" (a named joker), never inside a word ("The")
_TEN = re.compile(r"(?<![A-Za-z0-9])T(?=[cdhs](?![A-Za-z0-9]))")
_CARD = re.compile(r"^(?:X=)?([A-Z0-9]|10)([cdhs])$")

#: What a player weighs first: the say (pass or force the card in play) or the draw, then the
#: combinations, then the discard that ends the turn.
_CHOICE, _COMBINATION, _DISCARD = 0, 1, 2
_VERBS = ("give", "pass", "force", "draw", "take", "use", "meld", "add", "shift", "discard")

#: R8.1: the Spanish suits by the notation's suit letter, in words and on a card.
SPANISH_SUITS = {"d": "oros", "h": "copas", "s": "espadas", "c": "bastos"}
#: The Spanish pack's ace and courts (R2.1: written A, J, Q, K), in words and on a card.
SPANISH_RANKS = {"A": "as", "J": "sota", "Q": "caballo", "K": "rey"}
_CARD_TOKEN = re.compile(r"^([(\[]?)([A2-7JQK])([cdhs♣♦♥♠])([,;:.)\]]*)$")
_CARD_WORDS = re.compile(r"\bthe (ace|[2-7]|jack|queen|king) of (clubs|diamonds|hearts|spades)\b")


def for_people(text: str) -> str:
    """Text in the notation with every ten written ``10`` (``Th`` -> ``10h``, ``X=Tc`` -> ``X=10c``)."""
    return _TEN.sub("10", text)


def card_for_people(card: int) -> str:
    """One card as a person reads it: ``10h``, ``Ac``, ``X`` for the joker."""
    return "X" if card == JOKER else for_people(card_str(card))


def cards_for_people(cards: Iterable[int]) -> str:
    """Cards as a person reads them, separated by spaces."""
    return " ".join(card_for_people(c) for c in cards)


#: A card in the notation inside a text for people: ``7c``, ``Th``, ``10h``, ``X=9h`` (never a
#: word of a sentence: "As de oros", "Ks." of a name stays as it is).
_NOTATION_CARD = re.compile(r"(?<![\w=♣♦♥♠])(?:(X)=)?(10|[2-9TAJQK])([cdhs])(?![\w♣♦♥♠])(?! de )")
_SYMBOL_OF = dict(zip(SUIT_CHARS, SUIT_SYMBOLS, strict=True))
_SUIT_OF = dict(zip(SUIT_SYMBOLS, SUIT_CHARS, strict=True))


def symbols(text: str) -> str:
    """Every card written in the notation in a text for people shown with its suit's symbol, ten
    written ``10``: ``use 8h 9h Th | X=Tc Jc Qc`` -> ``use 8♥ 9♥ 10♥ | X=10♣ J♣ Q♣``.

    ```pycon
    >>> symbols("p1 discard Tc; As de oros; 2c 2h: 2 live (2d 2s)")
    'p1 discard 10♣; As de oros; 2♣ 2♥: 2 live (2♦ 2♠)'

    ```
    """
    return _NOTATION_CARD.sub(
        lambda m: (f"{m.group(1)}=" if m.group(1) else "") + ("10" if m.group(2) in ("T", "10") else m.group(2))
        + _SYMBOL_OF[m.group(3)], text)


def cards_named(text: str, spanish_suits: bool = False) -> str:
    """Every card written in the notation in a text for people named as the page names a card:
    with its suit's symbol (:func:`symbols`), or, beside the Spanish pack's own suits
    (``spanish_suits``, R8.1), in that pack's words (``7 de copas``); a named joker keeps its symbol.

    ```pycon
    >>> cards_named("Ana does not hold 8c Th"), cards_named("7h Jd X=5c: no combination", spanish_suits=True)
    ('Ana does not hold 8♣ 10♥', '7 de copas sota de oros X=5♣: no combination')

    ```
    """
    def name(m: re.Match[str]) -> str:
        if spanish_suits and not m.group(1) and m.group(2) in _SPANISH_PACK_RANKS:
            return _spanish_words(m.group(2) + m.group(3))
        return symbols(m.group(0))

    return _NOTATION_CARD.sub(name, text)


#: The ranks of the Spanish pack (R2.1) in the notation.
_SPANISH_PACK_RANKS = frozenset("A234567JQK")


def unsymbols(text: str) -> str:
    """The suits' symbols written as the notation's letters (``--ascii``): ``10♦`` -> ``10d``."""
    return "".join(_SUIT_OF.get(ch, ch) for ch in text)


def move_words(action: Action) -> str:
    """A move as a person reads it: the notation without the seat label, ten written ``10``."""
    text = str(action)
    return for_people(text.split(" ", 1)[1] if " " in text else text)


def _token_key(token: str) -> tuple[int, int]:
    """(rank, suit) of a card token for ordering: the ace low, the king high, a bare joker last."""
    m = _CARD.match(token.replace("10", "T"))
    if m is None:
        return (14, 4)
    return (RANK_CHARS.index(m.group(1)) + 1, SUIT_CHARS.index(m.group(2)))


def named_cards(action: Action) -> list[str]:
    """The cards an action names, in notation, a joker with the card it stands for (``X=9h``)."""
    if isinstance(action, Use):
        return [t for m in action.melds for t in meld_text(m).split()]
    if isinstance(action, Force | Discard | Give):
        return [card_str(action.card)]
    if isinstance(action, Take):
        return [card_str(action.card)] if action.card is not None else []
    if isinstance(action, Meld | Add | Shift):
        return list(action.cards)
    return []


def move_key(action: Action, phase: str | None = None) -> tuple[int, int, int, tuple[tuple[int, int], ...], int]:
    """The place of a move in a player's order: its kind (a say or a draw; a combination; a
    discard), its verb, how many cards it lays, then the ranks in the game's order (ace low;
    the Spanish pack's 7 and J come one after the other, as its ranks are numbered).

    ``phase`` is the deal's phase: a ``force`` in the discard step (``"discard"``) is a discard,
    otherwise it is a choice of the say.
    """
    verb = action.verb
    if isinstance(action, Pass | Draw | Take) or (isinstance(action, Force) and phase != "discard"):
        group = _CHOICE
    elif isinstance(action, Discard | Force):
        group = _DISCARD
    else:
        group = _COMBINATION
    cards = named_cards(action)
    ranks = tuple(sorted(_token_key(t) for t in cards))
    combo = getattr(action, "combo", 0)
    order = _VERBS.index(verb) if verb in _VERBS else len(_VERBS) + 1
    if group == _DISCARD and isinstance(action, Force):
        order = len(_VERBS)  # discarding by forcing comes after the plain discards
    return (group, order, len(cards), ranks, combo)


def order_moves(actions: Sequence[Action], phase: str | None = None) -> list[Action]:
    """Moves in the order a player thinks of them (:func:`move_key`); the sort is stable."""
    return sorted(actions, key=lambda a: move_key(a, phase))


def move_phrase(action: Action, to: str | Msg | None = None, tr: Translator | None = None) -> str:
    """A move as a person reads it, naming the player it goes to (``to``) where it goes to one:
    ``give 7♣ to Bea`` (R8.2), ``force 5♥ on Bea`` (R3.6, R8.4); any other move as :func:`move_words`.
    In ``tr``'s language (the program's by default): :func:`move_msg`.

    ```pycon
    >>> from conquian.engine.actions import parse_action
    >>> move_phrase(parse_action("p1 force 5h p2"), "Bea"), move_phrase(parse_action("p1 give 7c"), "Bea")
    ('force 5♥ on Bea', 'give 7♣ to Bea')

    ```
    """
    return (tr or active()).render(move_msg(action, to))


class Joined(Msg):
    """Texts side by side, each rendered in the reader's language: ``", ".join`` of messages
    (every seat's points: "Ann +2, Bob -2")."""

    __slots__ = ("parts", "sep")

    def __init__(self, parts: Sequence[str | Msg], sep: str = ", ") -> None:
        super().__init__("", parts=tuple(parts), sep=sep)
        self.parts = tuple(parts)
        self.sep = sep

    def render(self, tr: Translator | None = None) -> str:
        """The parts in ``tr``'s language (English by default), joined."""
        tr = tr or ENGLISH
        return self.sep.join(tr.render(p) for p in self.parts)


def combination_words(mask: int, spanish: bool = False) -> str | Msg:
    """A combination as a person reads it: a sequence of four or more from its ends (``2♣-6♣``), any
    other its cards (``8♥ 9♥ 10♥``, ``7♦ 7♥ 7♠``); ``spanish``: cards of the Spanish pack, drawn as
    the reader's screen draws that pack (:class:`ShownCards`)."""
    cards = symbols(meld_text(mask)).split()
    short = f"{cards[0]}-{cards[-1]}" if len(cards) >= 4 and len({c[-1] for c in cards}) == 1 else " ".join(cards)
    return ShownCards(meld_text(mask), True, short) if spanish else short


def going_out_msg(action: Use, spanish: bool = False) -> Msg:
    """A use that lays the whole hand (R3.7, R8.5), in words: "go out: lay 8♥ 9♥ 10♥, 2♣-6♣ and
    7♦ 7♥ 7♠" (``spanish``: :func:`combination_words`).

    ```pycon
    >>> from conquian.engine.actions import parse_action
    >>> from conquian.i18n import translator
    >>> m = going_out_msg(parse_action("p2 use 8h 9h Th | 2c 3c 4c 5c 6c | 7d 7h 7s"))
    >>> str(m), translator("es").render(m)
    ('go out: lay 2♣-6♣, 7♦ 7♥ 7♠ and 8♥ 9♥ 10♥', 'salir: bajar 2♣-6♣, 7♦ 7♥ 7♠ y 8♥ 9♥ 10♥')

    ```
    """
    parts = [combination_words(m, spanish) for m in action.melds]
    if len(parts) == 1:
        return Msg("go out: lay {combination}", combination=parts[0])
    return Msg("go out: lay {combinations} and {last}", combinations=Joined(parts[:-1]), last=parts[-1])


def move_msg(action: Action, to: str | Msg | None = None, spanish: bool = False) -> Msg:
    """A move in words for a button or a list, in the reader's language when rendered: English reads
    it as :func:`move_phrase` does (``give 7c to Bea``), Spanish as a Mexican player says it
    (``dar 7♣ a Bea``, ``pagar 10♥``, ``agregar 5♥ a la combinación 2``); the cards with their suits'
    symbols (:func:`symbols`), ten written ``10``; ``spanish``: cards of the Spanish pack, drawn as
    the reader's screen draws that pack (:class:`ShownCards`: ``pagar 7 Ba`` beside its suits).

    ```pycon
    >>> from conquian.engine.actions import parse_action
    >>> from conquian.i18n import translator
    >>> m = move_msg(parse_action("p1 force 5h p2"), "Bea")
    >>> str(m), translator("es").render(m)
    ('force 5♥ on Bea', 'forzar 5♥ a Bea')
    >>> translator("es").render(move_msg(parse_action("p2 add 2 Th")))
    'agregar 10♥ a la combinación 2'

    ```
    """
    def shown(text: str) -> str | Msg:
        return ShownCards(text, True) if spanish else symbols(text)

    if isinstance(action, Give):
        card = shown(card_str(action.card))
        return Msg("give {card} to {to}", card=card, to=to) if to is not None else Msg("give {card}", card=card)
    if isinstance(action, Force):
        card = shown(card_str(action.card))
        if to is not None:
            return Msg("force {card} on {to}", card=card, to=to)
        if action.target is not None:
            # no name known (a lesson, a puzzle's list): the seat as people call it, never its code
            return Msg("force {card} on {to}", card=card, to=Msg("Player {n}", n=action.target))
        return Msg("force {card}", card=card)
    if isinstance(action, Pass):
        return Msg("pass")
    if isinstance(action, Draw):
        return Msg("draw")
    if isinstance(action, Take):
        return Msg("take {card}", card=shown(card_str(action.card))) if action.card is not None else Msg("take")
    if isinstance(action, Discard):
        return Msg("discard {card}", card=shown(card_str(action.card)))
    if isinstance(action, Use):
        return Msg("use {cards}", cards=shown(action.args()))
    if isinstance(action, Meld):
        return Msg("meld {cards}", cards=shown(action.args()))
    if isinstance(action, Add):
        return Msg("add {combo} {cards}", combo=action.combo, cards=shown(" ".join(action.cards)))
    if isinstance(action, Shift):
        cards = shown(" ".join(action.cards))
        if action.which == "low":
            return Msg("shift {combo} low {cards}", combo=action.combo, cards=cards)
        if action.which == "high":
            return Msg("shift {combo} high {cards}", combo=action.combo, cards=cards)
        return Msg("shift {combo} {cards}", combo=action.combo, cards=cards)
    return Msg("{move}", move=symbols(move_words(action)))


# ---------------------------------------------------------------------- cards in words
#: A card in words, one message per rank so that each language puts its own article
#: ("the jack of spades": "la jota de picas", "the 7 of hearts": "el 7 de corazones").
_RANK_MSGIDS = {
    "ace": N_("the ace of {suit}"), "jack": N_("the jack of {suit}"), "queen": N_("the queen of {suit}"),
    "king": N_("the king of {suit}"),
}
_NUMBER_MSGID = N_("the {rank} of {suit}")
_SUIT_MSGIDS = (N_("clubs"), N_("diamonds"), N_("hearts"), N_("spades"))
#: The Spanish pack's names (R8.1), by the notation's letters: a language with its own words for
#: them reads these; English keeps the French pack's words ("the jack of diamonds").
_SPANISH_PACK_MSGIDS = {"J": N_("the sota of {suit}"), "Q": N_("the caballo of {suit}")}
_SPANISH_SUIT_MSGIDS = {"c": N_("bastos"), "d": N_("oros"), "h": N_("copas"), "s": N_("espadas")}


class CardWords(Msg):
    """A card in words, named by the pack the reader's screen shows
    (:attr:`~conquian.i18n.Translator.spanish_suits`): a card of the Spanish pack (``spanish``)
    reads "la sota de oros" (English: "sota de oros") where that pack's suits are shown, and every
    other card, or the same one beside French suits, "la jota de diamantes" / "the jack of diamonds"."""

    __slots__ = ("card", "spanish")

    def __init__(self, card: int, spanish: bool) -> None:
        super().__init__("{card}", card=card, spanish=spanish)
        self.card = card
        self.spanish = spanish

    def render(self, tr: Translator | None = None) -> str:
        """The card's words in ``tr``'s language and pack."""
        tr = tr or ENGLISH
        if self.spanish and tr.spanish_suits and tr.lang == SOURCE_LANGUAGE:
            return spanish_card_words(self.card)  # English says the Spanish pack's names as they are
        return tr.render(_card_words(self.card, self.spanish and tr.spanish_suits))


def _card_words(card: int, spanish: bool) -> Msg:
    s = card_str(card)
    rank_name = RANK_NAMES[(card & 15) - 1]
    suit_name = SUIT_NAMES[card >> 4]
    suit = Msg(_SPANISH_SUIT_MSGIDS[s[1]]) if spanish else Msg(_SUIT_MSGIDS[SUIT_NAMES.index(suit_name)])
    if spanish and s[0] in _SPANISH_PACK_MSGIDS:
        return Msg(_SPANISH_PACK_MSGIDS[s[0]], suit=suit)
    if rank_name in _RANK_MSGIDS:
        return Msg(_RANK_MSGIDS[rank_name], suit=suit)
    return Msg(_NUMBER_MSGID, rank=rank_name, suit=suit)


def card_words(card: int, spanish: bool = False) -> Msg:
    """A card in words as a message ("the 7 of hearts"), rendered in the reader's language; with
    ``spanish`` (a card of the Spanish pack, R8.1) named by that pack's suits and courts where the
    reader's screen shows them (:class:`CardWords`), by the French pack's otherwise.

    Spanish names the French pack's ♠ "picas" (as Mexican players say it beside corazones,
    diamantes and tréboles), so that "espadas" always means the Spanish pack's suit.

    ```pycon
    >>> from conquian.engine.cards import parse_card
    >>> from conquian.i18n import translator
    >>> es = translator("es")
    >>> str(card_words(parse_card("Jd"), spanish=True)), es.render(card_words(parse_card("Jd"), spanish=True))
    ('the jack of diamonds', 'la jota de diamantes')
    >>> es.shown(True).render(card_words(parse_card("Jd"), True)), es.shown(True).render(card_words(parse_card("Js")))
    ('la sota de oros', 'la jota de picas')
    >>> translator("en").shown(True).render(card_words(parse_card("7h"), True))
    '7 de copas'

    ```
    """
    if card == JOKER:
        return Msg("the joker")
    return CardWords(card, spanish)


class ShownCards(Msg):
    """Cards in the notation inside a text for people (``"5h 6h 7h"``), drawn as the reader's
    screen draws them: ``5♥ 6♥ 7♥``, or with the Spanish pack's suits shown ``5 Co, 6 Co, 7 Co``
    (``spanish``: the cards are of that pack)."""

    __slots__ = ("french", "spanish", "text")

    def __init__(self, text: str, spanish: bool, french: str | None = None) -> None:
        super().__init__("{cards}", cards=text, spanish=spanish)
        self.text = text
        self.spanish = spanish
        self.french = french
        """How the French suits show them, where not :func:`symbols` of the text (``2♣-6♣``)."""

    @classmethod
    def of_pack(cls, text: str) -> ShownCards:
        """Cards of the Spanish pack (R8.1) in the notation."""
        return cls(text, True)

    def render(self, tr: Translator | None = None) -> str:
        """The cards as ``tr``'s screen shows them."""
        tr = tr or ENGLISH
        if self.spanish and tr.spanish_suits:
            return spanish_text(symbols(self.text))
        return symbols(self.text) if self.french is None else self.french


def shown_cards(text: str, spanish: bool = False) -> str | Msg:
    """:class:`ShownCards` for the cards of the Spanish pack; :func:`symbols` for any other."""
    return ShownCards(text, True) if spanish else symbols(text)


# ---------------------------------------------------------------------- the Spanish suits (R8.1)
def spanish_pack(rules: Rules) -> bool:
    """Whether ``rules`` play the Spanish pack (``conquian-spanish``, ``conquian-mexicano``, R2.1)."""
    return rules.ranks == PRESETS["conquian-spanish"].ranks and rules.jokers == 0


#: The letters on the Spanish pack's courts as the web page draws them (sota, caballo, rey).
SPANISH_FACES = {"J": "S", "Q": "C", "K": "R"}


#: The context of a card's article by its rank, beside the French suits and beside the Spanish
#: pack's own (each kind of card has its gender: "la J♠" but "el caballo de espadas"); any other
#: rank reads its ``number`` context, a joker ``joker``.
ARTICLE_CONTEXTS = {"A": "card: ace", "J": "card: jack", "Q": "card: queen", "K": "card: king",
                    "number": "card: number", "joker": "card: joker"}
SPANISH_ARTICLE_CONTEXTS = {"A": "Spanish pack card: as", "J": "Spanish pack card: sota",
                            "Q": "Spanish pack card: caballo", "K": "Spanish pack card: rey",
                            "number": "Spanish pack card: number", "joker": "card: joker"}


def pack_words() -> dict[str, dict[str, str]]:
    """The cards' words for the web page, which draws and names its cards with the same words as
    the terminal (one source: this module): every card of the Spanish pack in words (``words``:
    ``{"Qh": "caballo de copas"}``, R8.1) and every card as the French suits show it (``symbols``:
    ``{"Th": "10♥"}``); the Spanish pack's suits and ranks in words and as a card shows them, the
    courts' letters; and the context of each card's article (``articles``, ``spanish_articles``).

    ```pycon
    >>> words = pack_words()
    >>> words["words"]["Qh"], words["symbols"]["Th"], words["spanish_articles"]["J"]
    ('caballo de copas', '10♥', 'Spanish pack card: sota')

    ```
    """
    codes = [r + s for s in SUIT_CHARS for r in RANK_CHARS]
    spanish = [c for c in codes if c[0] in "A234567JQK"]
    return {"suits": dict(SPANISH_SUITS), "ranks": dict(SPANISH_RANKS), "short_suits": dict(SPANISH_SUITS_SHORT),
            "short_ranks": dict(SPANISH_RANKS_SHORT), "faces": dict(SPANISH_FACES),
            "words": {c: _spanish_words(c) for c in spanish},
            "symbols": {c: symbols(c) for c in codes},
            "articles": dict(ARTICLE_CONTEXTS), "spanish_articles": dict(SPANISH_ARTICLE_CONTEXTS)}


def spanish_card_words(card: int) -> str:
    """A card of the Spanish pack in words: ``7 de copas``, ``sota de oros`` (R8.1)."""
    return _spanish_words(card_str(card))


def _spanish_words(code: str) -> str:
    # the one place a card of the Spanish pack is put in words (the terminal's, the page's)
    return f"{SPANISH_RANKS.get(code[0], code[0])} de {SPANISH_SUITS[code[1]]}"


def _spanish_token(token: str) -> str | None:
    m = _CARD_TOKEN.match(token)
    if m is None:
        return None
    head, rank, suit, tail = m.groups()
    suit = _SUIT_OF.get(suit, suit)
    return f"{head}{SPANISH_RANKS_SHORT.get(rank, rank)} {SPANISH_SUITS_SHORT[suit]}{tail}"


def spanish_text(text: str) -> str:
    """Text for people with the Spanish pack's names (R8.1): a card in words ("the jack of diamonds")
    becomes "sota de oros", a card in the notation ("Jd") "Sota Or", cards next to each other are
    separated by commas.  Only for the Spanish pack: it has no 8, 9 or 10 to name."""

    def words(m: re.Match[str]) -> str:
        return _spanish_words(RANK_CHARS[RANK_NAMES.index(m.group(1))] + SUIT_CHARS[SUIT_NAMES.index(m.group(2))])

    text = _CARD_WORDS.sub(words, text)
    out: list[str] = []
    card_before = False
    for token in text.split(" "):
        shown = _spanish_token(token)
        if out:
            out.append(", " if card_before and shown is not None and not out[-1].endswith((",", ";", ":")) else " ")
        out.append(shown if shown is not None else token)
        card_before = shown is not None and shown[-1].isalpha()
    return "".join(out)


# ---------------------------------------------------------------------- seats
def seat_msg(seat: int, me: int, players: int) -> Msg:
    """A seat named for the person at ``me`` where no name is known (a lesson, a puzzle), as the
    table names it: "you", "the adversary" (two players), "Player 3"; never a seat code (``p2``)."""
    if seat == me:
        return Msg("you")
    if players == 2:
        return Msg("the adversary")
    return Msg("Player {n}", n=seat)


def sentence(text: str) -> str:
    """A text with its first letter a capital (a name at the start of a line: "Tú", "The adversary")."""
    return text[:1].upper() + text[1:]


__all__ = [
    "ARTICLE_CONTEXTS",
    "BOT_NAMES",
    "GAMES",
    "GAME_NAMES",
    "SPANISH_ARTICLE_CONTEXTS",
    "SPANISH_SUITS",
    "CardWords",
    "Joined",
    "ShownCards",
    "bot_name",
    "card_for_people",
    "card_symbol",
    "card_words",
    "cards_for_people",
    "for_people",
    "game_name",
    "games",
    "move_key",
    "move_msg",
    "move_phrase",
    "move_words",
    "order_moves",
    "pack_words",
    "seat_msg",
    "sentence",
    "shown_cards",
    "spanish_card",
    "spanish_card_words",
    "spanish_pack",
    "spanish_text",
    "symbols",
    "the_card",
    "unsymbols",
]
