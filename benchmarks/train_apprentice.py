"""Fit the ``apprentice`` (conquian) on the search's own decisions: expert iteration, one round or more.

    python -m benchmarks.train_apprentice                      # the shipped weights (docs/bots.md)
    python -m benchmarks.train_apprentice --smoke              # seconds: a tiny run, nothing written
    options: --deals N (simulated deals a round) --iterations N (the search's playouts a decision)
             --rounds R --seed S --out PATH (default: the package's apprentice_weights.json)
             --data PATH (keep every round's decisions, .npz, written every ten deals)
             --fit-only FILE (fit on decisions kept by --data) --eval-deals N (apprentice vs foster)
             --soft T --mix M (soft targets: a share M of each target moved to a softmax of the
             search's mean playout values at temperature T; default: the search's choice only)

A round plays ``--deals`` conquian deals with the search in both seats (``expert``'s determinized
search with sequential halving, ``--iterations`` playouts a decision; from the second round on, its
playouts finished by the apprentice of the round before, as ``exit`` does).  Each decision with a
choice is kept: the features of every legal action (:mod:`conquian.bots.apprentice_policy`), the
action the search chose and each action's mean playout value.  The weights are then fitted with
numpy: softmax cross-entropy over each decision's legal actions, an L2 pull towards ``foster``
(the weight 1 on "foster's choice", 0 on the rest), full-batch Adam, the step count chosen on a
held-out fifth of the deals.  The apprentice is finally played against ``foster`` on
``--eval-deals`` duplicate decks.

Needs numpy (the ``rl`` extra).  Reproducible for a seed (the search is deterministic for its
seed and the fit starts from fixed weights); the time depends on the machine (docs/bots.md).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from conquian import ConquianDeal, get_rules
from conquian.bots.apprentice import WEIGHTS_FILE, ExitBot, check_weights
from conquian.bots.apprentice_policy import FEATURES, N_FEATURES, view_features
from conquian.bots.expert import ExpertBot
from conquian.tournament import run_tournament

FloatArray = npt.NDArray[np.float64]
PRIOR = np.array([1.0] + [0.0] * (N_FEATURES - 1))


def search_choice(bot: ExpertBot, view: Any, budget: int) -> tuple[int, list[float]]:
    """The index (in ``view.legal_raw()``) of the action the bot's search picks: what
    :meth:`ExpertBot.choose` does in conquian, without a deadline; and each action's mean playout value."""
    legal = view.legal_raw()
    rng = bot._rng(view)
    values: list[list[float]] = [[] for _ in legal]
    alive = bot._halve(view, rng, legal, budget, values, None)
    means = [sum(v) / len(v) if v else 0.0 for v in values]
    return max(alive, key=lambda i: (means[i], -i)), means


def generate(deals: int, seed: int, iterations: int, weights: tuple[float, ...] | None,
             log: Any = None, save: str | None = None) -> dict[str, FloatArray]:
    """Play ``deals`` deals with the search in both seats; every decision with a choice as rows of
    features (``x``), the decision each row belongs to (``group``), the chosen row of each decision
    (``label``, an index into ``x``), the deal each decision comes from (``deal``) and each row's mean
    playout value in the search (``value``: for soft targets, or to refit without new searches); ``save``: a
    file (.npz) the decisions so far are written to every ten deals."""
    rules = get_rules("conquian")
    bot: ExpertBot = ExpertBot(seed=seed) if weights is None else ExitBot(seed=seed, weights=weights, cap_ms=None)
    xs: list[list[float]] = []
    groups: list[int] = []
    labels: list[int] = []
    deal_of: list[int] = []
    row_values: list[float] = []
    start = time.perf_counter()
    for k in range(deals):
        deal = ConquianDeal(rules, seed=seed * 1_000_003 + k, dealer=1 + k % 2)
        while not deal.over:
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            legal = view.legal_raw()
            if len(legal) == 1:
                i = 0
            else:
                i, means = search_choice(bot, view, iterations)
                row_values += means
                rows = view_features(view)
                labels.append(len(xs) + i)
                for row in rows:
                    xs.append(row)
                    groups.append(len(deal_of))
                deal_of.append(k)
            deal.apply_raw(*legal[i])
        if (k + 1) % 10 == 0:
            if log is not None:
                print(f"  {k + 1} deals, {len(deal_of)} decisions, {time.perf_counter() - start:.0f} s", file=log,
                      flush=True)
            if save is not None:
                np.savez_compressed(save, **_arrays(xs, groups, labels, deal_of, row_values))
    data = _arrays(xs, groups, labels, deal_of, row_values)
    if save is not None:
        np.savez_compressed(save, **data)
    return data


