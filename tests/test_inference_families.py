"""Reading the adversaries' hands in the conquián mexicano (R8) and in Cooncan
(``conquian.bots.inference_families``): the mexicano's records rebuild what each adversary saw
exactly, the readings keep every constraint of the view (the card the seat gave, R8.2; the cards
taken from the stock, R4.2-R4.3), read nothing hidden, are reproducible, and inform."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from conquian import get_rules
from conquian.bots import make_bot
from conquian.bots.determinize import RedealPool, _CooncanSeen, determinize, reading_pool
from conquian.bots.expert import ExpertBot, adversary_pool
from conquian.bots.inference_families import (
    CooncanReading,
    MexicanoReading,
    cooncan_likelihood,
)
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.conquian.mexicano_view import MexicanoView
from conquian.engine.cooncan.deal import CooncanDeal
from conquian.engine.cooncan.view import CooncanView
from conquian.engine.deck import pack_order
from conquian.engine.history import folded
from conquian.engine.match import Deal, new_deal

#: the tables read: the mexicano with two and three players, Cooncan with three and five hands
MEXICANO = [2, 3]
COONCAN = [("cooncan", 3), ("cooncan-double", 5)]


def foster_points(variant: str, players: int, seeds: range, every: int = 1, **options: Any) -> list[Deal]:
    """Deals of ``foster`` in every seat: for each seed, a copy of the deal before every ``every``-th
    decision with a choice."""
    out: list[Deal] = []
    bot = make_bot("foster")
    for seed in seeds:
        deal = new_deal(get_rules(variant, players=players, **options), seed=seed, dealer=1 + seed % players)
        k = 0
        while not deal.over:
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            if len(view.legal_raw()) > 1:
                if k % every == 0:
                    out.append(deal.copy())
                k += 1
            deal.play(bot.choose(view))
    return out


@pytest.mark.parametrize(("players", "hand"), [(2, 8), (3, 8), (2, 9)])
def test_a_foster_adversarys_own_hand_explains_every_mexicano_choice(players: int, hand: int) -> None:
    """Against ``foster``, the hands and gives really dealt make every choice of every adversary since
    the exchange his policy's (R8.2-R8.4: a hand only shrinks after the exchange; the say goes round
    the table; nine cards too, going out with ten down, R8.5): the records rebuild what each saw,
    whatever he did: pass, use, discard, force."""
    kinds: set[int] = set()
    checked = 0
    for deal in foster_points("conquian-mexicano", players, range(10), hand=hand):
        assert isinstance(deal, MexicanoDeal)
        seat = deal.to_act
        assert seat is not None
        reading = MexicanoReading(deal.view(seat))
        assert reading.weight(deal.hands, deal.gives) == 1.0
        for q in range(players):
            if q != reading.me:
                kinds.update(r[9] for r in reading.records[q])
                checked += len(reading.records[q])
    assert {0, 1, 3} <= kinds and checked > 300


def _twin(deal: Deal, seat: int, k: int) -> Deal:
    """The deal with the cards ``seat`` has not seen dealt again at random, the public history kept."""
    other: Any = determinize(deal.view(seat), random.Random(k))
    other.events, other.n_events = deal.events, deal.n_events
    if isinstance(deal, CooncanDeal):
        other.drawn = list(deal.drawn)  # each seat's own draws: the view shows it its own only
    assert other.view(seat) == deal.view(seat)
    return other  # type: ignore[no-any-return]


def _hidden(deal: Deal) -> Any:
    """The cards of a deal no seat's view shows: every hand and the pack."""
    if isinstance(deal, MexicanoDeal):
        return deal.hands, deal.deck[deal.pos:]
    assert isinstance(deal, CooncanDeal)
    return [deal.hand(s) for s in range(1, deal.n + 1)], deal.pack[deal.pos:]


