"""How much the search's reading of the adversary's hand knows, model by model (conquian), and
before and after the reading of the conquián mexicano and Cooncan.

    python -m benchmarks.bench_inference                       # foster, expert, random adversaries
    options: --adversary foster,expert,random --deals N --pool P --seed S
    python -m benchmarks.bench_inference --family cooncan      # or mexicano; --players N

At every decision with a choice of the reading seat (``foster``), against an adversary of each kind,
the adversary's possible hands are drawn at random (``--pool`` of them, his count and the seat's
view allowing) and weighed by each model of :mod:`conquian.bots.inference`; printed per model:

- overlap: the share of his real hand's cards in a hand drawn by weight (a hand drawn at random,
  ``uniform``, is the baseline);
- log ratio: the mean log of his real hand's weight over the pool's mean weight (a proper score:
  higher is better; a model too sure of itself goes below zero when it is wrong);
- the time to weigh one hand;
- for the mixture of models (the reading ``inference="mixture"``), each model's posterior, the mean
  over the decisions: how far the reading trusted each model of this adversary;
- for the mixture read safely (``inference="safe"`` and its variants: the weights tempered until
  their effective sample size is a share of the pool, a share of the re-deals read as ``choices``
  reads), the same figures on the same pools, and for every reading by a mixture the effective
  sample size of the pool's weights (Kish's: how many hands the search really plays against), its
  mean and its tenth percentile over the decisions.

With ``--family mexicano`` or ``cooncan`` (``--players``: 2 or 3 in the mexicano, 3 or 5 in Cooncan, the
double pack with five), at every decision of the reading seat (``foster``) every adversary's hand is
scored: the share of his real cards in a hand drawn by the uniform re-deal (before) and in one drawn
by weight by the family's reading (after, :mod:`conquian.bots.inference_families`: the hands of a
``--pool`` of re-deals weighed), and the log ratio of the reading (the log of his real hand's weight
over the pool's mean weight; the uniform re-deal's is 0).

The real hand is read here only to score the models: the reading itself sees the view.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import random
import sys
import time
from collections.abc import Callable

from conquian import ConquianDeal, get_rules
from conquian.bots import make_bot
from conquian.bots.apprentice import shipped_weights
from conquian.bots.determinize import determinize
from conquian.bots.inference import (
    MIXTURE,
    MODELS,
    AdversaryReads,
    Mixture,
    Record,
    apprentice_likelihood,
    effective_size,
    likelihood,
    model_likelihoods,
    records_choices_weight,
    tempered,
)
from conquian.bots.inference_families import CooncanReading, MexicanoReading, cooncan_likelihood
from conquian.engine.cards import cards_of
from conquian.engine.conquian.melds import MeldTable
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.conquian.mexicano_view import MexicanoView
from conquian.engine.cooncan.deal import CooncanDeal
from conquian.engine.cooncan.view import CooncanView
from conquian.engine.history import folded
from conquian.engine.match import new_deal

Model = Callable[[MeldTable, list[Record], int], float]
#: the name of the reading by a mixture of models (:class:`~conquian.bots.inference.Mixture`), weighed per pool
MIXED = "mixture (foster, apprentice, loose, other)"
#: the safe variants scored on the mixture's pools: (least share of effective size, defensive share)
SAFE_VARIANTS: tuple[tuple[float, float], ...] = ((0.1, 0.0), (0.2, 0.0), (0.3, 0.0), (0.0, 0.25), (0.2, 0.25),
                                                  (0.3, 0.25), (0.2, 0.5))


def safe_name(least: float, defensive: float) -> str:
    """The name of a safe variant in the printed figures."""
    return f"mixture, tempered to an effective size of {least:.0%} of the pool, {defensive:.0%} of re-deals as choices"


#: the adversaries given a search budget (the ``expert``'s)
SEARCH = ("expert", "master", "exit")


def _choices(tbl: MeldTable, records: list[Record], hand: int) -> float:
    return records_choices_weight(tbl, records, hand)


def _foster(tbl: MeldTable, records: list[Record], hand: int, slip: float) -> float:
    return likelihood(tbl, records, hand, slip)


def models() -> dict[str, Model]:
    """The models measured: the passed and discarded cards only (the older reading), ``foster``
    with three slips, and the apprentice, alone and mixed with choices at random
    (:data:`~conquian.bots.inference.MIXTURE`: the search's reading)."""
    weights = shipped_weights()
    out: dict[str, Model] = {"choices (passed and discarded cards)": _choices}
    for slip in (0.01, 0.05, 0.15):
        out[f"foster, slip {slip}"] = functools.partial(_foster, slip=slip)
    out["apprentice"] = lambda t, r, h: apprentice_likelihood(t, r, h, weights)
    out["apprentice, mixed"] = lambda t, r, h: apprentice_likelihood(t, r, h, weights, MIXTURE)
    return out


def measure(adversary: str, deals: int, pool: int, seed: int) -> dict[str, object]:
    """The figures for one kind of adversary (the mixture's on the same pools as the other models')."""
    rules = get_rules("conquian")
    ms = models()
    safe = [safe_name(a, b) for a, b in SAFE_VARIANTS]
    names = [*ms, MIXED, *safe]
    ess: dict[str, list[float]] = {name: [] for name in (MIXED, *safe)}
    overlap = dict.fromkeys(names, 0.0)
    log_ratio = dict.fromkeys(names, 0.0)
    spent = dict.fromkeys(names, 0.0)
    posterior = [0.0] * len(MODELS)
    apprentice_weights = shipped_weights()
    uniform = 0.0
    n = 0
    for k in range(deals):
        deal = ConquianDeal(rules, seed=seed + k, dealer=1 + k % 2)
        reader = deal.seats[k % 2]
        bots = {s: make_bot("foster") if s == reader or adversary == "foster"
                else make_bot(adversary, seed=seed + k, **({"iterations": 240} if adversary in SEARCH else {}))
                for s in deal.seats}
        rng = random.Random(seed + k)
        while not deal.over:
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            if seat == reader and len(deal.legal_raw()) > 1 and view.adversary_hand_count:
                reads = folded("bench inference", view.event_node, AdversaryReads, AdversaryReads.step,
                               AdversaryReads.copy)
                adv = 1 - view.player
                true, records, count = deal.hands[adv], reads.records[adv], view.adversary_hand_count
                unseen = cards_of(view.unseen_mask())
                hands = []
                for _ in range(pool):
                    rng.shuffle(unseen)
                    hands.append(sum(1 << c for c in unseen[:count]))
                uniform += sum((h & true).bit_count() for h in hands) / pool / count
                for name, model in ms.items():
                    t0 = time.perf_counter()
                    weights = [model(deal.tbl, records, h) for h in hands]
                    spent[name] += time.perf_counter() - t0
                    total = sum(weights)
                    shared = sum(w * (h & true).bit_count() for w, h in zip(weights, hands, strict=True))
                    overlap[name] += shared / total / count
                    log_ratio[name] += math.log(max(model(deal.tbl, records, true), 1e-300) / (total / pool))
                # the mixture: each hand's likelihood under every model, the models weighed on the pool
                t0 = time.perf_counter()
                liks = [model_likelihoods(deal.tbl, records, h, apprentice_weights) for h in hands]
                olds = [records_choices_weight(deal.tbl, records, h) for h in hands]
                mix = Mixture(liks, olds)
                mixed = [mix.weight(x, c) for x, c in zip(liks, olds, strict=True)]
                spent[MIXED] += time.perf_counter() - t0
                total = sum(mixed)
                shared = sum(w * (h & true).bit_count() for w, h in zip(mixed, hands, strict=True))
                overlap[MIXED] += shared / total / count
                mine = mix.weight(model_likelihoods(deal.tbl, records, true, apprentice_weights),
                                  records_choices_weight(deal.tbl, records, true))
                log_ratio[MIXED] += math.log(max(mine, 1e-300) / (total / pool))
                ess[MIXED].append(effective_size(mixed) / pool)
                # the safe variants: tempered weights (the real hand's by the same power, against the
                # pool's greatest weight), and a share of the re-deals by the passed and discarded cards
                top = max(mixed)
                old_total = sum(olds)
                for (least, defensive), name in zip(SAFE_VARIANTS, safe, strict=True):
                    flat, power = tempered(mixed, least)
                    flat_top = max(flat)
                    flat = [f / flat_top for f in flat]  # the greatest 1, as the real hand's below
                    flat_total = sum(flat)
                    per_hand = [(1 - defensive) * f / flat_total + defensive * c / old_total
                                for f, c in zip(flat, olds, strict=True)]
                    shared = sum(w * (h & true).bit_count() for w, h in zip(per_hand, hands, strict=True))
                    overlap[name] += shared / count
                    real = ((1 - defensive) * (mine / top) ** power / (flat_total / pool)
                            + defensive * records_choices_weight(deal.tbl, records, true) / (old_total / pool))
                    log_ratio[name] += math.log(max(real, 1e-300))
                    ess[name].append(effective_size(per_hand) / pool)
                for m, x in enumerate(mix.posterior):
                    posterior[m] += x
                n += 1
            deal.play(bots[seat].choose(view))
    return {
        "adversary": adversary, "decisions": n, "uniform overlap": round(uniform / n, 3),
        "models": {name: {"overlap": round(overlap[name] / n, 3), "log ratio": round(log_ratio[name] / n, 3),
                          "us per hand": round(spent[name] / n / pool * 1e6, 1)} for name in names},
        "mixture's posterior of the models (mean over the decisions)": {
            m: round(x / n, 3) for m, x in zip(MODELS, posterior, strict=True)},
        "effective sample size over the pool (mean, tenth percentile)": {
            name: [round(sum(xs) / len(xs), 3), round(sorted(xs)[len(xs) // 10], 3)] for name, xs in ess.items()},
    }


def _shared(drawn: list[int], real: list[int]) -> int:
    """How many cards two hands share (copies counted: the double pack)."""
    left = list(real)
    k = 0
    for c in drawn:
        if c in left:
            left.remove(c)
            k += 1
    return k


def measure_family(family: str, players: int, adversary: str, deals: int, pool: int, seed: int) -> dict[str, object]:
    """Before and after the reading of the mexicano or Cooncan, against one kind of adversary (every
    other seat plays it; the reading seat plays ``foster``)."""
    variant = {"mexicano": "conquian-mexicano", "cooncan": "cooncan" if players < 5 else "cooncan-double"}[family]
    rules = get_rules(variant, players=players)
    before = after = log_ratio = 0.0
    spent = 0.0
    n = weighed = 0
    for k in range(deals):
        deal = new_deal(rules, seed=seed + k, dealer=1 + k % players)
        reader = 1 + k % players
        bots = {s: make_bot("foster") if s == reader or adversary == "foster"
                else make_bot(adversary, seed=seed + k, **({"iterations": 40} if adversary in SEARCH else {}))
                for s in range(1, players + 1)}
        rng = random.Random(seed + k)
        while not deal.over:
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            if seat == reader and len(view.legal_raw()) > 1:
                t0 = time.perf_counter()
                if isinstance(view, MexicanoView):
                    reading = MexicanoReading(view)
                    assert isinstance(deal, MexicanoDeal)
                    redeals = [determinize(view, rng) for _ in range(pool)]
                    weights = [reading.weight(d.hands, d.gives) for d in redeals]
                    true_weight = reading.weight(deal.hands, deal.gives)
                    others = [q for q in range(players) if q != view.player and deal.hands[q]]
                    real = {q: list(cards_of(deal.hands[q])) for q in others}
                    drawn = [{q: list(cards_of(d.hands[q])) for q in others} for d in redeals]
                    weigh = [weights]
                else:
                    assert isinstance(view, CooncanView) and isinstance(deal, CooncanDeal)
                    cooncan = CooncanReading(view)
                    others = [s for s in range(1, players + 1) if s != seat and deal.hand_size(s)]
                    real = {s: list(deal.hand(s)) for s in others}
                    cdeals = [determinize(view, rng) for _ in range(pool)]
                    drawn = [{s: list(d.hand(s)) for s in others} for d in cdeals if isinstance(d, CooncanDeal)]
                    # each adversary read on his own, by his steps (the product would be the joint weight)
                    weigh = [[cooncan_likelihood(cooncan.steps[s - 1], h[s], cooncan.double, rng, cooncan.slip)
                              for h in drawn] for s in others]
                    true_weight = 1.0
                    for s in others:
                        true_weight *= cooncan_likelihood(cooncan.steps[s - 1], real[s], cooncan.double, rng,
                                                          cooncan.slip)
                    weights = [math.prod(w[i] for w in weigh) for i in range(pool)]
                spent += time.perf_counter() - t0
                if not others:
                    deal.play(bots[seat].choose(view))
                    continue
                for j, q in enumerate(others):
                    count = len(real[q])
                    ws = weigh[j] if len(weigh) > 1 else weights
                    total = sum(ws)
                    before += sum(_shared(h[q], real[q]) for h in drawn) / pool / count
                    after += (sum(w * _shared(h[q], real[q]) for w, h in zip(ws, drawn, strict=True)) / total / count
                              if total > 0 else sum(_shared(h[q], real[q]) for h in drawn) / pool / count)
                    weighed += 1
                mean = sum(weights) / pool
                log_ratio += math.log(max(true_weight, 1e-300) / mean) if mean > 0 else 0.0
                n += 1
            deal.play(bots[seat].choose(view))
    return {
        "family": family, "players": players, "adversary": adversary, "decisions": n,
        "adversaries' hands scored": weighed,
        "share of his real cards, uniform re-deal (before)": round(before / max(1, weighed), 3),
        "share of his real cards, the reading (after)": round(after / max(1, weighed), 3),
        "log ratio of the reading (the uniform re-deal's: 0)": round(log_ratio / max(1, n), 3),
        "ms per decision (pool re-dealt and weighed)": round(spent / max(1, n) * 1e3, 1),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_inference")
    ap.add_argument("--family", default="conquian", choices=["conquian", "mexicano", "cooncan"])
    ap.add_argument("--players", type=int, default=None,
                    help="the mexicano: 2 or 3 (default 2); Cooncan: 3 or 5 (default 3)")
    ap.add_argument("--adversary", default=None,
                    help="the adversaries' bots, comma-separated (default foster,expert,random in conquian, "
                         "foster,random otherwise)")
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--pool", type=int, default=100)
    ap.add_argument("--seed", type=int, default=100)
    args = ap.parse_args(argv)
    if args.deals < 1 or args.pool < 1:
        ap.error("--deals and --pool must be at least 1")
    adversaries = args.adversary or ("foster,expert,random" if args.family == "conquian" else "foster,random")
    if args.family == "conquian":
        for name in adversaries.split(","):
            print(json.dumps(measure(name.strip(), args.deals, args.pool, args.seed), indent=1))
        return 0
    players = args.players or (2 if args.family == "mexicano" else 3)
    if players not in ((2, 3) if args.family == "mexicano" else (3, 5)):
        ap.error("--players must be 2 or 3 in the mexicano, 3 or 5 in Cooncan")
    for name in adversaries.split(","):
        print(json.dumps(measure_family(args.family, players, name.strip(), args.deals, args.pool, args.seed),
                         indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
