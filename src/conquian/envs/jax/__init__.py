"""The conquian family for accelerators: pure JAX functions over fixed-size arrays (the ``jax``
extra: ``pip install 'conquian[jax]'``).  Two-hand conquian and the Spanish pack:
:mod:`conquian.envs.jax.env`; the conquián mexicano for two or three: :mod:`conquian.envs.jax.mexicano`."""

from conquian.envs.jax.env import ConquianJax, State, dense_deck
from conquian.envs.jax.mexicano import MexicanoJax, MexicanoState

__all__ = ["ConquianJax", "MexicanoJax", "MexicanoState", "State", "dense_deck"]
