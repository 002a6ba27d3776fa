"""Property tests over random play (hypothesis): the engine never breaks an invariant."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquian import ConquianDeal, IllegalActionError, Match, NotationError, get_rules
from conquian.engine.actions import Use
from conquian.engine.cards import card_str, mask_of
from conquian.engine.conquian.deal import SAY_TURNED
from conquian.engine.cooncan.deal import CooncanDeal
from conquian.engine.record import read_record, record_from_match, replay, write_record

VARIANTS = st.sampled_from(["conquian", "conquian-spanish"])


def check_invariants(deal: ConquianDeal) -> None:
    tbl = deal.tbl
    # no card created or lost: hands, sides, buried, the card in play and the pack are the pack
    parts = [deal.hands[0], deal.hands[1], deal.downs[0], deal.downs[1], deal.buried,
             (1 << deal.card) if deal.card >= 0 else 0, mask_of(deal.deck[deal.pos:])]
    assert sum(m.bit_count() for m in parts) == 40
    union = 0
    for m in parts:
        assert union & m == 0
        union |= m
    assert union == tbl.pack_mask
    for p in (0, 1):
        # R3.2: hand + own table is ten, eleven while the used card awaits its discard, or at the win
        n = deal.hands[p].bit_count() + deal.downs[p].bit_count()
        waiting = deal.stage == 4 and deal.actor == p
        assert n == 10 or (n == 11 and (waiting or deal.winner == p))
        # every combination on the table is valid and the side is their disjoint union
        side_union = 0
        for m in deal.sides[p]:
            assert tbl.is_meld(m)
            assert side_union & m == 0
            side_union |= m
        assert side_union == deal.downs[p]


def random_action_text(rng: random.Random, deal: ConquianDeal) -> str:
    cards = [card_str(c) for c in deal.deck]
    seat = rng.choice([1, 2, 3])
    verb = rng.choice(["use", "pass", "force", "discard"])
    if verb == "use":
        parts = [" ".join(rng.sample(cards, rng.randint(1, 5))) for _ in range(rng.randint(1, 2))]
        return f"p{seat} use " + " | ".join(parts)
    if verb == "pass":
        return f"p{seat} pass"
    return f"p{seat} {verb} {rng.choice(cards)}"


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(0, 2**32), VARIANTS)
def test_random_play_keeps_every_invariant(deck_seed: int, choice_seed: int, variant: str) -> None:
    rng = random.Random(choice_seed)
    deal = ConquianDeal(get_rules(variant), seed=deck_seed, dealer=rng.choice([1, 2]))
    steps = 0
    while not deal.over:
        check_invariants(deal)
        legal = deal.legal_actions()
        assert legal, "a seat to act always has a legal action"
        for a in legal:  # every listed action is accepted
            assert deal.is_legal(a), a
            assert deal.is_legal(str(a))
        for _ in range(3):  # every refused action leaves the state unchanged
            text = random_action_text(rng, deal)
            trial = deal.copy()
            try:
                trial.play(text)
            except IllegalActionError as e:
                assert e.rule.startswith("R") and trial == deal
            except NotationError:
                assert trial == deal
        deal.play(rng.choice(legal))
        steps += 1
        assert steps < 200
    check_invariants(deal)
    scores = deal.scores()
    assert scores is not None and sum(scores) == 0


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 4), VARIANTS, st.sampled_from(["games", "pips"]), st.integers(2, 3))
def test_record_round_trip_is_identity(seed: int, n_deals: int, variant: str, scoring: str, players: int) -> None:
    rng = random.Random(seed)
    m = Match(get_rules(variant, scoring=scoring, players=players))
    for i in range(n_deals):
        d = m.new_deal(seed=seed + i)
        stop = None if i < n_deals - 1 else rng.randint(0, 60)  # the last deal may be unfinished
        k = 0
        while not d.over and (stop is None or k < stop):
            d.play(rng.choice(d.legal_actions()))
            k += 1
    rec = record_from_match(m)
    text = write_record(rec)
    again = read_record(text)
    assert again == rec
    assert write_record(again) == text
    result = replay(again)
    for original, replayed in zip(m.deals, result.deals, strict=False):
        assert replayed.deal == original
    if all(d.over for d in m.deals):
        m.settle()
        assert result.totals == m.totals and sum(m.totals) == 0
    else:
        assert result.totals is None


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_copy_is_independent(seed: int) -> None:
    rng = random.Random(seed)
    deal = ConquianDeal(get_rules("conquian"), seed=seed)
    snapshots = []
    while not deal.over:
        snapshots.append((deal.copy(), deal.copy()))
        deal.play(rng.choice(deal.legal_actions()))
    for a, b in snapshots:
        assert a == b  # playing on the original never touched its copies


@pytest.mark.parametrize(("variant", "deals"), [("conquian", 1000), ("conquian-spanish", 300), ("cooncan", 60),
                                               ("cooncan-double", 40)])
def test_a_listed_action_gives_one_state_by_either_path(variant: str, deals: int) -> None:
    """A listed action applied raw (``apply_raw``) and played (``play`` of its notation) gives equal
    deals: one canonical order of a side's combinations (R3.4: a use that borrows re-lays them)."""
    rules = get_rules(variant)
    cls = ConquianDeal if rules.family == "conquian" else CooncanDeal
    checked = 0
    for seed in range(deals):
        rng = random.Random(seed)
        deal = cls(rules, seed=seed, dealer=1 + seed % rules.players)
        while not deal.over and deal.n_actions < 300:
            raw = rng.choice(deal.legal_raw())
            played = deal.copy()
            played.play(str(deal.to_action(raw)))
            deal.apply_raw(*raw)
            assert deal == played, (variant, seed, str(deal.to_action(raw)))
            checked += 1
    assert checked > 2000


