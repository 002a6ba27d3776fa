"""PettingZoo environment ``cooncan_double_v1``: one deal of cooncan-double (see :mod:`conquian.envs.aec`), version 1
of the action space (``docs/encodings.md``)."""

from conquian.envs.aec import make_env

env, raw_env = make_env("cooncan-double", "cooncan_double_v1", version=1)
