"""The review finds planted blunders where they were made, and nowhere else (docs/review.md).

Each record is a real deal: both seats played by ``foster`` up to a position, where one bad move
is planted.  The first planted blunder (the win on the spot passed up, R3.7) is in
``tests/test_review.py``; here are the discard into the adversary's combination that hands him
his eleventh card (R3.3, R3.7), going out passed up (R3.4, R3.7: a use that lays three
combinations at once), and a three broken that costs nothing after all (R3.4).  Then a deal
played by ``master`` against itself, whose decisions with a clear margin get no blunder.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import conquian.review as review
from conquian import get_rules
from conquian.bots import make_bot
from conquian.engine.cards import parse_card, parse_cards
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.deck import arrange_deck
from conquian.engine.record import DealRecord, Record, write_record

#: Playouts per candidate: the planted costs are about 0.4 of a win, far above the noise.
PLAYOUTS = 100


def record(seed: int, actions: list[str], dealer: int = 2) -> str:
    """A conquian record of one deal from ``seed`` (R3.1), p``dealer`` dealing."""
    return write_record(Record("conquian", ["A", "B"], {}, [DealRecord(dealer=dealer, seed=seed,
                                                                       actions=list(actions))]))


def position(seed: int, actions: list[str], dealer: int = 2) -> ConquianDeal:
    """The deal from ``seed`` after ``actions``."""
    deal = ConquianDeal(get_rules("conquian"), seed=seed, dealer=dealer)
    for a in actions:
        deal.play(a)
    return deal


def adversary_wins_with(deal: ConquianDeal, action: str) -> bool:
    """Whether, after ``action``, the adversary has an action that wins the deal at once (R3.7)."""
    me = deal.to_act
    after = deal.copy()
    after.play(action)
    for raw in after.legal_raw():
        d = after.copy()
        d.apply_raw(*raw)
        if d.over and d.winner_seat not in (None, me):
            return True
    return False


def only_blunder(rv: review.Review, action_index: int) -> review.Decision:
    """The decision at ``action_index``, checked to be the review's one and only blunder."""
    assert [d.action_index for d in rv.decisions if d.mark == "blunder"] == [action_index]
    planted = next(d for d in rv.decisions if d.action_index == action_index)
    assert planted.cost >= review.MISTAKE_BELOW and rv.turning_points[0] is planted
    return planted


# --------------------------------------------------- the discard that hands the deal over
#: Seed 14, p2 deals, foster for both seats up to p1's discard: p2 has ten down (5c 5d 5h,
#: Ah 2h 3h, 6c 7c 8c 9c) and an empty hand, so the next card he uses is his eleventh (R3.7).
#: p1 holds 6h 7s Tc Td and discards the club 10, which goes on the end of p2's 6c-9c (R3.3:
#: the discard is offered to him) while 6h or 7s fits nothing of his and keeps p1 in the deal
#: (Td fits nothing either, but leaves p1 the club 10 to get rid of: the review finds it lost too).
GIFT_ACTIONS = [
    "p1 use 3s 4s 5s", "p1 discard 5c", "p2 use 5c 5d 5h", "p2 discard 3d", "p1 pass", "p1 use 8h 9h Th",
    "p1 discard 3h", "p2 use Ah 2h 3h", "p2 discard 2c", "p1 pass", "p1 pass", "p2 pass", "p2 pass", "p1 pass",
    "p1 pass", "p2 use 6c 7c 8c", "p2 discard 7d", "p1 pass", "p1 pass", "p2 use 6c 7c 8c 9c", "p2 discard 8s",
    "p1 pass", "p1 use 3s 4s 5s 6s",
    "p1 discard Tc",  # the blunder: R3.3, R3.7
    "p2 use 6c 7c 8c 9c Tc",  # and p2 is eleven down
]
GIFT = len(GIFT_ACTIONS) - 1  # the planted discard's number in the list of actions (1-based)
SAFE = ("p1 discard 6h", "p1 discard 7s")


def test_the_discard_completes_the_adversary_s_eleventh_card_and_a_safe_one_existed() -> None:
    deal = position(14, GIFT_ACTIONS[:GIFT - 1])
    assert deal.to_act == 1 and deal.phase == "discard"
    assert adversary_wins_with(deal, "p1 discard Tc") and adversary_wins_with(deal, "p1 force Tc")
    assert not any(adversary_wins_with(deal, safe) for safe in SAFE)
    deal.play("p1 discard Tc")
    deal.play("p2 use 6c 7c 8c 9c Tc")
    assert deal.over and deal.winner_seat == 2


