"""The conquián mexicano (R8) for two or three players as pure JAX functions over fixed-size arrays.

The same design as :mod:`conquian.envs.jax.env`: one deal is a :class:`MexicanoState` of
arrays, :meth:`MexicanoJax.init` and :meth:`MexicanoJax.step` are pure functions of it (map
them with ``jax.vmap``, compile them with ``jax.jit``), and the observation and action mask are
exactly those of :mod:`conquian.envs.encoding` for ``conquian-mexicano`` (version 1 of the
action space: the exchange's gives, forces naming the player forced, the further uses), the
rewards the deal's scores by seat (R8.7), as
:class:`~conquian.envs.vector.ConquianVectorEnv` gives them in self-play, tested in lockstep
with it over random deals (``tests/test_envs_jax.py``).  The uses of a card are conquian's
listing (R3.4 with ``hand`` in place of ten, R8.3), shared with the two-hand environment.

```python
>>> import jax
>>> from conquian.envs.jax.mexicano import MexicanoJax
>>> env = MexicanoJax(players=3)
>>> keys = jax.random.split(jax.random.PRNGKey(0), 8)
>>> state = jax.jit(env.batch_init)(keys)
>>> state.observation.shape, state.legal_action_mask.shape
((8, 944), (8, 867))
>>> int(state.legal_action_mask[0].sum())      # R8.2: the first player gives any of his 8 cards
8
>>> actions = state.legal_action_mask.argmax(axis=1)
>>> state, final_obs = jax.jit(env.batch_step_autoreset)(state, actions, keys)
>>> state.rewards.shape
(8, 3)

```
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax import Array

from conquian.engine.conquian.listing import DISCARD as C_DISCARD
from conquian.engine.conquian.listing import FORCED as C_FORCED
from conquian.engine.conquian.listing import SAY_TURNED as C_SAY
from conquian.engine.conquian.mexicano_listing import DISCARD, EXCHANGE, FORCED, OVER, SAY
from conquian.envs.jax.deals import JaxDeals
from conquian.envs.jax.search import Uses, bits, empty, union, use_melds
from conquian.envs.jax.tables import Tables, mexicano_tables


class MexicanoState(NamedTuple):
    """One deal of the conquián mexicano.  Players are indexes in the order of play, 0 the first
    after the dealer (the dealer is ``players - 1``), as in
    :class:`~conquian.engine.conquian.mexicano.MexicanoDeal`; card sets are ``uint32[2]`` words
    over the dense cards, combinations numbers of the action space's (``n_melds``: none)."""

    deck: Array  #: int32[40], the dense cards, top first
    pos: Array  #: cards dealt or turned
    hands: Array  #: uint32[n, 2]
    sides: Array  #: int32[n, 4], each player's combinations in the engine's order
    downs: Array  #: uint32[n, 2]
    gives: Array  #: int32[n], the card each player gives in the exchange (-1: not yet)
    card: Array  #: the card in play (-1: none)
    stage: Array  #: the engine's stage (EXCHANGE, SAY, FORCED, DISCARD, OVER)
    actor: Array  #: the player to act
    origin: Array  #: the player who turned or discarded the card in play (R8.3)
    first: Array  #: the player who had the first say to it
    last: Array  #: the player who acted last (whose observation a finished deal ends on)
    buried: Array  #: uint32[2]
    winner: Array  #: the winning player, -1 for none (a draw, R8.6)
    dealer: Array  #: the dealer's seat (1 to n)
    passed: Array  #: uint32[n, 2], the cards each player passed
    taken: Array  #: uint32[n, 2], the cards each player used from the table
    discarded: Array  #: uint32[n, 2], the cards each player discarded
    uses: Uses  #: the listed uses of the player to act
    legal_action_mask: Array  #: bool[n_actions]
    observation: Array  #: float32[obs_size], the observation of the player to act (once over: of the last to act)
    rewards: Array  #: float32[n], by seat (index 0: seat 1), this step's
    terminated: Array  #: whether the deal ended at this step (or before)
    to_act: Array  #: the seat to act, 0 once over
    steps: Array  #: actions played in the deal


#: the fields an illegal action leaves as they were (it ends the deal, nothing played)
_PLAY_FIELDS = ("pos", "hands", "sides", "downs", "gives", "card", "actor", "origin", "first", "buried", "winner",
                "passed", "taken", "discarded")


