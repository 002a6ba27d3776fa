"""Fit the bots' levels on the players' rating scale and write ``conquian/bots/levels.json``.

Pairs of bots play duplicate deals (each deck once with each bot in each seat,
:func:`conquian.tournament.play_game`): every bot against each of the next ``--span`` bots of the
list (weakest first), so that neighbours meet often and the expensive searches meet only their
neighbours.  Each game is a result for openskill's Plackett-Luce model, the one the web rates
players with (a tableau or a draw is a draw), every bot starting where a new player starts (mu 25,
sigma 25/3), the games taken deck by deck in a fixed order.  The scale is then anchored: every mu
moved by the same amount so that ``foster`` (the book's play) has mu 25, the mean of a new
player's prior: a person is taken to be as strong as the book until his games say otherwise.  The
rating shown is the web's, ``1000 + 40 * (mu - 3 sigma)``; its 95% interval is the 2.5th and 97.5th
percentiles of the same fit on decks drawn with replacement (``--bootstrap`` times), so it holds
the luck of the cards as well as the model's uncertainty.  Seeded: the same command gives the
same file.

    nice -n 10 python -m benchmarks.bot_levels --variant conquian --decks 40 --seed 40 --workers 2

Other games already in the file are kept; ``--dry-run`` prints without writing; a game fitted into
another file (``--out``, a run of its own) is copied in with ``--merge FILE``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

from conquian.engine.deck import SplitMix64
from conquian.engine.rules import get_rules
from conquian.tournament import play_game

#: The bots fitted by default, weakest first (the levels, with ``random`` and the ``apprentice``).
DEFAULT_BOTS = "random,beginner,casual,foster,apprentice,skilled,expert,master"
#: Where the fitted ratings go.
OUT = Path(__file__).resolve().parents[1] / "src" / "conquian" / "bots" / "levels.json"
#: The bot whose mu is set to a new player's (25).
ANCHOR = "foster"


def shown(mu: float, sigma: float) -> float:
    """The rating the web shows (:func:`conquian.web.ratings.shown`, unrounded)."""
    return 1000 + 40 * (mu - 3 * sigma)


def schedule(bots: list[str], span: int) -> list[tuple[str, str]]:
    """The pairs that meet: each bot and the next ``span`` bots of the list."""
    return [(a, b) for i, a in enumerate(bots) for b in bots[i + 1: i + 1 + span]]


def _game(job: tuple[str, str, str, int, int]) -> tuple[str, str, float, float]:
    variant, a, b, deck_seed, bot_seed = job
    outcome = play_game(get_rules(variant), [a, b], deck_seed, bot_seed)
    ra = 1.0 if outcome[0].won or outcome[0].tie else 2.0
    rb = 1.0 if outcome[1].won or outcome[1].tie else 2.0
    return a, b, ra, rb


def fit(results: list[list[tuple[str, str, float, float]]], bots: list[str]) -> dict[str, tuple[float, float]]:
    """openskill's ratings after the games, deck by deck in order; anchored (:data:`ANCHOR` at mu 25)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    rating = {b: model.rating(name=b) for b in bots}
    for deck in results:
        for a, b, ra, rb in deck:
            [[x], [y]] = model.rate([[rating[a]], [rating[b]]], ranks=[ra, rb])
            rating[a], rating[b] = x, y
    shift = 25.0 - rating[ANCHOR].mu if ANCHOR in rating else 0.0
    return {b: (r.mu + shift, r.sigma) for b, r in rating.items()}


def tally(results: list[list[tuple[str, str, float, float]]], bot: str) -> dict[str, int]:
    """A bot's deals, wins, draws and losses."""
    w = d = lo = 0
    for deck in results:
        for a, b, ra, rb in deck:
            if bot not in (a, b):
                continue
            mine, theirs = (ra, rb) if a == bot else (rb, ra)
            if mine == theirs:
                d += 1
            elif mine < theirs:
                w += 1
            else:
                lo += 1
    return {"deals": w + d + lo, "wins": w, "draws": d, "losses": lo}


