"""Speed of the engine on one core: random playouts, state copies, listing and checking actions.

    python benchmarks/bench_engine.py            # full run (a few seconds per figure)
    python benchmarks/bench_engine.py --quick    # smoke run, as in CI
    python benchmarks/bench_engine.py --json

Figures are medians of ``--repeat`` runs.  Nothing here asserts a time: speed is
read, never tested (a slow machine must not fail CI).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from conquian import get_rules
from conquian.engine.match import Deal, new_deal
from conquian.engine.rules import Rules
from conquian.simulate import simulate

#: (preset, players): the two-hand games, three-hand Cooncan, five-hand double-pack Cooncan
CONFIGS = [("conquian", 2), ("conquian-spanish", 2), ("cooncan", 3), ("cooncan-double", 5)]


def positions(rules: Rules, n: int, seed: int = 0) -> list[Deal]:
    """``n`` positions reached by random play, with someone to act (spread over many deals)."""
    rng = random.Random(seed)
    out: list[Deal] = []
    s = 0
    while len(out) < n:
        deal = new_deal(rules, seed=s, dealer=rules.players)
        s += 1
        k = 0
        while not deal.over:
            if k % 3 == 0:
                out.append(deal.copy())
            deal.apply_raw(*deal.random_raw(rng.random))
            k += 1
    return out[:n]


def rate(fn: Callable[[], int], seconds: float) -> float:
    """Calls of ``fn`` (each returning how many operations it did) per second over about ``seconds``."""
    done = 0
    start = time.perf_counter()
    while True:
        done += fn()
        el = time.perf_counter() - start
        if el >= seconds:
            return done / el


def bench(variant: str, players: int, seconds: float, repeat: int) -> dict[str, Any]:
    rules = get_rules(variant, players=players)
    deals_s, decisions_s = [], []
    per_deal = 3000 if rules.family == "conquian" else 500
    simulate(rules, 50, seed=12345)  # warm up: memo tables, caches, the CPU's clock
    for r in range(repeat):
        n = max(20, int(per_deal * seconds))
        res = simulate(rules, n, seed=r)
        deals_s.append(res.deals_per_second)
        decisions_s.append(res.decisions_per_second)
    pos = positions(rules, 2000)

    def copies() -> int:
        for d in pos:
            d.copy()
        return len(pos)

    def listing() -> int:
        for d in pos:
            d.legal_raw()
        return len(pos)

    def public_listing() -> int:
        for d in pos[:500]:
            d.legal_actions()
        return 500

    # the hardest action to check is a use (combinations, borrowing): take one where listed
    checks = [(d, d.legal_actions()[-1]) for d in pos[:500]]

    def check() -> int:
        for d, a in checks:
            d.verify(a)
        return len(checks)

    def med(fn: Callable[[], int]) -> float:
        return statistics.median(rate(fn, seconds / 3) for _ in range(repeat))

    return {
        "variant": variant,
        "players": players,
        "deals_per_second": statistics.median(deals_s),
        "decisions_per_second": statistics.median(decisions_s),
        "copies_per_second": med(copies),
        "raw_listings_per_second": med(listing),
        "legal_actions_per_second": med(public_listing),
        "verifies_per_second": med(check),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="a short smoke run")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--repeat", type=int, default=None, help="runs per figure (median)")
    args = ap.parse_args(argv)
    seconds = 0.2 if args.quick else 2.0
    repeat = args.repeat or (1 if args.quick else 5)
    results = [bench(v, n, seconds, repeat) for v, n in CONFIGS]
    machine = {"python": sys.version.split()[0], "machine": platform.machine(), "platform": platform.platform()}
    if args.json:
        print(json.dumps({"machine": machine, "results": results}))
        return 0
    print(f"Python {machine['python']} on {machine['platform']} (one core, median of {repeat})")
    names = [
        ("deals_per_second", "random playouts, deals/s"),
        ("decisions_per_second", "random playouts, decisions/s"),
        ("copies_per_second", "state copies/s"),
        ("raw_listings_per_second", "legal listings (raw)/s"),
        ("legal_actions_per_second", "legal_actions() (objects, sorted)/s"),
        ("verifies_per_second", "checks of one action (use if any)/s"),
    ]
    heads = [f"{r['variant']} ({r['players']})" for r in results]
    print(f"{'':38}" + "".join(f"{h:>22}" for h in heads))
    for key, label in names:
        print(f"{label:38}" + "".join(f"{r[key]:>22,.0f}" for r in results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
