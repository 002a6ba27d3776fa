"""Every rule of R3 (the two-hand game), case by case; each test cites its rule."""

from __future__ import annotations

import pytest

from conquian import ConquianDeal, IllegalActionError, Match, NotationError, card_str, get_rules, parse_card
from conquian.engine.cards import mask_str
from helpers import legal, make_deal, play_all

# Foster's two-hand example (see tests/records/foster_spade7.toml): A is p1, the pone; B p2 deals.
A = "4s 5s 3h 3d 6h Th 2c 8s 7c 7d"
B = "Ac Ah As 2h 4h 5c 6d 8d 9d Td"
PACK = "3s 2d 5h 9h 9c 8c 3c 6s 7s 2s"


def refused(deal: ConquianDeal, action: str, rule: str, match: str | None = None) -> IllegalActionError:
    """Assert that ``action`` is refused naming ``rule`` and that nothing changed (R7)."""
    before = deal.copy()
    with pytest.raises(IllegalActionError, match=match) as info:
        deal.play(action)
    assert info.value.rule == rule, str(info.value)
    assert str(info.value).startswith(rule + ": ")
    assert deal == before
    assert not deal.is_legal(action)
    return info.value


# --------------------------------------------------------------------- R3.1
def test_r3_1_ten_each_two_at_a_time_pone_first_and_card_21_turned() -> None:
    deal = make_deal(A, B, PACK)
    assert str(deal.hand(1)) == mask_str(deal.hands[0]) == "2c 3d 3h 4s 5s 6h 7c 7d 8s Th"
    assert str(deal.hand(2)) == "Ac Ah As 2h 4h 5c 6d 8d 9d Td"
    assert card_str(deal.deck[20]) == "3s" == card_str(deal.card_in_play or 0)
    assert deal.to_act == 1 and deal.phase == "say"  # the pone has the first say
    assert deal.pack_count == 19


def test_r3_1_seeded_deal_is_the_seeded_deck() -> None:
    deal = ConquianDeal(get_rules("conquian"), seed=11, dealer=1)
    again = ConquianDeal(get_rules("conquian"), deal.deck, dealer=1)
    assert deal == again
    assert deal.seats == (2, 1)


def test_r3_1_deck_must_be_the_pack() -> None:
    r = get_rules("conquian")
    with pytest.raises(ValueError, match=r"R3\.1"):
        ConquianDeal(r, [parse_card("Ac")] * 40)
    spanish_deck = ConquianDeal(get_rules("conquian-spanish"), seed=1).deck
    with pytest.raises(ValueError, match="pack of 40 cards"):
        ConquianDeal(r, spanish_deck)


# --------------------------------------------------------------------- R3.2
def test_r3_2_cards_taken_never_enter_the_hand() -> None:
    deal = make_deal(A, B, PACK)
    deal.play("p1 use 3s 4s 5s")
    assert "3s" not in str(deal.hand(1))
    assert deal.hands[0].bit_count() + deal.downs[0].bit_count() == 11  # before the discard
    deal.play("p1 discard 6h")
    assert deal.hands[0].bit_count() + deal.downs[0].bit_count() == 10


# --------------------------------------------------------------------- R3.3
def test_r3_3_turned_card_passed_by_both_is_buried_and_the_adversary_turns() -> None:
    deal = make_deal(A, B, PACK)
    deal.play("p1 pass")
    assert deal.to_act == 2 and card_str(deal.card) == "3s"  # the adversary has the say
    deal.play("p2 pass")
    assert deal.buried == 1 << parse_card("3s")  # buried
    assert deal.to_act == 2 and card_str(deal.card) == "2d"  # the adversary turns the next card
    assert [str(e) for e in deal.history()][-3:] == [
        "p2 passed the 3 of spades", "p2 buried the 3 of spades", "p2 turned the 2 of diamonds",
    ]


def test_r3_3_discard_passed_is_buried_and_the_passer_turns() -> None:
    deal = make_deal(A, B, PACK)
    play_all(deal, "p1 use 3s 4s 5s\np1 discard 6h")
    assert deal.to_act == 2 and deal.phase == "say" and card_str(deal.card) == "6h"
    deal.play("p2 pass")
    assert deal.buried >> parse_card("6h") & 1
    assert deal.to_act == 2 and card_str(deal.card) == "2d"
    # the discarder never gets his own discard back: the next say is p2's, to a new card
    assert "6h" not in " ".join(legal(deal))


