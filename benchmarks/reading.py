"""Two readings of the adversary's hand for the same search, on the same decks (conquian, issue 43).

    python -m benchmarks.reading                                   # expert: choices vs mixture
    python -m benchmarks.reading --bot exit --adversary foster --deals 100
    options: --bot expert|master|exit --readings choices,mixture --adversary foster,expert,random
             --deals N --seed S --workers W --params '{"iterations": 240}' (the bot's other arguments)

For each adversary, each reading (``inference=``) plays the same ``--deals`` decks, each once in
each seat, with the same seeds for every bot: the games differ only by the reading.  The adversary
``expert`` is today's ``expert`` (240 playouts, ``inference="choices"``; run as ``master`` with
those arguments, so that its arguments are not the measured bot's).  Printed (JSON), per adversary
and reading: wins, losses, tableaux, the win rate of decided deals with Wilson's 95% interval, and
the mean and 95th-percentile seconds a decision; per adversary, the paired difference of the
readings (the second minus the first) in points a deck (a win +1, a loss -1, both seats summed),
with its 95% interval: the sharp test of "not worse", since both readings met the same decks.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from conquian import get_rules
from conquian.bots import bot_names, make_bot
from conquian.bots.expert import INFERENCES
from conquian.tournament import TournamentResult, run_tournament

#: how each adversary's name is played (the name in the tournament, its arguments)
ADVERSARIES: dict[str, tuple[str, dict[str, Any]]] = {
    "foster": ("foster", {}),
    "random": ("random", {}),
    "apprentice": ("apprentice", {}),
    "expert": ("master", {"iterations": 240, "cap_ms": None, "inference": "choices"}),
}


def interval(xs: list[float]) -> tuple[float, float, float]:
    """The mean of ``xs`` and its 95% interval (normal approximation)."""
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    h = 1.96 * sd / math.sqrt(n)
    return m, m - h, m + h


def per_deck(res: TournamentResult) -> list[float]:
    """The first slot's points on each deck: +1 a win, -1 a loss, both seats summed."""
    out: list[float] = []
    n = res.players
    for g, game in enumerate(res.outcomes):
        r = g % n
        for seat_index, o in enumerate(game):
            if (seat_index + r) % n == 0:
                if r == 0:
                    out.append(0.0)
                out[-1] += 1.0 if o.won else -1.0 if o.lost else 0.0
    return out


def parse_params(ap: argparse.ArgumentParser, bot: str, text: str) -> dict[str, Any]:
    """``--params``: the bot's other keyword arguments as a JSON object, checked by making the bot
    with them (a clear error through ``ap`` otherwise)."""
    try:
        params = json.loads(text)
        if not isinstance(params, dict):
            raise ValueError("not an object")
        make_bot(bot, **params)
    except (ValueError, TypeError) as e:
        ap.error(f"--params must be the bot's keyword arguments as a JSON object: {e}")
    return params


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.reading")
    ap.add_argument("--bot", default="expert", choices=["expert", "master", "exit"])
    ap.add_argument("--readings", default="choices,mixture", help="two readings, comma-separated")
    ap.add_argument("--adversary", default="foster,expert,random",
                    help=f"comma-separated, of: {', '.join(ADVERSARIES)}")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--params", default="{}", help="the bot's other keyword arguments (JSON)")
    args = ap.parse_args(argv)
    readings = [r.strip() for r in args.readings.split(",") if r.strip()]
    if len(readings) != 2 or any(r not in INFERENCES for r in readings):
        ap.error(f"--readings must be two of: {', '.join(INFERENCES)}")
    adversaries = [a.strip() for a in args.adversary.split(",") if a.strip()]
    if not adversaries or any(a not in ADVERSARIES for a in adversaries):
        ap.error(f"--adversary must be of: {', '.join(ADVERSARIES)}")
    if args.deals < 2:
        ap.error("--deals must be at least 2")
    params = parse_params(ap, args.bot, args.params)
    assert args.bot in bot_names()
    rules = get_rules("conquian")
    report: dict[str, Any] = {"bot": args.bot, "params": params, "deals": args.deals, "seed": args.seed}
    for adversary in adversaries:
        name, adv_params = ADVERSARIES[adversary]
        if name == args.bot:
            ap.error(f"the bot {args.bot!r} cannot also play the adversary {adversary!r}")
        decks: list[list[float]] = []
        out: dict[str, Any] = {}
        for reading in readings:
            bot_params = {args.bot: {**params, "inference": reading}, name: adv_params}
            res = run_tournament(rules, [args.bot, name], args.deals, args.seed, args.workers,
                                 bot_params=bot_params, progress=True)
            r = res.slots[0]
            lo, hi = r.win_rate_ci95
            out[reading] = {"wins": r.wins, "losses": r.losses, "tableaux": r.tableaux,
                            "win_rate": r.win_rate, "win_rate_ci95": [lo, hi],
                            "seconds_per_decision": r.seconds_per_decision,
                            "p95_seconds_per_decision": r.p95_seconds_per_decision}
            decks.append(per_deck(res))
        diff = [b - a for a, b in zip(decks[0], decks[1], strict=True)]
        m, lo, hi = interval(diff)
        out[f"{readings[1]} minus {readings[0]}, points a deck"] = {"mean": m, "ci95": [lo, hi],
                                                                    "decks": len(diff)}
        report[f"against {adversary}"] = out
        print(json.dumps({adversary: out}), file=sys.stderr, flush=True)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