def _arrays(xs: list[list[float]], groups: list[int], labels: list[int], deal_of: list[int],
            row_values: list[float]) -> dict[str, FloatArray]:
    return {"value": np.array(row_values, dtype=np.float64),
            "x": np.array(xs, dtype=np.float64).reshape(-1, N_FEATURES), "group": np.array(groups, dtype=np.int64),
            "label": np.array(labels, dtype=np.int64), "deal": np.array(deal_of, dtype=np.int64)}


def _loss_grad(w: FloatArray, x: FloatArray, group: FloatArray, q: FloatArray, n_groups: int,
               l2: float) -> tuple[float, FloatArray]:
    """Mean cross-entropy of the targets ``q`` (a distribution over each decision's rows: the chosen
    action, or soft targets) under a softmax over each decision's rows, plus ``l2`` times the
    squared distance from the foster prior; and its gradient."""
    s = x @ w
    top = np.full(n_groups, -np.inf)
    np.maximum.at(top, group, s)
    e = np.exp(s - top[group])
    z = np.zeros(n_groups)
    np.add.at(z, group, e)
    p = e / z[group]
    log_p = s - top[group] - np.log(z)[group]
    loss = float(-np.sum(q * log_p) / n_groups) + l2 * float(np.sum((w - PRIOR) ** 2))
    grad = x.T @ (p - q) / n_groups + 2 * l2 * (w - PRIOR)
    return loss, grad


def _subset(data: dict[str, FloatArray], deals: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray, int,
                                                                     FloatArray]:
    """The rows, renumbered groups and labels of the decisions of ``deals``, and the rows' values."""
    keep_group = np.isin(data["deal"], deals)
    new_id = np.cumsum(keep_group) - 1
    rows = keep_group[data["group"]]
    x = data["x"][rows]
    group = new_id[data["group"][rows]]
    row_new = np.cumsum(rows) - 1
    label = row_new[data["label"][keep_group]]
    value = data["value"][rows] if "value" in data else np.zeros(len(x))
    return x, group, label, int(keep_group.sum()), value


def targets(group: FloatArray, label: FloatArray, n_groups: int, value: FloatArray, soft: float,
            mix: float) -> FloatArray:
    """Each row's target probability: 1 for the search's choice, 0 for the rest; with ``soft`` > 0,
    ``mix`` of it moved to a softmax of the search's mean playout values at temperature ``soft``."""
    q = np.zeros(len(group))
    q[label] = 1.0
    if soft <= 0.0 or mix <= 0.0:
        return q
    v = value / soft
    top = np.full(n_groups, -np.inf)
    np.maximum.at(top, group, v)
    e = np.exp(v - top[group])
    z = np.zeros(n_groups)
    np.add.at(z, group, e)
    return (1.0 - mix) * q + mix * e / z[group]


def accuracy(w: FloatArray, x: FloatArray, group: FloatArray, label: FloatArray, n_groups: int) -> float:
    """How often the best-scored row of a decision is the chosen one."""
    s = x @ w
    top = np.full(n_groups, -np.inf)
    np.maximum.at(top, group, s)
    return float(np.mean(s[label] >= top - 1e-12))