def test_r3_3_only_the_seat_with_the_say_acts() -> None:
    deal = make_deal(A, B, PACK)
    refused(deal, "p2 pass", "R3.3", "it is p1's say")
    refused(deal, "p2 use 3s 4s 5s", "R3.3")


def test_r3_3_the_say_lists_use_pass_and_force() -> None:
    deal = make_deal(A, B, PACK)
    # the starter fits A's spade 4 5 or his red treys; nothing on p2's side: no force
    assert legal(deal) == ["p1 pass", "p1 use 3d 3h 3s", "p1 use 3s 4s 5s"]


# --------------------------------------------------------------------- R3.4
BORROW_PONE = "6h 7h 8h 5d Ac 2s 4c 9s Td 3d"
BORROW_OTHER = "2c 3c 6c 9c Tc 2d 4d 7d 9d Ts"


def borrow_deal() -> ConquianDeal:
    """p1 lays 5h-8h, then has the say to the 5c with the 5d in hand."""
    deal = make_deal(BORROW_PONE, BORROW_OTHER, "5h 7s 5c")
    play_all(deal, "p1 use 5h 6h 7h 8h\np1 discard 9s\np2 pass\np2 pass\np1 pass")
    assert deal.to_act == 1 and card_str(deal.card) == "5c"
    return deal


def test_r3_4_new_combination_with_hand_cards_and_extra_cards_laid() -> None:
    deal = make_deal(BORROW_PONE, BORROW_OTHER, "5h 7s 5c")
    assert "p1 use 5h 6h 7h" in legal(deal)  # only three need be shown
    assert deal.is_legal("p1 use 5h 6h 7h 8h")  # more hand cards in the same move
    deal.play("p1 use 5h 6h 7h 8h")
    assert [str(s) for s in deal.side(1)] == ["5h 6h 7h 8h"]


def test_r3_4_borrow_the_end_of_a_sequence_of_four() -> None:
    deal = borrow_deal()
    assert "p1 use 5c 5d 5h | 6h 7h 8h" in legal(deal)  # the example of docs/records.md
    deal.play("p1 use 5c 5d 5h | 6h 7h 8h")
    assert sorted(str(s) for s in deal.side(1)) == ["5c 5d 5h", "6h 7h 8h"]


def test_r3_4_borrowing_that_breaks_a_sequence_is_refused() -> None:
    deal = borrow_deal()
    refused(deal, "p1 use 5c 5d 5h", "R3.4", "would leave 6h 7h 8h out of any combination")
    refused(deal, "p1 use 5c 5d 5h | 6h 7h", "R2.2", "not a valid combination")


def test_r3_4_borrow_one_of_a_four() -> None:
    # Foster: "four tens on the table and draws the 8 of spades ... the spade 9 in his hand"
    deal = make_deal("Tc Td Th 9s 2c 3d 4h 5s 6c 7d", "Ac 2d 3c 4d 5c 6d 7c 8d 9c 2h", "Ts 7h 8s")
    play_all(deal, "p1 use Tc Td Th Ts\np1 discard 2c\np2 pass\np2 pass\np1 pass")
    assert card_str(deal.card) == "8s"
    assert "p1 use 8s 9s Ts | Tc Td Th" in legal(deal)
    refused(deal, "p1 use 8s 9s Ts", "R3.4")  # the three tens left behind must be listed
    deal.play("p1 use 8s 9s Ts | Tc Td Th")
    assert sorted(str(s) for s in deal.side(1)) == ["8s 9s Ts", "Tc Td Th"]


def test_r3_4_borrow_the_middle_of_a_sequence_of_seven() -> None:
    deal = make_deal("3h 4h 5h 6h 7h 8h 6c 6d Ac 2s", "2c 3c 4c 5c 7c 8c 9c Tc 2d 3d", "9h Ad 6s")
    play_all(deal, "p1 use 3h 4h 5h 6h 7h 8h 9h\np1 discard 2s\np2 pass\np2 pass\np1 pass")
    assert card_str(deal.card) == "6s"
    deal.play("p1 use 6d 6h 6s | 3h 4h 5h | 7h 8h 9h")
    assert sorted(str(s) for s in deal.side(1)) == ["3h 4h 5h", "6d 6h 6s", "7h 8h 9h"]


