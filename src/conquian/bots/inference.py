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
#: The weight of a hand for each card the adversary passed that it could have combined into a
#: three (Foster: a player takes what he can use; only a hopeless hand refuses it): the older
#: reading, :func:`choices_weight`.
REFUSED_WEIGHT = 0.1
#: The weight for each card he discarded that made a three with cards of that hand (Foster's
#: player discards the card that connects with nothing).
DISCARDED_WEIGHT = 0.3
#: The models of the adversary's play that :func:`mixture_posterior` weighs, in the order of its
#: likelihoods: ``foster``'s policy (its choice, but for a slip of :data:`FOSTER_SLIP` spread over
#: the listed actions), the apprentice read as probabilities (fitted on the search's decisions: the
#: model of a player who searches), the apprentice loosened (a weaker player in its style: at
#: each decision, with probability :data:`LOOSE`, a listed action at random), and a player no model
#: fits (every listed action alike; his hand read by the passed and discarded cards only).
MODELS = ("foster", "apprentice", "loose", "other")
#: The prior of each of :data:`MODELS` at a deal's start: half on the player no model fits, so
#: that a model must earn its weight by predicting his choices.
PRIOR: tuple[float, float, float, float] = (1 / 6, 1 / 6, 1 / 6, 1 / 2)
#: The slip of the ``foster`` model of :func:`mixture_posterior`.
FOSTER_SLIP = 0.1
#: How often the ``loose`` model chooses at random.
LOOSE = 0.3

# one record: (stage, card, side, down, other_side, other_down, other_count, pack_count, seen,
# kind, arg, left): the public state before the choice, the choice, the hand cards it showed
Record = tuple[int, int, tuple[int, ...], int, tuple[int, ...], int, int, int, int, int, Any, int]


def use_from_hand(down: int, card: int, melds: tuple[int, ...]) -> int:
    """The cards a use of ``card`` took from the player's hand: those of ``melds`` that were
    neither on his side (``down``) nor the card in play (every reading of the family folds a use
    so)."""
    u = 0
    for m in melds:
        u |= m
    return u & ~down & ~(1 << card)


def fold_use(sides: list[tuple[int, ...]], downs: list[int], counts: list[int], p: int, melds: tuple[int, ...],
             from_hand: int) -> None:
    """Fold a use of player ``p`` as the deal plays it (R3.4): his side keeps the combinations the
    use leaves untouched and ``melds`` follow them; his hand holds ``from_hand`` fewer cards."""
    u = 0
    for m in melds:
        u |= m
    sides[p] = tuple(m for m in sides[p] if not m & u) + tuple(melds)
    downs[p] |= u
    counts[p] -= from_hand.bit_count()


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
            from_hand = use_from_hand(self.downs[p], card, ev[3])
            self._record(p, K_USE, ev[3], from_hand)  # what he saw, before the use
            fold_use(self.sides, self.downs, self.counts, p, ev[3], from_hand)
            self.card, self.stage = -1, DISCARD
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


def choices_weight(tbl: MeldTable, hand: int, refused: list[int], discarded: list[int]) -> float:
    """How likely the adversary's passes and discards are with ``hand`` (1.0: nothing speaks
    against it): the older reading, by the cards he passed and discarded only."""
    w = 1.0
    for c in refused:
        if _makes_three(tbl, hand, c):
            w *= REFUSED_WEIGHT
    for c in discarded:
        if _makes_three(tbl, hand, c):
            w *= DISCARDED_WEIGHT
    return w


def _makes_three(tbl: MeldTable, hand: int, c: int) -> bool:
    """Whether ``c`` makes a three with two cards of ``hand``."""
    cb = 1 << c
    return any(t & ~cb & ~hand == 0 for t in tbl.threes_by_card.get(c, ()))


def records_choices_weight(tbl: MeldTable, records: list[Record], hand: int) -> float:
    """:func:`choices_weight` of a player's records (the cards he passed and discarded)."""
    refused = [r[1] for r in records if r[9] == K_PASS and r[1] >= 0]
    discarded = [int(r[10]) for r in records if r[9] == K_DISCARD]
    return choices_weight(tbl, hand, refused, discarded)


