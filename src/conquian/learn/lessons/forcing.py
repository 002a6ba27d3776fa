"""Forcing, being forced, and going out with eleven down (R3.6, R3.7)."""

from __future__ import annotations

from conquian.i18n import Msg
from conquian.learn.model import ANY, Lesson, Step

LESSONS = (
    Lesson(
        key="forcing", concept="forcing",
        title=Msg("Forcing"),
        intro=Msg("Your adversary has 3♣ 4♣ 5♣ on the table. You turned the 6♣: you cannot use it, "
                  "but it fits his sequence."),
        summary=Msg("A card that fits the adversary's combination can be forced on him: he must take it and discard."),
        variant="conquian",
        hands=("4h 5h 9s 2c Ad 8d Tc 3s 7h Ts", "2h 3h 6s 6d Ac As 9c Td 4c 5c"),
        pack="3c 6c",
        before=("p1 pass", "p2 use 3c 4c 5c", "p2 discard 9c", "p1 pass"),
        steps=(
            Step(("p1 force 6c",), Msg("Force the 6♣ on your adversary: lay it on his clubs."),
                 Msg("passing lets him choose; forcing makes him take it and discard a card you may want"),
                 "R3.6", then=("p2 use 3c 4c 5c 6c", "p2 discard Td"),
                 after=Msg("He had to take the 6♣ and discard: he let the 10♦ go.")),
            Step(("p1 use Tc Td Ts",), Msg("Take the 10♦ with your two tens."),
                 Msg("the 10♦ makes three tens with your 10♣ and 10♠"), "R3.4"),
            Step(ANY, Msg("Discard a card."), Msg("discard one card"), "R3.5", sample="p1 discard 2c"),
        ),
    ),
    Lesson(
        key="eleven", concept="eleven",
        title=Msg("Eleven down"),
        intro=Msg("You have three tens and 4♥ 5♥ 6♥ down, and 6♦ 8♦ 9♦ 10♦ in hand. You turned the 7♦."),
        summary=Msg("You win the moment eleven cards are down: your ten and the card you take. A discard "
                    "never counts."),
        variant="conquian",
        hands=("Tc Th 4h 5h 8d 9d Td 6d Ac 2s", "As 2c 3d 4s 5c 7h 9h 8c 2h 4d"),
        pack="Ts 6h 3c 7d",
        before=("p1 use Tc Th Ts", "p1 discard Ac", "p2 pass", "p2 pass", "p1 use 4h 5h 6h", "p1 discard 2s",
                "p2 pass", "p2 pass", "p1 pass"),
        steps=(
            Step(("p1 use 6d 7d 8d 9d Td",), Msg("Lay all four diamonds with the 7♦: that is eleven down."),
                 Msg("lay every card of your hand with the 7♦: ten on the table and the card taken make "
                     "eleven, and you win"), "R3.7"),
        ),
    ),
)
