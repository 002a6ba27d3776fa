"""Conquian's listing made from listings kept (a say's per seat and uses, a discard's from each seat's
entries in notation order) is the listing the generic path makes: the same entries, the same order."""

from __future__ import annotations

import random

import pytest

from conquian import get_rules
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.deal import DealMixin, listing
from conquian.engine.match import new_deal


@pytest.mark.parametrize("players", [2, 3])
def test_kept_listing_is_the_generic_listing(players: int) -> None:
    rules = get_rules("conquian", players=players)
    rng = random.Random(players)
    seen = set()
    for seed in range(120):
        deal = new_deal(rules, seed=seed, dealer=1 + seed % players)
        assert isinstance(deal, ConquianDeal)
        while not deal.over:
            kept = deal._fresh_listing()
            assert kept == DealMixin._fresh_listing(deal)
            assert kept == deal._fresh_listing()  # made once, the same again
            seen.add((deal.phase, min(len(kept), 3)))
            legal = deal.legal_actions()
            assert legal == [e[1] for e in kept]
            deal.play(legal[rng.randrange(len(legal))])
    assert {("say", 1), ("say", 2), ("say", 3), ("discard", 3)} <= seen


def test_a_listing_kept_is_not_changed_by_its_caller() -> None:
    deal = new_deal(get_rules("conquian"), seed=3, dealer=2)
    first = deal.legal_actions()
    first.clear()  # the caller's own list
    again = new_deal(get_rules("conquian"), seed=3, dealer=2)
    assert again.legal_actions() and deal.legal_actions() == again.legal_actions()


@pytest.mark.parametrize("variant, players", [("cooncan", 3), ("cooncan-double", 5)])
def test_cooncan_kept_draw_listing_is_the_generic_listing(variant: str, players: int) -> None:
    rules = get_rules(variant, players=players)
    rng = random.Random(players)
    draws = 0
    for seed in range(12):
        deal = new_deal(rules, seed=seed, dealer=players)
        while not deal.over:
            kept = deal._fresh_listing()
            assert kept == listing(deal._acting(), deal.legal_raw(), deal._entry)
            draws += deal.phase == "draw"
            legal = deal.legal_actions()
            assert legal == [e[1] for e in kept]
            deal.play(legal[rng.randrange(len(legal))])
    assert draws > 100
