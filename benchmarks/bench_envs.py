"""Environment steps per second through the research interfaces.

Random legal play through the PettingZoo AEC API, the observation and the mask of the agent to
act built at every step (``env.last()``), and through the batched environment
(:mod:`conquian.envs.vector`, ``num_envs`` deals stepped at once, the observation and the mask of
the seat to act in every deal built at every step, a uniform legal choice made over the masks
with numpy), one core; beside them, RLCard's gin-rummy environment and OpenSpiel's gin_rummy
through pyspiel with the observation tensor of the player to act built at every step
(``benchmarks/peers.py``).  A step is one decision of one seat everywhere (the batched
environment's self-play mode), an environment's step against an environment's step, so the
figures compare alike; the compared batched figure is the environment as it comes (``copy=True``,
its default), the others its own buffers (``copy=False``); the batched environment with a
learner against ``random`` opponents is shown too (its steps are the learner's, each followed
by the opponents' moves).

    python -m benchmarks.bench_envs [--seconds 2] [--envs 128] [--repeat 3] [--cpu] [--quick] [--json]

``--cpu`` times every figure, ours and the peers', by the process's CPU time rather than the
wall clock: on a machine busy with other work the share of a core each run gets then weighs on
no side.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

#: What times the figures: the wall clock, or with ``--cpu`` the process's CPU time (on a busy machine).
_clock: Callable[[], float] = time.perf_counter

ENV_CONFIGS = [("conquian", 2), ("conquian-spanish", 2), ("cooncan", 3), ("cooncan-double", 5),
               ("conquian-mexicano", 2), ("conquian-mexicano", 3)]


def aec_steps(variant: str, players: int, seconds: float, raw: bool = True) -> dict[str, float]:
    """Steps per second of random legal play through the AEC API (observations and masks built)."""
    from conquian.envs.aec import ConquianAEC, make_env

    env: Any = ConquianAEC(variant, players) if raw else make_env(variant, "bench")[0](players)
    rng = random.Random(0)
    steps = episodes = 0
    start = _clock()
    seed = 0
    while _clock() - start < seconds:
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
    el = _clock() - start
    return {"steps_per_second": steps / el, "episodes_per_second": episodes / el}


def vector_steps(variant: str, players: int, seconds: float, num_envs: int = 128,
                 opponents: str | None = None, copy: bool = False) -> dict[str, float]:
    """Steps per second of the batched environment under random legal play (self-play by default:
    every decision of every seat is a step, its observation and mask built).  ``copy=False``: the
    environment's own buffers, as the figures of docs/benchmarks.md were measured (``copy=True``, the
    default, adds a copy of the arrays a step)."""
    import numpy as np

    from conquian.envs.vector import ConquianVectorEnv, random_legal

    env = ConquianVectorEnv(variant, num_envs, opponents=opponents, players=players, seed=0, copy=copy)
    pick = random_legal(np.random.default_rng(0))
    obs, info = env.reset(seed=0)
    steps = episodes = 0
    start = _clock()
    while _clock() - start < seconds:
        obs, _r, term, trunc, info = env.step(pick(obs, info["action_mask"]))
        steps += num_envs
        episodes += int(term.sum() + trunc.sum())
    el = _clock() - start
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
    start = _clock()
    while _clock() - start < seconds:
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
    return {"steps_per_second": steps / (_clock() - start)}


#: The issue's targets: (our figure, the peer, the least ratio asked for).
TARGETS = [
    ("conquian (2)", "rlcard gin-rummy env", 5.0),
    ("conquian (2)", "openspiel gin_rummy with observation tensors", 1.0),
    ("conquian (2), batched", "rlcard gin-rummy env", 12.0),
    ("conquian (2), batched", "openspiel gin_rummy with observation tensors", 5.0),
    ("cooncan-double (5)", "rlcard gin-rummy env", 1.0),
    ("cooncan-double (5), batched", "rlcard gin-rummy env", 1.0),
]


def _median(xs: list[float]) -> float:
    return sorted(xs)[len(xs) // 2]


def run(seconds: float, num_envs: int = 128, repeat: int = 3) -> dict[str, Any]:
    """Every figure, the peers' and the ratios.

    The figures the targets compare (two-hand conquian, AEC and batched, and both peers) are
    measured ``repeat`` times, interleaved, so that a machine busy for a while weighs on every
    side alike; each such figure is the median of its runs and each ratio the median of the
    runs' ratios."""
    from benchmarks.peers import Missing, rlcard_env

    out: dict[str, Any] = {"ours": {}, "peers": {}, "compiled": compiled()}
    for variant, n in ENV_CONFIGS[1:]:
        aec_steps(variant, n, min(0.2, seconds))  # warm-up (encodings and tables)
        out["ours"][f"{variant} ({n})"] = aec_steps(variant, n, seconds)
    out["ours"]["conquian (2), wrapped env()"] = aec_steps("conquian", 2, seconds, raw=False)
    for variant, n in ENV_CONFIGS[1:]:
        vector_steps(variant, n, min(0.2, seconds), num_envs)
        out["ours"][f"{variant} ({n}), batched"] = vector_steps(variant, n, seconds, num_envs)
    out["ours"]["conquian (2), batched, learner vs random"] = vector_steps("conquian", 2, seconds, num_envs, "random")

    def rlcard(sec: float) -> dict[str, float]:
        return {"steps_per_second": rlcard_env(sec, _clock)["decisions_per_second"]}

    sides: dict[str, tuple[str, Callable[[float], dict[str, float]]]] = {
        "conquian (2)": ("ours", lambda sec: aec_steps("conquian", 2, sec)),
        # the environment as it comes (copy=True: the arrays a step returns are the caller's own)
        "conquian (2), batched": ("ours", lambda sec: vector_steps("conquian", 2, sec, num_envs, copy=True)),
        "rlcard gin-rummy env": ("peers", rlcard),
        "openspiel gin_rummy with observation tensors": ("peers", openspiel_tensors),
    }
    for fn in (s[1] for s in sides.values()):
        with contextlib.suppress(Missing):
            fn(min(0.2, seconds))  # warm-up
    runs: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(repeat):
        for name, (_side, fn) in sides.items():
            with contextlib.suppress(Missing):
                fig = fn(seconds)
                if fig:
                    runs[name].append(fig["steps_per_second"])
    for name, (side, _fn) in sides.items():
        if runs[name]:
            out[side][name] = {"steps_per_second": _median(runs[name]), "runs": runs[name]}
    for mine, peer, target in TARGETS:
        if peer in out["peers"] and mine in out["ours"]:
            if mine in runs and len(runs[mine]) == len(runs[peer]):
                r = _median([m / p for m, p in zip(runs[mine], runs[peer], strict=True)])
            else:
                r = out["ours"][mine]["steps_per_second"] / out["peers"][peer]["steps_per_second"]
            out.setdefault("ratios", {})[f"{mine} steps/s vs {peer} (target >= {target:g})"] = r
    return out


