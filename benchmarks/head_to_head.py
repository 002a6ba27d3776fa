"""Two bots against each other on duplicate deals of conquian, each with its own keyword arguments.

    python -m benchmarks.head_to_head exit master --ms 150 --deals 150 --seed 7
    options: --ms T (both bots' time a decision, ms: equal time) --params '{"exit": {...}}'
             --variant NAME (default conquian) --workers W

Each deck is played once with each bot in each seat.  Printed (JSON): the first bot's wins,
losses and tableaux, its win rate of decided deals with Wilson's 95% interval, and both bots'
mean and 95th-percentile seconds a decision.
"""

from __future__ import annotations

import argparse
import json
import sys

from conquian import get_rules
from conquian.tournament import run_tournament


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.head_to_head")
    ap.add_argument("first")
    ap.add_argument("second")
    ap.add_argument("--variant", default="conquian")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--ms", type=float, default=None, help="both bots' time a decision (ms)")
    ap.add_argument("--params", default="{}", help="per bot, its keyword arguments (JSON)")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args(argv)
    params: dict[str, dict[str, object]] = json.loads(args.params)
    if args.ms is not None:
        for name in (args.first, args.second):
            params.setdefault(name, {})["ms"] = args.ms
    res = run_tournament(get_rules(args.variant), [args.first, args.second], args.deals, args.seed, args.workers,
                         bot_params=params, progress=True)
    first, second = res.results
    out = {"variant": args.variant, "deals": args.deals, "seed": args.seed, "params": params,
           "games": res.games, args.first: first.to_json(), args.second: second.to_json()}
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