def test_r3_4_refusals_name_their_cause() -> None:
    deal = borrow_deal()
    refused(deal, "p1 use 5d 4d 3d", "R3.4", "must hold the card in play")
    refused(deal, "p1 use 5c 6c 7c", "R3.4", "does not hold 6c 7c")
    refused(deal, "p1 use 5c 5d 5s", "R3.4", "does not hold 5s")
    refused(deal, "p1 use 5c 5d 5h | 5h 6h 7h 8h", "R3.4", "in two combinations")
    refused(deal, "p1 use 4c 5c 6c", "R3.4", "does not hold 6c")
    refused(deal, "p1 use 5c 5d 9h", "R2.2")


def test_r3_4_no_laying_down_on_a_pass() -> None:
    deal = borrow_deal()
    with pytest.raises(NotationError):
        deal.play("p1 pass 5d")


def test_r3_4_the_adversarys_combinations_are_never_touched() -> None:
    deal = make_deal(A, B, PACK)
    play_all(deal, "p1 use 3s 4s 5s\np1 discard 6h\np2 pass")
    # p2 has the say to the 2d: he cannot borrow p1's 3s
    refused(deal, "p2 use 2d 3d 4d", "R3.4", "does not hold 3d 4d")
    deal = foster_after_treys()
    assert card_str(deal.card) == "6s" and deal.to_act == 2
    refused(deal, "p2 use 4s 5s 6s", "R3.4", "4s 5s belongs to the adversary")


# --------------------------------------------------------------------- R3.5
def test_r3_5_after_using_a_card_the_player_discards() -> None:
    deal = make_deal(A, B, PACK)
    deal.play("p1 use 3s 4s 5s")
    assert deal.phase == "discard" and deal.to_act == 1
    assert legal(deal) == sorted(f"p1 discard {c}" for c in ["2c", "3d", "3h", "6h", "7c", "7d", "8s", "Th"])
    refused(deal, "p1 pass", "R3.5", "must discard")
    refused(deal, "p1 use 3s 4s 5s", "R3.5")
    refused(deal, "p1 discard 3s", "R3.5", "does not hold")
    refused(deal, "p2 discard Td", "R3.5")


def test_r3_5_no_discard_without_using_a_card() -> None:
    deal = make_deal(A, B, PACK)
    refused(deal, "p1 discard 8s", "R3.5", "only after using a card")


# --------------------------------------------------------------------- R3.6
def foster_after_treys() -> ConquianDeal:
    deal = make_deal(A, B, PACK)
    play_all(deal, "\n".join(FOSTER_WIN.strip().splitlines()[:16]))  # up to B's pass of the 10h
    return deal


def test_r3_6_the_turner_forces_the_adversary_and_he_cannot_refuse() -> None:
    deal = foster_after_treys()
    assert card_str(deal.card) == "6s" and deal.to_act == 2
    assert "p2 force 6s" in legal(deal)
    deal.play("p2 force 6s")
    assert deal.phase == "forced" and deal.to_act == 1
    assert all(a.startswith("p1 use") for a in legal(deal))
    refused(deal, "p1 pass", "R3.6", "cannot refuse a forced card")
    refused(deal, "p1 discard 8s", "R3.6")
    refused(deal, "p1 force 6s", "R3.6")
    deal.play("p1 use 3s 4s 5s 6s")
    assert deal.phase == "discard"  # and then he must discard


def test_r3_6_a_forced_player_may_borrow_the_forced_card() -> None:
    # Foster's spade 7: forced onto A's spade sequence, A borrows it for three sevens.
    deal = foster_after_treys()
    play_all(deal, "p2 force 6s\np1 use 3s 4s 5s 6s\np1 discard 8s\np2 pass\np2 force 7s")
    assert "p1 use 7c 7d 7s" in legal(deal) and "p1 use 3s 4s 5s 6s 7s" in legal(deal)
    deal.play("p1 use 7c 7d 7s")
    deal.play("p1 discard 2c")
    assert deal.hands[0] == 0 and deal.downs[0].bit_count() == 10


