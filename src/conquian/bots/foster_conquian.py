"""Foster's suggestions for good play in conquian (two hands), as a policy.

Every rule below names the passage of the seeds it comes from: Foster,
*Cooncan* (1913), "Suggestions for good play, for two players" [F], and Foster's
Hoyle, "Conquian", "Suggestions for good play" [H].

1. Count live outs: a partial combination is worth the cards still to come that
   complete it; cards buried, on the table or in one's own hand are dead [F: "it is
   most important to know what cards are still to come"; "it is useless to hold
   combinations that are blocked"].
2. Sequences are worth more than triplets [F: "It is always better to play for
   sequences than for triplets, because of the length to which sequences may run"].
3. Show as little as needed: among ways to use a card, lay the fewest hand cards [F:
   "even if a player can lay down four or five in sequence, he should never do so unless he
   must show the cards to win ... Just lay down the three necessary to show how you use the
   card you draw"].  A use that wins is always taken: it is the object of the game [F: "The
   first to show eleven cards on the table wins the game"; R3.7].
4. Discard the card that connects with nothing (the dead card), never a card that
   fits the adversary's combinations unless it is forced on him [F, H: "the best
   discard would be his K, which is too far removed from the others"].
5. Force the adversary with a card he refused that fits his combinations [F: "If he
   refuses the card himself, it is invariably good play to force him with it"], but
   never force a player who is ten down with an empty hand (it hands him the deal,
   R3.7), and force a discard on him to break up his hand [F: "By compelling a player
   who is waiting for a certain card in this way to break up the two he is holding"].
6. A hopeless hand plays for a tableau: use nothing that is not a win [F: "When his
   hand presents no reasonable hope of getting eleven cards down, he should play for
   a tableau, refusing to use anything"].
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from conquian.engine.conquian.listing import (
    DISCARD,
    FORCED,
    K_DISCARD,
    K_FORCE,
    K_PASS,
    K_USE,
    SAY_DISCARD,
    SAY_PASSED,
    RawAction,
    use_forms,
)
from conquian.engine.conquian.melds import MeldTable


@dataclass(init=False)
class Obs:
    """What the seat to act sees, as masks (built from a view, or from a state in a rollout)."""

    tbl: MeldTable
    stage: int
    card: int
    hand: int
    side: tuple[int, ...]
    down: int
    other_side: tuple[int, ...]
    other_down: int
    other_hand_count: int
    pack_count: int
    unseen: int  # cards that may still come: the pack and the adversary's hand

    def __init__(self, tbl: MeldTable, stage: int, card: int, hand: int, side: tuple[int, ...], down: int, other_side:
            tuple[int, ...], other_down: int, other_hand_count: int, pack_count: int, unseen: int) -> None:
        # written out (not made by dataclass): compiled, a native constructor
        self.tbl = tbl
        self.stage = stage
        self.card = card
        self.hand = hand
        self.side = side
        self.down = down
        self.other_side = other_side
        self.other_down = other_down
        self.other_hand_count = other_hand_count
        self.pack_count = pack_count
        self.unseen = unseen


class FosterTables:
    """What the policy reads of one pack's combinations, built once per :class:`MeldTable`.

    For each card, the three-card combinations through it as its two other cards and whether
    it is a sequence, in the order of ``threes_by_card`` (rule 1 adds up their outs in that
    order); and, memoised per combination, the cards that fit it as it lies, so that "does this
    card fit one of these combinations" is one AND with their union."""

    def __init__(self, tbl: MeldTable) -> None:
        self.tbl = tbl
        threes: list[tuple[tuple[int, bool], ...]] = [() for _ in range(64)]
        for c, ts in tbl.threes_by_card.items():
            cb = 1 << c
            threes[c] = tuple((t & ~cb, tbl.is_run(t)) for t in ts)
        self.threes = threes

    def fits(self, meld: int) -> int:
        """The cards that fit ``meld`` as it lies (its own cards included), as a mask (the table's,
        memoised there)."""
        return self.tbl.fits_mask(meld)

    def side_fits(self, side: tuple[int, ...]) -> int:
        """The cards that fit one of these combinations as they lie."""
        f = 0
        for m in side:
            f |= self.fits(m)
        return f


_TABLES: dict[MeldTable, FosterTables] = {}


