"""The conquián mexicano and the tercerilla (RULES R8), rule by rule: each test names its rule.

Deals are built from named hands (:func:`mex`): ``hands[0]`` is the first player after the
dealer's, and so on round to the dealer; ``pack`` is the top of the pack, first card first.
"""

from __future__ import annotations

from typing import Any

import pytest

from conquian import ConquianError, IllegalActionError, Match, NotationError, get_rules, parse_action, parse_cards
from conquian.engine.actions import Force, Give
from conquian.engine.cards import CardSet, parse_card
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.deck import pack_order
from conquian.engine.errors import SetupError
from conquian.engine.match import new_deal
from conquian.engine.rules import MEXICANO, PRESETS


def mex(hands: list[str], pack: str = "", dealer: int | None = None, **options: Any) -> MexicanoDeal:
    """A deal in which the players, in the order of play after the dealer, hold ``hands``."""
    rules = get_rules("conquian-mexicano", players=len(hands), **options)
    held = [parse_cards(h) for h in hands]
    deck = [h[k] for k in range(rules.hand_size) for h in held] + parse_cards(pack)
    deck += [c for c in pack_order(rules) if c not in deck]
    return MexicanoDeal(rules, deck, dealer=dealer or len(hands))


def refused(deal: MexicanoDeal, action: str, rule: str) -> IllegalActionError:
    """R7: ``action`` is refused naming ``rule``, and the deal is exactly as it was."""
    before = deal.copy()
    with pytest.raises(IllegalActionError) as info:
        deal.play(action)
    assert info.value.rule == rule, info.value
    assert deal == before and not deal.is_legal(action)
    return info.value


def legal(deal: MexicanoDeal) -> list[str]:
    return [str(a) for a in deal.legal_actions()]


def play(deal: MexicanoDeal, *actions: str) -> None:
    for a in actions:
        deal.play(a)


HEARTS = "Ah 2h 3h 4h 5h 6h 7h Kc"
CLUBS = "Ac 2c 3c 4c 5c 6c 7c Jc"
SPADES = "As 2s 3s 4s 5s 6s 7s Js"


# --------------------------------------------------------------- R8.1 the preset and its options
def test_r8_1_the_preset_and_its_defaults() -> None:
    r = get_rules("conquian-mexicano")
    assert (r.family, r.players, r.hand_size, r.exchange) == (MEXICANO, 2, 8, True)
    assert (r.exhausted, r.deal_batch) == ("tablas", 1)
    assert r.ranks == PRESETS["conquian-spanish"].ranks and r.pack_size == 40
    assert get_rules("conquian-mexicano", players=4).players == 4
    assert get_rules("conquian-mexicano", hand=9, players=3).hand_size == 9
    assert get_rules("conquian-mexicano", hand=9, exchange=False, exhausted="fewest").options_diff() == {
        "exchange": False, "exhausted": "fewest", "hand": 9}


@pytest.mark.parametrize(("options", "rule", "words"), [
    ({"hand": 9, "players": 4}, "R8.1", "four play only with hand=8"),
    ({"players": 5}, "R8.1", "2 to 4"),
    ({"players": 1}, "R8.1", "not 1"),
    ({"hand": 10}, "R8.1", "hand must be one of 8, 9"),
    ({"exhausted": "void"}, "R8.1", "'tablas', 'fewest'"),
    ({"hand": 8.0}, "R1", "whole number"),
    ({"exchange": 1}, "R1", "true or false"),
    ({"scoring": "pips"}, "R1", "not an option of conquian-mexicano"),
])
def test_r8_1_options_out_of_range_are_refused(options: dict[str, Any], rule: str, words: str) -> None:
    with pytest.raises(NotationError) as info:
        get_rules("conquian-mexicano", **options)
    assert str(info.value).startswith(rule + ":") and words in str(info.value)


# --------------------------------------------------------------- R8.2 the deal and the exchange
def test_r8_2_dealt_one_at_a_time_from_the_player_after_the_dealer() -> None:
    rules = get_rules("conquian-mexicano", players=3)
    deck = tuple(pack_order(rules))
    deal = MexicanoDeal(rules, deck, dealer=2)  # p3 is first after the dealer, then p1, then p2
    assert deal.seats == (3, 1, 2)
    assert deal.hand(3) == CardSet(deck[0:24:3]) and deal.hand(1) == CardSet(deck[1:24:3])
    assert deal.hand(2) == CardSet(deck[2:24:3]) and deal.pack_count == 16
    assert deal.phase == "exchange" and deal.to_act == 3


