"""Reading the adversary's hand from his choices, with a model of his play (conquian).

Policy-based inference (Rebstock, Solinas, Buro and Sturtevant 2019): a hand the adversary
may hold now is weighed by how likely his every past choice was with it, as a model policy
would have made them.  In conquian this needs no replay of the deal: his hand only shrinks
(a card he takes is laid at once), and every card that leaves it is shown, so his hand at
each past decision is his hand now and the cards he has shown since, and all the rest of what
he saw then is public.  :class:`AdversaryReads` folds the public history into one record per
decision of each player; :func:`likelihood` weighs a hand against a player's records.

Two models: the fitted ``apprentice`` read as probabilities (:func:`apprentice_likelihood`;
mixed with choices at random, so that a player unlike it is not misread), or
``foster``'s policy softened (:func:`likelihood`: a choice it would have made counts 1, any
other ``slip``).  Nothing hidden is read: the records come from the public history only.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from itertools import accumulate
from typing import Any

import conquian.bots.foster_conquian as fc
from conquian.bots.apprentice_policy import action_scores, obs_features
from conquian.engine.cards import cards_of
from conquian.engine.conquian.listing import (
    DISCARD,
    FORCED,
    K_DISCARD,
    K_FORCE,
    K_PASS,
    K_USE,
    SAY_DISCARD,
    SAY_PASSED,
    SAY_TURNED,
    legal_raw,
)
from conquian.engine.conquian.melds import MeldTable
from conquian.engine.conquian.view import ConquianView
from conquian.engine.history import folded

#: The weight of a past choice the model would not have made (see the module's docstring).
SLIP = 0.05
#: The least probability :func:`apprentice_likelihood` gives a choice.
LEAST = 0.01
#: How often, at each decision, the adversary may choose at random instead of as the apprentice
#: would, with the prior of each (:func:`apprentice_likelihood`, :func:`posterior`).
MIXTURE: tuple[tuple[float, float], ...] = ((0.0, 1 / 3), (0.3, 1 / 3), (1.0, 1 / 3))
#: How many hands :func:`posterior` draws and weighs for a decision.
POOL = 200

# one record: (stage, card, side, down, other_side, other_down, other_count, pack_count, seen,
# kind, arg, left): the public state before the choice, the choice, the hand cards it showed
Record = tuple[int, int, tuple[int, ...], int, tuple[int, ...], int, int, int, int, int, Any, int]


class AdversaryReads:
    """The public state of a conquian deal as its events build it, and each player's decisions
    (:data:`Record`), for :func:`~conquian.engine.history.folded`."""

    __slots__ = ("buried", "card", "counts", "downs", "pack", "records", "sides", "stage")

    def __init__(self) -> None:
        self.sides: list[tuple[int, ...]] = [(), ()]
        self.downs = [0, 0]
        self.counts = [10, 10]
        self.buried = 0
        self.card = -1
        self.stage = SAY_TURNED
        self.pack = 20
        self.records: tuple[list[Record], list[Record]] = ([], [])

    def copy(self) -> AdversaryReads:
        new = AdversaryReads()
        new.sides = self.sides[:]
        new.downs = self.downs[:]
        new.counts = self.counts[:]
        new.buried = self.buried
        new.card = self.card
        new.stage = self.stage
        new.pack = self.pack
        new.records = (self.records[0][:], self.records[1][:])
        return new

    def _record(self, p: int, kind: int, arg: Any, left: int) -> None:
        card = self.card
        seen = self.downs[0] | self.downs[1] | self.buried | (1 << card if card >= 0 else 0)
        self.records[p].append((self.stage, card, self.sides[p], self.downs[p], self.sides[1 - p],
                                self.downs[1 - p], self.counts[1 - p], self.pack, seen, kind, arg, left))

    def step(self, ev: tuple[Any, ...]) -> None:
        """Fold one event (``(kind, player, card, melds)``, as the deal logs it)."""
        kind, p, card = ev[0], ev[1], ev[2]
        if kind == "turn":
            self.card = card
            self.pack -= 1
            self.stage = SAY_TURNED
        elif kind == "pass":
            self._record(p, K_PASS, -1, 0)
            self.stage = SAY_PASSED if self.stage == SAY_TURNED else self.stage
        elif kind == "bury":
            self.buried |= 1 << card
            self.card = -1
        elif kind == "use":
            melds: tuple[int, ...] = ev[3]
            u = 0
            for m in melds:
                u |= m
            from_hand = u & ~self.downs[p] & ~(1 << card)
            self._record(p, K_USE, melds, from_hand)
            self.sides[p] = tuple(m for m in self.sides[p] if not m & u) + tuple(melds)
            self.downs[p] |= u
            self.counts[p] -= from_hand.bit_count()
            self.card = -1
            self.stage = DISCARD
        elif kind == "force":
            if self.stage == DISCARD:
                self._record(p, K_FORCE, card, 1 << card)
                self.counts[p] -= 1
            else:
                self._record(p, K_FORCE, card, 0)
            self.card = card
            self.stage = FORCED
        elif kind == "discard":
            self._record(p, K_DISCARD, card, 1 << card)
            self.counts[p] -= 1
            self.card = card
            self.stage = SAY_DISCARD


def _past_observations(tbl: MeldTable, records: list[Record], hand: int) -> Iterator[tuple[fc.Obs, int, Any]]:
    """What the player saw at each recorded decision, newest first, if his hand now is ``hand``
    (his hand then: ``hand`` and the cards he showed since), with the choice he made."""
    shown = 0
    pack_mask = tbl.pack_mask
    for rec in reversed(records):
        stage, card, side, down, oside, odown, ocount, pack, seen, kind, arg, left = rec
        shown |= left
        held = hand | shown
        unseen = pack_mask & ~(held | seen)
        yield fc.Obs(tbl, stage, card, held, side, down, oside, odown, ocount, pack, unseen), kind, arg


def _is_choice(k: int, a: Any, kind: int, arg: Any) -> bool:
    """Whether the raw action ``(k, a)`` is the recorded choice (a use's combinations in any order)."""
    return k == kind and (a == arg if kind != K_USE else set(a) == set(arg))


def likelihood(tbl: MeldTable, records: list[Record], hand: int, slip: float = SLIP,
               floor: float = 0.0) -> float:
    """How likely a player's recorded choices are, made by ``foster``'s policy with ``slip``, if
    his hand now is ``hand``; the product stops once it falls to ``floor`` or below."""
    w = 1.0
    rng = random.Random(0)  # foster's conquian policy draws nothing; the argument is its signature
    for o, kind, arg in _past_observations(tbl, records, hand):
        k, a = fc.policy(o, rng)
        if not _is_choice(k, a, kind, arg):
            w *= slip
            if w <= floor:
                return w
    return w


def apprentice_likelihood(tbl: MeldTable, records: list[Record], hand: int, weights: tuple[float, ...],
                          mixture: tuple[tuple[float, float], ...] = ((0.0, 1.0),)) -> float:
    """How likely a player's recorded choices are if his hand now is ``hand``, made by the fitted
    ``apprentice`` read as a probability: the softmax of its scores over each decision's listed
    actions (it was fitted so, by cross-entropy on the search's decisions), at least
    :data:`LEAST` for a choice (one it does not list included).

    ``mixture``: pairs (``e``, prior): with probability ``e`` at each decision he chooses at
    random among the listed actions instead, ``e`` unknown and weighed by its prior (the result
    is the sum over the pairs of prior times likelihood).  A player the apprentice explains
    well is read sharply (``e`` near 0 explains him best); a weaker or a stranger one
    (OpenSpiel's ISMCTS, say) more loosely, and one at random by his choices' number only."""
    k = len(mixture)
    slips = [e for e, _ in mixture]
    products = [1.0] * k
    for o, kind, arg in _past_observations(tbl, records, hand):
        legal = legal_raw(tbl, o.stage, o.card, o.hand, o.side, o.down, o.other_side)
        if len(legal) < 2:
            if legal and legal[0][0] == kind:
                continue
            for i in range(k):
                products[i] *= LEAST
            continue
        scores = action_scores(obs_features(o, legal), weights)
        top = max(scores)
        total = 0.0
        mine = 0.0
        for (kd, a), x in zip(legal, scores, strict=True):
            ex = math.exp(x - top)
            total += ex
            if _is_choice(kd, a, kind, arg):
                mine = ex
        p = mine / total
        uniform = 1.0 / len(legal) if mine else 0.0
        for i in range(k):
            e = slips[i]
            q = (1.0 - e) * p + e * uniform
            products[i] *= q if q > LEAST else LEAST
    w = 0.0
    for i in range(k):
        w += mixture[i][1] * products[i]
    return w


class HandPosterior:
    """Hands the adversary may hold, drawn at random among those his count and the seat's view
    allow, each with its weight (:func:`posterior`): :meth:`draw` samples them by weight."""

    __slots__ = ("cum", "hands")

    def __init__(self, hands: list[int], weights: list[float]) -> None:
        self.hands = hands
        self.cum = list(accumulate(weights))

    def draw(self, rng: random.Random) -> int:
        """One hand, with probability proportional to its weight."""
        return rng.choices(self.hands, cum_weights=self.cum)[0]


def posterior(view: ConquianView, rng: random.Random, size: int = POOL, slip: float = SLIP,
              weights: tuple[float, ...] | None = None,
              mixture: tuple[tuple[float, float], ...] = MIXTURE) -> HandPosterior:
    """``size`` hands for the seat's adversary, weighed by his past choices (the public history):
    by :func:`likelihood`, or with the apprentice's ``weights`` by :func:`apprentice_likelihood`
    (with ``mixture``)."""
    reads = folded("inference conquian", view.event_node, AdversaryReads, AdversaryReads.step,
                   AdversaryReads.copy)
    records = reads.records[1 - view.player]
    tbl = view.table
    unseen = cards_of(view.unseen_mask())
    k = view.adversary_hand_count
    hands: list[int] = []
    weighed: list[float] = []
    for _ in range(size):
        rng.shuffle(unseen)
        hand = 0
        for c in unseen[:k]:
            hand |= 1 << c
        hands.append(hand)
        weighed.append(likelihood(tbl, records, hand, slip) if weights is None
                       else apprentice_likelihood(tbl, records, hand, weights, mixture))
    return HandPosterior(hands, weighed)


__all__ = ["LEAST", "MIXTURE", "POOL", "SLIP", "AdversaryReads", "HandPosterior", "Record", "apprentice_likelihood",
           "likelihood", "posterior"]