def foster_tables(tbl: MeldTable) -> FosterTables:
    """The policy's tables for a pack (built on first use, then kept)."""
    tb = _TABLES.get(tbl)
    if tb is None:
        tb = _TABLES[tbl] = FosterTables(tbl)
    return tb


def value_of(tb: FosterTables, c: int, hand: int, fits: int, live: int) -> float:
    """How much a hand card is worth keeping (rules 1 and 2); ``fits``: the cards that fit one of
    the player's combinations (:meth:`FosterTables.side_fits`)."""
    if fits >> c & 1:
        return 3.0  # it goes down with the next card used
    best = 0.0
    outs = 0.0
    for others, run in tb.threes[c]:
        held = others & hand
        if held == others:
            best = max(best, 4.0 if run else 3.5)  # a combination complete in hand
            continue
        if held and others & ~held & live:
            outs += 1.2 if run else 1.0  # rule 2: sequences first
    if best:
        return best
    return (outs if outs < 3.0 else 3.0) * 0.8


def card_value(tbl: MeldTable, c: int, hand: int, side: tuple[int, ...], live: int) -> float:
    """How much a hand card is worth keeping (rules 1 and 2)."""
    tb = foster_tables(tbl)
    return value_of(tb, c, hand, tb.side_fits(side), live)


def hand_values(tb: FosterTables, hand: int, fits: int, live: int) -> tuple[float, int]:
    """The sum of the cards' values, and how many are dead (worth nothing: rule 6), every card
    valued once."""
    total = 0.0
    dead = 0
    h = hand
    while h:
        low = h & -h
        v = value_of(tb, low.bit_length() - 1, hand, fits, live)
        total += v
        if v == 0.0:
            dead += 1
        h ^= low
    return total, dead


def hand_value(tbl: MeldTable, hand: int, side: tuple[int, ...], live: int) -> float:
    """The sum of the cards' values."""
    tb = foster_tables(tbl)
    return hand_values(tb, hand, tb.side_fits(side), live)[0]


def dead_count(tbl: MeldTable, hand: int, side: tuple[int, ...], live: int) -> int:
    """Cards that connect with nothing that can still come (rule 6)."""
    tb = foster_tables(tbl)
    return hand_values(tb, hand, tb.side_fits(side), live)[1]


def fits_any(tbl: MeldTable, sides: tuple[int, ...], c: int) -> bool:
    """Whether ``c`` fits one of these combinations as they lie."""
    return bool(foster_tables(tbl).side_fits(sides) >> c & 1)


def discard_and_total(o: Obs, tb: FosterTables, hand: int, fits: int,
                      other_fits: int) -> tuple[float, float, RawAction]:
    """The hand's value (as :func:`hand_value`) and its best discard or discarding force with
    its score (as :func:`choose_discard`), every card valued once; ``fits`` and ``other_fits``:
    the cards that fit the player's and the adversary's combinations."""
    total = 0.0
    best_score = 0.0
    best_raw: RawAction = (K_DISCARD, -1)
    adversary_safe = o.other_hand_count >= 3  # forcing a nearly-out player can hand him the deal
    live = o.unseen
    h = hand
    while h:
        low = h & -h
        c = low.bit_length() - 1
        h ^= low
        keep = value_of(tb, c, hand, fits, live)
        total += keep
        if other_fits >> c & 1:
            # rule 4: a card he can use brings him a card nearer eleven; if it must go, force it
            # on him (rule 5: it makes him break up what he holds), unless he is nearly out
            score = keep + 2.5
            if best_raw[1] == -1 or score < best_score:
                best_score, best_raw = score, ((K_FORCE, c) if adversary_safe else (K_DISCARD, c))
        elif best_raw[1] == -1 or keep < best_score:
            best_score, best_raw = keep, (K_DISCARD, c)
    assert best_raw[1] != -1
    return total, best_score, best_raw


def choose_discard(o: Obs, hand: int, side: tuple[int, ...]) -> tuple[float, RawAction]:
    """The best discard or discarding force for a hand (rules 4 and 5)."""
    tb = foster_tables(o.tbl)
    _, score, raw = discard_and_total(o, tb, hand, tb.side_fits(side), tb.side_fits(o.other_side))
    return score, raw


