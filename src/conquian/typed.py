"""A move as a person types it, in English or in Spanish, read into the one notation of the records.

A player types what the move list shows him: the notation (``discard Qs``, ``use 7c 8c 9c``), the
list's words in English (``force 5♥ on Bea``, ``add 10h to combination 2``) or in Spanish (``pagar
Qs``, ``bajar 5♥ 6♥ 7♥``, ``dar el as de oros a Bea``, ``agregar 10h a la combinación 2``), with
cards in the notation, with symbols, or in words of either pack ("la sota de espadas", "7 Co",
"the 7 of hearts", "el 7 de corazones").  :func:`notation_of` turns it into the notation; the
engine then checks it as ever, and the record keeps the notation only (docs/records.md).

```pycon
>>> notation_of("pagar con la sota de espadas"), notation_of("Bajar 5♥, 6♥ y 7♥")
('discard Js', 'use 5h 6h 7h')
>>> notation_of("agregar 10h a la combinación 2"), notation_of("dar el As de oros a Bea")
('add 2 Th', 'give Ad')
>>> notation_of("bajar 7c 8c 9c", family="cooncan"), notation_of("robar", family="cooncan")
('meld 7c 8c 9c', 'draw')

```
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Sequence

from conquian.engine.cards import JOKER, card_str, parse_card
from conquian.engine.errors import ConquianError, NotationError

#: The verbs a person may type, in either language, by the notation's verb.  ``bajar`` lays
#: cards: a conquian ``use``, a Cooncan ``meld`` (:func:`notation_of` chooses by the game).
_VERBS = {
    "use": "use", "usar": "use", "usa": "use", "uso": "use", "bajar": "lay", "baja": "lay", "bajo": "lay",
    "lay": "lay",
    "pass": "pass", "pasar": "pass", "paso": "pass", "pasa": "pass",
    "force": "force", "forzar": "force", "fuerzo": "force", "forzarle": "force",
    "discard": "discard", "pay": "discard", "pagar": "discard", "pago": "discard", "paga": "discard",
    "descartar": "discard", "descarto": "discard", "tirar": "discard", "tiro": "discard",
    "give": "give", "dar": "give", "darle": "give", "doy": "give", "da": "give",
    "draw": "draw", "robar": "draw", "robo": "draw", "roba": "draw",
    "take": "take", "tomar": "take", "tomo": "take", "toma": "take",
    "meld": "meld",
    "add": "add", "agregar": "add", "agrego": "add", "anadir": "add", "añadir": "add",
    "shift": "shift", "move": "shift", "mover": "shift", "muevo": "shift",
}
#: Ranks and suits in words (accents and case ignored): English, Spanish for the French pack,
#: the Spanish pack's own (R8.1), and the short forms a Spanish card shows ("7 Co", "Rey Es").
_RANK_WORDS = {
    "ace": "A", "as": "A",
    "two": "2", "dos": "2", "three": "3", "tres": "3", "four": "4", "cuatro": "4", "five": "5", "cinco": "5",
    "six": "6", "seis": "6", "seven": "7", "siete": "7", "eight": "8", "ocho": "8", "nine": "9", "nueve": "9",
    "ten": "T", "diez": "T",
    "jack": "J", "jota": "J", "sota": "J", "j": "J",
    "queen": "Q", "reina": "Q", "dama": "Q", "caballo": "Q", "cab": "Q", "q": "Q",
    "king": "K", "rey": "K", "k": "K", "a": "A",
}
_SUIT_WORDS = {
    "clubs": "c", "club": "c", "treboles": "c", "trebol": "c", "bastos": "c", "basto": "c", "ba": "c",
    "diamonds": "d", "diamond": "d", "diamantes": "d", "diamante": "d", "oros": "d", "oro": "d", "or": "d",
    "hearts": "h", "heart": "h", "corazones": "h", "corazon": "h", "copas": "h", "copa": "h", "co": "h",
    "spades": "s", "spade": "s", "picas": "s", "pica": "s", "espadas": "s", "espada": "s", "es": "s",
}
_JOKER_WORDS = {"joker", "comodin", "x"}
#: Words that carry nothing of the move: articles, "with", "from the stock", "to", "and"...
_FILLER = {
    "the", "el", "la", "los", "las", "lo", "with", "con", "and", "y", "e", "from", "del", "de", "stock", "descarte",
    "pile", "discard", "pack", "monton", "card", "carta", "cartas", "cards", "it", "of", "en",
}
_NUMBER = re.compile(r"^\d{1,3}$")
_SEAT = re.compile(r"^p\d{1,2}$", re.IGNORECASE)


def _plain(word: str) -> str:
    """A word without accents and in lower case: ``Combinación`` -> ``combinacion``."""
    return "".join(c for c in unicodedata.normalize("NFD", word.lower()) if unicodedata.category(c) != "Mn")


def _words(text: str) -> list[str]:
    """The text cut into words: spaces, commas, ``+`` and ``|`` (kept: it parts combinations)."""
    text = text.replace("|", " | ").replace("+", " | ").replace("(", " ").replace(")", " ")
    return [w for w in re.split(r"[\s,;:.]+", text) if w]


def _card_at(words: list[str], i: int) -> tuple[str, int] | None:
    """The card written at ``words[i]`` (the notation, symbols, ``X=9h``, or words: "sota de
    espadas", "7 Co", "the 7 of hearts", "comodín como 9♥") as notation, and the words it takes."""
    w = words[i]
    low = _plain(w)
    if low in _JOKER_WORDS or low.startswith("x="):
        if "=" in w:
            named = _card_at([w.split("=", 1)[1], *words[i + 1:]], 0)
            return None if named is None else (f"X={named[0]}", named[1])
        # "comodín como 9♥", "joker as 9h": a named joker
        if i + 2 < len(words) and _plain(words[i + 1]) in ("como", "as", "for"):
            named = _card_at(words, i + 2)
            if named is not None:
                return f"X={named[0]}", 2 + named[1]
        return "X", 1
    # a rank then a suit, with "of"/"de" between or not ("7 de copas", "Rey Es", "king of spades")
    rank = _RANK_WORDS.get(low) or ("T" if low == "10" else low if low in tuple("23456789") else None)
    if rank is not None:
        j = i + 1
        if j < len(words) and _plain(words[j]) in ("of", "de"):
            j += 1
        if j < len(words) and _plain(words[j]) in _SUIT_WORDS:
            return rank + _SUIT_WORDS[_plain(words[j])], j + 1 - i
    if _NUMBER.match(w):
        return None
    try:
        card = parse_card(w)
    except NotationError:
        return None
    return (card_str(card), 1) if card != JOKER else ("X", 1)


_RANGE = re.compile(r"^(10|[A2-9TJQK])([cdhs♣♦♥♠])-(10|[A2-9TJQK])([cdhs♣♦♥♠])$", re.IGNORECASE)
_ORDER = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")


def _ranges(words: list[str]) -> list[str]:
    """A sequence written by its ends (``2♣-6♣``, the move list's words for four cards or more)
    written out card by card; from a 7 to a court, the Spanish pack's sequence (7 then J, R2.1)."""
    out: list[str] = []
    for w in words:
        m = _RANGE.match(w)
        if m is None or parse_card(m.group(1) + m.group(2)) >> 4 != parse_card(m.group(3) + m.group(4)) >> 4:
            out.append(w)
            continue
        low, high = (_ORDER.index("T" if g == "10" else g.upper()) for g in (m.group(1), m.group(3)))
        ranks = [r for r in _ORDER[low:high + 1] if not (low <= 6 and high >= 10 and r in ("8", "9", "T"))]
        out += [r + card_str(parse_card(m.group(1) + m.group(2)))[1] for r in ranks]
    return out


def _target(phrase: list[str], names: Sequence[Collection[str]] | None) -> str | None:
    """The seat a phrase after "a"/"to"/"on" names: ``p2``, or a player's name; "" where no
    names are known (the name is then not needed); None for a name that is nobody's."""
    text = _plain(" ".join(phrase))
    if _SEAT.match(text):
        return text
    if names is None:
        return ""
    for seat, forms in enumerate(names, 1):
        if any(name and text == _plain(name) for name in forms):
            return f"p{seat}"
    return None


def notation_of(text: str, family: str | None = None, names: Sequence[Collection[str]] | None = None,
                in_play: str | None = None) -> str:
    """A typed move in the notation without its seat (``discard Js``), from English or Spanish
    words; text already in the notation comes back as it was.  ``family`` chooses what *bajar*
    is (a Cooncan ``meld``, else a ``use``); ``names`` are the players' names by seat (each seat's
    forms: "You", "Tú"), for a
    force naming the player (``forzar 5h a Bea`` -> ``force 5h p2`` at a table of more than two,
    R8.4); ``in_play``, the card in play, which "pass the 7 of hearts" may name (R3.3).  Text it
    cannot read comes back unchanged, for the notation's reader to refuse."""
    from conquian.engine.actions import parse_action

    try:
        parse_action(f"p1 {text}")
        return text  # the notation itself
    except ConquianError:
        pass
    going_out = re.match(r"(?i)\s*(salir|go out)\s*:\s*", text)
    if going_out:  # "salir: bajar 2♣-6♣, 7♦ 7♥ 7♠ y 8♥ 9♥ 10♥": one combination between commas
        rest_text = text[going_out.end():]
        rest_text = re.sub(r"\s*,\s*|\s+(?:y|and)\s+", " | ", rest_text)
        words = _words(rest_text)
        if not words or _VERBS.get(_plain(words[0])) not in ("lay", "use"):
            return text
        words = ["use", *_ranges(words[1:])]
    else:
        words = _ranges(_words(text))
    if not words:
        return text
    verb = _VERBS.get(_plain(words[0]))
    if verb is None:
        return text
    if verb in ("lay", "use"):
        verb = "meld" if family == "cooncan" else "use"
    rest = words[1:]
    groups: list[list[str]] = [[]]
    combo: str | None = None
    which: str | None = None
    target: str | None = None
    i = 0
    while i < len(rest):
        w = rest[i]
        low = _plain(w)
        if w == "|":
            groups.append([])
            i += 1
        elif low in ("combination", "combinacion", "combo") and i + 1 < len(rest) and _NUMBER.match(rest[i + 1]):
            combo = rest[i + 1]
            i += 2
        elif verb == "shift" and low in ("low", "abajo", "high", "arriba"):
            which = "low" if low in ("low", "abajo") else "high"
            i += 1
        elif verb == "shift" and low in ("comodin", "joker", "agregar", "add", "and", "y", "of", "de"):
            i += 1
        elif (verb in ("add", "shift") and combo is None and not any(groups) and _NUMBER.match(w)
              and _card_at(rest, i) is None):
            combo = w
            i += 1
        elif verb in ("force", "give") and (low in ("to", "on", "a", "al") or _SEAT.match(w)) and any(groups):
            phrase = rest[i + 1:] if low in ("to", "on", "a", "al") else rest[i:]
            found = _target(phrase, names)
            if found is None:
                return text
            target = found or None
            i = len(rest)
        else:
            card = _card_at(rest, i)
            if card is not None:
                groups[-1].append(card[0])
                i += card[1]
            elif low in _FILLER or low in ("a", "to", "on", "al", "le"):
                i += 1
            else:
                return text
    groups = [g for g in groups if g]
    cards = [c for g in groups for c in g]
    if verb == "use":
        return "use " + " | ".join(" ".join(g) for g in groups) if groups else text
    if verb == "pass":
        return verb if not cards or (in_play is not None and cards == [in_play]) else text
    if verb == "draw":
        return text if cards else verb
    if verb == "take" and not cards and any(_plain(w) in ("monton", "pack") for w in rest):
        return "draw"  # "tomar del montón": the Spanish list's words for a draw
    if verb in ("take", "discard", "give", "meld"):
        return " ".join([verb, *cards])
    if verb == "force":
        more = target is not None and names is not None and len(names) > 2
        return " ".join(["force", *cards, *([target] if more and target else [])])
    if combo is None:
        return text
    return " ".join([verb, combo, *([which] if which else []), *cards])


__all__ = ["notation_of"]
