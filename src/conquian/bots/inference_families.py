"""Reading the adversaries' hands in the conquián mexicano (R8) and in Cooncan, from the public history.

The search re-deals the cards a seat has not seen (:mod:`conquian.bots.determinize`); uniformly,
by default.  A reading makes a re-deal likelier the better it explains what each adversary did:
a pool of re-deals drawn at random among those the seat's view allows is weighed once a
decision (:func:`conquian.bots.determinize.reading_pool`), and each re-deal of the search takes
the other hands of one of them by weight (the pack shuffled again).  Nothing hidden is read: the
weights come from the seat's view and its public history only.

**The mexicano** (:class:`MexicanoReading`).  As in conquian a player's hand only shrinks after
the exchange (R8.2: every say comes after it; a card taken is laid at once, R8.3), so his hand at
each of his past choices is his hand now and the cards he has shown since, and all the rest of
what he saw then is public: the table, the card in play, who turned or discarded it and who had
the first say to it (the say goes round the table, R8.3), every hand's count and the pack.  The
card the seat gave stays with the player who got it until he shows it (it is part of every
candidate hand of his); the card each adversary gave is the re-deal's (it counts as seen by him).
A re-deal is weighed as conquian's ``policy`` reading weighs a hand
(:func:`~conquian.bots.inference.likelihood`): each choice of each adversary since the exchange
counts 1 if ``foster``'s mexicano policy (:mod:`conquian.bots.foster_mexicano`) would have made it
with that hand and :data:`~conquian.bots.inference.SLIP` if not; with three players both
adversaries are read, each by his own choices.

**Cooncan** (:class:`CooncanReading`).  A hand grows there by the cards drawn from the pack
(unseen, but for a turned-over pack whose order is public) and taken from the stock (public:
a card taken and not yet shown is in every candidate hand, as in the uniform re-deal).  His
hand at a past choice is his hand now, with the cards he laid and discarded since put back and
the cards he acquired since taken out; which of his cards came by each draw from the pack is
unknown, so it is drawn at random among the cards he may have drawn then (not one he is known
to have taken or drawn later).  Two of his choices are weighed by ``foster``'s policy
(:mod:`conquian.bots.foster_cooncan`), each counting 1 if the policy would have made it with that
hand and :data:`COONCAN_SLIP` if not: his discard (rule 4: the dearest dead card, with the cards
seen on the table and in the stock at that moment), and his draw from the pack when a stock
card was there to take that would have made a three in his hand or been worth keeping (rule 1;
the reason of rule 1 that does not depend on his hand, a card fitting the table, weighs every
hand alike and is left out).  A re-deal's weight is the product of its adversaries'.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import conquian.bots.foster_cooncan as fk
import conquian.bots.foster_mexicano as fm
from conquian.bots.foster import counted
from conquian.bots.inference import SLIP, fold_use, use_from_hand
from conquian.engine.cards import JOKER, parse_card
from conquian.engine.conquian import mexicano_listing as codes
from conquian.engine.conquian.melds import MeldTable
from conquian.engine.conquian.mexicano_view import MexicanoView
from conquian.engine.cooncan.listing import K_TAKE, draw_options, threes_at
from conquian.engine.cooncan.view import CooncanView
from conquian.engine.history import folded
from conquian.engine.scoring import pip_value

#: The weight of a Cooncan choice ``foster``'s policy would not have made with a hand.
COONCAN_SLIP = 0.2


# one record of a mexicano decision: (stage, card, sides, downs, counts, pack, buried, origin, first,
# kind, arg, left): the public state before the choice, the choice, the hand cards it showed
MexicanoRecord = tuple[int, int, tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], int, int, int, int,
                       int, Any, int]


class MexicanoReads:
    """The public state of a mexicano deal as its events build it, and each player's decisions
    after the exchange (:data:`MexicanoRecord`), for :func:`~conquian.engine.history.folded`."""

    __slots__ = ("buried", "card", "counts", "downs", "first", "origin", "pack", "records", "sides", "stage")

    def __init__(self, n: int, hand_size: int, pack: int) -> None:
        self.sides: list[tuple[int, ...]] = [()] * n
        self.downs = [0] * n
        self.counts = [hand_size] * n
        self.buried = 0
        self.card = -1
        self.stage = codes.EXCHANGE
        self.pack = pack
        self.origin = self.first = 0
        self.records: list[list[MexicanoRecord]] = [[] for _ in range(n)]

    def copy(self) -> MexicanoReads:
        new = object.__new__(MexicanoReads)
        new.sides = self.sides[:]
        new.downs = self.downs[:]
        new.counts = self.counts[:]
        new.buried, new.card, new.stage, new.pack = self.buried, self.card, self.stage, self.pack
        new.origin, new.first = self.origin, self.first
        new.records = [r[:] for r in self.records]
        return new

    def _record(self, p: int, kind: int, arg: Any, left: int) -> None:
        self.records[p].append((self.stage, self.card, tuple(self.sides), tuple(self.downs), tuple(self.counts),
                                self.pack, self.buried, self.origin, self.first, kind, arg, left))

    def step(self, ev: tuple[Any, ...]) -> None:
        """Fold one event (``(kind, player, card, melds, target)``, as the deal logs it)."""
        kind, p, card = ev[0], ev[1], ev[2]
        if kind == "turn":
            self.card = card
            self.pack -= 1
            self.stage = codes.SAY
            self.origin = self.first = p
        elif kind == "pass":
            self._record(p, codes.K_PASS, -1, 0)
        elif kind == "bury":
            self.buried |= 1 << card
            self.card = -1
        elif kind == "use":
            from_hand = use_from_hand(self.downs[p], card, ev[3])
            self._record(p, codes.K_USE, ev[3], from_hand)  # what he saw, before the use
            fold_use(self.sides, self.downs, self.counts, p, ev[3], from_hand)
            self.card, self.stage = -1, codes.DISCARD
        elif kind == "force":
            arg = ev[4] << codes.FORCE_SHIFT | card
            if self.stage == codes.DISCARD:
                self._record(p, codes.K_FORCE, arg, 1 << card)
                self.counts[p] -= 1
            else:
                self._record(p, codes.K_FORCE, arg, 0)
            self.card = card
            self.stage = codes.FORCED
        elif kind == "discard":
            self._record(p, codes.K_DISCARD, card, 1 << card)
            self.counts[p] -= 1
            self.card = card
            self.stage = codes.SAY
            self.origin = p
            self.first = (p + 1) % len(self.counts)


def _same_choice(k: int, a: Any, kind: int, arg: Any) -> bool:
    """Whether the raw action ``(k, a)`` is the recorded choice (a use's combinations in any order)."""
    return k == kind and (a == arg if kind != codes.K_USE else set(a) == set(arg))


def mexicano_likelihood(tbl: MeldTable, records: list[MexicanoRecord], q: int, hand: int, gave: int,
                        slip: float = SLIP) -> float:
    """How likely player ``q``'s recorded choices are, made by ``foster``'s mexicano policy with
    ``slip``, if his hand now is ``hand`` and he gave ``gave`` (-1: unknown) at the exchange: his hand
    at each choice is his hand now and the cards he showed since (after the exchange a hand only
    shrinks, R8.3-R8.4)."""
    w = 1.0
    shown = 0
    pack_mask = tbl.pack_mask
    rng = random.Random(0)  # the policy draws nothing; the argument is its signature
    for rec in reversed(records):
        stage, card, sides, downs, counts, pack, buried, origin, first, kind, arg, left = rec
        shown |= left
        held = hand | shown
        seen = held | buried | (1 << card if card >= 0 else 0) | (1 << gave if gave >= 0 else 0)
        for d in downs:
            seen |= d
        o = fm.Obs(tbl, stage, q, card, held, sides, downs, counts, pack, pack_mask & ~seen, origin, first)
        k, a = fm.policy(o, rng)
        if not _same_choice(k, a, kind, arg):
            w *= slip
    return w


class MexicanoReading:
    """The mexicano reading of one decision (the module's docstring): every player's decisions,
    folded from the seat's view once; :meth:`weight` weighs a re-deal's other hands."""

    __slots__ = ("me", "records", "slip", "table")

    def __init__(self, view: MexicanoView, slip: float = SLIP) -> None:
        n = len(view.seats)
        rules = view.rules
        start = rules.pack_size - n * rules.hand_size
        reads = folded(("inference mexicano", n), view.event_node, lambda: MexicanoReads(n, rules.hand_size, start),
                       MexicanoReads.step, MexicanoReads.copy)
        self.me = view.player
        self.table: MeldTable = view.table
        self.records = reads.records
        self.slip = slip

    def weight(self, hands: Sequence[int], gives: Sequence[int]) -> float:
        """How likely the adversaries' choices are with these hands and gives (by player)."""
        w = 1.0
        for q, hand in enumerate(hands):
            if q != self.me:
                w *= mexicano_likelihood(self.table, self.records[q], q, hand, gives[q], self.slip)
        return w


# one step of a Cooncan player's public history, oldest first:
#   ("take", card), ("draw", card or -1 if unseen), ("show", cards),
#   ("discard", card, seen1, seen2, taken), ("refuse", stock cards he could take, seen1, seen2)
Step = tuple[Any, ...]


class CooncanSteps:
    """The public history of a Cooncan deal folded into each player's steps (:data:`Step`), with
    the stock, the turned-over pack and the cards on the table as the events build them."""

    __slots__ = ("discard_taken", "open_stock", "steps", "stock", "t1", "t2", "taken", "turned")

    def __init__(self, n: int, open_stock: bool, discard_taken: bool) -> None:
        self.steps: list[list[Step]] = [[] for _ in range(n)]
        self.stock: list[int] = []
        self.turned: list[int] | None = None
        self.t1 = self.t2 = 0  # the cards on the table, seen once and twice
        self.taken = -1
        self.open_stock = open_stock
        self.discard_taken = discard_taken

    def copy(self) -> CooncanSteps:
        new = object.__new__(CooncanSteps)
        new.steps = [s[:] for s in self.steps]
        new.stock = self.stock[:]
        new.turned = None if self.turned is None else self.turned[:]
        new.t1, new.t2, new.taken = self.t1, self.t2, self.taken
        new.open_stock, new.discard_taken = self.open_stock, self.discard_taken
        return new

    def _seen(self) -> tuple[int, int]:
        return counted(tuple(self.stock), self.t1, self.t2)

    def step(self, ev: tuple[Any, ...]) -> None:
        kind, p, card = ev[0], ev[1], ev[2]
        stock = self.stock
        mine = self.steps[p] if 0 <= p < len(self.steps) else None
        if kind == "start":
            self.stock = [card or 0]
        elif kind == "take" and mine is not None:
            c = card if card is not None else stock[-1]
            idx = len(stock) - 1 - stock[::-1].index(c)
            del stock[idx]
            mine.append(("take", c))
            self.taken = -1 if self.discard_taken else c
        elif kind == "draw" and mine is not None:
            options = tuple(r[1] for r in draw_options(tuple(stock), self.open_stock)
                            if r[0] == K_TAKE and r[1] != JOKER)
            if options:
                s1, s2 = self._seen()
                mine.append(("refuse", options, s1, s2))
            drawn = self.turned.pop(0) if self.turned else -1  # a turned-over pack's order is public
            mine.append(("draw", drawn))
            self.taken = -1
        elif kind == "turnover":
            self.turned = list(stock)
            self.stock = []
        elif kind == "discard" and mine is not None:
            c = card or 0
            s1, s2 = self._seen()
            mine.append(("discard", c, s1, s2, self.taken))
            stock.append(c)
        elif kind in ("meld", "add", "shift") and mine is not None:
            shown = tuple(JOKER if t.startswith("X") else parse_card(t) for t in ev[4])
            mine.append(("show", shown))
            self.t1, self.t2 = counted(shown, self.t1, self.t2)


def _masks(counts: dict[int, int]) -> tuple[int, int, int]:
    h1 = h2 = hj = 0
    for c, k in counts.items():
        if k <= 0:
            continue
        if c == JOKER:
            hj += k
        else:
            h1 |= 1 << c
            if k >= 2:
                h2 |= 1 << c
    return h1, h2, hj


def cooncan_likelihood(steps: list[Step], hand: Sequence[int], double: bool, rng: random.Random,
                       slip: float = COONCAN_SLIP) -> float:
    """How likely a player's weighed choices (his discards, his draws when a stock card was there)
    are, made by ``foster``'s policy, if his hand now is ``hand``: his past hands rebuilt backwards
    from it, each unseen draw's card drawn at random among the cards he may have drawn then."""
    counts: dict[int, int] = {}
    for c in hand:
        counts[c] = counts.get(c, 0) + 1
    pending: dict[int, int] = {}  # the cards known to be acquired before the point reached
    for st in steps:
        if st[0] == "take" or (st[0] == "draw" and st[1] >= 0):
            pending[st[1]] = pending.get(st[1], 0) + 1
    w = 1.0
    for st in reversed(steps):
        kind = st[0]
        if kind == "show":
            for c in st[1]:
                counts[c] = counts.get(c, 0) + 1
        elif kind == "discard":
            c = st[1]
            counts[c] = counts.get(c, 0) + 1
            if sum(counts.values()) > 1:  # a last card discarded to go out says nothing
                h1, h2, hj = _masks(counts)
                o = fk.Obs(h1, h2, hj, (), 1, (), False, double, 1, (), False, 0, st[2], st[3], st[4])
                if fk.discard_choice(o, h1, h2, hj) != c:
                    w *= slip
        elif kind == "take" or (kind == "draw" and st[1] >= 0):
            c = st[1]
            pending[c] -= 1
            if counts.get(c, 0) > 0:
                counts[c] -= 1
        elif kind == "draw":
            free = [c for c, k in counts.items() for _ in range(k - pending.get(c, 0))]
            if free:
                c = free[rng.randrange(len(free))]
                counts[c] -= 1
        else:  # refuse: the hand before the draw (undone just above)
            h1, h2, hj = _masks(counts)
            s1, s2 = st[2], st[3]
            for c in st[1]:
                a1, a2, aj = fk._add(h1, h2, hj, c)
                if threes_at(a1, a2, aj, c) > threes_at(h1, h2, hj, c):
                    w *= slip
                    break
                one, two = fk.live_masks(a1, a2, double, s1, s2)
                if pip_value(c) <= 6 and fk.keep_value(a1, a2, c, one, two) >= 1.8:
                    w *= slip
                    break
    return w


class CooncanReading:
    """The Cooncan reading of one decision (the module's docstring): every player's steps, folded
    from the seat's view once; :meth:`weight` weighs a re-deal's other hands."""

    __slots__ = ("double", "me", "slip", "steps")

    def __init__(self, view: CooncanView, slip: float = COONCAN_SLIP) -> None:
        n = len(view.hand_counts)
        rules = view.rules
        folded_steps = folded(("inference cooncan", n, rules.stock == "open", rules.discard_taken), view.event_node,
                              lambda: CooncanSteps(n, rules.stock == "open", rules.discard_taken),
                              CooncanSteps.step, CooncanSteps.copy)
        self.steps = folded_steps.steps
        self.me = view.seat
        self.double = rules.copies == 2
        self.slip = slip

    def weight(self, hands: dict[int, list[int]], rng: random.Random) -> float:
        """How likely every adversary's weighed choices are with these hands (by seat): the product of
        their likelihoods (:func:`cooncan_likelihood`)."""
        w = 1.0
        for s, hand in hands.items():
            if s != self.me:
                w *= cooncan_likelihood(self.steps[s - 1], hand, self.double, rng, self.slip)
        return w


__all__ = ["COONCAN_SLIP", "CooncanReading", "CooncanSteps", "MexicanoReading", "MexicanoReads",
           "MexicanoRecord", "cooncan_likelihood", "mexicano_likelihood"]