def model_likelihoods(tbl: MeldTable, records: list[Record], hand: int,
                      weights: tuple[float, ...]) -> tuple[float, float, float, float]:
    """How likely a player's recorded choices are if his hand now is ``hand``, under each of
    :data:`MODELS`: proper probabilities of each choice among the listed actions, so that the
    models can be compared by how well they predict him (a choice nobody lists counts
    :data:`LEAST` under every model).  Every choice counts, those that say nothing of his hand
    too: they tell the models apart.  A decision with a single listed action says nothing."""
    lf = la = ll = lu = 1.0
    rng = random.Random(0)  # foster's conquian policy draws nothing
    for o, kind, arg in _past_observations(tbl, records, hand):
        legal = legal_raw(tbl, o.stage, o.card, o.hand, o.side, o.down, o.other_side)
        n = len(legal)
        if n < 2:
            if n == 1 and _is_choice(legal[0][0], legal[0][1], kind, arg):
                continue
            lf *= LEAST
            la *= LEAST
            ll *= LEAST
            lu *= LEAST
            continue
        fk, fa = fc.policy(o, rng)
        scores = action_scores(obs_features(o, legal, (fk, fa)), weights)
        top = max(scores)
        total = 0.0
        mine = 0.0
        found = False
        for (kd, a), x in zip(legal, scores, strict=True):
            ex = math.exp(x - top)
            total += ex
            if not found and _is_choice(kd, a, kind, arg):
                mine = ex
                found = True
        if not found:
            lf *= LEAST
            la *= LEAST
            ll *= LEAST
            lu *= LEAST
            continue
        u = 1.0 / n
        p = mine / total
        lf *= (1.0 - FOSTER_SLIP) + FOSTER_SLIP * u if _is_choice(fk, fa, kind, arg) else FOSTER_SLIP * u
        la *= p if p > LEAST else LEAST
        ll *= (1.0 - LOOSE) * p + LOOSE * u
        lu *= u
    return lf, la, ll, lu


class Mixture:
    """The reading by :data:`MODELS` of one decision: from the likelihoods of a pool of hands drawn
    at random (:func:`model_likelihoods`) and the older reading's weights of the same hands
    (:func:`records_choices_weight`), the posterior of each model (his choices' probability under
    it, the pool's mean standing for the sum over the hands he may hold, times its prior) and
    each hand's weight (:meth:`weight`: the sum over the models of prior times likelihood, the
    hand and the model read together).  The player no model fits weighs a hand by the older
    reading, scaled to his choices' mean probability at random: a player the models do not
    predict is read as before, whatever the models would say."""

    __slots__ = ("evidence", "posterior", "prior", "scale")

    def __init__(self, likelihoods: list[tuple[float, float, float, float]], choices: list[float],
                 prior: tuple[float, float, float, float] = PRIOR) -> None:
        k = max(1, len(likelihoods))
        ev = [sum(x[m] for x in likelihoods) / k for m in range(4)]
        mean_choices = sum(choices) / k if choices else 1.0
        self.evidence = (ev[0], ev[1], ev[2], ev[3])
        self.prior = prior
        self.scale = ev[3] / mean_choices if mean_choices > 0.0 else 0.0
        joint = [prior[m] * ev[m] for m in range(4)]
        total = sum(joint)
        self.posterior = tuple(j / total for j in joint) if total > 0.0 else prior

    def weight(self, likelihood: tuple[float, float, float, float], choices: float) -> float:
        """The weight of a hand of these likelihoods and this older reading's weight."""
        pr = self.prior
        return (pr[0] * likelihood[0] + pr[1] * likelihood[1] + pr[2] * likelihood[2]
                + pr[3] * self.scale * choices)


def effective_size(weights: list[float]) -> float:
    """The effective sample size of weighed hands (Kish): the square of the weights' sum over the
    sum of their squares; the number of hands when all weigh alike, 1 when one holds all the
    weight, 0 when none weighs anything.  A search that draws its re-deals from a pool of
    effective size 3 plays against about three hands, however many it draws."""
    total = 0.0
    squares = 0.0
    for w in weights:
        total += w
        squares += w * w
    return total * total / squares if squares > 0.0 else 0.0


def tempered(weights: list[float], least: float) -> tuple[list[float], float]:
    """The weights raised to the greatest power ``t`` in (0, 1] whose effective sample size
    (:func:`effective_size`) is at least ``least`` times their number (1 if the weights already
    have it), and ``t``.  Tempering flattens a reading that stakes everything on a few hands,
    keeping their order: the likeliest hands stay the likeliest, the others are not dropped.
    Weights of zero stay zero; ``least`` of 0 leaves the weights as they are."""
    n = len(weights)
    if least <= 0.0 or n == 0 or effective_size(weights) >= least * n:
        return weights, 1.0
    top = max(weights)
    if top <= 0.0:
        return weights, 1.0
    logs = [math.log(w / top) if w > 0.0 else -math.inf for w in weights]
    goal = least * n

    def powered(t: float) -> list[float]:
        return [math.exp(t * x) if x > -math.inf else 0.0 for x in logs]

    lo, hi = 0.0, 1.0  # effective_size(powered(lo)) >= goal > effective_size(powered(hi))
    for _ in range(30):
        mid = 0.5 * (lo + hi)
        if effective_size(powered(mid)) >= goal:
            lo = mid
        else:
            hi = mid
    return powered(lo), lo


