"""Two-hand conquian (R3) as pure JAX functions over fixed-size arrays, in the style of pgx.

One deal is a :class:`State` of arrays; :meth:`ConquianJax.init`, :meth:`ConquianJax.step`
and :meth:`ConquianJax.observe` are pure functions of it, so ``jax.vmap`` plays thousands of
deals at once and ``jax.jit`` compiles the whole step, the legal listing included.  The
observation and the action mask are exactly those of :mod:`conquian.envs.encoding` (version 1
of the action space), the rewards the deal's scores by seat (R5.1, R5.2), as
:class:`~conquian.envs.vector.ConquianVectorEnv` gives them in self-play: tested in lockstep
with it over random deals (``tests/test_envs_jax.py``).

```python
>>> import jax
>>> from conquian.envs.jax import ConquianJax
>>> env = ConquianJax("conquian")
>>> keys = jax.random.split(jax.random.PRNGKey(0), 8)
>>> state = jax.jit(jax.vmap(env.init))(keys)
>>> state.observation.shape, state.legal_action_mask.shape
((8, 609), (8, 1299))
>>> step = jax.jit(jax.vmap(env.step_autoreset))
>>> actions = state.legal_action_mask.argmax(axis=1)          # the lowest legal index
>>> state, final_obs = step(state, actions, keys)
>>> state.rewards.shape, bool(state.legal_action_mask.any(axis=1).all())
((8, 2), True)

```
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import numpy.typing as npt
from jax import Array

from conquian.engine.conquian.listing import DISCARD, FORCED, OVER, SAY_DISCARD, SAY_PASSED, SAY_TURNED
from conquian.envs.jax.deals import JaxDeals
from conquian.envs.jax.deals import reset_ended as reset_ended
from conquian.envs.jax.search import Uses, bits, empty, union, use_melds
from conquian.envs.jax.tables import Tables, tables

#: the phase place of each stage in the observation's tail (say, say, say, forced, discard, over)
_PHASE = (0, 0, 0, 1, 2, 3)
#: the pack's count (cards left of 40) and a hand's count (of 11), as the observation's floats
_LEFT = ((40 - np.arange(41)) / 40.0).astype(np.float32)
_COUNT = (np.arange(41) / 11.0).astype(np.float32)


class State(NamedTuple):
    """One deal.  Card sets are ``uint32[2]`` words over the dense cards, combinations numbers
    of the action space's (``n_melds``: an empty place); players are 0 (the pone, first to act)
    and 1 (the dealer), as in :class:`~conquian.engine.conquian.deal.ConquianDeal`."""

    deck: Array  #: int32[40], the dense cards, top first
    pos: Array  #: cards dealt or turned
    hands: Array  #: uint32[2, 2]
    sides: Array  #: int32[2, 4], each player's combinations in the engine's order
    downs: Array  #: uint32[2, 2], the cards of each side
    card: Array  #: the card in play (-1: none)
    stage: Array  #: the engine's stage (SAY_TURNED ... OVER)
    actor: Array  #: the player to act (once over: the last to act)
    buried: Array  #: uint32[2]
    winner: Array  #: the winning player, -1 for none
    dealer: Array  #: the dealer's seat (1 or 2)
    passed: Array  #: uint32[2, 2], the cards each player passed
    discarded: Array  #: uint32[2, 2], the cards each player discarded
    uses: Uses  #: the listed uses of the player to act
    legal_action_mask: Array  #: bool[n_actions]
    observation: Array  #: float32[obs_size], the observation of the player to act
    rewards: Array  #: float32[2], by seat (index 0: seat 1), this step's
    terminated: Array  #: whether the deal ended at this step (or before)
    to_act: Array  #: the seat to act, 0 once over
    steps: Array  #: actions played in the deal


def dense_deck(enc_cards: Sequence[int], deck: Sequence[int]) -> npt.NDArray[np.int32]:
    """An engine deck (card numbers, top first) as dense card numbers."""
    index = {c: i for i, c in enumerate(enc_cards)}
    return np.array([index[c] for c in deck], dtype=np.int32)


class ConquianJax(JaxDeals[State]):
    """The pure functions of two-hand ``conquian`` or ``conquian-spanish`` (``scoring``:
    ``games`` or ``pips``); every method takes and gives one deal (map it with ``jax.vmap``).
    ``illegal_reward``: a masked action ends the deal, the seat that played it rewarded with it
    (the others 0), as :class:`~conquian.envs.vector.ConquianVectorEnv` with the same keyword."""

    def __init__(self, variant: str = "conquian", *, scoring: str = "games", illegal_reward: float = -1.0,
                 search_rows: int | None = None) -> None:
        self.variant = variant
        self.T: Tables = tables(variant, scoring)
        self.rules = self.T.rules
        self.num_actions = self.T.n_actions
        self.obs_size = self.T.obs_size
        self.illegal_reward = float(illegal_reward)
        self.search_rows = search_rows
        self._deal_fields = _DEAL_FIELDS

    def _deal(self, deck: Array, dealer: Array) -> State:
        T = self.T
        k = T.n_melds
        hb = jnp.asarray(T.card_bit)[deck[:20]]  # R3.1: two at a time, the pone first
        who = (jnp.arange(20) >> 1) & 1
        hands = jnp.stack([union(jnp.where((who == p)[:, None], hb, jnp.uint32(0))) for p in (0, 1)])
        z2 = jnp.zeros((2, 2), jnp.uint32)
        i32 = jnp.int32
        return State(
            deck=deck, pos=i32(21), hands=hands, sides=jnp.full((2, 4), k, i32), downs=z2, card=deck[20],
            stage=i32(SAY_TURNED), actor=i32(0), buried=jnp.zeros(2, jnp.uint32), winner=i32(-1), dealer=dealer,
            passed=z2, discarded=z2, uses=self._no_uses(), legal_action_mask=jnp.zeros(T.n_actions, jnp.bool_),
            observation=jnp.zeros(T.obs_size, jnp.float32), rewards=jnp.zeros(2, jnp.float32),
            terminated=jnp.bool_(False), to_act=i32(0), steps=i32(0))

    def _seat(self, s: State, p: Array) -> Array:
        """The seat of player ``p`` (two at the table: the dealer is player 1)."""
        return jnp.where(p == 0, s.dealer % 2 + 1, s.dealer)

    def _finish_row(self, s: State, uses: Uses) -> State:
        T = self.T
        p = s.actor
        live = s.stage != OVER
        fq = union(jnp.asarray(T.fit)[s.sides[1 - p]])
        cbit = jnp.asarray(T.card_bit)[jnp.maximum(s.card, 0)]
        say = s.stage <= SAY_DISCARD
        hand = s.hands[p]
        force = jnp.where(s.stage == DISCARD, hand & fq, jnp.where(say & (s.card >= 0), fq & cbit, jnp.uint32(0)))
        discard = jnp.where(s.stage == DISCARD, hand, jnp.uint32(0))
        n = T.n_cards
        mask = jnp.concatenate([say[None], bits(force, n), bits(discard, n), uses.use, uses.lay]) & live
        return s._replace(uses=uses, legal_action_mask=mask, observation=self._observe(s, p),
                          to_act=jnp.where(live, self._seat(s, p), 0))

    # ------------------------------------------------------------ observations
    def observe(self, state: State, seat: Array) -> Array:
        """The observation of ``seat`` in one deal (``docs/encodings.md``)."""
        p = jnp.where(seat == state.dealer, 1, 0)
        return self._observe(state, p)

    def _observe(self, s: State, p: Array) -> Array:
        T = self.T
        n = T.n_cards
        q = 1 - p
        meld = jnp.asarray(T.meld)
        cbit = jnp.where(s.card >= 0, jnp.asarray(T.card_bit)[jnp.maximum(s.card, 0)], jnp.uint32(0))
        planes = jnp.concatenate([s.hands[p][None], meld[s.sides[p]], meld[s.sides[q]], cbit[None], s.buried[None],
                                  s.passed[p][None], s.passed[q][None], s.discarded[p][None], s.discarded[q][None]])
        body = bits(planes, n).astype(jnp.float32).reshape(-1)
        phase = jnp.asarray(_PHASE, jnp.int32)[s.stage]
        count = jnp.sum(bits(s.hands, n), axis=1)
        tail = jnp.concatenate([
            jax.nn.one_hot(phase, 4, dtype=jnp.float32),
            # the fractions as numpy makes them (in float64, then rounded to float32)
            jnp.stack([jnp.asarray(_LEFT)[s.pos], jnp.asarray(_COUNT)[count[q]], jnp.asarray(_COUNT)[count[p]],
                       ((s.stage != OVER) & (s.actor == p)).astype(jnp.float32), (p == 1).astype(jnp.float32)
                       ]).astype(jnp.float32)])
        return jnp.concatenate([body, tail])

    # ------------------------------------------------------------------ steps
    def _apply(self, s: State, action: Array) -> State:
        """Play legal actions (the engine's ``apply_raw``) in a batch; the derived fields are left stale."""
        hand, side, down = jax.vmap(lambda s: (s.hands[s.actor], s.sides[s.actor], s.downs[s.actor]))(s)
        new = use_melds(self.T, s.uses, action, s.card, hand, side, down, cap=self._cap(action.shape[0]))
        out: State = jax.vmap(self._apply_row)(s, action, new)
        return out

    def _apply_row(self, s: State, a: Array, new: Array) -> State:
        T = self.T
        n, k = T.n_cards, T.n_melds
        meld = jnp.asarray(T.meld)
        card_bit = jnp.asarray(T.card_bit)
        p = s.actor
        q = 1 - p
        hand = s.hands[p]
        cbit = card_bit[jnp.maximum(s.card, 0)]
        # the pass: refused by both, the card is buried and the passer turns next (R3.3, R3.7)
        second = s.stage != SAY_TURNED
        more = s.pos < T.pack_size
        top = s.deck[jnp.minimum(s.pos, T.pack_size - 1)]
        pas = s._replace(passed=s.passed.at[p].set(s.passed[p] | cbit),
                         buried=jnp.where(second, s.buried | cbit, s.buried),
                         stage=jnp.where(second, jnp.where(more, SAY_TURNED, OVER), SAY_PASSED),
                         actor=jnp.where(second, p, q),
                         card=jnp.where(second, jnp.where(more, top, -1), s.card),
                         pos=jnp.where(second & more, s.pos + 1, s.pos))
        # a force (R3.6): of the card in play, or of a hand card instead of a discard
        c = jnp.clip(a - T.a_force, 0, n - 1)
        from_hand = s.stage == DISCARD
        frc = s._replace(hands=s.hands.at[p].set(jnp.where(from_hand, hand & ~card_bit[c], hand)),
                         card=jnp.where(from_hand, c, s.card), stage=jnp.int32(FORCED), actor=q)
        # a discard (R3.5)
        c = jnp.clip(a - T.a_discard, 0, n - 1)
        dis = s._replace(hands=s.hands.at[p].set(hand & ~card_bit[c]), card=c,
                         discarded=s.discarded.at[p].set(s.discarded[p] | card_bit[c]),
                         stage=jnp.int32(SAY_DISCARD), actor=q)
        # a use (R3.4): the new combinations after those it leaves, in the notation's order
        u = union(meld[new])
        keys = jnp.asarray(T.meld_key)
        new = new[jnp.argsort(jnp.where(new < k, keys[new], 1 << 24))]
        side = s.sides[p]
        keep = (side < k) & empty(meld[side] & u)
        both = jnp.concatenate([jnp.where(keep, side, k), new])
        order = jnp.argsort((both >= k).astype(jnp.int32), stable=True)
        left = hand & ~u
        out = empty(left)
        use = s._replace(sides=s.sides.at[p].set(both[order][:4]), downs=s.downs.at[p].set(s.downs[p] | u),
                         hands=s.hands.at[p].set(left), card=jnp.int32(-1),
                         stage=jnp.where(out, OVER, DISCARD).astype(jnp.int32), winner=jnp.where(out, p, -1))
        kind = jnp.where(a == 0, 0, jnp.where(a < T.a_discard, 1, jnp.where(a < T.a_use, 2, 3)))
        # only the fields an action changes are chosen among the four (the listing, the mask and
        # the observation are derived again after the step: choosing them would be waste)
        picked: dict[str, Any] = {
            f: jnp.select([kind == i for i in range(4)], [getattr(x, f) for x in (pas, frc, dis, use)])
            for f in _MOVED_FIELDS}
        return s._replace(**picked, steps=s.steps + 1)

    def _scores(self, s: State) -> Array:
        """The deal's scores by seat once over (R5.1 with nothing owed to the pool, R5.2)."""
        T = self.T
        w = s.winner
        if T.pips:
            left = bits(s.hands[1 - jnp.maximum(w, 0)], T.n_cards)
            amount = jnp.sum(jnp.where(left, jnp.asarray(T.pip), 0)).astype(jnp.float32)
        else:
            amount = jnp.float32(1.0)
        win = self._seat(s, jnp.maximum(w, 0)) - 1
        out = jnp.zeros(2, jnp.float32).at[win].set(amount).at[1 - win].set(-amount)
        return jnp.where(w >= 0, out, 0.0)

    def _settle(self, s: State, nxt: State, legal: Array) -> State:
        ended = nxt.stage == OVER
        rewards = jnp.where(ended, self._scores(nxt), 0.0)
        seat = self._seat(s, s.actor) - 1
        bad = jnp.zeros(2, jnp.float32).at[seat].set(self.illegal_reward)
        kept: dict[str, Any] = {f: jnp.where(legal, getattr(nxt, f), getattr(s, f)) for f in _PLAY_FIELDS}
        nxt = nxt._replace(rewards=jnp.where(legal, rewards, bad), terminated=ended | ~legal,
                           stage=jnp.where(legal, nxt.stage, OVER).astype(jnp.int32), **kept)
        # a finished deal stays as it is; the derived fields (the listing, the mask, the
        # observation) are s's in both, stale until derived again
        over = s.stage == OVER
        stay = dict(rewards=jnp.zeros(2, jnp.float32), terminated=jnp.bool_(True))
        chosen: dict[str, Any] = {f: jnp.where(over, stay[f] if f in stay else getattr(s, f), getattr(nxt, f))
                                  for f in (*_MOVED_FIELDS, "rewards", "terminated", "steps")}
        out: State = nxt._replace(**chosen)
        return out

    def _fresh(self, key: Array) -> State:
        k1, k2 = jax.random.split(key)
        return self._deal(jax.random.permutation(k1, self.T.n_cards).astype(jnp.int32),
                          jax.random.randint(k2, (), 1, 3, dtype=jnp.int32))

#: the fields an illegal action leaves as they were (it ends the deal, nothing played)
_PLAY_FIELDS = ("pos", "hands", "sides", "downs", "card", "actor", "buried", "winner", "passed", "discarded")
#: the fields an action can change (the stage besides those)
_MOVED_FIELDS = (*_PLAY_FIELDS, "stage")
#: the fields of a deal itself, not derived from the others (a new deal replaces them all)
_DEAL_FIELDS = (*_MOVED_FIELDS, "deck", "dealer", "rewards", "terminated", "to_act", "steps")

__all__ = ["ConquianJax", "State", "dense_deck", "reset_ended"]
