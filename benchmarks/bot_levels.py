"""Fit the bots' levels on the players' rating scale and write ``conquian/bots/levels.json``.

Bots play duplicate deals (:func:`conquian.tournament.play_game`): with two players each bot
against each of the next ``--span`` bots of the list (weakest first), each deck once with each bot
in each seat, so that neighbours meet often and the expensive searches meet only their
neighbours; with more players (three-hand Cooncan, five-hand double-pack Cooncan) each group of
as many bots no further apart on the list than ``--span``, each deck once in each rotation of the
group over the seats.  Each game is a result for openskill's Plackett-Luce model, the one the web
rates players with (a tableau or a draw puts every seat first; with more than two players the
others are placed by the deal's score, as the web places a match's seats), every bot starting
where a new player starts (mu 25, sigma 25/3), the games taken deck by deck in a fixed order.
The scale is then anchored: every mu moved by the same amount so that ``foster`` (the book's
play) has mu 25, the mean of a new player's prior: a person is taken to be as strong as the book
until his games say otherwise.  The rating shown is the web's (:func:`conquian.web.platform.ratings.service.rating`:
1,500 at mu 25, so ``foster`` is 1,500 in every game, and 400 points are odds of 10 to 1); its 95%
interval is the 2.5th and 97.5th percentiles of the same fit on decks drawn with replacement
(``--bootstrap`` times), so it holds the luck of the cards as well as the model's uncertainty (the
percentiles of mu are kept too, ``mu_interval``, so that another scale re-expresses them exactly).

The model is location-free (only differences of mu count), so a new scale or anchor needs no
game played: ``--reexpress`` rewrites every game of the file on the web's scale from the figures
kept.  A game fitted before ``mu_interval`` was kept (on the old scale ``1000 + 40 * (mu - 3
sigma)``) has its interval's mu read back from that scale with each refit's sigma taken as the
point fit's (refits play the same number of games per bot, so their sigmas barely differ).

Seeded: the same command gives the same file (but for ``master``'s decisions that
its 0.9 s cap stops, which depend on the machine's speed).

    nice -n 10 python -m benchmarks.bot_levels --variant cooncan --decks 40 --span 2 --seed 40 --workers 2

One game is fitted at a time (or several, ``--variant a,b``): the other games already in the
file are kept, and each game's entry records the command that gives its figures again.
``--minutes M`` begins no deck after M minutes and fits the decks played (the first ones of the
seed: the command recorded names their number).  ``--dry-run`` prints without writing; a game
fitted into another file (``--out``, a run of its own) is copied in with ``--merge FILE``.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

from conquian.engine.deck import SplitMix64
from conquian.engine.files import atomic_write
from conquian.engine.rules import get_rules
from conquian.tournament import play_game

#: The bots fitted by default, weakest first (the levels, with ``random`` and the ``apprentice``).
DEFAULT_BOTS = "random,beginner,casual,foster,apprentice,skilled,expert,master"
#: Where the fitted ratings go.
OUT = Path(__file__).resolve().parents[1] / "src" / "conquian" / "bots" / "levels.json"
#: The bot whose mu is set to a new player's (25).
ANCHOR = "foster"
#: The file's first scale (before the anchor at 1,500): ``--reexpress`` reads its intervals back.
FIRST_SCALE = "rating = 1000 + 40 * (mu - 3 sigma)"


def shown(mu: float, sigma: float = 0.0) -> float:
    """The rating the web shows for a mean ``mu`` (:func:`conquian.web.platform.ratings.service.rating`, unrounded;
    ``sigma`` does not count: the uncertainty is the interval)."""
    from conquian.bots.levels import scale_rating

    return scale_rating(mu)


def old_scale_mu(value: float, sigma: float) -> float:
    """The mu of a rating written on the file's first scale, ``1000 + 40 * (mu - 3 sigma)``.

    >>> round(old_scale_mu(1000 + 40 * (27.0 - 3 * 1.5), 1.5), 6)
    27.0
    """
    return (value - 1000) / 40 + 3 * sigma


#: The header of the file: what its figures are.
HEADER = {
    "model": "openskill PlackettLuce (the web's), every bot from mu 25, sigma 25/3",
    "scale": "rating = 1500 + 400 / (ln 10 * sqrt(2) * 25/6) * (mu - 25), about 29.48 points a unit of mu "
             "(conquian.web.platform.ratings.service.rating)",
    "anchor": "foster at mu 25 (a new player's mean): foster is 1500 in every game",
    "interval": "2.5th-97.5th percentiles of the rating (mu_interval: of mu) over refits on decks drawn with "
                "replacement",
}


def reexpress(entry: dict[str, Any], old_scale: bool) -> dict[str, Any]:
    """One game's entry with every bot's ``rating`` and ``interval`` on the web's scale, from its
    ``mu`` and ``mu_interval`` (or, ``old_scale``, from the interval of the first scale: see the
    module's docstring).  Nothing is played: the fit's figures (mu, sigma, deals) stay.

    >>> e = reexpress({"bots": {"foster": {"mu": 25.0, "sigma": 1.6, "rating": 1808,
    ...                                    "interval": [1808, 1808]}}}, old_scale=True)
    >>> e["bots"]["foster"]["rating"], e["bots"]["foster"]["interval"]
    (1500, [1500, 1500])
    """
    bots: dict[str, Any] = {}
    for b, e in entry["bots"].items():
        if "mu_interval" in e:
            lo_mu, hi_mu = e["mu_interval"]
        elif old_scale:
            lo_mu, hi_mu = (round(old_scale_mu(v, e["sigma"]), 3) for v in e["interval"])
        else:
            raise ValueError(f"{b}: no mu_interval, and the file is not on the first scale")
        bots[b] = {**e, "rating": round(shown(e["mu"])), "mu_interval": [lo_mu, hi_mu],
                   "interval": [round(shown(lo_mu)), round(shown(hi_mu))]}
    out = {**entry, "bots": bots}
    if old_scale:
        out["interval_from"] = ("re-expressed from the first scale (1000 + 40 * (mu - 3 sigma)): each refit's "
                                "sigma taken as the point fit's")
    return out


def schedule(bots: list[str], span: int, players: int = 2) -> list[tuple[str, ...]]:
    """The groups that meet, one bot a seat: for two players each bot and the next ``span`` bots of
    the list; for more, every ``players`` bots of the list no further apart than ``span`` places
    (at least ``players - 1``: with three players and a span of 2, each three neighbours).

    >>> schedule(["a", "b", "c", "d"], 2)
    [('a', 'b'), ('a', 'c'), ('b', 'c'), ('b', 'd'), ('c', 'd')]
    >>> schedule(["a", "b", "c", "d"], 2, players=3)
    [('a', 'b', 'c'), ('b', 'c', 'd')]
    """
    span = max(span, players - 1)
    return [g for g in itertools.combinations(bots, players) if bots.index(g[-1]) - bots.index(g[0]) <= span]


#: One deal's result: the bots from the first seat on, and each one's place (1 the best, shared by
#: equals: a tableau or a draw puts every seat first).
Result = tuple[tuple[str, ...], tuple[float, ...]]


def _game(job: tuple[str, tuple[str, ...], int, int]) -> Result:
    variant, seated, deck_seed, bot_seed = job
    outcome = play_game(get_rules(variant), list(seated), deck_seed, bot_seed)
    if len(seated) == 2:
        return seated, tuple(1.0 if o.won or o.tie else 2.0 for o in outcome)
    if not any(o.won for o in outcome):  # a tableau: a draw among all
        return seated, (1.0,) * len(seated)
    # the web's places (conquian.web.platform.ratings.service.match_ranks): by the deal's score, equals sharing
    scores = [o.score for o in outcome]
    return seated, tuple(float(1 + sum(o > s for o in scores)) for s in scores)


def fit(results: list[list[Result]], bots: list[str]) -> dict[str, tuple[float, float]]:
    """openskill's ratings after the games, deck by deck in order; anchored (:data:`ANCHOR` at mu 25)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    rating = {b: model.rating(name=b) for b in bots}
    for deck in results:
        for seated, ranks in deck:
            after = model.rate([[rating[b]] for b in seated], ranks=list(ranks))
            for b, [r] in zip(seated, after, strict=True):
                rating[b] = r
    shift = 25.0 - rating[ANCHOR].mu if ANCHOR in rating else 0.0
    return {b: (r.mu + shift, r.sigma) for b, r in rating.items()}


def tally(results: list[list[Result]], bot: str) -> dict[str, int]:
    """A bot's deals, wins (first place alone), draws (first place shared) and losses (any other place)."""
    w = d = lo = 0
    for deck in results:
        for seated, ranks in deck:
            if bot not in seated:
                continue
            mine = ranks[seated.index(bot)]
            if mine > min(ranks):
                lo += 1
            elif ranks.count(mine) > 1:
                d += 1
            else:
                w += 1
    return {"deals": w + d + lo, "wins": w, "draws": d, "losses": lo}


class _Inline:
    """The pool's ``imap`` in this process (one worker)."""

    def __enter__(self) -> _Inline:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap(self, fn: Any, jobs: list[Any], chunksize: int = 1) -> Any:
        return map(fn, jobs)


def fit_game(variant: str, bots: list[str], decks: int, seed: int, span: int, workers: int,
             bootstrap: int, minutes: float | None = None) -> dict[str, Any]:
    """Play and fit one game; its entry of the file.  Each group of :func:`schedule` plays each
    deck once in each rotation of its seats (with two players, each bot in each seat).  With
    ``minutes``, no deck is begun after that time: the fit is of the decks played, the first ones
    of the same seed (``decks`` in the entry, and in its command, is how many)."""
    players = get_rules(variant).players
    groups = schedule(bots, span, players)
    seeds = SplitMix64(seed)
    jobs: list[tuple[str, tuple[str, ...], int, int]] = []
    for _ in range(decks):
        deck_seed = seeds.next64()
        for group in groups:
            for r in range(players):
                seated = group[r:] + group[:r]
                jobs.append((variant, seated, deck_seed, deck_seed % 1_000_003 * max(4, players) + r))
    start = time.perf_counter()
    per_deck = players * len(groups)
    flat: list[Result] = []
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(workers) if workers > 1 else _Inline() as pool:
        for i, res in enumerate(pool.imap(_game, jobs, chunksize=1)):
            flat.append(res)
            if (i + 1) % per_deck == 0:
                elapsed = time.perf_counter() - start
                print(f"  {variant}: deck {(i + 1) // per_deck}/{decks}, {elapsed:.0f} s", file=sys.stderr, flush=True)
                if minutes is not None and elapsed > 60 * minutes:  # out of time: the decks played so far
                    break
    seconds = time.perf_counter() - start
    decks = len(flat) // per_deck
    flat = flat[:decks * per_deck]
    results = [flat[i:i + per_deck] for i in range(0, len(flat), per_deck)]
    point = fit(results, bots)
    rng = random.Random(seed)
    samples: dict[str, list[float]] = {b: [] for b in bots}
    for _ in range(bootstrap):
        again = fit([results[rng.randrange(len(results))] for _ in results], bots)
        for b, (mu, _sigma) in again.items():
            samples[b].append(mu)
    out: dict[str, Any] = {}
    for b in bots:
        mu, sigma = point[b]
        s = sorted(samples[b])
        lo, hi = (s[int(0.025 * (len(s) - 1))], s[int(0.975 * (len(s) - 1))]) if s else (mu, mu)
        mu, sigma = round(mu, 3), round(sigma, 3)  # the rating from the figures written, as the web computes it
        lo, hi = round(lo, 3), round(hi, 3)
        out[b] = {"mu": mu, "sigma": sigma, "rating": round(shown(mu)), "mu_interval": [lo, hi],
                  "interval": [round(shown(lo)), round(shown(hi))], **tally(results, b)}
    return {"decks": decks, "games": len(flat), "players": players, "seed": seed, "span": span,
            "pairs": [list(g) for g in groups],
            "seconds": round(seconds), "bootstrap": bootstrap, "bots": out}


def command_for(variant: str, decks: int, args: argparse.Namespace) -> str:
    """The command that gives one game's figures again: this run's options for that game alone,
    with the decks it played (a run stopped by ``--minutes`` played the first ``decks`` of its seed)."""
    words = ["python -m benchmarks.bot_levels", "--variant", variant]
    if args.bots != DEFAULT_BOTS:
        words += ["--bots", args.bots]
    words += ["--decks", str(decks), "--span", str(args.span), "--seed", str(args.seed),
              "--workers", str(args.workers)]
    if args.bootstrap != 200:
        words += ["--bootstrap", str(args.bootstrap)]
    return " ".join(words)


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
    parser.add_argument("--minutes", type=float, default=None,
                        help="begin no deck after this time: fit the decks played (the command written names "
                             "their number, which gives the same figures)")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--dry-run", action="store_true", help="print only")
    parser.add_argument("--reexpress", action="store_true",
                        help="play nothing: write every game of --out again on the web's scale, from its figures")
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
    header = HEADER
    if args.reexpress:  # a new scale: every game of the file again from its figures, nothing played
        kept: dict[str, Any] = json.loads(args.out.read_text(encoding="utf-8"))
        old_scale = kept.get("scale") == FIRST_SCALE
        kept["games"] = {g: reexpress(e, old_scale) for g, e in kept["games"].items()}
        kept.update(header)
        for g, e in kept["games"].items():
            print(g, " ".join(f"{b} {v['rating']} [{v['interval'][0]}-{v['interval'][1]}]"
                              for b, v in sorted(e["bots"].items(), key=lambda x: x[1]["rating"])))
        if not args.dry_run:
            atomic_write(args.out, json.dumps(kept, indent=1, sort_keys=True) + "\n")
            print(f"written {args.out}")
        return
    for variant in [] if args.merge else args.variant.split(","):
        get_rules(variant)  # an unknown preset fails here, before any game
        vbots = [b for b in bots if not (b == "apprentice" and variant not in ("conquian", "conquian-spanish"))]
        entry = fit_game(variant, vbots, args.decks, args.seed, args.span, args.workers, args.bootstrap, args.minutes)
        entry.update({"command": command_for(variant, entry["decks"], args),
                      "date": datetime.date.today().isoformat(), "compiled": compiled})
        fits[variant] = entry
        print(f"{variant}: {entry['games']} deals on {entry['decks']} decks in {entry['seconds']} s, seed {args.seed}, "
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
        atomic_write(args.out, json.dumps(data, indent=1, sort_keys=True) + "\n")  # the shipped file stays whole
        print(f"written {args.out}")


if __name__ == "__main__":
    main()
