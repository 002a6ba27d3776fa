"""Combinations (melds) of a single pack as bitmasks (R2.2).

A :class:`MeldTable` is built once per rules object: every valid set and
sequence as an int mask, indexed by card, so that checking a combination is a
set lookup and splitting a side of the table into combinations is a short
memoised search.

```pycon
>>> from conquian.engine.rules import get_rules
>>> from conquian.engine.cards import CardSet
>>> t = meld_table(get_rules("conquian"))
>>> t.is_meld(CardSet.parse("5h 6h 7h").mask), t.is_meld(CardSet.parse("9h Th Jh").mask)
(True, False)
>>> [t.meld_str(m) for m in t.partition(CardSet.parse("5c 5d 5h 6h 7h 8h").mask) or ()]
['5c 5d 5h', '6h 7h 8h']
>>> s = meld_table(get_rules("conquian-spanish"))
>>> s.is_meld(CardSet.parse("6s 7s Js").mask), s.is_meld(CardSet.parse("Qs Ks As").mask)
(True, False)

```
"""

from __future__ import annotations

from functools import cache
from itertools import combinations
from typing import Any

from conquian.engine.cards import card_str, cards_of, make_card
from conquian.engine.rules import Rules

#: one bit in each of the four suits' rows of 16 bits: multiplying a row's bits by it copies them to every row
_LANES = 0x0001_0001_0001_0001