def synthetic_say(rules_name: str, rng: random.Random) -> ConquianDeal:
    """A deal put in a say position with a random side, hand and card in play (for R3.4 searches):
    a few combinations of the pack down, hand cards and the card near them, so that borrowing
    and re-laying are often possible."""
    deal = ConquianDeal(get_rules(rules_name), seed=rng.randrange(10**6), dealer=2)
    tbl = deal.tbl
    melds = sorted(tbl.valid)
    side: list[int] = []
    used = 0
    for _ in range(rng.randint(1, 4)):
        m = rng.choice(melds)
        if not m & used:
            side.append(m)
            used |= m
    near = 0  # cards of the same rank or suit as a card down: they can make combinations with it
    for c in range(64):
        if used >> c & 1:
            near |= sum(1 << x for x in range(64) if (x & 15 == c & 15 or x >> 4 == c >> 4))
    near &= tbl.pack_mask & ~used
    pool = [c for c in range(64) if near >> c & 1]
    rng.shuffle(pool)
    card, hand_cards = pool[0], pool[1:1 + rng.randint(0, 6)]
    rest = [c for c in range(64) if tbl.pack_mask >> c & 1 and not (used | near) >> c & 1]
    hand = sum(1 << c for c in hand_cards) | sum(1 << c for c in rng.sample(rest, min(2, len(rest))))
    deal.sides = [tuple(side), ()]
    deal.downs = [used, 0]
    deal.hands = [hand, deal.hands[1] & ~(used | hand | 1 << card)]
    deal.card = card
    deal.actor = 0
    deal.stage = SAY_TURNED
    return deal


def some_legal_use(deal: ConquianDeal) -> Use | None:
    """A legal use of the card in play found by brute force: for every choice of the player's
    combinations to take up, every way to lay them with the card and hand cards (R3.4)."""
    side, hand, card = deal.sides[0], deal.hands[0], deal.card
    valid = sorted(deal.tbl.valid)

    def lay(required: int, avail: int) -> list[int] | None:
        if not required:
            return []
        low = required & -required
        for m in valid:
            if m & low and m & ~avail == 0:
                rest = lay(required & ~m, avail & ~m)
                if rest is not None:
                    return [m, *rest]
        return None

    for k in range(len(side) + 1):
        for taken in itertools.combinations(side, k):
            required = 1 << card
            for m in taken:
                required |= m
            melds = lay(required, required | hand)
            if melds is not None:
                use = Use(deal.seats[0], melds)
                if deal.is_legal(use):
                    return use
    return None


@pytest.mark.parametrize("variant", ["conquian", "conquian-spanish"])
def test_the_listing_holds_a_use_whenever_one_is_legal(variant: str) -> None:
    """docs/records.md: for ``use`` the list holds at least one legal form whenever there is one,
    and none when there is none (R3.4), every listed form legal; checked against a brute-force
    search over random positions where borrowing and re-laying are common."""
    rng = random.Random(7)
    found = 0
    for _ in range(3000):
        deal = synthetic_say(variant, rng)
        listed = [a for a in deal.legal_actions() if isinstance(a, Use)]
        legal_use = some_legal_use(deal)
        assert all(deal.is_legal(a) for a in listed), str(deal)
        assert bool(listed) == (legal_use is not None), (str(deal), str(legal_use))
        found += legal_use is not None
    assert found > 300
