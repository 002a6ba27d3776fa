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

from conquian.engine.actions import Action, Force, meld_order
from conquian.engine.cards import cards_of
from conquian.engine.conquian.base import ConquianFamilyDeal
from conquian.engine.conquian.events import Event, _event_action, conquian_events, raw_to_action
from conquian.engine.conquian.listing import _DISCARDS as _DISCARD_RAWS
from conquian.engine.conquian.listing import (
    _FORCES,
    _PASS,
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
    _uses,
    legal_raw,
    use_forms,
)
from conquian.engine.conquian.melds import MeldTable
from conquian.engine.conquian.uses import check_use
from conquian.engine.conquian.view import ConquianView
from conquian.engine.deal import INTERNED_MAX, Entry, flatten, listing, shared_tuple
from conquian.engine.deck import pack_order
from conquian.engine.errors import IllegalActionError
from conquian.engine.rules import CONQUIAN, Rules
from conquian.engine.scoring import conquian_pip_value
from conquian.i18n import N_, Msg

#: Every event without combinations, made once: kind -> player -> card (64: none) -> event.
_EVENTS: Final = {kind: [[(kind, p, None if c == 64 else c, ()) for c in range(65)] for p in (0, 1)]
                  for kind in ("turn", "pass", "bury", "force", "discard", "win", "tableau")}
_EV_TURN, _EV_PASS, _EV_BURY, _EV_FORCE, _EV_DISCARD, _EV_TABLEAU = (
    _EVENTS[k] for k in ("turn", "pass", "bury", "force", "discard", "tableau"))


#: The listings of a say made once (:meth:`ConquianDeal._fresh_listing`): (seat, 0 pass / 1 pass and
#: force / 2 forced, the forced card or -1, the id of the memoised uses) -> (the uses, the entries).
_SAYS: dict[tuple[int, int, int, int], tuple[tuple[RawAction, ...], list[Entry]]] = {}
#: Per seat: each card's place in the notation's order, its discard's entry and its force's.
_DISCARDS: dict[tuple[int, MeldTable], tuple[list[int], list[Entry], list[Entry]]] = {}


def _discard_table(seat: int, rules: Rules, make: Any) -> tuple[list[int], list[Entry], list[Entry]]:
    """A seat's discards and forces of every card of the pack, as :func:`listing` makes them (the
    same shared entries), and each card's place in their notation's order."""
    pack = set(pack_order(rules))
    discards: list[Any] = [listing(seat, [_DISCARD_RAWS[c]], make)[0] if c in pack else None for c in range(64)]
    forces: list[Any] = [listing(seat, [_FORCES[c]], make)[0] if c in pack else None for c in range(64)]
    order = [64] * 64
    for i, c in enumerate(sorted(pack, key=lambda c: discards[c][0])):
        order[c] = i
    return order, discards, forces


#: Each 16-bit row of a card mask, its cards (a list made afresh from the tuple kept).
_ROWS: dict[int, tuple[int, ...]] = {}


