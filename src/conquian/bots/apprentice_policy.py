"""The ``apprentice`` policy: what it reads of a conquian position, a short vector per legal action,
and how it plays (:func:`choose_raw`, :func:`playout`: the search's playouts, compiled with the hot path).

The features are computed from :class:`~conquian.bots.foster_conquian.Obs`, the observation
``foster`` plays from, which is built from a seat's :class:`~conquian.engine.conquian.view.ConquianView`
(:func:`view_features`) or, inside the search's playouts, from the acting seat's share of a
re-dealt deal (the same fields: its hand, both sides of the table, the card in play, the pack's
size, the adversary's card count, the cards it has not seen).  Nothing hidden is read, by
construction: re-dealing the unseen cards leaves every feature as it was
(``tests/test_apprentice.py``).

Each legal action gets :data:`N_FEATURES` numbers; the policy scores an action by a weighted sum
of them and plays the best (the weights: :mod:`conquian.bots.apprentice`).  Only the differences between a
decision's actions matter, so a fact of the position enters only multiplied by the kind of
action it bears on.  The first feature is ``foster``'s own choice: the fitted weights say where
to leave it.

```pycon
>>> from conquian import ConquianDeal, get_rules
>>> deal = ConquianDeal(get_rules("conquian"), seed=1, dealer=2)
>>> rows = view_features(deal.view(deal.to_act))
>>> len(rows) == len(deal.legal_raw()), len(rows[0]) == N_FEATURES == len(FEATURES)
(True, True)

```
"""

from __future__ import annotations

import math
import random

import conquian.bots.foster_conquian as fc
from conquian.bots.foster import conquian_obs_from_state, conquian_obs_from_view
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.conquian.listing import (
    DISCARD,
    FORCED,
    K_DISCARD,
    K_FORCE,
    K_PASS,
    K_USE,
    OVER,
    SAY_DISCARD,
    SAY_PASSED,
    SAY_TURNED,
    RawAction,
    legal_raw,
)
from conquian.engine.conquian.view import ConquianView

#: The features' names, in the order of each row.
FEATURES: tuple[str, ...] = (
    "foster's choice",
    # taking the card in play (a use), against passing it
    "use",
    "use: foster's value of the use / 10",
    "use: hand cards laid / 3",
    "use: wins the deal",
    "use: rearranges own combinations",
    "use x pack left / 20",
    "use x adversary's cards / 10",
    "use x own cards down / 11",
    "use x adversary's cards down / 11",
    "use x dead cards in hand / 10",
    "use x foster's value of the hand / 10",
    "use x the card was discarded",
    "use x the card was passed",
    "use x the card fits the adversary",
    "use x hopeless hand",
    # forcing the card in play on the adversary
    "force the card in play",
    "force x refused by him",
    "force x adversary's cards / 10",
    "force x pack left / 20",
    "force x his hand is empty",
    "pass x the card fits the adversary, turned by me",
    # discarding (or discarding by a force)
    "discard: keep value / 4",
    "discard: fits the adversary",
    "discard: by a force",
    "discard: force x adversary's cards / 10",
    "discard: threes it makes with two unseen cards / 4",
    "discard: threes it makes with one unseen and one hand card / 4",
    "discard: dead card",
    "discard: ace or king",
    "discard: unseen cards of its rank / 3",
    "discard: keep value x pack left / 20",
    "discard: unseen threes x pack left / 20",
    "discard: unseen threes x adversary's cards / 10",
    "discard: fits own combinations",
)
N_FEATURES = len(FEATURES)
_USE = FEATURES.index("use")
_FORCE = FEATURES.index("force the card in play")
_PASS = FEATURES.index("pass x the card fits the adversary, turned by me")
_DISCARD = FEATURES.index("discard: keep value / 4")
_RANKS = tuple(sum(1 << (s * 16 + r) for s in range(4)) for r in range(16))  # each rank's cards, as a mask


