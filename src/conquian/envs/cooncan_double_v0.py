"""PettingZoo environment ``cooncan_double_v0``: one deal of cooncan-double (see :mod:`conquian.envs.aec`)."""

from conquian.envs.aec import make_env

env, raw_env = make_env("cooncan-double", "cooncan_double_v0")
