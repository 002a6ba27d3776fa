"""The bots' strength targets (issue: computer opponents), measured on duplicate deals.

    python -m benchmarks.strength conquian           # master vs foster (seeds 7, 8), foster vs random
    python -m benchmarks.strength cooncan-double     # one master among four fosters
    python -m benchmarks.strength cooncan            # one master among two fosters
    python -m benchmarks.strength conquian-mexicano  # master vs foster at two (R8), foster vs random
    python -m benchmarks.strength conquian-mexicano --players 3   # one master among two fosters
    options: --bot NAME (default master) --deals N (per seed) --seeds 11,12 --workers W
             --params '{"iterations": 2000}' (the bot's keyword arguments, JSON)

For conquian the bot plays each deck in both seats against foster; the seeds' games are
pooled.  For Cooncan the same decks are played twice: once with the bot in slot 1 among
fosters, once with five (three) fosters.  Reported: the bot's points per deal and
interval, one foster's in the same slot among fosters and its interval, and the
paired difference (the bot's score minus the foster's, same deck, same seat), whose
interval is the sharp test of "scores more than a foster in the same seat".

The conquián mexicano (R8) at two players is measured as conquian (the win rate of decided
deals, draws aside); at three (the tercerilla) or four, as Cooncan (the paired points of the
bot and of a foster in the same seat among fosters), and also the bot's win rate of decided
deals (a third for an equal player at three).  ``--baseline``: foster against random, at the
same number of players.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

from conquian import get_rules
from conquian.bots import bot_names, make_bot
from conquian.engine.rules import Rules
from conquian.tournament import BotResult, TournamentResult, run_tournament


def interval(xs: list[float]) -> tuple[float, float, float]:
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    h = 1.96 * sd / math.sqrt(n)
    return m, m - h, m + h


def slot_scores(res: TournamentResult, slot: int) -> list[float]:
    """Scores of the bots-list entry ``slot`` in every game, in game order."""
    n = res.players
    out = []
    for g, game in enumerate(res.outcomes):
        r = g % n
        for seat_index, o in enumerate(game):
            if (seat_index + r) % n == slot:
                out.append(float(o.score))
    return out


def _mexicano_round_table(report: dict[str, object], rules: Rules, bot: str, params: dict[str, dict[str, object]],
                          seeds: list[int], deals: int, workers: int | None) -> list[float]:
    """The bot in slot 1 among fosters and a foster in the same slot, on the same decks (R8 at
    three or four players): paired points, and the bot's win rate of decided deals."""
    n = rules.players
    e: list[float] = []
    f: list[float] = []
    times: list[float] = []
    wins = losses = draws = 0
    for seed in seeds:
        ours = run_tournament(rules, [bot] + ["foster"] * (n - 1), deals, seed, workers, bot_params=params,
                              progress=True)
        fosters = run_tournament(rules, ["foster"] * n, deals, seed, workers, progress=True)
        e += slot_scores(ours, 0)
        f += slot_scores(fosters, 0)
        times += ours.results[0].times
        r = ours.slots[0]
        wins, losses, draws = wins + r.wins, losses + r.losses, draws + r.tableaux
    report[bot] = dict(zip(("mean", "lo", "hi"), interval(e), strict=True))
    report["foster in the same slot"] = dict(zip(("mean", "lo", "hi"), interval(f), strict=True))
    diff = [a - b for a, b in zip(e, f, strict=True)]
    report["paired difference"] = dict(zip(("mean", "lo", "hi"), interval(diff), strict=True))
    lo, hi = BotResult(bot, wins=wins, losses=losses).win_rate_ci95
    report["win rate of decided deals"] = {"wins": wins, "losses": losses, "draws": draws,
                                           "win_rate": wins / max(1, wins + losses), "win_rate_ci95": [lo, hi],
                                           "equal player": 1 / n}
    report["games"] = len(e)
    report["seeds"] = seeds
    return times


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.strength")
    ap.add_argument("variant", choices=["conquian", "cooncan", "cooncan-double", "conquian-mexicano"])
    ap.add_argument("--players", type=int, default=None, help="conquian-mexicano: 2 (default), 3 or 4")
    ap.add_argument("--bot", default="master", help="the bot measured (default master)")
    ap.add_argument("--params", default="{}", help="the bot's keyword arguments as JSON")
    ap.add_argument("--deals", type=int, default=None)
    ap.add_argument("--seeds", default=None, help="comma-separated; each seed's decks are played, "
                    "the results pooled (default 7,8 for conquian, 11,12 for Cooncan)")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--baseline", action="store_true", help="conquian, conquian-mexicano: also foster against random")
    args = ap.parse_args(argv)
    bot = args.bot
    if bot not in bot_names():
        ap.error(f"unknown bot {bot!r} (known: {', '.join(bot_names())})")
    try:
        params = {bot: json.loads(args.params)}
        make_bot(bot, **params[bot])
    except (ValueError, TypeError) as e:
        ap.error(f"--params must be the bot's keyword arguments as a JSON object: {e}")
    report: dict[str, object] = {"variant": args.variant, "bot": bot, "params": params[bot]}
    seeds = [int(x) for x in (args.seeds or ("11,12" if args.variant.startswith("cooncan") else "7,8")).split(",")
             if x.strip()]
    times: list[float] = []
    mex_players = args.players or 2
    if args.variant == "conquian-mexicano" and mex_players > 2:
        rules = get_rules(args.variant, players=mex_players)
        times = _mexicano_round_table(report, rules, bot, params, seeds, args.deals or 60, args.workers)
        if args.baseline:
            res = run_tournament(rules, ["foster"] + ["random"] * (mex_players - 1), args.deals or 300, 11,
                                 args.workers, progress=True)
            report["foster vs random (seed 11)"] = res.to_json()["results"]
    elif args.variant in ("conquian", "conquian-mexicano"):
        rules = get_rules(args.variant)
        wins = losses = ties = 0
        for seed in seeds:
            res = run_tournament(rules, [bot, "foster"], args.deals or 100, seed, args.workers,
                                 bot_params=params, progress=True)
            r = res.results[0]
            report[f"{bot} vs foster (seed {seed})"] = r.to_json()
            wins, losses, ties = wins + r.wins, losses + r.losses, ties + r.tableaux
            times += r.times
        lo, hi = BotResult(bot, wins=wins, losses=losses).win_rate_ci95
        report["pooled"] = {"wins": wins, "losses": losses, "tableaux": ties,
                            "win_rate": wins / max(1, wins + losses), "win_rate_ci95": [lo, hi],
                            "games": len(seeds) * (args.deals or 100) * 2, "seeds": seeds}
        if args.baseline:
            res = run_tournament(rules, ["foster", "random"], args.deals or 500, 11, args.workers, progress=True)
            report["foster vs random (seed 11)"] = res.to_json()["results"]
    else:
        n = 5 if args.variant == "cooncan-double" else 3
        rules = get_rules(args.variant, players=n)
        deals = args.deals or (80 if n == 5 else 60)
        e: list[float] = []
        f: list[float] = []
        for seed in seeds:
            ours = run_tournament(rules, [bot] + ["foster"] * (n - 1), deals, seed, args.workers,
                                  bot_params=params, progress=True)
            fosters = run_tournament(rules, ["foster"] * n, deals, seed, args.workers, progress=True)
            e += slot_scores(ours, 0)
            f += slot_scores(fosters, 0)
            times += ours.results[0].times
        report[bot] = dict(zip(("mean", "lo", "hi"), interval(e), strict=True))
        report["foster in the same slot"] = dict(zip(("mean", "lo", "hi"), interval(f), strict=True))
        diff = [a - b for a, b in zip(e, f, strict=True)]
        report["paired difference"] = dict(zip(("mean", "lo", "hi"), interval(diff), strict=True))
        report["games"] = len(e)
        report["seeds"] = seeds
    report["seconds per decision"] = sum(times) / max(1, len(times))
    report["p95 seconds per decision"] = sorted(times)[int(0.95 * (len(times) - 1))] if times else 0.0
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
