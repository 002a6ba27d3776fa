"""Pips and the pool (R5.1, R5.2)."""

from __future__ import annotations

from conquian.i18n import Msg
from conquian.learn.model import Lesson, Step

LESSONS = (
    Lesson(
        key="pips", concept="pips",
        title=Msg("Pips and the pool"),
        intro=Msg("This table plays for pips: the loser pays the pips left in his hand (ace 1, the rest "
                  "their face value). Use the 4♥, then choose your discard."),
        summary=Msg("For pips, let big lone cards go first. Playing for games, a tableau puts a counter "
                    "in the pool for the next winner."),
        variant="conquian", options={"scoring": "pips"},
        hands=("2h 3h Tc 9s Ad 2c 5d 7s 3c 6s", "Ac As 4c 5c 6d 7d 8d 9d Td 5h"),
        pack="4h",
        steps=(
            Step(("p1 use 2h 3h 4h",), Msg("Use the 4♥ with your 2♥ and 3♥."),
                 Msg("the 4♥ fits your 2♥ and 3♥"), "R3.4"),
            Step(("p1 discard Tc",), Msg("Discard the card that would cost most if you lose: the 10♣."),
                 Msg("the 10♣ joins nothing and would cost ten pips if your adversary goes out"), "R5.2"),
        ),
    ),
)
