"""Conquian (RULES R3) and its presets: ``deal``, ``listing``, ``melds``, ``events``, ``view``."""

from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.conquian.events import Event
from conquian.engine.conquian.view import ConquianView

__all__ = ["ConquianDeal", "ConquianView", "Event"]
