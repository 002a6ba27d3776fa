"""How the batched environment (:mod:`conquian.envs.vector`) writes every deal's observation and
mask into its preallocated arrays at once: each family's encoder reads the deals directly, and
gives exactly what :class:`~conquian.envs.encoding.Encoding` gives for the same view (tested).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from conquian.engine.conquian import listing as codes
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.match import Deal
from conquian.engine.rules import MEXICANO
from conquian.envs.encoding import CONQUIAN_PHASES, CONQUIAN_SLOTS, Mask, Obs
from conquian.envs.state import match_features
from conquian.envs.vector_families import FamilyEncoding

#: a side's empty places, by the number of its combinations (at most three: a hand holds eleven cards)
_PAD = [(0,) * (CONQUIAN_SLOTS - k) for k in range(CONQUIAN_SLOTS + 1)]
_PHASE_OF_STAGE = tuple(CONQUIAN_PHASES.index(name) for name in codes.PHASE_NAMES)  # a stage's phase place


class BatchEncoding(FamilyEncoding):
    """The encoders of :class:`~conquian.envs.vector.ConquianVectorEnv` (a base class of it: the
    environment holds the deals and the arrays these methods fill); conquian's here, the other
    families' in :class:`~conquian.envs.vector_families.FamilyEncoding`."""

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
            return (codes.K_PASS, -1)
        if a < enc.A_DISCARD:
            return (codes.K_FORCE, enc.cards[a - enc.A_FORCE])
        if a < enc.A_USE:
            return (codes.K_DISCARD, enc.cards[a - enc.A_DISCARD])
        return (codes.K_USE, listed[a])

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
        # the stages and the listing as locals: the loop below runs for every deal at every step
        over, discarding, forced_stage, use_forms = codes.OVER, codes.DISCARD, codes.FORCED, codes.use_forms
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
                if stage == discarding:
                    discards = hand
                    forced = hand & fq
                else:
                    if stage != forced_stage:
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
