"""The listed uses of the card in play (R3.4) as pure JAX functions of one deal's arrays.

The same listing as the engine's :func:`~conquian.engine.conquian.listing.use_forms`, form for
form and in its order (the docstring there is the contract), so that the uses get the same
indices as :meth:`~conquian.envs.encoding.Encoding.number_uses` gives them.  The engine's
recursive searches (``MeldTable.partition``, ``MeldTable.cover``, the walk of
``layable_sets``) become one depth-first search over a fixed stack (:func:`dfs`) in a
``lax.while_loop``: one step of the loop pushes the next child of the node on top, or pops
it; the children are tried in the engine's order, so the first leaf found is the engine's.

Card sets are ``uint32[2]`` (:mod:`conquian.envs.jax.tables`).  Every function here works on
one deal; the environment maps them over a batch with ``jax.vmap``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
from jax import lax

from conquian.engine.conquian.listing import FORCED
from conquian.envs.jax.tables import DEPTH, Tables

Array = jax.Array
LAYS = 1024  # the block of further uses: a bit per card of a hand of ten


def ctz(x: Array) -> Array:
    """The number of trailing zero bits of a nonzero ``uint32``."""
    low = x & (~x + jnp.uint32(1))
    return 31 - lax.clz(low).astype(jnp.int32)


def lowest(w: Array, none: int) -> Array:
    """The lowest card of a set (``none`` if it is empty)."""
    a, b = w[..., 0], w[..., 1]
    return jnp.where(a != 0, ctz(a), jnp.where(b != 0, 32 + ctz(b), none))


def empty(w: Array) -> Array:
    """Whether a set (or each of a stack of sets) is empty."""
    return jnp.all(w == 0, axis=-1)


def subset(a: Array, b: Array) -> Array:
    """Whether ``a`` is a subset of ``b`` (broadcasting over leading axes)."""
    return jnp.all((a & ~b) == 0, axis=-1)


def bits(w: Array, n: int) -> Array:
    """A set as ``bool[n]``, card by card."""
    lo = (w[..., 0:1] >> jnp.arange(32, dtype=jnp.uint32)) & 1
    hi = (w[..., 1:2] >> jnp.arange(n - 32, dtype=jnp.uint32)) & 1
    return jnp.concatenate([lo, hi], axis=-1).astype(jnp.bool_)


def pack(b: Array) -> Array:
    """``bool[n]`` back to a set's two words."""
    u = b.astype(jnp.uint32)
    lo = jnp.sum(u[..., :32] << jnp.arange(32, dtype=jnp.uint32), axis=-1, dtype=jnp.uint32)
    hi = jnp.sum(u[..., 32:] << jnp.arange(b.shape[-1] - 32, dtype=jnp.uint32), axis=-1, dtype=jnp.uint32)
    return jnp.stack([lo, hi], axis=-1)


def union(ws: Array) -> Array:
    """The union of a stack of sets ``[..., k, 2]``."""
    out: Array = lax.reduce(ws, jnp.uint32(0), lax.bitwise_or, (ws.ndim - 2,))
    return out


def hand_weights(hand: Array, n: int) -> Array:
    """Bit ``2**i`` at the ``i``-th card of the hand (:func:`~conquian.envs.encoding.hand_bits`)."""
    b = bits(hand, n)
    rank = jnp.cumsum(b.astype(jnp.int32)) - 1
    return jnp.where(b, jnp.left_shift(1, jnp.maximum(rank, 0)), 0).astype(jnp.int32)


class Search(NamedTuple):
    """The end of a search: whether it stopped at a leaf, the path to it (the combinations
    chosen, ``-1`` for a hand card left, ``n_melds`` past the leaf) and what the leaves made."""

    stopped: Array
    path: Array
    acc: Any


LeafFn = Callable[[Any, Array, Array, Array], tuple[Any, Array]]


