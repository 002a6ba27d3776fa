"""The Spanish pack: A to 7, then sota, caballo, rey; the 7 and the sota are consecutive (R1, R2.2)."""

from __future__ import annotations

from conquian.i18n import Msg
from conquian.learn.model import ANY, Lesson, Step

LESSONS = (
    Lesson(
        key="spanish", concept="spanish",
        title=Msg("The Spanish pack"),
        intro=Msg("The Spanish pack has forty cards: A to 7, then J, Q, K (sota, caballo, rey). There are "
                  "no 8, 9 or 10, so the 7 and the J are next to each other. The J♥ is turned up."),
        summary=Msg("In the Spanish pack 6-7-J is a sequence: the 7 and the sota are consecutive."),
        variant="conquian-spanish",
        hands=("6h 7h Kc 2s 3d Qd 5c Ac 4s Js", "2h 3h Ks Kd As 2c 3c Jd 4d 5d"),
        pack="Jh",
        steps=(
            Step(("p1 use 6h 7h Jh",), Msg("Use the J♥ with your 6♥ and 7♥."),
                 Msg("6♥ 7♥ J♥ is a sequence in the Spanish pack"), "R2.2"),
            Step(ANY, Msg("Discard a card."), Msg("discard one card"), "R3.5", sample="p1 discard Kc"),
        ),
    ),
)
