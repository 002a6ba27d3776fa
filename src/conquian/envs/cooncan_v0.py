"""PettingZoo environment ``cooncan_v0``: one deal of cooncan (see :mod:`conquian.envs.aec`)."""

from conquian.envs.aec import make_env

env, raw_env = make_env("cooncan", "cooncan_v0")
