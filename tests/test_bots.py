"""Bots choose only legal actions, see only views, and are deterministic for a seed; tournaments."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from conquian import ConquianDeal, get_rules
from conquian.bots import bot_names, make_bot
from conquian.bots.determinize import determinize
from conquian.engine.cooncan.deal import CooncanDeal
from conquian.engine.match import Deal, new_deal
from conquian.tournament import run_tournament

CONFIGS = [("conquian", 2), ("conquian-spanish", 2), ("conquian", 3), ("cooncan", 3), ("cooncan", 2),
           ("cooncan-double", 5), ("cooncan-double", 4)]
PARAMS = {"expert": {"iterations": 6, "horizon": 30}}


def bot(name: str, seed: int = 0) -> object:
    return make_bot(name, seed=seed, **PARAMS.get(name, {}))


def random_position(variant: str, n: int, seed: int, steps: int) -> Deal:
    rng = random.Random(seed)
    deal = new_deal(get_rules(variant, players=n), seed=seed, dealer=n)
    for _ in range(steps):
        if deal.over:
            break
        deal.apply_raw(*deal.random_raw(rng.random))
    return deal


@pytest.mark.parametrize(("variant", "n"), CONFIGS)
@pytest.mark.parametrize("name", ["random", "foster", "expert"])
def test_bots_only_choose_legal_actions_and_finish_deals(variant: str, n: int, name: str) -> None:
    for seed in range(2 if name == "expert" else 4):
        deal = new_deal(get_rules(variant, players=n), seed=seed, dealer=n)
        players = [make_bot(name if s == 0 else "foster", seed=seed + s, **PARAMS.get(name if s == 0 else "", {}))
                   for s in range(n)]
        steps = 0
        while not deal.over and steps < (60 if name == "expert" else 5000):
            seat = deal.to_act
            assert seat is not None
            action = players[seat - 1].choose(deal.view(seat))
            assert deal.is_legal(action), (name, str(action))
            deal.play(action)
            steps += 1


def test_a_bot_cannot_be_handed_a_deal() -> None:
    for name in bot_names():
        for deal in (ConquianDeal(get_rules("conquian"), seed=1, dealer=2),
                     CooncanDeal(get_rules("cooncan"), seed=1, dealer=3)):
            with pytest.raises(TypeError, match="never .*Deal"):
                make_bot(name).choose(deal)  # type: ignore[arg-type]
            with pytest.raises(ValueError, match="not the seat to act"):
                make_bot(name).choose(deal.view(2))


def test_unknown_bot_name() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("deep-blue")


@pytest.mark.parametrize(("variant", "n"), [("conquian", 2), ("cooncan", 3), ("cooncan-double", 5)])
def test_expert_is_deterministic_for_a_seed(variant: str, n: int) -> None:
    for seed in range(4):
        deal = random_position(variant, n, seed, 9 + seed)
        if deal.over:
            continue
        seat = deal.to_act
        assert seat is not None
        v = deal.view(seat)
        a = make_bot("expert", seed=11, iterations=12, horizon=30).choose(v)
        b = make_bot("expert", seed=11, iterations=12, horizon=30).choose(v)
        assert a == b


@pytest.mark.parametrize(("variant", "n"), [("conquian", 2), ("cooncan", 3), ("cooncan", 3), ("cooncan-double", 5)])
def test_redeals_agree_with_the_view(variant: str, n: int) -> None:
    rng = random.Random(5)
    for seed in range(25):
        deal = random_position(variant, n, seed, rng.randint(0, 250))
        if deal.over:
            continue
        seat = deal.to_act
        assert seat is not None
        v = deal.view(seat)
        r = determinize(v, random.Random(seed))
        w = r.view(seat)
        if isinstance(deal, ConquianDeal):
            assert isinstance(r, ConquianDeal)
            assert (w.hand_mask, w.side_masks, w.card, w.stage, w.actor_seat, w.pack_count,
                    w.adversary_hand_count, w.buried_mask) == (
                    v.hand_mask, v.side_masks, v.card, v.stage, v.actor_seat, v.pack_count,
                    v.adversary_hand_count, v.buried_mask)
            assert sorted(r.deck[r.pos:]) == sorted(set(r.deck[r.pos:]))
        else:
            assert isinstance(r, CooncanDeal) and isinstance(deal, CooncanDeal)
            assert (w.hand, w.combos, w.stock, w.hand_counts, w.pack_count, w.stage, w.actor_seat) == (
                v.hand, v.combos, v.stock, v.hand_counts, v.pack_count, v.stage, v.actor_seat)
            # every card is somewhere, as often as the pack has it
            from collections import Counter

            from conquian.engine.deck import pack_order

            total: Counter[int] = Counter()
            for s in range(1, n + 1):
                total.update(r.hand(s))
            for cb in r.combos:
                total.update(cb.cells)
            total.update(r.stock)
            total.update(r.pack[r.pos:])
            assert total == Counter(pack_order(deal.rules))
            if deal.pack_turns:
                # after the stock was turned over, the pack's order is public: the re-deal keeps it
                assert r.pack == deal.pack[deal.pos:]
        # playing on from a re-deal works (the expert's playouts)
        while not r.over:
            r.apply_raw(*r.random_raw(rng.random))


def _conquian_position_with_refusals(min_share: float) -> tuple[ConquianDeal, list[int], float]:
    """A conquian position between two fosters where uniformly re-dealt adversary hands often
    make a three with a card the adversary passed (the test needs something to weigh)."""
    from conquian.bots.determinize import _makes_three
    from conquian.engine.cards import cards_of

    for seed in range(200):
        deal = ConquianDeal(get_rules("conquian"), seed=seed, dealer=2)
        fosters = {s: make_bot("foster", seed=s) for s in (1, 2)}
        for _ in range(24):
            if deal.over:
                break
            seat = deal.to_act
            assert seat is not None
            deal.play(fosters[seat].choose(deal.view(seat)))
        if deal.over:
            continue
        seat = deal.to_act
        assert seat is not None
        v = deal.view(seat)
        refused = [e.card for e in v.events if e.kind == "pass" and e.seat == v.adversary and e.card is not None]
        unseen = cards_of(v.unseen_mask())
        rng = random.Random(seed)
        hits = 0
        for _ in range(400):
            rng.shuffle(unseen)
            hand = sum(1 << c for c in unseen[:v.adversary_hand_count])
            hits += any(_makes_three(deal.tbl, hand, c) for c in refused)
        if hits / 400 >= min_share:
            return deal, refused, hits / 400
    raise AssertionError("no position found")


def test_redeals_weigh_the_adversarys_refusals() -> None:
    """A hand with which the adversary could have combined a card he passed is re-dealt far less
    often than chance deals it (a player takes what he can use: Foster)."""
    from conquian.bots.determinize import _makes_three

    deal, refused, uniform = _conquian_position_with_refusals(0.3)
    seat = deal.to_act
    assert seat is not None
    v = deal.view(seat)
    p = deal.player_of(v.adversary)
    hits = 0
    for k in range(400):
        r = determinize(v, random.Random(k))
        assert isinstance(r, ConquianDeal)
        hits += any(_makes_three(deal.tbl, r.hands[p], c) for c in refused)
    assert hits / 400 < uniform / 2, (hits / 400, uniform)


def test_sequential_halving_gives_the_close_candidates_the_playouts() -> None:
    """In conquian the search drops the worse half of its candidates round after round: the
    survivors have more playouts than the dropped, and the budget is kept."""
    from conquian.bots.expert import ExpertBot

    for seed in range(40):
        deal = random_position("conquian", 2, seed, 7 + seed % 9)
        if deal.over:
            continue
        seat = deal.to_act
        assert seat is not None
        v = deal.view(seat)
        legal = v.legal_raw()
        if len(legal) < 5:
            continue
        bot = ExpertBot(seed=1, horizon=30)
        values: list[list[float]] = [[] for _ in legal]
        alive = bot._halve(v, random.Random(1), legal, 120, values, None)
        counts = [len(x) for x in values]
        assert 2 <= len(alive) < len(legal)
        assert min(counts[i] for i in alive) > max(c for i, c in enumerate(counts) if i not in alive)
        assert sum(counts) <= 120 + 2 * len(legal)
        # a passed deadline stops the search after one re-deal, every candidate played once
        values = [[] for _ in legal]
        assert len(bot._halve(v, random.Random(1), legal, 120, values, deadline=0.0)) == len(legal)
        assert [len(x) for x in values] == [1] * len(legal)
        return
    raise AssertionError("no position with five candidates")


def test_tournament_rotates_seats_and_is_reproducible() -> None:
    rules = get_rules("cooncan", players=3)
    a = run_tournament(rules, ["foster", "random", "random"], deals=3, seed=4, workers=1)
    b = run_tournament(rules, ["foster", "random", "random"], deals=3, seed=4, workers=2)
    assert [r.to_json() | {"seconds_per_decision": 0, "p95_seconds_per_decision": 0} for r in a.results] == [
        r.to_json() | {"seconds_per_decision": 0, "p95_seconds_per_decision": 0} for r in b.results]
    foster = a.results[0]
    assert foster.deals == 9 and a.games == 9  # three decks, three rotations
    assert a.results[1].deals == 18
    assert sum(sum(r.scores) for r in a.results) == 0


def test_tournament_cli_json() -> None:
    p = subprocess.run([sys.executable, "-m", "conquian", "tournament", "--variant", "conquian", "--bots",
                        "foster,random", "--deals", "5", "--seed", "2", "--workers", "1", "--json"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    keys = {"bot", "deals", "wins", "losses", "tableaux", "points_per_deal", "points_ci95", "win_rate",
            "win_rate_ci95", "seconds_per_decision", "p95_seconds_per_decision"}
    assert [r["bot"] for r in out["results"]] == ["foster", "random"]
    for r in out["results"]:
        assert keys <= set(r) and r["deals"] == 10 and len(r["points_ci95"]) == 2
    bad = subprocess.run([sys.executable, "-m", "conquian", "tournament", "--bots", "foster,nobody"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "unknown bot" in bad.stderr and "Traceback" not in bad.stderr
    few = subprocess.run([sys.executable, "-m", "conquian", "tournament", "--variant", "conquian", "--bots",
                          "foster"], capture_output=True, text=True, timeout=60)
    assert few.returncode == 2 and "one bot per seat" in few.stderr


def test_tournament_slots_and_outcomes() -> None:
    rules = get_rules("cooncan", players=3)
    res = run_tournament(rules, ["foster", "foster", "random"], deals=2, seed=6, workers=1)
    assert [s.bot for s in res.slots] == ["foster", "foster", "random"]
    assert [s.deals for s in res.slots] == [6, 6, 6] and len(res.outcomes) == 6
    foster = res.results[0]
    assert foster.deals == res.slots[0].deals + res.slots[1].deals
    assert sorted(foster.scores) == sorted(res.slots[0].scores + res.slots[1].scores)
    assert "slots" in res.to_json()
