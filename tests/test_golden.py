"""Golden data: decks of pinned seeds, listed legal actions from fixed deals, whole playouts.

If one of these changes, the deck generator or the action listing changed: that
breaks every record written with ``seed = ...`` or every stored analysis, so it
must be a deliberate, documented change (docs/records.md: bump ``format``).
"""

from __future__ import annotations

import hashlib

import pytest

from conquian import ConquianDeal, card_str, get_rules, seeded_deck
from helpers import legal, make_deal, play_all

PINNED_DECKS = {
    ("conquian", 0): "9c 3s 5c 6s 2d 8h 9h 9s 3c 9d 3d Ad 3h 6h 5d 4s 7s 4h Th 8s 4d 7c Ah 2h 5s 8d 5h Ts 7h 2c "
                     "8c 4c 6c Tc As 2s 7d Td Ac 6d",
    ("conquian", 1): "2d 3c 7d 7h 9h 9d 5h 3d Th 6s 9s As 6c 3h 5c 8d 4d Ah 5s 7c 6d Ad Tc 3s 8s 2s 2c Ac 4s 8h "
                     "8c 9c 4c Ts 4h 2h 7s 5d Td 6h",
    ("conquian", 2): "Ad Ah 7s 7h 6d 4d 4s 8c 5d 9d Ts Td 8d 7c 2d 5c 2c 4c 7d 9h 8s 9c 3d 3c 8h 5s Ac 2h 9s Th "
                     "3h 2s 3s 5h Tc 6h 6c 4h 6s As",
    ("conquian", 42): "6h 7d 6s 2d 9d Tc 9h 4h 8s Ts Ad 8c 7s 9s Th Ac 5d 4s Ah 3d 7c 6d 7h 5h 6c 9c Td As 8h 8d "
                      "3h 2h 3c 2s 3s 5s 4c 5c 2c 4d",
    ("conquian-spanish", 0): "Qc 3s 5c 6s 2d Jh Qh Qs 3c Qd 3d Ad 3h 6h 5d 4s 7s 4h Kh Js 4d 7c Ah 2h 5s Jd 5h Ks "
                             "7h 2c Jc 4c 6c Kc As 2s 7d Kd Ac 6d",
    ("conquian-spanish", 42): "6h 7d 6s 2d Qd Kc Qh 4h Js Ks Ad Jc 7s Qs Kh Ac 5d 4s Ah 3d 7c 6d 7h 5h 6c Qc Kd As "
                              "Jh Jd 3h 2h 3c 2s 3s 5s 4c 5c 2c 4d",
}


@pytest.mark.parametrize(("key", "deck"), PINNED_DECKS.items())
def test_r3_1_seeded_decks_never_change(key: tuple[str, int], deck: str) -> None:
    variant, seed = key
    assert " ".join(card_str(c) for c in seeded_deck(get_rules(variant), seed)) == deck


def test_first_position_of_seed_1() -> None:
    deal = ConquianDeal(get_rules("conquian"), seed=1, dealer=2)
    assert str(deal) == (
        "p1 (pone) hand: Ah 2d 3c 3h 4d 6c 6s 9d 9h Th\n"
        "p1 table: nothing\n"
        "p2 (dealer) hand: As 3d 5c 5h 5s 7c 7d 7h 8d 9s\n"
        "p2 table: nothing\n"
        "in play: 6d; p1 to say; pack 19"
    )
    assert legal(deal) == ["p1 pass", "p1 use 6c 6d 6s"]


def test_listing_with_borrowing_worked_by_hand() -> None:
    # p1: 5h 6h 7h 8h down; hand 5d Ac 2s 4c Td 3d; the 5c in play.
    deal = make_deal("6h 7h 8h 5d Ac 2s 4c 9s Td 3d", "2c 3c 6c 9c Tc 2d 4d 7d 9d Ts", "5h 7s 5c")
    play_all(deal, "p1 use 5h 6h 7h 8h\np1 discard 9s\np2 pass\np2 pass\np1 pass")
    assert legal(deal) == ["p1 pass", "p1 use 5c 5d 5h | 6h 7h 8h"]


def test_listing_of_foster_spade_7_worked_by_hand() -> None:
    from test_rules_conquian import foster_after_treys

    deal = foster_after_treys()
    play_all(deal, "p2 force 6s\np1 use 3s 4s 5s 6s\np1 discard 8s\np2 pass")
    assert legal(deal) == ["p2 force 7s", "p2 pass"]
    deal.play("p2 force 7s")
    assert legal(deal) == ["p1 use 3s 4s 5s 6s 7s", "p1 use 7c 7d 7s"]
    deal.play("p1 use 7c 7d 7s")
    assert legal(deal) == ["p1 discard 2c"]


# (variant, seed) -> decisions, sum of listed-action counts, winner seat, digest of the actions,
# for the policy "always play the last listed action" with p2 dealing.
PLAYOUTS = {
    # the listing lays every set of hand cards a use can lay (docs/records.md): more uses are listed,
    # so the counts grow and "the last listed" is at times a bigger use (seeds 3 and spanish 1, 3
    # play as before)
    ("conquian", 1): (44, 88, 1, "4eee01cf807704b2"),
    ("conquian", 2): (19, 45, 1, "2b089411805727ce"),
    ("conquian", 3): (57, 105, None, "578fa8445dabff19"),
    ("conquian", 4): (49, 83, None, "40f9a71be28218c3"),
    ("conquian", 5): (39, 75, 2, "24968e8701ecbd25"),
    ("conquian-spanish", 1): (54, 99, None, "5670c8619d034682"),
    ("conquian-spanish", 2): (41, 82, 1, "362a481bd7eae8cd"),
    ("conquian-spanish", 3): (57, 109, None, "059c8a733362b140"),
}


@pytest.mark.parametrize(("key", "expected"), PLAYOUTS.items())
def test_golden_playouts(key: tuple[str, int], expected: tuple[int, int, int | None, str]) -> None:
    variant, seed = key
    deal = ConquianDeal(get_rules(variant), seed=seed, dealer=2)
    counts = []
    while not deal.over:
        actions = deal.legal_actions()
        counts.append(len(actions))
        deal.play(actions[-1])
    digest = hashlib.sha256(" ".join(str(a) for a in deal.actions()).encode()).hexdigest()[:16]
    assert (len(counts), sum(counts), deal.winner_seat, digest) == expected