def test_r8_2_every_card_of_the_hand_is_a_legal_give_and_no_card_moves_until_all_have_given() -> None:
    deal = mex([HEARTS, CLUBS, SPADES], "Qd")
    assert legal(deal) == sorted(f"p1 give {c}" for c in HEARTS.split())
    hands = [deal.hand(s) for s in (1, 2, 3)]
    deal.play("p1 give Kc")
    assert [deal.hand(s) for s in (1, 2, 3)] == hands  # chosen, face down: nothing has moved
    refused(deal, "p1 give Ah", "R8.2")  # he has given already
    refused(deal, "p3 give As", "R8.2")  # in seat order after the dealer
    refused(deal, "p2 give Ah", "R8.2")  # a card he does not hold
    refused(deal, "p2 pass", "R8.2")  # the exchange comes first
    deal.play("p2 give Jc")
    assert [deal.hand(s) for s in (1, 2, 3)] == hands and deal.card_in_play is None
    deal.play("p3 give Js")
    # each gave to the next: p1's Kc to p2, p2's Jc to p3, p3's Js to p1
    assert deal.hand(1) == CardSet(parse_cards("Ah 2h 3h 4h 5h 6h 7h Js"))
    assert deal.hand(2) == CardSet(parse_cards("Ac 2c 3c 4c 5c 6c 7c Kc"))
    assert deal.hand(3) == CardSet(parse_cards("As 2s 3s 4s 5s 6s 7s Jc"))
    # then the first player after the dealer turns the first card
    assert deal.phase == "say" and deal.to_act == 1 and deal.card_in_play == parse_card("Qd")
    refused(deal, "p1 give Ah", "R8.2")
    assert [e.kind for e in deal.history()] == ["give", "give", "give", "exchange", "turn"]
    assert [str(a) for a in deal.actions()] == ["p1 give Kc", "p2 give Jc", "p3 give Js"]


def test_r8_2_with_two_players_swap() -> None:
    deal = mex([HEARTS, CLUBS])
    play(deal, "p1 give Kc", "p2 give Jc")
    assert parse_card("Jc") in deal.hand(1) and parse_card("Kc") in deal.hand(2)


def test_r8_2_a_view_shows_its_own_give_and_the_card_got_only_once_all_have_given() -> None:
    deal = mex([HEARTS, CLUBS, SPADES], "Qd")
    deal.play("p1 give Kc")
    assert deal.view(1).gave == parse_card("Kc") and deal.view(1).got is None
    v2 = deal.view(2)
    assert v2.gave is None and v2.got is None and parse_card("Kc") not in v2.hand
    assert v2.given == (True, False, False)
    assert all(e.card is None for e in v2.events if e.kind == "give")
    play(deal, "p2 give Jc", "p3 give Js")
    assert deal.view(2).got == parse_card("Kc") and deal.view(2).gave == parse_card("Jc")
    assert deal.view(1).got == parse_card("Js")
    assert "Kc" not in str(deal.history()) and "Jc" not in str(deal.history())


def test_r8_2_without_the_exchange_the_first_card_is_turned_at_once() -> None:
    deal = mex([HEARTS, CLUBS], "Jh", exchange=False)
    assert deal.phase == "say" and deal.to_act == 1 and deal.card_in_play == parse_card("Jh")
    assert "give" not in " ".join(legal(deal))
    e = refused(deal, "p1 give Kc", "R8.2")
    assert "without the exchange" in str(e)


# --------------------------------------------------------------- R8.3 the card in play and the say
def test_r8_3_a_turned_card_goes_round_every_player_then_the_next_after_the_turner_turns() -> None:
    deal = mex([HEARTS, CLUBS, SPADES], "Qd Kd", exchange=False)
    deal.play("p1 pass")
    assert deal.to_act == 2
    refused(deal, "p1 use Qd Kd Kc", "R8.3")  # he passed: no say left
    refused(deal, "p3 pass", "R8.3")  # not his say yet
    play(deal, "p2 pass", "p3 pass")
    assert deal.buried == 1 << parse_card("Qd")
    assert deal.to_act == 2 and deal.card_in_play == parse_card("Kd")  # p2, next after p1, turns


