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

from conquian.engine.actions import Action, Add, Discard, Draw, Meld, Shift, Take
from conquian.engine.cards import JOKER, card_str, card_symbol, cards_of, parse_card, sort_key, the_card
from conquian.engine.cooncan.events import CooncanEvent, _Cards, _cards, _token, cooncan_events, raw_to_action
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
from conquian.engine.cooncan.melds import RUN, Combo, build_combo, card_at, parse_token
from conquian.engine.cooncan.view import CooncanView
from conquian.engine.deal import DealMixin, Entry, as_action, flatten, listing, setup_deck
from conquian.engine.errors import IllegalActionError, quote
from conquian.engine.history import CHUNK, newest_first
from conquian.engine.rules import COONCAN, Rules
from conquian.engine.scoring import pip_value
from conquian.i18n import Msg

_DRAW_EVENTS: Final = tuple(("draw", p, None, None, (), "", None) for p in range(16))
#: The take and discard events, made once (a stored deal holds only its links): player -> card -> event.
_TAKE_EVENTS: Final = tuple(tuple(("take", p, c, None, (), "", None) for c in range(64)) for p in range(16))
_DISCARD_EVENTS: Final = tuple(tuple(("discard", p, c, None, (), "", None) for c in range(64)) for p in range(16))


class CooncanDeal(DealMixin):
    """One deal of Cooncan (R4) for ``rules.players`` seats; ``dealer`` is a seat number."""

    OVER_STAGE: Final = OVER
    """The value of ``stage`` once the deal is over (for tight loops)."""

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
        self.winner = -1
        self.void = False
        self.splash = False
        self.events = None
        self.drawn = [None] * n
        self.n_events = 0
        self.n_actions = 0
        self.n_turns = 0
        self.taken = -1
        self.stage = DRAW
        self.turn = dealer % n
        self._log("start", dealer - 1, deck[dealt])  # the card that starts the stock, face up
        self._start_turn(dealer % n)

    @property
    def deck(self) -> tuple[int, ...]:
        """The deck as dealt, top card first (what a record stores)."""
        return tuple(self._deck)

    @deck.setter
    def deck(self, cards: Sequence[int]) -> None:
        self._deck = bytes(cards)

    @property
    def pack(self) -> tuple[int, ...]:
        """The pack face down, ``pack[pos]`` its top card (turned over from the stock, R4.5)."""
        return tuple(self._pack)

    @pack.setter
    def pack(self, cards: Sequence[int]) -> None:
        self._pack = bytes(cards)

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
            for s, v in ((s, getattr(self, s)) for s in CooncanDeal.__slots__)
        ), flatten(self.events))

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
            if c == JOKER:
                self.hj[p] += 1
            elif self.h1[p] >> c & 1:
                self.h2[p] |= 1 << c
            else:
                self.h1[p] |= 1 << c
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
            if c == JOKER:
                self.hj[p] -= 1
            elif self.h2[p] >> c & 1:
                self.h2[p] &= ~(1 << c)
            else:
                self.h1[p] &= ~(1 << c)
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
        tail, m = self._tail, self._m  # DealMixin._push, inlined (draws, takes and discards)
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
            return listing(100 + 2 * self.turn, [_DRAW_RAW, (K_TAKE, stock[-1])] if stock else [_DRAW_RAW],
                           self._entry)
        return listing(self._acting(), self.legal_raw(), self._entry)

    # --------------------------------------------------------------- checking
    def verify(self, action: Action | str) -> RawAction:
        """Check one action without playing it: its raw form, or IllegalActionError (R7)."""
        action = as_action(action)
        if self.stage == OVER:
            raise IllegalActionError("R4.6", Msg("the deal is over"))
        p = self.turn
        seat = p + 1
        if action.seat != seat:
            if not 1 <= action.seat <= self.n:
                raise IllegalActionError("R4.3", Msg("there is no seat {seat} at this table", seat=f"p{action.seat}"))
            raise IllegalActionError("R4.3", Msg("it is {seat}'s turn, not {other}'s", seat=f"p{seat}",
                                                 other=f"p{action.seat}"))
        if isinstance(action, Draw | Take):
            if self.stage != DRAW:
                raise IllegalActionError("R4.3", Msg("{seat} has drawn already this turn", seat=f"p{seat}"))
            if isinstance(action, Draw):
                return (K_DRAW, None)
            if not self.stock:
                raise IllegalActionError("R4.2", Msg("the discard pile is empty"))
            top = self.stock[-1]
            if self.rules.stock == "open":
                if action.card is None:
                    return (K_TAKE, top)
                if action.card not in self.stock:
                    raise IllegalActionError("R4.2", Msg("{card} is not in the discard pile",
                                                         card=the_card(action.card)))
                return (K_TAKE, action.card)
            if action.card is not None and action.card != top:
                raise IllegalActionError("R4.2", Msg("only the top card of a closed discard pile can be taken "
                                                     "({card}), not {value}", card=the_card(top),
                                                     value=the_card(action.card)))
            return (K_TAKE, top)
        if self.stage == DRAW:
            if isinstance(action, Discard):
                raise IllegalActionError("R4.3", Msg("{seat} must draw before discarding", seat=f"p{seat}"))
            raise IllegalActionError("R4.3", Msg("{seat} must draw (draw, or take from the discard pile) before laying "
                                                 "anything down", seat=f"p{seat}"))
        if isinstance(action, Discard):
            self._need_cards(p, [action.card])
            if action.card == self.taken and holds_other(self.h1[p], self.h2[p], self.hj[p], self.taken):
                raise IllegalActionError("R1", Msg("at this table (discard_taken = false) {seat} may not discard "
                                                   "{card}, the card he took from the discard pile this turn, while he "
                                                   "holds another card", seat=f"p{seat}", card=the_card(self.taken)))
            return (K_DISCARD, action.card)
        if isinstance(action, Meld):
            tokens = [parse_token(t) for t in action.cards]
            combo = build_combo(tokens, self.double, seat)
            self._need_cards(p, list(combo.cells))
            canon = tuple(str(combo).split())
            return (K_MELD, (len(self.combos), combo, combo.cells, canon, None))
        if isinstance(action, Add | Shift):
            k = action.combo - 1
            if not 0 <= k < len(self.combos):
                raise IllegalActionError("R4.4", Msg("there is no combination {number} on the table",
                                                     number=action.combo))
            combo = self.combos[k]
            which = None
            if isinstance(action, Shift):
                two = len(combo.movable_jokers()) > 1
                combo = combo.shift(action.which)
                which = action.which if two else None
            combo, removed, canon = self._add_cards(combo, action.cards, isinstance(action, Shift))
            self._need_cards(p, removed)
            return (K_ADD if isinstance(action, Add) else K_SHIFT, (k, combo, tuple(removed), canon, which))
        raise IllegalActionError("R4.3", Msg("{action} is not a Cooncan action", action=str(action)))

    def _need_cards(self, p: int, cards: list[int]) -> None:
        need: dict[int, int] = {}
        for c in cards:
            need[c] = need.get(c, 0) + 1
        for c, k in need.items():
            have = self.count_in_hand(p + 1, c)
            if have < k:
                if k == 1:
                    raise IllegalActionError("R4.3", Msg("{seat} does not hold {card}", seat=f"p{p + 1}",
                                                         card=the_card(c)))
                raise IllegalActionError("R4.3", Msg("{seat} does not hold {cards}", seat=f"p{p + 1}",
                                                     cards=f"{k} x {card_str(c)}"))

    def _add_cards(
        self, combo: Combo, tokens: tuple[str, ...], shifting: bool
    ) -> tuple[Combo, list[int], tuple[str, ...]]:
        """Add written cards to a combination in turn, each where it fits (R4.4, R2.3)."""
        pending = [parse_token(t) for t in tokens]
        removed: list[int] = []
        canon: list[str] = []
        before = str(combo)
        while pending:
            progress = False
            for i, (text, name) in enumerate(pending):
                c = parse_card(text)
                if c == JOKER:
                    pos = combo.joker_fits(parse_card(name) if name else None)
                else:
                    if name is not None:
                        raise IllegalActionError("R2.3", Msg("only a joker is named: {value}", value=f"{text}={name}"))
                    pos = combo.fit_position(c)
                if pos is not None:
                    combo = combo.add_at(c, pos)
                    removed.append(c)
                    if c == JOKER and combo.kind == RUN:
                        canon.append("X=" + card_str(card_at(combo.key, pos)))
                    else:
                        canon.append(card_str(c))
                    del pending[i]
                    progress = True
                    break
            if not progress:
                text, name = pending[0]
                shown = the_card(parse_card(text)) if name is None else the_card(
                    JOKER, shown=f"X={card_symbol(parse_card(name))}")
                rule = "R2.3" if shifting else "R4.4"
                if shifting and not removed:
                    raise IllegalActionError(rule, Msg("after moving the joker ({combo}), {card} does not fit: the "
                                                       "player must at once play a card that fits the sequence",
                                                       combo=str(combo), card=shown))
                raise IllegalActionError(rule, Msg("{card} does not fit {combo}", card=shown,
                                                   combo=before if not removed else str(combo)))
        return combo, removed, tuple(canon)

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


__all__ = [
    "DRAW", "K_ADD", "K_ADD1", "K_DISCARD", "K_DRAW", "K_MELD", "K_MELD3", "K_MELD3R", "K_SHIFT", "K_SHIFT1", "K_TAKE",
    "OVER", "PLAY", "STAGE_NAMES", "CooncanDeal", "CooncanEvent", "RawAction", "cooncan_events", "draw_options",
    "hand_threes", "holds_other", "joker_runs", "new_combo", "new_run3", "play_options", "raw_to_action",
]
