"""The exchange of the conquián mexicano (R8.2) in the terminal: the status line while it lasts
and, after it, what the seat on the screen gave and got (from its own view only)."""

from __future__ import annotations

from collections.abc import Callable

from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.i18n import Msg, _, render
from conquian.session import GameSession

__all__ = ["exchange_note", "exchange_status"]


def exchange_status(session: GameSession, seat: int | None) -> str:
    """The status during the exchange (R8.2), for ``seat`` (the seat on the screen): choose a card
    to give, or wait for the others; "" otherwise."""
    deal = session.deal
    if not isinstance(deal, MexicanoDeal) or deal.phase != "exchange" or seat is None:
        return ""
    if deal.to_act == seat:
        to = deal.seats[(deal.player_of(seat) + 1) % deal.n]
        return _("Choose a card to give to {name}").format(name=render(session.person(to)))
    if deal.view(seat).gave is not None:
        return _("Waiting for the others (the exchange)")
    return ""


def exchange_note(session: GameSession, seat: int | None, card_words: Callable[[int], Msg]) -> str:
    """After the exchange, for ``seat`` only (from its own view): what it gave, to whom, and what it
    got, from whom (R8.2), each card in ``card_words`` (the pack on the screen); "" otherwise."""
    deal = session.deal
    if not isinstance(deal, MexicanoDeal) or seat is None or deal.over:
        return ""
    view = deal.view(seat)
    if view.gave is None or view.got is None:
        return ""
    p = deal.player_of(seat)
    to, by = session.person(deal.seats[(p + 1) % deal.n]), session.person(deal.seats[(p - 1) % deal.n])
    cards = {"gave": card_words(view.gave), "got": card_words(view.got)}
    if session.is_you(seat):
        return render(Msg("You gave {gave} to {to} and got {got} from {by}", to=to, by=by, **cards))
    return render(Msg("{who} gave {gave} to {to} and got {got} from {by}", who=session.person(seat), to=to, by=by,
                      **cards))