def test_r8_3_a_discard_is_offered_to_each_other_player_from_the_next() -> None:
    deal = mex([HEARTS, CLUBS, SPADES], "Jh Qd", exchange=False)
    play(deal, "p1 use 6h 7h Jh", "p1 discard Kc")
    assert deal.phase == "say" and deal.to_act == 2
    refused(deal, "p1 pass", "R8.3")  # the discarder never has the say to his own discard
    play(deal, "p2 pass", "p3 pass")
    assert deal.to_act == 2 and deal.card_in_play == parse_card("Qd")  # the next after the discarder turns


def test_r8_3_two_players_is_r3_3() -> None:
    deal = mex([HEARTS, CLUBS], "Qd Kd", exchange=False)
    play(deal, "p1 pass", "p2 pass")
    assert deal.to_act == 2 and deal.card_in_play == parse_card("Kd")  # the adversary turns next


def test_r8_3_a_player_who_uses_a_card_discards() -> None:
    deal = mex([HEARTS, CLUBS], "Jh", exchange=False)
    deal.play("p1 use 6h 7h Jh")
    assert deal.phase == "discard" and legal(deal)[:2] == ["p1 discard 2h", "p1 discard 3h"]
    refused(deal, "p1 pass", "R8.3")
    refused(deal, "p1 use 5h 6h 7h Jh", "R8.3")
    refused(deal, "p1 discard Jc", "R3.5")  # not held
    refused(deal, "p2 discard Jc", "R8.3")


def test_r3_4_uses_check_the_combination_and_the_cards() -> None:
    deal = mex([HEARTS, CLUBS], "Jh", exchange=False)
    refused(deal, "p1 use 5h 7h Jh", "R2.2")
    refused(deal, "p1 use 5h 6h 7h", "R3.4")  # without the card in play
    refused(deal, "p1 use Jh Qh Kh", "R3.4")  # not held


# --------------------------------------------------------------- R8.4 forcing
def tercerilla_with_sides() -> MexicanoDeal:
    """p1 has 5h 6h 7h down; p2 turns Jh... (three players, no exchange)."""
    deal = mex(["5h 6h Qs Ks 2d 3d 5d 6d", CLUBS, SPADES], "7h Qd Jh Kh", exchange=False)
    play(deal, "p1 use 5h 6h 7h", "p1 discard Qs", "p2 pass", "p3 pass")
    assert deal.to_act == 2 and deal.card_in_play == parse_card("Qd")
    play(deal, "p2 pass", "p3 pass", "p1 pass")
    assert deal.to_act == 3 and deal.card_in_play == parse_card("Jh")
    return deal


def test_r8_4_a_force_names_its_target_with_three_players() -> None:
    deal = tercerilla_with_sides()
    assert "p3 force Jh p1" in legal(deal)
    refused(deal, "p3 force Jh", "R8.4")  # who is forced?
    refused(deal, "p3 force Jh p3", "R8.4")  # another player, not himself
    refused(deal, "p3 force Jh p2", "R8.4")  # nothing on the table
    refused(deal, "p3 force Jh p9", "R8.4")
    refused(deal, "p3 force Qs p1", "R8.4")  # only the card in play
    deal.play("p3 force Jh p1")
    assert deal.phase == "forced" and deal.to_act == 1
    assert legal(deal) == ["p1 use 5h 6h 7h Jh"]
    refused(deal, "p1 pass", "R8.4")
    refused(deal, "p1 discard Ks", "R8.4")
    e = deal.history()[-1]
    assert (e.kind, e.seat, e.target, str(e)) == ("force", 3, 1, "p3 forced the jack of hearts on p1")
    assert str(deal.actions()[-1]) == "p3 force Jh p1"


def test_r8_4_the_turner_may_force_on_any_other_player_and_a_passer_has_no_say_left() -> None:
    deal = tercerilla_with_sides()
    deal.play("p3 pass")  # p3 turned Jh and passed: p1, then p2
    refused(deal, "p3 force Jh p1", "R8.4")  # passed: no say left to it
    assert deal.to_act == 1 and "p1 force Jh p3" not in legal(deal)
    deal.play("p1 pass")
    assert deal.to_act == 2 and legal(deal) == ["p2 force Jh p1", "p2 pass"]
    deal.play("p2 force Jh p1")  # forcing back on a player who passed it
    assert deal.to_act == 1 and deal.phase == "forced"