def test_r3_6_a_force_must_fit_a_combination_as_it_lies() -> None:
    deal = foster_after_treys()
    refused(deal, "p2 force 2d", "R3.6", "only the card in play")
    deal2 = make_deal(A, B, PACK)
    play_all(deal2, "p1 use 3s 4s 5s\np1 discard 6h\np2 pass")
    assert card_str(deal2.card) == "2d"
    refused(deal2, "p2 force 2d", "R3.6", "fits none of p1's combinations")


def test_r3_6_a_player_with_nothing_on_the_table_cannot_be_forced() -> None:
    deal = make_deal(A, B, PACK)
    deal.play("p1 pass")
    refused(deal, "p2 force 3s", "R3.6", "nothing on the table")


def test_r3_6_a_passed_card_may_be_forced_back_on_the_player_who_passed_it() -> None:
    deal = foster_after_treys()
    play_all(deal, "p2 pass\np1 pass")  # B passes the 6s; A passes it too ...
    # ... no: once both pass it is buried and can force no one
    assert deal.buried >> parse_card("6s") & 1
    assert "force 6s" not in " ".join(legal(deal))
    deal = foster_after_treys()
    deal.play("p2 pass")  # B declines the spade 6 he turned
    assert deal.to_act == 1
    # A holds 3s-5s: A may force it back on B? B has nothing down; A may use it
    assert "p1 use 3s 4s 5s 6s" in legal(deal)


def test_r3_6_force_back_a_passed_card() -> None:
    # p1 has 5h-7h down; he turns the 8h, which he declines; p2 forces it back on him.
    deal = make_deal("5h 6h 2c 3c 9s Td 4d Ac 2s 3s", "Ad 2d 3d 9c Tc Ts 4c 6c 8c 5s", "7h 7s 8h")
    play_all(deal, "p1 use 5h 6h 7h\np1 discard 9s\np2 pass\np2 pass\np1 pass")
    assert card_str(deal.card) == "8h" and deal.to_act == 1  # p1 turned it: first say
    assert "p1 use 5h 6h 7h 8h" in legal(deal)
    deal.play("p1 pass")  # p1 declines the 8h that fits his sequence ...
    assert "p2 force 8h" in legal(deal)
    deal.play("p2 force 8h")  # ... "his adversary may force him with it, even after it has been declined"
    assert deal.to_act == 1 and deal.phase == "forced"
    # R3.6: he must use it; R3.4: he may lay further hand cards in the same move (his A-2-3 of clubs)
    assert legal(deal) == ["p1 use 5h 6h 7h 8h", "p1 use Ac 2c 3c | 5h 6h 7h 8h"]


def test_r3_6_a_discard_may_be_forced_back_on_the_discarder() -> None:
    deal = make_deal("5h 6h 2c 3c 9s Td 4d Ac 7c 3s", "Ad 2d 3d 9c Tc Ts 4c 6c 8c 8h", "7h")
    play_all(deal, "p1 use 5h 6h 7h")
    assert "p1 force 8h" not in legal(deal)  # p1 does not hold the 8h
    deal.play("p1 discard 7c")
    # p2 may force the 7c back only if it fits a combination of p1's: it does not
    refused(deal, "p2 force 7c", "R3.6")


def test_r3_6_discard_by_forcing() -> None:
    deal = make_deal("Ah 2h 3h 9s Td 4d 6c 7c 8s 3s", "5h 6h 2c 3c Ad 2d 9c Tc Ts 4h", "7h 8h")
    play_all(deal, "p1 pass\np2 use 5h 6h 7h")
    refused(deal, "p2 force 8h", "R3.5", "does not hold")
    refused(deal, "p2 force 4h", "R3.6", "nothing on the table")  # p1 has nothing down yet
    deal2 = make_deal("Ah 2h 9s Td 4d 6c 7c 8s 3s 5d", "5h 6h 2c 3c Ad 2d 9c Tc Ts 4h", "3h 7s 7h")
    play_all(deal2, "p1 use Ah 2h 3h\np1 discard 9s\np2 pass\np2 pass\np1 pass")
    assert card_str(deal2.card) == "7h" and deal2.to_act == 1
    play_all(deal2, "p1 pass\np2 use 5h 6h 7h")
    assert "p2 force 4h" in legal(deal2) and "p2 discard 4h" in legal(deal2)
    deal2.play("p2 force 4h")  # the 4h fits p1's Ah 2h 3h
    assert deal2.to_act == 1 and deal2.phase == "forced" and card_str(deal2.card) == "4h"
    assert not deal2.hands[1] >> parse_card("4h") & 1
    deal2.play("p1 use Ah 2h 3h 4h")


