"""The conquián mexicano and the tercerilla (R8): the state of one deal.

A :class:`MexicanoDeal` holds one deal of ``conquian-mexicano`` from the deal to a win or a
draw, for two, three or four players.  It is conquian (R3) round a table: the same uses of
a card (R3.4, with the family's meld table and use listing), the say going round every player
(R8.3), forcing on any other player (R8.4), going out with ``hand + 1`` down (R8.5); before
the first card, the exchange (R8.2).  Every public method checks the rules (R7): an illegal
action raises :class:`~conquian.engine.errors.IllegalActionError` naming the rule and leaves
the state exactly as it was.

Internally the players are indexes 0 to n-1 in the order of play, 0 the first after the
dealer (the dealer is n-1); the public API speaks of seats ``p1, p2, ...``.  As in
:class:`~conquian.engine.conquian.deal.ConquianDeal`, card sets are int bitmasks, the deck is
shared between copies and the public history is a persistent linked list, so :meth:`copy`
is cheap.

```pycon
>>> from conquian import get_rules
>>> deal = MexicanoDeal(get_rules("conquian-mexicano", players=3), seed=7, dealer=3)
>>> deal.phase, deal.to_act, len(deal.legal_actions())   # p1 gives first: any of his 8 cards
('exchange', 1, 8)
>>> before = deal.copy()
>>> deal.play("p2 pass")
Traceback (most recent call last):
...
conquian.engine.errors.IllegalActionError: R8.2: it is p1's turn to give a card in the exchange, not p2's
>>> deal == before, deal.phase   # untouched: still the exchange
(True, 'exchange')
>>> for seat in (1, 2, 3):
...     _ = deal.play(deal.legal_actions()[0])
>>> deal.phase, deal.to_act, deal.pack_count   # p1 turned the first card
('say', 1, 15)

```
"""

from __future__ import annotations

from typing import Any, Final

from conquian.engine.actions import Action, Force, Give, Use
from conquian.engine.cards import card_str, the_card
from conquian.engine.conquian.base import ConquianFamilyDeal
from conquian.engine.conquian.mexicano_events import (
    ACTION_KINDS,
    MexicanoEvent,
    event_action,
    mexicano_events,
    raw_to_action,
)
from conquian.engine.conquian.mexicano_listing import (
    DISCARD,
    EXCHANGE,
    FORCE_SHIFT,
    FORCED,
    K_DISCARD,
    K_FORCE,
    K_GIVE,
    K_PASS,
    K_USE,
    OVER,
    PHASE_NAMES,
    SAY,
    RawAction,
    legal_raw,
)
from conquian.engine.conquian.mexicano_view import MexicanoView
from conquian.engine.conquian.uses import check_use
from conquian.engine.deal import Entry, entry, flatten, shared_tuple
from conquian.engine.errors import IllegalActionError
from conquian.engine.rules import MEXICANO
from conquian.i18n import N_, Msg

#: Every event without combinations or target, made once (four players at most, R8.1):
#: kind -> player -> card (64: none) -> event.
_EVENTS: Final = {kind: [[(kind, p, None if c == 64 else c, (), -1) for c in range(65)] for p in range(4)]
                  for kind in ("turn", "pass", "bury", "discard")}
_EVENTS.update({kind: [[(kind, p, None, (), -1)] * 65 for p in range(4)]
                for kind in ("win", "tableau", "fewest", "give", "exchange")})


