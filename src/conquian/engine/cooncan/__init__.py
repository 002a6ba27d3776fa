"""Cooncan (RULES R4), one pack or two: ``deal``, ``listing``, ``melds``, ``events``, ``view``."""

from conquian.engine.cooncan.deal import CooncanDeal
from conquian.engine.cooncan.events import CooncanEvent
from conquian.engine.cooncan.view import CooncanView

__all__ = ["CooncanDeal", "CooncanEvent", "CooncanView"]
