"""An approximate best response: masked PPO trained against a frozen bot, and the lower bound it
gives on the bot's exploitability in two-hand conquian (outside CI).

Needs sb3-contrib (and so PyTorch): ``pip install -e '.[rl,train]'``.

    python examples/best_response.py --opponent random --minutes 24 --out docs/figures/best-response-random
    python examples/best_response.py --opponent foster --minutes 24 --out docs/figures/best-response-foster
    python examples/best_response.py --opponent foster --steps 2000000 --minutes 0   # no time limit
    python examples/best_response.py --opponent skilled --steps 200000 --minutes 0  # expert's search, 40 playouts

The learner trains in the batched environment behind SB3's ``VecEnv``
(:class:`conquian.envs.sb3.ConquianSB3VecEnv`: every deal in one process, stepped with numpy
arrays), the bot at the other seat inside the environment, one deal an episode and the deal's
score its reward (+1 won, -1 lost, 0 a tableau).  Training stops after ``--steps`` of the
learner's steps or ``--minutes`` of wall time, whichever comes first.  Every ``--eval-every``
steps the policy plays ``--curve-decks`` duplicate decks (the learning curve), and at the end
``--eval`` decks.

**Duplicate deals.**  Each deck is played twice with the same dealer (seat p2): once with the
learner in seat p1 and the bot in p2, once the other way round, so that both hands of every deck
are played by both.  The learner's result on a deck is the sum of its two scores; the mean gain
a deal is the mean of those sums over two, and its 95% interval is the normal interval of the
mean over the decks (the decks are independent; the two deals of one deck are not).

**The lower bound.**  In a symmetric zero-sum game a bot's exploitability is what a best
response wins from it a deal, on average over the seats.  The trained policy is *a* response,
so its gain is at most the best one's: ``max(0, gain)`` is a lower bound on the bot's
exploitability (its interval ``max(0, low)`` to ``max(0, high)``), and only a bound: a longer
run, a larger network or a better algorithm can raise it, never show it is tight.

The figures go to ``OUT.json`` (the settings, the final evaluation, the lower bound) and
``OUT.csv`` (the learning curve); ``cpu_seconds`` is the process's CPU time from the start of
training to the end (on a busy machine far below the wall time).  PyTorch runs on
``--threads`` threads (one by default).  Figures and notes: docs/research.md.
"""

from __future__ import annotations

import argparse
import csv
import functools
import io
import json
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from conquian.engine.files import atomic_write
from conquian.envs.sb3 import ConquianSB3VecEnv
from conquian.envs.vector import ConquianVectorEnv, Policy

#: The seat that deals every evaluation deal (the learner sits at p1, then at p2).
EVAL_DEALER = 2
#: Progress lines, written at once (a long run's log shows where it is).
say = functools.partial(print, flush=True)
#: The 95% normal quantile.
Z95 = 1.959963984540054


def model_policy(model: MaskablePPO, deterministic: bool = True) -> Policy:
    """A trained model as a policy on stacked observations and masks (the league's and the
    batched environment's kind of policy)."""

    def policy(obs: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        actions, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=deterministic)
        return np.asarray(actions, dtype=np.int64).reshape(-1)

    return policy


def play_seat(policy: Policy, opponent: str | Policy, seat: int, deck_seeds: list[int], variant: str = "conquian",
              batch: int = 256) -> tuple[np.ndarray[Any, Any], list[tuple[int, ...]]]:
    """The policy's score in seat ``seat`` on one deal of each deck seed (p2 dealing), the bot at
    the other seat, and each deal's deck (so that a caller can check both seats held the same)."""
    scores = np.zeros(len(deck_seeds), dtype=np.int64)
    decks: list[tuple[int, ...]] = []
    for start in range(0, len(deck_seeds), batch):
        seeds = deck_seeds[start:start + batch]
        env = ConquianVectorEnv(variant, num_envs=len(seeds), opponents=opponent, seat=seat, players=2,
                                dealer=EVAL_DEALER, copy=False)
        obs, info = env.reset(seed=seeds)
        decks.extend(tuple(env.deals[i].deck) for i in range(len(seeds)))
        done = np.zeros(len(seeds), dtype=bool)
        for _ in range(100_000):
            if done.all():
                break
            obs, rewards, terminated, truncated, info = env.step(policy(obs, info["action_mask"]))
            ended = (terminated | truncated) & ~done
            scores[start + np.flatnonzero(ended)] = rewards[ended]
            done |= ended
        else:
            raise RuntimeError("a deal did not end")
    return scores, decks


