"""Our engine beside its peers, in one run, one core each: ``python -m benchmarks``.

    python -m benchmarks             # every figure, median of 5 runs (a few minutes)
    python -m benchmarks --quick     # a smoke run (CI)
    python -m benchmarks --json

Peers (OpenSpiel's gin_rummy, RLCard's gin-rummy) come from the ``bench`` extra
(``pip install -e '.[bench]'``); a peer that is not installed is skipped and named.
Figures are printed, never asserted: the ratios are what carries across machines.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from benchmarks.bench_engine import CONFIGS, positions, rate
from benchmarks.peers import PEERS, Missing, memory_probe
from conquian import get_rules
from conquian.bots import make_bot
from conquian.simulate import simulate


def ours(variant: str, players: int, seconds: float) -> dict[str, float]:
    """Random playouts, copies, listing and checking costs, memory per stored state."""
    rules = get_rules(variant, players=players)
    per = 3000 if rules.family == "conquian" else 500
    simulate(rules, 30, seed=99)  # warm-up
    sim = simulate(rules, max(20, int(per * seconds)), seed=1)
    pos = positions(rules, 1000)
    checks = [(d, d.legal_actions()[-1]) for d in pos[:300]]

    def copies() -> int:
        for d in pos:
            d.copy()
        return len(pos)

    def listings() -> int:
        for d in pos:
            d.legal_raw()
        return len(pos)

    def verifies() -> int:
        for d, a in checks:
            d.verify(a)
        return len(checks)

    # memory per stored state: Python objects by tracemalloc, and resident memory in a fresh
    # process, measured the same way as the peers'
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = [pos[i % len(pos)].copy() for i in range(20000)]
    traced = (tracemalloc.get_traced_memory()[0] - before) / len(kept)
    tracemalloc.stop()
    del kept
    rss = memory_probe(f"{variant}:{players}")
    return {
        "deals_per_second": sim.deals_per_second,
        "decisions_per_second": sim.decisions_per_second,
        "copies_per_second": rate(copies, seconds),
        "microseconds_per_listing": 1e6 / rate(listings, seconds),
        "microseconds_per_check": 1e6 / rate(verifies, seconds),
        "bytes_per_state": traced,
        "rss_bytes_per_state": rss,
    }


def expert_seconds(variant: str, players: int, decisions: int) -> float:
    """The expert bot's mean seconds per decision at its default budget."""
    rules = get_rules(variant, players=players)
    rng = random.Random(3)
    total = 0.0
    done = 0
    for d in positions(rules, 400, seed=7):
        if done >= decisions:
            break
        if rng.random() > 0.1:
            continue
        seat = d.to_act
        assert seat is not None
        view = d.view(seat)
        if len(view.legal_raw()) < 2:
            continue
        bot = make_bot("expert", seed=done)
        t0 = time.perf_counter()
        bot.choose(view)
        total += time.perf_counter() - t0
        done += 1
    return total / max(1, done)


def median_of(fn: Callable[[], dict[str, float]], repeat: int) -> dict[str, dict[str, float]]:
    runs = [fn() for _ in range(repeat)]
    out: dict[str, dict[str, float]] = {}
    for key in runs[0]:
        values = [r[key] for r in runs]
        out[key] = {"median": statistics.median(values), "min": min(values), "max": max(values)}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="a short smoke run")
    ap.add_argument("--repeat", type=int, default=None, help="runs per figure (median, min, max)")
    ap.add_argument("--seconds", type=float, default=None, help="seconds per figure and run")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    repeat = args.repeat or (1 if args.quick else 5)
    seconds = args.seconds or (0.2 if args.quick else 2.0)
    report: dict[str, Any] = {
        "machine": {"python": sys.version.split()[0], "platform": platform.platform(),
                    "processor": platform.machine()},
        "repeat": repeat, "seconds": seconds, "ours": {}, "peers": {}, "skipped": {},
    }
    for variant, n in CONFIGS:
        report["ours"][f"{variant} ({n})"] = median_of(lambda v=variant, k=n: ours(v, k, seconds), repeat)
    expert_n = 3 if args.quick else 30
    report["expert_seconds_per_decision"] = {
        f"{v} ({n})": expert_seconds(v, n, expert_n) for v, n in (("conquian", 2), ("cooncan-double", 5))
    }
    for name, fn in PEERS.items():
        try:
            report["peers"][name] = median_of(lambda f=fn: f(seconds), repeat)
        except Missing as e:
            report["skipped"][name] = str(e)
    from benchmarks.bench_api import run as run_api

    report["api"] = run_api(seconds / 2, repeat)
    try:
        from benchmarks.bench_envs import run as run_envs

        report["envs"] = run_envs(seconds)
    except ImportError as e:  # the rl extra is not installed
        report["skipped"]["environments"] = f"{e} (pip install -e '.[rl]')"
    report["ratios"] = ratios(report)
    if args.json:
        print(json.dumps(report))
    else:
        print(text(report))
    return 0