def obs_features(o: fc.Obs, legal: list[RawAction], foster_choice: RawAction | None = None) -> list[list[float]]:
    """One row of :data:`N_FEATURES` numbers per action of ``legal`` (the listing of ``o``'s seat);
    ``foster_choice``: foster's action if already known (else it is worked out here, from the values
    the features read: :func:`conquian.bots.foster_conquian.policy`'s choice)."""
    tb = fc.foster_tables(o.tbl)
    fits = tb.side_fits(o.side)
    other_fits = tb.side_fits(o.other_side)
    live = o.unseen
    pack = o.pack_count / 20.0
    adv = o.other_hand_count / 10.0
    rows: list[list[float]] = []
    if o.stage == DISCARD:
        hand = o.hand
        base: dict[int, list[float]] = {}
        # foster's discard (rules 4 and 5, as foster_conquian.discard_and_total): the least worth
        # keeping, a card he can use counted 2.5 more and forced on him unless he is nearly out
        adversary_safe = o.other_hand_count >= 3
        best_score = 0.0
        best_raw: RawAction = (K_DISCARD, -1)
        h = hand
        while h:
            low = h & -h
            c = low.bit_length() - 1
            h ^= low
            row = _discard_row(tb, c, hand, fits, other_fits, live, pack, adv)
            base[c] = row
            k = row[_DISCARD] * 4.0
            if other_fits >> c & 1:
                score = k + 2.5
                if best_raw[1] == -1 or score < best_score:
                    best_score, best_raw = score, ((K_FORCE, c) if adversary_safe else (K_DISCARD, c))
            elif best_raw[1] == -1 or k < best_score:
                best_score, best_raw = k, (K_DISCARD, c)
        if foster_choice is None:
            foster_choice = best_raw
        for kind, c in legal:
            row = base[c][:]
            if (kind, c) == foster_choice:
                row[0] = 1.0
            if kind == K_FORCE:
                row[_DISCARD + 2] = 1.0
                row[_DISCARD + 3] = adv
            rows.append(row)
        return rows
    card = o.card
    hand_value = dead = 0.0
    down = o.down.bit_count()
    scores: list[float] = []
    first_win = -1
    for j, raw in enumerate(legal):
        if raw[0] == K_USE:
            scores.append(fc.use_score(o, raw)[0])
            laid = 0
            for m in raw[1]:
                laid |= m
            if first_win < 0 and o.hand & ~laid == 0:
                first_win = j
        else:
            scores.append(0.0)
    has_use = bool(legal) and legal[0][0] == K_USE
    if has_use:
        hv, nd = fc.hand_values(tb, o.hand, fits, live)
        hand_value, dead = hv, float(nd)
    hopeless = dead >= 5 and down < 4
    card_fits_him = float(other_fits >> card & 1)
    if foster_choice is None:
        foster_choice = _foster_say(o, legal, scores, first_win, has_use, hand_value, hopeless, other_fits)
    for j, raw in enumerate(legal):
        kind = raw[0]
        row = [0.0] * N_FEATURES
        if raw == foster_choice:
            row[0] = 1.0
        if kind == K_USE:
            melds: tuple[int, ...] = raw[1]
            u = 0
            for m in melds:
                u |= m
            i = _USE
            row[i] = 1.0
            row[i + 1] = scores[j] / 10.0
            row[i + 2] = (u & o.hand).bit_count() / 3.0
            row[i + 3] = 1.0 if o.hand & ~u == 0 else 0.0
            row[i + 4] = 1.0 if u & o.down else 0.0
            row[i + 5] = pack
            row[i + 6] = adv
            row[i + 7] = down / 11.0
            row[i + 8] = o.other_down.bit_count() / 11.0
            row[i + 9] = dead / 10.0
            row[i + 10] = hand_value / 10.0
            row[i + 11] = 1.0 if o.stage == SAY_DISCARD else 0.0
            row[i + 12] = 1.0 if o.stage == SAY_PASSED else 0.0
            row[i + 13] = card_fits_him
            row[i + 14] = 1.0 if hopeless else 0.0
        elif kind == K_FORCE:
            i = _FORCE
            row[i] = 1.0
            row[i + 1] = 1.0 if o.stage in (SAY_PASSED, SAY_DISCARD) else 0.0
            row[i + 2] = adv
            row[i + 3] = pack
            row[i + 4] = 1.0 if o.other_hand_count == 0 else 0.0
        elif kind == K_PASS and o.stage == SAY_TURNED:
            row[_PASS] = card_fits_him
        rows.append(row)
    return rows


def _discard_row(tb: fc.FosterTables, c: int, hand: int, fits: int, other_fits: int, live: int, pack: float,
                 adv: float) -> list[float]:
    """The row of discarding hand card ``c`` (without foster's choice and the force's numbers)."""
    row = [0.0] * N_FEATURES
    k = fc.value_of(tb, c, hand, fits, live)
    unseen2 = unseen1 = 0
    for others, _run in tb.threes[c]:
        if others & ~live == 0:
            unseen2 += 1
        elif others & live and others & hand:
            unseen1 += 1
    rank = c & 15
    same_rank = (live & _RANKS[rank]).bit_count()
    i = _DISCARD
    row[i] = k / 4.0
    row[i + 1] = float(other_fits >> c & 1)
    row[i + 4] = unseen2 / 4.0
    row[i + 5] = unseen1 / 4.0
    row[i + 6] = 1.0 if k == 0.0 else 0.0
    row[i + 7] = 1.0 if rank in (1, 13) else 0.0
    row[i + 8] = same_rank / 3.0
    row[i + 9] = k / 4.0 * pack
    row[i + 10] = unseen2 / 4.0 * pack
    row[i + 11] = unseen2 / 4.0 * adv
    row[i + 12] = float(fits >> c & 1)
    return row


