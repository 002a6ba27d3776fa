"""Conquian's legal listing as pure functions over card masks: the hot path of play and search.

The phases of a deal, the raw action kinds, the listed uses of a card (R3.4) and the
listing of the player to act, apart from :class:`~conquian.engine.conquian.deal.ConquianDeal` so that
they can be compiled (``conquian speedups build``) and called by the bots' policies
without a deal object.  :mod:`conquian.engine.conquian.deal` re-exports every name.

```pycon
>>> from conquian import get_rules
>>> from conquian.engine.cards import CardSet, parse_card
>>> from conquian.engine.conquian.melds import meld_table
>>> tbl = meld_table(get_rules("conquian"))
>>> hand = CardSet.parse("5h 6h Kc").mask
>>> [tbl.meld_str(f[0]) for f in use_forms(tbl, (), 0, hand, parse_card("7h"))]
['5h 6h 7h']

```
"""

from __future__ import annotations

from typing import Any, Final

from conquian.engine.conquian.melds import MeldTable

# Phases of a deal.  The say phases differ only in what a pass does (R3.3).
SAY_TURNED: Final = 0  # the turner's first say to a turned card
SAY_PASSED: Final = 1  # the adversary's say to a turned card the turner passed
SAY_DISCARD: Final = 2  # the adversary's say to a card discarded face up
FORCED: Final = 3  # a card was forced on the actor: he must use it (R3.6)
DISCARD: Final = 4  # the actor used a card and must discard (R3.5)
OVER: Final = 5

PHASE_NAMES: Final = ("say", "say", "say", "forced", "discard", "over")

# Raw actions (the fast path used by the legal listing and simulations).
K_USE: Final = 0
K_PASS: Final = 1
K_FORCE: Final = 2
K_DISCARD: Final = 3

RawAction = tuple[int, Any]  # (kind, melds tuple | card | -1)
_PASS: Final[RawAction] = (K_PASS, -1)  # one tuple for every pass listed, and each card's discard and force
_DISCARDS: Final[tuple[RawAction, ...]] = tuple((K_DISCARD, c) for c in range(64))
_FORCES: Final[tuple[RawAction, ...]] = tuple((K_FORCE, c) for c in range(64))


def use_forms(
    tbl: MeldTable, side: tuple[int, ...], down: int, hand: int, card: int
) -> list[tuple[int, ...]]:
    """The listed ways to use ``card`` (docs/records.md: the engine's documented choice).

    Listed, without duplicates, in this order:

    1. for each of the player's combinations the card fits as it lies: that combination with
       the card added;
    2. for each three-card combination of the card and two hand cards: that combination;
    3. for each three-card combination of the card and two of the player's cards, at least one
       of them borrowed from his own combinations (the rest from his hand): that combination,
       and the other cards of every combination it borrows from laid again: as one partition
       of those cards into combinations by themselves (:meth:`MeldTable.partition`), else as
       one cover of them with hand cards added (:meth:`MeldTable.cover`).  When neither exists
       that borrowing is not listed, though it may be legal: for instance when a borrowed
       card's neighbour must join another of the player's combinations, which is then laid
       again too;
    4. only if 1 to 3 list nothing: one use found by a complete search (a cover of every card
       the player has down and the card in play, with hand cards), so that a use is listed
       whenever one is legal (R3.4).

    Not listed unless step 4 finds it: a new combination of four or more cards, the card
    added with hand cards to a combination, the card added to a combination rearranged, any
    other re-laying.  Every legal form is accepted by :meth:`ConquianDeal.play` all the same.
    """
    avail = down | hand
    # Every combination holding the card holds a three-card one: none can be made unless the
    # player has both other cards of one (first the quick test: two of the card's partners).
    near = tbl.partners.get(card, 0) & avail
    if near & (near - 1) == 0:
        return []
    unavail = ~avail
    for pair in tbl.pairs_by_card[card]:
        if pair & unavail == 0:
            break
    else:
        return []
    cb = 1 << card
    threes = tbl.threes_by_card[card]
    valid = tbl.valid
    forms: list[tuple[int, ...]] = []
    for m in side:
        if m | cb in valid:
            forms.append((m | cb,))
    for t in threes:
        rest = t & ~cb
        if rest & ~hand == 0:
            forms.append((t,))
        elif rest & ~avail == 0:
            touched = 0
            for m in side:
                if m & t:
                    touched |= m
            left = touched & ~t
            part = tbl.partition(left) if left else ()
            if part is None:
                part = tbl.cover(left, hand & ~t)
            if part is not None:
                forms.append((t, *part))
    if not forms:
        sol = tbl.cover(down | cb, hand)
        if sol is not None:
            forms.append(tuple(m for m in sol if m not in side))
    return forms


#: the discards of one suit's holding, keyed by the holding (16 bits) and its shift
_ROW_DISCARDS: dict[int, tuple[RawAction, ...]] = {}


def _row_discards(row: int, shift: int) -> tuple[RawAction, ...]:
    out: list[RawAction] = []
    while row:
        low = row & -row
        out.append(_DISCARDS[low.bit_length() - 1 + shift])
        row ^= low
    return tuple(out)


def legal_raw(
    tbl: MeldTable,
    phase: int,
    card: int,
    hand: int,
    side: tuple[int, ...],
    down: int,
    other_side: tuple[int, ...],
) -> list[RawAction]:
    """The listed legal actions of the player to act, from what he can see."""
    out: list[RawAction] = []
    if phase <= FORCED:
        near = tbl.partners.get(card, 0) & (down | hand)
        if near & (near - 1):  # use_forms' first test, inline: most cards in play cannot be used
            for f in use_forms(tbl, side, down, hand, card):
                out.append((K_USE, f))
        if phase == FORCED:
            return out
        out.append(_PASS)
        valid = tbl.valid
        cb = 1 << card
        for m in other_side:
            if m | cb in valid:
                out.append(_FORCES[card])
                break
        return out
    if phase == DISCARD:
        fits = 0  # the cards that fit one of the adversary's combinations
        for m in other_side:
            fits |= tbl.fits_mask(m)
        if not fits & hand:  # discards only: each suit's, made once per holding
            for shift in (0, 16, 32, 48):
                row = hand >> shift & 0xFFFF
                if row:
                    got = _ROW_DISCARDS.get(row | shift << 16)
                    if got is None:
                        got = _ROW_DISCARDS[row | shift << 16] = _row_discards(row, shift)
                    out += got
            return out
        h = hand
        while h:
            low = h & -h
            c = low.bit_length() - 1
            h ^= low
            out.append(_DISCARDS[c])
            if fits & low:
                out.append(_FORCES[c])
    return out
