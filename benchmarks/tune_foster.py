"""Does ``foster`` sit at a local optimum of its own constants?  (Issue 12: a better playout policy.)

    python -m benchmarks.tune_foster                     # every constant, two moves each, 2,000 decks
    python -m benchmarks.tune_foster --decks 500 --grid '{"use": [4.0, 6.0]}'

The conquian policy's constants (``conquian.bots.foster_conquian``) are replaced, in a
private copy of its source, by entries of a dictionary; a variant with one constant moved
plays each deck twice against the shipped ``foster`` (once in each seat, the same cards).
Reported per variant: its wins, losses, tableaux and win rate of decided deals.  The copy
is checked first: with no constant moved it wins exactly as many deals as it loses.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

#: name: (the text in foster_conquian.py, the same with the constant read from ``P``, its value)
CONSTANTS: dict[str, tuple[str, str, float]] = {
    "side": ("return 3.0  # it goes down", 'return P["side"]  # it goes down', 3.0),
    "run3": ("best = max(best, 4.0 if run else 3.5)", 'best = max(best, P["run3"] if run else P["set3"])', 4.0),
    "set3": ("", "", 3.5),  # the same line as run3
    "runout": ("outs += 1.2 if run else 1.0", 'outs += P["runout"] if run else 1.0', 1.2),
    "outcap": ("return (outs if outs < 3.0 else 3.0) * 0.8",
               'return min(outs, P["outcap"]) * P["outmul"]', 3.0),
    "outmul": ("", "", 0.8),  # the same line as outcap
    "safe": ("adversary_safe = o.other_hand_count >= 3", 'adversary_safe = o.other_hand_count >= P["safe"]', 3),
    "fit": ("score = keep + 2.5", 'score = keep + P["fit"]', 2.5),
    "hdead": ("hopeless = dead >= 5 and o.down.bit_count() < 4",
              'hopeless = dead >= P["hdead"] and o.down.bit_count() < P["hdown"]', 5),
    "hdown": ("", "", 4),  # the same line as hdead
    "use": ("return kept + 5.0 * (1 + min(laid, 2)) - 1.2 * max(0, laid - 2)",
            'return kept + P["use"] * (1 + min(laid, 2)) - P["show"] * max(0, laid - 2)', 5.0),
    "show": ("", "", 1.2),  # the same line as use
}

GRID = {
    "use": [3.0, 4.0, 6.0, 8.0], "show": [0.0, 0.6, 2.4], "fit": [1.0, 4.0, 6.0], "side": [2.0, 4.0],
    "run3": [3.0, 5.0], "set3": [2.5, 4.5], "runout": [1.0, 1.5], "outmul": [0.5, 1.1], "outcap": [2.0, 5.0],
    "safe": [2, 4, 6], "hdead": [4, 6, 99], "hdown": [2, 6],
}


def variant_module() -> ModuleType:
    """A private copy of ``foster_conquian`` whose constants are read from its dictionary ``P``."""
    from conquian.bots import foster_conquian

    src = (Path(foster_conquian.__file__ or "").parent / "foster_conquian.py").read_text()
    for name, (old, new, _) in CONSTANTS.items():
        if old:
            if old not in src:
                raise SystemExit(f"tune_foster: the constant {name!r} is no longer where it was in "
                                 "foster_conquian.py; update CONSTANTS")
            src = src.replace(old, new)
    src = src.replace("from __future__ import annotations\n", "from __future__ import annotations\nP: dict = {}\n", 1)
    path = Path(tempfile.mkdtemp()) / "foster_variant.py"
    path.write_text(src)
    spec = importlib.util.spec_from_file_location("foster_variant", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules["foster_variant"] = mod
    spec.loader.exec_module(mod)
    mod.P.update({k: v for k, (_, _, v) in CONSTANTS.items()})
    return mod


def match(var: ModuleType, decks: int) -> tuple[int, int, int]:
    """The variant against the shipped foster: wins, losses, tableaux (every deck in both seats)."""
    from conquian import ConquianDeal, get_rules
    from conquian.bots import foster_conquian as fc
    from conquian.bots.foster import conquian_obs_from_state

    rules = get_rules("conquian")
    fields = list(fc.Obs.__dataclass_fields__)
    w = l = t = 0
    for k in range(decks):
        for var_player in (0, 1):
            d = ConquianDeal(rules, seed=k, dealer=2)
            rng = random.Random(k)
            while not d.over:
                o = conquian_obs_from_state(d)
                if d.actor == var_player:
                    raw: Any = var.policy(var.Obs(**{f: getattr(o, f) for f in fields}), rng)
                else:
                    raw = fc.policy(o, rng)
                d.apply_raw(*raw)
            if d.winner < 0:
                t += 1
            elif d.winner == var_player:
                w += 1
            else:
                l += 1
    return w, l, t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.tune_foster", description=__doc__.split("\n\n")[0])
    ap.add_argument("--decks", type=int, default=2000, help="decks per variant, each played twice (default 2000)")
    ap.add_argument("--grid", default=None, help="JSON {constant: [values]} (default: every constant, "
                    "a few moves each)")
    args = ap.parse_args(argv)
    if args.decks < 1:
        ap.error("--decks must be at least 1")
    try:
        grid = json.loads(args.grid) if args.grid else GRID
        assert isinstance(grid, dict) and all(isinstance(v, list) for v in grid.values())
    except (ValueError, AssertionError):
        ap.error("--grid must be a JSON object of lists, e.g. '{\"use\": [4.0, 6.0]}'")
    unknown = sorted(set(grid) - set(CONSTANTS))
    if unknown:
        ap.error(f"unknown constants {unknown} (known: {', '.join(CONSTANTS)})")
    var = variant_module()
    base = dict(var.P)
    w, l, t = match(var, min(args.decks, 200))
    print(f"the copy unchanged: {w} wins, {l} losses, {t} tableaux", flush=True)
    if w != l:
        raise SystemExit("tune_foster: the unchanged copy does not play as foster does")
    for name, values in grid.items():
        for value in values:
            var.P.clear()
            var.P.update(base, **{name: value})
            w, l, t = match(var, args.decks)
            print(f"{name} = {value} (foster: {base[name]}): {w} wins, {l} losses, {t} tableaux, "
                  f"{100 * w / max(1, w + l):.1f}% of decided deals", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
