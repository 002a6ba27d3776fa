"""How the batched environment (:mod:`conquian.envs.vector`) writes every deal's observation and
mask into its preallocated arrays at once: each family's encoder reads the deals directly, and
gives exactly what :class:`~conquian.envs.encoding.Encoding` gives for the same view (tested).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from conquian.engine.cards import JOKER, parse_card
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.conquian.listing import (
    DISCARD,
    FORCED,
    K_DISCARD,
    K_FORCE,
    K_PASS,
    K_USE,
    OVER,
    PHASE_NAMES,
    use_forms,
)
from conquian.engine.conquian.mexicano_listing import FORCE_SHIFT, K_GIVE
from conquian.engine.conquian.mexicano_listing import OVER as MEX_OVER
from conquian.engine.conquian.mexicano_listing import SAY as MEX_SAY
from conquian.engine.match import Deal, Match
from conquian.engine.rules import MEXICANO
from conquian.envs.encoding import CONQUIAN_PHASES, CONQUIAN_SLOTS, Encoding, Mask, Obs, Public
from conquian.envs.state import match_features

#: a side's empty places, by the number of its combinations (at most three: a hand holds eleven cards)
_PAD = [(0,) * (CONQUIAN_SLOTS - k) for k in range(CONQUIAN_SLOTS + 1)]
_PHASE_OF_STAGE = tuple(CONQUIAN_PHASES.index(name) for name in PHASE_NAMES)  # a stage's phase place


class BatchEncoding:
    """The encoders of :class:`~conquian.envs.vector.ConquianVectorEnv` (a base class of it: the
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

    @staticmethod
    def _player(deal: Deal, seat: int) -> int:
        """The player index of a seat (the deal's own numbering; Cooncan numbers seats from 0)."""
        return int(deal.player_of(seat)) if hasattr(deal, "player_of") else seat - 1

    def _seat_player(self, i: int) -> int:
        """The player index whose observation environment ``i`` shows (the learner, or the seat to act)."""
        deal = self.deals[i]
        if not self.self_play:
            return self._learner[i]
        if isinstance(deal, ConquianDeal):
            return int(deal.actor)
        return self._player(deal, deal.to_act) if deal.to_act is not None else self._last[i]

    def _encode_out(self, ended: tuple[list[Any], list[int], list[list[int]], list[list[int]]] | None = None) -> None:
        """The observation and mask of every environment into the preallocated arrays (conquian:
        with ``ended``, the deals that just ended, their players and records, whose observations
        follow in the same arrays)."""
        rows = self._rows_all
        deals = self.deals
        if self.fast:
            players = None if self.self_play else self._learner
            if self.match_mode:
                self._match_features(rows, players or [d.actor for d in deals], self._obs)  # type: ignore[union-attr]
            self._to_act.fill(0)
            self._uses = self._encode_conquian(rows, players, self._obs_ext, self._mask_ext, self._to_act, ended)
            return
        listed = self._encode(rows, [self._seat_player(i) for i in rows], self._obs, self._mask)
        self._listed = listed
        self._to_act[:] = [d.to_act or 0 for d in deals]

    def _decode(self, a: int, listed: dict[int, Any]) -> tuple[int, Any]:
        """The raw action of a legal index (conquian: the listing holds the uses only)."""
        if not self.fast:
            return listed[a]  # type: ignore[no-any-return]
        enc = self.enc
        if a == enc.A_PASS:
            return (K_PASS, -1)
        if a < enc.A_DISCARD:
            return (K_FORCE, enc.cards[a - enc.A_FORCE])
        if a < enc.A_USE:
            return (K_DISCARD, enc.cards[a - enc.A_DISCARD])
        return (K_USE, listed[a])

    def _encode(self, rows: Sequence[int], players: Sequence[int], obs: Obs, mask: Mask) -> list[dict[int, Any]]:
        """Observations of player ``players[k]`` in environment ``rows[k]`` into ``obs[k]``, the
        masks into ``mask[k]``; returns the listings (empty where that player is not to act)."""
        if self.match_mode:
            self._match_features(rows, players, obs)
        if self.fast:
            return self._encode_conquian(rows, players, obs, mask)
        if not self._seated:
            return self._encode_cooncan(rows, players, obs, mask)
        if self.rules.family == MEXICANO:
            return self._encode_mexicano(rows, players, obs, mask)
        enc = self.enc
        out: list[dict[int, Any]] = []
        flat: list[int] = []
        a, d0 = self.n_actions, self.deal_obs_size
        empty: dict[int, Any] = {}
        for k, (i, p) in enumerate(zip(rows, players, strict=True)):
            deal: Any = self.deals[i]
            public = self._publics[i]
            enc.fold(public, deal)
            seat = deal.seats[p] if self._seated else p + 1
            view = deal.view(seat)
            obs[k, :d0] = enc.observe(view, public)
            if deal.to_act == seat:
                listed = enc.listed(view)
                base = k * a
                flat += [base + j for j in listed]
            else:
                listed = empty
            out.append(listed)
        mask[:len(rows)].fill(0)
        mask.reshape(-1)[flat] = 1
        return out

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
        dense, number_uses = enc.dense, enc.number_uses
        a_pass, a_force, a_discard, a_give = enc.A_PASS, enc.A_FORCE, enc.A_DISCARD, enc.A_GIVE
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
                raws = deal.legal_raw()
                forms = [arg for kind, arg in raws if kind == K_USE]
                if forms:
                    for x, f in number_uses(card, hands[p], forms):
                        if x not in listed:
                            listed[x] = (K_USE, f)
                            flat.append(at + x)
                for raw in raws:
                    kind, arg = raw
                    if kind == K_USE:
                        continue
                    if kind == K_DISCARD:
                        x = a_discard + dense[arg]
                    elif kind == K_FORCE:
                        x = a_force + ((arg >> FORCE_SHIFT) - p - 1) % n * c + dense[arg & 63]
                    elif kind == K_GIVE:
                        x = a_give + dense[arg]
                    else:
                        x = a_pass
                    if x not in listed:
                        listed[x] = raw
                        flat.append(at + x)
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

    def _match_features(self, rows: Sequence[int], players: Sequence[int], obs: Obs) -> None:
        """Whole-match episodes: after the deal's observation, every seat's running total and the
        counters it owes to the tableau pool (R5.1), in the order of play from the observing seat
        (it first), then the share of the match's deals already played
        (:func:`conquian.envs.state.match_features`)."""
        d0 = self.deal_obs_size
        for k, (i, p) in enumerate(zip(rows, players, strict=True)):
            deal: Any = self.deals[i]
            match = self.matches[i]
            if match is None:
                obs[k, d0:] = 0.0
            else:
                obs[k, d0:] = match_features(match, deal.seats[p] if self._seated else p + 1)

    def _side_fits(self, side: tuple[int, ...]) -> int:
        """The cards that fit any of a side's combinations as they lie (made once per side)."""
        f = self._sidefits.get(side)
        if f is None:
            f = 0
            for m in side:
                f |= self._fit(m)
            if len(self._sidefits) > 100_000:
                self._sidefits.clear()
            self._sidefits[side] = f
        return f

    def _conquian_tables(self) -> None:
        """Conquian: what a row's stage, player, actor and dealer decide, by the key
        ``((stage * 2 + player) * 2 + actor) * (players + 1) + dealer``, as
        :meth:`Encoding._observe_conquian` writes it: the tail (the phase's place set among say,
        forced, discard, over; to act; dealt), the seat to act (0 once over) and the pass (a
        say's pass is always listed); and the pack's count by cards drawn (``pos``)."""
        n = self.players
        rows = [(stage, p, actor, dealer) for stage in range(len(_PHASE_OF_STAGE)) for p in range(2)
                for actor in range(2) for dealer in range(n + 1)]
        tail = np.zeros((len(rows), 9), dtype=np.float32)
        seat = np.zeros(len(rows), dtype=np.int64)
        passes = np.zeros(len(rows), dtype=np.int8)
        for key, (stage, p, actor, dealer) in enumerate(rows):
            phase = _PHASE_OF_STAGE[stage]
            live = phase != 3
            acting = live and actor == p
            tail[key, phase] = 1.0
            tail[key, 7] = float(acting)
            # the seats play from the dealer's left (R3.1, R6.3): player p sits at (dealer + p) % n + 1
            tail[key, 8] = float((dealer + p) % n + 1 == dealer)
            seat[key] = (dealer + actor) % n + 1 if live else 0
            passes[key] = phase == 0 and acting
        self._tail_of, self._seat_of, self._pass_of = tail, seat, passes
        size = self.rules.pack_size
        self._left_of = ((size - np.arange(size + 1, dtype=np.int64)) / 40.0).astype(np.float32)

    def _encode_conquian(self, rows: Sequence[int], players: Sequence[int] | None, obs: Obs,
                         mask: Mask, to_act: npt.NDArray[np.int64] | None = None,
                         ended: tuple[list[Any], list[int], list[list[int]], list[list[int]]] | None = None,
                         ) -> list[dict[int, Any]]:
        """Conquian's observation (``docs/encodings.md``) and mask read from the deals' own fields.

        Per row, only integers are made in Python: the card masks of the 15 planes of the
        observation and of two more for the mask (the cards the seat may force, the cards it may
        discard), and the six numbers of the tail; they go to numpy in one call, and one table
        lookup turns every row's masks into 0/1 planes at once.  The listed uses come from the
        engine's own listing (:func:`~conquian.engine.conquian.listing.use_forms`), called only
        where the hand and the cards down hold two cards of a three-card combination with the
        card in play (one set lookup per card), and numbered by the combination that holds the
        card in play, and the further ones by the hand cards they lay, as :meth:`Encoding.listed`
        numbers them (:meth:`Encoding.number_uses`).  ``players`` ``None``: each deal's
        player to act (self-play), whose seat goes to ``to_act``.  Returns, per row, the listed
        uses by index (the pass, forces and discards are read back from the index itself)."""
        deals: list[Any]
        if len(rows) == self.num_envs:
            deals, passed, discarded = self.deals, self._passed, self._discarded
        else:
            deals = [self.deals[i] for i in rows]
            passed = [self._passed[i] for i in rows]
            discarded = [self._discarded[i] for i in rows]
        if players is None:
            players = [d.actor for d in deals]  # type: ignore[union-attr]
        if ended is not None:
            deals, players = deals + ended[0], [*players, *ended[1]]
            passed, discarded = passed + ended[2], discarded + ended[3]
        ints: list[int] = []
        flat: list[int] = []
        out: list[dict[int, Any]] = []
        a = self.n_actions
        enc = self.enc
        number_uses = enc.number_uses
        sidefits, side_fits, tbl = self._sidefits, self._side_fits, self._tbl
        near, makes = self._near, self._makes
        pad = _PAD
        empty: dict[int, Any] = {}
        over = OVER
        for deal, p, pa, di in zip(deals, players, passed, discarded, strict=True):
            q = 1 - p
            hands, sides = deal.hands, deal.sides
            hand = hands[p]
            card = deal.card
            stage = deal.stage
            actor = deal.actor
            sp, sq = sides[p], sides[q]
            uses = empty
            forced = discards = 0
            if stage != over and actor == p:
                if sq:
                    fq = sidefits.get(sq)
                    if fq is None:
                        fq = side_fits(sq)
                else:
                    fq = 0
                if stage == DISCARD:
                    discards = hand
                    forced = hand & fq
                else:
                    if stage != FORCED:
                        forced = fq & 1 << card
                    down = deal.downs[p]
                    # use_forms' own first test: can any three-card combination hold the card?
                    if (down | hand) & near[card] in makes[card]:
                        forms = use_forms(tbl, sp, down, hand, card)
                        if forms:
                            uses = {}
                            at = len(out) * a
                            for j, form in number_uses(card, hand, forms):
                                if j not in uses:
                                    uses[j] = form
                                    flat.append(at + j)
            ints += (hand, *sp, *pad[len(sp)], *sq, *pad[len(sq)], 1 << card if card >= 0 else 0, deal.buried,
                     pa[p], pa[q], di[p], di[q], forced, discards,
                     stage, deal.pos, hands[q], p, actor, deal.dealer)
            out.append(uses)
        b = len(deals)
        c = enc.n_cards
        row = np.fromiter(ints, dtype=np.int64, count=len(ints)).reshape(b, 23)  # every card below bit 63
        planes = enc._row_table.take(row[:, :17].view("<u2"), axis=0).reshape(b, 17 * c)
        obs[:b, :15 * c] = planes[:, :15 * c]
        # the tail, as Encoding._observe_conquian writes it: the phase's place set (say, forced, discard, over),
        # then pack count / 40, the hand counts / 11, to act, dealt
        t = row[:, 17:]
        # what the stage, the player, the actor and the dealer decide, looked up at once (_conquian_tables)
        key = ((t[:, 0] * 2 + t[:, 3]) * 2 + t[:, 4]) * (self.players + 1) + t[:, 5]
        tail = obs[:b, 15 * c:15 * c + 9]
        tail[:] = self._tail_of.take(key, axis=0)
        tail[:, 4] = self._left_of.take(t[:, 1])
        tail[:, 5] = np.bitwise_count(row[:, 19]) / 11.0
        tail[:, 6] = np.bitwise_count(row[:, 0]) / 11.0
        if to_act is not None:
            to_act += self._seat_of.take(key[:len(to_act)])
        mask[:b].fill(0)
        mask[:b, enc.A_PASS] = self._pass_of.take(key)
        mask[:b, enc.A_FORCE:enc.A_FORCE + c] = planes[:, 15 * c:16 * c]
        mask[:b, enc.A_DISCARD:enc.A_DISCARD + c] = planes[:, 16 * c:]
        mask.reshape(-1)[flat] = 1
        return out[:len(rows)]
