"""PettingZoo environment ``conquian_mexicano_v1``: one deal of the conquián mexicano (R8) for two,
three (the tercerilla) or four players, with the options ``hand``, ``exchange`` and ``exhausted``
(see :mod:`conquian.envs.aec`), version 1 of the action space (``docs/encodings.md``).

```pycon
>>> from conquian.envs import conquian_mexicano_v1
>>> env = conquian_mexicano_v1.env(players=3)
>>> env.reset(seed=5, options={"dealer": 3})
>>> env.agents, env.agent_selection          # p3 deals: p1 gives first in the exchange (R8.2)
(['player_1', 'player_2', 'player_3'], 'player_1')
>>> obs, *_ = env.last()
>>> obs["observation"].shape, obs["action_mask"].shape, int(obs["action_mask"].sum())
((944,), (867,), 8)

```
"""

from conquian.envs.aec import make_env

env, raw_env = make_env("conquian-mexicano", "conquian_mexicano_v1", version=1)
