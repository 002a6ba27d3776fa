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

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, TypeVar

import jax
import jax.numpy as jnp
import numpy as np
import numpy.typing as npt
from jax import Array, lax

from conquian.engine.conquian.listing import DISCARD, FORCED, OVER, SAY_DISCARD, SAY_PASSED, SAY_TURNED
from conquian.envs.jax.search import Uses, bits, empty, list_uses, union, use_melds
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


class ConquianJax:
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
        #: the batch methods: how many deals a search runs on at a time (None: 8)
        self.search_rows = search_rows

    # ------------------------------------------------------------------ deals
    def init(self, key: Array) -> State:
        """A new deal from a PRNG key: the deck shuffled, the dealer seat 1 or 2."""
        return _one(self._finish(_many(self._fresh(key))))

    def init_from_deck(self, deck: Array, dealer: Array) -> State:
        """The deal of a given deck (dense cards, top first: :func:`dense_deck`) and dealer seat."""
        return _one(self._finish(_many(self._deal(jnp.asarray(deck, jnp.int32), jnp.asarray(dealer, jnp.int32)))))

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

    def _no_uses(self) -> Uses:
        k = self.T.n_melds
        return Uses(jnp.zeros(k, jnp.bool_), jnp.zeros(1024, jnp.bool_), jnp.full((10, 5), k, jnp.int32),
                    jnp.full(10, k, jnp.int32), jnp.full(32, -1, jnp.int32))

    def _seat(self, s: State, p: Array) -> Array:
        """The seat of player ``p`` (two at the table: the dealer is player 1)."""
        return jnp.where(p == 0, s.dealer % 2 + 1, s.dealer)

    def _cap(self, b: int) -> int | None:
        """How many rows a search runs on at a time in a batch of ``b`` (``None``: all of them)."""
        if self.search_rows is not None:
            return self.search_rows
        return None if b <= 8 else 8  # measured on the CPU: 8 rows beat 16, 32, 128 and the whole batch

    def _finish(self, s: State) -> State:
        """The listing, the mask and the observation of the player to act (a batch of deals)."""
        T = self.T
        hand, side, down = jax.vmap(lambda s: (s.hands[s.actor], s.sides[s.actor], s.downs[s.actor]))(s)
        uses = list_uses(T, s.stage, s.card, hand, side, down, cap=self._cap(s.stage.shape[0]))
        out: State = jax.vmap(self._finish_row)(s, uses)
        return out

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

    def _advance(self, s: State, action: Array) -> State:
        """The raw next states of a batch and the step's rewards and ends (the derived fields stale)."""
        a = jnp.asarray(action, jnp.int32)
        legal = jax.vmap(lambda m, x: m[jnp.clip(x, 0, self.T.n_actions - 1)])(s.legal_action_mask, a)
        legal = legal & (a >= 0) & (a < self.T.n_actions)
        nxt = self._apply(s, jnp.where(legal, a, 0))
        out: State = jax.vmap(self._settle)(s, nxt, legal)
        return out

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

    # ------------------------------------------------------------ the batch API
    def batch_init(self, keys: Array) -> State:
        """New deals, one per PRNG key (``keys``: ``[batch, ...]``)."""
        return self._finish(jax.vmap(self._fresh)(keys))

    def batch_init_from_deck(self, decks: Array, dealers: Array) -> State:
        """The deals of given decks (``[batch, 40]``, dense cards) and dealer seats."""
        raw = jax.vmap(self._deal)(jnp.asarray(decks, jnp.int32), jnp.asarray(dealers, jnp.int32))
        return self._finish(raw)

    def batch_step(self, state: State, actions: Array) -> State:
        """:meth:`step` for a batch of deals: the fast way to step thousands of them (the listing's
        searches run only on the deals that need one, a share of the batch at a time)."""
        return self._finish(self._advance(state, actions))

    def batch_step_autoreset(self, state: State, actions: Array, keys: Array) -> tuple[State, Array]:
        """:meth:`step_autoreset` for a batch of deals (``keys``: one per deal)."""
        nxt = self._advance(state, actions)
        final = jax.vmap(lambda s: self._observe(s, s.actor))(nxt)
        raw = reset_ended(nxt, nxt.terminated, keys, self._fresh, _DEAL_FIELDS)
        out = self._finish(raw)._replace(rewards=nxt.rewards, terminated=nxt.terminated)
        return out, final

    def _fresh(self, key: Array) -> State:
        k1, k2 = jax.random.split(key)
        return self._deal(jax.random.permutation(k1, self.T.n_cards).astype(jnp.int32),
                          jax.random.randint(k2, (), 1, 3, dtype=jnp.int32))

    # ------------------------------------------------------- one deal (vmap it)
    def step(self, state: State, action: Array) -> State:
        """Play ``action`` (an index of the action space) in one deal; a finished deal stays as it
        is, its rewards 0."""
        out: State = _one(self.batch_step(_many(state), jnp.asarray(action)[None]))
        return out

    def step_autoreset(self, state: State, action: Array, key: Array) -> tuple[State, Array]:
        """:meth:`step`, a deal that ends started again at once from ``key`` (Gymnasium's same-step
        autoreset): returns the new state, whose ``rewards`` and ``terminated`` are the step's,
        and the observation the finished deal ended on (of the player who acted last)."""
        out, final = self.batch_step_autoreset(_many(state), jnp.asarray(action)[None], jnp.asarray(key)[None])
        return _one(out), final[0]