def test_r8_4_a_discard_may_be_a_force_on_any_other_player() -> None:
    deal = tercerilla_with_sides()
    play(deal, "p3 force Jh p1", "p1 use 5h 6h 7h Jh")
    assert "p1 force Ks p1" not in legal(deal)
    deal2 = mex(["5h 6h Qs Ks 2d 3d 5d 6d", "Ac 2c 4h Jc Qc Kc 4c 5c", SPADES], "7h Ad 3c", exchange=False)
    play(deal2, "p1 use 5h 6h 7h", "p1 discard Qs", "p2 pass", "p3 pass", "p2 pass", "p3 pass", "p1 pass")
    assert deal2.card_in_play == parse_card("3c") and deal2.to_act == 3
    play(deal2, "p3 pass", "p1 pass", "p2 use Ac 2c 3c")
    assert "p2 force 4h p1" in legal(deal2) and "p2 force 4c p1" not in legal(deal2)
    refused(deal2, "p2 force 4c p1", "R8.4")
    deal2.play("p2 force 4h p1")
    assert deal2.to_act == 1 and deal2.phase == "forced" and parse_card("4h") not in deal2.hand(2)


def test_r8_4_with_two_players_either_form_is_accepted_and_the_canonical_names_no_target() -> None:
    deal = mex(["5h 6h Qs Ks 2d 3d 5d 6d", CLUBS], "7h Qd Jh", exchange=False)
    play(deal, "p1 use 5h 6h 7h", "p1 discard Qs", "p2 pass", "p2 pass", "p1 pass")
    assert deal.card_in_play == parse_card("Jh") and deal.to_act == 1
    deal.play("p1 pass")
    assert "p2 force Jh" in legal(deal)
    other = deal.copy()
    deal.play("p2 force Jh")
    other.play("p2 force Jh p1")
    assert deal == other and str(deal.actions()[-1]) == "p2 force Jh"
    refused(deal.copy(), "p1 force Jh p2", "R8.4")  # forced: he must use it


# --------------------------------------------------------------- R8.5 going out
def test_r8_5_out_with_hand_plus_one_down() -> None:
    deal = mex(["Ah 2h 3h 4h 5h 6h 7h Jh", CLUBS], "Qh", exchange=False)
    deal.play("p1 use Ah 2h 3h 4h 5h 6h 7h Jh Qh")
    assert deal.over and deal.winner_seat == 1 and deal.scores() == [1, -1]
    assert str(deal.history()[-1]) == "p1 is out and wins"
    refused(deal, "p2 pass", "R8.5")


def test_r8_5_not_by_discarding_but_with_the_next_card_used() -> None:
    deal = mex([HEARTS, CLUBS], "Jh Qh", exchange=False)
    play(deal, "p1 use Ah 2h 3h 4h 5h 6h 7h Jh", "p1 discard Kc")
    assert not deal.over and deal.hand(1) == CardSet(0) and sum(m.bit_count() for m in deal.view(1).side_of(1)) == 8
    play(deal, "p2 pass")
    assert deal.to_act == 2 and deal.card_in_play == parse_card("Qh")
    play(deal, "p2 pass")
    assert "p1 use Ah 2h 3h 4h 5h 6h 7h Jh Qh" in legal(deal) and "p1 pass" in legal(deal)
    deal.play("p1 use Ah 2h 3h 4h 5h 6h 7h Jh Qh")
    assert deal.winner_seat == 1


def test_r8_5_hand_nine_goes_out_with_ten() -> None:
    deal = mex(["Ah 2h 3h 4h 5h 6h 7h Jh Qh", CLUBS + " Kd", SPADES + " Qd"], "Kh", hand=9, exchange=False)
    deal.play("p1 use Ah 2h 3h 4h 5h 6h 7h Jh Qh Kh")
    assert deal.winner_seat == 1 and deal.scores() == [2, -1, -1]


# --------------------------------------------------------------- R8.6 the pack exhausted
def pass_to_the_end(deal: MexicanoDeal) -> None:
    while not deal.over:
        deal.play(f"p{deal.to_act} pass")


