"""Two readings of the adversaries' hands for the same search, on the same decks, in the conquián
mexicano or Cooncan, with ``foster`` in the other seats (issue 43).

    python -m benchmarks.reading_families                          # Cooncan, three hands
    options: --variant cooncan|cooncan-double|conquian-mexicano --players N --bot expert|master
             --readings choices,policy --deals N --seed S --workers W --params '{"iterations": 96}'

Each deck is played once in each seat (the rotations of the tournament) three times: with
``foster`` in every seat (the baseline: ``foster`` in the searching seat), and with the search in
the first slot under each reading.  Printed (JSON): for each reading, the search's points a deal
over ``foster`` in the same seat on the same deck, with its 95% interval (normal approximation),
and the paired difference of the two readings (the second minus the first) in points a deal, on
the same decks and seats: the games differ only by the reading; and every game's points (deck by
deck, seat by seat), to pool runs.  The games are few and the points
of a Cooncan deal vary widely: read the interval, not the mean.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from benchmarks.reading import interval, parse_params
from conquian import get_rules
from conquian.bots.expert import INFERENCES
from conquian.tournament import TournamentResult, run_tournament


def first_slot_scores(res: TournamentResult) -> list[float]:
    """The points of the bot in the first slot in each game (deck by deck, rotation by rotation)."""
    out: list[float] = []
    n = res.players
    for g, game in enumerate(res.outcomes):
        r = g % n
        for seat_index, o in enumerate(game):
            if (seat_index + r) % n == 0:
                out.append(float(o.score))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.reading_families")
    ap.add_argument("--variant", default="cooncan", choices=["cooncan", "cooncan-double", "conquian-mexicano"])
    ap.add_argument("--players", type=int, default=None, help="the table's players (the variant's by default)")
    ap.add_argument("--bot", default="expert", choices=["expert", "master"])
    ap.add_argument("--readings", default="choices,policy", help="two readings, comma-separated")
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--params", default="{}", help="the bot's other keyword arguments (JSON)")
    args = ap.parse_args(argv)
    readings = [r.strip() for r in args.readings.split(",") if r.strip()]
    if len(readings) != 2 or any(r not in INFERENCES for r in readings):
        ap.error(f"--readings must be two of: {', '.join(INFERENCES)}")
    if args.deals < 2:
        ap.error("--deals must be at least 2")
    params = parse_params(ap, args.bot, args.params)
    try:
        rules = get_rules(args.variant, **({"players": args.players} if args.players else {}))
    except ValueError as e:
        ap.error(str(e))
    n = rules.players
    base = first_slot_scores(run_tournament(rules, ["foster"] * n, args.deals, args.seed, args.workers))
    report: dict[str, Any] = {"variant": args.variant, "players": n, "bot": args.bot, "params": params,
                              "deals": args.deals, "games": len(base), "seed": args.seed,
                              "foster in the same seat, points a deal": round(sum(base) / len(base), 2),
                              "foster in the same seat, points by game": base}
    scores: list[list[float]] = []
    for reading in readings:
        bot_params = {args.bot: {**params, "inference": reading}}
        res = run_tournament(rules, [args.bot] + ["foster"] * (n - 1), args.deals, args.seed, args.workers,
                             bot_params=bot_params, progress=True)
        mine = first_slot_scores(res)
        scores.append(mine)
        m, lo, hi = interval([a - b for a, b in zip(mine, base, strict=True)])
        report[f"{reading}: points a deal over foster in the same seat"] = {
            "mean": round(m, 2), "ci95": [round(lo, 2), round(hi, 2)],
            "seconds_per_decision": res.slots[0].seconds_per_decision, "points by game": mine}
        print(json.dumps({reading: {"mean": round(m, 2), "ci95": [round(lo, 2), round(hi, 2)]}}),
              file=sys.stderr, flush=True)
    m, lo, hi = interval([b - a for a, b in zip(scores[0], scores[1], strict=True)])
    report[f"{readings[1]} minus {readings[0]}, points a deal"] = {"mean": round(m, 2),
                                                                   "ci95": [round(lo, 2), round(hi, 2)]}
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
