"""Pip values and settlement (RULES R2.4, R5).

>>> from conquian.cards import parse_card
>>> [pip_value(parse_card(c)) for c in ("Ah", "Kd", "Ts", "7c", "X")]
[11, 10, 10, 7, 15]
"""

from __future__ import annotations

from conquian.cards import JOKER


def pip_value(card: int) -> int:
    """R2.4: joker 15, ace 11, K Q J 10, other cards their face value."""
    if card == JOKER:
        return 15
    rank = card & 15
    if rank == 1:
        return 11
    return 10 if rank >= 10 else rank
