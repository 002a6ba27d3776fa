"""Cooncan's legal listing as pure functions over card masks: the hot path of play and search.

The stages of a deal, the raw action kinds, the three-card combinations a hand can lay out
and the listing of a turn, apart from :class:`~conquian.engine.cooncan.deal.CooncanDeal` so that they
can be compiled (``conquian speedups build``) and called by the bots' policies without a
deal object.  :mod:`conquian.engine.cooncan.deal` re-exports the public names.

```pycon
>>> from conquian.engine.cards import CardSet, card_str
>>> h = CardSet.parse("7h 8h 9h Kc").mask
>>> [" ".join(card_str(c) for c in t) for t in hand_threes(h, 0, 0)]
['7h 8h 9h']

```
"""

from __future__ import annotations

from typing import Any, Final

from conquian.engine.cards import JOKER, cards_of, make_card, mask_picks
from conquian.engine.cooncan.melds import RUN, SET, Combo

DRAW: Final = 0
PLAY: Final = 1
OVER: Final = 2
STAGE_NAMES: Final = ("draw", "play", "over")

K_DRAW: Final = 10
K_TAKE: Final = 11
K_MELD: Final = 12
K_ADD: Final = 13
K_SHIFT: Final = 14
K_DISCARD: Final = 15
K_MELD3: Final = 16  # listing forms, built lazily
K_ADD1: Final = 17
K_SHIFT1: Final = 18
K_MELD3R: Final = 19  # a three-card sequence of one natural and two jokers (its cells alone read as a set)

RawAction = tuple[int, Any]
_DRAW_RAW: Final = (K_DRAW, None)
_DISCARD_RAW: Final = tuple((K_DISCARD, c) for c in range(64))
SUIT_ROW = 0x3FFE  # bits 1..13 of a suit's 16
ACE_BITS = sum(1 << (16 * s + 1) for s in range(4))
RANK_MASK = [sum(1 << make_card(r, s) for s in range(4)) if 1 <= r <= 13 else 0 for r in range(14)]


def draw_options(stock: tuple[int, ...], open_stock: bool) -> list[RawAction]:
    """Draw from the pack, or take from the stock (R4.2, R4.3).  (The pack is never empty here.)"""
    out: list[RawAction] = [(K_DRAW, None)]
    if stock:
        if open_stock:
            for c in sorted(set(stock)):
                out.append((K_TAKE, c))
        else:
            out.append((K_TAKE, stock[-1]))
    return out


def play_options(h1: int, h2: int, hj: int, combos: tuple[Combo, ...], double: bool, seat: int,
                 taken: int = -1) -> list[RawAction]:
    """The listed lay-out, add, shift and discard actions of a hand (see CooncanDeal.legal_actions).

    ``taken`` is a card that may not be discarded unless it is the last one (R1 ``discard_taken``).

    Raw forms are lazy (a combination is built only when the action is played):
    ``(K_MELD3, cells)``, ``(K_MELD3R, cells)`` (:func:`joker_runs`), ``(K_ADD1, (k, card, position,
    named))``, ``(K_SHIFT1, (k, which, card, position, named))``.

    Every lay-out, add or joker move of more cards is a listed one followed by listed adds, so
    the listed actions reach every set of cards a turn can lay, and every table it can leave,
    going out included (R4.3, R4.6): ``tests/test_cooncan_cover.py`` checks it against a search
    of every legal action.
    """
    threes = hand_threes(h1, h2, hj)
    out: list[RawAction] = [(K_MELD3, cells) for cells in threes] if threes else []
    if hj >= 2 and h1:  # R2.3: a meld may hold more than one joker
        for cells in joker_runs(h1, hj):
            out.append((K_MELD3R, cells))
    app = out.append
    k = -1
    for cb in combos:
        k += 1
        m = h1 & cb.add_mask
        if m:
            if cb.kind == SET:
                while m:
                    low = m & -m
                    app((K_ADD1, (k, low.bit_length() - 1, 0, 0)))
                    m ^= low
            else:
                for pos, c, natural_ok in cb.adds:
                    if natural_ok and h1 >> c & 1:
                        app((K_ADD1, (k, c, pos, c)))
        if hj:
            for pos, c in cb.joker_adds:
                app((K_ADD1, (k, JOKER, pos, c)))
        if cb.shifts:
            for tag, adds in cb.shifts:
                for pos, c, natural_ok in adds:
                    if natural_ok and h1 >> c & 1:
                        app((K_SHIFT1, (k, tag, c, pos, c)))
                    if hj:
                        app((K_SHIFT1, (k, tag, JOKER, pos, c)))
    m = h1
    if taken >= 0 and holds_other(h1, h2, hj, taken):
        if taken == JOKER:
            hj = 0
        else:
            m &= ~(1 << taken)
    out += mask_picks(m, _DISCARD_RAW, _ROW_DISCARDS)  # each suit's discards, made once per holding
    if hj:
        app(_DISCARD_RAW[JOKER])
    return out


