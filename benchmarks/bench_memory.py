"""Memory per stored state of separate deals, beside OpenSpiel's ``gin_rummy`` at the same decision.

    python -m benchmarks.bench_memory             # 5,000 deals a preset, each a fresh process
    python -m benchmarks.bench_memory --quick     # a smoke run
    python -m benchmarks.bench_memory --json

Each preset's figure is the resident memory a fresh process gains by keeping ``--deals`` deals,
each dealt from its own seed and played ``--decisions`` random decisions (or to its end), divided
by their number: not copies of one deal, which share their history (``python -m benchmarks``
measures those); and again with the engine's caches warmed by the same deals played once before
(what the meld tables' bounded memos keep is the process's, not the states').  OpenSpiel's figure
is the same for its ``gin_rummy`` states at their 20th decision (its chance outcomes not counted
as decisions).  The breakdown says what one stored state holds: each attribute's objects that no
other deal shares (the rules, tables, shared event tuples, small ints and anything else reachable
from the engine's modules are not counted), by ``sys.getsizeof`` (which counts the garbage
collector's header of the objects it tracks).  Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import subprocess
import sys
from typing import Any

#: (preset, players) measured.
CONFIGS = [("conquian", 2), ("conquian-mexicano", 3), ("cooncan", 3), ("cooncan-double", 5)]

_PROBE = r"""
import gc, json, random, sys
sys.path.insert(0, ".")
from benchmarks.peers import rss_bytes
kind, n, decisions, warm = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "warm"
if kind == "openspiel":
    import pyspiel
    game = pyspiel.load_game("gin_rummy")
    def make(seed):
        rng = random.Random(seed)
        s = game.new_initial_state()
        k = 0
        while k < decisions and not s.is_terminal():
            if s.is_chance_node():
                o = s.chance_outcomes(); s.apply_action(o[rng.randrange(len(o))][0])
            else:
                la = s.legal_actions(); s.apply_action(la[rng.randrange(len(la))]); k += 1
        return s, 0
else:
    from conquian import get_rules
    from conquian.engine.match import new_deal
    variant, players = kind.rsplit(":", 1)
    rules = get_rules(variant, players=int(players))
    def make(seed):
        rnd = random.Random(seed).random
        d = new_deal(rules, seed=seed, dealer=rules.players)
        k = 0
        while k < decisions and not d.over:
            d.apply_raw(*d.random_raw(rnd)); k += 1
        return d, d.n_events
    make(10**6)  # the shared tables made once, outside the measure
if warm:
    for s in range(n):
        make(s)  # the same deals played once and dropped: the engine's caches hold what they need
gc.collect()
before = rss_bytes()
kept = [make(s) for s in range(n)]
gc.collect()
after = rss_bytes()
print(json.dumps({"bytes": (after - before) / n, "events": sum(e for _, e in kept) / n}))
"""


def probe(kind: str, deals: int, decisions: int, warm: bool = False) -> dict[str, float]:
    """Resident bytes per stored state and mean events, in a fresh process (``kind``: ``openspiel``
    or ``variant:players``), so that memory freed earlier cannot hide the cost.  ``warm``: the same
    deals are played once and dropped before, so that what the engine's caches (the meld tables'
    memos, bounded) keep for them is not counted, only the states."""
    out = subprocess.run([sys.executable, "-c", _PROBE, kind, str(deals), str(decisions), "warm" if warm else "cold"],
                         capture_output=True, text=True, timeout=1200, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def _size(obj: Any, seen: set[int], shared: set[int]) -> int:
    """The bytes of ``obj`` and what it holds that is neither ``seen`` yet nor ``shared``."""
    total = 0
    stack = [obj]
    while stack:
        o = stack.pop()
        if id(o) in seen or id(o) in shared or o is None or isinstance(o, bool):
            continue
        if (isinstance(o, int) and -5 <= o <= 256) or (isinstance(o, str) and sys.intern(o) is o):
            continue  # the interpreter's small ints, interned strings (the code's constants)
        seen.add(id(o))
        total += sys.getsizeof(o)
        if isinstance(o, tuple | list):
            stack.extend(o)
        elif isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
    return total


def breakdown(variant: str, players: int, deals: int, decisions: int) -> dict[str, float]:
    """Mean bytes per stored state, attribute by attribute (what no other deal shares)."""
    from conquian import get_rules
    from conquian.engine.match import new_deal

    rules = get_rules(variant, players=players)
    kept = []
    for seed in range(deals):
        rnd = random.Random(seed).random
        d = new_deal(rules, seed=seed, dealer=rules.players)
        for _ in range(decisions):
            if d.over:
                break
            d.apply_raw(*d.random_raw(rnd))
        kept.append(d)
    # what every deal may share: module-level objects reachable from the deal modules' globals
    shared: set[int] = set()
    for mod in list(sys.modules.values()):
        name = getattr(mod, "__name__", "")
        if name.startswith("conquian"):
            for v in vars(mod).values():
                _size(v, shared, set())
    parts: dict[str, float] = {}
    for d in kept:
        seen: set[int] = set()
        parts["(object)"] = parts.get("(object)", 0) + sys.getsizeof(d)
        for slot in sorted({s for c in type(d).__mro__ for s in getattr(c, "__slots__", ())}):
            if slot in ("rules", "tbl") or not hasattr(d, slot):
                continue
            parts[slot] = parts.get(slot, 0) + _size(getattr(d, slot), seen, shared)
    out = {k: v / len(kept) for k, v in parts.items()}
    return out


def main(argv: list[str] | None = None) -> None:
    """Print each preset's bytes per stored state, OpenSpiel's, their ratio and the breakdown."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=5000)
    ap.add_argument("--decisions", type=int, default=20)
    ap.add_argument("--quick", action="store_true", help="500 deals, no OpenSpiel")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    deals = 500 if args.quick else args.deals
    results: dict[str, Any] = {}
    peer = None
    if not args.quick:
        try:
            peer = probe("openspiel", deals, args.decisions)["bytes"]
        except subprocess.CalledProcessError:
            peer = None  # OpenSpiel not installed (the bench extra)
    results["openspiel"] = peer
    for variant, players in CONFIGS:
        r: dict[str, Any] = probe(f"{variant}:{players}", deals, args.decisions)
        r["warm_bytes"] = probe(f"{variant}:{players}", deals, args.decisions, warm=True)["bytes"]
        r["breakdown"] = breakdown(variant, players, min(deals, 1000), args.decisions)
        if peer:
            r["ratio"] = peer / r["bytes"]
            r["warm_ratio"] = peer / r["warm_bytes"]
        results[f"{variant} ({players})"] = r
        gc.collect()
    if args.json:
        print(json.dumps(results, indent=2))
        return
    if peer:
        print(f"OpenSpiel gin_rummy at decision {args.decisions}: {peer:,.0f} B a state")
    for name, r in results.items():
        if name == "openspiel":
            continue
        ratio = f"  OpenSpiel / ours {r['ratio']:.1f} x" if "ratio" in r else ""
        warm = f" ({r['warm_ratio']:.1f} x)" if "warm_ratio" in r else ""
        print(f"{name}: {r['bytes']:,.0f} B a state ({r['events']:.1f} events){ratio}; the states alone "
              f"(caches warmed by the same deals) {r['warm_bytes']:,.0f} B{warm}")
        parts = ", ".join(f"{k} {v:,.0f}" for k, v in sorted(r["breakdown"].items(), key=lambda kv: -kv[1])
                          if v >= 1)
        print(f"    breakdown (B): {parts}; sum {sum(r['breakdown'].values()):,.0f}")


if __name__ == "__main__":
    main()
