"""Reading the adversary's hand from his choices (``conquian.bots.inference``): the records rebuild
what he saw at each decision exactly, nothing hidden is read, and the reading informs."""

from __future__ import annotations

import math
import random

import pytest

from conquian import ConquianDeal, get_rules
from conquian.bots import make_bot
from conquian.bots.determinize import determinize
from conquian.bots.inference import SLIP, AdversaryReads, likelihood, posterior
from conquian.engine.cards import cards_of
from conquian.engine.history import folded

#: the conquian presets (two hands; three at the table, the dealer sitting out)
CONQUIAN = [("conquian", 2), ("conquian", 3), ("conquian-spanish", 2)]


def foster_deals(variant: str, n: int, seeds: range) -> list[list[ConquianDeal]]:
    """Deals of ``foster`` against ``foster``: for each seed, the deal before every decision with a
    choice (copies)."""
    out = []
    for seed in seeds:
        deal = ConquianDeal(get_rules(variant, players=n), seed=seed, dealer=1 + seed % n)
        bot = make_bot("foster")
        points = []
        while not deal.over:
            if len(deal.legal_raw()) > 1:
                points.append(deal.copy())
            seat = deal.to_act
            assert seat is not None
            deal.play(bot.choose(deal.view(seat)))
        out.append(points)
    return out


def reads_of(deal: ConquianDeal) -> AdversaryReads:
    seat = deal.to_act
    assert seat is not None
    return folded("test inference", deal.view(seat).event_node, AdversaryReads, AdversaryReads.step,
                  AdversaryReads.copy)


@pytest.mark.parametrize(("variant", "n"), CONQUIAN)
def test_a_foster_adversarys_own_hand_explains_every_choice(variant: str, n: int) -> None:
    """Against ``foster``, the hand he really holds makes every one of his past choices his policy's:
    the records rebuild exactly what he saw at each (his hand then: his hand now and the cards he
    showed since, as in R3.4-R3.6 a card taken is laid at once; the table, the card in play, the
    pack and the other's count), whatever he did: pass (R3.3), use (R3.4), discard (R3.5), force
    (R3.6)."""
    kinds: set[int] = set()
    checked = 0
    for points in foster_deals(variant, n, range(12)):
        for deal in points:
            adv = 1 - deal.actor
            records = reads_of(deal).records[adv]
            assert likelihood(deal.tbl, records, deal.hands[adv]) == 1.0
            kinds.update(r[9] for r in records)
            checked += len(records)
    assert kinds == {0, 1, 2, 3} and checked > 500


def test_another_hand_is_doubted_by_the_slip_for_each_choice_it_does_not_explain() -> None:
    """A hand foster would have played otherwise is weighed ``SLIP`` per choice it does not explain;
    the product stops at the floor."""
    doubted = 0
    for points in foster_deals("conquian", 2, range(6)):
        for deal in points:
            adv = 1 - deal.actor
            records = reads_of(deal).records[adv]
            rng = random.Random(len(records))
            unseen = cards_of(deal.view(deal.seats[deal.actor]).unseen_mask())
            rng.shuffle(unseen)
            hand = sum(1 << c for c in unseen[: deal.hands[adv].bit_count()])
            w = likelihood(deal.tbl, records, hand)
            misses = round(math.log(w) / math.log(SLIP)) if w < 1.0 else 0
            assert w == pytest.approx(SLIP ** misses)
            if misses >= 2:
                assert likelihood(deal.tbl, records, hand, floor=SLIP) == pytest.approx(SLIP)
                doubted += 1
    assert doubted > 10


@pytest.mark.parametrize(("variant", "n"), CONQUIAN)
def test_the_reading_reads_nothing_hidden(variant: str, n: int) -> None:
    """Re-dealing the cards the seat has not seen under the same public history leaves the weighed
    hands as they were: they come from the seat's view only."""
    checked = 0
    for points in foster_deals(variant, n, range(4)):
        for deal in points[::3]:
            seat = deal.seats[deal.actor]
            mine = posterior(deal.view(seat), random.Random(1), size=40)
            for k in range(2):
                other = determinize(deal.view(seat), random.Random(k))
                assert isinstance(other, ConquianDeal)
                other.events, other.n_events = deal.events, deal.n_events
                theirs = posterior(other.view(seat), random.Random(1), size=40)
                assert (theirs.hands, theirs.cum) == (mine.hands, mine.cum)
                checked += 1
    assert checked > 20


