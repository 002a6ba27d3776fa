"""The batched environment's encoders of the conquián mexicano and of Cooncan (a base class of
:class:`~conquian.envs.vector_encoding.BatchEncoding`): each reads the deals directly and gives
exactly what :class:`~conquian.envs.encoding.Encoding` gives for the same view (tested).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from conquian.engine.cards import JOKER, parse_card
from conquian.engine.conquian.mexicano_listing import OVER as MEX_OVER
from conquian.engine.conquian.mexicano_listing import SAY as MEX_SAY
from conquian.engine.match import Deal, Match
from conquian.envs.encoding import Encoding, Mask, Obs, Public


class FamilyEncoding:
    """The conquián mexicano's and Cooncan's encoders, and the fields every encoder reads (the
    environment holds the deals and the arrays these methods fill)."""

    enc: Encoding
    deals: list[Deal]
    rules: Any
    fast: bool
    n_actions: int
    players: int
    deal_obs_size: int
    obs_size: int
    num_envs: int
    self_play: bool
    match_mode: bool
    matches: list[Match | None]
    _combos: dict[int, tuple[Any, tuple[tuple[int, float], ...]]]
    _seated: bool
    _publics: list[Public]
    _fits: dict[int, int]
    _to_act: npt.NDArray[np.int64]
    _tbl: Any
    _passed: list[list[int]]
    _discarded: list[list[int]]
    _uses: list[dict[int, Any]]
    _rows_all: list[int]
    _near: list[int]
    _makes: list[frozenset[int]]
    _sidefits: dict[tuple[int, ...], int]
    _tail_of: npt.NDArray[np.float32]
    _seat_of: npt.NDArray[np.int64]
    _pass_of: npt.NDArray[np.int8]
    _left_of: npt.NDArray[np.float32]
    _obs: npt.NDArray[np.float32]
    _obs_ext: npt.NDArray[np.float32]
    _mask_ext: npt.NDArray[np.int8]
    _mask: npt.NDArray[np.int8]
    _listed: list[dict[int, tuple[int, Any]]]
    _learner: list[int]
    _last: list[int]

    def _fit(self, m: int) -> int:
        """The cards that fit combination ``m`` as it lies (R3.6), as a mask (made once per combination)."""
        f = self._fits.get(m)
        if f is None:
            valid = self._tbl.valid
            f = 0
            for c in self.enc.cards:
                if not m >> c & 1 and m | 1 << c in valid:
                    f |= 1 << c
            self._fits[m] = f
        return f

    def _encode_mexicano(self, rows: Sequence[int], players: Sequence[int], obs: Obs,
                         mask: Mask) -> list[dict[int, Any]]:
        """The conquián mexicano's observation (``docs/encodings.md``) read from the deals' own
        fields, as conquian's: every row's card planes looked up at once, the tails in one array."""
        enc, n, slots = self.enc, self.players, self.enc.slots
        c = enc.n_cards
        a = self.n_actions
        pad = [(0,) * (slots - j) for j in range(slots)]
        full = float(self.rules.hand_size + 1)
        pack_size = float(self.rules.pack_size)
        masks: list[int] = []
        tails: list[float] = []
        flat: list[int] = []
        out: list[dict[int, Any]] = []
        for k, (i, p) in enumerate(zip(rows, players, strict=True)):
            deal: Any = self.deals[i]
            public = self._publics[i]
            enc.fold(public, deal)
            seats, gives, sides, hands = deal.seats, deal.gives, deal.sides, deal.hands
            order = [(p + j) % n for j in range(n)]
            masks.append(hands[p])
            for q in order:
                side = sides[q]
                masks += side + pad[len(side)] if len(side) < slots else side[:slots]
            card = deal.card
            got = gives[(p - 1) % n] if gives[-1] >= 0 else -1
            masks += (1 << card if card >= 0 else 0, deal.buried, 1 << gives[p] if gives[p] >= 0 else 0,
                      1 << got if got >= 0 else 0)
            passed, taken, discarded = public.passed, public.taken, public.discarded
            for q in order:
                s = seats[q]
                masks += (passed.get(s, 0), taken.get(s, 0), discarded.get(s, 0))
            stage = deal.stage
            tail = [0.0] * (6 + 6 * n)
            tail[stage] = 1.0
            tail[5] = deal.pack_count / pack_size
            over = stage == MEX_OVER
            actor = 0 if over else deal.actor
            say = stage == MEX_SAY
            origin, first, dealer = deal.origin, deal.first, deal.dealer
            for j, q in enumerate(order):
                tail[6 + j] = hands[q].bit_count() / full
                if not over and q == actor:
                    tail[6 + n + j] = 1.0
                if seats[q] == dealer:
                    tail[6 + 2 * n + j] = 1.0
                if gives[q] >= 0:
                    tail[6 + 3 * n + j] = 1.0
                if say:
                    if q == origin:
                        tail[6 + 4 * n + j] = 1.0
                    if (q - first) % n < (actor - first) % n:
                        tail[6 + 5 * n + j] = 1.0
            tails += tail
            listed: dict[int, Any] = {}
            if not over and actor == p:
                at = k * a
                listed = enc.listed_raws(deal.legal_raw(), card, hands[p], p)
                flat += [at + x for x in listed]
            out.append(listed)
        b = len(rows)
        per = 1 + n * slots + 4 + 3 * n
        rows16 = np.array(masks, dtype=np.uint64).view("<u2")
        planes = per * c
        obs[:b, :planes] = enc._row_table.take(rows16, axis=0).reshape(b, planes)
        obs[:b, planes:planes + 6 + 6 * n] = np.array(tails, dtype=np.float32).reshape(b, 6 + 6 * n)
        mask[:b].fill(0)
        mask.reshape(-1)[flat] = 1
        return out

    def _combo_cells(self, cb: Any) -> tuple[tuple[int, float], ...]:
        """A Cooncan combination's cells in its slot of the observation, as ``(offset, value)``
        pairs, worked out as :meth:`Encoding._observe_cooncan` does (jokers named by the
        combination's own display), once per combination (combinations never change)."""
        hit = self._combos.get(id(cb))
        if hit is not None and hit[0] is cb:
            return hit[1]
        d, dense = self.enc.n_cards, self.enc.dense
        cells: dict[int, float] = {}
        for cell, tok in zip(cb.cells, cb.display().split(), strict=False):
            if cell == JOKER:
                if "(" in tok:
                    cells[d + 1 + dense[parse_card(tok[2:tok.index(")")])]] = 1.0
                else:
                    cells[d] = cells.get(d, 0.0) + 1.0
            else:
                cells[dense[cell]] = cells.get(dense[cell], 0.0) + 1.0
        if len(set(c & 15 for c in cb.cells if c != JOKER)) > 1:
            cells[2 * d + 1 + self.players] = 1.0
        entry = tuple(cells.items())
        if len(self._combos) > 100_000:
            self._combos.clear()
        self._combos[id(cb)] = (cb, entry)
        return entry

    def _encode_cooncan(self, rows: Sequence[int], players: Sequence[int], obs: Obs,
                        mask: Mask) -> list[dict[int, Any]]:
        """Cooncan's observation (``docs/encodings.md``) read from the deals' own fields: every
        row's nonzero entries gathered as (index, value) pairs and written in one call."""
        enc, n = self.enc, self.players
        d = enc.n_cards
        d1 = d + 1
        dense = enc.dense
        size, a = self.obs_size, self.n_actions
        slots, slot_size = enc.slots, enc.slot_size
        o_combo = 4 * d1
        o_known = o_combo + slots * slot_size
        o_counts = o_known + (n - 1) * d1
        o_stage = o_counts + 3 * n
        pack_size, turns = float(self.rules.pack_size), float(max(1, self.rules.max_pack_turns))
        idx: list[int] = []
        vals: list[float] = []
        flat: list[int] = []
        out: list[dict[int, Any]] = []
        combo_cells = self._combo_cells
        index = enc.index
        for k, (i, p) in enumerate(zip(rows, players, strict=True)):
            deal: Any = self.deals[i]
            public = self._publics[i]
            enc.fold(public, deal)
            seat = p + 1
            rel = [(p + j) % n + 1 for j in range(n)]
            base = k * size
            h2 = deal.h2[p]
            m = deal.h1[p]
            while m:
                low = m & -m
                c = low.bit_length() - 1
                m ^= low
                idx.append(base + dense[c])
                vals.append(2.0 if h2 >> c & 1 else 1.0)
            if deal.hj[p]:
                idx.append(base + d)
                vals.append(float(deal.hj[p]))
            stock = deal.stock
            if stock:
                counts: dict[int, float] = {}
                for c in stock:
                    j = d if c == JOKER else dense[c]
                    counts[j] = counts.get(j, 0.0) + 1.0
                for j, x in counts.items():
                    idx.append(base + d1 + j)
                    vals.append(x)
                top = stock[-1]
                idx.append(base + 2 * d1 + (d if top == JOKER else dense[top]))
                vals.append(1.0)
            taken = deal.taken
            if taken >= 0:
                idx.append(base + 3 * d1 + (d if taken == JOKER else dense[taken]))
                vals.append(1.0)
            for k2, cb in enumerate(deal.combos[:slots]):
                at = base + o_combo + k2 * slot_size
                for off, x in combo_cells(cb):
                    idx.append(at + off)
                    vals.append(x)
                idx.append(at + 2 * d + 1 + rel.index(cb.owner))
                vals.append(1.0)
            known = public.known
            for j, s in enumerate(rel[1:]):
                held = known.get(s)
                if held:
                    counts = {}
                    for c in held:
                        x = d if c == JOKER else dense[c]
                        counts[x] = counts.get(x, 0.0) + 1.0
                    at = base + o_known + j * d1
                    for x, v in counts.items():
                        idx.append(at + x)
                        vals.append(v)
            to_act = deal.to_act
            laid = deal.laid
            for j, s in enumerate(rel):
                q = s - 1
                idx += (base + o_counts + j, base + o_counts + n + j, base + o_counts + 2 * n + j)
                vals += ((deal.h1[q].bit_count() + deal.h2[q].bit_count() + deal.hj[q]) / 15.0,
                         1.0 if laid >> q & 1 else 0.0, 1.0 if to_act == s else 0.0)
            idx += (base + o_stage + deal.stage, base + o_stage + 3, base + o_stage + 4, base + o_stage + 5)
            vals += (1.0, deal.pack_count / pack_size, deal.pack_turns / turns, len(stock) / pack_size)
            if to_act == seat:
                listed: dict[int, Any] = {}
                for raw in deal.legal_raw():
                    listed.setdefault(index(raw), raw)
                at = k * a
                flat += [at + j for j in listed]
            else:
                listed = {}
            out.append(listed)
        b = len(rows)
        body = obs[:b]
        body[:, :self.deal_obs_size].fill(0.0)
        body.reshape(-1)[idx] = vals
        mask[:b].fill(0)
        mask.reshape(-1)[flat] = 1
        return out

