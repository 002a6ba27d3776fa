"""A seat's view holds exactly what that seat may know (issue: hidden information stays hidden)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquian import ConquianDeal, ConquianView, IllegalActionError, get_rules
from conquian.engine.redeal import redeal_unseen


def random_position(seed: int, steps: int, variant: str = "conquian") -> ConquianDeal:
    rng = random.Random(seed)
    deal = ConquianDeal(get_rules(variant), seed=seed, dealer=rng.choice([1, 2]))
    for _ in range(steps):
        if deal.over:
            break
        deal.play(rng.choice(deal.legal_actions()))
    return deal


def rearrange_hidden(deal: ConquianDeal, seat: int, rng: random.Random) -> ConquianDeal:
    """The same public history, with the cards ``seat`` has not seen dealt differently."""
    other = redeal_unseen(deal, seat, rng)
    assert isinstance(other, ConquianDeal)
    return other


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 80), st.integers(0, 1), st.sampled_from(["conquian", "conquian-spanish"]))
def test_view_depends_only_on_what_the_seat_may_know(seed: int, steps: int, who: int, variant: str) -> None:
    deal = random_position(seed, steps, variant)
    seat = deal.seats[who]
    other = rearrange_hidden(deal, seat, random.Random(seed + 1))
    assert other.view(seat) == deal.view(seat)
    # and the views differ from the deal itself in what is hidden
    v = deal.view(seat)
    adversary_hand = deal.hands[1 - who]
    assert v.hand_mask & adversary_hand == 0
    assert v.adversary_hand_count == adversary_hand.bit_count()


def test_view_fields_hold_no_deck_and_no_deal() -> None:
    deal = random_position(5, 30)
    v = deal.view(deal.seats[0])
    for f in dataclasses.fields(ConquianView):
        value = getattr(v, f.name)
        assert not isinstance(value, ConquianDeal)
        assert value != deal.deck
    assert not hasattr(v, "deck") and not hasattr(v, "hands")
    # the unseen cards are exactly the adversary's hand and the pack, as a set
    hidden = deal.hands[1] | sum(1 << c for c in deal.deck[deal.pos:])
    assert v.unseen_mask() == hidden


def test_view_lists_the_same_actions_as_the_deal() -> None:
    for seed in range(30):
        deal = random_position(seed, seed % 40)
        if deal.over:
            continue
        seat = deal.to_act
        assert seat is not None
        assert deal.view(seat).legal_actions() == deal.legal_actions()
        other = deal.seats[0] if seat == deal.seats[1] else deal.seats[1]
        assert deal.view(other).legal_actions() == []  # not his turn: nothing to choose


def test_view_is_frozen() -> None:
    v = random_position(1, 3).view(1)
    try:
        v.hand_mask = 0  # type: ignore[misc]
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise AssertionError("a view must be immutable")


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 80), st.sampled_from(["conquian", "conquian-spanish"]))
def test_a_seat_that_sits_out_sees_what_a_spectator_sees(seed: int, steps: int, variant: str) -> None:
    # R6.3: with three at the table the dealer takes no cards; he still watches the deal
    rng = random.Random(seed)
    dealer = rng.choice([1, 2, 3])
    deal = ConquianDeal(get_rules(variant, players=3), seed=seed, dealer=dealer)
    for _ in range(steps):
        if deal.over:
            break
        deal.play(rng.choice(deal.legal_actions()))
    v = deal.view(dealer)
    assert v.sitting_out and v.seat == dealer and dealer not in v.seats
    assert v.hand_mask == 0 and v.legal_actions() == [] and not v.must_discard and not v.forced
    assert v.side_masks == (deal.sides[0], deal.sides[1]) and v.events == tuple(deal.history())
    assert v.hand_counts == (deal.hands[0].bit_count(), deal.hands[1].bit_count())
    assert v.unseen_mask() == deal.hands[0] | deal.hands[1] | sum(1 << c for c in deal.deck[deal.pos:])
    # it reveals no hidden card: both hands and the pack dealt again, the view is the same
    other = rearrange_hidden(deal, dealer, random.Random(seed + 1))
    assert other.view(dealer) == v
    assert not deal.view(deal.seats[0]).sitting_out
    with pytest.raises(IllegalActionError, match="R6.3"):
        _ = v.player
    with pytest.raises(IllegalActionError, match="R6.3"):
        deal.view(4)