def dfs(T: Tables, req: Array, opt: Array, side: Array, hand: Array, card: Array, *, cover: bool,
        leaf_fn: LeafFn, acc: Any, active: Array) -> Search:
    """Depth-first search for partitions of ``req`` and some cards of ``opt`` into combinations.

    ``cover=False`` is the engine's walk (``_walk``; with no side and nothing optional,
    ``MeldTable.partition``): the lowest card left is placed or, if optional, left first; a
    required card goes first into the player's own combination holding it (``side``) if that
    lies whole and starts there, then into each combination starting there.  ``cover=True`` is
    ``MeldTable.cover``: the lowest required card goes into each combination holding it, of
    the required and optional cards.  At each leaf ``leaf_fn(acc, is_leaf, laid, card_meld)``
    gives the new ``acc`` and whether to stop (``laid``: the cards of ``hand`` laid;
    ``card_meld``: the combination holding ``card``).
    """
    n, k = T.n_cards, T.n_melds
    meld = jnp.asarray(T.meld)
    card_bit = jnp.asarray(T.card_bit)
    table = jnp.asarray(T.by_card if cover else T.by_low)
    width = table.shape[1] + (0 if cover else 2)
    cbit = card_bit[jnp.maximum(card, 0)]
    zero = jnp.zeros((DEPTH, 2), dtype=jnp.uint32)
    stack = (zero.at[0].set(req), zero.at[0].set(opt), zero, jnp.full(DEPTH, k, jnp.int32),
             jnp.zeros(DEPTH, jnp.int32), jnp.full(DEPTH, k, jnp.int32))
    side_m = meld[side]

    def cond(c: tuple[Any, ...]) -> Array:
        go: Array = (c[0] >= 0) & ~c[1]
        return go

    def body(c: tuple[Any, ...]) -> tuple[Any, ...]:
        d, _, (rq, op, ld, cm, ptr, ch), acc = c
        r, o = rq[d], op[d]
        rest = r | o
        if cover:
            leaf = empty(r)
            low = lowest(r, n)
        else:
            leaf = empty(rest)
            low = lowest(rest, n)
        lowbit = card_bit[low]
        cl = table[jnp.minimum(low, n - 1)]
        cval = (cl < k) & subset(meld[cl], rest)
        if cover:
            cands, valid = cl, cval
        else:
            low_req = ~empty(r & lowbit)
            holds = ~empty(side_m & lowbit) & (side < k)
            sm = jnp.where(jnp.any(holds), side[jnp.argmax(holds)], k)
            side_ok = low_req & (sm < k) & subset(meld[sm], rest) & (jnp.asarray(T.meld_low)[sm] == low)
            cval = cval & ~(side_ok & (cl == sm))
            cands = jnp.concatenate([jnp.array([-1], jnp.int32), sm[None], cl])
            valid = jnp.concatenate([(~low_req & (low < n))[None], side_ok[None], cval])
        valid = valid & (jnp.arange(width) >= ptr[d]) & ~leaf
        go = jnp.any(valid)
        j = jnp.argmax(valid)
        m = cands[j]
        mm = meld[jnp.where(m >= 0, m, k)]
        removed = jnp.where(m >= 0, mm, lowbit)
        acc, stop = leaf_fn(acc, leaf, ld[d], cm[d])
        stop = stop & leaf
        e = jnp.minimum(d + 1, DEPTH - 1)
        ptr = ptr.at[d].set(jnp.where(go, j + 1, ptr[d]))
        ch = ch.at[d].set(jnp.where(go, m, ch[d]))
        rq = rq.at[e].set(jnp.where(go, r & ~removed, rq[e]))
        op = op.at[e].set(jnp.where(go, o & ~removed, op[e]))
        ld = ld.at[e].set(jnp.where(go, ld[d] | (mm & hand), ld[e]))
        cm = cm.at[e].set(jnp.where(go, jnp.where((m >= 0) & ~empty(mm & cbit), m, cm[d]), cm[e]))
        ptr = ptr.at[e].set(jnp.where(go, 0, ptr[e]))
        d = jnp.where(stop, d, jnp.where(go, d + 1, d - 1))
        return d, stop, (rq, op, ld, cm, ptr, ch), acc

    init = (jnp.where(active, 0, -1).astype(jnp.int32), jnp.bool_(False), stack, acc)
    d, stopped, st, acc = lax.while_loop(cond, body, init)
    path = jnp.where(jnp.arange(DEPTH) < d, st[5], k)
    return Search(stopped, path, acc)


