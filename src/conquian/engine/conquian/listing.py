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

from conquian.engine.cards import mask_picks
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
    """The listed ways to use ``card`` (docs/records.md: the listing's contract, R3.4).

    Every distinct set of hand cards that some legal use lays is laid by at least one listed
    form, and a use that goes out (R3.7, R8.5: every hand card laid) is always listed.  Each
    form is the tuple of the player's new or changed combinations (the card in play among
    them).  Listed, without duplicates, in this order:

    1. for each of the player's combinations the card fits as it lies: that combination with
       the card added;
    2. for each three-card combination of the card and two hand cards: that combination;
    3. for each three-card combination of the card and two of the player's cards, at least one
       of them borrowed from his own combinations (the rest from his hand): that combination,
       and the other cards of every combination it borrows from laid again (as one partition
       of those cards into combinations by themselves, :meth:`MeldTable.partition`, else as
       one cover of them with hand cards added, :meth:`MeldTable.cover`);
    4. for every other set of hand cards that a legal use can lay (four-card combinations,
       hand cards added with the card, further combinations laid in the same move, going
       out): one form, the first partition of the card, those hand cards and the cards down
       found by :func:`layable_sets` (which keeps the player's combinations as they lie
       where it can).

    Forms 1 to 3 are the small, strategic choices (where the card goes); 4 lists each further
    set once, in one partition.  Every other legal form is accepted by
    :meth:`ConquianDeal.play` all the same.
    """
    avail = down | hand
    near, threes_of = tbl.near_threes[card]
    # Every combination holding the card holds a three-card one: the table gives, for the
    # card's partners at hand, the three-card combinations whose other two cards are all at hand.
    threes = threes_of[near & avail]
    if not threes:
        return []
    return [raw[1] for raw in _uses(tbl, side, down, hand, card, threes)]


def _uses(tbl: MeldTable, side: tuple[int, ...], down: int, hand: int, card: int,
          threes: tuple[int, ...]) -> tuple[RawAction, ...]:
    """:func:`use_forms` once its table has given the card's three-card combinations at hand (not
    empty), as raw uses ``(K_USE, form)``: memoised."""
    cb = 1 << card
    # A hand card in no combination of the cards at hand can never be laid, nor change any form:
    # the forms depend on the others only, which keeps the memo's keys few.
    hand &= tbl.joinable(down | hand | cb)
    key = (card, hand, side)
    memo = tbl.use_memo
    got = memo.get(key)
    if got is not None:
        return got
    fits = tbl.fits_memo
    forms: list[tuple[int, ...]] = []
    laid: list[int] = []  # the hand cards each listed form lays
    for m in side:
        f = fits.get(m)
        if f is None:
            f = tbl.fits_mask(m)
        if f >> card & 1:
            forms.append((m | cb,))
            laid.append(0)
    for t in threes:  # each three-card combination of the card and two cards at hand, in the table's order
        rest = t ^ cb
        if rest & ~hand == 0:
            forms.append((t,))
            laid.append(rest)
        else:  # it borrows from the player's own combinations: the rest of each is laid again
            touched = 0
            for m in side:
                if m & t:
                    touched |= m
            left = touched & ~t
            part = tbl.partition(left) if left else ()
            if part is None:
                part = tbl.cover(left, hand & ~t)
            if part is not None:
                f2 = (t, *part)
                forms.append(f2)
                h = 0
                for m in f2:
                    h |= m
                laid.append(h & hand)
    k = hand.bit_count()
    if k <= 2 and (down == 0 or (k == 0 and 0 in laid)):
        pass  # nothing down: every set of two is a three of step 2, one card alone lies in none
    elif k <= 3:
        # few hand cards can join: try each set of them (a partition each, from the table's memo),
        # and lay out the walk's first partition only for a set no form above lays
        required = cb | down
        pmemo = tbl.partition_memo
        near_threes = tbl.near_threes
        sub = hand
        while True:
            if sub not in laid:
                x = required | sub
                part = pmemo.get(x, _UNKNOWN)
                if part is _UNKNOWN:
                    # the cards down lie in their own combinations; the card and each hand card
                    # must lie in a three-card one within x (a look-up each) before any search
                    y = cb | sub
                    while y:
                        low = y & -y
                        y ^= low
                        nr, th = near_threes[low.bit_length() - 1]
                        if not th[nr & x]:
                            part = None
                            break
                    else:
                        part = tbl.partition(x)
                if part is not None:
                    forms.append(_first_partition(tbl, x, side))
            if sub == 0:
                break
            sub = (sub - 1) & hand
    else:
        for h, part in layable_sets(tbl, side, down, hand, card):
            if h not in laid:
                forms.append(tuple([m for m in part if m not in side]))
    out = tuple([(K_USE, f) for f in forms])
    if len(memo) > 50_000:
        memo.clear()
    memo[key] = out
    return out


