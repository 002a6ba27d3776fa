"""The ``foster`` bot: the seeds' "Suggestions for good play", for every form of the game.

See :mod:`conquian.bots.foster_conquian` and :mod:`conquian.bots.foster_cooncan` for
the rules and the passage each comes from, and :mod:`conquian.bots.foster_mexicano` for
the same principles carried over to the conquián mexicano (R8).  The policies work on a small
observation built from a seat's view, so the same code also runs inside the
``expert`` bot's playouts (on deals it has re-dealt from its own view).
"""

from __future__ import annotations

import random
from typing import Any

import conquian.bots.foster_conquian as fc
import conquian.bots.foster_cooncan as fk
import conquian.bots.foster_mexicano as fm
from conquian.bots.base import View, check_view, register
from conquian.engine.actions import Action
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.conquian.deal import raw_to_action as conquian_action
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.conquian.mexicano_events import raw_to_action as mexicano_action
from conquian.engine.conquian.mexicano_view import MexicanoView
from conquian.engine.conquian.view import ConquianView
from conquian.engine.cooncan.deal import CooncanDeal
from conquian.engine.cooncan.deal import raw_to_action as cooncan_action
from conquian.engine.cooncan.view import CooncanView


def conquian_obs_from_view(v: ConquianView) -> fc.Obs:
    """The observation of a conquian view."""
    p = v.player
    tbl = v.table
    down, other_down = v.down_mask(p), v.down_mask(1 - p)
    seen = v.hand_mask | down | other_down | v.buried_mask | ((1 << v.card) if v.card >= 0 else 0)
    return fc.Obs(  # unseen: v.unseen_mask(), without finding the table and the sides' cards again
        tbl=tbl, stage=v.stage, card=v.card, hand=v.hand_mask, side=v.side_masks[p], down=down,
        other_side=v.side_masks[1 - p], other_down=other_down, other_hand_count=v.adversary_hand_count,
        pack_count=v.pack_count, unseen=tbl.pack_mask & ~seen,
    )


def conquian_obs_from_state(d: ConquianDeal) -> fc.Obs:
    """The acting seat's observation of a deal (for playouts on a re-dealt state)."""
    p = d.actor
    seen = d.hands[p] | d.downs[0] | d.downs[1] | d.buried | ((1 << d.card) if d.card >= 0 else 0)
    return fc.Obs(
        tbl=d.tbl, stage=d.stage, card=d.card, hand=d.hands[p], side=d.sides[p], down=d.downs[p],
        other_side=d.sides[1 - p], other_down=d.downs[1 - p], other_hand_count=d.hands[1 - p].bit_count(),
        pack_count=d.pack_count, unseen=d.tbl.pack_mask & ~seen,
    )


def mexicano_obs_from_view(v: MexicanoView) -> fm.Obs:
    """The observation of a conquián mexicano view."""
    n = len(v.seats)
    return fm.Obs(
        tbl=v.table, stage=v.stage, me=v.player, card=v.card, hand=v.hand_mask, sides=v.side_masks,
        downs=tuple(v.down_mask(p) for p in range(n)), hand_counts=v.hand_counts, pack_count=v.pack_count,
        unseen=v.unseen_mask(), origin=v.origin, first=v.first,
    )


def mexicano_obs_from_state(d: MexicanoDeal) -> fm.Obs:
    """The acting seat's observation of a conquián mexicano deal (for playouts on a re-dealt state):
    what its view would show, read from the state without building the view."""
    p = d.actor
    seen = d.hands[p] | d.buried
    for down in d.downs:
        seen |= down
    for c in (d.card, d.gives[p]):
        if c >= 0:
            seen |= 1 << c
    return fm.Obs(
        tbl=d.tbl, stage=d.stage, me=p, card=d.card, hand=d.hands[p], sides=tuple(d.sides), downs=tuple(d.downs),
        hand_counts=tuple([h.bit_count() for h in d.hands]), pack_count=d.pack_count,
        unseen=d.tbl.pack_mask & ~seen, origin=d.origin, first=d.first,
    )


