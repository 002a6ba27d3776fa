"""The page's expert against ``foster`` on duplicate deals, played inside Pyodide under Node.js.

    python -m benchmarks.page_strength --decks 50 --seed 7
    options: --quick (1 deck) --variant NAME (default conquian) --node PATH

The offline page runs the engine in Pyodide, where the expert plays with a time cap
(:data:`conquian.web.local.EXPERT_MS`) and so fewer playouts than at home.  This starts Node.js
with the pinned runtime (``conquian site fetch``) and the engine's package as the page unpacks it
(:func:`conquian.web.site.engine_zip`), and inside it runs :func:`conquian.tournament.run_tournament`
with the expert made as :class:`conquian.web.local.LocalTable` makes it (``ms=EXPERT_MS``) against
``foster``: each deck once with each bot in each seat.  A running tally is printed after every game
(flushed: a partial run can be read from its log); at the end one result line (the expert's win
share of decided deals with Wilson's 95% interval), the expert's mean playouts a move and its
move time p50/p95 inside Pyodide, then the whole result as JSON.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from conquian.web.site import runtime_dir, runtime_ready

#: Node.js: load the runtime, unpack the engine as the page's worker does, run the driver.
_RUN = """
const { createRequire } = require("module");
const fs = require("fs");
const [runtime, zip, driver] = process.argv.slice(2);
const { loadPyodide } = createRequire(__filename)(runtime + "/pyodide.js");
(async () => {
  const py = await loadPyodide({ indexURL: runtime + "/",
    stdout: (s) => fs.writeSync(1, s + "\\n"), stderr: (s) => fs.writeSync(2, s + "\\n") });
  py.unpackArchive(new Uint8Array(fs.readFileSync(zip)), "zip", { extractDir: "/engine" });
  py.runPython("import sys\\nsys.path.insert(0, '/engine')");
  py.runPython(fs.readFileSync(driver, "utf8"));
})().catch(e => { console.error(String(e && e.stack || e)); process.exit(1); });
"""

#: Python run inside Pyodide: the tournament, with the expert's playouts and a running tally.
_DRIVER = """
import json, statistics, sys, time
from conquian import get_rules
from conquian import tournament
from conquian.web.local import EXPERT_MS

VARIANT, DECKS, SEED = {variant!r}, {decks!r}, {seed!r}
BOTS = ["expert", "foster"]
PARAMS = {{"expert": {{"ms": EXPERT_MS}}}}  # as LocalTable.bot_move makes it
playouts = []
searched = []  # (playouts, seconds) of each of the expert's moves
tally = {{"games": 0, "wins": 0, "losses": 0, "tableaux": 0}}
_make_bot, _game = tournament.make_bot, tournament._game


def make_bot(name, seed=0, **params):
    bot = _make_bot(name, seed=seed, **params)
    if name == "expert":
        choose = bot.choose

        def counted(view):
            t0 = time.perf_counter()
            action = choose(view)
            searched.append((int(bot.last_playouts), time.perf_counter() - t0))
            playouts.append(int(bot.last_playouts))
            return action

        bot.choose = counted
    return bot


def game(job):
    out = _game(job)
    for o in out:
        if o.bot == "expert":
            tally["games"] += 1
            tally["wins"] += o.won
            tally["losses"] += o.lost
            tally["tableaux"] += o.tie
    t = tally
    decided = t["wins"] + t["losses"]
    share = f"{{100 * t['wins'] / decided:.1f}}%" if decided else "n/a"
    print(f"game {{t['games']}}/{{DECKS * 2}}: expert {{t['wins']}} won, {{t['losses']}} lost, "
          f"{{t['tableaux']}} tableaux ({{share}} of decided), {{len(playouts)}} moves, "
          f"{{statistics.fmean(playouts) if playouts else 0:.0f}} playouts a move", flush=True)
    return out


