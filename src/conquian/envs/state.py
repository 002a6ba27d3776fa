"""The global state of a deal, for centralised critics: everything, hidden cards included.

A seat's observation (:mod:`conquian.envs.encoding`) holds only what that seat may see.  The
*global state* is explicitly the opposite: the full state of the deal, for a centralised
critic or value function trained with privileged information (MAPPO, QMIX and the like), and
never to be handed to a seat's policy as its observation.  A seat without cards (the dealer at
a three-seat conquian table) has zeros in place of its observation.  It is a flat ``float32`` array of
``players x obs_size + 2 x (C + 1)`` floats:

| block | size | what |
|---|---|---|
| observations | `players x obs_size` | every seat's observation, seat 1 first (so every hand) |
| pack | `C + 1` | how many of each card are still face down in the pack (jokers last) |
| next | `C + 1` | the card the pack gives next (zeros when it is empty) |

```pycon
>>> from conquian import get_rules
>>> from conquian.engine.match import new_deal
>>> from conquian.envs.encoding import Public, encoding
>>> enc = encoding(get_rules("conquian"))
>>> deal = new_deal(enc.rules, seed=3, dealer=2)
>>> s = global_state(enc, deal, Public())
>>> s.shape == (state_size(enc),), state_size(enc)
(True, 1300)
>>> int(s[2 * enc.obs_size:2 * enc.obs_size + 41].sum()) == deal.pack_count
True

```
"""

from __future__ import annotations

from typing import Any

import numpy as np

from conquian.engine.conquian.view import ConquianView
from conquian.envs.encoding import Encoding, Obs, Public


def state_size(enc: Encoding) -> int:
    """The length of :func:`global_state` for an encoding."""
    return enc.players * enc.obs_size + 2 * (enc.n_cards + 1)


def global_state(enc: Encoding, deal: Any, public: Public) -> Obs:
    """The full state of ``deal`` (``public`` folded up to it): every seat's observation and the pack."""
    out = np.zeros(state_size(enc), dtype=np.float32)
    d = enc.obs_size
    for s in range(1, enc.players + 1):
        view = deal.view(s)
        if isinstance(view, ConquianView) and view.sitting_out:
            continue
        out[(s - 1) * d: s * d] = enc.observe(view, public)
    base = enc.players * d
    pack = deal.pack[deal.pos:] if hasattr(deal, "pack") else deal.deck[deal.pos:]
    for c in pack:
        out[base + enc._card(c)] += 1.0
    if pack:
        out[base + enc.n_cards + 1 + enc._card(pack[0])] = 1.0
    return out


def check_episode(episode: str, rounds: int, max_steps: int | None) -> None:
    """Refuse an environment's episode options that make no sense (``ValueError``): ``episode``
    ``"deal"`` or ``"match"``, at least one round, ``max_steps`` ``None`` or at least 1."""
    if episode not in ("deal", "match"):
        raise ValueError(f"episode must be 'deal' or 'match', not {episode!r}")
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, not {rounds!r}")
    if max_steps is not None and max_steps < 1:
        raise ValueError(f"max_steps must be at least 1, not {max_steps!r}")


def match_features(match: Any, seat: int) -> list[float]:
    """What a whole-match episode adds after a seat's observation (``2 x players + 1`` floats):
    every seat's running total and the counters it owes to the conquian tableau pool (R5.1), in
    the order of play from ``seat`` (it first), then the share of the match's deals played."""
    n = match.rules.players
    order = [(seat - 1 + j) % n for j in range(n)]
    totals, owed = match.totals, match.owed
    done = len(match.results) / (match.rounds * n) if match.rounds else 0.0
    return [float(totals[s]) for s in order] + [float(owed[s]) for s in order] + [done]
