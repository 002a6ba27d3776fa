"""The accelerated environment in lockstep with the engine's batched environment.

:func:`lockstep` plays the same deals (the decks and dealers of
:class:`~conquian.envs.vector.ConquianVectorEnv` in self-play) with the same random legal
actions in both, and checks at every step that every observation, action mask, seat to act,
reward and end is the same (a finished deal's last observation too); the tests and
``benchmarks/bench_jax_env.py --check`` call it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from conquian.envs.jax.env import ConquianJax, dense_deck
from conquian.envs.jax.mexicano import MexicanoJax


@dataclass
class Lockstep:
    """What a lockstep run compared: steps of every environment, deals finished, and the uses
    (further ones apart), gives (the conquián mexicano's exchange) and forces played."""

    steps: int = 0
    deals: int = 0
    uses: int = 0
    further: int = 0
    gives: int = 0
    forces: int = 0


class Mismatch(AssertionError):
    """The two environments disagree (the message names the environment, the step and the field)."""


def lockstep(variant: str = "conquian", num_envs: int = 64, steps: int = 200, seed: int = 0,
             scoring: str = "games", players: int = 2, **options: Any) -> Lockstep:
    """Step both environments ``steps`` times with ``num_envs`` deals; raises :class:`Mismatch`.
    ``variant``: ``conquian``, ``conquian-spanish`` (``scoring``) or ``conquian-mexicano``
    (``players`` and the options of R8.1: ``hand``, ``exchange``, ``exhausted``)."""
    from conquian.envs.vector import ConquianVectorEnv

    env: Any
    if variant == "conquian-mexicano":
        venv = ConquianVectorEnv(variant, num_envs=num_envs, opponents=None, seed=seed, players=players, **options)
        env = MexicanoJax(players, **options)
    else:
        venv = ConquianVectorEnv(variant, num_envs=num_envs, opponents=None, seed=seed, scoring=scoring)
        env = ConquianJax(variant, scoring=scoring)
    cards = env.T.enc.cards
    init = jax.jit(env.batch_init_from_deck)
    step = jax.jit(env.batch_step)
    obs, info = venv.reset(seed=seed)

    def fresh() -> Any:
        decks = np.stack([dense_deck(cards, d.deck) for d in venv.deals])
        dealers = np.array([d.dealer for d in venv.deals], dtype=np.int32)
        return init(decks, dealers)

    state = fresh()
    rng = np.random.default_rng(seed)
    out = Lockstep()
    for t in range(steps):
        _same(t, "observation", obs, np.asarray(state.observation), venv)
        _same(t, "action mask", info["action_mask"].astype(bool), np.asarray(state.legal_action_mask), venv)
        _same(t, "seat to act", info["to_act"], np.asarray(state.to_act), venv)
        mask = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask], dtype=np.int64)
        out.uses += int(((actions >= env.T.a_use) & ((actions < env.T.a_give) | (env.T.a_give < 0))).sum())
        out.further += int((actions >= env.T.a_lay).sum())
        out.gives += int(((actions >= env.T.a_give) & (actions < env.T.a_lay)).sum()) if env.T.a_give >= 0 else 0
        out.forces += int(((actions >= env.T.a_force) & (actions < env.T.a_discard)).sum())
        obs, rewards, terminated, _, info = venv.step(actions)
        state = step(state, jnp.asarray(actions, jnp.int32))
        _same(t, "rewards", rewards, np.asarray(state.rewards), venv)
        _same(t, "terminated", terminated, np.asarray(state.terminated), venv)
        out.steps += num_envs
        done = np.flatnonzero(terminated)
        if len(done):
            out.deals += len(done)
            final = np.stack([info["final_obs"][i] for i in done])
            _same(t, "final observation", final, np.asarray(state.observation)[done], venv, rows=done)
            new = fresh()
            state = _select(jnp.asarray(terminated), new, state)
    return out


def _select(flags: Any, a: Any, b: Any) -> Any:
    """Row by row: ``a`` where ``flags``, else ``b``."""
    out: Any = jax.tree_util.tree_map(lambda x, y: jnp.where(flags.reshape((-1,) + (1,) * (x.ndim - 1)), x, y), a, b)
    return out


def _same(t: int, what: str, want: Any, got: Any, venv: Any, rows: Any = None) -> None:
    if want.shape == got.shape and np.array_equal(want, got):
        return
    bad = np.argwhere(want != got) if want.shape == got.shape else None
    if bad is None:
        raise Mismatch(f"step {t}: {what} shapes differ: {want.shape} and {got.shape}")
    i = int(bad[0][0])
    env_i = int(rows[i]) if rows is not None else i
    cols = bad[bad[:, 0] == i][:, 1:].ravel().tolist() if bad.shape[1] > 1 else []
    raise Mismatch(f"step {t}, environment {env_i}: {what} differs at {cols[:12]} "
                   f"(engine {np.asarray(want[i]).ravel()[cols[:12]].tolist() if cols else want[i]}, "
                   f"jax {np.asarray(got[i]).ravel()[cols[:12]].tolist() if cols else got[i]})\n{venv.deals[env_i]}")


__all__ = ["Lockstep", "Mismatch", "lockstep"]