def test_the_reading_finds_more_of_a_foster_adversarys_hand_than_chance() -> None:
    """Hands drawn by weight share more cards with the adversary's real hand than hands drawn at
    random among those his count allows (about half, against under a third, with ``foster``)."""
    weighed = uniform = 0.0
    n = 0
    for points in foster_deals("conquian", 2, range(10)):
        for deal in points:
            adv = 1 - deal.actor
            true, k = deal.hands[adv], deal.hands[adv].bit_count()
            if not k:
                continue
            pool = posterior(deal.view(deal.seats[deal.actor]), random.Random(n), size=100)
            total = pool.cum[-1]
            weights = [b - a for a, b in zip([0.0, *pool.cum], pool.cum, strict=False)]
            weighed += sum(w * (h & true).bit_count() for w, h in zip(weights, pool.hands, strict=True)) / total / k
            uniform += sum((h & true).bit_count() for h in pool.hands) / len(pool.hands) / k
            n += 1
    assert weighed / n > uniform / n + 0.1


def test_drawn_hands_follow_the_weights() -> None:
    """:meth:`HandPosterior.draw` never draws a hand of weight zero, and draws by weight."""
    from conquian.bots.inference import HandPosterior

    pool = HandPosterior([1, 2, 4], [0.0, 1.0, 3.0])
    rng = random.Random(5)
    draws = [pool.draw(rng) for _ in range(4000)]
    assert 1 not in draws and 0.7 < draws.count(4) / len(draws) < 0.8


def test_the_search_takes_each_reading_and_refuses_another() -> None:
    """``inference``: ``choices`` (the passed and discarded cards only), ``apprentice`` or ``policy``
    (a model of his play), ``mixture`` (models weighed by how well they predict him), ``safe`` (the
    default: the mixture guarded); only these.  With a model, the search draws the adversary's
    hands from a pool of them; without, from none."""
    from conquian.bots.apprentice import ExitBot
    from conquian.bots.expert import ExpertBot, MasterBot

    assert MasterBot().inference == ExitBot().inference == ExpertBot.INFERENCE == "safe"
    deal = foster_deals("conquian", 2, range(3, 4))[0][4]
    for inference in ("choices", "apprentice", "policy", "mixture", "safe"):
        bot = ExpertBot(seed=1, iterations=30, inference=inference)
        seat = deal.seats[deal.actor]
        assert deal.verify(bot.choose(deal.view(seat)))
        assert (bot._pool is None) == (inference == "choices")
    with pytest.raises(ValueError, match="inference"):
        make_bot("master", inference="psychic")


