"""The bots on the players' rating scale: every pair of bots plays duplicate deals (each deck
once with each bot in each seat, :func:`conquian.tournament.play_game`), each deal a result for
openskill's Plackett-Luce model (a tableau a draw), in a fixed order; prints each bot's mu, sigma,
the rating the web shows (``1000 + 40 * (mu - 3 sigma)``) and mu's 95% interval on that scale.

    nice -n 15 python -m benchmarks.bot_ratings --bots random,foster,expert --deals 20 --seed 40
"""

from __future__ import annotations

import argparse
import itertools
import time

from conquian.engine.deck import SplitMix64
from conquian.engine.rules import get_rules
from conquian.tournament import play_game


def main() -> None:
    """Fit and print the bots' ratings."""
    from openskill.models import PlackettLuce

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--variant", default="conquian")
    parser.add_argument("--bots", default="random,foster,expert")
    parser.add_argument("--deals", type=int, default=20, help="decks per pair of bots")
    parser.add_argument("--seed", type=int, default=40)
    args = parser.parse_args()
    rules = get_rules(args.variant)
    bots = args.bots.split(",")
    model = PlackettLuce()
    rating = {b: model.rating(name=b) for b in bots}
    seeds = SplitMix64(args.seed)
    start, games = time.perf_counter(), 0
    for _ in range(args.deals):
        deck_seed = seeds.next64()
        for pair in itertools.combinations(bots, 2):
            for r, seated in enumerate((list(pair), list(reversed(pair)))):
                outcome = play_game(rules, seated, deck_seed, deck_seed % 1_000_003 * 4 + r)
                ranks: list[float] = [1.0 if o.won or o.tie else 2.0 for o in outcome]
                [[a], [b]] = model.rate([[rating[seated[0]]], [rating[seated[1]]]], ranks=ranks)
                rating[seated[0]], rating[seated[1]] = a, b
                games += 1
    print(f"{args.variant}: {games} deals ({args.deals} decks per pair, both seats) in "
          f"{time.perf_counter() - start:.1f} s, seed {args.seed}")
    print(f"{'bot':10} {'mu':>7} {'sigma':>6} {'shown':>6}   mu's 95% interval on the shown scale")
    for b in sorted(bots, key=lambda b: -rating[b].mu):
        mu, sigma = rating[b].mu, rating[b].sigma
        print(f"{b:10} {mu:7.2f} {sigma:6.2f} {round(1000 + 40 * (mu - 3 * sigma)):6d}   "
              f"{round(1000 + 40 * (mu - 2 * sigma - 3 * sigma))} .. {round(1000 + 40 * (mu + 2 * sigma - 3 * sigma))}")


if __name__ == "__main__":
    main()
