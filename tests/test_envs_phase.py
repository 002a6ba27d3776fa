"""The phase floats of every family's observation are the view's public phase, one-hot (docs/encodings.md)."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("gymnasium")

import numpy as np

from conquian import get_rules
from conquian.engine.cooncan.deal import CooncanDeal
from conquian.engine.match import new_deal
from conquian.envs.encoding import Encoding, Public, encoding

PHASES = {"conquian": ("say", "forced", "discard", "over"),
          "conquian-mexicano": ("exchange", "say", "forced", "discard", "over"),
          "cooncan": ("draw", "play", "over")}


def _phase_offset(variant: str, enc: Encoding) -> int:
    """Where the phase floats start: the documented tails' layouts counted from the end."""
    if variant == "conquian":
        return enc.obs_size - 9
    if variant == "conquian-mexicano":
        return enc.obs_size - 6 - 6 * enc.players
    return enc.obs_size - 6


@pytest.mark.parametrize("variant,options", [("conquian", {}), ("conquian-mexicano", {}),
                                             ("conquian-mexicano", {"players": 3}), ("cooncan", {})])
def test_exactly_one_phase_float_is_set_and_it_is_the_views_phase(variant: str, options: dict[str, Any]) -> None:
    rules = get_rules(variant, **options)
    enc = encoding(rules)
    names = PHASES[variant]
    offset = _phase_offset(variant, enc)
    rng = random.Random(3)
    seen: set[str] = set()
    for seed in range(12):
        deal = new_deal(rules, seed=seed, dealer=rules.players)
        seat = deal.to_act
        while True:
            assert seat is not None
            view = deal.view(seat)
            public = Public()
            events = deal.recent_events(deal.n_events, 1) if isinstance(deal, CooncanDeal) else \
                deal.recent_events(deal.n_events)
            enc.update(public, events)  # type: ignore[arg-type]
            floats = enc.observe(view, public)[offset:offset + len(names)]
            assert np.count_nonzero(floats) == 1 and floats.sum() == 1.0
            assert names[int(floats.argmax())] == view.phase == deal.phase
            seen.add(view.phase)
            if deal.over:
                break
            deal.play(rng.choice(list(deal.legal_actions())))
            seat = deal.to_act if deal.to_act is not None else seat
    assert seen == set(names)
