"""Re-dealing the cards a seat has not seen, consistently with its view (for search).

A determinization is a complete deal that agrees with everything the seat knows:
its own hand, the table, the stock, the counts of every hand and of the pack, the
cards others are known to hold (taken from the stock and not yet shown; in
Cooncan, drawn from a pack whose order is known because it was the turned-over
stock), and, softly, the adversary's choices in conquian: either his hand is drawn
from a pool weighed by how likely a model of his play makes every choice he made
(:mod:`conquian.bots.inference`), or, more roughly, a hand with which he could have
combined a card he passed is ten times less likely, one that made a three with a
card he discarded three times less.  The deal is built from the view alone: no
hidden card of the real deal is read.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import accumulate
from typing import Any, Union, overload

from conquian.bots.inference import (  # noqa: F401  (the older reading lives there; its names stay here)
    DISCARDED_WEIGHT,
    REFUSED_WEIGHT,
    HandPosterior,
    _makes_three,
    choices_weight,
)
from conquian.bots.inference_families import CooncanReading, MexicanoReading
from conquian.engine.cards import JOKER, cards_of, parse_card
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.conquian.melds import MeldTable, meld_table
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.conquian.mexicano_view import MexicanoView
from conquian.engine.conquian.view import ConquianView
from conquian.engine.cooncan.deal import DRAW, CooncanDeal
from conquian.engine.cooncan.view import CooncanView
from conquian.engine.deck import pack_order
from conquian.engine.history import folded

Redealt = Union[ConquianDeal, CooncanDeal]  # noqa: UP007


#: A reading of the adversaries' hands a re-deal may follow: conquian's pool of weighed hands
#: (:mod:`conquian.bots.inference`), or a pool of the mexicano's or Cooncan's re-deals weighed by
#: their reading (:class:`RedealPool`); a reading of another family is not used.
Reading = Union[HandPosterior, "RedealPool"]


@overload
def determinize(view: ConquianView | CooncanView, rng: random.Random,
                pool: Reading | None = None) -> Redealt: ...
@overload
def determinize(view: MexicanoView, rng: random.Random, pool: Reading | None = None) -> MexicanoDeal: ...
def determinize(view: ConquianView | CooncanView | MexicanoView, rng: random.Random,
                pool: Reading | None = None) -> Redealt | MexicanoDeal:
    """A complete deal consistent with ``view``; with ``pool`` (a reading of the view's family) the
    adversaries' hands drawn by it: in conquian from its pool
    (:func:`conquian.bots.inference.posterior`; with its ``defensive`` share, read by the passed and
    discarded cards instead, as without a pool), in the mexicano and Cooncan by weight among a few
    candidates (:mod:`conquian.bots.inference_families`)."""
    if isinstance(view, ConquianView):
        return _conquian(view, rng, pool if isinstance(pool, HandPosterior) else None)
    entry = pool.draw(rng) if isinstance(pool, RedealPool) and pool.family == view.rules.family else None
    if isinstance(view, MexicanoView):
        return _mexicano(view, rng, entry)
    return _cooncan(view, rng, entry)


class RedealPool:
    """Re-deals of the other hands (the mexicano: with the gives) drawn at random from a seat's view
    and weighed by a reading of the adversaries (:func:`reading_pool`): :meth:`draw` samples them
    by weight; the pack is shuffled again at each re-deal."""

    __slots__ = ("cum", "entries", "family")

    def __init__(self, family: str, entries: list[Any], weights: list[float]) -> None:
        self.family = family
        self.entries = entries
        self.cum = list(accumulate(weights)) if sum(weights) > 0.0 else list(accumulate([1.0] * len(weights)))

    def draw(self, rng: random.Random) -> Any:
        """One re-deal's hands, with probability proportional to its weight."""
        return rng.choices(self.entries, cum_weights=self.cum)[0]


def reading_pool(view: MexicanoView | CooncanView, rng: random.Random, size: int) -> RedealPool:
    """``size`` re-deals of the view's unseen cards (:func:`determinize`), each weighed by the
    family's reading of every adversary (:mod:`conquian.bots.inference_families`; in Cooncan the
    product of the adversaries' likelihoods)."""
    entries: list[Any] = []
    weights: list[float] = []
    if isinstance(view, MexicanoView):
        mexicano = MexicanoReading(view)
        for _ in range(size):
            d = _mexicano(view, rng)
            entries.append((tuple(d.hands), tuple(d.gives)))
            weights.append(mexicano.weight(d.hands, d.gives))
        return RedealPool(view.rules.family, entries, weights)
    cooncan = CooncanReading(view)
    n = len(view.hand_counts)
    for _ in range(size):
        c = _cooncan(view, rng)
        hands = {s: list(c.hand(s)) for s in range(1, n + 1) if s != view.seat}
        entries.append(hands)
        weights.append(cooncan.weight(hands, rng))
    return RedealPool(view.rules.family, entries, weights)


def _mexicano(v: MexicanoView, rng: random.Random,
              fixed: tuple[tuple[int, ...], tuple[int, ...]] | None = None) -> MexicanoDeal:
    """A conquián mexicano deal consistent with ``v`` (R8): the unseen cards dealt at random to
    the other hands (to their counts) and the pack; the card the seat gave stays with the player
    it went to until he shows it; a give the seat did not see is a card of the giver's hand (or,
    once the cards have changed hands, of the receiver's)."""
    n = len(v.seats)
    me = v.player
    unseen = cards_of(v.unseen_mask())
    rng.shuffle(unseen)
    hands = [0] * n
    hands[me] = v.hand_mask
    downs = [v.down_mask(p) for p in range(n)]
    exchanged = v.given[-1]
    shown = v.buried_mask | (1 << v.card if v.card >= 0 else 0)
    for down in downs:
        shown |= down
    if exchanged and v.gave_card >= 0 and not shown >> v.gave_card & 1:
        hands[(me + 1) % n] |= 1 << v.gave_card
    k = 0
    for q in range(n):
        if q != me:
            need = v.hand_counts[q] - hands[q].bit_count()
            for c in unseen[k:k + need]:
                hands[q] |= 1 << c
            k += need
    pack = unseen[k:]
    gives = [-1] * n
    for q in range(n):
        if q == me:
            gives[q] = v.gave_card
        elif exchanged and q == (me - 1) % n:
            gives[q] = v.got_card
        elif v.given[q]:
            held = hands[(q + 1) % n] | downs[(q + 1) % n] if exchanged else hands[q]
            gives[q] = rng.choice(cards_of(held))
    if fixed is not None:  # the other hands and the gives of a weighed re-deal; the pack shuffled again
        hands, gives = list(fixed[0]), list(fixed[1])
        held_by_others = 0
        for q in range(n):
            if q != me:
                held_by_others |= hands[q]
        pack = [c for c in unseen if not held_by_others >> c & 1]
    d = object.__new__(MexicanoDeal)
    d.rules = v.rules
    d.tbl = meld_table(v.rules)
    d.n = n
    d.dealer = v.dealer
    d.seats = v.seats
    d.pos = v.rules.pack_size - len(pack)
    d._deck = bytes(d.pos) + bytes(pack)
    d.hands = hands
    d.sides = list(v.side_masks)
    d.downs = downs
    d.gives = gives
    d.card = v.card
    d.stage = v.stage
    d.actor = v.seats.index(v.actor_seat) if v.actor_seat is not None else 0
    d.origin = v.origin
    d.first = v.first
    d.buried = v.buried_mask
    d.winner = -1 if v.winner_seat is None else v.seats.index(v.winner_seat)
    d.events = v.event_node  # the public history, shared
    d.n_events = v.n_events
    d.n_actions = 0
    return d


#: How many hands a conquian re-deal draws for the adversary before keeping the likeliest.
ATTEMPTS = 24


def _conquian(v: ConquianView, rng: random.Random, pool: HandPosterior | None) -> ConquianDeal:
    tbl = meld_table(v.rules)
    unseen = cards_of(v.unseen_mask())
    if pool is not None and not (pool.defensive > 0.0 and rng.random() < pool.defensive):
        return _conquian_deal(v, tbl, pool.draw(rng), unseen, rng)
    k = v.adversary_hand_count
    adv_seat = v.adversary
    seen = folded("determinize conquian", v.event_node, _ChoicesSeen, _ChoicesSeen.step, _ChoicesSeen.copy)
    adv = v.seats.index(adv_seat)
    refused, discarded = seen.refused[adv], seen.discarded[adv]
    # Rejection sampling on the adversary's past choices: his hand only shrinks in conquian (a
    # card taken is laid at once), so a three his hand makes now with a card he passed was in
    # his hand when he passed it.  A hand is kept with probability its weight; if none is kept,
    # the likeliest drawn.
    hand = best_hand = 0
    best_weight = -1.0
    for _attempt in range(ATTEMPTS):
        rng.shuffle(unseen)
        hand = 0
        for c in unseen[:k]:
            hand |= 1 << c
        weight = choices_weight(tbl, hand, refused, discarded)
        if weight > best_weight:
            best_hand, best_weight = hand, weight
        if weight >= 1.0 or rng.random() < weight:
            break
    else:
        hand = best_hand
    return _conquian_deal(v, tbl, hand, unseen, rng)


def _conquian_deal(v: ConquianView, tbl: MeldTable, hand: int, unseen: list[int], rng: random.Random) -> ConquianDeal:
    """The deal of ``v`` with the adversary's hand ``hand`` and the other unseen cards in the pack,
    shuffled."""
    pack = [c for c in unseen if not hand >> c & 1]
    rng.shuffle(pack)
    d = object.__new__(ConquianDeal)
    d.rules = v.rules
    d.tbl = tbl
    d.dealer = v.dealer
    d.seats = v.seats
    d.n_seats = v.rules.players
    d.pos = 40 - len(pack)
    d._deck = bytes(d.pos) + bytes(pack)
    p = v.player
    hands = [0, 0]
    hands[p] = v.hand_mask
    hands[1 - p] = hand
    d.hands = hands
    d.sides = [v.side_masks[0], v.side_masks[1]]
    d.downs = [v.down_mask(0), v.down_mask(1)]
    d.card = v.card
    d.stage = v.stage
    d.actor = 0 if v.actor_seat == v.seats[0] else 1
    d.buried = v.buried_mask
    d.winner = -1
    d.events = None
    d.n_events = 0
    d.n_actions = 0
    return d


class _ChoicesSeen:
    """The cards each player passed and discarded so far (the public history folded, once per line of
    play: :func:`~conquian.engine.history.folded`)."""

    __slots__ = ("discarded", "refused")

    def __init__(self) -> None:
        self.refused: tuple[list[int], list[int]] = ([], [])
        self.discarded: tuple[list[int], list[int]] = ([], [])

    def copy(self) -> _ChoicesSeen:
        new = _ChoicesSeen()
        new.refused = (self.refused[0][:], self.refused[1][:])
        new.discarded = (self.discarded[0][:], self.discarded[1][:])
        return new

    def step(self, ev: tuple[Any, ...]) -> None:
        kind, p, card = ev[0], ev[1], ev[2]
        if card is not None:
            if kind == "pass":
                self.refused[p].append(card)
            elif kind == "discard":
                self.discarded[p].append(card)


class _CooncanSeen:
    """What the public history of a Cooncan deal tells of its cards (folded once per line of play:
    :func:`~conquian.engine.history.folded`): the cards each seat is known to hold (taken from the
    stock, drawn from a turned-over pack whose order is public, not yet shown), the stock as the
    events build it, the turned-over pack still to draw, who has laid anything, and the turns."""

    __slots__ = ("known", "laid", "stock", "turned", "turns")

    def __init__(self, n: int) -> None:
        self.known: dict[int, list[int]] = {s: [] for s in range(1, n + 1)}
        self.stock: list[int] = []
        self.turned: list[int] | None = None
        self.laid: set[int] = set()
        self.turns = 0

    def copy(self) -> _CooncanSeen:
        new = object.__new__(_CooncanSeen)
        new.known = {s: k[:] for s, k in self.known.items()}
        new.stock = self.stock[:]
        new.turned = None if self.turned is None else self.turned[:]
        new.laid = set(self.laid)
        new.turns = self.turns
        return new

    def step(self, ev: tuple[Any, ...]) -> None:
        kind, p, card = ev[0], ev[1], ev[2]
        q = p + 1
        known, stock = self.known, self.stock
        if kind == "start":
            self.stock = [card or 0]
        elif kind == "take":
            c = card if card is not None else stock[-1]
            idx = len(stock) - 1 - stock[::-1].index(c)
            del stock[idx]
            known[q].append(c)
            self.turns += 1
        elif kind == "draw":
            self.turns += 1
            if self.turned is not None:
                known[q].append(self.turned.pop(0))  # the turned-over pack's order is public
        elif kind == "turnover":
            self.turned = list(stock)
            self.stock = []
        elif kind in ("meld", "add", "shift", "discard"):
            shown = [card or 0] if kind == "discard" else [JOKER if t.startswith("X") else parse_card(t) for t in ev[4]]
            for c in shown:
                if c in known[q]:
                    known[q].remove(c)
            if kind == "discard":
                stock.append(card or 0)
            else:
                self.laid.add(p)


def _cooncan(v: CooncanView, rng: random.Random, fixed: dict[int, list[int]] | None = None) -> CooncanDeal:
    n = len(v.hand_counts)
    me = v.seat
    seen = folded(("determinize cooncan", n), v.event_node, lambda: _CooncanSeen(n), _CooncanSeen.step,
                  _CooncanSeen.copy)
    known = seen.known
    turned_pack = seen.turned
    laid_before = me - 1 in seen.laid
    turns = seen.turns
    # the pool of unseen cards
    pool: dict[int, int] = {}
    for c in pack_order(v.rules):
        pool[c] = pool.get(c, 0) + 1

    def take_out(c: int) -> None:
        pool[c] -= 1

    for c in v.hand:
        take_out(c)
    for cb in v.combos:
        for c in cb.cells:
            take_out(c)
    for c in v.stock:
        take_out(c)
    for s in range(1, n + 1):
        if s != me:
            for c in known[s]:
                take_out(c)
    if turned_pack is not None:
        for c in turned_pack:
            take_out(c)
    unseen = [c for c, k in pool.items() for _ in range(max(0, k))]
    rng.shuffle(unseen)
    hands: dict[int, list[int]] = {}
    if fixed is not None:  # the other hands of a weighed re-deal; the rest of the unseen cards shuffled again
        left = Counter(unseen)
        for s, cards in fixed.items():
            left.subtract(Counter(cards) - Counter(known[s]))
        hands = {s: list(cards) for s, cards in fixed.items()}
        hands[me] = list(v.hand)
        unseen = [c for c, k in sorted(left.items()) for _ in range(max(0, k))]
        rng.shuffle(unseen)
    else:
        for s in range(1, n + 1):
            if s == me:
                hands[s] = list(v.hand)
                continue
            missing = v.hand_counts[s - 1] - len(known[s])
            hands[s] = known[s] + unseen[:missing]
            unseen = unseen[missing:]
    pack = turned_pack if turned_pack is not None else unseen
    d = object.__new__(CooncanDeal)
    d.rules = v.rules
    d.double = v.rules.copies == 2
    d.n = n
    d.dealer = v.dealer
    d._deck = b""
    d.h1 = [0] * n
    d.h2 = [0] * n
    d.hj = [0] * n
    for s, cards in hands.items():
        for c in cards:
            d._give(s - 1, c)
    d._pack = bytes(pack)
    d.pos = 0
    d.stock = v.stock
    d.combos = v.combos
    d.turn = (v.actor_seat or 1) - 1
    d.stage = v.stage
    d.pack_turns = v.pack_turns
    d.laid = sum(1 << i for i, x in enumerate(v.laid) if x)
    # splash (R5.3): had the player to act laid anything before this turn?
    d.laid_before = laid_before if v.actor_seat == me and v.stage != DRAW else bool(v.laid[(v.actor_seat or 1) - 1])
    d._undecided(n)
    d.n_turns = turns + (1 if v.stage == DRAW else 0)
    d.taken = v.taken
    return d
