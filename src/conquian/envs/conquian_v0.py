"""PettingZoo environment ``conquian_v0``: one deal of conquian (see :mod:`conquian.envs.aec`)."""

from conquian.envs.aec import make_env

env, raw_env = make_env("conquian", "conquian_v0")
