"""The batched environment as a Stable-Baselines3 ``VecEnv`` (needs ``stable-baselines3``: the
``train`` extra).

:class:`ConquianSB3VecEnv` is :class:`conquian.envs.vector.ConquianVectorEnv` with opponents (one
seat learns in every deal) behind SB3's interface: ``reset()`` returns the observations,
``step`` the observations, rewards, dones and one info dict per environment, a finished deal's
last observation in ``info["terminal_observation"]`` and ``info["TimeLimit.truncated"]`` set when
``max_steps`` cut it (SB3's own conventions), and ``action_masks()`` the legal actions, which
sb3-contrib's ``MaskablePPO`` asks for through ``env_method("action_masks")``.  Every deal is in
one process and stepped with numpy arrays: SB3's ``DummyVecEnv`` over single environments steps
them one by one in Python.  ``seed(s)`` before ``reset()`` seeds environment ``i`` with ``s + i``
as ``ConquianVectorEnv.reset(seed=s)`` does.

```pycon
>>> from sb3_contrib import MaskablePPO  # doctest: +SKIP
>>> env = ConquianSB3VecEnv("conquian", num_envs=64, opponents="random")  # doctest: +SKIP
>>> MaskablePPO("MlpPolicy", env, n_steps=64).learn(10_000)  # doctest: +SKIP
```
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import (  # type: ignore[import-not-found, unused-ignore]
    VecEnv,
)

from conquian.envs.encoding import Mask, Obs
from conquian.envs.vector import ConquianVectorEnv, Opponent


class ConquianSB3VecEnv(VecEnv):  # type: ignore[misc, unused-ignore]
    """``num_envs`` deals of ``variant`` stepped together for SB3 (see the module's documentation);
    the keyword arguments are :class:`~conquian.envs.vector.ConquianVectorEnv`'s."""

    def __init__(self, variant: str = "conquian", num_envs: int = 16, *,
                 opponents: Opponent | Sequence[Opponent] = "random", **kwargs: Any) -> None:
        if opponents is None:
            raise ValueError("an SB3 environment has one learner: name its opponents")
        kwargs.pop("autoreset_mode", None)
        self.env = ConquianVectorEnv(variant, num_envs, opponents=opponents, copy=True, **kwargs)
        self.render_mode = None
        super().__init__(num_envs, self.env.single_observation_space, self.env.single_action_space)
        self._actions: np.ndarray[Any, Any] | None = None

    def reset(self) -> Obs:
        """Start a deal in every environment (the seeds given with :meth:`seed`, if any)."""
        seeds = self._seeds
        seed: int | list[int] | None = None
        if any(s is not None for s in seeds):
            seed = [int(s) if s is not None else int(np.random.randint(2**62)) for s in seeds]
        obs, info = self.env.reset(seed=seed)
        self.reset_infos = [{"action_mask": m} for m in info["action_mask"]]
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray[Any, Any]) -> None:
        """Keep the actions for :meth:`step_wait`."""
        self._actions = actions

    def step_wait(self) -> tuple[Obs, np.ndarray[Any, Any], np.ndarray[Any, Any], list[dict[str, Any]]]:
        """Play the actions of :meth:`step_async` in every environment."""
        if self._actions is None:
            raise RuntimeError("step_async first")
        obs, rewards, terminated, truncated, info = self.env.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            final_obs = info["final_obs"]
            final_info = info["final_info"]
            for i in np.flatnonzero(dones).tolist():
                infos[i] = {"terminal_observation": final_obs[i],
                            "TimeLimit.truncated": bool(truncated[i] and not terminated[i]),
                            "scores": final_info["scores"][i], "illegal": bool(final_info["illegal"][i])}
        return obs, rewards, dones, infos

    def action_masks(self) -> Mask:
        """The legal actions of every environment, ``(num_envs, n_actions)``."""
        return self.env.action_masks().astype(bool)

    def close(self) -> None:
        """Nothing to release."""

    def _rows(self, indices: Any) -> list[int]:
        rows: Iterable[int] = self._get_indices(indices)
        return list(rows)

    def has_attr(self, attr_name: str) -> bool:
        """Whether the environments have ``attr_name`` (``action_masks``: for ``MaskablePPO``)."""
        return attr_name == "action_masks" or hasattr(self.env, attr_name)

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """The batched environment's attribute, once per environment asked for."""
        if attr_name == "action_masks":
            value: Any = self.action_masks
        elif attr_name == "render_mode":
            value = None  # the batched environment does not render
        else:
            value = getattr(self.env, attr_name)
        return [value for _ in self._rows(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Set an attribute of the batched environment (shared by every environment)."""
        setattr(self.env, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> list[Any]:
        """``action_masks``: each environment's mask; any other method of the batched environment
        is called once and its result given for each environment asked for."""
        rows = self._rows(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        result = getattr(self.env, method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        """No environment is wrapped."""
        return [False for _ in self._rows(indices)]
