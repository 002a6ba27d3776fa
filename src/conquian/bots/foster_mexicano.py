"""Foster's suggestions for good play, carried over to the conquián mexicano (R8), as a policy.

The conquián mexicano is conquian (R3) with eight (or nine) cards, two to four players round
the table, an exchange before the first card (R8.2) and going out with ``hand + 1`` down
(R8.5).  Foster wrote for the two-hand game of ten cards; this policy keeps his principles as
:mod:`conquian.bots.foster_conquian` states them (rules 1-6 there: live outs, sequences before
triplets, show as little as needed, discard the dead card and never into an adversary's
combination, force a refused card, a hopeless hand plays for a draw) and uses that module's
card values, and adds what the modern game asks:

7. **The exchange** (R8.2): give the card least useful to oneself (the lowest value of rule 1,
   the same measure as a discard).  It goes face down to the next player, about whom nothing is
   known yet, so among equally useless cards give the most isolated one: the card with the
   fewest live combinations through it at all (an end card such as the ace or the king joins
   fewer sequences than a middle card), which is also the card least likely to help him.
8. **Whom to force** (R8.4, three or more players): a card is forced only on a player it fits;
   among those, first one who refused it (he passed it, or discarded it: Foster's "if he
   refuses the card himself, it is invariably good play to force him with it"), then the one
   with the most cards in hand: he is furthest from going out, so the card down brings him
   least and the discard it costs him breaks most.  A player with an empty hand is never
   forced (it hands him the deal, R8.5), and a discard is forced only on a player with three
   cards or more in hand, as rule 5 says.
9. **Playing for a draw** (rule 6) is kept for two players only: with more, a hand that
    refuses everything does not stop the others from going out; the threshold is scaled to the
    hand (half the hand dead, less than four tenths of it down).

The functions work on masks only, like the other policies, so that the module can be compiled
with the rest of the hot path (:mod:`conquian.speedups`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from conquian.bots.foster_conquian import (
    WIN_SCORE,
    FosterTables,
    after_use,
    foster_tables,
    hand_values,
    use_value,
    value_of,
    winning_use,
)
from conquian.engine.conquian.listing import use_forms
from conquian.engine.conquian.melds import MeldTable
from conquian.engine.conquian.mexicano_listing import (
    DISCARD,
    EXCHANGE,
    FORCE_SHIFT,
    FORCED,
    K_DISCARD,
    K_FORCE,
    K_GIVE,
    K_PASS,
    K_USE,
    RawAction,
)

#: The least a player must hold for a discard to be forced on him (rule 5: a nearly-out player
#: may be handed the deal).
SAFE_HAND = 3


@dataclass(init=False)
class Obs:
    """What the seat to act sees, as masks (built from a view, or from a state in a playout).

    Players are indexes in the order of play (0 the first after the dealer), as in the deal."""

    tbl: MeldTable
    stage: int
    me: int
    card: int
    hand: int
    sides: tuple[tuple[int, ...], ...]
    """Every player's combinations."""
    downs: tuple[int, ...]
    """Every player's cards on the table."""
    hand_counts: tuple[int, ...]
    pack_count: int
    unseen: int
    """Cards that may still come: the pack and the other hands."""
    origin: int
    """Who turned or discarded the card in play."""
    first: int
    """Who had the first say to it (the players from ``first`` to ``me`` - 1 passed it)."""

    def __init__(self, tbl: MeldTable, stage: int, me: int, card: int, hand: int, sides: tuple[tuple[int, ...], ...],
            downs: tuple[int, ...], hand_counts: tuple[int, ...], pack_count: int, unseen: int, origin: int, first:
            int) -> None:
        # written out (not made by dataclass): compiled, a native constructor
        self.tbl = tbl
        self.stage = stage
        self.me = me
        self.card = card
        self.hand = hand
        self.sides = sides
        self.downs = downs
        self.hand_counts = hand_counts
        self.pack_count = pack_count
        self.unseen = unseen
        self.origin = origin
        self.first = first


def isolation(tbl: MeldTable, c: int, live: int) -> int:
    """How many threes through ``c`` could still be made from ``live`` cards (rule 7: fewer is
    more isolated, for the giver and for whoever gets it)."""
    n = 0
    for others, _ in foster_tables(tbl).threes[c]:
        if others & ~live == 0:
            n += 1
    return n


def choose_give(o: Obs) -> RawAction:
    """The card to give in the exchange (rule 7): the least valuable, then the most isolated."""
    tbl = o.tbl
    tb = foster_tables(tbl)
    live = o.unseen | o.hand
    best_c = -1
    best_v = 0.0
    best_k = 0
    h = o.hand
    while h:
        low = h & -h
        h ^= low
        c = low.bit_length() - 1
        v = value_of(tb, c, o.hand, 0, o.unseen)
        k = isolation(tbl, c, live)
        if best_c < 0 or v < best_v or (v == best_v and k < best_k):
            best_c, best_v, best_k = c, v, k
    return (K_GIVE, best_c)


def refused_by(o: Obs, t: int) -> bool:
    """Whether player ``t`` refused the card in play: he passed it, or he discarded it (rule 8)."""
    n = len(o.sides)
    if t == o.origin and o.first != o.origin:
        return True  # he discarded it
    return (t - o.first) % n < (o.me - o.first) % n


