"""How much of the adversary's hand must a reading know before the search wins more (conquian, issue 43).

    python -m benchmarks.reading_limit                                  # expert against foster
    python -m benchmarks.reading_limit --shares 0,0.5,1 --deals 300 --adversary foster
    options: --bot expert|master|exit --shares S1,S2,... --adversary foster|random|apprentice|expert
             --deals N --seed S --workers W --params '{"iterations": 240}' (the bot's other arguments)

A benchmark that cheats on purpose, to chart what no honest reading can show: the bot is told
the adversary's real hand, and each of its re-deals keeps a share ``s`` of his real cards (drawn
afresh for each re-deal, the count rounded at random so that its mean is exactly ``s`` of his
hand) and fills the rest of his hand at random from the cards the seat has not seen.  ``s = 0``
is the uniform re-deal, ``s = 1`` the true-hand limit (the pack still shuffled).  The arm
``reading`` is the bot as shipped (its own ``inference``), on the same decks, for reference.

Every arm plays the same ``--deals`` decks, each once in each seat, with the same seeds as
``python -m benchmarks.reading`` and the tournament (the ``reading`` arm's games are theirs).
Printed (JSON), per arm: the win rate of decided deals with Wilson's 95% interval, points a deck
(a win +1, a loss -1, both seats summed) and its paired difference from the ``reading`` arm with a
95% interval, and the mean share of his real cards in the hands the search re-deals him
(measured the same way for every arm: 16 re-deals a decision, from a stream of their own).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from benchmarks.reading import ADVERSARIES, interval, parse_params
from conquian import get_rules
from conquian.bots import bot_names, make_bot
from conquian.bots.base import View
from conquian.bots.determinize import Reading, determinize
from conquian.bots.expert import ExpertBot
from conquian.bots.inference import HandPosterior
from conquian.engine.cards import cards_of
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.conquian.view import ConquianView
from conquian.engine.deck import SplitMix64
from conquian.engine.match import new_deal
from conquian.tournament import BotResult

#: re-deals a decision drawn only to measure the share of his real cards in them
MEASURED = 16


def knowing(base: type[ExpertBot], share: float | None) -> type[ExpertBot]:
    """``base`` told the adversary's real hand (:attr:`truth`, set before each decision) and
    re-dealing him ``share`` of it (``None``: its own reading); either way it records the share of
    his real cards in its re-deals."""

    class Knowing(base):  # type: ignore[valid-type, misc]
        truth = 0

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.shares: list[float] = []

        def reading(self, view: View, rng: random.Random, budget: int) -> Reading | None:
            assert isinstance(view, ConquianView)
            pool = super().reading(view, rng, budget) if share is None else self._known(view, rng, budget)
            self._measure(view, pool)
            return pool

        def _known(self, view: ConquianView, rng: random.Random, budget: int) -> HandPosterior:
            assert share is not None
            k = view.adversary_hand_count
            real = cards_of(self.truth)
            unseen = cards_of(view.unseen_mask())
            hands = []
            for _ in range(max(1, budget)):
                kept = math.floor(share * k)
                kept += rng.random() < share * k - kept
                keep = rng.sample(real, min(kept, len(real)))
                rest = [c for c in unseen if c not in keep]
                hand = 0
                for c in keep + rng.sample(rest, k - len(keep)):
                    hand |= 1 << c
                hands.append(hand)
            return HandPosterior(hands, [1.0] * len(hands))

        def _measure(self, view: ConquianView, pool: Reading | None) -> None:
            k = view.adversary_hand_count
            if not k:
                return
            rng = random.Random(view.n_events)  # its own stream: the bot's draws are untouched
            got = 0
            for _ in range(MEASURED):
                d = determinize(view, rng, pool)
                assert isinstance(d, ConquianDeal)
                got += (d.hands[1 - view.player] & self.truth).bit_count()
            self.shares.append(got / (MEASURED * k))

    return Knowing


Job = tuple[str, float | None, str, int, int, int, dict[str, Any]]


def play(job: Job) -> tuple[float, list[float]]:
    """One game of an arm: the bot's points (+1 a win, -1 a loss) and its decisions' shares."""
    bot, share, adversary, deck_seed, bot_seed, rotation, params = job
    rules = get_rules("conquian")
    deal = new_deal(rules, seed=deck_seed, dealer=2)
    adv_name, adv_params = ADVERSARIES[adversary]
    made = type(make_bot(bot, **params))
    assert issubclass(made, ExpertBot)
    ours = knowing(made, share)
    names = [bot, adv_name] if rotation == 0 else [adv_name, bot]
    players: list[Any] = []
    for i, name in enumerate(names):
        seed = bot_seed * 31 + i
        players.append(ours(seed=seed, **params) if name == bot else make_bot(name, seed=seed, **adv_params))
    our_seat = 1 + names.index(bot)
    while not deal.over:
        seat = deal.to_act
        assert seat is not None and isinstance(deal, ConquianDeal)
        if seat == our_seat:
            players[seat - 1].truth = deal.hands[1 - deal.seats.index(seat)]
        deal.play(players[seat - 1].choose(deal.view(seat)))
    winner = deal.winner_seat
    points = 0.0 if winner is None else 1.0 if winner == our_seat else -1.0
    return points, players[our_seat - 1].shares


def arm(bot: str, share: float | None, adversary: str, deals: int, seed: int, workers: int,
        params: dict[str, Any]) -> tuple[dict[str, Any], list[float]]:
    """One arm on the decks: its figures and its points deck by deck."""
    seeds = SplitMix64(seed)
    jobs: list[Job] = []
    for i in range(deals):
        deck_seed = seeds.next64()
        for r in range(2):
            jobs.append((bot, share, adversary, deck_seed, (seed * 1_000_003 + i) * 16 + r, r, params))
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            games = list(pool.map(play, jobs, chunksize=4))
    else:
        games = [play(j) for j in jobs]
    decks = [games[2 * i][0] + games[2 * i + 1][0] for i in range(deals)]
    wins = sum(1 for p, _ in games if p > 0)
    losses = sum(1 for p, _ in games if p < 0)
    shares = [s for _, ss in games for s in ss]
    lo, hi = BotResult(bot, wins=wins, losses=losses).win_rate_ci95
    return ({"wins": wins, "losses": losses, "tableaux": len(games) - wins - losses,
             "win_rate": wins / max(1, wins + losses), "win_rate_ci95": [lo, hi],
             "share of his real cards in the re-deals": sum(shares) / max(1, len(shares))}, decks)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.reading_limit")
    ap.add_argument("--bot", default="expert", choices=["expert", "master", "exit"])
    ap.add_argument("--shares", default="0,0.25,0.5,0.75,1", help="shares of his real hand, comma-separated")
    ap.add_argument("--adversary", default="foster", choices=sorted(ADVERSARIES))
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--params", default="{}", help="the bot's other keyword arguments (JSON)")
    args = ap.parse_args(argv)
    try:
        shares = [float(s) for s in args.shares.split(",") if s.strip()]
    except ValueError:
        ap.error("--shares must be numbers between 0 and 1, comma-separated")
    if not shares or any(not 0.0 <= s <= 1.0 for s in shares):
        ap.error("--shares must be numbers between 0 and 1, comma-separated")
    if args.deals < 2:
        ap.error("--deals must be at least 2")
    if args.workers < 1:
        ap.error("--workers must be at least 1")
    params = parse_params(ap, args.bot, args.params)
    assert args.bot in bot_names()
    if ADVERSARIES[args.adversary][0] == args.bot:
        ap.error(f"the bot {args.bot!r} cannot also play the adversary {args.adversary!r}")
    report: dict[str, Any] = {"bot": args.bot, "params": params, "adversary": args.adversary,
                              "deals": args.deals, "seed": args.seed}
    reference, base = arm(args.bot, None, args.adversary, args.deals, args.seed, args.workers, params)
    report["reading"] = reference
    print(json.dumps({"reading": reference}), file=sys.stderr, flush=True)
    for s in shares:
        out, decks = arm(args.bot, s, args.adversary, args.deals, args.seed, args.workers, params)
        m, lo, hi = interval([b - a for a, b in zip(base, decks, strict=True)])
        out["minus reading, points a deck"] = {"mean": m, "ci95": [lo, hi]}
        report[f"share {s:g}"] = out
        print(json.dumps({f"share {s:g}": out}), file=sys.stderr, flush=True)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
