"""Our bots against OpenSpiel's information-set MCTS, through ``conquian.envs.openspiel`` (issue 12).

    python -m benchmarks.versus_ismcts --deals 40 --seconds 0.3    # master vs ISMCTS, 0.3 s each
    python -m benchmarks.versus_ismcts --bot foster --simulations 200
    python -m benchmarks.versus_ismcts --bot master --params '{"inference": "choices"}'
    python -m benchmarks.versus_ismcts --bot expert --readings choices,safe --simulations 100 --iterations 240

Two-hand conquian on duplicate deals: every deck (from our seeded shuffle) is played twice,
our bot in each seat in turn, OpenSpiel's ``ISMCTSBot`` (Cowling, Powley and Whitehouse's
algorithm as OpenSpiel implements it: UCT over information sets, random rollouts) in the
other. ISMCTS gets ``--simulations`` per decision, or, with ``--seconds``, as many as fit in
that time; with ``--seconds`` our search bot gets the same time per decision (as many
playouts as fit), unless ``--iterations`` or ``--ms`` says otherwise.  Reported: our bot's wins, losses,
tableaux and win rate of decided deals with Wilson's 95% interval, and each side's seconds
per decision.  With ``--readings A,B`` the same decks are played once with each reading of the
adversary's hand (``inference=``), the same seeds for both sides, and the paired difference of our
points a deck (a win +1, a loss -1, both seats summed; B minus A) is reported with its 95%
interval (with ``--simulations`` and ``--iterations`` both sides are deterministic, ISMCTS drawing
its re-deals from its own seeded stream, so the two runs differ only by the reading).  ISMCTS
only ever sees what its seat may see: it acts on pyspiel states through ``resample_from_infostate``,
which re-deals every card its seat has not seen.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Tally:
    wins: int = 0
    wall: float = 0.0
    losses: int = 0
    tableaux: int = 0
    ours: list[float] = field(default_factory=list)
    theirs: list[float] = field(default_factory=list)
    #: our points on each deck (a win +1, a loss -1, both seats summed), by the deck's seed
    decks: dict[int, float] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        self.wins += other.wins
        self.losses += other.losses
        self.tableaux += other.tableaux
        self.ours += other.ours
        self.theirs += other.theirs
        self.decks.update(other.decks)


def wilson(k: int, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    z = 1.96
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


class TimedISMCTS:
    """OpenSpiel's ISMCTSBot, given a number of simulations or a time per decision."""

    def __init__(self, game: Any, simulations: int, seconds: float | None, seed: int) -> None:
        import numpy as np
        from open_spiel.python.algorithms import ismcts, mcts

        self.rng = np.random.RandomState(seed)
        self.seconds = seconds
        evaluator = mcts.RandomRolloutEvaluator(1, self.rng)
        self.bot = ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=self.rng,
                                    final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        # its re-deals drawn from its own seeded stream (OpenSpiel's default sampler is seeded afresh
        # every time), so that with a number of simulations a game is the same from run to run
        self.bot._resampler_cb = lambda state, player: state.resample_from_infostate(player, self.rng.uniform)

    def step(self, state: Any) -> int:
        if self.seconds is None:
            return int(self.bot.step(state))
        # ISMCTSBot.run_search with a deadline instead of a number of simulations
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        bot = self.bot
        bot.reset()
        root = bot._root_node = bot.create_new_node(state)
        deadline = time.perf_counter() + self.seconds
        while time.perf_counter() < deadline:
            bot.run_simulation(bot.sample_root_state(state))
        policy = bot.get_final_policy(state, root)
        return int(max(policy, key=lambda ap: ap[1])[0])


