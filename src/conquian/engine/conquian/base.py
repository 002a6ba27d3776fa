"""What the deals of the conquian family share: :class:`ConquianFamilyDeal`, the accessors read
the same way from the state of :class:`~conquian.engine.conquian.deal.ConquianDeal` (R3) and
:class:`~conquian.engine.conquian.mexicano.MexicanoDeal` (R8)."""

from __future__ import annotations

from conquian.engine.actions import meld_text
from conquian.engine.cards import CardSet
from conquian.engine.deal import DealMixin


class ConquianFamilyDeal(DealMixin):
    """A deal whose players each hold a hand and a side of combinations, with one card in play
    at most: internal players ``0..n-1``, ``seats`` their seat numbers, hands and combinations as
    card masks, the pack ``deck[pos:]``."""

    __slots__ = ()

    seats: tuple[int, ...]
    deck: tuple[int, ...]
    pos: int
    hands: list[int]
    sides: list[tuple[int, ...]]
    card: int
    winner: int

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
        return len(self.deck) - self.pos

    def hand(self, seat: int) -> CardSet:
        """The cards in a seat's hand (not for bots: they get :meth:`view`)."""
        return CardSet(self.hands[self.player_of(seat)])

    def side(self, seat: int) -> tuple[CardSet, ...]:
        """A seat's combinations on the table."""
        return tuple(CardSet(m) for m in self.sides[self.player_of(seat)])

    def _side_text(self, p: int) -> str:
        return " | ".join(meld_text(m) for m in self.sides[p]) or "nothing"
