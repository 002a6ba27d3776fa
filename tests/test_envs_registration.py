"""The environments registered with Gymnasium and the batched environment behind SB3's
``VecEnv`` (issue 42): ``gymnasium.make("conquian/Conquian-v1")``, ``make_vec`` giving the
batched environment, and SB3's interface (``MaskablePPO`` trains on it for a few hundred steps)."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium")

import gymnasium
import numpy as np

import conquian.envs  # noqa: F401 (registers the environments)
from conquian.envs.gym import ConquianGymEnv
from conquian.envs.gym_vector import ConquianGymVectorEnv
from conquian.envs.registration import ENVIRONMENTS
from conquian.envs.vector import ConquianVectorEnv


@pytest.mark.parametrize("name", sorted(ENVIRONMENTS))
def test_every_environment_is_registered(name: str) -> None:
    env = gymnasium.make(f"conquian/{name}", opponents="random")
    assert isinstance(env.unwrapped, ConquianGymEnv) and env.unwrapped.rules.name == ENVIRONMENTS[name]
    obs, info = env.reset(seed=3)
    assert obs.shape == env.observation_space.shape and info["action_mask"].any()
    venv = gymnasium.make_vec(f"conquian/{name}", num_envs=3)
    assert isinstance(venv, ConquianGymVectorEnv) and venv.num_envs == 3
    obs, info = venv.reset(seed=3)
    assert obs.shape == (3, *env.observation_space.shape)


def test_a_fresh_process_makes_the_environment_by_naming_the_module() -> None:
    """The documented one line (docs/research.md): Gymnasium 1.x loads no plugin entry points, so a
    process that never imported ``conquian.envs`` names the module in the id."""
    import subprocess
    import sys

    probe = ("import gymnasium, sys; env = gymnasium.make('conquian.envs:conquian/Conquian-v1'); "
             "assert 'conquian' not in sys.modules['__main__'].__dict__; print(env.unwrapped.rules.name)")
    p = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stdout.strip() == "conquian"


def test_make_passes_the_options_and_make_vec_the_autoreset_mode() -> None:
    env = gymnasium.make("conquian/Conquian-v1", players=3, seat=2, scoring="pips")
    assert env.unwrapped.rules.players == 3 and env.unwrapped.rules.scoring == "pips"
    venv = gymnasium.make_vec("conquian/Conquian-v1", num_envs=2, autoreset_mode="next_step")
    assert venv.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    # the module named in the id: registered without importing the package first
    assert gymnasium.make("conquian.envs:conquian/Cooncan-v1").unwrapped.rules.name == "cooncan"


def test_the_sb3_vec_env_contract() -> None:
    """SB3's interface, step for step the batched environment's (needs stable-baselines3, the
    ``train`` extra: skipped without it)."""
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.vec_env import VecEnv

    from conquian.envs.sb3 import ConquianSB3VecEnv

    env = ConquianSB3VecEnv("conquian", num_envs=4, opponents="random")
    assert isinstance(env, VecEnv)
    env.seed(5)
    obs = env.reset()
    assert obs.shape == (4, 609) and obs.dtype == np.float32
    ref = ConquianVectorEnv("conquian", 4, opponents="random")
    ref_obs, _ = ref.reset(seed=5)
    assert np.array_equal(obs, ref_obs)  # seed(5): environment i seeded with 5 + i
    ends = 0
    for _ in range(300):
        masks = np.stack(env.env_method("action_masks"))
        assert masks.shape == (4, 1299) and masks.dtype == bool and masks.any(axis=1).all()
        actions = np.array([np.flatnonzero(m)[0] for m in masks])
        obs, rewards, dones, infos = env.step(actions)
        ref_obs, ref_rew, term, trunc, ref_info = ref.step(actions)
        assert np.array_equal(obs, ref_obs) and np.array_equal(rewards, ref_rew)
        assert np.array_equal(dones, term | trunc) and len(infos) == 4
        for i in np.flatnonzero(dones):
            ends += 1
            assert np.array_equal(infos[i]["terminal_observation"], ref_info["final_obs"][i])
            assert infos[i]["TimeLimit.truncated"] is False
    assert ends > 0
    assert env.has_attr("action_masks") and len(env.get_attr("num_envs", [0, 2])) == 2
    assert env.env_is_wrapped(gymnasium.Wrapper) == [False] * 4


def test_maskable_ppo_trains_on_the_batched_env() -> None:
    pytest.importorskip("stable_baselines3")
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from conquian.envs.sb3 import ConquianSB3VecEnv

    env = ConquianSB3VecEnv("conquian", num_envs=8, opponents="random", seed=1)
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=64, n_epochs=1, seed=1,
                                    policy_kwargs={"net_arch": [32]})
    model.learn(total_timesteps=512)
    assert model.num_timesteps >= 512
    obs = env.reset()
    actions, _ = model.predict(obs, action_masks=env.action_masks())
    assert env.action_masks()[np.arange(8), actions].all()