def _m(report: dict[str, Any], side: str, name: str, key: str) -> float | None:
    table = report[side].get(name)
    if not table or key not in table:
        return None
    return float(table[key]["median"])


def ratios(report: dict[str, Any]) -> dict[str, float]:
    """The issue's targets as ratios (ours / peer; for memory, peer / ours)."""
    out: dict[str, float] = {}
    os_dec = _m(report, "peers", "openspiel gin_rummy", "decisions_per_second")
    os_clone = _m(report, "peers", "openspiel gin_rummy", "copies_per_second")
    os_mem = _m(report, "peers", "openspiel gin_rummy", "bytes_per_state")
    c_dec = _m(report, "ours", "conquian (2)", "decisions_per_second")
    c_copy = _m(report, "ours", "conquian (2)", "copies_per_second")
    c_mem = _m(report, "ours", "conquian (2)", "rss_bytes_per_state")
    d_dec = _m(report, "ours", "cooncan-double (5)", "decisions_per_second")
    if os_dec and c_dec:
        out["conquian fast-path decisions/s vs OpenSpiel decisions/s (target >= 2)"] = c_dec / os_dec
    if os_clone and c_copy:
        out["conquian copies/s vs OpenSpiel clones/s (target >= 5)"] = c_copy / os_clone
    if os_mem and c_mem:
        out["OpenSpiel bytes/state vs conquian bytes/state (target >= 20)"] = os_mem / max(1.0, c_mem)
    if os_dec and d_dec:
        out["cooncan-double (5) fast-path decisions/s vs OpenSpiel decisions/s (target >= 1)"] = d_dec / os_dec
    for name, r in report.get("envs", {}).get("ratios", {}).items():
        out[name] = r  # each names its own target
    for name, r in report.get("api", {}).get("ratios", {}).items():
        out[name] = r
    # like with like: the engine's fast path against RLCard's game (no observation built on either
    # side); the environments against RLCard's environment come from bench_envs' ratios above
    rl_game = _m(report, "peers", "rlcard gin-rummy (game)", "decisions_per_second")
    if rl_game:
        for name in report["ours"]:
            v = _m(report, "ours", name, "decisions_per_second")
            if v:
                out[f"{name} fast-path decisions/s vs RLCard game decisions/s (no target)"] = v / rl_game
    return out


def text(report: dict[str, Any]) -> str:
    lines = [f"Python {report['machine']['python']} on {report['machine']['platform']}; one core; "
             f"median of {report['repeat']} runs of {report['seconds']} s (min-max)", ""]

    def row(label: str, cell: dict[str, float] | None, fmt: str = ",.0f") -> str:
        if not cell:
            return f"  {label:42} -"
        return (f"  {label:42} {cell['median']:>14{fmt}}   ({cell['min']:{fmt}} - {cell['max']:{fmt}})")

    for name, table in report["ours"].items():
        lines.append(f"conquian engine, {name}")
        for key, label in [("deals_per_second", "fast path, random playouts, deals/s"),
                           ("decisions_per_second", "fast path, random playouts, decisions/s"),
                           ("copies_per_second", "state copies/s"),
                           ("microseconds_per_listing", "legal listing, microseconds"),
                           ("microseconds_per_check", "check of one action, microseconds"),
                           ("bytes_per_state", "memory per stored state (traced), B"),
                           ("rss_bytes_per_state", "memory per stored state (RSS), B")]:
            lines.append(row(label, table.get(key), ",.1f" if "micro" in key else ",.0f"))
    for name, sec in report["expert_seconds_per_decision"].items():
        lines.append(f"expert bot, {name}: {sec:.3f} s per decision at its default budget")
    for name, table in report["peers"].items():
        lines.append(f"{name}")
        for key, label in [("games_per_second", "random playouts, games/s"),
                           ("decisions_per_second", "random playouts, decisions/s"),
                           ("copies_per_second", "state clones/s"),
                           ("bytes_per_state", "memory per stored state (RSS), B")]:
            if key in table:
                lines.append(row(label, table[key]))
    if report.get("envs"):
        lines.append("environment steps/s (random legal play, observation and mask built at every step)")
        for side in ("ours", "peers"):
            for name, fig in report["envs"][side].items():
                lines.append(f"  {name:48} {fig['steps_per_second']:>10,.0f}")
    if report.get("api"):
        from benchmarks.bench_api import text as api_text

        lines.append("the public API (legal_actions() and play()) beside the fast path (random_raw() and "
                     "apply_raw()), interleaved")
        lines.extend(api_text(report["api"]).splitlines()[1:])
    for name, why in report["skipped"].items():
        lines.append(f"{name}: skipped ({why})")
    if report["ratios"]:
        lines.append("")
        lines.append("ratios (medians of this run)")
        for label, r in report["ratios"].items():
            lines.append(f"  {r:8.1f} x  {label}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
