"""Cooncan (R4): three hands with one pack, four or five with the double pack.

A :class:`CooncanDeal` holds one deal: the deal one card at a time (R4.1),
turns of draw / lay out / discard (R4.3), a closed or open stock (R4.2), the
pack turned over from the stock (R4.5), going out (R4.6), pips and the splash
(R5.2, R5.3).  Every illegal action raises
:class:`~conquian.engine.errors.IllegalActionError` naming its rule, with the state
unchanged.

A hand is three ints: the cards held at least once (a bitmask), the cards held
twice (the double pack) and the number of jokers, so copying a deal is cheap.

```pycon
>>> from conquian import get_rules
>>> deal = CooncanDeal(get_rules("cooncan-double"), seed=4, dealer=5)
>>> deal.to_act, deal.phase, [len(deal.hand(s)) for s in range(1, 6)]
(1, 'draw', [10, 10, 10, 10, 10])
>>> deal.play("p1 meld 5c 5d 5s")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
conquian.engine.errors.IllegalActionError: R4.3: p1 must draw (draw, or take from the discard pile) before laying ...

```
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from sys import intern
from typing import Any, Final

from conquian.engine.actions import Action
from conquian.engine.cooncan.base import CooncanBase
from conquian.engine.cooncan.checks import CooncanChecks
from conquian.engine.cooncan.events import CooncanEvent, _cards, _token, cooncan_events, raw_to_action
from conquian.engine.cooncan.listing import (
    _DRAW_RAW,
    DRAW,
    K_ADD,
    K_ADD1,
    K_DISCARD,
    K_DRAW,
    K_MELD,
    K_MELD3,
    K_MELD3R,
    K_SHIFT,
    K_SHIFT1,
    K_TAKE,
    OVER,
    PLAY,
    STAGE_NAMES,
    RawAction,
    draw_options,
    hand_threes,
    holds_other,
    joker_runs,
    new_combo,
    new_run3,
    play_options,
)
from conquian.engine.deal import Entry, flatten, listing, setup_deck
from conquian.engine.rules import COONCAN, Rules

_DRAW_EVENTS: Final = tuple(("draw", p, None, None, (), "", None) for p in range(16))
#: The take and discard events, made once (a stored deal holds only its links): player -> card -> event.
_TAKE_EVENTS: Final = tuple(tuple(("take", p, c, None, (), "", None) for c in range(64)) for p in range(16))
_DISCARD_EVENTS: Final = tuple(tuple(("discard", p, c, None, (), "", None) for c in range(64)) for p in range(16))

#: A closed stock's draw listings: (player, the stock's top card or -1) -> the listing.
_DRAWS: dict[tuple[int, int], list[Entry]] = {}


class CooncanDeal(CooncanChecks):
    """One deal of Cooncan (R4) for ``rules.players`` seats; ``dealer`` is a seat number."""

    OVER_STAGE: Final = OVER
    """The value of ``stage`` once the deal is over (for tight loops)."""

    __slots__ = ()  # the fields' slots are CooncanBase's


    def __init__(self, rules: Rules, deck: Sequence[int] | None = None, *, seed: int | None = None,
                 dealer: int = 1) -> None:
        deck = setup_deck(rules, COONCAN, deck, seed, dealer, "R4.1")
        self.rules = rules
        self.double = rules.copies == 2
        n = self.n = rules.players
        self.dealer = dealer
        self.deck = deck
        self.h1 = [0] * n
        self.h2 = [0] * n
        self.hj = [0] * n
        # R4.1: one at a time from the dealer's left; the next card starts the stock.
        dealt = n * rules.hand_size
        for k in range(dealt):
            self._give((dealer + k) % n, deck[k])
        self.stock = (deck[dealt],)
        self.pack = deck[dealt + 1:]
        self.pos = 0
        self.combos = ()
        self.pack_turns = 0
        self.laid = 0
        self.laid_before = False
        self._undecided(n)
        self.n_turns = 0
        self.taken = -1
        self.stage = DRAW
        self.turn = dealer % n
        self._log("start", dealer - 1, deck[dealt])  # the card that starts the stock, face up
        self._start_turn(dealer % n)

    def _undecided(self, n: int) -> None:
        """No result and nothing recorded yet: how every deal starts, dealt here or built from a
        seat's view (the search's determinizations)."""
        self.winner = -1
        self.void = False
        self.splash = False
        self.events = None
        self.drawn = [None] * n
        self.n_events = 0
        self.n_actions = 0

    # ------------------------------------------------------------- copying
    def copy(self) -> CooncanDeal:
        """An independent copy (the pack, stock, combinations and history are immutable, shared)."""
        new = object.__new__(CooncanDeal)
        new.rules = self.rules
        new.double = self.double
        new.n = self.n
        new.dealer = self.dealer
        new._deck = self._deck
        new.h1 = self.h1[:]
        new.h2 = self.h2[:]
        new.hj = self.hj[:]
        new._pack = self._pack
        new.pos = self.pos
        new.stock = self.stock
        new.combos = self.combos
        new.turn = self.turn
        new.stage = self.stage
        new.pack_turns = self.pack_turns
        new.laid = self.laid
        new.laid_before = self.laid_before
        new.winner = self.winner
        new.void = self.void
        new.splash = self.splash
        new._node = self._node
        new._tail = self._tail
        new._m = self._m
        new._made = self._made
        new.drawn = self.drawn[:]
        new.n_events = self.n_events
        new.n_actions = self.n_actions
        new.n_turns = self.n_turns
        new.taken = self.taken
        return new

    __copy__ = copy

    def _key(self) -> tuple[Any, ...]:
        return (*(
            tuple(tuple(_cards(x)) for x in v) if s == "drawn" else tuple(v) if isinstance(v, list) else v
            for s, v in ((s, getattr(self, s)) for s in CooncanBase.__slots__)
        ), flatten(self.events))

    # -------------------------------------------------------------- internals
    def _log(self, kind: str, p: int, card: int | None = None, combo: int | None = None,
             cards: tuple[str, ...] = (), text: str = "", which: str | None = None) -> None:
        if cards:  # the cards' tokens, one string each for every deal
            cards = tuple([intern(t) for t in cards])
        self._push((kind, p, card, combo, cards, text, which))

    def _start_turn(self, p: int) -> None:
        """R4.5: an empty pack is remade from the stock, up to ``max_pack_turns`` times; and a deal
        that reaches ``max_turns`` turns is void too (the pack never runs out if everyone takes
        from the stock)."""
        self.turn = p
        self.stage = DRAW
        self.taken = -1
        self.laid_before = self.laid >> p & 1 == 1
        self.n_turns += 1
        if self.n_turns > self.rules.max_turns:
            self.stage = OVER
            self.void = True
            self._log("void", p)
            return
        if self.pos >= len(self._pack):
            if self.pack_turns >= self.rules.max_pack_turns or not self.stock:
                self.stage = OVER
                self.void = True
                self._log("void", p)
                return
            self.pack = self.stock  # face down, the oldest card on top
            self.pos = 0
            self.stock = ()
            self.pack_turns += 1
            self._log("turnover", p)

    def _out(self, p: int) -> None:
        """R4.6: the player has no card left: he wins and play stops."""
        self.winner = p
        self.stage = OVER
        self.splash = not self.laid_before
        self._log("win", p)

    def apply_raw(self, kind: int, arg: Any) -> None:
        """Apply a raw action from :meth:`legal_raw` or :meth:`verify` without checking it."""
        p = self.turn
        self.n_actions += 1
        if kind == K_DRAW:
            c = self._pack[self.pos]
            self.pos += 1
            self._give(p, c)
            self.stage = PLAY
            ev = _DRAW_EVENTS[p]  # public: that he drew, not what
            self.drawn[p] = (self.drawn[p], c)
        elif kind == K_TAKE:
            c = arg
            st = self.stock
            i = len(st) - 1 - st[::-1].index(c)
            self.stock = st[:i] + st[i + 1:]
            self._give(p, c)
            self.stage = PLAY
            if not self.rules.discard_taken:
                self.taken = c
            ev = _TAKE_EVENTS[p][c]
        elif kind == K_DISCARD:
            c = arg
            self._take_from_hand(p, c)
            self.stock = (*self.stock, c)
            ev = _DISCARD_EVENTS[p][c]
        else:
            if kind == K_MELD3:
                combo = new_combo(arg, p + 1, 0 if self.double else 4)
                index, removed, tokens, which, kind = len(self.combos), arg, tuple(str(combo).split()), None, K_MELD
            elif kind == K_MELD3R:
                combo = new_run3(arg, p + 1, 0 if self.double else 4)
                index, removed, tokens, which, kind = len(self.combos), arg, tuple(str(combo).split()), None, K_MELD
            elif kind == K_ADD1:
                index, card, pos, named = arg
                combo = self.combos[index].add_at(card, pos)
                removed, tokens, which, kind = (card,), (_token(card, pos, named),), None, K_ADD
            elif kind == K_SHIFT1:
                index, which, card, pos, named = arg
                base = self.combos[index]
                combo = base.shift(which or base.movable_jokers()[0]).add_at(card, pos)
                removed, tokens, kind = (card,), (_token(card, pos, named),), K_SHIFT
            else:
                index, combo, removed, tokens, which = arg
            for c in removed:
                self._take_from_hand(p, c)
            self.laid |= 1 << p
            if kind == K_MELD:
                self.combos = (*self.combos, combo)
                self._log("meld", p, None, len(self.combos), tokens, str(combo))
            else:
                combos = list(self.combos)
                combos[index] = combo
                self.combos = tuple(combos)
                self._log("add" if kind == K_ADD else "shift", p, None, index + 1, tokens, str(combo), which)
            if self.h1[p] == 0 and self.hj[p] == 0:
                self._out(p)
            return
        self._push(ev)
        if kind == K_DISCARD:
            if self.h1[p] == 0 and self.hj[p] == 0:
                self._out(p)
            else:
                self._start_turn((p + 1) % self.n)

    # --------------------------------------------------------------- listing
    def legal_raw(self) -> list[RawAction]:
        """The listed legal actions as raw tuples (see :meth:`legal_actions`)."""
        stage = self.stage
        if stage == DRAW:
            stock = self.stock
            if not stock:
                return [(K_DRAW, None)]
            if self.rules.stock == "open":
                return draw_options(stock, True)
            return [(K_DRAW, None), (K_TAKE, stock[-1])]
        if stage == OVER:
            return []
        p = self.turn
        return play_options(self.h1[p], self.h2[p], self.hj[p], self.combos, self.double, p + 1, self.taken)

    def random_raw(self, rnd: Callable[[], float]) -> RawAction:
        """A listed legal action drawn uniformly (``rnd`` gives floats in [0, 1)), for simulations:
        the same distribution as choosing from :meth:`legal_raw`, without building the draw list."""
        if self.stage == DRAW and self.rules.stock != "open":
            if self.stock and rnd() < 0.5:
                return (K_TAKE, self.stock[-1])
            return _DRAW_RAW
        legal = self.legal_raw()
        return legal[int(rnd() * len(legal))]

    def to_action(self, raw: RawAction) -> Action:
        """The Action of a raw action for the seat to act.

        The listing (``legal_actions``, docs/records.md): every draw, take and discard; of
        ``meld``, every three-card combination of the hand (sets, with up to two jokers;
        sequences with each arrangement of one or two jokers); of ``add``, each single hand
        card that fits a combination, and a joker at each open place; of ``shift``, each
        movable joker with each single hand card that fits after the move.  Longer forms are
        accepted too, and are never needed: each is a listed action followed by listed adds,
        so for every set of cards a meld, add or shift lays, and every table a turn can leave,
        going out above all (R4.6), there is a sequence of listed actions that does the same.
        """
        return raw_to_action(self.turn + 1, raw, self.rules.stock == "open")

    def _acting(self) -> int:
        return 100 + 2 * self.turn + (self.rules.stock == "open")

    def _fresh_listing(self) -> list[Entry]:
        # _acting and legal_raw, inline for a draw from a closed stock (half of every deal's listings)
        if self.stage == DRAW and self.rules.stock != "open":
            stock = self.stock
            key = (self.turn, stock[-1] if stock else -1)
            got = _DRAWS.get(key)  # made once a seat and top card: the list is shared, never changed
            if got is None:
                got = _DRAWS[key] = listing(100 + 2 * self.turn,
                                            [_DRAW_RAW, (K_TAKE, stock[-1])] if stock else [_DRAW_RAW], self._entry)
            return got
        return listing(self._acting(), self.legal_raw(), self._entry)



__all__ = [
    "DRAW", "K_ADD", "K_ADD1", "K_DISCARD", "K_DRAW", "K_MELD", "K_MELD3", "K_MELD3R", "K_SHIFT", "K_SHIFT1", "K_TAKE",
    "OVER", "PLAY", "STAGE_NAMES", "CooncanDeal", "CooncanEvent", "RawAction", "cooncan_events", "draw_options",
    "hand_threes", "holds_other", "joker_runs", "new_combo", "new_run3", "play_options", "raw_to_action",
]
