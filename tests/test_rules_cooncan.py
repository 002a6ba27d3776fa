"""Every rule of R4 (Cooncan) and every joker rule of R2.3, case by case; each test cites its rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from conquian import IllegalActionError, NotationError, get_rules, parse_card, parse_cards
from conquian.engine.cards import JOKER, card_str
from conquian.engine.cooncan.deal import CooncanDeal
from conquian.engine.cooncan.melds import build_combo, parse_token
from conquian.engine.deck import arrange_cooncan_deck
from conquian.engine.match import Match, new_deal
from conquian.engine.record import read_record, replay
from conquian.engine.table import Roster, cut_for_seats, cut_rank

RECORDS = Path(__file__).parent / "records"


def cdeal(hands: list[str], first: str, pack: str = "", variant: str = "cooncan", dealer: int | None = None,
          **options: object) -> CooncanDeal:
    """A Cooncan deal with the given hands for p1..pN (dealer: the last seat by default)."""
    rules = get_rules(variant, players=len(hands), **options)
    dealer = dealer or len(hands)
    deck = arrange_cooncan_deck(rules, dealer, [parse_cards(h) for h in hands], parse_card(first), parse_cards(pack))
    return CooncanDeal(rules, deck, dealer=dealer)


def refused(deal: CooncanDeal, action: str, rule: str, match: str | None = None) -> None:
    before = deal.copy()
    with pytest.raises(IllegalActionError, match=match) as info:
        deal.play(action)
    assert info.value.rule == rule, str(info.value)
    assert deal == before, "a refused action must leave the state exactly as it was (R7)"


def legal(deal: CooncanDeal) -> list[str]:
    return [str(a) for a in deal.legal_actions()]


def combo(text: str, double: bool = True) -> str:
    return str(build_combo([parse_token(t) for t in text.split()], double, 1))


HANDS3 = ["2c 2d 2h 4s 5h 6d 7c", "Ac As Kc Kh Ts Js 6c", "4c 5c 8h 9h Th Qd 7s"]


# --------------------------------------------------------------------- R4.1
def test_r4_1_one_at_a_time_from_the_dealers_left_then_the_stock() -> None:
    rules = get_rules("cooncan")
    deal = CooncanDeal(rules, seed=5, dealer=2)
    deck = deal.deck
    assert deal.hand(3)[0] in deck[0::3][:7] and sorted(deal.hand(3)) == sorted(deck[0:21:3])
    assert sorted(deal.hand(1)) == sorted(deck[1:21:3]) and sorted(deal.hand(2)) == sorted(deck[2:21:3])
    assert deal.stock == (deck[21],) and deal.pack == deck[22:]
    assert deal.to_act == 3  # the player on the dealer's left plays first
    double = CooncanDeal(get_rules("cooncan-double"), seed=5, dealer=5)
    assert [double.hand_size(s) for s in range(1, 6)] == [10] * 5 and double.pack_count == 106 - 51


def test_r4_1_deck_must_be_the_pack() -> None:
    with pytest.raises(ValueError, match="R4.1"):
        CooncanDeal(get_rules("cooncan"), tuple(range(53)))


# --------------------------------------------------------------------- R4.2
def test_r4_2_closed_stock_only_the_top_card() -> None:
    deal = cdeal(HANDS3, "3h", "9s 3d", jokers=0)
    play = ["p1 draw", "p1 discard 9s"]
    for a in play:
        deal.play(a)
    assert legal(deal) == ["p2 draw", "p2 take"]  # a closed stock shows one card to take
    refused(deal, "p2 take 3h", "R4.2", "only the top card")
    deal.play("p2 take 9s")
    assert "9s" in " ".join(card_str(c) for c in deal.hand(2))
    assert deal.stock == (parse_card("3h"),)  # covered cards stay out of play


def test_r4_2_open_stock_any_exposed_card() -> None:
    deal = cdeal(HANDS3, "3h", "9s 3d", jokers=0, stock="open")
    for a in ["p1 draw", "p1 discard 9s"]:
        deal.play(a)
    assert legal(deal)[:3] == ["p2 draw", "p2 take 3h", "p2 take 9s"]
    refused(deal, "p2 take Kd", "R4.2", "not in the discard pile")
    deal.play("p2 take 3h")
    assert deal.stock == (parse_card("9s"),)


def test_r4_2_empty_stock() -> None:
    deal = cdeal(HANDS3, "3h", "9s", jokers=0)
    deal.play("p1 take")
    assert deal.stock == ()
    deal.play("p1 discard 3h")
    assert deal.stock == (parse_card("3h"),)


# --------------------------------------------------------------------- R4.3
def test_r4_3_draw_before_laying_out_and_nothing_after_the_discard() -> None:
    deal = cdeal(HANDS3, "3h", "2s 3d", jokers=0)
    refused(deal, "p1 meld 2c 2d 2h", "R4.3", "must draw")
    refused(deal, "p1 discard 4s", "R4.3", "must draw before discarding")
    refused(deal, "p2 draw", "R4.3", "p1's turn")
    deal.play("p1 draw")
    refused(deal, "p1 draw", "R4.3", "drawn already")
    refused(deal, "p1 take", "R4.3", "drawn already")
    deal.play("p1 meld 2c 2d 2h")
    deal.play("p1 add 1 2s")  # several lays in one turn
    refused(deal, "p1 meld Kc Kd Kh", "R4.3", "does not hold")
    deal.play("p1 discard 4s")
    assert deal.to_act == 2 and deal.phase == "draw"  # the turn passes to the left
    refused(deal, "p1 add 1 5h", "R4.3", "p2's turn")


def test_r4_3_nobody_is_obliged_to_lay_out() -> None:
    deal = cdeal(HANDS3, "3h", "2s", jokers=0)
    deal.play("p1 draw")
    assert "p1 discard 2s" in legal(deal) and "p1 meld 2c 2d 2h" in legal(deal)
    deal.play("p1 discard 2s")


# --------------------------------------------------------------------- R4.4
def test_r4_4_add_to_anyones_combination_at_its_ends_never_rearranged() -> None:
    deal = cdeal(["5h 6h 7h 2c 2d 9s Kd", "4h 8h 9h Tc Jc 3s 3d", "Qc Qd Qs 4c 5c 6s 7s"], "Ad", "Jd Js Ks",
                 jokers=0)
    for a in ["p1 draw", "p1 meld 5h 6h 7h", "p1 discard Jd", "p2 draw"]:
        deal.play(a)
    assert "p2 add 1 4h" in legal(deal) and "p2 add 1 8h" in legal(deal)  # fattening
    deal.play("p2 add 1 8h 9h 4h")  # cards go in turn, each where it fits
    assert str(deal.combos[0]) == "4h 5h 6h 7h 8h 9h" and deal.combos[0].owner == 1
    refused(deal, "p2 add 1 3s", "R4.4", "does not fit")
    refused(deal, "p2 add 2 3s", "R4.4", "no combination 2")


def test_r4_4_ace_high_or_low_and_an_ace_fitting_both_ends_goes_low() -> None:
    assert combo("Qh Kh Ah") == "Qh Kh Ah"
    assert combo("Ah 2h 3h") == "Ah 2h 3h"
    with pytest.raises(IllegalActionError, match="R2.2"):
        combo("Kh Ah 2h")  # never round the corner
    run = build_combo([parse_token(t) for t in "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh".split()], True, 1)
    assert run.fit_position(parse_card("Ah")) == 1  # fits both ends: goes low
    low = run.add(parse_card("Ah"))
    assert str(low) == "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh" and low.fit_position(parse_card("Ah")) is None


def test_r2_2_sets_in_the_double_pack_grow_with_duplicates() -> None:
    s = build_combo([parse_token(t) for t in ["7c", "7c", "7d"]], True, 1)
    for c in ("7h", "7h", "7s", "7s", "7d"):
        s = s.add(parse_card(c))
    assert len(s) == 8
    with pytest.raises(IllegalActionError, match="R2.2"):
        build_combo([parse_token(t) for t in ["7c", "7c", "7d"]], False, 1)  # a single pack has one 7c
    single = build_combo([parse_token(t) for t in ["7c", "7d", "7h"]], False, 1).add(parse_card("7s"))
    assert single.fit_position(parse_card("7s")) is None and single.joker_fits(None) is None  # at most four


# --------------------------------------------------------------------- R4.5
def test_r4_5_turnover_details() -> None:
    deal = CooncanDeal(get_rules("cooncan", jokers=0, max_pack_turns=1), seed=8, dealer=3)
    first_stock = deal.stock[0]
    discards = []
    while deal.pack_turns == 0:
        seat = deal.to_act
        assert seat is not None
        deal.play(f"p{seat} draw")
        c = deal.hand(seat)[0]
        discards.append(c)
        deal.play(f"p{seat} discard {card_str(c)}")
    # R4.5: the whole stock turned over, its oldest card on top; the stock is empty
    assert deal.pack_turns == 1 and deal.stock == ()
    assert deal.pack == (first_stock, *discards) and deal.pos == 0
    assert "turned over" in str(deal.history()[-1]) or deal.history()[-1].kind == "turnover"
    refused(deal, f"p{deal.to_act} take", "R4.2", "discard pile is empty")  # he must draw from the new pack
    while not deal.over:
        seat = deal.to_act
        assert seat is not None
        deal.play(f"p{seat} draw")
        deal.play(f"p{seat} discard {card_str(deal.hand(seat)[0])}")
    assert deal.void and deal.winner_seat is None and deal.scores() == [0, 0, 0]
    refused(deal, "p1 draw", "R4.6", "over")


# --------------------------------------------------------------------- R4.6
def test_r4_6_going_out_by_laying_out_needs_no_discard() -> None:
    # p1: a pair of kings and a run; draws the third king: lays everything, no discard (law 22)
    deal = cdeal(["Kc Kd 4h 5h 6h 7h 8h", "2c 3c 4c 5d 6d 7d 8d", "9c Tc Jc 9s Ts Js Qs"], "2s", "Ks", jokers=0)
    deal.play("p1 draw")
    deal.play("p1 meld 4h 5h 6h 7h 8h")
    deal.play("p1 meld Kc Kd Ks")
    assert deal.over and deal.winner_seat == 1 and not deal.void
    # R5.2: p2 holds 2c 3c 4c 5d 6d 7d 8d (35), p3 9c Tc Jc 9s Ts Js Qs (68)
    assert deal.scores() == [103, -35, -68]
    assert deal.splash  # all down in one turn, nothing laid before (R5.3)
    refused(deal, "p1 discard Ks", "R4.6", "over")


def test_r4_6_going_out_by_discarding_the_last_card() -> None:
    deal = cdeal(["5h 6h 7h 2c 2d 2h 9s", "4h 8h 9h Tc Jc 3s 3d", "Qc Qd Qs 4c 5c 6s 7s"], "Ad", "2s", jokers=0)
    for a in ["p1 draw", "p1 meld 5h 6h 7h", "p1 meld 2c 2d 2h 2s"]:
        deal.play(a)
    assert not deal.over and deal.hand(1) == [parse_card("9s")]
    deal.play("p1 discard 9s")
    assert deal.over and deal.winner_seat == 1 and deal.splash


ADDING = ["5h 6h 7h 2c 2d 2h 8h", "4h 9h Tc Jc 3s 3d 8c", "Qc Qd Qs 4c 5c 6s 7s"]
ADDING_PLAY = ["p1 draw", "p1 meld 5h 6h 7h", "p1 meld 2c 2d 2h", "p1 discard Kh", "p2 draw", "p2 discard Ks",
               "p3 draw", "p3 discard Kd", "p1 draw", "p1 add 1 8h", "p1 add 2 2s"]


def test_r4_6_going_out_by_adding_and_r5_3_no_splash_after_laying_out_earlier() -> None:
    deal = cdeal(ADDING, "Ad", "Kh Ks Kd 2s", jokers=0, splash_bonus=50)
    for a in ADDING_PLAY:
        deal.play(a)
    assert deal.over and deal.winner_seat == 1 and deal.hand(1) == []
    assert not deal.splash  # he laid out in an earlier turn: no bonus
    # R5.2: p2 holds 4h 9h Tc Jc 3s 3d 8c (47), p3 Qc Qd Qs 4c 5c 6s 7s (52)
    assert deal.scores() == [99, -47, -52]


def test_r5_3_splash_bonus_and_r5_2_pips() -> None:
    rec = read_record((RECORDS / "foster_splash.toml").read_text())
    deal = replay(rec).deals[0].deal
    assert isinstance(deal, CooncanDeal)
    assert deal.splash and deal.winner_seat == 3
    assert deal.pips(1) == 30 and deal.pips(2) == 26  # "This leaves A with 30 points", B "26 points"
    assert deal.scores() == [-55, -51, 291, -79, -106]  # pips + 25 from each
    no_bonus = CooncanDeal(get_rules("cooncan-double"), deal.deck, dealer=5)
    for a in rec.deals[0].actions:
        no_bonus.play(a)
    assert no_bonus.scores() == [-30, -26, 191, -54, -81]


# --------------------------------------------------------------------- R2.3 jokers
def test_r2_3_joker_called_any_card_written_in_place() -> None:
    run = build_combo([parse_token(t) for t in ["X", "5d", "6d"]], True, 2)
    assert (run.low_position, run.high_position, run.display()) == (4, 6, "X(4d) 5d 6d")
    high = build_combo([parse_token(t) for t in ["7h", "8h", "X"]], True, 2)
    assert high.display() == "7h 8h X(9h)"
    inside = build_combo([parse_token(t) for t in ["4h", "5h", "X", "7h", "8h"]], True, 2)
    assert inside.display() == "4h 5h X(6h) 7h 8h"  # Foster: four dead cards laid at once
    two = build_combo([parse_token(t) for t in ["X", "X", "7c"]], True, 2)
    assert not two.is_run and len(two) == 3  # one natural and jokers: a set ...
    named = build_combo([parse_token(t) for t in ["7c", "X=8c", "X"]], True, 2)
    assert named.is_run and str(named) == "7c X=8c X=9c"  # ... unless a joker is named for a sequence
    with pytest.raises(IllegalActionError, match="R2.3"):
        build_combo([parse_token(t) for t in ["X", "X", "X"]], True, 2)  # at least one natural card
    with pytest.raises(IllegalActionError, match="R2.3"):
        build_combo([parse_token(t) for t in ["X=9d", "5d", "6d"]], True, 2)  # that place is the 4d


def test_r2_3_joker_moves_once_from_one_end_to_the_other_with_a_fitting_card() -> None:
    # Foster: "If a player lays down the 7 and 8 of hearts with the joker as the 9, and another player
    # wishes to get rid of a 9 of hearts, he may shift the joker to the position of the 6, and place his
    # 9 where the joker was.  Or if a player held the 5 of hearts, he could shift the joker ... and add the 5."
    deal = cdeal(["7h 8h X 2c 3d 4s 5c", "9h 5h Tc Jc Qd 3s 2d", "Qc Ks Kd 4c 6s 7s 8c"], "Ad", "Kc 9d Js 2h",
                 jokers=1)
    for a in ["p1 draw", "p1 meld 7h 8h X", "p1 discard Kc", "p2 draw"]:
        deal.play(a)
    assert "p2 shift 1 9h" in legal(deal) and "p2 shift 1 5h" in legal(deal)
    refused(deal, "p2 shift 1 Tc", "R2.3", "does not fit")  # he must at once play a fitting card
    refused(deal, "p2 shift 1 4h", "R2.3", "the 4♥ does not fit")
    nine = deal.copy()
    nine.play("p2 shift 1 9h")
    assert nine.combos[0].display() == "X(6h)* 7h 8h 9h"
    deal.play("p2 shift 1 5h")
    assert deal.combos[0].display() == "5h X(6h)* 7h 8h"  # now inside: it never moves again
    deal.play("p2 discard 9d")
    deal.play("p3 draw")
    assert not any(a.startswith("p3 shift") for a in legal(deal))
    refused(deal, "p3 shift 1 9h", "R2.3", "inside a sequence")


def test_r2_3_a_crossed_joker_never_moves_again() -> None:
    run = build_combo([parse_token(t) for t in ["X", "5d", "6d"]], True, 2)
    moved = run.shift(None)
    assert moved.display() == "5d 6d X(7d)*" and moved.movable_jokers() == []
    with pytest.raises(IllegalActionError, match="R2.3"):
        moved.shift(None)


def test_r2_3_a_joker_in_a_set_never_moves_and_none_moves_past_an_ace() -> None:
    s = build_combo([parse_token(t) for t in ["7c", "7d", "X"]], True, 2)
    with pytest.raises(IllegalActionError, match="R2.3: a joker in a set never moves"):
        s.shift(None)
    top = build_combo([parse_token(t) for t in ["X", "Kh", "Ah"]], True, 2)
    assert top.movable_jokers() == []  # the other end is the ace high: nothing beyond it
    with pytest.raises(IllegalActionError, match="R2.3"):
        top.shift(None)
    bottom = build_combo([parse_token(t) for t in ["Ah", "2h", "X"]], True, 2)
    assert bottom.movable_jokers() == []


def test_r2_3_both_ends_movable_needs_low_or_high() -> None:
    deal = cdeal(["X X 5d 2c 3c 4s 9s Ks Qh Jh", "6d 8d 2d 3h Jc Qd Tc 9c 8c 7c", "Qc 4c 6s 7s 8h Kc Kd 2h 3s 4h"],
                 "Ad", "9d Js 2s 3d", variant="cooncan-double")
    for a in ["p1 draw", "p1 meld X=4d 5d X", "p1 discard 9s", "p2 draw"]:
        deal.play(a)
    assert deal.combos[0].display() == "X(4d) 5d X(6d)"
    acts = legal(deal)
    assert "p2 shift 1 low 8d" in acts and "p2 shift 1 high 6d" in acts and "p2 shift 1 high 2d" in acts
    refused(deal, "p2 shift 1 8d", "R2.3", "say low or high")
    deal.play("p2 shift 1 low 8d")
    assert deal.combos[0].display() == "5d X(6d) X(7d)* 8d"
    assert deal.combos[0].movable_jokers() == []  # the other joker is inside now


def test_r2_3_never_replaced_by_the_natural_card() -> None:
    deal = cdeal(["7h 8h X 2c 3d 4s 5c", "9h 5h Tc Jc Qd 3s 2d", "Qc Ks Kd 4c 6s 7s 8c"], "Ad", "Kc 9d Js 2h",
                 jokers=1)
    for a in ["p1 draw", "p1 meld 7h 8h X", "p1 discard Kc", "p2 draw"]:
        deal.play(a)
    # the joker holds the 9h's place: the natural 9h cannot take it over (no exchange in this game);
    # it fits only once the joker has moved
    refused(deal, "p2 add 1 9h", "R4.4", "does not fit")
    assert "p2 shift 1 9h" in legal(deal)


def test_r2_3_joker_added_names_its_card() -> None:
    deal = cdeal(["7h 8h 9h 2c 3d 4s 5c", "X 5h Tc Jc Qd 3s 2d", "Qc Ks Kd 4c 6s 7s 8c"], "Ad", "Kc 9d Js 2h",
                 jokers=1)
    for a in ["p1 draw", "p1 meld 7h 8h 9h", "p1 discard Kc", "p2 draw"]:
        deal.play(a)
    assert "p2 add 1 X=6h" in legal(deal) and "p2 add 1 X=Th" in legal(deal)
    refused(deal, "p2 add 1 X", "R4.4", "does not fit")  # two open ends: name the card
    refused(deal, "p2 add 1 X=Jh", "R4.4", "does not fit")
    deal.play("p2 add 1 X=Th")
    assert deal.combos[0].display() == "7h 8h 9h X(Th)"


# --------------------------------------------------------------------- the worked hands
@pytest.mark.parametrize("name", ["foster_splash.toml", "foster_three_hand_open.toml"])
def test_worked_hands_replay_to_their_results(name: str) -> None:
    result = replay(read_record((RECORDS / name).read_text()))
    assert all(d.scores is not None for d in result.deals)


def test_the_five_hand_splash_shows_the_joker_moved() -> None:
    deal = replay(read_record((RECORDS / "foster_splash.toml").read_text())).deals[0].deal
    assert isinstance(deal, CooncanDeal)
    assert [c.display() for c in deal.combos] == [
        "5c 6c 7c", "8c 8d 8h 8s", "5d 6d X(7d)* 8d 9d", "4c 4h 4s 4s", "Kd Kh Ks", "5c 5d 5h",
    ]
    assert deal.hand(3) == []


# --------------------------------------------------------------------- R5.4, R6.1, R6.2
def test_r5_4_the_washbook_balances_after_a_round() -> None:
    import random

    rng = random.Random(4)
    m = Match(get_rules("cooncan-double", splash_bonus=50), ["A", "B", "C", "D", "E"])
    for s in range(5):
        d = m.new_deal(seed=100 + s)
        while not d.over:
            d.play(rng.choice(d.legal_actions()))
    m.settle()
    assert m.complete and len(m.results) == 5
    assert [d.dealer for d in m.deals] == [5, 1, 2, 3, 4]  # every player deals once, passing left
    assert m.washbook.balanced and sum(m.totals) == 0
    with pytest.raises(ValueError, match="R5.4"):
        m.new_deal(seed=1)


def test_r6_1_cutting_ranks_and_ties() -> None:
    assert cut_rank(parse_card("Kc")) == 13 and cut_rank(parse_card("Ac")) == 1 and cut_rank(JOKER) == 0
    r = get_rules("cooncan-double")
    names = ["A", "B", "C", "D", "E"]
    for seed in range(30):
        cut = cut_for_seats(r, names, seed)
        first = dict(cut.cuts[0])
        ranks = {n: cut_rank(parse_card(first[n])) for n in names}
        best = max(ranks.values())
        if list(ranks.values()).count(best) == 1:
            # the highest cut deals (the last seat, so the next highest is on his left: p1)
            assert cut.seating[-1] == max(ranks, key=lambda n: ranks[n])
        else:
            assert len(cut.cuts) > 1  # ties cut again
        assert sorted(cut.seating) == names
    conq = cut_for_seats(get_rules("conquian"), ["A", "B"], 3)
    first = dict(conq.cuts[0])
    if cut_rank(parse_card(first["A"])) != cut_rank(parse_card(first["B"])):
        low = min(first, key=lambda n: cut_rank(parse_card(first[n])))
        assert conq.seating[-1] == low  # conquian: the lowest cut deals


def test_r6_2_roster_waiting_substitutes_and_cutting_out() -> None:
    r = get_rules("cooncan-double")
    ro = Roster(5)
    for n in "ABCDEFG":
        ro.join(n)
    assert ro.playing == list("ABCDE") and ro.waiting == ["F", "G"]
    ro.substitute("C", "Z")
    assert "Z" in ro.playing and "C" not in ro.playing
    left = ro.end_match(r, seed=1)
    assert "Z" in left  # the substitute's seat ends with the match
    assert len(ro.playing) == 5 and ro.waiting == [] and {"F", "G"} <= set(ro.playing)
    with pytest.raises(ValueError, match="already at the table"):
        ro.join(ro.playing[0])


def test_r4_5_a_deal_where_everyone_takes_from_the_stock_still_ends() -> None:
    # Players who only ever take the stock's top card never exhaust the pack: the deal is void
    # after max_turns turns (a refinement of R1's bound, reported in the issue note).
    deal = CooncanDeal(get_rules("cooncan-double", max_turns=60), seed=3, dealer=5)
    while not deal.over:
        acts = legal(deal)
        deal.play(acts[-1] if deal.phase == "draw" else next(a for a in acts if " discard " in a))
    assert deal.void and deal.n_turns == 61 and deal.pack_count == 106 - 51


def test_r1_player_counts() -> None:
    from conquian import NotationError

    for n in (2, 3):
        CooncanDeal(get_rules("cooncan", players=n), seed=1, dealer=1)
    for n in range(2, 8):  # R1 (as audited): "in some circles six or seven are allowed"
        deal = CooncanDeal(get_rules("cooncan-double", players=n), seed=1, dealer=1)
        assert [deal.hand_size(s) for s in range(1, n + 1)] == [10] * n
    with pytest.raises(NotationError, match="R1"):
        get_rules("cooncan", players=4)
    with pytest.raises(NotationError, match="R1"):
        get_rules("cooncan-double", players=8)
    with pytest.raises(NotationError, match="R1"):
        get_rules("cooncan-double", jokers=1)


# ------------------------------------------------- R2.2: a sequence written in any order
def test_r2_2_a_sequence_is_read_in_any_order_where_only_one_fits() -> None:
    # R2.2 makes a sequence of the cards, not of the order they are written in (conquian's
    # ``use`` reads any order too); the record writes it back low to high, each joker in place
    assert combo("2c 3c Ac") == "Ac 2c 3c"
    assert combo("Ac Kc Qc") == "Qc Kc Ac"
    assert combo("7d X 5d") == "5d X 7d"  # the joker fills the gap
    assert combo("Ad X 2d") == "Ad 2d X"  # nothing below the ace low: the joker goes above
    assert combo("X=8d 7d 6d") == "6d 7d X"  # a named joker goes where its name says
    assert combo("Kh X=Ah X") == "X=Qh Kh X=Ah"
    deal = cdeal(["Ac 2c 3c 4s 5h 6d 7s", "Kc Kh Ts Js 6c 9d 9h", "4c 5c 8h 9s Th Qd 7c"], "3h", "2s 3d",
                 jokers=0)
    deal.play("p1 draw")
    assert deal.play("p1 meld 2c 3c Ac") is not None
    assert str(deal.combos[0]) == "Ac 2c 3c"
    assert [str(a) for a in deal.actions()][-1] == "p1 meld Ac 2c 3c"  # the canonical order (RECORDS)


def test_r2_2_cards_that_make_no_sequence_are_still_a_rules_error() -> None:
    deal = cdeal(["Ac 2c 4c 4s 5h 6d 7s", "Kc Kh Ts Js 6c 9d 9h", "5c 3c 8h 9s Th Qd 7c"], "3h", "2s 3d",
                 jokers=0)
    deal.play("p1 draw")
    refused(deal, "p1 meld 4c Ac 2c", "R2.2", "not a sequence")  # a gap, and no joker to fill it
    refused(deal, "p1 meld 2s 4c 3d", "R2.2", "neither a set")
    with pytest.raises(IllegalActionError, match="R2.3: 5d 6d X=8d: the joker in that place stands for the 7♦"):
        combo("5d 6d X=8d")
    with pytest.raises(IllegalActionError, match="R2.2"):
        combo("5d 5d 6d")  # one place, two cards


def test_r2_2_a_sequence_in_an_order_that_leaves_two_is_a_notation_error() -> None:
    # ``6d X 5d`` is ``X 5d 6d`` or ``5d 6d X``: the text does not say which, a notation error (not
    # a broken rule) that asks for the order; the state is unchanged
    for text in ["6d X 5d", "5d X 6d", "9d X X 7d", "7d X X=8d"]:
        with pytest.raises(NotationError, match="more than one sequence") as info:
            combo(text)
        assert not isinstance(info.value, IllegalActionError)
    deal = cdeal(["X 5d 6d 4s 5h 6c 7s", "Kc Kh Ts Js 6h 9d 9h", "4c 5c 8h 9s Th Qd 7c"], "3h", "2s 3d",
                 jokers=1)
    deal.play("p1 draw")
    before = deal.copy()
    with pytest.raises(NotationError, match="write it low to high"):
        deal.play("p1 meld 6d X 5d")
    assert deal == before and not deal.is_legal("p1 meld 6d X 5d")
    deal.play("p1 meld 6d X=7d 5d")  # a named joker settles it
    assert str(deal.combos[0]) == "5d 6d X"


@pytest.mark.parametrize("seat", [0, 4, 9, -1, "p1"])
def test_a_seat_the_table_does_not_have_is_refused(seat: object) -> None:
    """R1: a three-hand table has seats 1 to 3; asking for another's hand or view is refused in
    words, never an IndexError."""
    deal = new_deal(get_rules("cooncan"), seed=1)
    for ask in (deal.hand, deal.hand_size, deal.view):
        with pytest.raises(IllegalActionError, match="R1: there is no seat"):
            ask(seat)  # type: ignore[arg-type]
