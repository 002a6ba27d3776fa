"""The two-hand game, conquian (R3): the state of one deal.

A :class:`ConquianDeal` holds one deal from the deal to the win or tableau.
Every public method checks the rules (R7): an illegal action raises
:class:`~conquian.engine.errors.IllegalActionError` naming the R-number and leaves
the state exactly as it was.

Internally the two hands are *players* 0 (the pone, first to act, R3.1) and 1
(the other hand, normally the dealer); the public API speaks of *seats*
``p1, p2, ...`` as in the records.  Card sets are int bitmasks, a side of the
table is a tuple of combination masks, the deck is shared between copies and
the public history is a persistent list of chunks, so :meth:`ConquianDeal.copy`
costs a handful of attribute copies.

```pycon
>>> from conquian import ConquianDeal, get_rules, parse_action
>>> deal = ConquianDeal(get_rules("conquian"), seed=7, dealer=2)
>>> deal.to_act, deal.phase, str(deal.card_in_play) in str(deal.view(1).card_in_play)
(1, 'say', True)
>>> before = deal.copy()
>>> deal.play("p2 pass")
Traceback (most recent call last):
...
conquian.engine.errors.IllegalActionError: R3.3: it is p1's say, not p2's
>>> deal == before
True

```
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from conquian.engine.actions import Action, Discard, Force, Pass, Use, meld_order
from conquian.engine.cards import card_str, cards_of, mask_str, the_card
from conquian.engine.conquian.base import ConquianFamilyDeal
from conquian.engine.conquian.events import Event, _event_action, conquian_events, raw_to_action
from conquian.engine.conquian.listing import (
    DISCARD,
    FORCED,
    K_DISCARD,
    K_FORCE,
    K_PASS,
    K_USE,
    OVER,
    PHASE_NAMES,
    SAY_DISCARD,
    SAY_PASSED,
    SAY_TURNED,
    RawAction,
    legal_raw,
    use_forms,
)
from conquian.engine.conquian.melds import MeldTable, meld_table
from conquian.engine.conquian.uses import check_use
from conquian.engine.conquian.view import ConquianView
from conquian.engine.deal import _INTERNED, Entry, as_action, flatten, listing, setup_deck, shared_tuple
from conquian.engine.errors import IllegalActionError
from conquian.engine.history import CHUNK
from conquian.engine.rules import CONQUIAN, Rules
from conquian.engine.scoring import conquian_pip_value
from conquian.i18n import N_, Msg

#: Every event without combinations, made once: kind -> player -> card (64: none) -> event.
_EVENTS: Final = {kind: [[(kind, p, None if c == 64 else c, ()) for c in range(65)] for p in (0, 1)]
                  for kind in ("turn", "pass", "bury", "force", "discard", "win", "tableau")}


class ConquianDeal(ConquianFamilyDeal):
    """One deal of conquian (R3) between two hands.

    ``deck`` is the whole pack, top card first (R3.1); without it ``seed``
    gives the deck (:func:`~conquian.engine.deck.seeded_deck`).  ``dealer`` is the
    dealer's seat number; with three at the table (R6.3) he sits out and the
    next two seats play.

    A side of the table (:meth:`side`) is in one canonical order, whichever way a use is
    applied (:meth:`play`, or :meth:`apply_raw` with a listed raw use): the combinations the use
    leaves untouched keep their places, and the combinations it lays or changes follow them in
    the order the notation writes them (by each one's lowest card, rank then suit, as in
    :attr:`~conquian.engine.actions.Use.melds`).  The ``use`` event holds them in that order too.
    """

    OVER_STAGE: Final = OVER
    """The value of ``stage`` once the deal is over (for tight loops)."""

    __slots__ = (
        "actor",
        "buried",
        "card",
        "dealer",
        "downs",
        "hands",
        "n_actions",
        "n_events",
        "n_seats",
        "pos",
        "rules",
        "seats",
        "sides",
        "stage",
        "tbl",
        "winner",
    )

    rules: Rules
    tbl: MeldTable
    dealer: int
    seats: tuple[int, int]
    n_seats: int
    pos: int
    hands: list[int]
    sides: list[tuple[int, ...]]
    downs: list[int]
    card: int
    stage: int
    actor: int
    buried: int
    winner: int
    n_events: int
    n_actions: int

    def __init__(
        self,
        rules: Rules,
        deck: Sequence[int] | None = None,
        *,
        seed: int | None = None,
        dealer: int = 1,
    ) -> None:
        deck = setup_deck(rules, CONQUIAN, deck, seed, dealer, "R3.1")
        self.rules = rules
        self.tbl = meld_table(rules)
        n = rules.players
        self.n_seats = n
        self.dealer = dealer
        pone = dealer % n + 1
        other = dealer if n == 2 else pone % n + 1
        self.seats = shared_tuple((pone, other))  # type: ignore[assignment]
        self.deck = deck
        hands = [0, 0]
        # R3.1: two at a time, the pone first: cards 1-2 pone, 3-4 dealer, ...
        for i in range(20):
            hands[(i >> 1) & 1] |= 1 << deck[i]
        self.hands = hands
        self.sides = [(), ()]
        self.downs = [0, 0]
        self.buried = 0
        self.winner = -1
        self.events = None
        self.n_events = 0
        self.n_actions = 0
        self.pos = 20
        self.card = -1
        self.stage = SAY_TURNED
        self.actor = 0
        self._turn(0)

    # ----------------------------------------------------------------- copying
    def copy(self) -> ConquianDeal:
        """An independent copy (cheap: the deck and history are shared, immutable)."""
        new = object.__new__(ConquianDeal)
        new.rules = self.rules
        new.tbl = self.tbl
        new.dealer = self.dealer
        new.seats = self.seats
        new.n_seats = self.n_seats
        new._deck = self._deck
        new.pos = self.pos
        new.hands = self.hands[:]
        new.sides = self.sides[:]
        new.downs = self.downs[:]
        new.card = self.card
        new.stage = self.stage
        new.actor = self.actor
        new.buried = self.buried
        new.winner = self.winner
        new._node = self._node
        new._tail = self._tail
        new._m = self._m
        new._made = self._made
        new.n_events = self.n_events
        new.n_actions = self.n_actions
        return new

    __copy__ = copy

    def _key(self) -> tuple[Any, ...]:
        return (
            self.rules, self.dealer, self.seats, self.deck, self.pos, tuple(self.hands),
            tuple(self.sides), self.card, self.stage, self.actor, self.buried, self.winner,
            self.n_actions, flatten(self.events),
        )

    # ------------------------------------------------------------- properties
    @property
    def over(self) -> bool:
        """Whether the deal has ended (a win or a tableau)."""
        return self.stage == OVER

    @property
    def phase(self) -> str:
        """``say`` (use, pass or force the card in play), ``forced``, ``discard`` or ``over``."""
        return PHASE_NAMES[self.stage]

    @property
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` when the deal is over."""
        return None if self.stage == OVER else self.seats[self.actor]

    @property
    def tableau(self) -> bool:
        """Whether the deal ended in a tableau (R3.7)."""
        return self.stage == OVER and self.winner < 0

    def player_of(self, seat: int) -> int:
        """The internal player index (0 pone, 1 other) of a seat; ValueError if it has no hand."""
        if seat == self.seats[0]:
            return 0
        if seat == self.seats[1]:
            return 1
        raise IllegalActionError("R6.3", Msg("{seat} holds no cards in this deal", seat=f"p{seat}"))

    def history(self) -> list[Event]:
        """Every public event so far, oldest first."""
        return list(conquian_events(self.events, self.seats))

    def recent_events(self, count: int) -> list[Event]:
        """The last ``count`` events, oldest first, without walking the whole history."""
        return list(conquian_events(self.events, self.seats, count))

    def actions(self) -> list[Action]:
        """The actions played so far (what a record stores), oldest first."""
        return [
            _event_action(e)
            for e in self.history()
            if e.kind in ("use", "pass", "force", "discard")
        ]

    # ------------------------------------------------------------- internals
    def _log(self, kind: str, player: int, card: int | None = None, melds: tuple[int, ...] = ()) -> None:
        if melds:
            ev: tuple[Any, ...] = (kind, player, card, melds)
        else:  # one shared tuple for each event without combinations: a stored deal holds only its links
            ev = _EVENTS[kind][player][64 if card is None else card]
        tail, m = self._tail, self._m  # DealMixin._push, inlined
        if len(tail) != m:
            tail = self._tail = tail[:m]
        tail.append(ev)
        if tail[m] is not ev:
            tail = self._tail = [*tail[:m], ev]
        m += 1
        if m == CHUNK:
            self._node = (self._node, tuple(tail[:m]))
            self._tail = []
            m = 0
        self._m = m
        self.n_events += 1

    def _turn(self, player: int) -> None:
        """``player`` turns the next card of the pack, or the deal is a tableau (R3.7)."""
        if self.pos >= len(self._deck):
            self.stage = OVER
            self.card = -1
            self._log("tableau", player)
            return
        self.card = c = self._deck[self.pos]
        self.pos += 1
        self.stage = SAY_TURNED
        self.actor = player
        self._log("turn", player, c)

    def apply_raw(self, kind: int, arg: Any) -> None:
        """Apply a raw action from :meth:`legal_raw` without checking it (fast path)."""
        p = self.actor
        self.n_actions += 1
        if kind == K_USE:
            melds: tuple[int, ...] = arg
            if len(melds) > 1:
                # the canonical order (the class docstring): as the notation writes them
                melds = tuple(sorted(melds, key=meld_order))
            u = 0
            for m in melds:
                u |= m
            c = self.card
            self._log("use", p, c, melds)
            self.sides[p] = tuple(m for m in self.sides[p] if not m & u) + melds
            self.downs[p] |= u
            self.hands[p] &= ~u
            self.card = -1
            if self.hands[p] == 0:
                # R3.7: eleven down.
                self.winner = p
                self.stage = OVER
                self._log("win", p)
            else:
                self.stage = DISCARD
        elif kind == K_PASS:
            c = self.card
            self._log("pass", p, c)
            if self.stage == SAY_TURNED:
                self.stage = SAY_PASSED
                self.actor = 1 - p
            else:
                # R3.3: refused by both, the card is buried and the passer turns next.
                self.buried |= 1 << c
                self._log("bury", p, c)
                self._turn(p)
        elif kind == K_FORCE:
            c = arg
            if self.stage == DISCARD:
                self.hands[p] &= ~(1 << c)
                self.card = c
            self._log("force", p, c)
            self.stage = FORCED
            self.actor = 1 - p
        else:  # K_DISCARD
            c = arg
            self.hands[p] &= ~(1 << c)
            self.card = c
            self._log("discard", p, c)
            self.stage = SAY_DISCARD
            self.actor = 1 - p

    def legal_raw(self) -> list[RawAction]:
        """The listed legal actions as raw tuples (fast path for search and simulation)."""
        p = self.actor
        return legal_raw(
            self.tbl, self.stage, self.card, self.hands[p], self.sides[p], self.downs[p],
            self.sides[1 - p],
        )

    def to_action(self, raw: RawAction) -> Action:
        """The :class:`~conquian.engine.actions.Action` of a raw action of the player to act."""
        return raw_to_action(self.seats[self.actor], raw)

    def _acting(self) -> int:
        return self.seats[self.actor]  # the contexts of the three deal classes never meet: int, int + 100, tuple

    def _fresh_listing(self) -> list[Entry]:
        p = self.actor  # legal_raw and _acting, inline (the public API's path)
        raws = legal_raw(self.tbl, self.stage, self.card, self.hands[p], self.sides[p], self.downs[p],
                         self.sides[1 - p])
        seat = self.seats[p]
        if len(raws) == 1:  # listing()'s answer for one action made already (most says are a pass)
            made = _INTERNED.get(seat)
            if made is not None:
                e = made.get(raws[0])
                if e is not None:
                    return [e]
        return listing(seat, raws, self._entry)

    # ------------------------------------------------------------ public play
    def verify(self, action: Action | str) -> RawAction:
        """Check one action without playing it: return its raw form or raise (R7).

        Cheap: it checks the given action directly, never enumerating the
        rearrangements (python-chess's ``move in legal_moves``).
        """
        action = as_action(action)
        if self.stage == OVER:
            raise IllegalActionError("R3.7", Msg("the deal is over"))
        seat = self.seats[self.actor]
        if action.seat != seat:
            if action.seat not in self.seats:
                raise IllegalActionError("R6.3", Msg("{seat} holds no cards in this deal", seat=f"p{action.seat}"))
            if self.stage == FORCED:
                raise IllegalActionError("R3.6", Msg("it is {seat}'s turn to use the forced card, not {other}'s",
                                                     seat=f"p{seat}", other=f"p{action.seat}"))
            if self.stage == DISCARD:
                raise IllegalActionError("R3.5", Msg("it is {seat}'s discard, not {other}'s", seat=f"p{seat}",
                                                     other=f"p{action.seat}"))
            raise IllegalActionError("R3.3", Msg("it is {seat}'s say, not {other}'s", seat=f"p{seat}",
                                                 other=f"p{action.seat}"))
        p = self.actor
        phase = self.stage
        tbl = self.tbl
        if isinstance(action, Use):
            if phase == DISCARD:
                raise IllegalActionError("R3.5", Msg("{seat} has used a card and must now discard", seat=f"p{seat}"))
            return (K_USE, self._check_use(p, action.melds))
        if isinstance(action, Pass):
            if phase == FORCED:
                raise IllegalActionError("R3.6", Msg("{seat} cannot refuse a forced card: he must use {card}",
                                                     seat=f"p{seat}", card=the_card(self.card, True)))
            if phase == DISCARD:
                raise IllegalActionError("R3.5", Msg("{seat} has used a card and must discard, not pass",
                                                     seat=f"p{seat}"))
            return (K_PASS, -1)
        if isinstance(action, Force):
            c = action.card
            other = self.sides[1 - p]
            adv = self.seats[1 - p]
            if action.target is not None and action.target != adv:
                raise IllegalActionError("R3.6", Msg("a card is forced on the adversary, {seat}, not on {target}",
                                                     seat=f"p{adv}", target=f"p{action.target}"))
            if phase == FORCED:
                raise IllegalActionError("R3.6", Msg("{seat} must use the card forced on him before anything else",
                                                     seat=f"p{seat}"))
            if phase == DISCARD:
                if not self.hands[p] >> c & 1:
                    raise IllegalActionError("R3.5", Msg("{seat} does not hold {card}", seat=f"p{seat}",
                                                         card=the_card(c, True)))
            elif c != self.card:
                raise IllegalActionError("R3.6", Msg("only the card in play, {card}, can be forced now, not {value}",
                                                     card=the_card(self.card, True), value=the_card(c, True)))
            if not other:
                raise IllegalActionError("R3.6", Msg("{seat} has nothing on the table and cannot be forced",
                                                     seat=f"p{adv}"))
            if not any(tbl.fits(m, c) for m in other):
                raise IllegalActionError("R3.6", Msg("{card} fits none of {seat}'s combinations ({side})",
                                                     card=the_card(c, True), seat=f"p{adv}",
                                                     side=self._side_words(1 - p)))
            return (K_FORCE, c)
        if isinstance(action, Discard):
            if phase != DISCARD:
                if phase == FORCED:
                    raise IllegalActionError("R3.6", Msg("{seat} must first use the card forced on him",
                                                         seat=f"p{seat}"))
                raise IllegalActionError("R3.5", Msg("a player discards only after using a card"))
            c = action.card
            if not self.hands[p] >> c & 1:
                raise IllegalActionError("R3.5", Msg("{seat} does not hold {card}", seat=f"p{seat}",
                                                     card=the_card(c, True)))
            return (K_DISCARD, c)
        raise IllegalActionError("R3.3", Msg("{action} is not a conquian action", action=str(action)))

    def _check_use(self, p: int, melds: tuple[int, ...]) -> tuple[int, ...]:
        return check_use(self.tbl, self.card, melds, self.sides[p], self.downs[p], self.hands[p], self.downs[1 - p],
                         self.seats[p], N_("{cards} belongs to the adversary: a player may not touch his combinations"))

    # ----------------------------------------------------------------- results
    def scores(self, pool: int | Sequence[int] = 0) -> list[int] | None:
        """Scores per seat once the deal is over (R5.1, R5.2), else ``None``.

        ``games``: the loser pays the winner one counter; ``pool`` holds the counters owed to the
        pool by earlier tableaux, one number per seat (or one number owed by each of the two
        hands), and every counter owed by another seat goes to the winner too (R5.1: with three at
        the table a player who sits out this deal still pays his).  A tableau scores 0.
        ``pips``: the loser pays the pip value of his hand (R2.4), and there is no pool.
        """
        if self.stage != OVER:
            return None
        out = [0] * self.n_seats
        if self.winner < 0:
            return out
        win = self.seats[self.winner] - 1
        lose = self.seats[1 - self.winner] - 1
        if self.rules.scoring == "pips":
            amount = sum(conquian_pip_value(c) for c in cards_of(self.hands[1 - self.winner]))
            out[win], out[lose] = amount, -amount
            return out
        if isinstance(pool, int):
            owed = [0] * self.n_seats
            owed[win] = owed[lose] = pool
        else:
            owed = list(pool)
        out[lose] = -1
        for s, k in enumerate(owed):
            if s != win:
                out[s] -= k
        out[win] = -sum(out)
        return out

    # ---------------------------------------------------------------- the view
    def view(self, seat: int) -> ConquianView:
        """What ``seat`` may know (hands hidden, pack order hidden).  Bots get only this."""
        if seat in self.seats:
            p = self.player_of(seat)
            hand, adversary = self.hands[p], self.hands[1 - p].bit_count()
        elif type(seat) is int and 1 <= seat <= self.n_seats:
            hand, adversary = 0, 0  # he sits out (R6.3): he sees what a spectator sees
        else:
            raise IllegalActionError("R6.3", Msg("{seat} holds no cards in this deal", seat=f"p{seat}"))
        v = object.__new__(ConquianView)
        # a frozen dataclass's __init__ sets each field through object.__setattr__; filling the
        # instance's dict at once is the same object, several times cheaper (views are made at
        # every decision of every bot and environment)
        v.__dict__.update(
            rules=self.rules,
            seat=seat,
            dealer=self.dealer,
            seats=self.seats,
            hand_mask=hand,
            side_masks=(self.sides[0], self.sides[1]),
            card=self.card,
            stage=self.stage,
            actor_seat=self.to_act,
            pack_count=self.pack_count,
            adversary_hand_count=adversary,
            hand_counts=(self.hands[0].bit_count(), self.hands[1].bit_count()),
            buried_mask=self.buried,
            n_events=self.n_events,
            winner_seat=self.winner_seat,
            event_node=self.events,
            table=self.tbl,  # not a field: the cached meld table of the pack, found already
        )
        return v

    def __str__(self) -> str:
        lines = []
        for p in (0, 1):
            role = "pone" if p == 0 else ("dealer" if self.seats[1] == self.dealer else "second")
            lines.append(f"p{self.seats[p]} ({role}) hand: {mask_str(self.hands[p])}")
            lines.append(f"p{self.seats[p]} table: {self._side_text(p)}")
        if self.stage == OVER:
            lines.append("over: " + (f"p{self.winner_seat} wins" if self.winner >= 0 else "tableau"))
        else:
            card = card_str(self.card) if self.card >= 0 else "-"
            lines.append(f"in play: {card}; p{self.to_act} to {self.phase}; pack {self.pack_count}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<ConquianDeal {self.rules.name} dealer=p{self.dealer} actions={self.n_actions} {self.phase}>"

__all__ = [
    "DISCARD", "FORCED", "K_DISCARD", "K_FORCE", "K_PASS", "K_USE", "OVER", "PHASE_NAMES", "SAY_DISCARD",
    "SAY_PASSED", "SAY_TURNED", "ConquianDeal", "Event", "RawAction", "conquian_events", "legal_raw",
    "raw_to_action", "use_forms",
]