def test_the_discard_into_the_adversary_s_combination_is_a_blunder_and_the_only_one() -> None:
    rv = review.review_text(record(14, GIFT_ACTIONS), seat=1, playouts=PLAYOUTS)
    planted = only_blunder(rv, GIFT)
    assert planted.played == "p1 discard Tc" and planted.best in SAFE
    wins = {e.action: e.win for e in planted.candidates}
    assert wins["p1 discard Tc"] == wins["p1 force Tc"] == 0.0  # p2 uses it and is out, every time
    assert min(wins[s] for s in SAFE) >= review.MISTAKE_BELOW


# ------------------------------------------------------------------ the nines broken, and no harm
#: Seed 165, p2 deals, foster for both seats up to p2's discard.  p1 has ten down (3c 3d 3s,
#: Ac Ad As, 8c 8d 8h 8s) and an empty hand, but no card left can join them (3h and Ah lie on
#: p2's side, the eights are four): he cannot win.  p2 has Ah 2h 3h and 5c 5d 5s down and holds
#: 4h 6c 9c 9h 9s, a made three of nines (R2.2); the diamond 9 and the heart 5 are still in the
#: pack.  This was planted as "a three broken for nothing", when the listing offered no use that
#: adds hand cards with the card: discarding the heart 9 seemed to leave only a tableau.  It does
#: not: the 9d lays 9c 9d 9s, and the 5h lays 4h 5h on Ah 2h 3h, eleven down (R3.4: "add it, with
#: or without hand cards, to one of his own combinations"; R3.7).  The review, which sees every
#: use now, finds a discard of any nine, or of the 4h, winning in every re-deal, and marks no blunder.
THREE_ACTIONS = [
    "p1 pass", "p2 use Ah 2h 3h", "p2 discard 7d", "p1 pass", "p1 pass", "p2 pass", "p2 pass", "p1 use 8d 8h 8s",
    "p1 discard Tc", "p2 pass", "p2 pass", "p1 use 3c 3d 3s", "p1 discard Td", "p2 pass", "p2 pass",
    "p1 use Ac Ad As", "p1 discard 6h", "p2 pass", "p2 pass", "p1 use 8c 8d 8h 8s", "p1 discard 6s", "p2 pass",
    "p2 pass", "p1 pass", "p1 pass", "p2 use 5c 5d 5s",
    "p2 discard 9h",  # no blunder: 4h 5h still reach Ah 2h 3h
]
NINES = ("9c", "9h", "9s")
KEEPS = ("p2 discard 4h", "p2 discard 6c")


def test_the_three_waits_for_the_last_nine_in_the_pack() -> None:
    deal = position(165, THREE_ACTIONS[:-1])
    hand = str(deal.view(2).hand).split()
    assert deal.to_act == 2 and deal.phase == "discard" and set(NINES) <= set(hand)
    assert deal.downs[0].bit_count() == 10 and deal.hands[0] == 0  # p1: ten down, nothing in hand
    assert {parse_card("9d"), parse_card("5h")} <= set(deal.deck[deal.pos:])  # still in the pack
    assert not adversary_wins_with(deal, "p2 discard 9h")  # not a gift: the three is simply gone


def test_breaking_the_nines_is_no_blunder_now_that_every_use_is_listed() -> None:
    rv = review.review_text(record(165, THREE_ACTIONS), seat=2, playouts=PLAYOUTS)
    assert all(d.mark != "blunder" for d in rv.decisions)
    broken = next(d for d in rv.decisions if d.action_index == len(THREE_ACTIONS))
    wins = {e.action: e.win for e in broken.candidates}
    assert all(wins[f"p2 discard {c}"] == 1.0 for c in NINES) and wins["p2 discard 4h"] == 1.0


# ------------------------------------------------------------------ going out passed up
def going_out_record() -> str:
    """Conquian, p1 deals: the pone, p2, holds 2c-6c, 7d 7h 7s, 9h Th, and the 8h is turned: ``p2 use
    2c 3c 4c 5c 6c | 7d 7h 7s | 8h 9h Th`` is eleven down at once (R3.4, R3.7).  He passes."""
    rules = get_rules("conquian")
    deck = arrange_deck(rules, [parse_cards("2c 3c 4c 5c 6c 7d 7h 7s 9h Th"),
                                parse_cards("Ac Ad As 2d 2h 3d 3h 4d 5d 6d")], parse_cards("8h"))
    return write_record(Record("conquian", ["A", "B"], {}, [DealRecord(dealer=1, deck=deck, actions=["p2 pass"])]))


GOING_OUT = "p2 use 2c 3c 4c 5c 6c | 7d 7h 7s | 8h 9h Th"


def test_passing_up_going_out_is_a_blunder() -> None:
    rv = review.review_text(going_out_record(), seat=2, playouts=PLAYOUTS)
    planted = only_blunder(rv, 1)
    assert planted.played == "p2 pass" and planted.best == GOING_OUT
    assert len(planted.candidates) == 29  # every listed action is weighed: the pass and 28 uses
    assert {e.action: e.win for e in planted.candidates}[GOING_OUT] == 1.0