def test_r8_6_tablas_is_a_draw() -> None:
    deal = mex([HEARTS, CLUBS, SPADES], exchange=False)
    pass_to_the_end(deal)
    assert deal.tableau and deal.winner_seat is None and deal.scores() == [0, 0, 0]
    assert deal.pack_count == 0 and str(deal.history()[-1]) == "the pack is exhausted: tablas (a draw)"
    refused(deal, "p1 pass", "R8.6")


def test_r8_6_fewest_wins_and_a_tie_for_fewest_is_a_draw() -> None:
    deal = mex([HEARTS, CLUBS, SPADES], "Jh", exchange=False, exhausted="fewest")
    play(deal, "p1 use 6h 7h Jh", "p1 discard Kc")
    pass_to_the_end(deal)
    assert deal.winner_seat == 1 and deal.scores() == [2, -1, -1] and not deal.tableau
    assert deal.history()[-1].kind == "fewest"
    tie = mex([HEARTS, CLUBS, SPADES], exchange=False, exhausted="fewest")
    pass_to_the_end(tie)
    assert tie.tableau and tie.scores() == [0, 0, 0]


# --------------------------------------------------------------- R8.7 scoring and the match
def test_r8_7_a_match_is_one_round_every_player_deals_once_a_draw_included() -> None:
    rules = get_rules("conquian-mexicano", players=3, exchange=False)
    m = Match(rules)
    dealers = []
    while not m.complete:
        d = m.new_deal(seed=len(m.deals))
        dealers.append(d.dealer)
        pass_to_the_end(d)  # every deal a draw
        m.settle()
    assert dealers == [3, 1, 2] and m.totals == [0, 0, 0] and m.pool == 0
    with pytest.raises(SetupError):
        m.new_deal(seed=9)


def test_r8_7_no_pool_for_a_draw() -> None:
    rules = get_rules("conquian-mexicano", exchange=False)
    m = Match(rules, first_dealer=2)
    pass_to_the_end(m.new_deal(seed=1))
    rules_deck = mex(["Ah 2h 3h 4h 5h 6h 7h Jh", CLUBS], "Qh", dealer=1, exchange=False).deck
    d = m.new_deal(rules_deck)
    assert d.dealer == 1 and d.seats == (2, 1)
    d.play("p2 use Ah 2h 3h 4h 5h 6h 7h Jh Qh")
    m.settle()
    assert m.results == [[0, 0], [-1, 1]]


# --------------------------------------------------------------- the notation and R7
def test_give_and_the_force_target_in_the_notation() -> None:
    assert parse_action("p1 give 7c") == Give(1, parse_card("7c"))
    assert parse_action("p2 FORCE 9s P3") == Force(2, parse_card("9s"), 3)
    assert str(Force(2, parse_card("9s"))) == "p2 force 9s"
    for bad in ("p1 give", "p1 give 7c 8c", "p2 force 9s p0", "p2 force p3", "p2 force 9s px"):
        with pytest.raises(NotationError):
            parse_action(bad)


def test_r7_junk_is_refused_and_the_deal_untouched() -> None:
    deal = mex([HEARTS, CLUBS, SPADES])
    for junk in (None, 42, "p1 draw", "p9 give Ah", "p1 meld Ah 2h 3h", Give(1, 7.0), Force(1, parse_card("Ah"), 0)):
        before = deal.copy()
        with pytest.raises(ConquianError):
            deal.play(junk)  # type: ignore[arg-type]
        assert deal == before and deal.is_legal(junk) is False  # type: ignore[arg-type]


def test_conquian_refuses_a_force_on_a_seat_not_the_adversary() -> None:
    from helpers import make_deal

    deal = make_deal("5h 6h 7h 8h 9h Ac 2c 3c 4c Tc", "5c 6c 7c 8c 9c Ad 2d 3d 4d Td", "Th")
    with pytest.raises(IllegalActionError, match="R3.6"):
        deal.play("p1 force Th p1")


def test_new_deal_dispatches_to_the_mexicano() -> None:
    d = new_deal(get_rules("conquian-mexicano", players=4), seed=3, dealer=4)
    assert isinstance(d, MexicanoDeal) and d.pack_count == 8 and d.n == 4
    with pytest.raises(SetupError, match="R8.2"):
        MexicanoDeal(get_rules("conquian-mexicano"), seed=1, dealer=3)
    with pytest.raises(SetupError, match="R1"):
        MexicanoDeal(get_rules("conquian"), seed=1)
