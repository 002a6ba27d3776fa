"""The public API beside the engine's fast path and OpenSpiel, side by side: ``python -m benchmarks.bench_api``.

    python -m benchmarks.bench_api              # 5 interleaved rounds of 1 s per figure
    python -m benchmarks.bench_api --quick
    python -m benchmarks.bench_api --json

Random play, a uniform choice among the legal actions drawn as OpenSpiel's figure draws it
(``rng.randrange``), whole deals from new seeded decks, decisions per CPU-second:

- **public API**: ``deal.legal_actions()`` then ``deal.play(action)``, the path of the web table, the
  environments and every outside program (the same checks and refusals as for any action);
- **fast path**: ``deal.random_raw`` then ``deal.apply_raw`` (raw tuples, no checks), the path of
  simulations and the search's playouts;
- **OpenSpiel** ``gin_rummy``: ``state.legal_actions()`` then ``state.apply_action``, chance nodes
  sampled uniformly (skipped if ``open_spiel`` is not installed).

The sides alternate round by round; each figure is the median of the rounds, each ratio the median
of the rounds' ratios, so that a machine busy for a while weighs on every side alike.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable

from benchmarks.peers import openspiel_playout
from conquian import get_rules
from conquian.engine.match import new_deal

clock = time.process_time
#: (preset, players, the public API's target as a multiple of OpenSpiel's decisions a second)
CONFIGS = [("conquian", 2, 6.0), ("cooncan-double", 5, 3.5)]


def public(variant: str, players: int, seconds: float) -> float:
    """Decisions per CPU-second through ``legal_actions()`` and ``play()``."""
    rules = get_rules(variant, players=players)
    rng = random.Random(0)
    decisions = seed = 0
    start = clock()
    while clock() - start < seconds:
        deal = new_deal(rules, seed=seed, dealer=players)
        seed += 1
        while not deal.over:
            legal = deal.legal_actions()
            deal.play(legal[rng.randrange(len(legal))])
            decisions += 1
    return decisions / (clock() - start)


def fast(variant: str, players: int, seconds: float) -> float:
    """Decisions per CPU-second through ``random_raw()`` and ``apply_raw()``."""
    rules = get_rules(variant, players=players)
    rnd = random.Random(0).random
    decisions = seed = 0
    start = clock()
    while clock() - start < seconds:
        deal = new_deal(rules, seed=seed, dealer=players)
        seed += 1
        over = deal.OVER_STAGE
        while deal.stage != over:
            kind, arg = deal.random_raw(rnd)
            deal.apply_raw(kind, arg)
            decisions += 1
    return decisions / (clock() - start)


def openspiel(seconds: float) -> float:
    """OpenSpiel ``gin_rummy``'s player decisions per CPU-second (as :func:`benchmarks.peers.openspiel`)."""
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(0)
    decisions = 0
    start = clock()
    while clock() - start < seconds:
        decisions += openspiel_playout(game.new_initial_state(), rng)
    return decisions / (clock() - start)


def run(seconds: float, rounds: int) -> dict[str, object]:
    """Every figure and ratio (a JSON-ready dict)."""
    try:
        import pyspiel  # noqa: F401
        peer: Callable[[float], float] | None = openspiel
    except ImportError:
        peer = None
    sides: dict[str, Callable[[], float]] = {}
    for variant, n, _target in CONFIGS:
        sides[f"{variant} ({n}) public API"] = lambda v=variant, k=n: public(v, k, seconds)
        sides[f"{variant} ({n}) fast path"] = lambda v=variant, k=n: fast(v, k, seconds)
    if peer is not None:
        sides["openspiel gin_rummy"] = lambda: openspiel(seconds)
    for fn in sides.values():
        fn()  # warm-up: tables, caches, the CPU's clock
    runs: dict[str, list[float]] = {k: [] for k in sides}
    for _ in range(rounds):
        for name, fn in sides.items():
            runs[name].append(fn())
    figures = {k: statistics.median(v) for k, v in runs.items()}
    ratios: dict[str, float] = {}
    for variant, n, target in CONFIGS:
        name = f"{variant} ({n})"
        pub, raw = runs[f"{name} public API"], runs[f"{name} fast path"]
        ratios[f"{name} public API / fast path"] = statistics.median(a / b for a, b in zip(pub, raw, strict=True))
        if peer is not None:
            peer_runs = runs["openspiel gin_rummy"]
            ratios[f"{name} public API / OpenSpiel (target >= {target:g})"] = statistics.median(
                a / b for a, b in zip(pub, peer_runs, strict=True))
            ratios[f"{name} fast path / OpenSpiel"] = statistics.median(
                a / b for a, b in zip(raw, peer_runs, strict=True))
    out: dict[str, object] = {"seconds": seconds, "rounds": rounds, "decisions_per_cpu_second": figures,
                              "ratios": ratios}
    if peer is None:
        out["skipped"] = "open_spiel is not installed (pip install open-spiel)"
    return out


def text(report: dict[str, object]) -> str:
    lines = [f"decisions per CPU-second, random play, median of {report['rounds']} interleaved rounds of "
             f"{report['seconds']} s"]
    figures = report["decisions_per_cpu_second"]
    assert isinstance(figures, dict)
    for name, fig in figures.items():
        lines.append(f"  {name:40} {fig:>12,.0f}")
    ratios = report["ratios"]
    assert isinstance(ratios, dict)
    for name, r in ratios.items():
        lines.append(f"  {r:8.2f} x  {name}")
    if "skipped" in report:
        lines.append(f"  OpenSpiel skipped: {report['skipped']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seconds", type=float, default=None)
    ap.add_argument("--rounds", type=int, default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    report = run(args.seconds or (0.2 if args.quick else 1.0), args.rounds or (1 if args.quick else 5))
    print(json.dumps(report) if args.json else text(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
