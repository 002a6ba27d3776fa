"""The batched environment as a ``gymnasium.vector.VectorEnv`` (one seat learns against
opponents): :class:`ConquianGymVectorEnv`, over :class:`conquian.envs.vector.ConquianVectorEnv`,
the fast path.  ``gymnasium.make_vec("conquian/Conquian-v1", ...)`` gives it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode

from conquian.envs.encoding import Mask, Obs
from conquian.envs.vector import ConquianVectorEnv, Opponent


class ConquianGymVectorEnv(gymnasium.vector.VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """:class:`ConquianVectorEnv` with opponents (one seat learns) as a ``gymnasium.vector.VectorEnv``:
    batched spaces, the autoreset mode asked for (``autoreset_mode``: same-step by default,
    next-step or disabled; in ``metadata["autoreset_mode"]``, where Gymnasium's wrappers read it),
    the masks in ``info["action_mask"]`` and from :meth:`action_masks`; every array returned is
    its own unless ``copy=False``.  Gymnasium's vector wrappers that transform observations or
    record episodes need ``NEXT_STEP`` or ``DISABLED`` (``docs/research.md``)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (the default; an instance's own)

    def __init__(self, variant: str = "conquian", num_envs: int = 16, *, opponents: Opponent | Sequence[Opponent]
                 = "random", **kwargs: Any) -> None:
        if opponents is None:
            raise ValueError("a Gymnasium vector environment has one learner: name its opponents")
        self.env = ConquianVectorEnv(variant, num_envs, opponents=opponents, **kwargs)
        self.metadata = {"autoreset_mode": self.env.autoreset_mode}
        self.num_envs = num_envs
        self.single_observation_space = self.env.single_observation_space
        self.single_action_space = self.env.single_action_space
        self.observation_space = self.env.observation_space
        self.action_space = self.env.action_space

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        """Start an episode in every environment (an int seed: environment ``i`` gets ``seed + i``;
        a list: one seed each)."""
        if seed is not None:
            first = seed if isinstance(seed, int) else seed[0]
            self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(first)
        return self.env.reset(seed=seed, options=options)

    def step(self, actions: npt.NDArray[np.int64]) -> tuple[Obs, npt.NDArray[Any], npt.NDArray[np.bool_],
                                                            npt.NDArray[np.bool_], dict[str, Any]]:
        """One action per environment (see :meth:`ConquianVectorEnv.step`)."""
        return self.env.step(actions)

    def action_masks(self) -> Mask:
        """The legal actions of every environment now."""
        return self.env.action_masks()

    def state(self) -> Obs:
        """The full state of every deal (centralised critics only)."""
        return self.env.state()
