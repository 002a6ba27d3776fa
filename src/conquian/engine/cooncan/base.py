"""What a Cooncan deal holds and what it shows: :class:`CooncanBase`, the state's fields and every
reading of them (the hands, the phase, the history, the actions played, the scores, a seat's view).

:class:`~conquian.engine.cooncan.deal.CooncanDeal` plays on this base: its checks
(:mod:`~conquian.engine.cooncan.checks`), its listing and its moves (:mod:`~conquian.engine.cooncan.deal`).
"""

from __future__ import annotations

from collections.abc import Sequence

from conquian.engine.actions import Action, Add, Discard, Draw, Meld, Shift, Take
from conquian.engine.cards import JOKER, card_str, cards_of, sort_key
from conquian.engine.cooncan.events import CooncanEvent, _Cards, _cards, cooncan_events
from conquian.engine.cooncan.listing import OVER, STAGE_NAMES
from conquian.engine.cooncan.melds import Combo
from conquian.engine.cooncan.view import CooncanView
from conquian.engine.deal import CardRow, DealMixin
from conquian.engine.errors import IllegalActionError, quote
from conquian.engine.history import newest_first
from conquian.engine.rules import Rules
from conquian.engine.scoring import pip_value
from conquian.i18n import Msg


class CooncanBase(DealMixin):
    """A Cooncan deal's fields (kept in :class:`~conquian.engine.cooncan.deal.CooncanDeal`'s slots) and
    their readings."""

    __slots__ = (
        "_deck", "_pack", "combos", "dealer", "double", "drawn", "h1", "h2", "hj", "laid", "laid_before", "n",
        "n_actions", "n_turns",
        "pack_turns", "pos", "rules", "splash", "stage", "stock", "taken", "turn", "void", "winner",
    )

    rules: Rules
    double: bool
    n: int
    dealer: int
    _deck: bytes
    """The deck as dealt, top card first, one byte a card."""
    h1: list[int]
    h2: list[int]
    hj: list[int]
    _pack: bytes
    """The pack face down, ``_pack[pos]`` its top card, one byte a card."""
    pos: int
    stock: tuple[int, ...]
    combos: tuple[Combo, ...]
    turn: int
    stage: int
    pack_turns: int
    laid: int
    laid_before: bool
    winner: int
    void: bool
    splash: bool
    drawn: list[_Cards]
    """Each player's draws from the pack, newest first (only he sees them)."""
    n_events: int
    n_actions: int
    n_turns: int
    taken: int
    """The card taken from the stock this turn, or -1 (R1 ``discard_taken``)."""

    deck = CardRow("_deck", "The deck as dealt, top card first (what a record stores).")
    pack = CardRow("_pack", "The pack face down, ``pack[pos]`` its top card (turned over from the stock, R4.5).")

    # ---------------------------------------------------------------- hands
    def _give(self, p: int, c: int) -> None:
        if c == JOKER:
            self.hj[p] += 1
        elif self.h1[p] >> c & 1:
            self.h2[p] |= 1 << c
        else:
            self.h1[p] |= 1 << c

    def _take_from_hand(self, p: int, c: int) -> None:
        if c == JOKER:
            self.hj[p] -= 1
        elif self.h2[p] >> c & 1:
            self.h2[p] &= ~(1 << c)
        else:
            self.h1[p] &= ~(1 << c)

    def count_in_hand(self, seat: int, card: int) -> int:
        """How many of ``card`` a seat holds."""
        p = seat - 1
        if card == JOKER:
            return self.hj[p]
        return (self.h1[p] >> card & 1) + (self.h2[p] >> card & 1)

    def _player(self, seat: int) -> int:
        """A seat's index; :class:`IllegalActionError` (R1) for a seat the table does not have."""
        if type(seat) is not int or not 1 <= seat <= self.n:
            raise IllegalActionError("R1", Msg("there is no seat {seat} at this table of {n}", seat=quote(seat),
                                               n=self.n))
        return seat - 1

    def hand(self, seat: int) -> list[int]:
        """A seat's hand, sorted (duplicates repeated, jokers last).  Not for bots: use :meth:`view`."""
        p = self._player(seat)
        cards = cards_of(self.h1[p]) + cards_of(self.h2[p])
        return sorted(cards, key=sort_key) + [JOKER] * self.hj[p]

    def hand_size(self, seat: int) -> int:
        """How many cards a seat holds."""
        p = self._player(seat)
        return self.h1[p].bit_count() + self.h2[p].bit_count() + self.hj[p]

    # ---------------------------------------------------------- properties
    @property
    def over(self) -> bool:
        """Whether the deal has ended (a player out, or void)."""
        return self.stage == OVER

    @property
    def phase(self) -> str:
        """``draw`` (draw or take), ``play`` (lay out, add, shift, discard) or ``over``."""
        return STAGE_NAMES[self.stage]

    @property
    def to_act(self) -> int | None:
        """The seat to act, or None."""
        return None if self.stage == OVER else self.turn + 1

    @property
    def winner_seat(self) -> int | None:
        """The seat that went out, or None."""
        return None if self.winner < 0 else self.winner + 1

    @property
    def pack_count(self) -> int:
        """Cards face down in the pack."""
        return len(self._pack) - self.pos

    @property
    def stock_top(self) -> int | None:
        """The top card of the stock (the last discard), if any."""
        return self.stock[-1] if self.stock else None

    @property
    def tableau(self) -> bool:
        """Conquian's tie does not exist in Cooncan (a void deal is :attr:`void`)."""
        return False

    def history(self, seat: int | None = None) -> list[CooncanEvent]:
        """The events so far, oldest first; with ``seat``, other seats' draws from the pack hide their card."""
        drawn = dict(enumerate(self.drawn)) if seat is None else {seat - 1: self.drawn[seat - 1]}
        return list(cooncan_events(self.events, drawn))

    def recent_events(self, count: int, seat: int | None = None) -> list[CooncanEvent]:
        """The last ``count`` events, oldest first, as :meth:`history` gives them, without walking the
        whole history (an interface logs each move's events)."""
        raw = list(newest_first(self.events, count))
        players = range(self.n) if seat is None else (seat - 1,)
        cards: dict[int, list[int]] = {}
        for p in players:
            cards[p] = _cards(self.drawn[p], sum(1 for ev in raw if ev[0] == "draw" and ev[1] == p))
        out = []
        for ev in reversed(raw):
            card = ev[2]
            if ev[0] == "draw" and ev[1] in cards:
                card = cards[ev[1]].pop()
            out.append(CooncanEvent(ev[0], ev[1] + 1, card, ev[3], ev[4], ev[5], ev[6]))
        return out

    def actions(self) -> list[Action]:
        """The actions played so far (what a record stores)."""
        out: list[Action] = []
        open_stock = self.rules.stock == "open"
        for e in self.history():
            if e.kind == "draw":
                out.append(Draw(e.seat))
            elif e.kind == "take":
                out.append(Take(e.seat, e.card if open_stock else None))
            elif e.kind == "meld":
                out.append(Meld(e.seat, e.cards))
            elif e.kind == "add":
                assert e.combo is not None
                out.append(Add(e.seat, e.combo, e.cards))
            elif e.kind == "shift":
                assert e.combo is not None
                out.append(Shift(e.seat, e.combo, e.which, e.cards))
            elif e.kind == "discard":
                assert e.card is not None
                out.append(Discard(e.seat, e.card))
        return out

    # ----------------------------------------------------------------- scores
    def pips(self, seat: int) -> int:
        """The pip value of a seat's hand (R2.4)."""
        return sum(pip_value(c) for c in self.hand(seat))

    def scores(self, pool: int | Sequence[int] = 0) -> list[int] | None:
        """Scores per seat once over (R5.2, R5.3): each loser pays the winner his pips, plus the
        splash bonus; a void deal scores nothing.  ``pool`` is unused (conquian's tableaux)."""
        if self.stage != OVER:
            return None
        out = [0] * self.n
        if self.winner < 0:
            return out
        bonus = self.rules.splash_bonus if self.splash else 0
        for p in range(self.n):
            if p != self.winner:
                pay = self.pips(p + 1) + bonus
                out[p] = -pay
                out[self.winner] += pay
        return out

    def view(self, seat: int) -> CooncanView:
        """What ``seat`` may know.  Bots get only this."""
        p = self._player(seat)
        n = self.n
        h1, h2, hj, laid, stage = self.h1, self.h2, self.hj, self.laid, self.stage
        v = object.__new__(CooncanView)
        # a frozen dataclass's __init__ sets each field through object.__setattr__; filling the
        # instance's dict at once is the same object, several times cheaper (views are made at every
        # decision of every bot and environment); the sorted hand is made when first read
        v.__dict__.update(
            rules=self.rules,
            seat=seat,
            dealer=self.dealer,
            h1=h1[p],
            h2=h2[p],
            jokers=hj[p],
            combos=self.combos,
            stock=self.stock,
            pack_count=len(self._pack) - self.pos,
            pack_turns=self.pack_turns,
            hand_counts=tuple([h1[q].bit_count() + h2[q].bit_count() + hj[q] for q in range(n)]),
            stage=stage,
            actor_seat=None if stage == OVER else self.turn + 1,
            n_events=self.n_events,
            winner_seat=None if self.winner < 0 else self.winner + 1,
            void=self.void,
            laid=tuple([laid >> q & 1 == 1 for q in range(n)]),
            taken=self.taken,
            event_node=self.events,
            drawn_node=self.drawn[p],
        )
        return v

    def __str__(self) -> str:
        lines = []
        for s in range(1, self.n + 1):
            lines.append(f"p{s} hand: {' '.join(card_str(c) for c in self.hand(s))}")
        for i, c in enumerate(self.combos, 1):
            lines.append(f"{i}. {c.display()} (p{c.owner})")
        stock = " ".join(card_str(c) for c in self.stock) or "-"
        lines.append(f"stock: {stock}; pack {self.pack_count}; turned over {self.pack_turns}")
        if self.stage == OVER:
            lines.append("over: " + ("void" if self.void else f"p{self.winner_seat} is out"))
        else:
            lines.append(f"p{self.to_act} to {self.phase}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<CooncanDeal {self.rules.name} {self.n} hands dealer=p{self.dealer} {self.phase}>"
