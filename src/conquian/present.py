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
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from conquian.engine.actions import Action, Add, Discard, Draw, Force, Meld, Pass, Shift, Take, Use, meld_text
from conquian.engine.cards import JOKER, RANK_CHARS, SUIT_CHARS, card_str

# a ten in the notation: "Th", also after "X=" (a named joker), never inside a word ("The")
_TEN = re.compile(r"(?<![A-Za-z0-9])T(?=[cdhs](?![A-Za-z0-9]))")
_CARD = re.compile(r"^(?:X=)?([A-Z0-9]|10)([cdhs])$")

#: What a player weighs first: the say (pass or force the card in play) or the draw, then the
#: combinations, then the discard that ends the turn.
_CHOICE, _COMBINATION, _DISCARD = 0, 1, 2
_VERBS = ("pass", "force", "draw", "take", "use", "meld", "add", "shift", "discard")


def for_people(text: str) -> str:
    """Text in the notation with every ten written ``10`` (``Th`` -> ``10h``, ``X=Tc`` -> ``X=10c``)."""
    return _TEN.sub("10", text)


def card_for_people(card: int) -> str:
    """One card as a person reads it: ``10h``, ``Ac``, ``X`` for the joker."""
    return "X" if card == JOKER else for_people(card_str(card))


def cards_for_people(cards: Iterable[int]) -> str:
    """Cards as a person reads them, separated by spaces."""
    return " ".join(card_for_people(c) for c in cards)


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


def _cards(action: Action) -> list[str]:
    if isinstance(action, Use):
        return [t for m in action.melds for t in meld_text(m).split()]
    if isinstance(action, Force | Discard):
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
    cards = _cards(action)
    ranks = tuple(sorted(_token_key(t) for t in cards))
    combo = getattr(action, "combo", 0)
    order = _VERBS.index(verb) if verb in _VERBS else len(_VERBS) + 1
    if group == _DISCARD and isinstance(action, Force):
        order = len(_VERBS)  # discarding by forcing comes after the plain discards
    return (group, order, len(cards), ranks, combo)


def order_moves(actions: Sequence[Action], phase: str | None = None) -> list[Action]:
    """Moves in the order a player thinks of them (:func:`move_key`); the sort is stable."""
    return sorted(actions, key=lambda a: move_key(a, phase))


__all__ = ["card_for_people", "cards_for_people", "for_people", "move_key", "move_words", "order_moves"]