def fit(data: dict[str, FloatArray], seed: int, l2: float = 1e-3, steps: int = 1500, lr: float = 0.05,
        log: Any = None, soft: float = 0.0, mix: float = 0.5) -> FloatArray:
    """The weights: Adam on the training four fifths of the deals, stopped at the step with the best
    held-out loss on the search's choices (checked every 25 steps); ``soft``, ``mix``: :func:`targets`."""
    deals = np.unique(data["deal"])
    rng = np.random.default_rng(seed)
    held = rng.choice(deals, size=max(1, len(deals) // 5), replace=False)
    train = np.setdiff1d(deals, held)
    x, group, label, n, value = _subset(data, train)
    tr = (x, group, targets(group, label, n, value, soft, mix), n)
    xe, ge, le, ne, _ = _subset(data, held)
    te = (xe, ge, targets(ge, le, ne, value[:0], 0.0, 0.0), ne)
    w = PRIOR.copy()
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    best_w, best_loss = w.copy(), _loss_grad(w, *te, 0.0)[0]
    for t in range(1, steps + 1):
        _, g = _loss_grad(w, *tr, l2)
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        w = w - lr * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
        if t % 25 == 0:
            loss = _loss_grad(w, *te, 0.0)[0]
            if loss < best_loss:
                best_w, best_loss = w.copy(), loss
    if log is not None:
        print(f"  fit: {n} decisions to fit, {ne} held out; held-out loss {best_loss:.4f}; "
              f"agreement with the search: foster {accuracy(PRIOR, xe, ge, le, ne):.3f}, "
              f"apprentice {accuracy(best_w, xe, ge, le, ne):.3f}", file=log, flush=True)
    return best_w


def weights_json(w: FloatArray, meta: dict[str, Any]) -> dict[str, Any]:
    """The contents of a weights file."""
    return {"features": list(FEATURES), "weights": [round(float(x), 6) for x in w], "trained": meta}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.train_apprentice")
    ap.add_argument("--deals", type=int, default=300, help="simulated deals a round")
    ap.add_argument("--iterations", type=int, default=1000, help="the search's playouts a decision")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--l2", type=float, default=1e-3)
    ap.add_argument("--soft", type=float, default=0.0, help="soft targets: the temperature over the search's "
                    "mean playout values (0: the search's choice only)")
    ap.add_argument("--mix", type=float, default=0.5, help="with --soft, the share of the soft targets")
    ap.add_argument("--out", default=None, help="the weights file written (default: the package's)")
    ap.add_argument("--data", default=None, help="also keep the decisions (.npz, one file a round)")
    ap.add_argument("--eval-deals", type=int, default=500, help="apprentice vs foster after each round")
    ap.add_argument("--fit-only", default=None, help="fit on decisions kept by --data (one round), no play")
    ap.add_argument("--smoke", action="store_true", help="a tiny run in seconds, nothing written")
    args = ap.parse_args(argv)
    if args.smoke:
        args.deals, args.iterations, args.eval_deals = 3, 16, 4
    out = None if args.smoke else Path(args.out or Path(__file__).resolve().parents[1] / "src" / "conquian" / "bots"
                                       / WEIGHTS_FILE)
    log = sys.stderr
    weights: tuple[float, ...] | None = None
    started = time.perf_counter()
    report: dict[str, Any] = {"seed": args.seed, "deals": args.deals, "iterations": args.iterations,
                              "rounds": args.rounds, "l2": args.l2, "soft": args.soft, "mix": args.mix}
    for r in range(args.rounds):
        print(f"round {r + 1}: {args.deals} deals, {args.iterations} playouts a decision", file=log, flush=True)
        if args.fit_only:
            with np.load(args.fit_only) as f:
                data = {k: f[k] for k in ("x", "group", "label", "deal", "value") if k in f}
        else:
            data = generate(args.deals, args.seed + 1000 * r, args.iterations, weights, log,
                            save=f"{args.data}.round{r + 1}.npz" if args.data else None)
        w = fit(data, args.seed + r, l2=args.l2, log=log, soft=args.soft, mix=args.mix)
        weights = check_weights(weights_json(w, {}))
        res = run_tournament(get_rules("conquian"), ["apprentice", "foster"], args.eval_deals, args.seed + 77, 1,
                             bot_params={"apprentice": {"weights": weights}}).results[0]
        report[f"round {r + 1}"] = {"decisions": len(data["label"]), "apprentice vs foster": res.to_json()}
        print(f"  apprentice vs foster: {res.wins}-{res.losses} ({res.win_rate:.3f} of decided deals, 95% CI "
              f"{res.win_rate_ci95[0]:.3f}-{res.win_rate_ci95[1]:.3f})", file=log, flush=True)
    assert weights is not None
    report["seconds"] = round(time.perf_counter() - started)
    print(json.dumps(report, indent=1))
    if out is not None:
        out.write_text(json.dumps(weights_json(np.array(weights), report), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {out}", file=log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
