"""What the accelerated environments of the conquian family share (:mod:`conquian.envs.jax.env`,
:mod:`conquian.envs.jax.mexicano`): the batch API around a variant's own deal, listing hook,
play and settling.  A variant writes only what differs (its deal, its stages, the action it
plays, its rewards, its observation); the step is this one: the action checked against the mask,
played, settled, a new deal dealt where one ended, and the listing, the mask and the observation
of the player to act derived again."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

import jax
import jax.numpy as jnp
from jax import Array, lax

from conquian.envs.jax.search import Uses, list_uses
from conquian.envs.jax.tables import Tables

#: a variant's deal: a ``NamedTuple`` of arrays
S = TypeVar("S")
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


def _many(s: S) -> S:
    """One deal as a batch of one."""
    out: S = jax.tree_util.tree_map(lambda x: x[None], s)
    return out


def _one(s: S) -> S:
    """A batch of one as its deal."""
    out: S = jax.tree_util.tree_map(lambda x: x[0], s)
    return out



class JaxDeals(Generic[S]):
    """The batch API of an accelerated environment over its deals ``S``.  A variant sets ``T``,
    ``illegal_reward`` and ``search_rows`` and writes :meth:`_deal`, :meth:`_fresh`,
    :meth:`_finish_row`, :meth:`_apply`, :meth:`_settle` and :meth:`_observe`."""

    T: Tables
    illegal_reward: float
    #: the batch methods: how many deals a search runs on at a time (None: 8)
    search_rows: int | None
    #: the fields a new deal replaces (None: all of them)
    _deal_fields: Sequence[str] | None = None

    # ------------------------------------------------------ what a variant writes
    def _deal(self, deck: Array, dealer: Array) -> S:
        """The deal of a deck (dense cards, top first) and a dealer seat, before its listing."""
        raise NotImplementedError

    def _fresh(self, key: Array) -> S:
        """A new deal from a PRNG key, before its listing."""
        raise NotImplementedError

    def _finish_row(self, s: S, uses: Uses) -> S:
        """One deal with its listing, its mask and the observation of the player to act."""
        raise NotImplementedError

    def _apply(self, s: S, action: Array) -> S:
        """Play legal actions in a batch; the derived fields are left stale."""
        raise NotImplementedError

    def _settle(self, s: S, nxt: S, legal: Array) -> S:
        """One deal after its action: its rewards and end, an illegal action's penalty."""
        raise NotImplementedError

    def _observe(self, s: S, p: Array) -> Array:
        """The observation of player ``p`` in one deal."""
        raise NotImplementedError

    def _listing_stage(self, stage: Array) -> Array:
        """The stage the shared use listing reads (conquian's own)."""
        return stage

    def _last_player(self, s: S) -> Array:
        """The player whose observation a finished deal ends on (conquian: the last to act)."""
        d: Any = s
        out: Array = d.actor
        return out

    # ------------------------------------------------------------ the shared step
    def _no_uses(self) -> Uses:
        k = self.T.n_melds
        return Uses(jnp.zeros(k, jnp.bool_), jnp.zeros(1024, jnp.bool_), jnp.full((10, 5), k, jnp.int32),
                    jnp.full(10, k, jnp.int32), jnp.full(32, -1, jnp.int32))

    def _cap(self, b: int) -> int | None:
        """How many rows a search runs on at a time in a batch of ``b`` (``None``: all of them)."""
        if self.search_rows is not None:
            return self.search_rows
        return None if b <= 8 else 8  # measured on the CPU: 8 rows beat 16, 32, 128 and the whole batch

    def _finish(self, s: S) -> S:
        """The listing, the mask and the observation of the player to act (a batch of deals)."""
        d: Any = s
        hand, side, down = jax.vmap(lambda s: (s.hands[s.actor], s.sides[s.actor], s.downs[s.actor]))(d)
        uses = list_uses(self.T, self._listing_stage(d.stage), d.card, hand, side, down,
                         cap=self._cap(d.stage.shape[0]))
        out: S = jax.vmap(self._finish_row)(s, uses)
        return out

    def _advance(self, s: S, action: Array) -> S:
        """The raw next states of a batch and the step's rewards and ends (the derived fields stale)."""
        d: Any = s
        a = jnp.asarray(action, jnp.int32)
        legal = jax.vmap(lambda m, x: m[jnp.clip(x, 0, self.T.n_actions - 1)])(d.legal_action_mask, a)
        legal = legal & (a >= 0) & (a < self.T.n_actions)
        nxt = self._apply(s, jnp.where(legal, a, 0))
        out: S = jax.vmap(self._settle)(s, nxt, legal)
        return out

    # ------------------------------------------------------------ the batch API
    def batch_init(self, keys: Array) -> S:
        """New deals, one per PRNG key (``keys``: ``[batch, ...]``)."""
        return self._finish(jax.vmap(self._fresh)(keys))

    def batch_init_from_deck(self, decks: Array, dealers: Array) -> S:
        """The deals of given decks (``[batch, n_cards]``, dense cards) and dealer seats."""
        raw = jax.vmap(self._deal)(jnp.asarray(decks, jnp.int32), jnp.asarray(dealers, jnp.int32))
        return self._finish(raw)

    def batch_step(self, state: S, actions: Array) -> S:
        """:meth:`step` for a batch of deals: the fast way to step thousands of them (the listing's
        searches run only on the deals that need one, a share of the batch at a time)."""
        return self._finish(self._advance(state, actions))

    def batch_step_autoreset(self, state: S, actions: Array, keys: Array) -> tuple[S, Array]:
        """:meth:`step_autoreset` for a batch of deals (``keys``: one per deal)."""
        nxt: Any = self._advance(state, actions)
        final = jax.vmap(lambda s: self._observe(s, self._last_player(s)))(nxt)
        raw = reset_ended(nxt, nxt.terminated, keys, self._fresh, self._deal_fields)  # new deals where deals ended
        out: S = self._finish(raw)._replace(rewards=nxt.rewards, terminated=nxt.terminated)  # type: ignore[attr-defined]
        return out, final

    # ------------------------------------------------------- one deal (vmap it)
    def init(self, key: Array) -> S:
        """A new deal from a PRNG key: the deck shuffled, the dealer drawn."""
        return _one(self.batch_init(jnp.asarray(key)[None]))

    def init_from_deck(self, deck: Array, dealer: Array) -> S:
        """The deal of a given deck (dense cards, top first: :func:`~conquian.envs.jax.env.dense_deck`)
        and dealer seat."""
        return _one(self.batch_init_from_deck(jnp.asarray(deck)[None], jnp.asarray(dealer)[None]))

    def step(self, state: S, action: Array) -> S:
        """Play ``action`` (an index of the action space) in one deal; a finished deal stays as it
        is, its rewards 0."""
        return _one(self.batch_step(_many(state), jnp.asarray(action)[None]))

    def step_autoreset(self, state: S, action: Array, key: Array) -> tuple[S, Array]:
        """:meth:`step`, a deal that ends started again at once from ``key`` (Gymnasium's same-step
        autoreset): returns the new state, whose ``rewards`` and ``terminated`` are the step's,
        and the observation the finished deal ended on (of the player who acted last)."""
        out, final = self.batch_step_autoreset(_many(state), jnp.asarray(action)[None], jnp.asarray(key)[None])
        return _one(out), final[0]


__all__ = ["JaxDeals", "reset_ended"]
