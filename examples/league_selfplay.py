r"""Self-play against past versions: masked PPO whose opponent is drawn from its own frozen
snapshots, measured against ``random`` and ``foster`` generation by generation, and a league of
the generations and the bots at the end (outside CI).

Needs sb3-contrib (and so PyTorch): ``pip install -e '.[rl,train]'``.

    python examples/league_selfplay.py --generations 10 --gen-steps 10000 --curve-decks 150 \
        --league-deals 12 --league-every 1 --minutes 17 --out docs/figures/selfplay
    python examples/league_selfplay.py --generations 3 --gen-steps 5000 --curve-decks 50 --league-deals 10

Generation 0 is the untrained network.  Generation ``g`` trains ``--gen-steps`` of the learner's
steps in the batched environment (:class:`conquian.envs.sb3.ConquianSB3VecEnv`, two-hand
conquian, one deal an episode) against the pool of generations ``0 .. g-1``: at the start of
every rollout one of them is drawn uniformly and plays the other seat of every deal, sampling
its actions from its own policy (fictitious self-play).  The network then goes on training, and
its frozen copy joins the pool as generation ``g``.

After every generation the learner plays ``--curve-decks`` duplicate decks against ``random``
and against ``foster`` (``examples/best_response.py``: each deck once in each seat, the 95%
interval over the decks, the policy deterministic): the curve.  At the end every
``--league-every``-th generation, the last and the two bots meet in
:func:`conquian.envs.league.league` (every pair on ``--league-deals`` duplicate decks of
``conquian tournament``, Elo ratings anchored at ``random``).  Training stops after the
generation under way when ``--minutes`` of wall time have passed.  The figures go to
``OUT.json`` (everything) and ``OUT.csv`` (the curve).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from conquian import get_rules
from conquian.engine.files import atomic_write
from conquian.envs.league import league

sys.path.insert(0, str(Path(__file__).resolve().parent))
from best_response import csv_text, duplicate_eval, make_model, model_policy, say


class Snapshot:
    """A frozen copy of the learner's network as a policy on stacked observations and masks
    (sampling its actions, or its most likely one with ``deterministic``)."""

    def __init__(self, model: MaskablePPO, generation: int) -> None:
        # a new network of the same shape, the weights copied (the live one holds its last
        # distribution, which does not deep-copy)
        self.net = type(model.policy)(**model.policy._get_constructor_parameters())
        self.net.load_state_dict(model.policy.state_dict())
        self.net.set_training_mode(False)
        self.generation = generation
        self.__name__ = f"gen{generation}"

    def __call__(self, obs: np.ndarray[Any, Any], mask: np.ndarray[Any, Any], deterministic: bool = False
                 ) -> np.ndarray[Any, Any]:
        actions, _ = self.net.predict(np.asarray(obs), action_masks=np.asarray(mask).astype(bool),
                                      deterministic=deterministic)
        return np.asarray(actions, dtype=np.int64).reshape(-1)

    def greedy(self, obs: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        """Its most likely legal action in every row."""
        return self(obs, mask, deterministic=True)


class Pool:
    """The opponent of every deal: one of the past generations, drawn again by :class:`Redraw`."""

    def __init__(self, first: Snapshot, seed: int) -> None:
        self.members = [first]
        self.current = first
        self.rng = random.Random(seed)
        self.draws: list[int] = []

    def draw(self) -> None:
        """Draw the opponent uniformly from the pool."""
        self.current = self.rng.choice(self.members)
        self.draws.append(self.current.generation)

    def __call__(self, obs: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        return self.current(obs, mask)


class Redraw(BaseCallback):  # type: ignore[misc, unused-ignore]
    """Draws the pool's opponent at the start of every rollout."""

    def __init__(self, pool: Pool) -> None:
        super().__init__()
        self.pool = pool

    def _on_rollout_start(self) -> None:
        self.pool.draw()

    def _on_step(self) -> bool:
        return True


