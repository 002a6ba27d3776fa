"""Speed of the ``foster`` policy: its decisions per CPU-second, per preset.

    python -m benchmarks.bench_foster                       # this checkout, pure Python
    python -m benchmarks.bench_foster --compiled            # and compiled (needs the speed extra)
    python -m benchmarks.bench_foster --baseline-rev HEAD~3 # beside an older revision of the code
    python -m benchmarks.bench_foster --baseline 13500,...  # beside figures of an earlier run
    python -m benchmarks.bench_foster --deals --compiled    # whole deals a second, pure and compiled

Forty seeded deals per preset are played with ``foster`` in every seat, every position where
it decides kept; then the policy is timed on these positions over and over, as the search's
playouts and ``conquian stats`` call it (the seat's observation read from the state, then the
policy).  Each side (this checkout, the baseline
revision, each pure and compiled) runs in a child process of its own, the sides interleaved
round after round so that a busy machine slows them alike; the figure is the median of the
rounds.  Figures are printed, never asserted: the ratios are what carries across machines.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

#: (preset, players)
CONFIGS = [("conquian", 2), ("conquian-spanish", 2), ("cooncan", 3), ("cooncan-double", 5),
           ("conquian-mexicano", 2), ("conquian-mexicano", 3)]

#: Run in a child process with the code under test first on its path: prints, for each preset,
#: foster's decisions per CPU-second of policy over about ``seconds``.
CHILD = """
import json, random, sys, time
from conquian import get_rules
from conquian.bots.foster import state_policy
from conquian.engine.match import new_deal

configs, seconds = json.loads(sys.argv[1]), float(sys.argv[2])
clock = time.process_time
out = []
for variant, n in configs:
    rules = get_rules(variant, players=n)
    rng = random.Random(0)
    positions = []
    for i in range(DEALS):
        deal = new_deal(rules, seed=i, dealer=1 + i % n)
        over = deal.OVER_STAGE
        while deal.stage != over:
            positions.append(deal.copy())
            deal.apply_raw(*state_policy(deal, rng))
    spent = 0.0
    decisions = 0
    while spent < seconds:
        t = clock()
        for d in positions:
            state_policy(d, rng)
        spent += clock() - t
        decisions += len(positions)
    out.append(decisions / spent)
print(json.dumps(out))
""".replace("DEALS", "40")

#: The same, whole deals per CPU-second: foster in every seat, as ``conquian stats`` plays them (new
#: seeded decks, the policy read from the state, the deal passing round the table).
CHILD_DEALS = """
import json, random, sys, time
from conquian import get_rules
from conquian.bots.foster import state_policy
from conquian.engine.match import new_deal

configs, seconds = json.loads(sys.argv[1]), float(sys.argv[2])
clock = time.process_time
out = []
for variant, n in configs:
    rules = get_rules(variant, players=n)
    rng = random.Random(0)
    deals = 0
    start = clock()
    while clock() - start < seconds:
        deal = new_deal(rules, seed=deals, dealer=1 + deals % n)
        over = deal.OVER_STAGE
        while deal.stage != over:
            deal.apply_raw(*state_policy(deal, rng))
        deals += 1
    out.append(deals / (clock() - start))
print(json.dumps(out))
"""


def export(rev: str, dest: Path) -> Path:
    """The package of git revision ``rev`` written under ``dest``; the directory to put on the path."""
    repo = Path(__file__).resolve().parent.parent
    dest.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(repo), "archive", rev, "src"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
    return dest / "src"


def compiled_copy(src: Path, dest: Path) -> Path:
    """A copy of the package at ``src`` with its hot path compiled; the directory to put on the path."""
    dest.mkdir(parents=True)
    shutil.copytree(src / "conquian", dest / "conquian", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    code = "import sys; from pathlib import Path; from conquian import speedups; speedups.build(Path(sys.argv[1]))"
    subprocess.run([sys.executable, "-c", code, str(dest / "conquian")], check=True,
                   env=dict(os.environ, PYTHONPATH=str(dest)), cwd=dest)
    return dest


def run_child(path: Path, seconds: float, deals: bool = False) -> list[float]:
    """One round of every preset with the package at ``path``."""
    env = dict(os.environ, PYTHONPATH=str(path))
    p = subprocess.run([sys.executable, "-c", CHILD_DEALS if deals else CHILD, json.dumps(CONFIGS), str(seconds)],
                       capture_output=True,
                       text=True, env=env, cwd=path, check=False)
    if p.returncode != 0:
        raise SystemExit(f"bench_foster: the run at {path} failed:\n{p.stderr}")
    return [float(x) for x in json.loads(p.stdout)]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("--seconds", type=float, default=1.0, help="CPU-seconds of policy per preset and round")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds (the median is printed)")
    ap.add_argument("--compiled", action="store_true", help="also the compiled hot path (mypyc)")
    ap.add_argument("--baseline-rev", help="a git revision to compare with (exported to a temporary directory)")
    ap.add_argument("--baseline", help="decisions per CPU-second of an earlier run, comma separated, "
                    "one per preset in the order printed (pure Python)")
    ap.add_argument("--deals", action="store_true", help="whole deals per CPU-second instead of decisions")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    here = Path(__file__).resolve().parent.parent / "src"
    with tempfile.TemporaryDirectory(prefix="bench-foster-") as tmp:
        sides: dict[str, Path] = {"pure": here}
        if args.baseline_rev:
            sides["baseline pure"] = export(args.baseline_rev, Path(tmp) / "base")
        if args.compiled:
            sides["compiled"] = compiled_copy(here, Path(tmp) / "compiled")
            if args.baseline_rev:
                sides["baseline compiled"] = compiled_copy(sides["baseline pure"], Path(tmp) / "base-compiled")
        runs: dict[str, list[list[float]]] = {k: [] for k in sides}
        for _ in range(args.rounds):
            for name, path in sides.items():
                runs[name].append(run_child(path, args.seconds, args.deals))
    med = {name: [statistics.median(r[i] for r in rs) for i in range(len(CONFIGS))] for name, rs in runs.items()}
    if args.baseline:
        med["baseline pure (given)"] = [float(x) for x in args.baseline.split(",")]
    if args.json:
        print(json.dumps({"configs": CONFIGS, "median": med}))
        return
    what = "whole deals per CPU-second" if args.deals else "decisions per CPU-second of policy"
    print(f"foster {what}, median of {args.rounds} interleaved rounds of "
          f"{args.seconds:g} s per preset ({sys.version.split()[0]})")
    names = list(med)
    print(f"{'preset':24}" + "".join(f"{n:>22}" for n in names))
    for i, (variant, n) in enumerate(CONFIGS):
        print(f"{variant + f' ({n})':24}" + "".join(f"{med[k][i]:>22,.0f}" for k in names))
    base = "baseline pure (given)" if args.baseline else "baseline pure" if args.baseline_rev else None
    ratios = [("pure", base)] if base else []
    if args.compiled:
        ratios.append(("compiled", "pure"))
        if args.baseline_rev:
            ratios.append(("compiled", "baseline compiled"))
    for a, b in ratios:
        if b is None:
            continue
        print(f"\n{a} / {b}")
        for i, (variant, n) in enumerate(CONFIGS):
            print(f"  {variant + f' ({n})':22}{med[a][i] / med[b][i]:>8.2f} x")


if __name__ == "__main__":
    main()
