"""Research interfaces over the engine (optional extra ``rl``): PettingZoo AEC environments for
every preset, a single-agent Gymnasium environment, and the fixed encodings they share
(``docs/encodings.md``).  The engine never imports this package.

Environments by versioned name: :mod:`conquian.envs.conquian_v1`,
:mod:`conquian.envs.conquian_spanish_v1`, :mod:`conquian.envs.cooncan_v1`,
:mod:`conquian.envs.cooncan_double_v1`, :mod:`conquian.envs.conquian_mexicano_v1`, each with
``env(**kwargs)`` and ``raw_env``; the ``*_v0`` modules, deprecated, keep the first action space
(``docs/encodings.md``: it cannot express every listed use).  :mod:`conquian.envs.vector` steps many deals at once with
numpy arrays (also as a Gymnasium vector environment), :mod:`conquian.envs.state` is the
global state for centralised critics, and :mod:`conquian.envs.league` plays learned policies
beside the bots and rates them.  Importing the package registers the environments with Gymnasium
(:mod:`conquian.envs.registration`: ``gymnasium.make("conquian/Conquian-v1")``).
"""

try:
    import gymnasium as _gymnasium  # noqa: F401 (the extra rl: registering needs Gymnasium)
except ImportError:  # pragma: no cover - the package is imported without the extra
    pass
else:
    from conquian.envs.registration import register_envs

    register_envs()