def test_the_command_marks_it_too(tmp_path: Path) -> None:
    path = tmp_path / "going-out.toml"
    path.write_text(going_out_record(), encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "conquian", "review", str(path), "--seat", "p2", "--playouts",
                        str(PLAYOUTS), "--json"], capture_output=True, text=True, timeout=300,
                       stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr
    decision = json.loads(p.stdout)["decisions"][0]
    assert decision["mark"] == "blunder" and decision["best"] == GOING_OUT


# ------------------------------------------------------------------ master against itself
#: The deal master plays against itself: conquian, seed 6, p2 deals, with no time cap
#: (``cap_ms=None``) so that it is the same on every machine.  About five seconds in pure Python.
MASTER_SEED = 6
#: Playouts per candidate of the review of the master deal.
MASTER_PLAYOUTS = 200
#: The noise of a cost: twice the standard error of a difference of two win chances measured on
#: MASTER_PLAYOUTS independent re-deals, 2 * sqrt(0.5 / playouts), 0.1 at 200.  The review plays
#: every candidate on the same re-deals, which only makes the difference tighter.
CLEAR = 2 * math.sqrt(0.5 / MASTER_PLAYOUTS)


def margin(d: review.Decision) -> float:
    """How far the best candidate beats the second best; a discard and a force of the same card
    (R3.5, R3.6) count as one move, since both give that card up."""
    best: dict[str, float] = {}
    for e in d.candidates:
        key = e.action.replace(" force ", " discard ")
        best[key] = max(e.win, best.get(key, 0.0))
    wins = [*sorted(best.values(), reverse=True), 0.0]
    return wins[0] - wins[1]


def test_master_against_itself_gets_no_blunder_where_the_margin_is_clear() -> None:
    """A deal played by ``master`` for both seats, reviewed for each seat: no decision whose margin
    is clear, that is where the review's best candidate beats the second best by more than
    :data:`CLEAR` (twice the standard error of a difference at 200 playouts, 0.1), is marked
    blunder.  There, a blunder could not be the noise of the estimates: it would be master and
    the review disagreeing about a position.  The deal has such decisions for each seat."""
    deal = ConquianDeal(get_rules("conquian"), seed=MASTER_SEED, dealer=2)
    bots = {seat: make_bot("master", seed=seat, cap_ms=None) for seat in (1, 2)}
    while not deal.over:
        seat = deal.to_act
        assert seat is not None
        deal.play(bots[seat].choose(deal.view(seat)))
    text = record(MASTER_SEED, [str(a) for a in deal.actions()])
    for seat in (1, 2):
        rv = review.review_text(text, seat=seat, playouts=MASTER_PLAYOUTS, workers=2)
        clear = [d for d in rv.decisions if margin(d) > CLEAR]
        assert len(clear) >= 2
        assert [d.number for d in clear if d.mark == "blunder"] == []


#: The first 35 actions of that deal: p1, with 2c 2d 2h 2s | 7c 7d 7s down and 3c 5c 6h Tc in
#: hand, discards.  The club 3 makes sure of a tableau (R3.7: neither side can be eleven down
#: any more); the heart 6 wins about half the time and loses the other half.
TABLEAU_ACTIONS = [
    "p1 pass", "p2 pass", "p2 pass", "p1 pass", "p1 pass", "p2 use 4d 5d 6d", "p2 discard 7d", "p1 use 7c 7d 7s",
    "p1 discard 9s", "p2 use 9d 9h 9s", "p2 discard Th", "p1 pass", "p1 pass", "p2 pass", "p2 pass", "p1 pass",
    "p1 use 2d 2h 2s", "p1 discard Ac", "p2 pass", "p2 pass", "p1 pass", "p1 pass", "p2 pass", "p2 pass",
    "p1 pass", "p1 pass", "p2 pass", "p2 pass", "p1 pass", "p1 pass", "p2 pass", "p2 use 3d 4d 5d | 6c 6d 6s",
    "p2 discard 2c", "p1 use 2c 2d 2h 2s", "p1 discard 3c",
]


def test_making_sure_of_a_tableau_is_not_a_blunder() -> None:
    # R3.7, R5.1: a tableau is a tie whose stake goes to the next deal; it counts half a win
    rv = review.review_text(record(MASTER_SEED, TABLEAU_ACTIONS), seat=1, playouts=MASTER_PLAYOUTS)
    last = rv.decisions[-1]
    assert last.action_index == len(TABLEAU_ACTIONS) and last.played == "p1 discard 3c"
    assert last.mark == "good"
    made = next(e for e in last.candidates if e.action == last.played)
    assert made.win == review.TABLEAU_WIN
