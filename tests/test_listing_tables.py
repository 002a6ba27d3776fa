"""The listing of uses from its tables gives, for every state, the very actions the searches it
replaced gave, in the very same order (action indices, records, golden counts and the bots' pinned
decisions rest on that order).  The searches are kept as the reference, ``tests/reference_listing.py``.

Every preset of the conquian family is played at random; at each card in play the listing of
every hand at the table (the actor's and the others', whose sides and hands make further states)
is compared with the reference's, and the conquian deals' whole listings too.  Then a property
test draws hands, sides and cards freely (sides as random partitions of cards into combinations).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference_listing as ref
from conquian import get_rules
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.conquian.listing import legal_raw, use_forms
from conquian.engine.conquian.melds import MeldTable, meld_table
from conquian.engine.match import new_deal

PRESETS = [("conquian", 2), ("conquian-spanish", 2), ("conquian-mexicano", 2), ("conquian-mexicano", 3),
           ("conquian-tiny", 2)]


def _same_uses(tbl: MeldTable, side: tuple[int, ...], down: int, hand: int, card: int) -> int:
    got = use_forms(tbl, side, down, hand, card)
    want = ref.use_forms(tbl, side, down, hand, card)
    assert got == want, (side, down, hand, card)
    assert use_forms(tbl, side, down, hand, card) == want  # and again, from the memo
    return len(want)


@pytest.mark.parametrize(("preset", "players"), PRESETS)
def test_the_tables_list_what_the_searches_listed(preset: str, players: int) -> None:
    rules = get_rules(preset, players=players)
    rng = random.Random(11)
    compared = forms = 0
    for seed in range(120):
        deal = new_deal(rules, seed=seed, dealer=rules.players)
        tbl = deal.tbl  # type: ignore[union-attr]
        while not deal.over:
            card = deal.card  # type: ignore[union-attr]
            if card >= 0:
                for p, hand in enumerate(deal.hands):  # type: ignore[union-attr]
                    forms += _same_uses(tbl, deal.sides[p], deal.downs[p], hand, card)  # type: ignore[union-attr]
                    compared += 1
            if isinstance(deal, ConquianDeal):
                p = deal.actor
                args = (tbl, deal.stage, deal.card, deal.hands[p], deal.sides[p], deal.downs[p], deal.sides[1 - p])
                assert legal_raw(*args) == ref.legal_raw(*args)
            legal = deal.legal_actions()
            # prefer uses, so that sides grow and borrowing and going out come up often
            uses = [a for a in legal if type(a).__name__ == "Use"]
            deal.play(rng.choice(uses) if uses and rng.random() < 0.7 else rng.choice(legal))
    assert compared > 500 and forms > 100


@st.composite
def positions(draw: st.DrawFn) -> tuple[MeldTable, tuple[int, ...], int, int, int]:
    """A pack's table, a side (combinations laid, disjoint), its cards, a hand and a card in play."""
    preset = draw(st.sampled_from(["conquian", "conquian-spanish", "conquian-tiny"]))
    tbl = meld_table(get_rules(preset))
    cards = [c for c in range(64) if tbl.pack_mask >> c & 1]
    order = draw(st.permutations(cards))
    used = 0
    side: list[int] = []
    melds = sorted(tbl.valid)
    for pick in draw(st.lists(st.integers(0, len(melds) - 1), max_size=4)):
        m = melds[pick]
        if not m & used:
            side.append(m)
            used |= m
    free = [c for c in order if not used >> c & 1]
    if not free:
        free = [order[0]]
        side, used = [], 0
    card = free[0]
    hand = 0
    for c in free[1:1 + draw(st.integers(0, 12))]:
        hand |= 1 << c
    return tbl, tuple(side), used, hand, card


@settings(max_examples=400, deadline=None)
@given(positions())
def test_the_tables_list_what_the_searches_listed_anywhere(
        pos: tuple[MeldTable, tuple[int, ...], int, int, int]) -> None:
    tbl, side, down, hand, card = pos
    _same_uses(tbl, side, down, hand, card)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["conquian", "conquian-spanish", "conquian-tiny", "conquian-mexicano"]), st.data())
def test_the_joinable_cards_are_found_as_every_sequence_tried_found_them(preset: str, data: st.DataObject) -> None:
    tbl = meld_table(get_rules(preset))
    cards = [c for c in range(64) if tbl.pack_mask >> c & 1]
    mask = 0
    for c in data.draw(st.lists(st.sampled_from(cards), max_size=len(cards))):
        mask |= 1 << c
    assert tbl.joinable(mask) == ref.joinable(tbl, mask)