def policy(o: Obs, rng: random.Random) -> RawAction:
    """Foster's choice for the seat to act."""
    tbl = o.tbl
    tb = foster_tables(tbl)
    other_fits = tb.side_fits(o.other_side)
    if o.stage == DISCARD:
        return discard_and_total(o, tb, o.hand, tb.side_fits(o.side), other_fits)[2]
    forms = use_forms(tbl, o.side, o.down, o.hand, o.card)
    wins = winning_use(o.hand, forms)
    if wins is not None:
        return (K_USE, wins)
    if o.stage == FORCED:
        return best_use(o, tb, forms, other_fits)[1]
    can_force = bool(other_fits >> o.card & 1)
    he_is_out_next = o.other_hand_count == 0
    refused = o.stage in (SAY_PASSED, SAY_DISCARD)
    if forms:  # the hand is valued only if there is a use to weigh against passing
        pass_score, dead = hand_values(tb, o.hand, tb.side_fits(o.side), o.unseen)
        # rule 6: a hopeless hand plays for a tableau
        hopeless = dead >= 5 and o.down.bit_count() < 4
        if not hopeless:
            score, raw = best_use(o, tb, forms, other_fits)
            if score > pass_score:
                return raw
    if can_force and refused and not he_is_out_next:
        return (K_FORCE, o.card)  # rule 5: he refused it, force him with it
    return (K_PASS, -1)


def best_use(o: Obs, tb: FosterTables, forms: list[tuple[int, ...]], other_fits: int) -> tuple[float, RawAction]:
    """The first use of the best :func:`use_score` among ``forms`` (at least one)."""
    best_score = 0.0
    best_raw: RawAction = (K_PASS, -1)
    for f in forms:
        score = _use_score(o, tb, f, other_fits)
        if best_raw[0] == K_PASS or score > best_score:
            best_score, best_raw = score, (K_USE, f)
    return best_score, best_raw


def use_score(o: Obs, raw: RawAction) -> tuple[float, RawAction]:
    """The value of a use: cards put down, the hand kept after the best discard (rules 1-4)."""
    tb = foster_tables(o.tbl)
    return (_use_score(o, tb, raw[1], tb.side_fits(o.other_side)), raw)


def _use_score(o: Obs, tb: FosterTables, melds: tuple[int, ...], other_fits: int) -> float:
    new_hand, laid, fits = after_use(tb, o.hand, o.side, melds)
    if new_hand == 0:
        return WIN_SCORE
    total, discard_cost, _ = discard_and_total(o, tb, new_hand, fits, other_fits)
    return use_value(total - discard_cost, laid)


# ------------------------------------------------------------------------------------------------
# What Foster's advice weighs the same way in every game of the family (foster_mexicano too).

WIN_SCORE: Final = 100.0
"""The score of a use that empties the hand: it wins, above any other (eleven down, R3.7; hand
+ 1, R8.5)."""


def winning_use(hand: int, forms: list[tuple[int, ...]]) -> tuple[int, ...] | None:
    """The first of ``forms`` that lays every card of ``hand``: a use that wins is always taken."""
    for f in forms:
        laid = 0
        for m in f:
            laid |= m
        if hand & ~laid == 0:
            return f
    return None


def after_use(tb: FosterTables, hand: int, side: tuple[int, ...], melds: tuple[int, ...]) -> tuple[int, int, int]:
    """What laying ``melds`` leaves: the hand, how many of its cards the use lays, and the cards
    that fit the side after it (the combinations it leaves untouched, and its own)."""
    u = 0
    for m in melds:
        u |= m
    fits = 0
    for m in side:
        if not m & u:
            fits |= tb.fits(m)
    for m in melds:
        fits |= tb.fits(m)
    return hand & ~u, (u & hand).bit_count(), fits


def use_value(kept: float, laid: int) -> float:
    """The value of a use that does not win, from the value of the hand it keeps after its best
    discard (``kept``) and how many hand cards it lays (rules 1-4)."""
    # progress: the card and the two hand cards that show how it is used bring going out closer;
    # rule 3: a hand card laid beyond them counts against the use ("he should never do so unless
    # he must show the cards to win": a use that wins scores WIN_SCORE)
    return kept + 5.0 * (1 + min(laid, 2)) - 1.2 * max(0, laid - 2)
