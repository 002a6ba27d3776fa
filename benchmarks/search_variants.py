"""Variants of the search against one adversary on the same decks of conquian, paired.

    python -m benchmarks.search_variants --deals 100 --seed 7 --variants \\
        '{"exit": ["exit", {"iterations": 240, "cap_ms": null}],
          "exit T=1": ["exit", {"iterations": 240, "cap_ms": null, "temperature": 1.0}]}'
    options: --adversary NAME (default foster) --adversary-params JSON --workers W

Each variant (a label: a registered bot and its keyword arguments) plays the same ``--deals``
decks, each once in each seat, against the same adversary with the same bots' seeds: the games
differ only by the variant.  Printed (JSON), per variant: wins, losses, tableaux, the win rate of
decided deals with Wilson's 95% interval, the mean and 95th-percentile seconds a decision, its
points on each deck (a win +1, a loss -1, both seats summed: runs on the same decks can be paired
afterwards) and, after the first, the paired difference from the first variant in points a deck
with its 95% interval.  Each variant's line goes to
stderr as soon as it is measured, so a run cut short keeps what it measured.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from benchmarks.reading import interval, per_deck
from conquian import get_rules
from conquian.bots import make_bot
from conquian.tournament import run_tournament


def parse_variants(ap: argparse.ArgumentParser, text: str) -> dict[str, tuple[str, dict[str, Any]]]:
    """``--variants``: a JSON object of labels to ``[bot, {keyword arguments}]``, each checked by
    making the bot (a clear error through ``ap`` otherwise)."""
    try:
        raw = json.loads(text)
        if not isinstance(raw, dict) or not raw:
            raise ValueError("not a non-empty object")
        out: dict[str, tuple[str, dict[str, Any]]] = {}
        for label, spec in raw.items():
            if not (isinstance(spec, list) and len(spec) == 2 and isinstance(spec[0], str)
                    and isinstance(spec[1], dict)):
                raise ValueError(f"{label!r}: not [bot, {{arguments}}]")
            make_bot(spec[0], **spec[1])
            out[label] = (spec[0], spec[1])
    except (ValueError, TypeError) as e:
        ap.error(f"--variants must be a JSON object of labels to [bot, {{arguments}}]: {e}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.search_variants")
    ap.add_argument("--variants", required=True, help="labels to [bot, {arguments}] (JSON)")
    ap.add_argument("--adversary", default="foster")
    ap.add_argument("--adversary-params", default="{}", help="the adversary's keyword arguments (JSON)")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args(argv)
    variants = parse_variants(ap, args.variants)
    if args.deals < 2:
        ap.error("--deals must be at least 2")
    try:
        adv_params = json.loads(args.adversary_params)
        make_bot(args.adversary, **adv_params)
    except (ValueError, TypeError, KeyError) as e:
        ap.error(f"--adversary and --adversary-params must name a bot and its arguments: {e}")
    rules = get_rules("conquian")
    report: dict[str, Any] = {"adversary": args.adversary, "adversary_params": adv_params,
                              "deals": args.deals, "seed": args.seed}
    first: list[float] | None = None
    for label, (bot, params) in variants.items():
        if bot == args.adversary:
            ap.error(f"the variant {label!r} plays {bot!r}, the adversary's bot: give the adversary another name")
        res = run_tournament(rules, [bot, args.adversary], args.deals, args.seed, args.workers,
                             bot_params={bot: params, args.adversary: adv_params}, progress=True)
        r = res.slots[0]
        lo, hi = r.win_rate_ci95
        out: dict[str, Any] = {"bot": bot, "params": params, "wins": r.wins, "losses": r.losses,
                               "tableaux": r.tableaux, "win_rate": r.win_rate, "win_rate_ci95": [lo, hi],
                               "seconds_per_decision": r.seconds_per_decision,
                               "p95_seconds_per_decision": r.p95_seconds_per_decision}
        decks = per_deck(res)
        out["per_deck"] = decks
        if first is None:
            first = decks
        else:
            m, dlo, dhi = interval([b - a for a, b in zip(first, decks, strict=True)])
            out["minus the first, points a deck"] = {"mean": m, "ci95": [dlo, dhi], "decks": len(decks)}
        report[label] = out
        print(json.dumps({label: out}), file=sys.stderr, flush=True)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
