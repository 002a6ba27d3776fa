"""A seat's view of a conquian deal: exactly what that seat may know.

Bots and interfaces only ever receive a :class:`ConquianView`.  It is built by
copying the public facts and the seat's own hand out of the deal; it holds no
reference to the deal, so the adversary's hand and the order of the pack are
not reachable from it (tested in ``tests/test_view.py``).

```pycon
>>> from conquian import ConquianDeal, get_rules
>>> deal = ConquianDeal(get_rules("conquian"), seed=3, dealer=2)
>>> v = deal.view(1)
>>> len(v.hand), v.pack_count, v.adversary_hand_count, v.to_act
(10, 19, 10, 1)
>>> [str(a) for a in v.legal_actions()] == [str(a) for a in deal.legal_actions()]
True
>>> three = ConquianDeal(get_rules("conquian", players=3), seed=3, dealer=3)
>>> out = three.view(3)                  # the dealer sits out (R6.3): a spectator's view
>>> out.sitting_out, len(out.hand), out.hand_counts, out.legal_actions()
(True, 0, (10, 10), [])

```
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from conquian.engine.actions import Action
from conquian.engine.conquian.base import ConquianFamilyView
from conquian.engine.conquian.events import Event, raw_to_action, seat_events
from conquian.engine.conquian.listing import DISCARD, FORCED, OVER, PHASE_NAMES, RawAction, legal_raw
from conquian.engine.deal import entry, listing
from conquian.engine.errors import IllegalActionError
from conquian.engine.history import Events
from conquian.engine.rules import Rules
from conquian.i18n import Msg


@dataclass(frozen=True, eq=False)
class ConquianView(ConquianFamilyView):
    """What one seat knows of a conquian deal (R3): nothing hidden from it is here.

    A seat that sits out the deal (three at the table, R6.3: the dealer takes no cards) has a
    view too: what a spectator sees, the public table and no hand (``hand_mask`` 0,
    ``sitting_out`` true, no legal actions; ``player``, ``adversary``, ``my_side`` and
    ``adversary_side`` have no meaning for it and raise).

    The public history is shared with the deal (an immutable linked list holding nothing
    hidden), so making a view costs the same at the first turn and the thousandth; ``events``
    turns it into :class:`~conquian.engine.conquian.deal.Event` values when first asked for.
    """

    rules: Rules
    seat: int
    """The seat whose view this is."""
    dealer: int
    seats: tuple[int, int]
    """The two seats holding cards: (pone, other)."""
    hand_mask: int
    """This seat's own hand (0 for a seat that sits out)."""
    side_masks: tuple[tuple[int, ...], tuple[int, ...]]
    """Both sides of the table, in the order of ``seats``."""
    card: int
    """The card in play, or -1."""
    stage: int
    actor_seat: int | None
    """The seat to act, or None when the deal is over."""
    pack_count: int
    adversary_hand_count: int
    """How many cards the adversary holds (0 for a seat that sits out: see ``hand_counts``)."""
    buried_mask: int
    """Every card buried so far (seen by both before being turned down)."""
    n_events: int
    """How many public events the deal has had (the length of ``events``)."""
    winner_seat: int | None
    hand_counts: tuple[int, int] = (0, 0)
    """How many cards each of ``seats`` holds (public: every card taken in or laid is seen)."""
    event_node: Any = field(default=None, repr=False)
    """The public history as the deal keeps it (newest first, linked); read ``events`` instead."""

    @cached_property
    def events(self) -> Events[Event]:
        """The public history: every card turned, passed, buried, used, forced, discarded (an
        immutable sequence, oldest first, shared with the later views of the deal)."""
        return seat_events(self.event_node, self.seats)


    # -------------------------------------------------------------- accessors
    @property
    def sitting_out(self) -> bool:
        """Whether this seat sits out the deal (three at a conquian table: the dealer, R6.3)."""
        return self.seat not in self.seats

    @property
    def player(self) -> int:
        """This seat's index in ``seats`` (0 for the pone); IllegalActionError (R6.3) if it sits out."""
        if self.seat == self.seats[0]:
            return 0
        if self.seat == self.seats[1]:
            return 1
        raise IllegalActionError("R6.3", Msg("{seat} sits out this deal and holds no cards", seat=f"p{self.seat}"))

    @property
    def adversary(self) -> int:
        """The adversary's seat."""
        return self.seats[1 - self.player]

    @property
    def adversary_side(self) -> tuple[int, ...]:
        """The adversary's combinations (masks)."""
        return self.side_masks[1 - self.player]

    def unseen_mask(self) -> int:
        """Cards this seat has not seen: in the adversary's hand (both hands, sitting out) or in the pack."""
        seen = self.hand_mask | self.down_mask(0) | self.down_mask(1) | self.buried_mask
        if self.card >= 0:
            seen |= 1 << self.card
        return self.table.pack_mask & ~seen

    def legal_raw(self) -> list[RawAction]:
        """The listed legal actions as raw tuples, when this seat is to act."""
        if self.actor_seat != self.seat:
            return []
        p = self.player
        return legal_raw(
            self.table, self.stage, self.card, self.hand_mask, self.side_masks[p],
            self.down_mask(p), self.side_masks[1 - p],
        )

    def legal_actions(self) -> list[Action]:
        """The listed legal actions when this seat is to act (as the deal lists them)."""
        # the actions are shared with every other view of this seat's (a context of the views' own)
        made = lambda raw: entry(raw, raw_to_action(self.seat, raw))  # noqa: E731
        return [e[1] for e in listing(-self.seat, self.legal_raw(), made)]

    # the variant's stages, which ConquianFamilyView reads
    OVER_STAGE = OVER
    FORCED_STAGE = FORCED
    DISCARD_STAGE = DISCARD
    PHASE_NAMES = PHASE_NAMES
