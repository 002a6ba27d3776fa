"""Cooncan's listing reaches every outcome of a turn (R4.3), going out above all (R4.6).

The listing holds building blocks (three-card lay-outs, one card added, one card with a joker's
move); a turn chains as many as the player likes before his discard.  Against a search of its
own (``benchmarks/cooncan_cover.py``: every lay-out, add and joker move of any size, built from
R2.2, R2.3 and R4.4 and judged by the engine's ``verify``, never by the listing), every set of
hand cards a legal turn lays, and every table it leaves, must be reached by listed actions.
"""

from __future__ import annotations

import pytest
from benchmarks.cooncan_cover import Row, compare, everything, listed, positions

from conquian import get_rules, parse_card, parse_cards
from conquian.engine.cooncan.deal import K_MELD3R, CooncanDeal
from conquian.engine.deck import arrange_cooncan_deck
from conquian.envs.encoding import encoding

#: (preset, players, deals, every how many play positions one is searched): a few seconds each
PRESETS = [("cooncan", 3, 12, 2), ("cooncan-double", 4, 6, 6), ("cooncan-double", 5, 6, 6)]


@pytest.mark.parametrize(("variant", "players", "deals", "every"), PRESETS)
def test_r4_3_listed_actions_reach_every_layable_set_and_every_table(variant: str, players: int, deals: int,
                                                                      every: int) -> None:
    """R4.3 (lay out any number of combinations, add, move a joker), R2.3 (jokers), R4.6 (going
    out): from positions of real play, the listed actions reach whatever any legal actions reach."""
    row = Row(variant, players)
    for deal in positions(variant, players, deals, seed=7, every=every):
        compare(deal, row)
    assert row.positions >= 20 and row.layable > row.positions // 2, row  # the sample is not empty
    assert row.cut == 0
    assert (row.layable_missed, row.go_out_missed, row.outcomes_missed) == (0, 0, 0), row.examples


def _deal(hand: str, draw: str, variant: str = "cooncan-double", players: int = 4) -> CooncanDeal:
    """p1 holds ``hand`` and draws ``draw``; the other seats hold what the pack gives."""
    rules = get_rules(variant, players=players)
    mine = parse_cards(hand)
    rest = [c for c in CooncanDeal(rules, seed=3, dealer=players).deck if c not in mine and c != parse_card(draw)]
    hands = [mine] + [rest[i * rules.hand_size:(i + 1) * rules.hand_size] for i in range(players - 1)]
    used = [c for h in hands for c in h]
    pool = list(rest[(players - 1) * rules.hand_size:])
    deck = arrange_cooncan_deck(rules, players, hands, pool[0], [parse_card(draw)])
    deal = CooncanDeal(rules, deck, dealer=players)
    assert sorted(deal.hand(1)) == sorted(mine) and len(used) == players * rules.hand_size
    deal.play("p1 draw")
    return deal


def test_r2_3_r4_6_two_jokers_between_two_naturals_go_out() -> None:
    """R2.3: a meld may hold more than one joker; `5d X X 8d` has no three neighbouring cards that
    are a set or a sequence with one joker, so it is laid as `X X 8d` (listed) and the 5d added.
    With it p1 lays his whole hand but one card and goes out with his discard (R4.6)."""
    deal = _deal("5d 8d X X 2c 2h 2s 9c 9h 9s", "Kh")
    listed_text = [str(a) for a in deal.legal_actions()]
    for text in ("p1 meld X=6d X=7d 8d", "p1 meld X=4d 5d X=6d", "p1 meld 5d X=6d X=7d", "p1 meld 5d X X"):
        assert text in listed_text
    for a in ["p1 meld 2c 2h 2s", "p1 meld 9c 9h 9s", "p1 meld X=6d X=7d 8d", "p1 add 3 5d", "p1 discard Kh"]:
        assert a in [str(x) for x in deal.legal_actions()], a
        deal.play(a)
    assert deal.winner_seat == 1
    row = Row("cooncan-double", 4)
    compare(_deal("5d 8d X X 2c 2h 2s 9c 9h 9s", "Kh"), row)
    assert (row.go_out, row.go_out_missed, row.layable_missed, row.outcomes_missed) == (1, 0, 0, 0)


@pytest.mark.parametrize(("natural", "runs"), [
    ("5d", ["X=3d X=4d 5d", "X=4d 5d X=6d", "5d X=6d X=7d"]),
    ("Ah", ["Ah X=2h X=3h", "X=Qh X=Kh Ah"]),  # R2.2: an ace low or high, never round the corner
    ("Kh", ["X=Jh X=Qh Kh", "X=Qh Kh X=Ah"]),
    ("2c", ["X=Ac 2c X=3c", "2c X=3c X=4c"]),
])
def test_r2_3_each_sequence_of_one_natural_and_two_jokers_is_listed(natural: str, runs: list[str]) -> None:
    """R2.3: a joker stands for the card of its place; with one natural the jokers are named (else
    the three cards read as a set, which is listed too)."""
    deal = _deal(f"{natural} X X 9s 9s Tc Tc Jd Jd 3s", "4s")
    melds = sorted(str(a)[len("p1 meld "):] for a in deal.legal_actions() if a.verb == "meld"
                   and natural in str(a) and "X" in str(a))
    assert melds == sorted([f"{natural} X X", *runs])
    for text in runs:  # each plays as written, and reads back the same
        d = deal.copy()
        d.play(f"p1 meld {text}")
        assert str(d.combos[-1]) == text


def test_two_joker_sequences_are_listed_only_with_two_jokers() -> None:
    """One joker: no sequence of one natural (R2.3: the meld needs three cards)."""
    deal = _deal("5d 8d X 2c 3c 4c 9s Tc Jd Qh", "Kh")
    assert not [r for r in deal.legal_raw() if r[0] == K_MELD3R]


def test_the_action_encoding_expresses_every_listed_action() -> None:
    """The fixed action space of the research interfaces holds the new lay-outs (after every
    other index, which keeps its meaning), and maps them back to the same actions."""
    deal = _deal("5d 8d X X 2c 3c 4c Ah Kh 7c", "Qs")
    enc = encoding(deal.rules)
    view = deal.view(1)
    mask = enc.mask(view)
    got = sorted(str(enc.action(int(i), view)) for i in mask.nonzero()[0])
    assert got == sorted(str(a) for a in deal.legal_actions())
    assert len(enc.runs3) == 144 and enc.n_actions == enc.A_RUN3 + 144
    assert encoding(get_rules("cooncan")).runs3 == []  # one joker in the three-hand pack


def test_the_full_search_finds_what_the_listing_lacked() -> None:
    """The checker is not blind: without the two-joker sequences (the listing before them), going
    out with `5d X X 8d` is out of reach, and the full search finds it."""
    deal = _deal("5d 8d X X 2c 2h 2s 9c 9h 9s", "Kh")
    full = everything(deal)
    assert full.hands == listed(deal).hands and full.outcomes == listed(deal).outcomes
    only_kh = (1 << parse_card("Kh"), 0, 0)  # all laid but the Kh, to discard (R4.6)
    assert only_kh in full.hands
    before = listed(deal, leave_out=frozenset({K_MELD3R}))
    assert only_kh not in before.hands and full.hands - before.hands
