"""Property tests of the conquián mexicano (R8) under random play, with hypothesis.

Random legal play never loses or creates a card; every hand plus its side of the table holds
``hand`` cards (R3.2 with ``hand`` in place of ten, R8.3), but for the player who has used a
card and not yet discarded, and the winner (R8.5); scores balance (R8.7); records round-trip;
copies are independent; and a view reveals nothing: re-dealing every card its seat has not
seen, the exchanged cards included, leaves the view unchanged.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from conquian import Match, get_rules
from conquian.bots.determinize import determinize
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.conquian.mexicano_listing import DISCARD
from conquian.engine.record import read_record, record_from_match, replay, write_record
from conquian.engine.redeal import redeal_unseen

CONFIGS: list[tuple[int, dict[str, Any]]] = [
    (2, {}), (3, {}), (4, {}), (2, {"hand": 9}), (3, {"hand": 9, "exhausted": "fewest"}),
    (2, {"exchange": False}), (4, {"exhausted": "fewest", "exchange": False}),
]


def check_cards(deal: MexicanoDeal) -> None:
    """Every card of the pack is in exactly one place; hand + side = hand (R8.3, R8.5)."""
    hs = deal.rules.hand_size
    places = [*deal.hands, *deal.downs, deal.buried]
    if deal.card >= 0 and not any(m >> deal.card & 1 for m in places):
        places.append(1 << deal.card)
    places.append(sum(1 << c for c in deal.deck[deal.pos:]))
    total = 0
    for m in places:
        assert not total & m, "a card in two places"
        total |= m
    assert total == sum(1 << c for c in deal.deck) and sum(m.bit_count() for m in places) == 40
    for p in range(deal.n):
        count = deal.hands[p].bit_count() + deal.downs[p].bit_count()
        # the winner who went out holds hand + 1 (R8.5); one who won by fewest cards (R8.6) does not
        last = deal.events[1][-1] if deal.events is not None else None
        went_out = p == deal.winner and deal.hands[p] == 0 and last is not None and last[0] != "fewest"
        extra = went_out or (deal.stage == DISCARD and p == deal.actor)
        assert count == hs + extra, (p, count)
        # a side is whole combinations, and the downs are their union
        union = 0
        for m in deal.sides[p]:
            assert deal.tbl.is_meld(m) and not union & m
            union |= m
        assert union == deal.downs[p]


def random_deal(config: tuple[int, dict[str, Any]], seed: int) -> tuple[Match, MexicanoDeal, random.Random]:
    n, options = config
    match = Match(get_rules("conquian-mexicano", players=n, **options))
    deal = match.new_deal(seed=seed)
    assert isinstance(deal, MexicanoDeal)
    return match, deal, random.Random(seed)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(CONFIGS), st.integers(0, 2**32))
def test_random_play_keeps_every_card_and_the_invariant(config: tuple[int, dict[str, Any]], seed: int) -> None:
    match, deal, rng = random_deal(config, seed)
    while not deal.over:
        check_cards(deal)
        legal = deal.legal_actions()
        assert legal and all(deal.is_legal(a) for a in legal)
        assert [str(a) for a in deal.view(deal.to_act or 1).legal_actions()] == [str(a) for a in legal]
        deal.play(rng.choice(legal))
    check_cards(deal)
    scores = deal.scores()
    assert scores is not None and sum(scores) == 0  # R8.7
    if deal.winner_seat is None:
        assert deal.tableau and scores == [0] * deal.n
    else:
        assert scores[deal.winner_seat - 1] == deal.n - 1 and scores.count(-1) == deal.n - 1
    again = replay(read_record(write_record(record_from_match(match))))
    assert again.deals[-1].deal == deal and again.totals == (match.settle() or match.totals)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(CONFIGS), st.integers(0, 2**32), st.integers(0, 80))
def test_copies_are_independent_and_raw_play_is_checked_play(config: tuple[int, dict[str, Any]], seed: int,
                                                             steps: int) -> None:
    _, deal, rng = random_deal(config, seed)
    for _ in range(steps):
        if deal.over:
            break
        deal.play(rng.choice(deal.legal_actions()))
    if deal.over:
        return
    frozen = deal.copy()
    raw_path = deal.copy()
    kind, arg = raw_path.random_raw(rng.random)
    checked = deal.copy()
    checked.play(deal.to_action((kind, arg)))
    raw_path.apply_raw(kind, arg)
    assert raw_path == checked and deal == frozen and deal != checked
    assert deal.verify(deal.to_action((kind, arg))) == (kind, arg)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(CONFIGS), st.integers(0, 2**32), st.integers(0, 60))
def test_a_view_reveals_nothing_its_seat_has_not_seen(config: tuple[int, dict[str, Any]], seed: int,
                                                      steps: int) -> None:
    _, deal, rng = random_deal(config, seed)
    for _ in range(steps):
        if deal.over:
            break
        deal.play(rng.choice(deal.legal_actions()))
    for seat in range(1, deal.n + 1):
        view = deal.view(seat)
        moved = False
        for k in range(4):
            other = redeal_unseen(deal, seat, random.Random(seed + k))
            assert other.view(seat) == view  # the hidden cards, the exchange's too, re-dealt
            # the others' hands, the gives not yet seen, or the pack (every other hand may be known)
            moved = (moved or other.hands != deal.hands or other.gives != deal.gives
                     or other.deck[other.pos:] != deal.deck[deal.pos:])
            fake = determinize(view, random.Random(seed + k))
            assert fake.view(seat) == view
            if not deal.over and deal.to_act == seat:
                assert [str(a) for a in fake.legal_actions()] == [str(a) for a in view.legal_actions()]
        if not deal.over and deal.pack_count > 4:
            assert moved  # something hidden really was re-dealt


def test_random_play_speed_is_of_conquians_order() -> None:
    import time

    def rate(rules: Any) -> float:
        match = Match(rules, rounds=None)
        rnd = random.Random(1).random
        t0 = time.perf_counter()
        for i in range(100):
            deal = match.new_deal(seed=i)
            while deal.stage != deal.OVER_STAGE:
                deal.apply_raw(*deal.random_raw(rnd))
        return 100 / (time.perf_counter() - t0)

    # a loose bound: the shared machine is noisy; the report measures it properly
    assert rate(get_rules("conquian-mexicano", players=3)) > rate(get_rules("conquian-spanish")) / 8
