"""Foster's suggestions for good play in Cooncan (three, four or five hands), as a policy.

Sources: Foster, *Cooncan* (1913), "Suggestions for good play" for four or five
players [F5] and for three players [F3].

1. Take the stock card only if it fits: it completes a combination in hand or fits
   one on the table; a large card of no positive value is left [F5: "it is usually
   better to take a chance on the pack when the stock card is of no positive value
   and is of large denomination"].
2. Count live outs: a pair or a broken sequence is worth the cards still to come that
   fill it, jokers included, less those shown or buried in the stock [F5: "If you have
   two kings, there are eight cards in the pack that will make you a triplet ...
   always keep in mind the fact that the chances of filling any combination depend on
   the number of cards still to show"].  A triplet fills more easily than a
   sequence with the double pack [F5: "it is always easier to fill a triplet than a
   sequence when playing with the double pack"].
3. Hold up for a splash while it is safe; once another player is close to going out
   (or one has laid down already), get down all one can [F5: "After one or two players
   have made up their hands pretty well and begin to lay down cards seven or eight at a
   time, it is expedient to get rid of as much as you can"; "E should get down all he
   can"].
4. Discard the dearest dead card [F5: "it is better to lay out the one that would cost
   the most if it had to be paid for"; F3: "getting rid of his expensive cards as
   quickly as possible"].
5. Keep the joker where it cannot be moved against you: in a set or inside a
   sequence, never at an open end unless that puts you out [F5: "Many players consider
   it bad policy to lay the joker at the open end of a sequence"; "If the joker is
   played as the interior of a sequence, it cannot be moved"].  Hold it in hand
   rather than lay it early [F5: "it is usually better to hold it"].
6. Join sequences rather than lay them apart, to shut out fattening: add to a
   sequence on the table before starting a new one [F5: "As a rule it is better to
   join the two than to lay them out separately"].
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from conquian.engine.cards import JOKER
from conquian.engine.cooncan.listing import (
    K_ADD1,
    K_DISCARD,
    K_DRAW,
    K_MELD3,
    K_MELD3R,
    K_SHIFT1,
    K_TAKE,
    RawAction,
    draw_options,
    hand_threes,
    new_combo,
    new_run3,
    play_options,
    threes_at,
)
from conquian.engine.cooncan.melds import SET, Combo
from conquian.engine.scoring import pip_value


@dataclass(init=False)
class Obs:
    """What the seat to act sees."""

    h1: int
    h2: int
    hj: int
    combos: tuple[Combo, ...]
    stage: int  # 0 draw, 1 play
    stock: tuple[int, ...]
    open_stock: bool
    double: bool
    seat: int
    hand_counts: tuple[int, ...]
    laid: bool  # this seat has laid something this deal
    pack_count: int
    seen1: int  # the cards visible (combinations, stock) at least once, as a mask
    seen2: int  # the cards visible at least twice (the double pack)
    taken: int = -1  # a card that may not be discarded unless it is the last (R1 discard_taken)

    def __init__(self, h1: int, h2: int, hj: int, combos: tuple[Combo, ...], stage: int, stock: tuple[int, ...],
            open_stock: bool, double: bool, seat: int, hand_counts: tuple[int, ...], laid: bool, pack_count: int,
            seen1: int, seen2: int, taken: int = -1) -> None:
        # written out (not made by dataclass): compiled, a native constructor
        self.h1 = h1
        self.h2 = h2
        self.hj = hj
        self.combos = combos
        self.stage = stage
        self.stock = stock
        self.open_stock = open_stock
        self.double = double
        self.seat = seat
        self.hand_counts = hand_counts
        self.laid = laid
        self.pack_count = pack_count
        self.seen1 = seen1
        self.seen2 = seen2
        self.taken = taken


def _hand_cards(h1: int, h2: int, hj: int) -> list[int]:
    out = []
    for h in (h1, h2):
        while h:
            low = h & -h
            out.append(low.bit_length() - 1)
            h ^= low
    return out + [JOKER] * hj


def _add(h1: int, h2: int, hj: int, c: int) -> tuple[int, int, int]:
    if c == JOKER:
        return h1, h2, hj + 1
    if h1 >> c & 1:
        return h1, h2 | 1 << c, hj
    return h1 | 1 << c, h2, hj


def _remove(h1: int, h2: int, hj: int, c: int) -> tuple[int, int, int]:
    if c == JOKER:
        return h1, h2, hj - 1
    if h2 >> c & 1:
        return h1, h2 & ~(1 << c), hj
    return h1 & ~(1 << c), h2, hj


def _neighbours(c: int) -> tuple[tuple[int, bool, bool, tuple[int, ...]], ...]:
    """The cards of ``c``'s suit that make a partial sequence with it (rule 2), each as (the
    card, whether it is next to ``c``, whether one place apart, the cards that would fill the
    partial): positions count the ace at both ends, an ace also pairs with the 2 and the 3."""
    r, s = c & 15, c >> 4
    pos = 14 if r == 1 else r
    near = [(p, (s << 4) | (1 if p == 14 else p)) for p in (pos - 2, pos - 1, pos + 1, pos + 2) if 1 <= p <= 14]
    if r == 1:
        near += [(p, (s << 4) | p) for p in (2, 3)]
    out = []
    for p, x in near:
        lo, hi = min(p, pos), max(p, pos)
        gaps = [lo + 1] if hi - lo == 2 else [lo - 1, hi + 1]
        fill = tuple((s << 4) | (1 if g in (1, 14) else g) for g in gaps if 1 <= g <= 14)
        out.append((x, abs(p - pos) == 1 or (r == 1 and p == 2), abs(p - pos) == 2, fill))
    return tuple(out)


#: per natural card: its partial sequences (:func:`_neighbours`)
NEIGHBOURS: list[tuple[tuple[int, bool, bool, tuple[int, ...]], ...]] = [_neighbours(c) for c in range(64)]
#: per rank: its four cards, as a mask
RANK_BITS: list[int] = [sum(1 << ((t << 4) | r) for t in range(4)) for r in range(16)]


def seen_masks(seen: dict[int, int]) -> tuple[int, int]:
    """The cards seen at least once, and at least twice, as masks (from the copies seen of each card:
    :attr:`Obs.seen1` and :attr:`Obs.seen2` of the cards on the table and in the stock)."""
    s1 = s2 = 0
    for x, n in seen.items():
        if n >= 1:
            s1 |= 1 << x
        if n >= 2:
            s2 |= 1 << x
    return s1, s2


def live_masks(h1: int, h2: int, double: bool, s1: int, s2: int) -> tuple[int, int]:
    """A card's live copies (rule 2: copies neither seen nor in the hand) as two masks whose bits
    add up to them.  A card's unavailable copies are its bits in ``s1``, ``s2`` (seen once,
    twice), ``h1`` and ``h2`` (held once, twice): the first mask holds the cards with none set
    (one copy live in a single pack, two in the double), the second, for the double pack, the
    cards with at most one set (at least one copy live)."""
    one = ~(s1 | h1 | h2)
    two = ~(s2 | (s1 & h1) | (s1 & h2) | (h1 & h2)) if double else 0
    return one, two


def card_keep(o: Obs, h1: int, h2: int, hj: int, c: int) -> float:
    """How much a natural hand card is worth keeping (rule 2): in a meld, in a live partial, or dead."""
    s1, s2 = o.seen1, o.seen2
    one, two = live_masks(h1, h2, o.double, s1, s2)
    return keep_value(h1, h2, c, one, two)


def keep_value(h1: int, h2: int, c: int, one: int, two: int) -> float:
    """:func:`card_keep` with the live copies as masks (:func:`live_masks` of the same hand)."""
    r = c & 15
    rm = RANK_BITS[r]
    same = (h1 & rm).bit_count() + (h2 & rm).bit_count() - 1
    if same >= 2:
        return 6.0  # a set in hand
    value = 0.0
    if same == 1:
        outs = (rm & one).bit_count() + (rm & two).bit_count()
        value = 1.0 + 0.8 * outs
    # neighbours in the suit (positions; the ace at both ends)
    both = h1 | h2
    held = False
    adjacent = 0
    apart = False
    near = NEIGHBOURS[c]
    for x, next_to, two_off, _ in near:
        if both >> x & 1:
            held = True
            if next_to:
                adjacent += 1
            elif two_off:
                apart = True
    if adjacent >= 2 or (adjacent and apart):
        return 6.0  # a sequence in hand
    if held:
        outs = 0
        for x, _, _, fill in near:
            if both >> x & 1:
                for g in fill:
                    outs += (one >> g & 1) + (two >> g & 1)
        value = max(value, 0.8 + 0.6 * outs)
    return value


#: the natural cards by pip value (R2.4), dearest first: (pips, the cards of that value)
PIP_GROUPS: list[tuple[int, int]] = [
    (v, sum(1 << ((t << 4) | r) for t in range(4) for r in range(1, 14) if pip_value((t << 4) | r) == v))
    for v in range(11, 1, -1)
]


def discard_choice(o: Obs, h1: int, h2: int, hj: int) -> int:
    """The dearest dead card (rule 4); the joker only if nothing else is left.

    The card of the highest score (its pips less four times its value to keep), the lowest card
    among equals.  A card scores at most its pips, so the cards are weighed dearest first and
    the search stops at pips below the best score (a card held twice scores the same twice:
    the first copy is enough)."""
    s1, s2 = o.seen1, o.seen2
    one, two = live_masks(h1, h2, o.double, s1, s2)
    best = -1
    best_score = 0.0
    hand = h1 & ~(1 << o.taken) if 0 <= o.taken < JOKER else h1
    for pips, cards in PIP_GROUPS:
        if best >= 0 and pips < best_score:
            break
        h = hand & cards
        while h:
            low = h & -h
            h ^= low
            c = low.bit_length() - 1
            score = pips - 4.0 * keep_value(h1, h2, c, one, two)
            if best < 0 or score > best_score or (score == best_score and c < best):
                best, best_score = c, score
    if best >= 0:
        return best
    if hj and o.taken != JOKER:
        return JOKER
    return _hand_cards(h1, h2, hj)[0]  # only the card taken this turn is left (or its copies)


def _fits_table(o: Obs, c: int) -> bool:
    for cb in o.combos:
        if c == JOKER:
            if cb.joker_adds:
                return True
        elif cb.add_mask >> c & 1:
            return True
    return False


def draw_choice(o: Obs) -> RawAction:
    """Rule 1: take a stock card that fits, else draw."""
    options = draw_options(o.stock, o.open_stock)
    best: tuple[float, RawAction] = (0.0, (K_DRAW, None))
    for raw in options:
        if raw[0] != K_TAKE:
            continue
        c = raw[1]
        if c == JOKER:
            return raw
        h1, h2, hj = _add(o.h1, o.h2, o.hj, c)
        gain = 0.0
        # whether the card adds to the hand's three-card combinations (only those of its rank and
        # suit can change)
        if threes_at(h1, h2, hj, c) > threes_at(o.h1, o.h2, o.hj, c):
            gain = 3.0
        elif _fits_table(o, c) and (o.laid or _danger(o)):
            gain = 1.5
        else:
            one, two = live_masks(h1, h2, o.double, o.seen1, o.seen2)
            if keep_value(h1, h2, c, one, two) >= 1.8 and pip_value(c) <= 6:
                gain = 0.8
        if gain > best[0]:
            best = (gain, raw)
    return best[1]


def _danger(o: Obs) -> bool:
    """Rule 3: someone is close to going out, or the deal is old."""
    others = [n for i, n in enumerate(o.hand_counts) if i != o.seat - 1]
    return min(others) <= 4 or o.pack_count < 12


def _joker_at_open_end(o: Obs, raw: RawAction) -> bool:
    kind, arg = raw
    if kind == K_MELD3R:
        return True  # one natural and two jokers: a joker at an end, always
    if kind == K_MELD3:
        cells = arg
        naturals = [c for c in cells if c != JOKER]
        is_set = len(naturals) == 1 or naturals[0] & 15 == naturals[1] & 15
        return not is_set and (cells[0] == JOKER or cells[-1] == JOKER)
    if kind in (K_ADD1, K_SHIFT1):
        card: int = arg[1] if kind == K_ADD1 else arg[2]
        pos: int = arg[2] if kind == K_ADD1 else arg[3]
        return card == JOKER and pos != 0
    return False


def _can_go_out(o: Obs) -> list[RawAction] | None:
    """A greedy plan that empties the hand (or leaves one card to discard) this turn, if any.

    Each step plays the first of the hand's listed options (:func:`play_options`, discards
    left out) that prefers naturals, then melds (they take three cards at once): see
    :func:`_greedy_step`.  The table is brought up to date only when a step needs it (a step
    that lays a natural meld from the hand does not)."""
    h1, h2, hj = o.h1, o.h2, o.hj
    combos = o.combos
    plan: list[RawAction] = []
    applied = 0  # the steps of the plan already applied to ``combos``
    for _ in range(30):
        size = h1.bit_count() + h2.bit_count() + hj
        if size <= 1:
            return plan
        threes = hand_threes(h1, h2, hj)
        raw: RawAction | None = None
        for cells in threes:
            if JOKER not in cells:
                raw = (K_MELD3, cells)
                break
        if raw is None:
            while applied < len(plan):
                combos = _apply_to_table(o, combos, plan[applied])
                applied += 1
            raw = _greedy_step(h1, hj, combos, threes)
            if raw is None:
                return None
        plan.append(raw)
        if raw[0] == K_MELD3:
            for c in raw[1]:
                h1, h2, hj = _remove(h1, h2, hj, c)
        else:
            h1, h2, hj = _remove(h1, h2, hj, raw[1][1] if raw[0] == K_ADD1 else raw[1][2])
    return None


def _greedy_step(h1: int, hj: int, combos: tuple[Combo, ...], threes: list[tuple[int, ...]]) -> RawAction | None:
    """The option a hand with no natural meld plays next: ``min(options, key=(uses the joker, not
    a meld))`` over :func:`play_options`' lay-outs, adds and shifts in their listed order, found
    without listing them: the first natural add or shift, else the first meld with a joker
    (``threes``: the hand's), else the first add or shift of the joker; ``None`` if none."""
    joker_play: RawAction | None = None
    k = -1
    for cb in combos:
        k += 1
        m = h1 & cb.add_mask
        if m:
            if cb.kind == SET:
                return (K_ADD1, (k, (m & -m).bit_length() - 1, 0, 0))
            for pos, c, natural_ok in cb.adds:
                if natural_ok and h1 >> c & 1:
                    return (K_ADD1, (k, c, pos, c))
        if hj and joker_play is None:
            for pos, c in cb.joker_adds:
                joker_play = (K_ADD1, (k, JOKER, pos, c))
                break
        if cb.shifts:
            for tag, adds in cb.shifts:
                for pos, c, natural_ok in adds:
                    if natural_ok and h1 >> c & 1:
                        return (K_SHIFT1, (k, tag, c, pos, c))
                    if hj and joker_play is None:
                        joker_play = (K_SHIFT1, (k, tag, JOKER, pos, c))
    if threes:
        return (K_MELD3, threes[0])
    return joker_play


def _uses_joker(raw: RawAction) -> bool:
    kind, arg = raw
    if kind in (K_MELD3, K_MELD3R):
        return JOKER in arg
    card: int = arg[1] if kind == K_ADD1 else arg[2]
    return card == JOKER


def _apply_to_table(o: Obs, combos: tuple[Combo, ...], raw: RawAction) -> tuple[Combo, ...]:
    """The table's combinations after a lay-out, add or shift of the seat to act."""
    kind, arg = raw
    if kind == K_MELD3:
        return (*combos, new_combo(arg, o.seat, 0 if o.double else 4))
    if kind == K_MELD3R:
        return (*combos, new_run3(arg, o.seat, 0 if o.double else 4))
    if kind == K_ADD1:
        k, c, pos, _named = arg
        new = list(combos)
        new[k] = combos[k].add_at(c, pos)
        return tuple(new)
    k, which, c, pos, _named = arg
    base = combos[k]
    new = list(combos)
    new[k] = base.shift(which or base.movable_jokers()[0]).add_at(c, pos)
    return tuple(new)


def play_choice(o: Obs) -> RawAction:
    """Rules 3-6 after the draw."""
    plan = _can_go_out(o)
    if plan is not None:  # going out this turn: lay what the plan lays, then discard the last card
        return plan[0] if plan else (K_DISCARD, _hand_cards(o.h1, o.h2, o.hj)[0])
    hold = not o.laid and not _danger(o)  # rule 3: hold up for a splash while it is safe
    if not hold:
        options = [r for r in play_options(o.h1, o.h2, o.hj, o.combos, o.double, o.seat) if r[0] != K_DISCARD]
        options = [r for r in options if not _uses_joker(r) or not _joker_at_open_end(o, r)]
        options = [r for r in options if not _uses_joker(r)]  # rule 5: hold the joker
        if options:
            # rule 6: join sequences on the table first, then lay new combinations
            def rank(r: RawAction) -> tuple[int, int]:
                if r[0] == K_ADD1:
                    return (0, -pip_value(r[1][1]))
                if r[0] == K_SHIFT1:
                    return (1, 0)
                return (2, -sum(pip_value(c) for c in r[1]))

            return min(options, key=rank)
    return (K_DISCARD, discard_choice(o, o.h1, o.h2, o.hj))


def policy(o: Obs, rng: random.Random) -> RawAction:
    """Foster's choice for the seat to act."""
    if o.stage == 0:
        return draw_choice(o)
    return play_choice(o)
