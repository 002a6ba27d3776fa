"""A seat's legal moves as the page offers them: each move's notation (what the page sends back),
its words on a button, the cards it uses and the places of the table it goes to.

The page never reads the notation: it shows ``words`` (``words_suits`` beside the Spanish pack's
own suits, R8.1), highlights ``cards``, offers a move where the player tapped when the tapped
place is in ``places`` and offers the ``choice`` moves with nothing selected (the say's and the
draw's choices, R3.3, R4.3).  Only the seat to act receives its moves (its own snapshot): nothing
here is sent to another seat.

```pycon
>>> from conquian import get_rules
>>> from conquian.web.table import Table
>>> from conquian.i18n import translator
>>> from conquian.present import order_moves
>>> t = Table("t1", "Friday", get_rules("conquian"), seed=5)
>>> _ = t.sit(1, "Ann"); t.set_bot(2, "foster", host=True)
>>> session = t.session
>>> view = session.deal.view(1)
>>> legal = order_moves(view.legal_actions(), view.phase)
>>> [m["words"] for m in offered_moves(session, view, 1, legal)]
['Pass the 10♣', 'Lay 8♣ 9♣ 10♣']
>>> [m["words"] for m in offered_moves(session, view, 1, legal, translator("es"))]
['Pasar el 10♣', 'Bajar 8♣ 9♣ 10♣']
>>> offered_moves(session, view, 1, legal)[1]["places"]
['play', 'side:1']

```
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from conquian.engine.actions import Action, Add, Discard, Draw, Force, Give, Meld, Pass, Shift, Take, Use, meld_text
from conquian.engine.cards import card_str, parse_card
from conquian.engine.conquian.mexicano_view import MexicanoView
from conquian.engine.conquian.view import ConquianView
from conquian.engine.cooncan.view import CooncanView
from conquian.i18n import ENGLISH, CMsg, Msg, Translator
from conquian.present import (
    ARTICLE_CONTEXTS,
    SPANISH_ARTICLE_CONTEXTS,
    Joined,
    spanish_card_words,
    spanish_pack,
    symbols,
)
from conquian.session import GameSession

View = ConquianView | CooncanView | MexicanoView

class PageCard(Msg):
    """A card of a move as the page draws it: ``7♠``, ``10♥``; beside the Spanish pack's own suits
    (``spanish`` and the reader's :attr:`~conquian.i18n.Translator.spanish_suits`) ``7 de copas``;
    a joker "joker", a named one "joker as 7♠"."""

    __slots__ = ("spanish", "token")

    def __init__(self, token: str, spanish: bool) -> None:
        super().__init__("{card}", token=token, spanish=spanish)
        self.token = token
        self.spanish = spanish

    def render(self, tr: Translator | None = None) -> str:
        """The card in ``tr``'s language and pack."""
        tr = tr or ENGLISH
        named = _named(self.token)
        if named is not None:
            return tr.render(Msg("joker as {card}", card=PageCard(named, self.spanish)))
        if self.token.startswith("X"):
            return tr.render(Msg("joker"))
        if self.spanish and tr.spanish_suits:
            return spanish_card_words(parse_card(self.token))
        return symbols(card_str(parse_card(self.token)))


class TheCard(Msg):
    """A card of a move in a sentence, with its article in the reader's language: "the 7♠", "la sota
    de espadas", "el comodín como 9♥" (the article's context by the card as drawn)."""

    __slots__ = ("spanish", "token")

    def __init__(self, token: str, spanish: bool) -> None:
        super().__init__("the {card}", token=token, spanish=spanish)
        self.token = token
        self.spanish = spanish

    def render(self, tr: Translator | None = None) -> str:
        """The card with its article in ``tr``'s language and pack."""
        tr = tr or ENGLISH
        card = PageCard(self.token, self.spanish)
        if self.token.startswith("X"):
            return tr.render(CMsg(ARTICLE_CONTEXTS["joker"], "the {card}", card=card))
        rank = card_str(parse_card(self.token))[0]
        shown = self.spanish and tr.spanish_suits
        contexts = SPANISH_ARTICLE_CONTEXTS if shown else ARTICLE_CONTEXTS
        context = contexts.get(rank, contexts["number"])
        return tr.render(CMsg(context, "the {card}", card=card))


def _named(token: str) -> str | None:
    # a joker standing for a card: "X=7c" in the notation, "X(7c)" as a combination shows it
    if token.startswith(("X=", "X(")) and len(token) > 2:
        return token[2:].rstrip(")*")
    return None


def _cards(tokens: Sequence[str], spanish: bool) -> Msg:
    return Joined([PageCard(t, spanish) for t in tokens], " ")


def action_cards(action: Action) -> list[str]:
    """The cards a move uses, as the notation writes them (``X=7c`` for a named joker)."""
    if isinstance(action, Use):
        return [c for m in action.melds for c in meld_text(m).split()]
    if isinstance(action, Meld | Add | Shift):
        return list(action.cards)
    if isinstance(action, Discard | Force | Give):
        return [card_str(action.card)]
    if isinstance(action, Take) and action.card is not None:
        return [card_str(action.card)]
    return []


def _combo_words(tokens: list[str], spanish: bool) -> Msg:
    # a combination in a few words: every card, or the first and the last of a long one
    def short(t: str) -> str | Msg:
        return "★" if t.startswith("X") else PageCard(t, spanish)

    if len(tokens) <= 4:
        return Joined([short(t) for t in tokens], " ")
    return Joined([short(tokens[0]), short(tokens[-1])], "…")


def button_msg(session: GameSession, view: View, seat: int, action: Action, spanish: bool) -> Msg:
    """A move as its button reads: "Lay 7♠ 8♠ 9♠", "Discard the 2♣", "Force the 5♥ on Bea"."""
    card_in_play = getattr(view, "card", -1)
    to = session.move_target(action)
    if isinstance(action, Pass):
        if card_in_play is not None and card_in_play >= 0:
            return Msg("Pass {card}", card=TheCard(card_str(card_in_play), spanish))
        return Msg("Pass")
    if isinstance(action, Draw):
        return Msg("Draw from the pack")
    if isinstance(action, Take):
        top = action.card if action.card is not None else (view.stock[-1] if isinstance(view, CooncanView)
                                                           and view.stock else None)
        if top is None:
            return Msg("Take from the discard pile")
        return Msg("Take {card} from the discard pile", card=TheCard(card_str(top), spanish))
    if isinstance(action, Use):
        return Msg("Lay {cards}", cards=Joined([_cards(meld_text(m).split(), spanish) for m in action.melds], " + "))
    if isinstance(action, Meld):
        return Msg("Lay {cards}", cards=_cards(action.cards, spanish))
    if isinstance(action, Force):
        return Msg("Force {card} on {name}", card=TheCard(card_str(action.card), spanish),
                   name=session.person(to) if to is not None else "")
    if isinstance(action, Discard):
        return Msg("Discard {card}", card=TheCard(card_str(action.card), spanish))
    if isinstance(action, Give):
        return Msg("Give {card} to {name}", card=TheCard(card_str(action.card), spanish),
                   name=session.person(to) if to is not None else "")
    if isinstance(action, Add | Shift):
        combos = view.combos if isinstance(view, CooncanView) else ()
        combo = combos[action.combo - 1] if 0 < action.combo <= len(combos) else None
        what: str | Msg = _combo_words(combo.display().split(), spanish) if combo else str(action.combo)
        mine = combo is not None and combo.owner == seat
        name: str | Msg = session.person(combo.owner) if combo is not None else ""
        cards = _cards(action.cards, spanish)
        if isinstance(action, Shift):
            return (Msg("Move the joker of your {combo} and add {cards}", combo=what, cards=cards) if mine
                    else Msg("Move the joker of {name}'s {combo} and add {cards}", name=name, combo=what, cards=cards))
        return (Msg("Add {cards} to your {combo}", combo=what, cards=cards) if mine
                else Msg("Add {cards} to {name}'s {combo}", name=name, combo=what, cards=cards))
    return session.move_msg(action)


def action_places(session: GameSession, view: View, seat: int, action: Action) -> list[str]:
    """The places of the table a move goes to, as the page names a place tapped or a card dropped
    on: ``play`` (the card in play), ``pack``, ``stock``, ``combo:N``, ``side:S`` (a seat's side)."""
    card_in_play = getattr(view, "card", -1)
    in_play = isinstance(action, Force) and card_in_play is not None and card_in_play >= 0 \
        and action.card == card_in_play
    places: list[str] = []
    if view.phase == "discard":
        if isinstance(action, Discard):
            places.append("play")
    elif isinstance(action, Use | Pass) or in_play:
        places.append("play")
    if isinstance(action, Draw):
        places.append("pack")
    if isinstance(action, Take | Discard):
        places.append("stock")
    if isinstance(action, Add | Shift):
        places.append(f"combo:{action.combo}")
    if isinstance(action, Use):
        places.append(f"side:{seat}")
    if isinstance(action, Force):
        to = session.move_target(action)
        if to is not None and to != seat:
            places.append(f"side:{to}")
    return places


def is_choice(view: View, action: Action) -> bool:
    """Whether a move is one of the say's or the draw's choices, offered with nothing selected
    (R3.3, R4.3): a pass, a draw, a take, a force of the card in play."""
    if isinstance(action, Pass | Draw | Take):
        return True
    card_in_play = getattr(view, "card", -1)
    return (isinstance(action, Force) and view.phase != "discard" and card_in_play is not None
            and card_in_play >= 0 and action.card == card_in_play)


def offered_moves(session: GameSession, view: View, seat: int, actions: Sequence[Action],
                  tr: Translator = ENGLISH) -> list[dict[str, Any]]:
    """``actions`` (moves of ``seat``, the one to act), in their order, each
    as the page shows and sends it: ``act`` (the notation the page sends back), ``words`` (its
    button, in ``tr``'s language; ``words_suits`` too beside the Spanish pack, R8.1), ``cards``
    (the card codes it uses), ``places`` and ``choice`` (:func:`action_places`, :func:`is_choice`)."""
    spanish = spanish_pack(session.rules)
    out: list[dict[str, Any]] = []
    for a in actions:
        msg = button_msg(session, view, seat, a, spanish)
        move: dict[str, Any] = {"act": session.action_words(a), "words": tr.render(msg), "cards": action_cards(a),
                                "places": action_places(session, view, seat, a), "choice": is_choice(view, a)}
        if spanish:
            move["words_suits"] = tr.shown(True).render(msg)
        out.append(move)
    return out
