"""The batched environment's fast encodings against the single environments' encoder, state by
state, on many random deals of every preset: the same observation, mask and seat to act."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from conquian.envs.encoding import Public
from conquian.envs.vector import ConquianVectorEnv, random_legal

PRESETS = [("conquian", 2, {}), ("conquian-spanish", 2, {}), ("conquian", 3, {}), ("conquian", 2, {"scoring": "pips"}),
           ("conquian-mexicano", 2, {}), ("conquian-mexicano", 3, {"exhausted": "fewest"}),
           ("conquian-mexicano", 4, {}), ("conquian-mexicano", 2, {"hand": 9}), ("cooncan", 3, {}), ("cooncan", 2, {}),
           ("cooncan-double", 5, {}), ("conquian", 2, {"version": 0}), ("conquian-mexicano", 3, {"version": 0})]


def _reference(env: ConquianVectorEnv, i: int, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """Deal ``i``'s observation and mask for ``seat`` as the single environments build them: the
    public record folded afresh from the deal's events, the seat's view encoded."""
    deal = env.deals[i]
    public = Public()
    env.enc.fold(public, deal)
    view = deal.view(seat)
    obs = env.enc.observe(view, public)
    mask = env.enc.mask(view) if deal.to_act == seat else np.zeros(env.n_actions, dtype=np.int8)
    return obs, mask


def _check(env: ConquianVectorEnv, obs: np.ndarray, info: dict[str, np.ndarray], seat: int | None) -> None:
    for i, deal in enumerate(env.deals):
        assert info["to_act"][i] == (deal.to_act or 0)
        o, m = _reference(env, i, seat if seat is not None else deal.to_act or 1)
        np.testing.assert_array_equal(obs[i, :env.deal_obs_size], o)
        np.testing.assert_array_equal(info["action_mask"][i], m)


@pytest.mark.parametrize(("variant", "players", "options"), PRESETS)
@pytest.mark.parametrize("opponents", [None, "random"])
def test_fast_encodings_are_the_encoders(variant: str, players: int, options: dict[str, Any],
                                         opponents: str | None) -> None:
    """Self-play and a learner against ``random``: many deals at once, dealers drawn, every state
    encoded as :class:`~conquian.envs.encoding.Encoding` encodes it."""
    cooncan = variant.startswith("cooncan")
    n_envs, steps = (6, 40) if cooncan else (16, 120)
    env = ConquianVectorEnv(variant, n_envs, opponents=opponents, players=players, seed=21, **options)
    obs, info = env.reset()
    pick = random_legal(np.random.default_rng(7))
    seat = None if opponents is None else 1
    ended = 0
    for _ in range(steps):
        _check(env, obs, info, seat)
        obs, _rewards, term, _trunc, info = env.step(pick(obs, info["action_mask"]))
        ended += int(term.sum())
    _check(env, obs, info, seat)
    if not cooncan:
        assert ended > 0


def test_masked_actions_leave_the_other_deals_on_the_fast_path() -> None:
    """Some deals given a masked action (ended with ``illegal_reward``), the others played as
    usual: every deal still encoded as the encoder encodes it."""
    env = ConquianVectorEnv("conquian", 8, opponents=None, seed=5, illegal_reward=-3.0)
    obs, info = env.reset()
    pick = random_legal(np.random.default_rng(1))
    rng = np.random.default_rng(2)
    for _ in range(60):
        actions = pick(obs, info["action_mask"])
        seats = info["to_act"].copy()
        bad = rng.random(8) < 0.1
        for i in np.flatnonzero(bad):
            actions[i] = int((info["action_mask"][i] == 0).argmax()) if rng.random() < 0.5 else env.n_actions + 3
        obs, rewards, term, _trunc, info = env.step(actions)
        assert term[bad].all()
        for i in np.flatnonzero(bad):  # the seat that was to act pays, its observation ends the episode
            assert info["final_info"]["illegal"][i] and rewards[i, seats[i] - 1] == -3.0 == rewards[i].sum()
            assert info["final_obs"][i].shape == (env.obs_size,)
        _check(env, obs, info, None)
