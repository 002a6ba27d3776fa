"""What the conquian family's deals and views share: :class:`ConquianFamilyDeal`, the accessors
read the same way from the state of :class:`~conquian.engine.conquian.deal.ConquianDeal` (R3)
and :class:`~conquian.engine.conquian.mexicano.MexicanoDeal` (R8), and
:class:`ConquianFamilyView`, the same for their views."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

from conquian.engine.actions import meld_text
from conquian.engine.cards import CardSet
from conquian.engine.conquian.melds import MeldTable, meld_table
from conquian.engine.deal import DealMixin
from conquian.engine.rules import Rules
from conquian.i18n import Msg


class ConquianFamilyDeal(DealMixin):
    """A deal whose players each hold a hand and a side of combinations, with one card in play
    at most: internal players ``0..n-1``, ``seats`` their seat numbers, hands and combinations as
    card masks, the pack ``deck[pos:]``."""

    __slots__ = ("_deck",)

    seats: tuple[int, ...]
    _deck: bytes
    """The deck, top card first, one byte a card (a stored deal holds 40 bytes, not 40 pointers)."""
    pos: int
    hands: list[int]
    sides: list[tuple[int, ...]]
    card: int
    winner: int

    @property
    def deck(self) -> tuple[int, ...]:
        """The whole pack as dealt, top card first (what a record stores)."""
        return tuple(self._deck)

    @deck.setter
    def deck(self, cards: Sequence[int]) -> None:
        self._deck = bytes(cards)

    def player_of(self, seat: int) -> int:
        """The internal player index of a seat (each deal says how it numbers them)."""
        raise NotImplementedError

    @property
    def card_in_play(self) -> int | None:
        """The face-up card in play (turned, passed, discarded or forced), if any."""
        return None if self.card < 0 else self.card

    @property
    def winner_seat(self) -> int | None:
        """The winning seat, or ``None``."""
        return None if self.winner < 0 else self.seats[self.winner]

    @property
    def pack_count(self) -> int:
        """Cards left face down in the pack."""
        return len(self._deck) - self.pos

    def hand(self, seat: int) -> CardSet:
        """The cards in a seat's hand (not for bots: they get :meth:`view`)."""
        return CardSet(self.hands[self.player_of(seat)])

    def side(self, seat: int) -> tuple[CardSet, ...]:
        """A seat's combinations on the table."""
        return tuple(CardSet(m) for m in self.sides[self.player_of(seat)])

    def _side_text(self, p: int) -> str:
        return " | ".join(meld_text(m) for m in self.sides[p]) or "nothing"

    def _side_words(self, p: int) -> str | Msg:
        """A player's side for a message: its combinations in notation, or "nothing" in words."""
        return " | ".join(meld_text(m) for m in self.sides[p]) or Msg("nothing")


class ConquianFamilyView:
    """What a seat's view of either conquian deal reads the same way (its fields are the views'
    own: :class:`~conquian.engine.conquian.view.ConquianView`,
    :class:`~conquian.engine.conquian.mexicano_view.MexicanoView`)."""

    rules: Rules
    side_masks: tuple[tuple[int, ...], ...]
    card: int
    actor_seat: int | None

    @property
    def card_in_play(self) -> int | None:
        """The face-up card in play, if any."""
        return None if self.card < 0 else self.card

    @property
    def to_act(self) -> int | None:
        """The seat to act."""
        return self.actor_seat

    @cached_property
    def table(self) -> MeldTable:
        """The meld table of the pack (the deal gives it to the views it makes)."""
        return meld_table(self.rules)

    def down_mask(self, player: int) -> int:
        """All cards on one side of the table (by player index)."""
        m = 0
        for x in self.side_masks[player]:
            m |= x
        return m