def run(generations: int, gen_steps: int, minutes: float, seed: int, curve_decks: int, league_deals: int,
        league_every: int, num_envs: int = 16, rollout: int = 2048, bots: tuple[str, ...] = ("random", "foster"),
        log: Any = say) -> dict[str, Any]:
    """Self-play for ``generations`` generations (see the module's documentation); returns the figures."""
    pool_seed = seed * 7919 + 1
    # the pool is the environment's opponent: the model is built on it, then generation 0 joins it
    holder: list[Pool] = []

    def opponent(obs: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        return holder[0](obs, mask)

    model = make_model(opponent, seed, num_envs, rollout)
    pool = Pool(Snapshot(model, 0), pool_seed)
    holder.append(pool)
    eval_seed = 1_000_000
    curve: list[dict[str, Any]] = []
    start = time.perf_counter()
    cpu = time.process_time()
    train_seconds = 0.0

    def measure(generation: int) -> None:
        row: dict[str, Any] = {"generation": generation, "steps": int(model.num_timesteps),
                               "train_seconds": round(train_seconds, 1)}
        for bot in bots:
            ev = duplicate_eval(model_policy(model), bot, curve_decks, eval_seed)
            row[f"{bot}_gain"], row[f"{bot}_low"], row[f"{bot}_high"] = ev["gain"], ev["low"], ev["high"]
        curve.append(row)
        log(f"generation {generation} ({row['steps']:,} steps, {train_seconds:.0f} s training): " + ", ".join(
            f"against {b} {row[f'{b}_gain']:+.3f} [{row[f'{b}_low']:+.3f}, {row[f'{b}_high']:+.3f}]" for b in bots))

    measure(0)
    done = 0
    for g in range(1, generations + 1):
        t = time.perf_counter()
        model.learn(total_timesteps=gen_steps, callback=Redraw(pool), reset_num_timesteps=False)
        train_seconds += time.perf_counter() - t
        pool.members.append(Snapshot(model, g))
        done = g
        measure(g)
        if minutes and time.perf_counter() - start > minutes * 60:
            log(f"stopped after generation {g}: {minutes:g} minutes passed")
            break
    rules = get_rules("conquian")
    chosen = sorted({m.generation for m in pool.members if m.generation % league_every == 0} | {done})
    entrants: dict[str, Any] = {f"gen{m.generation}": m.greedy for m in pool.members if m.generation in chosen}
    entrants.update({b: b for b in bots})
    t = time.perf_counter()
    table = league(rules, entrants, deals=league_deals, seed=seed, anchor=bots[0])
    league_seconds = time.perf_counter() - t
    log(table.text())
    return {"variant": "conquian", "players": 2, "seed": seed, "generations": done, "gen_steps": gen_steps,
            "steps": int(model.num_timesteps), "train_seconds": round(train_seconds, 1),
            "wall_seconds": round(time.perf_counter() - start, 1),
            "cpu_seconds": round(time.process_time() - cpu, 1), "num_envs": num_envs, "rollout": rollout,
            "threads": torch.get_num_threads(), "curve_decks": curve_decks, "curve": curve,
            "opponents_drawn": pool.draws,
            "league": {"deals": league_deals, "seconds": round(league_seconds, 1), "anchor": bots[0],
                       "ratings": [{"name": r.name, "elo": r.elo, "games": r.games,
                                    "points_per_deal": r.points_per_deal, "won": r.wins, "drawn": r.draws,
                                    "lost": r.losses} for r in table.ratings],
                       "text": table.text()}}


def write(result: dict[str, Any], out: Path) -> None:
    """The figures to ``out.json`` and the curve to ``out.csv``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(out.with_suffix(".json"), json.dumps(result, indent=1) + "\n")
    atomic_write(out.with_suffix(".csv"), csv_text(result["curve"], list(result["curve"][0])))


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--generations", type=int, default=8)
    ap.add_argument("--gen-steps", type=int, default=40_000, help="the learner's steps a generation")
    ap.add_argument("--minutes", type=float, default=25.0, help="stop after the generation under way (0: no limit)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--curve-decks", type=int, default=300, help="duplicate decks against each bot a generation")
    ap.add_argument("--league-deals", type=int, default=30, help="duplicate decks a pair in the final league")
    ap.add_argument("--league-every", type=int, default=2, help="every how many generations enter the league")
    ap.add_argument("--envs", type=int, default=16, help="deals stepped together")
    ap.add_argument("--rollout", type=int, default=2048, help="the learner's steps between two updates")
    ap.add_argument("--threads", type=int, default=1, help="PyTorch's threads")
    ap.add_argument("--out", type=Path, default=None, help="write OUT.json and OUT.csv")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.distributions.Distribution.set_default_validate_args(False)
    result = run(args.generations, args.gen_steps, args.minutes, args.seed, args.curve_decks, args.league_deals,
                 args.league_every, args.envs, args.rollout)
    if args.out is not None:
        write(result, args.out)
    return result


if __name__ == "__main__":
    main()