tournament.make_bot, tournament._game = make_bot, game
res = tournament.run_tournament(get_rules(VARIANT), BOTS, DECKS, SEED, workers=1, bot_params=PARAMS)
expert, foster = res.results
times = sorted(expert.times)
p50 = times[len(times) // 2] if times else 0.0
rate = expert.win_rate
# the moves it searched (more than one legal action); a forced move plays no playout
real = [(n, s) for n, s in searched if n > 0]
real_n = statistics.fmean(n for n, _ in real) if real else 0.0
real_s = sorted(s for _, s in real)
real_p50 = real_s[len(real_s) // 2] if real_s else 0.0
real_p95 = real_s[min(len(real_s) - 1, -(-95 * len(real_s) // 100) - 1)] if real_s else 0.0
lo, hi = expert.win_rate_ci95
print(f"expert (page, {{EXPERT_MS:.0f}} ms) against foster, {{VARIANT}}, {{DECKS}} decks x 2 seats, seed {{SEED}}: "
      + (f"won {{expert.wins}} of {{expert.wins + expert.losses}} decided deals, {{100 * rate:.1f}}% "
         f"(95% {{100 * lo:.1f}}-{{100 * hi:.1f}}%)" if rate is not None else "no deal decided")
      + f", {{expert.tableaux}} tableaux; {{statistics.fmean(playouts) if playouts else 0:.0f}} playouts a move, "
      f"move p50 {{1000 * p50:.0f}} ms, p95 {{1000 * expert.p95_seconds_per_decision:.0f}} ms in Pyodide; "
      f"searched moves ({{len(real)}} of {{len(searched)}}): {{real_n:.0f}} playouts a move, "
      f"p50 {{1000 * real_p50:.0f}} ms, p95 {{1000 * real_p95:.0f}} ms", flush=True)
print(json.dumps({{"variant": VARIANT, "decks": DECKS, "seed": SEED, "params": PARAMS, "games": res.games,
                  "seconds": round(res.seconds, 1), "expert": expert.to_json(), "foster": foster.to_json(),
                  "playouts_mean": round(statistics.fmean(playouts), 1) if playouts else 0,
                  "playouts_p50": statistics.median(playouts) if playouts else 0,
                  "move_ms_p50": round(1000 * p50, 1),
                  "move_ms_p95": round(1000 * expert.p95_seconds_per_decision, 1),
                  "searched_moves": len(real), "searched_playouts_mean": round(real_n, 1),
                  "searched_ms_p50": round(1000 * real_p50, 1),
                  "searched_ms_p95": round(1000 * real_p95, 1)}}, indent=1), flush=True)
"""


def main(argv: list[str] | None = None) -> int:
    """Run the tournament inside Pyodide; 2 where Node.js or the runtime is missing."""
    ap = argparse.ArgumentParser(prog="python -m benchmarks.page_strength")
    ap.add_argument("--decks", type=int, default=50)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--variant", default="conquian")
    ap.add_argument("--quick", action="store_true", help="one deck (a check that it runs)")
    ap.add_argument("--node", default="node")
    args = ap.parse_args(argv)
    decks = 1 if args.quick else args.decks
    node = shutil.which(args.node)
    runtime = runtime_dir()
    if node is None:
        print("Node.js is needed (not found)", file=sys.stderr)
        return 2
    if not runtime_ready(runtime):
        print(f"the Pyodide runtime is not in {runtime}: run `conquian site fetch`", file=sys.stderr)
        return 2
    from conquian.web.site import engine_zip

    with tempfile.TemporaryDirectory() as tmp:
        script, zip_path, driver = Path(tmp) / "run.js", Path(tmp) / "engine.zip", Path(tmp) / "driver.py"
        script.write_text(_RUN)
        zip_path.write_bytes(engine_zip())
        driver.write_text(_DRIVER.format(variant=args.variant, decks=decks, seed=args.seed))
        sys.stdout.flush()
        done = subprocess.run([node, str(script), str(runtime.resolve()), str(zip_path), str(driver)], check=False)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