def first_leaf(T: Tables, req: Array, opt: Array, *, cover: bool, active: Array) -> Search:
    """``MeldTable.partition(req)`` (``cover=False``, ``opt`` empty) or ``MeldTable.cover(req, opt)``."""
    none = jnp.full(4, T.n_melds, jnp.int32)

    def leaf(acc: Any, is_leaf: Array, laid: Array, cm: Array) -> tuple[Any, Array]:
        return acc, is_leaf

    return dfs(T, req, opt, none, jnp.zeros(2, jnp.uint32), jnp.int32(-1), cover=cover, leaf_fn=leaf,
               acc=(), active=active)


class Uses(NamedTuple):
    """The listed uses of the card in play: the combinations holding it that have an index of
    their own (``use``, ``bool[n_melds]``), the further uses by the hand cards they lay
    (``lay``, ``bool[1024]``), the forms of steps 1 to 3 of the listing (``forms``: one row per
    side place then per three-card combination, its new combinations, ``n_melds`` for none;
    ``form_meld``: the combination holding the card, ``n_melds`` if the row lists nothing), and
    for each combination whose first form is a further search's, the hand cards it lays
    (``first_lay``, -1 for none)."""

    use: Array
    lay: Array
    forms: Array
    form_meld: Array
    first_lay: Array


def joinable(T: Tables, mask: Array) -> Array:
    """The cards of ``mask`` that lie in some combination of its cards."""
    meld = jnp.asarray(T.meld)[:T.n_melds]
    inside = subset(meld, mask)
    return union(jnp.where(inside[:, None], meld, jnp.uint32(0)))


def _hb(laid: Array, weights: Array, n: int) -> Array:
    return jnp.sum(jnp.where(bits(laid, n), weights, 0))


def list_uses(T: Tables, stage: Array, card: Array, hand: Array, side: Array, down: Array) -> Uses:
    """:func:`~conquian.engine.conquian.listing.use_forms` and its numbering (see :class:`Uses`)."""
    n, k = T.n_cards, T.n_melds
    meld = jnp.asarray(T.meld)
    c = jnp.maximum(card, 0)
    cb = jnp.asarray(T.card_bit)[c]
    avail = down | hand
    th = jnp.asarray(T.threes)[c]
    tm = meld[th]
    rest = tm & ~cb
    gate = (stage <= FORCED) & (card >= 0) & jnp.any((th < k) & subset(rest, avail))
    hand_f = hand & joinable(T, avail | cb)
    avail_f = down | hand_f
    weights = hand_weights(hand, n)
    # 1: the player's combinations the card fits as they lie
    ext = jnp.asarray(T.ext)[side, c]
    f1 = gate & (side < k) & (ext < k)
    # 2 and 3: the three-card combinations of the card and two cards, hand or (borrowed) down
    live = gate & (th < k)
    s2 = live & subset(rest, hand_f)
    s3 = live & ~s2 & subset(rest, avail_f)
    side_m = meld[side]
    meets = ~empty(side_m[None, :, :] & tm[:, None, :])  # [threes, side]
    touched = union(jnp.where(meets[:, :, None], side_m[None], jnp.uint32(0)))
    left = touched & ~tm
    some = ~empty(left)
    part = jax.vmap(lambda r, a: first_leaf(T, r, jnp.zeros(2, jnp.uint32), cover=False, active=a))(
        left, s3 & some)
    cov = jax.vmap(lambda r, o, a: first_leaf(T, r, o, cover=True, active=a))(
        left, hand_f & ~tm, s3 & some & ~part.stopped)
    f3 = s3 & (~some | part.stopped | cov.stopped)
    extra = jnp.where(part.stopped[:, None], part.path[:, :4], cov.path[:, :4])
    extra = jnp.where(some[:, None], extra, k)
    forms = jnp.full((4 + th.shape[0], 5), k, jnp.int32)
    forms = forms.at[:4, 0].set(jnp.where(f1, ext, k))
    forms = forms.at[4:, 0].set(jnp.where(s2 | f3, th, k))
    forms = forms.at[4:, 1:].set(jnp.where(f3[:, None], extra, k))
    form_meld = forms[:, 0]
    laid3 = union(meld[forms[4:]]) & hand_f
    lays = jnp.concatenate([jnp.zeros(4, jnp.int32), jax.vmap(lambda w: _hb(w, weights, n))(laid3)])
    laid13 = jnp.zeros(LAYS, jnp.bool_).at[lays].max(form_meld < k)
    # 4: every further set of hand cards some use lays, each once, in one partition
    kk = jnp.sum(bits(hand_f, n).astype(jnp.int32))
    step4 = gate & ~((kk <= 2) & (empty(down) | ((kk == 0) & laid13[0])))
    walk = kk >= 4
    seen = jnp.zeros(k + 1, jnp.bool_).at[form_meld].set(True)
    acc0 = (jnp.zeros(LAYS, jnp.bool_), jnp.full(LAYS, k, jnp.int32), seen, jnp.zeros(LAYS, jnp.bool_),
            jnp.full(k + 1, -1, jnp.int32))

    def record(acc: Any, ok: Array, hb: Array, cm: Array) -> Any:
        found, mof, seen, lay, first = acc
        first = first.at[cm].set(jnp.where(ok & ~seen[cm], hb, first[cm]))
        lay = lay.at[hb].set(lay[hb] | (ok & seen[cm]))
        seen = seen.at[cm].set(seen[cm] | ok)
        return found, mof, seen, lay, first

    def leaf(acc: Any, is_leaf: Array, laid: Array, cm: Array) -> tuple[Any, Array]:
        found, mof, seen, lay, first = acc
        hb = _hb(laid, weights, n)
        new = is_leaf & ~found[hb]
        found = found.at[hb].set(found[hb] | new)
        mof = mof.at[hb].set(jnp.where(new, cm, mof[hb]))
        acc = record((found, mof, seen, lay, first), new & ~laid13[hb] & walk, hb, cm)
        return acc, jnp.bool_(False)

    res = dfs(T, cb | down, hand_f, side, hand, card, cover=False, leaf_fn=leaf, acc=acc0, active=step4)
    useful = _hb(hand_f, weights, n)

    def few(i: int, carry: tuple[Any, Array, Array]) -> tuple[Any, Array, Array]:
        # three hand cards or fewer: each set of them, from the largest number down
        acc, sub, done = carry
        found, mof = acc[0], acc[1]
        ok = ~done & found[sub] & ~laid13[sub] & ~walk & step4
        acc = record(acc, ok, sub, mof[sub])
        return acc, (sub - 1) & useful, done | (sub == 0)

    acc, _, _ = lax.fori_loop(0, 8, few, (res.acc, useful, jnp.bool_(False)))
    _, _, seen, lay, first = acc
    return Uses(seen[:k], lay, forms, form_meld, first)


