"""The listing's contract for ``use`` (docs/records.md, R3.4, R3.7, R8.5): every set of hand cards
that some legal use lays is laid by a listed use, and going out is always listed.

The check is an outside checker's (:mod:`benchmarks.cover_uses`): its own combinations (R2.2,
written again from the rule book, not the engine's meld table) and its own search of every subset
of the hand, over positions reached by random play of every conquian preset; every listed use is
legal too.
"""

from __future__ import annotations

import random

import pytest
from benchmarks.cover_uses import compare

from conquian import get_rules
from conquian.bots.foster import FosterBot
from conquian.engine.actions import Use
from conquian.engine.match import new_deal
from helpers import legal, make_deal

PRESETS = [("conquian", 2), ("conquian-spanish", 2), ("conquian-mexicano", 2), ("conquian-mexicano", 3),
           ("conquian-mexicano", 4)]


@pytest.mark.parametrize(("preset", "players"), PRESETS)
def test_every_layable_set_and_every_going_out_is_listed(preset: str, players: int) -> None:
    rules = get_rules(preset, players=players)
    rng = random.Random(7)
    positions = sets = outs = 0
    seed = 0
    while positions < 1000:
        seed += 1
        deal = new_deal(rules, seed=seed, dealer=rules.players)
        while not deal.over:
            legal_now = deal.legal_actions()
            if deal.phase in ("say", "forced") and any(isinstance(a, Use) for a in legal_now):
                n, missing, out, out_missing = compare(deal)
                assert missing == 0 and out_missing == 0, (deal.rules.name, seed, deal.view(deal.to_act))
                positions += 1
                sets += n
                outs += out
            # prefer uses, so that sides grow and borrowing and going out come up often
            uses = [a for a in legal_now if isinstance(a, Use)]
            deal.play(rng.choice(uses) if uses and rng.random() < 0.7 else rng.choice(legal_now))
    assert sets > positions and outs > 10  # the search met real choices, going out among them


def test_the_planted_going_out_is_listed() -> None:
    # R3.7: the pone holds 2c-6c, 7d 7h 7s, 9h 10h; the 8h turned puts him eleven down at once
    deal = make_deal("2c 3c 4c 5c 6c 7d 7h 7s 9h Th", "Ac Ad As 2d 2h 3d 3h 4d 4h 4s", "8h")
    assert "p1 use 2c 3c 4c 5c 6c | 7d 7h 7s | 8h 9h Th" in legal(deal)
    deal.play("p1 use 2c 3c 4c 5c 6c | 7d 7h 7s | 8h 9h Th")
    assert deal.over and deal.winner_seat == 1


def test_a_four_card_combination_and_further_hand_cards_are_listed() -> None:
    # R3.4: "make a new combination from the card and at least two hand cards" (three here, with
    # the card a four), and "lay further hand cards down in the same move"
    deal = make_deal("6h 7h 9h 9c 9d 2s 3c 5d Ts Td", "Ac Ad As 2d 2h 3d 3h 4d 4h 4s", "8h")
    uses = {a for a in legal(deal) if " use " in a}
    assert uses >= {"p1 use 6h 7h 8h 9h", "p1 use 6h 7h 8h | 9c 9d 9h", "p1 use 6h 7h 8h", "p1 use 7h 8h 9h"}
    assert len(uses) == 4  # 6h 7h, 6h 7h 9h, 7h 9h, and 6h 7h with 9c 9d 9h: every set, once


@pytest.mark.parametrize(("preset", "players"), [("conquian", 2), ("conquian-mexicano", 2), ("conquian-mexicano", 3)])
def test_foster_goes_out_whenever_it_can(preset: str, players: int) -> None:
    # R3.7, R8.5; Foster: "The first to show eleven cards on the table wins the game"
    rules = get_rules(preset, players=players)
    bots = {s: FosterBot(s) for s in range(1, players + 1)}
    chances = 0
    for seed in range(1, 120):
        deal = new_deal(rules, seed=seed, dealer=rules.players)
        while not deal.over:
            seat = deal.to_act
            assert seat is not None
            hand = deal.hand(seat).mask  # type: ignore[attr-defined]
            outs = [a for a in deal.legal_actions() if isinstance(a, Use)
                    and not hand & ~sum_masks(a.melds)]
            choice = bots[seat].choose(deal.view(seat))
            if outs:
                chances += 1
                assert isinstance(choice, Use) and not hand & ~sum_masks(choice.melds), (seed, str(choice))
            deal.play(choice)
    assert chances > 20


def sum_masks(melds: tuple[int, ...]) -> int:
    out = 0
    for m in melds:
        out |= m
    return out


def test_foster_lays_the_three_necessary() -> None:
    # Foster: "even if a player can lay down four or five in sequence, he should never do so unless
    # he must show the cards to win ... Just lay down the three necessary"
    deal = make_deal("6h 7h 9h 9c 9d 2s 3c 5d Ts Td", "Ac Ad As 2d 2h 3d 3h 4d 4h 4s", "8h")
    choice = FosterBot(1).choose(deal.view(1))
    assert isinstance(choice, Use) and sum_masks(choice.melds).bit_count() == 3, str(choice)


def test_the_move_list_offers_going_out_in_words() -> None:
    # the terminal's list and the web table's buttons read their labels from the session
    from conquian.engine.cards import parse_cards
    from conquian.engine.deck import arrange_deck
    from conquian.i18n import translator
    from conquian.session import GameSession

    rules = get_rules("conquian")
    deck = arrange_deck(rules, [parse_cards("2c 3c 4c 5c 6c 7d 7h 7s 9h Th"),
                                parse_cards("Ac Ad As 2d 2h 3d 3h 4d 5d 6d")], parse_cards("8h"))
    s = GameSession(rules, seats=["human", "foster"], names=["Ann", "Bob"], first_deck=deck)
    assert s.deal.to_act == 1
    labels = {str(a): s.move_label(a) for a in s.legal()}
    assert labels["p1 use 2c 3c 4c 5c 6c | 7d 7h 7s | 8h 9h Th"] == "go out: lay 2♣-6♣, 7♦ 7♥ 7♠ and 8♥ 9♥ 10♥"
    assert sum(label.startswith("go out") for label in labels.values()) == 1  # the other uses keep a card
    going_out = next(a for a in s.legal() if str(a) == "p1 use 2c 3c 4c 5c 6c | 7d 7h 7s | 8h 9h Th")
    assert s.move_label(going_out, translator("es")) == "salir: bajar 2♣-6♣, 7♦ 7♥ 7♠ y 8♥ 9♥ 10♥"
    assert str(s.read_move("salir: bajar 2♣-6♣, 7♦ 7♥ 7♠ y 8♥ 9♥ 10♥", 1)) == str(going_out)  # typed back