_S = TypeVar("_S")
_D = TypeVar("_D", bound=tuple[Any, ...])


def reset_ended(nxt: _D, flags: Array, keys: Array, fresh: Callable[[Array], _D], fields: Sequence[str] | None = None
                ) -> _D:
    """A batch of deals (a ``NamedTuple`` of arrays) with a new deal, ``fresh(keys[i])``, in every
    row ``i`` that ``flags`` marks, in the fields named (``None``: all of them).  A step ends a deal
    in about one row in sixty, so the new deals are dealt only for the rows that ended, a share of
    the batch at a time; for every row if more ended: the same deals either way."""
    b = flags.shape[0]
    share = max(8, b // 16)
    names: Sequence[str] = nxt._fields if fields is None else fields  # type: ignore[attr-defined]

    def every(nxt: _D) -> _D:
        new = jax.vmap(fresh)(keys)
        chosen = {f: jax.tree_util.tree_map(
            lambda x, y: jnp.where(flags.reshape((-1,) + (1,) * (y.ndim - 1)), x, y), getattr(new, f), getattr(nxt, f))
            for f in names}
        out: _D = nxt._replace(**chosen)  # type: ignore[attr-defined]
        return out

    def ended(nxt: _D) -> _D:
        idx = jnp.nonzero(flags, size=share, fill_value=0)[0]
        rows = jnp.where(jnp.arange(share) < jnp.sum(flags.astype(jnp.int32)), idx, b)
        new = jax.vmap(fresh)(keys[idx])
        chosen = {f: jax.tree_util.tree_map(lambda x, y: y.at[rows].set(x, mode="drop"), getattr(new, f),
                                            getattr(nxt, f)) for f in names}
        out: _D = nxt._replace(**chosen)  # type: ignore[attr-defined]
        return out

    if share >= b:
        return every(nxt)
    out: _D = lax.cond(jnp.sum(flags.astype(jnp.int32)) <= share, ended, every, nxt)
    return out


def _many(s: _S) -> _S:
    """One deal as a batch of one."""
    out: _S = jax.tree_util.tree_map(lambda x: x[None], s)
    return out


def _one(s: _S) -> _S:
    """A batch of one as its deal."""
    out: _S = jax.tree_util.tree_map(lambda x: x[0], s)
    return out


#: the fields an illegal action leaves as they were (it ends the deal, nothing played)
_PLAY_FIELDS = ("pos", "hands", "sides", "downs", "card", "actor", "buried", "winner", "passed", "discarded")
#: the fields an action can change (the stage besides those)
_MOVED_FIELDS = (*_PLAY_FIELDS, "stage")
#: the fields of a deal itself, not derived from the others (a new deal replaces them all)
_DEAL_FIELDS = (*_MOVED_FIELDS, "deck", "dealer", "rewards", "terminated", "to_act", "steps")

__all__ = ["ConquianJax", "State", "dense_deck", "reset_ended"]