class MexicanoDeal(ConquianFamilyDeal):
    """One deal of the conquián mexicano (R8) for ``rules.players`` hands.

    ``deck`` is the whole pack, top card first (R8.2: card 1 to the first player after the
    dealer, and so on round to the dealer, one at a time); without it ``seed`` gives the deck
    (:func:`~conquian.engine.deck.seeded_deck`).  ``dealer`` is the dealer's seat number.
    """

    OVER_STAGE = OVER
    FORCED_STAGE = FORCED
    DISCARD_STAGE = DISCARD
    PHASE_NAMES = PHASE_NAMES
    R_SAY = "R8.3"
    R_DISCARD = "R8.3"
    R_FORCE = "R8.4"
    NOT_AN_ACTION = N_("{action} is not a conquián mexicano action")
    _EVENTS = _EVENTS
    FAMILY = MEXICANO
    R_DEAL = "R8.2"
    _NO_TARGET = (-1,)
    _NO_WINNER = "a draw (tablas)"
    EXCHANGE_STAGE = EXCHANGE
    COPIED_LISTS = frozenset({"hands", "sides", "downs", "gives"})

    __slots__ = ("first", "gives", "n", "origin")

    n: int
    seats: tuple[int, ...]
    """The seat of each player index, in the order of play (the dealer last)."""
    gives: list[int]
    """The card each player gives in the exchange, -1 until he has (R8.2): hidden from others."""
    origin: int
    """The player who turned or discarded the card in play: the say ends before him (R8.3)."""
    first: int
    """The player who had the first say to the card in play (the passers are ``first`` .. actor-1)."""

    def _deal(self, n: int) -> None:
        self.n = n
        self.seats = shared_tuple(tuple((self.dealer + i) % n + 1 for i in range(n)))
        deck = self._deck
        dealt = n * self.rules.hand_size
        hands = [0] * n
        # R8.2: one at a time, beginning with the first player after the dealer
        for i in range(dealt):
            hands[i % n] |= 1 << deck[i]
        self.hands = hands
        self.sides = [()] * n
        self.downs = [0] * n
        self.gives = [-1] * n
        self.pos = dealt
        self.origin = self.first = 0
        self.stage = EXCHANGE
        if not self.rules.exchange:
            self._turn(0)

    # ----------------------------------------------------------------- copying
    def _key(self) -> tuple[Any, ...]:
        return (
            self.rules, self.dealer, self.deck, self.pos, tuple(self.hands), tuple(self.sides),
            tuple(self.gives), self.card, self.stage, self.actor, self.origin, self.first, self.buried,
            self.winner, self.n_actions, flatten(self.events),
        )

    # ------------------------------------------------------------- properties
    @property
    def n_turns(self) -> int:
        """Cards turned from the pack so far."""
        return self.pos - self.n * self.rules.hand_size

    @property
    def exchanged(self) -> bool:
        """Whether the cards given in the exchange have changed hands (R8.2)."""
        return self.gives[-1] >= 0

    def player_of(self, seat: int) -> int:
        """The internal player index of a seat (0 the first after the dealer)."""
        if type(seat) is int and 1 <= seat <= self.n:
            return (seat - self.dealer - 1) % self.n
        raise IllegalActionError("R8.1", Msg("there is no seat {seat} at this table of {n}", seat=repr(seat), n=self.n))

    def given(self, seat: int) -> int | None:
        """The card a seat gave in the exchange (not for bots: hidden from the others)."""
        c = self.gives[self.player_of(seat)]
        return None if c < 0 else c

    def history(self) -> list[MexicanoEvent]:
        """Every public event so far, oldest first (a ``give`` does not show its card)."""
        return list(mexicano_events(self.events, self.seats))

    def recent_events(self, count: int) -> list[MexicanoEvent]:
        """The last ``count`` events, oldest first, without walking the whole history."""
        return list(mexicano_events(self.events, self.seats, count))

    def actions(self) -> list[Action]:
        """The actions played so far (what a record stores), oldest first, gives with their cards."""
        gives = {self.seats[p]: c for p, c in enumerate(self.gives)}
        return [event_action(e, self.n, gives[e.seat]) for e in self.history() if e.kind in ACTION_KINDS]

    # ------------------------------------------------------------- internals
    def _turn(self, player: int) -> None:
        """``player`` turns the next card of the pack, or the pack is exhausted (R8.6)."""
        if self.pos >= len(self._deck):
            self.stage = OVER
            self.card = -1
            if self.rules.exhausted == "fewest":
                counts = [h.bit_count() for h in self.hands]
                fewest = min(counts)
                if counts.count(fewest) == 1:
                    self.winner = counts.index(fewest)
                    self._push(_EVENTS["fewest"][self.winner][64])
                    return
            self._push(_EVENTS["tableau"][player][64])
            return
        self.card = c = self._deck[self.pos]
        self.pos += 1
        self.stage = SAY
        self.actor = self.origin = self.first = player
        self._push(_EVENTS["turn"][player][c])

    def apply_raw(self, kind: int, arg: Any) -> None:
        """Apply a raw action from :meth:`legal_raw` without checking it (fast path)."""
        p = self.actor
        n = self.n
        self.n_actions += 1
        if kind == K_USE:
            self._use(p, arg)
        elif kind == K_PASS:
            c = self.card
            self._push(_EVENTS["pass"][p][c])
            if p == (self.origin - 1) % n:
                # R8.3: every player has passed: buried, and the next after the origin turns
                self.buried |= 1 << c
                self._push(_EVENTS["bury"][p][c])
                self._turn((self.origin + 1) % n)
            else:
                self.actor = (p + 1) % n
        elif kind == K_FORCE:
            c = arg & 63
            t = arg >> FORCE_SHIFT
            if self.stage == DISCARD:
                self.hands[p] &= ~(1 << c)
                self.card = c
            self._push(("force", p, c, (), t))
            self.stage = FORCED
            self.actor = t
        elif kind == K_DISCARD:
            c = arg
            self.hands[p] &= ~(1 << c)
            self.card = c
            self._push(_EVENTS["discard"][p][c])
            # R8.3: offered to each other player in turn, beginning with the next
            self.stage = SAY
            self.origin = p
            self.actor = self.first = (p + 1) % n
        else:  # K_GIVE
            self.gives[p] = arg
            self._push(_EVENTS["give"][p][64])
            if p < n - 1:
                self.actor = p + 1
                return
            # R8.2: every player has chosen; now the cards move, each to the next player
            g = self.gives
            self.hands = [(h & ~(1 << g[q])) | 1 << g[q - 1] for q, h in enumerate(self.hands)]
            self._push(_EVENTS["exchange"][p][64])
            self._turn(0)

    def legal_raw(self) -> list[RawAction]:
        """The listed legal actions as raw tuples (fast path for search and simulation)."""
        if self.stage == OVER:
            return []
        p = self.actor
        return legal_raw(self.tbl, self.stage, p, self.card, self.hands[p], self.sides, self.downs[p])

    def to_action(self, raw: RawAction) -> Action:
        """The :class:`~conquian.engine.actions.Action` of a raw action of the player to act."""
        return raw_to_action(self.seats, self.actor, raw)

    def _acting(self) -> tuple[tuple[int, ...], int]:
        return (self.seats, self.actor)

    def _entry(self, raw: RawAction) -> Entry:
        a = self.to_action(raw)
        if isinstance(a, Use):  # played as checked: the combinations in the notation's order
            return entry((K_USE, a.melds), a)
        return entry(raw, a)

    # ------------------------------------------------------------ public play
    def _over_rule(self) -> str:
        return "R8.5" if self.winner >= 0 else "R8.6"

    def _verify_exchange(self, action: Action) -> RawAction:
        """R8.2: the exchange comes first: each player in turn gives a card of his hand."""
        p = self.actor
        seat = self.seats[p]
        if not isinstance(action, Give):
            raise IllegalActionError("R8.2", Msg("the exchange comes first: {seat} gives a card to {other}",
                                                 seat=f"p{seat}", other=f"p{self.seats[(p + 1) % self.n]}"))
        if not self.hands[p] >> action.card & 1:
            raise IllegalActionError("R8.2", Msg("{seat} does not hold {card}", seat=f"p{seat}",
                                                 card=the_card(action.card, True)))
        return (K_GIVE, action.card)

    def _verify_other(self, action: Action) -> RawAction:
        """R8.2: a card is given only in the exchange."""
        if isinstance(action, Give):
            if self.rules.exchange:
                raise IllegalActionError("R8.2", Msg("the exchange is over: no card is given now"))
            raise IllegalActionError("R8.2", Msg("this table plays without the exchange: no card is given now"))
        return ConquianFamilyDeal._verify_other(self, action)

    def _out_of_turn(self, action: Action) -> None:
        """Refuse an action by a seat that is not to act, saying why (R8.2-R8.4)."""
        n = self.n
        who = action.seat
        if not 1 <= who <= n:
            raise IllegalActionError("R8.1", Msg("there is no seat {seat} at this table of {n}", seat=f"p{who}", n=n))
        actor = self.seats[self.actor]
        q = self.player_of(who)
        if self.stage == EXCHANGE:
            if self.gives[q] >= 0:
                raise IllegalActionError("R8.2", Msg("{seat} has given his card already; {other} gives now",
                                                     seat=f"p{who}", other=f"p{actor}"))
            raise IllegalActionError("R8.2", Msg("it is {seat}'s turn to give a card in the exchange, not {other}'s",
                                                 seat=f"p{actor}", other=f"p{who}"))
        if self.stage == SAY and (q - self.first) % n < (self.actor - self.first) % n:
            # R8.4: a player who passed the card has no say left to it, so he cannot force it either
            raise IllegalActionError(
                "R8.4" if isinstance(action, Force) else "R8.3",
                Msg("{seat} has passed {card} and has no say left to it; it is {other}'s say", seat=f"p{who}",
                    card=the_card(self.card, True), other=f"p{actor}"),
            )
        if self.stage == FORCED:
            raise IllegalActionError("R8.4", Msg("it is {seat}'s turn to use the card forced on him, not {other}'s",
                                                 seat=f"p{actor}", other=f"p{who}"))
        self._not_theirs(who)

    def _check_force(self, p: int, action: Force) -> int:
        """R8.4: the card, then the player forced (named where more than two play), whose side it
        must fit; the raw argument holds both."""
        seat = self.seats[p]
        n = self.n
        c = action.card
        self._check_forced_card(p, c)
        if action.target is None:
            if n > 2:
                raise IllegalActionError("R8.4", Msg("with {n} players a force names the player forced: {action}",
                                                     n=n, action=f"p{seat} force {card_str(c)} pN"))
            t = 1 - p
        else:
            if not 1 <= action.target <= n:
                raise IllegalActionError("R8.4", Msg("there is no seat {seat} to force at this table of {n}",
                                                     seat=f"p{action.target}", n=n))
            t = self.player_of(action.target)
            if t == p:
                raise IllegalActionError("R8.4", Msg("a card is forced on another player, not on {seat} himself",
                                                     seat=f"p{seat}"))
        self._check_fits(t, c)
        return t << FORCE_SHIFT | c

    def _check_use(self, p: int, melds: tuple[int, ...]) -> tuple[int, ...]:
        """R3.4 with ``hand`` in place of ten (R8.3): valid combinations holding the card in play,
        the player's own combinations kept whole, the rest from his hand."""
        others = 0
        for q, d in enumerate(self.downs):
            if q != p:
                others |= d
        return check_use(self.tbl, self.card, melds, self.sides[p], self.downs[p], self.hands[p], others,
                         self.seats[p], N_("{cards} is on another player's side: a player may not touch it"))

    # ----------------------------------------------------------------- results
    def scores(self, pool: object = 0) -> list[int] | None:
        """Scores per seat once the deal is over (R8.7), else ``None``: every other player pays
        the winner one counter; a draw scores 0.  ``pool`` is ignored: R8.7 keeps no pool."""
        if self.stage != OVER:
            return None
        out = [0] * self.n
        if self.winner >= 0:
            for p, seat in enumerate(self.seats):
                out[seat - 1] = self.n - 1 if p == self.winner else -1
        return out

    # ---------------------------------------------------------------- the view
    def view(self, seat: int) -> MexicanoView:
        """What ``seat`` may know (other hands, others' gives and the pack order hidden)."""
        p = self.player_of(seat)
        n = self.n
        done = self.gives[-1] >= 0  # the last player has given: the cards have changed hands
        fields = self._view_fields(seat, self.hands[p])
        fields["hand_counts"] = tuple([h.bit_count() for h in self.hands])
        fields["origin"] = self.origin
        fields["first"] = self.first
        fields["gave_card"] = self.gives[p]
        fields["got_card"] = self.gives[(p - 1) % n] if done else -1
        fields["given"] = tuple([g >= 0 for g in self.gives])
        v = object.__new__(MexicanoView)
        v.__dict__.update(fields)  # as ConquianDeal.view
        return v

    def _role(self, p: int) -> str:
        return " (dealer)" if self.seats[p] == self.dealer else ""


__all__ = ["MexicanoDeal"]
