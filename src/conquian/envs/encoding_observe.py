"""The observations of the research interfaces (``docs/encodings.md``): a seat's view and the
public facts it has seen as a flat ``float32`` array, in :class:`Observing`, a base class of
:class:`~conquian.envs.encoding.Encoding`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from conquian.engine.cards import JOKER, parse_card
from conquian.engine.conquian.deal import ConquianDeal, Event
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.conquian.mexicano_events import MexicanoEvent
from conquian.engine.conquian.mexicano_listing import SAY
from conquian.engine.conquian.mexicano_view import MexicanoView
from conquian.engine.conquian.view import ConquianView
from conquian.engine.cooncan.deal import (
    CooncanDeal,
    CooncanEvent,
)
from conquian.engine.cooncan.view import CooncanView
from conquian.engine.history import newest_first
from conquian.engine.rules import Rules

Obs = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]
View = ConquianView | CooncanView | MexicanoView

#: Conquian: the most combinations one side can hold (eleven down ends the deal: 4 x 3 = 12).
CONQUIAN_SLOTS = 4
CONQUIAN_PHASES = ("say", "forced", "discard", "over")
"""Conquian's phase floats, in order: the view's public phase, one-hot."""


@dataclass
class Public:
    """The public facts a seat accumulates from the events (all seats see them alike): cards each
    seat passed and discarded (conquian, the conquián mexicano), cards each seat took from the
    table into its combinations (the conquián mexicano), cards each seat took from the stock and
    still holds (Cooncan)."""

    n_events: int = 0
    passed: dict[int, int] = field(default_factory=dict)
    discarded: dict[int, int] = field(default_factory=dict)
    known: dict[int, list[int]] = field(default_factory=dict)
    taken: dict[int, int] = field(default_factory=dict)

    def copy(self) -> Public:
        return Public(self.n_events, dict(self.passed), dict(self.discarded),
                      {k: list(v) for k, v in self.known.items()}, dict(self.taken))

    def __deepcopy__(self, memo: dict[int, Any]) -> Public:
        return self.copy()


class Observing:
    """Observations of one rules object (the fields are :class:`~conquian.envs.encoding.Encoding`'s)."""

    rules: Rules
    conquian: bool
    mexicano: bool
    cards: list[int]
    dense: list[int]
    n_cards: int
    players: int
    obs_size: int
    slots: int
    _row_table: npt.NDArray[np.float32]
    slot_size: int

    def _card(self, c: int) -> int:
        """A card's place among the pack's cards (a joker: after them)."""
        return self.n_cards if c == JOKER else self.dense[c]

    # ---------------------------------------------------------------- observations
    def update(self, public: Public, events: Sequence[Event | CooncanEvent]) -> None:
        """Fold new public events into ``public`` (a draw's card is never read; a give has none)."""
        for e in events:
            public.n_events += 1
            s = e.seat
            if isinstance(e, MexicanoEvent) and e.kind == "use" and e.card is not None:
                public.taken[s] = public.taken.get(s, 0) | 1 << e.card
                continue
            if isinstance(e, Event):
                if e.kind == "pass" and e.card is not None:
                    public.passed[s] = public.passed.get(s, 0) | 1 << e.card
                elif e.kind == "discard" and e.card is not None:
                    public.discarded[s] = public.discarded.get(s, 0) | 1 << e.card
                continue
            known = public.known.setdefault(s, [])
            if e.kind == "take" and e.card is not None:
                known.append(e.card)
            elif e.kind in ("meld", "add", "shift", "discard"):
                shown = [e.card] if e.kind == "discard" and e.card is not None else [
                    JOKER if t.startswith("X") else parse_card(t) for t in e.cards]
                for c in shown:
                    if c in known:
                        known.remove(c)

    def fold(self, public: Public, deal: ConquianDeal | CooncanDeal | MexicanoDeal) -> None:
        """Fold the public events ``deal`` has had since ``public`` last saw it."""
        new = deal.n_events - public.n_events
        if new <= 0:
            return
        if isinstance(deal, ConquianDeal | MexicanoDeal):
            self.fold_conquian(public, deal.events, deal.seats, new)
        else:
            self.update(public, deal.recent_events(new, 1))  # a draw's card is never read

    def fold_conquian(self, public: Public, node: Any, seats: tuple[int, ...], count: int) -> None:
        """:meth:`update` for conquian and the conquián mexicano from the public history as the
        deal and its views share it (:mod:`conquian.engine.history`, read newest first; every event
        is public, a give without its card), without building events."""
        passed, discarded, taken = public.passed, public.discarded, public.taken
        public.n_events += count
        for item in newest_first(node, count):
            kind, player, card = item[0], item[1], item[2]
            if kind == "use" and card is not None and self.mexicano:
                s = seats[player]
                taken[s] = taken.get(s, 0) | 1 << card
            elif kind == "pass" and card is not None:
                s = seats[player]
                passed[s] = passed.get(s, 0) | 1 << card
            elif kind == "discard" and card is not None:
                s = seats[player]
                discarded[s] = discarded.get(s, 0) | 1 << card

    def observe(self, view: View, public: Public) -> Obs:
        """The observation of ``view``'s seat (see ``docs/encodings.md``)."""
        if isinstance(view, ConquianView):
            return self._observe_conquian(view, public)
        if isinstance(view, MexicanoView):
            return self._observe_mexicano(view, public)
        return self._observe_cooncan(view, public)

    def private_ranges(self) -> list[tuple[int, int]]:
        """The ``[start, stop)`` ranges of the observation that only its seat knows (``docs/encodings.md``):
        the hand, and in the conquián mexicano the card the seat gave and the card it got in the
        exchange (R8.2).  Everything else is public: every seat sees it alike."""
        c = self.n_cards
        if self.conquian:
            return [(0, c)]
        if self.mexicano:
            gave = c + self.players * self.slots * c + 2 * c
            return [(0, c), (gave, gave + 2 * c)]
        return [(0, c + 1)]

    def observe_public(self, view: View, public: Public) -> Obs:
        """:meth:`observe` with the private ranges (:meth:`private_ranges`) zeroed: what anyone
        watching the table knows, from ``view``'s seat."""
        out = self.observe(view, public)
        for start, stop in self.private_ranges():
            out[start:stop] = 0.0
        return out

    def _planes(self, masks: list[int], out: Obs | None = None) -> Obs:
        """Card masks as 0/1 rows over the pack's cards: each mask is four 16-bit suit rows, and a
        table gives a row's ranks (one lookup for all the rows of all the masks, written into
        ``out`` when given)."""
        big = 0
        for i, m in enumerate(masks):
            big |= m << (64 * i)
        rows = np.frombuffer(big.to_bytes(8 * len(masks), "little"), dtype="<u2")
        if out is None:
            flat: Obs = self._row_table[rows].ravel()
            return flat
        self._row_table.take(rows, axis=0, out=out.reshape(len(rows), -1))
        return out

    def _observe_conquian(self, v: ConquianView, public: Public) -> Obs:
        me = v.player
        masks = [v.hand_mask]
        for p in (me, 1 - me):
            side = v.side_masks[p]
            masks += side[:CONQUIAN_SLOTS] if len(side) >= CONQUIAN_SLOTS else \
                [*side, *([0] * (CONQUIAN_SLOTS - len(side)))]
        adv = v.adversary
        masks += [1 << v.card if v.card >= 0 else 0, v.buried_mask,
                  public.passed.get(v.seat, 0), public.passed.get(adv, 0),
                  public.discarded.get(v.seat, 0), public.discarded.get(adv, 0)]
        out = np.empty(self.obs_size, dtype=np.float32)
        planes = len(masks) * self.n_cards
        self._planes(masks, out[:planes])
        tail = [0.0] * 9
        tail[CONQUIAN_PHASES.index(v.phase)] = 1.0  # say, forced, discard, over
        tail[4] = v.pack_count / 40.0
        tail[5] = v.adversary_hand_count / 11.0
        tail[6] = v.hand_mask.bit_count() / 11.0
        tail[7] = 1.0 if v.actor_seat == v.seat else 0.0
        tail[8] = 1.0 if v.dealer == v.seat else 0.0
        out[planes:] = tail
        return out

    def _observe_mexicano(self, v: MexicanoView, public: Public) -> Obs:
        """R8: every player in the order of play from the seat itself (it first, then the next)."""
        n, slots = self.players, self.slots
        me = v.player
        order = [(me + k) % n for k in range(n)]
        seats = [v.seats[p] for p in order]
        masks = [v.hand_mask]
        for p in order:
            side = v.side_masks[p]
            masks += side[:slots] if len(side) >= slots else [*side, *([0] * (slots - len(side)))]
        masks += [1 << v.card if v.card >= 0 else 0, v.buried_mask,
                  1 << v.gave_card if v.gave_card >= 0 else 0, 1 << v.got_card if v.got_card >= 0 else 0]
        for s in seats:
            masks += [public.passed.get(s, 0), public.taken.get(s, 0), public.discarded.get(s, 0)]
        out = np.zeros(self.obs_size, dtype=np.float32)
        planes = len(masks) * self.n_cards
        self._planes(masks, out[:planes])
        i = planes
        out[i + v.stage] = 1.0  # exchange, say, forced, discard, over
        out[i + 5] = v.pack_count / self.rules.pack_size
        i += 6
        full = self.rules.hand_size + 1
        say = v.stage == SAY
        actor = v.seats.index(v.actor_seat) if v.actor_seat is not None else 0
        for k, p in enumerate(order):
            out[i + k] = v.hand_counts[p] / full
            out[i + n + k] = 1.0 if v.actor_seat == v.seats[p] else 0.0
            out[i + 2 * n + k] = 1.0 if v.dealer == v.seats[p] else 0.0
            out[i + 3 * n + k] = 1.0 if v.given[p] else 0.0
            # the say to the card in play (R8.3): who turned or discarded it, who has passed it
            out[i + 4 * n + k] = 1.0 if say and p == v.origin else 0.0
            out[i + 5 * n + k] = 1.0 if say and (p - v.first) % n < (actor - v.first) % n else 0.0
        return out

    def _counts(self, cards: tuple[int, ...] | list[int]) -> Obs:
        out = np.zeros(self.n_cards + 1, dtype=np.float32)
        for c in cards:
            out[self._card(c)] += 1.0
        return out

    def _observe_cooncan(self, v: CooncanView, public: Public) -> Obs:
        n = self.players
        d = self.n_cards
        rel = [(v.seat - 1 + k) % n + 1 for k in range(n)]  # me first, then to my left
        out = np.zeros(self.obs_size, dtype=np.float32)
        i = 0
        out[i: i + d + 1] = self._counts(v.hand)
        i += d + 1
        out[i: i + d + 1] = self._counts(v.stock)
        i += d + 1
        if v.stock:
            out[i + self._card(v.stock[-1])] = 1.0
        i += d + 1
        if v.taken >= 0:
            out[i + self._card(v.taken)] = 1.0
        i += d + 1
        for k, cb in enumerate(v.combos[: self.slots]):
            base = i + k * self.slot_size
            named = cb.display().split()
            for cell, tok in zip(cb.cells, named, strict=False):
                if cell == JOKER:
                    if "(" in tok:
                        out[base + d + 1 + (self.dense[parse_card(tok[2:tok.index(")")])])] = 1.0
                    else:
                        out[base + d] += 1.0
                else:
                    out[base + self.dense[cell]] += 1.0
            out[base + 2 * d + 1 + rel.index(cb.owner)] = 1.0
            out[base + 2 * d + 1 + n] = 1.0 if len(set(c & 15 for c in cb.cells if c != JOKER)) > 1 else 0.0
        i += self.slots * self.slot_size
        for s in rel[1:]:
            out[i: i + d + 1] = self._counts(public.known.get(s, []))
            i += d + 1
        for s in rel:
            out[i] = v.hand_counts[s - 1] / 15.0
            out[i + n] = 1.0 if v.laid[s - 1] else 0.0
            if v.actor_seat == s:
                out[i + 2 * n] = 1.0
            i += 1
        i += 2 * n
        out[i + v.stage] = 1.0  # draw, play, over
        i += 3
        out[i] = v.pack_count / self.rules.pack_size
        out[i + 1] = v.pack_turns / max(1, self.rules.max_pack_turns)
        out[i + 2] = len(v.stock) / self.rules.pack_size
        return out
