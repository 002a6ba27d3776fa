"""The review reads the seat's view only, in every form of the game (docs/review.md, fairness).

For each preset a short deal is played by ``foster`` until the reviewed seat has made a few
decisions, and reviewed; then every card that seat never saw is dealt again
(:func:`conquian.engine.redeal.redeal_unseen`: the other hands' cards never shown, the pack not
yet turned or drawn, the cards given in the exchange it did not see) and the same public history
is reviewed again.  Both reviews must be the same, mark for mark and estimate for estimate.
"""

from __future__ import annotations

import random

import pytest

import conquian.review as review
from conquian import get_rules
from conquian.bots.foster import FosterBot
from conquian.engine.match import Deal, new_deal
from conquian.engine.record import DealRecord, Record, write_record
from conquian.engine.redeal import redeal_unseen

#: (preset, players, rule of the deal, seed, reviewed seat, playouts per candidate); each seed's
#: deal lasts until the seat has had its decisions (seed 5 ends sooner for two of them now that
#: going out is always listed)
PRESETS = [
    ("conquian", 2, "R3.1", 5, 1, 24),
    ("conquian", 3, "R6.3", 6, 2, 24),  # three at the table: the dealer, p1, sits out
    ("conquian-spanish", 2, "R3.1", 6, 2, 24),
    ("conquian-mexicano", 2, "R8.2", 5, 1, 24),
    ("conquian-mexicano", 3, "R8.2", 8, 2, 24),
    ("cooncan", 3, "R4.1", 5, 1, 8),
    ("cooncan-double", 5, "R4.1", 5, 3, 4),
]
#: The reviewed seat's decisions with a choice before the deal is cut short.
DECISIONS = 5
DEALER = 1


def short_deal(variant: str, players: int, seed: int, seat: int) -> Deal:
    """A deal played by foster for every seat until ``seat`` has had :data:`DECISIONS` choices."""
    deal = new_deal(get_rules(variant, players=players), seed=seed, dealer=DEALER)
    bots = {s: FosterBot(seed + s) for s in range(1, players + 1)}
    choices = 0
    while not deal.over and choices < DECISIONS:
        actor = deal.to_act
        assert actor is not None
        choices += actor == seat and len(deal.legal_raw()) > 1
        deal.play(bots[actor].choose(deal.view(actor)))
    return deal


def record_of(deal: Deal, variant: str, players: int) -> str:
    """The record of ``deal``, its deck written out."""
    names = [f"P{s}" for s in range(1, players + 1)]
    return write_record(Record(variant, names, {}, [DealRecord(dealer=DEALER, deck=tuple(deal.deck),
                                                               actions=[str(a) for a in deal.actions()])]))


@pytest.mark.parametrize(("variant", "players", "rule", "seed", "seat", "playouts"), PRESETS,
                         ids=[f"{p[0]}-{p[1]}" for p in PRESETS])
def test_the_cards_the_seat_never_saw_redealt_give_the_same_review(variant: str, players: int, rule: str,
                                                                     seed: int, seat: int, playouts: int) -> None:
    # the deal of the preset (R3.1, R4.1, R6.3, R8.2): only what the seat saw is kept in place
    deal = short_deal(variant, players, seed, seat)
    other = redeal_unseen(deal, seat, random.Random(7))
    assert other.deck != deal.deck and other.view(seat) == deal.view(seat), rule
    first = review.review_text(record_of(deal, variant, players), seat=seat, playouts=playouts)
    again = review.review_text(record_of(other, variant, players), seat=seat, playouts=playouts)
    assert len(first.decisions) == DECISIONS
    assert again.to_json() == first.to_json()
