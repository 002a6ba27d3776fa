"""NFSP baselines: OpenSpiel's neural fictitious self-play on ``conquian-tiny`` and on conquian.

Needs PyTorch and OpenSpiel: ``pip install -e '.[rl,train]'``.

    python examples/train_nfsp.py tiny --deals 20000 --every 2000 --seed 0 --out nfsp-runs
    python examples/train_nfsp.py conquian --deals 4000 --every 500 --eval 100 --seed 0 --out nfsp-runs

The curves of ``docs/research.md`` (half an hour each):

    python examples/train_nfsp.py tiny --deals 60000 --every 2000 --min-buffer 128 --minutes 27 \
        --seed 0 --out docs/research
    python examples/train_nfsp.py conquian --deals 3000 --every 150 --eval 100 --min-buffer 128 --minutes 27 \
        --seed 0 --out docs/research

Two NFSP agents (``open_spiel.python.pytorch.nfsp``, one a seat) learn by self-play through
OpenSpiel's ``rl_environment`` on the game's observation tensor (the games give no
information-state tensor; ``docs/research.md``).  Every ``--every`` deals of training the agents'
*average policies* (the policy NFSP converges with, the one its theory speaks of) are measured:

* ``tiny``: on ``python_conquian_tiny`` with p1 dealing, the tree of the exploitability table of
  ``docs/research.md`` (walked once at the start, about a minute, and loaded into OpenSpiel's
  C++ tools), the exact exploitability (NashConv / 2) of the average policy, each seat's network
  asked at every one of its information sets;
* ``conquian``: on ``python_conquian`` (two-hand conquian, the dealer cut by chance), the average
  policy's mean points a deal against ``random`` and against ``foster`` over ``--eval`` deals
  each, the same deals at every checkpoint (half with the learner in each seat; the learner's
  actions sampled from its average policy with a fixed seed).

The curve is written as ``nfsp-GAME-seedS.json`` and ``.csv`` in ``--out`` after every
checkpoint (so a run stopped early keeps what it measured) and drawn as ``.png`` where
matplotlib is installed.  ``--minutes`` ends the training at the first checkpoint past that
much wall time.  PyTorch runs on ``--threads`` threads (one by default).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found, unused-ignore]
import torch
from open_spiel.python import rl_environment  # type: ignore[import-untyped, unused-ignore]
from open_spiel.python.pytorch import dqn, nfsp  # type: ignore[import-untyped, unused-ignore]

import conquian.envs.openspiel  # noqa: F401  (registers the games)
from conquian.bots import make_bot
from conquian.engine.files import atomic_write
from conquian.envs.exact import Tree, batch_policy, efg_infosets, tabular, walk

#: The OpenSpiel game of each target, with its parameters.
GAMES: dict[str, tuple[str, dict[str, Any]]] = {
    "tiny": ("python_conquian_tiny", {"dealer": 1}),
    "conquian": ("python_conquian", {}),
}
#: Hyperparameters a target starts from (OpenSpiel's Leduc example's, the layers sized to the game).
DEFAULTS: dict[str, dict[str, Any]] = {
    "tiny": {"hidden": [128], "deals": 20_000, "every": 2_000, "replay": 200_000},
    "conquian": {"hidden": [256, 256], "deals": 4_000, "every": 500, "replay": 50_000},
}


def make_agents(env: rl_environment.Environment, hidden: list[int], seed: int, args: argparse.Namespace) -> list[Any]:
    """One NFSP agent a seat, seeded from ``seed`` (OpenSpiel's networks seed torch and numpy
    as they are made: each seat gets seeds of its own, and the global generators are seeded
    again after)."""
    size = env.observation_spec()["info_state"][0]
    actions = env.action_spec()["num_actions"]
    agents = [
        nfsp.NFSP(
            player, state_representation_size=size, num_actions=actions, hidden_layers_sizes=hidden,
            reservoir_buffer_capacity=args.reservoir, anticipatory_param=args.anticipatory,
            batch_size=128, rl_learning_rate=args.rl_lr, sl_learning_rate=args.sl_lr,
            min_buffer_size_to_learn=args.min_buffer, learn_every=64, optimizer_str="sgd",
            replay_buffer_capacity=args.replay or DEFAULTS[args.target]["replay"],
            epsilon_start=0.06, epsilon_end=0.001, epsilon_decay_duration=args.decay, update_target_network_every=1000,
            seed=seed * 100 + 10 * player + 1,
        )
        for player in range(env.num_players)
    ]
    nfsp.set_seed(seed)
    random.seed(seed)
    return agents


def average_probabilities(agent: Any, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The agent's average-policy probabilities for a batch of observations and legal masks:
    its network's logits, the illegal actions masked, through a softmax (as NFSP acts)."""
    with torch.no_grad():
        logits = agent._avg_network(torch.as_tensor(obs, dtype=torch.float32))
        logits = torch.where(torch.as_tensor(masks), logits,
                             torch.full_like(logits, dqn.ILLEGAL_ACTION_LOGITS_PENALTY))
        return torch.softmax(logits, dim=-1).numpy()