def counted(cards: tuple[int, ...], s1: int, s2: int) -> tuple[int, int]:
    """``s1``, ``s2`` (cards seen at least once, twice) with ``cards`` seen too (the adversary's
    model in :mod:`conquian.bots.inference_families` counts the cards shown the same way)."""
    for c in cards:
        b = 1 << c
        if s1 & b:
            s2 |= b
        else:
            s1 |= b
    return s1, s2


#: the last table and stock read by :func:`_seen`, each with its cards seen once and twice (a table
#: lies unchanged over many turns, and a stock grows by a card a turn)
_TABLE_SEEN: list[tuple[tuple[Any, ...], int, int]] = [((), 0, 0)]
_STOCK_SEEN: list[tuple[tuple[int, ...], int, int]] = [((), 0, 0)]


def _seen(combos: tuple[Any, ...], stock: tuple[int, ...]) -> tuple[int, int]:
    """The cards on the table or in the stock at least once, and at least twice, as masks."""
    last = _TABLE_SEEN[0]
    if last[0] is combos:
        t1, t2 = last[1], last[2]
    else:
        t1 = t2 = 0
        for cb in combos:
            t1, t2 = counted(cb.cells, t1, t2)
        _TABLE_SEEN[0] = (combos, t1, t2)
    got = _STOCK_SEEN[0]
    before = got[0]
    if before is stock:
        k1, k2 = got[1], got[2]
    else:
        if len(stock) == len(before) + 1 and stock[:-1] == before:  # a discard on the stock seen last
            k1, k2 = counted(stock[-1:], got[1], got[2])
        else:
            k1, k2 = counted(stock, 0, 0)
        _STOCK_SEEN[0] = (stock, k1, k2)
    return t1 | k1, t2 | k2 | (t1 & k1)


def cooncan_obs_from_view(v: CooncanView) -> fk.Obs:
    """The observation of a Cooncan view."""
    s1, s2 = _seen(v.combos, v.stock)
    return fk.Obs(
        h1=v.h1, h2=v.h2, hj=v.jokers, combos=v.combos, stage=v.stage, stock=v.stock,
        open_stock=v.rules.stock == "open", double=v.rules.copies == 2, seat=v.seat, hand_counts=v.hand_counts,
        laid=v.laid[v.seat - 1], pack_count=v.pack_count, seen1=s1, seen2=s2, taken=v.taken,
    )


def cooncan_obs_from_state(d: CooncanDeal) -> fk.Obs:
    """The acting seat's observation of a Cooncan deal (for playouts)."""
    p = d.turn
    h1, h2, hj = d.h1, d.h2, d.hj
    combos, stock = d.combos, d.stock
    s1, s2 = _seen(combos, stock)
    return fk.Obs(
        h1=h1[p], h2=h2[p], hj=hj[p], combos=combos, stage=d.stage, stock=stock,
        open_stock=d.rules.stock == "open", double=d.double, seat=p + 1,
        hand_counts=tuple([h1[q].bit_count() + h2[q].bit_count() + hj[q] for q in range(d.n)]),
        laid=bool(d.laid >> p & 1), pack_count=d.pack_count, seen1=s1, seen2=s2, taken=d.taken,
    )


def state_policy(d: ConquianDeal | CooncanDeal | MexicanoDeal, rng: random.Random) -> Any:
    """Foster's raw action for whoever is to act in a deal (used inside the expert's playouts)."""
    if isinstance(d, ConquianDeal):
        return fc.policy(conquian_obs_from_state(d), rng)
    if isinstance(d, MexicanoDeal):
        return fm.policy(mexicano_obs_from_state(d), rng)
    return fk.policy(cooncan_obs_from_state(d), rng)


@register("foster")
class FosterBot:
    """Plays by Foster's suggestions for good play (rule-based, fast, deterministic)."""

    name = "foster"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        """Foster's choice for the view's seat."""
        view = check_view(view)
        if isinstance(view, CooncanView):
            raw = fk.policy(cooncan_obs_from_view(view), self.rng)
            return cooncan_action(view.seat, raw, view.rules.stock == "open")
        if isinstance(view, MexicanoView):
            return mexicano_action(view.seats, view.player, fm.policy(mexicano_obs_from_view(view), self.rng))
        return conquian_action(view.seat, fc.policy(conquian_obs_from_view(view), self.rng))