def use_melds(T: Tables, uses: Uses, index: Array, card: Array, hand: Array, side: Array,
              down: Array) -> Array:
    """The new combinations (``int32[NEW]``, ``n_melds`` for none, in no order) of the listed use
    with action ``index`` (``A_USE`` or later)."""
    k = T.n_melds
    m = index - T.a_use
    is_use = m < k
    row = jnp.argmax(uses.form_meld == m)
    listed = is_use & jnp.any(uses.form_meld == m)
    target = jnp.where(is_use, uses.first_lay[jnp.clip(m, 0, k)], index - T.a_lay)
    c = jnp.maximum(card, 0)
    cb = jnp.asarray(T.card_bit)[c]
    hand_f = hand & joinable(T, down | hand | cb)
    weights = hand_weights(hand, T.n_cards)

    def leaf(acc: Any, is_leaf: Array, laid: Array, cm: Array) -> tuple[Any, Array]:
        return acc, is_leaf & (_hb(laid, weights, T.n_cards) == target)

    active = (index >= T.a_use) & ~listed
    res = dfs(T, cb | down, hand_f, side, hand, card, cover=False, leaf_fn=leaf, acc=(), active=active)
    path = res.path
    kept = (path >= 0) & (path < k) & ~jnp.any(path[:, None] == side[None, :], axis=1)
    walked = jnp.sort(jnp.where(kept, path, k))[:8]
    from_form = jnp.concatenate([uses.forms[row], jnp.full(3, k, jnp.int32)])
    return jnp.where(listed, from_form, walked)


__all__ = ["LAYS", "Search", "Uses", "dfs", "first_leaf", "joinable", "list_uses", "lowest", "use_melds"]
