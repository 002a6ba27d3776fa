"""The environments registered with Gymnasium, under the namespace ``conquian``.

Importing :mod:`conquian.envs` registers them (or name the module in the id:
``gymnasium.make("conquian.envs:conquian/Conquian-v1")``).  Each id makes a
:class:`conquian.envs.gym.ConquianGymEnv` with ``gymnasium.make`` and, with ``gymnasium.make_vec``,
the batched :class:`conquian.envs.gym_vector.ConquianGymVectorEnv` (the fast path: every deal in one
process, stepped with numpy arrays) by default; the keyword arguments are the classes' own
(``opponents``, ``seat``, ``players``, the R1 options...).  The version is the action space's
(``docs/encodings.md``): version 0, deprecated, is not registered.

```pycon
>>> import gymnasium
>>> import conquian.envs
>>> env = gymnasium.make("conquian/Conquian-v1", opponents="random")
>>> env.unwrapped.rules.name, env.observation_space.shape
('conquian', (609,))
>>> venv = gymnasium.make_vec("conquian/ConquianMexicano-v1", num_envs=8, players=3)
>>> type(venv).__name__, venv.num_envs
('ConquianGymVectorEnv', 8)

```
"""

from __future__ import annotations

#: The registered ids (without the namespace) and the presets they play.
ENVIRONMENTS = {
    "Conquian-v1": "conquian",
    "ConquianSpanish-v1": "conquian-spanish",
    "ConquianMexicano-v1": "conquian-mexicano",
    "Cooncan-v1": "cooncan",
    "CooncanDouble-v1": "cooncan-double",
}


def register_envs() -> None:
    """Register every environment of :data:`ENVIRONMENTS` as ``conquian/<id>`` (once)."""
    import gymnasium

    for name, variant in ENVIRONMENTS.items():
        env_id = f"conquian/{name}"
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(env_id, entry_point="conquian.envs.gym:ConquianGymEnv",
                           vector_entry_point="conquian.envs.gym_vector:ConquianGymVectorEnv",
                           kwargs={"variant": variant})