def compiled() -> bool:
    """Whether the engine's compiled hot path is in use (``conquian speedups build``)."""
    from conquian.speedups import status

    return any(status().values())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_envs", description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--envs", type=int, default=128, help="deals stepped at once by the batched environment")
    ap.add_argument("--repeat", type=int, default=3, help="interleaved runs of the compared figures")
    ap.add_argument("--quick", action="store_true", help="a smoke run (CI): 0.1 s per figure, one run")
    ap.add_argument("--cpu", action="store_true",
                    help="time by the process's CPU time, not the wall clock (a machine busy with other work)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    global _clock
    _clock = time.process_time if args.cpu else time.perf_counter
    report = run(0.1 if args.quick else args.seconds, args.envs, 1 if args.quick else args.repeat)
    report["clock"] = "cpu" if args.cpu else "wall"
    if args.json:
        print(json.dumps(report))
        return 0
    print("  (the engine's compiled hot path)" if report["compiled"] else "  (pure Python)",
          "timed by CPU time" if args.cpu else "timed by the wall clock")
    for side in ("ours", "peers"):
        for name, fig in report[side].items():
            print(f"  {name:52} {fig['steps_per_second']:>10,.0f} steps/s")
    for name, r in report.get("ratios", {}).items():
        print(f"  {r:6.1f} x  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
