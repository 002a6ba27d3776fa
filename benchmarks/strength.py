"""The bots' strength targets (issue: computer opponents), measured on duplicate deals.

    python -m benchmarks.strength conquian           # expert vs foster, foster vs random
    python -m benchmarks.strength cooncan-double     # one expert among four fosters (about 40 min)
    python -m benchmarks.strength cooncan            # one expert among two fosters
    options: --deals N (per seed) --seeds 11,12 --workers W

For Cooncan the same decks are played twice: once with the expert in slot 1 among
fosters, once with five (three) fosters.  Reported: the expert's points per deal and
interval, one foster's in the same slot among fosters and its interval, and the
paired difference (the expert's score minus the foster's, same deck, same seat), whose
interval is the sharp test of "scores more than a foster in the same seat".
"""

from __future__ import annotations

import argparse
import json
import math
import sys

from conquian import get_rules
from conquian.tournament import TournamentResult, run_tournament


def interval(xs: list[float]) -> tuple[float, float, float]:
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    h = 1.96 * sd / math.sqrt(n)
    return m, m - h, m + h


def slot_scores(res: TournamentResult, slot: int) -> list[float]:
    """Scores of the bots-list entry ``slot`` in every game, in game order."""
    n = res.players
    out = []
    for g, game in enumerate(res.outcomes):
        r = g % n
        for seat_index, o in enumerate(game):
            if (seat_index + r) % n == slot:
                out.append(float(o.score))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.strength")
    ap.add_argument("variant", choices=["conquian", "cooncan", "cooncan-double"])
    ap.add_argument("--deals", type=int, default=None)
    ap.add_argument("--seeds", default="11,12", help="comma-separated; each seed's decks are played, "
                    "the results pooled (default 11,12)")
    ap.add_argument("--workers", type=int, default=None)
    args = ap.parse_args(argv)
    report: dict[str, object] = {"variant": args.variant}
    seeds = [int(x) for x in args.seeds.split(",") if x.strip()]
    if args.variant == "conquian":
        rules = get_rules("conquian")
        for pair, default, seed in ((["expert", "foster"], 300, 7), (["foster", "random"], 500, 11)):
            res = run_tournament(rules, pair, args.deals or default, seed, args.workers, progress=True)
            report[f"{pair[0]} vs {pair[1]} (seed {seed})"] = res.to_json()["results"]
    else:
        n = 5 if args.variant == "cooncan-double" else 3
        rules = get_rules(args.variant, players=n)
        deals = args.deals or (80 if n == 5 else 60)
        e: list[float] = []
        f: list[float] = []
        times: list[float] = []
        for seed in seeds:
            expert = run_tournament(rules, ["expert"] + ["foster"] * (n - 1), deals, seed, args.workers,
                                    progress=True)
            fosters = run_tournament(rules, ["foster"] * n, deals, seed, args.workers, progress=True)
            e += slot_scores(expert, 0)
            f += slot_scores(fosters, 0)
            times += expert.results[0].times
        report["expert"] = dict(zip(("mean", "lo", "hi"), interval(e), strict=True))
        report["foster in the same slot"] = dict(zip(("mean", "lo", "hi"), interval(f), strict=True))
        diff = [a - b for a, b in zip(e, f, strict=True)]
        report["paired difference"] = dict(zip(("mean", "lo", "hi"), interval(diff), strict=True))
        report["games"] = len(e)
        report["seeds"] = seeds
        report["expert seconds per decision"] = sum(times) / len(times)
        report["expert p95 seconds per decision"] = sorted(times)[int(0.95 * (len(times) - 1))]
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