def test_the_reading_benchmark_runs_and_scores_the_models(capsys: pytest.CaptureFixture[str]) -> None:
    """``benchmarks.bench_inference`` (a smoke run): every model scored at every decision; against
    ``foster`` his own policy never doubts his real hand (its log ratio is not below zero)."""
    import json

    from benchmarks.bench_inference import main

    assert main(["--adversary", "foster", "--deals", "2", "--pool", "8"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["adversary"] == "foster" and out["decisions"] > 5
    from benchmarks.bench_inference import SAFE_VARIANTS, safe_name

    assert set(out["models"]) == {"choices (passed and discarded cards)", "foster, slip 0.01", "foster, slip 0.05",
                                  "foster, slip 0.15", "apprentice",
                                  "apprentice, mixed", "mixture (foster, apprentice, loose, other)",
                                  *(safe_name(a, b) for a, b in SAFE_VARIANTS)}
    sizes = out["effective sample size over the pool (mean, tenth percentile)"]
    assert set(sizes) == {"mixture (foster, apprentice, loose, other)", *(safe_name(a, b) for a, b in SAFE_VARIANTS)}
    for (least, _defensive), name in zip(SAFE_VARIANTS, (safe_name(a, b) for a, b in SAFE_VARIANTS), strict=True):
        # tempering holds the pool's effective size at its share at least (the defensive share adds to it)
        assert sizes[name][1] >= least - 1e-3 and 0.0 < sizes[name][0] <= 1.0
    posterior = out["mixture's posterior of the models (mean over the decisions)"]
    assert set(posterior) == {"foster", "apprentice", "loose", "other"}
    assert sum(posterior.values()) == pytest.approx(1.0, abs=0.01)
    assert all(m["log ratio"] >= 0.0 for name, m in out["models"].items() if name.startswith("foster"))


def test_the_search_reads_a_mixture_of_the_apprentice_and_choices_at_random() -> None:
    """``apprentice_likelihood`` with a mixture sums, over its pairs (e, prior), prior times the
    product over the decisions of more than one listed action of (1 - e) times the apprentice's
    probability plus e over their number; e = 1 is a player at random."""
    from conquian.bots.inference import apprentice_likelihood
    from conquian.bots.weights import shipped_weights
    from conquian.engine.conquian.listing import legal_raw

    weights = shipped_weights()
    checked = 0
    for points in foster_deals("conquian", 2, range(3)):
        for deal in points[::2]:
            adv = 1 - deal.actor
            records = reads_of(deal).records[adv]
            hand = deal.hands[adv]
            model = apprentice_likelihood(deal.tbl, records, hand, weights)
            at_random = apprentice_likelihood(deal.tbl, records, hand, weights, ((1.0, 1.0),))
            mixed = apprentice_likelihood(deal.tbl, records, hand, weights, ((0.0, 0.75), (1.0, 0.25)))
            expected = 1.0
            shown = 0
            for stage, card, side, down, oside, _od, _oc, _pk, _seen, _kind, _arg, left in reversed(records):
                shown |= left
                n = len(legal_raw(deal.tbl, stage, card, hand | shown, side, down, oside))
                if n > 1:
                    expected /= n
            assert at_random == pytest.approx(expected)
            assert mixed == pytest.approx(0.75 * model + 0.25 * at_random)
            assert 0.0 < model <= 1.0
            checked += 1
    assert checked > 20


def _adversary_deal(adversary: str, seed: int) -> list[ConquianDeal]:
    """A deal of ``foster`` (seat of the first player) against ``adversary``: the deal before each of
    foster's decisions with a choice, late enough that the adversary has chosen (copies)."""
    deal = ConquianDeal(get_rules("conquian"), seed=seed, dealer=2)
    reader = deal.seats[0]
    bots = {s: make_bot("foster" if s == reader else adversary, seed=seed) for s in deal.seats}
    points = []
    while not deal.over:
        seat = deal.to_act
        assert seat is not None
        if seat == reader and len(deal.legal_raw()) > 1 and len(reads_of(deal).records[1]) >= 4:
            points.append(deal.copy())
        deal.play(bots[seat].choose(deal.view(seat)))
    return points


def test_the_mixture_reads_nothing_hidden() -> None:
    """The mixture's hands, their weights and its posterior of the models come from the seat's view
    only: re-dealing the cards the seat has not seen (the adversary's hand and the pack) under the
    same public history changes none of them."""
    from conquian.bots.inference import mixture_posterior
    from conquian.bots.weights import shipped_weights

    weights = shipped_weights()
    checked = changed = 0
    for seed in range(2):
        for deal in foster_deals("conquian", 2, range(seed, seed + 1))[0][2::4]:
            seat = deal.seats[deal.actor]
            mine = mixture_posterior(deal.view(seat), random.Random(1), weights, size=30)
            for k in range(2):
                other = determinize(deal.view(seat), random.Random(k))
                assert isinstance(other, ConquianDeal)
                changed += other.hands[1 - deal.actor] != deal.hands[1 - deal.actor]
                other.events, other.n_events = deal.events, deal.n_events
                theirs = mixture_posterior(other.view(seat), random.Random(1), weights, size=30)
                assert (theirs.hands, theirs.cum, theirs.models) == (mine.hands, mine.cum, mine.models)
                checked += 1
    assert checked >= 6 and changed >= checked - 2


def test_the_mixture_weighs_the_models_by_his_choices_and_the_hands_by_the_mixture() -> None:
    """Each model's posterior is its prior times the pool's mean likelihood of his choices under it,
    normalised; a hand's weight is the sum over the models of prior times its likelihood, the
    player no model fits reading it as ``choices`` does (scaled to his choices' mean probability
    at random), so that with all the prior on him the reading is ``choices``' exactly."""
    from conquian.bots.inference import PRIOR, Mixture, model_likelihoods, records_choices_weight
    from conquian.bots.weights import shipped_weights

    weights = shipped_weights()
    deal = _adversary_deal("foster", 5)[-1]
    adv = 1 - deal.actor
    records = reads_of(deal).records[adv]
    unseen = cards_of(deal.view(deal.seats[deal.actor]).unseen_mask())
    rng = random.Random(3)
    hands = []
    for _ in range(25):
        rng.shuffle(unseen)
        hands.append(sum(1 << c for c in unseen[: deal.hands[adv].bit_count()]))
    liks = [model_likelihoods(deal.tbl, records, h, weights) for h in hands]
    olds = [records_choices_weight(deal.tbl, records, h) for h in hands]
    mix = Mixture(liks, olds)
    ev = [sum(x[m] for x in liks) / len(liks) for m in range(4)]
    joint = [PRIOR[m] * ev[m] for m in range(4)]
    assert mix.posterior == pytest.approx([j / sum(joint) for j in joint])
    scale = ev[3] / (sum(olds) / len(olds))
    for x, c in zip(liks, olds, strict=True):
        assert all(0.0 < p <= 1.0 for p in x)
        assert mix.weight(x, c) == pytest.approx(sum(PRIOR[m] * x[m] for m in range(3)) + PRIOR[3] * scale * c)
    only_other = Mixture(liks, olds, (0.0, 0.0, 0.0, 1.0))
    ratios = {round(only_other.weight(x, c) / c, 12) for x, c in zip(liks, olds, strict=True)}
    assert len(ratios) == 1


def test_the_mixture_trusts_the_model_that_predicts_the_adversary() -> None:
    """Against ``foster`` the posterior goes to ``foster``'s model and the hands it draws share more of
    his real hand's cards than hands at random; against a player at random, ``foster``'s model is
    dropped and the reading falls back on the other models (most of all the player no model fits)."""
    from conquian.bots.inference import mixture_posterior
    from conquian.bots.weights import shipped_weights

    weights = shipped_weights()
    read = at_random = 0.0
    trusted = 0
    for seed in (2, 3, 4):
        points = _adversary_deal("foster", seed)
        for deal in points[-3:]:
            pool = mixture_posterior(deal.view(deal.seats[deal.actor]), random.Random(0), weights, size=40)
            assert pool.models is not None
            true = deal.hands[1 - deal.actor]
            w = [b - a for a, b in zip([0.0, *pool.cum], pool.cum, strict=False)]
            read += sum(x * (h & true).bit_count() for x, h in zip(w, pool.hands, strict=True)) / pool.cum[-1]
            at_random += sum((h & true).bit_count() for h in pool.hands) / len(pool.hands)
        trusted += pool.models[0] > 0.5
    assert trusted >= 2 and read > at_random
    dropped = 0
    for seed in (1, 2, 3):
        late = _adversary_deal("random", seed)[-1]
        pool = mixture_posterior(late.view(late.seats[late.actor]), random.Random(0), weights, size=40)
        assert pool.models is not None
        dropped += pool.models[0] < 0.05 and pool.models[3] > pool.models[0]
    assert dropped >= 2


def test_the_mixture_carries_what_a_deal_taught_to_the_next_against_the_same_adversary() -> None:
    """With ``mixture`` the same bot, deal after deal against one adversary's seat (as a match keeps
    its bots), starts the next deal from the last deal's posterior of the models mixed with the
    base prior: against ``foster``, his model starts the second deal above its base prior."""
    from conquian.bots.expert import CARRY_BASE, ExpertBot
    from conquian.bots.inference import PRIOR

    rules = get_rules("conquian")
    bot = ExpertBot(seed=1, iterations=8, inference="mixture")
    other = make_bot("foster")
    for k in range(2):
        deal = ConquianDeal(rules, seed=40 + k, dealer=2)
        mine = deal.seats[0]
        while not deal.over:
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            deal.play(bot.choose(view) if seat == mine else other.choose(view))
            if k == 1 and bot.priors:
                break
        if k == 0:
            assert not bot.priors  # the first deal reads from the base prior
    prior = bot.priors[deal.seats[1]]
    assert sum(prior) == pytest.approx(1.0)
    assert all(p >= CARRY_BASE * b - 1e-12 for p, b in zip(prior, PRIOR, strict=True))
    assert prior[0] > PRIOR[0]


def test_the_effective_size_counts_how_many_hands_carry_the_weight() -> None:
    """Kish's effective sample size: the number of hands when they weigh alike, 1 when one weighs
    all, 0 when none weighs."""
    from conquian.bots.inference import effective_size

    assert effective_size([2.0] * 8) == pytest.approx(8.0)
    assert effective_size([0.0, 5.0, 0.0]) == pytest.approx(1.0)
    assert effective_size([1.0, 1.0, 0.0, 0.0]) == pytest.approx(2.0)
    assert effective_size([0.0, 0.0]) == 0.0 and effective_size([]) == 0.0


def test_tempering_spreads_the_weights_to_the_least_effective_size_keeping_their_order() -> None:
    """``tempered``: the greatest power of the weights whose effective size reaches the share asked;
    the order of the hands is kept, a weight of zero stays zero, and weights that already reach it
    (or a share of 0) are left as they are."""
    from conquian.bots.inference import effective_size, tempered

    weights = [1e-12, 3e-9, 0.5, 1e-4, 0.0, 2e-6, 1e-30, 0.02]
    assert effective_size(weights) < 2
    for least in (0.2, 0.4, 0.6):
        flat, power = tempered(weights, least)
        assert 0.0 < power < 1.0
        assert effective_size(flat) >= least * len(weights) - 1e-9
        assert flat[4] == 0.0
        order = sorted(range(len(weights)), key=weights.__getitem__)
        assert sorted(range(len(flat)), key=flat.__getitem__) == order
        # the greatest power: a little more and the effective size falls short
        top = max(weights)
        sharper = [(w / top) ** (power + 1e-3) for w in weights]
        assert effective_size(sharper) < least * len(weights)
    assert tempered(weights, 0.0) == (weights, 1.0)
    even = [1.0, 0.9, 1.1]
    assert tempered(even, 0.5) == (even, 1.0)


@pytest.mark.parametrize(("least_ess", "defensive"), [(0.2, 0.25), (0.0, 0.0), (0.5, 1.0)])
def test_the_safe_reading_reads_nothing_hidden(least_ess: float, defensive: float) -> None:
    """The twin table for ``inference="safe"`` and its options: re-dealing every card the seat has not
    seen under the same public history leaves the pool's hands and weights, the re-deals drawn and
    the search's decision as they were."""
    from conquian.bots.expert import ExpertBot, PoolOptions, adversary_pool
    from conquian.bots.inference import HandPosterior

    options = PoolOptions(60, least_ess, defensive)
    checked = changed = 0
    for seed in range(2):
        for deal in foster_deals("conquian", 2, range(seed, seed + 1))[0][2::4]:
            seat = deal.seats[deal.actor]
            view = deal.view(seat)
            mine = adversary_pool(view, random.Random(1), "safe", 240, options=options)
            assert isinstance(mine, HandPosterior) and mine.defensive == defensive
            redeals = [determinize(view, random.Random(k), mine).hands for k in range(6)]
            bot = ExpertBot(seed=2, iterations=24, inference="safe", pool=60, least_ess=least_ess,
                            defensive=defensive)
            choice = bot.choose(view)
            for k in range(2):
                other = determinize(view, random.Random(k))
                assert isinstance(other, ConquianDeal)
                changed += other.hands[1 - deal.actor] != deal.hands[1 - deal.actor]
                other.events, other.n_events = deal.events, deal.n_events
                twin = other.view(seat)
                theirs = adversary_pool(twin, random.Random(1), "safe", 240, options=options)
                assert isinstance(theirs, HandPosterior)
                assert (theirs.hands, theirs.cum, theirs.models, theirs.power) == (
                    mine.hands, mine.cum, mine.models, mine.power)
                assert [determinize(twin, random.Random(k), theirs).hands for k in range(6)] == redeals
                assert ExpertBot(seed=2, iterations=24, inference="safe", pool=60, least_ess=least_ess,
                                 defensive=defensive).choose(twin) == choice
                checked += 1
    assert checked >= 6 and changed >= checked - 2


def test_the_safe_reading_spreads_its_pool_and_keeps_a_share_of_re_deals_for_choices() -> None:
    """``safe``: the pool's weights are tempered to the effective size asked (against ``foster`` late
    in a deal the mixture alone stakes nearly everything on a few hands), and the defensive share of
    the re-deals leaves the pool (read as ``choices`` reads: hands mostly outside it), the rest
    comes from it."""
    from conquian.bots.expert import SAFE, PoolOptions, adversary_pool
    from conquian.bots.inference import HandPosterior

    view = None
    sharp = spread = 0
    for seed in (2, 3, 4):
        deal = _adversary_deal("foster", seed)[-1]
        view = deal.view(deal.seats[deal.actor])
        raw = adversary_pool(view, random.Random(0), "mixture", 240, options=PoolOptions(120))
        safe = adversary_pool(view, random.Random(0), "safe", 240, options=PoolOptions(120, SAFE.least_ess, 0.0))
        assert isinstance(raw, HandPosterior) and isinstance(safe, HandPosterior)
        assert raw.hands == safe.hands
        assert safe.ess >= SAFE.least_ess * 120 - 1e-6
        sharp += raw.ess < SAFE.least_ess * 120
        spread += safe.power < 1.0
    assert sharp >= 2 and spread == sharp
    assert view is not None
    counts = {}
    for defensive in (0.0, 0.5, 1.0):
        pool = adversary_pool(view, random.Random(0), "safe", 240, options=PoolOptions(120, 0.2, defensive))
        assert isinstance(pool, HandPosterior)
        members = set(pool.hands)
        adv = 1 - view.player
        rng = random.Random(9)
        counts[defensive] = sum(determinize(view, rng, pool).hands[adv] in members for _ in range(200))
    assert counts[0.0] == 200 and counts[1.0] < 20 and 60 < counts[0.5] < 140


def test_the_pool_options_are_checked() -> None:
    """The search's ``pool``, ``least_ess`` and ``defensive`` are refused out of range, and fill
    :class:`PoolOptions` over the reading's own (``safe``'s :data:`SAFE`, ``mixture``'s as before)."""
    from conquian.bots.expert import MIXTURE_POOL, SAFE, ExpertBot, PoolOptions

    assert ExpertBot(inference="safe").pool_options == SAFE
    assert ExpertBot(inference="mixture").pool_options == MIXTURE_POOL == PoolOptions(None, 0.0, 0.0)
    assert ExpertBot(inference="safe", defensive=0.0).pool_options == PoolOptions(SAFE.size, SAFE.least_ess, 0.0)
    for bad in ({"pool": 0}, {"least_ess": 1.5}, {"defensive": -0.1}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            make_bot("master", inference="safe", **bad)


def test_the_ismcts_benchmark_pairs_two_readings_on_the_same_decks(capsys: pytest.CaptureFixture[str]) -> None:
    """``benchmarks.versus_ismcts --readings`` (a smoke run): each reading plays the same decks against
    OpenSpiel's ISMCTS, and the paired difference is the second's points a deck minus the first's,
    deck by deck; two runs of one deterministic reading differ by nothing."""
    import json

    pytest.importorskip("pyspiel")
    from benchmarks.versus_ismcts import main

    args = ["--bot", "expert", "--deals", "1", "--simulations", "4", "--iterations", "12", "--workers", "1", "--json"]
    assert main([*args, "--readings", "choices,choices"]) == 0
    out = json.loads(capsys.readouterr().out)
    paired = out["choices minus choices, points a deck"]
    assert paired["decks"] == 1 and paired["mean"] == 0.0
    assert out["choices"]["games"] == 2 and out["choices"]["options"]["inference"] == "choices"
    with pytest.raises(SystemExit):
        main([*args, "--readings", "choices,psychic"])


def test_the_reading_limit_benchmark_charts_shares_of_the_real_hand(capsys: pytest.CaptureFixture[str]) -> None:
    """``benchmarks.reading_limit`` (a smoke run, issue 43): the arm told all of the adversary's hand
    re-deals him exactly his hand, the arm told none re-deals him at random (about his share of the
    unseen cards), and the reference arm's games are the tournament's on the same decks."""
    import json

    from benchmarks.reading import ADVERSARIES
    from benchmarks.reading_limit import main

    from conquian import get_rules
    from conquian.tournament import run_tournament

    params = {"iterations": 16}
    assert main(["--deals", "2", "--shares", "0,1", "--params", json.dumps(params)]) == 0
    out = json.loads(capsys.readouterr().out)
    share = "share of his real cards in the re-deals"
    assert out["share 1"][share] == 1.0
    assert 0.15 < out["share 0"][share] < 0.6
    assert out["share 0"][share] < out["share 1"][share]
    name, adv = ADVERSARIES["foster"]
    res = run_tournament(get_rules("conquian"), ["expert", name], 2, 7, 1, bot_params={"expert": params, name: adv})
    mine = res.slots[0]
    assert (out["reading"]["wins"], out["reading"]["losses"]) == (mine.wins, mine.losses)
    for bad in (["--shares", "0,1.5"], ["--shares", "half"], ["--deals", "1"]):
        with pytest.raises(SystemExit):
            main(bad)