class Exact:
    """The exact exploitability of a pair of NFSP average policies on ``conquian-tiny``."""

    def __init__(self, game: Any) -> None:
        t = time.perf_counter()
        self.tree: Tree = walk(game, observations=True)
        self.efg = self.tree.efg()
        self.sets = efg_infosets(self.efg)
        self.seconds = time.perf_counter() - t

    def __call__(self, agents: list[Any]) -> dict[str, float]:
        policy = batch_policy(self.tree, lambda p, obs, masks: average_probabilities(agents[p], obs, masks))
        table = tabular(self.efg, self.sets, policy)
        value = pyspiel.exploitability(self.efg, table)
        ret = pyspiel.expected_returns(self.efg.new_initial_state(), [table, table], -1, True)
        return {"exploitability": float(value), "value_p1": float(ret[0])}


class Versus:
    """The average policy's points a deal against bots on the same deals at every checkpoint."""

    def __init__(self, game: Any, deals: int, opponents: list[str], seed: int) -> None:
        self.game, self.deals, self.opponents, self.seed = game, deals, opponents, seed
        self.enc = game.data.enc

    def play(self, agents: list[Any], opponent: str, k: int) -> float:
        """Deal ``k``: the learner in seat ``k % 2``; its score."""
        chance = random.Random(self.seed * 1_000_003 + k)
        acting = np.random.default_rng(self.seed * 7_919 + k)
        learner = k % 2
        bot = make_bot(opponent, seed=k) if opponent != "random" else None
        state = self.game.new_initial_state()
        size = self.game.num_distinct_actions()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(chance.choices(outcomes, probs)[0])
                continue
            player = state.current_player()
            legal = state.legal_actions()
            if player == learner:
                obs = np.asarray(state.observation_tensor(player), dtype=np.float32)[None]
                mask = np.zeros((1, size), dtype=bool)
                mask[0, legal] = True
                p = average_probabilities(agents[player], obs, mask)[0, legal].astype(np.float64)
                action = legal[int(acting.choice(len(legal), p=p / p.sum()))]
            elif bot is None:
                action = legal[int(acting.integers(len(legal)))]
            else:
                view = state.deal.view(player + 1)
                index = self.enc.index_of(bot.choose(view), view)
                if index is None or index not in legal:
                    raise RuntimeError(f"{opponent} chose an action that is not listed")
                action = index
            state.apply_action(action)
        return float(state.returns()[learner])

    def __call__(self, agents: list[Any]) -> dict[str, float]:
        out: dict[str, float] = {}
        for opponent in self.opponents:
            scores = [self.play(agents, opponent, k) for k in range(self.deals)]
            out[f"vs_{opponent}"] = sum(scores) / len(scores)
            out[f"won_vs_{opponent}"] = sum(s > 0 for s in scores) / len(scores)
            out[f"lost_vs_{opponent}"] = sum(s < 0 for s in scores) / len(scores)
        return out


def write(out: Path, name: str, record: dict[str, Any]) -> None:
    """The curve so far as JSON and CSV (and PNG where matplotlib is installed)."""
    out.mkdir(parents=True, exist_ok=True)
    # atomically: written at every checkpoint, a run stopped meanwhile keeps the last whole curve
    atomic_write(out / f"{name}.json", json.dumps(record, indent=2) + "\n")
    rows = record["curve"]
    if rows:
        text = io.StringIO(newline="")
        writer = csv.DictWriter(text, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
        atomic_write(out / f"{name}.csv", text.getvalue())
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    if not rows:
        return
    fig, ax = plt.subplots(figsize=(6, 3.6))
    x = [r["deals"] for r in rows]
    if record["target"] == "tiny":
        ax.plot(x, [r["exploitability"] for r in rows], marker="o", label="NFSP average policy")
        for label, value in (("uniform random", 0.418571), ("foster", 0.257143), ("expert", 0.085714)):
            ax.axhline(value, linestyle=":", color="grey")
            ax.annotate(label, (x[-1], value), textcoords="offset points", xytext=(-4, 3), ha="right", fontsize=8)
        ax.set_yscale("log")
        ax.set_ylabel("exploitability (NashConv / 2)")
        ax.set_title(f"NFSP on conquian-tiny, seed {record['seed']}")
    else:
        for key in (k for k in rows[0] if k.startswith("vs_")):
            ax.plot(x, [r[key] for r in rows], marker="o", label=f"against {key[3:]}")
        ax.axhline(0.0, linestyle=":", color="grey")
        ax.set_ylabel(f"points a deal ({record['eval_deals']} deals)")
        ax.set_title(f"NFSP on two-hand conquian, seed {record['seed']}")
    ax.set_xlabel("deals of self-play")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / f"{name}.png", dpi=110)
    plt.close(fig)