#: the discards of one suit's holding, keyed by the holding (16 bits) and its shift
_ROW_DISCARDS: dict[int, tuple[RawAction, ...]] = {}


def holds_other(h1: int, h2: int, hj: int, card: int) -> bool:
    """Whether a hand holds a card other than ``card`` (and its copies): R1 ``discard_taken = false``
    forbids discarding the card just taken only while another discard exists, so a turn never
    has no legal end."""
    if card == JOKER:
        return bool(h1 | h2)
    return bool(hj or (h1 | h2) & ~(1 << card))


def new_combo(cells: tuple[int, ...], seat: int, limit: int) -> Combo:
    """The combination of listed cells (sets by rank; sequences in position order)."""
    naturals = [c for c in cells if c != JOKER]
    if len(naturals) == 1 or naturals[0] & 15 == naturals[1] & 15:
        return Combo(SET, naturals[0] & 15, 0, tuple(sorted(cells)), 0, seat, limit)
    first = 0 if cells[0] != JOKER else 1
    c0 = cells[first]  # the listing never puts an ace above a king first
    return Combo(RUN, c0 >> 4, (c0 & 15) - first, cells, 0, seat, limit)


def new_run3(cells: tuple[int, ...], seat: int, limit: int) -> Combo:
    """The three-card sequence of :func:`joker_runs`' cells (one natural, two jokers, in position order)."""
    i = 0 if cells[0] != JOKER else (1 if cells[1] != JOKER else 2)
    c = cells[i]
    pos = c & 15
    if pos == 1 and i == 2:
        pos = 14  # the ace above the king: X X Ah is Qh Kh Ah
    return Combo(RUN, c >> 4, pos - i, cells, 0, seat, limit)


_SET_MEMO: dict[tuple[int, int, int], tuple[tuple[int, ...], ...]] = {}
_RUN_MEMO: dict[int, tuple[tuple[int, ...], ...]] = {}


def _set_threes(row1: int, row2: int, hj: int) -> tuple[tuple[int, ...], ...]:
    """Three-card sets from one rank's cards (``row1`` held, ``row2`` held twice) and ``hj`` jokers."""
    cards = sorted(cards_of(row1) + cards_of(row2))
    n = len(cards)
    out: list[tuple[int, ...]] = []
    if n >= 3:
        seen: set[tuple[int, ...]] = set()
        for i in range(n):
            for j in range(i + 1, n):
                for k in range(j + 1, n):
                    t = (cards[i], cards[j], cards[k])
                    if t not in seen:
                        seen.add(t)
                        out.append(t)
    if hj and n >= 2:
        pairs = sorted({(cards[i], cards[j]) for i in range(n) for j in range(i + 1, n)})
        out += [(a, b, JOKER) for a, b in pairs]
    if hj >= 2:
        out += [(c, JOKER, JOKER) for c in sorted(set(cards))]
    return tuple(out)


def _run_threes(suit: int, row: int, joker: bool) -> tuple[tuple[int, ...], ...]:
    """Three-card sequences in one suit's row of positions (bit 14: the ace above the king)."""
    out: list[tuple[int, ...]] = []
    base = suit << 4
    ext = row | ((row & 2) << 13)
    starts = ext & (ext >> 1) & (ext >> 2)
    while starts:
        low = starts & -starts
        p = low.bit_length() - 1
        starts ^= low
        out.append((base + p, base + p + 1, base + (1 if p + 2 == 14 else p + 2)))
    if joker:
        pairs = ext & (ext >> 1)
        while pairs:
            low = pairs & -pairs
            p = low.bit_length() - 1
            pairs ^= low
            a, b = base + p, base + (1 if p + 1 == 14 else p + 1)
            if p >= 2 and not (p == 2 and p + 1 == 14):
                out.append((JOKER, a, b))
            if p + 2 <= 14 and not (p == 1 and p + 2 == 14):
                out.append((a, b, JOKER))
        gaps = ext & (ext >> 2)  # the joker between (even where the natural is held: R2.3)
        while gaps:
            low = gaps & -gaps
            p = low.bit_length() - 1
            gaps ^= low
            out.append((base + p, JOKER, base + (1 if p + 2 == 14 else p + 2)))
    return tuple(out)


