"""How many playouts ``master`` gets under its time cap, at a short and a long Cooncan history.

    python -m benchmarks.bench_master                          # this checkout, compiled
    python -m benchmarks.bench_master --baseline-rev 5a03e77   # beside an older revision
    python -m benchmarks.bench_master --pure                   # without compiling (slow)

``master`` is the search for the compiled hot path: 768 playouts a decision in Cooncan, but a
decision stops at 0.9 s whatever it has played (its cap).  Here it decides, for seat 1 of five-hand
Cooncan, at a position about ten events in and at the same position after a long stalling line of
play (:mod:`benchmarks.bench_history`, 3,500 events): the figures are its playouts and seconds per
decision, the mean of ``--decisions`` decisions (different seeds).  Playouts are counted by wrapping
the search's playout function, so an older revision is counted the same way.  Each side runs in a
child process of its own (compiled into a temporary copy); the sides alternate round by round.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.bench_foster import compiled_copy, export

CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[3])
import conquian.bots.expert as ex
from benchmarks.bench_history import positions
from conquian import get_rules
from conquian.bots import make_bot

decisions, events = int(sys.argv[1]), int(sys.argv[2])
count = [0]
inner = ex.playout_value
def counted(*a, **k):
    count[0] += 1
    return inner(*a, **k)
ex.playout_value = counted
rules = get_rules("cooncan-double", players=5, max_turns=10**6)
out = {}
for label, deal in zip(("short", "long"), positions(rules, events)):
    # seat 1 to play: the stalling turns go round the table back to it
    from benchmarks.bench_history import stall
    while deal.to_act != 1:
        stall(deal)
    view = deal.view(1)
    playouts, seconds = [], []
    for k in range(decisions):
        bot = make_bot("master", seed=k)
        count[0] = 0
        t = time.perf_counter()
        bot.choose(view)
        seconds.append(time.perf_counter() - t)
        playouts.append(count[0])
    out[label] = {"events": deal.n_events, "playouts": sum(playouts) / decisions,
                  "seconds": sum(seconds) / decisions}
print(json.dumps(out))
"""


def run(path: Path, decisions: int, events: int) -> dict[str, dict[str, float]]:
    here = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=str(path))
    p = subprocess.run([sys.executable, "-c", CHILD, str(decisions), str(events), here], capture_output=True,
                       text=True, env=env, cwd=path, check=False)
    if p.returncode != 0:
        raise SystemExit(f"bench_master: the run at {path} failed:\n{p.stderr}")
    return json.loads(p.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("--decisions", type=int, default=4)
    ap.add_argument("--events", type=int, default=3500)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--baseline-rev", help="a git revision to compare with")
    ap.add_argument("--pure", action="store_true", help="do not compile (master is meant for the compiled path)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    here = Path(__file__).resolve().parent.parent / "src"
    with tempfile.TemporaryDirectory(prefix="bench-master-") as tmp:
        sides: dict[str, Path] = {"this checkout": here}
        if args.baseline_rev:
            sides["baseline"] = export(args.baseline_rev, Path(tmp) / "base")
        if not args.pure:
            sides = {name: compiled_copy(path, Path(tmp) / f"compiled-{i}") for i, (name, path) in
                     enumerate(sides.items())}
        runs: dict[str, list[dict[str, dict[str, float]]]] = {k: [] for k in sides}
        for _ in range(args.rounds):
            for name, path in sides.items():
                runs[name].append(run(path, args.decisions, args.events))
    med = {name: {h: {k: statistics.median(r[h][k] for r in rs) for k in rs[0][h]} for h in rs[0]}
           for name, rs in runs.items()}
    if args.json:
        print(json.dumps(med))
        return 0
    print(f"master, five-hand Cooncan, seat 1, {'pure Python' if args.pure else 'compiled'}; "
          f"mean of {args.decisions} decisions, median of {args.rounds} rounds")
    for name, m in med.items():
        for h in ("short", "long"):
            print(f"  {name:16} at {int(m[h]['events']):>5} events: {m[h]['playouts']:>7.1f} playouts, "
                  f"{m[h]['seconds']:.3f} s a decision")
    if "baseline" in med:
        for h in ("short", "long"):
            ratio = med["this checkout"][h]["playouts"] / med["baseline"][h]["playouts"]
            print(f"  playouts, this checkout / baseline at {int(med['baseline'][h]['events'])} events: {ratio:.2f} x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
