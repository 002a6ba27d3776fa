"""Combinations, the card turned and the say, using and discarding, passing and burying (R2.2, R3.3-R3.5)."""

from __future__ import annotations

from conquian.i18n import Msg
from conquian.learn.model import ANY, Lesson, Step

LESSONS = (
    Lesson(
        key="combinations", concept="combinations",
        title=Msg("What a combination is"),
        intro=Msg("Conquian is won by laying eleven cards on the table in combinations. A combination is three "
                  "or more cards laid face up: a set (cards of one rank) or a sequence (one suit, in order). "
                  "The 7♥ is turned up and you have the first say."),
        summary=Msg("A combination: three or more of one rank, or three or more in suit and in order."),
        variant="conquian",
        hands=("7c 7d 4h 5h 9s 2c Ad 8d Tc 3s", "2h 3h 6s 6c Ac As 9d Td 4c 5c"),
        pack="7h",
        steps=(
            Step(("p1 use 7c 7d 7h",),
                 Msg("Take the 7♥ with your 7♣ and 7♦: three sevens are a set."),
                 Msg("the 7♥ makes a set with your two sevens; take it"), "R2.2"),
            Step(ANY, Msg("Now discard one card of your hand, face up."),
                 Msg("discard one card"), "R3.5", sample="p1 discard 2c"),
        ),
    ),
    Lesson(
        key="say", concept="say",
        title=Msg("The card turned and the say"),
        intro=Msg("The pone turns the top card of the pack and has the first say to it: use it or pass it. "
                  "If he passes, the other player has the say. You cannot use the 9♥."),
        summary=Msg("Whoever turns a card says first; if both pass, it is buried and the other player turns."),
        variant="conquian",
        hands=("7c 7d 4h 5h 9s 2c Ad 2d 8d 3s", "2h 3h 6s 6c Ac As 9d Td 4c 5c"),
        pack="9h 3d",
        steps=(
            Step(("p1 pass",), Msg("Pass the 9♥: nothing in your hand goes with it."),
                 Msg("pass the card you cannot use"), "R3.3", then=("p2 pass", "p2 pass"),
                 after=Msg("Your adversary passed it too: it is buried, and he turned the 3♦ and passed it.")),
            Step(("p1 use Ad 2d 3d",), Msg("Now you have the say to the 3♦: use it with your A♦ and 2♦."),
                 Msg("the 3♦ makes a sequence with your A♦ and 2♦"), "R3.3"),
            Step(ANY, Msg("Discard a card."), Msg("discard one card"), "R3.5", sample="p1 discard 9s"),
        ),
    ),
    Lesson(
        key="using", concept="using",
        title=Msg("Using and discarding"),
        intro=Msg("Cards you take never go into your hand: they go straight to the table in a combination, "
                  "and then you discard. Hand and table always hold ten of your cards."),
        summary=Msg("Take a card only into a combination on the table, then discard one card."),
        variant="conquian",
        hands=("4h 5h 9s 2c Ad 8d Tc 3s 7c Ts", "2h 3h 6s 6c Ac As 9d Td 4c 5c"),
        pack="6h",
        steps=(
            Step(("p1 use 4h 5h 6h",), Msg("Use the 6♥ with your 4♥ and 5♥."),
                 Msg("the 6♥ joins your 4♥ and 5♥ in a sequence"), "R3.4"),
            Step(("p1 discard 2c", "p1 discard 9s", "p1 discard 3s", "p1 discard 7c", "p1 discard Ad"),
                 Msg("Discard a card that joins nothing (keep the two tens, they may make a set)."),
                 Msg("keep the tens: a third ten makes a set; let a lone card go"), "R3.5"),
        ),
    ),
    Lesson(
        key="burying", concept="burying",
        title=Msg("Passing and burying"),
        intro=Msg("Your adversary took the card turned up and discarded the 9♣. You have the say to it."),
        summary=Msg("A discard you pass is buried for good, and you turn the next card."),
        variant="conquian",
        hands=("4h 5h 9s 2c Ad 8d Tc 3s 7c Ts", "2h 3h 6s 6c Ac As 9c Td 4c 5c"),
        pack="3c 6h",
        before=("p1 pass", "p2 use 3c 4c 5c", "p2 discard 9c"),
        steps=(
            Step(("p1 pass",), Msg("You cannot use the 9♣: pass it."), Msg("you cannot use it: pass"), "R3.3",
                 after=Msg("The 9♣ is buried: nobody may look at it again. You turned the 6♥.")),
            Step(("p1 use 4h 5h 6h",), Msg("Use the 6♥ you turned."),
                 Msg("the 6♥ fits your hearts"), "R3.3"),
            Step(ANY, Msg("Discard a card."), Msg("discard one card"), "R3.5", sample="p1 discard 9s"),
        ),
    ),
)
