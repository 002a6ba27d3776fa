"""PettingZoo environment ``conquian_mexicano_v0`` (deprecated: use
:mod:`conquian.envs.conquian_mexicano_v1`): one deal of the conquián mexicano (R8) in version 0 of
the action space (see :mod:`conquian.envs.aec` and ``docs/encodings.md``): its mask marks, of the
listed uses that share the combination holding the card in play, only the first;
``conquian_mexicano_v1`` gives every listed action its index."""

import warnings

from conquian.envs.aec import make_env

warnings.warn("conquian.envs.conquian_mexicano_v0 is deprecated: use conquian.envs.conquian_mexicano_v1 "
              "(docs/encodings.md)", DeprecationWarning, stacklevel=2)

env, raw_env = make_env("conquian-mexicano", "conquian_mexicano_v0", version=0)
