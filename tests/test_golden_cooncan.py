"""Golden data for Cooncan: pinned decks, a listing worked by hand, whole playouts."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import pytest

from conquian import card_str, get_rules, seeded_deck
from conquian.engine.cooncan.deal import CooncanDeal
from conquian.engine.record import read_record

PINNED = {
    ("cooncan", 1): "Qc 3d Ks 8d Kc 5d Jh X 2h 2d 4s 5h 5c Jc 9c 9s Tc 2s 6d 3s 6h Qd 8h As",
    ("cooncan", 42): "4d Td Ac Qd 3h 5s Jd Ts 3c Th As Ah Kc Js 9d 5h Qc 4s Ks 8h Kh 5c 5d 6h",
    ("cooncan-double", 1): "8h Kh Ts 4h Ah 4c Ad Jh 9s Kd 7d 6c Js 3d 5h 8s 6s X Ac 7c 3d 8d Kc 4d",
    ("cooncan-double", 42): "9d Jh 6d 6s 9c 7s Tc X Th 5s Jc 3d 8d 2c 7h 4s Jc Tc 3d Ks Qc 5s 3h 7d",
}


@pytest.mark.parametrize(("key", "top"), PINNED.items())
def test_r4_1_seeded_decks_never_change(key: tuple[str, int], top: str) -> None:
    variant, seed = key
    deck = seeded_deck(get_rules(variant), seed)
    assert " ".join(card_str(c) for c in deck[:24]) == top
    assert len(deck) == (53 if variant == "cooncan" else 106)


def test_listing_in_the_five_hand_splash_worked_by_hand() -> None:
    rec = read_record((Path(__file__).parent / "records" / "foster_splash.toml").read_text())
    d = rec.deals[0]
    deal = CooncanDeal(rec.rules(), d.deck, dealer=d.dealer)
    for a in d.actions[:8]:
        deal.play(a)
    assert [str(a) for a in deal.legal_actions()] == ["p3 draw", "p3 take"]
    deal.play("p3 take")
    discards = [f"p3 discard {c}" for c in "4s 5c 5d 5h 6s 8d 8s 9d Kd Kh Ks".split()]
    assert [str(a) for a in deal.legal_actions()] == sorted([
        "p3 meld 5c 5d 5h", "p3 meld Kd Kh Ks",  # his two sets
        "p3 add 2 8d", "p3 add 2 8s",  # A's eights take either of his
        "p3 add 4 4s",  # B's fours
        "p3 shift 3 8d",  # B's joker moves from the 4 to the 7 of diamonds, and his 8 goes on
        *discards,
    ])


PLAYOUTS = {
    ("cooncan", 3, 1): (90, 426, 3, False, "0661ce3669af4c0b"),
    ("cooncan", 3, 2): (155, 663, 2, False, "696f3a9d0a0a7fdf"),
    ("cooncan", 3, 3): (494, 1653, None, True, "8500f6667cc55157"),
    ("cooncan-double", 5, 1): (377, 1938, 2, False, "293f47c296521e64"),
    ("cooncan-double", 5, 2): (388, 1982, 4, False, "cc0dab046f151905"),
    ("cooncan-double", 5, 3): (225, 1271, 5, False, "243bad49635998c3"),
}


@pytest.mark.parametrize(("key", "expected"), PLAYOUTS.items())
def test_golden_playouts(key: tuple[str, int, int], expected: tuple[int, int, int | None, bool, str]) -> None:
    """A seeded random choice among the sorted listed actions, whole deals: counts and digests."""
    variant, n, seed = key
    deal = CooncanDeal(get_rules(variant, players=n), seed=seed, dealer=n)
    rng = random.Random(seed)
    counts = []
    while not deal.over:
        actions = deal.legal_actions()
        counts.append(len(actions))
        deal.play(actions[rng.randrange(len(actions))])
    digest = hashlib.sha256(" ".join(str(a) for a in deal.actions()).encode()).hexdigest()[:16]
    assert (len(counts), sum(counts), deal.winner_seat, deal.void, digest) == expected
