"""PettingZoo environment ``conquian_mexicano_v0``: one deal of the conquián mexicano (R8) for two,
three (the tercerilla) or four players, with the options ``hand``, ``exchange`` and ``exhausted``
(see :mod:`conquian.envs.aec`).

```pycon
>>> from conquian.envs import conquian_mexicano_v0
>>> env = conquian_mexicano_v0.env(players=3)
>>> env.reset(seed=5)
>>> env.agents, env.agent_selection          # p3 deals: p1 gives first in the exchange (R8.2)
(['player_1', 'player_2', 'player_3'], 'player_1')
>>> obs, *_ = env.last()
>>> obs["observation"].shape, obs["action_mask"].shape, int(obs["action_mask"].sum())
((944,), (355,), 8)

```
"""

from conquian.envs.aec import make_env

env, raw_env = make_env("conquian-mexicano", "conquian_mexicano_v0")