def _cards_of(mask: int) -> list[int]:
    """The cards of ``mask``, lowest first, by rows of 16 memoised."""
    out: list[int] = []
    shift = 0
    while mask:
        row = mask & 0xFFFF
        if row:
            key = row | shift << 16
            got = _ROWS.get(key)
            if got is None:
                got = _ROWS[key] = tuple(shift + i for i in range(16) if row >> i & 1)
            out += got
        mask >>= 16
        shift += 16
    return out


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

    OVER_STAGE = OVER
    FORCED_STAGE = FORCED
    DISCARD_STAGE = DISCARD
    PHASE_NAMES = PHASE_NAMES
    R_SAY = "R3.3"
    R_DISCARD = "R3.5"
    R_FORCE = "R3.6"
    NOT_AN_ACTION = N_("{action} is not a conquian action")
    _EVENTS = _EVENTS
    FAMILY = CONQUIAN
    R_DEAL = "R3.1"

    __slots__ = ("n_seats",)

    seats: tuple[int, int]
    n_seats: int

    def _deal(self, n: int) -> None:
        self.n_seats = n
        pone = self.dealer % n + 1
        other = self.dealer if n == 2 else pone % n + 1
        self.seats = shared_tuple((pone, other))  # type: ignore[assignment]
        deck = self._deck
        hands = [0, 0]
        # R3.1: two at a time, the pone first: cards 1-2 pone, 3-4 dealer, ...
        for i in range(20):
            hands[(i >> 1) & 1] |= 1 << deck[i]
        self.hands = hands
        self.sides = [(), ()]
        self.downs = [0, 0]
        self.pos = 20
        self._turn(0)

    # ----------------------------------------------------------------- copying
    def _key(self) -> tuple[Any, ...]:
        return (
            self.rules, self.dealer, self.seats, self.deck, self.pos, tuple(self.hands),
            tuple(self.sides), self.card, self.stage, self.actor, self.buried, self.winner,
            self.n_actions, flatten(self.events),
        )

    # ---------------------------------------------------------------- seats
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
    def _turn(self, player: int) -> None:
        """``player`` turns the next card of the pack, or the deal is a tableau (R3.7)."""
        if self.pos >= len(self._deck):
            self.stage = OVER
            self.card = -1
            self._push(_EV_TABLEAU[player][64])
            return
        self.card = c = self._deck[self.pos]
        self.pos += 1
        self.stage = SAY_TURNED
        self.actor = player
        self._push(_EV_TURN[player][c])

    def apply_raw(self, kind: int, arg: Any) -> None:
        """Apply a raw action from :meth:`legal_raw` without checking it (fast path)."""
        p = self.actor
        self.n_actions += 1
        if kind == K_PASS:
            c = self.card
            self._push(_EV_PASS[p][c])
            if self.stage == SAY_TURNED:
                self.stage = SAY_PASSED
                self.actor = 1 - p
            else:
                # R3.3: refused by both, the card is buried and the passer turns next.
                self.buried |= 1 << c
                self._push(_EV_BURY[p][c])
                self._turn(p)
        elif kind == K_USE:
            melds: tuple[int, ...] = arg
            if len(melds) > 1:
                # the canonical order (the class docstring): as the notation writes them
                melds = tuple(sorted(melds, key=meld_order))
            self._use(p, melds)
        elif kind == K_DISCARD:
            c = arg
            self.hands[p] &= ~(1 << c)
            self.card = c
            self._push(_EV_DISCARD[p][c])
            self.stage = SAY_DISCARD
            self.actor = 1 - p
        else:  # K_FORCE
            c = arg
            if self.stage == DISCARD:
                self.hands[p] &= ~(1 << c)
                self.card = c
            self._push(_EV_FORCE[p][c])
            self.stage = FORCED
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
        """The listing of :func:`legal_raw`, as :func:`~conquian.engine.deal.listing` makes it, from
        listings made once: a say's (its uses, the pass, the force) per seat and uses, a discard's
        from each seat's entries in notation order.  The lists are shared: never changed in place."""
        p = self.actor
        stage = self.stage
        seat = self.seats[p]
        if stage <= FORCED:
            tbl = self.tbl
            card = self.card
            hand, down = self.hands[p], self.downs[p]
            near, threes_of = tbl.near_threes[card]
            threes = threes_of[near & (down | hand)]
            # legal_raw's say, inline: the uses are memoised, the same tuple for the same uses
            uses = _uses(tbl, self.sides[p], down, hand, card, threes) if threes else ()
            if stage == FORCED:
                force = 2  # no pass, no force: the forced card must be used
            else:
                force = 0
                cb = 1 << card
                valid = tbl.valid
                for m in self.sides[1 - p]:
                    if m | cb in valid:
                        force = 1
                        break
            key = (seat, force, card if force == 1 else -1, id(uses))
            got = _SAYS.get(key)
            if got is not None and got[0] is uses:  # the memo holds the uses: their id is theirs
                return got[1]
            raws = list(uses)
            if force != 2:
                raws.append(_PASS)
                if force:
                    raws.append(_FORCES[card])
            entries = listing(seat, raws, self._entry)
            if len(_SAYS) > INTERNED_MAX:
                _SAYS.clear()
            _SAYS[key] = (uses, entries)
            return entries
        if stage != DISCARD:
            return []
        hand = self.hands[p]
        fits = 0  # the cards that fit one of the adversary's combinations
        tbl = self.tbl
        for m in self.sides[1 - p]:
            fits |= tbl.fits_mask(m)
        table = _DISCARDS.get((seat, tbl))  # the table: one per pack, hashed by identity
        if table is None:
            table = _DISCARDS[seat, tbl] = _discard_table(seat, self.rules, self._entry)
        order, discards, forces = table
        key_of = order.__getitem__
        cards = _cards_of(hand)
        cards.sort(key=key_of)
        out = list(map(discards.__getitem__, cards))
        if fits & hand:
            cards = _cards_of(fits & hand)
            cards.sort(key=key_of)
            out += map(forces.__getitem__, cards)
        return out

    # ------------------------------------------------------------ public play
    def _over_rule(self) -> str:
        return "R3.7"

    def _out_of_turn(self, action: Action) -> None:
        """Refuse an action by a seat that is not to act, saying why (R6.3, R3.3-R3.6)."""
        seat = self.seats[self.actor]
        if action.seat not in self.seats:
            raise IllegalActionError("R6.3", Msg("{seat} holds no cards in this deal", seat=f"p{action.seat}"))
        if self.stage == FORCED:
            raise IllegalActionError("R3.6", Msg("it is {seat}'s turn to use the forced card, not {other}'s",
                                                 seat=f"p{seat}", other=f"p{action.seat}"))
        self._not_theirs(action.seat)

    def _check_force(self, p: int, action: Force) -> int:
        """R3.6: the card is forced on the adversary (he is named first), and must fit his side."""
        adv = self.seats[1 - p]
        if action.target is not None and action.target != adv:
            raise IllegalActionError("R3.6", Msg("a card is forced on the adversary, {seat}, not on {target}",
                                                 seat=f"p{adv}", target=f"p{action.target}"))
        self._check_forced_card(p, action.card)
        self._check_fits(1 - p, action.card)
        return action.card

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
        fields = self._view_fields(seat, hand)
        fields["adversary_hand_count"] = adversary
        fields["hand_counts"] = (self.hands[0].bit_count(), self.hands[1].bit_count())
        v = object.__new__(ConquianView)
        v.__dict__.update(fields)  # the frozen view's fields at once (ConquianFamilyDeal._view_fields)
        return v

    def _role(self, p: int) -> str:
        if p == 0:
            return " (pone)"
        return " (dealer)" if self.seats[1] == self.dealer else " (second)"


__all__ = [
    "DISCARD", "FORCED", "K_DISCARD", "K_FORCE", "K_PASS", "K_USE", "OVER", "PHASE_NAMES", "SAY_DISCARD",
    "SAY_PASSED", "SAY_TURNED", "ConquianDeal", "Event", "RawAction", "conquian_events", "legal_raw",
    "raw_to_action", "use_forms",
]