def hand_threes(h1: int, h2: int, hj: int) -> list[tuple[int, ...]]:
    """Every three-card combination a hand can lay out, as :data:`K_MELD3` cells: sets (a single
    natural with two jokers is a set), sequences of naturals and sequences with one joker.  The
    sequences of one natural and two jokers are :func:`joker_runs`'."""
    out: list[tuple[int, ...]] = []
    # sets: a bit-sliced count of each rank over the suit rows (and the second copies)
    b0 = b1 = b2 = 0
    for h in (h1, h2) if h2 else (h1,):
        while h:
            x = h & 0xFFFF
            h >>= 16
            carry = b0 & x
            b0 ^= x
            b2 |= b1 & carry
            b1 ^= carry
    # ranks held at least three times, or twice / once with jokers to help
    ranks = (b2 | (b1 & b0)) if hj == 0 else ((b2 | b1) if hj == 1 else (b0 | b1 | b2))
    j2 = hj if hj < 2 else 2
    while ranks:
        low = ranks & -ranks
        r = low.bit_length() - 1
        ranks ^= low
        rm = RANK_MASK[r]
        key = (h1 & rm, h2 & rm, j2)
        got = _SET_MEMO.get(key)
        if got is None:
            got = _SET_MEMO[key] = _set_threes(key[0], key[1], j2)
        out += got
    # sequences: one test over the whole hand first (most hands have none), then suit by
    # suit, memoised on the suit's row.  Bit 14 of a suit stands for its ace above the king.
    ext = h1 | ((h1 & ACE_BITS) << 13)
    cand = ext & (ext >> 1)
    cand = cand & (ext >> 2) if not hj else cand | (ext & (ext >> 2))
    joker = 1 if hj else 0
    while cand:
        low = cand & -cand
        suit = (low.bit_length() - 1) >> 4
        cand &= ~(0xFFFF << (16 * suit))
        row = (h1 >> (16 * suit)) & SUIT_ROW
        rkey = row << 3 | suit << 1 | joker
        rgot = _RUN_MEMO.get(rkey)
        if rgot is None:
            rgot = _RUN_MEMO[rkey] = _run_threes(suit, row, bool(joker))
        out += rgot
    return out


_JRUN_MEMO: dict[int, tuple[tuple[int, ...], ...]] = {}


def _joker_runs(suit: int, row: int) -> tuple[tuple[int, ...], ...]:
    """The three-card sequences of one natural of ``row`` (a suit's holding) and two jokers."""
    out: list[tuple[int, ...]] = []
    base = suit << 4
    for r in range(1, 14):
        if row >> r & 1:
            for pos in ((1, 14) if r == 1 else (r,)):
                for lo in (pos - 2, pos - 1, pos):
                    if lo >= 1 and lo + 2 <= 14:
                        out.append(tuple(base + r if lo + i == pos else JOKER for i in range(3)))
    return tuple(out)


def joker_runs(h1: int, hj: int) -> list[tuple[int, ...]]:
    """The three-card sequences of one natural and two jokers a hand can lay out (R2.3: a meld
    may hold more than one joker), as cells in position order: ``(JOKER, JOKER, 5d)`` is
    3d-4d-5d, ``(JOKER, 5d, JOKER)`` 4d-5d-6d, ``(5d, JOKER, JOKER)`` 5d-6d-7d (as a
    :data:`K_MELD3` the same cells are the set of fives).  Empty without two jokers.

    With :func:`hand_threes` this is every three-card combination of the hand, and every longer
    one holds three neighbouring cards that are one of them (a sequence with at most two jokers
    always does), so it is laid as one of these and listed adds.

    ```pycon
    >>> from conquian.engine.cards import CardSet, card_str
    >>> [" ".join(card_str(c) if c != JOKER else "X" for c in t) for t in joker_runs(CardSet.parse("Kc").mask, 2)]
    ['X X Kc', 'X Kc X']

    ```
    """
    out: list[tuple[int, ...]] = []
    if hj < 2:
        return out
    for suit in range(4):
        row = (h1 >> (16 * suit)) & SUIT_ROW
        if row:
            key = row << 2 | suit
            got = _JRUN_MEMO.get(key)
            if got is None:
                got = _JRUN_MEMO[key] = _joker_runs(suit, row)
            out += got
    return out


def threes_at(h1: int, h2: int, hj: int, c: int) -> int:
    """How many of :func:`hand_threes`' combinations lie in the rank and the suit of the natural card
    ``c``: the only ones that adding or taking a copy of ``c`` to or from the hand can change."""
    rm = RANK_MASK[c & 15]
    j2 = hj if hj < 2 else 2
    key = (h1 & rm, h2 & rm, j2)
    got = _SET_MEMO.get(key)
    if got is None:
        got = _SET_MEMO[key] = _set_threes(key[0], key[1], j2)
    suit = c >> 4
    row = (h1 >> (16 * suit)) & SUIT_ROW
    joker = 1 if hj else 0
    rkey = row << 3 | suit << 1 | joker
    rgot = _RUN_MEMO.get(rkey)
    if rgot is None:
        rgot = _RUN_MEMO[rkey] = _run_threes(suit, row, bool(joker))
    return len(got) + len(rgot)