class MeldTable:
    """Every valid combination of one pack, and searches over them."""

    def __reduce__(self) -> tuple[Any, tuple[tuple[int, ...]]]:
        # a pickled deal names its table by the ranks: the shared table is found or made again
        return _table_for_ranks, (self.ranks,)

    def __init__(self, ranks: tuple[int, ...]) -> None:
        self.ranks = ranks
        self.rank_pos = {r: i for i, r in enumerate(ranks)}
        sets: list[int] = []
        runs: list[int] = []
        for rank in ranks:
            for size in (3, 4):
                for suits in combinations(range(4), size):
                    m = 0
                    for s in suits:
                        m |= 1 << make_card(rank, s)
                    sets.append(m)
        n = len(ranks)
        for suit in range(4):
            for start in range(n):
                for end in range(start + 3, n + 1):
                    m = 0
                    for r in ranks[start:end]:
                        m |= 1 << make_card(r, suit)
                    runs.append(m)
        self.sets = frozenset(sets)
        self.runs = frozenset(runs)
        self.valid: frozenset[int] = self.sets | self.runs
        self.pack_mask = 0
        for rank in ranks:
            for suit in range(4):
                self.pack_mask |= 1 << make_card(rank, suit)
        by_card: dict[int, list[int]] = {c: [] for c in cards_of(self.pack_mask)}
        for m in sorted(self.valid):
            for c in cards_of(m):
                by_card[c].append(m)
        #: melds holding a card, for the searches
        self.by_card: dict[int, tuple[int, ...]] = {c: tuple(v) for c, v in by_card.items()}
        #: the three-card melds holding a card: every meld holding it contains one
        self.threes_by_card: dict[int, tuple[int, ...]] = {
            c: tuple(m for m in v if m.bit_count() == 3) for c, v in by_card.items()
        }
        #: for each card, the cards that make a three-card meld with it and another card: a hand
        #: holding fewer than two of them cannot use the card in a new combination
        self.partners: dict[int, int] = {}
        #: for each card, the pairs of cards that make a three-card meld with it (masks)
        self.pairs_by_card: dict[int, tuple[int, ...]] = {}
        for c, threes in self.threes_by_card.items():
            pairs = tuple(t & ~(1 << c) for t in threes)
            self.pairs_by_card[c] = pairs
            both = 0
            for pair in pairs:
                both |= pair
            self.partners[c] = both
        #: melds indexed by their lowest card, for partitioning
        self.by_low: dict[int, tuple[int, ...]] = {
            c: tuple(m for m in v if (m & -m).bit_length() - 1 == c) for c, v in by_card.items()
        }
        #: for each card number (0-63), the mask of its partners and, for each set of them at hand
        #: (every submask), the three-card combinations holding the card whose other two cards are
        #: among them, in :attr:`threes_by_card`'s order: the listing's first look-up
        self.near_threes: list[tuple[int, dict[int, tuple[int, ...]]]] = []
        for c in range(64):
            near = self.partners.get(c, 0)
            table: dict[int, tuple[int, ...]] = {}
            sub = near
            while True:
                table[sub] = tuple(t for t in self.threes_by_card.get(c, ()) if t & ~(1 << c) & ~sub == 0)
                if sub == 0:
                    break
                sub = (sub - 1) & near
            self.near_threes.append((near, table))
        #: for each card number, the cards of every combination whose lowest card it is
        self.low_reach: list[int] = [0] * 64
        for c, ms in self.by_low.items():
            for m in ms:
                self.low_reach[c] |= m
        #: for each card number, the combinations whose lowest card it is (in :attr:`by_low`'s
        #: order) that lie within a set of cards, keyed by that set's cards in :attr:`low_reach`
        #: (filled as met, by :meth:`melds_within`): the searches' candidates at one look-up
        self.low_within: list[dict[int, tuple[int, ...]]] = [{} for _ in range(64)]
        self._fits_memo: dict[int, int] = {}
        #: the memo of :meth:`fits_mask` (read directly by the listing: a hit costs no call)
        self.fits_memo = self._fits_memo
        self._partition_memo: dict[int, tuple[int, ...] | None] = {0: ()}
        #: the memo of :meth:`partition` (read directly by the listing: a hit costs no call)
        self.partition_memo = self._partition_memo
        self._cover_memo: dict[tuple[int, int], tuple[int, ...] | None] = {}
        #: the listed uses of a card (:func:`~conquian.engine.conquian.listing.use_forms`), as raw
        #: actions ``(K_USE, form)``, keyed by the card, the joinable hand cards and the player's side
        self.use_memo: dict[tuple[int, int, tuple[int, ...]], tuple[tuple[int, Any], ...]] = {}
        #: the pack's ranks as runs of adjacent bits, each (its lowest rank, less the position it takes
        #: among the pack's ranks; its bits from that position in every row): a sequence is a window
        #: of adjacent positions
        compact: list[tuple[int, int]] = []
        pos = 0
        while pos < n:
            end = pos + 1
            while end < n and ranks[end] == ranks[end - 1] + 1:
                end += 1
            compact.append((ranks[pos] - pos, (((1 << (end - pos)) - 1) << pos) * _LANES))
            pos = end
        self._compact: tuple[tuple[int, int], ...] = tuple(compact)

    def is_meld(self, mask: int) -> bool:
        """Whether ``mask`` is one valid combination (R2.2)."""
        return mask in self.valid

    def is_run(self, mask: int) -> bool:
        """Whether ``mask`` is a valid sequence."""
        return mask in self.runs

    def fits(self, meld: int, card: int) -> bool:
        """Whether ``card`` fits ``meld`` as it lies (R3.6): adding it keeps it valid."""
        return (meld | 1 << card) in self.valid

    def fits_mask(self, meld: int) -> int:
        """The cards that fit ``meld`` as it lies (its own cards included), as a mask (memoised)."""
        f = self._fits_memo.get(meld)
        if f is None:
            f = 0
            valid = self.valid
            for x in range(64):
                if meld | 1 << x in valid:
                    f |= 1 << x
            if len(self._fits_memo) > 100_000:
                self._fits_memo.clear()
            self._fits_memo[meld] = f
        return f

    def melds_within(self, low: int, reach: int) -> tuple[int, ...]:
        """The combinations whose lowest card is ``low`` that lie within ``reach`` (cards of
        ``low_reach[low]``), in :attr:`by_low`'s order; kept in :attr:`low_within`."""
        got = self.low_within[low].get(reach)
        if got is None:
            got = self.low_within[low][reach] = tuple(m for m in self.by_low.get(low, ()) if m & reach == m)
        return got

    def joinable(self, mask: int) -> int:
        """The cards of ``mask`` that lie in some combination of ``mask``'s cards (R2.2): three of a
        rank (a bit-sliced count over the suits' rows), or a sequence within a suit's row (every
        card in a window of three of the pack's consecutive ranks, all four rows at once)."""
        a, b, c, d = mask & 0xFFFF, mask >> 16 & 0xFFFF, mask >> 32 & 0xFFFF, mask >> 48 & 0xFFFF
        out = ((a & b & (c | d)) | (c & d & (a | b))) * _LANES  # each rank held in three suits, in every row
        x = 0  # the ranks of each row made adjacent bits from bit 0 (the pack may skip ranks)
        for shift, lanes in self._compact:
            x |= mask >> shift & lanes
        w = x & x >> 1 & x >> 2  # the lowest card of each window of three in a row
        w |= w << 1 | w << 2
        for shift, lanes in self._compact:
            out |= (w & lanes) << shift
        return out & mask

    def partition(self, mask: int) -> tuple[int, ...] | None:
        """One partition of ``mask`` into valid combinations, or ``None``.

        Deterministic: the lowest card is placed first, in the first meld (by
        mask order) that lets the rest be partitioned.
        """
        memo = self._partition_memo
        if mask in memo:
            return memo[mask]
        low = (mask & -mask).bit_length() - 1
        reach = mask & self.low_reach[low]
        within = self.low_within[low].get(reach)
        if within is None:
            within = self.melds_within(low, reach)
        result: tuple[int, ...] | None = None
        for m in within:
            rest = self.partition(mask ^ m)
            if rest is not None:
                result = (m, *rest)
                break
        if len(memo) > 500_000:
            memo.clear()
            memo[0] = ()
        memo[mask] = result
        return result

    def cover(self, required: int, optional: int) -> tuple[int, ...] | None:
        """Partition ``required`` plus some cards of ``optional`` into combinations.

        Returns the combinations (``None`` if impossible).  This answers "can this
        card be used at all" for R3.4 with any borrowing and any extra hand cards.
        """
        if required == 0:
            return ()
        key = (required, optional)
        memo = self._cover_memo
        if key in memo:
            return memo[key]
        low = (required & -required).bit_length() - 1
        avail = required | optional
        result: tuple[int, ...] | None = None
        for m in self.by_card.get(low, ()):
            if m & avail == m:
                rest = self.cover(required & ~m, optional & ~m)
                if rest is not None:
                    result = (m, *rest)
                    break
        if len(memo) > 200_000:
            memo.clear()
        memo[key] = result
        return result

    def sort_key(self, card: int) -> tuple[int, int]:
        """Order of writing: by the pack's rank order, then suit."""
        return (self.rank_pos.get(card & 15, 99), card >> 4)

    def meld_str(self, mask: int) -> str:
        """A combination in canonical notation: sequences low to high, sets by suit."""
        return " ".join(card_str(c) for c in sorted(cards_of(mask), key=self.sort_key))

    def meld_key(self, mask: int) -> tuple[int, int]:
        """Order of combinations when several are written: by their first card."""
        return min(self.sort_key(c) for c in cards_of(mask))


@cache
def meld_table(rules: Rules) -> MeldTable:
    """The meld table of a rules object's pack (built once per distinct pack)."""
    return _table_for_ranks(rules.ranks)


@cache
def _table_for_ranks(ranks: tuple[int, ...]) -> MeldTable:
    return MeldTable(ranks)
