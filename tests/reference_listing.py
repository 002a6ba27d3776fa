"""The deliberate reference copy of the old listing algorithm (the listing of uses as it was before
its tables), kept to prove that the table-driven listing lists the same actions in the same order.

:func:`use_forms` and :func:`legal_raw` here are the searches that
:mod:`conquian.engine.conquian.listing` replaced with table look-ups; the listing must give, for
every state, the very same actions in the very same order (tests/test_listing_tables.py).  The
meld table's own searches (``partition``, ``cover``) are used as they are, ``joinable`` is the
old one (below); the uses' memo is not (a cache shares nothing with the listing it checks).
"""

from __future__ import annotations

from conquian.engine.conquian.listing import _DISCARDS, _FORCES, _PASS, DISCARD, FORCED, K_USE, RawAction
from conquian.engine.conquian.melds import MeldTable


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
    # A hand card in no combination of the cards at hand can never be laid, nor change any form:
    # the forms depend on the others only, which keeps the memo's keys few.
    hand &= joinable(tbl, avail | cb)
    avail = down | hand
    threes = tbl.threes_by_card[card]
    valid = tbl.valid
    forms: list[tuple[int, ...]] = []
    laid: set[int] = set()  # the hand cards each listed form lays
    for m in side:
        if m | cb in valid:
            forms.append((m | cb,))
            laid.add(0)
    for t in threes:
        rest = t & ~cb
        if rest & ~hand == 0:
            forms.append((t,))
            laid.add(rest)
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
                f = (t, *part)
                forms.append(f)
                h = 0
                for m in f:
                    h |= m
                laid.add(h & hand)
    useful = hand
    k = useful.bit_count()
    if k <= 2 and (down == 0 or (k == 0 and 0 in laid)):
        pass  # nothing down: every set of two is a three of step 2, one card alone lies in none
    elif k <= 3:
        # few hand cards can join: try each set of them (a memoised partition each), and search
        # for the canonical partition only of a set no form above lays
        sides = set(side)
        required = cb | down
        sub = useful
        while True:
            if sub not in laid and tbl.partition(required | sub) is not None:
                found: dict[int, tuple[int, ...]] = {}
                _walk(tbl, required | sub, required | sub, sub, 0, (), sides, found)
                forms.append(tuple([m for m in found[sub] if m not in sides]))
            if sub == 0:
                break
            sub = (sub - 1) & useful
    else:
        for h, part in layable_sets(tbl, side, down, hand, card):
            if h not in laid:
                forms.append(tuple([m for m in part if m not in side]))
    return forms


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
    useful = joinable(tbl, avail) & hand
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
    by_low = tbl.by_low.get(low.bit_length() - 1, ())
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
    for m in by_low:
        if m & rest == m and m != first:
            _walk(tbl, rest ^ m, required & ~m, hand, laid | (m & hand), (*melds, m), side, found)


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
        h = hand
        while h:
            low = h & -h
            c = low.bit_length() - 1
            h ^= low
            out.append(_DISCARDS[c])
            if fits & low:
                out.append(_FORCES[c])
    return out


_ROW_RUNS: dict[tuple[tuple[int, ...], int], int] = {}


def joinable(tbl: MeldTable, mask: int) -> int:
    """The cards of ``mask`` in some combination of ``mask``'s cards, as the listing found them
    before its bit-parallel sequences: three of a rank, or every sequence of the pack tried."""
    rows = (mask & 0xFFFF, mask >> 16 & 0xFFFF, mask >> 32 & 0xFFFF, mask >> 48 & 0xFFFF)
    a, b, c, d = rows
    three = (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)
    out = (three | three << 16 | three << 32 | three << 48) & mask
    shift = 0
    for row in rows:
        if row:
            r = _ROW_RUNS.get((tbl.ranks, row))
            if r is None:
                r = 0
                for m in tbl.runs:
                    if m & 0xFFFF == m and m & row == m:
                        r |= m
                _ROW_RUNS[(tbl.ranks, row)] = r
            out |= r << shift
        shift += 16
    return out