def duplicate_eval(policy: Policy, opponent: str | Policy, decks: int, seed: int, variant: str = "conquian",
                   batch: int = 256) -> dict[str, Any]:
    """The policy against ``opponent`` on ``decks`` duplicate decks (seeds ``seed`` on), each deck
    once in each seat: the mean gain a deal with its 95% interval, and each seat's record."""
    seeds = [seed + k for k in range(decks)]
    first, decks1 = play_seat(policy, opponent, 1, seeds, variant, batch)
    second, decks2 = play_seat(policy, opponent, 2, seeds, variant, batch)
    if decks1 != decks2:
        raise RuntimeError("the two seats were dealt different decks")
    sums = first + second  # the learner's result on each deck
    mean = float(sums.mean()) / 2
    half = Z95 * float(sums.std(ddof=1)) / math.sqrt(decks) / 2 if decks > 1 else float("nan")

    def record(s: np.ndarray[Any, Any]) -> dict[str, int]:
        return {"won": int((s > 0).sum()), "lost": int((s < 0).sum()), "tableau": int((s == 0).sum())}

    return {"decks": decks, "deals": 2 * decks, "first_deck_seed": seed, "gain": mean, "low": mean - half,
            "high": mean + half, "seat1": record(first), "seat2": record(second),
            "decks_won": int((sums > 0).sum()), "decks_lost": int((sums < 0).sum()),
            "decks_drawn": int((sums == 0).sum())}


def lower_bound(ev: dict[str, Any]) -> dict[str, float]:
    """The lower bound on the bot's exploitability an evaluation gives: ``max(0, gain)``, its
    interval clipped at 0 likewise."""
    return {"bound": max(0.0, ev["gain"]), "low": max(0.0, ev["low"]), "high": max(0.0, ev["high"])}


class Budget(BaseCallback):  # type: ignore[misc, unused-ignore]
    """Stops training after ``seconds`` of wall time (0: never) and calls ``every(steps)`` each
    ``every_steps`` of the learner's steps."""

    def __init__(self, seconds: float, every_steps: int, every: Callable[[int], None]) -> None:
        super().__init__()
        self.seconds, self.every_steps, self.every = seconds, every_steps, every
        self.start = time.perf_counter()
        self.next = every_steps
        self.stopped_by_time = False

    def _on_step(self) -> bool:
        if self.every_steps and self.num_timesteps >= self.next:
            self.next += self.every_steps
            self.every(self.num_timesteps)
        if self.seconds and time.perf_counter() - self.start > self.seconds:
            self.stopped_by_time = True
            return False
        return True