def force_target(o: Obs, c: int, min_hand: int, refused_first: bool) -> int:
    """The player to force ``c`` on (rule 8), or -1 if none may be: the card must fit one of his
    combinations and he must hold at least ``min_hand`` cards."""
    return _force_target(o, player_fits(o), c, min_hand, refused_first)


def player_fits(o: Obs) -> list[int]:
    """For each player, the cards that fit one of his combinations as they lie."""
    tb = foster_tables(o.tbl)
    return [tb.side_fits(side) for side in o.sides]


def _force_target(o: Obs, fits: list[int], c: int, min_hand: int, refused_first: bool) -> int:
    n = len(o.sides)
    best = -1
    best_refused = False
    best_count = 0
    best_k = 0
    for k in range(1, n):
        t = (o.me + k) % n
        count = o.hand_counts[t]
        if count < min_hand or not fits[t] >> c & 1:
            continue
        refused = refused_first and refused_by(o, t)
        # the best key (refused, cards in hand, the nearest in the order of play)
        if best < 0 or (refused, count, -k) > (best_refused, best_count, -best_k):
            best, best_refused, best_count, best_k = t, refused, count, k
    return best


def _discard_and_total(o: Obs, tb: FosterTables, hand: int, fits: int,
                       pf: list[int]) -> tuple[float, float, RawAction]:
    """The hand's value (as :func:`~conquian.bots.foster_conquian.hand_value`) and its best
    discard or discarding force with its score (as :func:`choose_discard`), every card valued
    once; ``fits``: the cards that fit the player's combinations, ``pf``: each player's."""
    others_fit = 0
    n = len(o.sides)
    for k in range(1, n):
        others_fit |= pf[(o.me + k) % n]
    total = 0.0
    best_score = 0.0
    best_raw: RawAction = (K_DISCARD, -1)
    live = o.unseen
    h = hand
    while h:
        low = h & -h
        c = low.bit_length() - 1
        h ^= low
        score = value_of(tb, c, hand, fits, live)
        total += score
        raw: RawAction = (K_DISCARD, c)
        if others_fit >> c & 1:
            # rule 4: a card another player can use brings him nearer going out; if it must go,
            # force it on the player it hurts most (rules 5 and 8), unless all are nearly out
            score += 2.5
            t = _force_target(o, pf, c, SAFE_HAND, False)
            if t >= 0:
                raw = (K_FORCE, t << FORCE_SHIFT | c)
        if best_raw[1] == -1 or score < best_score:
            best_score, best_raw = score, raw
    return total, best_score, best_raw


def choose_discard(o: Obs, hand: int, side: tuple[int, ...]) -> tuple[float, RawAction]:
    """The best discard or discarding force for a hand (rules 4, 5 and 8)."""
    tb = foster_tables(o.tbl)
    _, score, raw = _discard_and_total(o, tb, hand, tb.side_fits(side), player_fits(o))
    return score, raw


def use_score(o: Obs, melds: tuple[int, ...]) -> float:
    """The value of a use: cards put down, the hand kept after the best discard (rules 1-4)."""
    return _use_score(o, foster_tables(o.tbl), melds, player_fits(o))


def _use_score(o: Obs, tb: FosterTables, melds: tuple[int, ...], pf: list[int]) -> float:
    """As foster_conquian's, the discard weighed against every other player (``pf``)."""
    new_hand, laid, fits = after_use(tb, o.hand, o.sides[o.me], melds)
    if new_hand == 0:
        return WIN_SCORE
    total, discard_cost, _ = _discard_and_total(o, tb, new_hand, fits, pf)
    return use_value(total - discard_cost, laid)


def policy(o: Obs, rng: random.Random) -> RawAction:
    """Foster's choice for the seat to act (``rng`` is unused: the policy is deterministic, the
    argument keeps the other policies' signature)."""
    tbl = o.tbl
    if o.stage == EXCHANGE:
        return choose_give(o)
    tb = foster_tables(tbl)
    pf = player_fits(o)
    side = o.sides[o.me]
    if o.stage == DISCARD:
        return _discard_and_total(o, tb, o.hand, pf[o.me], pf)[2]
    forms = use_forms(tbl, side, o.downs[o.me], o.hand, o.card)
    wins = winning_use(o.hand, forms)
    if wins is not None:
        return (K_USE, wins)
    hopeless = False
    pass_score = 0.0
    if forms and o.stage != FORCED:  # the hand is valued only if there is a use to weigh
        n = len(o.sides)
        hand_size = o.hand.bit_count() + o.downs[o.me].bit_count()
        pass_score, dead = hand_values(tb, o.hand, pf[o.me], o.unseen)
        # rule 6 (rule 9: two players only): a hopeless hand plays for a draw
        hopeless = n == 2 and 2 * dead >= hand_size and 10 * o.downs[o.me].bit_count() < 4 * hand_size
    if forms and not hopeless:
        best_use: RawAction = (K_PASS, -1)
        best = 0.0
        for f in forms:
            s = _use_score(o, tb, f, pf)
            if best_use[0] == K_PASS or s > best:
                best_use, best = (K_USE, f), s
        if o.stage == FORCED or best > pass_score:
            return best_use
    # rules 5 and 8: force a refused card on a player it fits, never on one it would put out
    t = _force_target(o, pf, o.card, 1, True)
    if t >= 0 and refused_by(o, t):
        return (K_FORCE, t << FORCE_SHIFT | o.card)
    return (K_PASS, -1)
