"""A person's moves as he types or selects them: the notation or words read for a seat, and the
legal actions his selected cards make."""

from __future__ import annotations

import re
from collections.abc import Sequence

from conquian.engine.actions import Action, meld_text, parse_action
from conquian.engine.cards import card_str, mask_of
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.errors import ConquianError
from conquian.present import named_cards
from conquian.session.state import SessionState


class SessionMoves(SessionState):
    """Reading a person's moves: typed (:meth:`read_move`) or selected (:meth:`actions_from_selection`)."""

    def read_move(self, action: Action | str, seat: int) -> Action:
        """A move as a person types it, for ``seat``: the notation, or the words of the move list in
        English or Spanish, cards in the notation, symbols or words (:func:`conquian.typed.notation_of`).

        ```pycon
        >>> from conquian import get_rules
        >>> from conquian.session import GameSession
        >>> s = GameSession(get_rules("conquian"), seats=["human", "foster"], names=["Ann", "Bob"])
        >>> str(s.read_move("pagar con la sota de espadas", 1)), str(s.read_move("bajar 7♣ 8♣ 9♣", 1))
        ('p1 discard Js', 'p1 use 7c 8c 9c')

        ```
        """
        if isinstance(action, Action):
            return action
        from conquian.i18n import languages, translator
        from conquian.typed import notation_of

        forms = [{name, *forms} for name, *forms in zip(
            self.names or [], *(self.names_for_seats(translator(lang)) for lang in languages()), strict=True)]
        card = getattr(self.deal, "card", -1)
        in_play = card_str(card) if isinstance(card, int) and card >= 0 else None
        text = str(action).strip()
        if not re.match(r"p\d+\s", text):  # a seat written: the notation, read as it is
            text = notation_of(text, self.rules.family, forms, in_play)
        return seated_action(text, seat)

    def actions_from_selection(self, cards: Sequence[int]) -> list[Action]:
        """Legal actions built from selected hand cards, for forms the listing does not show
        (a four-card use, a use with a rearrangement, a four-card meld, several cards added at
        once): each candidate is checked by the engine, so every one offered is legal."""
        deal = self.deal
        seat = deal.to_act
        if seat is None or not cards:
            return []
        text = " ".join(card_str(c) for c in cards)
        candidates: list[str] = []
        if isinstance(deal, ConquianDeal | MexicanoDeal):
            if isinstance(deal, MexicanoDeal) and deal.phase == "exchange" and len(cards) == 1:
                candidates.append(f"give {text}")
            if deal.card >= 0:
                p = deal.player_of(seat)
                tbl = deal.tbl
                new = mask_of(cards) | 1 << deal.card
                part = tbl.partition(new)
                if part:
                    candidates.append("use " + " | ".join(meld_text(m) for m in part))
                whole = tbl.partition(deal.downs[p] | new)
                if whole:
                    changed = [m for m in whole if m not in deal.sides[p]]
                    candidates.append("use " + " | ".join(meld_text(m) for m in changed))
            if len(cards) == 1:
                candidates += [f"discard {text}", f"force {text}"]
                if isinstance(deal, MexicanoDeal) and deal.n > 2:  # R8.4: the force names its target
                    candidates += [f"force {text} p{t}" for t in deal.seats if t != seat]
        else:
            candidates.append(f"meld {text}")
            for k in range(1, len(deal.combos) + 1):
                candidates += [f"add {k} {text}", f"shift {k} {text}"]
            if len(cards) == 1:
                candidates.append(f"discard {text}")
        out: list[Action] = []
        for c in candidates:
            try:
                a = parse_action(f"p{seat} {c}")
            except ConquianError:
                continue
            if deal.is_legal(a) and str(a) not in {str(x) for x in out}:
                out.append(a)
        return out


def seated_action(action: Action | str, seat: int) -> Action:
    """An action, read from text that may leave out the seat (``"use 7c 8c 9c"`` by ``seat``).

    ```pycon
    >>> str(seated_action("pass", 2)), str(seated_action("p1 pass", 2))
    ('p2 pass', 'p1 pass')

    ```
    """
    if isinstance(action, Action):
        return action
    text = str(action).strip()
    first = text.split(None, 1)[0].lower() if text else ""
    if not re.fullmatch(r"p\d+", first):  # "pass" is a verb, not a seat
        text = f"p{seat} {text}"
    return parse_action(text)


def action_cards(action: Action) -> list[str]:
    """The cards an action names, in notation (for matching a selection of cards: a joker is ``X``)."""
    return [t.split("=")[0] for t in named_cards(action)]
