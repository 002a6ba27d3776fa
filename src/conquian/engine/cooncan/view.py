"""A seat's view of a Cooncan deal: its own hand and everything public, nothing else.

Every public event is here (draws from the stock with their card, combinations,
jokers and their names, discards, the pack turned over); another seat's draw from
the pack shows only that it happened.  Other hands are counts; the pack is a count.

```pycon
>>> from conquian import get_rules
>>> from conquian.engine.cooncan.deal import CooncanDeal
>>> deal = CooncanDeal(get_rules("cooncan"), seed=2, dealer=3)
>>> v = deal.view(1)
>>> len(v.hand), v.hand_counts, v.pack_count, v.to_act
(7, (7, 7, 7), 31, 1)
>>> [str(a) for a in v.legal_actions()] == [str(a) for a in deal.legal_actions()]
True

```
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import Any

from conquian.engine.actions import Action
from conquian.engine.cards import JOKER, cards_of, sort_key
from conquian.engine.cooncan.events import CooncanEvent, raw_to_action, seat_events
from conquian.engine.cooncan.listing import DRAW, OVER, STAGE_NAMES, RawAction, draw_options, play_options
from conquian.engine.cooncan.melds import Combo
from conquian.engine.deal import entry, listing
from conquian.engine.history import Events
from conquian.engine.rules import Rules


@dataclass(frozen=True, eq=False)
class CooncanView:
    """What one seat knows of a Cooncan deal.

    The history is the deal's public linked list (whose draws from the pack carry no card) and
    this seat's own draws: nothing another seat drew is reachable from a view, and making one
    costs the same at any point of a deal.
    """

    rules: Rules
    seat: int
    dealer: int
    h1: int
    h2: int
    jokers: int
    combos: tuple[Combo, ...]
    """Every combination on the table, numbered from 1 in this order."""
    stock: tuple[int, ...]
    """The stock, oldest first (every card in it was discarded face up)."""
    pack_count: int
    pack_turns: int
    hand_counts: tuple[int, ...]
    """Cards held by each seat."""
    stage: int
    actor_seat: int | None
    n_events: int
    """How many events the deal has had (the length of ``events``)."""
    winner_seat: int | None
    void: bool
    laid: tuple[bool, ...]
    """Whether each seat has laid anything this deal (splash, R5.3)."""
    taken: int = -1
    """The card taken from the stock this turn when it may not be discarded (R1 ``discard_taken``), else -1."""
    event_node: Any = field(default=None, repr=False)
    """The public history as the deal keeps it (newest first, linked); read ``events`` instead."""
    drawn_node: Any = field(default=None, repr=False)
    """This seat's own draws from the pack (newest first, linked)."""

    @cached_property
    def hand(self) -> tuple[int, ...]:
        """This seat's cards, sorted, duplicates repeated, jokers (``JOKER``) last (made when first read)."""
        return tuple(sorted(cards_of(self.h1) + cards_of(self.h2), key=sort_key)) + (JOKER,) * self.jokers

    @cached_property
    def events(self) -> Events[CooncanEvent]:
        """Every event so far, oldest first; another seat's draw from the pack shows no card (an
        immutable sequence, shared with the later views of the deal)."""
        return seat_events(self.event_node, self.seat - 1, self.drawn_node)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(
            getattr(self, f.name) == getattr(other, f.name)
            for f in fields(self) if f.name not in ("event_node", "drawn_node")
        ) and self.events == other.events

    __hash__ = None  # type: ignore[assignment]

    @property
    def phase(self) -> str:
        """``draw``, ``play`` or ``over``."""
        return STAGE_NAMES[self.stage]

    @property
    def to_act(self) -> int | None:
        """The seat to act."""
        return self.actor_seat

    @property
    def over(self) -> bool:
        """Whether the deal is over."""
        return self.stage == OVER

    @property
    def stock_top(self) -> int | None:
        """The top of the stock."""
        return self.stock[-1] if self.stock else None

    def legal_raw(self) -> list[RawAction]:
        """The listed legal actions as raw tuples, when this seat is to act."""
        if self.actor_seat != self.seat:
            return []
        if self.stage == DRAW:
            return draw_options(self.stock, self.rules.stock == "open")
        return play_options(self.h1, self.h2, self.jokers, self.combos, self.rules.copies == 2, self.seat, self.taken)

    def legal_actions(self) -> list[Action]:
        """The listed legal actions when this seat is to act."""
        open_stock = self.rules.stock == "open"
        # the actions are shared with every other view of this seat's (a context of the views' own)
        made = lambda raw: entry(raw, raw_to_action(self.seat, raw, open_stock))  # noqa: E731
        return [e[1] for e in listing(-100 - 2 * (self.seat - 1) - open_stock, self.legal_raw(), made)]

    def count(self, card: int) -> int:
        """How many of a card this seat holds."""
        if card == JOKER:
            return self.jokers
        return (self.h1 >> card & 1) + (self.h2 >> card & 1)
