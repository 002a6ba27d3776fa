"""Decks: the canonical pack order and a seeded shuffle that never changes (R3.1).

The generator is SplitMix64 with an unbiased bounded draw and a Fisher-Yates
shuffle, all written out here, so a seed gives the same deck in every version
of the project and on every platform (the standard library's ``random`` makes
no such promise for ``shuffle``).

```pycon
>>> from conquian.engine.rules import get_rules
>>> from conquian.engine.cards import card_str
>>> deck = seeded_deck(get_rules("conquian"), 1)
>>> len(deck), len(set(deck))
(40, 40)
>>> deck == seeded_deck(get_rules("conquian"), 1)
True

```
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from functools import cache

from conquian.engine.cards import JOKER, make_card
from conquian.engine.rules import Rules

_MASK64 = (1 << 64) - 1
#: Whether the machine stores a 64-bit word's low byte first (what :func:`_draws` reads the lanes by).
_LITTLE = sys.byteorder == "little"


class SplitMix64:
    """A tiny, fixed pseudo-random generator (Steele, Lea and Flood's SplitMix64)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next64(self) -> int:
        """The next 64-bit output."""
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - (1 << 64) % n
        while True:
            x = self.next64()
            if x < limit:
                return x % n


def pack_order(rules: Rules) -> list[int]:
    """The pack in canonical order: suits ``c d h s``, each in the pack's rank order (each
    card twice in a double pack), then the jokers."""
    return list(_pack(rules))


@cache
def _pack(rules: Rules) -> tuple[int, ...]:
    cards = [make_card(rank, suit) for suit in range(4) for rank in rules.ranks for _ in range(rules.copies)]
    return tuple(cards + [JOKER] * rules.jokers)


@cache
def _limits(size: int) -> tuple[int, ...]:
    """For each ``i`` below ``size``, the bound under which a 64-bit draw is kept for ``range(i + 1)``
    (:meth:`SplitMix64.below`'s rejection, computed once per pack size)."""
    two64 = 1 << 64
    return tuple(two64 - two64 % (i + 1) for i in range(size))


@cache
def _lanes(m: int) -> tuple[int, int, int, int]:
    """For :func:`_draws` of ``m`` outputs: ints of ``m`` lanes of 128 bits holding, lane by lane, 1,
    the output's number (1, 2, ...), the 64-bit mask and the bit just above it."""
    ones = sum(1 << (128 * k) for k in range(m))
    counts = sum((k + 1) << (128 * k) for k in range(m))
    return ones, counts, ones * _MASK64, ones << 64


def _draws(seed: int, m: int) -> list[int] | None:
    """SplitMix64's first ``m`` outputs from ``seed``, computed all at once: each in a 128-bit lane
    of one int (a lane's product by a 64-bit constant stays in its lane), so the arithmetic runs
    in C over the whole row rather than once a card.  ``None`` if one of them comes within 128 of
    2**64, where :meth:`SplitMix64.below` might reject it (about one deck in 2**50): the caller
    then draws one at a time."""
    ones, counts, mask, above = _lanes(m)
    z = ((seed & _MASK64) * ones + counts * 0x9E3779B97F4A7C15) & mask
    z = (((z ^ (z >> 30)) & mask) * 0xBF58476D1CE4E5B9) & mask
    z = (((z ^ (z >> 27)) & mask) * 0x94D049BB133111EB) & mask
    z = (z ^ (z >> 31)) & mask
    if (z + ones * 128) & above:
        return None
    return memoryview(z.to_bytes(16 * m, "little")).cast("Q")[::2].tolist()


def seeded_deck(rules: Rules, seed: int) -> tuple[int, ...]:
    """The deck (top card first) that ``seed`` gives for this pack.

    Fisher-Yates from the last card down, each swap index drawn with
    :meth:`SplitMix64.below` (the draws made all at once by :func:`_draws`, or written out inline
    here: the same numbers).
    """
    cards = list(_pack(rules))
    size = len(cards)
    draws = _draws(seed, size - 1) if _LITTLE and size > 1 else None
    if draws is not None:
        i = size
        for z in draws:
            j = z % i
            i -= 1
            cards[i], cards[j] = cards[j], cards[i]
        return tuple(cards)
    state = seed & _MASK64
    limits = _limits(size)
    for i in range(size - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & _MASK64
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        z ^= z >> 31
        while z >= limits[i]:  # rejected (about one draw in 2**58): the next output
            state = (state + 0x9E3779B97F4A7C15) & _MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            z ^= z >> 31
        j = z % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)


def _reference_seeded_deck(rules: Rules, seed: int) -> tuple[int, ...]:
    """The same shuffle through :class:`SplitMix64` (kept to test the inline version)."""
    rng = SplitMix64(seed)
    cards = pack_order(rules)
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)