# --------------------------------------------------------------------- R3.7
def test_r3_7_eleven_down_wins_and_the_last_discard_does_not_count() -> None:
    deal = make_deal(A, B, PACK)
    play_all(deal, "\n".join(FOSTER_WIN.strip().splitlines()[:22]))  # up to "p1 use 7c 7d 7s"
    # one card left: he cannot go out by discarding it (R3.7)
    assert not deal.over and deal.phase == "discard"
    deal.play("p1 discard 2c")
    assert not deal.over  # ten down is not a win
    deal.play("p2 pass")
    assert card_str(deal.card) == "2s"
    # a ten-down player with an empty hand wins with the next card he uses
    win_by_pass = deal.copy()
    win_by_pass.play("p2 pass")
    win_by_pass.play("p1 use 2s 3s 4s 5s 6s")
    assert win_by_pass.over and win_by_pass.winner_seat == 1
    # forcing such a player hands him the deal
    deal.play("p2 force 2s")
    deal.play("p1 use 2s 3s 4s 5s 6s")
    assert deal.over and deal.winner_seat == 1 and deal.scores() == [1, -1]
    refused(deal, "p2 pass", "R3.7", "the deal is over")
    assert deal.legal_actions() == []


def test_r3_7_eleven_down_in_one_use() -> None:
    # p1 holds seven hearts and three nines: the turned 8h makes eleven down at once.
    deal = make_deal("Ah 2h 3h 4h 5h 6h 7h 9c 9d 9s", "2c 3c 4c 5c 6c 8c 9h Tc 2d 3d", "8h")
    refused(deal, "p1 use Ah 2h 3h 4h 5h 6h 7h 8h | 9c 9d", "R2.2")
    deal.play("p1 use Ah 2h 3h 4h 5h 6h 7h 8h | 9c 9d 9s")
    assert deal.over and deal.winner_seat == 1 and deal.downs[0].bit_count() == 11


def test_r3_7_tableau_when_the_pack_is_exhausted() -> None:
    deal = make_deal(A, B, PACK)
    n = 0
    while not deal.over:
        deal.play(f"p{deal.to_act} pass")
        n += 1
    assert n == 40 and deal.tableau and deal.winner_seat is None
    assert deal.scores() == [0, 0]
    assert str(deal.history()[-1]) == "the pack is exhausted: tableau"


# --------------------------------------------------------------------- R3.8, R5, R6.3
def all_pass(deal: ConquianDeal) -> None:
    while not deal.over:
        deal.play(f"p{deal.to_act} pass")


def test_r3_8_the_deal_alternates_also_after_a_tableau() -> None:
    m = Match(get_rules("conquian"))
    dealers = []
    for s in range(4):
        d = m.new_deal(seed=s)
        dealers.append(d.dealer)
        all_pass(d)
    assert dealers == [2, 1, 2, 1]


def test_r5_1_the_tableau_pool_goes_to_the_next_winner() -> None:
    m = Match(get_rules("conquian"), ["A", "B"])
    for s in (1, 2):
        all_pass(m.new_deal(seed=s))
    foster = make_deal(A, B, PACK)
    d = m.new_deal(foster.deck)
    assert d.dealer == 2
    play_all(d, FOSTER_WIN)
    m.settle()
    assert m.results == [[0, 0], [0, 0], [3, -3]]  # docs/records.md: after two tableaux, +3 / -3
    assert m.totals == [3, -3] and m.pool == 0


