"""Environment steps per second through the research interfaces (issue 11).

Random legal play through the PettingZoo AEC API, the observation and the mask of the agent to
act built at every step (``env.last()``), one core; beside it, RLCard's gin-rummy environment
and OpenSpiel's gin_rummy through pyspiel with the observation tensor of the player to act
built at every step (``benchmarks/peers.py``).

    python -m benchmarks.bench_envs [--seconds 2] [--json]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
import time
from typing import Any

ENV_CONFIGS = [("conquian", 2), ("conquian-spanish", 2), ("cooncan", 3), ("cooncan-double", 5),
               ("conquian-mexicano", 2), ("conquian-mexicano", 3)]


def aec_steps(variant: str, players: int, seconds: float, raw: bool = True) -> dict[str, float]:
    """Steps per second of random legal play through the AEC API (observations and masks built)."""
    from conquian.envs.aec import ConquianAEC, make_env

    env: Any = ConquianAEC(variant, players) if raw else make_env(variant, "bench")[0](players)
    rng = random.Random(0)
    steps = episodes = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        episodes += 1
    el = time.perf_counter() - start
    return {"steps_per_second": steps / el, "episodes_per_second": episodes / el}


def openspiel_tensors(seconds: float) -> dict[str, float]:
    """OpenSpiel's gin_rummy through pyspiel: random play, the observation tensor of the player to
    act and its legal actions built at every decision."""
    try:
        import pyspiel
    except ImportError:
        return {}
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            s.observation_tensor(s.current_player())
            legal = s.legal_actions_mask()
            choices = [i for i, ok in enumerate(legal) if ok]
            s.apply_action(choices[rng.randrange(len(choices))])
            steps += 1
    return {"steps_per_second": steps / (time.perf_counter() - start)}


def run(seconds: float) -> dict[str, Any]:
    from benchmarks.peers import Missing, rlcard_env

    out: dict[str, Any] = {"ours": {}, "peers": {}}
    for variant, n in ENV_CONFIGS:
        aec_steps(variant, n, 0.2)  # warm-up (encodings and tables)
        out["ours"][f"{variant} ({n})"] = aec_steps(variant, n, seconds)
    out["ours"]["conquian (2), wrapped env()"] = aec_steps("conquian", 2, seconds, raw=False)
    with contextlib.suppress(Missing):
        out["peers"]["rlcard gin-rummy env"] = {"steps_per_second": rlcard_env(seconds)["decisions_per_second"]}
    os_ = openspiel_tensors(seconds)
    if os_:
        out["peers"]["openspiel gin_rummy with observation tensors"] = os_
    mine = out["ours"]["conquian (2)"]["steps_per_second"]
    for name, fig in out["peers"].items():
        out.setdefault("ratios", {})[f"conquian (2) AEC steps/s vs {name}"] = mine / fig["steps_per_second"]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_envs", description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    report = run(args.seconds)
    if args.json:
        print(json.dumps(report))
        return 0
    for side in ("ours", "peers"):
        for name, fig in report[side].items():
            print(f"  {name:48} {fig['steps_per_second']:>10,.0f} steps/s")
    for name, r in report.get("ratios", {}).items():
        print(f"  {r:6.1f} x  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