def _foster_say(o: fc.Obs, legal: list[RawAction], scores: list[float], first_win: int, has_use: bool,
                hand_value: float, hopeless: bool, other_fits: int) -> RawAction:
    """Foster's choice of taking, passing or forcing the card in play (as
    :func:`conquian.bots.foster_conquian.policy`), from the use scores and hand value already worked out."""
    if first_win >= 0:
        return legal[first_win]  # a use that wins is always taken
    best = -1
    for j, raw in enumerate(legal):
        if raw[0] == K_USE and (best < 0 or scores[j] > scores[best]):
            best = j
    if o.stage == FORCED:
        return legal[best] if best >= 0 else (K_PASS, -1)
    if has_use and not hopeless and scores[best] > hand_value:
        return legal[best]
    if other_fits >> o.card & 1 and o.stage in (SAY_PASSED, SAY_DISCARD) and o.other_hand_count != 0:
        return (K_FORCE, o.card)
    return (K_PASS, -1)


def view_features(view: ConquianView) -> list[list[float]]:
    """The rows of the view's seat's listed actions (:meth:`ConquianView.legal_raw`, in its order)."""
    return obs_features(conquian_obs_from_view(view), view.legal_raw())


def choose_raw(o: fc.Obs, weights: tuple[float, ...]) -> RawAction:
    """The apprentice's raw action for an observation: the best weighted sum of its features (the
    first listed of equal ones)."""
    legal = legal_raw(o.tbl, o.stage, o.card, o.hand, o.side, o.down, o.other_side)
    if len(legal) == 1:
        return legal[0]
    best = 0
    best_score = 0.0
    for i, s in enumerate(action_scores(obs_features(o, legal), weights)):
        if i == 0 or s > best_score:
            best, best_score = i, s
    return legal[best]


def action_scores(rows: list[list[float]], weights: tuple[float, ...]) -> list[float]:
    """Each action's score: the weighted sum of its row of features."""
    scores: list[float] = []
    for row in rows:
        s = 0.0
        for j, x in enumerate(row):
            if x != 0.0:
                s += weights[j] * x
        scores.append(s)
    return scores


def sample_raw(o: fc.Obs, weights: tuple[float, ...], temperature: float, rng: random.Random) -> RawAction:
    """An action drawn from the softmax of the apprentice's scores at ``temperature`` (its scores
    are the logits it was fitted as, so 1 is the fitted distribution; lower, nearer its best
    action); a temperature of 0 or less is :func:`choose_raw`, and draws nothing from ``rng``."""
    if temperature <= 0.0:
        return choose_raw(o, weights)
    legal = legal_raw(o.tbl, o.stage, o.card, o.hand, o.side, o.down, o.other_side)
    if len(legal) == 1:
        return legal[0]
    scores = action_scores(obs_features(o, legal), weights)
    top = max(scores)
    odds = [math.exp((s - top) / temperature) for s in scores]
    x = rng.random() * sum(odds)
    for i, e in enumerate(odds):
        x -= e
        if x < 0.0:
            return legal[i]
    return legal[len(legal) - 1]  # rounding left x at the total's end


def playout(deal: ConquianDeal, seat: int, weights: tuple[float, ...], rng: random.Random,
            foster_adversary: bool = False, temperature: float = 0.0) -> float:
    """Finish a conquian deal with the apprentice for every seat (or only for ``seat``, the adversary
    playing ``foster``): +1 if ``seat`` wins, -1 if it loses, 0 for a tableau.  ``temperature``:
    the apprentice's moves drawn from its softmax (:func:`sample_raw`; 0, its best move)."""
    me = deal.player_of(seat)
    while deal.stage != OVER:
        o = conquian_obs_from_state(deal)
        mine = not foster_adversary or deal.actor == me
        raw = sample_raw(o, weights, temperature, rng) if mine else fc.policy(o, rng)
        deal.apply_raw(*raw)
    if deal.winner < 0:
        return 0.0
    return 1.0 if deal.winner == me else -1.0


__all__ = ["FEATURES", "N_FEATURES", "action_scores", "choose_raw", "obs_features", "playout", "sample_raw",
           "view_features"]
