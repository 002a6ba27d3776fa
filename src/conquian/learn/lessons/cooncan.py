"""Cooncan: the draw and the stock, laying out and fattening, jokers (R4, R2.3)."""

from __future__ import annotations

from conquian.i18n import Msg
from conquian.learn.model import ANY, Lesson, Step

LESSONS = (
    Lesson(
        key="stock", concept="stock",
        title=Msg("Cooncan: the draw and the stock"),
        intro=Msg("In Cooncan each turn you draw (the top of the pack, or the card on the stock), may lay out "
                  "combinations, and discard. The 7♥ is on the stock."),
        summary=Msg("Draw or take from the stock, lay out what you wish, and end your turn with a discard."),
        variant="cooncan", options={"jokers": 0}, dealer=3,
        hands=("7c 7d 2s 5h 9c Jd Kh", "3c 4d 8h Jc Qs 2d 6s", "Ac 2c 5d 6h 9h Th Ks"),
        stock="7h",
        steps=(
            Step(("p1 take",), Msg("Take the 7♥ from the stock."),
                 Msg("the 7♥ on the stock makes a set with your sevens: take it"), "R4.3"),
            Step(("p1 meld 7c 7d 7h",), Msg("Lay out your three sevens."),
                 Msg("lay out 7♣ 7♦ 7♥"), "R4.3"),
            Step(ANY, Msg("Discard a card to end your turn."), Msg("discard one card"), "R4.3",
                 sample="p1 discard Kh"),
        ),
    ),
    Lesson(
        key="fattening", concept="fattening",
        title=Msg("Cooncan: fattening"),
        intro=Msg("The first player laid out 4♠ 5♠ 6♠. In Cooncan anyone may add to anyone's combination."),
        summary=Msg("Fattening: add your cards to any combination on the table to get rid of them."),
        variant="cooncan", options={"jokers": 0}, dealer=3, seat=2,
        hands=("4s 5s 6s 2h 9d Qc Kc", "7s 3c 8h Jd 2d 4h Qs", "Ac 2c 5d 6h 9h Th Ks"),
        stock="Jc", pack="3d 8c",
        before=("p1 draw", "p1 meld 4s 5s 6s", "p1 discard Kc"),
        steps=(
            Step(("p2 draw",), Msg("The K♣ is no use to you: draw from the pack."),
                 Msg("the K♣ joins nothing of yours: draw from the pack"), "R4.3"),
            Step(("p2 add 1 7s",), Msg("Add your 7♠ to the first player's spades."),
                 Msg("your 7♠ fits combination 1: add it"), "R4.4"),
            Step(ANY, Msg("Discard a card to end your turn."), Msg("discard one card"), "R4.3",
                 sample="p2 discard Qs"),
        ),
    ),
    Lesson(
        key="joker", concept="joker",
        title=Msg("Cooncan: the joker"),
        intro=Msg("The joker may stand for any card. The first player laid X 5♦ 6♦, the joker as the 4♦. "
                  "You hold the 8♦ and 9♦."),
        summary=Msg("A joker at the end of a sequence may be moved to the other end once, if you add the card "
                    "it needs."),
        variant="cooncan", options={"jokers": 1}, dealer=3, seat=2,
        hands=("X 5d 6d 2h 9c Qc Kc", "8d 9d 3c 8h Jd 2s Qs", "Ac 2c 5c 6h 9h Th Ks"),
        stock="Jc", pack="3h 4s",
        before=("p1 draw", "p1 meld X 5d 6d", "p1 discard Kc"),
        steps=(
            Step(("p2 draw",), Msg("Draw from the pack."), Msg("draw from the pack"), "R4.3"),
            Step(("p2 shift 1 8d 9d",), Msg("Move the joker to the top end as the 7♦ and add your 8♦ 9♦."),
                 Msg("move the joker to become the 7♦ and add 8♦ 9♦ after it"), "R2.3"),
            Step(ANY, Msg("Discard a card to end your turn."), Msg("discard one card"), "R4.3",
                 sample="p2 discard Qs"),
        ),
    ),
)
