"""Hands that R. F. Foster walks through in his books, replayed move by move, with his commentary
retold (the source of each is named by book and passage)."""

from __future__ import annotations

from conquian.i18n import Msg
from conquian.learn.model import Lesson, Source, Step

FOSTER_1913 = "R. F. Foster, Cooncan (Conquian): A Game of Cards Also Called Rum (1913)"
FOSTER_HOYLE = "Foster's Hoyle: Conquian"

LESSONS = (
    Lesson(
        key="foster-hoyle-five", concept="discarding",
        title=Msg("Foster: the 5♥ and the lone king"),
        intro=Msg("Foster's Hoyle: the pone holds J♥ 7♥ 6♥ 4♥, 5♠ 3♠ 2♠, K♦ 7♦ 5♦, and the first card is the 5♥. "
                  "He could use it three ways."),
        summary=Msg("Foster: take the run that keeps both ends open, and discard the card too far from the rest."),
        variant="conquian-spanish",
        hands=("Jh 7h 6h 4h 5s 3s 2s Kd 7d 5d", "2h 3h Ks Kc As 2c 3c Jd 4d 6d"),
        pack="5h",
        source=Source(FOSTER_HOYLE, "Let us suppose the pone holds these cards"),
        steps=(
            Step(("p1 use 5h 6h 7h",), Msg("Lay the 5♥ with the 6♥ and 7♥, as Foster advises."),
                 Msg("Foster lays 5♥ 6♥ 7♥: the J♥ can still follow the 7 and the 4♥ take a 3♥"), "R3.4"),
            Step(("p1 discard Kd",), Msg("Discard the K♦."),
                 Msg("Foster's best discard is the K♦: too far from the other diamonds and with no mate"), "R3.5"),
        ),
    ),
    Lesson(
        key="foster-tens", concept="borrowing",
        title=Msg("Foster: borrowing a ten"),
        intro=Msg("Foster (1913): a player has four tens on the table and the 9♠ in hand, and draws the 8♠."),
        summary=Msg("Borrowing: take a card from your own combination if what stays is still valid."),
        variant="conquian",
        hands=("Td Th Ts 9s Ac 2h 4c 6d 3s 7h", "2c 3c 5c 6c Ad As 5d 8d 9d 4h"),
        pack="Tc 7c 8s",
        source=Source(FOSTER_1913, "Suppose he has four tens on the table and draws the 8 of spades"),
        before=("p1 use Tc Td Th Ts", "p1 discard Ac", "p2 pass", "p2 pass", "p1 pass"),
        steps=(
            Step(("p1 use 8s 9s Ts | Tc Td Th",), Msg("Borrow the 10♠ from your four tens: lay 8♠ 9♠ 10♠."),
                 Msg("borrow the 10♠: three tens stay on the table and 8♠ 9♠ 10♠ is new"), "R3.4"),
        ),
    ),
    Lesson(
        key="foster-hand", concept="being-forced",
        title=Msg("Foster: a whole hand for two"),
        intro=Msg("Foster (1913) plays a hand between A (you, the pone) and B. The 3♠ is turned: you hold "
                  "4♠ 5♠ 8♠, 3♥ 3♦, 7♣ 7♦, 6♥ 10♥ and 2♣."),
        summary=Msg("Foster: when forced, borrow to make the most of it; ten down, you wait for two cards "
                    "B cannot keep."),
        variant="conquian",
        hands=("4s 5s 8s 3h 3d 7c 7d 6h Th 2c", "8d 9d Td Ac Ad Ah 5c 2h 4h 6d"),
        pack="3s 2d 5h 9h 9c 8c 3c 6s 7s",
        source=Source(FOSTER_1913, "Suggestions for good play, for two players: "
                             "Let us suppose that these are the cards"),
        steps=(
            Step(("p1 use 3s 4s 5s",), Msg("Take the 3♠ with 4♠ 5♠: Foster prefers a sequence to three treys."),
                 Msg("Foster plays for the sequence, which may run long, and shows only three cards"), "R3.4"),
            Step(("p1 discard 6h",), Msg("Discard the 6♥ first: it may block a heart sequence of B's."),
                 Msg("Foster lets the 6♥ go first, before the 10♥, to block hearts early"), "R3.5",
                 then=("p2 pass", "p2 pass", "p1 pass", "p1 pass", "p2 pass", "p2 pass", "p1 pass", "p1 pass",
                       "p2 pass", "p2 pass", "p1 pass"),
                 after=Msg("The 2♦, 5♥, 9♥, 9♣ and 8♣ were turned and passed by both. You turned the 3♣.")),
            Step(("p1 use 3c 3d 3h",), Msg("Take the 3♣ with your two red treys."),
                 Msg("the 3♣ makes three treys"), "R3.4"),
            Step(("p1 discard Th",), Msg("Discard the 10♥."),
                 Msg("the 10♥ is dead wood; keep the sevens and the 8♠ for later"), "R3.5",
                 then=("p2 pass", "p2 force 6s"),
                 after=Msg("B turned the 6♠ and forced it on your spades.")),
            Step(("p1 use 3s 4s 5s 6s",), Msg("You are forced: take the 6♠ on your sequence."),
                 Msg("a forced card must be used"), "R3.6"),
            Step(("p1 discard 8s",), Msg("Discard the 8♠ as a feeler: does B want spades?"),
                 Msg("Foster discards the 8♠ to learn whether B holds the 7♠ and 9♠"), "R3.5",
                 then=("p2 pass", "p2 force 7s"),
                 after=Msg("B passed it, turned the 7♠ and forced it on you.")),
            Step(("p1 use 3s 4s 5s 6s | 7c 7d 7s",),
                 Msg("Borrow the forced 7♠ for three sevens: 7♣ 7♦ 7♠."),
                 Msg("Foster borrows the 7♠ from the sequence to make three sevens"), "R3.4"),
            Step(("p1 discard 2c",), Msg("Discard the 2♣: ten down, with two ways to win."),
                 Msg("your last card is the 2♣"), "R3.5"),
        ),
    ),
    Lesson(
        key="foster-hoyle-kings", concept="forcing-back",
        title=Msg("Foster: forcing a passed card"),
        intro=Msg("Foster's Hoyle: your adversary has two sequences of four down and a pair of kings in hand. "
                  "He turned the 5♣ and passed it rather than break his kings."),
        summary=Msg("If he refuses a card that fits his table, force it on him: he must break what he is holding."),
        variant="conquian-spanish", seat=2, dealer=2,
        hands=("Ac 2c 3c Ad 2d 3d Kh Ks Js Qh", "7c Jc Qd Jd 5h 6s 7s 5d 6d Qs"),
        pack="4c 4d 6h 5c",
        source=Source(FOSTER_HOYLE, "Forcing. A player need not use any card drawn"),
        before=("p1 use Ac 2c 3c 4c", "p1 discard Js", "p2 pass", "p2 pass", "p1 use Ad 2d 3d 4d", "p1 discard Qh",
                "p2 pass", "p2 pass", "p1 pass", "p1 pass"),
        steps=(
            Step(("p2 force 5c",), Msg("Force the 5♣ back on him: lay it on his clubs."),
                 Msg("he refused a card that fits: forcing it makes him break his pair of kings"), "R3.6",
                 then=("p1 use Ac 2c 3c 4c 5c", "p1 discard Kh"),
                 after=Msg("He had to take it and let a king go.")),
        ),
    ),
    Lesson(
        key="foster-tableau", concept="tableau",
        title=Msg("Foster: playing for a tableau"),
        intro=Msg("Foster (1913): your hand can never reach eleven down; the 7♥ is turned up and fits your hearts."),
        summary=Msg("With no hope of eleven down, take nothing, show nothing: a tableau costs you nothing."),
        variant="conquian",
        hands=("4h 5h 6h 5s Ac 3d 9d 8c 2s Ts", "2h 3h 7s 6c As Ad 9s Td 4c 5c"),
        pack="7h",
        source=Source(FOSTER_1913, "Here is an example of playing for a tableau right from the start"),
        steps=(
            Step(("p1 pass",), Msg("Refuse the 7♥ as Foster's A does."),
                 Msg("laid on the table, your hearts could be forced and you would have to discard; held up, "
                     "they cannot"), "R3.6"),
        ),
    ),
    Lesson(
        key="foster-splash", concept="splash",
        title=Msg("Foster: the splash"),
        intro=Msg("Foster (1913), five hands: A laid 5♣ 6♣ 7♣ and three eights, B laid X 5♦ 6♦ and three fours "
                  "and discarded the K♠. You are C: K♣ K♦, three fives, 8♠ 4♠ 8♦ 9♦ 6♠."),
        summary=Msg("A splash: every card down in one turn, using the others' combinations. Do not lay "
                    "down too early."),
        variant="cooncan-double", options={"splash_bonus": 25}, seat=3, dealer=5,
        hands=("5c 6c 7c 8d 8h Kh Kd 4h 6h Ah", "X 5d 6d 4c 4d 4s 8s 7s 6h Ks",
               "Kc Kd 5c 5d 5h 8s 4s 8d 9d 6s", "2c 3c 9c Tc Jc 2d 3d Td Jd Qd",
               "2h 3h 9h Th Jh Qh 2s 3s Ts Js"),
        stock="Jh", pack="8c 5h",
        source=Source(FOSTER_1913, "Let us suppose that A draws the 8 of clubs"),
        before=("p1 draw", "p1 meld 5c 6c 7c", "p1 meld 8c 8d 8h", "p1 discard Ah", "p2 draw", "p2 meld X 5d 6d",
                "p2 meld 4c 4d 4s", "p2 discard Ks"),
        steps=(
            Step(("p3 take",), Msg("Take the K♠ from the stock."), Msg("the K♠ makes three kings"), "R4.3"),
            Step(("p3 meld Kc Kd Ks",), Msg("Lay out three kings."), Msg("lay out your kings first"), "R4.3"),
            Step(("p3 meld 5c 5d 5h",), Msg("Lay out three fives."), Msg("now your fives"), "R4.3"),
            Step(("p3 add 2 8s",), Msg("Add the 8♠ to A's eights (combination 2)."),
                 Msg("your 8♠ fits the three eights"), "R4.4"),
            Step(("p3 add 4 4s",), Msg("Add the 4♠ to B's fours (combination 4)."),
                 Msg("your 4♠ fits the three fours"), "R4.4"),
            Step(("p3 shift 3 8d 9d",), Msg("Move B's joker to be the 7♦ and add your 8♦ 9♦."),
                 Msg("shift the joker of combination 3 and add 8♦ 9♦"), "R2.3"),
            Step(("p3 discard 6s",), Msg("Discard the 6♠: you are all down."),
                 Msg("your last card goes to the stock"), "R4.6"),
        ),
    ),
)
