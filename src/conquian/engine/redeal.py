"""Re-dealing what a seat has not seen, keeping the whole public history (for search and tests).

:func:`redeal_unseen` gives a deal with the same actions as ``deal`` in which every card ``seat``
has never seen (other hands' cards never shown, the pack not yet turned or drawn, others'
draws never shown) is dealt again at random, while every card the seat saw stays where it was.
The result depends only on what the seat knows (the unseen cards as a set, the public
history), so sampling it is sampling the seat's information set uniformly: an OpenSpiel
adapter uses it to resample states, and the tests use it to prove that views hide what they
must.

```pycon
>>> import random
>>> from conquian import ConquianDeal, get_rules
>>> deal = ConquianDeal(get_rules("conquian"), seed=4, dealer=2)
>>> for a in ["p1 pass", "p2 pass"]:
...     _ = deal.play(a)
>>> other = redeal_unseen(deal, 1, random.Random(1))
>>> other.view(1) == deal.view(1), other.hands[1] != deal.hands[1]
(True, True)

```
"""

from __future__ import annotations

import random
from typing import overload

from conquian.engine.actions import Give
from conquian.engine.cards import JOKER, cards_of, parse_card
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.cooncan.deal import CooncanDeal

AnyDeal = ConquianDeal | CooncanDeal | MexicanoDeal


@overload
def redeal_unseen(deal: ConquianDeal, seat: int, rng: random.Random) -> ConquianDeal: ...
@overload
def redeal_unseen(deal: CooncanDeal, seat: int, rng: random.Random) -> CooncanDeal: ...
@overload
def redeal_unseen(deal: MexicanoDeal, seat: int, rng: random.Random) -> MexicanoDeal: ...
def redeal_unseen(deal: AnyDeal, seat: int, rng: random.Random) -> AnyDeal:
    """The same public history, with the cards ``seat`` has not seen dealt again."""
    if isinstance(deal, ConquianDeal):
        return _conquian(deal, seat, rng)
    if isinstance(deal, MexicanoDeal):
        return _mexicano(deal, seat, rng)
    return _cooncan(deal, seat, rng)


def _public_cards(deal: ConquianDeal | MexicanoDeal) -> set[int]:
    out: set[int] = set()
    for e in deal.history():
        if e.card is not None:
            out.add(e.card)
        for m in e.melds:
            out.update(cards_of(m))
    return out


def _conquian(deal: ConquianDeal, seat: int, rng: random.Random) -> ConquianDeal:
    """The same public history, with the cards ``seat`` has not seen dealt differently.

    The adversary's cards not yet shown and the pack below the cards turned so far
    are shuffled among themselves; the same actions are then replayed.  For a seat that
    sits out (R6.3) both hands' cards not yet shown are.
    """
    p = -1 if seat not in deal.seats and type(seat) is int and 1 <= seat <= deal.n_seats else deal.player_of(seat)
    deck = list(deal.deck)
    shown = _public_cards(deal)
    movable = [i for i in range(20) if (i >> 1) & 1 != p and deck[i] not in shown]
    movable += list(range(deal.pos, len(deck)))
    _shuffle_positions(deck, movable, rng)
    other = ConquianDeal(deal.rules, deck, dealer=deal.dealer)
    for a in deal.actions():
        other.play(a)
    return other


def _mexicano(deal: MexicanoDeal, seat: int, rng: random.Random) -> MexicanoDeal:
    """The same public history, with the cards ``seat`` has not seen dealt differently (R8).

    Every card the seat saw stays at its deck position: its own hand as dealt, every card shown
    on the table, turned or buried, and the card it got in the exchange once the cards have
    changed hands.  The other positions of the dealt hands and the pack not yet turned are
    shuffled among themselves, and every exchange the seat did not see gives the card now at
    the position the real one was dealt from, so that the replay stays legal.
    """
    n = deal.n
    me = deal.player_of(seat)
    deck = list(deal.deck)
    dealt = n * deal.rules.hand_size
    where = {c: i for i, c in enumerate(deck)}
    fixed = {i for i in range(dealt) if i % n == me} | set(range(dealt, deal.pos))
    fixed |= {where[c] for c in _public_cards(deal)}
    if deal.exchanged:
        fixed.add(where[deal.gives[(me - 1) % n]])
    movable = [i for i in range(len(deck)) if i not in fixed]
    _shuffle_positions(deck, movable, rng)
    other = MexicanoDeal(deal.rules, deck, dealer=deal.dealer)
    for a in deal.actions():
        if isinstance(a, Give):
            a = Give(a.seat, deck[where[a.card]])
        other.play(a)
    return other


def _cooncan(deal: CooncanDeal, seat: int, rng: random.Random) -> CooncanDeal:
    """The same public history with every card ``seat`` has not seen dealt differently.

    Deck positions whose card the seat never saw (other hands' cards never shown, other
    seats' draws from the pack never shown, the pack not yet drawn) are shuffled among
    themselves; every card another seat shows later is pinned to a position he held."""
    n = deal.n
    hs = deal.rules.hand_size
    deck = list(deal.deck)
    holding: dict[int, list[int]] = {s: [] for s in range(1, n + 1)}  # positions (or -1: a public card)
    public_cards: dict[int, list[int]] = {s: [] for s in range(1, n + 1)}
    for k in range(n * hs):
        holding[(deal.dealer + k) % n + 1].append(k)
    fixed = set(holding[seat]) | {n * hs}
    first_pack = list(range(n * hs + 1, len(deck)))
    drawn = 0
    turned = False
    for e in deal.history():
        q = e.seat
        if e.kind == "turnover":
            turned = True
        elif e.kind == "draw":
            if turned:
                public_cards[q].append(e.card if e.card is not None else -1)
            else:
                pos = first_pack[drawn]
                drawn += 1
                holding[q].append(pos)
                if q == seat:
                    fixed.add(pos)
        elif e.kind == "take":
            public_cards[q].append(e.card or 0)
        elif e.kind in ("meld", "add", "shift", "discard"):
            shown = [e.card] if e.kind == "discard" else [
                JOKER if t.startswith("X") else parse_card(t) for t in e.cards
            ]
            for c in shown:
                if c in public_cards[q]:
                    public_cards[q].remove(c)
                    continue
                pos = next(p for p in holding[q] if deck[p] == c)
                holding[q].remove(pos)
                fixed.add(pos)
    movable = [p for p in range(len(deck)) if p not in fixed]
    _shuffle_positions(deck, movable, rng)
    other = CooncanDeal(deal.rules, deck, dealer=deal.dealer)
    for a in deal.actions():
        other.play(a)
    return other


def _shuffle_positions(deck: list[int], positions: list[int], rng: random.Random) -> None:
    """Shuffle the cards at ``positions`` of ``deck`` among themselves (the others stay put)."""
    cards = [deck[i] for i in positions]
    rng.shuffle(cards)
    for i, c in zip(positions, cards, strict=True):
        deck[i] = c