def make_model(opponent: str | Policy, seed: int, num_envs: int = 16, rollout: int = 2048,
               variant: str = "conquian") -> MaskablePPO:
    """``MaskablePPO`` on the batched environment, the bot at the other seat (the learner's seat
    p1, the dealer drawn for each deal), ``rollout`` steps between updates over all environments."""
    env = ConquianSB3VecEnv(variant, num_envs=num_envs, opponents=opponent, players=2, seed=seed)
    n_steps = max(1, rollout // num_envs)
    return MaskablePPO("MlpPolicy", env, seed=seed, verbose=0, n_steps=n_steps,
                       batch_size=min(256, n_steps * num_envs), learning_rate=3e-4, gamma=1.0, ent_coef=0.01)


def run(opponent: str, steps: int, minutes: float, seed: int, eval_decks: int, curve_decks: int, eval_every: int,
        num_envs: int = 16, rollout: int = 2048, log: Callable[[str], None] = say) -> dict[str, Any]:
    """Train a response to ``opponent`` and measure it (see the module's documentation); returns
    the figures, the learning curve under ``"curve"``."""
    model = make_model(opponent, seed, num_envs, rollout)
    eval_seed = 1_000_000  # decks no training deal uses (training seeds its environments seed, seed + 1, ...)
    curve: list[dict[str, Any]] = []
    clock = time.perf_counter()
    cpu = time.process_time()
    spent_evaluating = 0.0

    def point(steps_done: int) -> None:
        nonlocal spent_evaluating
        t = time.perf_counter()
        trained = t - clock - spent_evaluating
        ev = duplicate_eval(model_policy(model), opponent, curve_decks, eval_seed)
        spent_evaluating += time.perf_counter() - t
        curve.append({"steps": steps_done, "train_seconds": round(trained, 1), "gain": ev["gain"],
                      "low": ev["low"], "high": ev["high"]})
        log(f"{steps_done:>9,} steps, {trained:>6.0f} s training: {ev['gain']:+.3f} a deal "
            f"[{ev['low']:+.3f}, {ev['high']:+.3f}] over {curve_decks} duplicate decks")

    before = duplicate_eval(model_policy(model), opponent, eval_decks, eval_seed)
    log(f"untrained: {before['gain']:+.3f} a deal [{before['low']:+.3f}, {before['high']:+.3f}]")
    clock = time.perf_counter()
    point(0)
    budget = Budget(minutes * 60, eval_every, point)
    model.learn(total_timesteps=steps, callback=budget)
    trained_seconds = time.perf_counter() - clock - spent_evaluating
    trained_steps = int(model.num_timesteps)
    if not curve or curve[-1]["steps"] != trained_steps:
        point(trained_steps)
    t = time.perf_counter()
    after = duplicate_eval(model_policy(model), opponent, eval_decks, eval_seed)
    eval_seconds = time.perf_counter() - t
    bound = lower_bound(after)
    log(f"trained ({trained_steps:,} steps, {trained_seconds:.0f} s training): {after['gain']:+.3f} a deal "
        f"[{after['low']:+.3f}, {after['high']:+.3f}] over {eval_decks} duplicate decks ({eval_seconds:.0f} s)")
    log(f"lower bound on {opponent}'s exploitability: {bound['bound']:.3f} a deal "
        f"[{bound['low']:.3f}, {bound['high']:.3f}]")
    return {"variant": "conquian", "players": 2, "opponent": opponent, "seed": seed, "steps_asked": steps,
            "minutes": minutes, "steps": trained_steps, "stopped_by_time": budget.stopped_by_time,
            "num_envs": num_envs, "rollout": rollout, "train_seconds": round(trained_seconds, 1),
            "eval_seconds": round(eval_seconds, 1),
            "cpu_seconds": round(time.process_time() - cpu, 1), "threads": torch.get_num_threads(),
            "before": before, "after": after, "exploitability_lower_bound": bound, "curve": curve}


def write(result: dict[str, Any], out: Path) -> None:
    """The figures to ``out.json`` and the learning curve to ``out.csv``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(out.with_suffix(".json"), json.dumps(result, indent=1) + "\n")
    atomic_write(out.with_suffix(".csv"), csv_text(result["curve"], ["steps", "train_seconds", "gain", "low", "high"]))


def csv_text(rows: list[dict[str, Any]], fields: list[str]) -> str:
    """``rows`` as CSV with a header line (written atomically by the callers)."""
    text = io.StringIO(newline="")
    w = csv.DictWriter(text, fieldnames=fields)
    w.writeheader()
    w.writerows(rows)
    return text.getvalue()


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--opponent", default="random", help="the frozen bot (a registered bot's name)")
    ap.add_argument("--steps", type=int, default=1_000_000, help="the learner's steps at most")
    ap.add_argument("--minutes", type=float, default=25.0, help="wall time of training at most (0: no limit)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--eval", type=int, default=2000, help="duplicate decks of the final evaluation")
    ap.add_argument("--curve-decks", type=int, default=300, help="duplicate decks of each point of the curve")
    ap.add_argument("--eval-every", type=int, default=50_000, help="the learner's steps between points of the curve")
    ap.add_argument("--envs", type=int, default=16, help="deals stepped together")
    ap.add_argument("--rollout", type=int, default=2048, help="the learner's steps between two updates")
    ap.add_argument("--threads", type=int, default=1, help="PyTorch's threads")
    ap.add_argument("--out", type=Path, default=None, help="write OUT.json and OUT.csv")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.distributions.Distribution.set_default_validate_args(False)  # the masks' checks, not needed here
    result = run(args.opponent, args.steps, args.minutes, args.seed, args.eval, args.curve_decks, args.eval_every,
                 args.envs, args.rollout)
    if args.out is not None:
        write(result, args.out)
    return result


if __name__ == "__main__":
    main()
