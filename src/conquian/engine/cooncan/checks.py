"""The checks of a Cooncan deal: :class:`CooncanChecks`, what :meth:`~CooncanChecks.verify` finds in an
action before it is played (the turn, the draw, the cards held, where each card fits: R4.2-R4.4,
R2.3), every refusal an :class:`~conquian.engine.errors.IllegalActionError` naming its rule.
"""

from __future__ import annotations

from conquian.engine.actions import Action, Add, Discard, Draw, Meld, Shift, Take
from conquian.engine.cards import JOKER, card_str, card_symbol, parse_card, the_card
from conquian.engine.cooncan.base import CooncanBase
from conquian.engine.cooncan.listing import (
    DRAW,
    K_ADD,
    K_DISCARD,
    K_DRAW,
    K_MELD,
    K_SHIFT,
    K_TAKE,
    OVER,
    RawAction,
    holds_other,
)
from conquian.engine.cooncan.melds import RUN, Combo, build_combo, card_at, parse_token
from conquian.engine.deal import as_action
from conquian.engine.errors import IllegalActionError
from conquian.i18n import Msg


class CooncanChecks(CooncanBase):
    """:meth:`verify` and its helpers: an action checked against the state, which it never changes."""

    __slots__ = ()

    def verify(self, action: Action | str) -> RawAction:
        """Check one action without playing it: its raw form, or IllegalActionError (R7)."""
        action = as_action(action)
        if self.stage == OVER:
            raise IllegalActionError("R4.6", Msg("the deal is over"))
        p = self.turn
        seat = p + 1
        if action.seat != seat:
            if not 1 <= action.seat <= self.n:
                raise IllegalActionError("R4.3", Msg("there is no seat {seat} at this table", seat=f"p{action.seat}"))
            raise IllegalActionError("R4.3", Msg("it is {seat}'s turn, not {other}'s", seat=f"p{seat}",
                                                 other=f"p{action.seat}"))
        if isinstance(action, Draw | Take):
            if self.stage != DRAW:
                raise IllegalActionError("R4.3", Msg("{seat} has drawn already this turn", seat=f"p{seat}"))
            if isinstance(action, Draw):
                return (K_DRAW, None)
            if not self.stock:
                raise IllegalActionError("R4.2", Msg("the discard pile is empty"))
            top = self.stock[-1]
            if self.rules.stock == "open":
                if action.card is None:
                    return (K_TAKE, top)
                if action.card not in self.stock:
                    raise IllegalActionError("R4.2", Msg("{card} is not in the discard pile",
                                                         card=the_card(action.card)))
                return (K_TAKE, action.card)
            if action.card is not None and action.card != top:
                raise IllegalActionError("R4.2", Msg("only the top card of a closed discard pile can be taken "
                                                     "({card}), not {value}", card=the_card(top),
                                                     value=the_card(action.card)))
            return (K_TAKE, top)
        if self.stage == DRAW:
            if isinstance(action, Discard):
                raise IllegalActionError("R4.3", Msg("{seat} must draw before discarding", seat=f"p{seat}"))
            raise IllegalActionError("R4.3", Msg("{seat} must draw (draw, or take from the discard pile) before laying "
                                                 "anything down", seat=f"p{seat}"))
        if isinstance(action, Discard):
            self._need_cards(p, [action.card])
            if action.card == self.taken and holds_other(self.h1[p], self.h2[p], self.hj[p], self.taken):
                raise IllegalActionError("R1", Msg("at this table (discard_taken = false) {seat} may not discard "
                                                   "{card}, the card he took from the discard pile this turn, while he "
                                                   "holds another card", seat=f"p{seat}", card=the_card(self.taken)))
            return (K_DISCARD, action.card)
        if isinstance(action, Meld):
            tokens = [parse_token(t) for t in action.cards]
            combo = build_combo(tokens, self.double, seat)
            self._need_cards(p, list(combo.cells))
            canon = tuple(str(combo).split())
            return (K_MELD, (len(self.combos), combo, combo.cells, canon, None))
        if isinstance(action, Add | Shift):
            k = action.combo - 1
            if not 0 <= k < len(self.combos):
                raise IllegalActionError("R4.4", Msg("there is no combination {number} on the table",
                                                     number=action.combo))
            combo = self.combos[k]
            which = None
            if isinstance(action, Shift):
                two = len(combo.movable_jokers()) > 1
                combo = combo.shift(action.which)
                which = action.which if two else None
            combo, removed, canon = self._add_cards(combo, action.cards, isinstance(action, Shift))
            self._need_cards(p, removed)
            return (K_ADD if isinstance(action, Add) else K_SHIFT, (k, combo, tuple(removed), canon, which))
        raise IllegalActionError("R4.3", Msg("{action} is not a Cooncan action", action=str(action)))

    def _need_cards(self, p: int, cards: list[int]) -> None:
        need: dict[int, int] = {}
        for c in cards:
            need[c] = need.get(c, 0) + 1
        for c, k in need.items():
            have = self.count_in_hand(p + 1, c)
            if have < k:
                if k == 1:
                    raise IllegalActionError("R4.3", Msg("{seat} does not hold {card}", seat=f"p{p + 1}",
                                                         card=the_card(c)))
                raise IllegalActionError("R4.3", Msg("{seat} does not hold {cards}", seat=f"p{p + 1}",
                                                     cards=f"{k} x {card_str(c)}"))

    def _add_cards(
        self, combo: Combo, tokens: tuple[str, ...], shifting: bool
    ) -> tuple[Combo, list[int], tuple[str, ...]]:
        """Add written cards to a combination in turn, each where it fits (R4.4, R2.3)."""
        pending = [parse_token(t) for t in tokens]
        removed: list[int] = []
        canon: list[str] = []
        before = str(combo)
        while pending:
            progress = False
            for i, (text, name) in enumerate(pending):
                c = parse_card(text)
                if c == JOKER:
                    pos = combo.joker_fits(parse_card(name) if name else None)
                else:
                    if name is not None:
                        raise IllegalActionError("R2.3", Msg("only a joker is named: {value}", value=f"{text}={name}"))
                    pos = combo.fit_position(c)
                if pos is not None:
                    combo = combo.add_at(c, pos)
                    removed.append(c)
                    if c == JOKER and combo.kind == RUN:
                        canon.append("X=" + card_str(card_at(combo.key, pos)))
                    else:
                        canon.append(card_str(c))
                    del pending[i]
                    progress = True
                    break
            if not progress:
                text, name = pending[0]
                shown = the_card(parse_card(text)) if name is None else the_card(
                    JOKER, shown=f"X={card_symbol(parse_card(name))}")
                rule = "R2.3" if shifting else "R4.4"
                if shifting and not removed:
                    raise IllegalActionError(rule, Msg("after moving the joker ({combo}), {card} does not fit: the "
                                                       "player must at once play a card that fits the sequence",
                                                       combo=str(combo), card=shown))
                raise IllegalActionError(rule, Msg("{card} does not fit {combo}", card=shown,
                                                   combo=before if not removed else str(combo)))
        return combo, removed, tuple(canon)