def play_decks(job: tuple[int, int, str, dict[str, Any], int, float | None]) -> Tally:
    """Play decks ``first`` .. ``first + count - 1`` twice (our bot in each seat)."""
    first, count, bot_name, bot_options, simulations, seconds = job
    import pyspiel

    import conquian.envs.openspiel  # noqa: F401  (registers the games)
    from conquian import get_rules
    from conquian.bots import make_bot
    from conquian.engine.match import new_deal

    game = pyspiel.load_game("python_conquian", {"dealer": 2})  # p2 deals every deck, as new_deal below
    rules = get_rules("conquian")
    tally = Tally()
    for deck_no in range(first, first + count):
        deck = new_deal(rules, seed=deck_no, dealer=2).deck
        for our_seat in (1, 2):
            ours = make_bot(bot_name, seed=deck_no, **bot_options)
            theirs = TimedISMCTS(game, simulations, seconds, seed=deck_no * 2 + our_seat)
            state = game.new_initial_state()
            outcomes = list(state.g.outcomes)
            for card in deck:
                state.apply_action(outcomes.index(card))
            while not state.is_terminal():
                seat = state.current_player() + 1
                start = time.perf_counter()
                if seat == our_seat:
                    view = state.deal.view(seat)
                    chosen = str(ours.choose(view))
                    action = next(a for a in state.legal_actions()
                                  if str(state.g.enc.action(a, view)) == chosen)
                    tally.ours.append(time.perf_counter() - start)
                else:
                    action = theirs.step(state)
                    tally.theirs.append(time.perf_counter() - start)
                state.apply_action(action)
            r = state.returns()[our_seat - 1]
            tally.decks[deck_no] = tally.decks.get(deck_no, 0.0) + (1.0 if r > 0 else -1.0 if r < 0 else 0.0)
            if r > 0:
                tally.wins += 1
            elif r < 0:
                tally.losses += 1
            else:
                tally.tableaux += 1
    return tally


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.versus_ismcts", description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=50, help="decks, each played twice (default 50)")
    p.add_argument("--first", type=int, default=1, help="the first deck's seed (default 1)")
    p.add_argument("--bot", default="master", help="our bot (default master)")
    p.add_argument("--iterations", type=int, default=None, help="our search's playouts per decision")
    p.add_argument("--ms", type=float, default=None, help="our search's time per decision instead")
    p.add_argument("--simulations", type=int, default=100, help="ISMCTS simulations per decision (default 100)")
    p.add_argument("--seconds", type=float, default=None,
                   help="ISMCTS time per decision instead of a number of simulations")
    p.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    p.add_argument("--params", default="{}", help="our bot's other keyword arguments (JSON)")
    p.add_argument("--readings", default=None,
                   help="two readings of the adversary's hand (inference=), comma-separated: each plays the "
                        "same decks, and the paired difference of our points a deck is reported")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    try:
        options: dict[str, Any] = json.loads(args.params)
        if not isinstance(options, dict):
            raise ValueError("not an object")
    except ValueError as e:
        p.error(f"--params must be a JSON object of keyword arguments: {e}")
    if args.bot in ("expert", "master", "exit"):
        if args.iterations:
            options["iterations"] = args.iterations
        if args.ms:
            options["ms"] = args.ms
        if args.seconds is not None and not args.iterations and not args.ms:
            # the same time per decision as ISMCTS: playouts until the time is up
            options.update(iterations=10**7, ms=1000 * args.seconds)
    if args.readings is None:
        return report(args, options, args.json)
    from conquian.bots.expert import INFERENCES

    readings = [r.strip() for r in args.readings.split(",") if r.strip()]
    if len(readings) != 2 or any(r not in INFERENCES for r in readings) or args.bot not in ("expert", "master", "exit"):
        p.error(f"--readings must be two of {', '.join(INFERENCES)}, for expert, master or exit")
    runs = [play(args, {**options, "inference": r}) for r in readings]
    diff = [runs[1].decks[k] - runs[0].decks[k] for k in sorted(runs[0].decks)]
    n = len(diff)
    m = sum(diff) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in diff) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    out: dict[str, Any] = {r: summary(args, {**options, "inference": r}, t)
                           for r, t in zip(readings, runs, strict=True)}
    out[f"{readings[1]} minus {readings[0]}, points a deck"] = {"mean": m, "ci95": [m - half, m + half], "decks": n}
    print(json.dumps(out, indent=None if args.json else 1))
    return 0


def play(args: argparse.Namespace, options: dict[str, Any]) -> Tally:
    """Every deck of ``args`` played twice by our bot (with ``options``) against ISMCTS."""
    chunks = max(1, min(args.deals, args.workers * 4))
    size = -(-args.deals // chunks)
    jobs = [(args.first + i, min(size, args.deals - i), args.bot, options, args.simulations, args.seconds)
            for i in range(0, args.deals, size)]
    total = Tally()
    start = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        for t in pool.imap_unordered(play_decks, jobs):
            total.add(t)
            print(f"  {total.wins + total.losses + total.tableaux} games", file=sys.stderr, flush=True)
    total.wall = time.perf_counter() - start
    return total


def summary(args: argparse.Namespace, options: dict[str, Any], total: Tally) -> dict[str, Any]:
    """The figures of one run (:func:`play`), as printed with ``--json``."""
    decided = total.wins + total.losses
    lo, hi = wilson(total.wins, decided)

    def mean(xs: list[float]) -> float:
        return sum(xs) / len(xs) if xs else 0.0

    def p95(xs: list[float]) -> float:
        return sorted(xs)[int(0.95 * (len(xs) - 1))] if xs else 0.0

    out = {
        "bot": args.bot, "options": options, "ismcts": {"simulations": args.simulations, "seconds": args.seconds,
                                                      "uct_c": 2.0, "rollouts": 1},
        "deals": args.deals, "games": decided + total.tableaux, "wins": total.wins, "losses": total.losses,
        "tableaux": total.tableaux, "win_rate": total.wins / decided if decided else None,
        "win_rate_ci95": [lo, hi], "our_seconds": mean(total.ours), "our_p95_seconds": p95(total.ours),
        "ismcts_seconds": mean(total.theirs), "ismcts_p95_seconds": p95(total.theirs),
        "wall_seconds": round(total.wall, 1),
    }
    return out


def report(args: argparse.Namespace, options: dict[str, Any], as_json: bool) -> int:
    """Play (:func:`play`) and print the figures."""
    total = play(args, options)
    out = summary(args, options, total)
    decided = total.wins + total.losses
    lo, hi = out["win_rate_ci95"]
    rate = "n/a (no deal decided)" if not decided else (
        f"{100 * total.wins / decided:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)")
    if as_json:
        print(json.dumps(out))
    else:
        print(f"{args.bot} vs OpenSpiel ISMCTS ({args.simulations} simulations" if args.seconds is None
              else f"{args.bot} vs OpenSpiel ISMCTS ({args.seconds} s a decision", end="")
        print(f", UCT c=2, one random rollout), {out['games']} games on {args.deals} decks: "
              f"{total.wins} wins, {total.losses} losses, {total.tableaux} tableaux; win rate of decided deals "
              f"{rate}; seconds per decision: "
              f"ours {out['our_seconds']:.3f} (p95 {out['our_p95_seconds']:.3f}), ISMCTS "
              f"{out['ismcts_seconds']:.3f} (p95 {out['ismcts_p95_seconds']:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
