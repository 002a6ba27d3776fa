"""Property tests over random Cooncan play, for every preset and player count."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from conquian import IllegalActionError, NotationError, get_rules
from conquian.engine.cards import JOKER, card_str, make_card
from conquian.engine.cooncan.deal import CooncanDeal, hand_threes, joker_runs, new_run3
from conquian.engine.cooncan.melds import build_combo, parse_token
from conquian.engine.deck import pack_order
from conquian.engine.match import Match
from conquian.engine.record import read_record, record_from_match, replay, write_record
from conquian.engine.redeal import redeal_unseen

CONFIGS = st.sampled_from([
    ("cooncan", 2, {}), ("cooncan", 3, {}), ("cooncan", 3, {"stock": "open"}), ("cooncan", 3, {"jokers": 0}),
    ("cooncan", 2, {"stock": "open", "jokers": 0}), ("cooncan-double", 2, {}), ("cooncan-double", 3, {}),
    ("cooncan-double", 4, {}), ("cooncan-double", 5, {"splash_bonus": 25}), ("cooncan-double", 6, {}),
    ("cooncan-double", 5, {"max_pack_turns": 0}),
])


def all_cards(deal: CooncanDeal) -> Counter[int]:
    c: Counter[int] = Counter()
    for s in range(1, deal.n + 1):
        c.update(deal.hand(s))
    for cb in deal.combos:
        c.update(cb.cells)
    c.update(deal.stock)
    c.update(deal.pack[deal.pos:])
    return c


def random_text(rng: random.Random, deal: CooncanDeal) -> str:
    cards = [card_str(c) for c in deal.deck[:30]] + ["X", "X=9h"]
    seat = rng.randint(1, deal.n + 1)
    verb = rng.choice(["draw", "take", "meld", "add", "shift", "discard"])
    if verb == "draw":
        return f"p{seat} draw"
    if verb == "take":
        return f"p{seat} take" + (f" {rng.choice(cards)}" if rng.random() < 0.5 else "")
    if verb == "meld":
        return f"p{seat} meld " + " ".join(rng.sample(cards, rng.randint(1, 4)))
    if verb in ("add", "shift"):
        which = rng.choice(["", "low ", "high "]) if verb == "shift" else ""
        return f"p{seat} {verb} {rng.randint(1, 4)} {which}" + " ".join(rng.sample(cards, rng.randint(1, 2)))
    return f"p{seat} discard {rng.choice(cards)}"


@settings(max_examples=60, deadline=None)
@given(CONFIGS, st.integers(0, 2**32))
def test_random_play_keeps_every_invariant(config: tuple[str, int, dict[str, object]], seed: int) -> None:
    variant, n, options = config
    rules = get_rules(variant, players=n, **options)
    rng = random.Random(seed)
    deal = CooncanDeal(rules, seed=seed, dealer=rng.randint(1, n))
    full = Counter(pack_order(rules))
    steps = 0
    while not deal.over:
        assert all_cards(deal) == full  # no card created or lost
        for cb in deal.combos:  # every combination stays valid as it lies (R4.4)
            assert len(cb) >= 3 and any(c != JOKER for c in cb.cells)
            rebuilt = build_combo([parse_token(t) for t in str(cb).split()], rules.copies == 2, cb.owner)
            assert rebuilt.cells == cb.cells and rebuilt.lo == cb.lo
        legal = deal.legal_actions()
        assert legal
        for a in legal if steps % 5 == 0 else legal[:3]:
            assert deal.is_legal(a), (a, str(deal))
        text = random_text(rng, deal)
        trial = deal.copy()
        try:
            trial.play(text)
        except (IllegalActionError, NotationError):
            assert trial == deal
        deal.play(rng.choice(legal))
        steps += 1
    assert all_cards(deal) == full
    scores = deal.scores()
    assert scores is not None and sum(scores) == 0
    if deal.void:
        assert scores == [0] * n and deal.winner_seat is None
    else:
        assert (deal.hand(deal.winner_seat or 0) == [] and scores[(deal.winner_seat or 0) - 1] > 0) or all(
            deal.pips(s) == 0 for s in range(1, n + 1)
        )


@settings(max_examples=25, deadline=None)
@given(CONFIGS, st.integers(0, 2**32), st.integers(1, 3))
def test_record_round_trip(config: tuple[str, int, dict[str, object]], seed: int, n_deals: int) -> None:
    variant, n, options = config
    rng = random.Random(seed)
    m = Match(get_rules(variant, players=n, **options), rounds=None)
    for i in range(n_deals):
        d = m.new_deal(seed=seed + i)
        limit = None if i < n_deals - 1 else rng.randint(0, 200)
        k = 0
        while not d.over and (limit is None or k < limit):
            kind, arg = d.random_raw(rng.random)
            d.play(d.to_action((kind, arg)))
            k += 1
    rec = record_from_match(m)
    text = write_record(rec)
    assert read_record(text) == rec
    result = replay(read_record(text))
    for original, again in zip(m.deals, result.deals, strict=True):
        assert again.deal == original


def brute_force_threes(hand: list[int], double: bool) -> set[str]:
    """Every three-card combination of a hand, by trying every choice and order of its cards."""
    out = set()
    for idx in itertools.combinations(range(len(hand)), 3):
        for perm in itertools.permutations([hand[i] for i in idx]):
            try:
                combo = build_combo([("X" if c == JOKER else card_str(c), None) for c in perm], double, 1)
            except (IllegalActionError, NotationError):  # an order that leaves two sequences
                continue
            out.add(str(combo))
        naturals = [hand[i] for i in idx if hand[i] != JOKER]
        if len(naturals) == 1:  # one natural, two jokers: a sequence too, the jokers named (R2.3)
            c = naturals[0]
            for pos in (1, 14) if c & 15 == 1 else (c & 15,):
                for lo in (pos - 2, pos - 1, pos):
                    if lo < 1 or lo + 2 > 14:
                        continue  # no card to name below the low ace or above the high one
                    tokens = [(card_str(c), None) if lo + i == pos else
                              ("X", card_str(make_card(1 if lo + i in (1, 14) else lo + i, c >> 4)))
                              for i in range(3)]
                    try:
                        out.add(str(build_combo(tokens, double, 1)))
                    except (IllegalActionError, NotationError):
                        continue
    return out


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["cooncan", "cooncan-double"]), st.integers(3, 14))
def test_meld_listing_is_every_three_card_combination(seed: int, variant: str, size: int) -> None:
    rules = get_rules(variant)
    rng = random.Random(seed)
    hand = rng.sample(pack_order(rules), size)
    h1 = h2 = 0
    hj = 0
    for c in hand:
        if c == JOKER:
            hj += 1
        elif h1 >> c & 1:
            h2 |= 1 << c
        else:
            h1 |= 1 << c
    listed = {str(build_combo([("X" if c == JOKER else card_str(c), None) for c in cells], rules.copies == 2, 1))
              for cells in hand_threes(h1, h2, hj)}
    # a triple of hand_threes with one natural and two jokers is the set form; the sequences of one
    # natural and two jokers are joker_runs' (R2.3: a meld may hold more than one joker)
    listed |= {str(new_run3(cells, 1, 0)) for cells in joker_runs(h1, hj)}
    assert listed == brute_force_threes(hand, rules.copies == 2)


# ------------------------------------------------------------------ hidden information
def public_rearrangement(deal: CooncanDeal, seat: int, rng: random.Random) -> CooncanDeal:
    """The same public history with every card ``seat`` has not seen dealt differently."""
    other = redeal_unseen(deal, seat, rng)
    assert isinstance(other, CooncanDeal)
    return other


@settings(max_examples=60, deadline=None)
@given(CONFIGS, st.integers(0, 2**32), st.integers(0, 150))
def test_view_depends_only_on_what_the_seat_may_know(config: tuple[str, int, dict[str, object]], seed: int,
                                                     steps: int) -> None:
    variant, n, options = config
    rules = get_rules(variant, players=n, **options)
    rng = random.Random(seed)
    deal = CooncanDeal(rules, seed=seed, dealer=rng.randint(1, n))
    for _ in range(steps):
        if deal.over:
            break
        deal.apply_raw(*deal.random_raw(rng.random))
    seat = rng.randint(1, n)
    other = public_rearrangement(deal, seat, random.Random(seed + 1))
    assert other.view(seat) == deal.view(seat)
    v = deal.view(seat)
    for e in v.events:
        if e.kind == "draw" and e.seat != seat:
            assert e.card is None  # another seat's draw from the pack is hidden
    assert not hasattr(v, "pack") and not hasattr(v, "deck")


def test_views_list_the_same_actions_as_the_deal() -> None:
    rng = random.Random(9)
    for variant, n in [("cooncan", 3), ("cooncan-double", 5)]:
        for seed in range(15):
            deal = CooncanDeal(get_rules(variant, players=n), seed=seed, dealer=n)
            for _ in range(rng.randint(0, 120)):
                if deal.over:
                    break
                deal.apply_raw(*deal.random_raw(rng.random))
            if deal.over:
                continue
            seat = deal.to_act
            assert seat is not None
            assert deal.view(seat).legal_actions() == deal.legal_actions()
            assert deal.view(seat % n + 1).legal_actions() == []