def test_r5_2_pips_the_loser_pays_his_hand() -> None:
    deal = make_deal(A, B, PACK, scoring="pips")
    play_all(deal, FOSTER_WIN)
    # B still holds A A A 2 4 5 6 8 9 10; R2.4 (as audited): "the number of pips", an ace is 1:
    # 1 * 3 + 2 + 4 + 5 + 6 + 8 + 9 + 10 (it was 77 with Cooncan's ace of 11)
    assert deal.scores() == [47, -47]


def test_r6_3_three_at_the_table_the_dealer_sits_out() -> None:
    rules = get_rules("conquian", players=3)
    m = Match(rules, ["A", "B", "C"], first_dealer=1)
    d = m.new_deal(seed=3)
    assert d.seats == (2, 3)
    refused(d, "p1 pass", "R6.3", "holds no cards")
    all_pass(d)
    d2 = m.new_deal(seed=4)
    assert d2.dealer == 2 and d2.seats == (3, 1)
    assert len(d2.scores() or [0, 0, 0]) == 3
    play = make_deal(A, B, PACK, players=3, dealer=3)
    assert play.seats == (1, 2)
    play_all(play, FOSTER_WIN)
    assert play.scores() == [1, -1, 0]


FOSTER_WIN = """
    p1 use 3s 4s 5s
    p1 discard 6h
    p2 pass
    p2 pass
    p1 pass
    p1 pass
    p2 pass
    p2 pass
    p1 pass
    p1 pass
    p2 pass
    p2 pass
    p1 pass
    p1 use 3c 3d 3h
    p1 discard Th
    p2 pass
    p2 force 6s
    p1 use 3s 4s 5s 6s
    p1 discard 8s
    p2 pass
    p2 force 7s
    p1 use 7c 7d 7s
    p1 discard 2c
    p2 pass
    p2 force 2s
    p1 use 2s 3s 4s 5s 6s
"""


# --------------------------------------------------------------------- Hoyle's Spanish-pack hand
def test_hoyle_heart_5_can_be_used_three_ways() -> None:
    # Foster's Hoyle: the pone holds hearts J 7 6 4, spades 5 3 2, diamonds K 7 5 and draws
    # the heart 5. "He can use this card in three ways" (Spanish pack: 7 and J consecutive).
    deal = make_deal("Jh 7h 6h 4h 5s 3s 2s Kd 7d 5d", "Ac Ad As 2c 2d 3c 3d 4c 4d 4s", "5h Qh 3h",
                     variant="conquian-spanish")
    uses = [a for a in legal(deal) if " use " in a]
    # Foster's three ways, and the ways that lay more of the hand with them (R3.4: sequences of
    # four and five, the three fives with 6h 7h Jh beside them): every set of hand cards once
    assert {"p1 use 4h 5h 6h", "p1 use 5d 5h 5s", "p1 use 5h 6h 7h"} <= set(uses)
    assert set(uses) - {"p1 use 4h 5h 6h", "p1 use 5d 5h 5s", "p1 use 5h 6h 7h"} == {
        "p1 use 4h 5h 6h 7h", "p1 use 4h 5h 6h 7h Jh", "p1 use 5h 6h 7h Jh", "p1 use 5d 5h 5s | 6h 7h Jh"}
    deal.play("p1 use 5h 6h 7h")
    assert deal.is_legal("p1 discard Kd")  # "the player's best discard would be his K"
    deal.play("p1 discard Kd")
    play_all(deal, "p2 pass\np2 pass\np1 pass")
    assert card_str(deal.card) == "3h" and deal.to_act == 1
    # "if the heart 3 appeared, he could use it with his heart 4"
    assert deal.is_legal("p1 use 3h 4h 5h 6h 7h")
    # and the queen of hearts would continue the sequence with his jack: 5 6 7 J Q
    q = make_deal("Jh 7h 6h 4h 5s 3s 2s Kd 7d 5d", "Ac Ad As 2c 2d 3c 3d 4c 4d 4s", "5h 3h Qh",
                  variant="conquian-spanish")
    play_all(q, "p1 use 5h 6h 7h\np1 discard Kd\np2 pass\np2 pass\np1 pass")
    assert card_str(q.card) == "Qh"
    assert q.is_legal("p1 use 5h 6h 7h Jh Qh")
