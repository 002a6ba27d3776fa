"""PettingZoo environment ``conquian_spanish_v0``: one deal of conquian-spanish (see :mod:`conquian.envs.aec`)."""

from conquian.envs.aec import make_env

env, raw_env = make_env("conquian-spanish", "conquian_spanish_v0")