class HandPosterior:
    """Hands the adversary may hold, drawn at random among those his count and the seat's view
    allow, each with its weight (:func:`posterior`): :meth:`draw` samples them by weight.

    ``defensive``: the share of the re-deals that leave the pool and read the hand by the passed
    and discarded cards only (the ``choices`` reading, :func:`~conquian.bots.determinize.determinize`),
    so that a reading sure and wrong cannot have every re-deal.  ``power``: the tempering applied
    to the weights (:func:`tempered`; 1 for none)."""

    __slots__ = ("cum", "defensive", "hands", "models", "power")

    def __init__(self, hands: list[int], weights: list[float],
                 models: tuple[float, ...] | None = None, defensive: float = 0.0, power: float = 1.0) -> None:
        self.hands = hands
        self.cum = list(accumulate(weights))
        #: with :func:`mixture_posterior`, each model's posterior (:data:`MODELS`' order)
        self.models = models
        self.defensive = defensive
        self.power = power

    @property
    def ess(self) -> float:
        """The effective sample size of the weights (:func:`effective_size`): worked out when asked,
        since only the benchmarks and tests ask."""
        return effective_size([b - a for a, b in zip([0.0, *self.cum], self.cum, strict=False)])

    def draw(self, rng: random.Random) -> int:
        """One hand, with probability proportional to its weight."""
        return rng.choices(self.hands, cum_weights=self.cum)[0]


def adversary_draws(view: ConquianView, rng: random.Random, size: int) -> tuple[list[Record], list[int]]:
    """The seat's adversary's recorded choices this deal (the public history, folded once per
    history node), and ``size`` hands for him drawn uniformly from the cards the seat has not seen."""
    reads = folded("inference conquian", view.event_node, AdversaryReads, AdversaryReads.step,
                   AdversaryReads.copy)
    unseen = cards_of(view.unseen_mask())
    k = view.adversary_hand_count
    hands: list[int] = []
    for _ in range(size):
        rng.shuffle(unseen)
        hand = 0
        for c in unseen[:k]:
            hand |= 1 << c
        hands.append(hand)
    return reads.records[1 - view.player], hands


def posterior(view: ConquianView, rng: random.Random, size: int = POOL, slip: float = SLIP,
              weights: tuple[float, ...] | None = None,
              mixture: tuple[tuple[float, float], ...] = MIXTURE) -> HandPosterior:
    """``size`` hands for the seat's adversary, weighed by his past choices (the public history):
    by :func:`likelihood`, or with the apprentice's ``weights`` by :func:`apprentice_likelihood`
    (with ``mixture``)."""
    records, hands = adversary_draws(view, rng, size)
    tbl = view.table
    weighed = [likelihood(tbl, records, hand, slip) if weights is None
               else apprentice_likelihood(tbl, records, hand, weights, mixture) for hand in hands]
    return HandPosterior(hands, weighed)


def mixture_posterior(view: ConquianView, rng: random.Random, weights: tuple[float, ...], size: int = POOL,
                      prior: tuple[float, float, float, float] = PRIOR, least_ess: float = 0.0,
                      defensive: float = 0.0) -> HandPosterior:
    """``size`` hands for the seat's adversary, weighed by :class:`Mixture`: the models of his
    play (:data:`MODELS`) each weighed by how well it has predicted his choices this deal (the
    public history only), falling back on the passed and discarded cards for a player none
    predicts.  ``weights``: the apprentice's.  ``least_ess``: the weights tempered until their
    effective sample size is at least that share of the pool (:func:`tempered`; 0: as they are);
    ``defensive``: the share of re-deals read as ``choices`` reads (:class:`HandPosterior`)."""
    records, hands = adversary_draws(view, rng, size)
    tbl = view.table
    liks = [model_likelihoods(tbl, records, hand, weights) for hand in hands]
    olds = [records_choices_weight(tbl, records, hand) for hand in hands]
    mix = Mixture(liks, olds, prior)
    weighed, power = tempered([mix.weight(x, c) for x, c in zip(liks, olds, strict=True)], least_ess)
    return HandPosterior(hands, weighed, mix.posterior, defensive, power)


__all__ = [
    "DISCARDED_WEIGHT",
    "FOSTER_SLIP",
    "LEAST",
    "LOOSE",
    "MIXTURE",
    "MODELS",
    "POOL",
    "PRIOR",
    "REFUSED_WEIGHT",
    "SLIP",
    "AdversaryReads",
    "HandPosterior",
    "Mixture",
    "Record",
    "apprentice_likelihood",
    "choices_weight",
    "effective_size",
    "likelihood",
    "mixture_posterior",
    "model_likelihoods",
    "posterior",
    "records_choices_weight",
    "tempered",
]
