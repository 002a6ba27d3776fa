"""Masked-PPO baselines: a learner against a bot, one deal an episode (outside CI).

Needs sb3-contrib (and so PyTorch): ``pip install -e '.[rl,train]'``.

    python examples/train_maskable_ppo.py                              # conquian vs random, 200,000 steps
    python examples/train_maskable_ppo.py --variant cooncan --players 3 --opponent foster --steps 100000
    python examples/train_maskable_ppo.py --seeds 0 1 2 --json         # one JSON line per seed

For every seed it trains ``MaskablePPO`` from scratch for ``--steps`` of the learner's steps,
then plays ``--eval`` fixed deals (the same seeds for every run, the policy deterministic) and
reports the win rate of decided deals (a deal no seat wins scores nothing), the mean points a
deal and the wall time of the training; the untrained policy is measured on the same deals
first.  PyTorch runs on ``--threads`` threads (one by default), so the time holds on a machine
whose other cores are busy.  Most of a step's time is the network's: Cooncan's 7,569 actions
give the network a last layer about six times conquian's 1,299 (version 1 of the action spaces).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker

from conquian.envs.gym import ConquianGymEnv


def make_env(variant: str, players: int | None, opponent: str, version: int = 1) -> ActionMasker:
    """The learner's environment, its mask handed to ``MaskablePPO`` by sb3-contrib's wrapper."""
    env = ConquianGymEnv(variant, opponents=opponent, players=players, version=version)
    return ActionMasker(env, lambda e: e.action_masks())


def evaluate(model: MaskablePPO, variant: str, players: int | None, opponent: str, deals: int,
             seed: int, version: int = 1) -> dict[str, Any]:
    """The learner's results over ``deals`` deals of fixed seeds, the policy deterministic."""
    env = ConquianGymEnv(variant, opponents=opponent, players=players, version=version)
    wins = losses = 0
    points = 0.0
    for k in range(deals):
        obs, info = env.reset(seed=seed + k)
        done = False
        reward = 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=info["action_mask"].astype(bool), deterministic=True)
            obs, reward, terminated, truncated, info = env.step(int(action))
            done = terminated or truncated
        wins += reward > 0
        losses += reward < 0
        points += reward
    decided = wins + losses
    return {"deals": deals, "wins": wins, "losses": losses, "undecided": deals - decided,
            "win_rate": wins / decided if decided else float("nan"), "points": points / deals}


def train(variant: str, players: int | None, opponent: str, steps: int, eval_deals: int,
          seed: int, rollout: int = 2048, version: int = 1) -> dict[str, Any]:
    """One seed's run: the untrained policy's results, the training, the trained policy's results."""
    model = MaskablePPO("MlpPolicy", make_env(variant, players, opponent, version), seed=seed, verbose=0,
                        n_steps=rollout, batch_size=min(256, rollout), learning_rate=3e-4, gamma=1.0, ent_coef=0.01)
    before = evaluate(model, variant, players, opponent, eval_deals, 10_000, version)
    start = time.perf_counter()
    model.learn(total_timesteps=steps)
    took = time.perf_counter() - start
    after = evaluate(model, variant, players, opponent, eval_deals, 10_000, version)
    return {"variant": variant, "players": players, "opponent": opponent, "seed": seed, "steps": steps,
            "version": version, "seconds": took, "before": before, "after": after}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="conquian")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--opponent", default="random", help="the bot at every other seat")
    ap.add_argument("--steps", type=int, default=200_000, help="the learner's steps per seed")
    ap.add_argument("--eval", type=int, default=1000, help="deals to evaluate on, before and after")
    ap.add_argument("--seeds", type=int, nargs="+", default=[0])
    ap.add_argument("--threads", type=int, default=1, help="PyTorch's threads")
    ap.add_argument("--rollout", type=int, default=2048, help="the learner's steps between two updates")
    ap.add_argument("--version", type=int, default=1, choices=(0, 1),
                    help="the action space's version (docs/encodings.md; 0: the first, deprecated)")
    ap.add_argument("--json", action="store_true", help="one JSON line per seed")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.distributions.Distribution.set_default_validate_args(False)  # the masks' checks, not needed here
    results = []
    for seed in args.seeds:
        r = train(args.variant, args.players, args.opponent, args.steps, args.eval, seed, args.rollout, args.version)
        results.append(r)
        if args.json:
            print(json.dumps(r), flush=True)
            continue
        for label in ("before", "after"):
            e = r[label]
            print(f"seed {seed} {label:6}: {e['wins']} wins, {e['losses']} losses, {e['undecided']} undecided "
                  f"of {e['deals']} deals; win rate of decided deals {e['win_rate']:.1%}, "
                  f"{e['points']:+.2f} points a deal")
        print(f"seed {seed} training: {args.steps:,} steps in {r['seconds']:.0f} s "
              f"({args.steps / r['seconds']:,.0f} steps/s)", flush=True)
    if len(results) > 1 and not args.json:
        rates = [r["after"]["win_rate"] for r in results]
        points = [r["after"]["points"] for r in results]
        print(f"{len(results)} seeds: win rate {np.mean(rates):.1%} (sd {statistics.stdev(rates):.1%}), "
              f"points a deal {np.mean(points):+.2f} (sd {statistics.stdev(points):.2f})")


if __name__ == "__main__":
    main()
