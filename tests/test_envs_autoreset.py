"""The batched environment's arrays and autoreset modes, and the one dealer rule of every
environment (issue 42): ``copy=True`` by default (Gymnasium's convention), next-step and disabled
autoreset (so that Gymnasium's vector observation wrappers apply), and a dealer drawn for each
deal so that every seat deals and plays (R6.1, R6.3)."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium")

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode

from conquian.envs.aec import ConquianAEC
from conquian.envs.gym import ConquianGymEnv
from conquian.envs.gym_vector import ConquianGymVectorEnv
from conquian.envs.vector import ConquianVectorEnv, first_legal


def test_every_call_returns_arrays_of_its_own_by_default() -> None:
    env = ConquianVectorEnv("conquian", 4, opponents="random", seed=2)
    obs, info = env.reset()
    kept, mask = obs.copy(), info["action_mask"].copy()
    out = env.step(first_legal(obs, info["action_mask"]))
    assert out[0] is not obs and out[4]["action_mask"] is not info["action_mask"]
    assert np.array_equal(obs, kept) and np.array_equal(info["action_mask"], mask)  # not overwritten
    assert not np.array_equal(out[0], kept)
    fast = ConquianVectorEnv("conquian", 4, opponents="random", seed=2, copy=False)
    obs, info = fast.reset()
    again = fast.step(first_legal(obs, info["action_mask"]))
    assert again[0] is obs and again[4]["action_mask"] is info["action_mask"]  # the buffers, rewritten
    assert np.array_equal(again[0], out[0])


@pytest.mark.parametrize("variant,players", [("conquian", 2), ("conquian-mexicano", 3), ("cooncan", 3)])
def test_next_step_autoreset_is_same_step_one_step_later(variant: str, players: int) -> None:
    """NEXT_STEP: the step that ends a deal returns its last observation (same-step's
    ``final_obs``, the mask all zero); the next step ignores the action, rewards 0 and returns
    the next deal's first observation (same-step's observation at the end)."""
    same = ConquianVectorEnv(variant, 1, opponents="random", players=players)
    nxt = ConquianVectorEnv(variant, 1, opponents="random", players=players, autoreset_mode="NEXT_STEP")
    assert nxt.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    a_obs, a_info = same.reset(seed=7)
    b_obs, b_info = nxt.reset(seed=7)
    ends = 0
    for _ in range(400):
        assert np.array_equal(a_obs, b_obs) and np.array_equal(a_info["action_mask"], b_info["action_mask"])
        actions = first_legal(a_obs, a_info["action_mask"])
        a_obs, a_rew, a_term, a_trunc, a_info = same.step(actions)
        b_obs, b_rew, b_term, b_trunc, b_info = nxt.step(actions)
        assert np.array_equal(a_rew, b_rew) and np.array_equal(a_term, b_term) and np.array_equal(a_trunc, b_trunc)
        if a_term[0]:
            ends += 1
            assert np.array_equal(b_obs[0], a_info["final_obs"][0]) and "final_obs" not in b_info
            assert not b_info["action_mask"].any() and b_info["final_info"]["scores"][0].tolist() == \
                a_info["final_info"]["scores"][0].tolist()
            b_obs, b_rew, b_term, b_trunc, b_info = nxt.step(np.array([12345]))  # ignored
            assert b_rew[0] == 0 and not b_term[0] and not b_trunc[0]
    assert ends >= 2


def test_disabled_autoreset_waits_for_a_reset_mask() -> None:
    env = ConquianVectorEnv("conquian", 3, opponents="random", autoreset_mode=AutoresetMode.DISABLED)
    obs, info = env.reset(seed=4)
    done = np.zeros(3, dtype=bool)
    for _ in range(400):
        obs, _rew, term, trunc, info = env.step(first_legal(obs, info["action_mask"]))
        done = term | trunc
        if done.any():
            break
    assert done.any()
    with pytest.raises(ValueError, match="reset_mask"):
        env.step(first_legal(obs, info["action_mask"]))
    last = obs.copy()
    obs, info = env.reset(options={"reset_mask": done})
    assert info["action_mask"].any(axis=1).all()
    assert np.array_equal(obs[~done], last[~done])  # the others go on where they were
    assert not np.array_equal(obs[done], last[done])
    env.step(first_legal(obs, info["action_mask"]))  # every environment playing again


def test_gymnasiums_vector_observation_wrappers_apply() -> None:
    """They refused same-step autoreset ("Expected autoreset_mode to be NEXT_STEP or DISABLED")."""
    from gymnasium.wrappers.vector import NormalizeObservation, RecordEpisodeStatistics, TransformObservation

    with pytest.raises(ValueError, match="NEXT_STEP or DISABLED"):
        TransformObservation(ConquianGymVectorEnv("conquian", 2), lambda o: o * 2)
    env = ConquianGymVectorEnv("conquian", 4, autoreset_mode="next_step")
    wrapped = RecordEpisodeStatistics(NormalizeObservation(TransformObservation(env, lambda o: o * 2)))
    obs, info = wrapped.reset(seed=1)
    episodes = 0
    for _ in range(300):
        obs, _rew, _term, _trunc, info = wrapped.step(first_legal(obs, env.action_masks()) if env.action_masks().any()
                                                      else np.zeros(4, dtype=np.int64))
        episodes += int("episode" in info and info["_episode"].sum())
    assert episodes > 0


def test_one_dealer_rule_every_seat_deals_and_plays() -> None:
    """R6.1: each deal's dealer is drawn among the seats, from the seed, in the AEC, Gym and
    vector environments; at a three-seat conquian table every seat plays (R6.3)."""
    aec = ConquianAEC("conquian", players=3)
    dealers, agents = set(), set()
    for seed in range(30):
        aec.reset(seed=seed)
        dealers.add(aec.deal.dealer)
        agents.update(aec.agents)
        again = ConquianAEC("conquian", players=3)
        again.reset(seed=seed)
        assert again.deal.dealer == aec.deal.dealer  # the seed decides
    assert dealers == {1, 2, 3} and agents == {"player_1", "player_2", "player_3"}
    aec.reset(seed=1, options={"dealer": 2})
    assert aec.deal.dealer == 2
    with pytest.raises(ValueError, match="dealer"):
        aec.reset(seed=1, options={"dealer": 4})
    gym = ConquianGymEnv("cooncan", opponents="random")
    assert {(gym.reset(seed=s), gym.deal.dealer)[1] for s in range(30)} == {1, 2, 3}
    venv = ConquianVectorEnv("conquian-mexicano", 30, opponents=None, players=3)
    venv.reset(seed=0)
    assert {d.dealer for d in venv.deals} == {1, 2, 3}


def test_gymnasium_sees_the_mode_of_each_instance() -> None:
    env = ConquianGymVectorEnv("conquian", 2, autoreset_mode="disabled")
    assert env.metadata["autoreset_mode"] == AutoresetMode.DISABLED
    assert ConquianGymVectorEnv("conquian", 2).metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    with pytest.raises(ValueError, match="autoreset_mode"):
        ConquianVectorEnv("conquian", 2, autoreset_mode="sometimes")
    assert isinstance(gymnasium.vector.AutoresetMode("NextStep"), AutoresetMode)
