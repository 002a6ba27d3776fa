"""Two-hand conquian for accelerators: pure JAX functions over fixed-size arrays (the ``jax``
extra: ``pip install 'conquian[jax]'``).  See :mod:`conquian.envs.jax.env`."""

from conquian.envs.jax.env import ConquianJax, State, dense_deck

__all__ = ["ConquianJax", "State", "dense_deck"]
