"""PettingZoo environment ``cooncan_v1``: one deal of cooncan (see :mod:`conquian.envs.aec`), version 1
of the action space (``docs/encodings.md``)."""

from conquian.envs.aec import make_env

env, raw_env = make_env("cooncan", "cooncan_v1", version=1)
