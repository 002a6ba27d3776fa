"""The conquián mexicano: the exchange, the say round the table, nine down (R8)."""

from __future__ import annotations

from conquian.i18n import Msg
from conquian.learn.model import ANY, Lesson, Step

LESSONS = (
    Lesson(
        key="exchange", concept="exchange",
        title=Msg("The mexicano's exchange"),
        intro=Msg("In the conquián mexicano each player has eight cards, and before the first card is turned "
                  "each gives one card face down to the next player."),
        summary=Msg("The exchange: give the card you need least, and never a card that completes your own play."),
        variant="conquian-mexicano",
        hands=("Ac Ad Ah 5s 6s 7s 3c Kd", "2c 2d 4h Jh Qs 6c 7c 3h"),
        steps=(
            Step(("p1 give Kd",), Msg("Give the K♦: it joins nothing in your hand."),
                 Msg("give the card that joins nothing, the K♦; keep your aces and spades"), "R8.2",
                 then=("p2 give 3h",), after=Msg("You gave the K♦ and received the 3♥.")),
        ),
    ),
    Lesson(
        key="round", concept="round",
        title=Msg("The say round the table"),
        intro=Msg("Three play (the tercerilla). The first player turned the 6♣ and passed, and so did the "
                  "second. Now you have the say."),
        summary=Msg("With three players the say goes round the table in the order of play."),
        variant="conquian-mexicano", options={"players": 3, "exchange": False}, seat=3, dealer=3,
        hands=("2h 3h Ks Kd As 2c 3d Jd", "4d 5d 7h Qh Qs Jc 2s 7d", "4c 5c Ac Ad 3s Jh Kc 5h"),
        pack="6c",
        before=("p1 pass", "p2 pass"),
        steps=(
            Step(("p3 use 4c 5c 6c",), Msg("Use the 6♣ with your 4♣ and 5♣."),
                 Msg("the 6♣ fits your 4♣ and 5♣"), "R8.3"),
            Step(ANY, Msg("Discard a card."), Msg("discard one card"), "R3.5", sample="p3 discard Kc"),
        ),
    ),
    Lesson(
        key="nine", concept="nine",
        title=Msg("Nine down"),
        intro=Msg("With eight cards each, the mexicano is won with nine down: all your cards and the one you take. "
                  "The 6♥ is turned up."),
        summary=Msg("The mexicano is won with nine down: your eight cards and the card you take."),
        variant="conquian-mexicano", options={"exchange": False},
        hands=("Ac Ad Ah 2s 3s 4s 6c 6d", "2c 2d 4h Jh Qs 7c 3h Kd"),
        pack="6h",
        steps=(
            Step(("p1 use Ac Ad Ah | 2s 3s 4s | 6c 6d 6h",),
                 Msg("Lay everything: three aces, 2♠ 3♠ 4♠ and three sixes with the 6♥."),
                 Msg("lay all eight cards with the 6♥: nine down wins"), "R8.5"),
        ),
    ),
)
