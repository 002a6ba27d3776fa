"""The public API of several source trees side by side, each beside OpenSpiel in its own run:
``python -m benchmarks.bench_api_trees NAME=SRC [NAME=SRC ...]``.

    python -m benchmarks.bench_api_trees before=/tmp/old/src after=src
    python -m benchmarks.bench_api_trees pure=src compiled=/tmp/built/src --rounds 3 --seconds 1

Each ``SRC`` is a directory holding the ``conquian`` package (a checkout's ``src``, or a copy with
the compiled hot path built into it by ``conquian speedups build``).  Round by round, every tree
runs :mod:`benchmarks.bench_api` once (one round of ``--seconds`` per figure) in a process of its
own, the trees in turn, so that a machine busy for a while weighs on every tree alike; what a
tree's run compares is its own figures with OpenSpiel's ``gin_rummy`` measured in that same run.
Printed: each ratio's median over the rounds, and every round's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path


def one_run(src: Path, seconds: float) -> dict[str, float]:
    """One round of :mod:`benchmarks.bench_api` with ``src`` first on the path: its ratios."""
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(src), str(root)]))
    out = subprocess.run([sys.executable, "-m", "benchmarks.bench_api", "--json", "--rounds", "1",
                          "--seconds", str(seconds)], env=env, cwd=root, check=True, capture_output=True, text=True)
    report = json.loads(out.stdout)
    ratios: dict[str, float] = report["ratios"]
    return ratios


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("trees", nargs="+", help="NAME=SRC: a name and the directory holding its conquian package")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=1.0)
    args = ap.parse_args(argv)
    trees = [(t.split("=", 1)[0], Path(t.split("=", 1)[1]).resolve()) for t in args.trees]
    runs: dict[str, list[dict[str, float]]] = {name: [] for name, _ in trees}
    for r in range(args.rounds):
        for name, src in trees:
            runs[name].append(one_run(src, args.seconds))
            print(f"round {r + 1} {name}: " + "; ".join(f"{k} {v:.2f}" for k, v in runs[name][-1].items()
                                                      if "OpenSpiel" in k), flush=True)
    print(f"median of {args.rounds} interleaved rounds of {args.seconds} s a figure (ratios within one run):")
    for name, _ in trees:
        for key in runs[name][0]:
            values = [run[key] for run in runs[name]]
            shown = ", ".join(f"{v:.2f}" for v in values)
            print(f"  {name:10} {statistics.median(values):6.2f} x  {key}  ({shown})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
