"""The ``random`` bot: uniform over the listed legal actions (a baseline), in every form of the
game (conquian R3, Cooncan R4, the conquián mexicano R8: its gives and targeted forces included)."""

from __future__ import annotations

import random
from typing import Any

from conquian.bots.base import View, check_view, register
from conquian.engine.actions import Action
from conquian.engine.conquian.deal import raw_to_action as conquian_action
from conquian.engine.conquian.mexicano_events import raw_to_action as mexicano_action
from conquian.engine.conquian.mexicano_view import MexicanoView
from conquian.engine.cooncan.deal import raw_to_action as cooncan_action
from conquian.engine.cooncan.view import CooncanView


def random_action(view: View, rng: random.Random) -> Action:
    """A listed legal action of a checked view, drawn uniformly with ``rng``, as an action of its
    game (the ``random`` bot's move; the noisy bots' noise)."""
    legal = view.legal_raw()
    return view_action(view, legal[rng.randrange(len(legal))])


def view_action(view: View, raw: Any) -> Action:
    """A raw action listed by ``view`` (one of :meth:`legal_raw`'s) as an action of its game."""
    if isinstance(view, CooncanView):
        return cooncan_action(view.seat, raw, view.rules.stock == "open")
    if isinstance(view, MexicanoView):
        return mexicano_action(view.seats, view.player, raw)
    return conquian_action(view.seat, raw)


@register("random")
class RandomBot:
    """Chooses uniformly among the listed legal actions of its view."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        """A uniformly random listed action."""
        return random_action(check_view(view), self.rng)
