"""How long the listing grows: ``python -m benchmarks.listing_sizes``.

    python -m benchmarks.listing_sizes               # 10,000 random deals a preset
    python -m benchmarks.listing_sizes --deals 500

Random play (a uniform choice among the listed actions, the fast path's ``random_raw``) through
seeded deals of every preset; printed per preset: decisions, the mean number of listed actions,
the largest listing seen and where (seed and decision), and how many of the listed actions of
the conquian family are uses.  The listing offers every set of hand cards a use can lay
(docs/records.md), so a hand full of combinations lists many; this says how many in practice.
"""

from __future__ import annotations

import argparse
import random
import sys

from conquian import get_rules
from conquian.engine.match import new_deal

PRESETS = [("conquian", 2), ("conquian-spanish", 2), ("conquian-mexicano", 2), ("conquian-mexicano", 3),
           ("conquian-mexicano", 4), ("cooncan", 3), ("cooncan-double", 4), ("cooncan-double", 5)]


def sizes(preset: str, players: int, deals: int) -> tuple[int, float, int, tuple[int, int]]:
    """(decisions, mean listing, largest listing, (seed, decision) of the largest) over ``deals``."""
    rules = get_rules(preset, players=players)
    rnd = random.Random(1).random
    decisions = total = largest = 0
    where = (0, 0)
    for seed in range(1, deals + 1):
        deal = new_deal(rules, seed=seed, dealer=rules.players)
        k = 0
        while not deal.over:
            raws = deal.legal_raw()
            n = len(raws)
            total += n
            decisions += 1
            k += 1
            if n > largest:
                largest, where = n, (seed, k)
            deal.apply_raw(*raws[int(rnd() * n)])
    return decisions, total / max(decisions, 1), largest, where


def main(argv: list[str] | None = None) -> int:
    """Print the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=10_000, help="random deals a preset (default 10,000)")
    args = ap.parse_args(argv)
    print(f"random play, {args.deals:,} deals a preset")
    print(f"{'preset':<22}{'decisions':>12}{'mean listed':>13}{'largest':>9}  where (seed, decision)")
    for preset, players in PRESETS:
        d, mean, largest, where = sizes(preset, players, args.deals)
        print(f"{preset + ', ' + str(players):<22}{d:>12,}{mean:>13.2f}{largest:>9}  {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