def fit_game(variant: str, bots: list[str], decks: int, seed: int, span: int, workers: int,
             bootstrap: int) -> dict[str, Any]:
    """Play and fit one game; its entry of the file."""
    pairs = schedule(bots, span)
    seeds = SplitMix64(seed)
    jobs: list[tuple[str, str, str, int, int]] = []
    for _ in range(decks):
        deck_seed = seeds.next64()
        for a, b in pairs:
            for r, (x, y) in enumerate(((a, b), (b, a))):
                jobs.append((variant, x, y, deck_seed, deck_seed % 1_000_003 * 4 + r))
    start = time.perf_counter()
    per_deck = 2 * len(pairs)
    flat: list[tuple[str, str, float, float]] = []
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for i, res in enumerate(pool.imap(_game, jobs, chunksize=1)):
                flat.append(res)
                if (i + 1) % per_deck == 0:
                    print(f"  {variant}: deck {(i + 1) // per_deck}/{decks}, "
                          f"{time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    else:
        flat = [_game(j) for j in jobs]
    seconds = time.perf_counter() - start
    results = [flat[i:i + per_deck] for i in range(0, len(flat), per_deck)]
    point = fit(results, bots)
    rng = random.Random(seed)
    samples: dict[str, list[float]] = {b: [] for b in bots}
    for _ in range(bootstrap):
        again = fit([results[rng.randrange(len(results))] for _ in results], bots)
        for b, (mu, sigma) in again.items():
            samples[b].append(shown(mu, sigma))
    out: dict[str, Any] = {}
    for b in bots:
        mu, sigma = point[b]
        s = sorted(samples[b])
        lo, hi = (s[int(0.025 * (len(s) - 1))], s[int(0.975 * (len(s) - 1))]) if s else (shown(mu, sigma),) * 2
        mu, sigma = round(mu, 3), round(sigma, 3)  # the rating from the figures written, as the web computes it
        out[b] = {"mu": mu, "sigma": sigma, "rating": round(shown(mu, sigma)),
                  "interval": [round(lo), round(hi)], **tally(results, b)}
    return {"decks": decks, "games": len(flat), "seed": seed, "span": span, "pairs": [list(p) for p in pairs],
            "seconds": round(seconds), "bootstrap": bootstrap, "bots": out}


def main() -> None:
    """Play, fit, print and write the levels' ratings."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--variant", default="conquian", help="a preset, or several separated by commas")
    parser.add_argument("--bots", default=DEFAULT_BOTS, help="weakest first")
    parser.add_argument("--decks", type=int, default=40, help="decks per pair of bots (each played twice)")
    parser.add_argument("--span", type=int, default=3, help="each bot meets the next SPAN bots of the list")
    parser.add_argument("--seed", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bootstrap", type=int, default=200, help="refits on decks drawn with replacement")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--dry-run", action="store_true", help="print only")
    parser.add_argument("--merge", type=Path, nargs="+", default=None,
                        help="play nothing: copy the games fitted in these files (written by this script) into --out")
    args = parser.parse_args()
    bots = args.bots.split(",")
    from conquian import speedups

    compiled = all(speedups.status().values())
    fits: dict[str, Any] = {}
    if args.merge:  # games fitted into another file (a run of its own), taken as they are
        for path in args.merge:
            fits.update(json.loads(path.read_text(encoding="utf-8"))["games"])
    header = {
        "model": "openskill PlackettLuce (the web's), every bot from mu 25, sigma 25/3",
        "scale": "rating = 1000 + 40 * (mu - 3 sigma)",
        "anchor": f"{ANCHOR} at mu 25 (a new player's mean)",
        "interval": "2.5th-97.5th percentiles of the rating over refits on decks drawn with replacement",
    }
    command = "python -m benchmarks.bot_levels " + " ".join(sys.argv[1:])
    for variant in [] if args.merge else args.variant.split(","):
        get_rules(variant)  # an unknown preset fails here, before any game
        vbots = [b for b in bots if not (b == "apprentice" and variant not in ("conquian", "conquian-spanish"))]
        entry = fit_game(variant, vbots, args.decks, args.seed, args.span, args.workers, args.bootstrap)
        entry.update({"command": command, "date": datetime.date.today().isoformat(), "compiled": compiled})
        fits[variant] = entry
        print(f"{variant}: {entry['games']} deals on {args.decks} decks in {entry['seconds']} s, seed {args.seed}, "
              f"compiled hot path: {compiled}")
        print(f"{'bot':11} {'mu':>7} {'sigma':>6} {'rating':>7}  95% interval   deals   W-D-L")
        for b, e in sorted(entry["bots"].items(), key=lambda x: x[1]["rating"]):
            print(f"{b:11} {e['mu']:7.2f} {e['sigma']:6.2f} {e['rating']:7d}  "
                  f"{e['interval'][0]:5d}-{e['interval'][1]:<6d}  {e['deals']:5d}   "
                  f"{e['wins']}-{e['draws']}-{e['losses']}")
    if not args.dry_run:
        # read when written: the other games' fits of runs that ended meanwhile are kept
        data: dict[str, Any] = {"games": {}}
        if args.out.exists():
            data = json.loads(args.out.read_text(encoding="utf-8"))
        data.update(header)
        data["games"].update(fits)
        args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"written {args.out}")


if __name__ == "__main__":
    main()