def train(args: argparse.Namespace) -> dict[str, Any]:
    """Train and measure; the record written after every checkpoint."""
    torch.set_num_threads(args.threads)
    short, params = GAMES[args.target]
    game = pyspiel.load_game(short, params)
    hidden = args.hidden or DEFAULTS[args.target]["hidden"]
    deals = args.deals or DEFAULTS[args.target]["deals"]
    every = args.every or DEFAULTS[args.target]["every"]
    name = f"nfsp-{args.target}-seed{args.seed}"
    say = (lambda *a: None) if args.json else (lambda *a: print(*a, flush=True))
    record: dict[str, Any] = {
        "target": args.target, "game": str(game), "seed": args.seed, "hidden": hidden, "deals": deals,
        "every": every, "anticipatory": args.anticipatory, "rl_lr": args.rl_lr, "sl_lr": args.sl_lr,
        "reservoir": args.reservoir, "replay": args.replay or DEFAULTS[args.target]["replay"],
        "min_buffer": args.min_buffer,
        "epsilon_decay": args.decay, "threads": args.threads, "torch": torch.__version__, "curve": [],
    }
    measure: Any
    if args.target == "tiny":
        measure = Exact(game)
        record["walk_seconds"] = round(measure.seconds, 1)
        say(f"{game}: tree walked and loaded in {measure.seconds:.0f} s")
    else:
        record["eval_deals"] = args.eval
        record["opponents"] = args.opponents.split(",")
        measure = Versus(game, args.eval, record["opponents"], args.seed)
    env = rl_environment.Environment(game, seed=args.seed)
    agents = make_agents(env, hidden, args.seed, args)
    start = time.perf_counter()
    training = measuring = 0.0
    steps = 0

    def checkpoint(done: int) -> None:
        nonlocal measuring
        t = time.perf_counter()
        figures = measure(agents)
        measuring += time.perf_counter() - t
        row = {"deals": done, "steps": steps, "train_seconds": round(training, 1), **figures}
        record["curve"].append(row)
        record["wall_seconds"] = round(time.perf_counter() - start, 1)
        record["measure_seconds"] = round(measuring, 1)
        write(args.out, name, record)
        say("  ".join(f"{k} {v:.6f}" if isinstance(v, float) else f"{k} {v}" for k, v in row.items()))

    checkpoint(0)
    for done in range(1, deals + 1):
        t = time.perf_counter()
        time_step = env.reset()
        while not time_step.last():
            player = time_step.observations["current_player"]
            output = agents[player].step(time_step)
            time_step = env.step([output.action])
            steps += 1
        for agent in agents:
            agent.step(time_step)
        training += time.perf_counter() - t
        if done % every == 0 or done == deals:
            checkpoint(done)
            if args.minutes and time.perf_counter() - start > 60 * args.minutes and done < deals:
                record["stopped_early"] = f"after {done} deals: --minutes {args.minutes}"
                write(args.out, name, record)
                say(record["stopped_early"])
                break
    if args.json:
        print(json.dumps(record))
    return record


def parser() -> argparse.ArgumentParser:
    """The command line."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("target", choices=sorted(GAMES), help="tiny: exact exploitability; conquian: against bots")
    ap.add_argument("--deals", type=int, default=0, help="deals of self-play (tiny 20,000, conquian 4,000)")
    ap.add_argument("--every", type=int, default=0, help="deals between checkpoints (tiny 2,000, conquian 500)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--hidden", type=int, nargs="*", default=None, help="hidden layers (tiny 128, conquian 256 256)")
    ap.add_argument("--anticipatory", type=float, default=0.1, help="share of deals played by the best response")
    ap.add_argument("--rl-lr", type=float, default=0.01)
    ap.add_argument("--sl-lr", type=float, default=0.01)
    ap.add_argument("--reservoir", type=int, default=200_000, help="the average policy's reservoir")
    ap.add_argument("--replay", type=int, default=0,
                    help="the best response's replay buffer (tiny 200,000, conquian 50,000)")
    ap.add_argument("--min-buffer", type=int, default=1000, help="transitions before learning")
    ap.add_argument("--decay", type=int, default=1_000_000, help="steps of the exploration's decay")
    ap.add_argument("--eval", type=int, default=100, help="conquian: deals against each opponent a checkpoint")
    ap.add_argument("--opponents", default="random,foster", help="conquian: bots to play, comma-separated")
    ap.add_argument("--minutes", type=float, default=0.0, help="stop at the first checkpoint past this wall time")
    ap.add_argument("--threads", type=int, default=1, help="PyTorch threads (default 1)")
    ap.add_argument("--out", type=Path, default=Path("nfsp-runs"), help="where the figures go")
    ap.add_argument("--json", action="store_true", help="print only the final record, as JSON")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if min(args.deals, args.every, args.minutes, args.eval) < 0 or args.threads < 1:
        print("--deals, --every, --minutes and --eval must not be negative, --threads at least 1", file=sys.stderr)
        return 2
    train(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
