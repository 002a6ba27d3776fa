"""A seat's view of a conquián mexicano deal: exactly what that seat may know (R8).

Bots and interfaces only ever receive a :class:`MexicanoView`: the seat's own hand,
everything public (every side of the table, the card in play, the buried cards if the seat
saw them, the number of cards in each hand and in the pack, the public history), the card
it gave in the exchange and, once every seat has given, the card it got (R8.2).  Never
another seat's card given before the exchange is over, another hand, or the pack's order:
the view holds no reference to the deal (tested in ``tests/test_mexicano_properties.py``).

```pycon
>>> from conquian import get_rules
>>> from conquian.engine.conquian.mexicano import MexicanoDeal
>>> deal = MexicanoDeal(get_rules("conquian-mexicano", players=3), seed=3, dealer=3)
>>> v = deal.view(1)
>>> len(v.hand), v.hand_counts, v.phase, v.to_act, v.gave, v.got
(8, (8, 8, 8), 'exchange', 1, None, None)
>>> [str(a) for a in v.legal_actions()] == [str(a) for a in deal.legal_actions()]
True

```
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from conquian.engine.actions import Action
from conquian.engine.conquian.base import ConquianFamilyView
from conquian.engine.conquian.mexicano_events import MexicanoEvent, mexicano_seat_events, raw_to_action
from conquian.engine.conquian.mexicano_listing import DISCARD, FORCED, OVER, PHASE_NAMES, RawAction, legal_raw
from conquian.engine.deal import entry, listing
from conquian.engine.history import Events
from conquian.engine.rules import Rules


@dataclass(frozen=True, eq=False)
class MexicanoView(ConquianFamilyView):
    """What one seat knows of a conquián mexicano deal (R8): nothing hidden from it is here."""

    rules: Rules
    seat: int
    """The seat whose view this is."""
    dealer: int
    seats: tuple[int, ...]
    """Every seat in the order of play, the first after the dealer first (player indexes)."""
    hand_mask: int
    """This seat's own hand."""
    side_masks: tuple[tuple[int, ...], ...]
    """Every side of the table, in the order of ``seats``."""
    card: int
    """The card in play, or -1."""
    stage: int
    actor_seat: int | None
    """The seat to act, or None when the deal is over."""
    origin: int
    """The player index who turned or discarded the card in play (R8.3)."""
    first: int
    """The player index who had the first say to it (those after him, up to the actor, passed)."""
    pack_count: int
    hand_counts: tuple[int, ...]
    """Cards in each hand, in the order of ``seats``."""
    buried_mask: int
    """Every card buried so far (each seat saw it before it was turned down)."""
    gave_card: int
    """The card this seat gave in the exchange, or -1."""
    got_card: int
    """The card this seat got, once every seat has given (R8.2), or -1."""
    given: tuple[bool, ...]
    """Which players have given their card (public: each gives in turn, face down)."""
    n_events: int
    winner_seat: int | None
    event_node: Any = field(default=None, repr=False)
    """The public history as the deal keeps it (newest first, linked); read ``events`` instead."""

    @cached_property
    def events(self) -> Events[MexicanoEvent]:
        """The public history: cards given (not which), turned, passed, buried, used, forced, discarded
        (an immutable sequence, oldest first, shared with the later views of the deal)."""
        return mexicano_seat_events(self.event_node, self.seats)


    # -------------------------------------------------------------- accessors
    @property
    def player(self) -> int:
        """This seat's index in ``seats`` (0 for the first player after the dealer)."""
        return self.seats.index(self.seat)

    @property
    def gave(self) -> int | None:
        """The card this seat gave in the exchange (R8.2), if it has given."""
        return None if self.gave_card < 0 else self.gave_card

    @property
    def got(self) -> int | None:
        """The card this seat got in the exchange, once every seat has given (R8.2)."""
        return None if self.got_card < 0 else self.got_card

    def side_of(self, seat: int) -> tuple[int, ...]:
        """A seat's combinations (masks)."""
        return self.side_masks[self.seats.index(seat)]

    def unseen_mask(self) -> int:
        """Cards this seat has never seen: in other hands (but the one it gave) or in the pack."""
        seen = self.hand_mask | self.buried_mask
        for p in range(len(self.seats)):
            seen |= self.down_mask(p)
        for c in (self.card, self.gave_card):
            if c >= 0:
                seen |= 1 << c
        return self.table.pack_mask & ~seen

    def legal_raw(self) -> list[RawAction]:
        """The listed legal actions as raw tuples, when this seat is to act."""
        if self.actor_seat != self.seat:
            return []
        p = self.player
        return legal_raw(self.table, self.stage, p, self.card, self.hand_mask, self.side_masks, self.down_mask(p))

    def legal_actions(self) -> list[Action]:
        """The listed legal actions when this seat is to act (as the deal lists them)."""
        # the actions are shared with every other view of this seat's (a context of the views' own)
        made = lambda raw: entry(raw, raw_to_action(self.seats, self.player, raw))  # noqa: E731
        return [e[1] for e in listing(("view", self.seats, self.player), self.legal_raw(), made)]

    # the variant's stages, which ConquianFamilyView reads
    OVER_STAGE = OVER
    FORCED_STAGE = FORCED
    DISCARD_STAGE = DISCARD
    PHASE_NAMES = PHASE_NAMES