@cache
def sorted_pack(rules: Rules) -> list[int]:
    """The pack's cards sorted (to check a given deck quickly)."""
    return sorted(pack_order(rules))


def arrange_deck(rules: Rules, hands: Sequence[Iterable[int]], pack: Iterable[int] = ()) -> tuple[int, ...]:
    """Build a conquian deck (top card first, R3.1) that deals the given hands.

    ``hands[0]`` is the pone's ten cards, ``hands[1]`` the other hand's; ``pack``
    lists the top of the pack, the first being the card turned up.  The rest
    of the pack follows in canonical order.  For tests and bug reports.

    ```pycon
    >>> from conquian.engine.rules import get_rules
    >>> from conquian.engine.cards import parse_cards, card_str
    >>> r = get_rules("conquian")
    >>> deck = arrange_deck(r, [parse_cards("Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc"),
    ...                         parse_cards("Ad 2d 3d 4d 5d 6d 7d 8d 9d Td")], parse_cards("Ah"))
    >>> " ".join(card_str(c) for c in deck[:5]), card_str(deck[20])
    ('Ac 2c Ad 2d 3c', 'Ah')

    ```
    """
    pone, other = (list(h) for h in hands)
    top = list(pack)
    if len(pone) != rules.hand_size or len(other) != rules.hand_size:
        raise ValueError(f"each hand holds {rules.hand_size} cards")
    used = pone + other + top
    if len(set(used)) != len(used):
        raise ValueError("a card is given twice")
    full = pack_order(rules)
    if any(c not in full for c in used):
        raise ValueError(f"a card is not in the {rules.name} pack")
    deck: list[int] = []
    for i in range(0, rules.hand_size, 2):
        deck += pone[i:i + 2] + other[i:i + 2]
    deck += top
    deck += [c for c in full if c not in set(used)]
    return tuple(deck)


def arrange_cooncan_deck(rules: Rules, dealer: int, hands: Sequence[Iterable[int]], stock: int,
                         pack: Iterable[int] = ()) -> tuple[int, ...]:
    """Build a Cooncan deck (top card first, R4.1) that deals the given hands.

    ``hands[i]`` is seat ``p(i+1)``'s cards; dealing goes one at a time from the
    dealer's left; ``stock`` is the card that starts the stock and ``pack`` the top
    of the pack.  The rest follows in canonical order.  For tests and bug reports.
    """
    n = rules.players
    hand_lists = [list(h) for h in hands]
    if len(hand_lists) != n or any(len(h) != rules.hand_size for h in hand_lists):
        raise ValueError(f"give {n} hands of {rules.hand_size} cards")
    top = list(pack)
    used = [c for h in hand_lists for c in h] + [stock] + top
    remaining = pack_order(rules)
    for c in used:
        if c not in remaining:
            raise ValueError(f"the pack has no more {c} to give")
        remaining.remove(c)
    deck: list[int] = []
    for k in range(n * rules.hand_size):
        seat_index = (dealer + k) % n
        deck.append(hand_lists[seat_index][k // n])
    return (*deck, stock, *top, *remaining)