#: a partition not looked up yet (the memo's values are partitions or None)
_UNKNOWN: Final[tuple[int, ...]] = (-1,)


def _first_partition(tbl: MeldTable, x: int, side: tuple[int, ...]) -> tuple[int, ...]:
    """The combinations new or changed in the first partition of ``x`` (which has one) that
    :func:`_walk` finds with every card required: from the lowest card, the player's own
    combination of it first if it starts there and lies whole in ``x``, else the first of the
    table's order that leaves a partitionable rest (the memoised :meth:`MeldTable.partition`)."""
    out: list[int] = []
    while x:
        low = x & -x
        for m in side:
            if m & low:
                if m & x == m and (m & -m) == low and tbl.partition(x ^ m) is not None:
                    x ^= m  # kept as it lies: not part of the form
                    break
                m = _first_meld(tbl, x)
                out.append(m)
                x ^= m
                break
        else:
            m = _first_meld(tbl, x)
            out.append(m)
            x ^= m
    return tuple(out)


def _first_meld(tbl: MeldTable, x: int) -> int:
    part = tbl.partition(x)
    assert part is not None
    return part[0]


def layable_sets(
    tbl: MeldTable, side: tuple[int, ...], down: int, hand: int, card: int
) -> list[tuple[int, tuple[int, ...]]]:
    """Every set of hand cards that a legal use of ``card`` lays (R3.4), each with one partition.

    A use lays ``card``, some hand cards ``h`` and may rearrange every card down; it is legal
    exactly when ``card``, ``h`` and all the cards down split into valid combinations (R2.2:
    a combination left as it lies is part of such a split).  So the sets are the ``h`` for
    which ``card | h | down`` has a partition; the search walks the cards from the lowest,
    each required card (the card in play, the cards down) placed in a combination, each hand
    card placed or left, and keeps the first partition of each ``h`` (the player's own
    combinations tried first, so that what lies stays as it lies where it can).

    ```pycon
    >>> from conquian import get_rules
    >>> from conquian.engine.cards import CardSet, mask_str, parse_card
    >>> from conquian.engine.conquian.melds import meld_table
    >>> tbl = meld_table(get_rules("conquian"))
    >>> hand = CardSet.parse("6h 7h 9h 9c 9d").mask
    >>> sorted(mask_str(h) for h, _ in layable_sets(tbl, (), 0, hand, parse_card("8h")))
    ['6h 7h', '6h 7h 9c 9d 9h', '6h 7h 9h', '7h 9h']

    ```
    """
    cb = 1 << card
    required = cb | down
    avail = required | hand
    useful = tbl.joinable(avail) & hand
    found: dict[int, tuple[int, ...]] = {}
    _walk(tbl, required | useful, required, useful, 0, (), set(side), found)
    return list(found.items())


def _walk(tbl: MeldTable, rest: int, required: int, hand: int, laid: int, melds: tuple[int, ...],
          side: set[int], found: dict[int, tuple[int, ...]]) -> None:
    """Place the lowest card of ``rest`` (every card of ``rest`` below it is placed or left)."""
    if rest == 0:
        if laid not in found:
            found[laid] = melds
        return
    low = rest & -rest
    i = low.bit_length() - 1
    reach = rest & tbl.low_reach[i]
    within = tbl.low_within[i].get(reach)
    if within is None:  # the combinations from this card that lie within the rest, at one look-up
        within = tbl.melds_within(i, reach)
    if not low & required:  # a hand card may be left in the hand
        _walk(tbl, rest ^ low, required, hand, laid, melds, side, found)
    first = -1
    if low & required:  # a card down (or the card in play): its own combination first, if whole
        for m in side:
            if m & low:
                if m & rest == m and (m & -m) == low:
                    first = m
                    _walk(tbl, rest ^ m, required & ~m, hand, laid, (*melds, m), side, found)
                break
    for m in within:
        if m != first:
            _walk(tbl, rest ^ m, required & ~m, hand, laid | (m & hand), (*melds, m), side, found)


#: the discards of one suit's holding, keyed by the holding (16 bits) and its shift
_ROW_DISCARDS: dict[int, tuple[RawAction, ...]] = {}


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
    if phase <= FORCED:
        near, threes_of = tbl.near_threes[card]
        threes = threes_of[near & (down | hand)]
        # use_forms' first test, inline: most cards in play cannot be used
        out: list[RawAction] = list(_uses(tbl, side, down, hand, card, threes)) if threes else []
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
    out = []
    if phase == DISCARD:
        fits = 0  # the cards that fit one of the adversary's combinations
        for m in other_side:
            fits |= tbl.fits_mask(m)
        if not fits & hand:  # discards only: each suit's, made once per holding
            return mask_picks(hand, _DISCARDS, _ROW_DISCARDS)
        h = hand
        while h:
            low = h & -h
            c = low.bit_length() - 1
            h ^= low
            out.append(_DISCARDS[c])
            if fits & low:
                out.append(_FORCES[c])
    return out
