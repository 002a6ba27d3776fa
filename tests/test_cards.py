"""R2.1 card notation and R2.2 combinations."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conquian import CardSet, NotationError, card_str, get_rules, meld_table, parse_card, parse_cards
from conquian.engine.cards import JOKER, make_card

ALL_CARDS = [make_card(r, s) for s in range(4) for r in range(1, 14)]


@given(st.sampled_from([*ALL_CARDS, JOKER]))
def test_r2_1_card_round_trip(card: int) -> None:
    assert parse_card(card_str(card)) == card


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("10h", "Th"), ("th", "Th"), ("TH", "Th"), ("10♠", "Ts"), ("a♣", "Ac"), ("♦7", "7d"), ("x", "X"), ("kD", "Kd")],
)
def test_r2_1_input_forms(text: str, canonical: str) -> None:
    assert card_str(parse_card(text)) == canonical


@pytest.mark.parametrize("text", ["", "1h", "11c", "Tx", "Z", "7", "hh", "7hh", "joker"])
def test_r2_1_bad_cards_are_notation_errors(text: str) -> None:
    with pytest.raises(NotationError, match=r"R2\.1"):
        parse_card(text)


@given(st.sets(st.sampled_from(ALL_CARDS)))
def test_cardset_text_round_trip(cards: set[int]) -> None:
    s = CardSet(cards)
    assert CardSet.parse(str(s)) == s
    assert eval(repr(s), {"CardSet": CardSet}) == s
    assert len(s) == len(cards) and set(s) == cards


def meld(text: str) -> int:
    return CardSet.parse(text).mask


@pytest.mark.parametrize(
    ("variant", "text", "ok"),
    [
        ("conquian", "5h 6h 7h", True),
        ("conquian", "Ah 2h 3h", True),
        ("conquian", "8h 9h Th", True),
        ("conquian", "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc", True),  # longest: legal, if useless (R2.2)
        ("conquian", "7c 7d 7h", True),
        ("conquian", "7c 7d 7h 7s", True),
        ("conquian", "5h 6h", False),  # fewer than three, never (R2.2)
        ("conquian", "5h 6h 8h", False),  # a gap
        ("conquian", "5h 6h 7d", False),  # mixed suits
        ("conquian", "9h Th Ah", False),  # ace low only; nothing wraps
        ("conquian", "7c 7d 8d", False),
        ("conquian-spanish", "6s 7s Js", True),  # 7 and J are consecutive (R2.2)
        ("conquian-spanish", "Qs Ks As", False),  # no Q-K-A
        ("conquian-spanish", "Js Qs Ks", True),
        ("conquian-spanish", "Kc Kd Kh", True),
    ],
)
def test_r2_2_combinations(variant: str, text: str, ok: bool) -> None:
    assert meld_table(get_rules(variant)).is_meld(meld(text)) is ok


@pytest.mark.parametrize("variant", ["conquian", "conquian-spanish"])
def test_r2_2_meld_table_counts(variant: str) -> None:
    t = meld_table(get_rules(variant))
    # sets: 10 ranks x (4 triplets + 1 four); sequences: 4 suits x (8+7+...+1) runs of 3 to 10 cards.
    assert len(t.sets) == 50
    assert len(t.runs) == 4 * sum(range(1, 9))
    assert t.pack_mask.bit_count() == 40


def test_r2_2_cards_outside_the_pack_make_no_meld() -> None:
    t = meld_table(get_rules("conquian"))
    assert not t.is_meld(meld("Jc Jd Jh"))
    assert t.partition(meld("Jc Jd Jh")) is None


def test_partition_finds_a_split_of_seven_into_two_threes_and_one() -> None:
    t = meld_table(get_rules("conquian"))
    # R3.4: the middle card of a sequence of seven can be borrowed: 3-4-5 | 6 | 7-8-9
    assert t.partition(meld("3h 4h 5h 7h 8h 9h")) is not None
    assert t.partition(meld("3h 4h 5h 6h 7h 8h 9h")) is not None
    assert t.partition(meld("3h 4h 6h 7h 8h")) is None


def test_parse_cards_keeps_order() -> None:
    assert [card_str(c) for c in parse_cards("9h 7h  8h")] == ["9h", "7h", "8h"]


@given(st.integers(min_value=-(2**70), max_value=2**70))
def test_r3_1_seeded_decks_drawn_at_once_equal_the_shuffle_card_by_card(seed: int) -> None:
    from conquian.engine import deck

    g = deck.SplitMix64(seed)
    assert deck._draws(seed, 105) in (None, [g.next64() for _ in range(105)])
    for variant, n in (("conquian", 2), ("conquian-spanish", 2), ("cooncan-double", 5)):
        rules = get_rules(variant, players=n)
        assert deck.seeded_deck(rules, seed) == deck._reference_seeded_deck(rules, seed)


def test_r3_1_seeded_decks_card_by_card_where_a_draw_may_be_rejected(monkeypatch: pytest.MonkeyPatch) -> None:
    from conquian.engine import deck

    rules = get_rules("cooncan-double", players=5)
    at_once = [deck.seeded_deck(rules, s) for s in range(50)]
    monkeypatch.setattr(deck, "_draws", lambda seed, m: None)
    assert [deck.seeded_deck(rules, s) for s in range(50)] == at_once
    assert at_once == [deck._reference_seeded_deck(rules, s) for s in range(50)]
