"""Helpers shared by the tests: build deals from named hands."""

from __future__ import annotations

from conquian import ConquianDeal, get_rules, parse_cards
from conquian.deck import arrange_deck


def make_deal(pone: str, other: str, pack: str = "", variant: str = "conquian", dealer: int = 2,
              **options: object) -> ConquianDeal:
    """A deal in which the pone (the seat after ``dealer``) holds ``pone`` and the other hand ``other``."""
    rules = get_rules(variant, **options)
    deck = arrange_deck(rules, [parse_cards(pone), parse_cards(other)], parse_cards(pack))
    return ConquianDeal(rules, deck, dealer=dealer)


def play_all(deal: ConquianDeal, actions: str) -> None:
    """Play actions given one per line."""
    for line in actions.strip().splitlines():
        if line.strip():
            deal.play(line.strip())


def legal(deal: ConquianDeal) -> list[str]:
    """The listed legal actions as text."""
    return [str(a) for a in deal.legal_actions()]
