"""PettingZoo environment ``cooncan_double_v0`` (deprecated: use :mod:`conquian.envs.cooncan_double_v1`): one deal of
cooncan-double in version 0 of the action space (see :mod:`conquian.envs.aec` and ``docs/encodings.md``):
``cooncan_double_v1`` has the same actions; the name is kept for the uniform set of versions."""

import warnings

from conquian.envs.aec import make_env

warnings.warn("conquian.envs.cooncan_double_v0 is deprecated: use conquian.envs.cooncan_double_v1 (docs/encodings.md)",
              DeprecationWarning, stacklevel=2)

env, raw_env = make_env("cooncan-double", "cooncan_double_v0", version=0)