@pytest.mark.parametrize(("variant", "players"), [("conquian-mexicano", 2), ("conquian-mexicano", 3), *COONCAN])
def test_the_readings_read_nothing_hidden(variant: str, players: int) -> None:
    """A twin table: the cards the seat has not seen (the adversaries' hands, the pack) dealt again
    under the same public history leave the reading's inputs, its re-deals and the search's decision
    as they were."""
    checked = changed = 0
    cooncan = variant.startswith("cooncan")
    points = foster_points(variant, players, range(2), every=7 if cooncan else 3)
    for deal in points[1::2][:4]:
        seat = deal.to_act
        assert seat is not None
        view = deal.view(seat)
        reading = adversary_pool(view, random.Random(0), "policy", 96)
        mine = determinize(view, random.Random(5), reading)
        bot = ExpertBot(seed=3, iterations=16, inference="policy")
        choice = bot.choose(view)
        for k in range(2):
            other = _twin(deal, seat, k)
            twin_view = other.view(seat)
            changed += _hidden(other) != _hidden(deal)
            theirs_reading = adversary_pool(twin_view, random.Random(0), "policy", 96)
            assert isinstance(reading, RedealPool) and isinstance(theirs_reading, RedealPool)
            assert (theirs_reading.entries, theirs_reading.cum) == (reading.entries, reading.cum)
            if isinstance(view, CooncanView) and isinstance(twin_view, CooncanView):
                assert CooncanReading(twin_view).steps == CooncanReading(view).steps
            else:
                assert isinstance(view, MexicanoView) and isinstance(twin_view, MexicanoView)
                assert MexicanoReading(twin_view).records == MexicanoReading(view).records
            theirs = determinize(twin_view, random.Random(5), theirs_reading)
            if isinstance(mine, MexicanoDeal):
                assert isinstance(theirs, MexicanoDeal)
                assert (theirs.hands, theirs.gives, theirs.deck) == (mine.hands, mine.gives, mine.deck)
            else:
                assert isinstance(mine, CooncanDeal) and isinstance(theirs, CooncanDeal)
                assert [theirs.hand(s) for s in range(1, players + 1)] == [mine.hand(s) for s in range(1, players + 1)]
                assert theirs.pack == mine.pack
            assert ExpertBot(seed=3, iterations=16, inference="policy").choose(twin_view) == choice
            checked += 1
    assert checked >= 6 and changed >= checked - 2


@pytest.mark.parametrize("players", MEXICANO)
def test_the_mexicano_reading_keeps_the_card_the_seat_gave_with_the_player_who_got_it(players: int) -> None:
    """R8.2: the card the seat gave is in every re-dealt hand of the next player until he shows it;
    every hand has its count, and the re-deal is the view's (legal and reproducible)."""
    checked = 0
    for deal in foster_points("conquian-mexicano", players, range(4), every=4):
        assert isinstance(deal, MexicanoDeal)
        seat = deal.to_act
        assert seat is not None
        view = deal.view(seat)
        reading = reading_pool(view, random.Random(0), 40)
        me = view.player
        for k in range(5):
            d = determinize(view, random.Random(k), reading)
            assert d.hands[me] == deal.hands[me]
            assert [h.bit_count() for h in d.hands] == [h.bit_count() for h in deal.hands]
            assert d.hands == determinize(view, random.Random(k), reading).hands
            gave = view.gave_card
            if gave >= 0 and deal.hands[(me + 1) % players] >> gave & 1:
                assert d.hands[(me + 1) % players] >> gave & 1
                checked += 1
            bot = make_bot("foster")
            assert d.verify(bot.choose(d.view(seat)))
    assert checked > 10


