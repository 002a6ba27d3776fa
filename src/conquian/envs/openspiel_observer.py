"""The observers of the OpenSpiel games (:mod:`conquian.envs.openspiel`): observation tensors
and strings from a seat's view, information-state strings with its whole history."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from conquian.engine.cards import JOKER, CardSet, card_str
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.conquian.mexicano_view import MexicanoView
from conquian.engine.conquian.view import ConquianView
from conquian.engine.cooncan.view import CooncanView
from conquian.envs.encoding import Obs

if TYPE_CHECKING:
    from conquian.envs.openspiel import ConquianGame, ConquianState


class Observer:
    """Observation tensors and strings from a seat's view; information-state strings (perfect
    recall) add the seat's whole history.  There is no information-state tensor: a fixed-size
    tensor of a seat's whole history would be as long as the longest deal, and the observation
    tensor is not perfect recall (``docs/research.md``).  Without ``private`` (a public
    observer) the seat's own cards are left out: the tensor's private ranges
    (:meth:`conquian.envs.encoding.Encoding.private_ranges`) are zero and the strings name no
    card of a hand; without ``public`` (a private observer) only those ranges are kept.

    At a three-seat conquian table the dealer sits out (R6.3): he holds no cards, and his
    observation is the public one seen from the first player's side of the table (the tensor's
    rows "the seat" are the first player's, with "the seat is to act" 0 and "the seat dealt" 1)."""

    def __init__(self, game: ConquianGame, perfect_recall: bool, private: bool = True, public: bool = True) -> None:
        self.game = game.data
        self.perfect_recall = perfect_recall
        self.private = private
        self.public = public
        self.tensor: Obs | None = None if perfect_recall else np.zeros(game.data.enc.obs_size, dtype=np.float32)
        self.dict: dict[str, Obs] = {} if self.tensor is None else {"observation": self.tensor}

    def _observed(self, state: ConquianState, player: int) -> tuple[Obs, bool]:
        """The seat's observation (public only without ``private``) and whether it sits out."""
        deal = state.deal
        assert deal is not None
        enc, seat = self.game.enc, player + 1
        if isinstance(deal, ConquianDeal) and seat not in deal.seats:
            out = enc.observe_public(deal.view(deal.seats[0]), state.public)
            out[-2], out[-1] = 0.0, 1.0  # not to act; dealt (R6.3: the dealer sits out)
            return (out if self.public else np.zeros_like(out)), True
        view = deal.view(seat)
        if not self.private:
            return enc.observe_public(view, state.public), False
        out = enc.observe(view, state.public)
        if not self.public:
            kept = np.zeros_like(out)
            for start, stop in enc.private_ranges():
                kept[start:stop] = out[start:stop]
            out = kept
        return out, False

    def set_from(self, state: ConquianState, player: int) -> None:
        if self.tensor is None:
            raise NotImplementedError("no information-state tensor (it would not be perfect recall): "
                                      "use the observation tensor or the information-state string")
        if state.deal is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = self._observed(state, player)[0]

    def string_from(self, state: ConquianState, player: int) -> str:
        if state.deal is None:
            return f"p{player + 1} waiting for the deal"
        deal = state.deal
        seat = player + 1
        view: ConquianView | CooncanView | MexicanoView
        out = seated = False
        if isinstance(deal, ConquianDeal) and seat not in deal.seats:
            view = deal.view(deal.seats[0])
            hand = "sits out"
            out = True
        else:
            view = deal.view(seat)
            seated = self.private
            hand = (str(view.hand) if isinstance(view, ConquianView | MexicanoView) else " ".join(
                "X" if c == JOKER else card_str(c) for c in view.hand)) if self.private else "hidden"
        if not self.perfect_recall:
            return f"p{seat} hand {hand} | {np.flatnonzero(self._observed(state, player)[0]).tolist()}"
        events = " ; ".join(str(e) for e in view.events)
        dealt = "-" if out else "hidden"
        if seated and isinstance(deal, ConquianDeal):
            p = deal.player_of(seat)
            deck = deal.deck
            first = [deck[i] for i in range(20) if (i >> 1) & 1 == p]
            dealt = str(CardSet(sum(1 << c for c in first)))
        elif seated and isinstance(deal, MexicanoDeal) and isinstance(view, MexicanoView):
            # R8.2: dealt one at a time from the first player after the dealer; the card the seat
            # gave, and the one it got once every seat has given
            p, n = deal.player_of(seat), deal.n
            deck = deal.deck
            first = [deck[i] for i in range(n * deal.rules.hand_size) if i % n == p]
            gave = card_str(view.gave_card) if view.gave_card >= 0 else "-"
            got = card_str(view.got_card) if view.got_card >= 0 else "-"
            dealt = f"{CardSet(sum(1 << c for c in first))} | gave {gave} got {got}"
        elif seated:
            dealt = " ".join("X" if c == JOKER else card_str(c) for c in sorted(_dealt_cooncan(deal, seat)))
        return f"p{seat} dealer p{deal.dealer} dealt {dealt} | {events} | hand {hand}"


def _dealt_cooncan(deal: Any, seat: int) -> list[int]:
    n, hs = deal.n, deal.rules.hand_size
    deck = deal.deck
    return [deck[k] for k in range(n * hs) if (deal.dealer + k) % n + 1 == seat]
