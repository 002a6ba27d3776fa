"""A short masked-PPO run on two-hand conquian against the `random` bot (outside CI).

Needs sb3-contrib (and so PyTorch): ``pip install -e '.[rl]' sb3-contrib``.

    python examples/train_maskable_ppo.py                  # 200,000 steps, a few minutes
    python examples/train_maskable_ppo.py --steps 50000 --eval 500

It measures the learner's results over ``--eval`` deals before training (an untrained policy)
and after, on the same seeds, and prints the win rate of decided deals (the rest are tableaux)
and the time the training took.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker

from conquian.envs.gym import ConquianGymEnv


def make_env(opponent: str) -> ActionMasker:
    env = ConquianGymEnv("conquian", opponents=opponent)
    return ActionMasker(env, lambda e: e.action_masks())


def evaluate(model: MaskablePPO, opponent: str, deals: int, seed: int) -> dict[str, float]:
    env = ConquianGymEnv("conquian", opponents=opponent)
    wins = losses = 0
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
    decided = wins + losses
    return {"deals": deals, "wins": wins, "losses": losses, "tableaux": deals - decided,
            "win_rate": wins / decided if decided else float("nan")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=200_000)
    ap.add_argument("--eval", type=int, default=1000, help="deals to evaluate on, before and after")
    ap.add_argument("--opponent", default="random")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    model = MaskablePPO("MlpPolicy", make_env(args.opponent), seed=args.seed, verbose=0, n_steps=2048,
                        batch_size=256, learning_rate=3e-4, gamma=1.0, ent_coef=0.01)
    before = evaluate(model, args.opponent, args.eval, seed=10_000)
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    took = time.perf_counter() - start
    after = evaluate(model, args.opponent, args.eval, seed=10_000)
    for label, r in (("before", before), ("after", after)):
        print(f"{label:6}: {r['wins']} wins, {r['losses']} losses, {r['tableaux']} tableaux of {r['deals']} deals; "
              f"win rate of decided deals {r['win_rate']:.1%}")
    print(f"training: {args.steps:,} steps in {took:.0f} s ({args.steps / took:,.0f} steps/s)")
    np.set_printoptions(precision=3)


if __name__ == "__main__":
    main()
