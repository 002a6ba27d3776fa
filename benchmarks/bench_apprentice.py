"""What a playout costs: ``foster``'s (``master``'s playouts) against the apprentice's (``exit``'s).

    python -m benchmarks.bench_apprentice                 # 30 rounds over the same positions
    python -m benchmarks.bench_apprentice --rounds 5

Conquian positions (random play from 60 seeded deals, up to 20 actions in, not over) are each
finished many times from a copy: by ``foster`` for both seats (``expert.playout_value``), and by
the apprentice for the seat to act with ``foster`` for the other (``apprentice_policy.playout``
as ``exit`` plays it).  Reported: CPU milliseconds a playout (``time.process_time``, so that other
work on a shared machine counts less), the two kinds alternating round by round, and their
ratio.  Run it after ``conquian speedups build`` for the compiled figures.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from conquian import ConquianDeal, get_rules, speedups
from conquian.bots.apprentice import shipped_weights
from conquian.bots.apprentice_policy import playout
from conquian.bots.expert import playout_value


def positions(n: int = 60) -> list[tuple[ConquianDeal, int]]:
    """Deals played at random to a random point, with the seat to act."""
    out = []
    for seed in range(n):
        rng = random.Random(seed)
        d = ConquianDeal(get_rules("conquian"), seed=seed, dealer=2)
        for _ in range(rng.randint(0, 20)):
            if d.over:
                break
            d.apply_raw(*d.random_raw(rng.random))
        if not d.over and d.to_act is not None:
            out.append((d, d.to_act))
    return out


def one_round(kind: str, bases: list[tuple[ConquianDeal, int]], r: int) -> float:
    """CPU milliseconds a playout, every position finished once."""
    w = shipped_weights()
    start = time.process_time()
    for d, seat in bases:
        x = d.copy()
        if kind == "foster":
            playout_value(x, seat, random.Random(r), 400)
        else:
            playout(x, seat, w, random.Random(r), True)
    return (time.process_time() - start) / len(bases) * 1000


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_apprentice")
    ap.add_argument("--rounds", type=int, default=30)
    args = ap.parse_args(argv)
    bases = positions()
    times: dict[str, list[float]] = {"foster": [], "apprentice": []}
    for r in range(args.rounds):
        for kind in times:
            times[kind].append(one_round(kind, bases, r))
    out: dict[str, object] = {k: round(statistics.mean(v), 4) for k, v in times.items()}
    out["ratio"] = round(statistics.mean(times["apprentice"]) / statistics.mean(times["foster"]), 3)
    out["compiled"] = all(speedups.status().values())
    out["positions"] = len(bases)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