class MexicanoJax(JaxDeals[MexicanoState]):
    """The pure functions of the conquián mexicano for ``players`` (2 or 3, the tercerilla) with
    the options of R8.1 (``hand``, ``exchange``, ``exhausted``).  ``illegal_reward``: a masked
    action ends the deal, the seat that played it rewarded with it (the others 0), as
    :class:`~conquian.envs.vector.ConquianVectorEnv` with the same keyword.  The single-deal
    methods take and give one deal (map them with ``jax.vmap``); the ``batch_`` methods take a
    batch and run the listing's searches only on the deals that need one."""

    def __init__(self, players: int = 2, *, hand: int = 8, exchange: bool = True, exhausted: str = "tablas",
                 illegal_reward: float = -1.0, search_rows: int | None = None) -> None:
        self.players = players
        self.T: Tables = mexicano_tables(players, hand, exchange, exhausted)
        self.rules = self.T.rules
        self.num_actions = self.T.n_actions
        self.obs_size = self.T.obs_size
        self.illegal_reward = float(illegal_reward)
        self.search_rows = search_rows
        T = self.T
        self.slots = T.enc.slots
        pack = T.pack_size
        #: the observation's fractions as numpy makes them (in float64, then rounded to float32)
        self._left = ((pack - np.arange(pack + 1)) / float(pack)).astype(np.float32)
        self._count = (np.arange(pack + 1) / float(T.hand_size + 1)).astype(np.float32)
        self.lays = 1 << T.enc.lay_bits
        assert T.a_lay == T.a_give + T.n_cards and T.n_actions == T.a_lay + self.lays
        assert T.obs_size == T.n_cards * (1 + players * self.slots + 4 + 3 * players) + 6 + 6 * players

    def _deal(self, deck: Array, dealer: Array) -> MexicanoState:
        T = self.T
        n, k = self.players, T.n_melds
        dealt = n * T.hand_size
        hb = jnp.asarray(T.card_bit)[deck[:dealt]]  # R8.2: one at a time, the first after the dealer first
        who = jnp.arange(dealt) % n
        hands = jnp.stack([union(jnp.where((who == p)[:, None], hb, jnp.uint32(0))) for p in range(n)])
        zn = jnp.zeros((n, 2), jnp.uint32)
        i32 = jnp.int32
        s = MexicanoState(
            deck=deck, pos=i32(dealt), hands=hands, sides=jnp.full((n, 4), k, i32), downs=zn,
            gives=jnp.full(n, -1, i32), card=i32(-1), stage=i32(EXCHANGE), actor=i32(0), origin=i32(0),
            first=i32(0), last=i32(0), buried=jnp.zeros(2, jnp.uint32), winner=i32(-1), dealer=dealer,
            passed=zn, taken=zn, discarded=zn, uses=self._no_uses(),
            legal_action_mask=jnp.zeros(T.n_actions, jnp.bool_), observation=jnp.zeros(T.obs_size, jnp.float32),
            rewards=jnp.zeros(n, jnp.float32), terminated=jnp.bool_(False), to_act=i32(0), steps=i32(0))
        return s if T.exchange else self._turn(s, i32(0))

    def _turn(self, s: MexicanoState, player: Array) -> MexicanoState:
        """``player`` turns the next card, or the pack is exhausted and the deal ends (R8.6)."""
        T = self.T
        more = s.pos < T.pack_size
        top = s.deck[jnp.minimum(s.pos, T.pack_size - 1)]
        count = jnp.sum(bits(s.hands, T.n_cards).astype(jnp.int32), axis=1)
        fewest = jnp.min(count)
        alone = jnp.sum((count == fewest).astype(jnp.int32)) == 1
        winner = jnp.where(T.fewest & alone, jnp.argmin(count), -1).astype(jnp.int32)
        return s._replace(card=jnp.where(more, top, -1).astype(jnp.int32), pos=jnp.where(more, s.pos + 1, s.pos),
                          stage=jnp.where(more, SAY, OVER).astype(jnp.int32),
                          actor=jnp.where(more, player, s.actor), origin=jnp.where(more, player, s.origin),
                          first=jnp.where(more, player, s.first), winner=jnp.where(more, s.winner, winner))

    def _seat(self, s: MexicanoState, p: Array) -> Array:
        """The seat of player ``p`` (1 to n)."""
        return (s.dealer + p) % self.players + 1

    def _listing_stage(self, stage: Array) -> Array:
        """The stage the shared use listing reads (a say, a forced card, or neither)."""
        return jnp.where(stage == SAY, C_SAY, jnp.where(stage == FORCED, C_FORCED, C_DISCARD)).astype(jnp.int32)

    def _fits(self, s: MexicanoState, t: Array) -> Array:
        """The cards that fit one of player ``t``'s combinations as they lie (R3.6, R8.4)."""
        return union(jnp.asarray(self.T.fit)[s.sides[t]])

    def _finish_row(self, s: MexicanoState, uses: Uses) -> MexicanoState:
        T = self.T
        n, c = self.players, T.n_cards
        p = s.actor
        live = s.stage != OVER
        hand = s.hands[p]
        cbit = jnp.asarray(T.card_bit)[jnp.maximum(s.card, 0)]
        say = s.stage == SAY
        dis = s.stage == DISCARD
        forces = []
        for k in range(1, n):
            fq = self._fits(s, (p + k) % n)
            forces.append(bits(jnp.where(dis, hand & fq, jnp.where(say, fq & cbit, jnp.uint32(0))), c))
        discard = jnp.where(dis, hand, jnp.uint32(0))
        give = jnp.where(s.stage == EXCHANGE, hand, jnp.uint32(0))
        mask = jnp.concatenate([say[None], *forces, bits(discard, c), uses.use, bits(give, c),
                                uses.lay[:self.lays]]) & live
        seen = jnp.where(live, p, s.last)
        return s._replace(uses=uses, legal_action_mask=mask, observation=self._observe(s, seen),
                          to_act=jnp.where(live, self._seat(s, p), 0))

    # ------------------------------------------------------------ observations
    def observe(self, state: MexicanoState, seat: Array) -> Array:
        """The observation of ``seat`` in one deal (``docs/encodings.md``)."""
        return self._observe(state, (jnp.asarray(seat) - state.dealer - 1) % self.players)

    def _observe(self, s: MexicanoState, p: Array) -> Array:
        T = self.T
        n, c, slots = self.players, T.n_cards, self.slots
        meld = jnp.asarray(T.meld)
        card_bit = jnp.asarray(T.card_bit)
        order = (p + jnp.arange(n)) % n

        def one(x: Array) -> Array:  # a card (-1: none) as a set
            return jnp.where(x >= 0, card_bit[jnp.maximum(x, 0)], jnp.uint32(0))

        done = s.gives[n - 1] >= 0
        got = jnp.where(done, s.gives[(p + n - 1) % n], -1)
        planes = jnp.concatenate([
            s.hands[p][None], meld[s.sides[order][:, :slots]].reshape(-1, 2),
            jnp.stack([one(s.card), s.buried, one(s.gives[p]), one(got)]),
            jnp.stack([s.passed[order], s.taken[order], s.discarded[order]], axis=1).reshape(-1, 2)])
        body = bits(planes, c).astype(jnp.float32).reshape(-1)
        live = s.stage != OVER
        say = s.stage == SAY
        actor = jnp.where(live, s.actor, 0)
        count = jnp.sum(bits(s.hands, c).astype(jnp.int32), axis=1)
        f32 = jnp.float32
        tail = jnp.concatenate([
            jax.nn.one_hot(s.stage, 5, dtype=f32), jnp.asarray(self._left)[s.pos][None],
            jnp.asarray(self._count)[count[order]],
            (live & (order == actor)).astype(f32),
            (order == n - 1).astype(f32),
            (s.gives[order] >= 0).astype(f32),
            (say & (order == s.origin)).astype(f32),
            (say & ((order - s.first) % n < (actor - s.first) % n)).astype(f32)])
        return jnp.concatenate([body, tail])

    # ------------------------------------------------------------------ steps
    def _apply(self, s: MexicanoState, action: Array) -> MexicanoState:
        """Play legal actions (the engine's ``apply_raw``) in a batch; the derived fields are left stale."""
        hand, side, down = jax.vmap(lambda s: (s.hands[s.actor], s.sides[s.actor], s.downs[s.actor]))(s)
        T = self.T
        # the gives lie between the uses and the further uses: no search for them
        give = (action >= T.a_give) & (action < T.a_lay)
        new = use_melds(T, s.uses, jnp.where(give, 0, action), s.card, hand, side, down,
                        cap=self._cap(action.shape[0]), ordered=True)
        out: MexicanoState = jax.vmap(self._apply_row)(s, action, new)
        return out

    def _apply_row(self, s: MexicanoState, a: Array, new: Array) -> MexicanoState:
        T = self.T
        n, c, k = self.players, T.n_cards, T.n_melds
        meld = jnp.asarray(T.meld)
        card_bit = jnp.asarray(T.card_bit)
        p = s.actor
        s = s._replace(last=p)
        hand = s.hands[p]
        cbit = card_bit[jnp.maximum(s.card, 0)]
        # a pass (R8.3): the last say to the card buries it, the next after its origin turns
        everyone = p == (s.origin + n - 1) % n
        gone = s._replace(passed=s.passed.at[p].set(s.passed[p] | cbit))
        bury = self._turn(gone._replace(buried=gone.buried | cbit), (s.origin + 1) % n)
        pas: MexicanoState = jax.tree_util.tree_map(lambda x, y: jnp.where(everyone, x, y), bury,
                                                    gone._replace(actor=(p + 1) % n))
        # a force (R8.4): the card in play, or a hand card instead of a discard, on the k-th player after
        j = jnp.clip(a - T.a_force, 0, (n - 1) * c - 1)
        fc = j % c
        from_hand = s.stage == DISCARD
        frc = s._replace(hands=s.hands.at[p].set(jnp.where(from_hand, hand & ~card_bit[fc], hand)),
                         card=jnp.where(from_hand, fc, s.card), stage=jnp.int32(FORCED), actor=(p + j // c + 1) % n)
        # a discard (R3.5, R8.3): offered to each other player in turn, the next first
        dc = jnp.clip(a - T.a_discard, 0, c - 1)
        dis = s._replace(hands=s.hands.at[p].set(hand & ~card_bit[dc]), card=dc,
                         discarded=s.discarded.at[p].set(s.discarded[p] | card_bit[dc]), stage=jnp.int32(SAY),
                         origin=p, actor=(p + 1) % n, first=(p + 1) % n)
        # a use (R3.4, R8.3): the player's combinations it leaves, then the form's, in its order
        u = union(meld[new])
        side = s.sides[p]
        keep = (side < k) & empty(meld[side] & u)
        both = jnp.concatenate([jnp.where(keep, side, k), new])
        order = jnp.argsort((both >= k).astype(jnp.int32), stable=True)
        left = hand & ~u
        out = empty(left)  # R8.5: hand + 1 down
        use = s._replace(sides=s.sides.at[p].set(both[order][:4]), downs=s.downs.at[p].set(s.downs[p] | u),
                         hands=s.hands.at[p].set(left), taken=s.taken.at[p].set(s.taken[p] | cbit),
                         card=jnp.int32(-1), stage=jnp.where(out, OVER, DISCARD).astype(jnp.int32),
                         winner=jnp.where(out, p, -1).astype(jnp.int32))
        # a give (R8.2): once every player has chosen, each card goes to the next player
        gc = jnp.clip(a - T.a_give, 0, c - 1)
        gives = s.gives.at[p].set(gc)
        g = card_bit[gives]
        moved = (s.hands & ~g) | jnp.roll(g, 1, axis=0)
        swap = self._turn(s._replace(gives=gives, hands=moved), jnp.int32(0))
        wait = s._replace(gives=gives, actor=p + 1)
        giv: MexicanoState = jax.tree_util.tree_map(lambda x, y: jnp.where(p == n - 1, x, y), swap, wait)
        kind = jnp.where(a == 0, 0, jnp.where(a < T.a_discard, 1, jnp.where(a < T.a_use, 2, jnp.where(
            (a >= T.a_give) & (a < T.a_lay), 4, 3))))
        picked: MexicanoState = jax.tree_util.tree_map(lambda *xs: jnp.select([kind == i for i in range(5)], xs),
                                                       pas, frc, dis, use, giv)
        return picked._replace(steps=s.steps + 1)

    def _scores(self, s: MexicanoState) -> Array:
        """R8.7: every other player pays the winner one counter; a draw scores nothing."""
        n = self.players
        w = jnp.maximum(s.winner, 0)
        win = self._seat(s, w) - 1
        out = jnp.where(jnp.arange(n) == win, jnp.float32(n - 1), jnp.float32(-1.0))
        return jnp.where(s.winner >= 0, out, 0.0)

    def _settle(self, s: MexicanoState, nxt: MexicanoState, legal: Array) -> MexicanoState:
        ended = nxt.stage == OVER
        rewards = jnp.where(ended, self._scores(nxt), 0.0)
        seat = self._seat(s, s.actor) - 1
        bad = jnp.where(jnp.arange(self.players) == seat, jnp.float32(self.illegal_reward), jnp.float32(0.0))
        nxt = nxt._replace(rewards=jnp.where(legal, rewards, bad), terminated=ended | ~legal,
                           stage=jnp.where(legal, nxt.stage, OVER).astype(jnp.int32))
        nxt = jax.tree_util.tree_map(lambda x, y: jnp.where(legal, x, y), nxt,
                                     nxt._replace(**{f: getattr(s, f) for f in _PLAY_FIELDS}))
        stay = s._replace(rewards=jnp.zeros(self.players, jnp.float32), terminated=jnp.bool_(True))
        out: MexicanoState = jax.tree_util.tree_map(lambda x, y: jnp.where(s.stage == OVER, x, y), stay, nxt)
        return out

    # ------------------------------------------------------------ the batch API
    def _fresh(self, key: Array) -> MexicanoState:
        k1, k2 = jax.random.split(key)
        return self._deal(jax.random.permutation(k1, self.T.n_cards).astype(jnp.int32),
                          jax.random.randint(k2, (), 1, self.players + 1, dtype=jnp.int32))

    def _last_player(self, s: MexicanoState) -> Array:
        """The player who acted last (a finished deal's observation is his)."""
        return s.last

__all__ = ["MexicanoJax", "MexicanoState"]