@pytest.mark.parametrize(("variant", "players"), COONCAN)
def test_a_card_taken_from_the_stock_and_still_held_is_always_in_the_drawn_hand(variant: str, players: int) -> None:
    """R4.2-R4.3: a card an adversary took from the stock and has not shown is in every hand the
    reading draws for him; every hand has its count, and the re-deal holds the pack's cards exactly
    (the double pack's copies and jokers counted)."""
    checked = 0
    for deal in foster_points(variant, players, range(3), every=3):
        assert isinstance(deal, CooncanDeal)
        seat = deal.to_act
        assert seat is not None
        view = deal.view(seat)
        seen = folded(("determinize cooncan", players), view.event_node, lambda: _CooncanSeen(players),
                      _CooncanSeen.step, _CooncanSeen.copy)
        reading = reading_pool(view, random.Random(0), 40)
        for k in range(3):
            d = determinize(view, random.Random(k), reading)
            assert isinstance(d, CooncanDeal)
            cards: Counter[int] = Counter(d.pack[d.pos:])
            for s in range(1, players + 1):
                hand = Counter(d.hand(s))
                assert sum(hand.values()) == deal.hand_size(s)
                cards.update(hand)
                if s != seat:
                    must = Counter(seen.known[s])
                    assert not must - hand
                    checked += sum(must.values())
            cards.update(view.stock)
            for cb in view.combos:
                cards.update(cb.cells)
            assert cards == Counter(pack_order(view.rules))
    assert checked > 20


@pytest.mark.parametrize(("variant", "players"), COONCAN)
def test_a_foster_adversarys_real_hand_is_likelier_than_one_at_random(variant: str, players: int) -> None:
    """The Cooncan reading (``foster``'s discards and draws, the unseen draws' cards drawn at random)
    weighs the hand a ``foster`` adversary really holds above hands drawn at random for him, on
    the mean of the log weights."""
    import math

    real = drawn = 0.0
    n = 0
    for deal in foster_points(variant, players, range(3), every=2):
        assert isinstance(deal, CooncanDeal)
        seat = deal.to_act
        assert seat is not None
        view = deal.view(seat)
        reading = CooncanReading(view)
        rng = random.Random(n)
        for s in range(1, players + 1):
            if s == seat or not reading.steps[s - 1]:
                continue
            real += math.log(cooncan_likelihood(reading.steps[s - 1], deal.hand(s), reading.double, rng))
            other = determinize(view, rng)
            assert isinstance(other, CooncanDeal)
            drawn += math.log(cooncan_likelihood(reading.steps[s - 1], other.hand(s), reading.double, rng))
            n += 1
    assert n > 20 and real / n > drawn / n + 0.3


def test_the_search_reads_the_mexicano_and_cooncan_with_policy_only() -> None:
    """``inference="policy"`` gives the search the family's reading; ``choices`` (the default), the
    apprentice and the mixture keep the uniform re-deal there.  Its decisions are legal and the same
    for the same seed."""
    for variant, players in (("conquian-mexicano", 3), ("cooncan", 3)):
        deal = foster_points(variant, players, range(1), every=2)[1]
        seat = deal.to_act
        assert seat is not None
        view = deal.view(seat)
        for inference in ("choices", "apprentice", "policy", "mixture"):
            pool = adversary_pool(view, random.Random(0), inference, 96)
            assert (pool is not None) == (inference == "policy")
        a = ExpertBot(seed=2, iterations=16, inference="policy").choose(view)
        assert deal.verify(a)
        assert ExpertBot(seed=2, iterations=16, inference="policy").choose(view) == a


def test_the_reading_benchmark_measures_the_mexicano_and_cooncan(capsys: pytest.CaptureFixture[str]) -> None:
    """``benchmarks.bench_inference --family`` (a smoke run): the share of the real cards before and
    after the reading, and its log ratio, at every decision of the reading seat."""
    import json

    from benchmarks.bench_inference import main

    for family in ("mexicano", "cooncan"):
        assert main(["--family", family, "--adversary", "foster", "--deals", "1", "--pool", "6"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["family"] == family and out["decisions"] > 2
        for key in ("share of his real cards, uniform re-deal (before)",
                    "share of his real cards, the reading (after)"):
            assert 0.0 < out[key] <= 1.0
        assert out["log ratio of the reading (the uniform re-deal's: 0)"] >= 0.0
    with pytest.raises(SystemExit):
        main(["--family", "cooncan", "--players", "4"])
