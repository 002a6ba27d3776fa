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
   "Just lay down the three necessary to show how you use the card you draw"].
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
    legal_raw,
)
from conquian.engine.conquian.melds import MeldTable


@dataclass
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


def card_value(tbl: MeldTable, c: int, hand: int, side: tuple[int, ...], live: int) -> float:
    """How much a hand card is worth keeping (rules 1 and 2)."""
    cb = 1 << c
    valid = tbl.valid
    for m in side:
        if m | cb in valid:
            return 3.0  # it goes down with the next card used
    best = 0.0
    outs = 0.0
    for t in tbl.threes_by_card.get(c, ()):
        others = t & ~cb
        held = others & hand
        if held == others:
            best = max(best, 4.0 if tbl.is_run(t) else 3.5)  # a combination complete in hand
            continue
        if held:
            missing = others & ~held
            if missing & live:
                outs += 1.2 if tbl.is_run(t) else 1.0  # rule 2: sequences first
    if best:
        return best
    return min(outs, 3.0) * 0.8


def hand_value(tbl: MeldTable, hand: int, side: tuple[int, ...], live: int) -> float:
    """The sum of the cards' values."""
    total = 0.0
    h = hand
    while h:
        low = h & -h
        total += card_value(tbl, low.bit_length() - 1, hand, side, live)
        h ^= low
    return total


def dead_count(tbl: MeldTable, hand: int, side: tuple[int, ...], live: int) -> int:
    """Cards that connect with nothing that can still come (rule 6)."""
    n = 0
    h = hand
    while h:
        low = h & -h
        if card_value(tbl, low.bit_length() - 1, hand, side, live) == 0.0:
            n += 1
        h ^= low
    return n


def fits_any(tbl: MeldTable, sides: tuple[int, ...], c: int) -> bool:
    """Whether ``c`` fits one of these combinations as they lie."""
    cb = 1 << c
    return any(m | cb in tbl.valid for m in sides)


def choose_discard(o: Obs, hand: int, side: tuple[int, ...]) -> tuple[float, RawAction]:
    """The best discard or discarding force for a hand (rules 4 and 5)."""
    tbl = o.tbl
    best: tuple[float, RawAction] | None = None
    adversary_safe = o.other_hand_count >= 3  # forcing a nearly-out player can hand him the deal
    h = hand
    while h:
        low = h & -h
        c = low.bit_length() - 1
        h ^= low
        keep = card_value(tbl, c, hand, side, o.unseen)
        fits_him = fits_any(tbl, o.other_side, c)
        if fits_him:
            # rule 4: a card he can use brings him a card nearer eleven; if it must go, force it
            # on him (rule 5: it makes him break up what he holds), unless he is nearly out
            score, raw = keep + 2.5, ((K_FORCE, c) if adversary_safe else (K_DISCARD, c))
        else:
            score, raw = keep, (K_DISCARD, c)
        if best is None or score < best[0]:
            best = (score, raw)
    assert best is not None
    return best


def policy(o: Obs, rng: random.Random) -> RawAction:
    """Foster's choice for the seat to act."""
    tbl = o.tbl
    legal = legal_raw(tbl, o.stage, o.card, o.hand, o.side, o.down, o.other_side)
    if o.stage == DISCARD:
        return choose_discard(o, o.hand, o.side)[1]
    uses = [r for r in legal if r[0] == K_USE]
    # a use that wins is always taken (eleven down, R3.7)
    for r in uses:
        laid = 0
        for m in r[1]:
            laid |= m
        if o.hand & ~laid == 0:
            return r
    if o.stage == FORCED:
        return max(uses, key=lambda r: use_score(o, r)[0])
    can_force = any(r[0] == K_FORCE for r in legal)
    he_is_out_next = o.other_hand_count == 0
    refused = o.stage in (SAY_PASSED, SAY_DISCARD)
    # rule 6: a hopeless hand plays for a tableau
    hopeless = dead_count(tbl, o.hand, o.side, o.unseen) >= 5 and o.down.bit_count() < 4
    best_use = max((use_score(o, r) for r in uses), default=None, key=lambda x: x[0])
    pass_score = hand_value(tbl, o.hand, o.side, o.unseen)
    if best_use is not None and not hopeless and best_use[0] > pass_score:
        return best_use[1]
    if can_force and refused and not he_is_out_next:
        return (K_FORCE, o.card)  # rule 5: he refused it, force him with it
    return (K_PASS, -1)


def use_score(o: Obs, raw: RawAction) -> tuple[float, RawAction]:
    """The value of a use: cards put down, the hand kept after the best discard (rules 1-4)."""
    tbl = o.tbl
    melds: tuple[int, ...] = raw[1]
    u = 0
    for m in melds:
        u |= m
    new_side = tuple(m for m in o.side if not m & u) + melds
    new_hand = o.hand & ~u
    laid = (u & o.hand).bit_count()
    if new_hand == 0:
        return (100.0, raw)
    discard_cost, _ = choose_discard(o, new_hand, new_side)
    kept = hand_value(tbl, new_hand, new_side, o.unseen) - discard_cost
    # progress: every card down brings eleven closer; rule 3: show no more than needed
    return (kept + 5.0 * (1 + laid) - 0.6 * max(0, laid - 2), raw)
